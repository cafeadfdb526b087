/* Tests of the game facts of a sim run (issue 24 item 5): the columns of games.csv against the
 * games replayed action by action, and summary.json's intervals recomputed from games.csv. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sim/sim.h"
#include "../cli/cli.h"
#include "helpers.h"

#define NEAR(x, y) cr_assert(fabs((x) - (y)) < 1e-9, "%s = %.9f, expected %.9f", #x, (double)(x), (double)(y))

static char dir[256];

static void mk(void) {
  snprintf(dir, sizeof dir, "/tmp/waterloo-test-facts-XXXXXX");
  cr_assert_not_null(mkdtemp(dir));
}

static void rm(void) {
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd)) {}
}

/* one row of games.csv split at its commas (the test's specs hold none) */
#define MAXF 64
typedef struct { char f[MAXF][64]; int n; } Row;

static int col(const Row *h, const char *name) {
  for (int i = 0; i < h->n; i++)
    if (!strcmp(h->f[i], name)) return i;
  cr_assert_fail("no column %s", name);
  return -1;
}

static void split(char *line, Row *r) {
  r->n = 0;
  for (char *t = strtok(line, ",\n"); t && r->n < MAXF; t = strtok(NULL, ",\n"))
    snprintf(r->f[r->n++], 64, "%s", t);
}

static long I(const Row *h, const Row *r, const char *name) { return atol(r->f[col(h, name)]); }

/* the game of a row played again, action by action: the bids each side won (the side that plays
 * the first round after a bid) and the round (1 + the rounds ended before) in which each victory
 * square first turned French */
static void replay_facts(const char *scen, const char *var, long index, int won[2], int fall[V_COUNT]) {
  Scen *sc = malloc(sizeof(Scen));
  char err[256];
  cr_assert_eq(scen_load(sc, scen_default_dir(), scen, var, err, sizeof err), 0, "%s", err);
  Player *fr = player_new(sc, "heuristic", sim_player_seed(5, (uint64_t)index, FRENCH), err, sizeof err);
  Player *al = player_new(sc, "heuristic", sim_player_seed(5, (uint64_t)index, ALLIED), err, sizeof err);
  GameRec rec;
  gamerec_init(&rec, scen, var, 5, (uint64_t)index);
  GameFacts f;
  cr_assert_eq(run_game(sc, fr, al, 5, (uint64_t)index, &f, NULL, &rec, NULL), 0);
  State s;
  gamerec_position(sc, &rec, 0, &s);
  int ended = 0;
  won[0] = won[1] = 0;
  memset(fall, 0, sizeof(int) * V_COUNT);
  for (int k = 0; k < rec.n; k++) {
    State before = s;
    gs_apply(sc, &s, rec.acts[k]);
    if (before.turn.phase == PH_BID && s.turn.phase == PH_ROUND) won[s.turn.active]++;
    for (int v = 0; v < V_COUNT; v++)
      if ((s.turn.owner & ~before.turn.owner & (1u << v)) && !fall[v]) fall[v] = ended + 1;
    if (rec.acts[k].t == A_END && before.turn.phase == PH_ROUND) ended++;
  }
  gamerec_free(&rec);
  player_free(fr);
  player_free(al);
  free(sc);
}

static const char *VK[V_COUNT] = {"msj", "hougoumont", "lhs", "frischermont",
                                  "plancenoit1", "plancenoit2", "plancenoit3"};

/* every row: the bids won add up to the turns that had a bid, the bid winner is the side with
 * more, held names the owner bits, and every third game replayed gives the same facts */
static void check_rows(FILE *f, Row *h) {
  char line[4096];
  int rows = 0;
  while (fgets(line, sizeof line, f)) {
    Row r;
    split(line, &r);
    cr_assert_eq(r.n, h->n);
    int nb = !strcmp(r.f[1], "no-bidding");
    long w0 = I(h, &r, "bids_won_fr"), w1 = I(h, &r, "bids_won_al");
    cr_assert_eq(w0 + w1, nb ? 0 : I(h, &r, "turns") - 1, "R-4.2: a bid every turn from the 2nd");
    const char *bw = r.f[col(h, "bid_winner")];
    cr_assert_str_eq(bw, w0 > w1 ? "french" : w1 > w0 ? "allied" : w0 ? "split" : "none");
    char held[200] = "";
    for (int v = 0; v < V_COUNT; v++)
      if (I(h, &r, "owner") & (1 << v)) snprintf(held + strlen(held), 200 - strlen(held), "%s%s", held[0] ? "+" : "", VK[v]);
    cr_assert_str_eq(r.f[col(h, "held")], held[0] ? held : "none");
    if (rows++ % 3) continue;
    int won[2], fall[V_COUNT];
    replay_facts(r.f[0], r.f[1], I(h, &r, "index"), won, fall);
    cr_assert_eq(won[0], w0);
    cr_assert_eq(won[1], w1);
    for (int v = 0; v < V_COUNT; v++) {
      char name[64];
      snprintf(name, sizeof name, "fall_round_%s", VK[v]);
      cr_assert_eq(I(h, &r, name), fall[v], "%s of %s game %s", name, r.f[0], r.f[5]);
      snprintf(name, sizeof name, "fall_%s", VK[v]);
      cr_assert_eq(I(h, &r, name) > 0, fall[v] > 0);
    }
  }
  cr_assert_eq(rows, 4 * 12);
}

