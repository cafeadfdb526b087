/* The board layer of the rules: squares and units (who stands where, facing, terrain and edge
 * costs), changes to a unit (arrival, reduction, placement, artillery fire), the leaders'
 * displacement targets, charge targets and the battle arithmetic (totals before and after
 * cards).  Invariants of every reachable position (gs_check).  Calls nothing above it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_int.h"

int side_of_army(int army) { return army == ARMY_FR ? FRENCH : ALLIED; }

int unit_at(const Scen *sc, const State *s, int sq) {
  (void)sc;   /* SQ_NONE and the off-map codes are >= NSQ */
  return sq < NSQ ? s->occ[sq] : UNIT_NONE;
}

void gs_rebuild_occ(const Scen *sc, State *s) {
  memset(s->occ, UNIT_NONE, sizeof s->occ);
  for (int u = 0; u < sc->nunits; u++)
    if (s->units.sq[u] < NSQ) s->occ[s->units.sq[u]] = (uint8_t)u;
}

int hand_count(const Scen *sc, const State *s, int army) {
  return __builtin_popcountll(s->cards.hand & sc->army_cards[army]);
}

/* the card round limit applies to the active side unless the other side has no cards */
int under_limit(const Scen *sc, const State *s) {
  if (side_hand(sc, s, opp(s->turn.active)) == 0) return 1;
  return s->turn.ncards < sc->p.round_limit;
}

/* cards the active side may play in its round */
uint64_t round_cards(const Scen *sc, const State *s) {
  if (s->turn.active == FRENCH) return s->cards.hand & sc->army_cards[ARMY_FR];
  uint64_t m = s->cards.hand & (sc->army_cards[ARMY_BR] | sc->army_cards[ARMY_PR]);
  if (s->turn.round_army) m &= sc->army_cards[s->turn.round_army];
  return m;
}

/* enemy cavalry next to the square infantry u has just moved into may evade */
static uint64_t evaders_of(const Scen *sc, const State *s, int u) {
  uint64_t ev = 0;
  int sq = s->units.sq[u];
  for (int d = 0; d < 4; d++) {
    int t = sc->nb[sq][d];
    if (t == SQ_NONE) continue;
    int v = unit_at(sc, s, t);
    if (v == UNIT_NONE || unit_side(sc, v) == unit_side(sc, u) || sc->unit[v].kind != K_CAV)
      continue;
    int front = sc->nb[t][facing(s, v)] == sq;
    if (retreat_dirs(sc, s, v, !front)) ev |= 1ull << v;
  }
  return ev;
}

void gs_set_holder(const Scen *sc, State *s, int sq, int side) {
  int v = sq < NSQ ? sc->vsq_of[sq] : -1;
  if (v < 0) return;
  if (side == FRENCH) s->turn.owner |= (uint8_t)(1u << v);
  else s->turn.owner &= (uint8_t) ~(1u << v);
}

/* what entering a square sets off, the same for every square of every move (a step, a
 * square of a charge, an entry, a retreat, an advance, an evasion): the square changes holder
 * a lone enemy leader next to it is displaced, and when infantry
 * moves under a movement card (a step or an entry, not a charge, advance or retreat) the enemy
 * cavalry next to it may evade.  The interrupts are resolved by settle (flow.c). */
static void on_arrive(const Scen *sc, State *s, int u, int how) {
  int sq = s->units.sq[u];
  int side = unit_side(sc, u);
  gs_set_holder(sc, s, sq, side);                       /* */
  /* an enemy leader alone next to the arriving unit is displaced */
  int l = side == FRENCH ? 1 : 0;
  int lsq = s->units.leader[l];
  if (lsq < NSQ && unit_at(sc, s, lsq) == UNIT_NONE)
    for (int d = 0; d < 4; d++)
      if (sc->nb[sq][d] == lsq) s->interrupt.leader_pending |= (uint8_t)(1u << l);
  if (how == ENTER_MOVE && sc->unit[u].kind == K_INF)   /* */
    s->interrupt.evaders |= evaders_of(sc, s, u);
}

/* squares a displaced leader may go to: the nearest holding a friendly unit of its army;
 * when its army has no unit on the map, the nearest holding a unit of its side (Wellington
 * joins the Prussians); none at all: 0 (the leader is removed, R-6.7/R-11.1 ruling) */
