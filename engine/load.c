/* Scenario loading: map.ini, units.ini, cards.ini, params.ini and variants/NAME.ini, read with
 * inih.  Every mistake is reported as "file:line: message"; loading goes on to find them all. */
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "num.h"
#include "util.h"

typedef struct {
  Scen *sc;
  const char *file;      /* path for messages */
  int line;              /* current line */
  int nerr;
  char *err;
  size_t errlen;
  const char *scen;      /* "short" / "long": the scenario section that applies */
  int rows_seen[MAP_H];
  int places_seen;
  int cards_seen[3];
  /* where the parameters the final checks compare were last set ("file:line") */
  char at_turns[300], at_hand[3][300];
  int n_hand_pr;         /* turns the hand_pr table covers */
  const char *dir;       /* the data folder, for checks of a whole file */
  char at_victory[300];  /* where `victory` was last set */
  /* the [section] name pairs of the file being read, with their lines: a name given twice in
   * one section would silently keep the last value (an indented continuation line is not) */
  struct Seen { uint64_t h; int line; } seen[512];
  int nseen;
  int cont;              /* the line just read is an indented continuation */
} Loader;

static void lerr(Loader *L, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  /* the message may quote the file's bytes (and the path the user's): escaped, so that each
   * error stays one printable line */
  char emsg[4 * sizeof msg], efile[1024];
  num_escape(msg, emsg, sizeof emsg);
  num_escape(L->file, efile, sizeof efile);
  size_t used = strlen(L->err);
  if (L->nerr < 12 && used + 8 < L->errlen)
  {
    if (L->line > 0)  /* a check of a whole file or an option has no line: "FILE: msg" */
      snprintf(L->err + used, L->errlen - used, "%s%s:%d: %s", used ? "\n" : "", efile, L->line, emsg);
    else
      snprintf(L->err + used, L->errlen - used, "%s%s: %s", used ? "\n" : "", efile, emsg);
  }
  L->nerr++;
}

/* inih reader that counts lines, so the handler knows where it is */
typedef struct { FILE *f; Loader *L; } Reader;
static char *read_line(char *str, int num, void *stream) {
  Reader *r = stream;
  if (!fgets(str, num, r->f)) return NULL;
  r->L->line++;
  r->L->cont = str[0] == ' ' || str[0] == '\t';
  size_t n = strlen(str);
  if (n == (size_t)num - 1 && str[n - 1] != '\n' && !feof(r->f)) {
    int c;
    while ((c = fgetc(r->f)) != EOF && c != '\n') {}
    lerr(r->L, "line longer than %d characters (split the list over several lines)", num - 2);
    str[0] = '\n';
    str[1] = 0;
  }
  return str;
}

static int parse_file(Loader *L, const char *path, ini_handler h, int required) {
  FILE *f = fopen(path, "r");
  if (!f) {
    if (!required) return 0;
    L->file = path;
    L->line = 0;
    lerr(L, "cannot open: %s", strerror(errno));
    return -1;
  }
  L->file = path;
  L->line = 0;
  L->nseen = 0;
  Reader r = {f, L};
  int rc = ini_parse_stream(read_line, &r, h, L);
  fclose(f);
  if (rc > 0 && L->nerr == 0) lerr(L, "syntax error (expected [section] or name = value)");
  return 0;
}

/* ---------------------------------------------------------------- squares */
void sq_name(int sq, char out[4]) {
  if (sq < 0 || sq >= NSQ) {
    snprintf(out, 4, "--");
    return;
  }
  int r = sq / MAP_W + 1;               /* 1..13 */
  out[0] = (char)('A' + sq % MAP_W);
  if (r >= 10) out[1] = (char)('0' + r / 10), out[2] = (char)('0' + r % 10), out[3] = 0;
  else out[1] = (char)('0' + r), out[2] = 0;
}

static int parse_sq(const char *t) {
  if (!t || !isalpha((unsigned char)t[0])) return -1;
  int c = toupper((unsigned char)t[0]) - 'A';
  if (c < 0 || c >= MAP_W) return -1;
  char *end;
  long r = strtol(t + 1, &end, 10);
  if (end == t + 1 || *end || r < 1 || r > MAP_H) return -1;
  return (int)(r - 1) * MAP_W + c;
}

static const char *place_ids[V_COUNT] = {"msj", "hougoumont", "lhs", "frischermont",
                                          "plancenoit1", "plancenoit2", "plancenoit3"};

int scen_square(const Scen *sc, const char *name) {
  int sq = parse_sq(name);
  if (sq >= 0) return sq;
  for (int i = 0; i < NSQ; i++)
    if (sc->sqname[i][0] && !strcasecmp(sc->sqname[i], name)) return i;
  return -1;
}

int scen_unit(const Scen *sc, const char *name) {
  for (int i = 0; i < sc->nunits; i++)
    if (!strcasecmp(sc->unit[i].name, name)) return i;
  return -1;
}

int scen_card(const Scen *sc, const char *id) {
  for (int i = 0; i < sc->ncards; i++)
    if (!strcasecmp(sc->card[i].id, id)) return i;
  return -1;
}

/* split a value into whitespace tokens (in place) */
static int tokens(char *buf, char **tok, int max) {
  int n = 0;
  char *save = NULL;
  for (char *t = strtok_r(buf, " \t", &save); t && n < max; t = strtok_r(NULL, " \t", &save))
    tok[n++] = t;
  return n;
}

/* a "Quoted name" at the end of a value: copies it and cuts it off the value */
static void take_quoted(char *v, char *out, size_t len) {
  out[0] = 0;
  char *q = strchr(v, '"');
  if (!q) return;
  char *e = strrchr(q + 1, '"');
  if (!e) e = q + strlen(q);
  size_t n = (size_t)(e - q - 1);
  if (n >= len) n = len - 1;
  memcpy(out, q + 1, n);
  out[n] = 0;
  *q = 0;
}

static int parse_int(const char *t, int lo, int hi, int *out) {
  char *end;
  errno = 0;
  long v = strtol(t, &end, 10);
  if (errno || end == t || *end || v < lo || v > hi) return -1;
  *out = (int)v;
  return 0;
}

static int parse_army(const char *t) {
  return !strcmp(t, "fr") ? ARMY_FR : !strcmp(t, "br") ? ARMY_BR : !strcmp(t, "pr") ? ARMY_PR : -1;
}

