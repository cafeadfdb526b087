/* ./waterloo scaling (issue 19 item 4): the table and the chart are written, Holm's adjustment
 * is what a hand computation on the table's own p-values gives, the score's p is the t test of
 * the printed pentanomial counts, a resume rebuilds the same bytes, and a run killed part-way
 * loses no finished seed. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "../sim/sim.h"

static char dir[256];

static void mk(void) {
  snprintf(dir, sizeof dir, "/tmp/waterloo-test-XXXXXX");
  cr_assert_not_null(mkdtemp(dir));
}
static void rm(void) { th_rmdir(dir); }

#define ARGS "--scenario short,long --from mcts:iters=4 --doublings 3 --games 4 --seed 11 --threads 2"

/* ./waterloo scaling ARGS --out dir/NAME EXTRA, its output in out */
static int scaling(const char *name, const char *extra, char *out, size_t len) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "nice -n 10 ./waterloo scaling " ARGS " --out %s/%s %s", dir, name, extra);
  return th_sh(cmd, out, len);
}

static char *file(const char *name, size_t *n) {
  char p[400];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  return th_slurp(p, n);
}

/* the cells of a table row, cut in place: how many */
static int cells(char *row, char **c, int max) {
  int n = 0;
  char *p = strchr(row, '|');
  while (p && n < max) {
    char *q = strchr(p + 1, '|');
    if (!q) break;
    *q = 0;
    c[n++] = p + 1;
    p = q;
  }
  return n;
}

/* one printed p-value ("—": unknown, NAN) */
static double pval(const char *s) {
  while (*s == ' ') s++;
  return strncmp(s, "—", strlen("—")) ? strtod(s, NULL) : NAN;
}

/* the one-sided t test of the pair scores of "a-b-c-d-e" (A's points 0, 1/2, 1, 3/2, 2 a seed) */
static double penta_p(const char *s) {
  long pc[5];
  cr_assert_eq(sscanf(s, " %ld-%ld-%ld-%ld-%ld", &pc[0], &pc[1], &pc[2], &pc[3], &pc[4]), 5);
  double n = 0, sum = 0, sum2 = 0;
  for (int q = 0; q < 5; q++) n += pc[q], sum += pc[q] * q / 4.0, sum2 += pc[q] * (q / 4.0) * (q / 4.0);
  double mean = sum / n, var = (sum2 - n * mean * mean) / (n - 1);
  if (!(var > 1e-12)) return NAN;
  return 1 - t_cdf((mean - 0.5) / sqrt(var / n), n - 1);
}

/* Holm by hand: sort, (m - rank) p, running maximum, capped at 1; unknown p taken as 1 */
static void holm_by_hand(const double *p, int m, double *adj) {
  int order[16];
  for (int i = 0; i < m; i++) order[i] = i;
  for (int i = 0; i < m; i++)
    for (int j = i + 1; j < m; j++) {
      double a = isnan(p[order[i]]) ? 1 : p[order[i]], b = isnan(p[order[j]]) ? 1 : p[order[j]];
      if (b < a) { int t = order[i]; order[i] = order[j]; order[j] = t; }
    }
  double run = 0;
  for (int r = 0; r < m; r++) {
    double v = (m - r) * (isnan(p[order[r]]) ? 1 : p[order[r]]);
    run = fmax(run, fmin(1, v));
    adj[order[r]] = run;
  }
}

/* the step rows of one scenario's section: p and Holm p of both measures checked; how many
 * p-values were known */
