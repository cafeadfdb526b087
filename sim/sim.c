/* ./waterloo sim and ./waterloo merge: the options, the defaults and the two commands.  The run
 * itself is in batch.c, its journal in journal.c, its configuration in config.c, its reports in
 * report.c. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef USE_MPI
#include <mpi.h>
#endif

#include "../engine/num.h"
#include "sim_int.h"
#include "../engine/util.h"

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
    "  --until-ci W        play batches until every cell's 95%% half-width <= W\n"
    "  --batch N           batch size for --until-ci (default %d)\n"
    "  --shard i/N         play only game indices = i mod N (0-based); merge with\n"
    "                      ./waterloo merge DIR...\n"
    "  --detect X          power columns: games to detect a change of X points in the\n"
    "                      French win rate (default 5)\n"
    "  --detect-vp V       ... and of V in the long game's mean VP margin (default 2)\n"
    "  --quiet             no progress output\n"
#ifdef USE_MPI
    "Under mpirun the work of every batch is split over the ranks; rank 0 writes the reports.\n"
#endif
    , DEFAULT_GAMES, DEFAULT_SEED, DEFAULT_BATCH);
}

static const char *optval(int argc, char **argv, int *i, const char *name) {
  const char *a = argv[*i];
  size_t k = strlen(name);
  if (strncmp(a, name, k)) return NULL;
  if (a[k] == '=') return a + k + 1;
  if (a[k] == 0) {
    if (*i + 1 >= argc) { fprintf(stderr, "%s: missing value\n", name); exit(2); }
    return argv[++*i];
  }
  return NULL;
}

/* the list options of sim, read after the others (their defaults depend on them) */
typedef struct {
  const char *scen, *var, *budgets;
} SimLists;

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
    else if ((v = optval(argc, argv, &i, "--scenario"))) L->scen = v;
    else if ((v = optval(argc, argv, &i, "--variant"))) L->var = v;
    else if ((v = optval(argc, argv, &i, "--set"))) { if (sim_opt_set(c, v)) return 2; }
    else if ((v = optval(argc, argv, &i, "--players")) && seats_form(v)) {
      char seats[3][128], b[SPEC_LEN], e[256] = "";
      if (seats_parse(v, seats, e, sizeof e) || seats_allied_spec(seats, b, sizeof b) ||
          add_pair(c, seats[SEAT_FRENCH], b)) {
        fprintf(stderr, "sim: bad --players '%s': %s\n", v, e[0] ? e : "too long");
        return 2;
      }
    } else if (v) {
      char a[SPEC_LEN], b[SPEC_LEN];
      if (parse_pair(v, a, b) || add_pair(c, a, b)) {
        fprintf(stderr, "sim: bad --players '%s' (A,B or A/B)\n", v);
        return 2;
      }
    } else if ((v = optval(argc, argv, &i, "--budgets"))) L->budgets = v;
    else if ((v = optval(argc, argv, &i, "--games"))) { if (opt_long("sim", "--games", v, 1, CLI_MAX_GAMES, &c->games)) return 2; }
    else if ((v = optval(argc, argv, &i, "--seed"))) { if (opt_u64("sim", "--seed", v, &c->seed)) return 2; }
    else if ((v = optval(argc, argv, &i, "--threads"))) { if (opt_int("sim", "--threads", v, 1, CLI_MAX_THREADS, &c->threads)) return 2; }
    else if ((v = optval(argc, argv, &i, "--out"))) snprintf(c->out, sizeof c->out, "%s", v);
    else if (!strcmp(argv[i], "--resume")) c->resume = 1;
    else if (!strcmp(argv[i], "--overwrite")) c->overwrite = 1;
    else if (!strcmp(argv[i], "--quiet")) c->progress = 0;
    else if ((v = optval(argc, argv, &i, "--until-ci"))) {
      has_until = 1;
      if (opt_double("sim", "--until-ci", v, 0, 0.5, &c->until_ci)) return 2;
    }
    else if ((v = optval(argc, argv, &i, "--batch"))) { if (opt_long("sim", "--batch", v, 1, CLI_MAX_GAMES, &c->batch)) return 2; }
    else if ((v = optval(argc, argv, &i, "--detect"))) {
      double x;
      if (opt_double("sim", "--detect", v, 0.1, 99, &x)) return 2;
      c->detect_pts = x / 100;
    } else if ((v = optval(argc, argv, &i, "--detect-vp"))) {
      if (opt_double("sim", "--detect-vp", v, 0.01, 999, &c->detect_vp)) return 2;
    }
    else if ((v = optval(argc, argv, &i, "--shard"))) { if (sim_opt_shard(c, v)) return 2; }
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

