/* The configuration of a sim run: lists of scenarios, variants, player pairs and sweep cells;
 * the journal header line and its parser; the command that reproduces a report; cell storage.
 * report.c reads the configuration from here, so report.c and sim.c never include each other's
 * functions (issue 13) */
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

/* ---------------------------------------------------------------- lists */
/* split s at sep into out[max][len]; returns the count or -1 */
int split_list(const char *s, char sep, char *out, int max, size_t len) {
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

int sim_add_pair(SimCfg *c, const char *a, const char *b) {
  if (c->npair >= MAX_PAIRS || strlen(a) >= SPEC_LEN || strlen(b) >= SPEC_LEN) return -1;
  memcpy(c->pf[c->npair], a, strlen(a) + 1);
  memcpy(c->pa[c->npair], b, strlen(b) + 1);
  c->npair++;
  return 0;
}

/* shipped variants: base, then every variants/NAME.ini in name order */
int list_variants(SimCfg *c) {
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

/* two values of one --set name that set the same: the same text, or the same number (1, 01, 1.0) */
static int same_value(const char *a, const char *b) {
  char *ea, *eb;
  double x = strtod(a, &ea), y = strtod(b, &eb);
  return !strcmp(a, b) || (ea != a && !*ea && eb != b && !*eb && x == y);
}

/* the cells of the --set sweep: every combination of the values, appended to the variants */
int add_sweep(SimCfg *c) {
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
    for (int i = 1; i < nv[k]; i++)
      for (int j = 0; j < i; j++)
        if (same_value(val[k][i], val[k][j])) {
          fprintf(stderr, "sim: --set %s: %s and %s are the same value (one cell each)\n", name[k], val[k][j], val[k][i]);
          return -1;
        }
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
  if (c->sfp) buf_printf(b, "\tsfp=%08x", c->sfp);
  if (c->detect_pts > 0 || c->detect_vp > 0) buf_printf(b, "\tdetect=%.17g,%.17g", c->detect_pts, c->detect_vp);
  if (c->nset > 0) {
    buf_printf(b, "\tset=%d:", c->sweep_from);
    for (int i = 0; i < c->nset; i++) buf_printf(b, "%s%s", i ? "|" : "", c->set[i]);
  }
}

int cfg_searches(const SimCfg *c) {
  for (int i = 0; i < c->npair; i++)
    if (spec_searches(c->pf[i]) || spec_searches(c->pa[i])) return 1;
  return 0;
}

uint32_t search_cells_fingerprint(const SimCfg *c, Cell *cells) {
  if (!cfg_searches(c)) return 0;
  uint32_t h = 2166136261u;
  for (int si = 0; si < c->nscen; si++)
    for (int pi = 0; pi < c->npair; pi++)
      for (int vi = 0; vi < c->nvar; vi++) {
        uint32_t f = pair_fingerprint(cells[cell_id(c, si, pi, vi)].sc, c->pf[pi], c->pa[pi]);
        h = (h ^ f) * 16777619u;
      }
  return h ? h : 1;
}

uint32_t engine_fingerprint(const SimCfg *c, Cell *cells) {
  uint32_t h = 2166136261u;
  for (int si = 0; si < c->nscen; si++) {
    const Scen *sc = cells[cell_id(c, si, 0, 0)].sc;
    h = (h ^ scen_fingerprint(sc)) * 16777619u;
    /* and one heuristic game (a few ms): random games alone do not notice that the default
     * player plays differently, and a resumed run must never mix two players' games */
    h = facts_hash(h, sc, "heuristic", 0);
    /* the fitted evaluation of every variant: refitting changes how the search players play */
    for (int vi = 0; vi < c->nvar; vi++) h = fit_hash(h, cells[cell_id(c, si, 0, vi)].sc);
  }
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
    else if (!strcmp(t, "sfp")) c->sfp = (uint32_t)strtoul(v, NULL, 16);
    else if (!strcmp(t, "detect")) {
      if (sscanf(v, "%lf,%lf", &c->detect_pts, &c->detect_vp) != 2) return -1;
    }
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
        sim_add_pair(c, pr[i], sl + 1);
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
  if (c->detect_pts > 0) buf_printf(b, " --detect %g", 100 * c->detect_pts);
  if (c->detect_vp > 0) buf_printf(b, " --detect-vp %g", c->detect_vp);
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
