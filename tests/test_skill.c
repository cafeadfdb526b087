/* ./waterloo skill: a sim run with one pair per level; its games are sim's games on the same seed
 * and `replay` reproduces each; its table, resume and growth. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

/* the game rows of a games.csv (the header line left out), each ending in '\n' */
static char *csv_rows(const char *path) {
  char *r = th_slurp(path, NULL);
  cr_assert_not_null(r, "%s", path);
  char *nl = strchr(r, '\n');
  cr_assert_not_null(nl);
  memmove(r, nl + 1, strlen(nl + 1) + 1);
  return r;
}

/* every game of a skill run is the sim game of the same pair, seed and index (the same games.csv
 * row, every game fact), and `replay --csv` reproduces each of them */
Test(skill, a_skill_game_is_the_sim_game_of_the_same_seed_and_replay_reproduces_it) {
  char dir[] = "/tmp/wl-skills-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char cmd[2048], path[700];
  snprintf(cmd, sizeof cmd, "./waterloo skill --scenario short,long --levels 'heuristic@3;random@2' --games 3 "
           "--seed 7 --threads 2 --out %s/k > /dev/null 2>&1 && ./waterloo sim --scenario short,long "
           "--variant base --players heuristic --players random --games 3 --seed 7 --threads 1 --quiet "
           "--out %s/s > /dev/null 2>&1", dir, dir);
  cr_assert_eq(system(cmd), 0);
  snprintf(path, sizeof path, "%s/k/games.csv", dir);
  char *k = csv_rows(path);
  snprintf(path, sizeof path, "%s/s/games.csv", dir);
  char *s = csv_rows(path);
  int rows = 0;
  for (char *l = k, *e; *l; l = e + 1, rows++) {
    e = strchr(l, '\n');
    cr_assert_not_null(e);
    *e = 0;
    char needle[4096];
    snprintf(needle, sizeof needle, "%s\n", l);
    cr_assert_not_null(strstr(s, needle), "skill's game is not sim's: %s", l);
    cr_assert(strstr(l, ",heuristic,heuristic,") || strstr(l, ",random,random,"), "%s", l);
  }
  cr_assert_eq(rows, 2 * (3 + 2), "two scenarios, 3 heuristic and 2 random games each");
  for (int r = 1; r <= rows; r++) {
    snprintf(cmd, sizeof cmd, "./waterloo replay --csv %s/k/games.csv --row %d --quiet > %s/rp 2>&1", dir, r,
             dir);
    cr_assert_eq(system(cmd), 0, "replay of row %d", r);
    snprintf(path, sizeof path, "%s/rp", dir);
    char *out = th_slurp(path, NULL);
    cr_assert(out && strstr(out, "# matches CSV row"), "row %d: %s", r, out ? out : "");
    free(out);
  }
  free(k);
  free(s);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  cr_assert_eq(system(cmd), 0);
}

/* a table row per level and scenario, the same numbers whatever the threads, a chart; bad levels
 * refused with one line */
Test(skill, report) {
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
  snprintf(cmd, sizeof cmd, "./waterloo skill --levels 'random;random' --out %s/c > /dev/null 2>&1", dir);
  st = system(cmd);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2, "a level given twice is refused");
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

/* the games a resumed run took from the journal, summed over its "N games (K from the journal)"
 * lines */
static long from_journal(const char *err) {
  long sum = 0;
  for (const char *p = strstr(err, " from the journal)"); p; p = strstr(p + 1, " from the journal)")) {
    const char *q = p;
    while (q > err && q[-1] != '(') q--;
    sum += strtol(q, NULL, 10);
  }
  return sum;
}

/* skill keeps every finished game in sim's journal, DIR/journal.csv: without --resume an existing
 * journal stops the run and the report is left as it was; a torn last line (a killed run) and a
 * garbage line are skipped; --resume with more games plays only the new ones and gives the rows
 * of a fresh run of the larger ladder */
Test(skill, resume_grows_a_level_like_a_fresh_run) {
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
  snprintf(jp, sizeof jp, "%s/a/journal.csv", dir);
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
  cr_assert(err && strstr(err, "short heuristic: 14 games (") && strstr(err, "long heuristic: 14 games ("), "%s",
            err);
  cr_assert_eq(from_journal(err), 2 * (6 + 8) - 1, "every journalled game but the torn one is reused: %s", err);
  cr_assert(strstr(err, "ignored 2 torn or malformed line(s)"), "%s", err);
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
