/* Reasons in words (ai/review.h): what an action does, said from facts of the position the
 * deciding side sees — squares, objectives and their distances, battle odds before cards, the
 * cards played and kept — and, for the search's choice, what the search measured.  Every
 * sentence is assembled from those facts; no action has a sentence of its own. */
#include <ctype.h>
#include <string.h>
#include "ai_internal.h"
#include "review.h"

#define ADD(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))

/* a square's place name as people write it: "la-haye-sainte" -> "La Haye Sainte" */
static const char *pname(const Scen *sc, int sq) {
  static __thread char out[4][24];
  static __thread int k;
  char *o = out[k++ & 3];
  int v = sq < NSQ ? sc->vsq_of[sq] : -1;
  if (v >= 0 && v < V_COUNT) return vsq_name(v, 0);
  const char *id = sq < NSQ ? sc->sqname[sq] : "";
  size_t i = 0;
  for (int up = 1; *id && i + 1 < sizeof out[0]; id++, i++) {
    o[i] = *id == '-' ? ' ' : up ? (char)toupper((unsigned char)*id) : *id;
    up = *id == '-';
  }
  o[i] = 0;
  return o;
}

/* "F5" or "F5 (Hougoumont)" */
static const char *place(const Scen *sc, int sq, char *out, size_t len) {
  char s[4];
  if (sq >= NSQ) { snprintf(out, len, "off the map"); return out; }
  sq_name(sq, s);
  if (sc->sqname[sq][0]) snprintf(out, len, "%s (%s)", s, pname(sc, sq));
  else snprintf(out, len, "%s", s);
  return out;
}

/* the objective nearest to sq for a unit of `side`, its index into ctx (or -1) and MP */
static int nearest_obj(const AiCtx *c, int sq, int *mp) {
  int best = -1;
  *mp = AI_INF;
  if (sq >= NSQ) return -1;
  for (int i = 0; i < c->nobj; i++)
    if (c->dist[i][sq] < *mp) { *mp = c->dist[i][sq]; best = i; }
  return best;
}

/* the enemy units next to sq */
static int enemies_near(const Scen *sc, const State *s, int side, int sq) {
  int k = 0;
  for (int d = 0; d < 4 && sq < NSQ; d++) {
    int nb = sc->nb[sq][d];
    int u = nb < NSQ ? s->occ[nb] : UNIT_NONE;
    k += u != UNIT_NONE && unit_side(sc, u) != side;
  }
  return k;
}

/* a unit going from one square to another: the objective it takes, leaves or nears */
static size_t say_move(const Scen *sc, const AiCtx *c, const State *s, int u, int to, char *buf,
                       size_t len) {
  size_t n = 0;
  int side = unit_side(sc, u), from = s->units.sq[u], vfrom = -1, vto = -1, mb, ma;
  char pf[40], pt[40];
  if (from < NSQ) vfrom = sc->vsq_of[from];
  if (to < NSQ) vto = sc->vsq_of[to];
  ADD("%s %s %s to %s", sc->unit[u].name, from < NSQ ? "moves from" : "enters", place(sc, from, pf, sizeof pf),
      place(sc, to, pt, sizeof pt));
  int held = vto >= 0 && ((s->turn.owner >> vto) & 1) == (side == FRENCH);
  if (vto >= 0 && !held) ADD(", taking %s", pname(sc, to));
  else if (vto >= 0) ADD(", holding %s", pname(sc, to));
  else if (vfrom >= 0 && from != to) ADD(", leaving %s%s", pname(sc, from),
                                        enemies_near(sc, s, side, from) ? " with the enemy next to it" : "");
  else {
    int ob = nearest_obj(c, from, &mb), oa = nearest_obj(c, to, &ma);
    if (oa >= 0 && ob >= 0 && ma < mb)
      ADD(", %d MP from %s (was %d)", ma, pname(sc, c->obj_sq[oa]), mb);
  }
  int e = to < NSQ ? enemies_near(sc, s, side, to) : 0;
  if (e) ADD(", next to %d enem%s", e, e > 1 ? "ies" : "y");
  return n;
}

/* a declared battle: the defender, the odds before cards, why each side counts what it does */
static size_t say_battle(const Scen *sc, const State *s, Action a, char *buf, size_t len) {
  size_t n = 0;
  int sq = a.declare.sq, mask = a.declare.dirs, att, def, k = 0;
  battle_base_totals(sc, s, sq, mask, &att, &def);
  char why[4][64], dwhy[64], p[40];
  battle_reasons(sc, s, sq, mask, why, dwhy);
  int u = s->occ[sq];
  for (int d = 0; d < 4; d++) k += (mask >> d) & 1;
  ADD("attacks %s on %s with %d unit%s: %d against %d before cards", u != UNIT_NONE ? sc->unit[u].name : "?",
      place(sc, sq, p, sizeof p), k, k > 1 ? "s" : "", att, def);
  for (int d = 0; d < 4; d++)
    if (((mask >> d) & 1) && why[d][0]) { ADD(" (%s)", why[d]); break; }
  if (dwhy[0]) ADD(", the defender %s", dwhy);
  if (sc->vsq_of[sq] >= 0) ADD("; a win there can take %s", pname(sc, sq));
  return n;
}

