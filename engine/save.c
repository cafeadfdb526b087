/* Positions and whole games as JSON (cJSON).  A position round-trips byte for byte; a game is
 * its scenario, variants, seed and actions in notation, with the final position to check. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

const StateByte STATE_BYTES[] = {
#define F(x) {#x, offsetof(State, x)}
    F(turn), F(phase), F(decider), F(active), F(first), F(ncards), F(last_pass), F(round_army),
    F(owner), F(entry_sq), F(bid_made), F(card), F(card_army), F(mp), F(moving), F(evade_stop),
    F(after_battle), F(bkind), F(batt_side), F(bdef_unit), F(bdef_sq), F(battle_army),
    F(loss_need), F(belite), F(charger), F(last_att), F(last_def), F(turn_first_round),
    F(rally_first), F(ret_phase), F(ret_decider), F(leader_pending), F(result),
#undef F
};
const int N_STATE_BYTES = (int)(sizeof STATE_BYTES / sizeof STATE_BYTES[0]);


static cJSON *cards_json(const Scen *sc, uint64_t m) {
  cJSON *a = cJSON_CreateArray();
  for (; m; m &= m - 1) cJSON_AddItemToArray(a, cJSON_CreateString(sc->card[__builtin_ctzll(m)].id));
  return a;
}

static cJSON *sq_json(int sq) {
  char b[8];
  if (sq == SQ_OFF) return cJSON_CreateString("off");
  if (sq == SQ_DEAD) return cJSON_CreateString("dead");
  if (sq >= NSQ) return cJSON_CreateNull();
  sq_name(sq, b);
  return cJSON_CreateString(b);
}

char *state_to_json(const Scen *sc, const State *s) {
  cJSON *o = cJSON_CreateObject();
  char hex[40];
  snprintf(hex, sizeof hex, "%016" PRIx64, s->rng.state);
  cJSON_AddStringToObject(o, "rng_state", hex);
  snprintf(hex, sizeof hex, "%016" PRIx64, s->rng.inc);
  cJSON_AddStringToObject(o, "rng_inc", hex);
  char desc[256];
  gs_describe(sc, s, desc, sizeof desc);
  cJSON_AddStringToObject(o, "description", desc);
  for (int i = 0; i < N_STATE_BYTES; i++)
    cJSON_AddNumberToObject(o, STATE_BYTES[i].name, ((const uint8_t *)s)[STATE_BYTES[i].off]);
  cJSON_AddItemToObject(o, "hand", cards_json(sc, s->hand));
  cJSON_AddItemToObject(o, "discard", cards_json(sc, s->discard));
  cJSON_AddItemToObject(o, "seen", cards_json(sc, s->seen));
  cJSON_AddItemToObject(o, "pend", cards_json(sc, s->pend));
  cJSON_AddItemToObject(o, "pend_cmd", cards_json(sc, s->pend_cmd));
  cJSON_AddItemToObject(o, "pend_elite", cards_json(sc, s->pend_elite));
  cJSON *units = cJSON_AddArrayToObject(o, "units");
  for (int u = 0; u < sc->nunits; u++) {
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "name", sc->unit[u].name);
    cJSON_AddItemToObject(x, "square", sq_json(s->usq[u]));
    char f[2] = {"NESW"[s->uflag[u] & 3], 0};
    cJSON_AddStringToObject(x, "facing", f);
    cJSON_AddNumberToObject(x, "flags", s->uflag[u] & ~UF_FACING);
    cJSON_AddItemToArray(units, x);
  }
  cJSON_AddItemToObject(o, "napoleon", sq_json(s->leader[0]));
  cJSON_AddItemToObject(o, "wellington", sq_json(s->leader[1]));
  cJSON *cdp = cJSON_AddArrayToObject(o, "cdp");
  for (int i = 0; i < MAX_CASTLES; i++) cJSON_AddItemToArray(cdp, cJSON_CreateNumber(s->cdp[i]));
  cJSON *bid = cJSON_AddArrayToObject(o, "bid_card");
  for (int i = 0; i < 2; i++) cJSON_AddItemToArray(bid, cJSON_CreateNumber(s->bid_card[i]));
  cJSON *batt = cJSON_AddArrayToObject(o, "batt");
  for (int i = 0; i < 4; i++) cJSON_AddItemToArray(batt, cJSON_CreateNumber(s->batt[i]));
  cJSON *ev = cJSON_AddArrayToObject(o, "evaders");
  for (uint64_t m = s->evaders; m; m &= m - 1)
    cJSON_AddItemToArray(ev, cJSON_CreateString(sc->unit[__builtin_ctzll(m)].name));
  cJSON *vp = cJSON_AddArrayToObject(o, "elim_vp");
  for (int i = 0; i < 2; i++) cJSON_AddItemToArray(vp, cJSON_CreateNumber(s->elim_vp[i]));
  cJSON_AddNumberToObject(o, "nactions", s->nactions);
  char *text = cJSON_Print(o);
  cJSON_Delete(o);
  return text;
}

#define FAIL(...)                              \
  do {                                         \
    snprintf(err, errlen, __VA_ARGS__);        \
    cJSON_Delete(o);                           \
    return -1;                                 \
  } while (0)

static int card_list(const Scen *sc, const cJSON *a, uint64_t *m) {
  *m = 0;
  if (!cJSON_IsArray(a)) return -1;
  const cJSON *x;
  cJSON_ArrayForEach(x, a) {
    if (!cJSON_IsString(x)) return -1;
    int c = scen_card(sc, x->valuestring);
    if (c < 0) return -1;
    *m |= 1ull << c;
  }
  return 0;
}

static int sq_from(const cJSON *x) {
  if (cJSON_IsNull(x)) return SQ_NONE;
  if (!cJSON_IsString(x)) return -1;
  if (!strcmp(x->valuestring, "off")) return SQ_OFF;
  if (!strcmp(x->valuestring, "dead")) return SQ_DEAD;
  const char *t = x->valuestring;
  if (t[0] < 'A' || t[0] >= 'A' + MAP_W) return -1;
  int r = atoi(t + 1);
  if (r < 1 || r > MAP_H) return -1;
  return (r - 1) * MAP_W + (t[0] - 'A');
}

static int num_array(const cJSON *a, int n, int hi, int *out) {
  if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != n) return -1;
  for (int i = 0; i < n; i++) {
    const cJSON *x = cJSON_GetArrayItem(a, i);
    if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble > hi) return -1;
    out[i] = x->valueint;
  }
  return 0;
}

/* a unit's markers: the number state_to_json writes, or (for positions written by hand) a list
 * of names: ["reduced", "disordered", "moved", "rallied", "attacked"]; -1 if neither */
