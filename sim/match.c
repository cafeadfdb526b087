/* ./waterloo match (mirrored-seed match, cutechess-style output) and ./waterloo strength
 * (the strength table of the computer players, results/strength.md). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "match.h"
#include "../engine/num.h"
#include "../engine/util.h"


/* the French margin of one finished game (see MatchRes) */
static int french_margin(const Scen *sc, const GameFacts *g) {
  if (sc->scenario != SC_SHORT) return g->vp[FRENCH] - g->vp[ALLIED];
  int n = 0;
  for (int v = V_HOUGOUMONT; v <= V_FRISCHERMONT; v++) n += (g->owner >> v) & 1;
  return n + ((g->owner >> V_MSJ) & 1);
}

const char *margin_unit(const Scen *sc) {
  return sc->scenario == SC_SHORT ? "objectives" : "VP";
}

double margin_half(const MatchRes *r) {
  if (r->mpairs <= 1) return INFINITY;
  Interval iv = mean_t(r->msum, r->msum2, r->mpairs, 0.95);
  double h = (iv.hi - iv.lo) / 2;
  if (!(h > 1e-9) && r->mpairs < 30) return NAN;
  return h;
}

/* "+1.25 +/- 0.80 VP" (95%, Student t over the seeds) */
static void fmt_margin(char *buf, size_t len, const MatchRes *r, const char *unit) {
  if (r->mpairs <= 0) { snprintf(buf, len, "—"); return; }
  double mean = r->msum / r->mpairs, h = margin_half(r);
  if (fabs(mean) < 0.005) mean = 0.0;
  if (isnan(h)) snprintf(buf, len, "%+.2f +/- ? %s (all %ld seeds equal)", mean, unit, r->mpairs);
  else if (isinf(h)) snprintf(buf, len, "%+.2f +/- inf %s", mean, unit);
  else snprintf(buf, len, "%+.2f +/- %.2f %s", mean, h, unit);
}

static double margin_lo(const MatchRes *r) {
  double h = margin_half(r);
  if (r->mpairs <= 0 || !isfinite(h)) return -INFINITY;
  return r->msum / r->mpairs - h;
}


/* the games of one match_range call as they finish, and the prefix of seeds already added */
typedef struct {
  const Scen *sc;
  const char *A, *B;
  long from, n, done, pairs_in;  /* games n = 2 (to - from); whole pairs added so far        */
  uint8_t *res;                  /* result of game j, 0: not finished                        */
  int *mar;                      /* its French margin                                        */
  float (*cpu)[2];               /* its CPU seconds of A's and of B's decisions              */
  MatchRes base, acc;            /* *r on entry; base + the pairs [0, pairs_in)              */
  double t0, c0, last;
  int progress, tty, stop;
  MatchPrefixFn on_prefix;
  void *ctx;
} Range;

/* one finished seed into r: game 0 had A French, game 1 had B French */
static void add_pair(MatchRes *r, const uint8_t res[2], const int mar[2], const float cpu[2][2]) {
  double d = 0.5 * (mar[0] - mar[1]);
  r->mpairs++;
  r->msum += d;
  r->msum2 += d * d;
  int pts = 0; /* A's points on this seed */
  for (int q = 0; q < 2; q++) {
    int x = res[q], a_fr = q == 0;
    r->games++;
    if (x == 1) r->fr_wins++;
    else if (x == 2) r->al_wins++;
    else r->draws++;
    int a_win = (x == 1 && a_fr) || (x == 2 && !a_fr);
    int a_loss = (x == 2 && a_fr) || (x == 1 && !a_fr);
    if (a_win) r->w++;
    else if (a_loss) r->l++;
    else r->d++;
    if (a_fr) { r->a_fr_games++; r->a_fr_wins += a_win; }
    else { r->a_al_games++; r->a_al_wins += a_win; }
    pts += a_win ? 2 : a_loss ? 0 : 1;
    r->cpu_a += cpu[q][0];
    r->cpu_b += cpu[q][1];
    r->cpu_games++;
  }
  r->penta[pts]++;
}

/* under the lock, after game j finished: the pairs now whole at the front are added, and the
 * longer prefix shown to on_prefix; the progress line */
static void range_advance(Range *R) {
  long p0 = R->pairs_in;
  while (2 * R->pairs_in + 1 < R->n && R->res[2 * R->pairs_in] && R->res[2 * R->pairs_in + 1]) {
    long j = 2 * R->pairs_in;
    add_pair(&R->acc, R->res + j, R->mar + j, (const float(*)[2])R->cpu + j);
    R->pairs_in++;
  }
  if (R->pairs_in > p0 && R->on_prefix && !R->stop) {
    R->acc.seconds = R->base.seconds + (clock_wall() - R->t0);
    R->acc.cpu = R->base.cpu + (clock_cpu() - R->c0);
    if (R->on_prefix(R->ctx, R->from + R->pairs_in, &R->acc)) {
#pragma omp atomic write
      R->stop = 1;
    }
  }
  double t = clock_wall();
  if (R->progress && R->tty && (t - R->last > 0.2 || R->done == R->n)) {
    R->last = t;
    double rate = R->done / (t - R->t0);
    fprintf(stderr, "\r  %s vs %s: %ld/%ld games, %.2f games/s, ETA %.0f s   ", R->A, R->B,
            R->base.games + R->done, R->base.games + R->n,
            rate, (R->n - R->done) / (rate > 0 ? rate : 1));
    fflush(stderr);
  }
}

/* game j of the range: 0, or -1 with err */
static int range_game(Range *R, uint64_t seed, long j, char *err, size_t errlen) {
  long k = R->from + j / 2;
  const char *fr = j % 2 ? R->B : R->A, *al = j % 2 ? R->A : R->B;
  GameFacts g;
  if (run_game_specs(R->sc, fr, al, seed, (uint64_t)k, &g, NULL, err, errlen) == -2) return -1;
  int a_side = j % 2 ? ALLIED : FRENCH;
#pragma omp critical(match_progress)
  {
    R->res[j] = g.result ? g.result : 3; /* an unfinished game scores as a draw */
    R->mar[j] = french_margin(R->sc, &g);
    R->cpu[j][0] = g.cpu_side[a_side];
    R->cpu[j][1] = g.cpu_side[a_side ^ 1];
    R->done++;
    range_advance(R);
  }
  return 0;
}

int match_range(const Scen *sc, const char *A, const char *B, long from, long to,
                uint64_t seed, int threads, MatchRes *r, int progress, MatchPrefixFn on_prefix,
                void *ctx, char *err, size_t errlen) {
  Range R = {sc, A, B, from, 2 * (to - from), 0, 0, NULL, NULL, NULL, *r, *r, clock_wall(),
             clock_cpu(), 0, progress, isatty(2), 0, on_prefix, ctx};
  R.res = calloc((size_t)R.n + 1, 1);
  R.mar = calloc((size_t)R.n + 1, sizeof *R.mar);
  R.cpu = calloc((size_t)R.n + 1, sizeof *R.cpu);
  int failed = !R.res || !R.mar || !R.cpu;
  if (failed) snprintf(err, errlen, "out of memory");
  if (threads <= 0) threads = omp_get_max_threads();
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (long j = 0; j < R.n; j++) {
    int f, st;
#pragma omp atomic read
    f = failed;
#pragma omp atomic read
    st = R.stop;
    if (f || st) continue;
    char e[256];
    if (range_game(&R, seed, j, e, sizeof e)) {
#pragma omp critical(match_err)
      { snprintf(err, errlen, "%s", e); failed = 1; }
    }
  }
  if (progress && R.tty) fprintf(stderr, "\r\033[K");
  if (!failed && R.stop) snprintf(err, errlen, "stopped");
  failed = failed || R.stop;
  if (!failed) {
    *r = R.acc;
    /* measured, not wall x threads; with on_prefix, as its last call saw them (the whole
     * range is its last prefix) */
    if (!on_prefix) {
      r->seconds = R.base.seconds + (clock_wall() - R.t0);
      r->cpu = R.base.cpu + (clock_cpu() - R.c0);
    }
  }
  free(R.res);
  free(R.mar);
  free(R.cpu);
  return failed ? -1 : 0;
}

