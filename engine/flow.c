/* The flow of the game: turns, rounds, bids, battles as a sequence of phases; what each action
 * does (apply_* by phase); the phase table that gs_legal and gs_apply dispatch through; the
 * interrupts (displaced leaders, evasions) that come before the phase an action led to.
 * Rulings on the gaps are in docs/RULINGS.md, by rule id. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_int.h"
#include "util.h"

static void settle(const Scen *sc, State *s);

static void enter_react(const Scen *sc, State *s);

static void start_round(const Scen *sc, State *s, int side) {
  s->turn.active = (uint8_t)side;
  s->turn.decider = (uint8_t)side;
  s->turn.phase = PH_ROUND;
  s->turn.ncards = 0;
  s->turn.round_army = 0;
  s->play.card = CARD_NONE;
  s->play.moving = UNIT_NONE;
  if (s->first_round && side == ALLIED && s->turn.bid_card[ALLIED] != CARD_NONE)
    s->turn.round_army = sc->card[s->turn.bid_card[ALLIED]].army; /* */
  s->first_round = 0;
}

/* The game's chance (draws, bid tie-breaks, Napoleon's health) is not one stream consumed in
 * order: each chance event draws from a stream of its own keyed by (the game's key, turn,
 * event, k).  Two games on the same seed therefore get the same hands, tie-break draws and
 * discards whatever the players did before (common random numbers that survive a search or a
 * rule change), as long as the cards the event draws from are the same.  State.rng.inc is the
 * key of (seed, game), fixed for the game; State.rng.state counts the chance events so far (a
 * front end's undo stops at one). */
enum { CH_DRAW = 1, CH_BID, CH_HEALTH };

static Rng chance(State *s, int event, int k) {
  uint64_t tag = (uint64_t)s->turn.number << 24 | (uint64_t)event << 16 | (uint64_t)k;
  Rng r;
  rng_seed(&r, splitmix64(s->rng.inc ^ splitmix64(tag)), s->rng.inc >> 1);
  s->rng.state++;
  return r;
}

static void draw(const Scen *sc, State *s, int army, int n) {
  uint64_t undrawn = sc->army_cards[army] & ~(s->cards.hand | s->cards.discard | s->cards.pend);
  Rng r = chance(s, CH_DRAW, army);
  for (int i = 0; i < n && undrawn; i++) {
    int c = mask_pick(&r, undrawn);
    undrawn &= ~(1ull << c);
    s->cards.hand |= 1ull << c;
  }
}

static void finish(const Scen *sc, State *s) {
  int vp[2];
  gs_score(sc, s, vp);
  if (sc->scenario == SC_SHORT) s->score.result = vp[FRENCH] ? RES_FRENCH : RES_ALLIED;
  else s->score.result = vp[0] > vp[1] ? RES_FRENCH : vp[1] > vp[0] ? RES_ALLIED : RES_DRAW;
  s->turn.phase = PH_OVER;
  s->turn.decider = FRENCH;
}

static void start_turn(const Scen *sc, State *s, int t) {
  s->turn.number = (uint8_t)t;
  s->cards.hand = s->cards.discard = s->cards.seen = s->cards.pend = s->cards.pend_cmd =
      s->cards.pend_elite = 0; /* */
  draw(sc, s, ARMY_FR, sc->p.hand_fr);
  draw(sc, s, ARMY_BR, sc->p.hand_br);
  if (sc->p.prussians) draw(sc, s, ARMY_PR, sc->p.hand_pr[t]);
  s->turn.entry_sq = SQ_NONE;
  s->turn.last_pass = 0;
  s->turn.bid_made = 0;
  s->turn.bid_card[0] = s->turn.bid_card[1] = CARD_NONE;
  s->first_round = 1;
  if (t == 1 || !sc->p.bidding) {
    start_round(sc, s, FRENCH);
  } else {
    s->turn.phase = PH_BID;
    s->turn.decider = FRENCH;
    s->turn.active = FRENCH;
  }
}

static void end_turn(const Scen *sc, State *s) {
  if (s->turn.number >= sc->p.turns) finish(sc, s); /* */
  else start_turn(sc, s, s->turn.number + 1);
}

