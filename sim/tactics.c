/* The tactics suite: reading and checking the positions (scenarios/tactics.txt, format in
 * tactics.h) and the experiment of `waterloo tactics`: each player is asked for its move in
 * each position, from the deciding side's observation only, and the table says whether the
 * suite accepts it. */
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "sim.h"
#include "tactics.h"
#include "../engine/util.h"

#define NFIELDS 7

/* lower case, single spaces, no blanks at either end */
static void normalize(const char *in, char *out, size_t len) {
  size_t n = 0;
  int space = 0;
  for (const char *p = in; *p && n + 1 < len; p++) {
    if (isspace((unsigned char)*p)) {
      space = n > 0;
      continue;
    }
    if (space && n + 2 < len) out[n++] = ' ';
    space = 0;
    out[n++] = (char)tolower((unsigned char)*p);
  }
  out[n] = 0;
}

/* the next item of a ';'-separated list, normalized; NULL at the end.  *raw (when not NULL):
 * where the item starts as written (it ends at the new *p, before trailing blanks) */
static const char *next_item(const char **p, char *out, size_t len, const char **raw) {
  while (**p == ';' || isspace((unsigned char)**p)) (*p)++;
  if (!**p) return NULL;
  if (raw) *raw = *p;
  const char *e = strchr(*p, ';');
  size_t k = e ? (size_t)(e - *p) : strlen(*p);
  char tmp[TACTIC_FIELD];
  if (k >= sizeof tmp) k = sizeof tmp - 1;
  memcpy(tmp, *p, k);
  tmp[k] = 0;
  *p += k;
  normalize(tmp, out, len);
  return out;
}

int tactic_accepts(const Scen *sc, const State *s, const Tactic *t, Action a) {
  char text[160], have[160], want[TACTIC_FIELD];
  action_format(sc, s, a, text, sizeof text);
  normalize(text, have, sizeof have);
  for (const char *p = t->accept; next_item(&p, want, sizeof want, NULL);)
    if (!fnmatch(want, have, 0)) return 1;
  return 0;
}

int tactic_state(const Tactic *t, Scen **scp, State *s, char *err, size_t errlen) {
  Scen *sc = malloc(sizeof *sc);
  char why[1024];
  *scp = NULL;
  if (!sc) return snprintf(err, errlen, "out of memory"), -1;
  if (scen_load(sc, scen_default_dir(), t->scen, t->variant, why, sizeof why)) {
    snprintf(err, errlen, "%s", why);
    free(sc);
    return -1;
  }
  if (position_parse(sc, t->position, s, why, sizeof why)) {
    snprintf(err, errlen, "%s", why);
    free(sc);
    return -1;
  }
  char item[TACTIC_FIELD];
  for (const char *p = t->setup; next_item(&p, item, sizeof item, NULL);) {
    Action a;
    if (!strcmp(item, "-")) continue;
    if (action_parse(sc, s, item, &a, why, sizeof why)) {
      snprintf(err, errlen, "set-up: %s", why);
      free(sc);
      return -1;
    }
    gs_apply(sc, s, a);
  }
  *scp = sc;
  return 0;
}

/* the fields of one line, cut in place at " | " */
static int split_fields(char *line, char **f) {
  int n = 0;
  for (char *p = line; n < NFIELDS; n++) {
    f[n] = p;
    char *e = strstr(p, " | ");
    if (!e) return n + 1;
    *e = 0;
    p = e + 3;
  }
  return n + 1; /* more than NFIELDS: the last one holds a " | " */
}

static int copy_field(char *dst, size_t len, const char *src, const char *what, char *err,
                      size_t errlen) {
  char tmp[TACTIC_FIELD * 2];
  normalize(src, tmp, sizeof tmp);
  if (!*tmp) return snprintf(err, errlen, "empty %s", what), -1;
  if (strlen(src) >= len)
    return snprintf(err, errlen, "%s longer than %zu characters", what, len - 1), -1;
  snprintf(dst, len, "%s", src);
  /* strip the blanks at the ends, keep the case (ids, comments) */
  size_t k = strlen(dst);
  while (k && isspace((unsigned char)dst[k - 1])) dst[--k] = 0;
  size_t b = strspn(dst, " \t");
  memmove(dst, dst + b, strlen(dst + b) + 1);
  return 0;
}

