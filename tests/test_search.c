/* The light policy and the flat Monte Carlo baseline: legality, honesty, sequential halving. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/ai_bench.h"
#include "../ai/player.h"
#include "helpers.h"

/* the light rule plays whole games with legal actions only, and they end: game g, light plays
 * side g & 1 and light:eps=0.1 the other */
static int pick_light(int g, const State *s) { return s->turn.decider == (g & 1) ? 0 : 1; }
static void light_games(const char *scen, int games) {
  static const char *const specs[] = {"light", "light:eps=0.1"};
  static const uint64_t pseed[] = {10, 20};
  th_player_games(scen, games, specs, 2, pseed, 700, 0, pick_light);
}
Test(search, light_always_legal_short) { light_games("short", 10); }
Test(search, light_always_legal_long) { light_games("long", 4); }

Test(search, baseline_honest) {
  cr_assert_eq(th_honesty("short", "baseline:n=24,cut=2", 21, 15), 0);
  cr_assert_eq(th_honesty("long", "baseline:n=24,cut=2", 22, 10), 0);
}

/* sequential halving: the chosen action is the candidate with the most playouts, every
 * candidate got some, the total stays within the budget */
Test(search, baseline_sequential_halving) {
  Scen *sc = th_load("short", "base");
  char err[200];
  Player *p = player_new(sc, "baseline:n=120,k=6,cut=2", 3, err, sizeof err);
  Player *h = player_new(sc, "heuristic:eps=0.3", 4, err, sizeof err);
  cr_assert(p && h, "%s", err);
  State s;
  gs_init(sc, &s, 99, 1);
  int checked = 0;
  for (int step = 0; step < 400 && !gs_over(&s) && checked < 6; step++) {
    ActList L;
    gs_legal(sc, &s, &L);
    if (L.n >= 6) {
      Candidate c[8];
      int n = player_analyze(p, &s, c, 8);
      cr_assert_eq(n, 6);
      int tot = 0;
      for (int i = 0; i < n; i++) {
        cr_assert(gs_is_legal(sc, &s, c[i].a));
        cr_assert_gt(c[i].visits, 0);
        cr_assert_geq(c[0].visits, c[i].visits);
        tot += c[i].visits;
      }
      cr_assert_leq(tot, 120);
      Action a = player_act(p, &s);
      cr_assert_eq(memcmp(&a, &c[0].a, sizeof a), 0, "the survivor is played");
      checked++;
    }
    gs_apply(sc, &s, player_act(h, &s));
  }
  cr_assert_gt(checked, 0);
  player_free(p);
  player_free(h);
  free(sc);
}

Test(search, baseline_spec_errors) {
  Scen *sc = th_load("short", "base");
  char err[200];
  const char *bad[] = {"baseline:n=0", "baseline:k=0", "baseline:foo=1", "baseline:rollout=x",
                       "baseline:800", "light:x"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    Player *p = player_new(sc, bad[i], 1, err, sizeof err);
    cr_assert_null(p, "%s accepted", bad[i]);
    cr_assert_gt(strlen(err), 0);
  }
  Player *p = player_new(sc, "baseline:n=50,k=3,eps=0.2,cut=4,rollout=heuristic", 1, err, sizeof err);
  cr_assert(p, "%s", err);
  player_free(p);
  free(sc);
}