static int check_section(char *sec, int steps, int *adjusted) {
  double p[2][16], h[2][16], mx[16], mv[16];
  int known = 0;
  for (int k = 0; k < steps; k++) {
    char head[16];
    snprintf(head, sizeof head, "\n| %d | ", k + 1);
    char *row = strstr(sec, head);
    cr_assert_not_null(row, "step %d missing:\n%s", k + 1, sec);
    char line[1024];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(row + 1, "\n"), row + 1);
    char *c[20];
    cr_assert_eq(cells(line, c, 20), 15, "%s", row);
    /* columns: step A B games WLD score pairs Elo LOS p Holm margin p Holm CPU */
    p[0][k] = pval(c[9]);
    h[0][k] = pval(c[10]);
    p[1][k] = pval(c[12]);
    h[1][k] = pval(c[13]);
    double hand = penta_p(c[6]);
    cr_assert(isnan(hand) == isnan(p[0][k]), "p %s against %f", c[9], hand);
    if (!isnan(hand)) cr_assert(fabs(hand - p[0][k]) <= 0.005 * hand + 1e-6, "p %s against %f", c[9], hand);
    known += !isnan(p[0][k]) + !isnan(p[1][k]);
    /* the margin and its variance back from the printed interval (t over games / 2 pairs) */
    double lo, hi;
    mx[k] = NAN, mv[k] = NAN;
    if (sscanf(c[11], " %lf [%lf, %lf]", &mx[k], &lo, &hi) == 3) {
      double tq = t_quantile(0.975, atof(c[3]) / 2 - 1);
      mv[k] = pow((hi - lo) / 2 / tq, 2);
    }
    for (int m = 0; m < 2; m++) *adjusted += p[m][k] > 0 && p[m][k] < h[m][k] && h[m][k] < 1;
  }
  for (int m = 0; m < 2; m++) {
    double adj[16];
    holm_by_hand(p[m], steps, adj);
    for (int k = 0; k < steps; k++)
      cr_assert(fabs(adj[k] - h[m][k]) <= 0.01 * adj[k] + 1e-6, "measure %d step %d: Holm %g, by hand %g",
                m, k + 1, h[m][k], adj[k]);
  }
  /* the pooled margin is the inverse-variance mean of the printed ones (to their rounding) */
  Pooled P;
  pool_estimates(mx, mv, steps, &P);
  char *line = strstr(sec, "- one gain a doubling, margin: ");
  cr_assert((P.n >= 2) == (line != NULL), "%d steps with a margin interval, pooled line %s:\n%s",
            P.n, line ? "printed" : "missing", sec);
  if (line) {
    double got = strtod(line + strlen("- one gain a doubling, margin: "), NULL);
    cr_assert(fabs(got - P.mean) <= 0.02 + 0.02 * fabs(P.mean), "pooled margin %g, from the rows %g:\n%s",
              got, P.mean, sec);
  }
  return known;
}

/* every table row without its last cell (the CPU column, which depends on the machine) */
static void drop_cpu(char *t) {
  char *out = t;
  for (char *line = t; *line;) {
    size_t n = strcspn(line, "\n");
    size_t keep = n;
    if (line[0] == '|' && n > 1) {
      char *last = memrchr(line, '|', n - 1);
      if (last) keep = (size_t)(last - line);
    }
    memmove(out, line, keep);
    out += keep;
    line += n;
    if (*line == '\n') *out++ = *line++;
  }
  *out = 0;
}