static int unit_flags(const cJSON *fl) {
  if (cJSON_IsNumber(fl)) return fl->valueint;
  if (!cJSON_IsArray(fl)) return -1;
  static const struct { const char *name; int bit; } N[] = {
      {"reduced", UF_REDUCED}, {"disordered", UF_DISORDER}, {"moved", UF_MOVED},
      {"rallied", UF_RALLIED}, {"attacked", UF_ATTACKED}, {"in-battle", UF_INBATTLE}};
  int bits = 0;
  const cJSON *x;
  cJSON_ArrayForEach(x, fl) {
    int k = -1;
    for (size_t i = 0; i < sizeof N / sizeof N[0] && cJSON_IsString(x); i++)
      if (!strcmp(x->valuestring, N[i].name)) k = (int)i;
    if (k < 0) return -1;
    bits |= N[k].bit;
  }
  return bits;
}

static int state_from_obj(const Scen *sc, cJSON *o, State *s, char *err, size_t errlen) {
  memset(s, 0, sizeof *s);
  for (int u = 0; u < MAX_UNITS; u++) s->usq[u] = SQ_DEAD;
  const cJSON *x = cJSON_GetObjectItem(o, "rng_state"), *y = cJSON_GetObjectItem(o, "rng_inc");
  if (!cJSON_IsString(x) || !cJSON_IsString(y)) {
    snprintf(err, errlen, "state: rng_state/rng_inc missing");
    return -1;
  }
  s->rng.state = strtoull(x->valuestring, NULL, 16);
  s->rng.inc = strtoull(y->valuestring, NULL, 16);
  for (int i = 0; i < N_STATE_BYTES; i++) {
    x = cJSON_GetObjectItem(o, STATE_BYTES[i].name);
    if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble > 255) {
      snprintf(err, errlen, "state: field '%s' missing or not 0..255", STATE_BYTES[i].name);
      return -1;
    }
    ((uint8_t *)s)[STATE_BYTES[i].off] = (uint8_t)x->valueint;
  }
  struct { const char *k; uint64_t *m; } masks[] = {
      {"hand", &s->hand}, {"discard", &s->discard}, {"seen", &s->seen},
      {"pend", &s->pend}, {"pend_cmd", &s->pend_cmd}, {"pend_elite", &s->pend_elite}};
  for (size_t i = 0; i < 6; i++)
    if (card_list(sc, cJSON_GetObjectItem(o, masks[i].k), masks[i].m)) {
      snprintf(err, errlen, "state: '%s' must be a list of card ids", masks[i].k);
      return -1;
    }
  const cJSON *units = cJSON_GetObjectItem(o, "units");
  if (!cJSON_IsArray(units) || cJSON_GetArraySize(units) != sc->nunits) {
    snprintf(err, errlen, "state: 'units' must list the %d units", sc->nunits);
    return -1;
  }
  for (int u = 0; u < sc->nunits; u++) {
    const cJSON *e = cJSON_GetArrayItem(units, u);
    const cJSON *nm = cJSON_GetObjectItem(e, "name");
    if (!cJSON_IsString(nm) || strcmp(nm->valuestring, sc->unit[u].name)) {
      snprintf(err, errlen, "state: unit %d should be %s", u, sc->unit[u].name);
      return -1;
    }
    int sq = sq_from(cJSON_GetObjectItem(e, "square"));
    const cJSON *f = cJSON_GetObjectItem(e, "facing"), *fl = cJSON_GetObjectItem(e, "flags");
    const char *dp = cJSON_IsString(f) && f->valuestring[0] ? strchr("NESW", f->valuestring[0]) : NULL;
    int bits = unit_flags(fl);
    if (sq < 0 || sq == SQ_NONE || !dp || bits < 0) {
      snprintf(err, errlen, "state: unit %s: bad square, facing or flags", sc->unit[u].name);
      return -1;
    }
    s->usq[u] = (uint8_t)sq;
    s->uflag[u] = (uint8_t)((bits & ~UF_FACING) | (int)(dp - "NESW"));
  }
  int l0 = sq_from(cJSON_GetObjectItem(o, "napoleon")), l1 = sq_from(cJSON_GetObjectItem(o, "wellington"));
  if (l0 < 0 || l1 < 0) {
    snprintf(err, errlen, "state: bad leader square");
    return -1;
  }
  s->leader[0] = (uint8_t)l0;
  s->leader[1] = (uint8_t)l1;
  int v[4];
  if (num_array(cJSON_GetObjectItem(o, "cdp"), 3, 255, v)) {
    snprintf(err, errlen, "state: 'cdp' must be 3 numbers");
    return -1;
  }
  for (int i = 0; i < 3; i++) s->cdp[i] = (uint8_t)v[i];
  if (num_array(cJSON_GetObjectItem(o, "bid_card"), 2, 255, v)) {
    snprintf(err, errlen, "state: 'bid_card' must be 2 numbers");
    return -1;
  }
  s->bid_card[0] = (uint8_t)v[0], s->bid_card[1] = (uint8_t)v[1];
  if (num_array(cJSON_GetObjectItem(o, "batt"), 4, 255, v)) {
    snprintf(err, errlen, "state: 'batt' must be 4 numbers");
    return -1;
  }
  for (int i = 0; i < 4; i++) s->batt[i] = (uint8_t)v[i];
  if (num_array(cJSON_GetObjectItem(o, "elim_vp"), 2, 65535, v)) {
    snprintf(err, errlen, "state: 'elim_vp' must be 2 numbers");
    return -1;
  }
  s->elim_vp[0] = (uint16_t)v[0], s->elim_vp[1] = (uint16_t)v[1];
  const cJSON *ev = cJSON_GetObjectItem(o, "evaders");
  if (cJSON_IsArray(ev)) {
    cJSON_ArrayForEach(x, ev) {
      int u = cJSON_IsString(x) ? scen_unit(sc, x->valuestring) : -1;
      if (u < 0) {
        snprintf(err, errlen, "state: unknown evader");
        return -1;
      }
      s->evaders |= 1ull << u;
    }
  }
  x = cJSON_GetObjectItem(o, "nactions");
  s->nactions = cJSON_IsNumber(x) ? (uint32_t)x->valuedouble : 0;
  gs_rebuild_occ(sc, s);
  for (int u = 0; u < sc->nunits; u++)
    if (s->usq[u] < NSQ && s->occ[s->usq[u]] != u) {
      snprintf(err, errlen, "state: two units on one square");
      return -1;
    }
  if ((s->hand & s->discard) || (s->hand & s->pend) || (s->pend & s->discard)) {
    snprintf(err, errlen, "state: a card is in two places");
    return -1;
  }
  if (!phase_valid(s->phase)) {
    snprintf(err, errlen, "state: bad phase");
    return -1;
  }
  return 0;
}

