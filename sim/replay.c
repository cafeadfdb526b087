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

/* the game to replay and what to do with it */
typedef struct {
  char scen[16], var[MAX_VARIANT_LIST], pf[128], pa[128];
  uint64_t seed;
  long index, row;
  const char *csv, *save;
  int quiet;
} Replay;

/* --players A,B (or A/B; one name plays both sides) */
static void replay_players(Replay *o, const char *v) {
  const char *cut = strchr(v, '/');
  if (!cut && !strchr(v, '=')) cut = strchr(v, ',');
  if (cut) {
    snprintf(o->pf, sizeof o->pf, "%.*s", (int)(cut - v), v);
    snprintf(o->pa, sizeof o->pa, "%s", cut + 1);
  } else {
    snprintf(o->pf, sizeof o->pf, "%s", v);
    snprintf(o->pa, sizeof o->pa, "%s", v);
  }
}

/* the options into *o: 0 to run, 1 after --help, 2 on bad input (said on stderr) */
static int replay_options(Replay *o, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { replay_usage(stdout); return 1; }
    if (!strcmp(a, "--quiet")) { o->quiet = 1; continue; }
    if (!v) { fprintf(stderr, "replay: %s needs a value\n", a); return 2; }
    i++;
    if (!strcmp(a, "--scenario")) snprintf(o->scen, sizeof o->scen, "%s", v);
    else if (!strcmp(a, "--variant")) snprintf(o->var, sizeof o->var, "%s", v);
    else if (!strcmp(a, "--players")) replay_players(o, v);
    else if (!strcmp(a, "--seed")) { if (opt_u64("replay", "--seed", v, &o->seed)) return 2; }
    else if (!strcmp(a, "--index")) { if (opt_long("replay", "--index", v, 0, 2147483647L, &o->index)) return 2; }
    else if (!strcmp(a, "--csv")) o->csv = v;
    else if (!strcmp(a, "--row")) { if (opt_long("replay", "--row", v, 1, 2147483647L, &o->row)) return 2; }
    else if (!strcmp(a, "--save")) o->save = v;
    else { fprintf(stderr, "replay: unknown option '%s' (see --help)\n", a); return 2; }
  }
  return 0;
}

/* plays the game with its log on stdout (--quiet: the result line only) into *f, *rec, *fin */
static void replay_play(const Replay *o, const Scen *sc, Player *fr, Player *al, GameFacts *f,
                        GameRec *rec, State *fin) {
  printf("# replay: %s %s, %s (French) vs %s (Allied), seed %" PRIu64 ", index %ld\n", o->scen,
         o->var, o->pf, o->pa, o->seed, o->index);
  gamerec_init(rec, o->scen, o->var, o->seed, (uint64_t)o->index);
  FILE *log = stdout;
  FILE *null = NULL;
  if (o->quiet) { null = fopen("/dev/null", "w"); log = null; }
  run_game(sc, fr, al, o->seed, (uint64_t)o->index, f, log, rec, fin);
  if (null) fclose(null);
  if (o->quiet)
    printf("result: %s (%s), %u decisions\n",
           result_name(f->result),
           cond_name(f->cond), f->decisions);
}

/* --csv: the game against its row; 0 when it matches, 1 when not */
static int replay_check(const Replay *o, const GameFacts *f, const GameFacts *want) {
  if (f->result == want->result && f->cond == want->cond && f->decisions == want->decisions &&
      f->vp[0] == want->vp[0] && f->vp[1] == want->vp[1]) {
    printf("# matches CSV row %ld\n", o->row);
    return 0;
  }
  printf("# MISMATCH with CSV row %ld: row says result %d (%s), %u decisions\n", o->row,
         want->result, cond_name(want->cond), want->decisions);
  return 1;
}

int cmd_replay(int argc, char **argv) {
  Replay o = {"short", "base", "heuristic", "heuristic", 1815, 0, 0, NULL, NULL, 0};
  int orc = replay_options(&o, argc, argv);
  if (orc) return orc == 1 ? 0 : orc;
  GameFacts want;
  int check = 0;
  if (o.csv) {
    if (o.row <= 0) { fprintf(stderr, "replay: --csv needs --row K (K >= 1)\n"); return 2; }
    if (read_csv_row(o.csv, o.row, o.scen, o.var, o.pf, o.pa, sizeof o.pf, &o.seed, &want)) return 2;
    o.index = want.index;
    check = 1;
  }
  Scen *sc = sim_scen_load("replay", o.scen, o.var);
  if (!sc) return 2;
  char err[512];
  Player *fr = player_new(sc, o.pf, sim_player_seed(o.seed, (uint64_t)o.index, FRENCH), err, sizeof err);
  Player *al = fr ? player_new(sc, o.pa, sim_player_seed(o.seed, (uint64_t)o.index, ALLIED), err, sizeof err) : NULL;
  if (!fr || !al) {
    fprintf(stderr, "replay: player: %s\n", err);
    if (fr) player_free(fr);
    free(sc);
    return 2;
  }
  GameFacts f;
  GameRec rec;
  State fin;
  replay_play(&o, sc, fr, al, &f, &rec, &fin);
  int rc = 0;
  if (o.save && game_save(sc, &rec, &fin, o.save, err, sizeof err)) {
    fprintf(stderr, "replay: %s\n", err);
    rc = 2;
  }
  if (check && replay_check(&o, &f, &want)) rc = 1;
  gamerec_free(&rec);
  player_free(fr);
  player_free(al);
  free(sc);
  return rc;
}
