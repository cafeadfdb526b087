/* The one-line position text (like chess's FEN): a whole State as space-separated tokens, for
 * the engine protocol (`position` / `setposition`), tests and bug reports.
 *
 *   SCENARIO VARIANTS key=value ...
 *
 * position_format writes every field, so a text read back gives the same State byte for byte.
 * position_parse starts from the set-up gs_init(sc, seed, 0) (`seed=N`, default 1) and applies
 * the tokens it is given, so a test can write only what its position needs:
 *
 *   short base phase=round decider=0 active=0 hand=F01,F12 units=fr-4/I=F6:N:d,br-3/I=F5:S
 *
 * Keys: rng=STATE:INC (hex); the byte fields of the JSON save (turn, decider, ..., phase by
 * name or number); the card sets hand, discard, seen, pend, pend_cmd, pend_elite (card ids,
 * `-` for none); units=NAME=SQUARE:FACING[:FLAGS],... (SQUARE a square, `off` or `dead`; FLAGS
 * letters r reduced, d disorder, m moved, a rallied, x attacked, b in battle); napoleon= and
 * wellington= (square, `dead` (removed, R-6.7 ruling), `off` or `none`); cdp=A,B,C;
 * bid_card=X,Y; batt=A,B,C,D (unit indices,
 * 255 none); evaders=NAME,...; elim_vp=F,A; nactions=N; board=empty (wherever it stands, first:
 * no unit on the board and no card in hand, for positions that name only what they need).
 * The result is checked by gs_check. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

static const char FLAG_CHARS[] = "rdmaxb";
static const uint8_t FLAG_BITS[] = {UF_REDUCED, UF_DISORDER, UF_MOVED, UF_RALLIED, UF_ATTACKED, UF_INBATTLE};

typedef struct { char *p; size_t n, cap; int over; } Out;

static void put(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Out *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(o->p + o->n, o->n < o->cap ? o->cap - o->n : 0, fmt, ap);
  va_end(ap);
  if (k < 0 || o->n + (size_t)k >= o->cap) o->over = 1;
  else o->n += (size_t)k;
}

static void put_sq(Out *o, int sq) {
  char q[4];
  if (sq == SQ_OFF) put(o, "off");
  else if (sq == SQ_DEAD) put(o, "dead");
  else if (sq >= NSQ) put(o, "none");
  else { sq_name(sq, q); put(o, "%s", q); }
}

static void put_cards(Out *o, const Scen *sc, const char *key, uint64_t m) {
  put(o, " %s=", key);
  if (!m) put(o, "-");
  for (int first = 1; m; m &= m - 1, first = 0) put(o, "%s%s", first ? "" : ",", sc->card[__builtin_ctzll(m)].id);
}

int position_format(const Scen *sc, const State *s, char *buf, size_t len) {
  Out o = {buf, 0, len, 0};
  if (len) buf[0] = 0;
  put(&o, "%s %s rng=%016" PRIx64 ":%016" PRIx64, sc->scen_name, sc->variant_names, s->rng.state, s->rng.inc);
  for (int i = 0; i < N_STATE_BYTES; i++) {
    uint8_t v = ((const uint8_t *)s)[STATE_BYTES[i].off];
    if (STATE_BYTES[i].off == offsetof(State, turn.phase)) put(&o, " phase=%s", phase_name(v));
    else put(&o, " %s=%u", STATE_BYTES[i].name, v);
  }
  for (int i = 0; i < N_STATE_CARDS; i++)
    put_cards(&o, sc, STATE_CARDS[i].name, state_cards_get(s, &STATE_CARDS[i]));
  put(&o, " units=");
  for (int u = 0; u < sc->nunits; u++) {
    put(&o, "%s%s=", u ? "," : "", sc->unit[u].name);
    put_sq(&o, s->units.sq[u]);
    put(&o, ":%c", "NESW"[s->units.flag[u] & UF_FACING]);
    if (s->units.flag[u] & ~UF_FACING) {
      put(&o, ":");
      for (int k = 0; FLAG_CHARS[k]; k++)
        if (s->units.flag[u] & FLAG_BITS[k]) put(&o, "%c", FLAG_CHARS[k]);
    }
  }
  put(&o, " napoleon=");
  put_sq(&o, s->units.leader[0]);
  put(&o, " wellington=");
  put_sq(&o, s->units.leader[1]);
  put(&o, " cdp=%u,%u,%u bid_card=%u,%u batt=%u,%u,%u,%u", s->turn.cdp[0], s->turn.cdp[1],
      s->turn.cdp[2], s->turn.bid_card[0], s->turn.bid_card[1], s->battle.att[0], s->battle.att[1],
      s->battle.att[2], s->battle.att[3]);
  put(&o, " evaders=");
  if (!s->interrupt.evaders) put(&o, "-");
  for (uint64_t m = s->interrupt.evaders; m; m &= m - 1)
    put(&o, "%s%s", m == s->interrupt.evaders ? "" : ",", sc->unit[__builtin_ctzll(m)].name);
  put(&o, " elim_vp=%u,%u nactions=%" PRIu32, s->score.elim_vp[0], s->score.elim_vp[1],
      s->nactions);
  return o.over ? -1 : (int)o.n;
}

/* ---------------------------------------------------------------- reading */
#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static int parse_sq(const char *t, int *out) {
  if (!strcmp(t, "off")) { *out = SQ_OFF; return 0; }
  if (!strcmp(t, "dead")) { *out = SQ_DEAD; return 0; }
  if (!strcmp(t, "none")) { *out = SQ_NONE; return 0; }
  if (t[0] < 'A' || t[0] >= 'A' + MAP_W || !t[1]) return -1;
  char *end;
  long r = strtol(t + 1, &end, 10);
  if (*end || r < 1 || r > MAP_H) return -1;
  *out = (int)(r - 1) * MAP_W + (t[0] - 'A');
  return 0;
}

