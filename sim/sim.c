/* ./waterloo sim and ./waterloo merge: cells, batches, the journal, resume, shards, MPI. */
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

#include "../cli/cli.h"
#include "../engine/num.h"
#include "sim_int.h"
#include "../engine/util.h"

#define DEFAULT_GAMES 2000
#define DEFAULT_SEED 1815
#define DEFAULT_BATCH 100


/* ---------------------------------------------------------------- lists */
/* split s at sep into out[max][len]; returns the count or -1 */
static int split_list(const char *s, char sep, char *out, int max, size_t len) {
  int n = 0;
  const char *p = s;
  while (*p) {
    const char *e = strchr(p, sep);
    size_t k = e ? (size_t)(e - p) : strlen(p);
    if (k > 0) {
      if (n >= max || k >= len) return -1;
      memcpy(out + (size_t)n * len, p, k);
      out[(size_t)n * len + k] = 0;
      n++;
    }
    if (!e) break;
    p = e + 1;
  }
  return n;
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

static int add_pair(SimCfg *c, const char *a, const char *b) {
  if (c->npair >= MAX_PAIRS || strlen(a) >= SPEC_LEN || strlen(b) >= SPEC_LEN) return -1;
  memcpy(c->pf[c->npair], a, strlen(a) + 1);
  memcpy(c->pa[c->npair], b, strlen(b) + 1);
  c->npair++;
  return 0;
}

/* shipped variants: base, then every variants/NAME.ini in name order */
static int list_variants(SimCfg *c) {
  char path[1200];
  snprintf(path, sizeof path, "%s/variants", scen_default_dir());
  c->nvar = 0;
  strcpy(c->var[c->nvar++], "base");
  DIR *d = opendir(path);
  if (!d) return c->nvar;
  char names[MAX_VAR][64];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t k = strlen(e->d_name);
    if (k > 4 && k < 60 && !strcmp(e->d_name + k - 4, ".ini") && n < MAX_VAR - 1) {
      memcpy(names[n], e->d_name, k - 4);
      names[n][k - 4] = 0;
      if (strcmp(names[n], "base")) n++;
    }
  }
  closedir(d);
  qsort(names, (size_t)n, 64, (int (*)(const void *, const void *))strcmp);
  for (int i = 0; i < n; i++) strcpy(c->var[c->nvar++], names[i]);
  return c->nvar;
}

/* the cells of the --set sweep: every combination of the values, appended to the variants */
static int add_sweep(SimCfg *c) {
  char name[MAX_SET][64], val[MAX_SET][MAX_VAR][64];
  int nv[MAX_SET];
  long combos = 1;
  for (int k = 0; k < c->nset; k++) {
    const char *eq = strchr(c->set[k], '=');
    size_t ln = (size_t)(eq - c->set[k]);
    if (ln >= sizeof name[k]) { fprintf(stderr, "sim: --set %s: name too long\n", c->set[k]); return -1; }
    memcpy(name[k], c->set[k], ln);
    name[k][ln] = 0;
    for (int j = 0; j < k; j++)
      if (!strcmp(name[j], name[k])) { fprintf(stderr, "sim: --set %s given twice\n", name[k]); return -1; }
    nv[k] = split_list(eq + 1, ',', val[k][0], MAX_VAR, 64);
    if (nv[k] <= 0) { fprintf(stderr, "sim: --set %s: no values (NAME=V1,V2,...)\n", c->set[k]); return -1; }
    combos *= nv[k];
  }
  c->sweep_from = c->nvar;
  if (c->nvar + combos > MAX_VAR) {
    fprintf(stderr, "sim: --set: %ld cells, at most %d with the variants\n", combos, MAX_VAR - c->nvar);
    return -1;
  }
  for (long m = 0; m < combos; m++) {
    Buf lab = {0};
    long r = m;
    int idx[MAX_SET];
    for (int k = c->nset - 1; k >= 0; k--) { idx[k] = (int)(r % nv[k]); r /= nv[k]; }
    for (int k = 0; k < c->nset; k++) buf_printf(&lab, "%s%s=%s", k ? "+" : "", name[k], val[k][idx[k]]);
    if (lab.n >= 64) { fprintf(stderr, "sim: --set: cell label '%s' too long\n", lab.s); buf_free(&lab); return -1; }
    for (int i = 0; i < c->nvar; i++)
      if (!strcmp(c->var[i], lab.s)) { fprintf(stderr, "sim: --set: value '%s' twice\n", lab.s); buf_free(&lab); return -1; }
    strcpy(c->var[c->nvar++], lab.s);
    buf_free(&lab);
  }
  return 0;
}

