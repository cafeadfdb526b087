/* The designer's questions (issue 24 items 3 and 4): ./waterloo balance (which value makes the
 * game even) and ./waterloo worth (what a rule is worth, restricted play), run as a user runs
 * them on the heuristic player, and balance's logistic fit and crossing. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "helpers.h"
#include "../sim/lab.h"

static char tmp[256];
static void mk(void) { th_tmpdir(tmp, sizeof tmp); }
static void rm(void) { th_rmdir(tmp); }

static char *file_of(const char *dir, const char *name) {
  char p[600];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  return th_slurp(p, NULL);
}

static void same_file(const char *a, const char *b, const char *name) {
  char *x = file_of(a, name), *y = file_of(b, name);
  cr_assert(x && y, "%s missing", name);
  cr_assert_str_eq(x, y, "%s differs between %s and %s", name, a, b);
  free(x);
  free(y);
}

/* ---------------------------------------------------------------- the fit */
Test(lab, logit_fit_recovers_a_known_curve_and_its_crossing) {
  double x[7];
  long k[7], n[7];
  for (int i = 0; i < 7; i++) { /* P = 1 / (1 + exp(-(-6 + 0.5 x))): 50% at x = 12 */
    x[i] = 6 + 2 * i;
    n[i] = 1000000;
    k[i] = lround(n[i] / (1 + exp(-(-6 + 0.5 * x[i]))));
  }
  LogitFit f;
  logit_fit(x, k, n, 7, 0.5, 1.959963984540054, &f);
  cr_assert(f.ok);
  cr_assert_float_eq(f.a, -6, 1e-3);
  cr_assert_float_eq(f.b, 0.5, 1e-4);
  cr_assert_float_eq(f.xs, 12, 1e-3);
  cr_assert(f.bounded && f.xlo < 12 && f.xhi > 12 && f.xhi - f.xlo < 0.05, "[%g, %g]", f.xlo, f.xhi);
  cr_assert(f.chi2 < 1, "the data are the curve: chi2 %g", f.chi2);
  logit_fit(x, k, n, 7, 0.25, 1.959963984540054, &f); /* 25%: logit -ln 3 */
  cr_assert_float_eq(f.xs, (6 - log(3)) / 0.5, 1e-3);
}

/* a rate exactly at the target reaches it: 25%, 50%, 79% cross 50% once, between the first
 * two (it was counted twice, and the report said the rates do not move one way) */
Test(lab, sweep_crossing_counts_a_rate_at_the_target_once) {
  double x[] = {12, 16, 19, 23, 26}, up[] = {0.03, 0.25, 0.50, 0.79, 0.85};
  int i0 = -1, n = -1;
  double at = sweep_crossing(x, up, 5, 0.5, &i0, &n);
  cr_assert_eq(n, 1);
  cr_assert_eq(i0, 1);
  cr_assert_float_eq(at, 19.0, 1e-12);
  double down[] = {0.9, 0.6, 0.4, 0.7}; /* down through 50%, then up again: twice */
  at = sweep_crossing(x, down, 4, 0.5, &i0, &n);
  cr_assert_eq(n, 2);
  cr_assert_eq(i0, 1);
  cr_assert_float_eq(at, 16 + 0.1 / 0.2 * 3, 1e-12);
  double never[] = {0.1, 0.2, 0.3};
  at = sweep_crossing(x, never, 3, 0.5, &i0, &n);
  cr_assert_eq(n, 0);
  cr_assert(isnan(at));
}

Test(lab, logit_fit_widens_the_interval_of_a_curve_that_scatters) {
  double x[6] = {10, 12, 14, 16, 18, 20};
  long n[6], k[6], kz[6];
  for (int i = 0; i < 6; i++) {
    n[i] = 2000;
    kz[i] = lround(n[i] / (1 + exp(-(-7.5 + 0.5 * x[i]))));      /* on the curve: 50% at 15 */
    k[i] = kz[i] + (i % 2 ? 120 : -120);                          /* well off it, both ways */
  }
  LogitFit on, off;
  logit_fit(x, kz, n, 6, 0.5, 1.959963984540054, &on);
  logit_fit(x, k, n, 6, 0.5, 1.959963984540054, &off);
  cr_assert(on.ok && off.ok);
  cr_assert_float_eq(on.disp, 1, 1e-12, "a curve that fits is not widened");
  cr_assert(off.chi2 > 4 * off.df, "chi2 %g on %d df", off.chi2, off.df);
  cr_assert_float_eq(off.disp, off.chi2 / off.df, 1e-12);
  cr_assert(off.xlo < off.xs && off.xs < off.xhi);
  cr_assert_gt(off.xhi - off.xlo, 1.8 * (on.xhi - on.xlo), "[%g, %g] against [%g, %g]", off.xlo,
               off.xhi, on.xlo, on.xhi);
}

