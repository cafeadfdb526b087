/* ./waterloo match (mirrored-seed match, cutechess-style output) and ./waterloo strength
 * (the strength table of issue 3). */
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim.h"
#include "../engine/util.h"

typedef struct {
  long games, w, l, d;         /* from A's point of view                  */
  long a_fr_games, a_fr_wins;  /* A playing French                        */
  long a_al_games, a_al_wins;  /* A playing Allied                        */
  long fr_wins, al_wins, draws;
  double seconds;
  double cpu;                  /* seconds x threads: the core time the games took         */
  /* paired margin: per seed, (French margin when A was French - French margin when B was
   * French) / 2 -- the seed's and the side's effect cancel.  The French margin is VP(French) -
   * VP(Allied) in the long game, objectives (castles + Mont St. Jean) held by the French at the
   * end in the short game.  mpairs = 0: not recorded (an old journal line). */
  long mpairs;
  double msum, msum2;
} MatchRes;

/* the French margin of one finished game (see MatchRes) */
static int french_margin(const Scen *sc, const GameFacts *g) {
  if (sc->scenario != SC_SHORT) return g->vp[FRENCH] - g->vp[ALLIED];
  int n = 0;
  for (int v = V_HOUGOUMONT; v <= V_FRISCHERMONT; v++) n += (g->owner >> v) & 1;
  return n + ((g->owner >> V_MSJ) & 1);
}

static const char *margin_unit(const Scen *sc) {
  return sc->scenario == SC_SHORT ? "objectives" : "VP";
}

/* mean paired margin and the variance of that mean; -1 when fewer than 2 seeds */
static int margin_stats(const MatchRes *r, double *mean, double *se2) {
  if (r->mpairs <= 1) return -1;
  double n = (double)r->mpairs;
  *mean = r->msum / n;
  double var = (r->msum2 - n * *mean * *mean) / (n - 1);
  *se2 = var > 0 ? var / n : 0;
  return 0;
}

/* "+1.25 +/- 0.80 VP" (95%, normal approximation over the seeds) */
static void fmt_margin(char *buf, size_t len, const MatchRes *r, const char *unit) {
  if (r->mpairs <= 0) { snprintf(buf, len, "—"); return; }
  double mean = r->msum, se2;
  int one = margin_stats(r, &mean, &se2) != 0;   /* one seed: no spread yet */
  if (fabs(mean) < 0.005) mean = 0.0;
  if (one) snprintf(buf, len, "%+.2f +/- inf %s", mean, unit);
  else snprintf(buf, len, "%+.2f +/- %.2f %s", mean, Z95 * sqrt(se2), unit);
}

static double margin_lo(const MatchRes *r) {
  double m, se2;
  if (margin_stats(r, &m, &se2)) return -INFINITY;
  return m - Z95 * sqrt(se2);
}

static int match_range(const Scen *sc, const char *A, const char *B, long from, long to,
                       uint64_t seed, int threads, MatchRes *r, int progress, char *err,
                       size_t errlen);


/* plays seeds [from, to): game j of the range has seed index from + j/2; even j: A French,
 * odd j: B French (sides swapped on the same seed).  Adds to *r. */