static int parse_dir(const char *t) {
  if (!t || !t[0] || t[1]) return -1;
  const char *d = strchr("NESW", toupper((unsigned char)t[0]));
  return d ? (int)(d - "NESW") : -1;
}

/* ---------------------------------------------------------------- map.ini */
static int map_handler(void *user, const char *section, const char *name, const char *value) {
  Loader *L = user;
  Scen *sc = L->sc;
  char buf[512];
  char *tok[64];
  snprintf(buf, sizeof buf, "%s", value);
  if (!strcmp(section, "terrain")) {
    int r;
    if (strncmp(name, "row", 3) || parse_int(name + 3, 1, MAP_H, &r)) {
      lerr(L, "unknown terrain key '%s' (row1 .. row%d)", name, MAP_H);
      return 1;
    }
    int n = tokens(buf, tok, 64);
    if (n != MAP_W) {
      lerr(L, "row%d has %d squares, needs %d", r, n, MAP_W);
      return 1;
    }
    for (int c = 0; c < MAP_W; c++) {
      const char *k = strchr(".wvCh", tok[c][0]);
      if (!k || tok[c][1]) {
        lerr(L, "row%d column %c: unknown terrain '%s' (. w v C h)", r, 'A' + c, tok[c]);
        continue;
      }
      sc->terrain[(r - 1) * MAP_W + c] = (uint8_t)(k - ".wvCh");
    }
    L->rows_seen[r - 1] = 1;
  } else if (!strcmp(section, "edges")) {
    static const char *names[] = {"ridge", "stream", "bridge", "road", "pond"};
    int bit = -1;
    for (int i = 0; i < 5; i++)
      if (!strcmp(name, names[i])) bit = 1 << i;
    if (bit < 0) {
      lerr(L, "unknown edge kind '%s' (ridge stream bridge road pond)", name);
      return 1;
    }
    int n = tokens(buf, tok, 64);
    for (int i = 0; i < n; i++) {
      char *dash = strchr(tok[i], '-');
      if (!dash) {
        lerr(L, "edge '%s' is not SQUARE-SQUARE", tok[i]);
        continue;
      }
      *dash = 0;
      int a = parse_sq(tok[i]), b = parse_sq(dash + 1);
      if (a < 0 || b < 0) {
        lerr(L, "edge %s-%s: no such square", tok[i], dash + 1);
        continue;
      }
      int d = -1;
      for (int k = 0; k < 4; k++)
        if (sc->nb[a][k] == b) d = k;
      if (d < 0) {
        lerr(L, "edge %s-%s: squares are not orthogonally adjacent", tok[i], dash + 1);
        continue;
      }
      sc->edge[a][d] |= (uint8_t)bit;
      sc->edge[b][(d + 2) & 3] |= (uint8_t)bit;
    }
  } else if (!strcmp(section, "places")) {
    int sq = parse_sq(buf);
    if (sq < 0) {
      lerr(L, "place %s: '%s' is not a square", name, value);
      return 1;
    }
    for (int i = 0; i < V_COUNT; i++)
      if (!strcmp(name, place_ids[i])) {
        sc->vsq[i] = (uint8_t)sq;
        L->places_seen |= 1 << i;
      }
    if (!sc->sqname[sq][0]) snprintf(sc->sqname[sq], sizeof sc->sqname[sq], "%s", name);
  } else {
    lerr(L, "unknown section [%s] (terrain, edges, places)", section);
  }
  return 1;
}

/* ---------------------------------------------------------------- units.ini */
/* the reinforcement group of that name, made on first mention; -1 when there are too many */
static int group_index(Loader *L, const char *name) {
  Scen *sc = L->sc;
  for (int i = 0; i < sc->ngroups; i++)
    if (!strcmp(sc->group[i].name, name)) return i;
  if (sc->ngroups >= MAX_GROUPS) {
    lerr(L, "too many reinforcement groups (at most %d)", MAX_GROUPS);
    return -1;
  }
  int g = sc->ngroups++;
  snprintf(sc->group[g].name, sizeof sc->group[g].name, "%s", name);
  return g;
}
/* army, kind, battle values and flags of a unit line (tok[0..4]); -1 when the line is unusable */
static int unit_values(Loader *L, UnitDef *u, const char *name, char **tok) {
  int army = parse_army(tok[0]);
  if (army < 0) {
    lerr(L, "unit %s: unknown army '%s' (fr br pr)", name, tok[0]);
    return -1;
  }
  u->army = (uint8_t)army;
  if (!strcmp(tok[1], "inf")) u->kind = K_INF;
  else if (!strcmp(tok[1], "cav")) u->kind = K_CAV;
  else {
    lerr(L, "unit %s: unknown kind '%s' (inf cav)", name, tok[1]);
    return -1;
  }
  int full, red;
  if (parse_int(tok[2], 1, 20, &full) || parse_int(tok[3], 0, 19, &red) || red >= full) {
    lerr(L, "unit %s: battle values '%s %s' (full 1..20, reduced 0..full-1)", name, tok[2], tok[3]);
    return -1;
  }
  if (full == 1 && red != 0) lerr(L, "unit %s: a 1-BP unit has no reduced side", name);
  u->bp_full = (uint8_t)full;
  u->bp_red = (uint8_t)red;
  int light = 0;
  if (strcmp(tok[4], "-")) {
    char *save = NULL;
    for (char *f = strtok_r(tok[4], ",", &save); f; f = strtok_r(NULL, ",", &save)) {
      if (!strcmp(f, "elite")) u->elite = 1;
      else if (!strcmp(f, "heavy")) u->heavy = 1;
      else if (!strcmp(f, "light")) light = 1;
      else lerr(L, "unit %s: unknown flag '%s' (elite heavy light)", name, f);
    }
  }
  if (u->kind == K_CAV && u->heavy == light) lerr(L, "unit %s: cavalry must be heavy or light", name);
  if (u->kind == K_INF && (u->heavy || light)) lerr(L, "unit %s: infantry cannot be heavy or light", name);
  if (army == ARMY_PR && (u->elite || u->heavy))
    lerr(L, "unit %s: Prussian units are never elite or heavy (R-2.3)", name);
  return 0;
}

/* where a unit starts: a square and facing, or "@GROUP" for a Prussian reinforcement; -1 when
 * the line is unusable */
