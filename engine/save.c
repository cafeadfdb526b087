/* Positions and whole games as JSON (cJSON).  A position round-trips byte for byte; a game is
 * its scenario, variants, seed and actions in notation, with the final position to check. */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "num.h"

const StateByte STATE_BYTES[] = {
#define F(key, field)                                                                              \
  { key, offsetof(State, field) }
    F("turn", turn.number),
    F("phase", turn.phase),
    F("decider", turn.decider),
    F("active", turn.active),
    F("first", turn.first),
    F("ncards", turn.ncards),
    F("last_pass", turn.last_pass),
    F("round_army", turn.round_army),
    F("owner", turn.owner),
    F("entry_sq", turn.entry_sq),
    F("bid_made", turn.bid_made),
    F("card", play.card),
    F("card_army", play.army),
    F("mp", play.mp),
    F("moving", play.moving),
    F("evade_stop", play.evade_stop),
    F("after_battle", play.after_battle),
    F("bkind", battle.kind),
    F("batt_side", battle.att_side),
    F("bdef_unit", battle.def_unit),
    F("bdef_sq", battle.def_sq),
    F("battle_army", battle.army),
    F("loss_need", battle.loss_owed),
    F("belite", battle.elite),
    F("charger", battle.charger),
    F("last_att", battle.att_total),
    F("last_def", battle.def_total),
    F("turn_first_round", first_round),
    F("rally_first", interrupt.rally_first),
    F("ret_phase", interrupt.return_phase),
    F("ret_decider", interrupt.return_decider),
    F("leader_pending", interrupt.leader_pending),
    F("result", score.result),
#undef F
};
const int N_STATE_BYTES = (int)(sizeof STATE_BYTES / sizeof STATE_BYTES[0]);

const StateCards STATE_CARDS[] = {
    {"hand", offsetof(State, cards.hand)},         {"discard", offsetof(State, cards.discard)},
    {"seen", offsetof(State, cards.seen)},         {"pend", offsetof(State, cards.pend)},
    {"pend_cmd", offsetof(State, cards.pend_cmd)}, {"pend_elite", offsetof(State, cards.pend_elite)},
};
const int N_STATE_CARDS = (int)(sizeof STATE_CARDS / sizeof STATE_CARDS[0]);

#define A(key, field, max, form)                                                                   \
  {                                                                                                \
    key, offsetof(State, field), (int)(sizeof((State *)0)->field / sizeof((State *)0)->field[0]),  \
        (int)sizeof((State *)0)->field[0], max, form                                               \
  }
const StateArray STATE_ARRAYS[] = {
    A("cdp", turn.cdp, 255, "cdp=A,B,C (castle points)"),
    A("bid_card", turn.bid_card, 255, "bid_card=F,A (card indices, 255 none)"),
    A("batt", battle.att, 255, "batt=A,B,C,D (unit indices, 255 none)"),
    A("elim_vp", score.elim_vp, 65535, "elim_vp=F,A"),
};
#undef A
const int N_STATE_ARRAYS = (int)(sizeof STATE_ARRAYS / sizeof STATE_ARRAYS[0]);


