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
  signed char *res;          /* result of game g (1 French, 2 Allied, 3 draw), 0: not played */
  double *gcpu;              /* its thread CPU seconds */
  long reused;               /* games taken from the journal */
} Cell;

static void svg(FILE *f, const char scen[2][16], int nsc, const Cell cells[2][MAX_LEVELS], int nl) {
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
      const Cell *c = &cells[s][i];
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
  int resume, overwrite;
  char jpath[1100];          /* DIR/skill.journal: one line per finished game */
  FILE *jf;
  long jbad;                 /* journal lines that could not be read */
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
  int rc = cli_args(argc, argv, "skill", "--scenario --levels --games --seed --threads --variant --out --resume! --overwrite!",
                    "usage: waterloo skill [--scenario short,long] [--levels 'A;B;C'] [--games N] [--seed S]\n"
                    "                      [--threads T] [--variant V] [--out DIR] [--resume | --overwrite]\n"
                    "Balance across skill: for each scenario and each player of the ladder (weak to strong,\n"
                    "';'-separated specs, SPEC@N for N games of that level), N games (default 200) with that\n"
                    "player on both sides, game i from gs_init(seed, i); the French win rate (draws half)\n"
                    "with its 95% Wilson interval and the CPU seconds per game.  Writes DIR/report.md (the\n"
                    "table, the command, and whether the two strongest rows still differ) and DIR/skill.svg\n"
                    "(the chart).  Default ladder: random;light;heuristic;mcts:sim;mcts:sim*4.\n"
                    "Results do not depend on --threads.\n"
                    "Every finished game is appended to DIR/skill.journal; --resume reuses the games in it\n"
                    "(same scenario, variant, seed, player and engine and fitted evaluation) after a killed\n"
                    "run, and grows a level: asked for more games, it plays only the new ones.  Without\n"
                    "--resume an existing journal is never touched: the run stops (--overwrite discards\n"
                    "it).  The report is written only at the end, whole; a killed run leaves the old one.\n");
  if (rc >= 0) return rc;
  const char *scl = opt_get(argc, argv, "--scenario", "short,long");
  const char *lv = opt_get(argc, argv, "--levels", "random;light;heuristic;mcts:sim;mcts:sim*4");
  K->var = opt_get(argc, argv, "--variant", "base");
  K->out = opt_get(argc, argv, "--out", NULL);
  K->resume = opt_has(argc, argv, "--resume");
  K->overwrite = opt_has(argc, argv, "--overwrite");
  if (!K->out) { fprintf(stderr, "skill: --out DIR is required\n"); return 2; }
  if (K->resume && K->overwrite) { fprintf(stderr, "skill: --resume and --overwrite exclude each other\n"); return 2; }
  if (opt_u64("skill", "--games", opt_get(argc, argv, "--games", "200"), &K->games) ||
      opt_u64("skill", "--seed", opt_get(argc, argv, "--seed", "1815"), &K->seed) ||
      opt_u64("skill", "--threads", opt_get(argc, argv, "--threads", "0"), &K->threads))
    return 2;
  if (skill_scenarios(K, scl) || skill_levels(K, lv)) return 2;
  for (int s = 0; s < 2; s++)
    for (int i = 0; i < K->nl; i++) {
      Cell *c = &K->cells[s][i];
      c->res = calloc((size_t)K->want[i], 1);
      c->gcpu = calloc((size_t)K->want[i], sizeof(double));
      if (!c->res || !c->gcpu) { fprintf(stderr, "skill: out of memory\n"); return 2; }
    }
  return -1;
}

/* the journal's games of scenario s (fingerprint fp) into the cells: a line is
 * G scen variant seed fp spec index result cpu ok (tab-separated; the closing "ok" tells a
 * whole line from a torn one); a torn or unreadable line is skipped */
