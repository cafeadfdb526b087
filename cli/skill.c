/* ./waterloo skill: balance across skill.  The French win rate of each scenario when both sides
 * are played by the same player, for a ladder of players from weak to strong: does the balance
 * estimate settle as the players get better, or does it still move with skill? */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "../ai/ai_bench.h"
#include "../ai/player.h"
#include "../sim/sim.h"

#define MAX_LEVELS 16

typedef struct {
  char spec[128];
  long games, fr, al, dr, bad;
  double cpu;
} Cell;

static void svg(FILE *f, char scen[2][16], int nsc, Cell cells[2][MAX_LEVELS], int nl) {
  const int W = 760, H = 420, L = 70, R = 20, T = 40, B = 110;
  double pw = W - L - R, ph = H - T - B;
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H);
  fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
  fprintf(f, "<text x=\"%d\" y=\"22\" font-size=\"15\">French win rate when both sides are played by the same player (95%% Wilson)</text>\n", L);
  for (int g = 0; g <= 10; g += 2) {
    double y = T + ph * (1 - g / 10.0);
    fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, y, W - R, y);
    fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d%%</text>\n", L - 6, y + 4, g * 10);
  }
  double y50 = T + ph * 0.5;
  fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n", L, y50, W - R, y50);
  for (int i = 0; i < nl; i++) {
    double x = L + pw * (i + 0.5) / nl;
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" transform=\"rotate(-30 %.1f %d)\">%s</text>\n",
            x, H - B + 18, x, H - B + 18, cells[0][i].spec);
  }
  const char *col[2] = {"#1f5fbf", "#c0392b"};
  for (int s = 0; s < nsc; s++) {
    double px = 0, py = 0;
    for (int i = 0; i < nl; i++) {
      Cell *c = &cells[s][i];
      if (!c->games) continue;
      Interval wi = wilson_d(c->fr + 0.5 * c->dr, c->games, Z95);
      double x = L + pw * (i + 0.5) / nl + (s ? 6 : -6);
      double y = T + ph * (1 - wi.p);
      fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x, T + ph * (1 - wi.lo), x,
              T + ph * (1 - wi.hi), col[s]);
      fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n", x, y, col[s]);
      if (i) fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\"/>\n", px, py, x, y, col[s]);
      px = x;
      py = y;
    }
    fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s game</text>\n", L + 10 + 130 * s,
            H - 14, col[s], L + 18 + 130 * s, H - 10, scen[s]);
  }
  fprintf(f, "</svg>\n");
}

/* one run of `skill`: the options, the ladder and its results per scenario */
typedef struct {
  const char *var, *out;
  uint64_t games, seed, threads;
  char scen[2][16];
  int nsc;
  Cell cells[2][MAX_LEVELS];
  long want[MAX_LEVELS];     /* games of each level */
  int nl;
} Skill;

/* --scenario short, long or short,long */
static int skill_scenarios(Skill *K, const char *scl) {
  char buf[64];
  snprintf(buf, sizeof buf, "%s", scl);
  char *save = NULL;
  for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (K->nsc == 2 || (strcmp(t, "short") && strcmp(t, "long"))) {
      fprintf(stderr, "skill: --scenario takes short, long or short,long (not '%s')\n", t);
      return 2;
    }
    snprintf(K->scen[K->nsc++], sizeof K->scen[0], "%s", t);
  }
  return 0;
}