static void fmt_elo(char *buf, size_t len, double elo, double margin) {
  if (fabs(elo) < 0.05) elo = 0.0; /* no "-0.0" */
  if (!isfinite(elo)) snprintf(buf, len, "%s", elo > 0 ? "+inf" : "-inf");
  else if (!isfinite(margin)) snprintf(buf, len, elo ? "%+.1f +/- inf" : "%.1f +/- inf", elo);
  else snprintf(buf, len, elo ? "%+.1f +/- %.1f" : "%.1f +/- %.1f", elo, margin);
}

/* Elo of a W-L-D score: the Elo of the ends of the score's interval (per-game variance, as
 * cutechess) where they are finite, else the interval from the Wilson bounds of the score, which
 * stays finite at 100% ("≥ +407.0 (95%; every game won)") */
static void fmt_elo_wld(char *buf, size_t len, long w, long l, long d) {
  double elo, margin;
  elo_wld(w, l, d, &elo, &margin);
  if (w + l + d == 0) { fmt_elo(buf, len, elo, margin); return; }
  double lo, hi;
  if (isfinite(margin)) { /* the Elo of the score interval's ends: not symmetric */
    elo_wld_interval(w, l, d, &lo, &hi);
    snprintf(buf, len, fabs(elo) < 0.05 ? "%.1f [%+.1f, %+.1f]" : "%+.1f [%+.1f, %+.1f]",
             fabs(elo) < 0.05 ? 0.0 : elo, lo, hi);
    return;
  }
  elo_bounds_wilson(w, l, d, &lo, &hi);
  char e[32];
  /* every game won (lost): the point estimate is infinite, the finite bound is what is known */
  if (l == 0 && d == 0) { snprintf(buf, len, "≥ %+.1f (95%%; every game won)", lo); return; }
  if (w == 0 && d == 0) { snprintf(buf, len, "≤ %+.1f (95%%; every game lost)", hi); return; }
  if (!isfinite(elo)) snprintf(e, sizeof e, "%s", elo > 0 ? "+inf" : "-inf");
  else snprintf(e, sizeof e, fabs(elo) < 0.05 ? "%.1f" : "%+.1f", fabs(elo) < 0.05 ? 0.0 : elo);
  if (isinf(hi) && !isinf(lo)) snprintf(buf, len, "%s (95%%: ≥ %+.1f)", e, lo);
  else if (isinf(lo) && !isinf(hi)) snprintf(buf, len, "%s (95%%: ≤ %+.1f)", e, hi);
  else snprintf(buf, len, "%s (95%%: %+.1f to %+.1f)", e, lo, hi);
}

/* pentanomial counts "0-1-5-2-0" and the Elo and LOS from the pairs */
int has_penta(const MatchRes *r) {
  long n = r->penta[0] + r->penta[1] + r->penta[2] + r->penta[3] + r->penta[4];
  return n > 0 && 2 * n == r->games; /* every seed counted (not a match grown from an old line) */
}
void fmt_penta(char *buf, size_t len, const MatchRes *r) {
  if (!has_penta(r)) { snprintf(buf, len, "—"); return; }
  snprintf(buf, len, "%ld-%ld-%ld-%ld-%ld", r->penta[0], r->penta[1], r->penta[2], r->penta[3], r->penta[4]);
}
static void fmt_penta_elo(char *buf, size_t len, const MatchRes *r) {
  if (!has_penta(r)) { snprintf(buf, len, "—"); return; }
  PentaStats ps;
  penta_stats(r->penta, &ps);
  char e[80];
  /* the interval of the pair score mapped to Elo: asymmetric, so written as its two ends (a
   * symmetric "± margin" beside LOS 100% would reach far below the lower end) */
  double se = ps.pairs > 0 ? sqrt(ps.var / (double)ps.pairs) : 0;
  double tq = ps.pairs > 1 ? t_quantile(0.975, (double)ps.pairs - 1) : INFINITY;
  double lo = elo_from_score(ps.score - tq * se), hi = elo_from_score(ps.score + tq * se);
  double wlo, whi; /* an end of the t interval past 0% or 100%: the Wilson bound, finite */
  elo_bounds_wilson(r->w, r->l, r->d, &wlo, &whi);
  if (!isfinite(lo) || ps.score - tq * se <= 0) lo = wlo;
  if (!isfinite(hi) || ps.score + tq * se >= 1) hi = whi;
  if (!isfinite(ps.elo)) /* every pair won (lost): the finite Wilson bound is what is known */
    snprintf(e, sizeof e, ps.elo > 0 ? "≥ %+.1f (95%%)" : "≤ %+.1f (95%%)", ps.elo > 0 ? wlo : whi);
  else if (!(se > 0))
    snprintf(e, sizeof e, fabs(ps.elo) < 0.05 ? "%.1f (no spread over %ld pairs)" : "%+.1f (no spread over %ld pairs)",
             fabs(ps.elo) < 0.05 ? 0.0 : ps.elo, ps.pairs);
  else if (isfinite(lo) && isfinite(hi)) snprintf(e, sizeof e, "%+.1f [%+.1f, %+.1f]", ps.elo, lo, hi);
  else if (isfinite(lo)) snprintf(e, sizeof e, "%+.1f [%+.1f, +inf]", ps.elo, lo);
  else if (isfinite(hi)) snprintf(e, sizeof e, "%+.1f [-inf, %+.1f]", ps.elo, hi);
  else snprintf(e, sizeof e, "%+.1f [-inf, +inf]", ps.elo);
  snprintf(buf, len, "%s, LOS %.1f%%", e, 100 * ps.los);
}

static void pct(char *buf, size_t len, long k, long n) {
  Interval iv = wilson(k, n, Z95);
  snprintf(buf, len, "%.1f%% [%.1f, %.1f]", 100 * iv.p, 100 * iv.lo, 100 * iv.hi);
}

int sim_split_players(const char *v, char *a, char *b, size_t len) {
  const char *cut = strchr(v, '/');
  if (!cut && !strchr(v, '=')) cut = strchr(v, ',');
  if (!cut) return -1;
  snprintf(a, len, "%.*s", (int)(cut - v), v);
  snprintf(b, len, "%s", cut + 1);
  return a[0] && b[0] ? 0 : -1;
}

/* the seeds in batches (one batch without --sprt) until N games or a bound of the SPRT is
 * crossed: 0, or 2 when a game failed (said) */
