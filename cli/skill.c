/* ./waterloo skill: the options (the run is sim/skill.c: skill_main, a sim run with one player
 * pair per level). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../ai/player.h"

static const char SKILL_USAGE[] =
    "usage: waterloo skill [--scenario short,long] [--levels 'A;B;C'] [--games N] [--seed S]\n"
    "                      [--threads T] [--variant V] [--out DIR] [--resume | --overwrite]\n"
    "Balance across skill: for each scenario and each player of the ladder (weak to strong,\n"
    "';'-separated specs, SPEC@N for N games of that level), N games (default 200) with that\n"
    "player on both sides: sim's games of that pair on that seed (game i is\n"
    "'waterloo replay --players SPEC --seed S --index i'); the French win rate (draws half)\n"
    "with its 95% Wilson interval and the CPU seconds per game.  Writes DIR/report.md (the\n"
    "table, the command, and whether the two strongest rows still differ), DIR/skill.svg\n"
    "(the chart) and DIR/games.csv (every game, as sim's).  Default ladder:\n"
    "random;light;heuristic;mcts:sim;mcts:sim*4.  Results do not depend on --threads.\n"
    "Every finished game is appended to sim's journal, DIR/journal.csv; --resume reuses the\n"
    "games in it (same scenarios, variant, levels, seed, and engine and fitted evaluation)\n"
    "after a killed run, and grows a level: asked for more games, it plays only the new ones.\n"
    "Without --resume an existing journal is never touched: the run stops (--overwrite\n"
    "discards it).  The report is written only at the end, whole; a killed run leaves the old one.\n";

/* --scenario short, long or short,long */
static int skill_scenarios(SkillOpts *K, const char *scl) {
  char buf[64];
  snprintf(buf, sizeof buf, "%s", scl);
  char *save = NULL;
  for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (K->nsc == 2 || (strcmp(t, "short") && strcmp(t, "long")) ||
        (K->nsc == 1 && !strcmp(K->scen[0], t))) {
      fprintf(stderr, "skill: --scenario takes short, long or short,long (not '%s')\n", t);
      return 2;
    }
    snprintf(K->scen[K->nsc++], sizeof K->scen[0], "%s", t);
  }
  if (!K->nsc) { fprintf(stderr, "skill: --scenario names no scenario\n"); return 2; }
  return 0;
}

/* --levels 'A;B@N;C': the ladder, each spec checked, each level once */
static int skill_levels(SkillOpts *K, const char *lv, long games) {
  char buf[2048];
  snprintf(buf, sizeof buf, "%s", lv);
  char *save = NULL;
  for (char *t = strtok_r(buf, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
    int nl = K->nl;
    if (nl == SKILL_MAX_LEVELS) { fprintf(stderr, "skill: at most %d levels\n", SKILL_MAX_LEVELS); return 2; }
    char *at = strrchr(t, '@');
    K->games[nl] = games;
    if (at) {
      *at = 0;
      if (opt_long("skill", "--levels @N", at + 1, 1, CLI_MAX_GAMES, &K->games[nl])) return 2;
    }
    char err[300];
    if (player_spec_check(t, err, sizeof err)) { fprintf(stderr, "skill: %s\n", err); return 2; }
    if (strlen(t) >= sizeof K->spec[0]) { fprintf(stderr, "skill: level '%s' is too long\n", t); return 2; }
    for (int i = 0; i < nl; i++)
      if (!strcmp(K->spec[i], t)) { fprintf(stderr, "skill: level '%s' given twice\n", t); return 2; }
    snprintf(K->spec[nl], sizeof K->spec[nl], "%s", t);
    K->nl++;
  }
  if (!K->nl) { fprintf(stderr, "skill: no levels\n"); return 2; }
  return 0;
}

/* the command line for the report, without --resume and --overwrite (a new string) */
static char *skill_command(int argc, char **argv) {
  size_t cap = 32;
  for (int i = 1; i < argc; i++) cap += strlen(argv[i]) + 3;
  char *s = malloc(cap);
  if (!s) return NULL;
  size_t n = (size_t)snprintf(s, cap, "./waterloo skill");
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--resume") || !strcmp(argv[i], "--overwrite")) continue;
    const char *q = strchr(argv[i], ';') || strchr(argv[i], '*') ? "'" : "";
    n += (size_t)snprintf(s + n, cap - n, " %s%s%s", q, argv[i], q);
  }
  return s;
}

/* the options into *K: -1 to run, else the exit code (after --help or bad input) */
static int skill_options(SkillOpts *K, int argc, char **argv) {
  int rc = cli_args(argc, argv, "skill", "--scenario --levels --games --seed --threads --variant --out --resume! --overwrite!",
                    SKILL_USAGE);
  if (rc >= 0) return rc;
  const char *scl = opt_get(argc, argv, "--scenario", "short,long");
  const char *lv = opt_get(argc, argv, "--levels", "random;light;heuristic;mcts:sim;mcts:sim*4");
  K->var = opt_get(argc, argv, "--variant", "base");
  K->out = opt_get(argc, argv, "--out", NULL);
  K->resume = opt_has(argc, argv, "--resume");
  K->overwrite = opt_has(argc, argv, "--overwrite");
  if (!K->out) { fprintf(stderr, "skill: --out DIR is required\n"); return 2; }
  if (K->resume && K->overwrite) { fprintf(stderr, "skill: --resume and --overwrite exclude each other\n"); return 2; }
  long games;
  const char *th = opt_get(argc, argv, "--threads", NULL); /* left out: every core (0) */
  K->threads = 0;
  if (opt_long("skill", "--games", opt_get(argc, argv, "--games", "200"), 1, CLI_MAX_GAMES, &games) ||
      opt_u64("skill", "--seed", opt_get(argc, argv, "--seed", "1815"), &K->seed) ||
      (th && opt_int("skill", "--threads", th, 1, CLI_MAX_THREADS, &K->threads)))
    return 2;
  if (strlen(K->var) >= sizeof ((SimCfg *)0)->var[0]) { fprintf(stderr, "skill: --variant is too long\n"); return 2; }
  if (skill_scenarios(K, scl) || skill_levels(K, lv, games)) return 2;
  return -1;
}

int cmd_skill(int argc, char **argv) {
  SkillOpts *K = calloc(1, sizeof *K);
  if (!K) { fprintf(stderr, "skill: out of memory\n"); return 2; }
  int rc = skill_options(K, argc, argv);
  char *command = rc < 0 ? skill_command(argc, argv) : NULL;
  if (rc < 0 && !command) { fprintf(stderr, "skill: out of memory\n"); rc = 2; }
  K->command = command;
  if (rc < 0) rc = skill_main(K);
  free(command);
  free(K);
  return rc;
}