Test(scaling, table_chart_holm_resume_and_kill, .init = mk, .fini = rm, .timeout = 300) {
  static char out[65536];
  cr_assert_eq(scaling("s.md", "", out, sizeof out), 0, "%s", out);
  size_t n1 = 0, s1 = 0;
  char *t1 = file("s.md", &n1), *g1 = file("s.svg", &s1);
  cr_assert(t1 && g1, "no table or chart: %s", out);
  cr_assert_not_null(strstr(t1, "./waterloo scaling --scenario short,long --from mcts:iters=4 --doublings 3 --games 4 --seed 11 --out "));
  cr_assert_not_null(strstr(t1, "| 3 | mcts:iters=32 (32) | mcts:iters=16 (16) | 4 | "), "%s", t1);
  cr_assert_not_null(strstr(t1, "| mcts:iters=4 | 4 | 2.00 | 0 (anchor) | 0 (anchor) | "), "%s", t1);
  cr_assert_not_null(strstr(t1, "| mcts:iters=32 | 32 | 5.00 | "), "%s", t1);
  cr_assert_not_null(strstr(t1, "- from mcts:iters=4 (4) to mcts:iters=32 (32), 3 doublings: "), "%s", t1);
  cr_assert(!strncmp(g1, "<svg", 4) && strstr(g1, "</svg>"));
  for (int s = 0; s < 2; s++)
    for (int lv = 4; lv <= 32; lv *= 2) {
      char want[96];
      snprintf(want, sizeof want, "<title>mcts:iters=%d, %s game: ", lv, s ? "long" : "short");
      cr_assert_not_null(strstr(g1, want), "chart lacks %s", want);
    }
  /* Holm over the 3 steps of each scenario, for each measure, by hand */
  char *sec = strdup(t1), *lg = strstr(sec, "## Long game");
  cr_assert_not_null(lg);
  lg[-1] = 0;
  int adjusted = 0;
  int known = check_section(strstr(sec, "## Short game"), 3, &adjusted) + check_section(lg, 3, &adjusted);
  /* the check means something only if some p was moved by Holm and not capped (a new search
   * may need another --seed here) */
  cr_assert(known >= 2 && adjusted >= 1, "too few p-values for Holm to be tested:\n%s", t1);
  free(sec);
  /* --resume: everything from the journal, the same bytes */
  cr_assert_eq(scaling("s.md", "--resume", out, sizeof out), 0, "%s", out);
  size_t n2 = 0, s2 = 0;
  char *t2 = file("s.md", &n2), *g2 = file("s.svg", &s2);
  cr_assert(n1 == n2 && !memcmp(t1, t2, n1), "resumed table differs:\n%s\n---\n%s", t1, t2);
  cr_assert(s1 == s2 && !memcmp(g1, g2, s1), "resumed chart differs");
  cr_assert_null(strstr(out, "playing"), "a resume of a whole run played games: %s", out);
  /* a run killed in the first step's second seed: of that step's lines only the first (one
   * seed), the other steps whole, and a torn line; the resume plays only the missing seed */
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "awk -F'\\t' 'NR == 1 { k = $2 FS $3 FS $4; print; next } $2 FS $3 FS $4 != k' "
           "%s/s.md.journal > %s/k.md.journal && printf 'M\\tshort\\tmcts:it' >> %s/k.md.journal",
           dir, dir, dir);
  cr_assert_eq(system(cmd), 0);
  cr_assert_eq(scaling("k.md", "--resume", out, sizeof out), 0, "%s", out);
  cr_assert_not_null(strstr(out, "(2 games from the journal"), "%s", out);
  cr_assert_not_null(strstr(out, "playing 2 more"), "%s", out);
  cr_assert_eq(strstr(strstr(out, "playing 2 more") + 1, "playing"), NULL, "%s", out);
  size_t n3;
  char *t3 = file("k.md", &n3);
  char *a = strstr(t1, "\n## "), *b = strstr(t3, "\n## "); /* past the command (its --out differs) */
  cr_assert(a && b);
  drop_cpu(a);
  drop_cpu(b);
  cr_assert_str_eq(a, b);
  free(t1); free(t2); free(t3); free(g1); free(g2);
}

/* the pooling of the steps on an example worked by hand: x = 0.6, 0.5, 0.7 with variances
 * 0.01, 0.04, 0.01 give weights 100, 25, 100, a common 142.5 / 225 = 0.6333 of variance 1/225,
 * deviations -1/30, -4/30, 2/30 and so Q = 1 exactly (p on 2 df: exp(-1/2)); the weighted
 * index mean is 1, the slope 10 / 200 = 0.05 of variance 1/200, the Q about the line
 * 1 - 0.05^2 * 200 = 0.5 on 1 df; an unknown variance leaves its step out */