static int match_play(MatchOpts *o, const Scen *sc, MatchRes *r, double *llr, double bound) {
  char err[512];
  if (isnan(o->sprt0)) o->batch = o->games;
  for (long from = 0; from < o->games / 2;) {
    long to = from + o->batch / 2 < o->games / 2 ? from + o->batch / 2 : o->games / 2;
    if (match_range(sc, o->A, o->B, from, to, o->seed, o->threads, r, !o->quiet, NULL, NULL, err,
                    sizeof err)) {
      fprintf(stderr, "match: %s\n", err);
      return 2;
    }
    from = to;
    if (!isnan(o->sprt0)) {
      *llr = sprt_llr_penta(r->penta, o->sprt0, o->sprt1);
      if (*llr >= bound || *llr <= -bound) break;
    }
  }
  return 0;
}

/* the cutechess-shaped result lines, the pairs, the margin, the win rates and the SPRT */
static void match_print(const MatchOpts *o, const Scen *sc, const MatchRes *rp, double llr,
                        double bound) {
  MatchRes r = *rp;
  const char *A = o->A, *B = o->B;
  char e[96], p1[64], p2[64], p3[64], p4[64], pn[64], pe[96];
  fmt_elo_wld(e, sizeof e, r.w, r.l, r.d);
  fmt_penta(pn, sizeof pn, &r);
  fmt_penta_elo(pe, sizeof pe, &r);
  printf("Match: %s vs %s, %s/%s, %ld games (%ld seeds, sides swapped), seed %" PRIu64 "\n", A, B,
         o->scen, o->var, r.games, r.games / 2, o->seed);
  printf("Score of %s vs %s: %ld - %ld - %ld [%.3f] %ld\n", A, B, r.w, r.l, r.d,
         (r.w + 0.5 * r.d) / r.games, r.games);
  printf("Elo difference: %s\n", e);
  printf("Pairs (A's points per seed 0 - 1/2 - 1 - 3/2 - 2): %s; Elo from pairs: %s\n", pn, pe);
  {
    char mg[80];
    fmt_margin(mg, sizeof mg, &r, margin_unit(sc));
    printf("Paired margin (A - B, per game, 95%%): %s over %ld seeds\n", mg, r.mpairs);
  }
  pct(p1, sizeof p1, r.a_fr_wins, r.a_fr_games);
  pct(p2, sizeof p2, r.a_al_wins, r.a_al_games);
  pct(p3, sizeof p3, r.w, r.games);
  printf("%s win rate: as French %s, as Allied %s, overall %s\n", A, p1, p2, p3);
  pct(p4, sizeof p4, r.fr_wins, r.games);
  printf("French win rate (both players): %s; draws %ld\n", p4, r.draws);
  double sprt0 = o->sprt0, sprt1 = o->sprt1;
  if (!isnan(sprt0))
    printf("SPRT: llr %.2f (%.2f, %.2f) [%g, %g] %s after %ld games\n", llr, -bound, bound, sprt0,
           sprt1, llr >= bound ? "H1 accepted" : llr <= -bound ? "H0 accepted" : "inconclusive",
           r.games);
  int stopped = !isnan(sprt0) && (llr >= bound || llr <= -bound);
  if (stopped)
    printf("Note: the match stopped when the SPRT crossed a bound, so the Elo above (a "
           "fixed-sample estimate) is biased away from 0; read the SPRT decision, not the Elo.\n");
  if (!o->quiet)
    fprintf(stderr, "match: %.1f s wall, %.1f CPU s (%.2f CPU s/game)\n", r.seconds, r.cpu,
            r.cpu / (r.games > 0 ? r.games : 1));
  if (r.cpu_games > 0)
    printf("CPU per game of each player's decisions: %s %.2f s, %s %.2f s (%ld games played "
           "in this run)\n", A, r.cpu_a / r.cpu_games, B, r.cpu_b / r.cpu_games, r.cpu_games);
}

/* --players french=A,british=B,prussian=C: every game with these seats (seed indices 0..N-1,
 * no mirror: the seats are not a pair of rivals); the French win rate and the CPU per game */
static int match_seated(const MatchOpts *o, const Scen *sc) {
  long fr = 0, dr = 0, failed = 0;
  double c0 = clock_cpu(), w0 = clock_wall();
  char err[256] = "";
#pragma omp parallel for schedule(dynamic, 1) num_threads(o->threads > 0 ? o->threads : omp_get_max_threads()) reduction(+ : fr, dr, failed)
  for (long k = 0; k < o->games; k++) {
    GameFacts g;
    char e[256];
    if (run_game_specs(sc, o->A, o->B, o->seed, (uint64_t)k, &g, NULL, e, sizeof e)) {
      failed++;
#pragma omp critical(match_err)
      snprintf(err, sizeof err, "%s", e);
      continue;
    }
    fr += g.result == RES_FRENCH;
    dr += g.result == RES_DRAW;
  }
  if (failed) {
    fprintf(stderr, "match: %s\n", err[0] ? err : "a game did not end");
    return 2;
  }
  char p[64];
  pct(p, sizeof p, fr, o->games);
  double cpu = clock_cpu() - c0;
  printf("Match (seats): french=%s, british=%s, prussian=%s; %s/%s, %ld games, seed %" PRIu64 "\n",
         o->seats[0], o->seats[1], o->seats[2][0] ? o->seats[2] : "-", o->scen, o->var, o->games,
         o->seed);
  printf("French win rate: %s; draws %ld\n", p, dr);
  printf("CPU: %.2f s a game (%.1f s in all, %.1f s wall)\n", cpu / o->games, cpu,
         clock_wall() - w0);
  return 0;
}

int match_main(const MatchOpts *opts) {
  MatchOpts o = *opts;
  Scen *sc = sim_scen_load("match", o.scen, o.var);
  if (!sc) return 2;
  if (o.seated) {
    int rc = o.seats[SEAT_PRUSSIAN][0] && !sc->p.prussians
                 ? (fprintf(stderr, "match: --players: the %s game has no Prussian seat\n", o.scen), 2)
                 : match_seated(&o, sc);
    free(sc);
    return rc;
  }
  MatchRes r;
  memset(&r, 0, sizeof r);
  double llr = 0;
  const double bound = log((1 - 0.05) / 0.05); /* 2.94 for alpha = beta = 0.05 */
  if (match_play(&o, sc, &r, &llr, bound)) {
    free(sc);
    return 2;
  }
  match_print(&o, sc, &r, llr, bound);
  free(sc);
  return 0;
}

/* ---------------------------------------------------------------- strength */
typedef struct { const char *a, *b; long games; } Pair; /* games 0: --games */

static const Pair default_pairs[] = {
  {"heuristic", "random", 0},
  {"mcts:easy", "heuristic", 0},
  {"mcts:normal", "heuristic", 0},
  {"mcts:hard", "heuristic", 0},
  {"mcts:expert", "heuristic", 0},
  {"mcts:normal*2", "mcts:normal", 0},
  {"mcts:normal*4", "mcts:normal*2", 0},
  {"mcts:normal*8", "mcts:normal*4", 0},
  {"cheat:normal", "mcts:normal", 0},
  {"cheat:normal", "heuristic", 0},
};

/* index of a player in names[], added when new; -1 when full */
static int player_index(char names[][128], int *n, const char *name) {
  for (int i = 0; i < *n; i++)
    if (!strcmp(names[i], name)) return i;
  if (*n >= 64) return -1;
  snprintf(names[*n], 128, "%s", name);
  return (*n)++;
}