int state_from_json(const Scen *sc, const char *text, State *s, char *err, size_t errlen) {
  cJSON *o = cJSON_Parse(text);
  if (!o) {
    const char *p = cJSON_GetErrorPtr();
    int line = 1;
    for (const char *q = text; p && q < p; q++) line += *q == '\n';
    snprintf(err, errlen, "line %d: JSON syntax error", line);
    return -1;
  }
  int rc = state_from_obj(sc, o, s, err, errlen);
  cJSON_Delete(o);
  return rc;
}

/* ---------------------------------------------------------------- games */
void gamerec_init(GameRec *g, const char *scenario, const char *variants, uint64_t seed,
                  uint64_t stream) {
  memset(g, 0, sizeof *g);
  snprintf(g->scenario, sizeof g->scenario, "%s", scenario);
  snprintf(g->variants, sizeof g->variants, "%s", variants && *variants ? variants : "base");
  g->seed = seed;
  g->stream = stream;
}

void gamerec_push(GameRec *g, Action a) {
  if (g->n == g->cap) {
    g->cap = g->cap ? g->cap * 2 : 256;
    g->acts = realloc(g->acts, (size_t)g->cap * sizeof *g->acts);
    if (!g->acts) abort();
  }
  g->acts[g->n++] = a;
}

