/* Tests of the balance simulator (sim/): statistics, thread independence, resume, shards,
 * replay. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../sim/sim.h"
#include "../cli/cli.h"
#include "helpers.h"

#define NEAR(x, y, eps) cr_assert(fabs((x) - (y)) < (eps), "%s = %.6f, expected %.6f", #x, (double)(x), (double)(y))

Test(sim_stats, wilson_known_values) {
  Interval a = wilson(50, 100, Z95);
  NEAR(a.p, 0.5, 1e-12);
  NEAR(a.lo, 0.403832, 1e-5);
  NEAR(a.hi, 0.596168, 1e-5);
  Interval b = wilson(0, 10, Z95);
  NEAR(b.lo, 0.0, 1e-12);
  NEAR(b.hi, 0.277530, 1e-5);
  Interval c = wilson(10, 10, Z95);
  NEAR(c.lo, 0.722470, 1e-5);
  NEAR(c.hi, 1.0, 1e-12);
  Interval d = wilson(81, 263, Z95); /* 0.3080, Wilson [0.2553, 0.3662] */
  NEAR(d.lo, 0.2553, 1e-4);
  NEAR(d.hi, 0.3662, 1e-4);
  /* +-3.1 points at 1000 games, as the lessons say */
  Interval e = wilson(500, 1000, Z95);
  NEAR((e.hi - e.lo) / 2, 0.031, 5e-4);
}

Test(sim_stats, normal_quantile) {
  NEAR(norm_quantile(0.975), 1.959963985, 1e-8);
  NEAR(norm_quantile(0.5), 0.0, 1e-12);
  NEAR(norm_quantile(0.001), -3.090232306, 1e-8);
}

Test(sim_stats, mcnemar) {
  double chi2;
  /* exact: 2 * P(X <= 2 | n = 12) = 2 * 79 / 4096 */
  NEAR(mcnemar_p(10, 2, &chi2), 158.0 / 4096.0, 1e-12);
  NEAR(chi2, 49.0 / 12.0, 1e-12);
  NEAR(mcnemar_p(2, 10, NULL), 158.0 / 4096.0, 1e-12);
  NEAR(mcnemar_p(5, 5, NULL), 1.0, 1e-12);
  NEAR(mcnemar_p(0, 0, NULL), 1.0, 1e-12);
  NEAR(mcnemar_p(0, 6, NULL), 2.0 / 64.0, 1e-12);
  /* large counts: close to the chi-square tail, p = 2.7e-4 for 150 vs 100 */
  double p = mcnemar_p(150, 100, &chi2);
  cr_assert(p > 1e-4 && p < 2e-3, "p = %g", p);
}

Test(sim_stats, paired_difference) {
  Interval d = paired_diff(12, 9, 2, 21, Z95);
  NEAR(d.p, 7.0 / 44.0, 1e-12);
  cr_assert(d.lo < d.p && d.p < d.hi && d.lo > -1 && d.hi < 1);
  Interval r = paired_diff(12, 2, 9, 21, Z95);
  NEAR(r.lo, -d.hi, 1e-12);
  NEAR(r.hi, -d.lo, 1e-12);
  /* Newcombe (1998) example: 12, 9, 2, 21 -> method 10 gives [-0.0060, 0.3080]..[0.0, 0.31];
   * we check it is close to that range */
  cr_assert(d.lo > -0.05 && d.lo < 0.02, "lo %f", d.lo);
  cr_assert(d.hi > 0.28 && d.hi < 0.34, "hi %f", d.hi);
}

/* what pairing buys: the pair correlation, and the unpaired interval is Newcombe's method 10
 * for independent samples (his example (b), 9/10 - 3/10: 0.1705 to 0.8090) */
Test(sim_stats, pairing_gain) {
  NEAR(pair_phi(40, 10, 10, 40), 0.6, 1e-12);
  cr_assert(isnan(pair_phi(5, 5, 0, 0)), "no variation in one result: no correlation");
  PairGain g = pair_gain(3, 6, 0, 1, Z95);
  NEAR(g.unpaired.lo, 0.1705, 5e-5);
  NEAR(g.unpaired.hi, 0.8090, 5e-5);
  g = pair_gain(25, 25, 25, 25, Z95); /* uncorrelated pairs: pairing buys nothing */
  NEAR(g.gain, 0, 1e-12);
  NEAR(g.paired.lo, g.unpaired.lo, 1e-12);
  g = pair_gain(400, 50, 50, 500, Z95); /* phi 0.8: a much narrower paired interval */
  cr_assert(g.phi > 0.79 && g.gain > 0.45, "phi %f gain %f", g.phi, g.gain);
  NEAR(g.paired.p, g.unpaired.p, 1e-12);
  /* the plan: ±3 points at 50% needs 1.96^2 * 0.5 / 0.03^2 = 2134.1 games unpaired, half with phi 0.5 */
  cr_assert_eq(games_for_halfwidth(0.5, 0.5, 0, 0.03, Z95), 2135);
  cr_assert_eq(games_for_halfwidth(0.5, 0.5, 0.5, 0.03, Z95), 1068);
  cr_assert_eq(games_for_halfwidth(0.5, 0.5, NAN, 0.03, Z95), 2135, "no correlation known: unpaired");
}

Test(sim_stats, elo) {
  NEAR(elo_from_score(0.5), 0.0, 1e-12);
  NEAR(elo_from_score(0.75), 400 * log10(3.0), 1e-9);
  NEAR(elo_from_score(0.25), -400 * log10(3.0), 1e-9);
  cr_assert(isinf(elo_from_score(1.0)));
  double e, m;
  elo_wld(60, 40, 0, &e, &m);
  NEAR(e, 70.437, 1e-3);
  cr_assert(m > 60 && m < 80, "margin %f", m); /* about +-70 at 100 games */
  elo_wld(30, 30, 40, &e, &m);
  NEAR(e, 0.0, 1e-9);
  cr_assert(sprt_llr(600, 400, 0, 0, 10) > 2.94);
  cr_assert(sprt_llr(400, 600, 0, 0, 10) < -2.94);
}

/* Student t quantiles from the published table (two-sided 95%: t_0.975) */
Test(sim_stats, t_quantile_table) {
  NEAR(t_quantile(0.975, 1), 12.7062047, 1e-6);
  NEAR(t_quantile(0.975, 2), 4.30265273, 1e-6);
  NEAR(t_quantile(0.975, 4), 2.77644511, 1e-6);
  NEAR(t_quantile(0.975, 9), 2.26215716, 1e-6);
  NEAR(t_quantile(0.975, 30), 2.04227246, 1e-6);
  NEAR(t_quantile(0.995, 10), 3.16927267, 1e-6);
  NEAR(t_quantile(0.025, 4), -2.77644511, 1e-6);
  NEAR(t_quantile(0.975, 1e6), 1.959966, 1e-5); /* tends to the normal */
}

/* mean of 1..5: 3 +- t_0.975,4 * sqrt(2.5/5) = 3 +- 1.963243 */
Test(sim_stats, mean_t_interval) {
  Interval m = mean_t(15, 55, 5, 0.95);
  NEAR(m.p, 3.0, 1e-12);
  NEAR(m.lo, 1.036757, 1e-5);
  NEAR(m.hi, 4.963243, 1e-5);
  /* two seeds: t_0.975,1 = 12.706, far wider than the normal 1.96 */
  Interval two = mean_t(1 + 3, 1 + 9, 2, 0.95);
  NEAR(two.hi - two.p, 12.7062047 * 1.0, 1e-5);
  Interval one = mean_t(4, 16, 1, 0.95);
  cr_assert(isinf(one.lo) && isinf(one.hi));
}

/* 40 wins of 40: Wilson lower bound 40 / (40 + z^2) = 0.912378, Elo +407.03 */
Test(sim_stats, elo_lower_bound_at_100_percent) {
  double lo, hi;
  elo_bounds_wilson(40, 0, 0, &lo, &hi);
  NEAR(lo, 407.0255, 1e-3);
  cr_assert(isinf(hi) && hi > 0);
  elo_bounds_wilson(0, 40, 0, &lo, &hi);
  NEAR(hi, -407.0255, 1e-3);
  cr_assert(isinf(lo) && lo < 0);
}

/* pentanomial counts 1,2,3,4,5 (A's points per seed 0, 0.5, 1, 1.5, 2): mean pair score 2/3,
 * variance 0.097222, Elo 400 log10(2) = +120.41, margin +-131.27, LOS 98.08%; LLR of
 * H1: +10 against H0: 0 = 0.35399 (all by hand) */
Test(sim_stats, pentanomial) {
  long pc[5] = {1, 2, 3, 4, 5};
  PentaStats ps;
  penta_stats(pc, &ps);
  cr_assert_eq(ps.pairs, 15);
  NEAR(ps.score, 2.0 / 3.0, 1e-12);
  NEAR(ps.var, 0.0972222, 1e-6);
  NEAR(ps.elo, 120.41200, 1e-4);
  NEAR(ps.margin, 131.2743, 1e-3);
  NEAR(ps.los, 0.980783, 1e-5);
  NEAR(sprt_llr_penta(pc, 0, 10), 0.353988, 1e-5);
  long mirror[5] = {5, 4, 3, 2, 1};
  NEAR(sprt_llr_penta(mirror, 0, 10), -sprt_llr_penta(mirror, 10, 0), 1e-12);
  penta_stats(mirror, &ps);
  NEAR(ps.elo, -120.41200, 1e-4);
  /* every pair 1-1: score exactly 1/2, no spread */
  long even[5] = {0, 0, 7, 0, 0};
  penta_stats(even, &ps);
  NEAR(ps.elo, 0.0, 1e-12);
  NEAR(ps.los, 0.5, 1e-12);
}