/* ---------------------------------------------------------------- the match journal */
static int journal_read(const char *path, JRec **out) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  int n = 0, cap = 0;
  char *line = NULL;
  size_t lc = 0;
  ssize_t len;
  while ((len = getline(&line, &lc, f)) > 0) {
    if (line[len - 1] != '\n' || strncmp(line, "M\t", 2)) continue; /* torn or blank */
    JRec j;
    memset(&j, 0, sizeof j);
    char *save = NULL, *t[9];
    int k = 0;
    for (char *p = strtok_r(line + 2, "\t\n", &save); p && k < 9; p = strtok_r(NULL, "\t\n", &save)) t[k++] = p;
    if (k != 7 && (k != 8 || strncmp(t[7], "sfp=", 4))) continue;
    if (k == 8) j.sfp = (uint32_t)strtoul(t[7] + 4, NULL, 16);
    snprintf(j.scen, sizeof j.scen, "%s", t[0]);
    snprintf(j.a, sizeof j.a, "%s", t[1]);
    snprintf(j.b, sizeof j.b, "%s", t[2]);
    j.games = strtol(t[3], NULL, 10);
    j.seed = strtoull(t[4], NULL, 10);
    j.fp = (uint32_t)strtoul(t[5], NULL, 16);
    MatchRes *r = &j.r;
    int nf = sscanf(t[6], "%ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %lf %ld %lf %lf %lf %d %ld %ld %ld %ld %ld %lf %lf %ld",
                    &r->games, &r->w, &r->l, &r->d, &r->a_fr_games, &r->a_fr_wins, &r->a_al_games,
                    &r->a_al_wins, &r->fr_wins, &r->al_wins, &r->draws, &r->seconds, &r->mpairs,
                    &r->msum, &r->msum2, &r->cpu, &r->cpu_est, &r->penta[0], &r->penta[1],
                    &r->penta[2], &r->penta[3], &r->penta[4], &r->cpu_a, &r->cpu_b, &r->cpu_games);
    if (nf != 12 && nf != 15 && nf != 16 && nf != 22 && nf != 25) continue;
    if (nf < 25) r->cpu_a = r->cpu_b = 0, r->cpu_games = 0; /* each player's CPU not kept */
    if (nf < 16) r->cpu = -1; /* older line: core time unknown (wall time x threads below) */
    /* a line from before the CPU time was measured: its "cpu" was wall time x threads, and it
     * has no pair counts */
    if (nf < 22) { r->cpu_est = 1; memset(r->penta, 0, sizeof r->penta); }
    if (nf == 12) r->mpairs = 0; /* a line from before the margins were recorded */
    if (n == cap) {
      cap = cap ? 2 * cap : 32;
      JRec *nj = realloc(*out, sizeof(JRec) * (size_t)cap);
      if (!nj) break;
      *out = nj;
    }
    (*out)[n++] = j;
  }
  free(line);
  fclose(f);
  return n;
}

/* the journal's match of this pair with the most games <= games (same scenario, seed and
 * build): its games, 0 when none.  A shorter match is the start of a longer one (seeds 0, 1,
 * ... in order), so a longer match only plays the seeds the shorter did not. */
static long journal_find(const JRec *jr, int n, const char *scen, const char *a, const char *b,
                         long games, uint64_t seed, uint32_t fp, uint32_t sfp, MatchRes *r) {
  long best = 0;
  for (int i = n - 1; i >= 0; i--)
    if (!strcmp(jr[i].scen, scen) && !strcmp(jr[i].a, a) && !strcmp(jr[i].b, b) &&
        jr[i].games <= games && jr[i].games > best && jr[i].r.games == jr[i].games &&
        jr[i].seed == seed && jr[i].fp == fp && (!jr[i].sfp || jr[i].sfp == sfp)) {
      *r = jr[i].r;
      best = jr[i].games;
    }
  return best;
}

/* one run of `strength`: the options, the pairs, the journal and the table being written */
typedef struct {
  long games;
  uint64_t seed;
  int threads, resume, overwrite;
  const char *out, *scen_list, *pairs_orig;
  char *pairs_arg;          /* a copy of --pairs, cut up by strength_pairs */
  Pair pairs[64];
  int np;
  char pa[64][128], pb[64][128];
  char scens[2][16];
  int ns;
  MatchJournal J;           /* OUT.journal */
  Buf b;                    /* the table */
} Strength;

/* the pairs (--pairs or the default list), each spec checked, and the scenarios */
static int strength_pairs(Strength *S) {
  if (S->pairs_arg) {
    char *save = NULL;
    for (char *t = strtok_r(S->pairs_arg, ";", &save); t && S->np < 64; t = strtok_r(NULL, ";", &save)) {
      long ng = 0;
      char *at = strrchr(t, '@');
      if (at) {
        if (num_long(at + 1, 2, SIM_MAX_GAMES, &ng)) { fprintf(stderr, "strength: bad game count in pair '%s' (A/B@N, 2 <= N <= %ld)\n", t, SIM_MAX_GAMES); return 2; }
        if (ng % 2) ng++;
        *at = 0;
      }
      int np = S->np;
      if (sim_split_players(t, S->pa[np], S->pb[np], 128)) { fprintf(stderr, "strength: bad pair '%s'\n", t); return 2; }
      S->pairs[np].a = S->pa[np];
      S->pairs[np].b = S->pb[np];
      S->pairs[np].games = ng;
      S->np++;
    }
  } else {
    S->np = (int)(sizeof default_pairs / sizeof default_pairs[0]);
    memcpy(S->pairs, default_pairs, sizeof default_pairs);
  }
  for (int i = 0; i < S->np; i++) {
    char e[300];
    if (player_spec_check(S->pairs[i].a, e, sizeof e) || player_spec_check(S->pairs[i].b, e, sizeof e)) {
      fprintf(stderr, "strength: %s\n", e);
      return 2;
    }
  }
  char tmp[64];
  snprintf(tmp, sizeof tmp, "%s", S->scen_list);
  char *save = NULL;
  for (char *t = strtok_r(tmp, ",", &save); t && S->ns < 2; t = strtok_r(NULL, ",", &save))
    snprintf(S->scens[S->ns++], 16, "%s", t);
  return 0;
}