Test(lab, logit_fit_flat_rate_gives_an_unbounded_interval) {
  double x[4] = {1, 2, 3, 4};
  long k[4] = {50, 49, 51, 50}, n[4] = {100, 100, 100, 100};
  LogitFit f;
  logit_fit(x, k, n, 4, 0.5, 1.959963984540054, &f);
  cr_assert(f.ok);
  cr_assert(!f.bounded, "a slope not told from 0 has no bounded crossing");
  long all[4] = {100, 100, 100, 100};
  logit_fit(x, all, n, 4, 0.5, 1.959963984540054, &f);
  cr_assert(!f.ok, "every game won: no fit");
}

/* ---------------------------------------------------------------- balance */
#define BAL "./waterloo balance --param hand_fr --range 8,24 --games 100 --rounds 3 --quiet"

/* the answer and where the played rates cross, read from balance.md */
static void bal_read(const char *dir, double *xs, double *lo, double *hi, int *a, int *b) {
  char *md = file_of(dir, "balance.md");
  cr_assert_not_null(md);
  char *p = strstr(md, "**`hand_fr` = ");
  cr_assert_not_null(p, "%s", md);
  cr_assert_eq(sscanf(p, "**`hand_fr` = %lf**", xs), 1);
  p = strstr(md, "Fieller interval [");
  cr_assert_not_null(p);
  cr_assert_eq(sscanf(p, "Fieller interval [%lf, %lf]", lo, hi), 2);
  p = strstr(md, "between hand_fr = ");
  cr_assert_not_null(p);
  cr_assert_eq(sscanf(p, "between hand_fr = %d and %d", a, b), 2);
  free(md);
}

Test(lab, balance_finds_where_the_played_sweep_crosses_for_any_threads, .init = mk, .fini = rm,
     .timeout = 600) {
  char cmd[2000], out[4096], d1[300], d2[300];
  snprintf(d1, sizeof d1, "%s/b1", tmp);
  snprintf(d2, sizeof d2, "%s/b2", tmp);
  snprintf(cmd, sizeof cmd, BAL " --threads 1 --out %s", d1);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s", out);
  snprintf(cmd, sizeof cmd, BAL " --threads 2 --out %s", d2);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s", out);
  same_file(d1, d2, "balance.md");
  same_file(d1, d2, "balance.svg");
  same_file(d1, d2, "balance.json");
  double xs, lo, hi;
  int a, b;
  bal_read(d1, &xs, &lo, &hi, &a, &b);
  /* the fit's crossing lies where the rates played cross, inside its own interval */
  cr_assert(xs >= a - 0.5 && xs <= b + 0.5, "crossing %.2f, played rates cross between %d and %d", xs, a, b);
  cr_assert(lo < xs && xs < hi && hi - lo < 4, "[%g, %g]", lo, hi);
  /* the last round played the whole values on both sides of it */
  char *md = file_of(d1, "balance.md"), row[64];
  snprintf(row, sizeof row, "\n| %d | ", (int)floor(xs));
  cr_assert(strstr(md, row), "%s", row);
  snprintf(row, sizeof row, "\n| %d | ", (int)floor(xs) + 1);
  cr_assert(strstr(md, row), "%s", row);
  cr_assert(strstr(md, "| 3 | 1817 | 100 |"), "round 3 plays seed 1817");
  free(md);
  /* balance.json says the same */
  char *js = file_of(d1, "balance.json"), *c = strstr(js, "\"crossing\": ");
  cr_assert(c && strstr(js, "\"verdict\": \"reached\""), "%s", js);
  cr_assert_float_eq(strtod(c + 12, NULL), xs, 0.006);
  free(js);
}

