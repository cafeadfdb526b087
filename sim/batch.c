/* Playing a sim run: batches of (cell, index) work items over OpenMP threads, shared by MPI
 * ranks, progress, the --until-ci stop rule, variants identical to base */
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

#include "sim_int.h"
#include "../engine/util.h"

/* ---------------------------------------------------------------- progress */
static void fmt_dur(double s, char *out, size_t len) {
  if (!isfinite(s) || s < 0) { snprintf(out, len, "?"); return; }
  long t = (long)(s + 0.5);
  if (t >= 3600) snprintf(out, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
  else if (t >= 60) snprintf(out, len, "%ldm%02lds", t / 60, t % 60);
  else snprintf(out, len, "%lds", t);
}

static void progress_bar(Run *R, int force) {
  double t = clock_wall();
  if (!force && t - R->last_print < 0.2) return;
  R->last_print = t;
  double el = t - R->t0, rate = el > 0 ? R->total_done / el : 0;
  double eta = rate > 0 ? (R->total_planned - R->total_done) / rate : NAN;
  int w = 30, fill = R->total_planned ? (int)(w * R->total_done / R->total_planned) : w;
  char bar[64];
  for (int i = 0; i < w; i++) bar[i] = i < fill ? '#' : '.';
  bar[w] = 0;
  char e1[32], e2[32];
  fmt_dur(el, e1, sizeof e1);
  fmt_dur(eta, e2, sizeof e2);
  fprintf(stderr, "\r[%s] %ld/%ld games  %.1f games/s  elapsed %s  ETA %s   ", bar,
          R->total_done, R->total_planned, rate, e1, e2);
  fflush(stderr);
}

static void cell_line(Run *R, const Cell *cl) {
  long n = 0, w = 0;
  for (long i = 0; i < cl->target; i++)
    if (cl->have[i]) { n++; w += cl->res[i].result == RES_FRENCH; }
  Interval iv = wilson(w, n, Z95);
  fprintf(stderr, "%s%s/%s %s vs %s: %ld games, French %.1f%% [%.1f, %.1f]  (%.0f s)\n",
          R->tty ? "\r\033[K" : "", R->cfg.scen[cl->si], R->cfg.var[cl->vi], R->cfg.pf[cl->pi],
          R->cfg.pa[cl->pi], n, 100 * iv.p, 100 * iv.lo, 100 * iv.hi, clock_wall() - R->t0);
}

/* ---------------------------------------------------------------- one batch */
typedef struct { int32_t cell, index; } Work;

static int play_batch(Run *R, const Work *w, long nw, char *err, size_t errlen) {
  int failed = 0;
  char ferr[512] = "";
  int threads = R->cfg.threads > 0 ? R->cfg.threads : omp_get_max_threads();
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (long j = 0; j < nw; j++) {
    int fail;
#pragma omp atomic read
    fail = failed;
    if (fail) continue;
    Cell *cl = &R->cells[w[j].cell];
    GameFacts f;
    char e[256];
    double cpu0 = clock_thread_cpu();
    int rc = run_game_specs(cl->sc, R->cfg.pf[cl->pi], R->cfg.pa[cl->pi], R->cfg.seed,
                            (uint64_t)w[j].index, &f, NULL, e, sizeof e);
    f.cpu = (float)(clock_thread_cpu() - cpu0);
    if (rc == -2) {
#pragma omp critical(sim_err)
      { snprintf(ferr, sizeof ferr, "%s", e); failed = 1; }
      continue;
    }
    cl->res[w[j].index] = f;
#pragma omp critical(sim_journal)
    {
      cl->have[w[j].index] = 1;
      journal_line(R, cl, &f);
      if (R->jerr) {
#pragma omp critical(sim_err)
        if (!failed) {
          char jp[1400];
          journal_name(R, jp, sizeof jp);
          snprintf(ferr, sizeof ferr, "cannot write the journal %.200s: %s; stopped, the games "
                   "journalled so far are kept (make room, then rerun with --resume)", jp, strerror(R->jerr));
          failed = 1;
        }
      }
      cl->done++;
      R->total_done++;
      if (R->cfg.progress && R->rank == 0) {
        if (cl->done == cl->planned && R->size == 1 && R->cfg.until_ci == 0) cell_line(R, cl);
        if (R->tty) progress_bar(R, 0);
      }
    }
  }
  if (failed) snprintf(err, errlen, "%s", ferr);
  return failed ? -1 : 0;
}

#ifdef USE_MPI
/* every rank gets every game of the batch */
static void mpi_share(Run *R, const Work *w, long nw) {
  /* each rank packs its own finished games of this batch */
  GameFacts *mine = malloc(sizeof(GameFacts) * (size_t)(nw / R->size + 1));
  int32_t *mcell = malloc(sizeof(int32_t) * (size_t)(nw / R->size + 1));
  int k = 0;
  for (long j = R->rank; j < nw; j += R->size) {
    mine[k] = R->cells[w[j].cell].res[w[j].index];
    mcell[k] = w[j].cell;
    k++;
  }
  int *counts = malloc(sizeof(int) * (size_t)R->size), *displs = malloc(sizeof(int) * (size_t)R->size);
  int *bc = malloc(sizeof(int) * (size_t)R->size), *bd = malloc(sizeof(int) * (size_t)R->size);
  MPI_Allgather(&k, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
  int tot = 0;
  for (int r = 0; r < R->size; r++) {
    displs[r] = tot;
    bc[r] = counts[r] * (int)sizeof(GameFacts);
    bd[r] = tot * (int)sizeof(GameFacts);
    tot += counts[r];
  }
  GameFacts *all = malloc(sizeof(GameFacts) * (size_t)(tot + 1));
  int32_t *acell = malloc(sizeof(int32_t) * (size_t)(tot + 1));
  MPI_Allgatherv(mine, k * (int)sizeof(GameFacts), MPI_BYTE, all, bc, bd, MPI_BYTE, MPI_COMM_WORLD);
  MPI_Allgatherv(mcell, k, MPI_INT, acell, counts, displs, MPI_INT, MPI_COMM_WORLD);
  for (int i = 0; i < tot; i++) {
    Cell *cl = &R->cells[acell[i]];
    cl->res[all[i].index] = all[i];
    cl->have[all[i].index] = 1;
  }
  free(mine); free(mcell); free(counts); free(displs); free(bc); free(bd); free(all); free(acell);
}

/* rank 0 loaded the journals: broadcast what it has */
static void mpi_bcast_loaded(Run *R) {
  for (int c = 0; c < R->nc; c++) {
    Cell *cl = &R->cells[c];
    long cap = cl->cap;
    MPI_Bcast(&cap, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    if (cell_reserve(cl, cap)) { fprintf(stderr, "sim: out of memory\n"); MPI_Abort(MPI_COMM_WORLD, 2); }
    if (cap == 0) continue;
    MPI_Bcast(cl->have, (int)cap, MPI_BYTE, 0, MPI_COMM_WORLD);
    MPI_Bcast(cl->res, (int)(cap * (long)sizeof(GameFacts)), MPI_BYTE, 0, MPI_COMM_WORLD);
  }
}
#endif

static double cell_halfwidth(const Cell *cl) {
  long n = 0, w[4] = {0};
  for (long i = 0; i < cl->target; i++)
    if (cl->have[i]) { n++; w[cl->res[i].result & 3]++; }
  Interval a = wilson(w[1], n, Z95), b = wilson(w[2], n, Z95);
  double ha = (a.hi - a.lo) / 2, hb = (b.hi - b.lo) / 2;
  return ha > hb ? ha : hb;
}

/* a variant whose rules equal base's in a scenario (the Prussian variants in the short game,
 * which has no Prussians) is not played: the reports flag it instead of repeating base */
void mark_identical(const SimCfg *c, Cell *cells) {
  int base = -1;
  for (int vi = 0; vi < c->nvar; vi++)
    if (!strcmp(c->var[vi], "base")) base = vi;
  if (base < 0) return;
  for (int si = 0; si < c->nscen; si++)
    for (int vi = 0; vi < c->nvar; vi++) {
      if (vi == base) continue;
      Scen *x = malloc(sizeof(Scen)), *y = malloc(sizeof(Scen));
      if (!x || !y) { free(x); free(y); return; }
      *x = *cells[cell_id(c, si, 0, vi)].sc;
      *y = *cells[cell_id(c, si, 0, base)].sc;
      /* what the rules of this scenario never read does not count (checked: the short-game
       * games of the Prussian variants were identical, seed for seed, to base's) */
      for (Scen *z = x; z; z = z == x ? y : NULL) {
        memset(z->variant_names, 0, sizeof z->variant_names);
        if (!z->p.prussians) { /* no Prussian units or cards: their timing and mixing are moot */
          memset(z->p.hand_pr, 0, sizeof z->p.hand_pr);
          z->p.prussian_shift = 0;
          z->p.three_player = 0;
        }
      }
      int same = !memcmp(x, y, sizeof *x);
      free(x);
      free(y);
      for (int pi = 0; pi < c->npair; pi++) cells[cell_id(c, si, pi, vi)].identical = same;
    }
}

int cells_load(Run *R, const char *cmd) {
  SimCfg *c = &R->cfg;
  R->nc = ncells(c);
  R->cells = calloc((size_t)R->nc, sizeof(Cell));
  if (!R->cells) { fprintf(stderr, "%s: out of memory\n", cmd); return 2; }
  for (int si = 0; si < c->nscen; si++)
    for (int vi = 0; vi < c->nvar; vi++) {
      Scen *sc = sim_scen_load(cmd, c->scen[si], c->var[vi]);
      if (!sc) return 2;
      for (int pi = 0; pi < c->npair; pi++) {
        Cell *cl = &R->cells[cell_id(c, si, pi, vi)];
        cl->si = si; cl->vi = vi; cl->pi = pi;
        cl->sc = sc;
      }
    }
  mark_identical(c, R->cells);
  return 0;
}

/* load every scenario x variant once into its cells, set aside the variants identical to base,
 * and check the player specs before any long work */
static int run_load_cells(Run *R) {
  SimCfg *c = &R->cfg;
  char err[512];
  if (cells_load(R, SIM_CMD(c))) return 2;
  for (int ci = 0; ci < R->nc; ci++) R->cells[ci].active = !R->cells[ci].identical;
  for (int pi = 0; pi < c->npair; pi++) {
    const char *sp[2] = {c->pf[pi], c->pa[pi]};
    for (int s = 0; s < 2; s++) {
      if (player_spec_check(sp[s], err, sizeof err)) { fprintf(stderr, "%s: %s\n", SIM_CMD(c), err); return 2; }
    }
  }
  return 0;
}

/* rank 0 creates and checks the output directory; --resume loads the journals found there */
static int run_prepare_out(Run *R) {
  SimCfg *c = &R->cfg;
  int drc = 0;
  if (R->rank == 0) {
    if (mkdir_p(c->out)) {
      fprintf(stderr, "%s: cannot create %s: %s\n", SIM_CMD(c), c->out, strerror(errno));
      drc = 2;
    } else {
      drc = check_out_dir(R);
    }
  }
#ifdef USE_MPI
  if (R->size > 1) MPI_Bcast(&drc, 1, MPI_INT, 0, MPI_COMM_WORLD);
#endif
  if (drc) return drc;
  long loaded = 0;
  if (R->rank == 0 && c->resume) loaded = journal_load_dir(R, c->out, 1);
#ifdef USE_MPI
  if (R->size > 1) {
    MPI_Barrier(MPI_COMM_WORLD);
    mpi_bcast_loaded(R);
  }
#endif
  if (loaded && c->progress) fprintf(stderr, "%s: resumed %ld finished games from %s\n", SIM_CMD(c), loaded, c->out);
  if (R->beyond) fprintf(stderr, "%s: the journal holds %ld games past --games %ld: the reports count the first %ld "
                                 "of each cell (the journal keeps them all)\n", SIM_CMD(c), R->beyond, c->games, c->games);
  return 0;
}

/* --resume of a journal from before the search fingerprint was kept: its games are taken as
 * this build's (the engine fingerprint agrees), said, and its header gains the search
 * fingerprint (the file rewritten whole, then renamed over: nothing is lost), so that a later
 * build whose searches play differently no longer resumes it */
static void journal_adopt_sfp(const SimCfg *c, const char *jp) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = fopen(jp, "r");
  if (!f) return;
  FILE *m = open_memstream(&text, &len);
  char *head = NULL, buf[65536];
  size_t cap = 0, n;
  ssize_t hl = m ? getline(&head, &cap, f) : -1;
  if (hl > 0 && head[hl - 1] == '\n') { /* the header, with the search fingerprint appended */
    fprintf(m, "%.*s\tsfp=%08x\n", (int)(hl - 1), head, c->sfp);
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, n, m);
  }
  free(head);
  fclose(f);
  if (!m) return;
  fclose(m);
  if (hl > 0 && write_atomic(jp, text, len) == 0)
    fprintf(stderr, "%s: %s predates the search fingerprint: its games are taken as this build's "
                    "searches' (search fingerprint %08x now in its header)\n", SIM_CMD(c), jp, c->sfp);
  free(text);
}

/* --resume: our own journal from another seed or engine build is set aside (a new one starts) */
static void run_set_aside_stale_journal(const SimCfg *c, const char *jp) {
  FILE *jf = fopen(jp, "r");
  if (!jf) return;
  char line[4096];
  SimCfg jc;
  int ok = fgets(line, sizeof line, jf) && cfg_parse(line, &jc) == 0 && jc.seed == c->seed &&
           jc.fp == c->fp && (!jc.sfp || jc.sfp == c->sfp);
  fclose(jf);
  if (ok && !jc.sfp && c->sfp) journal_adopt_sfp(c, jp);
  if (!ok) {
    char old[1500];
    snprintf(old, sizeof old, "%s.stale", jp);
    if (rename(jp, old) == 0)
      fprintf(stderr, "%s: moved the unusable journal to %s\n", SIM_CMD(c), old);
  }
}

/* this rank's journal, opened for appending: the configuration line when it is new */
static int run_open_journal(Run *R) {
  SimCfg *c = &R->cfg;
  char jp[1400];
  journal_name(R, jp, sizeof jp);
  if (R->rank > 0 && !c->resume) unlink(jp); /* rank 0 has checked the directory: a rank's
                                                 own journal of the run it refused or discarded */
  if (c->resume) run_set_aside_stale_journal(c, jp);
  struct stat stt;
  int fresh = stat(jp, &stt) != 0 || stt.st_size == 0;
  R->journal = fopen(jp, "a");
  if (!R->journal) { fprintf(stderr, "%s: cannot write %s: %s\n", SIM_CMD(c), jp, strerror(errno)); return 2; }
  int wok;
  if (fresh) {
    Buf b = {0};
    cfg_line(c, &b);
    wok = fprintf(R->journal, "%s\n", b.s) >= 0;
    buf_free(&b);
  } else {
    /* a torn last line must not swallow the next record (and a whole one gets nothing, so
     * that resuming a finished run leaves its journal as it was) */
    wok = !ends_torn(jp) || fprintf(R->journal, "\n") >= 0;
  }
  if (fflush(R->journal) != 0 || !wok) {
    fprintf(stderr, "%s: cannot write %s: %s\n", SIM_CMD(c), jp, strerror(errno));
    fclose(R->journal);
    R->journal = NULL;
    return 2;
  }
  return 0;
}

/* the next batch into w: every active cell's next `batch` indices not played yet (of this
 * shard); the number of items, -1 when out of memory */
static long run_plan_batch(Run *R, long batch, Work *w) {
  SimCfg *c = &R->cfg;
  long nw = 0;
  for (int ci = 0; ci < R->nc; ci++) {
    Cell *cl = &R->cells[ci];
    cl->planned = cl->done = 0;
    if (!cl->active) continue;
    long games = sim_pair_games(c, cl->pi);
    long from = cl->target, to = from + batch < games ? from + batch : games;
    cl->target = to;
    if (cell_reserve(cl, to)) return -1;
    for (long i = from; i < to; i++) {
      if (cl->have[i]) continue;
      if (c->shard_n > 1 && i % c->shard_n != c->shard_i) continue;
      w[nw].cell = ci;
      w[nw].index = (int32_t)i;
      nw++;
    }
  }
  return nw;
}

/* plays this rank's items of the batch (MPI: rank r plays items r, r+size, ...) */
static int run_play_mine(Run *R, const Work *w, long nw, char *err, size_t errlen) {
  const Work *mine = w;
  Work *own = NULL;
  long nmine = 0;
  if (R->size > 1) {
    own = malloc(sizeof(Work) * (size_t)(nw / R->size + 1));
    for (long j = R->rank; j < nw; j += R->size) own[nmine++] = w[j];
    mine = own;
  } else {
    nmine = nw;
  }
  for (long j = 0; j < nmine; j++) R->cells[mine[j].cell].planned++;
  R->total_planned += nmine;
  int rc = play_batch(R, mine, nmine, err, errlen);
  free(own);
  return rc;
}

/* after a batch: a cell is done at --games or at the --until-ci width; 1 while any is left */
static int run_retire_cells(Run *R) {
  SimCfg *c = &R->cfg;
  int any = 0;
  for (int ci = 0; ci < R->nc; ci++) {
    Cell *cl = &R->cells[ci];
    if (!cl->active) continue;
    if (cl->target >= sim_pair_games(c, cl->pi)) cl->active = 0;
    else if (c->until_ci > 0 && cell_halfwidth(cl) <= c->until_ci) cl->active = 0;
    if (c->progress && R->rank == 0 && (R->size > 1 || c->until_ci > 0) && !cl->active) cell_line(R, cl);
    any |= cl->active;
  }
  return any;
}

/* the batches until every cell is done: 0, 2 when a game or the journal failed (said), -2
 * when out of memory (said) */
static int run_batches(Run *R) {
  SimCfg *c = &R->cfg;
  char err[512];
  long batch = c->until_ci > 0 ? c->batch : c->games;
  for (int ci = 0; ci < R->nc; ci++) R->cells[ci].target = 0;
  int rc = 0;
  Work *w = malloc(sizeof(Work) * (size_t)R->nc * (size_t)(batch < c->games ? batch : c->games) + 16);
  for (;;) {
    long nw = run_plan_batch(R, batch, w);
    if (nw < 0) { fprintf(stderr, "%s: out of memory\n", SIM_CMD(c)); free(w); return -2; }
    rc = run_play_mine(R, w, nw, err, sizeof err);
    if (rc) { fprintf(stderr, "%s%s: %s\n", R->tty ? "\n" : "", SIM_CMD(c), err); rc = 2; break; }
#ifdef USE_MPI
    if (R->size > 1) mpi_share(R, w, nw);
#endif
    if (!run_retire_cells(R)) break;
  }
  free(w);
  return rc;
}

/* the closing lines and, on rank 0 of an unsharded run, the reports */
static int run_finish(Run *R, double cpu0) {
  SimCfg *c = &R->cfg;
  double el = clock_wall() - R->t0;
  if (c->progress && R->rank == 0)
    fprintf(stderr, "%s: %ld games played in %.1f s wall, %.1f CPU s (%.2f CPU ms/game; %.1f games/s)\n", SIM_CMD(c),
            R->total_done, el, clock_cpu() - cpu0,
            R->total_done ? 1000 * (clock_cpu() - cpu0) / R->total_done : 0.0,
            el > 0 ? R->total_done / el : 0.0);
  if (c->shard_n > 1) {
    if (c->progress)
      fprintf(stderr, "%s: shard %d/%d done; merge the shard directories with ./waterloo merge\n", SIM_CMD(c),
              c->shard_i, c->shard_n);
    return 0;
  }
  if (R->rank == 0) {
    if (sim_report(c, R->cells, c->out)) {
      fprintf(stderr, "%s: cannot write the reports in %s: %s\n", SIM_CMD(c), c->out, strerror(errno));
      return 2;
    }
    if (c->progress) fprintf(stderr, "%s: reports in %s/ (report.md, summary.json, games.csv, *.svg)\n", SIM_CMD(c), c->out);
  }
  return 0;
}

int sim_play(Run *R, double *cpu0) {
  SimCfg *c = &R->cfg;
  int rc = run_load_cells(R);
  if (rc) return rc;
  c->fp = engine_fingerprint(c, R->cells);
  c->sfp = search_cells_fingerprint(c, R->cells);
  if ((rc = run_prepare_out(R)) || (rc = run_open_journal(R))) return rc;
  R->jfail_after = journal_fail_after();
  R->tty = isatty(2);
  R->t0 = clock_wall();
  *cpu0 = clock_cpu();
  rc = run_batches(R);
  if (rc == -2) return 2;
  if (R->tty && c->progress && R->rank == 0) { progress_bar(R, 1); fprintf(stderr, "\n"); }
  fclose(R->journal);
  R->journal = NULL;
  return rc;
}

/* the whole run: returns the exit code */
int sim_run(Run *R) {
  double cpu0;
  int rc = sim_play(R, &cpu0);
  return rc ? rc : run_finish(R, cpu0);
}

void run_free(Run *R) {
  for (int ci = 0; ci < R->nc; ci++) {
    Cell *cl = &R->cells[ci];
    free(cl->res);
    free(cl->have);
    if (cl->pi == 0) free(cl->sc);
  }
  free(R->cells);
}