static void end_round(const Scen *sc, State *s) {
  int a = s->turn.active;
  /* markers come off at the end of every round (RULING: also the moved marker of a
   * cavalry unit forced to charge in this round) */
  for (int u = 0; u < sc->nunits; u++)
    s->units.flag[u] &= (uint8_t) ~(UF_MOVED | UF_RALLIED | UF_ATTACKED);
  if (s->turn.ncards == 0) { /* */
    if (s->turn.last_pass) {
      end_turn(sc, s);
      return;
    }
    s->turn.last_pass = 1;
  } else {
    s->turn.last_pass = 0;
  }
  start_round(sc, s, opp(a));
}

/* both bids made; tie-breaks are looked at and put back */
static void resolve_bid(const Scen *sc, State *s) {
  int v[2];
  for (int side = 0; side < 2; side++)
    v[side] = s->turn.bid_card[side] == CARD_NONE ? -1 : sc->card[s->turn.bid_card[side]].mp;
  int first;
  if (v[0] != v[1]) {
    first = v[0] > v[1] ? FRENCH : ALLIED;
  } else {
    int al_army =
        (s->turn.bid_card[ALLIED] != CARD_NONE) ? sc->card[s->turn.bid_card[ALLIED]].army : ARMY_BR;
    uint64_t und[2] = {
        sc->army_cards[ARMY_FR] & ~(s->cards.hand | s->cards.discard | s->cards.pend),
        sc->army_cards[al_army] & ~(s->cards.hand | s->cards.discard | s->cards.pend)};
    first = -1;
    Rng r = chance(s, CH_BID, 0);
    for (int tries = 0; tries < 64 && first < 0; tries++) {
      int w[2];
      for (int side = 0; side < 2; side++)
        w[side] = und[side] ? sc->card[mask_pick(&r, und[side])].mp : 0;
      if (w[0] != w[1]) first = w[0] > w[1] ? FRENCH : ALLIED;
    }
    if (first < 0) first = (int)rng_below(&r, 2);
  }
  s->cards.discard |= s->cards.pend;
  s->cards.seen |= s->cards.pend;
  s->cards.pend = 0;
  s->turn.first = (uint8_t)first;
  start_round(sc, s, first);
}

static void enter_declare(const Scen *sc, State *s) {
  if (declare_possible(sc, s)) {
    s->turn.phase = PH_DECLARE;
    s->turn.decider = s->turn.active;
  } else {
    enter_react(sc, s);
  }
}

static void enter_react(const Scen *sc, State *s) {
  s->play.card = CARD_NONE;
  s->play.moving = UNIT_NONE;
  if (fire_window(sc, s, opp(s->turn.active), 0)) { /* ruling (b) */
    s->turn.phase = PH_REACT;
    s->turn.decider = (uint8_t)opp(s->turn.active);
  } else {
    s->turn.phase = PH_ROUND;
    s->turn.decider = s->turn.active;
  }
}

static void enter_attcards(const Scen *sc, State *s);

static void start_battle(const Scen *sc, State *s, int def, int mask_units[4], int kind,
                         int att_side, int army, int after) {
  s->battle.def_unit = (uint8_t)def;
  s->battle.def_sq = s->units.sq[def];
  s->battle.kind = (uint8_t)kind;
  s->battle.att_side = (uint8_t)att_side;
  s->battle.army = (uint8_t)army;
  s->play.after_battle = (uint8_t)after;
  s->battle.elite = 0;
  s->cards.pend_cmd = s->cards.pend_elite = 0;
  for (int d = 0; d < 4; d++) {
    s->battle.att[d] = (uint8_t)mask_units[d];
    if (mask_units[d] != UNIT_NONE) {
      s->units.flag[mask_units[d]] |= UF_INBATTLE;
      if (kind == BK_NORMAL || att_side == s->turn.active)
        s->units.flag[mask_units[d]] |= UF_ATTACKED;
    }
  }
  /* the defender may fire artillery at an attacker before the reveal */
  if (charge_battle_cards_ok(sc, s) && fire_window(sc, s, opp(att_side), 1)) {
    s->turn.phase = PH_B_FIRE;
    s->turn.decider = (uint8_t)opp(att_side);
  } else {
    enter_attcards(sc, s);
  }
}

static int battle_hand(const Scen *sc, const State *s, int attacking) {
  int army = attacking ? s->battle.army : sc->unit[s->battle.def_unit].army;
  return hand_count(sc, s, army) > 0;
}

static void resolve_battle(const Scen *sc, State *s);

