/* ./waterloo sim and ./waterloo merge once their options are read (cli/sim_cmd.c): the cells of
 * the lists, the output folder, MPI.  The run itself is in batch.c, its journal in journal.c, its
 * configuration in config.c, its reports in report.c. */
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

#include "sim_int.h"
#include "../engine/util.h"

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
    } else if (i && !strcmp(c->scen[i], c->scen[0])) { /* two names: the second repeats the first */
      fprintf(stderr, "sim: --scenario names '%s' twice (its cells would be played twice)\n", c->scen[i]);
      return 2;
    }
  if (sim_variants(c, L->var)) return 2;
  if (c->nset > 0 && add_sweep(c)) return 2;
  if (L->budgets) {
    char bl[MAX_PAIRS][SPEC_LEN];
    int n = split_list(L->budgets, ',', bl[0], MAX_PAIRS, SPEC_LEN);
    if (n <= 0) { fprintf(stderr, "sim: bad --budgets\n"); return 2; }
    for (int i = 0; i < n; i++)
      if (sim_add_pair(c, bl[i], bl[i])) { fprintf(stderr, "sim: too many player pairs\n"); return 2; }
  }
  if (c->npair == 0) sim_add_pair(c, "heuristic", "heuristic");
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

int sim_main(SimCfg *cfg, const SimLists *L) {
  Run R;
  memset(&R, 0, sizeof R);
  R.cfg = *cfg;
  SimCfg *c = &R.cfg;
  int rc = sim_lists(c, L);
  if (rc) return rc;
  R.rank = 0;
  R.size = 1;
#ifdef USE_MPI
  int inited = 0, mine_init = 0;
  MPI_Initialized(&inited);
  if (!inited) {
    int prov;
    MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &prov);
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
/* one merge: the options and the run rebuilt from the folders' journals */
typedef struct {
  const MergeOpts *o;
  char first[1400];   /* the journal whose header is the run's (the others must match it) */
  Run R;
} Merge;

/* one journal of a folder to merge: the first found sets the run's configuration, every later
 * one must be of that run; nonzero (said on stderr, naming the folder) stops the merge */
typedef struct { Merge *M; const char *dir; int nj; } DirCheck;

static int merge_one(void *ctx, const char *path, const char *name, const SimCfg *hdr) {
  DirCheck *k = ctx;
  Merge *M = k->M;
  char why[300];
  k->nj++;
  if (!hdr) {
    fprintf(stderr, "merge: %s is not the journal of a sim run (no header line)\n", path);
    return 2;
  }
  if (!M->first[0]) {
    M->R.cfg = *hdr;
    snprintf(M->first, sizeof M->first, "%s", path);
  } else if (cfg_mismatch(hdr, &M->R.cfg, why, sizeof why)) {
    fprintf(stderr, "merge: %s cannot be merged with %s: %s was %s\n", k->dir, M->first, path, why);
    return 2;
  } else if (!M->R.cfg.sfp) {
    M->R.cfg.sfp = hdr->sfp; /* a journal older than the search fingerprint goes with any */
  }
  return 0;
}

/* one folder's journals, each of the run of the first one found */
static int merge_dir_config(Merge *M, const char *dir) {
  DirCheck k = {M, dir, 0};
  int rc = journals_each(dir, merge_one, &k);
  if (rc < 0) { fprintf(stderr, "merge: cannot open %s: %s\n", dir, strerror(errno)); return 2; }
  if (!rc && k.nj == 0) {
    fprintf(stderr, "merge: %s holds no journal of a sim run (journal*.csv)\n", dir);
    rc = 2;
  }
  return rc;
}

/* 1 when a and b are the same folder, however spelled ("d", "./d/") */
static int same_folder(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* every folder one run's (the first journal's header), none of them the output folder */
static int merge_config(Merge *M) {
  const MergeOpts *o = M->o;
  for (int d = 0; d < o->nd; d++)
    if (same_folder(o->out, o->dirs[d])) {
      fprintf(stderr, "merge: --out %s is one of the folders to merge: write the merged report to "
                      "another folder\n", o->out);
      return 2;
    }
  for (int d = 0; d < o->nd; d++)
    if (merge_dir_config(M, o->dirs[d])) return 2;
  return 0;
}

/* every cell with room for every game, then the games of every directory's journals */
static int merge_load(Merge *M) {
  Run *R = &M->R;
  SimCfg *c = &R->cfg;
  snprintf(c->out, sizeof c->out, "%s", M->o->out);
  c->cmd = "merge";
  c->overwrite = M->o->overwrite;
  R->size = 1;
  if (cells_load(R, "merge")) return 2;
  for (int ci = 0; ci < R->nc; ci++) {
    Cell *cl = &R->cells[ci];
    if (cell_reserve(cl, c->games)) { fprintf(stderr, "merge: out of memory\n"); return 2; }
    cl->target = cl->identical ? 0 : c->games;
  }
  for (int d = 0; d < M->o->nd; d++) journal_load_dir(R, M->o->dirs[d], 1);
  return 0;
}

/* one journal with everything (each game's CPU time kept, as sim's journal has it), so the
 * merged folder can be resumed or merged again; 0 or -1.  --overwrite: the journals of the
 * run it replaces go first */
static int merge_journal(Merge *M) {
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
      if (cl->res[i].cpu > 0) buf_printf(&r, "\tcpu=%.4f", cl->res[i].cpu);
      uint32_t h = 2166136261u;
      for (size_t k = 0; k < r.n; k++) h = (h ^ (uint8_t)r.s[k]) * 16777619u;
      buf_printf(&b, "J %08x %s\n", h, r.s);
      buf_free(&r);
    }
  }
  char jp[1400];
  snprintf(jp, sizeof jp, "%s/journal.csv", M->o->out);
  if (M->o->overwrite) remove_journals(M->o->out);
  int rc = write_atomic(jp, b.s, b.n);
  buf_free(&b);
  return rc;
}

/* the merged reports and journal of a complete run; the exit code */
static int merge_write(Merge *M) {
  Run *R = &M->R;
  long missing = 0;
  for (int ci = 0; ci < R->nc; ci++)
    for (long i = 0; i < R->cells[ci].target; i++) missing += !R->cells[ci].have[i];
  if (missing) {
    fprintf(stderr, "merge: %ld games missing (a shard not finished? resume it with --resume)\n", missing);
    return 1;
  }
  if (mkdir_p(M->o->out) || sim_report(&R->cfg, R->cells, M->o->out)) {
    fprintf(stderr, "merge: cannot write the reports in %s\n", M->o->out);
    return 2;
  }
  if (merge_journal(M)) {
    fprintf(stderr, "merge: cannot write %s/journal.csv: %s\n", M->o->out, strerror(errno));
    return 2;
  }
  fprintf(stderr, "merge: %d cells, %ld games each; reports in %s/\n", R->nc, R->cfg.games,
          M->o->out);
  return 0;
}

int merge_main(const MergeOpts *o) {
  Merge *M = calloc(1, sizeof *M);
  if (!M) { fprintf(stderr, "merge: out of memory\n"); return 2; }
  M->o = o;
  int rc = merge_config(M);
  if (rc == 0) rc = merge_load(M);
  if (rc == 0) rc = merge_check_out(&M->R);
  if (rc == 0) rc = merge_write(M);
  run_free(&M->R);
  free(M);
  return rc;
}
