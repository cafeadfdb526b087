/* Statistics: Wilson intervals, McNemar, paired differences, Elo, SPRT; the distributions and
 * the linear algebra from GSL. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include "sim.h"

Interval wilson(long k, long n, double z) {
  Interval r = {0, 0, 1};
  if (n <= 0) return r;
  double p = (double)k / (double)n, nn = (double)n, z2 = z * z;
  double den = 1.0 + z2 / nn;
  double center = (p + z2 / (2 * nn)) / den;
  double half = z * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / den;
  r.p = p;
  r.lo = center - half;
  r.hi = center + half;
  if (r.lo < 0) r.lo = 0;
  if (r.hi > 1) r.hi = 1;
  if (k == 0) r.lo = 0;
  if (k == n) r.hi = 1;
  return r;
}

/* the standard normal quantile (GSL) */
double sign_test_p(long w, long l) {
  return w + l > 0 && w > 0 ? gsl_cdf_binomial_Q((unsigned)(w - 1), 0.5, (unsigned)(w + l)) : 1;
}

double norm_cdf(double x) { return gsl_cdf_ugaussian_P(x); }

double norm_quantile(double p) {
  if (p <= 0) return -INFINITY;
  if (p >= 1) return INFINITY;
  return gsl_cdf_ugaussian_Pinv(p);
}

double mcnemar_p(long b, long c, double *chi2) {
  long n = b + c;
  if (chi2) {
    double dd = fabs((double)(b - c)) - 1.0;
    if (dd < 0) dd = 0;
    *chi2 = n > 0 ? dd * dd / (double)n : 0.0;
  }
  if (n == 0) return 1.0;
  long k = b < c ? b : c;
  /* twice P(X <= k), X ~ Bin(n, 1/2): GSL's binomial tail */
  double p = 2 * gsl_cdf_binomial_P((unsigned)k, 0.5, (unsigned)n);
  return p > 1 ? 1 : p;
}

/* Newcombe's hybrid score interval (method 10) of p1 - p2 from the two Wilson intervals and the
 * correlation phi of the pairs (0: independent samples) */
static Interval newcombe(double p1, Interval w1, double p2, Interval w2, double phi) {
  double d1 = p1 - w1.lo, e1 = w1.hi - p1, d2 = p2 - w2.lo, e2 = w2.hi - p2;
  Interval r;
  r.p = p1 - p2;
  r.lo = fmax(-1, r.p - sqrt(fmax(0, d1 * d1 - 2 * phi * d1 * e2 + e2 * e2)));
  r.hi = fmin(1, r.p + sqrt(fmax(0, e1 * e1 - 2 * phi * e1 * d2 + d2 * d2)));
  return r;
}

Interval paired_diff(long a, long b, long c, long d, double z) {
  long n = a + b + c + d;
  if (n <= 0) return (Interval){0, -1, 1};
  double A = (double)(a + b) * (double)(c + d) * (double)(a + c) * (double)(b + d);
  double phi = 0;
  if (A > 0) {
    double num = (double)a * d - (double)b * c;
    /* Newcombe's continuity adjustment of phi when positive */
    if (num > 0) num = num - n / 2.0 > 0 ? num - n / 2.0 : 0;
    phi = num / sqrt(A);
  }
  return newcombe((double)(a + b) / n, wilson(a + b, n, z), (double)(a + c) / n,
                  wilson(a + c, n, z), phi);
}

Interval diff_indep(long k1, long n1, long k2, long n2, double z) {
  if (n1 <= 0 || n2 <= 0) return (Interval){NAN, NAN, NAN};
  double p1 = (double)k1 / n1, p2 = (double)k2 / n2;
  return newcombe(p1, wilson(k1, n1, z), p2, wilson(k2, n2, z), 0);
}

double pair_phi(long a, long b, long c, long d) {
  double A = (double)(a + b) * (double)(c + d) * (double)(a + c) * (double)(b + d);
  return A > 0 ? ((double)a * d - (double)b * c) / sqrt(A) : NAN;
}

PairGain pair_gain(long a, long b, long c, long d, double z) {
  PairGain g;
  long n = a + b + c + d;
  g.phi = pair_phi(a, b, c, d);
  g.paired = paired_diff(a, b, c, d, z);
  if (n <= 0) {
    g.unpaired = g.paired;
    g.gain = NAN;
    return g;
  }
  g.unpaired = newcombe((double)(a + b) / n, wilson(a + b, n, z), (double)(a + c) / n,
                        wilson(a + c, n, z), 0);
  double wp = g.paired.hi - g.paired.lo, wu = g.unpaired.hi - g.unpaired.lo;
  g.gain = wu > 0 ? 1 - wp / wu : NAN;
  return g;
}