static void enter_defcards(const Scen *sc, State *s) {
  if (battle_hand(sc, s, 0)) {
    s->turn.phase = PH_B_DEFCARDS;
    s->turn.decider = (uint8_t)opp(s->battle.att_side);
  } else {
    resolve_battle(sc, s);
  }
}

static void enter_attcards(const Scen *sc, State *s) {
  int limit_ok = s->battle.att_side != s->turn.active || under_limit(sc, s);
  if (battle_hand(sc, s, 1) && limit_ok) {
    s->turn.phase = PH_B_ATTCARDS;
    s->turn.decider = s->battle.att_side;
  } else {
    enter_defcards(sc, s);
  }
}

static void end_battle(const Scen *sc, State *s) {
  for (int d = 0; d < 4; d++) {
    int u = s->battle.att[d];
    if (u == UNIT_NONE) continue;
    s->units.flag[u] &= (uint8_t)~UF_INBATTLE;
  }
  if (s->battle.kind == BK_CHARGE && s->battle.charger != UNIT_NONE &&
      on_map(s, s->battle.charger)) {
    s->units.flag[s->battle.charger] |= UF_DISORDER | UF_MOVED; /* */
  }
  s->battle.charger = UNIT_NONE;
  s->battle.def_unit = UNIT_NONE;
  s->battle.def_sq = SQ_NONE;
  for (int d = 0; d < 4; d++) s->battle.att[d] = UNIT_NONE;
  if (s->play.after_battle == PH_DECLARE) enter_declare(sc, s);
  else enter_react(sc, s);
}

static void after_loss(const Scen *sc, State *s) {
  int def = s->battle.def_unit;
  if (!on_map(s, def) || s->units.sq[def] != s->battle.def_sq) {
    if (advance_slots(sc, s)) {
      s->turn.phase = PH_B_ADVANCE;
      s->turn.decider = s->battle.att_side;
      return;
    }
  }
  end_battle(sc, s);
}

static void resolve_battle(const Scen *sc, State *s) {
  int a, d;
  totals(sc, s, &a, &d);
  s->battle.elite =
      (uint8_t)(((s->cards.pend_elite & side_cards(sc, s->battle.att_side)) ? ELITE_ATT : 0) |
                ((s->cards.pend_elite & side_cards(sc, opp(s->battle.att_side))) ? ELITE_DEF : 0));
  s->cards.discard |= s->cards.pend; /* reveal: cards are seen */
  s->cards.seen |= s->cards.pend;
  s->cards.pend = s->cards.pend_cmd = s->cards.pend_elite = 0;
  s->battle.att_total = (uint8_t)(a > 255 ? 255 : a);
  s->battle.def_total = (uint8_t)(d > 255 ? 255 : d);
  if (a > d) {                                             /* */
    s->battle.loss_owed = a > 2 * d ? LOSS_REDUCE | LOSS_RETREAT : LOSS_CHOICE;
    s->turn.phase = PH_B_LOSS;
    s->turn.decider = (uint8_t)opp(s->battle.att_side);
    return;
  }
  if (d > 2 * a) {                                         /* */
    int best = -1, ties = 0, slot = -1;
    for (int k = 0; k < 4; k++) {
      int u = s->battle.att[k];
      if (u == UNIT_NONE) continue;
      int b = unit_bp(sc, s, u);
      if (b > best) best = b, ties = 0, slot = k;
      if (b == best) ties++;
    }
    if (ties > 1) {
      s->turn.phase = PH_B_ATTLOSS;
      s->turn.decider = s->battle.att_side;
      return;
    }
    if (slot >= 0) reduce_unit(sc, s, s->battle.att[slot]);
  }
  end_battle(sc, s);
}

void gs_init(const Scen *sc, State *s, uint64_t seed, uint64_t stream) {
  memset(s, 0, sizeof *s);
  s->rng.state = 0; /* chance events so far; the key of (seed, game), odd: */
  s->rng.inc = splitmix64(seed ^ splitmix64(stream ^ 0x6368616e6365ULL)) | 1u;
  for (int u = 0; u < MAX_UNITS; u++) s->units.sq[u] = SQ_DEAD;
  for (int u = 0; u < sc->nunits; u++) {
    s->units.sq[u] = sc->unit[u].start_sq;
    if (sc->unit[u].army == ARMY_PR && !sc->p.prussians) s->units.sq[u] = SQ_OFF;
    s->units.flag[u] = sc->unit[u].start_facing & 3;
  }
  gs_rebuild_occ(sc, s);
  s->units.leader[0] = sc->leader_start[0];
  s->units.leader[1] = sc->leader_start[1];
  for (int c = 0; c < MAX_CASTLES; c++) s->turn.cdp[c] = (uint8_t)sc->p.cdp[c];
  s->turn.owner = 0; /* all Allied */
  s->play.moving = UNIT_NONE;
  s->battle.charger = UNIT_NONE;
  s->battle.def_unit = UNIT_NONE;
  s->battle.def_sq = SQ_NONE;
  for (int d = 0; d < 4; d++) s->battle.att[d] = UNIT_NONE;
  s->interrupt.rally_first = UNIT_NONE;
  s->turn.entry_sq = SQ_NONE;
  s->play.card = CARD_NONE;
  start_turn(sc, s, 1);
}

