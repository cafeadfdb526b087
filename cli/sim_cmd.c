/* The options of ./waterloo sim, merge and replay (the runs are in sim/: sim_main, merge_main,
 * replay_main). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../sim/sim.h"

#define DEFAULT_GAMES 2000
#define DEFAULT_SEED 1815
#define DEFAULT_BATCH 100


/* ---------------------------------------------------------------- usage */
static void sim_usage(FILE *f) {
  fprintf(f,
    "usage: waterloo sim [options]\n"
    "Plays AI-vs-AI games for every scenario x variant x player-pair cell and reports win\n"
    "rates with 95%% Wilson intervals, victory breakdown, game facts and each variant against\n"
    "base (paired difference, McNemar).  Same seeds in every cell (paired design).\n"
    "  --scenario LIST     short,long (default both)\n"
    "  --variant LIST      base,three-player,./my-rule.ini,... names of shipped variants or\n"
    "                      paths of variant files (default: base and every shipped variant);\n"
    "                      base is always added as the reference\n"
    "  --set NAME=V1,V2    a sweep of any parameter of docs/PARAMETERS.md: one cell per value\n"
    "                      (repeat: every combination), each paired against base on the same\n"
    "                      seeds; the report adds a table and sweep.svg (with --set the\n"
    "                      default variants are base alone)\n"
    "  --players A,B       French and Allied player (default heuristic,heuristic); a single\n"
    "                      name plays both sides; repeat the option for several pairs; write\n"
    "                      A/B when a spec has commas (mcts:iters=3000,threads=2); a player\n"
    "                      per seat: french=A,british=B,prussian=C (the Allied pair is B+P)\n"
    "  --budgets LIST      shorthand for one pair per spec, same spec both sides\n"
    "                      (e.g. mcts:easy,mcts:normal): the budget sensitivity table\n"
    "  --games N           games per cell (default %d; the cap with --until-ci)\n"
    "  --seed S            run seed (default %d); game i uses gs_init(seed, i)\n"
    "  --threads T         OpenMP threads (default: all); results do not depend on it\n"
    "  --out DIR           report directory (default: a new folder results/run-N); a\n"
    "                      folder holding another run is refused, never overwritten\n"
    "  --resume            continue a killed run from DIR's journal (same options; a\n"
    "                      larger --games plays only the new games)\n"
    "  --overwrite         discard the journal and reports found in DIR\n"
    "  --until-ci W        play batches until every cell's 95%% half-width <= W, a fraction\n"
    "                      0 < W < 0.5 (0.03: 3 points); 0 is refused, not 'off': leave\n"
    "                      the option out to play --games in full\n"
    "  --batch N           batch size for --until-ci (default %d)\n"
    "  --shard i/N         play only game indices = i mod N (0-based); merge with\n"
    "                      ./waterloo merge --out DIR DIR...\n"
    "  --detect X          power columns: games to detect a change of X points in the\n"
    "                      French win rate (default 5)\n"
    "  --detect-vp V       ... and of V in the long game's mean VP margin (default 2)\n"
    "  --quiet             no progress output\n"
#ifdef USE_MPI
    "Under mpirun the work of every batch is split over the ranks; rank 0 writes the reports.\n"
#endif
    , DEFAULT_GAMES, DEFAULT_SEED, DEFAULT_BATCH);
}

static const char *optval(const char *cmd, int argc, char **argv, int *i, const char *name) {
  const char *a = argv[*i];
  size_t k = strlen(name);
  if (strncmp(a, name, k)) return NULL;
  if (a[k] == '=') return a + k + 1;
  if (a[k] == 0) {
    if (*i + 1 >= argc) { fprintf(stderr, "waterloo %s: %s needs a value\n", cmd, name); exit(2); }
    return argv[++*i];
  }
  return NULL;
}

/* a player pair "A,B" or a single "A" (both sides).  A spec may itself contain commas
 * ("mcts:iters=3000,threads=2"): then write the pair as "A/B". */
static int parse_pair(const char *s, char *a, char *b) {
  const char *cut = strchr(s, '/');
  if (!cut) {
    /* split at the first comma that starts a new spec (next char is a letter and the
       text before it has no '=' pending) */
    const char *c = strchr(s, ',');
    if (c && !strchr(s, '=')) cut = c;
    else if (c) {
      /* specs with options: only "/" separates unambiguously */
      cut = NULL;
    }
  }
  size_t la = cut ? (size_t)(cut - s) : strlen(s);
  if (la == 0 || la >= SPEC_LEN) return -1;
  memcpy(a, s, la);
  a[la] = 0;
  const char *rb = cut ? cut + 1 : s;
  if (strlen(rb) == 0 || strlen(rb) >= SPEC_LEN) return -1;
  strcpy(b, rb);
  if (strchr(b, ',') && !strchr(b, '=')) return -1;
  return 0;
}