double games_for_halfwidth(double p1, double p2, double phi, double h, double z) {
  double v1 = p1 * (1 - p1), v2 = p2 * (1 - p2);
  if (isnan(phi)) phi = 0;
  double var = v1 + v2 - 2 * phi * sqrt(v1 * v2);
  if (!(h > 0)) return INFINITY;
  if (var < 1e-12) var = 1e-12;
  return ceil(z * z * var / (h * h));
}

double elo_from_score(double s) {
  if (s <= 0) return -INFINITY;
  if (s >= 1) return INFINITY;
  return -400.0 * log10(1.0 / s - 1.0);
}

void elo_wld(long w, long l, long d, double *elo, double *margin) {
  double n = (double)(w + l + d);
  if (n <= 0) { *elo = 0; *margin = INFINITY; return; }
  double pw = w / n, pl = l / n, pd = d / n;
  double mu = pw + pd / 2;
  double var = pw * (1 - mu) * (1 - mu) + pl * mu * mu + pd * (0.5 - mu) * (0.5 - mu);
  double sd = sqrt(var / n);
  double lo = mu - Z95 * sd, hi = mu + Z95 * sd;
  *elo = elo_from_score(mu);
  if (lo <= 0 || hi >= 1) *margin = INFINITY;
  else *margin = (elo_from_score(hi) - elo_from_score(lo)) / 2;
}

void elo_wld_interval(long w, long l, long d, double *lo, double *hi) {
  double n = (double)(w + l + d);
  if (n <= 0) { *lo = -INFINITY; *hi = INFINITY; return; }
  double pw = w / n, pl = l / n, pd = d / n;
  double mu = pw + pd / 2;
  double var = pw * (1 - mu) * (1 - mu) + pl * mu * mu + pd * (0.5 - mu) * (0.5 - mu);
  double sd = sqrt(var / n);
  *lo = elo_from_score(mu - Z95 * sd);
  *hi = elo_from_score(mu + Z95 * sd);
}

static double score_of_elo(double e) { return 1.0 / (1.0 + pow(10.0, -e / 400.0)); }

double sprt_llr(long w, long l, long d, double elo0, double elo1) {
  double W = (double)w, L = (double)l, D = (double)d;
  if (W + L + D <= 0) return 0;
  if (w == 0 || l == 0) { W += 0.5; L += 0.5; D += 0.5; } /* keep the variance positive */
  double n = W + L + D;
  double pw = W / n, pd = D / n;
  double mu = pw + pd / 2;
  double var = (pw + pd / 4) - mu * mu;
  if (var <= 0) return 0;
  double s0 = score_of_elo(elo0), s1 = score_of_elo(elo1);
  /* normal approximation of the log-likelihood ratio (as in fishtest's trinomial SPRT) */
  return n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var);
}

/* ---------------------------------------------------------------- Student t */
/* GSL's t distribution (its incomplete beta) */
double t_cdf(double t, double df) { return gsl_cdf_tdist_P(t, df); }

double t_quantile(double p, double df) {
  if (p <= 0) return -INFINITY;
  if (p >= 1) return INFINITY;
  if (df <= 0) return NAN;
  return gsl_cdf_tdist_Pinv(p, df);
}

Interval mean_t(double sum, double sum2, long n, double conf) {
  Interval r = {0, -INFINITY, INFINITY};
  if (n <= 0) { r.p = NAN; return r; }
  double nn = (double)n, mean = sum / nn;
  r.p = mean;
  if (n < 2) return r;
  double var = (sum2 - nn * mean * mean) / (nn - 1);
  if (var < 0) var = 0;
  double half = t_quantile(0.5 + conf / 2, nn - 1) * sqrt(var / nn);
  r.lo = mean - half;
  r.hi = mean + half;
  return r;
}

