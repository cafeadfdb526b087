/* Text forms: action notation (prints and parses), the text board, one-line descriptions. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

static const char DIRS[] = "NESW";

const char *side_name(int side) { return side == FRENCH ? "French" : "Allied"; }
const char *army_name(int army) {
  return army == ARMY_FR ? "French" : army == ARMY_BR ? "British" : "Prussian";
}
const char *action_kind_name(int k) {
  static const char *n[] = {"-", "artillery", "command", "charge", "force-charge", "elite", "rally",
                            "health"};
  return k >= 0 && k < ACT_COUNT ? n[k] : "?";
}
const char *phase_name(int ph) { return phase_def(ph)->name; }

const char *ban_name(int bit) {
  static const char *castle[MAX_CASTLES] = {"cdp-hougoumont", "cdp-lhs", "cdp-frischermont"};
  if (bit > ACT_NONE && bit < ACT_COUNT) return action_kind_name(bit);
  if (1 << bit == BAN_BID) return "bid";
  if (bit > ACT_COUNT && bit < BAN_BITS) return castle[bit - ACT_COUNT - 1];
  return NULL;
}

int ban_bit(const char *word) {
  for (int b = 0; b < BAN_BITS; b++)
    if (ban_name(b) && !strcmp(ban_name(b), word)) return b;
  return -1;
}

const char *result_name(int r) {
  switch (r) {
  case RES_FRENCH: return "French win";
  case RES_ALLIED: return "Allied win";
  case RES_DRAW: return "draw";
  default: return "unfinished";
  }
}

static const char *unit_name(const Scen *sc, int u) {
  return u >= 0 && u < sc->nunits ? sc->unit[u].name : "?";
}
static const char *card_id(const Scen *sc, int c) {
  return c >= 0 && c < sc->ncards ? sc->card[c].id : "?";
}

/* the actions of the round that play a card (and the second unit of a rally, without one) */
static int format_card_play(const Scen *sc, const State *s, Action a, char *buf, size_t len) {
  char q[4];
  switch (a.t) {
  case A_PLAY_MOVE: return snprintf(buf, len, "play %s move", card_id(sc, a.play.card));
  case A_ARTY: {
    int u = a.fire.unit;
    const char *c = card_id(sc, a.fire.card);
    if (!a.fire.across) return snprintf(buf, len, "play %s fire %s", c, unit_name(sc, u));
    int on = u < sc->nunits && s->units.sq[u] < NSQ;
    sq_name(on ? sc->nb[s->units.sq[u]][(a.fire.across - 1) & 3] : -1, q);
    return snprintf(buf, len, "play %s fire %s at %s", c, unit_name(sc, u), q);
  }
  case A_CHARGE:
  case A_FORCE:
    return snprintf(buf, len, "play %s %s %s %d", card_id(sc, a.charge.card),
                    a.t == A_CHARGE ? "charge" : "force", unit_name(sc, a.charge.unit),
                    a.charge.squares);
  case A_RALLY:
    if (a.play.card == CARD_NONE) return snprintf(buf, len, "rally %s", unit_name(sc, a.play.unit));
    return snprintf(buf, len, "play %s rally %s", card_id(sc, a.play.card),
                    unit_name(sc, a.play.unit));
  case A_RESTORE:
    return snprintf(buf, len, "play %s restore %s", card_id(sc, a.play.card),
                    unit_name(sc, a.play.unit));
  case A_HEALTH: return snprintf(buf, len, "play %s health", card_id(sc, a.play.card));
  default: return snprintf(buf, len, "?");
  }
}