static void skill_journal_read(Skill *K, int s, uint32_t fp) {
  FILE *f = fopen(K->jpath, "r");
  if (!f) return;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    size_t len = strlen(line);
    if (!len || line[len - 1] != '\n') { K->jbad++; continue; }
    char sc[16], var[64], spec[128];
    uint64_t seed;
    unsigned jfp;
    long g;
    int r, n = 0;
    double cpu;
    if (sscanf(line, "G\t%15[^\t]\t%63[^\t]\t%" SCNu64 "\t%x\t%127[^\t]\t%ld\t%d\t%lf\tok\n%n", sc, var, &seed, &jfp,
               spec, &g, &r, &cpu, &n) != 8 || (size_t)n != len || r < 1 || r > 3 || g < 0) {
      if (strspn(line, " \t\n") != len) K->jbad++;
      continue;
    }
    if (strcmp(sc, K->scen[s]) || strcmp(var, K->var) || seed != K->seed || jfp != fp) continue;
    for (int i = 0; i < K->nl; i++) {
      Cell *c = &K->cells[s][i];
      if (strcmp(spec, c->spec) || g >= K->want[i] || c->res[g]) continue;
      c->res[g] = (signed char)r;
      c->gcpu[g] = cpu;
      c->reused++;
    }
  }
  fclose(f);
}

/* the games of level i in scenario s not yet in the journal, over the threads; each finished
 * game is appended to the journal at once */
static int skill_play_level(Skill *K, const Scen *sc, int s, int i, uint32_t fp) {
  Cell *c = &K->cells[s][i];
  long n = K->want[i];
  uint64_t seed = K->seed;
  int T = K->threads ? (int)K->threads : omp_get_max_threads(), werr = 0;
#pragma omp parallel for num_threads(T) schedule(dynamic, 1)
  for (long g = 0; g < n; g++) {
    if (c->res[g] || __atomic_load_n(&werr, __ATOMIC_RELAXED)) continue; /* a failed write stops the rest */
    double t0 = clock_thread_cpu();
    int r = ai_play_game(sc, c->spec, c->spec, seed, (uint64_t)g, NULL);
    double cpu = clock_thread_cpu() - t0;
    if (r < 1 || r > 3) continue; /* counted as bad below, never journalled */
#pragma omp critical(skill_journal)
    {
      c->res[g] = (signed char)r;
      c->gcpu[g] = cpu;
      if (fprintf(K->jf, "G\t%s\t%s\t%" PRIu64 "\t%08x\t%s\t%ld\t%d\t%.4f\tok\n", K->scen[s], K->var, seed, fp, c->spec, g,
                  r, cpu) < 0 || fflush(K->jf))
        __atomic_store_n(&werr, 1, __ATOMIC_RELAXED);
    }
  }
  if (werr) {
    fprintf(stderr, "skill: cannot append to %s: %s; the games so far are kept (rerun with --resume)\n", K->jpath,
            strerror(errno));
    return 1;
  }
  for (long g = 0; g < n; g++) {
    c->fr += c->res[g] == 1;
    c->al += c->res[g] == 2;
    c->dr += c->res[g] == 3;
    c->bad += c->res[g] == 0;
    c->cpu += c->gcpu[g];
  }
  c->games = c->fr + c->al + c->dr;
  Interval wi = wilson_d(c->fr + 0.5 * c->dr, c->games, Z95);
  fprintf(stderr, "skill: %s %s: %ld games (%ld from the journal), French %.1f%% [%.1f, %.1f], %.3f CPU s/game\n",
          K->scen[s], c->spec, c->games, c->reused, 100 * wi.p, 100 * wi.lo, 100 * wi.hi, c->games ? c->cpu / c->games : 0);
  return 0;
}

/* the last rows' reading: do the two strongest players still disagree on the balance?
 * Newcombe's interval for a difference of two independent proportions (from Wilson's) */
static void skill_reading(FILE *f, const Cell *lo, const Cell *hi) {
  if (!lo->games || !hi->games) return;
  Interval a = wilson_d(lo->fr + 0.5 * lo->dr, lo->games, Z95), b = wilson_d(hi->fr + 0.5 * hi->dr, hi->games, Z95);
  double d = b.p - a.p;
  double dl = d - sqrt((b.p - b.lo) * (b.p - b.lo) + (a.hi - a.p) * (a.hi - a.p));
  double dh = d + sqrt((b.hi - b.p) * (b.hi - b.p) + (a.p - a.lo) * (a.p - a.lo));
  fprintf(f, "Reading: from %s to %s the French win rate moves %+.1f points, 95%% [%+.1f, %+.1f] (Newcombe). %s\n\n",
          lo->spec, hi->spec, 100 * d, 100 * dl, 100 * dh,
          dl > 0 || dh < 0 ? "The estimate still moves with skill: stronger players are needed before it is the game's balance."
                           : "No move is detected at these game counts; the interval says how large a move could still hide.");
}