static int unit_start(Loader *L, UnitDef *u, const char *name, const char *where, const char *facing) {
  Scen *sc = L->sc;
  if (where[0] == '@') {
    if (u->army != ARMY_PR) lerr(L, "unit %s: only Prussian units arrive as reinforcements", name);
    int g = group_index(L, where + 1);
    if (g < 0) return -1;
    u->group = (int8_t)g;
    u->start_sq = SQ_OFF;
    u->start_facing = DIR_W;
    return 0;
  }
  int sq = parse_sq(where);
  int f = parse_dir(facing);
  if (sq < 0) lerr(L, "unit %s: '%s' is not a square", name, where);
  if (f < 0) lerr(L, "unit %s: facing '%s' is not N, E, S or W", name, facing);
  if (sq < 0 || f < 0) return -1;
  if (u->army == ARMY_PR) lerr(L, "unit %s: Prussian units start off the map (R-3.4)", name);
  for (int i = 0; i < sc->nunits; i++)
    if (sc->unit[i].start_sq == sq) {
      char s[4];
      sq_name(sq, s);
      lerr(L, "unit %s: square %s already holds %s (R-6.4)", name, s, sc->unit[i].name);
    }
  u->start_sq = (uint8_t)sq;
  u->start_facing = (uint8_t)f;
  return 0;
}

/* [units] NAME = army kind full reduced flags square facing "long name" */
static void unit_line(Loader *L, const char *name, char *buf) {
  Scen *sc = L->sc;
  char *tok[16];
  if (sc->nunits >= MAX_UNITS) {
    lerr(L, "more than %d units", MAX_UNITS);
    return;
  }
  UnitDef *u = &sc->unit[sc->nunits];
  memset(u, 0, sizeof *u);
  u->group = -1;
  if (strlen(name) >= sizeof u->name) {
    lerr(L, "unit name '%s' longer than %zu characters", name, sizeof u->name - 1);
    return;
  }
  if (scen_unit(sc, name) >= 0) {
    lerr(L, "unit '%s' defined twice", name);
    return;
  }
  snprintf(u->name, sizeof u->name, "%s", name);
  take_quoted(buf, u->longname, sizeof u->longname);
  if (tokens(buf, tok, 16) != 7) {
    lerr(L, "unit %s: expected 'army kind full reduced flags square facing \"name\"'", name);
    return;
  }
  if (unit_values(L, u, name, tok) || unit_start(L, u, name, tok[5], tok[6])) return;
  sc->nunits++;
}

/* [reinforcements] GROUP = turn square square ... */
static void group_line(Loader *L, const char *name, char *buf) {
  char *tok[16];
  int n = tokens(buf, tok, 16);
  int g = group_index(L, name);
  if (g < 0) return;
  GroupDef *G = &L->sc->group[g];
  int turn;
  if (n < 2 || parse_int(tok[0], 1, MAX_TURNS, &turn)) {
    lerr(L, "group %s: expected 'turn square square ...'", name);
    return;
  }
  G->turn = (uint8_t)turn;
  G->nentry = 0;
  for (int i = 1; i < n; i++) {
    int sq = parse_sq(tok[i]);
    if (sq < 0) {
      lerr(L, "group %s: '%s' is not a square", name, tok[i]);
      continue;
    }
    int r = sq / MAP_W, c = sq % MAP_W;
    if (r != 0 && r != MAP_H - 1 && c != 0 && c != MAP_W - 1)
      lerr(L, "group %s: entry %s is not an edge square (R-11.3)", name, tok[i]);
    if (G->nentry < MAX_ENTRY) G->entry[G->nentry++] = (uint8_t)sq;
    else lerr(L, "group %s: more than %d entry squares", name, MAX_ENTRY);
  }
}

static int units_handler(void *user, const char *section, const char *name, const char *value) {
  Loader *L = user;
  Scen *sc = L->sc;
  char buf[512];
  snprintf(buf, sizeof buf, "%s", value);
  if (!strcmp(section, "leaders")) {
    int sq = parse_sq(buf);
    int who = !strcmp(name, "napoleon") ? 0 : !strcmp(name, "wellington") ? 1 : -1;
    if (who < 0) lerr(L, "unknown leader '%s' (napoleon, wellington)", name);
    else if (sq < 0) lerr(L, "leader %s: '%s' is not a square", name, value);
    else sc->leader_start[who] = (uint8_t)sq;
  } else if (!strcmp(section, "units")) {
    unit_line(L, name, buf);
  } else if (!strcmp(section, "reinforcements")) {
    group_line(L, name, buf);
  } else {
    lerr(L, "unknown section [%s] (leaders, units, reinforcements)", section);
  }
  return 1;
}

/* ---------------------------------------------------------------- cards.ini */
static int cards_handler(void *user, const char *section, const char *name, const char *value) {
  Loader *L = user;
  Scen *sc = L->sc;
  char buf[512];
  char *tok[8];
  if (strcmp(section, "cards")) {
    lerr(L, "unknown section [%s] (cards)", section);
    return 1;
  }
  if (sc->ncards >= 55 + 9) {
    lerr(L, "more than %d cards", MAX_CARDS);
    return 1;
  }
  if (scen_card(sc, name) >= 0) {
    lerr(L, "card %s defined twice", name);
    return 1;
  }
  CardDef *c = &sc->card[sc->ncards];
  memset(c, 0, sizeof *c);
  if (strlen(name) >= sizeof c->id) {
    lerr(L, "card id '%s' too long", name);
    return 1;
  }
  snprintf(c->id, sizeof c->id, "%s", name);
  snprintf(buf, sizeof buf, "%s", value);
  take_quoted(buf, c->name, sizeof c->name);
  int n = tokens(buf, tok, 8);
  if (n != 4) {
    lerr(L, "card %s: expected 'army mp bp action \"Name\"'", name);
    return 1;
  }
  int army = parse_army(tok[0]);
  int mp, bp;
  if (army < 0) {
    lerr(L, "card %s: unknown army '%s' (fr br pr)", name, tok[0]);
    return 1;
  }
  if (parse_int(tok[1], 0, 12, &mp) || parse_int(tok[2], 0, 12, &bp)) {
    lerr(L, "card %s: movement and battle values must be 0..12", name);
    return 1;
  }
  c->army = (uint8_t)army;
  c->mp = (uint8_t)mp;
  c->bp = (uint8_t)bp;
  const char *act = tok[3];
  if (!strcmp(act, "-")) c->action = ACT_NONE;
  else if (!strcmp(act, "artillery")) c->action = ACT_ARTILLERY;
  else if (!strncmp(act, "command:", 8)) {
    int a, d;
    if (sscanf(act + 8, "%d/%d", &a, &d) != 2 || a < 0 || d < 0 || a > 9 || d > 9) {
      lerr(L, "card %s: command needs 'command:ATT/DEF'", name);
      return 1;
    }
    c->action = ACT_COMMAND;
    c->cmd_att = (uint8_t)a;
    c->cmd_def = (uint8_t)d;
  } else if (!strcmp(act, "charge")) c->action = ACT_CHARGE;
  else if (!strcmp(act, "force-charge")) c->action = ACT_FORCE_CHARGE;
  else if (!strcmp(act, "elite")) c->action = ACT_ELITE;
  else if (!strcmp(act, "rally")) c->action = ACT_RALLY;
  else if (!strcmp(act, "health")) c->action = ACT_HEALTH;
  else {
    lerr(L, "card %s: unknown action '%s'", name, act);
    return 1;
  }
  if (army == ARMY_PR &&
      (c->action == ACT_COMMAND || c->action == ACT_ELITE || c->action == ACT_HEALTH))
    lerr(L, "card %s: Prussian cards have no command, elite or health action (R-9.2, R-9.6)",
         name);
  if (army == ARMY_FR && c->action == ACT_HEALTH)
    lerr(L, "card %s: Napoleon's health is a British card (R-9.7)", name);
  L->cards_seen[army]++;
  sc->ncards++;
  return 1;
}