/* JSON building checks every allocation: a position is written whole or not at all */
static cJSON *cards_json(const Scen *sc, uint64_t m) {
  cJSON *a = cJSON_CreateArray();
  for (; a && m; m &= m - 1)
    if (!cJSON_AddItemToArray(a, cJSON_CreateString(sc->card[__builtin_ctzll(m)].id))) {
      cJSON_Delete(a);
      return NULL;
    }
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

/* adds item to o (object, with key k) or to an array (k NULL); deletes item if that fails */
static int put(cJSON *o, const char *k, cJSON *item) {
  if (!o || !item) {
    cJSON_Delete(item);
    return 0;
  }
  if (k ? cJSON_AddItemToObject(o, k, item) : cJSON_AddItemToArray(o, item)) return 1;
  cJSON_Delete(item);
  return 0;
}

char *state_to_json(const Scen *sc, const State *s) {
  cJSON *o = cJSON_CreateObject();
  int ok = o != NULL;
  char hex[40];
  snprintf(hex, sizeof hex, "%016" PRIx64, s->rng.state);
  ok &= put(o, "rng_state", cJSON_CreateString(hex));
  snprintf(hex, sizeof hex, "%016" PRIx64, s->rng.inc);
  ok &= put(o, "rng_inc", cJSON_CreateString(hex));
  char desc[256];
  gs_describe(sc, s, desc, sizeof desc);
  ok &= put(o, "description", cJSON_CreateString(desc));
  for (int i = 0; i < N_STATE_BYTES; i++)
    ok &= put(o, STATE_BYTES[i].name, cJSON_CreateNumber(((const uint8_t *)s)[STATE_BYTES[i].off]));
  for (int i = 0; i < N_STATE_CARDS; i++)
    ok &= put(o, STATE_CARDS[i].name, cards_json(sc, state_cards_get(s, &STATE_CARDS[i])));
  cJSON *units = cJSON_CreateArray();
  ok &= put(o, "units", units);
  for (int u = 0; ok && u < sc->nunits; u++) {
    cJSON *x = cJSON_CreateObject();
    if (!put(units, NULL, x)) {
      ok = 0;
      break;
    }
    ok &= put(x, "name", cJSON_CreateString(sc->unit[u].name));
    ok &= put(x, "square", sq_json(s->units.sq[u]));
    char f[2] = {"NESW"[s->units.flag[u] & 3], 0};
    ok &= put(x, "facing", cJSON_CreateString(f));
    ok &= put(x, "flags", cJSON_CreateNumber(s->units.flag[u] & ~UF_FACING));
  }
  ok &= put(o, "napoleon", sq_json(s->units.leader[0]));
  ok &= put(o, "wellington", sq_json(s->units.leader[1]));
  cJSON *cdp = cJSON_CreateArray(), *bid = cJSON_CreateArray(), *batt = cJSON_CreateArray();
  ok &= put(o, "cdp", cdp);
  for (int i = 0; ok && i < MAX_CASTLES; i++)
    ok &= put(cdp, NULL, cJSON_CreateNumber(s->turn.cdp[i]));
  ok &= put(o, "bid_card", bid);
  for (int i = 0; ok && i < 2; i++) ok &= put(bid, NULL, cJSON_CreateNumber(s->turn.bid_card[i]));
  ok &= put(o, "batt", batt);
  for (int i = 0; ok && i < 4; i++) ok &= put(batt, NULL, cJSON_CreateNumber(s->battle.att[i]));
  cJSON *ev = cJSON_CreateArray(), *vp = cJSON_CreateArray();
  ok &= put(o, "evaders", ev);
  for (uint64_t m = s->interrupt.evaders; ok && m; m &= m - 1)
    ok &= put(ev, NULL, cJSON_CreateString(sc->unit[__builtin_ctzll(m)].name));
  ok &= put(o, "elim_vp", vp);
  for (int i = 0; ok && i < 2; i++) ok &= put(vp, NULL, cJSON_CreateNumber(s->score.elim_vp[i]));
  ok &= put(o, "nactions", cJSON_CreateNumber(s->nactions));
  char *text = ok ? cJSON_Print(o) : NULL;
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

/* a JSON number that is a whole number in [lo, hi] */
static int json_int(const cJSON *x, double lo, double hi, long *out) {
  if (!cJSON_IsNumber(x)) return -1;
  double v = x->valuedouble;
  if (!(v >= lo && v <= hi) || v != (double)(long)v) return -1;
  *out = (long)v;
  return 0;
}

static int num_array(const cJSON *a, int n, unsigned hi, unsigned *out) {
  if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != n) return -1;
  for (int i = 0; i < n; i++) {
    long v;
    if (json_int(cJSON_GetArrayItem(a, i), 0, hi, &v)) return -1;
    out[i] = (unsigned)v;
  }
  return 0;
}

/* a unit's markers: the number state_to_json writes, or (for positions written by hand) a list
 * of names: ["reduced", "disordered", "moved", "rallied", "attacked"]; -1 if neither */
static int unit_flags(const cJSON *fl) {
  long v;
  if (cJSON_IsNumber(fl)) return json_int(fl, 0, 255, &v) ? -1 : (int)v;
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

#define BADF(...) do { snprintf(err, errlen, "state: " __VA_ARGS__); return -1; } while (0)

/* the small codes, and the fields that name a unit or a card, in their ranges */
static int validate_codes(const Scen *sc, const State *s, char *err, size_t errlen) {
  const int nu = sc->nunits, nc = sc->ncards;
  struct {
    const char *k;
    int v, hi;
  } small[] = {{"decider", s->turn.decider, 1},
               {"active", s->turn.active, 1},
               {"first", s->turn.first, 1},
               {"last_pass", s->turn.last_pass, 1},
               {"evade_stop", s->play.evade_stop, 2},
               {"bkind", s->battle.kind, 1},
               {"batt_side", s->battle.att_side, 1},
               {"turn_first_round", s->first_round, 1},
               {"ret_decider", s->interrupt.return_decider, 1},
               {"round_army", s->turn.round_army, 2},
               {"card_army", s->play.army, 2},
               {"battle_army", s->battle.army, 2},
               {"bid_made", s->turn.bid_made, 3},
               {"belite", s->battle.elite, 3},
               {"leader_pending", s->interrupt.leader_pending, 3},
               {"result", s->score.result, 3},
               {"loss_need", s->battle.loss_owed, 7},
               {"ncards", s->turn.ncards, MAX_CARDS},
               {"owner", s->turn.owner, (1 << V_COUNT) - 1}};
  for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
    if (small[i].v > small[i].hi) BADF("'%s' %d is not 0..%d", small[i].k, small[i].v, small[i].hi);
  struct {
    const char *k;
    int v;
  } units[] = {{"moving", s->play.moving},     {"bdef_unit", s->battle.def_unit},
               {"charger", s->battle.charger}, {"rally_first", s->interrupt.rally_first},
               {"batt[0]", s->battle.att[0]},  {"batt[1]", s->battle.att[1]},
               {"batt[2]", s->battle.att[2]},  {"batt[3]", s->battle.att[3]}};
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
    if (units[i].v != UNIT_NONE && units[i].v >= nu) BADF("'%s' %d is not a unit (0..%d or 255)", units[i].k, units[i].v, nu - 1);
  struct {
    const char *k;
    int v;
  } cards[] = {{"card", s->play.card},
               {"bid_card[0]", s->turn.bid_card[0]},
               {"bid_card[1]", s->turn.bid_card[1]}};
  for (size_t i = 0; i < sizeof cards / sizeof cards[0]; i++)
    if (cards[i].v != CARD_NONE && cards[i].v >= nc) BADF("'%s' %d is not a card (0..%d or 255)", cards[i].k, cards[i].v, nc - 1);
  return 0;
}

/* squares, phases to return to, the random stream, evaders and eliminated BP */
static int validate_fields(const Scen *sc, const State *s, char *err, size_t errlen) {
  const int nu = sc->nunits;
  if (s->battle.def_sq != SQ_NONE && s->battle.def_sq >= NSQ)
    BADF("'bdef_sq' %d is not a square", s->battle.def_sq);
  if (s->turn.entry_sq != SQ_NONE) {
    int ok = 0;
    for (int g = 0; g < sc->ngroups; g++)
      for (int i = 0; i < sc->group[g].nentry; i++) ok |= sc->group[g].entry[i] == s->turn.entry_sq;
    if (!ok) BADF("'entry_sq' %d is not a Prussian entry square", s->turn.entry_sq);
  }
  if (s->play.after_battle && s->play.after_battle != PH_DECLARE &&
      s->play.after_battle != PH_REACT)
    BADF("'after_battle' %d is not 0, %d or %d", s->play.after_battle, PH_DECLARE, PH_REACT);
  if (s->interrupt.return_phase >= PH_OVER)
    BADF("'ret_phase' %d is not 0..%d", s->interrupt.return_phase, PH_OVER - 1);
  if ((s->score.result != 0) != (s->turn.phase == PH_OVER))
    BADF("'result' %d does not match 'phase' %d", s->score.result, s->turn.phase);
  if (s->rng.inc % 2 == 0) BADF("'rng_inc' must be odd");
  uint64_t all_units = nu >= 64 ? ~0ull : (1ull << nu) - 1;
  if (s->interrupt.evaders & ~all_units) BADF("'evaders' names no unit");
  for (uint64_t m = s->interrupt.evaders; m; m &= m - 1)
    if (sc->unit[__builtin_ctzll(m)].kind != K_CAV) BADF("'evaders' lists %s, not cavalry", sc->unit[__builtin_ctzll(m)].name);
  for (int side = 0; side < 2; side++) {
    int bp = 0;
    for (int u = 0; u < nu; u++)
      if (unit_side(sc, u) != side) bp += sc->unit[u].bp_full;
    if (s->score.elim_vp[side] > bp)
      BADF("'elim_vp' %d is more than the enemy's %d BP", s->score.elim_vp[side], bp);
  }
  return 0;
}

/* what each phase needs, and the units */
static int validate_phase(const Scen *sc, const State *s, char *err, size_t errlen) {
  const int nu = sc->nunits;
  int ph = s->turn.phase;
  if (ph >= PH_B_FIRE && ph <= PH_B_ATTLOSS) {
    if (s->battle.def_unit == UNIT_NONE || s->battle.def_sq == SQ_NONE)
      BADF("a battle phase without 'bdef_unit'/'bdef_sq'");
    if ((s->battle.att[0] & s->battle.att[1] & s->battle.att[2] & s->battle.att[3]) == UNIT_NONE)
      BADF("a battle phase without attackers ('batt')");
    if (!s->play.after_battle) BADF("a battle phase without 'after_battle'");
    for (int d = 0; d < 4; d++)
      if (s->battle.att[d] != UNIT_NONE && s->units.sq[s->battle.att[d]] >= NSQ)
        BADF("'batt[%d]' %s is not on the map", d, sc->unit[s->battle.att[d]].name);
    if (ph <= PH_B_LOSS && (s->units.sq[s->battle.def_unit] != s->battle.def_sq))
      BADF("'bdef_unit' %s is not on 'bdef_sq'", sc->unit[s->battle.def_unit].name);
  }
  if ((ph == PH_MOVE || ph == PH_EVADE || ph == PH_DECLARE || ph == PH_RALLY2) &&
      s->play.card == CARD_NONE)
    BADF("phase %s without a 'card'", phase_name(ph));
  if (ph == PH_EVADE && (s->play.moving == UNIT_NONE || !s->interrupt.evaders))
    BADF("phase evade without 'moving' and 'evaders'");
  if (ph == PH_RALLY2 && s->interrupt.rally_first == UNIT_NONE)
    BADF("phase rally without 'rally_first'");
  if (ph == PH_LEADER && (!s->interrupt.leader_pending || !s->interrupt.return_phase))
    BADF("phase leader without 'leader_pending' and 'ret_phase'");
  for (int u = 0; u < nu; u++) {
    if (s->units.sq[u] == SQ_OFF && sc->unit[u].start_sq != SQ_OFF)
      BADF("unit %s is off the map but is no reinforcement", sc->unit[u].name);
    if ((s->units.flag[u] & UF_REDUCED) && !sc->unit[u].bp_red)
      BADF("unit %s has no reduced side", sc->unit[u].name);
  }
  if (s->play.moving != UNIT_NONE && s->units.sq[s->play.moving] >= NSQ)
    BADF("'moving' unit %s is not on the map", sc->unit[s->play.moving].name);
  return 0;
}

/* Every field of a position against the scenario: the range of each index and code, what each
 * phase needs, then the invariants of gs_check.  0, or -1 and the field named in err. */
int state_validate(const Scen *sc, const State *s, char *err, size_t errlen) {
  if (s->turn.phase < PH_BID || s->turn.phase > PH_OVER)
    BADF("'phase' %d is not a phase (1..%d)", s->turn.phase, PH_OVER);
  if (s->turn.number < 1 || s->turn.number > sc->p.turns)
    BADF("'turn' %d is not 1..%d", s->turn.number, sc->p.turns);
  if (validate_codes(sc, s, err, errlen) || validate_fields(sc, s, err, errlen) ||
      validate_phase(sc, s, err, errlen))
    return -1;
  char why[200];
  if (gs_check(sc, s, why, sizeof why)) BADF("%s", why);
  return 0;
}
#undef BADF

/* the units list: every unit of the scenario in order, with square, facing and flags */
static int units_from_obj(const Scen *sc, const cJSON *units, State *s, char *err, size_t errlen) {
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
    if (sq < 0 || sq == SQ_NONE || !dp || f->valuestring[1] || bits < 0 || bits > 255 || (bits & UF_FACING)) {
      snprintf(err, errlen, "state: unit %s: bad square, facing or flags", sc->unit[u].name);
      return -1;
    }
    s->units.sq[u] = (uint8_t)sq;
    s->units.flag[u] = (uint8_t)(bits | (int)(dp - "NESW"));
  }
  return 0;
}

/* leaders, castle points, bids, battle slots, eliminated VP, evaders, action count */
static int extras_from_obj(const Scen *sc, const cJSON *o, State *s, char *err, size_t errlen) {
  int l0 = sq_from(cJSON_GetObjectItem(o, "napoleon")), l1 = sq_from(cJSON_GetObjectItem(o, "wellington"));
  if (l0 < 0 || l1 < 0 || (l0 >= NSQ && l0 != SQ_DEAD) || (l1 >= NSQ && l1 != SQ_DEAD)) {
    snprintf(err, errlen, "state: 'napoleon'/'wellington' must be squares of the map or \"dead\"");
    return -1;
  }
  s->units.leader[0] = (uint8_t)l0;
  s->units.leader[1] = (uint8_t)l1;
  for (int k = 0; k < N_STATE_ARRAYS; k++) {
    const StateArray *f = &STATE_ARRAYS[k];
    unsigned v[4];
    if (num_array(cJSON_GetObjectItem(o, f->name), f->n, f->max, v)) {
      snprintf(err, errlen, "state: '%s' must be %d numbers", f->name, f->n);
      return -1;
    }
    if (f->off == offsetof(State, turn.cdp))
      for (int i = 0; i < MAX_CASTLES; i++)
        if ((int)v[i] > sc->p.cdp[i]) {
          snprintf(err, errlen, "state: 'cdp' %u of castle %d is above the start (%d)", v[i], i, sc->p.cdp[i]);
          return -1;
        }
    state_array_set(s, f, v);
  }
  const cJSON *x, *ev = cJSON_GetObjectItem(o, "evaders");
  if (ev && !cJSON_IsArray(ev)) {
    snprintf(err, errlen, "state: 'evaders' must be a list of unit names");
    return -1;
  }
  if (cJSON_IsArray(ev)) {
    cJSON_ArrayForEach(x, ev) {
      int u = cJSON_IsString(x) ? scen_unit(sc, x->valuestring) : -1;
      if (u < 0) {
        snprintf(err, errlen, "state: unknown evader");
        return -1;
      }
      s->interrupt.evaders |= 1ull << u;
    }
  }
  x = cJSON_GetObjectItem(o, "nactions");
  long na = 0;
  if (x && json_int(x, 0, 4294967295.0, &na)) {
    snprintf(err, errlen, "state: 'nactions' must be a whole number");
    return -1;
  }
  s->nactions = (uint32_t)na;
  return 0;
}

static int state_from_obj(const Scen *sc, cJSON *o, State *s, char *err, size_t errlen) {
  memset(s, 0, sizeof *s);
  for (int u = 0; u < MAX_UNITS; u++) s->units.sq[u] = SQ_DEAD;
  const cJSON *x = cJSON_GetObjectItem(o, "rng_state"), *y = cJSON_GetObjectItem(o, "rng_inc");
  if (!cJSON_IsString(x) || !cJSON_IsString(y)) {
    snprintf(err, errlen, "state: rng_state/rng_inc missing");
    return -1;
  }
  if (num_hex64(x->valuestring, &s->rng.state) || num_hex64(y->valuestring, &s->rng.inc)) {
    snprintf(err, errlen, "state: rng_state/rng_inc must be 1..16 hex digits");
    return -1;
  }
  for (int i = 0; i < N_STATE_BYTES; i++) {
    long v;
    if (json_int(cJSON_GetObjectItem(o, STATE_BYTES[i].name), 0, 255, &v)) {
      snprintf(err, errlen, "state: field '%s' missing or not a whole number 0..255", STATE_BYTES[i].name);
      return -1;
    }
    ((uint8_t *)s)[STATE_BYTES[i].off] = (uint8_t)v;
  }
  for (int i = 0; i < N_STATE_CARDS; i++)
    if (card_list(sc, cJSON_GetObjectItem(o, STATE_CARDS[i].name), state_cards(s, &STATE_CARDS[i]))) {
      snprintf(err, errlen, "state: '%s' must be a list of card ids", STATE_CARDS[i].name);
      return -1;
    }
  if (units_from_obj(sc, cJSON_GetObjectItem(o, "units"), s, err, errlen) ||
      extras_from_obj(sc, o, s, err, errlen))
    return -1;
  gs_rebuild_occ(sc, s);
  for (int u = 0; u < sc->nunits; u++)
    if (s->units.sq[u] < NSQ && s->occ[s->units.sq[u]] != u) {
      snprintf(err, errlen, "state: two units on one square (%s)", sc->unit[u].name);
      return -1;
    }
  if ((s->cards.hand & s->cards.discard) || (s->cards.hand & s->cards.pend) ||
      (s->cards.pend & s->cards.discard)) {
    snprintf(err, errlen, "state: a card is in two places ('hand', 'discard', 'pend')");
    return -1;
  }
  return state_validate(sc, s, err, errlen);
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

/* ---------------------------------------------------------------- writing a file safely */
static int write_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    p += k, n -= (size_t)k;
  }
  return 0;
}