Test(lab, balance_resumes_to_the_same_answer_and_keeps_journals, .init = mk, .fini = rm,
     .timeout = 600) {
  char cmd[2000], out[4096], d1[300], d2[300];
  snprintf(d1, sizeof d1, "%s/full", tmp);
  snprintf(d2, sizeof d2, "%s/part", tmp);
  snprintf(cmd, sizeof cmd, BAL " --threads 2 --out %s", d1);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s", out);
  /* a run killed in round 2: round 1 whole, round 2 half its journal, no round 3 */
  snprintf(cmd, sizeof cmd, "mkdir -p %s/round-2 && cp -r %s/round-1 %s/ && head -c $(( $(wc -c < "
           "%s/round-2/journal.csv) / 2 )) %s/round-2/journal.csv > %s/round-2/journal.csv",
           d2, d1, d2, d1, d1, d2);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s", out);
  snprintf(cmd, sizeof cmd, BAL " --threads 2 --out %s", d2);
  cr_assert_neq(th_sh(cmd, out, sizeof out), 0, "a journal is not overwritten without --resume");
  cr_assert(strstr(out, "--resume"), "%s", out);
  snprintf(cmd, sizeof cmd, BAL " --threads 1 --out %s --resume", d2);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s", out);
  same_file(d1, d2, "balance.md");
  same_file(d1, d2, "balance.svg");
}

Test(lab, balance_says_when_no_value_in_range_reaches_the_target, .init = mk, .fini = rm,
     .timeout = 300) {
  char cmd[2000], out[4096];
  snprintf(cmd, sizeof cmd, "./waterloo balance --param hand_fr --range 8,24 --games 100 "
           "--target 0.995 --quiet --out %s/u", tmp);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s", out);
  cr_assert(strstr(out, "No value of `hand_fr` in 8..24 reaches a French win rate of 99.5%"), "%s", out);
  char d[300];
  snprintf(d, sizeof d, "%s/u", tmp);
  char *md = file_of(d, "balance.md");
  cr_assert(strstr(md, "lies below it"), "%s", md);
  cr_assert(strstr(md, "Stopped after round 1 of 4"), "%s", md);
  free(md);
  /* bad input: one line naming the option, nothing written */
  snprintf(cmd, sizeof cmd, "./waterloo balance --param vp_msj --range 1,5 --out %s/v", tmp);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 2);
  cr_assert(strstr(out, "vp_msj takes two numbers"), "%s", out);
  snprintf(cmd, sizeof cmd, "./waterloo balance --param hand_fr --range 9,3 --out %s/v", tmp);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 2);
  cr_assert(strstr(out, "bad --range"), "%s", out);
  struct stat st;
  snprintf(d, sizeof d, "%s/v", tmp);
  cr_assert_neq(stat(d, &st), 0, "no folder made by a refused command");
}

/* ---------------------------------------------------------------- worth */
/* b and c of one row recomputed from sim's games.csv: seeds the side wins only in base / only
 * restricted */
static void worth_bc(const char *dir, const char *var, int side_res, long *b, long *c) {
  char *csv = file_of(dir, "games.csv");
  cr_assert_not_null(csv);
  int base[4096], rest[4096];
  memset(base, -1, sizeof base);
  memset(rest, -1, sizeof rest);
  for (char *line = strtok(csv, "\n"); line; line = strtok(NULL, "\n")) {
    char scen[16], v[64];
    int idx, res;
    unsigned long long seed;
    if (sscanf(line, "%15[^,],%63[^,],%*[^,],%*[^,],%llu,%d,%d", scen, v, &seed, &idx, &res) != 5)
      continue;
    if (idx < 0 || idx >= 4096) continue;
    if (!strcmp(v, "base")) base[idx] = res;
    if (!strcmp(v, var)) rest[idx] = res;
  }
  *b = *c = 0;
  for (int i = 0; i < 4096; i++) {
    if (base[i] < 0 || rest[i] < 0) continue;
    *b += base[i] == side_res && rest[i] != side_res;
    *c += base[i] != side_res && rest[i] == side_res;
  }
  free(csv);
}