/* ---------------------------------------------------------------- parameters */
/* the values the rules can accept, checked on the line that sets them */
static const struct { const char *k; int lo, hi; const char *why; } param_range[] = {
    {"turns", 1, MAX_TURNS, "turns must be 1..%d (the turn track)"},
    {"hand_fr", 0, MAX_CARDS, "a hand must be 0..%d cards"},
    {"hand_br", 0, MAX_CARDS, "a hand must be 0..%d cards"},
    {"hand_pr", 0, MAX_CARDS, "a hand must be 0..%d cards"},
    {"round_limit", 1, MAX_CARDS, "round_limit must be 1..%d cards"},
    {"cdp_hougoumont", 0, 99, "castle damage points must be 0..%d (never negative)"},
    {"cdp_lhs", 0, 99, "castle damage points must be 0..%d (never negative)"},
    {"cdp_frischermont", 0, 99, "castle damage points must be 0..%d (never negative)"},
    {"charge_all_cards", 0, 1, "charge_all_cards is 0 or %d"},
    {"three_player", 0, 1, "three_player is 0 or %d"},
    {"bidding", 0, 1, "bidding is 0 or %d"},
    {"prussians", 0, 1, "prussians is 0 or %d"},
    {"prussian_shift", -MAX_TURNS, MAX_TURNS, "prussian_shift must be within +-%d turns"},
    {"elite_mult", 1, 10, "a multiplier must be 1..%d"},
    {"flank_mult", 1, 10, "a multiplier must be 1..%d"},
    {"rear_mult", 1, 10, "a multiplier must be 1..%d"},
    {"heavy_charge", 1, 10, "a multiplier must be 1..%d"},
    {"light_charge", 1, 10, "a multiplier must be 1..%d"},
    {"terrain_mult", 1, 10, "a multiplier must be 1..%d"},
    {"castle_mult", 1, 10, "a multiplier must be 1..%d"},
    {"max_attackers", 1, 4, "max_attackers must be 1..%d (one per side of a square)"},
    {"short_castles", 1, MAX_CASTLES, "short_castles must be 1..%d"},
    {"short_castles_msj", 0, MAX_CASTLES, "short_castles_msj must be 0..%d"},
    {"vp_", 0, 100, "victory points must be 0..%d"},
};

static int param_in_range(Loader *L, const char *name, const int *v, int n) {
  for (size_t i = 0; i < sizeof param_range / sizeof param_range[0]; i++) {
    const char *k = param_range[i].k;
    if (strcmp(name, k) && !(k[strlen(k) - 1] == '_' && !strncmp(name, k, strlen(k)))) continue;
    for (int j = 0; j < n; j++)
      if (v[j] < param_range[i].lo || v[j] > param_range[i].hi) {
        char why[160];
        snprintf(why, sizeof why, param_range[i].why, param_range[i].hi);
        lerr(L, "%s = %d refused: %s", name, v[j], why);
        return -1;
      }
    return 0;
  }
  return 0;
}

static void param_where(Loader *L, char *at, size_t len) {
  snprintf(at, len, "%s:%d", L->file ? L->file : "?", L->line);
}

/* checks between parameters, after every file: reported at the line that set the value */
static void params_cross_check(Loader *L) {
  Scen *sc = L->sc;
  int deck[3] = {0, 0, 0};
  for (int i = 0; i < sc->ncards; i++)
    if (sc->card[i].army < 3) deck[sc->card[i].army]++;
  static const char *army[3] = {"French", "British", "Prussian"};
  int hand[3] = {sc->p.hand_fr, sc->p.hand_br, 0};
  for (int a = 0; a < 3; a++) {
    const char *at = L->at_hand[a][0] ? L->at_hand[a] : "params";
    if (a == 2) {
      if (!sc->p.prussians) continue;
      for (int t = 1; t <= sc->p.turns; t++)
        if (sc->p.hand_pr[t] > deck[2]) {
          size_t u = strlen(L->err);
          if (u + 8 < L->errlen)
            snprintf(L->err + u, L->errlen - u, "%s%s: hand_pr draws %d cards on turn %d, more than the %d of the Prussian deck",
                     u ? "\n" : "", at, sc->p.hand_pr[t], t, deck[2]);
          L->nerr++;
          break;
        }
      continue;
    }
    if (hand[a] > deck[a]) {
      size_t u = strlen(L->err);
      if (u + 8 < L->errlen)
        snprintf(L->err + u, L->errlen - u, "%s%s: a %s hand of %d cards is larger than the %d cards of its deck",
                 u ? "\n" : "", at, army[a], hand[a], deck[a]);
      L->nerr++;
    }
  }
  if (sc->p.prussians && sc->p.turns > L->n_hand_pr) {
    size_t u = strlen(L->err);
    if (u + 8 < L->errlen)
      snprintf(L->err + u, L->errlen - u, "%s%s: turns = %d, but the Prussian draw table (hand_pr%s%s) "
               "covers %d turns: give hand_pr a value for every turn",
               u ? "\n" : "", L->at_turns[0] ? L->at_turns : "params", sc->p.turns,
               L->at_hand[2][0] ? ", " : "", L->at_hand[2], L->n_hand_pr);
    L->nerr++;
  }
}