/* Writes text to path atomically: a fresh temporary file beside it (unique name, created
 * exclusively, never through a symlink), fsync, rename over path, fsync of the folder.  The
 * target, if it exists, must be a regular file.  On any failure path is untouched and the
 * temporary file removed. */
/* is NAME a temporary file of file_write_atomic (TARGET.PID.K.NSEC.tmp; TARGET equal to
 * target unless that is NULL) left by a writer that is gone: its process no longer runs, or it
 * is another process's and over an hour old (the pid may have been reused)? */
static int stale_temp(const char *dir, const char *name, const char *target) {
  size_t n = strlen(name);
  if (n < 5 || strcmp(name + n - 4, ".tmp")) return 0;
  const char *p = name + n - 4; /* back over ".NSEC", ".K", ".PID" */
  const char *dots[3];
  for (int k = 0; k < 3; k++) {
    do p--; while (p > name && *p != '.');
    if (p == name) return 0;
    dots[k] = p;
  }
  size_t tl = (size_t)(dots[2] - name);
  if (target && (strlen(target) != tl || strncmp(name, target, tl))) return 0;
  char *end;
  long pid = strtol(dots[2] + 1, &end, 10);
  if (end != dots[1] || pid <= 0) return 0;
  strtoul(dots[1] + 1, &end, 10);
  if (end != dots[0]) return 0;
  strtoul(dots[0] + 1, &end, 16);
  if (end != name + n - 4) return 0;
  if (pid == (long)getpid()) return 0;            /* ours: a write in progress */
  if (kill((pid_t)pid, 0) != 0 && errno == ESRCH) return 1;
  char full[4400];
  struct stat st;
  snprintf(full, sizeof full, "%s/%s", dir, name);
  return lstat(full, &st) == 0 && S_ISREG(st.st_mode) && time(NULL) - st.st_mtime > 3600;
}