/* the variants: --variant with base added first, base alone for a sweep, else every shipped one */
static int sim_variants(SimCfg *c, const char *var) {
  if (var) {
    c->nvar = split_list(var, ',', c->var[0], MAX_VAR, 64);
    if (c->nvar <= 0) { fprintf(stderr, "sim: bad --variant\n"); return 2; }
    /* base is always the reference: added first when other variants are asked for */
    int has_base = 0;
    for (int i = 0; i < c->nvar; i++) has_base |= !strcmp(c->var[i], "base");
    if (!has_base) {
      if (c->nvar >= MAX_VAR) { fprintf(stderr, "sim: too many variants (at most %d with base)\n", MAX_VAR - 1); return 2; }
      memmove(c->var[1], c->var[0], sizeof c->var[0] * (size_t)c->nvar);
      strcpy(c->var[0], "base");
      c->nvar++;
    }
  } else if (c->nset > 0) {
    c->nvar = 1; /* a sweep: base and its cells */
    strcpy(c->var[0], "base");
  } else {
    list_variants(c);
  }
  return 0;
}

/* the cells' axes: scenarios, variants and sweep values, player pairs */
static int sim_lists(SimCfg *c, const SimLists *L) {
  c->nscen = split_list(L->scen, ',', c->scen[0], MAX_SCEN, 16);
  if (c->nscen <= 0) { fprintf(stderr, "sim: bad --scenario\n"); return 2; }
  for (int i = 0; i < c->nscen; i++)
    if (strcmp(c->scen[i], "short") && strcmp(c->scen[i], "long")) {
      fprintf(stderr, "sim: unknown scenario '%s' (short, long)\n", c->scen[i]);
      return 2;
    }
  if (sim_variants(c, L->var)) return 2;
  if (c->nset > 0 && add_sweep(c)) return 2;
  if (L->budgets) {
    char bl[MAX_PAIRS][SPEC_LEN];
    int n = split_list(L->budgets, ',', bl[0], MAX_PAIRS, SPEC_LEN);
    if (n <= 0) { fprintf(stderr, "sim: bad --budgets\n"); return 2; }
    for (int i = 0; i < n; i++)
      if (add_pair(c, bl[i], bl[i])) { fprintf(stderr, "sim: too many player pairs\n"); return 2; }
  }
  if (c->npair == 0) add_pair(c, "heuristic", "heuristic");
  return 0;
}

/* --resume against --overwrite, and the output folder: --out, or a new results/run-N (rank 0
 * chooses it); 0 or the exit code */
static int sim_out_dir(Run *R) {
  SimCfg *c = &R->cfg;
  if (c->resume && c->overwrite) {
    if (R->rank == 0) fprintf(stderr, "sim: --resume and --overwrite contradict each other\n");
    return 2;
  }
  if (c->out[0]) return 0;
  if (c->resume) {
    if (R->rank == 0) fprintf(stderr, "sim: --resume needs the --out of the run to continue\n");
    return 2;
  }
  if (R->rank == 0) {
    /* a new folder per run: nothing of an earlier run is ever overwritten by default */
    for (int k = 1; k < 100000; k++) {
      struct stat st;
      snprintf(c->out, sizeof c->out, "results/run-%d", k);
      if (stat(c->out, &st) != 0) break;
    }
  }
#ifdef USE_MPI
  if (R->size > 1) MPI_Bcast(c->out, (int)sizeof c->out, MPI_CHAR, 0, MPI_COMM_WORLD);
#endif
  return 0;
}

int cmd_sim(int argc, char **argv) {
  Run R;
  memset(&R, 0, sizeof R);
  SimCfg *c = &R.cfg;
  c->games = DEFAULT_GAMES;
  c->seed = DEFAULT_SEED;
  c->batch = DEFAULT_BATCH;
  c->progress = 1;
  c->out[0] = 0; /* default: a new folder per run, results/run-N (chosen below) */
  SimLists L = {"short,long", NULL, NULL};
  int rc = sim_options(c, &L, argc, argv);
  if (rc == 0) rc = sim_lists(c, &L);
  if (rc) return rc == 1 ? 0 : rc;
  R.rank = 0;
  R.size = 1;
#ifdef USE_MPI
  int inited = 0, mine_init = 0;
  MPI_Initialized(&inited);
  if (!inited) {
    int prov;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &prov);
    mine_init = 1;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &R.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &R.size);
  if (R.size > 1 && c->shard_n > 1) {
    if (R.rank == 0) fprintf(stderr, "sim: --shard and mpirun do not mix\n");
    MPI_Finalize();
    return 2;
  }
#endif
  rc = sim_out_dir(&R);
  if (rc == 0) rc = sim_run(&R);
  run_free(&R);
#ifdef USE_MPI
  if (mine_init) MPI_Finalize();
#endif
  return rc;
}

/* ---------------------------------------------------------------- merge */
/* one merge: the options, the directories and the run rebuilt from their journals */
typedef struct {
  const char *out;
  const char *dirs[256];
  int nd;
  Run R;
} Merge;