/* ---------------------------------------------------------------- Elo bounds */
Interval wilson_d(double k, long n, double z) {
  Interval r = {0, 0, 1};
  if (n <= 0) return r;
  double nn = (double)n, p = k / nn, z2 = z * z;
  double den = 1.0 + z2 / nn;
  double center = (p + z2 / (2 * nn)) / den;
  double half = z * sqrt(fmax(0, p * (1 - p)) / nn + z2 / (4 * nn * nn)) / den;
  r.p = p;
  r.lo = fmax(0, center - half);
  r.hi = fmin(1, center + half);
  return r;
}

void elo_bounds_wilson(long w, long l, long d, double *lo, double *hi) {
  long n = w + l + d;
  Interval iv = wilson_d(w + 0.5 * d, n, Z95);
  *lo = elo_from_score(iv.lo);
  *hi = elo_from_score(iv.hi);
}

/* ---------------------------------------------------------------- mirrored pairs */
void penta_stats(const long pc[5], PentaStats *ps) {
  memset(ps, 0, sizeof *ps);
  long n = 0;
  double s = 0, s2 = 0;
  for (int k = 0; k < 5; k++) {
    n += pc[k];
    s += pc[k] * (k / 4.0);
    s2 += pc[k] * (k / 4.0) * (k / 4.0);
  }
  ps->pairs = n;
  ps->elo = NAN;
  ps->margin = INFINITY;
  ps->los = NAN;
  if (n <= 0) return;
  double nn = (double)n, mu = s / nn, var = s2 / nn - mu * mu;
  if (var < 0) var = 0;
  ps->score = mu;
  ps->var = var;
  ps->elo = elo_from_score(mu);
  double se = sqrt(var / nn);
  if (se > 0) {
    ps->los = 0.5 * erfc(-((mu - 0.5) / se) / sqrt(2.0));
    double lo = mu - Z95 * se, hi = mu + Z95 * se;
    if (lo > 0 && hi < 1) ps->margin = (elo_from_score(hi) - elo_from_score(lo)) / 2;
  } else {
    ps->los = mu > 0.5 ? 1 : mu < 0.5 ? 0 : 0.5;
  }
}

double sprt_llr_penta(const long pc[5], double elo0, double elo1) {
  long q[5];
  long n = 0, zero = 0;
  for (int k = 0; k < 5; k++) { q[k] = pc[k]; n += q[k]; }
  if (n <= 0) return 0;
  for (int k = 0; k < 5; k++) zero += q[k] == 0;
  double c[5], nn = 0;
  for (int k = 0; k < 5; k++) {
    /* an empty cell: a quarter of a pair in every cell keeps the variance from collapsing at
     * small samples (fishtest's 1e-3 assumes thousands of pairs; two 2-0 pairs would then
     * "prove" anything) */
    c[k] = (double)q[k] + (zero ? 0.25 : 0);
    nn += c[k];
  }
  double mu = 0, m2 = 0;
  for (int k = 0; k < 5; k++) { mu += c[k] * k / 4.0; m2 += c[k] * (k / 4.0) * (k / 4.0); }
  mu /= nn;
  double var = m2 / nn - mu * mu;
  if (var <= 0) return 0;
  double s0 = 1.0 / (1.0 + pow(10.0, -elo0 / 400.0)), s1 = 1.0 / (1.0 + pow(10.0, -elo1 / 400.0));
  /* normal approximation of the LLR over the pair scores (the GSPRT of fishtest) */
  return (double)n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var);
}

/* ---------------------------------------------------------------- several tests */
void holm_adjust(const double *p, int n, double *adj) {
  int idx[256];
  if (n > 256) n = 256;
  for (int i = 0; i < n; i++) idx[i] = i;
  for (int i = 1; i < n; i++) /* insertion sort by p, stable */
    for (int j = i; j > 0 && p[idx[j]] < p[idx[j - 1]]; j--) { int t = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = t; }
  double run = 0;
  for (int r = 0; r < n; r++) {
    double v = (n - r) * p[idx[r]];
    if (v > 1) v = 1;
    if (v < run) v = run; /* adjusted p-values never decrease along the order */
    run = v;
    adj[idx[r]] = v;
  }
}

/* fixed-effect pooling: weights 1/v, skipping estimates whose variance is unknown or not
 * positive; the trend is the weighted least-squares slope of x on the index i */
