/* The journal of a sim run: one checked line per finished game, loading it back for --resume
 * and merge, and the checks of the output directory before the first game (nothing of a run
 * is ever lost: issue 12 item 8) */
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

/* test hook: WATERLOO_JOURNAL_FAIL_AFTER=N makes every journal write after the N-th fail as a
 * full disk would (ENOSPC), so the tests can show that a run stops at once and keeps its games */
long journal_fail_after(void) {
  const char *e = getenv("WATERLOO_JOURNAL_FAIL_AFTER");
  return e && *e ? strtol(e, NULL, 10) : -1;
}

void journal_line(Run *R, const Cell *cell, const GameFacts *f) {
  if (!R->journal || R->jerr) return;
  Buf b = {0};
  facts_csv_row(&b, R->cfg.scen[cell->si], R->cfg.var[cell->vi], R->cfg.pf[cell->pi],
                R->cfg.pa[cell->pi], R->cfg.seed, f);
  if (f->cpu > 0) buf_printf(&b, "\tcpu=%.4f", f->cpu);
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < b.n; i++) h = (h ^ (uint8_t)b.s[i]) * 16777619u;
  int ok = fprintf(R->journal, "J %08x %s\n", h, b.s) >= 0;
  ok = fflush(R->journal) == 0 && ok;
  R->jlines++;
  if (R->jfail_after >= 0 && R->jlines > R->jfail_after) { ok = 0; errno = ENOSPC; }
  if (!ok) R->jerr = errno ? errno : EIO;
  buf_free(&b);
}

/* reads one journal file; returns games loaded into cells (duplicates not counted) */
long journal_load(Run *R, const char *path, int check_seed) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  long loaded = 0, bad = 0;
  int first = 1;
  while ((len = getline(&line, &cap, f)) > 0) {
    if (line[len - 1] != '\n') { bad++; break; } /* torn last line */
    if (len == 1) continue; /* the line break a resume writes after a possibly torn line */
    if (first && line[0] == '#') {
      first = 0;
      SimCfg jc;
      if (cfg_parse(line, &jc) == 0 && check_seed && jc.seed != R->cfg.seed) {
        fprintf(stderr, "%s: %s was written with seed %" PRIu64 ", not %" PRIu64
                        "; not resuming from it\n", SIM_CMD(&R->cfg), path, jc.seed, R->cfg.seed);
        break;
      }
      if (check_seed && jc.fp != R->cfg.fp) {
        fprintf(stderr, "%s: %s was written by a build whose engine or fitted evaluation plays "
                        "differently (fingerprint %08x, now %08x); not resuming from it\n", SIM_CMD(&R->cfg), path, jc.fp, R->cfg.fp);
        break;
      }
      if (check_seed && jc.sfp && jc.sfp != R->cfg.sfp) {
        fprintf(stderr, "%s: %s was written by a build whose search players play differently "
                        "(search fingerprint %08x, now %08x); not resuming from it\n", SIM_CMD(&R->cfg), path, jc.sfp, R->cfg.sfp);
        break;
      }
      continue;
    }
    first = 0;
    if (strncmp(line, "J ", 2) || len < 12 || line[10] != ' ') { bad++; continue; }
    line[len - 1] = 0;
    const char *row = line + 11;
    uint32_t h = 2166136261u;
    for (const char *p = row; *p; p++) h = (h ^ (uint8_t)*p) * 16777619u;
    if (strtoul(line + 2, NULL, 16) != h) { bad++; continue; }
    double cpu = 0; /* "ROW<TAB>cpu=S" (an older journal has the row alone) */
    char *tab = strchr(line + 11, '\t');
    if (tab) {
      char *end;
      *tab = 0;
      if (strncmp(tab + 1, "cpu=", 4) || (cpu = strtod(tab + 5, &end)) < 0 || *end) { bad++; continue; }
    }
    char scen[16], var[64], pf[SPEC_LEN], pa[SPEC_LEN];
    uint64_t seed;
    GameFacts g;
    if (facts_csv_parse(row, scen, sizeof scen, var, sizeof var, pf, pa, SPEC_LEN, &seed, &g)) {
      bad++;
      continue;
    }
    if (seed != R->cfg.seed) continue;
    for (int c = 0; c < R->nc; c++) {
      Cell *cl = &R->cells[c];
      if (strcmp(scen, R->cfg.scen[cl->si]) || strcmp(var, R->cfg.var[cl->vi]) ||
          strcmp(pf, R->cfg.pf[cl->pi]) || strcmp(pa, R->cfg.pa[cl->pi]))
        continue;
      R->beyond += g.index >= sim_pair_games(&R->cfg, cl->pi);
      if (g.index >= 0 && g.index < sim_pair_games(&R->cfg, cl->pi) &&
          cell_reserve(cl, g.index + 1L) == 0 && !cl->have[g.index]) {
        g.cpu = (float)cpu;
        cl->res[g.index] = g;
        cl->have[g.index] = 1;
        cl->resumed++;
        loaded++;
      }
      break;
    }
  }
  free(line);
  fclose(f);
  if (bad) fprintf(stderr, "%s: %s: ignored %ld torn or malformed line(s)\n", SIM_CMD(&R->cfg), path, bad);
  return loaded;
}

