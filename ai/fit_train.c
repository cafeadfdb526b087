/* Fitting the evaluation (`./waterloo train`, options in cli/train.c): positions at every round
 * start of games between two players, labelled with the French result; a logistic regression on
 * the features of fit.c by Newton's method (each step's linear system solved by GSL); the
 * held-out log-losses and calibration; the weights file with its fingerprint. */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai_internal.h"
#include "fit.h"
#include "player.h"
#include "../engine/util.h"

/* the system H d = g of one Newton step (H symmetric positive definite: the Hessian of a
 * penalised log-loss) by GSL's Cholesky decomposition; 0, or -1 when H is not positive definite */
static int newton_step(double H[FIT_NF][FIT_NF], double *g, double *d) {
  gsl_matrix_view A = gsl_matrix_view_array(&H[0][0], FIT_NF, FIT_NF);
  gsl_vector_view b = gsl_vector_view_array(g, FIT_NF), x = gsl_vector_view_array(d, FIT_NF);
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  int rc = gsl_linalg_cholesky_decomp1(&A.matrix) || gsl_linalg_cholesky_solve(&A.matrix, &b.vector, &x.vector);
  gsl_set_error_handler(old);
  return rc ? -1 : 0;
}

int fit_logistic(const FitSample *S, long n, double lambda, double *w) {
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
    if (newton_step(H, g, d)) return -1;
    double step = 0;
    for (int a = 0; a < FIT_NF; a++) { w[a] -= d[a]; step += fabs(d[a]); }
    if (step < 1e-7) break;
  }
  return 0;
}

static double logloss1(double p, double y) {
  if (p < 1e-6) p = 1e-6;
  if (p > 1 - 1e-6) p = 1 - 1e-6;
  return -(y * log(p) + (1 - y) * log(1 - p));
}

/* one run of `train`: the positions collected and the fit */
typedef struct {
  const FitTrainOpts *o;
  FitSample *S;              /* the positions, game by game */
  long n, cap, ntrain;       /* positions; the first ntrain are for the fit */
  long res[4];               /* results of the games */
  double t0;                 /* CPU seconds at the start */
  double w[FIT_NF];          /* the fitted weights */
} Train;

/* the held-out measures: log-losses and calibration bins (k 0: the fit, 1: hand-written) */
typedef struct {
  double ll_fit, ll_hand, ll_base, ll_train;
  long nt;
  long bc[2][10];
  double bp[2][10], by[2][10];
} TrainEval;

/* one game's positions and result, played apart from the others */
typedef struct {
  FitSample *S;
  long n, cap;
  int result, rc;
} GameSamples;

/* room for `need` samples in *S of capacity *cap (doubled, from 128); 0, or 1 when out of
 * memory */
static int samples_reserve(FitSample **S, long *cap, long need) {
  if (need <= *cap) return 0;
  long c = *cap ? *cap : 128;
  while (c < need) c *= 2;
  FitSample *R = realloc(*S, (size_t)c * sizeof *R);
  if (!R) { fprintf(stderr, "train: out of memory\n"); return 1; }
  *S = R;
  *cap = c;
  return 0;
}

/* game g: the position at every round start, labelled with the game's French result, into G;
 * 0, or the exit code.  Reads T and ctx only: games run in parallel */
static int train_game(const Train *T, const AiCtx *ctx, uint64_t g, GameSamples *G) {
  const Scen *sc = T->o->sc;
  char err[512];
  Player *p[2] = {NULL, NULL};
  int rc = 0;
  for (int side = 0; side < 2 && !rc; side++) {
    p[side] = player_new(sc, T->o->spec, T->o->seed * 1000003ULL + g * 2 + (uint64_t)side, err, sizeof err);
    if (!p[side]) { fprintf(stderr, "train: %s\n", err); rc = 2; }
  }
  State s;
  gs_init(sc, &s, T->o->seed, g);
  for (int steps = 0; !rc && !gs_over(&s) && steps < 100000; steps++) {
    if (s.turn.phase == PH_ROUND && s.turn.ncards == 0) {
      if ((rc = samples_reserve(&G->S, &G->cap, G->n + 1))) break;
      FitSample *x = &G->S[G->n++];
      fit_features(ctx, &s, x->f, 1);
      x->hand = (float)ai_eval_french(ctx, &s);
      x->game = (int)g;
    }
    gs_apply(sc, &s, player_act(p[s.turn.decider], &s));
  }
  double y = s.score.result == 1 ? 1.0 : s.score.result == 3 ? 0.5 : 0.0;
  G->result = s.score.result & 3;
  for (long i = 0; i < G->n; i++) G->S[i].y = (float)y;
  player_free(p[0]);
  player_free(p[1]);
  return rc;
}

