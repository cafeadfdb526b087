/* Statistics: Wilson intervals, McNemar, paired differences, Elo, SPRT. */
#include <math.h>

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

/* Acklam's rational approximation refined by one Halley step: |error| < 1e-15 */
double norm_quantile(double p) {
  if (p <= 0) return -INFINITY;
  if (p >= 1) return INFINITY;
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                             -2.759285104469687e+02, 1.383577518672690e+02,
                             -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                             -1.556989798598866e+02, 6.680131188771972e+01,
                             -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                             -2.400758277161838e+00, -2.549732539343734e+00,
                             4.374664141464968e+00, 2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                             2.445134137142996e+00, 3.754408661907416e+00};
  double q, r, x;
  if (p < 0.02425) {
    q = sqrt(-2 * log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p > 1 - 0.02425) {
    q = sqrt(-2 * log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else {
    q = p - 0.5;
    r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  double e = 0.5 * erfc(-x / sqrt(2.0)) - p;
  double u = e * sqrt(2 * M_PI) * exp(x * x / 2);
  return x - u / (1 + x * u / 2);
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
  /* P(X <= k), X ~ Bin(n, 1/2), summed in log space */
  double lp0 = -(double)n * log(2.0), sum = 0.0;
  double lg_n = lgamma((double)n + 1);
  for (long i = 0; i <= k; i++)
    sum += exp(lg_n - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) + lp0);
  double p = 2 * sum;
  return p > 1 ? 1 : p;
}

Interval paired_diff(long a, long b, long c, long d, double z) {
  Interval r = {0, 0, 0};
  long n = a + b + c + d;
  if (n <= 0) { r.lo = -1; r.hi = 1; return r; }
  double p1 = (double)(a + b) / n, p2 = (double)(a + c) / n;
  Interval w1 = wilson(a + b, n, z), w2 = wilson(a + c, n, z);
  double A = (double)(a + b) * (double)(c + d) * (double)(a + c) * (double)(b + d);
  double phi = 0;
  if (A > 0) {
    double num = (double)a * d - (double)b * c;
    /* Newcombe's continuity adjustment of phi when positive */
    if (num > 0) num = num - n / 2.0 > 0 ? num - n / 2.0 : 0;
    phi = num / sqrt(A);
  }
  double d1 = p1 - w1.lo, e1 = w1.hi - p1, d2 = p2 - w2.lo, e2 = w2.hi - p2;
  double delta = sqrt(fmax(0, d1 * d1 - 2 * phi * d1 * e2 + e2 * e2));
  double eps = sqrt(fmax(0, e1 * e1 - 2 * phi * e1 * d2 + d2 * d2));
  r.p = p1 - p2;
  r.lo = fmax(-1, r.p - delta);
  r.hi = fmin(1, r.p + eps);
  return r;
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