/* --set NAME=V1,V2,...: one more sweep axis */
static int sim_opt_set(SimCfg *c, const char *v) {
  if (c->nset >= MAX_SET || strlen(v) >= sizeof c->set[0] || !strchr(v, '=') || strchr(v, '=') == v) {
    fprintf(stderr, "sim: bad --set '%s' (NAME=V1,V2,... at most %d times)\n", v, MAX_SET);
    return 2;
  }
  snprintf(c->set[c->nset++], sizeof c->set[0], "%s", v);
  return 0;
}

/* --shard i/N */
static int sim_opt_shard(SimCfg *c, const char *v) {
  char si[24] = "", sn[24] = "";
  const char *sl = strchr(v, '/');
  if (sl && sl - v < 20 && strlen(sl + 1) < 20) {
    memcpy(si, v, (size_t)(sl - v));
    snprintf(sn, sizeof sn, "%s", sl + 1);
  }
  if (num_int(si, 0, 1 << 20, &c->shard_i) || num_int(sn, 1, 1 << 20, &c->shard_n) ||
      c->shard_i >= c->shard_n) {
    fprintf(stderr, "sim: bad --shard '%s' (i/N with 0 <= i < N)\n", v);
    return 2;
  }
  return 0;
}

/* the options into *c and *L: 0 to run, 1 after --help, 2 on bad input (said on stderr) */
static int sim_options(SimCfg *c, SimLists *L, int argc, char **argv) {
  int has_until = 0; /* --until-ci given: 0 is refused, not read as "off" */
  for (int i = 1; i < argc; i++) {
    const char *v;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { sim_usage(stdout); return 1; }
    else if ((v = optval("sim", argc, argv, &i, "--scenario"))) L->scen = v;
    else if ((v = optval("sim", argc, argv, &i, "--variant"))) L->var = v;
    else if ((v = optval("sim", argc, argv, &i, "--set"))) { if (sim_opt_set(c, v)) return 2; }
    else if ((v = optval("sim", argc, argv, &i, "--players")) && seats_form(v)) {
      char seats[3][128], b[SPEC_LEN], e[256] = "";
      if (seats_parse(v, seats, e, sizeof e) || seats_allied_spec(seats, b, sizeof b) ||
          sim_add_pair(c, seats[SEAT_FRENCH], b)) {
        fprintf(stderr, "sim: bad --players '%s': %s\n", v, e[0] ? e : "too long");
        return 2;
      }
    } else if (v) {
      char a[SPEC_LEN], b[SPEC_LEN];
      if (parse_pair(v, a, b) || sim_add_pair(c, a, b)) {
        fprintf(stderr, "sim: bad --players '%s' (A,B or A/B)\n", v);
        return 2;
      }
    } else if ((v = optval("sim", argc, argv, &i, "--budgets"))) L->budgets = v;
    else if ((v = optval("sim", argc, argv, &i, "--games"))) { if (opt_long("sim", "--games", v, 1, CLI_MAX_GAMES, &c->games)) return 2; }
    else if ((v = optval("sim", argc, argv, &i, "--seed"))) { if (opt_u64("sim", "--seed", v, &c->seed)) return 2; }
    else if ((v = optval("sim", argc, argv, &i, "--threads"))) { if (opt_int("sim", "--threads", v, 1, CLI_MAX_THREADS, &c->threads)) return 2; }
    else if ((v = optval("sim", argc, argv, &i, "--out"))) {
      if (!*v) { fprintf(stderr, "sim: --out needs a folder name, not ''\n"); return 2; }
      snprintf(c->out, sizeof c->out, "%s", v);
    }
    else if (!strcmp(argv[i], "--resume")) c->resume = 1;
    else if (!strcmp(argv[i], "--overwrite")) c->overwrite = 1;
    else if (!strcmp(argv[i], "--quiet")) c->progress = 0;
    else if ((v = optval("sim", argc, argv, &i, "--until-ci"))) {
      has_until = 1;
      /* a half-width strictly between 0 and 0.5: said so whatever the value */
      if (num_double(v, 0, 0.5, &c->until_ci) || !(c->until_ci > 0 && c->until_ci < 0.5)) {
        fprintf(stderr, "waterloo sim: --until-ci is a half-width above 0 and below 0.5, not '%s' (leave the "
                        "option out to play --games in full)\n", v);
        return 2;
      }
    }
    else if ((v = optval("sim", argc, argv, &i, "--batch"))) { if (opt_long("sim", "--batch", v, 1, CLI_MAX_GAMES, &c->batch)) return 2; }
    else if ((v = optval("sim", argc, argv, &i, "--detect"))) {
      double x;
      if (opt_double("sim", "--detect", v, 0.1, 99, &x)) return 2;
      c->detect_pts = x / 100;
    } else if ((v = optval("sim", argc, argv, &i, "--detect-vp"))) {
      if (opt_double("sim", "--detect-vp", v, 0.01, 999, &c->detect_vp)) return 2;
    }
    else if ((v = optval("sim", argc, argv, &i, "--shard"))) { if (sim_opt_shard(c, v)) return 2; }
    else {
      fprintf(stderr, "sim: unknown option '%s' (see --help)\n", argv[i]);
      return 2;
    }
  }
  if (c->games <= 0 || c->games > 100000000) { fprintf(stderr, "sim: bad --games\n"); return 2; }
  if (c->batch <= 0) { fprintf(stderr, "sim: bad --batch\n"); return 2; }
  if (c->until_ci < 0 || c->until_ci >= 0.5 || (has_until && !(c->until_ci > 0))) {
    fprintf(stderr, "sim: bad --until-ci (0 < W < 0.5; leave the option out to play --games in full)\n");
    return 2;
  }
  if (c->until_ci > 0 && c->shard_n > 1) {
    fprintf(stderr, "sim: --until-ci needs every game of a batch: not with --shard (use MPI)\n");
    return 2;
  }
  if (c->until_ci == 0) c->batch = 0;
  return 0;
}