static int parse_tags(Tactic *t, char *err, size_t errlen) {
  char tags[sizeof t->tags];
  snprintf(tags, sizeof tags, "%s", t->tags);
  char *save = NULL;
  for (char *w = strtok_r(tags, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
    if (!strcmp(w, "-")) continue;
    else if (!strcmp(w, "easy")) t->easy = 1;
    else if (!strcmp(w, "win=french")) t->win = RES_FRENCH;
    else if (!strcmp(w, "win=allied")) t->win = RES_ALLIED;
    else if (!strcmp(w, "win=draw")) t->win = RES_DRAW;
    else return snprintf(err, errlen, "unknown tag '%.30s' (easy, win=french|allied|draw)", w), -1;
  }
  return 0;
}

/* one line into t: the fields, the tags, the scenario of the position */
static int parse_line(char *line, Tactic *t, char *err, size_t errlen) {
  char *f[NFIELDS + 1];
  int n = split_fields(line, f);
  if (n != NFIELDS)
    return snprintf(err, errlen, "%d fields, not %d (ID | RULES | ACCEPTED | TAGS | POSITION | "
                    "SET-UP | COMMENT)", n, NFIELDS), -1;
  if (copy_field(t->id, sizeof t->id, f[0], "id", err, errlen) ||
      copy_field(t->rules, sizeof t->rules, f[1], "rule ids", err, errlen) ||
      copy_field(t->accept, sizeof t->accept, f[2], "accepted moves", err, errlen) ||
      copy_field(t->tags, sizeof t->tags, f[3], "tags", err, errlen) ||
      copy_field(t->setup, sizeof t->setup, f[5], "set-up actions", err, errlen) ||
      copy_field(t->comment, sizeof t->comment, f[6], "comment", err, errlen))
    return -1;
  if (strncmp(t->rules, "R-", 2)) return snprintf(err, errlen, "rule ids must start with R-"), -1;
  if (parse_tags(t, err, errlen)) return -1;
  t->position = strdup(f[4]);
  if (!t->position) return snprintf(err, errlen, "out of memory"), -1;
  if (position_scenario(t->position, t->scen, sizeof t->scen, t->variant, sizeof t->variant))
    return snprintf(err, errlen, "the position text must start with SCENARIO VARIANTS"), -1;
  return 0;
}

/* the checks of tactics_load on one parsed position */
static int check_tactic(const Tactic *t, const TacticSet *set, char *err, size_t errlen) {
  for (int i = 0; i < set->n; i++)
    if (!strcmp(set->t[i].id, t->id)) return snprintf(err, errlen, "id '%s' used twice", t->id), -1;
  Scen *sc;
  State s;
  if (tactic_state(t, &sc, &s, err, errlen)) return -1;
  char why[256];
  int rc = -1;
  ActList *L = malloc(sizeof *L);
  if (!L) { snprintf(err, errlen, "out of memory"); goto out; }
  if (gs_check(sc, &s, why, sizeof why)) {
    snprintf(err, errlen, "impossible position: %s", why);
    goto out;
  }
  if (gs_over(&s)) { snprintf(err, errlen, "the game is over: no decision"); goto out; }
  gs_legal(sc, &s, L);
  int nacc = 0;
  for (int i = 0; i < L->n; i++) nacc += tactic_accepts(sc, &s, t, L->a[i]);
  if (nacc == L->n) { snprintf(err, errlen, "every legal move is accepted: no choice"); goto out; }
  char want[TACTIC_FIELD];
  const char *raw;
  for (const char *p = t->accept; next_item(&p, want, sizeof want, &raw);) {
    Tactic one = *t;
    snprintf(one.accept, sizeof one.accept, "%s", want);
    int hit = 0;
    for (int i = 0; i < L->n && !hit; i++) hit = tactic_accepts(sc, &s, &one, L->a[i]);
    if (!hit) {
      /* quoted as the file writes it (the match is case-blind, the message is not) */
      int k = (int)(p - raw);
      while (k > 0 && isspace((unsigned char)raw[k - 1])) k--;
      snprintf(err, errlen, "accepted move '%.*s' is not legal here (%s phase)", k, raw,
               phase_name(s.turn.phase));
      goto out;
    }
  }
  rc = 0;
out:
  free(L);
  free(sc);
  return rc;
}

static int load_lines(FILE *f, const char *path, TacticSet *set, char *err, size_t errlen) {
  char *line = NULL;
  size_t cap = 0;
  int lineno = 0, cap_t = 0;
  ssize_t k;
  while ((k = getline(&line, &cap, f)) >= 0) {
    lineno++;
    while (k > 0 && (line[k - 1] == '\n' || line[k - 1] == '\r')) line[--k] = 0;
    size_t b = strspn(line, " \t");
    if (!line[b] || line[b] == '#') continue;
    if (set->n == cap_t) {
      cap_t = cap_t ? 2 * cap_t : 32;
      Tactic *nt = realloc(set->t, (size_t)cap_t * sizeof *nt);
      if (!nt) { snprintf(err, errlen, "%s: out of memory", path); free(line); return -1; }
      set->t = nt;
    }
    Tactic *t = &set->t[set->n];
    memset(t, 0, sizeof *t);
    t->line = lineno;
    char why[1024];
    if (parse_line(line + b, t, why, sizeof why) || check_tactic(t, set, why, sizeof why)) {
      free(t->position);
      snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
      free(line);
      return -1;
    }
    set->n++;
  }
  free(line);
  if (!set->n) return snprintf(err, errlen, "%s: no position in the file", path), -1;
  return 0;
}

int tactics_load(const char *path, TacticSet *set, char *err, size_t errlen) {
  set->t = NULL;
  set->n = 0;
  FILE *f = fopen(path, "r");
  if (!f) return snprintf(err, errlen, "%s: cannot read it: %s", path, strerror(errno)), -1;
  int rc = load_lines(f, path, set, err, errlen);
  if (rc && ferror(f)) snprintf(err, errlen, "%s: cannot read it: %s", path, strerror(errno));
  fclose(f);
  if (rc) tactics_free(set);
  return rc;
}

void tactics_free(TacticSet *set) {
  for (int i = 0; i < set->n; i++) free(set->t[i].position);
  free(set->t);
  set->t = NULL;
  set->n = 0;
}

/* ---------------------------------------------------------------- the experiment */

void tactic_ask(const Tactic *t, const char *spec, uint64_t seed, TacticAnswer *ans) {
  Scen *sc;
  State s, obs;
  char err[1024];
  ans->ok = 0;
  ans->cpu = 0;
  if (tactic_state(t, &sc, &s, err, sizeof err)) {
    snprintf(ans->move, sizeof ans->move, "(position: %.100s)", err);
    return;
  }
  Player *p = player_new(sc, spec, seed, err, sizeof err);
  if (!p) {
    snprintf(ans->move, sizeof ans->move, "(player: %.100s)", err);
    free(sc);
    return;
  }
  gs_observe(sc, &s, gs_decider(&s), &obs);
  double c0 = clock_thread_cpu();
  Action a = player_act(p, &obs);
  ans->cpu = clock_thread_cpu() - c0;
  if (!gs_is_legal(sc, &s, a)) {
    snprintf(ans->move, sizeof ans->move, "(illegal action %d)", a.t);
  } else {
    action_format(sc, &s, a, ans->move, sizeof ans->move);
    ans->ok = tactic_accepts(sc, &s, t, a);
  }
  player_free(p);
  free(sc);
}

/* the markdown table: a row per position, the score per player */
static void table(const TacticSet *set, const TacticsRun *o, const TacticAnswer *ans, Buf *b) {
  buf_printf(b, "| position | rules | accepted | easy |");
  for (int p = 0; p < o->nplayers; p++) buf_printf(b, " %s |", o->players[p]);
  buf_printf(b, "\n|---|---|---|---|");
  for (int p = 0; p < o->nplayers; p++) buf_printf(b, "---|");
  buf_printf(b, "\n");
  for (int i = 0; i < set->n; i++) {
    const Tactic *t = &set->t[i];
    buf_printf(b, "| %s | %s | %s | %s |", t->id, t->rules, t->accept, t->easy ? "easy" : "");
    for (int p = 0; p < o->nplayers; p++) {
      const TacticAnswer *a = &ans[i * o->nplayers + p];
      buf_printf(b, " %s `%s` |", a->ok ? "ok" : "**fail**", a->move);
    }
    buf_printf(b, "\n");
  }
  const char *rows[3] = {"**score**", "easy ones", "CPU seconds"};
  for (int r = 0; r < 3; r++) {
    buf_printf(b, "| %s | | | |", rows[r]);
    for (int p = 0; p < o->nplayers; p++) {
      int ok = 0, n = 0;
      double cpu = 0;
      for (int i = 0; i < set->n; i++) {
        const TacticAnswer *a = &ans[i * o->nplayers + p];
        if (r == 1 && !set->t[i].easy) continue;
        n++, ok += a->ok, cpu += a->cpu;
      }
      if (r < 2) buf_printf(b, " %d/%d |", ok, n);
      else buf_printf(b, " %.2f |", cpu);
    }
    buf_printf(b, "\n");
  }
}

static void write_report(const TacticSet *set, const TacticsRun *o, const Buf *tab, Buf *md) {
  char cap[CAPTION_LEN];
  build_caption(cap, sizeof cap, 1); /* the levels asked are searches */
  buf_printf(md, "# Tactics suite\n\n%s\n\n", cap);
  buf_printf(md, "Made by `%s`.\n\n", o->command);
  buf_printf(md, "%d positions of `%s` (the format and what each field means: `sim/tactics.h`). "
             "Each player is asked for its move in each position, from the deciding side's "
             "observation only; `ok` when the suite accepts it. A player with its own random "
             "stream is seeded by (seed, position, player), so the table does not depend on "
             "`--threads`.\n\n", set->n, o->file);
  buf_printf(md, "%s\n## The positions\n\n", tab->s);
  for (int i = 0; i < set->n; i++)
    buf_printf(md, "- **%s** (%s): %s\n", set->t[i].id, set->t[i].rules, set->t[i].comment);
}

int tactics_run(const TacticsRun *o, FILE *f) {
  TacticSet set;
  char err[2048];
  if (tactics_load(o->file, &set, err, sizeof err)) {
    fprintf(stderr, "waterloo tactics: %s\n", err);
    return 2;
  }
  /* an output that cannot be written is refused before the first search, not after them all */
  if (o->out && can_create(o->out)) {
    fprintf(stderr, "waterloo tactics: --out %s: cannot write it: %s\n", o->out, strerror(errno));
    tactics_free(&set);
    return 2;
  }
  int np = o->nplayers, n = set.n * np;
  TacticAnswer *ans = calloc((size_t)n, sizeof *ans);
  if (!ans) { tactics_free(&set); fprintf(stderr, "waterloo tactics: out of memory\n"); return 2; }
#pragma omp parallel for schedule(dynamic) num_threads(o->threads)
  for (int k = 0; k < n; k++) {
    int i = k / np, p = k % np;
    uint64_t seed = splitmix64(splitmix64(o->seed ^ ((uint64_t)i << 20)) ^ (uint64_t)p);
    tactic_ask(&set.t[i], o->players[p], seed, &ans[k]);
  }
  Buf tab = {0}, md = {0};
  table(&set, o, ans, &tab);
  fprintf(f, "%s", tab.s);
  int rc = 0;
  if (o->out) {
    write_report(&set, o, &tab, &md);
    if (write_atomic(o->out, md.s, md.n)) {
      fprintf(stderr, "waterloo tactics: --out %s: cannot write it\n", o->out);
      rc = 2;
    } else {
      fprintf(f, "table written to %s\n", o->out);
    }
  }
  buf_free(&tab);
  buf_free(&md);
  free(ans);
  tactics_free(&set);
  return rc;
}