/* Holm: p = .01 .04 .03 .005 -> sorted .005*4 = .02, .01*3 = .03, .03*2 = .06, max(.04, .06) */
Test(sim_stats, holm) {
  double p[4] = {0.01, 0.04, 0.03, 0.005}, a[4];
  holm_adjust(p, 4, a);
  NEAR(a[0], 0.03, 1e-12);
  NEAR(a[1], 0.06, 1e-12);
  NEAR(a[2], 0.06, 1e-12);
  NEAR(a[3], 0.02, 1e-12);
  double q[2] = {0.6, 0.9}, b[2];
  holm_adjust(q, 2, b);
  NEAR(b[0], 1.0, 1e-12);
  NEAR(b[1], 1.0, 1e-12);
}

/* Connor (1987): 10% discordant pairs, a 5-point difference, alpha .05, power .8:
 * ((1.959964 sqrt(.1) + 0.841621 sqrt(.0975)) / .05)^2 = 311.6 -> 312 pairs;
 * a mean difference of 2 with sd 10: ((1.959964 + 0.841621) * 5)^2 = 196.2 -> 197 */
Test(sim_stats, games_needed) {
  NEAR(mcnemar_games_needed(0.10, 0.05, 0.05, 0.80), 312, 0.5);
  NEAR(mean_games_needed(10, 2, 0.05, 0.80), 197, 0.5);
  cr_assert(isinf(mcnemar_games_needed(0.1, 0, 0.05, 0.8)));
}

/* Bradley-Terry: one match of 30-10 gives 400 log10 3 = +190.85 with standard error
 * sqrt(1 / (40 * .75 * .25)) * 400 / ln 10 = 63.43; over several matches the fit is the
 * maximum likelihood: every player's expected score equals his actual score. */
Test(sim_stats, bradley_terry) {
  BTMatch one[1] = {{0, 1, 30, 10, 0}};
  double e[3], se[3];
  cr_assert_eq(bt_fit(2, 1, one, 1, 0, e, se), 0);
  NEAR(e[0], 400 * log10(3.0), 1e-6);
  NEAR(e[1], 0, 1e-12);
  NEAR(se[0], 63.43277, 1e-4);
  /* a chain A > B > C and a redundant A-C match with draws: anchor B */
  BTMatch m[3] = {{0, 1, 30, 10, 0}, {1, 2, 25, 10, 5}, {0, 2, 12, 4, 4}};
  cr_assert_eq(bt_fit(3, 3, m, 1, 0, e, se), 0);
  NEAR(e[1], 0, 1e-12);
  cr_assert(e[0] > 0 && e[2] < 0);
  for (int pl = 0; pl < 3; pl++) {
    double exp_s = 0, act = 0;
    for (int i = 0; i < 3; i++) {
      double n = m[i].w + m[i].l + m[i].d;
      double p = 1 / (1 + pow(10, -(e[m[i].a] - e[m[i].b]) / 400));
      if (m[i].a == pl) { exp_s += n * p; act += m[i].w + m[i].d / 2; }
      if (m[i].b == pl) { exp_s += n * (1 - p); act += m[i].l + m[i].d / 2; }
    }
    NEAR(exp_s, act, 1e-6);
  }
  /* the redundant match adds evidence: the errors are smaller than along the chain */
  BTMatch chain[2] = {m[0], m[1]};
  double e2[3], se2[3];
  bt_fit(3, 2, chain, 1, 0, e2, se2);
  cr_assert(se[0] < se2[0] && se[2] < se2[2]);
  /* 100%: finite with the prior, unconnected players NAN */
  BTMatch perfect[2] = {{0, 1, 40, 0, 0}, {2, 3, 5, 5, 0}};
  double e4[4], se4[4];
  cr_assert_eq(bt_fit(4, 2, perfect, 1, 1, e4, se4), 0);
  NEAR(e4[0], 400 * log10(40.5 / 0.5), 1e-4);
  cr_assert(isnan(e4[2]) && isnan(e4[3]));
}

/* ---------------------------------------------------------------- runs */
static char tmpbase[256];

static void mk_tmp(void) {
  snprintf(tmpbase, sizeof tmpbase, "/tmp/waterloo-test-sim-XXXXXX");
  cr_assert_not_null(mkdtemp(tmpbase));
}

static void rm_tmp(void) {
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpbase);
  if (system(cmd)) {}
}

static int run(const char *const *args) {
  char *argv[64];
  int n = 0;
  for (; args[n]; n++) argv[n] = (char *)args[n];
  argv[n] = NULL;
  if (!strcmp(args[0], "strength")) return cmd_strength(n, argv);
  if (!strcmp(args[0], "match")) return cmd_match(n, argv);
  return !strcmp(args[0], "sim") ? cmd_sim(n, argv) : !strcmp(args[0], "merge") ? cmd_merge(n, argv)
                                                                               : cmd_replay(n, argv);
}

/* run(args) with the file descriptor fd (1 or 2) written into tmpbase/name; run's result */
static int run_into(const char *const *args, int fd, const char *name) {
  char path[300];
  snprintf(path, sizeof path, "%s/%s", tmpbase, name);
  FILE *std = fd == 1 ? stdout : stderr;
  fflush(std);
  int saved = dup(fd);
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f, "%s", path);
  dup2(fileno(f), fd);
  int rc = run(args);
  fflush(std);
  dup2(saved, fd);
  close(saved);
  fclose(f);
  return rc;
}

static char *slurp(const char *dir, const char *name, size_t *len) {
  char p[512];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  return th_slurp(p, len);
}

static void same_reports(const char *a, const char *b) {
  static const char *files[] = {"report.md", "summary.json", "games.csv", "winrate.svg", "vp_margin.svg"};
  for (int i = 0; i < 5; i++) {
    size_t la = 0, lb = 0;
    char *x = slurp(a, files[i], &la), *y = slurp(b, files[i], &lb);
    cr_assert_not_null(x, "%s/%s missing", a, files[i]);
    cr_assert_not_null(y, "%s/%s missing", b, files[i]);
    cr_assert(la == lb && !memcmp(x, y, la), "%s differs between %s and %s", files[i], a, b);
    free(x);
    free(y);
  }
}

#define SMALL "--scenario", "short,long", "--variant", "base,strong-hougoumont", "--players", \
              "random,heuristic", "--games", "12", "--seed", "7", "--quiet"

Test(sim_run, threads_do_not_change_output, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  char d1[300], d2[300];
  snprintf(d1, sizeof d1, "%s/t1", tmpbase);
  snprintf(d2, sizeof d2, "%s/t2", tmpbase);
  const char *a1[] = {"sim", SMALL, "--threads", "1", "--out", d1, NULL};
  const char *a2[] = {"sim", SMALL, "--threads", "2", "--out", d2, NULL};
  cr_assert_eq(run(a1), 0);
  cr_assert_eq(run(a2), 0);
  same_reports(d1, d2);
}

Test(sim_run, resume_after_truncated_journal, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  char full[300], part[300], cmd[1000];
  snprintf(full, sizeof full, "%s/full", tmpbase);
  snprintf(part, sizeof part, "%s/part", tmpbase);
  const char *a1[] = {"sim", SMALL, "--threads", "2", "--out", full, NULL};
  cr_assert_eq(run(a1), 0);
  /* a killed run: the first half of the journal, the last line torn in the middle */
  mkdir(part, 0755);
  size_t len;
  char *j = slurp(full, "journal.csv", &len);
  cr_assert_not_null(j);
  size_t cut = len / 2;
  snprintf(cmd, sizeof cmd, "%s/journal.csv", part);
  FILE *f = fopen(cmd, "wb");
  fwrite(j, 1, cut, f);
  fclose(f);
  cr_assert(j[cut - 1] != '\n' || j[cut] != 'J', "cut should tear a line");
  free(j);
  const char *a2[] = {"sim", SMALL, "--threads", "2", "--out", part, "--resume", NULL};
  cr_assert_eq(run(a2), 0);
  same_reports(full, part);
  /* resuming a finished run plays nothing and changes nothing */
  cr_assert_eq(run(a2), 0);
  same_reports(full, part);
  /* no game counted twice: journal lines = games (plus the torn line) */
  j = slurp(part, "journal.csv", &len);
  long lines = 0;
  for (size_t i = 0; i < len; i++) lines += j[i] == '\n' && i + 1 < len && j[i + 1] == 'J';
  free(j);
  cr_assert(lines >= 2 * 2 * 12 && lines <= 2 * 2 * 12 + 1, "journal records: %ld", lines);
}

Test(sim_run, shards_merge_to_the_plain_run, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  char full[300], s0[300], s1[300], m[300];
  snprintf(full, sizeof full, "%s/full", tmpbase);
  snprintf(s0, sizeof s0, "%s/s0", tmpbase);
  snprintf(s1, sizeof s1, "%s/s1", tmpbase);
  snprintf(m, sizeof m, "%s/merged", tmpbase);
  const char *a[] = {"sim", SMALL, "--out", full, NULL};
  const char *b0[] = {"sim", SMALL, "--out", s0, "--shard", "0/2", NULL};
  const char *b1[] = {"sim", SMALL, "--out", s1, "--shard", "1/2", NULL};
  cr_assert_eq(run(a), 0);
  cr_assert_eq(run(b0), 0);
  const char *mm0[] = {"merge", "--out", m, s0, NULL};
  cr_assert_neq(run(mm0), 0, "merge of one shard must report missing games");
  cr_assert_eq(run(b1), 0);
  const char *mm[] = {"merge", "--out", m, s0, s1, NULL};
  cr_assert_eq(run(mm), 0);
  same_reports(full, m);
}

/* merge never overwrites another run: a folder holding a journal of other options stops it,
 * and that journal and its reports are kept byte for byte; merged again into its own merged
 * folder it goes on */