int cmd_sim(int argc, char **argv) {
  SimCfg *c = calloc(1, sizeof *c);
  if (!c) { fprintf(stderr, "sim: out of memory\n"); return 2; }
  c->games = DEFAULT_GAMES;
  c->seed = DEFAULT_SEED;
  c->batch = DEFAULT_BATCH;
  c->progress = 1;
  c->out[0] = 0; /* default: a new folder per run, results/run-N (chosen by sim_main) */
  SimLists L = {"short,long", NULL, NULL};
  int rc = sim_options(c, &L, argc, argv);
  if (rc == 0) rc = sim_main(c, &L);
  free(c);
  return rc == 1 ? 0 : rc;
}

/* ---------------------------------------------------------------- merge */
static void merge_usage(FILE *f) {
  fprintf(f,
    "usage: waterloo merge --out DIR [--overwrite] DIR...\n"
    "Merges the journals of './waterloo sim --shard i/N --out DIR' runs (one folder per shard,\n"
    "or one folder the shards shared) and writes the report the plain run would have written,\n"
    "with one journal of every game, into --out.  Every game of every cell must be present\n"
    "(else exit 1).  Every folder must hold journals of one and the same run (the same --seed,\n"
    "--games, --scenario, --variant/--set, --players and build): a folder that is missing, holds\n"
    "no journal or holds another run's is refused, naming it and what differs, and nothing is\n"
    "written.\n"
    "  --out DIR     the folder of the merged report (required): a new folder, or the folder of\n"
    "                an earlier merge of the same run (merged again); never one of the folders\n"
    "                merged; a folder holding another run's journal or reports is refused\n"
    "  --overwrite   replace the journal and reports of another run found in --out\n");
}

/* the options into *M: 0 to run, 1 after --help, 2 on bad input (said on stderr) */
static int merge_options(MergeOpts *M, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *v;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { merge_usage(stdout); return 1; }
    else if ((v = optval("merge", argc, argv, &i, "--out"))) {
      if (!*v) { fprintf(stderr, "merge: --out needs a folder name, not ''\n"); return 2; }
      M->out = v;
    }
    else if (!strcmp(argv[i], "--overwrite")) M->overwrite = 1;
    else if (argv[i][0] == '-') {
      fprintf(stderr, "merge: unknown option '%s' (see --help)\n", argv[i]);
      return 2;
    }
    else if (M->nd < MERGE_MAX_DIRS) M->dirs[M->nd++] = argv[i];
    else { fprintf(stderr, "merge: more than %d folders\n", MERGE_MAX_DIRS); return 2; }
  }
  if (M->nd == 0) { fprintf(stderr, "merge: no folders to merge (see --help)\n"); return 2; }
  if (!M->out) {
    fprintf(stderr, "merge: --out DIR is required (the folder of the merged report)\n");
    return 2;
  }
  return 0;
}

int cmd_merge(int argc, char **argv) {
  MergeOpts M;
  memset(&M, 0, sizeof M);
  int rc = merge_options(&M, argc, argv);
  if (rc) return rc == 1 ? 0 : rc;
  return merge_main(&M);
}

/* ---------------------------------------------------------------- replay */
static void replay_usage(FILE *f) {
  fprintf(f,
    "usage: waterloo replay [--scenario short] [--variant base] [--players heuristic,heuristic]\n"
    "                       [--seed 1815] [--index 0]   (the defaults shown)\n"
    "       waterloo replay --csv FILE --row K\n"
    "Replays one game of a sim run and prints its log: one line per action with turn and\n"
    "round headers, then the result.  --row K is the K-th game row of the CSV (1 = the first\n"
    "row after the header).  With --csv the result is checked against the row.\n"
    "  --save FILE   also save the game as JSON (scenario, seed, actions, final position)\n"
    "  --quiet       print only the game's header line and the result (and with --csv the\n"
    "                check against the row), not the log\n");
}

/* --players A,B (or A/B; one name plays both sides) */
static void replay_players(ReplayOpts *o, const char *v) {
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
static int replay_options(ReplayOpts *o, int argc, char **argv) {
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

int cmd_replay(int argc, char **argv) {
  ReplayOpts o = {"short", "base", "heuristic", "heuristic", 1815, 0, 0, NULL, NULL, 0};
  int orc = replay_options(&o, argc, argv);
  if (orc) return orc == 1 ? 0 : orc;
  return replay_main(&o);
}