int leader_targets(const Scen *sc, const State *s, int l, uint8_t *out) {
  int army = leader_army(l), side = side_of_army(army), best = 1 << 30, n = 0;
  int from = s->units.leader[l];
  int fr = from / MAP_W, fc = from % MAP_W;
  for (int pass = 0; pass < 2 && n == 0; pass++)
    FOR_SIDE(u, side) {
      if (!on_map(s, u) || s->units.sq[u] == from) continue;
      if (pass == 0 && sc->unit[u].army != army) continue;
      int sq = s->units.sq[u];
      int d = abs(sq / MAP_W - fr) + abs(sq % MAP_W - fc);
      if (d < best) best = d, n = 0;
      if (d == best) out[n++] = (uint8_t)sq;
    }
  return n;
}

void reduce_unit(const Scen *sc, State *s, int u) {           /* */
  if (!(s->units.flag[u] & UF_REDUCED) && sc->unit[u].bp_red > 0) {
    s->units.flag[u] |= UF_REDUCED;
    return;
  }
  int sq = s->units.sq[u];
  s->occ[sq] = UNIT_NONE;
  s->units.sq[u] = SQ_DEAD;
  s->units.flag[u] &= UF_FACING;
  s->score.elim_vp[opp(unit_side(sc, u))] += sc->unit[u].bp_full;
  for (int l = 0; l < 2; l++)                                         /* */
    if (s->units.leader[l] == sq && side_of_army(leader_army(l)) == unit_side(sc, u))
      s->interrupt.leader_pending |= (uint8_t)(1u << l);
}

/* retreat squares of unit u; only_fr: attacked only from flanks/rear (front allowed) */
int retreat_dirs(const Scen *sc, const State *s, int u, int only_fr) {
  int sq = s->units.sq[u], f = facing(s, u), mask = 0;
  int castle = all_fronts(sc, s, u);
  for (int d = 0; d < 4; d++) {
    if (d == f && !only_fr && !castle) continue;
    int t = sc->nb[sq][d];
    if (t == SQ_NONE || (sc->edge[sq][d] & E_POND)) continue;
    if (!sq_free(sc, s, unit_side(sc, u), t)) continue;
    mask |= 1 << d;
  }
  return mask;
}

/* unit u enters square sq with facing f, by `how` (ENTER_*); a friendly leader in its
 * square goes with it when it retreats or evades (R-11.2, R-6.8 ruling: an evasion is a
 * retreat), not when it steps, charges or advances: leaders move with MP of their own
 * and never advance, and a charge moves the cavalry only */
void enter_square(const Scen *sc, State *s, int u, int sq, int f, int how) {
  int from = s->units.sq[u];
  if (how == ENTER_RETREAT || how == ENTER_EVADE)   /* */
    for (int l = 0; l < 2; l++)
      if (s->units.leader[l] == from && side_of_army(leader_army(l)) == unit_side(sc, u))
        s->units.leader[l] = (uint8_t)sq;
  if (from < NSQ) s->occ[from] = UNIT_NONE;
  s->occ[sq] = (uint8_t)u;
  s->units.sq[u] = (uint8_t)sq;
  s->units.flag[u] = (uint8_t)((s->units.flag[u] & ~UF_FACING) | (f & 3));
  on_arrive(sc, s, u, how);
}

/* target of unit u's fire across side d, or UNIT_NONE when the fire could have no effect */
int fire_target(const Scen *sc, const State *s, int u, int d) {
  if (sc->unit[u].kind != K_INF || !on_map(s, u) || (s->units.flag[u] & UF_DISORDER))
    return UNIT_NONE;
  if (d != facing(s, u) && !in_castle(sc, s, u)) return UNIT_NONE;
  int t = sc->nb[s->units.sq[u]][d];
  if (t == SQ_NONE) return UNIT_NONE;
  int v = unit_at(sc, s, t);
  if (v == UNIT_NONE || unit_side(sc, v) == unit_side(sc, u)) return UNIT_NONE;
  if (sc->terrain[t] == T_CASTLE) return UNIT_NONE;                 /* */
  if ((s->units.flag[v] & UF_DISORDER) &&
      ((s->units.flag[v] & UF_REDUCED) || sc->unit[v].bp_red == 0))
    return UNIT_NONE;                                               /* */
  return v;
}