void pool_estimates(const double *x, const double *v, int n, Pooled *o) {
  double sw = 0, sx = 0, si = 0;
  o->n = 0;
  for (int i = 0; i < n; i++)
    if (v[i] > 0 && isfinite(v[i]) && isfinite(x[i])) {
      double w = 1 / v[i];
      sw += w;
      sx += w * x[i];
      si += w * i;
      o->n++;
    }
  o->mean = o->var = o->q = o->q_p = o->slope = o->slope_var = o->slope_p = NAN;
  o->q_line = o->q_line_p = NAN;
  if (!o->n) return;
  o->mean = sx / sw;
  o->var = 1 / sw;
  double ibar = si / sw, q = 0, sii = 0, sxi = 0;
  for (int i = 0; i < n; i++)
    if (v[i] > 0 && isfinite(v[i]) && isfinite(x[i])) {
      double w = 1 / v[i], dx = x[i] - o->mean;
      q += w * dx * dx;
      sii += w * (i - ibar) * (i - ibar);
      sxi += w * (i - ibar) * dx;
    }
  if (o->n >= 2) {
    o->q = q;
    o->q_p = gsl_cdf_chisq_Q(q, o->n - 1);
  }
  if (o->n >= 3 && sii > 0) {
    o->slope = sxi / sii;
    o->slope_var = 1 / sii;
    o->slope_p = 2 * gsl_cdf_ugaussian_Q(fabs(o->slope) / sqrt(o->slope_var));
    o->q_line = fmax(0, q - o->slope * o->slope * sii);
    o->q_line_p = gsl_cdf_chisq_Q(o->q_line, o->n - 2);
  }
}

double mcnemar_games_needed(double p_disc, double delta, double alpha, double power) {
  delta = fabs(delta);
  if (delta <= 0 || p_disc <= 0) return INFINITY;
  if (p_disc < delta) p_disc = delta; /* b + c >= |b - c|: at least the discordant pairs the effect needs */
  double za = norm_quantile(1 - alpha / 2), zb = norm_quantile(power);
  double s = za * sqrt(p_disc) + zb * sqrt(fmax(0, p_disc - delta * delta));
  return ceil(s * s / (delta * delta));
}

double mean_games_needed(double sd, double delta, double alpha, double power) {
  delta = fabs(delta);
  if (delta <= 0) return INFINITY;
  double za = norm_quantile(1 - alpha / 2), zb = norm_quantile(power);
  double s = (za + zb) * sd / delta;
  return ceil(s * s);
}

/* ---------------------------------------------------------------- Bradley-Terry */
/* the inverse of the n x n matrix A (row-major) into inv by GSL's LU decomposition (partial
 * pivoting); A is left as it was.  -1 when singular. */
static int solve_inv(int n, double *A, double *inv) {
  gsl_matrix *M = gsl_matrix_alloc((size_t)n, (size_t)n);
  gsl_permutation *perm = gsl_permutation_alloc((size_t)n);
  int rc = -1, sign;
  if (M && perm) {
    memcpy(M->data, A, sizeof(double) * (size_t)n * (size_t)n);
    gsl_matrix_view I = gsl_matrix_view_array(inv, (size_t)n, (size_t)n);
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    if (!gsl_linalg_LU_decomp(M, perm, &sign) && fabs(gsl_linalg_LU_det(M, sign)) > 0 &&
        !gsl_linalg_LU_invert(M, perm, &I.matrix))
      rc = 0;
    gsl_set_error_handler(old);
  }
  gsl_matrix_free(M);
  gsl_permutation_free(perm);
  return rc;
}