/* ---------------------------------------------------------------- config line */
void cfg_line(const SimCfg *c, Buf *b) {
  buf_printf(b, "#waterloo-sim v1\tseed=%" PRIu64 "\tgames=%ld\tuntil=%.6g\tbatch=%ld\tscen=",
             c->seed, c->games, c->until_ci, c->batch);
  for (int i = 0; i < c->nscen; i++) buf_printf(b, "%s%s", i ? "," : "", c->scen[i]);
  buf_printf(b, "\tvar=");
  for (int i = 0; i < c->nvar; i++) buf_printf(b, "%s%s", i ? "," : "", c->var[i]);
  buf_printf(b, "\tpairs=");
  for (int i = 0; i < c->npair; i++) buf_printf(b, "%s%s/%s", i ? "|" : "", c->pf[i], c->pa[i]);
  buf_printf(b, "\tfp=%08x", c->fp);
  if (c->nset > 0) {
    buf_printf(b, "\tset=%d:", c->sweep_from);
    for (int i = 0; i < c->nset; i++) buf_printf(b, "%s%s", i ? "|" : "", c->set[i]);
  }
}

uint32_t engine_fingerprint(const SimCfg *c, Cell *cells) {
  uint32_t h = 2166136261u;
  for (int si = 0; si < c->nscen; si++) h = (h ^ scen_fingerprint(cells[cell_id(c, si, 0, 0)].sc)) * 16777619u;
  return h;
}

int cfg_parse(const char *line, SimCfg *c) {
  if (strncmp(line, "#waterloo-sim v1\t", 17)) return -1;
  memset(c, 0, sizeof *c);
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s", line + 17);
  char *nl = strchr(tmp, '\n');
  if (nl) *nl = 0;
  char *save = NULL;
  int got = 0;
  for (char *t = strtok_r(tmp, "\t", &save); t; t = strtok_r(NULL, "\t", &save)) {
    char *eq = strchr(t, '=');
    if (!eq) return -1;
    *eq = 0;
    const char *v = eq + 1;
    if (!strcmp(t, "seed")) { c->seed = strtoull(v, NULL, 10); got |= 1; }
    else if (!strcmp(t, "games")) { c->games = strtol(v, NULL, 10); got |= 2; }
    else if (!strcmp(t, "until")) c->until_ci = strtod(v, NULL);
    else if (!strcmp(t, "batch")) c->batch = strtol(v, NULL, 10);
    else if (!strcmp(t, "fp")) c->fp = (uint32_t)strtoul(v, NULL, 16);
    else if (!strcmp(t, "set")) {
      char *colon = strchr(v, ':');
      if (!colon) return -1;
      c->sweep_from = atoi(v);
      c->nset = split_list(colon + 1, '|', c->set[0], MAX_SET, sizeof c->set[0]);
      if (c->nset <= 0) return -1;
    }
    else if (!strcmp(t, "scen")) { c->nscen = split_list(v, ',', c->scen[0], MAX_SCEN, 16); got |= 4; }
    else if (!strcmp(t, "var")) { c->nvar = split_list(v, ',', c->var[0], MAX_VAR, 64); got |= 8; }
    else if (!strcmp(t, "pairs")) {
      char pr[MAX_PAIRS][2 * SPEC_LEN + 2];
      int n = split_list(v, '|', pr[0], MAX_PAIRS, sizeof pr[0]);
      if (n <= 0) return -1;
      for (int i = 0; i < n; i++) {
        char *sl = strchr(pr[i], '/');
        if (!sl) return -1;
        *sl = 0;
        add_pair(c, pr[i], sl + 1);
      }
      got |= 16;
    }
  }
  if (got != 31 || c->nscen <= 0 || c->nvar <= 0 || c->npair <= 0 || c->games <= 0) return -1;
  return 0;
}

static void quote_arg(Buf *b, const char *s) {
  if (strpbrk(s, " *|;&<>()$'\"\\?[]{}!#~")) buf_printf(b, "'%s'", s);
  else buf_printf(b, "%s", s);
}