Test(scaling, pooled_steps_by_hand) {
  double x[] = {0.6, 0.5, 0.7, 0.9}, v[] = {0.01, 0.04, 0.01, NAN};
  Pooled P;
  pool_estimates(x, v, 4, &P);
  cr_assert_eq(P.n, 3);
  cr_assert_float_eq(P.mean, 142.5 / 225, 1e-12);
  cr_assert_float_eq(P.var, 1.0 / 225, 1e-12);
  cr_assert_float_eq(P.q, 1.0, 1e-12);
  cr_assert_float_eq(P.q_p, exp(-0.5), 1e-12);
  cr_assert_float_eq(P.slope, 0.05, 1e-12);
  cr_assert_float_eq(P.slope_var, 0.005, 1e-12);
  cr_assert_float_eq(P.slope_p, 2 * (1 - norm_cdf(0.05 / sqrt(0.005))), 1e-12);
  cr_assert_float_eq(P.q_line, 0.5, 1e-12);
  cr_assert_float_eq(P.q_line_p, 2 * (1 - norm_cdf(sqrt(0.5))), 1e-12); /* chi-square, 1 df */
  pool_estimates(x, v, 2, &P); /* two: Q but no trend */
  cr_assert(P.n == 2 && isfinite(P.q_p) && isnan(P.slope) && isnan(P.q_line));
  pool_estimates(x + 3, v + 3, 1, &P);
  cr_assert(P.n == 0 && isnan(P.mean));
}

/* the pooled lines printed with the rows they pool (budgets from 16: below it every decision
 * gets 16 walks, so the steps of the main test above are too alike to have a spread) */
Test(scaling, pooled_lines_match_the_rows, .init = mk, .fini = rm, .timeout = 300) {
  static char out[65536];
  char cmd[600];
  snprintf(cmd, sizeof cmd, "nice -n 10 ./waterloo scaling --scenario short --from mcts:iters=16 "
           "--doublings 3 --games 8 --seed 11 --threads 2 --out %s/p.md", dir);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s", out);
  size_t n;
  char *t = file("p.md", &n);
  cr_assert_not_null(t);
  int adjusted = 0;
  check_section(strstr(t, "## Short game"), 3, &adjusted);
  /* the check above means something only if the line is there (a new search may need another
   * --seed here) */
  cr_assert_not_null(strstr(t, "- one gain a doubling, margin: "), "%s", t);
  cr_assert_not_null(strstr(t, "- one gain a doubling, score: "), "%s", t);
  free(t);
}

/* bad input: one line naming the option, nothing played */
Test(scaling, bad_input_refused_before_any_game, .init = mk, .fini = rm) {
  char out[4096], cmd[600];
  snprintf(cmd, sizeof cmd, "./waterloo scaling --from heuristic --out %s/x.md", dir);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 2);
  cr_assert_not_null(strstr(out, "scaling: --from heuristic: "), "%s", out);
  snprintf(cmd, sizeof cmd, "./waterloo scaling --scenario medium --out %s/x.md", dir);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 2);
  cr_assert_not_null(strstr(out, "scaling: --scenario"), "%s", out);
  snprintf(cmd, sizeof cmd, "./waterloo scaling --doublings 0 --out %s/x.md", dir);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 2);
  th_write(dir, "f", "a file, not a folder\n");
  snprintf(cmd, sizeof cmd, "./waterloo scaling --from mcts:sim*0.125 --doublings 2 --games 2 --scenario short --out %s/f/x.md", dir);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 2);
  cr_assert_not_null(strstr(out, "scaling: "), "%s", out);
  cr_assert_null(strstr(out, "games"), "played before refusing: %s", out);
}

/* ./waterloo headline (make run): each cell's French rate with its interval, the reading of a
 * scenario from its base cell and the variants that Holm keeps, the command; bad input */