/* ./waterloo train writes weights with the data fingerprint; they load for the same data, are
 * refused for other data (a variant), and beat the hand-written evaluation's log-loss on the
 * held-out games */
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../ai/ai_internal.h"
Test(search, train_fingerprint_and_calibration) {
  char dir[] = "/tmp/wl-train-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "cp -r scenarios/. %s/ && rm -f %s/eval-*.ini && WATERLOO_DATA=%s ./waterloo train "
           "--scenario short --games 200 --seed 3 > %s/out.txt 2>&1", dir, dir, dir, dir);
  int st = system(cmd);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "train failed");
  char path[600];
  snprintf(path, sizeof path, "%s/out.txt", dir);
  FILE *f = fopen(path, "r");
  cr_assert_not_null(f);
  static char out[1 << 16];
  size_t n = fread(out, 1, sizeof out - 1, f);
  out[n] = 0;
  fclose(f);
  double fit, hand, base;
  char *p = strstr(out, "held-out positions: fit ");
  cr_assert_not_null(p, "%s", out);
  cr_assert_eq(sscanf(p, "held-out positions: fit %lf, hand-written evaluation %lf, base rate %lf", &fit, &hand, &base), 3);
  cr_assert_lt(fit, hand);
  cr_assert_lt(fit, base + 0.02);
  setenv("WATERLOO_DATA", dir, 1);
  Scen *sc = malloc(sizeof *sc);
  char err[600];
  cr_assert_eq(scen_load(sc, scen_default_dir(), "short", "base", err, sizeof err), 0, "%s", err);
  double w[FIT_NF];
  cr_assert_eq(fit_load(sc, 1, w, err, sizeof err), 0, "%s", err);
  /* a variant has its own weights: none fitted yet, then a stale copy of the base game's */
  cr_assert_eq(scen_load(sc, scen_default_dir(), "short", "three-player", err, sizeof err), 0, "%s", err);
  cr_assert_eq(fit_load(sc, 1, w, err, sizeof err), -1);
  cr_assert_not_null(strstr(err, "eval-short+three-player.ini: cannot open (fit it with ./waterloo train --scenario short --variant three-player)"), "%s", err);
  snprintf(cmd, sizeof cmd, "cp %s/eval-short.ini %s/eval-short+three-player.ini", dir, dir);
  cr_assert_eq(system(cmd), 0);
  cr_assert_eq(fit_load(sc, 1, w, err, sizeof err), -1);
  cr_assert_not_null(strstr(err, "refit"), "%s", err);
  cr_assert_eq(fit_path(sc, path, sizeof path), 0);
  cr_assert(strstr(path, "/eval-short+three-player.ini"), "%s", path);
  cr_assert_eq(scen_load(sc, scen_default_dir(), "long", "base", err, sizeof err), 0, "%s", err);
  cr_assert_eq(fit_load(sc, 1, w, err, sizeof err), -1, "no long-game file was written");
  unsetenv("WATERLOO_DATA");
  free(sc);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  cr_assert_eq(system(cmd), 0);
}

/* ./waterloo skill: a table row per level and scenario, the same numbers whatever the threads,
 * a chart; bad levels refused with one line */
Test(search, skill_report) {
  char dir[] = "/tmp/wl-skill-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char cmd[1024];
  static char a[1 << 16];
  snprintf(cmd, sizeof cmd, "./waterloo skill --scenario short,long --levels 'random;heuristic@12' --games 10 "
           "--threads 1 --out %s/a > /dev/null 2>&1 && ./waterloo skill --scenario short,long --levels "
           "'random;heuristic@12' --games 10 --threads 2 --out %s/b > /dev/null 2>&1", dir, dir);
  cr_assert_eq(system(cmd), 0);
  char path[600];
  snprintf(path, sizeof path, "%s/a/report.md", dir);
  char *r = th_slurp(path, NULL);
  cr_assert_not_null(r);
  snprintf(a, sizeof a, "%s", r);
  free(r);
  cr_assert_not_null(strstr(a, "| random | 10 | "), "%s", a);
  cr_assert_not_null(strstr(a, "| heuristic | 12 | "), "%s", a);
  cr_assert_not_null(strstr(a, "## long game"));
  snprintf(path, sizeof path, "%s/b/report.md", dir);
  r = th_slurp(path, NULL);
  cr_assert_not_null(r);
  /* same rows (the command line differs in --threads and --out, CPU time differs) */
  char *p = strstr(a, "| random | 10 | "), *q = strstr(r, "| random | 10 | ");
  cr_assert(p && q);
  cr_assert_eq(strncmp(p, q, 40), 0);
  free(r);
  snprintf(path, sizeof path, "%s/a/skill.svg", dir);
  r = th_slurp(path, NULL);
  cr_assert(r && strstr(r, "<svg") && strstr(r, "</svg>"));
  free(r);
  snprintf(cmd, sizeof cmd, "./waterloo skill --levels 'random;bogus' --out %s/c > /dev/null 2>&1", dir);
  int st = system(cmd);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  cr_assert_eq(system(cmd), 0);
}

/* the rows of a skill report without the CPU column (the only part that may differ between a
 * resumed and a fresh run) */
static void skill_rows(const char *path, char *out, size_t cap) {
  char *r = th_slurp(path, NULL);
  cr_assert_not_null(r, "%s", path);
  size_t n = 0;
  out[0] = 0;
  for (char *l = strtok(r, "\n"); l; l = strtok(NULL, "\n")) {
    if (l[0] != '|' && strncmp(l, "Reading", 7)) continue;
    char *cut = l[0] == '|' ? strrchr(l, '|') : NULL;
    if (cut && cut != l) {
      *cut = 0;
      cut = strrchr(l, '|');
      if (cut) cut[1] = 0;
    }
    n += (size_t)snprintf(out + n, cap - n, "%s\n", l);
    cr_assert(n < cap);
  }
  free(r);
}