/* a whole number in [lo, hi] and nothing else */
static int parse_num(const char *t, unsigned long long hi, unsigned long long *out, int base) {
  if (!*t || *t == '-' || *t == '+' || *t == ' ') return -1;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(t, &end, base);
  if (*end || errno || v > hi) return -1;
  *out = v;
  return 0;
}

/* comma list of n numbers 0..hi */
static int parse_nums(const char *t, int n, unsigned hi, unsigned *out) {
  char buf[64];
  if (strlen(t) >= sizeof buf) return -1;
  strcpy(buf, t);
  char *save = NULL;
  int k = 0;
  for (char *x = strtok_r(buf, ",", &save); x; x = strtok_r(NULL, ",", &save), k++) {
    unsigned long long v;
    if (k >= n || parse_num(x, hi, &v, 10)) return -1;
    out[k] = (unsigned)v;
  }
  return k == n ? 0 : -1;
}

static int parse_cards(const Scen *sc, char *t, uint64_t *m, char *err, size_t errlen, const char *key) {
  *m = 0;
  if (!strcmp(t, "-")) return 0;
  char *save = NULL;
  for (char *x = strtok_r(t, ",", &save); x; x = strtok_r(NULL, ",", &save)) {
    int c = scen_card(sc, x);
    if (c < 0) FAIL("position: %s: no card '%.20s'", key, x);
    if (*m & (1ull << c)) FAIL("position: %s: card %s twice", key, x);
    *m |= 1ull << c;
  }
  return 0;
}