/* a game's positions after those of the games before it; 0, or 1 when out of memory */
static int train_append(Train *T, const GameSamples *G) {
  if (samples_reserve(&T->S, &T->cap, T->n + G->n)) return 1;
  if (G->n) memcpy(T->S + T->n, G->S, (size_t)G->n * sizeof *G->S);
  T->n += G->n;
  T->res[G->result]++;
  return 0;
}

/* every game, `threads` at a time in batches, their positions kept in game order: the same
 * samples whatever the threads; 0, or the exit code */
static int train_play(Train *T, const AiCtx *ctx) {
  enum { BATCH = 64 };
  GameSamples G[BATCH];
  int rc = 0, threads = T->o->threads > 0 ? T->o->threads : 1;
  for (uint64_t g0 = 0; g0 < T->o->games && !rc; g0 += BATCH) {
    int nb = T->o->games - g0 < BATCH ? (int)(T->o->games - g0) : BATCH;
    memset(G, 0, sizeof G);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int i = 0; i < nb; i++) G[i].rc = train_game(T, ctx, g0 + (uint64_t)i, &G[i]);
    for (int i = 0; i < nb; i++) {
      if (!rc) rc = G[i].rc;
      if (!rc) rc = train_append(T, &G[i]);
      free(G[i].S);
    }
  }
  return rc;
}

/* the log-losses of the fit on its own positions and of the fit, the hand-written evaluation
 * and the base rate on the held-out ones, and the calibration bins */
static void train_measure(const Train *T, TrainEval *E) {
  const FitSample *S = T->S;
  long n = T->n, ntrain = T->ntrain;
  double base = 0;
  for (long i = 0; i < ntrain; i++) { base += S[i].y; E->ll_train += logloss1(fit_eval(T->w, S[i].f), S[i].y); }
  base /= (double)ntrain;
  E->nt = n - ntrain;
  for (long i = ntrain; i < n; i++) {
    double pf = fit_eval(T->w, S[i].f), ph = S[i].hand;
    E->ll_fit += logloss1(pf, S[i].y);
    E->ll_hand += logloss1(ph, S[i].y);
    E->ll_base += logloss1(base, S[i].y);
    for (int k = 0; k < 2; k++) {
      double p = k ? ph : pf;
      int b = (int)(p * 10);
      if (b > 9) b = 9;
      if (b < 0) b = 0;
      E->bc[k][b]++;
      E->bp[k][b] += p;
      E->by[k][b] += S[i].y;
    }
  }
  E->ll_fit /= (double)E->nt;
  E->ll_hand /= (double)E->nt;
  E->ll_base /= (double)E->nt;
  E->ll_train /= (double)ntrain;
}

/* the summary printed and kept in the file: games, positions, log-losses, calibration */
static void train_summary(const Train *T, const TrainEval *E, char *summary, size_t len) {
  int sl = snprintf(summary, len,
                    "%" PRIu64 " games of %s (%s, %s): French %ld, Allied %ld, draws %ld; %ld positions "
                    "(round starts), %ld for the fit, %ld held out (the last %.0f%% of the games); %.1f CPU s\n"
                    "log-loss on the held-out positions: fit %.4f, hand-written evaluation %.4f, base "
                    "rate %.4f (fit on its own positions %.4f)\n"
                    "calibration on the held-out positions (French win rate):\n"
                    "| predicted | fit: positions | fit: mean predicted | fit: actual | hand: positions | hand: mean predicted | hand: actual |\n"
                    "|---|---:|---:|---:|---:|---:|---:|\n",
                    T->o->games, T->o->spec, T->o->sc->scen_name, T->o->sc->variant_names, T->res[1], T->res[2],
                    T->res[3], T->n, T->ntrain, E->nt, T->o->hold * 100, clock_cpu() - T->t0, E->ll_fit,
                    E->ll_hand, E->ll_base, E->ll_train);
  for (int b = 0; b < 10 && sl < (int)len; b++) {
    sl += snprintf(summary + sl, len - (size_t)sl, "| %.1f-%.1f |", b / 10.0, (b + 1) / 10.0);
    for (int k = 0; k < 2 && sl < (int)len; k++) {
      if (E->bc[k][b])
        sl += snprintf(summary + sl, len - (size_t)sl, " %ld | %.3f | %.3f |", E->bc[k][b],
                       E->bp[k][b] / E->bc[k][b], E->by[k][b] / E->bc[k][b]);
      else
        sl += snprintf(summary + sl, len - (size_t)sl, " 0 | - | - |");
    }
    if (sl < (int)len) sl += snprintf(summary + sl, len - (size_t)sl, "\n");
  }
}