/* the A_ARTY c codes with a target for unit u (bit c set), battle_only: targets in the battle */
int fire_codes(const Scen *sc, const State *s, int u, int battle_only) {
  if (sc->unit[u].kind != K_INF || !on_map(s, u)) return 0;
  int codes = 0;
  if (!in_castle(sc, s, u)) {
    int v = fire_target(sc, s, u, facing(s, u));
    if (v != UNIT_NONE && (!battle_only || (s->units.flag[v] & UF_INBATTLE))) codes = 1;
    return codes;
  }
  for (int d = 0; d < 4; d++) {
    int v = fire_target(sc, s, u, d);
    if (v != UNIT_NONE && (!battle_only || (s->units.flag[v] & UF_INBATTLE))) codes |= 1 << (d + 1);
  }
  return codes;
}

void fire_at(const Scen *sc, State *s, int v) {              /* */
  if (s->units.flag[v] & UF_DISORDER) {
    s->units.flag[v] &= (uint8_t)~UF_DISORDER;
    reduce_unit(sc, s, v);
  } else {
    s->units.flag[v] |= UF_DISORDER;
  }
}

/* defender of a charge by cavalry c over n squares, or UNIT_NONE */
int charge_target(const Scen *sc, const State *s, int c, int n) {
  if (sc->unit[c].kind != K_CAV || !on_map(s, c) || (s->units.flag[c] & UF_DISORDER))
    return UNIT_NONE;
  int sq = s->units.sq[c], f = facing(s, c), side = unit_side(sc, c);
  /* cavalry in a castle keeps its facing and may charge out of it */
  for (int i = 0; i < n; i++) {
    int e = sc->edge[sq][f];
    int t = sc->nb[sq][f];
    if (t == SQ_NONE || (e & (E_POND | E_RIDGE | E_STREAM))) return UNIT_NONE;
    if (!sq_free(sc, s, side, t)) return UNIT_NONE;
    sq = t;
  }
  int t = sc->nb[sq][f];
  if (t == SQ_NONE || (sc->edge[sq][f] & E_POND)) return UNIT_NONE;
  int v = unit_at(sc, s, t);
  if (v == UNIT_NONE || unit_side(sc, v) == side) return UNIT_NONE;
  if (is_disc(sc->terrain[t])) return UNIT_NONE;
  return v;
}

int pos_of(const Scen *sc, const State *s, int def, int d) {
  /* attacker at side d of the defender: 0 front, 1 flank, 2 rear */
  if (all_fronts(sc, s, def)) return 0;                               /* */
  int f = facing(s, def);
  if (d == f) return 0;
  if (d == ((f + 2) & 3)) return 2;
  return 1;
}

static int leader_near(const Scen *sc, const State *s, int army, int sq) {
  int l = leader_of_army(army);
  if (l < 0) return 0;
  int lsq = s->units.leader[l];
  if (lsq == sq) return 1;
  for (int d = 0; d < 4; d++)
    if (sc->nb[sq][d] == lsq) return 1;
  return 0;
}

typedef struct { int bp, cmd, elite; } Tally;

static Tally tally_cards(const Scen *sc, const State *s, uint64_t cards, int attacking) {
  Tally t = {0, 0, 0};
  for (uint64_t m = cards; m; m &= m - 1) {
    int c = __builtin_ctzll(m);
    uint64_t bit = 1ull << c;
    if (s->cards.pend_cmd & bit) t.cmd += attacking ? sc->card[c].cmd_att : sc->card[c].cmd_def;
    else if (s->cards.pend_elite & bit) t.elite = 1;
    else t.bp += sc->card[c].bp;
  }
  return t;
}

/* the value of attacking unit u from side d of the defender */
/* why: when not NULL, each modifier applied is appended ("x2 flank, -1 ridge") for the
 * battle panels; the rules never read it */
static void why_add(char *why, size_t len, const char *fmt, int v, const char *what) {
  if (!why) return;
  size_t n = strlen(why);
  if (n < len) snprintf(why + n, len - n, "%s", n ? ", " : "");
  n = strlen(why);
  if (n < len) snprintf(why + n, len - n, fmt, v, what);
}

