/* balance's statistics: the logistic fit of the French win rate against a parameter's value and
 * the value where it crosses a target, with Fieller's interval (sim/lab.h) */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <string.h>

#include "lab.h"

/* Newton steps on the centred, scaled values u = (x - mid) / scale: *al, *be and the inverse
 * of the information (v[0] var al, v[1] cov, v[2] var be); 0, or -1 without convergence */
static int logit_newton(const double *u, const long *k, const long *n, int m, double *al,
                        double *be, double v[3]) {
  double a = 0, b = 0;
  for (int it = 0; it < 100; it++) {
    double g0 = 0, g1 = 0, h00 = 0, h01 = 0, h11 = 0;
    for (int i = 0; i < m; i++) {
      double e = a + b * u[i], p = 1 / (1 + exp(-e)), w = n[i] * p * (1 - p);
      g0 += k[i] - n[i] * p;
      g1 += u[i] * (k[i] - n[i] * p);
      h00 += w, h01 += w * u[i], h11 += w * u[i] * u[i];
    }
    double det = h00 * h11 - h01 * h01;
    if (!(det > 1e-12)) return -1;
    v[0] = h11 / det, v[1] = -h01 / det, v[2] = h00 / det;
    double da = v[0] * g0 + v[1] * g1, db = v[1] * g0 + v[2] * g1;
    a += da, b += db;
    if (fabs(a) > 40 || fabs(b) > 40) return -1; /* a separation: the estimate runs away */
    if (fabs(da) < 1e-12 && fabs(db) < 1e-12) {
      *al = a, *be = b;
      return 0;
    }
  }
  return -1;
}

/* Fieller: the x where (a + b x - L)^2 <= z^2 (va + 2 x cab + x^2 vb) */
static void fieller(LogitFit *f, double target, double z) {
  double L = log(target / (1 - target)), d = f->a - L, z2 = z * z;
  f->xs = -d / f->b;
  double A = f->b * f->b - z2 * f->vb, B = d * f->b - z2 * f->cab, C = d * d - z2 * f->va;
  double disc = B * B - A * C;
  f->bounded = A > 0 && disc >= 0;
  if (!f->bounded) {
    f->xlo = -INFINITY, f->xhi = INFINITY;
    return;
  }
  double r = sqrt(disc);
  f->xlo = (-B - r) / A, f->xhi = (-B + r) / A;
}

void logit_fit(const double *x, const long *k, const long *n, int m, double target, double z,
               LogitFit *f) {
  memset(f, 0, sizeof *f);
  f->xs = f->xlo = f->xhi = NAN;
  if (m < 2 || m > 4096) return;
  double lo = x[0], hi = x[0], u[4096];
  for (int i = 1; i < m; i++) lo = fmin(lo, x[i]), hi = fmax(hi, x[i]);
  double mid = (lo + hi) / 2, sc = hi > lo ? (hi - lo) / 2 : 1;
  for (int i = 0; i < m; i++) u[i] = (x[i] - mid) / sc;
  double al, be, v[3];
  if (logit_newton(u, k, n, m, &al, &be, v)) return;
  /* back to x: a + b x = al + be (x - mid) / sc */
  double t = mid / sc;
  f->b = be / sc;
  f->a = al - be * t;
  f->vb = v[2] / (sc * sc);
  f->va = v[0] - 2 * t * v[1] + t * t * v[2];
  f->cab = (v[1] - t * v[2]) / sc;
  f->ok = 1;
  f->df = m - 2;
  for (int i = 0; i < m; i++) {
    double p = logit_p(f, x[i]), w = n[i] * p * (1 - p);
    if (w > 0) f->chi2 += (k[i] - n[i] * p) * (k[i] - n[i] * p) / w;
  }
  f->gof_p = f->df > 0 ? gsl_cdf_chisq_Q(f->chi2, f->df) : NAN;
  /* a curve that fits worse than binomial noise allows (chi2 / df > 1): the variances are
   * scaled by chi2 / df (quasi-binomial), so its crossing's interval widens with the misfit */
  f->disp = f->df > 0 && f->chi2 > f->df ? f->chi2 / f->df : 1;
  f->va *= f->disp, f->vb *= f->disp, f->cab *= f->disp;
  if (f->b != 0) fieller(f, target, z);
}

double sweep_crossing(const double *x, const double *rate, int m, double target, int *i0,
                      int *count) {
  double at = NAN;
  *count = 0;
  for (int i = 0; i + 1 < m; i++) {
    double p = rate[i], q = rate[i + 1];
    if ((p >= target) == (q >= target)) continue;
    if (++*count == 1) {
      *i0 = i;
      at = x[i] + (target - p) / (q - p) * (x[i + 1] - x[i]);
    }
  }
  return at;
}
