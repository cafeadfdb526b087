/* ./waterloo replay: replays one game of a sim run from its seed and index (or CSV row). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "../engine/num.h"

static void replay_usage(FILE *f) {
  fprintf(f,
    "usage: waterloo replay --scenario S --variant V --players A,B --seed S --index I\n"
    "       waterloo replay --csv FILE --row K\n"
    "Replays one game of a sim run and prints its log: one line per action with turn and\n"
    "round headers, then the result.  --row K is the K-th game row of the CSV (1 = the first\n"
    "row after the header).  With --csv the result is checked against the row.\n"
    "  --save FILE   also save the game as JSON (scenario, seed, actions, final position)\n"
    "  --quiet       print only the result line\n");
}

static int read_csv_row(const char *path, long row, char *scen, char *var, char *pf, char *pa,
                        size_t plen, uint64_t *seed, GameFacts *f) {
  FILE *fp = fopen(path, "r");
  if (!fp) { fprintf(stderr, "replay: cannot open %s\n", path); return -1; }
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  long k = -1; /* header is row 0 */
  int rc = -1;
  while ((len = getline(&line, &cap, fp)) > 0) {
    if (k == -1 && !strncmp(line, "scenario,", 9)) { k = 0; continue; }
    if (k == -1) k = 0;
    if (++k == row) {
      if (len && line[len - 1] == '\n') line[len - 1] = 0;
      rc = facts_csv_parse(line, scen, 16, var, 64, pf, pa, plen, seed, f);
      if (rc) fprintf(stderr, "replay: %s row %ld is malformed\n", path, row);
      break;
    }
  }
  if (k < row) fprintf(stderr, "replay: %s has only %ld rows\n", path, k < 0 ? 0 : k);
  free(line);
  fclose(fp);
  return rc;
}

int cmd_replay(int argc, char **argv) {
  char scen[16] = "short", var[MAX_VARIANT_LIST] = "base", pf[128] = "heuristic", pa[128] = "heuristic";
  uint64_t seed = 1815;
  long index = 0, row = 0;
  const char *csv = NULL, *save = NULL;
  int quiet = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { replay_usage(stdout); return 0; }
    if (!strcmp(a, "--quiet")) { quiet = 1; continue; }
    if (!v) { fprintf(stderr, "replay: %s needs a value\n", a); return 2; }
    i++;
    if (!strcmp(a, "--scenario")) snprintf(scen, sizeof scen, "%s", v);
    else if (!strcmp(a, "--variant")) snprintf(var, sizeof var, "%s", v);
    else if (!strcmp(a, "--players")) {
      const char *cut = strchr(v, '/');
      if (!cut && !strchr(v, '=')) cut = strchr(v, ',');
      if (cut) {
        snprintf(pf, sizeof pf, "%.*s", (int)(cut - v), v);
        snprintf(pa, sizeof pa, "%s", cut + 1);
      } else {
        snprintf(pf, sizeof pf, "%s", v);
        snprintf(pa, sizeof pa, "%s", v);
      }
    } else if (!strcmp(a, "--seed")) { if (opt_u64("replay", "--seed", v, &seed)) return 2; }
    else if (!strcmp(a, "--index")) { if (opt_long("replay", "--index", v, 0, 2147483647L, &index)) return 2; }
    else if (!strcmp(a, "--csv")) csv = v;
    else if (!strcmp(a, "--row")) { if (opt_long("replay", "--row", v, 1, 2147483647L, &row)) return 2; }
    else if (!strcmp(a, "--save")) save = v;
    else { fprintf(stderr, "replay: unknown option '%s' (see --help)\n", a); return 2; }
  }
  GameFacts want;
  int check = 0;
  if (csv) {
    if (row <= 0) { fprintf(stderr, "replay: --csv needs --row K (K >= 1)\n"); return 2; }
    if (read_csv_row(csv, row, scen, var, pf, pa, sizeof pf, &seed, &want)) return 2;
    index = want.index;
    check = 1;
  }
  Scen *sc = sim_scen_load("replay", scen, var);
  if (!sc) return 2;
  char err[512];
  Player *fr = player_new(sc, pf, sim_player_seed(seed, (uint64_t)index, FRENCH), err, sizeof err);
  Player *al = fr ? player_new(sc, pa, sim_player_seed(seed, (uint64_t)index, ALLIED), err, sizeof err) : NULL;
  if (!fr || !al) {
    fprintf(stderr, "replay: player: %s\n", err);
    if (fr) player_free(fr);
    free(sc);
    return 2;
  }
  printf("# replay: %s %s, %s (French) vs %s (Allied), seed %" PRIu64 ", index %ld\n", scen, var,
         pf, pa, seed, index);
  GameFacts f;
  GameRec rec;
  State fin;
  gamerec_init(&rec, scen, var, seed, (uint64_t)index);
  FILE *log = stdout;
  FILE *null = NULL;
  if (quiet) { null = fopen("/dev/null", "w"); log = null; }
  run_game(sc, fr, al, seed, (uint64_t)index, &f, log, &rec, &fin);
  if (null) fclose(null);
  if (quiet)
    printf("result: %s (%s), %u decisions\n",
           result_name(f.result),
           cond_name(f.cond), f.decisions);
  int rc = 0;
  if (save && game_save(sc, &rec, &fin, save, err, sizeof err)) {
    fprintf(stderr, "replay: %s\n", err);
    rc = 2;
  }
  if (check) {
    if (f.result == want.result && f.cond == want.cond && f.decisions == want.decisions &&
        f.vp[0] == want.vp[0] && f.vp[1] == want.vp[1]) {
      printf("# matches CSV row %ld\n", row);
    } else {
      printf("# MISMATCH with CSV row %ld: row says result %d (%s), %u decisions\n", row,
             want.result, cond_name(want.cond), want.decisions);
      rc = 1;
    }
  }
  gamerec_free(&rec);
  player_free(fr);
  player_free(al);
  free(sc);
  return rc;
}