int file_clean_stale_temps(const char *dir, const char *target) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int removed = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!stale_temp(dir, e->d_name, target)) continue;
    char full[4400];
    snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
    removed += unlink(full) == 0;
  }
  closedir(d);
  return removed;
}

/* the temporaries a killed earlier write of path left beside it */
static void clean_beside(const char *path) {
  char *dir = strdup(path);
  if (!dir) return;
  char *slash = strrchr(dir, '/');
  const char *base = slash ? slash + 1 : path;
  const char *d = slash ? (slash == dir ? "/" : (*slash = 0, dir)) : ".";
  file_clean_stale_temps(d, base);
  free(dir);
}

int file_write_atomic(const char *path, const char *text, size_t len, char *err, size_t errlen) {
  struct stat st;
  if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "%s: exists and is not a regular file; not overwritten", path);
    return -1;
  }
  clean_beside(path);
  size_t pl = strlen(path);
  char *tmp = malloc(pl + 40);
  if (!tmp) {
    snprintf(err, errlen, "%s: out of memory", path);
    return -1;
  }
  static unsigned counter;
  int fd = -1;
  for (int tries = 0; tries < 100 && fd < 0; tries++) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned k = __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
    snprintf(tmp, pl + 40, "%s.%ld.%u.%lx.tmp", path, (long)getpid(), k, (unsigned long)ts.tv_nsec);
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    snprintf(err, errlen, "%s: cannot create a temporary file beside it: %s", path, strerror(errno));
    free(tmp);
    return -1;
  }
  int e = 0;
  if (write_all(fd, text, len)) e = errno;
  if (!e && fsync(fd)) e = errno;
  if (close(fd) && !e) e = errno;
  if (!e && rename(tmp, path)) e = errno;
  if (e) {
    unlink(tmp);
    free(tmp);
    snprintf(err, errlen, "%s: not saved: %s", path, strerror(e));
    return -1;
  }
  free(tmp);
  /* the rename itself: fsync the folder (best effort: some file systems refuse it) */
  char *dir = strdup(path);
  if (dir) {
    char *slash = strrchr(dir, '/');
    const char *d = slash ? (slash == dir ? "/" : (*slash = 0, dir)) : ".";
    int dfd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      fsync(dfd);
      close(dfd);
    }
    free(dir);
  }
  return 0;
}