/* victory = the squares that count in this scenario */
static int param_victory(Loader *L, char **tok, int n) {
  uint8_t mask = 0;
  for (int i = 0; i < n; i++) {
    int k = -1;
    for (int j = 0; j < V_COUNT; j++)
      if (!strcmp(tok[i], place_ids[j])) k = j;
    if (k < 0) lerr(L, "victory: unknown square id '%s'", tok[i]);
    else mask |= (uint8_t)(1 << k);
  }
  L->sc->vsq_active = mask;
  param_where(L, L->at_victory, sizeof L->at_victory);
  return 0;
}

/* a parameter of one number; 1 when name is not one */
static int param_scalar(Loader *L, const char *name, const int *v, int n) {
  Params *p = &L->sc->p;
  struct { const char *k; int *dst; } one[] = {
      {"turns", &p->turns},
      {"hand_fr", &p->hand_fr},
      {"hand_br", &p->hand_br},
      {"round_limit", &p->round_limit},
      {"cdp_hougoumont", &p->cdp[0]},
      {"cdp_lhs", &p->cdp[1]},
      {"cdp_frischermont", &p->cdp[2]},
      {"charge_all_cards", &p->charge_all_cards},
      {"three_player", &p->three_player},
      {"bidding", &p->bidding},
      {"prussians", &p->prussians},
      {"prussian_shift", &p->prussian_shift},
      {"elite_mult", &p->elite_mult},
      {"flank_mult", &p->flank_mult},
      {"rear_mult", &p->rear_mult},
      {"heavy_charge", &p->heavy_charge},
      {"light_charge", &p->light_charge},
      {"terrain_mult", &p->terrain_mult},
      {"castle_mult", &p->castle_mult},
      {"max_attackers", &p->max_attackers},
      {"short_castles", &p->short_castles_needed},
      {"short_castles_msj", &p->short_castles_msj},
  };
  for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
    if (!strcmp(name, one[i].k)) {
      if (n != 1) {
        lerr(L, "%s takes one number", name);
        return -1;
      }
      *one[i].dst = v[0];
      return 0;
    }
  return 1;
}

/* vp_SQUARE = French VP, Allied VP; 1 when name is not one */
static int param_vp(Loader *L, const char *name, const int *v, int n) {
  Params *p = &L->sc->p;
  struct { const char *k; int idx[3]; int nidx; } vp[] = {
      {"vp_msj", {V_MSJ}, 1},
      {"vp_hougoumont", {V_HOUGOUMONT}, 1},
      {"vp_lhs", {V_LHS}, 1},
      {"vp_frischermont", {V_FRISCHERMONT}, 1},
      {"vp_plancenoit", {V_PLANC1, V_PLANC2, V_PLANC3}, 3},
  };
  for (size_t i = 0; i < sizeof vp / sizeof vp[0]; i++)
    if (!strcmp(name, vp[i].k)) {
      if (n != 2) {
        lerr(L, "%s takes two numbers: French VP, Allied VP", name);
        return -1;
      }
      for (int j = 0; j < vp[i].nidx; j++) {
        p->vp_fr[vp[i].idx[j]] = v[0];
        p->vp_al[vp[i].idx[j]] = v[1];
      }
      return 0;
    }
  return 1;
}

/* ban_french / ban_allied = words of what that side may not use, separated by spaces
 * or '/', or "none"; 1 when name is not one */
static int param_ban(Loader *L, const char *name, const char *value) {
  int side = !strcmp(name, "ban_french") ? FRENCH : !strcmp(name, "ban_allied") ? ALLIED : -1;
  if (side < 0) return 1;
  char buf[512], *save = NULL;
  int mask = 0;
  snprintf(buf, sizeof buf, "%s", value);
  for (char *w = strtok_r(buf, " \t/", &save); w; w = strtok_r(NULL, " \t/", &save)) {
    int b = ban_bit(w);
    if (b >= 0) mask |= 1 << b;
    else if (strcmp(w, "none")) {
      lerr(L, "%s: unknown restriction '%s' (artillery, command, charge, force-charge, elite, "
              "rally, health, bid, cdp-hougoumont, cdp-lhs, cdp-frischermont or none)", name, w);
      return -1;
    }
  }
  L->sc->p.ban[side] = mask;
  return 0;
}

static int param_set(Loader *L, const char *name, const char *value) {
  Params *p = &L->sc->p;
  int rb = param_ban(L, name, value);
  if (rb <= 0) return rb;
  char buf[512];
  char *tok[32];
  snprintf(buf, sizeof buf, "%s", value);
  int n = tokens(buf, tok, 32);
  int v[32];
  if (!strcmp(name, "victory")) return param_victory(L, tok, n);
  for (int i = 0; i < n; i++)
    if (parse_int(tok[i], -20, 1000, &v[i])) {
      lerr(L, "%s: '%s' is not a whole number", name, tok[i]);
      return -1;
    }
  if (param_in_range(L, name, v, n)) return -1;
  if (!strcmp(name, "turns")) param_where(L, L->at_turns, sizeof L->at_turns);
  if (!strcmp(name, "hand_fr")) param_where(L, L->at_hand[0], sizeof L->at_hand[0]);
  if (!strcmp(name, "hand_br")) param_where(L, L->at_hand[1], sizeof L->at_hand[1]);
  int rc = param_scalar(L, name, v, n);
  if (rc <= 0) return rc;
  if (!strcmp(name, "hand_pr")) {
    if (n < 1 || n > MAX_TURNS) {
      lerr(L, "hand_pr takes 1..%d numbers (one per turn)", MAX_TURNS);
      return -1;
    }
    for (int i = 0; i < MAX_TURNS; i++) p->hand_pr[i + 1] = i < n ? v[i] : v[n - 1];
    param_where(L, L->at_hand[2], sizeof L->at_hand[2]);
    L->n_hand_pr = n;
    return 0;
  }
  rc = param_vp(L, name, v, n);
  if (rc <= 0) return rc;
  lerr(L, "unknown parameter '%s' (see docs/PARAMETERS.md)", name);
  return -1;
}

/* [setup] of a variant: "UNIT = SQUARE FACING" or "napoleon = SQUARE" moves a start position
 * (historical-garrisons).  Collisions are checked in validate(). */