/* the head of the table: the reproducing command and what every column means */
static void strength_preamble(Strength *S) {
  Buf *b = &S->b;
  char cap[CAPTION_LEN];
  int search = 0;
  for (int i = 0; i < S->np; i++) search |= spec_searches(S->pairs[i].a) || spec_searches(S->pairs[i].b);
  build_caption(cap, sizeof cap, search);
  buf_printf(b, "# Strength table\n\n%s\n\nReproduce with:\n\n```\n./waterloo strength --games %ld --seed %" PRIu64 " --scenario %s",
             cap, S->games, S->seed, S->scen_list);
  if (S->pairs_orig) buf_printf(b, " --pairs '%s'", S->pairs_orig);
  if (strcmp(S->out, "results/strength.md")) buf_printf(b, " --out %s", S->out);
  buf_printf(b, "\n```\n\n");
  buf_printf(b, "Every match: N games (%ld unless the pair says `@N`), N/2 seeds each played "
                 "twice with sides swapped. Score "
                 "and Elo are from the first player's point of view (cutechess-cli: Elo = "
                 "−400·log10(1/score − 1); its 95%% interval the Elo of the ends of the score's "
                 "interval from the per-game score variance, so not symmetric; where that is "
                 "unbounded, the Elo of the Wilson interval of the score, which stays finite at "
                 "100%%). "
                 "Win rates with 95%% Wilson intervals.\n\n"
                 "Pairs: a seed played with both side assignments is one pair; the pentanomial "
                 "counts are the seeds on which A scored 0 - ½ - 1 - 1½ - 2 points over its two "
                 "games (as fishtest counts them), and the Elo [95%%] and LOS (likelihood of "
                 "superiority) are computed from the pair scores, which carry the correlation "
                 "of the two games of a seed (Student t over the pairs; an end past 0%% or 100%% "
                 "is replaced by the finite Wilson bound of the score). — : the match was journalled before pairs were "
                 "counted.\n\n"
                 "Ladder: fitted jointly over all matches of the scenario, relative to `heuristic`: "
                 "the Elo by maximum-likelihood Bradley–Terry (logistic) with draws as half, "
                 "one virtual draw added to every match so a 100%% score stays finite (BayesElo "
                 "adds two; it pulls the smallest matches toward 0), ± 95%% from the Fisher "
                 "information; the margin by weighted least squares (each match weighted by "
                 "1/variance of its mean), ± 95%% by Student t with the degrees of freedom of "
                 "the match with the fewest seeds. Redundant matches add evidence instead of "
                 "being ignored.\n\n"
                 "Margin: a finer, paired measure for games that the side mostly decides. For "
                 "each seed, the French margin when A played the French minus the French margin "
                 "when B did, halved: how much more A gets per game than B, with the seed's and "
                 "the side's effect cancelled. French margin = VP(French) − VP(Allied) in the "
                 "long game; objectives (castles and Mont St. Jean) the French hold at the end "
                 "in the short game. Mean ± 95%% (Student t over the seeds; \"+/- ?\" when every "
                 "seed of a small match gave the same value, so no spread is known).\n\n"
                 "CPU s/game: CPU time of the process (all threads) per game; "
                 "≈: a match journalled before CPU time was measured, wall time × threads.\n\n",
             S->games);
}

/* the journal: one line per finished match; --resume reuses them.  Everything that can fail
 * on the output is checked before the first game: the directory, the journal (never truncated
 * unless --overwrite asks), and that the table itself can be created. */
int mjournal_open(MatchJournal *J, const char *cmd, const char *out, int resume, int overwrite) {
  J->cmd = cmd;
  snprintf(J->path, sizeof J->path, "%s.journal", out);
  char dir[1024];
  snprintf(dir, sizeof dir, "%s", out);
  char *sl = strrchr(dir, '/');
  if (sl) {
    *sl = 0;
    if (*dir && mkdir_p(dir)) {
      fprintf(stderr, "%s: cannot create the directory %s: %s\n", cmd, dir, strerror(errno));
      return 2;
    }
  }
  struct stat jst;
  if (!resume && !overwrite && stat(J->path, &jst) == 0 && jst.st_size > 0) {
    fprintf(stderr, "%s: %s holds the matches of an earlier run: add --resume to reuse "
                    "them, or --overwrite to discard them\n", cmd, J->path);
    return 2;
  }
  if (can_create(out)) {
    fprintf(stderr, "%s: cannot write %s: %s\n", cmd, out, strerror(errno));
    return 2;
  }
  if (resume) J->njr = journal_read(J->path, &J->jr);
  int cut = resume && ends_torn(J->path); /* a line torn by a stopped run is ended first */
  J->f = fopen(J->path, resume ? "a" : "w");
  if (!J->f || (cut && (fprintf(J->f, "\n") < 0 || fflush(J->f) != 0))) {
    fprintf(stderr, "%s: cannot write %s: %s\n", cmd, J->path, strerror(errno));
    return 2;
  }
  return 0;
}

void mjournal_close(MatchJournal *J) {
  if (J->f) fclose(J->f);
  free(J->jr);
  J->f = NULL;
  J->jr = NULL;
  J->njr = 0;
}

/* what a journal line of one (part of a) match names */
typedef struct {
  MatchJournal *J;
  const char *scen, *a, *b;
  uint32_t fp, sfp;
  int werr;                 /* a prefix could not be journalled: the match stopped */
} MatchKey;

/* the times of r as the journal keeps them (3 decimals) */
static void mres_round_times(MatchRes *r) {
  r->cpu = round(r->cpu * 1000) / 1000;
  r->seconds = round(r->seconds * 1000) / 1000;
  r->cpu_a = round(r->cpu_a * 1000) / 1000;
  r->cpu_b = round(r->cpu_b * 1000) / 1000;
}

/* a line just journalled, also kept in memory as --resume would read it back (the times to
 * 3 decimals): a later, longer match of the same pair in this run (`A/B@40;A/B@80`) starts
 * from it instead of playing its seeds again */
static void mjournal_remember(const MatchKey *k, const MatchRes *q) {
  MatchJournal *J = k->J;
  JRec *nj = realloc(J->jr, sizeof(JRec) * (size_t)(J->njr + 1));
  if (!nj) return; /* only a replay lost, never a result */
  J->jr = nj;
  JRec *j = &J->jr[J->njr++];
  memset(j, 0, sizeof *j);
  snprintf(j->scen, sizeof j->scen, "%s", k->scen);
  snprintf(j->a, sizeof j->a, "%s", k->a);
  snprintf(j->b, sizeof j->b, "%s", k->b);
  j->games = q->games;
  j->seed = J->seed;
  j->fp = k->fp;
  j->sfp = k->sfp;
  j->r = *q;
  mres_round_times(&j->r);
}

/* the games of r (of a match with those games) as a journal line; 2 when the journal cannot
 * be written (said) */
static int mjournal_write(const MatchKey *k, const MatchRes *q) {
  MatchJournal *J = k->J;
  int wr = fprintf(J->f, "M\t%s\t%s\t%s\t%ld\t%" PRIu64 "\t%08x\t%ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %.3f %ld %.17g %.17g %.3f %d %ld %ld %ld %ld %ld %.3f %.3f %ld",
          k->scen, k->a, k->b, q->games, J->seed, k->fp, q->games, q->w, q->l, q->d,
          q->a_fr_games, q->a_fr_wins, q->a_al_games, q->a_al_wins, q->fr_wins, q->al_wins,
          q->draws, q->seconds, q->mpairs, q->msum, q->msum2, q->cpu, q->cpu_est,
          q->penta[0], q->penta[1], q->penta[2], q->penta[3], q->penta[4], q->cpu_a, q->cpu_b,
          q->cpu_games);
  if (wr >= 0 && k->sfp) wr = fprintf(J->f, "\tsfp=%08x", k->sfp);
  if (wr >= 0) wr = fprintf(J->f, "\n");
  if (wr < 0 || fflush(J->f) != 0) {
    /* a journal that cannot be written would lose every later match: stop here */
    fprintf(stderr, "%s: cannot write the journal %s: %s; the matches journalled "
                    "so far are kept (rerun with --resume)\n", J->cmd, J->path, strerror(errno));
    return 2;
  }
  mjournal_remember(k, q);
  return 0;
}

/* match_range's prefix hook: each longer prefix journalled (a killed run loses only the
 * games under way) */