static int parse_unit(const Scen *sc, State *s, char *t, char *err, size_t errlen) {
  char *eq = strrchr(t, '=');
  if (!eq) FAIL("position: units: '%.40s' is not NAME=SQUARE:FACING[:FLAGS]", t);
  *eq = 0;
  int u = scen_unit(sc, t);
  if (u < 0) FAIL("position: units: no unit '%.20s'", t);
  char *sqt = eq + 1, *f = strchr(sqt, ':');
  if (!f) FAIL("position: units: %s: no facing (SQUARE:FACING)", t);
  *f++ = 0;
  char *flags = strchr(f, ':');
  if (flags) *flags++ = 0;
  int sq;
  const char *d = f[0] && !f[1] ? strchr("NESW", f[0]) : NULL;
  if (parse_sq(sqt, &sq) || sq == SQ_NONE) FAIL("position: units: %s: '%.10s' is not a square, off or dead", t, sqt);
  if (!d) FAIL("position: units: %s: facing '%.10s' is not N, E, S or W", t, f);
  uint8_t fl = (uint8_t)(d - "NESW");
  for (const char *c = flags; c && *c; c++) {
    const char *k = strchr(FLAG_CHARS, *c);
    if (!k) FAIL("position: units: %s: unknown flag '%c' (r d m a x b)", t, *c);
    fl |= FLAG_BITS[k - FLAG_CHARS];
  }
  s->units.sq[u] = (uint8_t)sq;
  s->units.flag[u] = fl;
  return 0;
}