/* ./waterloo skill keeps every finished game in DIR/skill.journal: without --resume an existing
 * journal stops the run and the report is left as it was; a torn last line (a killed run) and a
 * garbage line are skipped; --resume with more games plays only the new ones and gives the rows
 * of a fresh run of the larger ladder */
Test(search, skill_resume_grows_a_level_like_a_fresh_run) {
  char dir[] = "/tmp/wl-skillr-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char cmd[2048], path[700], jp[700];
  snprintf(cmd, sizeof cmd, "./waterloo skill --scenario short,long --levels 'random;heuristic@8' --games 6 "
           "--threads 2 --out %s/a > /dev/null 2>&1", dir);
  cr_assert_eq(system(cmd), 0);
  snprintf(path, sizeof path, "%s/a/report.md", dir);
  size_t n0 = 0;
  char *before = th_slurp(path, &n0);
  cr_assert_not_null(before);
  int st = system(cmd);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2, "an existing journal without --resume stops the run");
  size_t n1 = 0;
  char *after = th_slurp(path, &n1);
  cr_assert(after && n0 == n1 && !memcmp(before, after, n0), "the report is untouched");
  free(before);
  free(after);
  /* a killed run: the last line torn; and a line that is not a game */
  snprintf(jp, sizeof jp, "%s/a/skill.journal", dir);
  struct stat sb;
  cr_assert_eq(stat(jp, &sb), 0);
  cr_assert_eq(truncate(jp, sb.st_size - 5), 0);
  FILE *f = fopen(jp, "a");
  cr_assert_not_null(f);
  fprintf(f, "\nG\tshort\tbase\tnot a game\n");
  fclose(f);
  snprintf(cmd, sizeof cmd, "./waterloo skill --scenario short,long --levels 'random;heuristic@14' --games 6 "
           "--threads 2 --out %s/a --resume 2> %s/err > /dev/null && ./waterloo skill --scenario short,long "
           "--levels 'random;heuristic@14' --games 6 --threads 1 --out %s/b > /dev/null 2>&1", dir, dir, dir);
  cr_assert_eq(system(cmd), 0);
  snprintf(path, sizeof path, "%s/err", dir);
  char *err = th_slurp(path, NULL);
  cr_assert(err && strstr(err, "short heuristic: 14 games (8 from the journal)"), "%s", err);
  cr_assert(strstr(err, "long heuristic: 14 games (7 from the journal)"), "the torn game is replayed: %s", err);
  cr_assert(strstr(err, "unreadable line"), "%s", err);
  free(err);
  static char ra[8192], rb[8192];
  snprintf(path, sizeof path, "%s/a/report.md", dir);
  skill_rows(path, ra, sizeof ra);
  snprintf(path, sizeof path, "%s/b/report.md", dir);
  skill_rows(path, rb, sizeof rb);
  cr_assert(strstr(ra, "| heuristic | 14 | "), "%s", ra);
  cr_assert_str_eq(ra, rb);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  cr_assert_eq(system(cmd), 0);
}

/* every shipped variant has its fitted evaluation, and every file loads (inih reads lines of at
 * most 200 bytes: a longer comment once made eval-*+historical-garrisons.ini unreadable, and the
 * search fell back to the hand-written evaluation with one warning) */
Test(fit, every_shipped_variant_has_weights_that_load) {
  static const char *vars[] = {"base", "charge-all-cards", "historical-garrisons", "no-bidding",
                               "prussians-early", "prussians-late", "strong-hougoumont",
                               "three-player"};
  Scen *sc = malloc(sizeof *sc);
  char err[600];
  double w[FIT_NF];
  for (int s = 0; s < 2; s++)
    for (size_t v = 0; v < sizeof vars / sizeof vars[0]; v++) {
      const char *scen = s ? "long" : "short";
      cr_assert_eq(scen_load(sc, scen_default_dir(), scen, vars[v], err, sizeof err), 0, "%s", err);
      cr_assert_eq(fit_load(sc, 1, w, err, sizeof err), 0, "%s %s: %s", scen, vars[v], err);
      char path[600];
      cr_assert_eq(fit_path(sc, path, sizeof path), 0);
      FILE *f = fopen(path, "r");
      cr_assert_not_null(f, "%s", path);
      char line[1024];
      int no = 0;
      while (fgets(line, sizeof line, f)) {
        no++;
        cr_assert_lt(strlen(line), 200, "%s:%d is longer than inih reads", path, no);
      }
      fclose(f);
    }
  free(sc);
}