static int attacker_value(const Scen *sc, const State *s, int u, int d, int def, Tally *t,
                          int charge, char *why, size_t wlen) {
  const Params *p = &sc->p;
  int b = unit_bp(sc, s, u);
  if (sc->unit[u].elite && t->elite) b *= p->elite_mult, why_add(why, wlen, "x%d %s", p->elite_mult, "elite");
  int pos = pos_of(sc, s, def, d);
  if (charge && sc->unit[u].kind == K_CAV && sc->unit[def].kind != K_CAV &&
      !(sc->unit[def].kind == K_INF && pos == 0)) {
    int m = sc->unit[u].heavy ? p->heavy_charge : p->light_charge;
    b *= m;
    why_add(why, wlen, "x%d %s", m, sc->unit[u].heavy ? "heavy charge" : "light charge");
  }
  if (pos == 1) b *= p->flank_mult, why_add(why, wlen, "x%d %s", p->flank_mult, "flank");
  else if (pos == 2) b *= p->rear_mult, why_add(why, wlen, "x%d %s", p->rear_mult, "rear");
  if (t->cmd && leader_near(sc, s, sc->unit[u].army, s->units.sq[u]))
    b += t->cmd, why_add(why, wlen, "+%d %s", t->cmd, "command");
  int e = sc->edge[s->units.sq[def]][d];
  if ((e & E_RIDGE) || ((e & E_STREAM) && !(e & E_BRIDGE)))
    b -= 1, why_add(why, wlen, "-%d %s", 1, (e & E_RIDGE) ? "ridge" : "stream");
  return b < 0 ? 0 : b;
}

static int defender_value(const Scen *sc, const State *s, int def, Tally *t, int att_on_hill,
                          char *why, size_t wlen) {
  const Params *p = &sc->p;
  int b = unit_bp(sc, s, def);
  if (sc->unit[def].elite && t->elite) b *= p->elite_mult, why_add(why, wlen, "x%d %s", p->elite_mult, "elite");
  int ter = sc->terrain[s->units.sq[def]];
  static const char *TER[] = {"clear", "woods", "village", "castle", "hill"};
  if (ter == T_CASTLE && sc->unit[def].kind == K_INF) {                              /* */
    b *= p->castle_mult;
    why_add(why, wlen, "x%d %s", p->castle_mult, "castle");
  } else if ((ter == T_VILLAGE || ter == T_WOODS || ter == T_HILL || ter == T_CASTLE) && !att_on_hill) {
    b *= p->terrain_mult;                                                          /* */
    why_add(why, wlen, "x%d %s", p->terrain_mult, TER[ter]);
  }
  if (t->cmd && leader_near(sc, s, sc->unit[def].army, s->units.sq[def]))
    b += t->cmd, why_add(why, wlen, "+%d %s", t->cmd, "command");
  return b + t->bp;
}

void totals(const Scen *sc, const State *s, int *att, int *def) {
  int side_att = s->battle.att_side;
  uint64_t acards = s->cards.pend & side_cards(sc, side_att);
  uint64_t dcards = s->cards.pend & side_cards(sc, opp(side_att));
  Tally ta = tally_cards(sc, s, acards, 1), td = tally_cards(sc, s, dcards, 0);
  int a = 0, hill = 0;
  for (int d = 0; d < 4; d++) {
    int u = s->battle.att[d];
    if (u == UNIT_NONE || s->units.sq[u] >= NSQ)
      continue; /* an attacker no longer on the map adds nothing */
    a += attacker_value(sc, s, u, d, s->battle.def_unit, &ta, s->battle.kind == BK_CHARGE, NULL, 0);
    if (sc->terrain[s->units.sq[u]] == T_HILL) hill = 1;
  }
  *att = a + ta.bp;
  *def = defender_value(sc, s, s->battle.def_unit, &td, hill, NULL, 0);
}

/* the battle of the units in mask against def_sq as a position of its own, before cards;
 * -1 when def_sq holds no unit (nothing to weigh, and no side to look up) */
static int base_battle(const Scen *sc, const State *s, int def_sq, int mask, State *out) {
  if (def_sq < 0 || def_sq >= NSQ || unit_at(sc, s, def_sq) == UNIT_NONE) return -1;
  State t = *s;
  t.cards.pend = t.cards.pend_cmd = t.cards.pend_elite = 0;
  t.battle.def_unit = (uint8_t)unit_at(sc, s, def_sq);
  t.battle.def_sq = (uint8_t)def_sq;
  /* the battle in progress keeps its kind (a charge multiplies); any other is a normal one */
  t.battle.kind =
      (s->battle.def_unit != UNIT_NONE && s->battle.def_sq == def_sq) ? s->battle.kind : BK_NORMAL;
  for (int d = 0; d < 4; d++)
    t.battle.att[d] = (mask & (1 << d)) ? (uint8_t)unit_at(sc, s, sc->nb[def_sq][d]) : UNIT_NONE;
  t.battle.att_side = (uint8_t)opp(unit_side(sc, t.battle.def_unit));
  *out = t;
  return 0;
}