/* Reads a whole file: only a regular file, at most max bytes; never blocks on a FIFO or a
 * device.  Returns malloc'ed NUL-terminated text (length in *len) or NULL with err set. */
char *file_read_capped(const char *path, size_t max, size_t *len, char *err, size_t errlen) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st)) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    close(fd);
    return NULL;
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "%s: not a regular file", path);
    close(fd);
    return NULL;
  }
  if (st.st_size < 0 || (uint64_t)st.st_size > max) {
    snprintf(err, errlen, "%s: too large (%lld bytes; at most %zu)", path, (long long)st.st_size, max);
    close(fd);
    return NULL;
  }
  size_t cap = (size_t)st.st_size + 1, n = 0;
  char *text = malloc(cap + 1);
  if (!text) {
    snprintf(err, errlen, "%s: out of memory", path);
    close(fd);
    return NULL;
  }
  for (;;) {                          /* the file may grow while it is read: never past max */
    ssize_t k = read(fd, text + n, cap - n);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) {
      snprintf(err, errlen, "%s: %s", path, strerror(errno));
      free(text);
      close(fd);
      return NULL;
    }
    if (k == 0) break;
    n += (size_t)k;
    if (n == cap) {
      if (n > max) {
        snprintf(err, errlen, "%s: too large (at most %zu bytes)", path, max);
        free(text);
        close(fd);
        return NULL;
      }
      break;
    }
  }
  close(fd);
  text[n] = 0;
  if (len) *len = n;
  return text;
}