static int match_range(const Scen *sc, const char *A, const char *B, long from, long to,
                       uint64_t seed, int threads, MatchRes *r, int progress, char *err,
                       size_t errlen) {
  long n = 2 * (to - from);
  uint8_t *res = calloc((size_t)n + 1, 1);
  int *mar = calloc((size_t)n + 1, sizeof *mar);
  int failed = 0;
  long done = 0;
  double t0 = clock_wall(), last = 0;
  int tty = isatty(2);
  if (threads <= 0) threads = omp_get_max_threads();
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (long j = 0; j < n; j++) {
    int f;
#pragma omp atomic read
    f = failed;
    if (f) continue;
    long k = from + j / 2;
    const char *fr = j % 2 ? B : A, *al = j % 2 ? A : B;
    GameFacts g;
    char e[256];
    if (run_game_specs(sc, fr, al, seed, (uint64_t)k, &g, NULL, e, sizeof e) == -2) {
#pragma omp critical(match_err)
      { snprintf(err, errlen, "%s", e); failed = 1; }
      continue;
    }
    res[j] = g.result;
    mar[j] = french_margin(sc, &g);
#pragma omp critical(match_progress)
    {
      done++;
      double t = clock_wall();
      if (progress && tty && (t - last > 0.2 || done == n)) {
        last = t;
        double rate = done / (t - t0);
        fprintf(stderr, "\r  %s vs %s: %ld/%ld games, %.2f games/s, ETA %.0f s   ", A, B,
                r->games + done, r->games + n, rate, (n - done) / (rate > 0 ? rate : 1));
        fflush(stderr);
      }
    }
  }
  if (progress && tty) fprintf(stderr, "\r\033[K");
  double dt = clock_wall() - t0;
  r->seconds += dt;
  r->cpu += dt * threads;
  if (failed) { free(res); free(mar); return -1; }
  for (long j = 0; j + 1 < n; j += 2) {
    double d = 0.5 * (mar[j] - mar[j + 1]);
    r->mpairs++;
    r->msum += d;
    r->msum2 += d * d;
  }
  for (long j = 0; j < n; j++) {
    int a_fr = j % 2 == 0, x = res[j];
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
  }
  free(res);
  free(mar);
  return 0;
}

static void fmt_elo(char *buf, size_t len, double elo, double margin) {
  if (fabs(elo) < 0.05) elo = 0.0; /* no "-0.0" */
  if (!isfinite(elo)) snprintf(buf, len, "%s", elo > 0 ? "+inf" : "-inf");
  else if (!isfinite(margin)) snprintf(buf, len, elo ? "%+.1f +/- inf" : "%.1f +/- inf", elo);
  else snprintf(buf, len, elo ? "%+.1f +/- %.1f" : "%.1f +/- %.1f", elo, margin);
}

static void pct(char *buf, size_t len, long k, long n) {
  Interval iv = wilson(k, n, Z95);
  snprintf(buf, len, "%.1f%% [%.1f, %.1f]", 100 * iv.p, 100 * iv.lo, 100 * iv.hi);
}

static int split_players(const char *v, char *a, char *b, size_t len) {
  const char *cut = strchr(v, '/');
  if (!cut && !strchr(v, '=')) cut = strchr(v, ',');
  if (!cut) return -1;
  snprintf(a, len, "%.*s", (int)(cut - v), v);
  snprintf(b, len, "%s", cut + 1);
  return a[0] && b[0] ? 0 : -1;
}