Test(sim_run, merge_keeps_a_different_run_in_its_out_folder, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  char a[300], b[300];
  snprintf(a, sizeof a, "%s/a", tmpbase);
  snprintf(b, sizeof b, "%s/b", tmpbase);
  const char *ra[] = {"sim", "--scenario", "short", "--variant", "base", "--players", "random,random",
                      "--games", "3", "--seed", "1", "--quiet", "--out", a, NULL};
  const char *rb[] = {"sim", "--scenario", "short", "--variant", "base", "--players", "random,random",
                      "--games", "2", "--seed", "2", "--quiet", "--out", b, NULL};
  cr_assert_eq(run(ra), 0);
  cr_assert_eq(run(rb), 0);
  size_t n0 = 0, n1 = 0;
  char *j0 = slurp(a, "journal.csv", &n0);
  const char *mm[] = {"merge", "--out", a, b, NULL};
  cr_assert_eq(run_into(mm, 2, "merge.err"), 2, "merge into a folder of another run must stop");
  char *j1 = slurp(a, "journal.csv", &n1);
  cr_assert(j0 && j1 && n0 == n1 && !memcmp(j0, j1, n0), "the other run's journal is kept");
  free(j0);
  free(j1);
  size_t ne;
  char *err = slurp(tmpbase, "merge.err", &ne);
  cr_assert(err && strstr(err, "different run") && strchr(err, '\n') == err + ne - 1, "one line: %s", err);
  free(err);
  char m[300];
  snprintf(m, sizeof m, "%s/m", tmpbase);
  const char *m1[] = {"merge", "--out", m, b, NULL};
  cr_assert_eq(run(m1), 0);
  cr_assert_eq(run(m1), 0, "merged again into its own merged folder");
}

/* merge(args) stops with exit 2 and one line on stderr that holds must and also (NULL: any) */
static void merge_refused(const char *const *args, const char *must, const char *also) {
  cr_assert_eq(run_into(args, 2, "merge.err"), 2, "%s %s should be refused", args[1], args[2]);
  size_t ne = 0;
  char *err = slurp(tmpbase, "merge.err", &ne);
  cr_assert(err && ne > 0 && strchr(err, '\n') == err + ne - 1, "one line: %s", err);
  cr_assert(strstr(err, must) && (!also || strstr(err, also)), "should name '%s' and '%s': %s", must,
            also ? also : "", err);
  free(err);
}

#define TINY "--scenario", "short", "--players", "random,random", "--games", "3", "--quiet"

/* every folder merged must be of the same run: a folder of another seed, other players, another
 * sweep, a missing folder or one without a journal stops the merge, naming it and what differs
 * (another sweep is other options, not another build), and nothing is written */
Test(sim_run, merge_refuses_a_folder_it_cannot_merge, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  char a[300], s5[300], pl[300], sw[300], none[300], empty[300], m[300];
  snprintf(a, sizeof a, "%s/a", tmpbase);
  snprintf(s5, sizeof s5, "%s/seed5", tmpbase);
  snprintf(pl, sizeof pl, "%s/players", tmpbase);
  snprintf(sw, sizeof sw, "%s/sweep", tmpbase);
  snprintf(none, sizeof none, "%s/nonexistent", tmpbase);
  snprintf(empty, sizeof empty, "%s/empty", tmpbase);
  snprintf(m, sizeof m, "%s/m", tmpbase);
  mkdir(empty, 0755);
  const char *ra[] = {"sim", TINY, "--variant", "base", "--seed", "1", "--out", a, NULL};
  const char *r5[] = {"sim", TINY, "--variant", "base", "--seed", "5", "--out", s5, NULL};
  const char *rp[] = {"sim", TINY, "--variant", "base", "--seed", "1", "--players", "random,heuristic",
                      "--out", pl, NULL};
  const char *rs[] = {"sim", TINY, "--set", "hand_fr=14", "--seed", "1", "--out", sw, NULL};
  cr_assert_eq(run(ra), 0);
  cr_assert_eq(run(r5), 0);
  cr_assert_eq(run(rp), 0);
  cr_assert_eq(run(rs), 0);
  const char *m5[] = {"merge", "--out", m, a, s5, NULL};
  merge_refused(m5, s5, "--seed 5, not 1");
  const char *mp[] = {"merge", "--out", m, a, pl, NULL};
  merge_refused(mp, pl, "--players");
  const char *ms[] = {"merge", "--out", m, a, sw, NULL};
  merge_refused(ms, sw, "--variant/--set");
  const char *mn[] = {"merge", "--out", m, a, none, NULL};
  merge_refused(mn, none, "cannot open");
  const char *me[] = {"merge", "--out", m, a, empty, NULL};
  merge_refused(me, empty, "no journal");
  struct stat st;
  cr_assert_neq(stat(m, &st), 0, "a refused merge writes nothing");
  const char *ok[] = {"merge", "--out", m, a, NULL};
  cr_assert_eq(run(ok), 0);
}

/* merge's --out: required, never one of the folders merged; another run's journal or reports
 * in it are kept unless --overwrite; the same merge again goes on */
Test(sim_run, merge_out_is_required_and_keeps_another_run, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  char a[300], a2[300], b[300], m[300], rep[300], p[700];
  snprintf(a, sizeof a, "%s/a", tmpbase);
  snprintf(a2, sizeof a2, "%s/a/", tmpbase);
  snprintf(b, sizeof b, "%s/b", tmpbase);
  snprintf(m, sizeof m, "%s/m", tmpbase);
  snprintf(rep, sizeof rep, "%s/reports", tmpbase);
  const char *ra[] = {"sim", TINY, "--variant", "base", "--seed", "1", "--out", a, NULL};
  const char *rb[] = {"sim", TINY, "--variant", "base", "--seed", "2", "--out", b, NULL};
  cr_assert_eq(run(ra), 0);
  cr_assert_eq(run(rb), 0);
  const char *no_out[] = {"merge", a, NULL};
  merge_refused(no_out, "--out", "required");
  size_t n0 = 0, n1 = 0;
  char *s0 = slurp(a, "summary.json", &n0);
  const char *into_input[] = {"merge", "--out", a2, a, NULL};
  merge_refused(into_input, a2, "one of the folders");
  char *s1 = slurp(a, "summary.json", &n1);
  cr_assert(s0 && s1 && n0 == n1 && !memcmp(s0, s1, n0), "the input's reports are kept");
  free(s1);
  const char *ma[] = {"merge", "--out", m, a, NULL};
  cr_assert_eq(run(ma), 0);
  cr_assert_eq(run(ma), 0, "the same merge again");
  const char *mb[] = {"merge", "--out", m, b, NULL};
  merge_refused(mb, "different run", "--overwrite");
  s1 = slurp(m, "summary.json", &n1);
  cr_assert(s1 && n0 == n1 && !memcmp(s0, s1, n0), "the earlier merge's reports are kept");
  free(s1);
  free(s0);
  const char *mbo[] = {"merge", "--out", m, b, "--overwrite", NULL};
  cr_assert_eq(run(mbo), 0);
  s1 = slurp(m, "journal.csv", &n1);
  cr_assert(s1 && strstr(s1, "seed=2\t"), "--overwrite replaced the journal: %.80s", s1);
  free(s1);
  /* reports without their journal (a committed results folder) */
  mkdir(rep, 0755);
  snprintf(p, sizeof p, "cp '%s/summary.json' '%s/'", a, rep);
  cr_assert_eq(system(p), 0);
  const char *mr[] = {"merge", "--out", rep, a, NULL};
  merge_refused(mr, rep, "without its journal");
}

Test(sim_run, until_ci_reports_fixed_batches, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  char d[300];
  snprintf(d, sizeof d, "%s/u", tmpbase);
  const char *a[] = {"sim", "--scenario", "short", "--variant", "base", "--players", "random,random",
                     "--games", "60", "--until-ci", "0.2", "--batch", "10", "--seed", "3",
                     "--quiet", "--out", d, NULL};
  cr_assert_eq(run(a), 0);
  size_t len;
  char *csv = slurp(d, "games.csv", &len);
  cr_assert_not_null(csv);
  long rows = -1;
  for (size_t i = 0; i < len; i++) rows += csv[i] == '\n';
  free(csv);
  cr_assert(rows % 10 == 0 && rows >= 10 && rows <= 60, "rows %ld", rows);
}

/* base is added as the reference; a variant that changes nothing in a scenario (no
 * Prussians in the short game) is flagged and not played; summary.json says which McNemar
 * statistic each field is; several variants get Holm-adjusted p-values */
Test(sim_run, base_added_identical_flagged_holm, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  char d[300];
  snprintf(d, sizeof d, "%s/v", tmpbase);
  const char *a[] = {"sim", "--scenario", "short", "--variant", "prussians-early,no-bidding,strong-hougoumont",
                     "--players", "random,heuristic", "--games", "16", "--seed", "3", "--quiet",
                     "--threads", "2", "--detect", "3", "--out", d, NULL};
  cr_assert_eq(run(a), 0);
  size_t n = 0;
  char *md = slurp(d, "report.md", &n), *js = slurp(d, "summary.json", &n), *csv = slurp(d, "games.csv", &n);
  cr_assert_not_null(strstr(md, "--variant base,prussians-early,no-bidding,strong-hougoumont"), "%s", md);
  cr_assert_not_null(strstr(md, "| base | 16 |"), "%s", md);
  cr_assert_not_null(strstr(md, "| prussians-early | identical to base in this scenario"), "%s", md);
  cr_assert_null(strstr(csv, ",prussians-early,"), "an identical cell was played");
  cr_assert_not_null(strstr(md, "Holm p"), "%s", md);
  cr_assert_not_null(strstr(md, "| games for ±3 |"), "%s", md);           /* --detect 3 */
  cr_assert_not_null(strstr(md, " --seed 3 --detect 3\n"), "%s", md);     /* reproduced */
  cr_assert_not_null(strstr(js, "\"detect_points\":\t0.03"), "%s", js);
  cr_assert_not_null(strstr(md, "for the 2 variants compared here"), "%s", md);
  cr_assert_not_null(strstr(js, "\"identical_to_base\":\ttrue"), "%s", js);
  cr_assert_not_null(strstr(js, "\"holm_p\""), "%s", js);
  cr_assert_not_null(strstr(js, "EXACT two-sided binomial"), "%s", js);
  cr_assert_not_null(strstr(js, "WITH continuity correction"), "%s", js);
  free(md); free(js); free(csv);
}