static int mjournal_prefix(void *ctx, long seeds, const MatchRes *r) {
  MatchKey *k = ctx;
  if (mjournal_write(k, r)) k->werr = 1;
  return k->werr;
}

/* a journal match of this pair and seed that was played under another fingerprint is never
 * reused: say so, so that a replay is not a surprise */
static void mjournal_stale_note(const MatchKey *k) {
  const MatchJournal *J = k->J;
  for (int i = J->njr - 1; i >= 0; i--) {
    if (strcmp(J->jr[i].scen, k->scen) || strcmp(J->jr[i].a, k->a) || strcmp(J->jr[i].b, k->b) ||
        J->jr[i].seed != J->seed)
      continue;
    if (J->jr[i].fp != k->fp) {
      fprintf(stderr, "  (the journal's %ld games of this pair were played by a build whose engine, heuristic "
                      "or fitted evaluation plays differently: fingerprint %08x, now %08x; not reused)\n",
              J->jr[i].games, J->jr[i].fp, k->fp);
      return;
    }
    if (J->jr[i].sfp && J->jr[i].sfp != k->sfp) {
      fprintf(stderr, "  (the journal's %ld games of this pair were played by searches that play differently: "
                      "search fingerprint %08x, now %08x; not reused)\n", J->jr[i].games, J->jr[i].sfp, k->sfp);
      return;
    }
  }
}

int mjournal_match(MatchJournal *J, const char *scen, const Scen *sc, uint32_t fp, const char *a,
                   const char *b, long ng, MatchRes *r, char *err, size_t errlen) {
  MatchKey key = {J, scen, a, b, fp, pair_fingerprint(sc, a, b), 0};
  long have = journal_find(J->jr, J->njr, scen, a, b, ng, J->seed, fp, key.sfp, r);
  if (!have) {
    memset(r, 0, sizeof *r);
    mjournal_stale_note(&key);
  } else if (r->cpu < 0) {
    r->cpu = r->seconds * (J->threads > 0 ? J->threads : omp_get_max_threads());
    r->cpu_est = 1;
  }
  if (have > 0 && have < ng)
    fprintf(stderr, "  (%ld games from the journal %s; playing %ld more)\n", have, J->path, ng - have);
  if (have == ng) {
    fprintf(stderr, "  (from the journal %s)\n", J->path);
    return 0;
  }
  if (match_range(sc, a, b, have / 2, ng / 2, J->seed, J->threads, r, 1, mjournal_prefix, &key,
                  err, errlen)) {
    r->games = 0;
    return key.werr ? 2 : 1;
  }
  /* the whole match is its last prefix, journalled already; the table uses what the journal
   * keeps (3 decimals), so a table rebuilt from the journal by --resume is the same to the byte */
  mres_round_times(r);
  return 0;
}

/* the match of pair k in scenario si, from the journal and/or played: 0 with *r filled, 1 when
 * it could not be played (a row says why), 2 when the journal cannot be written */
static int strength_match(Strength *S, int si, const Scen *sc, uint32_t fp, int k, MatchRes *r) {
  const Pair *p = &S->pairs[k];
  long ng = p->games > 0 ? p->games : S->games;
  char err[512];
  fprintf(stderr, "strength: %s: %s vs %s, %ld games\n", S->scens[si], p->a, p->b, ng);
  int rc = mjournal_match(&S->J, S->scens[si], sc, fp, p->a, p->b, ng, r, err, sizeof err);
  if (rc == 1) {
    fprintf(stderr, "strength: %s\n", err);
    buf_printf(&S->b, "| %s | %s | not played: %s | | | | | | | | | |\n", p->a, p->b, err);
  }
  return rc;
}

/* the table row of one match, and its summary on stderr */
static void strength_row(Strength *S, const Scen *sc, const Pair *p, const MatchRes *r) {
  char e[96], p1[64], p2[64], p3[64], mg[96], pn[64], pe[96];
  fmt_elo_wld(e, sizeof e, r->w, r->l, r->d);
  fmt_margin(mg, sizeof mg, r, margin_unit(sc));
  fmt_penta(pn, sizeof pn, r);
  fmt_penta_elo(pe, sizeof pe, r);
  pct(p1, sizeof p1, r->a_fr_wins, r->a_fr_games);
  pct(p2, sizeof p2, r->a_al_wins, r->a_al_games);
  pct(p3, sizeof p3, r->w, r->games);
  buf_printf(&S->b, "| %s | %s | %ld - %ld - %ld | %.3f | %s | %s | %s | %s | %s | %s | %s | %s%.2f |\n",
             p->a, p->b, r->w, r->l, r->d, (r->w + 0.5 * r->d) / r->games, e, pn,
             pe, mg, p1, p2, p3, r->cpu_est ? "≈" : "", r->cpu / r->games);
  fprintf(stderr, "  Score of %s vs %s: %ld - %ld - %ld [%.3f] %ld; Elo %s; margin %s\n", p->a,
          p->b, r->w, r->l, r->d, (r->w + 0.5 * r->d) / r->games, r->games, e, mg);
}

/* ladder: joint fits over every match of the scenario, anchored at heuristic */
static void strength_ladder(Strength *S, const Scen *sc, const MatchRes *res) {
  char names[64][128];
  int nn = 0;
  player_index(names, &nn, "heuristic");
  BTMatch bm[64];
  int ma[64], mb[64], nm = 0;
  double mv[64], mvar[64], elo[64], ese[64], mr[64], mse[64];
  for (int k = 0; k < S->np; k++) {
    const MatchRes *r = &res[k];
    if (!r->games) continue;
    int ia = player_index(names, &nn, S->pairs[k].a), ib = player_index(names, &nn, S->pairs[k].b);
    if (ia < 0 || ib < 0) continue;
    bm[nm] = (BTMatch){ia, ib, (double)r->w, (double)r->l, (double)r->d};
    ma[nm] = ia;
    mb[nm] = ib;
    double h = margin_half(r);
    mv[nm] = r->mpairs > 0 ? r->msum / r->mpairs : 0;
    /* the variance of the mean margin, from its t half-width (unknown: left out) */
    double tq = r->mpairs > 1 ? t_quantile(0.975, (double)r->mpairs - 1) : 1;
    mvar[nm] = isfinite(h) && h > 0 ? (h / tq) * (h / tq) : INFINITY;
    nm++;
  }
  int okb = bt_fit(nn, nm, bm, 0, 1.0, elo, ese) == 0;
  int okm = ladder_wls(nn, nm, ma, mb, mv, mvar, 0, mr, mse) == 0;
  /* the margins' 95% by Student t, as each match's: the fewest seeds of a match that enters
   * the fit give the degrees of freedom (conservative: a joint fit has at least these) */
  double df = INFINITY;
  for (int k = 0; k < S->np; k++)
    if (res[k].games && res[k].mpairs > 1 && isfinite(margin_half(&res[k])))
      df = fmin(df, (double)res[k].mpairs - 1);
  double tq = isfinite(df) ? t_quantile(0.975, df) : Z95;
  buf_printf(&S->b, "\nLadder (joint fit over all the matches above, relative to heuristic, "
                    "95%%; the margin in %s per game):\n\n| player | Elo (Bradley–Terry) | "
                    "margin |\n|---|---|---|\n", margin_unit(sc));
  for (int i = 0; i < nn; i++) {
    char e[64], mg[64];
    if (i == 0) snprintf(e, sizeof e, "0 (anchor)");
    else if (okb && isfinite(elo[i])) fmt_elo(e, sizeof e, elo[i], Z95 * ese[i]);
    else snprintf(e, sizeof e, "—");
    if (i == 0) snprintf(mg, sizeof mg, "0 (anchor)");
    else if (okm && isfinite(mr[i])) snprintf(mg, sizeof mg, "%+.2f +/- %.2f", fabs(mr[i]) < 0.005 ? 0.0 : mr[i], tq * mse[i]);
    else snprintf(mg, sizeof mg, "—");
    buf_printf(&S->b, "| %s | %s | %s |\n", names[i], e, mg);
  }
}