/* the cards of the decider's army left in hand after card `played` and the best of them */
static size_t say_kept(const Scen *sc, const State *s, int played, char *buf, size_t len) {
  size_t n = 0;
  int side = gs_decider(s), k = 0, best = -1;
  uint64_t h = s->cards.hand & side_cards_mask(sc, side);
  for (int c = 0; c < sc->ncards; c++) {
    if (!((h >> c) & 1) || c == played) continue;
    k++;
    if (best < 0 || sc->card[c].bp > sc->card[best].bp) best = c;
  }
  if (best >= 0) ADD("; keeps %d card%s, the strongest %s (%d BP) for battles to come", k, k > 1 ? "s" : "",
                     sc->card[best].id, sc->card[best].bp);
  else ADD("; no card left in hand");
  return n;
}

/* a card played: its name and what it is worth */
static size_t say_card(const Scen *sc, const State *s, int card, const char *what, char *buf, size_t len) {
  size_t n = 0;
  if (card >= sc->ncards) return 0;
  const CardDef *d = &sc->card[card];
  ADD("plays %s (%s, %d MP, %d BP) %s", d->id, d->name, d->mp, d->bp, what);
  return n;
}

static size_t say_battle_card(const Scen *sc, const State *s, Action a, int pub, char *buf,
                              size_t len) {
  size_t n = 0;
  int att, def, hidden, side = gs_decider(s);
  int have = battle_seen_totals(sc, s, side, &att, &def, &hidden) == 0;
  if (a.t == A_BCARD) {
    static const char *purpose[] = {"for its points", "for command", "as elite"};
    n += say_card(sc, s, a.bcard.card, purpose[a.bcard.purpose < 3 ? a.bcard.purpose : 0], buf, len);
  } else ADD("commits no more cards");
  if (pub) return n;
  if (have) ADD(": %d against %d so far%s", att, def, hidden ? " with the other side's cards unseen" : "");
  n += say_kept(sc, s, a.t == A_BCARD ? a.bcard.card : -1, buf + n, n < len ? len - n : 0);
  return n;
}

static size_t say_loss(const Scen *sc, const State *s, Action a, char *buf, size_t len) {
  size_t n = 0;
  int u = s->battle.def_unit, sq = s->battle.def_sq, ci = sq < NSQ ? sc->castle_of[sq] : -1;
  char p[40];
  const char *name = u < sc->nunits ? sc->unit[u].name : "the unit";
  if (a.t == A_REDUCE) ADD("takes the loss on %s and stays on %s", name, place(sc, sq, p, sizeof p));
  else if (a.t == A_CDP && ci >= 0)
    ADD("spends a castle point of %s (%d left after it) and keeps %s whole", pname(sc, sq),
        s->turn.cdp[ci] - 1, name);
  else if (a.t == A_RETREAT)
    ADD("retreats %s to %s%s", name, place(sc, a.retreat.sq, p, sizeof p),
        sq < NSQ && sc->vsq_of[sq] >= 0 ? ", giving up the square" : "");
  else if (a.t == A_LOSE) ADD("reduces the attacker in slot %d", a.attacker.slot + 1);
  return n;
}