int cmd_match(int argc, char **argv) {
  char scen[16] = "short", var[64] = "base", A[128] = "heuristic", B[128] = "random";
  long games = 100;
  uint64_t seed = 1815;
  int threads = 0, quiet = 0;
  double sprt0 = NAN, sprt1 = NAN;
  long batch = 20;
  char err0[300];
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      printf("usage: waterloo match --scenario short --players A,B --games N [--seed S] "
             "[--threads T] [--variant V] [--sprt ELO0,ELO1 [--batch B]]\n"
             "Plays N games between A and B with mirrored seeds: each seed is played twice, "
             "sides swapped.\nPrints 'Score of A vs B: W - L - D [score] N' and 'Elo difference: "
             "x +/- y' (cutechess-cli shapes), and the win rates with 95%% Wilson intervals per "
             "side.\n--sprt ELO0,ELO1: sequential probability ratio test of H1: ELO1 against H0: ELO0 "
             "(alpha = beta = 0.05, bounds +-2.94), checked after every batch of B games "
             "(default 20, whole mirrored pairs); stops when a bound is crossed, N is the cap.\n"
             "Write A/B when a spec has commas.\n");
      return 0;
    }
    if (!strcmp(a, "--quiet")) { quiet = 1; continue; }
    if (i + 1 >= argc) { fprintf(stderr, "match: %s needs a value\n", a); return 2; }
    const char *v = argv[++i];
    if (!strcmp(a, "--scenario")) snprintf(scen, sizeof scen, "%s", v);
    else if (!strcmp(a, "--variant")) snprintf(var, sizeof var, "%s", v);
    else if (!strcmp(a, "--players")) {
      if (split_players(v, A, B, sizeof A)) { fprintf(stderr, "match: --players A,B\n"); return 2; }
    } else if (!strcmp(a, "--games")) games = strtol(v, NULL, 10);
    else if (!strcmp(a, "--seed")) seed = strtoull(v, NULL, 10);
    else if (!strcmp(a, "--threads")) threads = atoi(v);
    else if (!strcmp(a, "--batch")) batch = strtol(v, NULL, 10);
    else if (!strcmp(a, "--sprt")) {
      if (sscanf(v, "%lf,%lf", &sprt0, &sprt1) != 2) { fprintf(stderr, "match: --sprt ELO0,ELO1\n"); return 2; }
    } else { fprintf(stderr, "match: unknown option '%s' (see --help)\n", a); return 2; }
  }
  if (games < 2) { fprintf(stderr, "match: --games must be at least 2\n"); return 2; }
  if (player_spec_check(A, err0, sizeof err0) || player_spec_check(B, err0, sizeof err0)) {
    fprintf(stderr, "match: %s\n", err0);
    return 2;
  }
  if (games % 2) { games++; fprintf(stderr, "match: --games rounded up to %ld (mirrored pairs)\n", games); }
  if (batch < 2) batch = 2;
  Scen *sc = malloc(sizeof(Scen));
  char err[512];
  if (scen_load(sc, scen_default_dir(), scen, var, err, sizeof err)) {
    fprintf(stderr, "match: %s %s: %s\n", scen, var, err);
    free(sc);
    return 2;
  }
  MatchRes r;
  memset(&r, 0, sizeof r);
  double llr = 0;
  const double bound = log((1 - 0.05) / 0.05); /* 2.94 for alpha = beta = 0.05 */
  if (isnan(sprt0)) batch = games;
  for (long from = 0; from < games / 2;) {
    long to = from + batch / 2 < games / 2 ? from + batch / 2 : games / 2;
    if (match_range(sc, A, B, from, to, seed, threads, &r, !quiet, err, sizeof err)) {
      fprintf(stderr, "match: %s\n", err);
      free(sc);
      return 2;
    }
    from = to;
    if (!isnan(sprt0)) {
      llr = sprt_llr(r.w, r.l, r.d, sprt0, sprt1);
      if (llr >= bound || llr <= -bound) break;
    }
  }
  double elo, margin;
  elo_wld(r.w, r.l, r.d, &elo, &margin);
  char e[64], p1[64], p2[64], p3[64], p4[64];
  fmt_elo(e, sizeof e, elo, margin);
  printf("Match: %s vs %s, %s/%s, %ld games (%ld seeds, sides swapped), seed %" PRIu64 "\n", A, B,
         scen, var, r.games, r.games / 2, seed);
  printf("Score of %s vs %s: %ld - %ld - %ld [%.3f] %ld\n", A, B, r.w, r.l, r.d,
         (r.w + 0.5 * r.d) / r.games, r.games);
  printf("Elo difference: %s\n", e);
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
  if (!isnan(sprt0))
    printf("SPRT: llr %.2f (%.2f, %.2f) [%g, %g] %s after %ld games\n", llr, -bound, bound, sprt0,
           sprt1, llr >= bound ? "H1 accepted" : llr <= -bound ? "H0 accepted" : "inconclusive",
           r.games);
  if (!quiet)
    fprintf(stderr, "match: %.1f s, %.2f games/s\n", r.seconds, r.games / (r.seconds > 0 ? r.seconds : 1));
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