/* a target "at least x" judged by an interval: met only when the whole interval reaches it */
static const char *verdict_at_least(Interval iv, double x) {
  return iv.lo >= x ? "met (the whole interval is at or above it)"
         : iv.hi < x ? "NOT met (the whole interval is below it)"
                     : "not shown (the target is inside the interval)";
}

/* the level ladder, from the weakest */
static const char *LADDER[] = {"random", "heuristic", "mcts:sim", "mcts:easy", "mcts:normal",
                               "mcts:hard", "mcts:expert"};
#define NLADDER ((int)(sizeof LADDER / sizeof *LADDER))

static int is_level_step(const Pair *p) {
  for (int i = 0; i + 1 < NLADDER; i++)
    if (!strcmp(p->a, LADDER[i + 1]) && !strcmp(p->b, LADDER[i])) return 1;
  return 0;
}

/* the pairs were counted and do not all score the same */
static int step_by_pairs(const MatchRes *r) {
  if (!has_penta(r)) return 0;
  int kinds = 0;
  for (int q = 0; q < 5; q++) kinds += r->penta[q] > 0;
  return kinds > 1;
}

/* A's score with its 95% interval: Student t over the pair scores when the pairs were counted
 * (they carry the correlation of a seed's two games), else Wilson over the games; the one-sided
 * p of "A scores more than half" in *p (t over the pairs, else the exact sign test of the won
 * against the lost pairs, or games) */
static Interval step_score(const MatchRes *r, double *p) {
  Interval wi = wilson_d(r->w + 0.5 * r->d, r->games, Z95);
  /* without pairs, or when every pair scored the same: the sign test, over the pairs (won
   * against lost) when they were counted, else over the games */
  *p = has_penta(r) ? sign_test_p(r->penta[3] + r->penta[4], r->penta[0] + r->penta[1])
                    : sign_test_p(r->w, r->l);
  if (!has_penta(r)) return wi;
  double sum = 0, sum2 = 0;
  for (int q = 0; q < 5; q++) {
    sum += r->penta[q] * (q / 4.0);
    sum2 += r->penta[q] * (q / 4.0) * (q / 4.0);
  }
  long n = r->games / 2;
  Interval iv = mean_t(sum, sum2, n, 0.95);
  double se = n > 1 ? (iv.hi - iv.lo) / 2 / t_quantile(0.975, (double)n - 1) : 0;
  if (!(se > 1e-12)) return wi;
  *p = 1 - t_cdf((iv.p - 0.5) / se, (double)n - 1);
  iv.lo = fmax(0, iv.lo);
  iv.hi = fmin(1, iv.hi);
  return iv;
}

/* the targets of the tree search (the levels): a level against a yardstick, short and long
 * game, judged by the score's Wilson interval over at least 200 short or 100 long mirrored games */
typedef struct {
  const char *a, *b;
  double floor[2]; /* short, long */
} LevelTarget;
static const LevelTarget LEVEL_TARGETS[] = {
    {"mcts:normal", "heuristic", {0.95, 0.95}},
    {"mcts:normal", "baseline", {0.85, 0.85}},
    {"mcts:normal", "flat:normal", {0.60, 0.65}}, /* today's normal against yesterday's */
    {"mcts:sim", "flat:sim", {0.60, 0.60}},
};

/* the level targets above; and each level beats the one below it, judged by the one-sided p of
 * its pair score adjusted by Holm over the level steps of the table (holm: NAN when the pair is
 * not a step) */
static void level_targets(Buf *b, const Scen *sc, const Pair *p, const MatchRes *r, double holm) {
  Interval wi = wilson_d(r->w + 0.5 * r->d, r->games, Z95);
  int lg = sc->scenario != SC_SHORT;
  long asked = lg ? 100 : 200;
  char n[96] = "";
  if (r->games < asked) snprintf(n, sizeof n, "; %ld games, fewer than the %ld asked", r->games, asked);
  for (size_t k = 0; k < sizeof LEVEL_TARGETS / sizeof LEVEL_TARGETS[0]; k++) {
    const LevelTarget *t = &LEVEL_TARGETS[k];
    if (strcmp(p->a, t->a) || strcmp(p->b, t->b)) continue;
    buf_printf(b, "- %s scores ≥ %.0f%% against %s (search target, %s game): %.1f%% [%.1f, %.1f] — %s%s\n",
               t->a, 100 * t->floor[lg], t->b, lg ? "long" : "short", 100 * wi.p, 100 * wi.lo,
               100 * wi.hi, verdict_at_least(wi, t->floor[lg]), n);
  }
  if (isnan(holm)) return;
  double p1;
  Interval si = step_score(r, &p1);
  buf_printf(b, "- %s beats the level below it, %s (level target): %.1f%% [%.1f, %.1f] (%s), Holm p %.3g — %s\n",
             p->a, p->b, 100 * si.p, 100 * si.lo, 100 * si.hi,
             step_by_pairs(r) ? "t over the pairs"
             : has_penta(r)   ? "Wilson over the games, sign test over the pairs"
                              : "Wilson over the games, sign test over the games", holm,
             holm < 0.05 ? "met" : si.p > 0.5 ? "not shown (ahead, not significantly after Holm)" : "NOT met");
}

/* "met" on a point estimate is not claimed: a gain is met when its interval is above 0 */
static void budget_target(Buf *b, const Scen *sc, const Pair *p, const MatchRes *r) {
  double elo, margin, lo, hi;
  elo_wld(r->w, r->l, r->d, &elo, &margin);
  elo_wld_interval(r->w, r->l, r->d, &lo, &hi);
  char mg[80];
  fmt_margin(mg, sizeof mg, r, margin_unit(sc));
  buf_printf(b, "- %s over %s gains Elo: %+.1f — %s; margin %s — %s\n", p->a,
             p->b, fabs(elo) < 0.05 ? 0.0 : elo,
              lo > 0 ? "met (its interval above 0)" : elo > 0 ? "not shown (ahead, interval reaches 0)" : "NOT met",
             mg, r->mpairs <= 0 ? "not recorded" : margin_lo(r) > 0 ? "ahead (interval above 0)"
                  : r->msum > 0 ? "not shown (ahead, interval reaches 0)" : "not ahead");
}

/* the target lines of one match: heuristic over random, mcts:normal over heuristic, the
 * targets of the levels, and a larger budget over a smaller one of the same player */
