/* ./waterloo replay: replays one game of a sim run from its seed and index (or CSV row); its
 * options are read in cli/sim_cmd.c. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

static int read_csv_row(const char *path, long row, char *scen, char *var, char *pf, char *pa,
                        size_t plen, uint64_t *seed, GameFacts *f) {
  FILE *fp = fopen(path, "r");
  if (!fp) { fprintf(stderr, "replay: cannot open %s: %s\n", path, strerror(errno)); return -1; }
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
  if (ferror(fp)) fprintf(stderr, "replay: cannot read %s: %s\n", path, strerror(errno));
  else if (k < row) fprintf(stderr, "replay: %s has only %ld rows\n", path, k < 0 ? 0 : k);
  free(line);
  fclose(fp);
  return rc;
}

/* plays the game with its log on stdout (--quiet: the result line only) into *f, *rec, *fin */
static void replay_play(const ReplayOpts *o, const Scen *sc, Player *fr, Player *al, GameFacts *f,
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
static int replay_check(const ReplayOpts *o, const GameFacts *f, const GameFacts *want) {
  if (f->result == want->result && f->cond == want->cond && f->decisions == want->decisions &&
      f->vp[0] == want->vp[0] && f->vp[1] == want->vp[1]) {
    printf("# matches CSV row %ld\n", o->row);
    return 0;
  }
  printf("# MISMATCH with CSV row %ld: row says result %d (%s), %u decisions\n", o->row,
         want->result, cond_name(want->cond), want->decisions);
  return 1;
}

int replay_main(const ReplayOpts *opts) {
  ReplayOpts o = *opts;
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