void battle_base_totals(const Scen *sc, const State *s, int def_sq, int mask, int *att, int *def) {
  State t;
  if (base_battle(sc, s, def_sq, mask, &t)) {
    *att = *def = 0;
    return;
  }
  totals(sc, &t, att, def);
}

void battle_reasons(const Scen *sc, const State *s, int def_sq, int mask, char why[4][64],
                    char defwhy[64]) {
  State t;
  Tally none = {0, 0, 0};
  int hill = 0;
  defwhy[0] = 0;
  for (int d = 0; d < 4; d++) why[d][0] = 0;
  if (base_battle(sc, s, def_sq, mask, &t)) return;
  for (int d = 0; d < 4; d++) {
    int u = t.battle.att[d];
    if (u == UNIT_NONE || t.units.sq[u] >= NSQ) continue;
    attacker_value(sc, &t, u, d, t.battle.def_unit, &none, t.battle.kind == BK_CHARGE, why[d], 64);
    if (sc->terrain[t.units.sq[u]] == T_HILL) hill = 1;
  }
  defender_value(sc, &t, t.battle.def_unit, &none, hill, defwhy, 64);
}

int battle_seen_totals(const Scen *sc, const State *s, int side, int *att, int *def, int *hidden) {
  *att = *def = *hidden = 0;
  /* no battle, or its defender already eliminated (the advance after it): nothing to weigh */
  if (s->battle.def_unit == UNIT_NONE || s->battle.def_sq >= NSQ ||
      s->units.sq[s->battle.def_unit] >= NSQ)
    return -1;
  State t = *s;
  uint64_t mine = side_cards(sc, side);
  *hidden = __builtin_popcountll(s->cards.pend & ~mine);
  t.cards.pend &= mine;
  t.cards.pend_cmd &= t.cards.pend;
  t.cards.pend_elite &= t.cards.pend;
  totals(sc, &t, att, def);
  return 0;
}

/* mask of directions (from the defender at dsq) of units of `army` able to attack it */
int attackers_of(const Scen *sc, const State *s, int dsq, int army) {
  int mask = 0;
  for (int d = 0; d < 4; d++) {
    int asq = sc->nb[dsq][d];
    if (asq == SQ_NONE || (sc->edge[dsq][d] & E_POND)) continue;
    int u = unit_at(sc, s, asq);
    if (u == UNIT_NONE || sc->unit[u].army != army) continue;
    if (s->units.flag[u] & (UF_DISORDER | UF_RALLIED | UF_ATTACKED)) continue;
    if (facing(s, u) != ((d + 2) & 3) && !all_fronts(sc, s, u)) continue;   /* */
    mask |= 1 << d;
  }
  return mask;
}

void gs_score(const Scen *sc, const State *s, int vp[2]) {
  if (sc->scenario == SC_SHORT) {                          /* */
    int castles = 0;
    int cv[3] = {V_HOUGOUMONT, V_LHS, V_FRISCHERMONT};
    for (int i = 0; i < 3; i++)
      if (s->turn.owner & (1u << cv[i])) castles++;
    int msj = (s->turn.owner >> V_MSJ) & 1;
    int win = castles >= sc->p.short_castles_needed || (castles >= sc->p.short_castles_msj && msj);
    vp[FRENCH] = win;
    vp[ALLIED] = !win;
    return;
  }
  vp[0] = s->score.elim_vp[0]; /* */
  vp[1] = s->score.elim_vp[1];
  for (int v = 0; v < V_COUNT; v++) {
    if (!(sc->vsq_active & (1u << v))) continue;
    if (s->turn.owner & (1u << v)) vp[0] += sc->p.vp_fr[v];
    else vp[1] += sc->p.vp_al[v];
  }
}