/* the tallies of one cell from games.csv */
typedef struct { double rs, rs2; long n, bw_n, bw_won, fr_fw, fr_fw_n, fr_aw, fr_aw_n, held_h; } Tally;

static void tally(FILE *f, Row *h, const char *scen, const char *var, Tally *t) {
  char line[4096];
  memset(t, 0, sizeof *t);
  while (fgets(line, sizeof line, f)) {
    Row r;
    split(line, &r);
    if (strcmp(r.f[0], scen) || strcmp(r.f[1], var)) continue;
    double rounds = (double)I(h, &r, "rounds");
    t->rs += rounds, t->rs2 += rounds * rounds, t->n++;
    const char *bw = r.f[col(h, "bid_winner")], *win = r.f[col(h, "winner")];
    int fw = !strcmp(win, "french");
    if (!strcmp(bw, "french")) { t->bw_n++, t->bw_won += fw, t->fr_fw_n++, t->fr_fw += fw; }
    if (!strcmp(bw, "allied")) { t->bw_n++, t->bw_won += !strcmp(win, "allied"), t->fr_aw_n++, t->fr_aw += fw; }
    t->held_h += (I(h, &r, "owner") >> V_HOUGOUMONT) & 1;
  }
}

static cJSON *cell_json(cJSON *root, const char *scen, const char *var) {
  cJSON *c;
  cJSON_ArrayForEach(c, cJSON_GetObjectItem(root, "cells")) {
    if (!strcmp(cJSON_GetObjectItem(c, "scenario")->valuestring, scen) &&
        !strcmp(cJSON_GetObjectItem(c, "variant")->valuestring, var))
      return cJSON_GetObjectItem(c, "game_facts");
  }
  cr_assert_fail("no cell %s %s", scen, var);
  return NULL;
}

static double J(cJSON *o, const char *a, const char *b) {
  cJSON *x = cJSON_GetObjectItem(o, a);
  cr_assert_not_null(x, "%s", a);
  x = cJSON_GetObjectItem(x, b);
  cr_assert_not_null(x, "%s.%s", a, b);
  return x->valuedouble;
}

/* summary.json's game facts of a cell recomputed from its rows of games.csv */
static void check_summary(FILE *f, Row *h, cJSON *root, const char *scen) {
  Tally t;
  rewind(f);
  char line[4096];
  if (!fgets(line, sizeof line, f)) cr_assert_fail("empty");
  tally(f, h, scen, "base", &t);
  cJSON *g = cell_json(root, scen, "base");
  Interval r = mean_t(t.rs, t.rs2, t.n, 0.95);
  NEAR(J(g, "rounds", "mean"), r.p);
  NEAR(J(g, "rounds", "lo"), r.lo);
  NEAR(J(g, "rounds", "hi"), r.hi);
  cJSON *bid = cJSON_GetObjectItem(g, "bid");
  Interval w = wilson(t.bw_won, t.bw_n, Z95);
  NEAR(J(bid, "bid_winner_wins", "rate"), w.p);
  NEAR(J(bid, "bid_winner_wins", "lo"), w.lo);
  Interval d = diff_indep(t.fr_fw, t.fr_fw_n, t.fr_aw, t.fr_aw_n, Z95);
  if (!isnan(d.p)) {
    NEAR(J(bid, "advantage", "diff"), d.p);
    NEAR(J(bid, "advantage", "hi"), d.hi);
  }
  Interval hh = wilson(t.held_h, t.n, Z95);
  cJSON *sq = cJSON_GetObjectItem(cJSON_GetObjectItem(g, "squares"), "hougoumont");
  NEAR(J(sq, "held", "rate"), hh.p);
  NEAR(J(sq, "held", "hi"), hh.hi);
}