static void setup_set(Loader *L, const char *name, const char *value) {
  Scen *sc = L->sc;
  char buf[128];
  char *tok[4];
  snprintf(buf, sizeof buf, "%s", value);
  int n = tokens(buf, tok, 4);
  int who = !strcmp(name, "napoleon") ? 0 : !strcmp(name, "wellington") ? 1 : -1;
  if (who >= 0) {
    int sq = n == 1 ? parse_sq(tok[0]) : -1;
    if (sq < 0) lerr(L, "[setup] %s: expected 'SQUARE'", name);
    else sc->leader_start[who] = (uint8_t)sq;
    return;
  }
  int u = scen_unit(sc, name);
  if (u < 0) {
    lerr(L, "[setup] unknown unit '%s'", name);
    return;
  }
  int sq = n == 2 ? parse_sq(tok[0]) : -1, f = n == 2 ? parse_dir(tok[1]) : -1;
  if (sq < 0 || f < 0) lerr(L, "[setup] %s: expected 'SQUARE FACING' (e.g. C7 S)", name);
  else if (sc->unit[u].group >= 0) lerr(L, "[setup] %s: a reinforcement starts off the map (R-3.4)", name);
  else {
    sc->unit[u].start_sq = (uint8_t)sq;
    sc->unit[u].start_facing = (uint8_t)f;
  }
}

/* the line where name was first given in this section of this file, or 0 (and it is noted) */
static int given_before(Loader *L, const char *section, const char *name) {
  if (L->cont) return 0;
  uint64_t h = hash_fnv1a(name, strlen(name) + 1, hash_fnv1a(section, strlen(section) + 1, 0));
  for (int i = 0; i < L->nseen; i++)
    if (L->seen[i].h == h) return L->seen[i].line;
  if (L->nseen < (int)(sizeof L->seen / sizeof *L->seen)) L->seen[L->nseen++] = (struct Seen){h, L->line};
  return 0;
}

static int params_handler(void *user, const char *section, const char *name, const char *value) {
  Loader *L = user;
  int first = given_before(L, section, name);
  if (first) {
    lerr(L, "'%s' given twice in [%s] (first at line %d)", name, section, first);
    return 1;
  }
  if (!strcmp(section, "setup")) {
    setup_set(L, name, value);
    return 1;
  }
  if (!strcmp(section, "base") || !strcmp(section, "params") || !strcmp(section, L->scen))
    param_set(L, name, value);
  else if (!strcmp(section, "short") || !strcmp(section, "long")) {
    /* the other scenario's section: checked on a scratch copy, not applied */
    Scen *real = L->sc;
    Scen *scratch = malloc(sizeof *scratch);
    if (scratch) {
      memcpy(scratch, real, sizeof *scratch);
      L->sc = scratch;
      Loader keep = *L; /* where the applied values were set stays as it was */
      param_set(L, name, value);
      memcpy(L->at_turns, keep.at_turns, sizeof L->at_turns);
      memcpy(L->at_hand, keep.at_hand, sizeof L->at_hand);
      L->n_hand_pr = keep.n_hand_pr;
      L->sc = real;
      free(scratch);
    }
  } else if (!strcmp(section, "variant")) {
    if (strcmp(name, "description")) lerr(L, "[variant] knows only 'description'");
  } else if (strcmp(section, "short") && strcmp(section, "long"))
    lerr(L, "unknown section [%s] (base, params, short, long, variant, setup)", section);
  return 1;
}

static void defaults(Params *p) {
  memset(p, 0, sizeof *p);
  p->turns = 7;
  p->hand_fr = 15;
  p->hand_br = 12;
  int pr[] = {0, 1, 3, 4, 6, 7, 8};
  for (int t = 1; t <= MAX_TURNS; t++) p->hand_pr[t] = pr[t <= 7 ? t - 1 : 6];
  p->round_limit = 5;
  p->cdp[0] = 4, p->cdp[1] = 2, p->cdp[2] = 1;
  p->vp_fr[V_MSJ] = 15;
  p->vp_fr[V_HOUGOUMONT] = 5, p->vp_al[V_HOUGOUMONT] = 10;
  p->vp_fr[V_LHS] = 5, p->vp_al[V_LHS] = 5;
  p->vp_al[V_PLANC1] = p->vp_al[V_PLANC2] = p->vp_al[V_PLANC3] = 2;
  p->bidding = 1;
  p->prussians = 1;
  p->elite_mult = 2, p->flank_mult = 2, p->rear_mult = 3;
  p->heavy_charge = 3, p->light_charge = 2;
  p->terrain_mult = 2, p->castle_mult = 2;
  p->max_attackers = 4;
  p->short_castles_needed = 3;
  p->short_castles_msj = 2;
}

void data_dir(const char *env_var, const char *name, const char *probe, char *out, size_t len) {
  const char *env = getenv(env_var);
  if (env && *env) {
    snprintf(out, len, "%s", env);
    return;
  }
  char rel[256];
  snprintf(rel, sizeof rel, "%s/%s", name, probe);
  if (access(rel, R_OK) == 0) {
    snprintf(out, len, "%s", name);
    return;
  }
  /* beside the program (a build in the source tree), else where `make install` put it: the
   * program in PREFIX/bin, the data in PREFIX/share/waterloo (Makefile, install) */
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  char *slash = n > 0 ? (exe[n] = 0, strrchr(exe, '/')) : NULL;
  if (!slash) {
    snprintf(out, len, "%s", name);
    return;
  }
  *slash = 0;
  char beside[4400], installed[4400];
  snprintf(beside, sizeof beside, "%s/%s/%s", exe, name, probe);
  snprintf(installed, sizeof installed, "%s/../share/waterloo/%s/%s", exe, name, probe);
  if (access(beside, R_OK) != 0 && access(installed, R_OK) == 0)
    snprintf(out, len, "%s/../share/waterloo/%s", exe, name);
  else
    snprintf(out, len, "%s/%s", exe, name);
}

const char *scen_default_dir(void) {
  static __thread char dir[4200];
  data_dir("WATERLOO_DATA", "scenarios", "map.ini", dir, sizeof dir);
  return dir;
}

/* final checks that need the whole data set */
/* a check of a whole file (no one line to blame): "DIR/FILE: message" */
static void set_file(Loader *L, char *buf, size_t len, const char *file) {
  snprintf(buf, len, "%s/%s", L->dir, file);
  L->file = buf;
  L->line = 0;
}