Test(headline, rows_reading_and_command, .init = mk, .fini = rm) {
  th_write(dir, "summary.json",
           "{\"command\": \"./waterloo sim --scenario short --games 40\", \"cells\": ["
           "{\"scenario\": \"short\", \"variant\": \"base\", \"french\": \"mcts:sim\", \"allied\": \"mcts:sim\","
           " \"games\": 40, \"french_rate\": {\"rate\": 0.2, \"lo\": 0.1, \"hi\": 0.35}},"
           "{\"scenario\": \"short\", \"variant\": \"no-bidding\", \"games\": 40,"
           " \"french_rate\": {\"rate\": 0.4, \"lo\": 0.26, \"hi\": 0.55},"
           " \"vs_base\": {\"diff\": 0.2, \"lo\": 0.05, \"hi\": 0.35, \"holm_p\": 0.01}},"
           "{\"scenario\": \"short\", \"variant\": \"strong-hougoumont\", \"games\": 40,"
           " \"french_rate\": {\"rate\": 0.25, \"lo\": 0.14, \"hi\": 0.4},"
           " \"vs_base\": {\"diff\": 0.05, \"lo\": -0.1, \"hi\": 0.2, \"holm_p\": 0.6}},"
           "{\"scenario\": \"short\", \"variant\": \"three-player\", \"identical_to_base\": true}]}");
  char out[8192], cmd[600];
  snprintf(cmd, sizeof cmd, "./waterloo headline --title TITLE %s", dir);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s", out);
  cr_assert(!strncmp(out, "TITLE\n", 6), "%s", out);
  cr_assert_not_null(strstr(out, "  short game, mcts:sim (French) vs mcts:sim (Allied)\n"), "%s", out);
  cr_assert_not_null(strstr(out, "    base                    20.0% [10.0, 35.0]       40\n"), "%s", out);
  cr_assert_not_null(strstr(out, "    no-bidding              40.0% [26.0, 55.0]       40\n"), "%s", out);
  cr_assert_not_null(strstr(out, "    three-player            = base"), "%s", out);
  cr_assert_not_null(strstr(out, "Reading: the Allies are favoured (the French win 20%, at most 35%); "
                                 "against base, no-bidding +20.0 points [+5.0, +35.0] (Holm p 0.01).\n"), "%s", out);
  cr_assert_null(strstr(out, "strong-hougoumont +"), "a variant Holm does not keep named: %s", out);
  cr_assert_not_null(strstr(out, "  Made by: ./waterloo sim --scenario short --games 40\n"), "%s", out);
  cr_assert_null(strstr(out, "Note: played by another build"), "no report.md, no note: %s", out);
  /* a report of this build says nothing more; one marked as of another build is noted, once */
  th_write(dir, "report.md", "# Waterloo balance report\n\n*Build: waterloo 1.0, play fingerprint short a, long b.*\n");
  cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s", out);
  cr_assert_null(strstr(out, "Note: "), "%s", out);
  th_write(dir, "report.md", "# Waterloo balance report\n\n*As of build: waterloo 1.0, play fingerprint short "
                             "92516a3e, long 333f430f, search fingerprint 8d227f94 \xe2\x80\x94 not today's build: "
                             "run the command of this report again to bring it up to date.*\n");
  cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s", out);
  cr_assert_not_null(strstr(out, "  Made by: ./waterloo sim --scenario short --games 40\n  Note: played by another build "
                                 "(waterloo 1.0, play fingerprint short 92516a3e, long 333f430f, search fingerprint "
                                 "8d227f94), not this one: its games would not all replay today"), "%s", out);
  /* the committed search-level tables that make run prints: every cell of each shown */
  cr_assert_eq(th_sh("./waterloo headline results/balance-search/short results/balance-search/long", out, sizeof out), 0, "%s", out);
  cr_assert_not_null(strstr(out, "  short game, "), "%s", out);
  cr_assert_not_null(strstr(out, "  long game, "), "%s", out);
  cr_assert_not_null(strstr(out, "    base  "), "%s", out);
  /* bad input: one line naming the file, exit 2 */
  th_write(dir, "summary.json", "{\"cells\": [{\"scenario\": \"short\", \"variant\": \"base\"}]}");
  snprintf(cmd, sizeof cmd, "./waterloo headline %s", dir);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 2, "%s", out);
  cr_assert_not_null(strstr(out, "summary.json: the cell short/base has no French rate"), "%s", out);
  th_write(dir, "summary.json", "not json");
  cr_assert_eq(th_sh(cmd, out, sizeof out), 2, "%s", out);
  cr_assert_not_null(strstr(out, "summary.json: not valid JSON"), "%s", out);
  snprintf(cmd, sizeof cmd, "./waterloo headline %s/none", dir);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 2, "%s", out);
  cr_assert_not_null(strstr(out, "headline: cannot read "), "%s", out);
}