/* invariants every reachable position keeps; 0 when all hold, else -1 and the reason */
int gs_check(const Scen *sc, const State *s, char *why, size_t len) {
#define BAD(...) do { snprintf(why, len, __VA_ARGS__); return -1; } while (0)
  uint8_t seen_sq[NSQ];
  memset(seen_sq, 0, sizeof seen_sq);
  for (int u = 0; u < sc->nunits; u++) {
    int sq = s->units.sq[u];
    if (sq == SQ_OFF || sq == SQ_DEAD) continue;
    if (sq >= NSQ) BAD("unit %s on a bad square %d", sc->unit[u].name, sq);
    if (seen_sq[sq]++) BAD("two units on one square (R-6.4)");
    if (s->occ[sq] != u) BAD("square table out of step at %s", sc->unit[u].name);
  }
  for (int sq = 0; sq < NSQ; sq++)
    if (s->occ[sq] != UNIT_NONE && s->units.sq[s->occ[sq]] != sq)
      BAD("square table names a unit elsewhere");
  for (int l = 0; l < 2; l++) {
    int sq = s->units.leader[l];
    if (sq == SQ_DEAD) continue;        /* removed: his side had no unit on the map (R-6.7 ruling) */
    if (sq >= NSQ) BAD("leader off the map");
    int u = s->occ[sq];
    if (u != UNIT_NONE && side_of_army(sc->unit[u].army) != side_of_army(leader_army(l)))
      BAD("leader with an enemy unit (R-6.7)");
    if (s->units.leader[0] == s->units.leader[1]) BAD("both leaders on one square");
  }
  /* a unit on a victory square moved into it, so its side holds it */
  for (int sq = 0; sq < NSQ; sq++) {
    int v = sc->vsq_of[sq], u = s->occ[sq];
    if (v < 0 || u == UNIT_NONE) continue;
    char q[4];
    sq_name(sq, q);
    if (((s->turn.owner >> v) & 1) != (unit_side(sc, u) == FRENCH))
      BAD("victory square %s is held by the %s with %s on it (R-12.3)", q,
          (s->turn.owner >> v) & 1 ? "French" : "Allies", sc->unit[u].name);
  }
  for (int c = 0; c < MAX_CASTLES; c++)
    if (s->turn.cdp[c] > sc->p.cdp[c])
      BAD("castle points went below 0 or above the start (R-10.3)");
  uint64_t all = sc->army_cards[0] | sc->army_cards[1] | sc->army_cards[2];
  if ((s->cards.hand & s->cards.discard) || (s->cards.hand & s->cards.pend) ||
      (s->cards.pend & s->cards.discard))
    BAD("a card in two places");
  if ((s->cards.hand | s->cards.discard | s->cards.pend | s->cards.seen) & ~all)
    BAD("an unknown card");
  if (s->cards.seen & ~s->cards.discard) BAD("a seen card not in the discards");
  if ((s->cards.pend_cmd | s->cards.pend_elite) & ~s->cards.pend)
    BAD("a purpose for a card not committed");
  /* a bid opens a turn: no card of a round played yet; every phase of a round but its
   * start comes after a card */
  if (s->turn.phase == PH_BID && (s->turn.ncards || s->play.card != CARD_NONE))
    BAD("a card played before the turn's bid (R-4.2)");
  if (s->turn.phase != PH_BID && s->turn.phase != PH_ROUND && s->turn.phase != PH_OVER &&
      s->turn.ncards == 0)
    BAD("phase %s before the round's first card (R-4.4)", phase_name(s->turn.phase));
  /* an interrupt (a displaced leader, R-11.1; a cavalry evasion, R-6.8) returns to the phase of a
   * round it broke into, and only an interrupt has a phase to return to */
  int ret = s->interrupt.return_phase;
  if (ret && s->turn.phase != PH_LEADER && s->turn.phase != PH_EVADE)
    BAD("a phase to return to outside a displaced leader or an evasion (R-6.8, R-11.1)");
  if (ret == PH_BID || ret == PH_EVADE || ret == PH_LEADER || ret >= PH_OVER)
    BAD("an interrupt cannot return to phase %d (R-6.8, R-11.1)", ret);
  if (ret && ret != PH_ROUND && s->turn.ncards == 0)
    BAD("phase %s to return to before the round's first card (R-4.4)", phase_name(ret));
  if ((ret == PH_MOVE || ret == PH_DECLARE || ret == PH_RALLY2) && s->play.card == CARD_NONE)
    BAD("phase %s to return to without the card played (R-5.1)", phase_name(ret));
  /* markers are off at a bid and at a round that has not played a card yet */
  if (s->turn.phase == PH_BID ||
      (s->turn.phase == PH_ROUND && s->turn.ncards == 0 && s->play.card == CARD_NONE))
    for (int u = 0; u < sc->nunits; u++)
      if (s->units.flag[u] & (UF_MOVED | UF_RALLIED | UF_ATTACKED))
        BAD("markers left at a round's start (R-4.4)");
  if (s->turn.phase != PH_OVER && (s->turn.number < 1 || s->turn.number > sc->p.turns))
    BAD("turn out of range");
  if (s->turn.phase == PH_OVER && (s->turn.number != sc->p.turns || !s->score.result))
    BAD("game ended at the wrong turn or without a result");
  return 0;
#undef BAD
}