void cfg_command(const SimCfg *c, Buf *b) {
  buf_printf(b, "./waterloo sim --scenario ");
  for (int i = 0; i < c->nscen; i++) buf_printf(b, "%s%s", i ? "," : "", c->scen[i]);
  int nv = c->nset > 0 ? c->sweep_from : c->nvar;
  Buf v = {0};
  for (int i = 0; i < nv; i++) buf_printf(&v, "%s%s", i ? "," : "", c->var[i]);
  buf_printf(b, " --variant ");
  quote_arg(b, v.s ? v.s : "base");
  buf_free(&v);
  for (int i = 0; i < c->nset; i++) {
    buf_printf(b, " --set ");
    quote_arg(b, c->set[i]);
  }
  for (int i = 0; i < c->npair; i++) {
    Buf p = {0};
    if (strchr(c->pf[i], ',') || strchr(c->pa[i], ','))
      buf_printf(&p, "%s/%s", c->pf[i], c->pa[i]);
    else
      buf_printf(&p, "%s,%s", c->pf[i], c->pa[i]);
    buf_printf(b, " --players ");
    quote_arg(b, p.s);
    buf_free(&p);
  }
  buf_printf(b, " --games %ld --seed %" PRIu64, c->games, c->seed);
  if (c->until_ci > 0) buf_printf(b, " --until-ci %g --batch %ld", c->until_ci, c->batch);
}

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
    "                      A/B when a spec has commas (mcts:iters=3000,threads=2)\n"
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

int cell_reserve(Cell *cl, long n) {
  if (n <= cl->cap) return 0;
  long cap = cl->cap ? cl->cap : 256;
  while (cap < n) cap *= 2;
  GameFacts *r = realloc(cl->res, sizeof(GameFacts) * (size_t)cap);
  if (!r) return -1;
  cl->res = r;
  uint8_t *h = realloc(cl->have, (size_t)cap);
  if (!h) return -1;
  cl->have = h;
  memset(cl->res + cl->cap, 0, sizeof(GameFacts) * (size_t)(cap - cl->cap));
  memset(cl->have + cl->cap, 0, (size_t)(cap - cl->cap));
  cl->cap = cap;
  return 0;
}

/* ---------------------------------------------------------------- runner state */
typedef struct {
  SimCfg cfg;
  Cell *cells;
  int nc;
  int rank, size;
  FILE *journal;
  int jerr;            /* errno of the first journal write that failed: the run stops      */
  long jlines, jfail_after;
  /* progress */
  long total_planned, total_done;
  double t0, last_print;
  int tty;
} Run;

/* test hook: WATERLOO_JOURNAL_FAIL_AFTER=N makes every journal write after the N-th fail as a
 * full disk would (ENOSPC), so the tests can show that a run stops at once and keeps its games */
static long journal_fail_after(void) {
  const char *e = getenv("WATERLOO_JOURNAL_FAIL_AFTER");
  return e && *e ? strtol(e, NULL, 10) : -1;
}