Test(sim_facts, csv_columns_replayed_and_summary_recomputed, .init = mk, .fini = rm, .timeout = 300) {
  char *argv[] = {"sim", "--scenario", "short,long", "--variant", "base,no-bidding", "--players",
                  "heuristic", "--games", "12", "--seed", "5", "--threads", "1", "--quiet",
                  "--out", dir, NULL};
  cr_assert_eq(cmd_sim(16, argv), 0);
  char p[400];
  snprintf(p, sizeof p, "%s/games.csv", dir);
  FILE *f = fopen(p, "r");
  cr_assert_not_null(f);
  char line[4096];
  Row h;
  cr_assert_not_null(fgets(line, sizeof line, f));
  split(line, &h);
  check_rows(f, &h);
  size_t n;
  snprintf(p, sizeof p, "%s/summary.json", dir);
  char *js = th_slurp(p, &n);
  cJSON *root = cJSON_Parse(js);
  cr_assert_not_null(root);
  check_summary(f, &h, root, "short");
  check_summary(f, &h, root, "long");
  cJSON *nb = cJSON_GetObjectItem(cell_json(root, "long", "no-bidding"), "bid");
  cr_assert_eq(cJSON_GetObjectItem(nb, "none")->valueint, 12, "no-bidding: no bid winner");
  cJSON_Delete(root);
  free(js);
  fclose(f);
}

/* Newcombe (1998), example (a) of the unpaired methods: 56/70 - 48/80, method 10 gives
 * 0.0524 to 0.3339 */
Test(sim_stats, difference_of_independent_proportions) {
  Interval d = diff_indep(56, 70, 48, 80, Z95);
  cr_assert(fabs(d.p - 0.2) < 1e-12);
  cr_assert(fabs(d.lo - 0.0524) < 5e-5, "%f", d.lo);
  cr_assert(fabs(d.hi - 0.3339) < 5e-5, "%f", d.hi);
  cr_assert(isnan(diff_indep(1, 0, 1, 2, Z95).p));
}

/* the paired t test of the long game's VP margins against base and its Holm adjustment over
 * the variants, in summary.json, recomputed from the margins of games.csv */
Test(sim_facts, vp_margin_holm_recomputed, .init = mk, .fini = rm, .timeout = 300) {
  char *argv[] = {"sim", "--scenario", "long", "--variant", "base,no-bidding,three-player",
                  "--games", "16", "--seed", "5", "--threads", "1", "--quiet", "--out", dir, NULL};
  cr_assert_eq(cmd_sim(14, argv), 0);
  char p[400], line[4096];
  snprintf(p, sizeof p, "%s/games.csv", dir);
  FILE *f = fopen(p, "r");
  cr_assert_not_null(f);
  Row h;
  cr_assert_not_null(fgets(line, sizeof line, f));
  split(line, &h);
  double m[3][16];
  const char *var[3] = {"base", "no-bidding", "three-player"};
  while (fgets(line, sizeof line, f)) {
    Row r;
    split(line, &r);
    for (int v = 0; v < 3; v++)
      if (!strcmp(r.f[1], var[v])) m[v][I(&h, &r, "index")] = (double)I(&h, &r, "vp_margin");
  }
  fclose(f);
  double pv[2], adj[2];
  for (int v = 1; v < 3; v++) {
    double s = 0, s2 = 0;
    for (int i = 0; i < 16; i++) { double d = m[v][i] - m[0][i]; s += d, s2 += d * d; }
    double mean = s / 16, sd = sqrt((s2 - 16 * mean * mean) / 15);
    pv[v - 1] = 2 * (1 - t_cdf(fabs(mean) / (sd / 4), 15));
  }
  holm_adjust(pv, 2, adj);
  size_t n;
  snprintf(p, sizeof p, "%s/summary.json", dir);
  char *js = th_slurp(p, &n);
  cJSON *root = cJSON_Parse(js), *c;
  int seen = 0;
  cJSON_ArrayForEach(c, cJSON_GetObjectItem(root, "cells")) {
    const char *name = cJSON_GetObjectItem(c, "variant")->valuestring;
    int v = !strcmp(name, "no-bidding") ? 1 : !strcmp(name, "three-player") ? 2 : 0;
    if (!v) continue;
    cJSON *md = cJSON_GetObjectItem(cJSON_GetObjectItem(c, "vs_base"), "vp_margin_diff");
    NEAR(cJSON_GetObjectItem(md, "p")->valuedouble, pv[v - 1]);
    NEAR(cJSON_GetObjectItem(md, "holm_p")->valuedouble, adj[v - 1]);
    seen++;
  }
  cr_assert_eq(seen, 2);
  cJSON_Delete(root);
  free(js);
}