/* map.ini complete: rows, places, the three castles, bridges only on streams */
static void validate_map(Loader *L, char *fbuf, size_t flen) {
  Scen *sc = L->sc;
  set_file(L, fbuf, flen, "map.ini");
  for (int r = 0; r < MAP_H; r++)
    if (!L->rows_seen[r]) lerr(L, "row%d missing", r + 1);
  for (int i = 0; i < V_COUNT; i++)
    if (!(L->places_seen & (1 << i))) lerr(L, "place '%s' missing", place_ids[i]);
  int ncastle = 0;
  for (int sq = 0; sq < NSQ; sq++) sc->castle_of[sq] = -1, sc->vsq_of[sq] = -1;
  for (int i = 0; i < V_COUNT; i++)
    if (L->places_seen & (1 << i)) sc->vsq_of[sc->vsq[i]] = (int8_t)i;
  int castle_places[MAX_CASTLES] = {V_HOUGOUMONT, V_LHS, V_FRISCHERMONT};
  for (int i = 0; i < MAX_CASTLES; i++) {
    int sq = sc->vsq[castle_places[i]];
    sc->castle_sq[i] = (uint8_t)sq;
    if (sc->terrain[sq] != T_CASTLE)
      lerr(L, "%s is not a castle square (C)", place_ids[castle_places[i]]);
    sc->castle_of[sq] = (int8_t)i;
  }
  for (int sq = 0; sq < NSQ; sq++) {
    if (sc->terrain[sq] == T_CASTLE) ncastle++;
    for (int d = 0; d < 4; d++)
      if ((sc->edge[sq][d] & E_BRIDGE) && !(sc->edge[sq][d] & E_STREAM)) {
        char a[4];
        sq_name(sq, a);
        lerr(L, "bridge at %s side %c is not on a stream", a, "NESW"[d]);
      }
  }
  if (ncastle != MAX_CASTLES) lerr(L, "%d castle squares, expected 3", ncastle);
}

/* units.ini after the variants' [setup]: one unit per square, leaders with friends, groups */
static void validate_units(Loader *L, char *fbuf, size_t flen) {
  Scen *sc = L->sc;
  set_file(L, fbuf, flen, "units.ini");
  if (sc->nunits == 0) lerr(L, "none defined");
  for (int i = 0; i < sc->nunits; i++)     /* after a variant's [setup]: one unit per square */
    for (int j = 0; j < i; j++)
      if (sc->unit[i].start_sq < NSQ && sc->unit[i].start_sq == sc->unit[j].start_sq) {
        char q[4];
        sq_name(sc->unit[i].start_sq, q);
        lerr(L, "set-up: %s and %s both start on %s (R-6.4)", sc->unit[j].name, sc->unit[i].name, q);
      }
  for (int w = 0; w < 2; w++)
    for (int i = 0; i < sc->nunits; i++)
      if (sc->leader_start[w] != SQ_NONE && sc->unit[i].start_sq == sc->leader_start[w] &&
          (sc->unit[i].army == ARMY_FR) != (w == 0))
        lerr(L, "set-up: %s starts with the enemy unit %s (R-6.7)", w ? "wellington" : "napoleon",
             sc->unit[i].name);
  for (int i = 0; i < sc->ngroups; i++)
    if (sc->group[i].nentry == 0) lerr(L, "group %s has no entry squares", sc->group[i].name);
  for (int w = 0; w < 2; w++)
    if (sc->leader_start[w] == SQ_NONE)
      lerr(L, "%s has no square", w ? "wellington" : "napoleon");
}

/* the derived tables of Scen: movement costs, open neighbours, units and cards by
 * army and side */
static void derive_tables(Scen *sc) {
  for (int from = 0; from < NSQ; from++)     /* movement costs */
    for (int d = 0; d < 4; d++) {
      int to = sc->nb[from][d], e = sc->edge[from][d], c;
      if (to == SQ_NONE || (e & E_POND)) {
        sc->cost[from][d] = 255;
        continue;
      }
      if ((e & E_ROAD) && (to == sc->vsq[V_MSJ] || to == sc->vsq[V_LHS])) {
        sc->cost[from][d] = 1;
        continue;
      }
      switch (sc->terrain[to]) {
      case T_CLEAR: c = 1; break;
      case T_HILL: c = sc->terrain[from] == T_HILL ? 1 : 2; break;
      default: c = 2;
      }
      if (e & E_RIDGE) c++;
      if ((e & E_STREAM) && !(e & E_BRIDGE)) c++;
      sc->cost[from][d] = (uint8_t)c;
    }
  for (int sq = 0; sq < NSQ; sq++)
    for (int d = 0; d < 4; d++)
      sc->nb_open[sq][d] = (sc->edge[sq][d] & E_POND) ? SQ_NONE : sc->nb[sq][d];
  for (int u = 0; u < sc->nunits; u++) {
    sc->uside[u] = sc->unit[u].army == ARMY_FR ? FRENCH : ALLIED;
    int a = sc->unit[u].army, side = a == ARMY_FR ? 0 : 1;
    sc->army_units[a][sc->n_army_units[a]++] = (uint8_t)u;
    sc->side_units[side][sc->n_side_units[side]++] = (uint8_t)u;
  }
  for (int a = 0; a < 3; a++) {
    sc->army_cards[a] = 0;
    for (int i = 0; i < sc->ncards; i++)
      if (sc->card[i].army == a) sc->army_cards[a] |= 1ull << i;
  }
}

static void validate(Loader *L) {
  Scen *sc = L->sc;
  char fbuf[4300];
  validate_map(L, fbuf, sizeof fbuf);
  validate_units(L, fbuf, sizeof fbuf);
  derive_tables(sc);
  if (sc->p.turns < 1 || sc->p.turns > MAX_TURNS) {
    if (L->at_turns[0]) L->file = L->at_turns, L->line = 0;
    else set_file(L, fbuf, sizeof fbuf, "params.ini");
    lerr(L, "turns must be 1..%d", MAX_TURNS);
  }
  if (!sc->vsq_active) {
    if (L->at_victory[0]) L->file = L->at_victory, L->line = 0;
    else set_file(L, fbuf, sizeof fbuf, "params.ini");
    lerr(L, "no victory squares (victory = ...)");
  }
}

static int scen_load_opt(Scen *sc, const char *dir, const char *scenario, const char *variants,
                         char *err, size_t errlen, int user);

int scen_load(Scen *sc, const char *dir, const char *scenario, const char *variants, char *err,
              size_t errlen) {
  return scen_load_opt(sc, dir, scenario, variants, err, errlen, 0);
}