/* --levels 'A;B@N;C': the ladder, each spec checked */
static int skill_levels(Skill *K, const char *lv) {
  char buf[2048];
  snprintf(buf, sizeof buf, "%s", lv);
  char *save = NULL;
  for (char *t = strtok_r(buf, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
    int nl = K->nl;
    if (nl == MAX_LEVELS) { fprintf(stderr, "skill: at most %d levels\n", MAX_LEVELS); return 2; }
    char *at = strrchr(t, '@');
    K->want[nl] = (long)K->games;
    if (at) {
      *at = 0;
      uint64_t n;
      if (opt_u64("skill", "--levels @N", at + 1, &n) || n < 1) return 2;
      K->want[nl] = (long)n;
    }
    char err[300];
    if (player_spec_check(t, err, sizeof err)) { fprintf(stderr, "skill: %s\n", err); return 2; }
    for (int s = 0; s < 2; s++) snprintf(K->cells[s][nl].spec, sizeof K->cells[s][nl].spec, "%s", t);
    K->nl++;
  }
  if (!K->nl) { fprintf(stderr, "skill: no levels\n"); return 2; }
  return 0;
}

/* the options into *K: -1 to run, else the exit code (after --help or bad input) */
static int skill_options(Skill *K, int argc, char **argv) {
  int rc = cli_args(argc, argv, "skill", "--scenario --levels --games --seed --threads --variant --out",
                    "usage: waterloo skill [--scenario short,long] [--levels 'A;B;C'] [--games N] [--seed S]\n"
                    "                      [--threads T] [--variant V] [--out DIR]\n"
                    "Balance across skill: for each scenario and each player of the ladder (weak to strong,\n"
                    "';'-separated specs, SPEC@N for N games of that level), N games (default 200) with that\n"
                    "player on both sides, game i from gs_init(seed, i); the French win rate (draws half)\n"
                    "with its 95% Wilson interval and the CPU seconds per game.  Writes DIR/report.md (the\n"
                    "table and the command) and DIR/skill.svg (the chart).  Default ladder:\n"
                    "random;light;heuristic;mcts:sim;mcts:sim*4.  Results do not depend on --threads.\n");
  if (rc >= 0) return rc;
  const char *scl = opt_get(argc, argv, "--scenario", "short,long");
  const char *lv = opt_get(argc, argv, "--levels", "random;light;heuristic;mcts:sim;mcts:sim*4");
  K->var = opt_get(argc, argv, "--variant", "base");
  K->out = opt_get(argc, argv, "--out", NULL);
  if (!K->out) { fprintf(stderr, "skill: --out DIR is required\n"); return 2; }
  if (opt_u64("skill", "--games", opt_get(argc, argv, "--games", "200"), &K->games) ||
      opt_u64("skill", "--seed", opt_get(argc, argv, "--seed", "1815"), &K->seed) ||
      opt_u64("skill", "--threads", opt_get(argc, argv, "--threads", "0"), &K->threads))
    return 2;
  if (skill_scenarios(K, scl) || skill_levels(K, lv)) return 2;
  return -1;
}

/* the games of level i in scenario s, over the threads */
static void skill_play_level(Skill *K, const Scen *sc, int s, int i) {
  Cell *c = &K->cells[s][i];
  long n = K->want[i], fr = 0, al = 0, dr = 0, bad = 0;
  double cpu = 0;
  uint64_t seed = K->seed;
  int T = K->threads ? (int)K->threads : omp_get_max_threads();
#pragma omp parallel for num_threads(T) schedule(dynamic, 1) reduction(+ : fr, al, dr, bad, cpu)
  for (long g = 0; g < n; g++) {
    double t0 = clock_thread_cpu();
    int r = ai_play_game(sc, c->spec, c->spec, seed, (uint64_t)g, NULL);
    cpu += clock_thread_cpu() - t0;
    if (r == 1) fr++;
    else if (r == 2) al++;
    else if (r == 3) dr++;
    else bad++;
  }
  c->games = fr + al + dr;
  c->fr = fr;
  c->al = al;
  c->dr = dr;
  c->bad = bad;
  c->cpu = cpu;
  Interval wi = wilson_d(fr + 0.5 * dr, c->games, Z95);
  fprintf(stderr, "skill: %s %s: %ld games, French %.1f%% [%.1f, %.1f], %.3f CPU s/game\n", K->scen[s], c->spec,
          c->games, 100 * wi.p, 100 * wi.lo, 100 * wi.hi, n ? cpu / n : 0);
}

/* report.md: the command, what a row is, one table per scenario */
static void skill_report(const Skill *K, FILE *f, int argc, char **argv) {
  fprintf(f, "# Balance across skill\n\nReproduce with:\n\n```\n./waterloo skill");
  for (int i = 1; i < argc; i++) fprintf(f, " %s%s%s", strchr(argv[i], ';') || strchr(argv[i], '*') ? "'" : "", argv[i],
                                          strchr(argv[i], ';') || strchr(argv[i], '*') ? "'" : "");
  fprintf(f, "\n```\n\nEach row: the same player on both sides, game i from gs_init(seed %" PRIu64 ", i), variant %s. "
             "French win rate with draws counted half, 95%% Wilson interval; "
             "CPU s/game is the thread CPU time of both players per game.  Rows go from weak to strong: "
             "where the rate stops moving, the balance estimate no longer depends on skill.\n\n",
          K->seed, K->var);
  for (int s = 0; s < K->nsc; s++) {
    fprintf(f, "## %s game\n\n| player (both sides) | games | French - Allied - draws | French win rate | CPU s/game |\n|---|---:|---|---|---:|\n", K->scen[s]);
    for (int i = 0; i < K->nl; i++) {
      const Cell *c = &K->cells[s][i];
      Interval wi = wilson_d(c->fr + 0.5 * c->dr, c->games, Z95);
      fprintf(f, "| %s | %ld | %ld - %ld - %ld | %.1f%% [%.1f, %.1f] | %.3f |\n", c->spec, c->games, c->fr, c->al, c->dr,
              100 * wi.p, 100 * wi.lo, 100 * wi.hi, c->games ? c->cpu / c->games : 0);
    }
    fprintf(f, "\n");
  }
  fprintf(f, "![French win rate by skill](skill.svg)\n");
}

int cmd_skill(int argc, char **argv) {
  static Skill K; /* the cells are large */
  memset(&K, 0, sizeof K);
  int rc = skill_options(&K, argc, argv);
  if (rc >= 0) return rc;
  const char *out = K.out;
  if (mkdir(out, 0777) && errno != EEXIST) { fprintf(stderr, "skill: cannot create %s\n", out); return 2; }
  char path[1024];
  snprintf(path, sizeof path, "%s/report.md", out);
  FILE *f = fopen(path, "w");
  if (!f) { fprintf(stderr, "skill: cannot write %s\n", path); return 2; }
  for (int s = 0; s < K.nsc; s++) {
    Scen *sc = cli_scen(K.scen[s], K.var);
    if (!sc) return 2;
    for (int i = 0; i < K.nl; i++) skill_play_level(&K, sc, s, i);
    free(sc);
  }
  skill_report(&K, f, argc, argv);
  if (fclose(f)) { fprintf(stderr, "skill: cannot write %s\n", path); return 1; }
  snprintf(path, sizeof path, "%s/skill.svg", out);
  f = fopen(path, "w");
  if (!f) { fprintf(stderr, "skill: cannot write %s\n", path); return 1; }
  svg(f, K.scen, K.nsc, K.cells, K.nl);
  fclose(f);
  printf("skill: report in %s/report.md, chart in %s/skill.svg\n", out, out);
  return 0;
}