static long file_size(const char *dir, const char *name) {
  char p[512];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  struct stat st;
  return stat(p, &st) ? -1 : (long)st.st_size;
}

/* a relaunch never deletes a journal; --resume with
 * other options stops; a folder with another run's reports is refused; a journal write that
 * fails (a full disk) stops the run at once, and --resume then completes it to the same
 * report as an uninterrupted run */
Test(sim_run, out_dir_never_loses_a_run, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  char d[300], full[300];
  snprintf(d, sizeof d, "%s/o", tmpbase);
  snprintf(full, sizeof full, "%s/full", tmpbase);
  const char *a[] = {"sim", SMALL, "--threads", "2", "--out", d, NULL};
  cr_assert_eq(run(a), 0);
  long j1 = file_size(d, "journal.csv");
  cr_assert_gt(j1, 0);
  cr_assert_eq(run(a), 2, "a relaunch without --resume must stop");
  cr_assert_eq(file_size(d, "journal.csv"), j1, "the journal was touched");
  const char *other[] = {"sim", "--scenario", "short", "--variant", "base", "--players", "random,heuristic",
                         "--games", "12", "--seed", "7", "--quiet", "--out", d, "--resume", NULL};
  cr_assert_eq(run(other), 2, "--resume with other options must stop");
  cr_assert_eq(file_size(d, "journal.csv"), j1);
  const char *res[] = {"sim", SMALL, "--threads", "2", "--out", d, "--resume", NULL};
  cr_assert_eq(run(res), 0); /* same options: plays nothing, same reports */
  /* reports of another run and no journal: refused; --overwrite replaces */
  char jp[400];
  snprintf(jp, sizeof jp, "%s/journal.csv", d);
  cr_assert_eq(unlink(jp), 0);
  const char *seed8[] = {"sim", "--scenario", "short", "--variant", "base", "--players", "random,heuristic",
                         "--games", "4", "--seed", "8", "--quiet", "--out", d, NULL};
  cr_assert_eq(run(seed8), 2);
  const char *seed8o[] = {"sim", "--scenario", "short", "--variant", "base", "--players", "random,heuristic",
                          "--games", "4", "--seed", "8", "--quiet", "--out", d, "--overwrite", NULL};
  cr_assert_eq(run(seed8o), 0);
  /* the full disk: the 5th journal line fails */
  const char *b[] = {"sim", SMALL, "--threads", "2", "--out", full, NULL};
  setenv("WATERLOO_JOURNAL_FAIL_AFTER", "5", 1);
  int rc = run(b);
  unsetenv("WATERLOO_JOURNAL_FAIL_AFTER");
  cr_assert_eq(rc, 2, "a failed journal write must stop the run");
  cr_assert_eq(file_size(full, "report.md"), -1, "no report from a run that lost games");
  size_t n = 0;
  char *jt = slurp(full, "journal.csv", &n);
  int lines = 0;
  for (char *q = jt; q && *q; q++) lines += *q == '\n';
  cr_assert(lines >= 6 && lines <= 7, "header and the 5 (or 6) games written: %d lines", lines);
  free(jt);
  const char *rb[] = {"sim", SMALL, "--threads", "2", "--out", full, "--resume", NULL};
  cr_assert_eq(run(rb), 0);
  char plain[300];
  snprintf(plain, sizeof plain, "%s/plain", tmpbase);
  const char *pl[] = {"sim", SMALL, "--threads", "1", "--out", plain, NULL};
  cr_assert_eq(run(pl), 0);
  same_reports(full, plain);
}

/* a sweep: two values of one parameter, each paired against base on the same seeds, the same
 * files with 1 and 2 threads; the value equal to base's is not replayed */
Test(sim_run, sweep_two_values_paired_thread_independent, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  char d1[300], d2[300];
  snprintf(d1, sizeof d1, "%s/w1", tmpbase);
  snprintf(d2, sizeof d2, "%s/w2", tmpbase);
  const char *a1[] = {"sim", "--scenario", "short,long", "--set", "cdp_hougoumont=1,4", "--players",
                      "random,heuristic", "--games", "10", "--seed", "4", "--quiet", "--threads", "1",
                      "--out", d1, NULL};
  const char *a2[] = {"sim", "--scenario", "short,long", "--set", "cdp_hougoumont=1,4", "--players",
                      "random,heuristic", "--games", "10", "--seed", "4", "--quiet", "--threads", "2",
                      "--out", d2, NULL};
  cr_assert_eq(run(a1), 0);
  cr_assert_eq(run(a2), 0);
  same_reports(d1, d2);
  size_t n1 = 0, n2 = 0;
  char *s1 = slurp(d1, "sweep.svg", &n1), *s2 = slurp(d2, "sweep.svg", &n2);
  cr_assert(s1 && s2 && n1 == n2 && !memcmp(s1, s2, n1), "sweep.svg differs between thread counts");
  char *md = slurp(d1, "report.md", &n1), *csv = slurp(d1, "games.csv", &n2);
  cr_assert_not_null(strstr(md, "--set cdp_hougoumont=1,4"), "%s", md);
  cr_assert_not_null(strstr(md, "## Sweep: `cdp_hougoumont=1,4`"), "%s", md);
  cr_assert_not_null(strstr(md, "| `cdp_hougoumont=4` (= base) | 10 |"), "%s", md);
  cr_assert_not_null(strstr(md, "| `cdp_hougoumont=1` | 10 |"), "%s", md);
  /* paired: game i of the value 1 cell uses the seed of game i of base (same seed and index) */
  cr_assert_not_null(strstr(csv, "short,cdp_hougoumont=1,random,heuristic,4,9,"), "%s", csv);
  cr_assert_not_null(strstr(csv, "short,base,random,heuristic,4,9,"));
  cr_assert_null(strstr(csv, "cdp_hougoumont=4,"), "the base value was played again");
  /* --resume knows the sweep: same options resume, another sweep stops */
  const char *r1[] = {"sim", "--scenario", "short,long", "--set", "cdp_hougoumont=1,4", "--players",
                      "random,heuristic", "--games", "10", "--seed", "4", "--quiet", "--out", d1, "--resume", NULL};
  cr_assert_eq(run(r1), 0);
  const char *r2[] = {"sim", "--scenario", "short,long", "--set", "cdp_hougoumont=1,5", "--players",
                      "random,heuristic", "--games", "10", "--seed", "4", "--quiet", "--out", d1, "--resume", NULL};
  cr_assert_eq(run(r2), 2);
  free(s1); free(s2); free(md); free(csv);
}