static int parse_token(const Scen *sc, State *s, char *key, char *val, char *err, size_t errlen) {
  unsigned long long v;
  unsigned n[4];
  for (int i = 0; i < N_STATE_BYTES; i++) {
    if (strcmp(key, STATE_BYTES[i].name)) continue;
    uint8_t *b = (uint8_t *)s + STATE_BYTES[i].off;
    if (STATE_BYTES[i].off == offsetof(State, turn.phase))
      for (int ph = PH_BID; ph <= PH_OVER; ph++)
        if (!strcmp(val, phase_name(ph))) { *b = (uint8_t)ph; return 0; }
    if (parse_num(val, 255, &v, 10)) FAIL("position: %s=%.20s: needs a number 0..255", key, val);
    *b = (uint8_t)v;
    return 0;
  }
  for (int i = 0; i < N_STATE_CARDS; i++)
    if (!strcmp(key, STATE_CARDS[i].name))
      return parse_cards(sc, val, state_cards(s, &STATE_CARDS[i]), err, errlen, key);
  for (int i = 0; i < N_STATE_ARRAYS; i++) {
    const StateArray *f = &STATE_ARRAYS[i];
    if (strcmp(key, f->name)) continue;
    if (parse_nums(val, f->n, f->max, n)) FAIL("position: %s", f->form);
    state_array_set(s, f, n);
    return 0;
  }
  if (!strcmp(key, "rng")) {
    char *c = strchr(val, ':');
    unsigned long long a, b;
    if (!c) FAIL("position: rng=STATE:INC (hex)");
    *c = 0;
    if (parse_num(val, UINT64_MAX, &a, 16) || parse_num(c + 1, UINT64_MAX, &b, 16) || !(b & 1))
      FAIL("position: rng=STATE:INC needs two hex numbers, INC odd");
    s->rng.state = a;
    s->rng.inc = b;
    return 0;
  }
  if (!strcmp(key, "units")) {
    char *save = NULL;
    for (char *t = strtok_r(val, ",", &save); t; t = strtok_r(NULL, ",", &save))
      if (parse_unit(sc, s, t, err, errlen)) return -1;
    return 0;
  }
  if (!strcmp(key, "napoleon") || !strcmp(key, "wellington")) {
    int sq;
    /* dead: removed when his side had no unit left (R-6.7 ruling) */
    if (parse_sq(val, &sq)) FAIL("position: %s=%.10s: needs a square, dead, off or none", key, val);
    s->units.leader[key[0] == 'w'] = (uint8_t)sq;
    return 0;
  }
  if (!strcmp(key, "nactions")) {
    if (parse_num(val, UINT32_MAX, &v, 10)) FAIL("position: nactions=%.20s: needs a whole number", val);
    s->nactions = (uint32_t)v;
    return 0;
  }
  if (!strcmp(key, "evaders")) {
    s->interrupt.evaders = 0;
    if (!strcmp(val, "-")) return 0;
    char *save = NULL;
    for (char *t = strtok_r(val, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
      int u = scen_unit(sc, t);
      if (u < 0) FAIL("position: evaders: no unit '%.20s'", t);
      s->interrupt.evaders |= 1ull << u;
    }
    return 0;
  }
  if (!strcmp(key, "seed")) return 0; /* read before the set-up */
  if (!strcmp(key, "board")) {
    if (strcmp(val, "empty")) FAIL("position: board=%.20s: only board=empty", val);
    return 0;                           /* read before the other tokens */
  }
  FAIL("position: unknown key '%.20s'", key);
}

/* board=empty: every unit off the board (the Prussians waiting off the map, the others
 * removed), no card in any hand; the leaders stay on their start squares unless set */
static void board_empty(const Scen *sc, State *s) {
  for (int u = 0; u < sc->nunits; u++) {
    s->units.sq[u] = sc->unit[u].army == ARMY_PR ? SQ_OFF : SQ_DEAD;
    s->units.flag[u] &= UF_FACING;
  }
  s->cards.hand = 0;
}

int position_scenario(const char *text, char *scen, size_t slen, char *var, size_t vlen) {
  char a[64], b[512];
  if (sscanf(text, " %63s %511s", a, b) != 2 || strchr(a, '=') || strchr(b, '=')) return -1;
  if (strlen(a) >= slen || strlen(b) >= vlen) return -1;
  strcpy(scen, a);
  strcpy(var, b);
  return 0;
}

int position_parse(const Scen *sc, const char *text, State *s, char *err, size_t errlen) {
  size_t len = strlen(text);
  if (len > 65536) FAIL("position: text longer than 64 KB");
  char *buf = malloc(len + 1);
  if (!buf) FAIL("position: out of memory");
  memcpy(buf, text, len + 1);
  char *save = NULL, *tok[4096];
  int nt = 0;
  for (char *t = strtok_r(buf, " \t\r\n", &save); t && nt < 4096; t = strtok_r(NULL, " \t\r\n", &save)) tok[nt++] = t;
  int rc = -1;
  uint64_t seed = 1;
  if (nt < 2 || strcmp(tok[0], sc->scen_name) || strcmp(tok[1], sc->variant_names)) {
    snprintf(err, errlen, "position: must start with the scenario and variants '%s %s'", sc->scen_name,
             sc->variant_names);
    goto out;
  }
  for (int i = 2; i < nt; i++)
    if (!strncmp(tok[i], "seed=", 5)) {
      unsigned long long v;
      if (parse_num(tok[i] + 5, UINT64_MAX, &v, 10)) { snprintf(err, errlen, "position: seed needs a whole number"); goto out; }
      seed = v;
    }
  gs_init(sc, s, seed, 0);
  for (int i = 2; i < nt; i++)
    if (!strcmp(tok[i], "board=empty")) board_empty(sc, s);
  for (int i = 2; i < nt; i++) {
    char *eq = strchr(tok[i], '=');
    if (!eq) { snprintf(err, errlen, "position: '%.20s' is not KEY=VALUE", tok[i]); goto out; }
    *eq = 0;
    if (parse_token(sc, s, tok[i], eq + 1, err, errlen)) goto out;
  }
  for (int u = 0; u < sc->nunits; u++)
    for (int v = u + 1; v < sc->nunits; v++)
      if (s->units.sq[u] < NSQ && s->units.sq[u] == s->units.sq[v]) {
        char q[4];
        sq_name(s->units.sq[u], q);
        snprintf(err, errlen, "position: units %s and %s are both on %s", sc->unit[u].name, sc->unit[v].name, q);
        goto out;
      }
  gs_rebuild_occ(sc, s);
  /* ruling: without owner= a victory square with a unit on it is its side's (the unit
   * moved in); an owner= that names the other side is refused by gs_check below */
  int owner_given = 0;
  for (int i = 2; i < nt; i++) owner_given |= !strcmp(tok[i], "owner");
  if (!owner_given)
    for (int sq = 0; sq < NSQ; sq++)
      if (s->occ[sq] != UNIT_NONE) gs_set_holder(sc, s, sq, unit_side(sc, s->occ[sq]));
  char why[256];
  if (gs_check(sc, s, why, sizeof why)) { snprintf(err, errlen, "position: impossible: %s", why); goto out; }
  rc = 0;
out:
  free(buf);
  return rc;
}