static void play_card(const Scen *sc, State *s, int c) {
  s->cards.hand &= ~(1ull << c);
  s->cards.discard |= 1ull << c;
  s->cards.seen |= 1ull << c;
}

static void round_card(const Scen *sc, State *s, int c) {
  play_card(sc, s, c);
  s->turn.ncards++;
  s->play.card = (uint8_t)c;
  s->play.army = sc->card[c].army;
  if (s->turn.active == ALLIED && !sc->p.three_player)
    s->turn.round_army = sc->card[c].army; /* */
}

static void do_charge(const Scen *sc, State *s, int cav, int n, int att_side) {
  int def = charge_target(sc, s, cav, n);
  int f = facing(s, cav);
  for (int i = 0; i < n; i++)        /* every square of the path is entered */
    enter_square(sc, s, cav, sc->nb[s->units.sq[cav]][f], f, ENTER_CHARGE);
  int units[4] = {UNIT_NONE, UNIT_NONE, UNIT_NONE, UNIT_NONE};
  units[(f + 2) & 3] = cav;     /* the cavalry is on the side of the defender it faces */
  s->battle.charger = (uint8_t)cav;
  start_battle(sc, s, def, units, BK_CHARGE, att_side, sc->unit[cav].army, PH_DECLARE);
}

static void apply_bid(const Scen *sc, State *s, Action a) {
  int side = s->turn.decider;
  s->turn.bid_made |= (uint8_t)(1u << side);
  int c = a.bid.card;
  s->turn.bid_card[side] = (uint8_t)c;
  if (c != CARD_NONE) {
    s->cards.hand &= ~(1ull << c);
    s->cards.pend |= 1ull << c;
  }
  if (s->turn.bid_made == 3) resolve_bid(sc, s);
  else s->turn.decider = ALLIED;
}

static void apply_rally(const Scen *sc, State *s, Action a) {
  int u = a.play.unit;
  if (a.play.card != CARD_NONE) round_card(sc, s, a.play.card);
  s->units.flag[u] &= (uint8_t)~UF_DISORDER;
  s->units.flag[u] |= UF_RALLIED;
  if (s->turn.phase == PH_ROUND) {
    s->interrupt.rally_first = (uint8_t)u;
    s->turn.phase = PH_RALLY2;
    s->turn.decider = s->turn.active;
    if (rally2_units(sc, s, NULL) > 0) return;
  }
  s->interrupt.rally_first = UNIT_NONE;
  enter_declare(sc, s);
}

static void apply_round(const Scen *sc, State *s, Action a) {
  switch (a.t) {
  case A_END:
    end_round(sc, s);
    break;
  case A_PLAY_MOVE:
    round_card(sc, s, a.play.card);
    s->play.mp = sc->card[a.play.card].mp;
    s->play.moving = UNIT_NONE;
    s->play.evade_stop = 0;
    s->turn.phase = PH_MOVE;
    break;
  case A_ARTY: {
    round_card(sc, s, a.fire.card);
    int v = fire_target(sc, s, a.fire.unit, fire_side(s, a.fire.unit, a.fire.across));
    fire_at(sc, s, v);
    enter_declare(sc, s);
    break;
  }
  case A_CHARGE:
    round_card(sc, s, a.charge.card);
    do_charge(sc, s, a.charge.unit, a.charge.squares, s->turn.active);
    break;
  case A_FORCE:
    round_card(sc, s, a.charge.card);
    do_charge(sc, s, a.charge.unit, a.charge.squares, opp(s->turn.active));
    break;
  case A_RALLY:
    apply_rally(sc, s, a);
    break;
  case A_RESTORE:
    round_card(sc, s, a.play.card);
    s->units.flag[a.play.unit] &= (uint8_t)~UF_REDUCED;
    s->units.flag[a.play.unit] |= UF_RALLIED;
    enter_declare(sc, s);
    break;
  case A_HEALTH: {                                   /* unseen */
    round_card(sc, s, a.play.card);
    Rng r = chance(s, CH_HEALTH, a.play.card);
    for (int i = 0; i < 2; i++) {
      uint64_t fh = s->cards.hand & sc->army_cards[ARMY_FR];
      if (!fh) break;
      int c = mask_pick(&r, fh);
      s->cards.hand &= ~(1ull << c);
      s->cards.discard |= 1ull << c;
    }
    enter_declare(sc, s);
    break;
  }
  }
}