int action_format(const Scen *sc, const State *s, Action a, char *buf, size_t len) {
  char q[4], r[4];
  switch (a.t) {
  case A_END:
    return snprintf(buf, len, s->turn.phase == PH_ROUND && s->turn.ncards == 0 ? "pass" : "end");
  case A_PLAY_MOVE:
  case A_ARTY:
  case A_CHARGE:
  case A_FORCE:
  case A_RALLY:
  case A_RESTORE:
  case A_HEALTH: return format_card_play(sc, s, a, buf, len);
  case A_RALLY_DONE: return snprintf(buf, len, "rally done");
  case A_STEP: {
    int u = a.step.unit;
    sq_name(u < sc->nunits && s->units.sq[u] < NSQ ? sc->nb[s->units.sq[u]][a.step.dir & 3] : -1,
            q);
    return snprintf(buf, len, "move %s %s %c", unit_name(sc, u), q, DIRS[a.step.facing & 3]);
  }
  case A_TURN:
    return snprintf(buf, len, "turn %s %c", unit_name(sc, a.turn.unit), DIRS[a.turn.facing & 3]);
  case A_LEAD: {
    int l = s->play.army == ARMY_FR ? 0 : 1;
    sq_name(s->units.leader[l] < NSQ ? sc->nb[s->units.leader[l]][a.lead.dir & 3] : -1, q);
    return snprintf(buf, len, "leader %s", q);
  }
  case A_ENTER:
    sq_name(a.to.sq, q);
    return snprintf(buf, len, "enter %s %s %c", unit_name(sc, a.to.unit), q, DIRS[a.to.facing & 3]);
  case A_DONE: return snprintf(buf, len, "done");
  case A_DECLARE: {
    sq_name(a.declare.sq, q);
    int n = snprintf(buf, len, "attack %s from", q);
    const char *sep = " ";
    for (int d = 0; d < 4; d++)
      if (a.declare.dirs & (1 << d)) {
        sq_name(sc->nb[a.declare.sq][d], r);
        n += snprintf(buf + n, len > (size_t)n ? len - (size_t)n : 0, "%s%s", sep, r);
        sep = ",";
      }
    return n;
  }
  case A_NOBATTLE: return snprintf(buf, len, "noattack");
  case A_BCARD:
    return snprintf(buf, len, "battle %s%s", card_id(sc, a.bcard.card),
                    a.bcard.purpose == BP_COMMAND ? " command"
                    : a.bcard.purpose == BP_ELITE ? " elite"
                                                  : "");
  case A_BDONE: return snprintf(buf, len, "battle done");
  case A_NOFIRE: return snprintf(buf, len, "nofire");
  case A_REDUCE: return snprintf(buf, len, "reduce");
  case A_RETREAT:
    sq_name(a.retreat.sq, q);
    return snprintf(buf, len, "retreat %s %c", q, DIRS[a.retreat.facing & 3]);
  case A_CDP: return snprintf(buf, len, "castle");
  case A_ADVANCE:
    sq_name(s->battle.def_sq < NSQ ? sc->nb[s->battle.def_sq][a.attacker.slot & 3] : -1, q);
    return snprintf(buf, len, "advance %s %c", q, DIRS[a.attacker.facing & 3]);
  case A_LOSE:
    sq_name(s->battle.def_sq < NSQ ? sc->nb[s->battle.def_sq][a.attacker.slot & 3] : -1, q);
    return snprintf(buf, len, "lose %s", q);
  case A_EVADE:
    sq_name(a.to.sq, q);
    return snprintf(buf, len, "evade %s %s %c", unit_name(sc, a.to.unit), q, DIRS[a.to.facing & 3]);
  case A_NOEVADE: return snprintf(buf, len, "noevade");
  case A_PLACE: sq_name(a.place.sq, q); return snprintf(buf, len, "place %s", q);
  case A_BID:
    return snprintf(buf, len, "bid %s", a.bid.card == CARD_NONE ? "none" : card_id(sc, a.bid.card));
  default: return snprintf(buf, len, "?");
  }
}

/* lower-case, single spaces, no leading/trailing blanks */
static void normalize(const char *in, char *out, size_t len) {
  size_t n = 0;
  int space = 1;
  for (; *in && n + 1 < len; in++) {
    unsigned char ch = (unsigned char)*in;
    if (isspace(ch)) {
      if (!space) out[n++] = ' ';
      space = 1;
    } else {
      out[n++] = (char)tolower(ch);
      space = 0;
    }
  }
  while (n > 0 && out[n - 1] == ' ') n--;
  out[n] = 0;
}