Test(lab, worth_rows_pair_each_restriction_with_the_full_rules, .init = mk, .fini = rm,
     .timeout = 600) {
  char cmd[2000], out[4096], d1[300], d2[300];
  snprintf(d1, sizeof d1, "%s/w1", tmp);
  snprintf(d2, sizeof d2, "%s/w2", tmp);
  const char *w = "./waterloo worth --scenario short --only artillery,health,cdp-lhs --games 80 --quiet";
  snprintf(cmd, sizeof cmd, "%s --threads 1 --out %s", w, d1);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s", out);
  snprintf(cmd, sizeof cmd, "%s --threads 2 --out %s", w, d2);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s", out);
  same_file(d1, d2, "worth.md");
  same_file(d1, d2, "worth.svg");
  char *md = file_of(d1, "worth.md");
  cr_assert(!strstr(md, "| health | French |"), "the French hold no health card: no row");
  cr_assert(strstr(md, "| health | Allies |"));
  /* the b / c of the table are the games' own pairs */
  struct { const char *var, *row; int res; } rows[] = {
      {"ban_french=artillery", "| artillery | French |", RES_FRENCH},
      {"ban_allied=cdp-lhs", "| cdp-lhs | Allies |", RES_ALLIED}};
  for (int i = 0; i < 2; i++) {
    long b, c, tb, tc;
    worth_bc(d1, rows[i].var, rows[i].res, &b, &c);
    char *p = strstr(md, rows[i].row);
    cr_assert_not_null(p, "%s", rows[i].row);
    for (int bars = 0; bars < 7; p++) bars += *p == '|'; /* the b / c column */
    cr_assert_eq(sscanf(p, " %ld / %ld", &tb, &tc), 2, "%.80s", p);
    cr_assert_eq(tb, b, "%s: b", rows[i].var);
    cr_assert_eq(tc, c, "%s: c", rows[i].var);
  }
  free(md);
  snprintf(cmd, sizeof cmd, "./waterloo worth --only cannon --out %s/x", tmp);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 2);
  cr_assert(strstr(out, "unknown restriction 'cannon'"), "%s", out);
}

/* ---------------------------------------------------------------- a search under a restriction */
typedef struct { Player *p[2]; long allied_bids, french_bids, artillery_fr; } BanGame;

static Action ban_choose(void *ctx, const State *s, const ActList *L) {
  (void)L;
  BanGame *g = ctx;
  return player_act(g->p[s->turn.decider], s);
}

static void ban_after(void *ctx, const State *before, Action a, const State *after) {
  (void)after;
  BanGame *g = ctx;
  if (a.t == A_BID && a.bid.card != CARD_NONE) {
    if (before->turn.decider == ALLIED) g->allied_bids++;
    else g->french_bids++;
  }
  if (a.t == A_ARTY && before->turn.decider == FRENCH) g->artillery_fr++;
}

/* the search plays its side through gs_legal: a barred use is never chosen, and the game is a
 * whole game (a player wrapper could not bind the search's own simulations; the rule does) */
Test(lab, a_search_player_never_uses_what_its_side_is_barred_from, .timeout = 300) {
  Scen *sc = malloc(sizeof *sc);
  char err[512];
  cr_assert_eq(scen_load_user(sc, "scenarios", "short", "ban_allied=bid+ban_french=artillery", err,
                              sizeof err), 0, "%s", err);
  long bids_fr = 0;
  for (int game = 0; game < 2; game++) {
    BanGame g = {{NULL, NULL}, 0, 0, 0};
    for (int side = 0; side < 2; side++) {
      g.p[side] = player_new(sc, "mcts:sim*0.1", 40 + 2 * game + side, err, sizeof err);
      cr_assert_not_null(g.p[side], "%s", err);
    }
    State s;
    gs_init(sc, &s, 1815, game);
    GameHooks h = {.choose = ban_choose, .after = ban_after, .ctx = &g, .check_legal = 1,
                   .max_actions = 50000};
    cr_assert_gt(game_run(sc, &s, &h), 0, "the game ends, every choice legal");
    cr_assert(gs_over(&s));
    cr_assert_eq(g.allied_bids, 0, "the Allies bid no card");
    cr_assert_eq(g.artillery_fr, 0, "the French fire no artillery");
    bids_fr += g.french_bids;
    player_free(g.p[0]);
    player_free(g.p[1]);
  }
  cr_assert_gt(bids_fr, 0, "the French, not barred, still bid cards");
  free(sc);
}