/* ruling: the infantry stops after its one more step; cavalry it came next to on that
 * step may still evade, and the infantry (play.moving, evade_stop 2) stops once they
 * have chosen */
static void stop_after_extra_step(State *s) {
  if (s->interrupt.evaders) {
    s->play.evade_stop = 2;
    return;
  }
  s->play.evade_stop = 0;
  s->play.moving = UNIT_NONE;
}

static void apply_move(const Scen *sc, State *s, Action a) {
  switch (a.t) {
  case A_STEP: {
    int u = a.step.unit;
    int cost = move_cost(sc, s->units.sq[u], a.step.dir);
    int was_extra = s->play.evade_stop && s->play.moving == u;
    if (s->play.moving != u) s->play.evade_stop = 0;
    s->play.mp = (uint8_t)(s->play.mp - cost);
    s->play.moving = (uint8_t)u;
    s->units.flag[u] |= UF_MOVED;
    enter_square(sc, s, u, sc->nb[s->units.sq[u]][a.step.dir], a.step.facing, ENTER_MOVE);
    if (was_extra) stop_after_extra_step(s);
    break;
  }
  case A_TURN: {
    int u = a.turn.unit;
    if (s->play.moving != u) s->play.evade_stop = 0;
    s->play.mp--;
    s->play.moving = (uint8_t)u;
    s->units.flag[u] = (uint8_t)((s->units.flag[u] & ~UF_FACING) | UF_MOVED | a.turn.facing);
    break;
  }
  case A_LEAD: {
    int l = leader_of_army(s->play.army);
    s->play.mp--;
    s->units.leader[l] = sc->nb[s->units.leader[l]][a.lead.dir];
    break;
  }
  case A_ENTER: {
    int u = a.to.unit;
    if (s->play.moving != u) s->play.evade_stop = 0;
    s->play.mp--;
    s->turn.entry_sq = a.to.sq;
    s->play.moving = (uint8_t)u;
    s->units.flag[u] |= UF_MOVED;
    enter_square(sc, s, u, a.to.sq, a.to.facing, ENTER_MOVE);
    break;
  }
  case A_DONE:
    s->play.moving = UNIT_NONE;
    s->play.evade_stop = 0;
    s->play.mp = 0;
    enter_declare(sc, s);
    break;
  }
}

static void apply_evade(const Scen *sc, State *s, Action a) {
  if (a.t == A_EVADE) {
    enter_square(sc, s, a.to.unit, a.to.sq, a.to.facing, ENTER_EVADE);
    s->interrupt.evaders &= ~(1ull << a.to.unit);
    if (!s->play.evade_stop) s->play.evade_stop = 1;
  } else {
    s->interrupt.evaders = 0;
  }
  if (!s->interrupt.evaders && s->play.evade_stop == 2) stop_after_extra_step(s);
}

static void apply_leader(const Scen *sc, State *s, Action a) {
  (void)sc;
  int l = __builtin_ctz(s->interrupt.leader_pending);
  s->units.leader[l] = a.place.sq;
  s->interrupt.leader_pending &= (uint8_t) ~(1u << l);
}

static void apply_declare(const Scen *sc, State *s, Action a) {
  if (a.t == A_NOBATTLE) {
    enter_react(sc, s);
    return;
  }
  int sq = a.declare.sq;
  int def = unit_at(sc, s, sq);
  int units[4];
  for (int d = 0; d < 4; d++)
    units[d] = (a.declare.dirs & (1 << d)) ? unit_at(sc, s, sc->nb[sq][d]) : UNIT_NONE;
  s->battle.charger = UNIT_NONE;
  start_battle(sc, s, def, units, BK_NORMAL, s->turn.active, s->play.army, PH_REACT);
}