/* inih (the Debian library that reads the file back) takes lines of at most 200 bytes, and a
 * longer comment spills over as a bad line: comments are wrapped at 96 characters, at a space
 * where there is one, and the informational values of [fit] are clipped */
#define TRAIN_LINE 96
static void put_comment(FILE *f, const char *text, size_t n) {
  do {
    size_t k = n;
    if (k > TRAIN_LINE) {
      k = TRAIN_LINE;
      while (k > TRAIN_LINE / 2 && text[k] != ' ') k--;
      if (text[k] != ' ') k = TRAIN_LINE;
    }
    fprintf(f, "; %.*s\n", (int)k, text);
    while (k < n && text[k] == ' ') k++;
    text += k;
    n -= k;
  } while (n > 0);
}

/* the weights file, written to FILE.tmp and renamed: the command, the summary, the weights */
static int train_write(const Train *T, const TrainEval *E, const char *summary) {
  const Scen *sc = T->o->sc;
  char tmp[600];
  snprintf(tmp, sizeof tmp, "%s.tmp", T->o->out);
  FILE *f = fopen(tmp, "w");
  if (!f) { fprintf(stderr, "train: cannot write %s\n", tmp); return 1; }
  fprintf(f, "; The fitted evaluation of the %s game (ai/fit.c): P(French win) = 1/(1+exp(-sum w*feature)).\n", sc->scen_name);
  char repro[1100];
  snprintf(repro, sizeof repro, "Reproduce with: %s", T->o->cmd);
  put_comment(f, repro, strlen(repro));
  fprintf(f, "; Used only when the fingerprint matches the scenario data (map, units, cards, parameters,\n"
             "; variants); otherwise the players warn and fall back to the hand-written evaluation.\n;\n");
  for (const char *line = summary; *line;) {
    const char *nl = strchr(line, '\n');
    put_comment(f, line, nl ? (size_t)(nl - line) : strlen(line));
    if (!nl) break;
    line = nl + 1;
  }
  fprintf(f, "\n[fit]\nscenario = %s\nvariants = %.150s\nfingerprint = %016llx\ngames = %" PRIu64 "\nplayers = %.150s\n"
             "positions = %ld\nheldout_logloss = %.4f\nhand_logloss = %.4f\nbase_logloss = %.4f\n\n[weights]\n",
          sc->scen_name, sc->variant_names, (unsigned long long)fit_fingerprint(sc), T->o->games, T->o->spec,
          T->n, E->ll_fit, E->ll_hand, E->ll_base);
  for (int i = 0; i < FIT_NF; i++) fprintf(f, "%s = %.6f\n", FIT_NAMES[i], T->w[i]);
  if (fclose(f) || rename(tmp, T->o->out)) { fprintf(stderr, "train: cannot write %s\n", T->o->out); remove(tmp); return 1; }
  printf("wrote %s\n", T->o->out);
  return 0;
}


int fit_train(const FitTrainOpts *o) {
  Train T;
  memset(&T, 0, sizeof T);
  T.o = o;
  AiCtx ctx;
  ai_ctx_init(&ctx, o->sc);
  T.cap = 1 << 16;
  T.S = malloc((size_t)T.cap * sizeof *T.S);
  if (!T.S) { fprintf(stderr, "train: out of memory\n"); return 1; }
  T.t0 = clock_cpu();
  int rc = train_play(&T, &ctx);
  uint64_t gsplit = (uint64_t)((1.0 - o->hold) * (double)o->games);
  while (!rc && T.ntrain < T.n && (uint64_t)T.S[T.ntrain].game < gsplit) T.ntrain++;
  if (!rc && (T.ntrain == 0 || T.ntrain == T.n)) { fprintf(stderr, "train: too few positions to split\n"); rc = 1; }
  if (!rc && fit_logistic(T.S, T.ntrain, o->lambda, T.w))
    fprintf(stderr, "train: warning: a Newton step's system is not positive definite; the fit stopped there\n");
  if (!rc) {
    TrainEval E;
    memset(&E, 0, sizeof E);
    train_measure(&T, &E);
    char summary[4096];
    train_summary(&T, &E, summary, sizeof summary);
    fputs(summary, stdout);
    printf("weights:");
    for (int i = 0; i < FIT_NF; i++) printf(" %s=%.4f", FIT_NAMES[i], T.w[i]);
    printf("\n");
    if (!o->dry) rc = train_write(&T, &E, summary);
  }
  free(T.S);
  return rc;
}