int action_parse(const Scen *sc, const State *s, const char *text, Action *a, char *err,
                 size_t errlen) {
  char want[160], have[160], alt[160];
  normalize(text, want, sizeof want);
  if (!strcmp(want, "pass")) snprintf(want, sizeof want, "end");
  ActList *L = malloc(sizeof *L);
  if (!L) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  gs_legal(sc, s, L);
  for (int i = 0; i < L->n; i++) {
    action_format(sc, s, L->a[i], alt, sizeof alt);
    normalize(alt, have, sizeof have);
    if (!strcmp(have, "pass")) snprintf(have, sizeof have, "end");
    int match = !strcmp(have, want);
    if (!match && L->a[i].t == A_STEP) {            /* "move UNIT SQ" keeps the facing */
      size_t k = strlen(have);
      if (k > 2 && !strncmp(have, want, k - 2) && strlen(want) == k - 2 &&
          L->a[i].step.dir == L->a[i].step.facing)
        match = 1;
    }
    if (match) {
      *a = L->a[i];
      free(L);
      return 0;
    }
  }
  free(L);
  snprintf(err, errlen, "'%s' is not a legal action now (%s phase; try 'legal')", text,
           phase_name(s->turn.phase));
  return -1;
}

/* the one table of the victory squares' names (R-12) */
static const char *const VSQ_NAMES[V_COUNT] = {"Mont St. Jean", "Hougoumont", "La Haye Sainte",
                                               "Frischermont", "Plancenoit 1", "Plancenoit 2",
                                               "Plancenoit 3"};

const char *vsq_name(int v, int numbered) {
  if (v < 0 || v >= V_COUNT) return "?";
  return !numbered && v >= V_PLANC1 ? "Plancenoit" : VSQ_NAMES[v];
}

int gs_event_text(const Scen *sc, const State *b, const State *a, char *buf, size_t len) {
  size_t n = 0;
  buf[0] = 0;
#define ADD(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
  int card_phase = b->turn.phase == PH_B_ATTCARDS || b->turn.phase == PH_B_DEFCARDS;
  int still = a->turn.phase == PH_B_ATTCARDS || a->turn.phase == PH_B_DEFCARDS;
  if (card_phase && !still && b->battle.def_unit != UNIT_NONE)
    ADD("battle: attacker %d, defender %d: %s; ", a->battle.att_total, a->battle.def_total,
        a->battle.att_total > 2 * a->battle.def_total   ? "attacker wins by more than double"
        : a->battle.att_total > a->battle.def_total     ? "attacker wins"
        : a->battle.def_total > 2 * a->battle.att_total ? "defender wins by more than double"
                                                        : "defender holds");
  for (int u = 0; u < sc->nunits; u++) {
    if (b->units.sq[u] < NSQ && a->units.sq[u] == SQ_DEAD) ADD("%s eliminated; ", sc->unit[u].name);
    else if (!(b->units.flag[u] & UF_REDUCED) && (a->units.flag[u] & UF_REDUCED))
      ADD("%s reduced; ", sc->unit[u].name);
    else if (a->units.sq[u] < NSQ && !(b->units.flag[u] & UF_DISORDER) &&
             (a->units.flag[u] & UF_DISORDER))
      ADD("%s disordered; ", sc->unit[u].name);
  }
  for (int c = 0; c < MAX_CASTLES; c++)
    if (a->turn.cdp[c] < b->turn.cdp[c])
      ADD("%s loses a castle point (%d left); ", vsq_name(c + 1, 0), a->turn.cdp[c]);
  for (int v = 0; v < V_COUNT; v++)
    if (((a->turn.owner ^ b->turn.owner) >> v) & 1)
      ADD("%s now held by the %s; ", vsq_name(v, 0), (a->turn.owner >> v) & 1 ? "French" : "Allies");
#undef ADD
  if (n >= 2 && n < len) buf[n - 2] = 0;   /* drop the last "; " */
  return buf[0] != 0;
}