/* artillery of the side not resolving a card (R-5.4: not counted against the round); returns
 * the target and whether it was attacking in the battle */
static int reaction_fire(const Scen *sc, State *s, Action a, int *was_in_battle) {
  play_card(sc, s, a.fire.card);
  int v = fire_target(sc, s, a.fire.unit, fire_side(s, a.fire.unit, a.fire.across));
  *was_in_battle = s->units.flag[v] & UF_INBATTLE;
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
  if (s->turn.phase != PH_B_FIRE || !in_battle) return;
  for (int d = 0; d < 4; d++)
    if (s->battle.att[d] == v) s->battle.att[d] = UNIT_NONE; /* drops out */
  s->units.flag[v] &= (uint8_t)~UF_INBATTLE;
  int left = 0;
  for (int d = 0; d < 4; d++) left += s->battle.att[d] != UNIT_NONE;
  if (!left) end_battle(sc, s);
  else if (!fire_window(sc, s, s->turn.decider, 1)) enter_attcards(sc, s);
}

static void apply_react(const Scen *sc, State *s, Action a) {
  if (a.t == A_ARTY) {
    int in_battle;
    reaction_fire(sc, s, a, &in_battle);
    if (s->turn.phase != PH_REACT || fire_window(sc, s, s->turn.decider, 0)) return;
  }
  s->turn.phase = PH_ROUND;
  s->turn.decider = s->turn.active;
}

static void apply_bcards(const Scen *sc, State *s, Action a) {
  if (a.t == A_BDONE) {
    if (s->turn.phase == PH_B_ATTCARDS) enter_defcards(sc, s);
    else resolve_battle(sc, s);
    return;
  }
  uint64_t bit = 1ull << a.bcard.card;
  s->cards.hand &= ~bit;
  s->cards.pend |= bit;
  if (a.bcard.purpose == BP_COMMAND) s->cards.pend_cmd |= bit;
  if (a.bcard.purpose == BP_ELITE) s->cards.pend_elite |= bit;
  if (s->turn.phase == PH_B_ATTCARDS && s->battle.att_side == s->turn.active)
    s->turn.ncards++; /* */
}

/* a reduction or a castle point pays one step of the loss; the battle ends when none is left */
static void pay_loss(const Scen *sc, State *s) {
  if (s->battle.loss_owed & LOSS_REDUCE) s->battle.loss_owed &= (uint8_t)~LOSS_REDUCE;
  else s->battle.loss_owed = 0;
}

static void apply_loss(const Scen *sc, State *s, Action a) {
  switch (a.t) {
  case A_REDUCE: {
    int def = s->battle.def_unit;
    reduce_unit(sc, s, def);
    pay_loss(sc, s);
    if (!on_map(s, def)) s->battle.loss_owed = 0;
    break;
  }
  case A_RETREAT:
    enter_square(sc, s, s->battle.def_unit, a.retreat.sq, a.retreat.facing, ENTER_RETREAT);
    s->battle.loss_owed = 0;
    break;
  case A_CDP:
    s->turn.cdp[sc->castle_of[s->units.sq[s->battle.def_unit]]]--;
    pay_loss(sc, s);
    break;
  }
  if (!s->battle.loss_owed) after_loss(sc, s);
}

static void apply_advance(const Scen *sc, State *s, Action a) {
  /* leaders never advance */
  enter_square(sc, s, s->battle.att[a.attacker.slot], s->battle.def_sq, a.attacker.facing,
               ENTER_ADVANCE);
  end_battle(sc, s);
}

static void apply_attloss(const Scen *sc, State *s, Action a) {
  reduce_unit(sc, s, s->battle.att[a.attacker.slot]);
  end_battle(sc, s);
}

static void apply_rally2(const Scen *sc, State *s, Action a) {
  if (a.t == A_RALLY) {
    apply_rally(sc, s, a);
    return;
  }
  s->interrupt.rally_first = UNIT_NONE;
  enter_declare(sc, s);
}

static void apply_over(const Scen *sc, State *s, Action a) { (void)sc, (void)s, (void)a; }

/* One row per phase: its name, its legal actions and how they apply, whether its choice is
 * secret from the other side (simultaneous bids, battle cards).  Everything that depends on the
 * phase reads this table: gs_legal, gs_apply, phase_name, the save loader, the search.  (How
 * much thought a phase's decision deserves is the search's own knob, in ai/.) */