/* report.md: the command, what a row is, one table per scenario */
static void skill_report(const Skill *K, FILE *f, int argc, char **argv) {
  fprintf(f, "# Balance across skill\n\nReproduce with:\n\n```\n./waterloo skill");
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--resume") || !strcmp(argv[i], "--overwrite")) continue;
    const char *q = strchr(argv[i], ';') || strchr(argv[i], '*') ? "'" : "";
    fprintf(f, " %s%s%s", q, argv[i], q);
  }
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
    if (K->nl >= 2) skill_reading(f, &K->cells[s][K->nl - 2], &K->cells[s][K->nl - 1]);
  }
  fprintf(f, "![French win rate by skill](skill.svg)\n");
}

/* the output folder and the journal: everything that can fail is checked before the first
 * game; an existing journal is only reused (--resume) or discarded (--overwrite) on request */
static int skill_open(Skill *K) {
  char path[1100];
  if (mkdir_p(K->out)) { fprintf(stderr, "skill: cannot create %s: %s\n", K->out, strerror(errno)); return 2; }
  snprintf(path, sizeof path, "%s/report.md", K->out);
  if (can_create(path)) { fprintf(stderr, "skill: cannot write in %s: %s\n", K->out, strerror(errno)); return 2; }
  snprintf(K->jpath, sizeof K->jpath, "%s/skill.journal", K->out);
  struct stat st;
  off_t size = stat(K->jpath, &st) == 0 ? st.st_size : 0;
  if (!K->resume && !K->overwrite && size > 0) {
    fprintf(stderr, "skill: %s holds the games of an earlier run: add --resume to reuse them, or --overwrite to "
                    "discard them\n", K->jpath);
    return 2;
  }
  K->jf = fopen(K->jpath, K->resume ? "a" : "w");
  /* a torn last line of a killed run is ended, so the next game starts a line of its own */
  if (!K->jf || (K->resume && size > 0 && (fprintf(K->jf, "\n") < 0 || fflush(K->jf)))) {
    fprintf(stderr, "skill: cannot write %s: %s\n", K->jpath, strerror(errno));
    return 2;
  }
  return -1;
}

/* a whole file from what fill writes into a memory stream, written atomically */
static int skill_write(const char *path, const Skill *K, int argc, char **argv, int chart) {
  char *data = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&data, &len);
  if (!m) return 1;
  if (chart) svg(m, K->scen, K->nsc, K->cells, K->nl);
  else skill_report(K, m, argc, argv);
  fclose(m);
  int rc = write_atomic(path, data, len);
  free(data);
  if (rc) fprintf(stderr, "skill: cannot write %s\n", path);
  return rc ? 1 : 0;
}

static void skill_free(Skill *K) {
  for (int s = 0; s < 2; s++)
    for (int i = 0; i < K->nl; i++) {
      free(K->cells[s][i].res);
      free(K->cells[s][i].gcpu);
    }
  if (K->jf) fclose(K->jf);
}

int cmd_skill(int argc, char **argv) {
  static Skill K; /* the cells are large */
  memset(&K, 0, sizeof K);
  int rc = skill_options(&K, argc, argv);
  if (rc < 0) rc = skill_open(&K);
  for (int s = 0; rc < 0 && s < K.nsc; s++) {
    Scen *sc = sim_scen_load("skill", K.scen[s], K.var);
    if (!sc) { rc = 2; break; }
    uint32_t fp = play_fingerprint(sc);
    if (K.resume) skill_journal_read(&K, s, fp);
    for (int i = 0; i < K.nl && rc < 0; i++)
      if (skill_play_level(&K, sc, s, i, fp)) rc = 1;
    free(sc);
  }
  if (K.jbad) fprintf(stderr, "skill: %ld unreadable line(s) of %s skipped\n", K.jbad, K.jpath);
  if (rc < 0) {
    char path[1100];
    snprintf(path, sizeof path, "%s/report.md", K.out);
    rc = skill_write(path, &K, argc, argv, 0);
    snprintf(path, sizeof path, "%s/skill.svg", K.out);
    if (!rc) rc = skill_write(path, &K, argc, argv, 1);
    if (!rc) printf("skill: report in %s/report.md, chart in %s/skill.svg\n", K.out, K.out);
  }
  skill_free(&K);
  return rc;
}