/* values the rules cannot accept: refused before any game with file:line (or the option) */
Test(sim_run, variant_file_by_path_and_bad_values, .init = mk_tmp, .fini = rm_tmp, .timeout = 60) {
  char v[300], d[300];
  snprintf(d, sizeof d, "%s/o", tmpbase);
  static const char *bad[][2] = {
      {"[params]\ncdp_hougoumont = -1\n", ":2: cdp_hougoumont = -1 refused"},
      {"; a hand too large\n[params]\nhand_br = 40\n", ":3: a British hand of 40 cards is larger than the"},
      {"[long]\n\nturns = 9\n", ":3: turns = 9, but the Prussian draw table"},
      {"[params]\nno_such = 3\n", ":2: unknown parameter 'no_such'"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    snprintf(v, sizeof v, "%s/rule%zu.ini", tmpbase, k);
    FILE *f = fopen(v, "w");
    fputs(bad[k][0], f);
    fclose(f);
    const char *a[] = {"sim", "--scenario", "long", "--variant", v, "--games", "2", "--quiet", "--out", d, NULL};
    int rc = run_into(a, 2, "err.txt");
    cr_assert_eq(rc, 2, "case %zu accepted", k);
    size_t n = 0;
    char *msg = slurp(tmpbase, "err.txt", &n);
    char want[400];
    snprintf(want, sizeof want, "%s%s", v, bad[k][1]);
    cr_assert_not_null(strstr(msg, want), "case %zu: expected '%s' in: %s", k, want, msg);
    free(msg);
    struct stat st;
    cr_assert_neq(stat(d, &st), 0, "case %zu: an output was written", k);
  }
  /* a good variant file by path: played, labelled by its path */
  snprintf(v, sizeof v, "%s/mine.ini", tmpbase);
  FILE *f = fopen(v, "w");
  fputs("[params]\ncdp_hougoumont = 5\n", f);
  fclose(f);
  const char *ok[] = {"sim", "--scenario", "short", "--variant", v, "--players", "random,heuristic",
                      "--games", "4", "--quiet", "--out", d, NULL};
  cr_assert_eq(run(ok), 0);
  size_t n = 0;
  char *md = slurp(d, "report.md", &n);
  char row[400];
  snprintf(row, sizeof row, "| %s | 4 |", v);
  cr_assert_not_null(strstr(md, row), "%s", md);
  free(md);
  const char *neg[] = {"sim", "--scenario", "short", "--set", "cdp_lhs=-3", "--games", "2", "--quiet",
                       "--out", d, "--overwrite", NULL};
  cr_assert_eq(run(neg), 2);
}

Test(sim_run, replay_reproduces_the_csv_row, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  char d[300], csv[400];
  snprintf(d, sizeof d, "%s/r", tmpbase);
  const char *a[] = {"sim", SMALL, "--out", d, NULL};
  cr_assert_eq(run(a), 0);
  snprintf(csv, sizeof csv, "%s/games.csv", d);
  /* row 5: short game; row 30: long game */
  const char *r1[] = {"replay", "--csv", csv, "--row", "5", "--quiet", NULL};
  const char *r2[] = {"replay", "--csv", csv, "--row", "30", "--quiet", NULL};
  cr_assert_eq(run(r1), 0);
  cr_assert_eq(run(r2), 0);
  /* the facts of one game do not depend on the cell it was played in */
  Scen *sc = malloc(sizeof(Scen));
  char err[256];
  cr_assert_eq(scen_load(sc, scen_default_dir(), "short", "base", err, sizeof err), 0, "%s", err);
  GameFacts f1, f2;
  cr_assert_eq(run_game_specs(sc, "random", "heuristic", 7, 3, &f1, NULL, err, sizeof err), 0);
  cr_assert_eq(run_game_specs(sc, "random", "heuristic", 7, 3, &f2, NULL, err, sizeof err), 0);
  cr_assert(!memcmp(&f1, &f2, FACTS_RESULT_BYTES)); /* results; the CPU seconds differ */
  cr_assert(f1.result >= 1 && f1.result <= 2);
  free(sc);
}

/* A player against itself: each seed gives the same game twice with the players' roles swapped,
 * so the score is even and the paired margin exactly 0.  Against random, the heuristic's margin
 * is positive.  A/B@N sets the games of one pair; --resume rebuilds the same table from the
 * journal without playing. */
Test(sim_strength, mirror_margin_pair_counts_and_resume, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  char out[300];
  snprintf(out, sizeof out, "%s/s.md", tmpbase);
  const char *a[] = {"strength", "--scenario", "short,long", "--games", "4", "--seed", "5",
                     "--threads", "2", "--pairs", "heuristic/heuristic;heuristic/random@6",
                     "--out", out, NULL};
  cr_assert_eq(run(a), 0);
  size_t n1 = 0, n2 = 0;
  char *t1 = slurp(tmpbase, "s.md", &n1);
  cr_assert_not_null(t1);
  /* the Elo interval as its two ends, not "± margin" (it is not symmetric) */
  cr_assert_not_null(strstr(t1, "| heuristic | heuristic | 2 - 2 - 0 | 0.500 | 0.0 [-"), "%s", t1);
  /* two seeds that gave the same margin: the spread is unknown, never "+/- 0.00" */
  cr_assert_not_null(strstr(t1, "| +0.00 +/- ? objectives (all 2 seeds equal) |"), "%s", t1);
  cr_assert_not_null(strstr(t1, "| +0.00 +/- ? VP (all 2 seeds equal) |"), "%s", t1);
  cr_assert_null(strstr(t1, "+/- 0.00"), "%s", t1);
  /* the ladder's margin of random, fitted from the one match against the anchor, carries the
   * match's own Student-t half-width (not a z one) */
  const char *lg = strstr(t1, "## Long game");
  cr_assert_not_null(lg);
  const char *mrow = strstr(lg, "| heuristic | random |"), *lrow = strstr(lg, "\n| random | ");
  cr_assert(mrow && lrow, "%s", lg);
  double mm, mh, lm0, lh0;
  const char *vp = strstr(mrow, " VP |");
  while (vp > mrow && vp[-1] != '|') vp--;
  cr_assert_eq(sscanf(vp, " %lf +/- %lf", &mm, &mh), 2, "%s", vp);
  const char *bar = strchr(strchr(lrow + 3, '|') + 1, '|');
  cr_assert_eq(sscanf(bar + 1, " %lf +/- %lf", &lm0, &lh0), 2, "%s", bar);
  cr_assert(fabs(lm0 + mm) < 0.006 && fabs(lh0 - mh) < 0.006, "ladder %f +/- %f, match %f +/- %f", lm0, lh0, mm, mh);
  /* the same player on both sides of a seed scores 1 point per pair: pentanomial 0-0-2-0-0 */
  cr_assert_not_null(strstr(t1, "| 0-0-2-0-0 | 0.0 (no spread over 2 pairs), LOS 50.0% "), "%s", t1);
  /* heuristic vs random: 6 games in each scenario, a positive margin */
  int rows = 0;
  for (const char *p = strstr(t1, "| heuristic | random | "); p; p = strstr(p + 1, "| heuristic | random | ")) {
    long w, l, d, pc[5];
    cr_assert_eq(sscanf(p, "| heuristic | random | %ld - %ld - %ld", &w, &l, &d), 3);
    cr_assert_eq(w + l + d, 6);
    const char *bar = p;
    for (int k = 0; k < 5 && bar; k++) bar = strchr(bar + 1, '|'); /* to the pairs column */
    cr_assert_eq(sscanf(bar + 1, " %ld-%ld-%ld-%ld-%ld", &pc[0], &pc[1], &pc[2], &pc[3], &pc[4]), 5);
    cr_assert_eq(pc[0] + pc[1] + pc[2] + pc[3] + pc[4], 3);             /* 3 seeds */
    cr_assert_eq(pc[1] + 2 * pc[2] + 3 * pc[3] + 4 * pc[4], 2 * w + d);  /* A's half points */
    for (int k = 0; k < 2 && bar; k++) bar = strchr(bar + 1, '|'); /* to the margin column */
    cr_assert_not_null(bar);
    double mg = 0;
    cr_assert_eq(sscanf(bar + 1, " %lf", &mg), 1);
    cr_assert_gt(mg, 0.0, "margin %f", mg);
    rows++;
  }
  cr_assert_eq(rows, 2, "%s", t1);
  /* the ladder fits the margin: random is below the anchor (long game: in the short game
   * every seed gives the same margin, no spread is known and the match is left out) */
  const char *lad = strstr(strstr(t1, "## Long game"), "Ladder");
  cr_assert_not_null(lad);
  const char *lr = strstr(lad, "\n| random | ");
  cr_assert_not_null(lr, "%s", t1);
  lr = strchr(lr + strlen("\n| random | "), '|'); /* past the Elo column */
  cr_assert_not_null(lr);
  double lm = 0;
  cr_assert_eq(sscanf(lr + 1, "%lf", &lm), 1);
  cr_assert_lt(lm, 0.0);
  /* resume: everything from the journal, the same table, and the journal byte for byte as it
   * was (a resume that plays nothing adds nothing, not even an empty line) */
  size_t nj0 = 0, nj1 = 0;
  char *j0 = slurp(tmpbase, "s.md.journal", &nj0);
  const char *b[] = {"strength", "--scenario", "short,long", "--games", "4", "--seed", "5",
                     "--threads", "2", "--pairs", "heuristic/heuristic;heuristic/random@6",
                     "--out", out, "--resume", NULL};
  cr_assert_eq(run(b), 0);
  char *t2 = slurp(tmpbase, "s.md", &n2), *j1 = slurp(tmpbase, "s.md.journal", &nj1);
  cr_assert(n1 == n2 && !memcmp(t1, t2, n1), "resumed table differs:\n%s\n---\n%s", t1, t2);
  cr_assert(nj0 > 0 && nj0 == nj1 && !memcmp(j0, j1, nj0), "journal changed:\n%s\n---\n%s", j0, j1);
  free(j0);
  free(j1);
  /* a longer match resumes from the shorter one (plays only the new seeds): the same rows as
   * a fresh run of the longer match (all but the time column) */
  const char *c[] = {"strength", "--scenario", "short,long", "--games", "4", "--seed", "5",
                     "--threads", "2", "--pairs", "heuristic/random@10", "--out", out, "--resume", NULL};
  cr_assert_eq(run(c), 0);
  char fresh[300];
  snprintf(fresh, sizeof fresh, "%s/f.md", tmpbase);
  const char *d[] = {"strength", "--scenario", "short,long", "--games", "4", "--seed", "5",
                     "--threads", "2", "--pairs", "heuristic/random@10", "--out", fresh, NULL};
  cr_assert_eq(run(d), 0);
  size_t n3 = 0, n4 = 0;
  char *t3 = slurp(tmpbase, "s.md", &n3), *t4 = slurp(tmpbase, "f.md", &n4);
  const char *p3 = t3, *p4 = t4;
  for (int k = 0; k < 2; k++) {
    p3 = strstr(p3 + 1, "| heuristic | random | ");
    p4 = strstr(p4 + 1, "| heuristic | random | ");
    cr_assert(p3 && p4);
    const char *e3 = p3, *e4 = p4; /* to the end of the overall win rate: the third "] |" */
    for (int q = 0; q < 3 && e3 && e4; q++) { e3 = strstr(e3 + 1, "] |"); e4 = strstr(e4 + 1, "] |"); }
    cr_assert(e3 && e4 && e3 - p3 == e4 - p4 && !memcmp(p3, p4, (size_t)(e3 - p3)),
              "extended match differs from a fresh one:\n%s\n---\n%s", t3, t4);
    long w, l, dr;
    cr_assert_eq(sscanf(p3, "| heuristic | random | %ld - %ld - %ld", &w, &l, &dr), 3);
    cr_assert_eq(w + l + dr, 10);
  }
  free(t1);
  free(t2);
  free(t3);
  free(t4);
}

/* the steps of one pair in one run (A/B@4;A/B@8): the longer starts from the shorter's games
 * instead of playing its seeds again, and the table is the one --resume rebuilds from the
 * journal, to the byte */
Test(sim_strength, later_step_of_a_pair_reuses_the_earlier, .init = mk_tmp, .fini = rm_tmp, .timeout = 60) {
  char out[300];
  snprintf(out, sizeof out, "%s/st.md", tmpbase);
  const char *a[] = {"strength", "--scenario", "short", "--games", "4", "--seed", "9", "--threads", "1",
                     "--pairs", "heuristic/random@4;heuristic/random@8", "--out", out, NULL};
  cr_assert_eq(run_into(a, 2, "st.err"), 0);
  size_t ne = 0, n1 = 0, n2 = 0;
  char *e = slurp(tmpbase, "st.err", &ne);
  cr_assert_not_null(e);
  cr_assert_not_null(strstr(e, "(4 games from the journal"), "%s", e);
  cr_assert_not_null(strstr(e, "playing 4 more)"), "%s", e);
  char *t1 = slurp(tmpbase, "st.md", &n1);
  cr_assert_not_null(t1);
  const char *b[] = {"strength", "--scenario", "short", "--games", "4", "--seed", "9", "--threads", "1",
                     "--pairs", "heuristic/random@4;heuristic/random@8", "--out", out, "--resume", NULL};
  cr_assert_eq(run_into(b, 2, "st2.err"), 0);
  char *t2 = slurp(tmpbase, "st.md", &n2);
  cr_assert(n1 == n2 && !memcmp(t1, t2, n1), "resumed table differs:\n%s\n---\n%s", t1, t2);
  free(e);
  free(t1);
  free(t2);
}

/* an output that cannot be written is refused before the first game, and a
 * journal is never truncated by a relaunch without --resume */
Test(sim_strength, output_checked_first_and_journal_kept, .init = mk_tmp, .fini = rm_tmp, .timeout = 60) {
  char ro[300], out[300], jp[320];
  snprintf(ro, sizeof ro, "%s/ro", tmpbase);
  cr_assert_eq(mkdir(ro, 0555), 0);
  snprintf(out, sizeof out, "%s/ro/s.md", tmpbase);
  /* mcts:expert would take minutes a game: a refusal that comes after playing times out */
  const char *a[] = {"strength", "--scenario", "long", "--pairs", "mcts:expert/heuristic@2",
                     "--out", out, NULL};
  if (geteuid() != 0) cr_assert_eq(run(a), 2); /* root writes anywhere: only the next check */
  snprintf(out, sizeof out, "%s/s.md", tmpbase);
  snprintf(jp, sizeof jp, "%s/s.md.journal", tmpbase);
  FILE *f = fopen(jp, "w");
  fprintf(f, "M\tshort\theuristic\trandom\t2\t5\t00000000\t2 2 0 0 1 1 1 1 1 1 0 0.1 1 1 1 0.1\n");
  fclose(f);
  const char *b[] = {"strength", "--scenario", "long", "--pairs", "mcts:expert/heuristic@2",
                     "--out", out, NULL};
  cr_assert_eq(run(b), 2);
  size_t n = 0;
  char *j = slurp(tmpbase, "s.md.journal", &n);
  cr_assert_not_null(j);
  cr_assert_not_null(strstr(j, "heuristic\trandom"), "the journal was touched: %s", j);
  free(j);
  struct stat st;
  cr_assert_neq(stat(out, &st), 0, "no table may be written");
}

/* match: mirrored pairs counted (pentanomial), the SPRT decides on the pairs and, once it
 * stops the match, the output says that the fixed-sample Elo is biased */
Test(sim_match, pairs_sprt_and_bias_note, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  const char *a[] = {"match", "--scenario", "short", "--players", "heuristic,random", "--games", "40",
                     "--seed", "3", "--threads", "2", "--sprt", "0,400", "--batch", "4", "--quiet", NULL};
  int rc = run_into(a, 1, "match.txt");
  cr_assert_eq(rc, 0);
  size_t n = 0;
  char *t = slurp(tmpbase, "match.txt", &n);
  long w, l, d, games, pc[5];
  const char *sc = strstr(t, "Score of heuristic vs random: ");
  cr_assert_not_null(sc, "%s", t);
  cr_assert_eq(sscanf(sc, "Score of heuristic vs random: %ld - %ld - %ld [%*f] %ld", &w, &l, &d, &games), 4, "%s", t);
  const char *pl = strstr(t, "Pairs (A's points per seed 0 - 1/2 - 1 - 3/2 - 2): ");
  cr_assert_not_null(pl, "%s", t);
  cr_assert_eq(sscanf(pl + strlen("Pairs (A's points per seed 0 - 1/2 - 1 - 3/2 - 2): "), "%ld-%ld-%ld-%ld-%ld",
                      &pc[0], &pc[1], &pc[2], &pc[3], &pc[4]), 5);
  cr_assert_eq(2 * (pc[0] + pc[1] + pc[2] + pc[3] + pc[4]), games);
  cr_assert_eq(pc[1] + 2 * pc[2] + 3 * pc[3] + 4 * pc[4], 2 * w + d);
  cr_assert_not_null(strstr(t, "LOS "), "%s", t);
  cr_assert_not_null(strstr(t, "H1 accepted"), "%s", t);
  cr_assert(games < 40, "the SPRT should stop early: %ld games", games);
  cr_assert_not_null(strstr(t, "fixed-sample estimate) is biased"), "%s", t);
  if (l == 0 && d == 0) cr_assert_not_null(strstr(t, "Elo difference: ≥ +"), "%s", t);
  free(t);
}

/* paths and NAME=VALUE are for the user's own command line only: a save file or a protocol line
 * (scen_load) cannot make the engine read another file or change a parameter */
Test(sim_run, paths_and_settings_only_from_the_command_line) {
  static Scen sc;
  char err[512];
  cr_assert_eq(scen_load(&sc, scen_default_dir(), "short", "/etc/passwd", err, sizeof err), -1);
  cr_assert_null(strstr(err, "root"), "%s", err);
  cr_assert_eq(scen_load(&sc, scen_default_dir(), "short", "cdp_hougoumont=9", err, sizeof err), -1);
  cr_assert_eq(scen_load_user(&sc, scen_default_dir(), "short", "cdp_hougoumont=9", err, sizeof err), 0, "%s", err);
  cr_assert_eq(sc.p.cdp[0], 9);
  cr_assert_eq(scen_load_user(&sc, scen_default_dir(), "short", "cdp_hougoumont=9+cdp_lhs=-1", err, sizeof err), -1);
  cr_assert_not_null(strstr(err, "--set: cdp_lhs = -1 refused"), "%s", err);
}

/* cost.md: the CPU seconds of every game, kept in the journal (so a resumed run still knows
 * them) and out of report.md, which the command alone decides; an old journal line without the
 * time still loads and is counted as untimed */
Test(sim_run, cost_per_game_from_the_journal, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  char d[300], d2[300];
  snprintf(d, sizeof d, "%s/c", tmpbase);
  snprintf(d2, sizeof d2, "%s/c2", tmpbase);
  const char *a[] = {"sim", "--scenario", "short", "--variant", "base", "--players", "heuristic",
                     "--games", "8", "--seed", "5", "--quiet", "--threads", "2", "--out", d, NULL};
  cr_assert_eq(run(a), 0);
  size_t n;
  char *cost = slurp(d, "cost.md", &n), *md = slurp(d, "report.md", &n);
  cr_assert_not_null(cost);
  cr_assert_not_null(strstr(cost, "| short | heuristic | heuristic | base | 8 | 8 | "), "%s", cost);
  cr_assert_not_null(strstr(md, "`cost.md`"), "report.md points to cost.md");
  cr_assert_null(strstr(md, "CPU s/game"), "no machine-dependent number in report.md");
  char *j = slurp(d, "journal.csv", &n);
  long timed = 0;
  for (char *p = j; (p = strstr(p, "\tcpu=")); p++) timed++;
  cr_assert_eq(timed, 8, "every journal line carries its CPU time");
  /* strip the time from the first two lines as an older build wrote them (the line's hash
   * covers the row alone then) and resume: those games load, untimed */
  mkdir(d2, 0755);
  char path[400];
  snprintf(path, sizeof path, "%s/journal.csv", d2);
  FILE *f = fopen(path, "w");
  char *line = strtok(j, "\n");
  for (int k = 0; line; k++, line = strtok(NULL, "\n")) {
    if (line[0] == 'J' && k <= 2 && strstr(line, "\tcpu=")) {
      *strstr(line, "\tcpu=") = 0;
      uint32_t h = 2166136261u;
      for (const char *p = line + 11; *p; p++) h = (h ^ (uint8_t)*p) * 16777619u;
      fprintf(f, "J %08x %s\n", h, line + 11);
    } else {
      fprintf(f, "%s\n", line);
    }
  }
  fclose(f);
  free(j);
  const char *b[] = {"sim", "--scenario", "short", "--variant", "base", "--players", "heuristic",
                     "--games", "8", "--seed", "5", "--quiet", "--threads", "1", "--out", d2,
                     "--resume", NULL};
  cr_assert_eq(run(b), 0);
  char *cost2 = slurp(d2, "cost.md", &n), *md2 = slurp(d2, "report.md", &n);
  cr_assert_not_null(strstr(cost2, "| short | heuristic | heuristic | base | 8 | 6 | "), "%s", cost2);
  char *r1 = strstr(md, "## "), *r2 = strstr(md2, "## ");
  cr_assert(r1 && r2 && !strcmp(r1, r2), "the same results, whatever the journal's times");
  free(cost);
  free(md);
  free(cost2);
  free(md2);
}

/* a resumed run never mixes games of two fitted evaluations: refitting (here: one weight
 * changed) makes the journal unusable, and it is moved aside, not deleted */
Test(sim_run, refit_evaluation_is_not_resumed, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  char cmd[2400];
  snprintf(cmd, sizeof cmd,
           "mkdir -p %s/data && cp -rL scenarios/. %s/data/ && ./waterloo sim --scenario short --variant base --players "
           "heuristic --games 4 --seed 3 --quiet --out %s/r > /dev/null 2>&1 && "
           "sed -i 's/^bias = .*/bias = 0.5/' %s/data/eval-short.ini && "
           "WATERLOO_DATA=%s/data ./waterloo sim --scenario short --variant base --players heuristic "
           "--games 6 --seed 3 --quiet --resume --out %s/r > %s/log.txt 2>&1",
           tmpbase, tmpbase, tmpbase, tmpbase, tmpbase, tmpbase, tmpbase);
  cr_assert_eq(system(cmd), 0);
  char path[400];
  snprintf(path, sizeof path, "%s/log.txt", tmpbase);
  size_t n;
  char *log = th_slurp(path, &n);
  cr_assert_not_null(log);
  cr_assert_not_null(strstr(log, "fitted evaluation plays differently"), "%s", log);
  snprintf(path, sizeof path, "%s/r/journal.csv.stale", tmpbase);
  cr_assert_eq(access(path, F_OK), 0, "the old journal is kept aside");
  free(log);
}

/* a search player's fingerprint: its options written out (a level's settings behind its
 * name) and its kind's code; none for the rule players, whose play the play fingerprint has */
Test(sim_run, search_fingerprint_of_a_spec) {
  Scen *sc = malloc(sizeof *sc);
  char err[256];
  cr_assert_eq(scen_load(sc, scen_default_dir(), "short", "base", err, sizeof err), 0, "%s", err);
  cr_assert_eq(spec_fingerprint(sc, "heuristic"), 0);
  cr_assert_eq(spec_fingerprint(sc, "random"), 0);
  uint32_t f = spec_fingerprint(sc, "mcts:sim");
  cr_assert_neq(f, 0);
  cr_assert_eq(spec_fingerprint(sc, "mcts:sim"), f, "the same every time");
  cr_assert_eq(spec_fingerprint(sc, "mcts:sim,rk=0.25"), f, "the same settings, another spelling");
  cr_assert_neq(spec_fingerprint(sc, "mcts:sim,rk=0"), f, "another setting");
  cr_assert_neq(spec_fingerprint(sc, "mcts:easy"), f, "another level");
  cr_assert_neq(spec_fingerprint(sc, "flat:sim"), 0);
  cr_assert_neq(spec_fingerprint(sc, "baseline"), 0);
  cr_assert_eq(pair_fingerprint(sc, "heuristic", "random"), 0);
  cr_assert_neq(pair_fingerprint(sc, "mcts:sim", "heuristic"), pair_fingerprint(sc, "heuristic", "mcts:sim"));
  cr_assert(spec_searches("mcts:sim") && spec_searches("flat:easy") && spec_searches("baseline") &&
            spec_searches("heuristic+mcts:sim"));
  cr_assert(!spec_searches("heuristic") && !spec_searches("light") && !spec_searches("random"));
  /* what is hashed besides the probe's play: the options that differ from the probe's */
  char id[512];
  const char *probe[4];
  cr_assert_eq(player_spec_identity("mcts:sim", NULL, id, sizeof id, probe, 4), 1);
  cr_assert_str_eq(id, "mcts:");
  cr_assert_str_eq(probe[0], "mcts:sim,dest=0");
  cr_assert_eq(player_spec_identity("mcts:normal,c=0.3", NULL, id, sizeof id, probe, 4), 1);
  cr_assert_str_eq(id, "mcts:iters=3000,threads=2,playtime=4000,c=0.3,rmin=64,seps=0.5,even=1,");
  cr_assert_eq(player_spec_identity("heuristic+flat:sim", NULL, id, sizeof id, probe, 4), 1);
  cr_assert_str_eq(id, "+flat:");
  cr_assert_str_eq(probe[0], "flat:sim");
  cr_assert_eq(player_spec_identity("heuristic", NULL, id, sizeof id, probe, 4), 0);
  cr_assert_eq(player_spec_identity("nosuch", NULL, id, sizeof id, probe, 4), -1);
  free(sc);
}

/* a resumed sim run never mixes the games of two searches that play differently under the same
 * name (a level's settings or the search's code changed): the journal's header keeps the
 * search fingerprint, and a journal of another is set aside, not deleted; a journal from before
 * the fingerprint was kept is resumed, and its header gains it */
Test(sim_run, search_change_is_not_resumed, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  static char cmd[4000];
  const char *sim = "./waterloo sim --scenario short --variant base --players 'mcts:sim,iters=8' "
                    "--games 2 --seed 3 --quiet --threads 1";
  snprintf(cmd, sizeof cmd,
           "%s --out %s/r > /dev/null 2>&1 && cp %s/r/journal.csv %s/j0 && "
           "sed -i '1s/\tsfp=[0-9a-f]*$/\tsfp=00000001/' %s/r/journal.csv && "
           "%s --resume --out %s/r > %s/log.txt 2>&1 && "
           "mkdir %s/l && sed '1s/\tsfp=[0-9a-f]*$//' %s/j0 > %s/l/journal.csv && "
           "%s --resume --out %s/l > %s/log2.txt 2>&1",
           sim, tmpbase, tmpbase, tmpbase, tmpbase, sim, tmpbase, tmpbase, tmpbase, tmpbase, tmpbase,
           sim, tmpbase, tmpbase);
  cr_assert_eq(system(cmd), 0);
  size_t n;
  char *j0 = slurp(tmpbase, "j0", &n);
  cr_assert_not_null(strstr(j0, "\tsfp="), "the header keeps the search fingerprint: %s", j0);
  char *log = slurp(tmpbase, "log.txt", &n);
  cr_assert_not_null(strstr(log, "search players play differently (search fingerprint 00000001"), "%s", log);
  char path[400];
  snprintf(path, sizeof path, "%s/r/journal.csv.stale", tmpbase);
  cr_assert_eq(access(path, F_OK), 0, "the other searches' journal is kept aside");
  char *log2 = slurp(tmpbase, "log2.txt", &n);
  cr_assert_not_null(strstr(log2, "predates the search fingerprint"), "%s", log2);
  cr_assert_null(strstr(log2, "not resuming"), "%s", log2);
  char *j1 = slurp(tmpbase, "l/journal.csv", &n);
  size_t n0 = strlen(j0);
  cr_assert(!strncmp(j1, j0, n0) && strspn(j1 + n0, "\n") == strlen(j1 + n0),
            "the old journal resumed whole (no game played again), its header with the fingerprint:\n%s---\n%s", j0, j1);
  free(j0);
  free(log);
  free(log2);
  free(j1);
}

/* a strength journal's match of a search pair keeps the pair's search fingerprint: a match of
 * searches that play differently under the same names is played again, not reused */
Test(sim_strength, search_change_is_not_reused, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  static char cmd[3000];
  const char *st = "./waterloo strength --scenario short --pairs 'mcts:sim,iters=8/heuristic@2' --seed 3";
  snprintf(cmd, sizeof cmd,
           "%s --out %s/s.md > /dev/null 2>&1 && %s --resume --out %s/s.md > %s/log1.txt 2>&1 && "
           "sed -i 's/\tsfp=[0-9a-f]*$/\tsfp=00000001/' %s/s.md.journal && "
           "%s --resume --out %s/s.md > %s/log2.txt 2>&1",
           st, tmpbase, st, tmpbase, tmpbase, tmpbase, st, tmpbase, tmpbase);
  cr_assert_eq(system(cmd), 0);
  size_t n;
  char *l1 = slurp(tmpbase, "log1.txt", &n), *l2 = slurp(tmpbase, "log2.txt", &n);
  cr_assert_not_null(strstr(l1, "from the journal"), "the same searches: reused: %s", l1);
  cr_assert_not_null(strstr(l2, "search fingerprint 00000001"), "%s", l2);
  cr_assert_null(strstr(l2, "from the journal"), "%s", l2);
  free(l1);
  free(l2);
}

/* a balance report quotes each scenario's ladder from that scenario's strength table beside the
 * scenario data: the short game's from results/strength-short.md, the long game's from
 * results/strength.md */
Test(sim_run, caveat_quotes_each_scenarios_strength_table, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  static char cmd[4000];
  snprintf(cmd, sizeof cmd,
           "mkdir -p %s/data %s/results && cp -rL scenarios/. %s/data/ && "
           "./waterloo strength --scenario short --pairs heuristic/random@4 --seed 3 "
           "--out %s/results/strength-short.md > /dev/null 2>&1 && "
           "./waterloo strength --scenario long --pairs light/random@2 --seed 3 "
           "--out %s/results/strength.md > /dev/null 2>&1 && "
           "WATERLOO_DATA=%s/data ./waterloo sim --scenario short,long --variant base --players light,random "
           "--games 2 --seed 3 --quiet --out %s/r > /dev/null 2>&1",
           tmpbase, tmpbase, tmpbase, tmpbase, tmpbase, tmpbase, tmpbase);
  cr_assert_eq(system(cmd), 0);
  size_t n;
  char *md = slurp(tmpbase, "r/report.md", &n);
  cr_assert_not_null(md);
  const char *sh = strstr(md, "- Short game (`results/strength-short.md`): `light` not measured; `random` ");
  const char *lg = strstr(md, "- Long game (`results/strength.md`): `light` ");
  cr_assert_not_null(sh, "the short game's ladder, from strength-short.md: %s", md);
  cr_assert_not_null(lg, "the long game's ladder, from strength.md: %s", md);
  cr_assert_null(strstr(md, "not in the table"), "%s", md);
  free(md);
}

/* strength and skill journals are keyed by the play fingerprint (data, heuristic and fitted
 * evaluation): after a refit, --resume plays the games again instead of mixing two evaluations,
 * and strength says why */
Test(sim_strength, refit_evaluation_is_not_reused, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  static char cmd[6000];
  snprintf(cmd, sizeof cmd,
           "mkdir -p %s/data && cp -rL scenarios/. %s/data/ && "
           "./waterloo strength --scenario short --pairs heuristic/random@4 --seed 3 --out %s/s.md > /dev/null 2>&1 && "
           "./waterloo skill --scenario short --levels heuristic@4 --seed 3 --out %s/k > /dev/null 2>&1 && "
           "sed -i 's/^bias = .*/bias = 0.5/' %s/data/eval-short.ini && "
           "WATERLOO_DATA=%s/data ./waterloo strength --scenario short --pairs heuristic/random@4 --seed 3 "
           "--resume --out %s/s.md > %s/log.txt 2>&1 && "
           "WATERLOO_DATA=%s/data ./waterloo skill --scenario short --levels heuristic@4 --seed 3 "
           "--resume --out %s/k > %s/klog.txt 2>&1",
           tmpbase, tmpbase, tmpbase, tmpbase, tmpbase, tmpbase, tmpbase, tmpbase, tmpbase, tmpbase, tmpbase);
  cr_assert_eq(system(cmd), 0);
  size_t n;
  char *log = slurp(tmpbase, "log.txt", &n);
  cr_assert_not_null(log);
  cr_assert_not_null(strstr(log, "plays differently"), "%s", log);
  cr_assert_null(strstr(log, "from the journal"), "%s", log);
  char *j = slurp(tmpbase, "s.md.journal", &n);
  int lines = 0;
  /* each seed is journalled: the whole 4-game match once by each build */
  for (char *p = j; (p = strstr(p, "M\tshort\theuristic\trandom\t4\t")); p++) lines++;
  cr_assert_eq(lines, 2, "the match was played again and journalled: %s", j);
  /* and its first seed on its own: a killed run keeps every finished seed */
  cr_assert_not_null(strstr(j, "M\tshort\theuristic\trandom\t2\t"), "%s", j);
  char *k = slurp(tmpbase, "klog.txt", &n);
  cr_assert_not_null(strstr(k, "short heuristic: 4 games (0 from the journal)"), "%s", k);
  free(log);
  free(j);
  free(k);
}

/* a short-game strength table of these pairs on seed 3, written to OUT (tmpbase/t.md) and read */
static char *short_strength_table(const char *pairs, char *out, size_t outlen) {
  snprintf(out, outlen, "%s/t.md", tmpbase);
  const char *a[] = {"strength", "--scenario", "short", "--pairs", pairs, "--seed", "3", "--out", out, NULL};
  cr_assert_eq(run(a), 0);
  size_t n;
  char *t = slurp(tmpbase, "t.md", &n);
  cr_assert_not_null(t);
  return t;
}

/* the strength table's level targets: a step of the ladder played head to head is judged
 * by the lower end of its score's Wilson interval, and a match shorter than 200 games says so */
Test(sim_strength, level_steps_judged_by_their_interval, .init = mk_tmp, .fini = rm_tmp, .timeout = 60) {
  char out[300];
  char *t = short_strength_table("heuristic/random@10;random/heuristic@4", out, sizeof out);
  /* 10 games won of 10, 5 pairs won of 5: the step is judged by the sign test over the pairs
   * (one step: Holm p = p = 1/32), the 90% target by the whole Wilson interval, which holds it */
  Interval wi = wilson_d(10, 10, Z95);
  char want[300];
  snprintf(want, sizeof want, "- heuristic beats the level below it, random (level target): 100.0%% "
           "[%.1f, 100.0] (Wilson over the games, sign test over the pairs), Holm p %.3g — met\n",
           100 * wi.lo, sign_test_p(5, 0));
  cr_assert_not_null(strstr(t, want), "%s\n%s", want, t);
  cr_assert(fabs(sign_test_p(5, 0) - 1.0 / 32) < 1e-15);
  snprintf(want, sizeof want, "- heuristic beats random ≥ 90%%: 100.0%% [%.1f, 100.0] — not shown "
           "(the target is inside the interval)\n", 100 * wi.lo);
  cr_assert_not_null(strstr(t, want), "%s\n%s", want, t);
  cr_assert(!strstr(t, "+inf") && !strstr(t, "-inf"), "no infinite Elo where a finite bound exists: %s", t);
  cr_assert_not_null(strstr(t, "≥ +"), "%s", t);
  cr_assert_null(strstr(t, "- random beats the level below"), "random has no level below it: %s", t);
  char cmdline[400];
  snprintf(cmdline, sizeof cmdline, "--pairs 'heuristic/random@10;random/heuristic@4' --out %s\n```", out);
  cr_assert_not_null(strstr(t, cmdline), "the command names the table it writes: %s", t);
  free(t);
}

/* the tree search's targets: a level against its yardstick is judged by the score's Wilson
 * interval, at the scenario's floor, and a match shorter than the games asked (200 short) says so */
Test(sim_strength, search_targets_judged_by_their_interval, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  char out[300];
  char *t = short_strength_table("mcts:sim/flat:sim@2", out, sizeof out);
  const char *row = strstr(t, "| mcts:sim | flat:sim | ");
  cr_assert_not_null(row, "%s", t);
  int w, l, d;
  cr_assert_eq(sscanf(row, "| mcts:sim | flat:sim | %d - %d - %d", &w, &l, &d), 3, "%s", row);
  Interval wi = wilson_d(w + 0.5 * d, 2, Z95);
  char want[300];
  snprintf(want, sizeof want, "- mcts:sim scores ≥ 60%% against flat:sim (search target, short game): "
           "%.1f%% [%.1f, %.1f] — %s; 2 games, fewer than the 200 asked\n", 100 * wi.p,
           100 * wi.lo, 100 * wi.hi, wi.lo >= 0.6 ? "met (the whole interval is at or above it)"
           : wi.hi < 0.6 ? "NOT met (the whole interval is below it)"
                         : "not shown (the target is inside the interval)");
  cr_assert_not_null(strstr(t, want), "%s\n%s", want, t);
  free(t);
}

/* a resume ends a torn last line with a line break, and adds nothing after a whole one: resumed
 * runs leave no empty lines, report no torn line, and resuming a finished run leaves its journal
 * byte for byte as it was */
Test(sim_run, resumed_twice_reports_no_torn_line, .init = mk_tmp, .fini = rm_tmp, .timeout = 60) {
  char d[300];
  snprintf(d, sizeof d, "%s/r", tmpbase);
  const char *g[] = {"4", "6", "8", "8"};
  size_t n = 0, n3 = 0;
  char *j3 = NULL;
  for (int k = 0; k < 4; k++) {
    const char *a[] = {"sim", "--scenario", "short", "--games", g[k], "--seed", "2", "--quiet", "--out", d,
                       k ? "--resume" : NULL, NULL};
    cr_assert_eq(run_into(a, 2, "err.txt"), 0);
    if (k == 2) j3 = slurp(d, "journal.csv", &n3);
  }
  char *e = slurp(tmpbase, "err.txt", &n), *j = slurp(d, "journal.csv", &n);
  cr_assert_null(strstr(e, "torn or malformed"), "%s", e);
  cr_assert_null(strstr(j, "\n\n"), "no empty line after whole ones: %s", j);
  cr_assert(j3 && n == n3 && !memcmp(j, j3, n), "a finished run resumed: the journal unchanged");
  free(e);
  free(j);
  free(j3);
}

/* every cell of a sweep (and of a variant) is played by the same player: eval=fit scores the
 * cut-off rollouts of every cell with the base rules' weights, and the report says which
 * evaluation each cell used; eval=own (each variant's own file) is reported as different players */
Test(sim_run, sweep_cells_use_one_evaluation, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  char out[400], out2[400];
  snprintf(out, sizeof out, "%s/same", tmpbase);
  snprintf(out2, sizeof out2, "%s/own", tmpbase);
  const char *a[] = {"sim", "--scenario", "short", "--variant", "base,strong-hougoumont", "--set",
                     "cdp_hougoumont=2,6", "--players", "mcts:sim,iters=8", "--games", "2",
                     "--threads", "1", "--quiet", "--out", out, NULL};
  cr_assert_eq(run(a), 0);
  size_t n;
  char *md = slurp(out, "report.md", &n), *js = slurp(out, "summary.json", &n);
  cr_assert_not_null(strstr(md, "Evaluation of the cut-off rollouts, the same in every cell: French fitted: eval-short.ini"), "%s", md);
  int cells = 0;
  for (char *p = js; (p = strstr(p, "\"french\":\t\"fitted: eval-short.ini, weights ")); p++) cells++;
  cr_assert_eq(cells, 4, "base, the variant and both swept values: %s", js);
  const char *b[] = {"sim", "--scenario", "short", "--variant", "base,strong-hougoumont", "--players",
                     "mcts:sim,iters=8,eval=own", "--games", "2", "--threads", "1", "--quiet",
                     "--out", out2, NULL};
  cr_assert_eq(run(b), 0);
  char *md2 = slurp(out2, "report.md", &n);
  cr_assert_not_null(strstr(md2, "**The cells were not played by the same players**"), "%s", md2);
  cr_assert_not_null(strstr(md2, "| strong-hougoumont | fitted: eval-short+strong-hougoumont.ini"), "%s", md2);
  free(md);
  free(js);
  free(md2);
}

/* published figures say what the data say: a match won in every game prints its finite Elo
 * bound, not "+inf"; --until-ci 0 is refused instead of silently meaning "off" */
Test(sim_run, figures_say_what_is_known, .init = mk_tmp, .fini = rm_tmp, .timeout = 120) {
  char out[400];
  snprintf(out, sizeof out, "%s/s.md", tmpbase);
  const char *a[] = {"strength", "--scenario", "short", "--pairs", "heuristic/random@4", "--seed", "3",
                     "--out", out, NULL};
  cr_assert_eq(run_into(a, 2, "log.txt"), 0);
  size_t n;
  char *log = slurp(tmpbase, "log.txt", &n);
  cr_assert_not_null(strstr(log, "Elo ≥ +"), "%s", log);
  cr_assert_null(strstr(log, "Elo +inf"), "%s", log);
  const char *b[] = {"sim", "--scenario", "short", "--until-ci", "0", "--games", "2", "--quiet",
                     "--out", tmpbase, NULL};
  cr_assert_eq(run_into(b, 2, "err.txt"), 2);
  char *err = slurp(tmpbase, "err.txt", &n);
  cr_assert_not_null(strstr(err, "--until-ci"), "%s", err);
  free(log);
  free(err);
}