int bt_fit(int np, int nm, const BTMatch *m, int anchor, double prior_draws, double *elo,
           double *se) {
  const double k = log(10.0) / 400.0;
  /* players connected to the anchor through the matches */
  int *conn = calloc((size_t)np, sizeof(int)), *map = malloc(sizeof(int) * (size_t)np);
  if (!conn || !map) { free(conn); free(map); return -1; }
  conn[anchor] = 1;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = 0; i < nm; i++) {
      if (m[i].w + m[i].l + m[i].d <= 0) continue;
      if (conn[m[i].a] != conn[m[i].b]) { conn[m[i].a] = conn[m[i].b] = 1; changed = 1; }
    }
  }
  int nf = 0; /* free parameters: connected players other than the anchor */
  for (int i = 0; i < np; i++) map[i] = conn[i] && i != anchor ? nf++ : -1;
  for (int i = 0; i < np; i++) { elo[i] = conn[i] ? 0 : NAN; se[i] = conn[i] ? 0 : NAN; }
  if (nf == 0) { free(conn); free(map); return 0; }
  double *x = calloc((size_t)np, sizeof(double)), *g = malloc(sizeof(double) * (size_t)nf);
  double *H = malloc(sizeof(double) * (size_t)nf * (size_t)nf), *Hi = malloc(sizeof(double) * (size_t)nf * (size_t)nf);
  int rc = 0;
  for (int it = 0; it < 200; it++) {
    memset(g, 0, sizeof(double) * (size_t)nf);
    memset(H, 0, sizeof(double) * (size_t)nf * (size_t)nf);
    for (int i = 0; i < nm; i++) {
      double n = m[i].w + m[i].l + m[i].d;
      if (n <= 0 || !conn[m[i].a]) continue;
      double S = m[i].w + 0.5 * m[i].d + 0.5 * prior_draws, N = n + prior_draws;
      double p = 1 / (1 + exp(-(x[m[i].a] - x[m[i].b])));
      double gr = S - N * p, h = N * p * (1 - p);
      int a = map[m[i].a], b = map[m[i].b];
      if (a >= 0) { g[a] += gr; H[a * nf + a] += h; }
      if (b >= 0) { g[b] -= gr; H[b * nf + b] += h; }
      if (a >= 0 && b >= 0) { H[a * nf + b] -= h; H[b * nf + a] -= h; }
    }
    if (solve_inv(nf, H, Hi)) { rc = -1; break; }
    double step = 0;
    for (int i = 0; i < np; i++) {
      if (map[i] < 0) continue;
      double dx = 0;
      for (int j = 0; j < nf; j++) dx += Hi[map[i] * nf + j] * g[j];
      if (dx > 3) dx = 3; /* damped: a 100% score pulls without bound when there is no prior */
      if (dx < -3) dx = -3;
      x[i] += dx;
      step = fmax(step, fabs(dx));
    }
    if (step < 1e-12) break;
  }
  if (rc == 0)
    for (int i = 0; i < np; i++) {
      if (map[i] < 0) continue;
      elo[i] = x[i] / k;
      se[i] = sqrt(fmax(0, Hi[map[i] * nf + map[i]])) / k;
    }
  free(x); free(g); free(H); free(Hi); free(conn); free(map);
  return rc;
}

int ladder_wls(int np, int nm, const int *a, const int *b, const double *val, const double *var,
               int anchor, double *r, double *se) {
  int *conn = calloc((size_t)np, sizeof(int)), *map = malloc(sizeof(int) * (size_t)np);
  if (!conn || !map) { free(conn); free(map); return -1; }
  conn[anchor] = 1;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = 0; i < nm; i++)
      if (isfinite(var[i]) && var[i] > 0 && conn[a[i]] != conn[b[i]]) { conn[a[i]] = conn[b[i]] = 1; changed = 1; }
  }
  int nf = 0;
  for (int i = 0; i < np; i++) map[i] = conn[i] && i != anchor ? nf++ : -1;
  for (int i = 0; i < np; i++) { r[i] = conn[i] ? 0 : NAN; se[i] = conn[i] ? 0 : NAN; }
  int rc = 0;
  if (nf > 0) {
    double *H = calloc((size_t)nf * (size_t)nf, sizeof(double)), *Hi = malloc(sizeof(double) * (size_t)nf * (size_t)nf);
    double *g = calloc((size_t)nf, sizeof(double));
    for (int i = 0; i < nm; i++) {
      if (!(isfinite(var[i]) && var[i] > 0) || !conn[a[i]]) continue;
      double wgt = 1 / var[i];
      int x = map[a[i]], y = map[b[i]];
      if (x >= 0) { H[x * nf + x] += wgt; g[x] += wgt * val[i]; }
      if (y >= 0) { H[y * nf + y] += wgt; g[y] -= wgt * val[i]; }
      if (x >= 0 && y >= 0) { H[x * nf + y] -= wgt; H[y * nf + x] -= wgt; }
    }
    rc = solve_inv(nf, H, Hi);
    if (rc == 0)
      for (int i = 0; i < np; i++) {
        if (map[i] < 0) continue;
        double s = 0;
        for (int j = 0; j < nf; j++) s += Hi[map[i] * nf + j] * g[j];
        r[i] = s;
        se[i] = sqrt(fmax(0, Hi[map[i] * nf + map[i]]));
      }
    free(H); free(Hi); free(g);
  }
  free(conn); free(map);
  return rc;
}