int is_journal_name(const char *n) {
  size_t k = strlen(n);
  return !strncmp(n, "journal", 7) && k >= 11 && !strcmp(n + k - 4, ".csv");
}

long journal_load_dir(Run *R, const char *dir, int check_seed) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  char names[256][256];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (is_journal_name(e->d_name) && n < 256 && strlen(e->d_name) < 256)
      strcpy(names[n++], e->d_name);
  closedir(d);
  qsort(names, (size_t)n, 256, (int (*)(const void *, const void *))strcmp);
  long tot = 0;
  for (int i = 0; i < n; i++) {
    char p[1400];
    if (snprintf(p, sizeof p, "%s/%.255s", dir, names[i]) >= (int)sizeof p) continue;
    tot += journal_load(R, p, check_seed);
  }
  return tot;
}

void journal_name(const Run *R, char *p, size_t len) {
  if (R->cfg.shard_n > 1)
    snprintf(p, len, "%s/journal-shard%dof%d.csv", R->cfg.out, R->cfg.shard_i, R->cfg.shard_n);
  else if (R->rank > 0)
    snprintf(p, len, "%s/journal-rank%d.csv", R->cfg.out, R->rank);
  else
    snprintf(p, len, "%s/journal.csv", R->cfg.out);
}

void remove_journals(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!is_journal_name(e->d_name)) continue;
    char p[1400];
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    unlink(p);
  }
  closedir(d);
}

/* the option that makes two runs' results different ("seed", ...), NULL when the same run
 * (the number of games may differ: a resumed run can grow) */
static const char *cfg_differs(const SimCfg *a, const SimCfg *b) {
  if (a->seed != b->seed) return "--seed";
  if (fabs(a->until_ci - b->until_ci) > 1e-9 || (a->until_ci > 0 && a->batch != b->batch))
    return "--until-ci/--batch";
  if (a->nscen != b->nscen) return "--scenario";
  for (int i = 0; i < a->nscen; i++)
    if (strcmp(a->scen[i], b->scen[i])) return "--scenario";
  if (a->nvar != b->nvar) return "--variant/--set";
  for (int i = 0; i < a->nvar; i++)
    if (strcmp(a->var[i], b->var[i])) return "--variant/--set";
  if (a->npair != b->npair) return "--players";
  for (int i = 0; i < a->npair; i++)
    if (strcmp(a->pf[i], b->pf[i]) || strcmp(a->pa[i], b->pa[i])) return "--players";
  return NULL;
}

/* what the journals already in the output directory say */
typedef struct {
  int nj, own_exists;            /* journals that hold something; ours among them          */
  char differ[200], other[256];  /* the first made with other options: why, and its name   */
} OutScan;