#define PHASE_ROW(id, nm, fn, secret) [id] = {nm, legal_##fn, apply_##fn, secret},

static const PhaseDef PHASE_TABLE[PH_COUNT] = {
    [0] = {"?", legal_over, apply_over, 0},
    PHASE_ROW(PH_BID, "bid", bid, 1)
    PHASE_ROW(PH_ROUND, "round", round, 0)
    PHASE_ROW(PH_MOVE, "move", move, 0)
    PHASE_ROW(PH_EVADE, "evade", evade, 0)
    PHASE_ROW(PH_LEADER, "leader", leader, 0)
    PHASE_ROW(PH_DECLARE, "declare", declare, 0)
    PHASE_ROW(PH_B_FIRE, "fire", bfire, 0)
    [PH_B_ATTCARDS] = {"attack-cards", legal_attcards, apply_bcards, 1},
    [PH_B_DEFCARDS] = {"defence-cards", legal_defcards, apply_bcards, 1},
    PHASE_ROW(PH_B_LOSS, "loss", loss, 0)
    PHASE_ROW(PH_B_ADVANCE, "advance", advance, 0)
    PHASE_ROW(PH_B_ATTLOSS, "attacker-loss", attloss, 0)
    PHASE_ROW(PH_RALLY2, "rally", rally2, 0)
    PHASE_ROW(PH_REACT, "reaction", react, 0)
    PHASE_ROW(PH_OVER, "over", over, 0)
};

#undef PHASE_ROW

const PhaseDef *phase_def(int phase) {
  return &PHASE_TABLE[phase > 0 && phase < PH_COUNT ? phase : 0];
}

int gs_legal(const Scen *sc, const State *s, ActList *L) {
  L->n = 0;
  phase_def(s->turn.phase)->legal(sc, s, L);
  return L->n;
}

int gs_is_legal(const Scen *sc, const State *s, Action a) {
  ActList L;
  gs_legal(sc, s, &L);
  for (int i = 0; i < L.n; i++)
    if (!memcmp(&L.a[i], &a, sizeof a)) return 1;
  return 0;
}

/* interrupts (cavalry evasion, displaced leaders) come before the phase the action led to;
 * an evasion before a leader set off by the same arrival is placed (R-6.8: the cavalry evades
 * "prima che succeda qualunque altra cosa", before anything else happens), so the leader goes
 * to the nearest unit as the evasion left them */
static void settle(const Scen *sc, State *s) {
  while (s->turn.phase != PH_OVER) {
    if (s->interrupt.evaders) {
      if (s->turn.phase != PH_EVADE) {
        if (!s->interrupt.return_phase)
          s->interrupt.return_phase = s->turn.phase, s->interrupt.return_decider = s->turn.decider;
        s->turn.phase = PH_EVADE;
      }
      s->turn.decider = (uint8_t)unit_side(sc, __builtin_ctzll(s->interrupt.evaders));
      return;
    }
    if (s->interrupt.leader_pending) {
      int l = __builtin_ctz(s->interrupt.leader_pending);
      uint8_t t[NSQ];
      int n = leader_targets(sc, s, l, t);
      if (n <= 1) {                       /* ruling: none at all, removed */
        s->units.leader[l] = n == 1 ? t[0] : SQ_DEAD;
        s->interrupt.leader_pending &= (uint8_t) ~(1u << l);
        continue;
      }
      if (s->turn.phase != PH_LEADER) {
        if (!s->interrupt.return_phase)
          s->interrupt.return_phase = s->turn.phase, s->interrupt.return_decider = s->turn.decider;
        s->turn.phase = PH_LEADER;
      }
      s->turn.decider = (uint8_t)side_of_army(leader_army(l));
      return;
    }
    if (s->interrupt.return_phase) {
      s->turn.phase = s->interrupt.return_phase;
      s->turn.decider = s->interrupt.return_decider;
      s->interrupt.return_phase = 0;
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
  phase_def(s->turn.phase)->apply(sc, s, a);
  settle(sc, s);
#ifdef GS_DEBUG_CHECKS
  char why[256];
  if (gs_check(sc, s, why, sizeof why)) {
    fprintf(stderr, "gs_apply: invariant broken after action %d %d %d %d: %s\n", a.t, a.a, a.b, a.c, why);
    abort();
  }
#endif
}