/* tools/report-check on a results tree of its own: a report with today's caption (the one a
 * sim run writes) passes, one of another build (play or search fingerprint) or without a caption
 * fails until --mark marks it as of its build, and a link to a file that does not exist fails
 * whatever the caption */
static int check_tree(const char *root, const char *opt, const char *log) {
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "tools/report-check --waterloo ./waterloo %s '%s' > '%s/%s' 2>&1", opt,
           root, root, log);
  int rc = system(cmd);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void put(const char *root, const char *name, const char *text) {
  char p[600];
  snprintf(p, sizeof p, "%s/results/%s", root, name);
  FILE *f = fopen(p, "w");
  cr_assert_not_null(f, "%s", p);
  fputs(text, f);
  fclose(f);
}

Test(report_check, captions_marks_and_links, .init = mk, .fini = rm, .timeout = 120) {
  char res[400], run[500], cap[CAPTION_LEN], text[800];
  snprintf(res, sizeof res, "%s/results", dir);
  snprintf(run, sizeof run, "%s/results/run", dir);
  char *argv[] = {"sim", "--scenario", "short", "--variant", "base", "--games", "4", "--seed", "5",
                  "--threads", "1", "--quiet", "--out", run, NULL};
  cr_assert_eq(cmd_sim(14, argv), 0);
  build_caption(cap, sizeof cap, 0);
  snprintf(text, sizeof text, "# Old\n\n%s\n\nText.\n", cap);
  char *d = strstr(text, "short ") + 6;
  *d = *d == '0' ? '1' : '0'; /* another build's fingerprint */
  put(dir, "old.md", text);
  put(dir, "bare.md", "# Bare\n\nNo caption.\n");
  build_caption(cap, sizeof cap, 1); /* a search player's report: today's search fingerprint */
  snprintf(text, sizeof text, "# Search\n\n%s\n\nText.\n", cap);
  put(dir, "search.md", text);
  d = strstr(text, "search fingerprint ") + 19;
  *d = *d == '0' ? '1' : '0'; /* searches that play differently, on the same engine */
  put(dir, "oldsearch.md", text);
  build_caption(cap, sizeof cap, 0);
  snprintf(text, sizeof text, "# Linked\n\n%s\n\n[every game](games.csv), [chart](run/winrate.svg)\n", cap);
  put(dir, "linked.md", text);
  cr_assert_eq(check_tree(dir, "", "1.txt"), 1);
  size_t n;
  char p[600];
  snprintf(p, sizeof p, "%s/1.txt", dir);
  char *out = th_slurp(p, &n);
  cr_assert(strstr(out, "old.md: made by another build") && strstr(out, "bare.md: no build caption"), "%s", out);
  cr_assert(strstr(out, "oldsearch.md: made by another build"), "%s", out);
  cr_assert_null(strstr(out, "results/search.md"), "today's search caption is current: %s", out);
  cr_assert(strstr(out, "linked.md:5: links games.csv, which does not exist"), "%s", out);
  cr_assert_null(strstr(out, "run/winrate.svg"), "the chart exists: %s", out);
  cr_assert_null(strstr(out, "run/report.md"), "a report just written by sim is current: %s", out);
  free(out);
  cr_assert_eq(check_tree(dir, "--mark", "2.txt"), 1, "--mark does not mend a link");
  put(dir, "linked.md", "# Linked\n\n[chart](run/winrate.svg)\n");
  cr_assert_eq(check_tree(dir, "--mark", "3.txt"), 0);
  cr_assert_eq(check_tree(dir, "", "4.txt"), 0, "marked reports pass");
  snprintf(p, sizeof p, "%s/results/old.md", dir);
  out = th_slurp(p, &n);
  cr_assert(!strncmp(strstr(out, "\n*") + 1, "*As of build: waterloo ", 23), "%s", out);
  free(out);
  snprintf(p, sizeof p, "%s/4.txt", dir);
  out = th_slurp(p, &n);
  cr_assert(strstr(out, "reports: 3 current (2 without a search fingerprint: by rule players, or "
                        "from before it was kept), 4 marked as of their build, 0 problems"), "%s", out);
  free(out);
}

