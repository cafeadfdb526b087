/* ./waterloo train: fit the evaluation to game outcomes (logistic regression, Texel style). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "../ai/ai_internal.h"
#include "../ai/player.h"

static double cpu_sec(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

typedef struct { double f[FIT_NF]; float y, hand; int game; } Sample;

static double logloss1(double p, double y) {
  if (p < 1e-6) p = 1e-6;
  if (p > 1 - 1e-6) p = 1 - 1e-6;
  return -(y * log(p) + (1 - y) * log(1 - p));
}

/* solve A x = b (n x n, Gaussian elimination with partial pivoting); 0 ok */
static int solve(int n, double A[FIT_NF][FIT_NF], double *b, double *x) {
  for (int c = 0; c < n; c++) {
    int p = c;
    for (int r = c + 1; r < n; r++)
      if (fabs(A[r][c]) > fabs(A[p][c])) p = r;
    if (fabs(A[p][c]) < 1e-12) return -1;
    if (p != c) {
      for (int k = 0; k < n; k++) { double t = A[c][k]; A[c][k] = A[p][k]; A[p][k] = t; }
      double t = b[c]; b[c] = b[p]; b[p] = t;
    }
    for (int r = c + 1; r < n; r++) {
      double m = A[r][c] / A[c][c];
      for (int k = c; k < n; k++) A[r][k] -= m * A[c][k];
      b[r] -= m * b[c];
    }
  }
  for (int c = n - 1; c >= 0; c--) {
    double s = b[c];
    for (int k = c + 1; k < n; k++) s -= A[c][k] * x[k];
    x[c] = s / A[c][c];
  }
  return 0;
}

/* Newton's method on the L2-regularised log-loss (the bias is not penalised) */
static void fit_newton(const Sample *S, long n, double lambda, double *w) {
  memset(w, 0, sizeof(double) * FIT_NF);
  for (int it = 0; it < 30; it++) {
    double H[FIT_NF][FIT_NF], g[FIT_NF], d[FIT_NF];
    memset(H, 0, sizeof H);
    memset(g, 0, sizeof g);
    for (long i = 0; i < n; i++) {
      double p = fit_eval(w, S[i].f);
      double e = p - S[i].y, v = p * (1 - p);
      for (int a = 0; a < FIT_NF; a++) {
        g[a] += e * S[i].f[a];
        for (int b = 0; b <= a; b++) H[a][b] += v * S[i].f[a] * S[i].f[b];
      }
    }
    for (int a = 0; a < FIT_NF; a++) {
      for (int b = 0; b < a; b++) H[b][a] = H[a][b];
      if (a) { H[a][a] += lambda * n; g[a] += lambda * n * w[a]; }
      H[a][a] += 1e-9 * n;
    }
    if (solve(FIT_NF, H, g, d)) break;
    double step = 0;
    for (int a = 0; a < FIT_NF; a++) { w[a] -= d[a]; step += fabs(d[a]); }
    if (step < 1e-7) break;
  }
}