static int merge_options(Merge *M, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *v;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf("usage: waterloo merge [--out DIR] DIR...\n"
             "Merges the journals of './waterloo sim --shard i/N --out DIR' runs (one directory\n"
             "per shard, or one shared directory) and writes the report the plain run would\n"
             "have written.  Every game of every cell must be present.\n");
      return 1;
    } else if ((v = optval(argc, argv, &i, "--out"))) M->out = v;
    else if (argv[i][0] == '-') { fprintf(stderr, "merge: unknown option '%s'\n", argv[i]); return 2; }
    else if (M->nd < 256) M->dirs[M->nd++] = argv[i];
  }
  if (M->nd == 0) { fprintf(stderr, "merge: no directories (see --help)\n"); return 2; }
  return 0;
}

/* the configuration: from the first journal header found */
static int merge_config(Merge *M) {
  int have_cfg = 0;
  for (int d = 0; d < M->nd && !have_cfg; d++) {
    DIR *dp = opendir(M->dirs[d]);
    if (!dp) { fprintf(stderr, "merge: cannot open %s\n", M->dirs[d]); return 2; }
    struct dirent *e;
    while ((e = readdir(dp)) && !have_cfg) {
      if (!is_journal_name(e->d_name)) continue;
      char p[1400];
      snprintf(p, sizeof p, "%s/%s", M->dirs[d], e->d_name);
      FILE *f = fopen(p, "r");
      if (!f) continue;
      char line[4096];
      if (fgets(line, sizeof line, f) && cfg_parse(line, &M->R.cfg) == 0) have_cfg = 1;
      fclose(f);
    }
    closedir(dp);
  }
  if (!have_cfg) { fprintf(stderr, "merge: no journal with a header in the given directories\n"); return 2; }
  return 0;
}

/* every cell with room for every game, then the games of every directory's journals */
static int merge_load(Merge *M) {
  Run *R = &M->R;
  SimCfg *c = &R->cfg;
  snprintf(c->out, sizeof c->out, "%s", M->out);
  R->size = 1;
  if (cells_load(R, "merge")) return 2;
  for (int ci = 0; ci < R->nc; ci++) {
    Cell *cl = &R->cells[ci];
    if (cell_reserve(cl, c->games)) { fprintf(stderr, "merge: out of memory\n"); return 2; }
    cl->target = cl->identical ? 0 : c->games;
  }
  for (int d = 0; d < M->nd; d++) journal_load_dir(R, M->dirs[d], 1);
  return 0;
}

/* one journal with everything, so the merged directory can be resumed or merged again (not
 * written when the output is one of the merged directories) */
static void merge_journal(Merge *M) {
  Run *R = &M->R;
  const SimCfg *c = &R->cfg;
  Buf b = {0};
  cfg_line(c, &b);
  buf_printf(&b, "\n");
  for (int ci = 0; ci < R->nc; ci++) {
    Cell *cl = &R->cells[ci];
    for (long i = 0; i < cl->target; i++) {
      Buf r = {0};
      facts_csv_row(&r, c->scen[cl->si], c->var[cl->vi], c->pf[cl->pi], c->pa[cl->pi], c->seed, &cl->res[i]);
      uint32_t h = 2166136261u;
      for (size_t k = 0; k < r.n; k++) h = (h ^ (uint8_t)r.s[k]) * 16777619u;
      buf_printf(&b, "J %08x %s\n", h, r.s);
      buf_free(&r);
    }
  }
  char jp[1400];
  snprintf(jp, sizeof jp, "%s/journal.csv", M->out);
  int same = 0;
  for (int d = 0; d < M->nd; d++) same |= !strcmp(M->dirs[d], M->out);
  if (!same) write_atomic(jp, b.s, b.n);
  buf_free(&b);
}

int cmd_merge(int argc, char **argv) {
  Merge *M = calloc(1, sizeof *M);
  if (!M) { fprintf(stderr, "merge: out of memory\n"); return 2; }
  M->out = "results/latest";
  int rc = merge_options(M, argc, argv);
  if (rc == 0) rc = merge_config(M);
  if (rc == 0) rc = merge_load(M);
  if (rc) { free(M); return rc == 1 ? 0 : rc; }
  Run *R = &M->R;
  long missing = 0;
  for (int ci = 0; ci < R->nc; ci++)
    for (long i = 0; i < R->cells[ci].target; i++) missing += !R->cells[ci].have[i];
  if (missing) {
    fprintf(stderr, "merge: %ld games missing (a shard not finished? resume it with --resume)\n", missing);
    rc = 1;
  } else if (mkdir_p(M->out) || sim_report(&R->cfg, R->cells, M->out)) {
    fprintf(stderr, "merge: cannot write the reports in %s\n", M->out);
    rc = 2;
  } else {
    merge_journal(M);
    fprintf(stderr, "merge: %d cells, %ld games each; reports in %s/\n", R->nc, R->cfg.games, M->out);
  }
  run_free(R);
  free(M);
  return rc;
}