int reason_action(const Scen *sc, const State *s0, Action a, int pub, char *buf, size_t len) {
  if (len) buf[0] = 0;
  if (pub && !gs_action_public(sc, s0, a, !gs_decider(s0))) return 0; /* a secret choice */
  State st;
  gs_observe(sc, s0, gs_decider(s0), &st);
  const State *s = &st;
  AiCtx c;
  ai_ctx_init(&c, sc);
  size_t n = 0;
  buf[0] = 0;
  switch (a.t) {
  case A_STEP: case A_TURN: case A_ENTER: case A_EVADE: {
    int u = a.t == A_EVADE ? a.to.unit : action_mover(a);
    if (u >= sc->nunits) break;
    int to = a.t == A_ENTER || a.t == A_EVADE ? a.to.sq : s->units.sq[u];
    if (a.t == A_STEP && to < NSQ) to = sc->nb[to][a.step.dir];
    if (a.t == A_TURN) ADD("turns %s to face %c", sc->unit[u].name, "NESW"[a.turn.facing & 3]);
    else n += say_move(sc, &c, s, u, to, buf, len);
    break;
  }
  case A_ADVANCE: {
    int u = s->battle.att[a.attacker.slot & 3];
    if (u < sc->nunits) n += say_move(sc, &c, s, u, s->battle.def_sq, buf, len);
    break;
  }
  case A_DECLARE: n += say_battle(sc, s, a, buf, len); break;
  case A_NOBATTLE: ADD("declines to attack"); break;
  case A_BCARD: case A_BDONE: n += say_battle_card(sc, s, a, pub, buf, len); break;
  case A_REDUCE: case A_CDP: case A_RETREAT: case A_LOSE: n += say_loss(sc, s, a, buf, len); break;
  case A_BID:
    if (a.bid.card < sc->ncards) n += say_card(sc, s, a.bid.card, "as its bid to choose who goes first", buf, len);
    else ADD("bids nothing, keeping every card for the turn");
    break;
  case A_END:
    ADD("ends the round");
    if (!pub) n += say_kept(sc, s, -1, buf + n, n < len ? len - n : 0);
    break;
  case A_DONE: ADD("ends the movement with %d MP unused", s->play.mp); break;
  case A_NOFIRE: ADD("holds its artillery fire"); break;
  case A_NOEVADE: ADD("stands instead of evading"); break;
  default: {
    char t[96];
    action_format(sc, s, a, t, sizeof t);
    if (a.t == A_PLAY_MOVE || a.t == A_ARTY || a.t == A_CHARGE || a.t == A_FORCE ||
        a.t == A_RALLY || a.t == A_RESTORE || a.t == A_HEALTH) {
      n += say_card(sc, s, a.play.card, a.t == A_PLAY_MOVE ? "for movement" : "for its action", buf, len);
      /* the health card takes no unit: its unit byte is 0, not a unit it names */
      if (a.t != A_PLAY_MOVE && a.t != A_HEALTH && a.play.unit < sc->nunits)
        ADD(" with %s", sc->unit[a.play.unit].name);
      if (!pub) n += say_kept(sc, s, a.play.card, buf + n, n < len ? len - n : 0);
    } else ADD("%s", t);
  }
  }
  return (int)(n < len ? n : len - 1);
}

int reason_choice(const Scen *sc, const State *s, const Candidate *c, int nc, int pub, char *buf,
                  size_t len) {
  size_t n = 0;
  if (len) buf[0] = 0;
  if (nc < 1) return 0;
  n += (size_t)reason_action(sc, s, c[0].a, pub, buf, len);
  if (!n) return 0;
  const char *side = gs_decider(s) == FRENCH ? "French" : "Allies";
  if (nc == 1 && c[0].visits == 0) { /* a later step of a whole move (dest): searched with it */
    ADD(" — the next step of the whole move its search chose");
    return (int)(n < len ? n : len - 1);
  }
  if (nc == 1 && c[0].visits <= 1) { /* a player that does not search: its evaluation only */
    ADD(" — a rule, not a search (the evaluation gives the %s %.0f%% to win here)", side, 100 * c[0].winrate);
    return (int)(n < len ? n : len - 1);
  }
  ADD(" — the search gives the %s %.0f%% to win with it (%.0f%% of its playouts)", side,
      100 * c[0].winrate, 100 * c[0].share);
  if (nc > 1) {
    char t[96] = "the next candidate"; /* said to the other side: never a move not played */
    if (!pub) action_format(sc, s, c[1].a, t, sizeof t);
    double m = 100 * (c[0].winrate - c[1].winrate);
    if (m >= 0.5) ADD(", %.0f point%s ahead of %s", m, m >= 1.5 ? "s" : "", t);
    else ADD(", level with %s", t);
  }
  return (int)(n < len ? n : len - 1);
}

void reason_arrow(const Scen *sc, const State *s, Action a, int *from, int *to) {
  *from = *to = SQ_NONE;
  int u = action_mover(a);
  if (a.t == A_EVADE) u = a.to.unit;
  if (u != UNIT_NONE && u < sc->nunits) {
    *from = s->units.sq[u];
    *to = a.t == A_STEP && *from < NSQ ? sc->nb[*from][a.step.dir]
          : a.t == A_ENTER || a.t == A_EVADE ? a.to.sq : *from;
    if (a.t == A_ENTER) *from = a.to.sq;
  } else if (a.t == A_DECLARE) {
    *to = a.declare.sq;
    for (int d = 0; d < 4; d++)
      if ((a.declare.dirs >> d) & 1) { *from = sc->nb[a.declare.sq][d]; break; }
  } else if (a.t == A_ADVANCE && (a.attacker.slot & 3) < 4) {
    int au = s->battle.att[a.attacker.slot & 3];
    if (au < sc->nunits) { *from = s->units.sq[au]; *to = s->battle.def_sq; }
  } else if (a.t == A_RETREAT && s->battle.def_sq < NSQ) {
    *from = s->battle.def_sq;
    *to = a.retreat.sq;
  }
}