int game_save(const Scen *sc, const GameRec *g, const State *s, const char *path, char *err,
              size_t errlen) {
  cJSON *o = cJSON_CreateObject();
  int okj = o != NULL;
  okj = okj && cJSON_AddStringToObject(o, "format", "waterloo-game-1");
  okj = okj && cJSON_AddStringToObject(o, "scenario", g->scenario);
  okj = okj && cJSON_AddStringToObject(o, "variants", g->variants);
  char num[32];
  snprintf(num, sizeof num, "%" PRIu64, g->seed);
  okj = okj && cJSON_AddStringToObject(o, "seed", num);
  snprintf(num, sizeof num, "%" PRIu64, g->stream);
  okj = okj && cJSON_AddStringToObject(o, "stream", num);
  if (okj && g->seats[0]) okj = cJSON_AddStringToObject(o, "seats", g->seats) != NULL;
  cJSON *acts = okj ? cJSON_AddArrayToObject(o, "actions") : NULL;
  okj = okj && acts;
  State t;
  gamerec_position(sc, g, 0, &t);
  if (okj && g->has_start) {
    char *st0 = state_to_json(sc, &t);
    cJSON *j = st0 ? cJSON_Parse(st0) : NULL;
    okj = j && cJSON_AddItemToObject(o, "start", j);
    if (!okj) cJSON_Delete(j);
    free(st0);
  }
  for (int i = 0; okj && i < g->n; i++) {
    char b[128];
    action_format(sc, &t, g->acts[i], b, sizeof b);
    cJSON *x = cJSON_CreateString(b);
    okj = x && cJSON_AddItemToArray(acts, x);
    if (!okj) cJSON_Delete(x);
    gs_apply(sc, &t, g->acts[i]);
  }
  if (okj) {
    char *st = state_to_json(sc, s);
    cJSON *j = st ? cJSON_Parse(st) : NULL;
    okj = j && cJSON_AddItemToObject(o, "state", j);
    if (!okj) cJSON_Delete(j);
    free(st);
  }
  char *text = okj ? cJSON_Print(o) : NULL;
  cJSON_Delete(o);
  if (!text) {
    snprintf(err, errlen, "%s: not saved: out of memory", path);
    return -1;
  }
  size_t n = strlen(text);
  char *full = realloc(text, n + 2);
  if (!full) {
    free(text);
    snprintf(err, errlen, "%s: not saved: out of memory", path);
    return -1;
  }
  full[n] = '\n', full[n + 1] = 0;
  int rc = file_write_atomic(path, full, n + 1, err, errlen);
  free(full);
  return rc;
}