int scen_load_user(Scen *sc, const char *dir, const char *scenario, const char *variants,
                   char *err, size_t errlen) {
  return scen_load_opt(sc, dir, scenario, variants, err, errlen, 1);
}

/* the square grid's neighbours, the default parameters and the four data files of dir; path:
 * the caller's buffer for the file names (L->file points into it after) */
static void load_base_files(Loader *L, const char *dir, char *path, size_t plen) {
  Scen *sc = L->sc;
  for (int sq = 0; sq < NSQ; sq++)
    for (int d = 0; d < 4; d++) {
      int r = sq / MAP_W, c = sq % MAP_W;
      int rr = r + (d == DIR_S) - (d == DIR_N), cc = c + (d == DIR_E) - (d == DIR_W);
      sc->nb[sq][d] = (rr < 0 || rr >= MAP_H || cc < 0 || cc >= MAP_W) ? SQ_NONE
                                                                        : (uint8_t)(rr * MAP_W + cc);
    }
  defaults(&sc->p);
  snprintf(path, plen, "%s/map.ini", dir);
  /* no map: no scenario folder at all, most likely (a wrong WATERLOO_DATA): one line, not four */
  if (parse_file(L, path, map_handler, 1)) return;
  snprintf(path, plen, "%s/units.ini", dir);
  parse_file(L, path, units_handler, 1);
  snprintf(path, plen, "%s/cards.ini", dir);
  parse_file(L, path, cards_handler, 1);
  snprintf(path, plen, "%s/params.ini", dir);
  parse_file(L, path, params_handler, 1);
}

/* one entry v of the variant list: NAME=VALUE[+...] or a file by its path (user lists only), or
 * a shipped variant's name; -1 when it cannot be read at all (said in L->err); path as above */
static int load_variant(Loader *L, const char *dir, char *v, int user, char *path, size_t plen) {
  char *err = L->err;
  size_t errlen = L->errlen;
  if (user && strchr(v, '=')) {
    /* NAME=VALUE[+NAME=VALUE...]: parameters set directly (sim --set) */
    char *s2 = NULL;
    for (char *kv = strtok_r(v, "+", &s2); kv; kv = strtok_r(NULL, "+", &s2)) {
      char *eq = strchr(kv, '=');
      if (!eq) { lerr(L, "'%s' is not NAME=VALUE", kv); continue; }
      *eq = 0;
      L->file = "--set";
      L->line = 0;
      param_set(L, kv, eq + 1);
    }
    return 0;
  }
  if (user && (strchr(v, '/') || (strlen(v) > 4 && !strcmp(v + strlen(v) - 4, ".ini")))) {
    /* a variant file anywhere, by its path */
    struct stat vst;
    if (stat(v, &vst) != 0 || !S_ISREG(vst.st_mode) || access(v, R_OK) != 0) {
      size_t u = strlen(err);
      int en = errno;
      char ev[1024];
      num_escape(v, ev, sizeof ev);
      snprintf(err + u, errlen - u, "%s%s: cannot read this variant file: %s", u ? "\n" : "", ev,
               en ? strerror(en) : "not a regular file");
      return -1;
    }
    snprintf(path, plen, "%s", v);
    parse_file(L, path, params_handler, 1);
    return 0;
  }
  for (char *q = v; *q; q++)
    if (!isalnum((unsigned char)*q) && *q != '-' && *q != '_') {
      char e[80];
      snprintf(err + strlen(err), errlen - strlen(err), "%sbad variant name '%s'",
               *err ? "\n" : "", num_escape(v, e, sizeof e));
      return -1;
    }
  snprintf(path, plen, "%s/variants/%s.ini", dir, v);
  if (access(path, R_OK) != 0) {
    if (!strcmp(v, "base")) return 0;
    size_t u = strlen(err);
    snprintf(err + u, errlen - u, "%s%s: no such variant '%s'", u ? "\n" : "", path, v);
    return -1;
  }
  parse_file(L, path, params_handler, 1);
  return 0;
}

static int scen_load_opt(Scen *sc, const char *dir, const char *scenario, const char *variants,
                         char *err, size_t errlen, int user) {
  memset(sc, 0, sizeof *sc);
  err[0] = 0;
  Loader L = {.sc = sc, .err = err, .errlen = errlen, .n_hand_pr = 7};
  char path[4200];
  if (strcmp(scenario, "short") && strcmp(scenario, "long")) {
    char e[64];
    snprintf(err, errlen, "unknown scenario '%s' (short, long)", num_escape(scenario, e, sizeof e));
    return -1;
  }
  if (variants && strlen(variants) >= MAX_VARIANT_LIST) {
    snprintf(err, errlen, "variant list too long (at most %d characters)", MAX_VARIANT_LIST - 1);
    return -1;
  }
  size_t vl = variants ? strlen(variants) : 0;
  if (vl && (variants[0] == ',' || variants[vl - 1] == ',' || strstr(variants, ",,"))) {
    char e[64];
    snprintf(err, errlen, "variant list '%s': a name is empty (names separated by single commas)",
             num_escape(variants, e, sizeof e));
    return -1;
  }
  L.scen = scenario;
  sc->scenario = !strcmp(scenario, "long") ? SC_LONG : SC_SHORT;
  snprintf(sc->scen_name, sizeof sc->scen_name, "%s", scenario);
  snprintf(sc->variant_names, sizeof sc->variant_names, "%s",
           variants && *variants ? variants : "base");
  sc->leader_start[0] = sc->leader_start[1] = SQ_NONE;
  load_base_files(&L, dir, path, sizeof path);
  if (variants && *variants) {
    char list[MAX_VARIANT_LIST];
    snprintf(list, sizeof list, "%s", variants);
    char *save = NULL;
    for (char *v = strtok_r(list, ",", &save); v; v = strtok_r(NULL, ",", &save))
      if (*v && load_variant(&L, dir, v, user, path, sizeof path)) return -1;
  }
  if (L.nerr == 0) params_cross_check(&L);
  L.file = dir;
  L.line = 0;
  L.dir = dir;
  if (L.nerr == 0) validate(&L);
  /* "--set:0: msg" -> "--set: msg" (an option has no line) */
  for (char *q = strstr(err, "--set:0: "); q; q = strstr(q, "--set:0: ")) memmove(q + 5, q + 7, strlen(q + 7) + 1);
  if (L.nerr > 12) {
    size_t u = strlen(err);
    snprintf(err + u, errlen - u, "\n(%d errors in all)", L.nerr);
  }
  return L.nerr ? -1 : 0;
}
