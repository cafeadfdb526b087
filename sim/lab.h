/* The designer's questions (issue 24 items 3 and 4), on sim's driver, journal and statistics:
 *   balance  which value of a parameter makes the French win rate 50% (or a target): rounds of
 *            sweep points, each round's values chosen from a logistic fit of every game so far
 *            (balance.c; the fit and its crossing in crossing.c)
 *   worth    what a rule is worth: each restriction of R-5.8 (ban_french / ban_allied) for each
 *            side, paired against the full rules on the same seeds (worth.c)
 * Their options are read in cli/lab.c. */
#ifndef WATERLOO_LAB_H
#define WATERLOO_LAB_H
#include <stdint.h>

#define LAB_SPEC 120
#define LAB_MAX_VALUES 256 /* values played over all rounds (16 rounds x 16 points) */
#define LAB_MAX_ROUNDS 16

typedef struct {
  char scen[16];
  char param[64];          /* a one-number parameter of docs/PARAMETERS.md */
  char fix[192];           /* other parameters held fixed, NAME=V[+NAME=V]; "" none */
  int lo, hi;              /* the range of values searched */
  double target;           /* the French win rate sought (0.5) */
  char pf[LAB_SPEC], pa[LAB_SPEC];
  long games;              /* games a value a round */
  int points, rounds;      /* values a round, rounds */
  uint64_t seed;           /* round r plays the seeds of seed + r - 1 */
  int threads, resume, overwrite, progress;
  char out[1024];
} BalanceCfg;
/* plays the rounds into out/round-R (sim journals), writes out/balance.md and balance.svg;
 * the exit code */
int balance_run(const BalanceCfg *b);

typedef struct {
  char scen[2][16];
  int nscen;
  char pf[LAB_SPEC], pa[LAB_SPEC];
  long games;
  uint64_t seed;
  int bans;                /* the BAN_* bits measured (every one when 0) */
  int sides;               /* bit 0: restrict the French, bit 1: the Allies */
  int threads, resume, overwrite, progress;
  char out[1024];
} WorthCfg;
/* one sim run (base + a cell per side x restriction) into out, then worth.md and worth.svg;
 * the exit code */
int worth_run(const WorthCfg *w);

/* MPI under waterloo-mpi (this process's rank and the number of ranks; 0 and 1 without):
 * lab_mpi_begin initialises it when nobody has, and says so for lab_mpi_end */
int lab_mpi_begin(int *rank, int *size);
void lab_mpi_end(int mine);

/* the reports say when neither side searches (spec_searches) */
#define LAB_NO_SEARCH \
  "**Not search-level:** neither player searches, so this measures the game as these players " \
  "play it, a check of the machinery; a designer's answer needs a search level (`--players " \
  "mcts:sim` or stronger)."

/* ---------------------------------------------------------------- the crossing (crossing.c) */
/* the logistic fit P(French win) = 1 / (1 + exp(-(a + b x))) of k[i] French wins in n[i] games
 * at x[i] (maximum likelihood, Newton), and where it crosses the target: xs with its 95%
 * Fieller interval [xlo, xhi] (bounded = 0: the slope is not told from 0, the interval is
 * unbounded), Pearson's chi-square of the fit (df = values - 2) and its p-value; when the
 * chi-square exceeds its df the variances (and so the interval) are scaled by chi2 / df */
typedef struct {
  int ok;                  /* 0: no fit (fewer than 2 values, a separation, no convergence) */
  double a, b, va, vb, cab;
  double xs, xlo, xhi;
  int bounded;
  double chi2, gof_p;
  int df;
  double disp;             /* chi2 / df when above 1 (the variances are scaled by it), else 1 */
} LogitFit;
void logit_fit(const double *x, const long *k, const long *n, int m, double target, double z,
               LogitFit *f);
/* where played rates cross the target: a crossing is a pair of neighbouring values on either
 * side of it, a rate equal to the target counting as reaching it (so a sweep 25%, 50%, 79%
 * crosses 50% once, between the first two); the first one linearly interpolated (NAN when they
 * never cross), *i0 its lower index, *count how many (more than one: the rates do not move one
 * way with the value) */
double sweep_crossing(const double *x, const double *rate, int m, double target, int *i0,
                      int *count);
static inline double logit_p(const LogitFit *f, double x) {
  double e = f->a + f->b * x;
  return e > 0 ? 1 / (1 + __builtin_exp(-e)) : __builtin_exp(e) / (1 + __builtin_exp(e));
}

#endif