void gs_describe(const Scen *sc, const State *s, char *buf, size_t len) {
  if (s->turn.phase == PH_OVER) {
    int vp[2];
    gs_score(sc, s, vp);
    if (sc->scenario == SC_LONG)
      snprintf(buf, len, "game over after turn %d: %s (VP French %d, Allied %d)", s->turn.number,
               result_name(s->score.result), vp[0], vp[1]);
    else
      snprintf(buf, len, "game over after turn %d: %s", s->turn.number,
               result_name(s->score.result));
    return;
  }
  snprintf(buf, len,
           "turn %d/%d, %s round (%d card%s played), phase %s, %s to decide; hands: "
           "French %d, British %d, Prussian %d",
           s->turn.number, sc->p.turns, side_name(s->turn.active), s->turn.ncards,
           s->turn.ncards == 1 ? "" : "s",
           phase_name(s->turn.phase), side_name(s->turn.decider), hand_count(sc, s, ARMY_FR),
           hand_count(sc, s, ARMY_BR), hand_count(sc, s, ARMY_PR));
}

/* ---------------------------------------------------------------- the board */
static void color(FILE *f, int on, const char *code) {
  if (on) fprintf(f, "\033[%sm", code);
}

void board_print(const Scen *sc, const State *s, FILE *f, int col) {
  static const char TER[] = ".wVCh"; /* V, not v: a unit's facing may be v */
  static const char *ARROW[] = {"^", ">", "v", "<"};
  fprintf(f, "     ");
  for (int c = 0; c < MAP_W; c++) fprintf(f, "  %c  ", 'A' + c);
  fprintf(f, "\n");
  for (int r = 0; r < MAP_H; r++) {
    fprintf(f, "%3d  ", r + 1);
    for (int c = 0; c < MAP_W; c++) {
      int sq = r * MAP_W + c;
      int u = unit_at(sc, s, sq);
      char t = TER[sc->terrain[sq]];
      if (s->units.leader[0] == sq) t = 'N';
      if (s->units.leader[1] == sq) t = 'W';
      if (t == 'N' || t == 'W') color(f, col, "1");
      fputc(t, f);
      if (t == 'N' || t == 'W') color(f, col, "0");
      if (u == UNIT_NONE) {
        int v = sc->vsq_of[sq];
        if (v >= 0 && (sc->vsq_active & (1u << v)))
          fprintf(f, "%s ", (s->turn.owner >> v) & 1 ? "*f" : "*a");
        else
          fprintf(f, "   ");
      } else {
        int army = sc->unit[u].army;
        color(f, col, army == ARMY_FR ? "34;1" : army == ARMY_BR ? "31;1" : "30;47");
        char kind = sc->unit[u].kind == K_CAV ? "fbp"[army] : "FBP"[army];
        fprintf(f, "%c%d%s", kind, unit_bp(sc, s, u) % 10,
                sc->terrain[sq] == T_CASTLE && sc->unit[u].kind == K_INF
                    ? "+"
                    : ARROW[s->units.flag[u] & 3]);
        color(f, col, "0");
      }
      /* east edge */
      int e = c + 1 < MAP_W ? sc->edge[sq][DIR_E] : 0;
      fputc(e & E_POND ? '#' : e & E_BRIDGE ? '=' : e & E_STREAM ? '~' : e & E_RIDGE ? '|'
                                                                   : e & E_ROAD ? ':' : ' ',
            f);
    }
    fprintf(f, "\n     ");
    if (r + 1 < MAP_H) {
      for (int c = 0; c < MAP_W; c++) {
        int e = sc->edge[r * MAP_W + c][DIR_S];
        const char *m = e & E_POND ? "####" : e & E_BRIDGE ? "~==~" : e & E_STREAM ? "~~~~"
                        : e & E_RIDGE ? "----" : e & E_ROAD ? " :  " : "    ";
        fprintf(f, "%s ", m);
      }
    }
    fprintf(f, "\n");
  }
  /* the legend in lines no wider than the board (95 columns) */
  fprintf(f, "Squares: . clear, w woods, V village, C castle, h hill; N Napoleon, W Wellington;\n"
             "         *a/*f victory square held by the Allies/the French.\n"
             "Units: F/f French infantry/cavalry, B/b British, P/p Prussian; digit = battle points;\n"
             "       ^ > v < facing, + infantry in a castle (all sides).\n"
             "Edges: ---- or | ridge, ~ stream, = bridge, : road, # pond.\n");
}