int game_load(Scen *sc, const char *dir, const char *path, GameRec *g, State *s, char *err,
              size_t errlen) {
  memset(g, 0, sizeof *g);
  char *text = file_read_capped(path, GAME_FILE_MAX, NULL, err, errlen);
  if (!text) return -1;
  int rc = game_load_text(sc, dir, path, text, g, s, err, errlen);
  free(text);
  return rc;
}

/* a saved game's actions, replayed from its start (its 'start' position, else the seed's), and
 * checked against its 'state' when it has one; -1 with o deleted and err set on a mistake */
static int replay_saved_actions(Scen *sc, const char *path, cJSON *o, uint64_t seed,
                                uint64_t stream, GameRec *g, State *s, char *err, size_t errlen) {
  const cJSON *acts = cJSON_GetObjectItem(o, "actions");
  const cJSON *st = cJSON_GetObjectItem(o, "state");
  const cJSON *start = cJSON_GetObjectItem(o, "start");
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
      char eperr[300];   /* the parser echoes the text: escaped, so the message stays one line */
      FAIL("%s: action %d: %s", path, i + 1, !cJSON_IsString(x) ? "not a string" : gs_over(s) ? "after the end of the game" : num_escape(perr, eperr, sizeof eperr));
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
  return 0;
}

int game_load_text(Scen *sc, const char *dir, const char *path, const char *text, GameRec *g,
                   State *s, char *err, size_t errlen) {
  memset(g, 0, sizeof *g);
  cJSON *o = cJSON_Parse(text);
  if (!o) {
    const char *p = cJSON_GetErrorPtr();
    int line = 1;
    for (const char *q = text; p && q < p; q++) line += *q == '\n';
    snprintf(err, errlen, "%s:%d: JSON syntax error", path, line);
    return -1;
  }
  if (!cJSON_IsObject(o)) FAIL("%s: not a saved game (a JSON object)", path);
  const cJSON *fmt = cJSON_GetObjectItem(o, "format");
  if (fmt && !(cJSON_IsString(fmt) && !strcmp(fmt->valuestring, "waterloo-game-1")))
    FAIL("%s: 'format' is not waterloo-game-1", path);
  const cJSON *scn = cJSON_GetObjectItem(o, "scenario"), *var = cJSON_GetObjectItem(o, "variants");
  if (!cJSON_IsString(scn)) FAIL("%s: 'scenario' missing", path);
  if (var && !cJSON_IsString(var)) FAIL("%s: 'variants' must be a string", path);
  if (strcmp(scn->valuestring, "short") && strcmp(scn->valuestring, "long")) FAIL("%s: 'scenario' must be short or long", path);
  const char *vars = cJSON_IsString(var) ? var->valuestring : "base";
  if (strlen(vars) >= MAX_VARIANT_LIST) FAIL("%s: 'variants' longer than %d characters", path, MAX_VARIANT_LIST - 1);
  char lerr[1024];
  if (scen_load(sc, dir, scn->valuestring, vars, lerr, sizeof lerr)) {
    for (char *q = lerr; *q; q++)
      if (*q == '\n') *q = ';';
    FAIL("%s: 'variants': %s", path, lerr);
  }
  const cJSON *sd = cJSON_GetObjectItem(o, "seed"), *sm = cJSON_GetObjectItem(o, "stream");
  uint64_t seed = 0, stream = 0;
  if (sd && (!cJSON_IsString(sd) || num_u64(sd->valuestring, 0, UINT64_MAX, &seed)))
    FAIL("%s: 'seed' must be a whole number 0..18446744073709551615 in quotes", path);
  if (sm && (!cJSON_IsString(sm) || num_u64(sm->valuestring, 0, UINT64_MAX, &stream)))
    FAIL("%s: 'stream' must be a whole number 0..18446744073709551615 in quotes", path);
  gamerec_init(g, scn->valuestring, vars, seed, stream);
  const cJSON *seats = cJSON_GetObjectItem(o, "seats");
  if (seats) {
    const char *t = cJSON_IsString(seats) ? seats->valuestring : NULL;
    if (!t || strlen(t) >= sizeof g->seats ||
        strspn(t, "abcdefghijklmnopqrstuvwxyz0123456789:=,.*+_-") != strlen(t))
      FAIL("%s: 'seats' must be a text of at most %d letters, digits and :=,.*+_-", path,
           (int)sizeof g->seats - 1);
    snprintf(g->seats, sizeof g->seats, "%s", t);
  }
  const cJSON *acts = cJSON_GetObjectItem(o, "actions");
  const cJSON *st = cJSON_GetObjectItem(o, "state");
  if (acts && !cJSON_IsArray(acts)) FAIL("%s: 'actions' must be a list", path);
  if (!acts && !st) FAIL("%s: neither 'actions' nor 'state'", path);
  if (acts && cJSON_GetArraySize(acts) > GAME_MAX_ACTIONS) FAIL("%s: more than %d actions", path, GAME_MAX_ACTIONS);
  const cJSON *start = cJSON_GetObjectItem(o, "start");
  if (acts && (sd || start)) {
    if (replay_saved_actions(sc, path, o, seed, stream, g, s, err, errlen)) return -1;
  } else {
    char serr[256];
    if (state_from_obj(sc, (cJSON *)st, s, serr, sizeof serr)) FAIL("%s: %s", path, serr);
    g->has_start = 1;
    g->start = *s;
  }
  cJSON_Delete(o);
  return 0;
}