int journals_each(const char *dir, JournalFn fn, void *ctx) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int stop = 0;
  struct dirent *e;
  while (!stop && (e = readdir(d))) {
    char p[1400];
    struct stat st;
    SimCfg jc;
    snprintf(p, sizeof p, "%s/%.255s", dir, e->d_name);
    if (!is_journal_name(e->d_name) || stat(p, &st) || st.st_size == 0) continue;
    stop = fn(ctx, p, e->d_name, journal_header(p, &jc) ? NULL : &jc);
  }
  closedir(d);
  return stop;
}

typedef struct { const SimCfg *c; const char *own_name; OutScan *S; } ScanCtx;

static int scan_one(void *ctx, const char *path, const char *name, const SimCfg *hdr) {
  ScanCtx *k = ctx;
  OutScan *S = k->S;
  S->nj++;
  if (!strcmp(name, k->own_name)) S->own_exists = 1;
  const char *why = hdr ? cfg_differs(hdr, k->c) : "an unreadable header";
  if (why && !S->differ[0]) {
    snprintf(S->differ, sizeof S->differ, "%s", why);
    snprintf(S->other, sizeof S->other, "%.255s", name);
  }
  return 0;
}

static int scan_journals(const Run *R, const char *own_name, OutScan *S) {
  const SimCfg *c = &R->cfg;
  ScanCtx k = {c, own_name, S};
  if (journals_each(c->out, scan_one, &k) < 0) {
    fprintf(stderr, "%s: cannot open %s: %s\n", SIM_CMD(c), c->out, strerror(errno));
    return 2;
  }
  return 0;
}

/* the journals found: --resume needs the same options; without it they stop the run unless
 * --overwrite discards them (or they are the other shards of the same run) */
static int judge_journals(const SimCfg *c, const char *own, const OutScan *S) {
  if (c->resume) {
    if (S->differ[0]) {
      fprintf(stderr, "%s: --resume: %s/%s was made with different options (%s); resume with "
                      "the same options, or write to another --out\n", SIM_CMD(c), c->out, S->other, S->differ);
      return 2;
    }
  } else if (S->nj > 0) {
    if (c->overwrite) {
      if (c->shard_n > 1) unlink(own); else remove_journals(c->out);
    } else if (c->shard_n > 1 && !S->own_exists && !S->differ[0]) {
      /* other shards of the same run share the directory */
    } else {
      fprintf(stderr, "%s: %s holds the journal of %s run: add --resume to continue it "
                      "(plays only what is missing), --overwrite to discard it, or choose another "
                      "--out\n", SIM_CMD(c), c->out, S->differ[0] ? "a different" : "an earlier");
      return 2;
    }
  }
  return 0;
}

/* reports of a different run with no journal (e.g. a committed results folder): refused
 * unless they were made by the same command */
static int judge_reports(const SimCfg *c) {
  char sp[1400];
  snprintf(sp, sizeof sp, "%s/summary.json", c->out);
  FILE *f = fopen(sp, "r");
  if (!f) return 0;
  char buf[8192];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  Buf cmd = {0};
  cfg_command(c, &cmd);
  char *k = strstr(buf, "\"command\":");
  int same = 0;
  if (k && (k = strchr(k + 10, '"'))) {
    char *q = strchr(k + 1, '"');
    same = q && (size_t)(q - k - 1) == cmd.n && !strncmp(k + 1, cmd.s, cmd.n);
  }
  buf_free(&cmd);
  if (!same) {
    fprintf(stderr, "%s: %s holds the reports of a different run: choose another --out, or "
                    "--overwrite to replace them\n", SIM_CMD(c), c->out);
    return 2;
  }
  return 0;
}

int journal_header(const char *path, SimCfg *jc) {
  FILE *f = fopen(path, "r");
  char line[4096];
  int rc = f && fgets(line, sizeof line, f) && cfg_parse(line, jc) == 0 ? 0 : -1;
  if (f) fclose(f);
  return rc;
}