/* cmd(argv) with stdout into dir/name; its exit status */
static int run_out(int (*cmd)(int, char **), int argc, char **argv, const char *name) {
  char p[400];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  fflush(stdout);
  int saved = dup(1);
  FILE *f = fopen(p, "w");
  cr_assert_not_null(f);
  dup2(fileno(f), 1);
  int rc = cmd(argc, argv);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  fclose(f);
  return rc;
}

/* plan: the games for ±X points of each variant's difference from base at its measured pair
 * correlation and unpaired, from the run's summary.json, as the report's column computes them;
 * by hand from rates; bad values refused */
Test(plan, games_for_points_from_a_run_and_by_hand, .init = mk, .fini = rm, .timeout = 120) {
  char *argv[] = {"sim", "--scenario", "short", "--variant", "base,strong-hougoumont", "--games",
                  "60", "--seed", "5", "--threads", "1", "--quiet", "--out", dir, NULL};
  cr_assert_eq(cmd_sim(14, argv), 0);
  char *pv[] = {"plan", "--points", "2", dir, NULL};
  cr_assert_eq(run_out(cmd_plan, 4, pv, "plan.txt"), 0);
  char p[400];
  size_t n;
  snprintf(p, sizeof p, "%s/summary.json", dir);
  char *js = th_slurp(p, &n);
  cJSON *root = cJSON_Parse(js), *c;
  double rate[2] = {NAN, NAN}, phi = NAN, lo = NAN, hi = NAN;
  cJSON_ArrayForEach(c, cJSON_GetObjectItem(root, "cells")) {
    int v = !strcmp(cJSON_GetObjectItem(c, "variant")->valuestring, "strong-hougoumont");
    rate[v] = cJSON_GetObjectItem(cJSON_GetObjectItem(c, "french_rate"), "rate")->valuedouble;
    if (!v) lo = cJSON_GetObjectItem(cJSON_GetObjectItem(c, "french_rate"), "lo")->valuedouble;
    if (!v) hi = cJSON_GetObjectItem(cJSON_GetObjectItem(c, "french_rate"), "hi")->valuedouble;
    if (v) phi = cJSON_GetObjectItem(cJSON_GetObjectItem(c, "vs_base"), "pair_phi")->valuedouble;
  }
  cr_assert(!isnan(rate[0]) && !isnan(rate[1]) && !isnan(phi));
  char want[200];
  snprintf(want, sizeof want, "| %.0f / %.0f |\n", games_for_halfwidth(rate[1], rate[0], phi, 0.02, Z95),
           games_for_halfwidth(rate[1], rate[0], 0, 0.02, Z95));
  snprintf(p, sizeof p, "%s/plan.txt", dir);
  char *out = th_slurp(p, &n);
  const char *row = strstr(out, "| short | strong-hougoumont | 60 |");
  cr_assert(row && strstr(row, want), "%s\n%s", want, out);
  /* a cell's own count is planned at its interval's end nearest 50% (never "1 game" for a
   * small cell at 0%) */
  double pp = hi < 0.5 ? hi : lo > 0.5 ? lo : 0.5;
  snprintf(want, sizeof want, " | %.0f |", ceil(Z95 * Z95 * pp * (1 - pp) / (0.02 * 0.02)));
  row = strstr(out, "| short | base | 60 |");
  cr_assert(row && strstr(row, want) && strstr(row, want) < strchr(row, '\n'), "%s\n%s", want, out);
  free(out);
  cJSON_Delete(root);
  free(js);
  char *hv[] = {"plan", "--rate", "0.22", "--rate2", "30", "--phi", "0.5", NULL};
  cr_assert_eq(run_out(cmd_plan, 7, hv, "hand.txt"), 0);
  snprintf(p, sizeof p, "%s/hand.txt", dir);
  out = th_slurp(p, &n);
  snprintf(want, sizeof want, "%.0f games a cell for ±3 points at pair correlation +0.50, %.0f unpaired",
           games_for_halfwidth(0.22, 0.30, 0.5, 0.03, Z95), games_for_halfwidth(0.22, 0.30, 0, 0.03, Z95));
  cr_assert(strstr(out, want), "%s\n%s", want, out);
  free(out);
  char *b1[] = {"plan", "--rate", "0.2", "--phi", "2", NULL}, *b2[] = {"plan", "--points", "0", dir, NULL};
  char *b3[] = {"plan", NULL};
  cr_assert_eq(run_out(cmd_plan, 5, b1, "b.txt"), 2);
  cr_assert_eq(run_out(cmd_plan, 4, b2, "b.txt"), 2);
  cr_assert_eq(run_out(cmd_plan, 1, b3, "b.txt"), 2);
}