void gamerec_position(const Scen *sc, const GameRec *g, int n, State *out) {
  if (g->has_start) *out = g->start;
  else gs_init(sc, out, g->seed, g->stream);
  for (int i = 0; i < n && i < g->n; i++) gs_apply(sc, out, g->acts[i]);
}

void gamerec_free(GameRec *g) {
  free(g->acts);
  g->acts = NULL;
  g->n = g->cap = 0;
}

int game_save(const Scen *sc, const GameRec *g, const State *s, const char *path, char *err,
              size_t errlen) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "format", "waterloo-game-1");
  cJSON_AddStringToObject(o, "scenario", g->scenario);
  cJSON_AddStringToObject(o, "variants", g->variants);
  char num[32];
  snprintf(num, sizeof num, "%" PRIu64, g->seed);
  cJSON_AddStringToObject(o, "seed", num);
  snprintf(num, sizeof num, "%" PRIu64, g->stream);
  cJSON_AddStringToObject(o, "stream", num);
  cJSON *acts = cJSON_AddArrayToObject(o, "actions");
  State t;
  gamerec_position(sc, g, 0, &t);
  if (g->has_start) {
    char *st0 = state_to_json(sc, &t);
    cJSON_AddItemToObject(o, "start", cJSON_Parse(st0));
    free(st0);
  }
  for (int i = 0; i < g->n; i++) {
    char b[128];
    action_format(sc, &t, g->acts[i], b, sizeof b);
    cJSON_AddItemToArray(acts, cJSON_CreateString(b));
    gs_apply(sc, &t, g->acts[i]);
  }
  char *st = state_to_json(sc, s);
  cJSON_AddItemToObject(o, "state", cJSON_Parse(st));
  free(st);
  char *text = cJSON_Print(o);
  cJSON_Delete(o);
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
    free(text);
    return -1;
  }
  int ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF;
  ok = (fclose(f) == 0) && ok;
  free(text);
  if (!ok || rename(tmp, path) != 0) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    remove(tmp);
    return -1;
  }
  return 0;
}