int cmd_train(int argc, char **argv) {
  int rc = cli_args(argc, argv, "train", "--scenario --variant --games --seed --players --holdout --lambda --out --dry-run!",
                    "usage: waterloo train --scenario short|long [--variant V] [--games N] [--seed S]\n"
                    "                      [--players SPEC] [--holdout F] [--lambda L] [--out FILE] [--dry-run]\n"
                    "Fits the evaluation used by cut-off rollouts (`mcts:...,eval=fit`) to game outcomes:\n"
                    "plays N games (default 6000) with SPEC on both sides (default light:eps=0.1, the rollout\n"
                    "policy, so the fit predicts how a rollout would end), takes the position at every round\n"
                    "start, and fits a logistic regression of the French result (win 1, draw 0.5) on the\n"
                    "features of ai/fit.c by Newton's method with L2 penalty L (default 1e-4).  The last\n"
                    "share F of the games (default 0.2) is held out: the command prints the log-loss of the\n"
                    "fit, of the hand-written evaluation and of the base rate on them, and the calibration\n"
                    "(predicted against actual French win rate in ten bins).  Writes the weights with the\n"
                    "fingerprint of the scenario data to FILE (default scenarios/eval-<scenario>.ini, and\n"
                    "scenarios/eval-<scenario>+<variant>.ini for a variant: each has its own weights);\n"
                    "--dry-run writes nothing.\n");
  if (rc >= 0) return rc;
  const char *scen = opt_get(argc, argv, "--scenario", "short");
  const char *var = opt_get(argc, argv, "--variant", "base");
  Scen *sc = malloc(sizeof *sc);
  if (!sc || cli_scen(sc, scen, var)) return 2;
  uint64_t games, seed;
  if (opt_u64("train", "--games", opt_get(argc, argv, "--games", "6000"), &games) ||
      opt_u64("train", "--seed", opt_get(argc, argv, "--seed", "1"), &seed))
    return 2;
  if (games < 10 || games > 10000000) {
    fprintf(stderr, "train: --games must be in 10..10000000\n");
    return 2;
  }
  char *end;
  double hold = strtod(opt_get(argc, argv, "--holdout", "0.2"), &end);
  if (*end || !(hold > 0 && hold < 1)) { fprintf(stderr, "train: --holdout must be a number in (0, 1)\n"); return 2; }
  double lambda = strtod(opt_get(argc, argv, "--lambda", "1e-4"), &end);
  if (*end || !(lambda >= 0 && lambda < 1)) { fprintf(stderr, "train: --lambda must be a number in [0, 1)\n"); return 2; }
  const char *spec = opt_get(argc, argv, "--players", "light:eps=0.1");
  char err[512];
  if (player_spec_check(spec, err, sizeof err)) { fprintf(stderr, "train: %s\n", err); return 2; }
  char defpath[512];
  fit_path(sc, defpath, sizeof defpath);
  const char *out = opt_get(argc, argv, "--out", defpath);
  int dry = opt_has(argc, argv, "--dry-run");

  AiCtx ctx;
  ai_ctx_init(&ctx, sc);
  long cap = 1 << 16, n = 0;
  Sample *S = malloc((size_t)cap * sizeof *S);
  if (!S) { fprintf(stderr, "train: out of memory\n"); return 1; }
  long res[4] = {0, 0, 0, 0};
  double t0 = cpu_sec();
  for (uint64_t g = 0; g < games; g++) {
    Player *p[2];
    for (int side = 0; side < 2; side++) {
      p[side] = player_new(sc, spec, seed * 1000003ULL + g * 2 + (uint64_t)side, err, sizeof err);
      if (!p[side]) { fprintf(stderr, "train: %s\n", err); return 2; }
    }
    State s;
    gs_init(sc, &s, seed, g);
    long first = n;
    int steps = 0;
    while (!gs_over(&s) && steps < 100000) {
      if (s.turn.phase == PH_ROUND && s.turn.ncards == 0) {
        if (n == cap) {
          cap *= 2;
          Sample *T = realloc(S, (size_t)cap * sizeof *S);
          if (!T) { fprintf(stderr, "train: out of memory\n"); return 1; }
          S = T;
        }
        fit_features(&ctx, &s, S[n].f);
        S[n].hand = (float)ai_eval_french(&ctx, &s);
        S[n].game = (int)g;
        n++;
      }
      gs_apply(sc, &s, player_act(p[s.turn.decider], &s));
      steps++;
    }
    double y = s.score.result == 1 ? 1.0 : s.score.result == 3 ? 0.5 : 0.0;
    res[s.score.result & 3]++;
    for (long i = first; i < n; i++) S[i].y = (float)y;
    player_free(p[0]);
    player_free(p[1]);
  }
  long ntrain = 0;
  uint64_t gsplit = (uint64_t)((1.0 - hold) * (double)games);
  while (ntrain < n && (uint64_t)S[ntrain].game < gsplit) ntrain++;
  if (ntrain == 0 || ntrain == n) { fprintf(stderr, "train: too few positions to split\n"); return 1; }
  double w[FIT_NF];
  fit_newton(S, ntrain, lambda, w);
  /* held-out measures */
  double ll_fit = 0, ll_hand = 0, ll_base = 0, ll_train = 0, base = 0;
  for (long i = 0; i < ntrain; i++) { base += S[i].y; ll_train += logloss1(fit_eval(w, S[i].f), S[i].y); }
  base /= (double)ntrain;
  long nt = n - ntrain;
  long bc[2][10] = {{0}};
  double bp[2][10] = {{0}}, by[2][10] = {{0}};
  for (long i = ntrain; i < n; i++) {
    double pf = fit_eval(w, S[i].f), ph = S[i].hand;
    ll_fit += logloss1(pf, S[i].y);
    ll_hand += logloss1(ph, S[i].y);
    ll_base += logloss1(base, S[i].y);
    for (int k = 0; k < 2; k++) {
      double p = k ? ph : pf;
      int b = (int)(p * 10);
      if (b > 9) b = 9;
      if (b < 0) b = 0;
      bc[k][b]++;
      bp[k][b] += p;
      by[k][b] += S[i].y;
    }
  }
  ll_fit /= (double)nt;
  ll_hand /= (double)nt;
  ll_base /= (double)nt;
  ll_train /= (double)ntrain;
  char cmd[1024] = "./waterloo train";
  for (int i = 1; i < argc; i++)
    snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), " %s", argv[i]);
  char summary[4096];
  int sl = snprintf(summary, sizeof summary,
                    "%" PRIu64 " games of %s (%s, %s): French %ld, Allied %ld, draws %ld; %ld positions "
                    "(round starts), %ld for the fit, %ld held out (the last %.0f%% of the games); %.1f CPU s\n"
                    "log-loss on the held-out positions: fit %.4f, hand-written evaluation %.4f, base "
                    "rate %.4f (fit on its own positions %.4f)\n"
                    "calibration on the held-out positions (French win rate):\n"
                    "| predicted | fit: positions | fit: mean predicted | fit: actual | hand: positions | hand: mean predicted | hand: actual |\n"
                    "|---|---:|---:|---:|---:|---:|---:|\n",
                    games, spec, sc->scen_name, sc->variant_names, res[1], res[2], res[3], n, ntrain,
                    nt, hold * 100, cpu_sec() - t0, ll_fit, ll_hand, ll_base, ll_train);
  for (int b = 0; b < 10 && sl < (int)sizeof summary; b++) {
    sl += snprintf(summary + sl, sizeof summary - (size_t)sl, "| %.1f-%.1f |", b / 10.0, (b + 1) / 10.0);
    for (int k = 0; k < 2 && sl < (int)sizeof summary; k++) {
      if (bc[k][b])
        sl += snprintf(summary + sl, sizeof summary - (size_t)sl, " %ld | %.3f | %.3f |", bc[k][b],
                       bp[k][b] / bc[k][b], by[k][b] / bc[k][b]);
      else
        sl += snprintf(summary + sl, sizeof summary - (size_t)sl, " 0 | - | - |");
    }
    if (sl < (int)sizeof summary) sl += snprintf(summary + sl, sizeof summary - (size_t)sl, "\n");
  }
  fputs(summary, stdout);
  printf("weights:");
  for (int i = 0; i < FIT_NF; i++) printf(" %s=%.4f", FIT_NAMES[i], w[i]);
  printf("\n");
  if (dry) return 0;
  char tmp[600];
  snprintf(tmp, sizeof tmp, "%s.tmp", out);
  FILE *f = fopen(tmp, "w");
  if (!f) { fprintf(stderr, "train: cannot write %s\n", tmp); return 1; }
  fprintf(f, "; The fitted evaluation of the %s game (ai/fit.c): P(French win) = 1/(1+exp(-sum w*feature)).\n", sc->scen_name);
  fprintf(f, "; Reproduce with: %s\n", cmd);
  fprintf(f, "; Used only when the fingerprint matches the scenario data (map, units, cards, parameters,\n"
             "; variants); otherwise the players warn and fall back to the hand-written evaluation.\n;\n");
  for (char *line = summary; *line;) {
    char *nl = strchr(line, '\n');
    fprintf(f, "; %.*s\n", (int)(nl ? nl - line : (long)strlen(line)), line);
    if (!nl) break;
    line = nl + 1;
  }
  fprintf(f, "\n[fit]\nscenario = %s\nvariants = %s\nfingerprint = %016llx\ngames = %" PRIu64 "\nplayers = %s\n"
             "positions = %ld\nheldout_logloss = %.4f\nhand_logloss = %.4f\nbase_logloss = %.4f\n\n[weights]\n",
          sc->scen_name, sc->variant_names, (unsigned long long)fit_fingerprint(sc), games, spec, n, ll_fit,
          ll_hand, ll_base);
  for (int i = 0; i < FIT_NF; i++) fprintf(f, "%s = %.6f\n", FIT_NAMES[i], w[i]);
  if (fclose(f) || rename(tmp, out)) { fprintf(stderr, "train: cannot write %s\n", out); remove(tmp); return 1; }
  printf("wrote %s\n", out);
  free(S);
  free(sc);
  return 0;
}