static void journal_line(Run *R, const Cell *cell, const GameFacts *f) {
  if (!R->journal || R->jerr) return;
  Buf b = {0};
  facts_csv_row(&b, R->cfg.scen[cell->si], R->cfg.var[cell->vi], R->cfg.pf[cell->pi],
                R->cfg.pa[cell->pi], R->cfg.seed, f);
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
static long journal_load(Run *R, const char *path, int check_seed) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  long loaded = 0, bad = 0;
  int first = 1;
  while ((len = getline(&line, &cap, f)) > 0) {
    if (line[len - 1] != '\n') { bad++; break; } /* torn last line */
    if (first && line[0] == '#') {
      first = 0;
      SimCfg jc;
      if (cfg_parse(line, &jc) == 0 && check_seed && jc.seed != R->cfg.seed) {
        fprintf(stderr, "sim: %s was written with seed %" PRIu64 ", not %" PRIu64
                        "; not resuming from it\n", path, jc.seed, R->cfg.seed);
        break;
      }
      if (check_seed && jc.fp != R->cfg.fp) {
        fprintf(stderr, "sim: %s was written by a build whose engine plays differently "
                        "(fingerprint %08x, now %08x); not resuming from it\n", path, jc.fp, R->cfg.fp);
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
      if (g.index >= 0 && g.index < R->cfg.games && cell_reserve(cl, g.index + 1L) == 0 &&
          !cl->have[g.index]) {
        cl->res[g.index] = g;
        cl->have[g.index] = 1;
        loaded++;
      }
      break;
    }
  }
  free(line);
  fclose(f);
  if (bad) fprintf(stderr, "sim: %s: ignored %ld torn or malformed line(s)\n", path, bad);
  return loaded;
}

static int is_journal_name(const char *n) {
  size_t k = strlen(n);
  return !strncmp(n, "journal", 7) && k >= 11 && !strcmp(n + k - 4, ".csv");
}

static long journal_load_dir(Run *R, const char *dir, int check_seed) {
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

static void journal_name(const Run *R, char *p, size_t len) {
  if (R->cfg.shard_n > 1)
    snprintf(p, len, "%s/journal-shard%dof%d.csv", R->cfg.out, R->cfg.shard_i, R->cfg.shard_n);
  else if (R->rank > 0)
    snprintf(p, len, "%s/journal-rank%d.csv", R->cfg.out, R->rank);
  else
    snprintf(p, len, "%s/journal.csv", R->cfg.out);
}

static void remove_journals(const char *dir) {
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

/* Before any game: the output directory can be written, and nothing of another run is lost.
 * A journal is never deleted unless --overwrite asks; --resume with other options stops. */
static int check_out_dir(Run *R) {
  SimCfg *c = &R->cfg;
  char own[1400];
  journal_name(R, own, sizeof own);
  const char *slash = strrchr(own, '/');
  const char *own_name = slash ? slash + 1 : own;
  DIR *d = opendir(c->out);
  if (!d) { fprintf(stderr, "sim: cannot open %s: %s\n", c->out, strerror(errno)); return 2; }
  struct dirent *e;
  int nj = 0, own_exists = 0;
  char differ[200] = "", other[256] = "";
  while ((e = readdir(d))) {
    if (!is_journal_name(e->d_name)) continue;
    char p[1400];
    snprintf(p, sizeof p, "%s/%.255s", c->out, e->d_name);
    struct stat st;
    if (stat(p, &st) || st.st_size == 0) continue;
    nj++;
    if (!strcmp(e->d_name, own_name)) own_exists = 1;
    FILE *f = fopen(p, "r");
    char line[4096];
    SimCfg jc;
    const char *why = NULL;
    if (!f || !fgets(line, sizeof line, f) || cfg_parse(line, &jc)) why = "an unreadable header";
    else why = cfg_differs(&jc, c);
    if (f) fclose(f);
    if (why && !differ[0]) {
      snprintf(differ, sizeof differ, "%s", why);
      snprintf(other, sizeof other, "%.255s", e->d_name);
    }
  }
  closedir(d);
  if (c->resume) {
    if (differ[0]) {
      fprintf(stderr, "sim: --resume: %s/%s was made with different options (%s); resume with "
                      "the same options, or write to another --out\n", c->out, other, differ);
      return 2;
    }
  } else if (nj > 0) {
    if (c->overwrite) {
      if (c->shard_n > 1) unlink(own); else remove_journals(c->out);
    } else if (c->shard_n > 1 && !own_exists && !differ[0]) {
      /* other shards of the same run share the directory */
    } else {
      fprintf(stderr, "sim: %s holds the journal of %s run: add --resume to continue it "
                      "(plays only what is missing), --overwrite to discard it, or choose another "
                      "--out\n", c->out, differ[0] ? "a different" : "an earlier");
      return 2;
    }
  }
  if (!c->resume && !c->overwrite && nj == 0) {
    /* reports of a different run (no journal: e.g. a committed results folder) */
    char sp[1400];
    snprintf(sp, sizeof sp, "%s/summary.json", c->out);
    FILE *f = fopen(sp, "r");
    if (f) {
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
        fprintf(stderr, "sim: %s holds the reports of a different run: choose another --out, or "
                        "--overwrite to replace them\n", c->out);
        return 2;
      }
    }
  }
  /* the directory takes new files (the reports and the journal) */
  char probe[1400];
  snprintf(probe, sizeof probe, "%s/.probe.%ld", c->out, (long)getpid());
  int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) { fprintf(stderr, "sim: cannot write in %s: %s\n", c->out, strerror(errno)); return 2; }
  close(fd);
  unlink(probe);
  return 0;
}

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
    int rc = run_game_specs(cl->sc, R->cfg.pf[cl->pi], R->cfg.pa[cl->pi], R->cfg.seed,
                            (uint64_t)w[j].index, &f, NULL, e, sizeof e);
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
static void mark_identical(const SimCfg *c, Cell *cells) {
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

/* the whole run: returns the exit code */
static int sim_run(Run *R) {
  SimCfg *c = &R->cfg;
  R->nc = ncells(c);
  R->cells = calloc((size_t)R->nc, sizeof(Cell));
  char err[512];
  /* load every scenario x variant once */
  for (int si = 0; si < c->nscen; si++)
    for (int vi = 0; vi < c->nvar; vi++) {
      Scen *sc = malloc(sizeof(Scen));
      if (scen_load(sc, scen_default_dir(), c->scen[si], c->var[vi], err, sizeof err)) {
        fprintf(stderr, "sim: %s %s: %s\n", c->scen[si], c->var[vi], err);
        free(sc);
        return 2;
      }
      for (int pi = 0; pi < c->npair; pi++) {
        Cell *cl = &R->cells[cell_id(c, si, pi, vi)];
        cl->si = si; cl->vi = vi; cl->pi = pi;
        cl->sc = sc;
        cl->active = 1;
      }
    }
  mark_identical(c, R->cells);
  for (int ci = 0; ci < R->nc; ci++)
    if (R->cells[ci].identical) R->cells[ci].active = 0;
  /* check the player specs before any long work */
  for (int pi = 0; pi < c->npair; pi++) {
    const char *sp[2] = {c->pf[pi], c->pa[pi]};
    for (int s = 0; s < 2; s++) {
      if (player_spec_check(sp[s], err, sizeof err)) { fprintf(stderr, "sim: %s\n", err); return 2; }
    }
  }
  c->fp = engine_fingerprint(c, R->cells);
  int drc = 0;
  if (R->rank == 0) {
    if (mkdir_p(c->out)) {
      fprintf(stderr, "sim: cannot create %s: %s\n", c->out, strerror(errno));
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
  if (loaded && c->progress) fprintf(stderr, "sim: resumed %ld finished games from %s\n", loaded, c->out);
  char jp[1400];
  journal_name(R, jp, sizeof jp);
  if (R->rank > 0 && !c->resume) unlink(jp); /* rank 0 has checked the directory: a rank's
                                                 own journal of the run it refused or discarded */
  if (c->resume) {
    /* our own journal from another seed or engine build: set it aside, start a new one */
    FILE *jf = fopen(jp, "r");
    if (jf) {
      char line[4096];
      SimCfg jc;
      int ok = fgets(line, sizeof line, jf) && cfg_parse(line, &jc) == 0 && jc.seed == c->seed &&
               jc.fp == c->fp;
      fclose(jf);
      if (!ok) {
        char old[1500];
        snprintf(old, sizeof old, "%s.stale", jp);
        if (rename(jp, old) == 0)
          fprintf(stderr, "sim: moved the unusable journal to %s\n", old);
      }
    }
  }
  struct stat stt;
  int fresh = stat(jp, &stt) != 0 || stt.st_size == 0;
  R->journal = fopen(jp, "a");
  if (!R->journal) { fprintf(stderr, "sim: cannot write %s: %s\n", jp, strerror(errno)); return 2; }
  int wok;
  if (fresh) {
    Buf b = {0};
    cfg_line(c, &b);
    wok = fprintf(R->journal, "%s\n", b.s) >= 0;
    buf_free(&b);
  } else {
    /* a torn last line must not swallow the next record */
    wok = fprintf(R->journal, "\n") >= 0;
  }
  if (fflush(R->journal) != 0 || !wok) {
    fprintf(stderr, "sim: cannot write %s: %s\n", jp, strerror(errno));
    fclose(R->journal);
    R->journal = NULL;
    return 2;
  }
  R->jfail_after = journal_fail_after();
  R->tty = isatty(2);
  R->t0 = clock_wall();
  double cpu0 = clock_cpu();
  long batch = c->until_ci > 0 ? c->batch : c->games;
  for (int ci = 0; ci < R->nc; ci++) R->cells[ci].target = 0;
  /* total for the progress bar: the cap */
  int rc = 0;
  Work *w = malloc(sizeof(Work) * (size_t)R->nc * (size_t)(batch < c->games ? batch : c->games) + 16);
  for (;;) {
    long nw = 0, nmine = 0;
    for (int ci = 0; ci < R->nc; ci++) {
      Cell *cl = &R->cells[ci];
      cl->planned = cl->done = 0;
      if (!cl->active) continue;
      long from = cl->target, to = from + batch < c->games ? from + batch : c->games;
      cl->target = to;
      if (cell_reserve(cl, to)) { fprintf(stderr, "sim: out of memory\n"); return 2; }
      for (long i = from; i < to; i++) {
        if (cl->have[i]) continue;
        if (c->shard_n > 1 && i % c->shard_n != c->shard_i) continue;
        w[nw].cell = ci;
        w[nw].index = (int32_t)i;
        nw++;
      }
    }
    /* MPI: rank r plays work items r, r+size, ... */
    Work *mine = w;
    if (R->size > 1) {
      mine = malloc(sizeof(Work) * (size_t)(nw / R->size + 1));
      for (long j = R->rank; j < nw; j += R->size) mine[nmine++] = w[j];
    } else {
      nmine = nw;
    }
    for (long j = 0; j < nmine; j++) R->cells[mine[j].cell].planned++;
    R->total_planned += nmine;
    rc = play_batch(R, mine, nmine, err, sizeof err);
    if (mine != w) free(mine);
    if (rc) { fprintf(stderr, "%ssim: %s\n", R->tty ? "\n" : "", err); rc = 2; break; }
#ifdef USE_MPI
    if (R->size > 1) mpi_share(R, w, nw);
#endif
    int any = 0;
    for (int ci = 0; ci < R->nc; ci++) {
      Cell *cl = &R->cells[ci];
      if (!cl->active) continue;
      if (cl->target >= c->games) cl->active = 0;
      else if (c->until_ci > 0 && cell_halfwidth(cl) <= c->until_ci) cl->active = 0;
      if (c->progress && R->rank == 0 && (R->size > 1 || c->until_ci > 0) && !cl->active) cell_line(R, cl);
      any |= cl->active;
    }
    if (!any) break;
  }
  free(w);
  if (R->tty && c->progress && R->rank == 0) { progress_bar(R, 1); fprintf(stderr, "\n"); }
  fclose(R->journal);
  R->journal = NULL;
  if (rc) return rc;
  double el = clock_wall() - R->t0;
  if (c->progress && R->rank == 0)
    fprintf(stderr, "sim: %ld games played in %.1f s wall, %.1f CPU s (%.2f CPU ms/game; %.1f games/s)\n",
            R->total_done, el, clock_cpu() - cpu0,
            R->total_done ? 1000 * (clock_cpu() - cpu0) / R->total_done : 0.0,
            el > 0 ? R->total_done / el : 0.0);
  if (c->shard_n > 1) {
    if (c->progress)
      fprintf(stderr, "sim: shard %d/%d done; merge the shard directories with ./waterloo merge\n",
              c->shard_i, c->shard_n);
    return 0;
  }
  if (R->rank == 0) {
    if (sim_report(c, R->cells, c->out)) {
      fprintf(stderr, "sim: cannot write the reports in %s: %s\n", c->out, strerror(errno));
      return 2;
    }
    if (c->progress) fprintf(stderr, "sim: reports in %s/ (report.md, summary.json, games.csv, *.svg)\n", c->out);
  }
  return 0;
}

static void run_free(Run *R) {
  for (int ci = 0; ci < R->nc; ci++) {
    Cell *cl = &R->cells[ci];
    free(cl->res);
    free(cl->have);
    if (cl->pi == 0) free(cl->sc);
  }
  free(R->cells);
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
  const char *scen = "short,long", *var = NULL, *budgets = NULL;
  for (int i = 1; i < argc; i++) {
    const char *v;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { sim_usage(stdout); return 0; }
    else if ((v = optval(argc, argv, &i, "--scenario"))) scen = v;
    else if ((v = optval(argc, argv, &i, "--variant"))) var = v;
    else if ((v = optval(argc, argv, &i, "--set"))) {
      if (c->nset >= MAX_SET || strlen(v) >= sizeof c->set[0] || !strchr(v, '=') || strchr(v, '=') == v) {
        fprintf(stderr, "sim: bad --set '%s' (NAME=V1,V2,... at most %d times)\n", v, MAX_SET);
        return 2;
      }
      snprintf(c->set[c->nset++], sizeof c->set[0], "%s", v);
    }
    else if ((v = optval(argc, argv, &i, "--players"))) {
      char a[SPEC_LEN], b[SPEC_LEN];
      if (parse_pair(v, a, b) || add_pair(c, a, b)) {
        fprintf(stderr, "sim: bad --players '%s' (A,B or A/B)\n", v);
        return 2;
      }
    } else if ((v = optval(argc, argv, &i, "--budgets"))) budgets = v;
    else if ((v = optval(argc, argv, &i, "--games"))) { if (opt_long("sim", "--games", v, 1, CLI_MAX_GAMES, &c->games)) return 2; }
    else if ((v = optval(argc, argv, &i, "--seed"))) { if (opt_u64("sim", "--seed", v, &c->seed)) return 2; }
    else if ((v = optval(argc, argv, &i, "--threads"))) { if (opt_int("sim", "--threads", v, 1, CLI_MAX_THREADS, &c->threads)) return 2; }
    else if ((v = optval(argc, argv, &i, "--out"))) snprintf(c->out, sizeof c->out, "%s", v);
    else if (!strcmp(argv[i], "--resume")) c->resume = 1;
    else if (!strcmp(argv[i], "--overwrite")) c->overwrite = 1;
    else if (!strcmp(argv[i], "--quiet")) c->progress = 0;
    else if ((v = optval(argc, argv, &i, "--until-ci"))) { if (opt_double("sim", "--until-ci", v, 0, 0.5, &c->until_ci)) return 2; }
    else if ((v = optval(argc, argv, &i, "--batch"))) { if (opt_long("sim", "--batch", v, 1, CLI_MAX_GAMES, &c->batch)) return 2; }
    else if ((v = optval(argc, argv, &i, "--shard"))) {
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
    } else {
      fprintf(stderr, "sim: unknown option '%s' (see --help)\n", argv[i]);
      return 2;
    }
  }
  if (c->games <= 0 || c->games > 100000000) { fprintf(stderr, "sim: bad --games\n"); return 2; }
  if (c->batch <= 0) { fprintf(stderr, "sim: bad --batch\n"); return 2; }
  if (c->until_ci < 0 || c->until_ci >= 0.5) { fprintf(stderr, "sim: bad --until-ci (0 < W < 0.5)\n"); return 2; }
  if (c->until_ci > 0 && c->shard_n > 1) {
    fprintf(stderr, "sim: --until-ci needs every game of a batch: not with --shard (use MPI)\n");
    return 2;
  }
  if (c->until_ci == 0) c->batch = 0;
  c->nscen = split_list(scen, ',', c->scen[0], MAX_SCEN, 16);
  if (c->nscen <= 0) { fprintf(stderr, "sim: bad --scenario\n"); return 2; }
  for (int i = 0; i < c->nscen; i++)
    if (strcmp(c->scen[i], "short") && strcmp(c->scen[i], "long")) {
      fprintf(stderr, "sim: unknown scenario '%s' (short, long)\n", c->scen[i]);
      return 2;
    }
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
  if (c->nset > 0 && add_sweep(c)) return 2;
  if (budgets) {
    char bl[MAX_PAIRS][SPEC_LEN];
    int n = split_list(budgets, ',', bl[0], MAX_PAIRS, SPEC_LEN);
    if (n <= 0) { fprintf(stderr, "sim: bad --budgets\n"); return 2; }
    for (int i = 0; i < n; i++)
      if (add_pair(c, bl[i], bl[i])) { fprintf(stderr, "sim: too many player pairs\n"); return 2; }
  }
  if (c->npair == 0) add_pair(c, "heuristic", "heuristic");
  R.rank = 0;
  R.size = 1;
  int rc_early = 0;
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
  if (c->resume && c->overwrite) {
    if (R.rank == 0) fprintf(stderr, "sim: --resume and --overwrite contradict each other\n");
    rc_early = 2;
  }
  if (!c->out[0] && !rc_early) {
    if (c->resume) {
      if (R.rank == 0) fprintf(stderr, "sim: --resume needs the --out of the run to continue\n");
      rc_early = 2;
    } else if (R.rank == 0) {
      /* a new folder per run: nothing of an earlier run is ever overwritten by default */
      for (int k = 1; k < 100000; k++) {
        struct stat st;
        snprintf(c->out, sizeof c->out, "results/run-%d", k);
        if (stat(c->out, &st) != 0) break;
      }
    }
#ifdef USE_MPI
    if (R.size > 1) MPI_Bcast(c->out, (int)sizeof c->out, MPI_CHAR, 0, MPI_COMM_WORLD);
#endif
  }
  int rc = rc_early ? rc_early : sim_run(&R);
  run_free(&R);
#ifdef USE_MPI
  if (mine_init) MPI_Finalize();
#endif
  return rc;
}

/* ---------------------------------------------------------------- merge */
int cmd_merge(int argc, char **argv) {
  const char *out = "results/latest";
  const char *dirs[256];
  int nd = 0;
  for (int i = 1; i < argc; i++) {
    const char *v;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf("usage: waterloo merge [--out DIR] DIR...\n"
             "Merges the journals of './waterloo sim --shard i/N --out DIR' runs (one directory\n"
             "per shard, or one shared directory) and writes the report the plain run would\n"
             "have written.  Every game of every cell must be present.\n");
      return 0;
    } else if ((v = optval(argc, argv, &i, "--out"))) out = v;
    else if (argv[i][0] == '-') { fprintf(stderr, "merge: unknown option '%s'\n", argv[i]); return 2; }
    else if (nd < 256) dirs[nd++] = argv[i];
  }
  if (nd == 0) { fprintf(stderr, "merge: no directories (see --help)\n"); return 2; }
  /* the configuration: from the first journal header found */
  Run R;
  memset(&R, 0, sizeof R);
  int have_cfg = 0;
  for (int d = 0; d < nd && !have_cfg; d++) {
    DIR *dp = opendir(dirs[d]);
    if (!dp) { fprintf(stderr, "merge: cannot open %s\n", dirs[d]); return 2; }
    struct dirent *e;
    while ((e = readdir(dp)) && !have_cfg) {
      if (!is_journal_name(e->d_name)) continue;
      char p[1400];
      snprintf(p, sizeof p, "%s/%s", dirs[d], e->d_name);
      FILE *f = fopen(p, "r");
      if (!f) continue;
      char line[4096];
      if (fgets(line, sizeof line, f) && cfg_parse(line, &R.cfg) == 0) have_cfg = 1;
      fclose(f);
    }
    closedir(dp);
  }
  if (!have_cfg) { fprintf(stderr, "merge: no journal with a header in the given directories\n"); return 2; }
  SimCfg *c = &R.cfg;
  snprintf(c->out, sizeof c->out, "%s", out);
  R.size = 1;
  R.nc = ncells(c);
  R.cells = calloc((size_t)R.nc, sizeof(Cell));
  char err[512];
  for (int si = 0; si < c->nscen; si++)
    for (int vi = 0; vi < c->nvar; vi++) {
      Scen *sc = malloc(sizeof(Scen));
      if (scen_load(sc, scen_default_dir(), c->scen[si], c->var[vi], err, sizeof err)) {
        fprintf(stderr, "merge: %s %s: %s\n", c->scen[si], c->var[vi], err);
        return 2;
      }
      for (int pi = 0; pi < c->npair; pi++) {
        Cell *cl = &R.cells[cell_id(c, si, pi, vi)];
        cl->si = si; cl->vi = vi; cl->pi = pi;
        cl->sc = sc;
        cl->target = c->games;
        if (cell_reserve(cl, c->games)) { fprintf(stderr, "merge: out of memory\n"); return 2; }
      }
    }
  mark_identical(c, R.cells);
  for (int ci = 0; ci < R.nc; ci++)
    if (R.cells[ci].identical) R.cells[ci].target = 0;
  for (int d = 0; d < nd; d++) journal_load_dir(&R, dirs[d], 1);
  long missing = 0;
  for (int ci = 0; ci < R.nc; ci++)
    for (long i = 0; i < R.cells[ci].target; i++) missing += !R.cells[ci].have[i];
  int rc = 0;
  if (missing) {
    fprintf(stderr, "merge: %ld games missing (a shard not finished? resume it with --resume)\n", missing);
    rc = 1;
  } else if (mkdir_p(out) || sim_report(c, R.cells, out)) {
    fprintf(stderr, "merge: cannot write the reports in %s\n", out);
    rc = 2;
  } else {
    /* one journal with everything, so the merged directory can be resumed or merged again */
    Buf b = {0};
    cfg_line(c, &b);
    buf_printf(&b, "\n");
    for (int ci = 0; ci < R.nc; ci++) {
      Cell *cl = &R.cells[ci];
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
    snprintf(jp, sizeof jp, "%s/journal.csv", out);
    int same = 0;
    for (int d = 0; d < nd; d++) same |= !strcmp(dirs[d], out);
    if (!same) write_atomic(jp, b.s, b.n);
    buf_free(&b);
    fprintf(stderr, "merge: %d cells, %ld games each; reports in %s/\n", R.nc, c->games, out);
  }
  run_free(&R);
  return rc;
}