int game_load(Scen *sc, const char *dir, const char *path, GameRec *g, State *s, char *err,
              size_t errlen) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    return -1;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)n + 1);
  size_t got = fread(text, 1, (size_t)n, f);
  fclose(f);
  text[got] = 0;
  cJSON *o = cJSON_Parse(text);
  if (!o) {
    const char *p = cJSON_GetErrorPtr();
    int line = 1;
    for (const char *q = text; p && q < p; q++) line += *q == '\n';
    free(text);
    snprintf(err, errlen, "%s:%d: JSON syntax error", path, line);
    return -1;
  }
  free(text);
  const cJSON *scn = cJSON_GetObjectItem(o, "scenario"), *var = cJSON_GetObjectItem(o, "variants");
  if (!cJSON_IsString(scn)) FAIL("%s: 'scenario' missing", path);
  const char *vars = cJSON_IsString(var) ? var->valuestring : "base";
  char lerr[1024];
  if (scen_load(sc, dir, scn->valuestring, vars, lerr, sizeof lerr)) FAIL("%s", lerr);
  const cJSON *sd = cJSON_GetObjectItem(o, "seed"), *sm = cJSON_GetObjectItem(o, "stream");
  uint64_t seed = cJSON_IsString(sd) ? strtoull(sd->valuestring, NULL, 10) : 0;
  uint64_t stream = cJSON_IsString(sm) ? strtoull(sm->valuestring, NULL, 10) : 0;
  gamerec_init(g, scn->valuestring, vars, seed, stream);
  const cJSON *acts = cJSON_GetObjectItem(o, "actions");
  const cJSON *st = cJSON_GetObjectItem(o, "state");
  if (!cJSON_IsArray(acts) && !st) FAIL("%s: neither 'actions' nor 'state'", path);
  const cJSON *start = cJSON_GetObjectItem(o, "start");
  if (cJSON_IsArray(acts) && (cJSON_IsString(sd) || start)) {
    if (start) {
      char serr[256];
      if (state_from_obj(sc, (cJSON *)start, s, serr, sizeof serr)) FAIL("%s: start: %s", path, serr);
      g->has_start = 1;
      g->start = *s;
    } else {
      gs_init(sc, s, seed, stream);
    }
    int i = 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, acts) {
      Action a;
      char perr[256];
      if (!cJSON_IsString(x) || gs_over(s) ||
          action_parse(sc, s, x->valuestring, &a, perr, sizeof perr)) {
        gamerec_free(g);
        FAIL("%s: action %d: %s", path, i + 1, cJSON_IsString(x) ? perr : "not a string");
      }
      gs_apply(sc, s, a);
      gamerec_push(g, a);
      i++;
    }
    if (st) {
      State chk;
      char serr[256];
      if (state_from_obj(sc, (cJSON *)st, &chk, serr, sizeof serr)) {
        gamerec_free(g);
        FAIL("%s: %s", path, serr);
      }
      if (memcmp(&chk, s, sizeof chk)) {
        gamerec_free(g);
        FAIL("%s: the saved position differs from the replayed actions", path);
      }
    }
  } else {
    char serr[256];
    if (state_from_obj(sc, (cJSON *)st, s, serr, sizeof serr)) FAIL("%s: %s", path, serr);
    g->has_start = 1;
    g->start = *s;
  }
  cJSON_Delete(o);
  return 0;
}