/* The options are compared before the build: another sweep or another list of variants has
 * other cells, hence another engine fingerprint, but it is another run, not another build. */
int cfg_mismatch(const SimCfg *b, const SimCfg *a, char *why, size_t n) {
  const char *opt = cfg_differs(a, b);
  if (a->seed != b->seed)
    snprintf(why, n, "made with --seed %" PRIu64 ", not %" PRIu64, b->seed, a->seed);
  else if (opt) snprintf(why, n, "made with other %s", opt);
  else if (a->games != b->games)
    snprintf(why, n, "made with --games %ld, not %ld", b->games, a->games);
  else if (a->detect_pts != b->detect_pts || a->detect_vp != b->detect_vp)
    snprintf(why, n, "made with other --detect/--detect-vp");
  else if (a->fp != b->fp)
    snprintf(why, n, "made by a build whose engine or fitted evaluation plays differently "
                     "(fingerprint %08x, not %08x)", b->fp, a->fp);
  else if (a->sfp && b->sfp && a->sfp != b->sfp)
    snprintf(why, n, "made by a build whose search players play differently (search "
                     "fingerprint %08x, not %08x)", b->sfp, a->sfp);
  else return 0;
  return 1;
}

/* merge's output folder: nothing of another run in it unless --overwrite.  A journal of
 * another run (other options, games or build), or reports without a journal, stop it; the
 * journal of this same merge may be there (merged again: the same games, the same reports) */
typedef struct { const SimCfg *c; int nj; char why[300], path[1400]; } OutCheck;

static int check_one(void *ctx, const char *path, const char *name, const SimCfg *hdr) {
  OutCheck *k = ctx;
  k->nj++;
  snprintf(k->path, sizeof k->path, "%s", path);
  if (!hdr) snprintf(k->why, sizeof k->why, "no sim header");
  else cfg_mismatch(hdr, k->c, k->why, sizeof k->why);
  return k->why[0] != 0;
}

int merge_check_out(const Run *R) {
  const SimCfg *c = &R->cfg;
  struct stat st;
  if (stat(c->out, &st) != 0 || c->overwrite) return 0;   /* a new folder, or replaced */
  OutCheck k = {c, 0, "", ""};
  if (journals_each(c->out, check_one, &k) < 0) {
    fprintf(stderr, "merge: cannot open --out %s: %s\n", c->out, strerror(errno));
    return 2;
  }
  if (k.why[0]) {
    fprintf(stderr, "merge: --out %s holds the journal of a different run (%s: %s): choose another "
                    "--out, or add --overwrite to replace it\n", c->out, k.path, k.why);
    return 2;
  }
  char p[1400];
  snprintf(p, sizeof p, "%s/summary.json", c->out);
  if (k.nj == 0 && stat(p, &st) == 0) {
    fprintf(stderr, "merge: --out %s holds the reports of a run without its journal: choose "
                    "another --out, or add --overwrite to replace them\n", c->out);
    return 2;
  }
  return 0;
}

/* Before any game: the output directory can be written, and nothing of another run is lost.
 * A journal is never deleted unless --overwrite asks; --resume with other options stops. */
int check_out_dir(Run *R) {
  SimCfg *c = &R->cfg;
  char own[1400];
  journal_name(R, own, sizeof own);
  const char *slash = strrchr(own, '/');
  const char *own_name = slash ? slash + 1 : own;
  OutScan S = {0, 0, "", ""};
  if (scan_journals(R, own_name, &S) || judge_journals(c, own, &S)) return 2;
  if (!c->resume && !c->overwrite && S.nj == 0 && judge_reports(c)) return 2;
  /* the directory takes new files (the reports and the journal) */
  char in_dir[1300];
  snprintf(in_dir, sizeof in_dir, "%s/", c->out);
  if (can_create(in_dir)) { fprintf(stderr, "%s: cannot write in %s: %s\n", SIM_CMD(c), c->out, strerror(errno)); return 2; }
  return 0;
}