/* a player's place on the ladder, by measure: Elo, paired margin */
enum { M_ELO, M_MARGIN, M_COUNT };
typedef struct {
  char name[64];
  double val[M_COUNT], var[M_COUNT]; /* relative to the anchor, and its variance */
  int known[M_COUNT];
} Rating;

/* A - B of one match by measure, and its variance; -1 when the match does not give it */
static int match_measure(const MatchRes *r, int m, double *val, double *var) {
  if (!r->games) return -1;
  if (m == M_MARGIN) return margin_stats(r, val, var);
  double margin;
  elo_wld(r->w, r->l, r->d, val, &margin);
  *var = isfinite(margin) ? (margin / Z95) * (margin / Z95) : INFINITY;
  return 0;
}

static Rating *rating_of(Rating *rt, int *nr, const char *name) {
  for (int i = 0; i < *nr; i++)
    if (!strcmp(rt[i].name, name)) return &rt[i];
  if (*nr >= 64) return NULL;
  Rating *r = &rt[(*nr)++];
  memset(r, 0, sizeof *r);
  snprintf(r->name, sizeof r->name, "%s", name);
  return r;
}

/* strength journal: finished matches */
typedef struct {
  char scen[16], a[128], b[128];
  long games;
  uint64_t seed;
  uint32_t fp;
  MatchRes r;
} JRec;

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
    char *save = NULL, *t[8];
    int k = 0;
    for (char *p = strtok_r(line + 2, "\t\n", &save); p && k < 8; p = strtok_r(NULL, "\t\n", &save)) t[k++] = p;
    if (k != 7) continue;
    snprintf(j.scen, sizeof j.scen, "%s", t[0]);
    snprintf(j.a, sizeof j.a, "%s", t[1]);
    snprintf(j.b, sizeof j.b, "%s", t[2]);
    j.games = strtol(t[3], NULL, 10);
    j.seed = strtoull(t[4], NULL, 10);
    j.fp = (uint32_t)strtoul(t[5], NULL, 16);
    MatchRes *r = &j.r;
    int nf = sscanf(t[6], "%ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %lf %ld %lf %lf %lf", &r->games,
                    &r->w, &r->l, &r->d, &r->a_fr_games, &r->a_fr_wins, &r->a_al_games,
                    &r->a_al_wins, &r->fr_wins, &r->al_wins, &r->draws, &r->seconds, &r->mpairs,
                    &r->msum, &r->msum2, &r->cpu);
    if (nf != 12 && nf != 15 && nf != 16) continue;
    if (nf < 16) r->cpu = -1; /* older line: core time unknown (wall time x threads below) */
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
                         long games, uint64_t seed, uint32_t fp, MatchRes *r) {
  long best = 0;
  for (int i = n - 1; i >= 0; i--)
    if (!strcmp(jr[i].scen, scen) && !strcmp(jr[i].a, a) && !strcmp(jr[i].b, b) &&
        jr[i].games <= games && jr[i].games > best && jr[i].r.games == jr[i].games &&
        jr[i].seed == seed && jr[i].fp == fp) {
      *r = jr[i].r;
      best = jr[i].games;
    }
  return best;
}

