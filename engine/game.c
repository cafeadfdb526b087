/* The rules of Waterloo (docs/RULES.md) as a state machine: gs_legal lists the
 * decider's legal actions, gs_apply plays one and runs everything automatic up to the next
 * decision.  Rulings on the gaps are in docs/RULINGS.md, by rule id. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

/* ---------------------------------------------------------------- small helpers */
static inline int opp(int side) { return side ^ 1; }
int side_of_army(int army) { return army == ARMY_FR ? FRENCH : ALLIED; }
static inline int facing(const State *s, int u) { return s->uflag[u] & UF_FACING; }
static inline int on_map(const State *s, int u) { return s->usq[u] < NSQ; }
static inline int leader_of_army(int army) { return army == ARMY_FR ? 0 : army == ARMY_BR ? 1 : -1; }
static inline int leader_army(int l) { return l == 0 ? ARMY_FR : ARMY_BR; }
#define side_cards side_cards_mask
static inline int in_castle(const Scen *sc, const State *s, int u) {
  return sc->terrain[s->usq[u]] == T_CASTLE;
}
/* infantry in a castle has its front on all sides; cavalry in a castle keeps
 * its facing and gets none of the castle's benefits */
static inline int all_fronts(const Scen *sc, const State *s, int u) {
  return sc->unit[u].kind == K_INF && in_castle(sc, s, u);
}
#define FOR_ARMY(u, army) \
  for (int u##_i = 0, u; u##_i < sc->n_army_units[army] && ((u = sc->army_units[army][u##_i]), 1); u##_i++)
#define FOR_SIDE(u, side) \
  for (int u##_i = 0, u; u##_i < sc->n_side_units[side] && ((u = sc->side_units[side][u##_i]), 1); u##_i++)
static inline int is_disc(int t) { return t == T_WOODS || t == T_VILLAGE || t == T_CASTLE; }

int unit_at(const Scen *sc, const State *s, int sq) {
  (void)sc;   /* SQ_NONE and the off-map codes are >= NSQ */
  return sq < NSQ ? s->occ[sq] : UNIT_NONE;
}

void gs_rebuild_occ(const Scen *sc, State *s) {
  memset(s->occ, UNIT_NONE, sizeof s->occ);
  for (int u = 0; u < sc->nunits; u++)
    if (s->usq[u] < NSQ) s->occ[s->usq[u]] = (uint8_t)u;
}

int hand_count(const Scen *sc, const State *s, int army) {
  return __builtin_popcountll(s->hand & sc->army_cards[army]);
}

static inline int side_hand(const Scen *sc, const State *s, int side) {
  return __builtin_popcountll(s->hand & side_cards(sc, side));
}

/* is there an enemy leader alone at sq (it blocks entry like a unit) */
static inline int enemy_leader_at(const State *s, int side, int sq) {
  return side == FRENCH ? s->leader[1] == sq : s->leader[0] == sq;
}

/* a square a unit of `side` may enter or retreat into: no unit, no enemy leader */
static inline int sq_free(const Scen *sc, const State *s, int side, int sq) {
  return sq < NSQ && unit_at(sc, s, sq) == UNIT_NONE && !enemy_leader_at(s, side, sq);
}

/* MP to cross side d of `from`; -1 when impossible (table made by scen_load) */
static inline int move_cost(const Scen *sc, int from, int d) {
  int c = sc->cost[from][d];
  return c == 255 ? -1 : c;
}

/* the card round limit applies to the active side unless the other side has no cards */
static int under_limit(const Scen *sc, const State *s) {
  if (side_hand(sc, s, opp(s->active)) == 0) return 1;
  return s->ncards < sc->p.round_limit;
}

/* cards the active side may play in its round */
static uint64_t round_cards(const Scen *sc, const State *s) {
  if (s->active == FRENCH) return s->hand & sc->army_cards[ARMY_FR];
  uint64_t m = s->hand & (sc->army_cards[ARMY_BR] | sc->army_cards[ARMY_PR]);
  if (s->round_army) m &= sc->army_cards[s->round_army];
  return m;
}


/* ---------------------------------------------------------------- ownership, leaders */
static void on_arrive(const Scen *sc, State *s, int u) {
  int sq = s->usq[u];
  int side = unit_side(sc, u);
  int v = sc->vsq_of[sq];
  if (v >= 0) {                                         /* */
    if (side == FRENCH) s->owner |= (uint8_t)(1u << v);
    else s->owner &= (uint8_t)~(1u << v);
  }
  /* an enemy leader alone next to the arriving unit is displaced */
  int l = side == FRENCH ? 1 : 0;
  int lsq = s->leader[l];
  if (lsq < NSQ && unit_at(sc, s, lsq) == UNIT_NONE)
    for (int d = 0; d < 4; d++)
      if (sc->nb[sq][d] == lsq) s->leader_pending |= (uint8_t)(1u << l);
}

/* squares a displaced leader may go to: the nearest holding a friendly unit of its army;
 * when its army has no unit on the map, the nearest holding a unit of its side (Wellington
 * joins the Prussians); none at all: 0 (the leader is removed, R-6.7/R-11.1 ruling) */
static int leader_targets(const Scen *sc, const State *s, int l, uint8_t *out) {
  int army = leader_army(l), side = side_of_army(army), best = 1 << 30, n = 0;
  int from = s->leader[l];
  int fr = from / MAP_W, fc = from % MAP_W;
  for (int pass = 0; pass < 2 && n == 0; pass++)
    FOR_SIDE(u, side) {
      if (!on_map(s, u) || s->usq[u] == from) continue;
      if (pass == 0 && sc->unit[u].army != army) continue;
      int sq = s->usq[u];
      int d = abs(sq / MAP_W - fr) + abs(sq % MAP_W - fc);
      if (d < best) best = d, n = 0;
      if (d == best) out[n++] = (uint8_t)sq;
    }
  return n;
}

static void reduce_unit(const Scen *sc, State *s, int u) {           /* */
  if (!(s->uflag[u] & UF_REDUCED) && sc->unit[u].bp_red > 0) {
    s->uflag[u] |= UF_REDUCED;
    return;
  }
  int sq = s->usq[u];
  s->occ[sq] = UNIT_NONE;
  s->usq[u] = SQ_DEAD;
  s->uflag[u] &= UF_FACING;
  s->elim_vp[opp(unit_side(sc, u))] += sc->unit[u].bp_full;
  for (int l = 0; l < 2; l++)                                         /* */
    if (s->leader[l] == sq && side_of_army(leader_army(l)) == unit_side(sc, u))
      s->leader_pending |= (uint8_t)(1u << l);
}

/* retreat squares of unit u; only_fr: attacked only from flanks/rear (front allowed) */
static int retreat_dirs(const Scen *sc, const State *s, int u, int only_fr) {
  int sq = s->usq[u], f = facing(s, u), mask = 0;
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

static void place_unit(const Scen *sc, State *s, int u, int sq, int f, int leader_follows) {
  int from = s->usq[u];
  if (leader_follows)                                                   /* */
    for (int l = 0; l < 2; l++)
      if (s->leader[l] == from && side_of_army(leader_army(l)) == unit_side(sc, u))
        s->leader[l] = (uint8_t)sq;
  if (from < NSQ) s->occ[from] = UNIT_NONE;
  s->occ[sq] = (uint8_t)u;
  s->usq[u] = (uint8_t)sq;
  s->uflag[u] = (uint8_t)((s->uflag[u] & ~UF_FACING) | (f & 3));
  on_arrive(sc, s, u);
}

/* ---------------------------------------------------------------- artillery */
/* the side unit u fires across: c of A_ARTY is 0 for the facing, 1 + side for infantry in a
 * castle, which has its front on all sides (R-9.1 ruling) */
static inline int fire_side(const State *s, int u, int c) { return c ? (c - 1) & 3 : facing(s, u); }

/* target of unit u's fire across side d, or UNIT_NONE when the fire could have no effect */
static int fire_target(const Scen *sc, const State *s, int u, int d) {
  if (sc->unit[u].kind != K_INF || !on_map(s, u) || (s->uflag[u] & UF_DISORDER)) return UNIT_NONE;
  if (d != facing(s, u) && !in_castle(sc, s, u)) return UNIT_NONE;
  int t = sc->nb[s->usq[u]][d];
  if (t == SQ_NONE) return UNIT_NONE;
  int v = unit_at(sc, s, t);
  if (v == UNIT_NONE || unit_side(sc, v) == unit_side(sc, u)) return UNIT_NONE;
  if (sc->terrain[t] == T_CASTLE) return UNIT_NONE;                 /* */
  if ((s->uflag[v] & UF_DISORDER) && ((s->uflag[v] & UF_REDUCED) || sc->unit[v].bp_red == 0))
    return UNIT_NONE;                                               /* */
  return v;
}

/* the A_ARTY c codes with a target for unit u (bit c set), battle_only: targets in the battle */
static int fire_codes(const Scen *sc, const State *s, int u, int battle_only) {
  if (sc->unit[u].kind != K_INF || !on_map(s, u)) return 0;
  int codes = 0;
  if (!in_castle(sc, s, u)) {
    int v = fire_target(sc, s, u, facing(s, u));
    if (v != UNIT_NONE && (!battle_only || (s->uflag[v] & UF_INBATTLE))) codes = 1;
    return codes;
  }
  for (int d = 0; d < 4; d++) {
    int v = fire_target(sc, s, u, d);
    if (v != UNIT_NONE && (!battle_only || (s->uflag[v] & UF_INBATTLE))) codes |= 1 << (d + 1);
  }
  return codes;
}

static void fire_at(const Scen *sc, State *s, int v) {              /* */
  if (s->uflag[v] & UF_DISORDER) {
    s->uflag[v] &= (uint8_t)~UF_DISORDER;
    reduce_unit(sc, s, v);
  } else {
    s->uflag[v] |= UF_DISORDER;
  }
}

/* ---------------------------------------------------------------- charges */
/* defender of a charge by cavalry c over n squares, or UNIT_NONE */
static int charge_target(const Scen *sc, const State *s, int c, int n) {
  if (sc->unit[c].kind != K_CAV || !on_map(s, c) || (s->uflag[c] & UF_DISORDER)) return UNIT_NONE;
  int sq = s->usq[c], f = facing(s, c), side = unit_side(sc, c);
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

/* ---------------------------------------------------------------- battles */
static int pos_of(const Scen *sc, const State *s, int def, int d) {
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
  int lsq = s->leader[l];
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
    if (s->pend_cmd & bit) t.cmd += attacking ? sc->card[c].cmd_att : sc->card[c].cmd_def;
    else if (s->pend_elite & bit) t.elite = 1;
    else t.bp += sc->card[c].bp;
  }
  return t;
}

/* the value of attacking unit u from side d of the defender */
static int attacker_value(const Scen *sc, const State *s, int u, int d, int def, Tally *t,
                          int charge) {
  const Params *p = &sc->p;
  int b = unit_bp(sc, s, u);
  if (sc->unit[u].elite && t->elite) b *= p->elite_mult;
  int pos = pos_of(sc, s, def, d);
  if (charge && sc->unit[u].kind == K_CAV && sc->unit[def].kind != K_CAV &&
      !(sc->unit[def].kind == K_INF && pos == 0))
    b *= sc->unit[u].heavy ? p->heavy_charge : p->light_charge;
  if (pos == 1) b *= p->flank_mult;
  else if (pos == 2) b *= p->rear_mult;
  if (t->cmd && leader_near(sc, s, sc->unit[u].army, s->usq[u])) b += t->cmd;
  int e = sc->edge[s->usq[def]][d];
  if ((e & E_RIDGE) || ((e & E_STREAM) && !(e & E_BRIDGE))) b -= 1;
  return b < 0 ? 0 : b;
}

static int defender_value(const Scen *sc, const State *s, int def, Tally *t, int att_on_hill) {
  const Params *p = &sc->p;
  int b = unit_bp(sc, s, def);
  if (sc->unit[def].elite && t->elite) b *= p->elite_mult;
  int ter = sc->terrain[s->usq[def]];
  if (ter == T_CASTLE && sc->unit[def].kind == K_INF) b *= p->castle_mult;          /* */
  else if ((ter == T_VILLAGE || ter == T_WOODS || ter == T_HILL || ter == T_CASTLE) && !att_on_hill)
    b *= p->terrain_mult;                                                         /* */
  if (t->cmd && leader_near(sc, s, sc->unit[def].army, s->usq[def])) b += t->cmd;
  return b + t->bp;
}

static void totals(const Scen *sc, const State *s, int *att, int *def) {
  int side_att = s->batt_side;
  uint64_t acards = s->pend & side_cards(sc, side_att);
  uint64_t dcards = s->pend & side_cards(sc, opp(side_att));
  Tally ta = tally_cards(sc, s, acards, 1), td = tally_cards(sc, s, dcards, 0);
  int a = 0, hill = 0;
  for (int d = 0; d < 4; d++) {
    int u = s->batt[d];
    if (u == UNIT_NONE || s->usq[u] >= NSQ) continue;   /* an attacker no longer on the map adds nothing */
    a += attacker_value(sc, s, u, d, s->bdef_unit, &ta, s->bkind == BK_CHARGE);
    if (sc->terrain[s->usq[u]] == T_HILL) hill = 1;
  }
  *att = a + ta.bp;
  *def = defender_value(sc, s, s->bdef_unit, &td, hill);
}

void battle_base_totals(const Scen *sc, const State *s, int def_sq, int mask, int *att, int *def) {
  /* no unit on def_sq (or no such square): nothing to weigh, and no side to look up */
  if (def_sq < 0 || def_sq >= NSQ || unit_at(sc, s, def_sq) == UNIT_NONE) {
    *att = *def = 0;
    return;
  }
  State t = *s;
  t.pend = t.pend_cmd = t.pend_elite = 0;
  t.bdef_unit = (uint8_t)unit_at(sc, s, def_sq);
  t.bdef_sq = (uint8_t)def_sq;
  /* the battle in progress keeps its kind (a charge multiplies); any other is a normal one */
  t.bkind = (s->bdef_unit != UNIT_NONE && s->bdef_sq == def_sq) ? s->bkind : BK_NORMAL;
  for (int d = 0; d < 4; d++)
    t.batt[d] = (mask & (1 << d)) ? (uint8_t)unit_at(sc, s, sc->nb[def_sq][d]) : UNIT_NONE;
  t.batt_side = (uint8_t)opp(unit_side(sc, t.bdef_unit));
  totals(sc, &t, att, def);
}

int battle_seen_totals(const Scen *sc, const State *s, int side, int *att, int *def, int *hidden) {
  *att = *def = *hidden = 0;
  /* no battle, or its defender already eliminated (the advance after it): nothing to weigh */
  if (s->bdef_unit == UNIT_NONE || s->bdef_sq >= NSQ || s->usq[s->bdef_unit] >= NSQ) return -1;
  State t = *s;
  uint64_t mine = side_cards(sc, side);
  *hidden = __builtin_popcountll(s->pend & ~mine);
  t.pend &= mine;
  t.pend_cmd &= t.pend;
  t.pend_elite &= t.pend;
  totals(sc, &t, att, def);
  return 0;
}

/* mask of directions (from the defender at dsq) of units of `army` able to attack it */
static int attackers_of(const Scen *sc, const State *s, int dsq, int army) {
  int mask = 0;
  for (int d = 0; d < 4; d++) {
    int asq = sc->nb[dsq][d];
    if (asq == SQ_NONE || (sc->edge[dsq][d] & E_POND)) continue;
    int u = unit_at(sc, s, asq);
    if (u == UNIT_NONE || sc->unit[u].army != army) continue;
    if (s->uflag[u] & (UF_DISORDER | UF_RALLIED | UF_ATTACKED)) continue;
    if (facing(s, u) != ((d + 2) & 3) && !all_fronts(sc, s, u)) continue;   /* */
    mask |= 1 << d;
  }
  return mask;
}

/* ---------------------------------------------------------------- phase entries */
static void settle(const Scen *sc, State *s);
static void enter_react(const Scen *sc, State *s);

static void start_round(const Scen *sc, State *s, int side) {
  s->active = (uint8_t)side;
  s->decider = (uint8_t)side;
  s->phase = PH_ROUND;
  s->ncards = 0;
  s->round_army = 0;
  s->card = CARD_NONE;
  s->moving = UNIT_NONE;
  if (s->turn_first_round && side == ALLIED && s->bid_card[ALLIED] != CARD_NONE)
    s->round_army = sc->card[s->bid_card[ALLIED]].army;             /* */
  s->turn_first_round = 0;
}

static void draw(const Scen *sc, State *s, int army, int n) {
  uint64_t undrawn = sc->army_cards[army] & ~(s->hand | s->discard | s->pend);
  for (int i = 0; i < n && undrawn; i++) {
    int c = mask_pick(&s->rng, undrawn);
    undrawn &= ~(1ull << c);
    s->hand |= 1ull << c;
  }
}

static void finish(const Scen *sc, State *s) {
  int vp[2];
  gs_score(sc, s, vp);
  if (sc->scenario == SC_SHORT) s->result = vp[FRENCH] ? RES_FRENCH : RES_ALLIED;
  else s->result = vp[0] > vp[1] ? RES_FRENCH : vp[1] > vp[0] ? RES_ALLIED : RES_DRAW;
  s->phase = PH_OVER;
  s->decider = FRENCH;
}

static void start_turn(const Scen *sc, State *s, int t) {
  s->turn = (uint8_t)t;
  s->hand = s->discard = s->seen = s->pend = s->pend_cmd = s->pend_elite = 0;   /* */
  draw(sc, s, ARMY_FR, sc->p.hand_fr);
  draw(sc, s, ARMY_BR, sc->p.hand_br);
  if (sc->p.prussians) draw(sc, s, ARMY_PR, sc->p.hand_pr[t]);
  s->entry_sq = SQ_NONE;
  s->last_pass = 0;
  s->bid_made = 0;
  s->bid_card[0] = s->bid_card[1] = CARD_NONE;
  s->turn_first_round = 1;
  if (t == 1 || !sc->p.bidding) {
    start_round(sc, s, FRENCH);
  } else {
    s->phase = PH_BID;
    s->decider = FRENCH;
    s->active = FRENCH;
  }
}

static void end_turn(const Scen *sc, State *s) {
  if (s->turn >= sc->p.turns) finish(sc, s);               /* */
  else start_turn(sc, s, s->turn + 1);
}

static void end_round(const Scen *sc, State *s) {
  int a = s->active;
  /* markers come off at the end of every round (RULING: also the moved marker of a
   * cavalry unit forced to charge in this round) */
  for (int u = 0; u < sc->nunits; u++) s->uflag[u] &= (uint8_t)~(UF_MOVED | UF_RALLIED | UF_ATTACKED);
  if (s->ncards == 0) {                                      /* */
    if (s->last_pass) {
      end_turn(sc, s);
      return;
    }
    s->last_pass = 1;
  } else {
    s->last_pass = 0;
  }
  start_round(sc, s, opp(a));
}

/* both bids made; tie-breaks are looked at and put back */
static void resolve_bid(const Scen *sc, State *s) {
  int v[2];
  for (int side = 0; side < 2; side++)
    v[side] = s->bid_card[side] == CARD_NONE ? -1 : sc->card[s->bid_card[side]].mp;
  int first;
  if (v[0] != v[1]) {
    first = v[0] > v[1] ? FRENCH : ALLIED;
  } else {
    int al_army = (s->bid_card[ALLIED] != CARD_NONE) ? sc->card[s->bid_card[ALLIED]].army : ARMY_BR;
    uint64_t und[2] = {sc->army_cards[ARMY_FR] & ~(s->hand | s->discard | s->pend),
                       sc->army_cards[al_army] & ~(s->hand | s->discard | s->pend)};
    first = -1;
    for (int tries = 0; tries < 64 && first < 0; tries++) {
      int w[2];
      for (int side = 0; side < 2; side++)
        w[side] = und[side] ? sc->card[mask_pick(&s->rng, und[side])].mp : 0;
      if (w[0] != w[1]) first = w[0] > w[1] ? FRENCH : ALLIED;
    }
    if (first < 0) first = (int)rng_below(&s->rng, 2);
  }
  s->discard |= s->pend;
  s->seen |= s->pend;
  s->pend = 0;
  s->first = (uint8_t)first;
  start_round(sc, s, first);
}

static int declare_possible(const Scen *sc, const State *s) {
  int army = s->card_army, side = side_of_army(army);
  FOR_ARMY(u, army) {
    int sq = s->usq[u], fl = s->uflag[u];
    if (sq >= NSQ || (fl & (UF_DISORDER | UF_RALLIED | UF_ATTACKED))) continue;
    if (sc->terrain[sq] != T_CASTLE || sc->unit[u].kind != K_INF) {
      int v = unit_at(sc, s, sc->nb_open[sq][fl & UF_FACING]);
      if (v != UNIT_NONE && sc->uside[v] != side) return 1;
      continue;
    }
    for (int d = 0; d < 4; d++) {
      int v = unit_at(sc, s, sc->nb_open[sq][d]);
      if (v != UNIT_NONE && sc->uside[v] != side) return 1;
    }
  }
  return 0;
}

static void enter_declare(const Scen *sc, State *s) {
  if (declare_possible(sc, s)) {
    s->phase = PH_DECLARE;
    s->decider = s->active;
  } else {
    enter_react(sc, s);
  }
}

/* public condition for an artillery window of `side`: a unit of an army with cards in hand
 * that has a target in front.  The window opens whether or not the hand holds artillery, so
 * its opening tells the other side nothing hidden. */
static int fire_window(const Scen *sc, const State *s, int side, int battle_only) {
  int armies = 0;                       /* armies of the side with cards in hand */
  for (int a = 0; a < 3; a++)
    if (side_of_army(a) == side && (s->hand & sc->army_cards[a])) armies |= 1 << a;
  if (!armies) return 0;
  FOR_SIDE(u, side) {
    if (!(armies & (1 << sc->unit[u].army))) continue;
    if (fire_codes(sc, s, u, battle_only)) return 1;
  }
  return 0;
}

static void enter_react(const Scen *sc, State *s) {
  s->card = CARD_NONE;
  s->moving = UNIT_NONE;
  if (fire_window(sc, s, opp(s->active), 0)) {              /* ruling (b) */
    s->phase = PH_REACT;
    s->decider = (uint8_t)opp(s->active);
  } else {
    s->phase = PH_ROUND;
    s->decider = s->active;
  }
}

static int charge_battle_cards_ok(const Scen *sc, const State *s) {
  return s->bkind != BK_CHARGE || sc->p.charge_all_cards;
}

static void enter_attcards(const Scen *sc, State *s);

static void start_battle(const Scen *sc, State *s, int def, int mask_units[4], int kind,
                         int att_side, int army, int after) {
  s->bdef_unit = (uint8_t)def;
  s->bdef_sq = s->usq[def];
  s->bkind = (uint8_t)kind;
  s->batt_side = (uint8_t)att_side;
  s->battle_army = (uint8_t)army;
  s->after_battle = (uint8_t)after;
  s->belite = 0;
  s->pend_cmd = s->pend_elite = 0;
  for (int d = 0; d < 4; d++) {
    s->batt[d] = (uint8_t)mask_units[d];
    if (mask_units[d] != UNIT_NONE) {
      s->uflag[mask_units[d]] |= UF_INBATTLE;
      if (kind == BK_NORMAL || att_side == s->active) s->uflag[mask_units[d]] |= UF_ATTACKED;
    }
  }
  /* the defender may fire artillery at an attacker before the reveal */
  if (charge_battle_cards_ok(sc, s) && fire_window(sc, s, opp(att_side), 1)) {
    s->phase = PH_B_FIRE;
    s->decider = (uint8_t)opp(att_side);
  } else {
    enter_attcards(sc, s);
  }
}

static int battle_hand(const Scen *sc, const State *s, int attacking) {
  int army = attacking ? s->battle_army : sc->unit[s->bdef_unit].army;
  return hand_count(sc, s, army) > 0;
}

static void resolve_battle(const Scen *sc, State *s);

static void enter_defcards(const Scen *sc, State *s) {
  if (battle_hand(sc, s, 0)) {
    s->phase = PH_B_DEFCARDS;
    s->decider = (uint8_t)opp(s->batt_side);
  } else {
    resolve_battle(sc, s);
  }
}

static void enter_attcards(const Scen *sc, State *s) {
  int limit_ok = s->batt_side != s->active || under_limit(sc, s);
  if (battle_hand(sc, s, 1) && limit_ok) {
    s->phase = PH_B_ATTCARDS;
    s->decider = s->batt_side;
  } else {
    enter_defcards(sc, s);
  }
}

static void end_battle(const Scen *sc, State *s) {
  for (int d = 0; d < 4; d++) {
    int u = s->batt[d];
    if (u == UNIT_NONE) continue;
    s->uflag[u] &= (uint8_t)~UF_INBATTLE;
  }
  if (s->bkind == BK_CHARGE && s->charger != UNIT_NONE && on_map(s, s->charger)) {
    s->uflag[s->charger] |= UF_DISORDER | UF_MOVED;              /* */
  }
  s->charger = UNIT_NONE;
  s->bdef_unit = UNIT_NONE;
  s->bdef_sq = SQ_NONE;
  for (int d = 0; d < 4; d++) s->batt[d] = UNIT_NONE;
  if (s->after_battle == PH_DECLARE) enter_declare(sc, s);
  else enter_react(sc, s);
}

static int only_flank_rear(const Scen *sc, const State *s) {
  for (int d = 0; d < 4; d++)
    if (s->batt[d] != UNIT_NONE && pos_of(sc, s, s->bdef_unit, d) == 0) return 0;
  return 1;
}

/* attacking units that may advance */
static int advance_slots(const Scen *sc, const State *s) {
  int all = 0, elite = 0;
  for (int d = 0; d < 4; d++) {
    int u = s->batt[d];
    if (u == UNIT_NONE || !on_map(s, u)) continue;
    all |= 1 << d;
    if ((s->belite & ELITE_ATT) && sc->unit[u].elite) elite |= 1 << d;
  }
  return elite ? elite : all;
}

static void after_loss(const Scen *sc, State *s) {
  int def = s->bdef_unit;
  if (!on_map(s, def) || s->usq[def] != s->bdef_sq) {
    if (advance_slots(sc, s)) {
      s->phase = PH_B_ADVANCE;
      s->decider = s->batt_side;
      return;
    }
  }
  end_battle(sc, s);
}

static void resolve_battle(const Scen *sc, State *s) {
  int a, d;
  totals(sc, s, &a, &d);
  s->belite = (uint8_t)(((s->pend_elite & side_cards(sc, s->batt_side)) ? ELITE_ATT : 0) |
                        ((s->pend_elite & side_cards(sc, opp(s->batt_side))) ? ELITE_DEF : 0));
  s->discard |= s->pend;                                   /* reveal: cards are seen */
  s->seen |= s->pend;
  s->pend = s->pend_cmd = s->pend_elite = 0;
  s->last_att = (uint8_t)(a > 255 ? 255 : a);
  s->last_def = (uint8_t)(d > 255 ? 255 : d);
  if (a > d) {                                             /* */
    s->loss_need = a > 2 * d ? LOSS_REDUCE | LOSS_RETREAT : LOSS_CHOICE;
    s->phase = PH_B_LOSS;
    s->decider = (uint8_t)opp(s->batt_side);
    return;
  }
  if (d > 2 * a) {                                         /* */
    int best = -1, ties = 0, slot = -1;
    for (int k = 0; k < 4; k++) {
      int u = s->batt[k];
      if (u == UNIT_NONE) continue;
      int b = unit_bp(sc, s, u);
      if (b > best) best = b, ties = 0, slot = k;
      if (b == best) ties++;
    }
    if (ties > 1) {
      s->phase = PH_B_ATTLOSS;
      s->decider = s->batt_side;
      return;
    }
    if (slot >= 0) reduce_unit(sc, s, s->batt[slot]);
  }
  end_battle(sc, s);
}

/* ---------------------------------------------------------------- init */
void gs_init(const Scen *sc, State *s, uint64_t seed, uint64_t stream) {
  memset(s, 0, sizeof *s);
  rng_seed(&s->rng, seed, stream);
  for (int u = 0; u < MAX_UNITS; u++) s->usq[u] = SQ_DEAD;
  for (int u = 0; u < sc->nunits; u++) {
    s->usq[u] = sc->unit[u].start_sq;
    if (sc->unit[u].army == ARMY_PR && !sc->p.prussians) s->usq[u] = SQ_OFF;
    s->uflag[u] = sc->unit[u].start_facing & 3;
  }
  gs_rebuild_occ(sc, s);
  s->leader[0] = sc->leader_start[0];
  s->leader[1] = sc->leader_start[1];
  for (int c = 0; c < MAX_CASTLES; c++) s->cdp[c] = (uint8_t)sc->p.cdp[c];
  s->owner = 0;                                             /* all Allied */
  s->moving = UNIT_NONE;
  s->charger = UNIT_NONE;
  s->bdef_unit = UNIT_NONE;
  s->bdef_sq = SQ_NONE;
  for (int d = 0; d < 4; d++) s->batt[d] = UNIT_NONE;
  s->rally_first = UNIT_NONE;
  s->entry_sq = SQ_NONE;
  s->card = CARD_NONE;
  start_turn(sc, s, 1);
}

void gs_score(const Scen *sc, const State *s, int vp[2]) {
  if (sc->scenario == SC_SHORT) {                          /* */
    int castles = 0;
    int cv[3] = {V_HOUGOUMONT, V_LHS, V_FRISCHERMONT};
    for (int i = 0; i < 3; i++)
      if (s->owner & (1u << cv[i])) castles++;
    int msj = (s->owner >> V_MSJ) & 1;
    int win = castles >= sc->p.short_castles_needed || (castles >= sc->p.short_castles_msj && msj);
    vp[FRENCH] = win;
    vp[ALLIED] = !win;
    return;
  }
  vp[0] = s->elim_vp[0];                                   /* */
  vp[1] = s->elim_vp[1];
  for (int v = 0; v < V_COUNT; v++) {
    if (!(sc->vsq_active & (1u << v))) continue;
    if (s->owner & (1u << v)) vp[0] += sc->p.vp_fr[v];
    else vp[1] += sc->p.vp_al[v];
  }
}

/* ---------------------------------------------------------------- legal actions */
/* No bound check: the longest list (every defender with every subset of 4 attackers, or
 * every card with every firing unit) stays far below MAX_ACTIONS with 56 units and 64 cards. */
static inline void push(ActList *L, int t, int a, int b, int c) {
  L->a[L->n++] = (Action){(uint8_t)t, (uint8_t)a, (uint8_t)b, (uint8_t)c};
}

static void legal_fire(const Scen *sc, const State *s, ActList *L, int side, int battle_only) {
  uint64_t arty = 0;
  for (uint64_t m = s->hand & side_cards(sc, side); m; m &= m - 1) {
    int c = __builtin_ctzll(m);
    if (sc->card[c].action == ACT_ARTILLERY) arty |= 1ull << c;
  }
  if (!arty) return;
  FOR_SIDE(u, side) {
    if (unit_side(sc, u) != side) continue;
    int codes = fire_codes(sc, s, u, battle_only);
    for (uint64_t m = arty & sc->army_cards[sc->unit[u].army]; codes && m; m &= m - 1)
      for (int k = 0; k < 5; k++)
        if (codes & (1 << k)) push(L, A_ARTY, __builtin_ctzll(m), u, k);
  }
}

static void legal_round(const Scen *sc, const State *s, ActList *L) {
  push(L, A_END, 0, 0, 0);
  if (!under_limit(sc, s)) return;
  int side = s->active;
  uint64_t cards = round_cards(sc, s);
  /* what each kind of action could do this round, worked out once for all cards */
  uint64_t kinds = 0;
  for (uint64_t m = cards; m; m &= m - 1) kinds |= 1ull << sc->card[__builtin_ctzll(m)].action;
  uint8_t fire[4 * MAX_UNITS], chg[2 * MAX_UNITS], frc[2 * MAX_UNITS], ral[MAX_UNITS], res[MAX_UNITS];
  int nfire = 0, nchg = 0, nfrc = 0, nral = 0, nres = 0;
  if (kinds & (1u << ACT_ARTILLERY))
    FOR_SIDE(u, side) {
      int codes = fire_codes(sc, s, u, 0);
      for (int k = 0; k < 5; k++)
        if (codes & (1 << k)) fire[nfire++] = (uint8_t)(u * 5 + k);
    }
  if (kinds & (1u << ACT_CHARGE))
    FOR_SIDE(u, side) {
      if (sc->unit[u].kind != K_CAV || (s->uflag[u] & (UF_ATTACKED | UF_RALLIED))) continue;
      for (int n = 1; n <= 2; n++)
        if (charge_target(sc, s, u, n) != UNIT_NONE) chg[nchg++] = (uint8_t)(u * 2 + n - 1);
    }
  if (kinds & (1u << ACT_FORCE_CHARGE))
    FOR_SIDE(u, opp(side)) {
      if (sc->unit[u].kind != K_CAV) continue;
      for (int n = 1; n <= 2; n++)
        if (charge_target(sc, s, u, n) != UNIT_NONE) frc[nfrc++] = (uint8_t)(u * 2 + n - 1);
    }
  if (kinds & (1u << ACT_RALLY))
    FOR_SIDE(u, side) {
      if (!on_map(s, u) || (s->uflag[u] & (UF_MOVED | UF_ATTACKED | UF_RALLIED))) continue;
      if (s->uflag[u] & UF_DISORDER) ral[nral++] = (uint8_t)u;
      if (s->uflag[u] & UF_REDUCED) {
        int adj = 0, sq = s->usq[u];
        for (int d = 0; d < 4; d++) {
          int v = unit_at(sc, s, sc->nb[sq][d]);
          if (v != UNIT_NONE && unit_side(sc, v) != side) adj = 1;
        }
        if (!adj) res[nres++] = (uint8_t)u;
      }
    }
  for (uint64_t m = cards; m; m &= m - 1) {
    int c = __builtin_ctzll(m);
    const CardDef *cd = &sc->card[c];
    if (cd->mp > 0) push(L, A_PLAY_MOVE, c, 0, 0);
    switch (cd->action) {
    case ACT_ARTILLERY:
      for (int i = 0; i < nfire; i++)
        if (sc->unit[fire[i] / 5].army == cd->army) push(L, A_ARTY, c, fire[i] / 5, fire[i] % 5);
      break;
    case ACT_CHARGE:
      for (int i = 0; i < nchg; i++)
        if (sc->unit[chg[i] / 2].army == cd->army) push(L, A_CHARGE, c, chg[i] / 2, chg[i] % 2 + 1);
      break;
    case ACT_FORCE_CHARGE:
      for (int i = 0; i < nfrc; i++) push(L, A_FORCE, c, frc[i] / 2, frc[i] % 2 + 1);
      break;
    case ACT_RALLY:
      for (int i = 0; i < nral; i++)
        if (sc->unit[ral[i]].army == cd->army) push(L, A_RALLY, c, ral[i], 0);
      for (int i = 0; i < nres; i++)
        if (sc->unit[res[i]].army == cd->army) push(L, A_RESTORE, c, res[i], 0);
      break;
    case ACT_HEALTH:
      push(L, A_HEALTH, c, 0, 0);
      break;
    default:
      break;
    }
  }
}

static void legal_move(const Scen *sc, const State *s, ActList *L) {
  push(L, A_DONE, 0, 0, 0);
  int army = s->card_army, side = side_of_army(army);
  int mp = s->mp;
  if (mp == 0) return;
  FOR_ARMY(u, army) {
    if (s->usq[u] == SQ_OFF) {                              /* */
      const GroupDef *g = &sc->group[sc->unit[u].group];
      if (!sc->p.prussians || s->turn < g->turn + sc->p.prussian_shift) continue;
      if (s->evade_stop && s->moving != UNIT_NONE) continue;
      for (int i = 0; i < g->nentry; i++) {
        int sq = g->entry[i];
        if (s->entry_sq != SQ_NONE && s->entry_sq != sq) continue;
        if (!sq_free(sc, s, side, sq)) continue;
        for (int f = 0; f < 4; f++) push(L, A_ENTER, u, sq, f);
      }
      continue;
    }
    if (!on_map(s, u) || (s->uflag[u] & UF_RALLIED)) continue;
    if ((s->uflag[u] & UF_MOVED) && s->moving != u) continue;
    int sq = s->usq[u], f = facing(s, u);
    if (all_fronts(sc, s, u)) {                                          /* */
      for (int d = 0; d < 4; d++) {
        int t = sc->nb[sq][d];
        if (sc->cost[sq][d] > mp || !sq_free(sc, s, side, t)) continue;  /* 255: impossible */
        for (int nf = 0; nf < 4; nf++) push(L, A_STEP, u, d, nf);
      }
      continue;
    }
    int t = sc->nb[sq][f];
    if (sc->cost[sq][f] <= mp && sq_free(sc, s, side, t)) {
      if (sc->terrain[sq] == T_CASTLE)            /* cavalry leaves by its front, any facing */
        for (int nf = 0; nf < 4; nf++) push(L, A_STEP, u, f, nf);
      else
        push(L, A_STEP, u, f, f);
    }
    if (s->evade_stop && s->moving == u) continue;      /* one more step only */
    for (int nf = 0; nf < 4; nf++)
      if (nf != f) push(L, A_TURN, u, nf, 0);
  }
  int l = leader_of_army(army);
  if (l >= 0 && s->leader[l] < NSQ) {                        /* */
    int sq = s->leader[l];
    for (int d = 0; d < 4; d++) {
      int t = sc->nb[sq][d];
      if (t == SQ_NONE || (sc->edge[sq][d] & E_POND)) continue;
      int v = unit_at(sc, s, t);
      if (v != UNIT_NONE && unit_side(sc, v) != side) continue;
      if (s->leader[l ^ 1] == t) continue;
      push(L, A_LEAD, 0, d, 0);
    }
  }
}

static void legal_declare(const Scen *sc, const State *s, ActList *L) {
  push(L, A_NOBATTLE, 0, 0, 0);
  int army = s->card_army, side = side_of_army(army);
  FOR_SIDE(v, opp(side)) {
    if (!on_map(s, v) || unit_side(sc, v) == side) continue;
    int mask = attackers_of(sc, s, s->usq[v], army);
    for (int sub = mask; sub; sub = (sub - 1) & mask)
      if (__builtin_popcount(sub) <= sc->p.max_attackers) push(L, A_DECLARE, s->usq[v], sub, 0);
  }
}

static void legal_bcards(const Scen *sc, const State *s, ActList *L, int attacking) {
  push(L, A_BDONE, 0, 0, 0);
  int army = attacking ? s->battle_army : sc->unit[s->bdef_unit].army;
  if (attacking && s->batt_side == s->active && !under_limit(sc, s)) return;
  uint64_t mine = sc->army_cards[army];
  uint64_t committed = s->pend & mine;
  /* cards are committed in increasing order so that each set has one sequence */
  int above = committed ? 63 - __builtin_clzll(committed) : -1;
  int all = charge_battle_cards_ok(sc, s);
  int elite_used = (s->pend_elite & mine) != 0;
  for (uint64_t m = s->hand & mine; m; m &= m - 1) {
    int c = __builtin_ctzll(m);
    if (c <= above) continue;
    int act = sc->card[c].action;
    if (all) push(L, A_BCARD, c, BP_POINTS, 0);
    if (all && act == ACT_COMMAND) push(L, A_BCARD, c, BP_COMMAND, 0);
    if (act == ACT_ELITE && !elite_used) push(L, A_BCARD, c, BP_ELITE, 0);
  }
}

/* the defender's retreats: square and free facing (c repeats the facing) */
static void legal_retreats(const Scen *sc, const State *s, ActList *L, int u, int only_fr) {
  int mask = retreat_dirs(sc, s, u, only_fr);
  for (int d = 0; d < 4; d++)
    if (mask & (1 << d))
      for (int f = 0; f < 4; f++) push(L, A_RETREAT, sc->nb[s->usq[u]][d], f, f);
}

static int castle_point_ok(const Scen *sc, const State *s) {
  int def = s->bdef_unit;
  if (sc->unit[def].kind != K_INF || !in_castle(sc, s, def)) return 0;
  return s->cdp[sc->castle_of[s->usq[def]]] > 0;
}

static void legal_loss(const Scen *sc, const State *s, ActList *L) {
  int def = s->bdef_unit;
  int only = only_flank_rear(sc, s);
  int cp = castle_point_ok(sc, s);
  if (s->loss_need & LOSS_CHOICE) {
    push(L, A_REDUCE, 0, 0, 0);
    legal_retreats(sc, s, L, def, only);
  } else if (s->loss_need & LOSS_REDUCE) {
    push(L, A_REDUCE, 0, 0, 0);
  } else {
    int n = L->n;
    legal_retreats(sc, s, L, def, only);
    if (L->n == n) push(L, A_REDUCE, 0, 0, 0);              /* */
  }
  if (cp) push(L, A_CDP, 0, 0, 0);                         /* */
}

static void legal_evade(const Scen *sc, const State *s, ActList *L) {
  push(L, A_NOEVADE, 0, 0, 0);
  int inf = s->moving;
  for (uint64_t m = s->evaders; m; m &= m - 1) {
    int u = __builtin_ctzll(m);
    /* front allowed when the infantry is not in front of the cavalry (R-8.5 by analogy) */
    int front_sq = sc->nb[s->usq[u]][facing(s, u)];
    int only = inf == UNIT_NONE || s->usq[inf] != front_sq;
    int mask = retreat_dirs(sc, s, u, only);
    for (int d = 0; d < 4; d++)
      if (mask & (1 << d))
        for (int f = 0; f < 4; f++) push(L, A_EVADE, u, sc->nb[s->usq[u]][d], f);
  }
}

/* ---------------------------------------------------------------- legal actions by phase */
static void legal_bid(const Scen *sc, const State *s, ActList *L) {
  push(L, A_BID, CARD_NONE, 0, 0);
  for (uint64_t m = s->hand & side_cards(sc, s->decider); m; m &= m - 1)
    push(L, A_BID, __builtin_ctzll(m), 0, 0);
}

static void legal_leader(const Scen *sc, const State *s, ActList *L) {
  uint8_t t[NSQ];
  int l = __builtin_ctz(s->leader_pending);
  int n = leader_targets(sc, s, l, t);
  for (int i = 0; i < n; i++) push(L, A_PLACE, t[i], 0, 0);
}

static void legal_bfire(const Scen *sc, const State *s, ActList *L) {
  push(L, A_NOFIRE, 0, 0, 0);
  legal_fire(sc, s, L, s->decider, 1);
}

static void legal_react(const Scen *sc, const State *s, ActList *L) {
  push(L, A_NOFIRE, 0, 0, 0);
  legal_fire(sc, s, L, s->decider, 0);
}

static void legal_attcards(const Scen *sc, const State *s, ActList *L) { legal_bcards(sc, s, L, 1); }
static void legal_defcards(const Scen *sc, const State *s, ActList *L) { legal_bcards(sc, s, L, 0); }

static void legal_advance(const Scen *sc, const State *s, ActList *L) {
  int slots = advance_slots(sc, s);
  for (int d = 0; d < 4; d++)
    if (slots & (1 << d))
      for (int f = 0; f < 4; f++) push(L, A_ADVANCE, d, f, 0);
}

static void legal_attloss(const Scen *sc, const State *s, ActList *L) {
  int best = -1;
  for (int d = 0; d < 4; d++)
    if (s->batt[d] != UNIT_NONE && unit_bp(sc, s, s->batt[d]) > best) best = unit_bp(sc, s, s->batt[d]);
  for (int d = 0; d < 4; d++)
    if (s->batt[d] != UNIT_NONE && unit_bp(sc, s, s->batt[d]) == best) push(L, A_LOSE, d, 0, 0);
}

/* the units a two-unit disorder rally may take second (after rally_first, in unit order) */
static int rally2_units(const Scen *sc, const State *s, ActList *L) {
  int n = 0, army = s->card_army;
  for (int u = s->rally_first + 1; u < sc->nunits; u++) {
    if (sc->unit[u].army != army || !on_map(s, u)) continue;
    if (s->uflag[u] & (UF_MOVED | UF_ATTACKED | UF_RALLIED)) continue;
    if (!(s->uflag[u] & UF_DISORDER)) continue;
    if (L) push(L, A_RALLY, CARD_NONE, u, 0);
    n++;
  }
  return n;
}

static void legal_rally2(const Scen *sc, const State *s, ActList *L) {
  push(L, A_RALLY_DONE, 0, 0, 0);
  rally2_units(sc, s, L);
}

static void legal_over(const Scen *sc, const State *s, ActList *L) { (void)sc, (void)s, (void)L; }

int gs_is_legal(const Scen *sc, const State *s, Action a) {
  ActList L;
  gs_legal(sc, s, &L);
  for (int i = 0; i < L.n; i++)
    if (!memcmp(&L.a[i], &a, sizeof a)) return 1;
  return 0;
}

/* ---------------------------------------------------------------- apply */
static void play_card(const Scen *sc, State *s, int c) {
  s->hand &= ~(1ull << c);
  s->discard |= 1ull << c;
  s->seen |= 1ull << c;
}

static void round_card(const Scen *sc, State *s, int c) {
  play_card(sc, s, c);
  s->ncards++;
  s->card = (uint8_t)c;
  s->card_army = sc->card[c].army;
  if (s->active == ALLIED && !sc->p.three_player) s->round_army = sc->card[c].army;   /* */
}

static void do_charge(const Scen *sc, State *s, int cav, int n, int att_side) {
  int def = charge_target(sc, s, cav, n);
  int sq = s->usq[cav], f = facing(s, cav);
  for (int i = 0; i < n; i++) sq = sc->nb[sq][f];
  place_unit(sc, s, cav, sq, f, 1);
  int units[4] = {UNIT_NONE, UNIT_NONE, UNIT_NONE, UNIT_NONE};
  units[(f + 2) & 3] = cav;     /* the cavalry is on the side of the defender it faces */
  s->charger = (uint8_t)cav;
  start_battle(sc, s, def, units, BK_CHARGE, att_side, sc->unit[cav].army, PH_DECLARE);
}

/* enemy cavalry next to the square an infantry unit just moved into may evade */
static void evasion_check(const Scen *sc, State *s, int u) {
  if (sc->unit[u].kind != K_INF) return;
  uint64_t ev = 0;
  int sq = s->usq[u];
  for (int d = 0; d < 4; d++) {
    int t = sc->nb[sq][d];
    if (t == SQ_NONE) continue;
    int v = unit_at(sc, s, t);
    if (v == UNIT_NONE || unit_side(sc, v) == unit_side(sc, u) || sc->unit[v].kind != K_CAV) continue;
    int front = sc->nb[t][facing(s, v)] == sq;
    if (retreat_dirs(sc, s, v, !front)) ev |= 1ull << v;
  }
  s->evaders = ev;
}

/* ---------------------------------------------------------------- applying actions by phase */
static void apply_bid(const Scen *sc, State *s, Action a) {
  int side = s->decider;
  s->bid_made |= (uint8_t)(1u << side);
  s->bid_card[side] = a.a;
  if (a.a != CARD_NONE) {
    s->hand &= ~(1ull << a.a);
    s->pend |= 1ull << a.a;
  }
  if (s->bid_made == 3) resolve_bid(sc, s);
  else s->decider = ALLIED;
}

static void apply_rally(const Scen *sc, State *s, Action a) {
  if (a.a != CARD_NONE) round_card(sc, s, a.a);
  s->uflag[a.b] &= (uint8_t)~UF_DISORDER;
  s->uflag[a.b] |= UF_RALLIED;
  if (s->phase == PH_ROUND) {
    s->rally_first = a.b;
    s->phase = PH_RALLY2;
    s->decider = s->active;
    if (rally2_units(sc, s, NULL) > 0) return;
  }
  s->rally_first = UNIT_NONE;
  enter_declare(sc, s);
}

static void apply_round(const Scen *sc, State *s, Action a) {
  switch (a.t) {
  case A_END:
    end_round(sc, s);
    break;
  case A_PLAY_MOVE:
    round_card(sc, s, a.a);
    s->mp = sc->card[a.a].mp;
    s->moving = UNIT_NONE;
    s->evade_stop = 0;
    s->phase = PH_MOVE;
    break;
  case A_ARTY: {
    round_card(sc, s, a.a);
    int v = fire_target(sc, s, a.b, fire_side(s, a.b, a.c));
    fire_at(sc, s, v);
    enter_declare(sc, s);
    break;
  }
  case A_CHARGE:
    round_card(sc, s, a.a);
    do_charge(sc, s, a.b, a.c, s->active);
    break;
  case A_FORCE:
    round_card(sc, s, a.a);
    do_charge(sc, s, a.b, a.c, opp(s->active));
    break;
  case A_RALLY:
    apply_rally(sc, s, a);
    break;
  case A_RESTORE:
    round_card(sc, s, a.a);
    s->uflag[a.b] &= (uint8_t)~UF_REDUCED;
    s->uflag[a.b] |= UF_RALLIED;
    enter_declare(sc, s);
    break;
  case A_HEALTH:                                     /* unseen */
    round_card(sc, s, a.a);
    for (int i = 0; i < 2; i++) {
      uint64_t fh = s->hand & sc->army_cards[ARMY_FR];
      if (!fh) break;
      int c = mask_pick(&s->rng, fh);
      s->hand &= ~(1ull << c);
      s->discard |= 1ull << c;
    }
    enter_declare(sc, s);
    break;
  }
}

static void apply_move(const Scen *sc, State *s, Action a) {
  switch (a.t) {
  case A_STEP: {
    int u = a.a;
    int cost = move_cost(sc, s->usq[u], a.b);
    int was_extra = s->evade_stop && s->moving == u;
    if (s->moving != u) s->evade_stop = 0;
    s->mp = (uint8_t)(s->mp - cost);
    s->moving = (uint8_t)u;
    s->uflag[u] |= UF_MOVED;
    place_unit(sc, s, u, sc->nb[s->usq[u]][a.b], a.c, 0);
    if (was_extra) {                                 /* ruling: then it stops */
      s->evade_stop = 0;
      s->moving = UNIT_NONE;
    } else {
      evasion_check(sc, s, u);
    }
    break;
  }
  case A_TURN:
    if (s->moving != a.a) s->evade_stop = 0;
    s->mp--;
    s->moving = a.a;
    s->uflag[a.a] = (uint8_t)((s->uflag[a.a] & ~UF_FACING) | UF_MOVED | a.b);
    break;
  case A_LEAD: {
    int l = leader_of_army(s->card_army);
    s->mp--;
    s->leader[l] = sc->nb[s->leader[l]][a.b];
    break;
  }
  case A_ENTER:
    if (s->moving != a.a) s->evade_stop = 0;
    s->mp--;
    s->entry_sq = a.b;
    s->moving = a.a;
    s->uflag[a.a] |= UF_MOVED;
    place_unit(sc, s, a.a, a.b, a.c, 0);
    evasion_check(sc, s, a.a);
    break;
  case A_DONE:
    s->moving = UNIT_NONE;
    s->evade_stop = 0;
    s->mp = 0;
    enter_declare(sc, s);
    break;
  }
}

static void apply_evade(const Scen *sc, State *s, Action a) {
  if (a.t == A_EVADE) {
    place_unit(sc, s, a.a, a.b, a.c, 1);
    s->evaders &= ~(1ull << a.a);
    s->evade_stop = 1;
  } else {
    s->evaders = 0;
  }
}

static void apply_leader(const Scen *sc, State *s, Action a) {
  (void)sc;
  int l = __builtin_ctz(s->leader_pending);
  s->leader[l] = a.a;
  s->leader_pending &= (uint8_t)~(1u << l);
}

static void apply_declare(const Scen *sc, State *s, Action a) {
  if (a.t == A_NOBATTLE) {
    enter_react(sc, s);
    return;
  }
  int def = unit_at(sc, s, a.a);
  int units[4];
  for (int d = 0; d < 4; d++) units[d] = (a.b & (1 << d)) ? unit_at(sc, s, sc->nb[a.a][d]) : UNIT_NONE;
  s->charger = UNIT_NONE;
  start_battle(sc, s, def, units, BK_NORMAL, s->active, s->card_army, PH_REACT);
}

/* artillery of the side not resolving a card (R-5.4: not counted against the round); returns
 * the target and whether it was attacking in the battle */
static int reaction_fire(const Scen *sc, State *s, Action a, int *was_in_battle) {
  play_card(sc, s, a.a);
  int v = fire_target(sc, s, a.b, fire_side(s, a.b, a.c));
  *was_in_battle = s->uflag[v] & UF_INBATTLE;
  fire_at(sc, s, v);
  return v;
}

static void apply_bfire(const Scen *sc, State *s, Action a) {
  if (a.t == A_NOFIRE) {
    enter_attcards(sc, s);
    return;
  }
  int in_battle;
  int v = reaction_fire(sc, s, a, &in_battle);
  if (s->phase != PH_B_FIRE || !in_battle) return;
  for (int d = 0; d < 4; d++)
    if (s->batt[d] == v) s->batt[d] = UNIT_NONE;           /* drops out */
  s->uflag[v] &= (uint8_t)~UF_INBATTLE;
  int left = 0;
  for (int d = 0; d < 4; d++) left += s->batt[d] != UNIT_NONE;
  if (!left) end_battle(sc, s);
  else if (!fire_window(sc, s, s->decider, 1)) enter_attcards(sc, s);
}

static void apply_react(const Scen *sc, State *s, Action a) {
  if (a.t == A_ARTY) {
    int in_battle;
    reaction_fire(sc, s, a, &in_battle);
    if (s->phase != PH_REACT || fire_window(sc, s, s->decider, 0)) return;
  }
  s->phase = PH_ROUND;
  s->decider = s->active;
}

static void apply_bcards(const Scen *sc, State *s, Action a) {
  if (a.t == A_BDONE) {
    if (s->phase == PH_B_ATTCARDS) enter_defcards(sc, s);
    else resolve_battle(sc, s);
    return;
  }
  uint64_t bit = 1ull << a.a;
  s->hand &= ~bit;
  s->pend |= bit;
  if (a.b == BP_COMMAND) s->pend_cmd |= bit;
  if (a.b == BP_ELITE) s->pend_elite |= bit;
  if (s->phase == PH_B_ATTCARDS && s->batt_side == s->active) s->ncards++;   /* */
}

/* a reduction or a castle point pays one step of the loss; the battle ends when none is left */
static void pay_loss(const Scen *sc, State *s) {
  if (s->loss_need & LOSS_REDUCE) s->loss_need &= (uint8_t)~LOSS_REDUCE;
  else s->loss_need = 0;
}

static void apply_loss(const Scen *sc, State *s, Action a) {
  switch (a.t) {
  case A_REDUCE: {
    int def = s->bdef_unit;
    reduce_unit(sc, s, def);
    pay_loss(sc, s);
    if (!on_map(s, def)) s->loss_need = 0;
    break;
  }
  case A_RETREAT:
    place_unit(sc, s, s->bdef_unit, a.a, a.b, 1);
    s->loss_need = 0;
    break;
  case A_CDP:
    s->cdp[sc->castle_of[s->usq[s->bdef_unit]]]--;
    pay_loss(sc, s);
    break;
  }
  if (!s->loss_need) after_loss(sc, s);
}

static void apply_advance(const Scen *sc, State *s, Action a) {
  place_unit(sc, s, s->batt[a.a], s->bdef_sq, a.b, 0);     /* leaders never advance */
  end_battle(sc, s);
}

static void apply_attloss(const Scen *sc, State *s, Action a) {
  reduce_unit(sc, s, s->batt[a.a]);
  end_battle(sc, s);
}

static void apply_rally2(const Scen *sc, State *s, Action a) {
  if (a.t == A_RALLY) {
    apply_rally(sc, s, a);
    return;
  }
  s->rally_first = UNIT_NONE;
  enter_declare(sc, s);
}

static void apply_over(const Scen *sc, State *s, Action a) { (void)sc, (void)s, (void)a; }

/* ---------------------------------------------------------------- the phase table */
/* One row per phase: its name, its legal actions and how they apply, whether its choice is
 * secret from the other side (simultaneous bids, battle cards), and the share of a search
 * budget a decision of that phase deserves.  Everything that depends on the phase reads this
 * table: gs_legal, gs_apply, phase_name, the save loader, the search. */
#define PHASE_ROW(id, nm, fn, secret, budget) [id] = {nm, legal_##fn, apply_##fn, secret, budget},
static const PhaseDef PHASE_TABLE[PH_COUNT] = {
    [0] = {"?", legal_over, apply_over, 0, 0},
    PHASE_ROW(PH_BID, "bid", bid, 1, 1.0)
    PHASE_ROW(PH_ROUND, "round", round, 0, 1.0)
    PHASE_ROW(PH_MOVE, "move", move, 0, 0.4)
    PHASE_ROW(PH_EVADE, "evade", evade, 0, 0.25)
    PHASE_ROW(PH_LEADER, "leader", leader, 0, 0.25)
    PHASE_ROW(PH_DECLARE, "declare", declare, 0, 1.0)
    PHASE_ROW(PH_B_FIRE, "fire", bfire, 0, 1.0)
    [PH_B_ATTCARDS] = {"attack-cards", legal_attcards, apply_bcards, 1, 1.0},
    [PH_B_DEFCARDS] = {"defence-cards", legal_defcards, apply_bcards, 1, 1.0},
    PHASE_ROW(PH_B_LOSS, "loss", loss, 0, 0.25)
    PHASE_ROW(PH_B_ADVANCE, "advance", advance, 0, 0.25)
    PHASE_ROW(PH_B_ATTLOSS, "attacker-loss", attloss, 0, 0.25)
    PHASE_ROW(PH_RALLY2, "rally", rally2, 0, 0.25)
    PHASE_ROW(PH_REACT, "reaction", react, 0, 1.0)
    PHASE_ROW(PH_OVER, "over", over, 0, 0)
};
#undef PHASE_ROW

const PhaseDef *phase_def(int phase) {
  return &PHASE_TABLE[phase > 0 && phase < PH_COUNT ? phase : 0];
}

int gs_legal(const Scen *sc, const State *s, ActList *L) {
  L->n = 0;
  phase_def(s->phase)->legal(sc, s, L);
  return L->n;
}

/* interrupts (displaced leaders, cavalry evasion) come before the phase the action led to */
static void settle(const Scen *sc, State *s) {
  while (s->phase != PH_OVER) {
    if (s->leader_pending) {
      int l = __builtin_ctz(s->leader_pending);
      uint8_t t[NSQ];
      int n = leader_targets(sc, s, l, t);
      if (n <= 1) {                       /* ruling: none at all, removed */
        s->leader[l] = n == 1 ? t[0] : SQ_DEAD;
        s->leader_pending &= (uint8_t)~(1u << l);
        continue;
      }
      if (s->phase != PH_LEADER) {
        if (!s->ret_phase) s->ret_phase = s->phase, s->ret_decider = s->decider;
        s->phase = PH_LEADER;
      }
      s->decider = (uint8_t)side_of_army(leader_army(l));
      return;
    }
    if (s->evaders) {
      if (s->phase != PH_EVADE) {
        if (!s->ret_phase) s->ret_phase = s->phase, s->ret_decider = s->decider;
        s->phase = PH_EVADE;
      }
      s->decider = (uint8_t)unit_side(sc, __builtin_ctzll(s->evaders));
      return;
    }
    if (s->ret_phase) {
      s->phase = s->ret_phase;
      s->decider = s->ret_decider;
      s->ret_phase = 0;
    }
    return;
  }
}

void gs_apply(const Scen *sc, State *s, Action a) {
#ifdef GS_DEBUG_CHECKS
  /* the debug build (make soak): every action applied is legal, every position reached
   * keeps the invariants of gs_check; a violation stops the program with the reason */
  if (!gs_is_legal(sc, s, a)) {
    char d[256];
    gs_describe(sc, s, d, sizeof d);
    fprintf(stderr, "gs_apply: illegal action %d %d %d %d in: %s\n", a.t, a.a, a.b, a.c, d);
    abort();
  }
#endif
  s->nactions++;
  phase_def(s->phase)->apply(sc, s, a);
  settle(sc, s);
#ifdef GS_DEBUG_CHECKS
  char why[256];
  if (gs_check(sc, s, why, sizeof why)) {
    fprintf(stderr, "gs_apply: invariant broken after action %d %d %d %d: %s\n", a.t, a.a, a.b, a.c, why);
    abort();
  }
#endif
}

/* invariants every reachable position keeps; 0 when all hold, else -1 and the reason */
int gs_check(const Scen *sc, const State *s, char *why, size_t len) {
#define BAD(...) do { snprintf(why, len, __VA_ARGS__); return -1; } while (0)
  uint8_t seen_sq[NSQ];
  memset(seen_sq, 0, sizeof seen_sq);
  for (int u = 0; u < sc->nunits; u++) {
    int sq = s->usq[u];
    if (sq == SQ_OFF || sq == SQ_DEAD) continue;
    if (sq >= NSQ) BAD("unit %s on a bad square %d", sc->unit[u].name, sq);
    if (seen_sq[sq]++) BAD("two units on one square (R-6.4)");
    if (s->occ[sq] != u) BAD("square table out of step at %s", sc->unit[u].name);
  }
  for (int sq = 0; sq < NSQ; sq++)
    if (s->occ[sq] != UNIT_NONE && s->usq[s->occ[sq]] != sq) BAD("square table names a unit elsewhere");
  for (int l = 0; l < 2; l++) {
    int sq = s->leader[l];
    if (sq == SQ_DEAD) continue;        /* removed: his side had no unit on the map (R-6.7 ruling) */
    if (sq >= NSQ) BAD("leader off the map");
    int u = s->occ[sq];
    if (u != UNIT_NONE && side_of_army(sc->unit[u].army) != side_of_army(leader_army(l)))
      BAD("leader with an enemy unit (R-6.7)");
    if (s->leader[0] == s->leader[1]) BAD("both leaders on one square");
  }
  for (int c = 0; c < MAX_CASTLES; c++)
    if (s->cdp[c] > sc->p.cdp[c]) BAD("castle points went below 0 or above the start (R-10.3)");
  uint64_t all = sc->army_cards[0] | sc->army_cards[1] | sc->army_cards[2];
  if ((s->hand & s->discard) || (s->hand & s->pend) || (s->pend & s->discard)) BAD("a card in two places");
  if ((s->hand | s->discard | s->pend | s->seen) & ~all) BAD("an unknown card");
  if (s->seen & ~s->discard) BAD("a seen card not in the discards");
  if ((s->pend_cmd | s->pend_elite) & ~s->pend) BAD("a purpose for a card not committed");
  if (s->phase == PH_ROUND && s->ncards == 0 && s->card == CARD_NONE)
    for (int u = 0; u < sc->nunits; u++)
      if (s->uflag[u] & (UF_MOVED | UF_RALLIED | UF_ATTACKED)) BAD("markers left at a round's start (R-4.4)");
  if (s->phase != PH_OVER && (s->turn < 1 || s->turn > sc->p.turns)) BAD("turn out of range");
  if (s->phase == PH_OVER && (s->turn != sc->p.turns || !s->result)) BAD("game ended at the wrong turn or without a result");
  return 0;
#undef BAD
}