static void strength_match_targets(Buf *b, const Scen *sc, const Pair *p, const MatchRes *r,
                                   double holm) {
  Interval wi = wilson_d(r->w + 0.5 * r->d, r->games, Z95);
  if (!strcmp(p->a, "heuristic") && !strcmp(p->b, "random"))
    buf_printf(b, "- heuristic beats random ≥ 90%%: %.1f%% [%.1f, %.1f] — %s\n", 100 * wi.p,
               100 * wi.lo, 100 * wi.hi, verdict_at_least(wi, 0.9));
  if (!strcmp(p->a, "mcts:normal") && !strcmp(p->b, "heuristic"))
    buf_printf(b, "- mcts:normal beats heuristic ≥ 75%% over both sides: %.1f%% [%.1f, %.1f] — %s\n",
               100 * wi.p, 100 * wi.lo, 100 * wi.hi, verdict_at_least(wi, 0.75));
  level_targets(b, sc, p, r, holm);
  const char *star = strchr(p->a, '*');
  if (star && !strncmp(p->a, p->b, (size_t)(star - p->a)) &&
      (p->b[star - p->a] == 0 || p->b[star - p->a] == '*'))
    budget_target(b, sc, p, r);
}

/* honest against cheating search, head to head: the cheat's win rate minus the honest player's,
 * in points, with a Student-t interval centred on that gap: over the pairs (per seed, the
 * cheat's points minus the honest player's, halved) when they were counted, else over the games */
static void strength_cheat_gap(Buf *b, const MatchRes *r) {
  double hon = (double)r->l / r->games, ch = (double)r->w / r->games;
  Interval iv;
  if (has_penta(r)) {
    double sum = 0, sum2 = 0;
    for (int q = 0; q < 5; q++) {
      double x = (q - 2) / 2.0;
      sum += r->penta[q] * x;
      sum2 += r->penta[q] * x * x;
    }
    iv = mean_t(sum, sum2, r->games / 2, 0.95);
  } else {
    iv = mean_t((double)(r->w - r->l), (double)(r->w + r->l), r->games, 0.95);
  }
  buf_printf(b, "- honest normal against cheat:normal head to head: the cheat wins %.1f%%, "
                "honest %.1f%%, gap %.1f points [%.1f, %.1f] (%s) — %s\n",
             100 * ch, 100 * hon, 100 * (ch - hon), 100 * iv.lo, 100 * iv.hi,
             has_penta(r) ? "t over the pairs" : "t over the games",
             iv.hi <= 0.10 ? "met (the whole interval within 10 points)"
             : iv.lo > 0.10 ? "NOT met (the whole interval beyond 10 points)"
                            : "not shown (10 points inside the interval)");
}

/* the targets of the strength table that the default pairs measure */
static void strength_targets(Strength *S, const Scen *sc, const MatchRes *res) {
  const Pair *pairs = S->pairs;
  buf_printf(&S->b, "\nTargets:\n\n");
  double p[64], adj[64], holm[64];
  int idx[64], n = 0;
  for (int k = 0; k < S->np; k++) {
    holm[k] = NAN;
    if (!res[k].games || !is_level_step(&pairs[k])) continue;
    step_score(&res[k], &p[n]);
    idx[n++] = k;
  }
  holm_adjust(p, n, adj);
  for (int i = 0; i < n; i++) holm[idx[i]] = adj[i];
  for (int k = 0; k < S->np; k++)
    if (res[k].games) strength_match_targets(&S->b, sc, &pairs[k], &res[k], holm[k]);
  int kn = -1, kc = -1;
  for (int k = 0; k < S->np; k++) {
    if (!res[k].games || strcmp(pairs[k].b, "heuristic")) continue;
    if (!strcmp(pairs[k].a, "mcts:normal")) kn = k;
    if (!strcmp(pairs[k].a, "cheat:normal")) kc = k;
  }
  if (kn >= 0 && kc >= 0) {
    Interval g = diff_indep(res[kc].w, res[kc].games, res[kn].w, res[kn].games, Z95);
    buf_printf(&S->b, "- honest normal within 10 points of cheat:normal (win rates against "
                      "heuristic): %.1f%% vs %.1f%%, gap %.1f points [%.1f, %.1f] — %s\n",
               100.0 * res[kn].w / res[kn].games, 100.0 * res[kc].w / res[kc].games, 100 * g.p,
               100 * g.lo, 100 * g.hi,
               g.hi <= 0.10 ? "met (the whole interval within 10 points)"
               : g.lo > 0.10 ? "NOT met (the whole interval beyond 10 points)"
                             : "not shown (10 points inside the interval)");
  }
  for (int k = 0; k < S->np; k++)
    if (res[k].games && !strcmp(pairs[k].a, "cheat:normal") && !strcmp(pairs[k].b, "mcts:normal"))
      strength_cheat_gap(&S->b, &res[k]);
}

/* the section of one scenario: every match, the ladder and the targets; 2 on an error */
static int strength_scenario(Strength *S, int si) {
  Scen *sc = sim_scen_load("strength", S->scens[si], "base");
  if (!sc) return 2;
  uint32_t fp = play_fingerprint(sc);
  buf_printf(&S->b, "## %s game\n\n| A | B | W - L - D | score | Elo (A − B) | pairs 0-½-1-1½-2 | "
                    "Elo from pairs, LOS | margin (A − B) | A as French | A as Allied | A overall | "
                    "CPU s/game |\n|---|---|---|---:|---|---|---|---|---|---|---|---:|\n",
             !strcmp(S->scens[si], "short") ? "Short" : "Long");
  MatchRes res[64];
  for (int k = 0; k < S->np; k++) {
    int m = strength_match(S, si, sc, fp, k, &res[k]);
    if (m == 2) { free(sc); return 2; }
    if (m == 0) strength_row(S, sc, &S->pairs[k], &res[k]);
  }
  strength_ladder(S, sc, res);
  strength_targets(S, sc, res);
  buf_printf(&S->b, "\n");
  free(sc);
  return 0;
}

/* the table, written atomically */
static int strength_write(Strength *S) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s", S->out);
  char *sl = strrchr(dir, '/');
  if (sl) { *sl = 0; mkdir_p(dir); }
  if (write_atomic(S->out, S->b.s, S->b.n)) { fprintf(stderr, "strength: cannot write %s\n", S->out); return 2; }
  fprintf(stderr, "strength: table in %s\n", S->out);
  return 0;
}

int strength_main(const StrengthOpts *o) {
  Strength *S = calloc(1, sizeof *S);
  if (!S) { fprintf(stderr, "strength: out of memory\n"); return 2; }
  S->games = o->games;
  S->seed = o->seed;
  S->threads = o->threads;
  S->resume = o->resume;
  S->overwrite = o->overwrite;
  S->out = o->out;
  S->scen_list = o->scen_list;
  S->pairs_orig = o->pairs;
  S->pairs_arg = o->pairs ? strdup(o->pairs) : NULL;
  int rc = 0;
  if (o->pairs && !S->pairs_arg) { fprintf(stderr, "strength: out of memory\n"); rc = 2; }
  if (rc == 0) rc = strength_pairs(S);
  if (rc == 0) {
    strength_preamble(S);
    S->J.seed = S->seed;
    S->J.threads = S->threads;
    rc = mjournal_open(&S->J, "strength", S->out, S->resume, S->overwrite);
  }
  for (int si = 0; si < S->ns && rc == 0; si++) rc = strength_scenario(S, si);
  if (rc == 0) rc = strength_write(S);
  buf_free(&S->b);
  free(S->pairs_arg);
  mjournal_close(&S->J);
  free(S);
  return rc == 1 ? 0 : rc;
}