int cmd_strength(int argc, char **argv) {
  long games = 40;
  uint64_t seed = 1815;
  int threads = 0;
  const char *out = "results/strength.md", *scen_list = "short,long";
  char *pairs_arg = NULL;
  const char *pairs_orig = NULL;
  int resume = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      printf("usage: waterloo strength [--games N] [--out results/strength.md] [--seed S]\n"
             "                         [--threads T] [--scenario short,long] [--pairs 'A/B[@N];C/D']\n"
             "                         [--resume]\n"
             "The strength table of issue 3: mirrored-seed matches (N games each, each seed\n"
             "played twice with sides swapped) of random, heuristic, mcts at every level, mcts at\n"
             "1x, 2x, 4x, 8x the normal budget, and cheat:normal, in both scenarios; win rates\n"
             "with 95%% Wilson intervals, Elo with error bars, and a ladder anchored at\n"
             "heuristic = 0.  Written as Markdown with the command that reproduces it.\n"
             "A/B@N: N games for that pair (else --games).\n"
             "Every finished match is appended to OUT.journal; --resume reuses the matches in it\n"
             "(same scenario, players, seed and engine build) after a killed run, and grows a\n"
             "match: asked for more games than the journal has, it plays only the new seeds.\n"
             "The margin column is a paired, finer measure: per seed, A's French margin minus\n"
             "B's (VP in the long game, objectives held in the short), halved.\n");
      return 0;
    }
    if (!strcmp(a, "--resume")) { resume = 1; continue; }
    if (i + 1 >= argc) { fprintf(stderr, "strength: %s needs a value\n", a); return 2; }
    const char *v = argv[++i];
    if (!strcmp(a, "--games")) games = strtol(v, NULL, 10);
    else if (!strcmp(a, "--out")) out = v;
    else if (!strcmp(a, "--seed")) seed = strtoull(v, NULL, 10);
    else if (!strcmp(a, "--threads")) threads = atoi(v);
    else if (!strcmp(a, "--scenario")) scen_list = v;
    else if (!strcmp(a, "--pairs")) { pairs_orig = v; free(pairs_arg); pairs_arg = strdup(v); }
    else { fprintf(stderr, "strength: unknown option '%s' (see --help)\n", a); return 2; }
  }
  if (games < 2) { fprintf(stderr, "strength: --games must be at least 2\n"); return 2; }
  if (games % 2) games++;
  /* the pairs */
  Pair pairs[64];
  int np = 0;
  char pa[64][128], pb[64][128];
  if (pairs_arg) {
    char *save = NULL;
    for (char *t = strtok_r(pairs_arg, ";", &save); t && np < 64; t = strtok_r(NULL, ";", &save)) {
      long ng = 0;
      char *at = strrchr(t, '@');
      if (at) {
        char *end;
        ng = strtol(at + 1, &end, 10);
        if (*end || ng < 2) { fprintf(stderr, "strength: bad game count in pair '%s' (A/B@N, N >= 2)\n", t); return 2; }
        if (ng % 2) ng++;
        *at = 0;
      }
      if (split_players(t, pa[np], pb[np], 128)) { fprintf(stderr, "strength: bad pair '%s'\n", t); return 2; }
      pairs[np].a = pa[np];
      pairs[np].b = pb[np];
      pairs[np].games = ng;
      np++;
    }
  } else {
    np = (int)(sizeof default_pairs / sizeof default_pairs[0]);
    memcpy(pairs, default_pairs, sizeof default_pairs);
  }
  for (int i = 0; i < np; i++) {
    char e[300];
    if (player_spec_check(pairs[i].a, e, sizeof e) || player_spec_check(pairs[i].b, e, sizeof e)) {
      fprintf(stderr, "strength: %s\n", e);
      return 2;
    }
  }
  char scens[2][16];
  int ns = 0;
  {
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%s", scen_list);
    char *save = NULL;
    for (char *t = strtok_r(tmp, ",", &save); t && ns < 2; t = strtok_r(NULL, ",", &save))
      snprintf(scens[ns++], 16, "%s", t);
  }
  Buf b = {0};
  buf_printf(&b, "# Strength table\n\nReproduce with:\n\n```\n./waterloo strength --games %ld --seed %" PRIu64 " --scenario %s",
             games, seed, scen_list);
  if (pairs_orig) buf_printf(&b, " --pairs '%s'", pairs_orig);
  buf_printf(&b, "\n```\n\n");
  buf_printf(&b, "Every match: N games (%ld unless the pair says `@N`), N/2 seeds each played "
                 "twice with sides swapped. Score "
                 "and Elo are from the first player's point of view (cutechess-cli: Elo = "
                 "−400·log10(1/score − 1), error margin from the per-game score variance, 95%%). "
                 "Win rates with 95%% Wilson intervals. Ladder: Elo and margin relative to `heuristic`, "
                 "chained through the matches (errors added in quadrature).\n\n"
                 "Margin: a finer, paired measure for games that the side mostly decides. For "
                 "each seed, the French margin when A played the French minus the French margin "
                 "when B did, halved: how much more A gets per game than B, with the seed's and "
                 "the side's effect cancelled. French margin = VP(French) − VP(Allied) in the "
                 "long game; objectives (castles and Mont St. Jean) the French hold at the end "
                 "in the short game. Mean ± 95%% (normal approximation over the seeds).\n\n",
             games);
  /* the journal: one line per finished match; --resume reuses them */
  char jpath[1100];
  snprintf(jpath, sizeof jpath, "%s.journal", out);
  {
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", out);
    char *sl = strrchr(dir, '/');
    if (sl) { *sl = 0; mkdir_p(dir); }
  }
  JRec *jr = NULL;
  int njr = 0;
  if (resume) njr = journal_read(jpath, &jr);
  FILE *jf = fopen(jpath, resume ? "a" : "w");
  if (jf && resume) { fprintf(jf, "\n"); fflush(jf); }
  int rc = 0;
  for (int si = 0; si < ns && rc == 0; si++) {
    Scen *sc = malloc(sizeof(Scen));
    char err[512];
    if (scen_load(sc, scen_default_dir(), scens[si], "base", err, sizeof err)) {
      fprintf(stderr, "strength: %s: %s\n", scens[si], err);
      free(sc);
      rc = 2;
      break;
    }
    uint32_t fp = scen_fingerprint(sc);
    buf_printf(&b, "## %s game\n\n| A | B | W - L - D | score | Elo (A − B) | margin (A − B) | A as French | A as "
                   "Allied | A overall | CPU s/game |\n|---|---|---|---:|---|---|---|---|---|---:|\n",
               !strcmp(scens[si], "short") ? "Short" : "Long");
    Rating rt[64];
    int nr = 0;
    Rating *h = rating_of(rt, &nr, "heuristic");
    MatchRes res[64];
    for (int k = 0; k < np; k++) {
      long ng = pairs[k].games > 0 ? pairs[k].games : games;
      fprintf(stderr, "strength: %s: %s vs %s, %ld games\n", scens[si], pairs[k].a, pairs[k].b, ng);
      long have = journal_find(jr, njr, scens[si], pairs[k].a, pairs[k].b, ng, seed, fp, &res[k]);
      if (!have) memset(&res[k], 0, sizeof res[k]);
      else if (res[k].cpu < 0) res[k].cpu = res[k].seconds * (threads > 0 ? threads : omp_get_max_threads());
      if (have > 0 && have < ng)
        fprintf(stderr, "  (%ld games from the journal %s; playing %ld more)\n", have, jpath, ng - have);
      if (have == ng) {
        fprintf(stderr, "  (from the journal %s)\n", jpath);
      } else if (match_range(sc, pairs[k].a, pairs[k].b, have / 2, ng / 2, seed, threads, &res[k], 1, err, sizeof err)) {
        fprintf(stderr, "strength: %s\n", err);
        buf_printf(&b, "| %s | %s | not played: %s | | | | | | | |\n", pairs[k].a, pairs[k].b, err);
        res[k].games = 0;
        continue;
      }
      else if (jf) {
        const MatchRes *q = &res[k];
        fprintf(jf, "M\t%s\t%s\t%s\t%ld\t%" PRIu64 "\t%08x\t%ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %.3f %ld %.17g %.17g %.3f\n",
                scens[si], pairs[k].a, pairs[k].b, ng, seed, fp, q->games, q->w, q->l, q->d,
                q->a_fr_games, q->a_fr_wins, q->a_al_games, q->a_al_wins, q->fr_wins, q->al_wins,
                q->draws, q->seconds, q->mpairs, q->msum, q->msum2, q->cpu);
        fflush(jf);
      }
      MatchRes *r = &res[k];
      double elo, margin;
      elo_wld(r->w, r->l, r->d, &elo, &margin);
      char e[64], p1[64], p2[64], p3[64], mg[80];
      fmt_elo(e, sizeof e, elo, margin);
      fmt_margin(mg, sizeof mg, r, margin_unit(sc));
      pct(p1, sizeof p1, r->a_fr_wins, r->a_fr_games);
      pct(p2, sizeof p2, r->a_al_wins, r->a_al_games);
      pct(p3, sizeof p3, r->w, r->games);
      buf_printf(&b, "| %s | %s | %ld - %ld - %ld | %.3f | %s | %s | %s | %s | %s | %.2f |\n", pairs[k].a,
                 pairs[k].b, r->w, r->l, r->d, (r->w + 0.5 * r->d) / r->games, e, mg, p1, p2, p3,
                 r->cpu / r->games);
      fprintf(stderr, "  Score of %s vs %s: %ld - %ld - %ld [%.3f] %ld; Elo %s; margin %s\n", pairs[k].a,
              pairs[k].b, r->w, r->l, r->d, (r->w + 0.5 * r->d) / r->games, r->games, e, mg);
    }
    /* ladder: propagate known ratings through the matches until nothing changes, for each
     * measure (the margin is additive too, and stays finite when a score is 100%) */
    for (int m = 0; m < M_COUNT; m++) {
      h->known[m] = 1;
      for (int pass = 0; pass < np; pass++)
        for (int k = 0; k < np; k++) {
          double v, var;
          if (match_measure(&res[k], m, &v, &var)) continue;
          Rating *ra = rating_of(rt, &nr, pairs[k].a), *rb = rating_of(rt, &nr, pairs[k].b);
          if (!ra || !rb || ra->known[m] == rb->known[m]) continue;
          Rating *to = rb->known[m] ? ra : rb, *from = rb->known[m] ? rb : ra;
          to->val[m] = from->val[m] + (to == ra ? v : -v);
          to->var[m] = from->var[m] + var;
          to->known[m] = 1;
        }
    }
    buf_printf(&b, "\nLadder (relative to heuristic, 95%%; the margin in %s per game):\n\n"
                   "| player | Elo | margin |\n|---|---|---|\n", margin_unit(sc));
    for (int i = 0; i < nr; i++) {
      const Rating *q = &rt[i];
      if (!q->known[M_ELO] && !q->known[M_MARGIN]) continue;
      char e[64], mg[64];
      fmt_elo(e, sizeof e, q->val[M_ELO], Z95 * sqrt(q->var[M_ELO]));
      if (!q->known[M_ELO]) snprintf(e, sizeof e, "—");
      if (q->known[M_MARGIN]) snprintf(mg, sizeof mg, "%+.2f +/- %.2f", q->val[M_MARGIN], Z95 * sqrt(q->var[M_MARGIN]));
      else snprintf(mg, sizeof mg, "—");
      buf_printf(&b, "| %s | %s | %s |\n", rt[i].name, i == 0 ? "0 (anchor)" : e, i == 0 ? "0 (anchor)" : mg);
    }
    /* the targets of issue 3 that the default pairs measure */
    buf_printf(&b, "\nTargets:\n\n");
    for (int k = 0; k < np; k++) {
      MatchRes *r = &res[k];
      if (!r->games) continue;
      double sc_ = (r->w + 0.5 * r->d) / r->games;
      if (!strcmp(pairs[k].a, "heuristic") && !strcmp(pairs[k].b, "random"))
        buf_printf(&b, "- heuristic beats random ≥ 90%%: %.1f%% — %s\n", 100 * sc_, sc_ >= 0.9 ? "met" : "NOT met");
      if (!strcmp(pairs[k].a, "mcts:normal") && !strcmp(pairs[k].b, "heuristic"))
        buf_printf(&b, "- mcts:normal beats heuristic ≥ 75%% over both sides: %.1f%% — %s\n", 100 * sc_, sc_ >= 0.75 ? "met" : "NOT met");
      const char *star = strchr(pairs[k].a, '*');
      if (star && !strncmp(pairs[k].a, pairs[k].b, (size_t)(star - pairs[k].a)) &&
          (pairs[k].b[star - pairs[k].a] == 0 || pairs[k].b[star - pairs[k].a] == '*')) {
        double elo, margin;
        elo_wld(r->w, r->l, r->d, &elo, &margin);
        char mg[80];
        fmt_margin(mg, sizeof mg, r, margin_unit(sc));
        buf_printf(&b, "- %s over %s gains Elo: %+.1f — %s; margin %s — %s\n", pairs[k].a,
                   pairs[k].b, fabs(elo) < 0.05 ? 0.0 : elo,
                   elo > 0 ? (elo - margin > 0 ? "met (significant)" : "met (not significant)") : "NOT met",
                   mg, r->mpairs <= 0 ? "not recorded" : margin_lo(r) > 0 ? "ahead (significant)"
                        : r->msum > 0 ? "ahead (not significant)" : "not ahead");
      }
    }
    int kn = -1, kc = -1;
    for (int k = 0; k < np; k++) {
      if (!res[k].games || strcmp(pairs[k].b, "heuristic")) continue;
      if (!strcmp(pairs[k].a, "mcts:normal")) kn = k;
      if (!strcmp(pairs[k].a, "cheat:normal")) kc = k;
    }
    if (kn >= 0 && kc >= 0) {
      double a = (double)res[kn].w / res[kn].games, c = (double)res[kc].w / res[kc].games;
      buf_printf(&b, "- honest normal within 10 points of cheat:normal (win rates against "
                     "heuristic): %.1f%% vs %.1f%%, gap %.1f points — %s\n",
                 100 * a, 100 * c, 100 * (c - a), c - a <= 0.10 ? "met" : "NOT met");
    }
    for (int k = 0; k < np; k++) {
      const MatchRes *r = &res[k];
      if (!r->games || strcmp(pairs[k].a, "cheat:normal") || strcmp(pairs[k].b, "mcts:normal")) continue;
      /* head to head: the cheat's win rate minus the honest player's, in points */
      Interval iv = wilson(r->w, r->games, Z95);
      double hon = (double)r->l / r->games, ch = (double)r->w / r->games;
      buf_printf(&b, "- honest normal against cheat:normal head to head: the cheat wins %.1f%%, "
                     "honest %.1f%%, gap %.1f points [%.1f, %.1f] — %s\n",
                 100 * ch, 100 * hon, 100 * (ch - hon), 100 * (2 * iv.lo - 1), 100 * (2 * iv.hi - 1),
                 ch - hon <= 0.10 ? (2 * iv.hi - 1 <= 0.10 ? "met (significant)" : "met (not significant)")
                                  : (2 * iv.lo - 1 > 0.10 ? "NOT met (significant)" : "NOT met (not significant)"));
    }
    buf_printf(&b, "\n");
    free(sc);
  }
  if (rc == 0) {
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", out);
    char *sl = strrchr(dir, '/');
    if (sl) { *sl = 0; mkdir_p(dir); }
    if (write_atomic(out, b.s, b.n)) { fprintf(stderr, "strength: cannot write %s\n", out); rc = 2; }
    else fprintf(stderr, "strength: table in %s\n", out);
  }
  buf_free(&b);
  free(pairs_arg);
  free(jr);
  if (jf) fclose(jf);
  return rc;
}
