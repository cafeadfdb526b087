/* The legal actions of each phase, and the predicates the flow asks before it
 * opens a phase ("may the active side declare a battle?", "is there an artillery window?").
 * Uses the board layer only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_int.h"

/* whether `side` may not use what `bits` names */
static inline int banned(const Scen *sc, int side, int bits) { return (sc->p.ban[side] & bits) != 0; }

int declare_possible(const Scen *sc, const State *s) {
  int army = s->play.army, side = side_of_army(army);
  FOR_ARMY(u, army) {
    int sq = s->units.sq[u], fl = s->units.flag[u];
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

/* public condition for an artillery window of `side`: a unit of an army with cards in hand
 * that has a target in front.  The window opens whether or not the hand holds artillery, so
 * its opening tells the other side nothing hidden. */
int fire_window(const Scen *sc, const State *s, int side, int battle_only) {
  if (banned(sc, side, 1 << ACT_ARTILLERY)) return 0; /* public, like the window */
  int armies = 0;                       /* armies of the side with cards in hand */
  for (int a = 0; a < 3; a++)
    if (side_of_army(a) == side && (s->cards.hand & sc->army_cards[a])) armies |= 1 << a;
  if (!armies) return 0;
  FOR_SIDE(u, side) {
    if (!(armies & (1 << sc->unit[u].army))) continue;
    if (fire_codes(sc, s, u, battle_only)) return 1;
  }
  return 0;
}

int charge_battle_cards_ok(const Scen *sc, const State *s) {
  return s->battle.kind != BK_CHARGE || sc->p.charge_all_cards;
}

static int only_flank_rear(const Scen *sc, const State *s) {
  for (int d = 0; d < 4; d++)
    if (s->battle.att[d] != UNIT_NONE && pos_of(sc, s, s->battle.def_unit, d) == 0) return 0;
  return 1;
}

/* attacking units that may advance */
int advance_slots(const Scen *sc, const State *s) {
  int all = 0, elite = 0;
  for (int d = 0; d < 4; d++) {
    int u = s->battle.att[d];
    if (u == UNIT_NONE || !on_map(s, u)) continue;
    all |= 1 << d;
    if ((s->battle.elite & ELITE_ATT) && sc->unit[u].elite) elite |= 1 << d;
  }
  return elite ? elite : all;
}

static void legal_fire(const Scen *sc, const State *s, ActList *L, int side, int battle_only) {
  if (banned(sc, side, 1 << ACT_ARTILLERY)) return; /* */
  uint64_t arty = 0;
  for (uint64_t m = s->cards.hand & side_cards(sc, side); m; m &= m - 1) {
    int c = __builtin_ctzll(m);
    if (sc->card[c].action == ACT_ARTILLERY) arty |= 1ull << c;
  }
  if (!arty) return;
  FOR_SIDE(u, side) {
    if (unit_side(sc, u) != side) continue;
    int codes = fire_codes(sc, s, u, battle_only);
    for (uint64_t m = arty & sc->army_cards[sc->unit[u].army]; codes && m; m &= m - 1)
      for (int k = 0; k < 5; k++)
        if (codes & (1 << k)) push(L, act_fire(__builtin_ctzll(m), u, k));
  }
}

void legal_round(const Scen *sc, const State *s, ActList *L) {
  push(L, act_kind(A_END));
  if (!under_limit(sc, s)) return;
  int side = s->turn.active;
  uint64_t cards = round_cards(sc, s);
  /* what each kind of action could do this round, worked out once for all cards */
  uint64_t kinds = 0;
  for (uint64_t m = cards; m; m &= m - 1) kinds |= 1ull << sc->card[__builtin_ctzll(m)].action;
  kinds &= ~(uint64_t)sc->p.ban[side]; /* the card still moves, its action is barred */
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
      if (sc->unit[u].kind != K_CAV || (s->units.flag[u] & (UF_ATTACKED | UF_RALLIED))) continue;
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
      if (!on_map(s, u) || (s->units.flag[u] & (UF_MOVED | UF_ATTACKED | UF_RALLIED))) continue;
      if (s->units.flag[u] & UF_DISORDER) ral[nral++] = (uint8_t)u;
      if (s->units.flag[u] & UF_REDUCED) {
        int adj = 0, sq = s->units.sq[u];
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
    if (cd->mp > 0) push(L, act_play(A_PLAY_MOVE, c, 0));
    switch (kinds & (1ull << cd->action) ? cd->action : ACT_NONE) {
    case ACT_ARTILLERY:
      for (int i = 0; i < nfire; i++)
        if (sc->unit[fire[i] / 5].army == cd->army) push(L, act_fire(c, fire[i] / 5, fire[i] % 5));
      break;
    case ACT_CHARGE:
      for (int i = 0; i < nchg; i++)
        if (sc->unit[chg[i] / 2].army == cd->army)
          push(L, act_charge(A_CHARGE, c, chg[i] / 2, chg[i] % 2 + 1));
      break;
    case ACT_FORCE_CHARGE:
      for (int i = 0; i < nfrc; i++) push(L, act_charge(A_FORCE, c, frc[i] / 2, frc[i] % 2 + 1));
      break;
    case ACT_RALLY:
      for (int i = 0; i < nral; i++)
        if (sc->unit[ral[i]].army == cd->army) push(L, act_play(A_RALLY, c, ral[i]));
      for (int i = 0; i < nres; i++)
        if (sc->unit[res[i]].army == cd->army) push(L, act_play(A_RESTORE, c, res[i]));
      break;
    case ACT_HEALTH: push(L, act_play(A_HEALTH, c, 0)); break;
    default:
      break;
    }
  }
}

void legal_move(const Scen *sc, const State *s, ActList *L) {
  push(L, act_kind(A_DONE));
  int army = s->play.army, side = side_of_army(army);
  int mp = s->play.mp;
  if (mp == 0) return;
  FOR_ARMY(u, army) {
    if (s->units.sq[u] == SQ_OFF) { /* */
      const GroupDef *g = &sc->group[sc->unit[u].group];
      /* an infantry unit's one more step after an evasion bars no entry: entering is
       * another unit's move, which ends the infantry's */
      if (!sc->p.prussians || s->turn.number < g->turn + sc->p.prussian_shift) continue;
      for (int i = 0; i < g->nentry; i++) {
        int sq = g->entry[i];
        if (s->turn.entry_sq != SQ_NONE && s->turn.entry_sq != sq) continue;
        if (!sq_free(sc, s, side, sq)) continue;
        for (int f = 0; f < 4; f++) push(L, act_enter(u, sq, f));
      }
      continue;
    }
    if (!on_map(s, u) || (s->units.flag[u] & UF_RALLIED)) continue;
    if ((s->units.flag[u] & UF_MOVED) && s->play.moving != u) continue;
    int sq = s->units.sq[u], f = facing(s, u);
    if (all_fronts(sc, s, u)) {                                          /* */
      for (int d = 0; d < 4; d++) {
        int t = sc->nb[sq][d];
        if (sc->cost[sq][d] > mp || !sq_free(sc, s, side, t)) continue;  /* 255: impossible */
        for (int nf = 0; nf < 4; nf++) push(L, act_step(u, d, nf));
      }
      continue;
    }
    int t = sc->nb[sq][f];
    if (sc->cost[sq][f] <= mp && sq_free(sc, s, side, t)) {
      if (sc->terrain[sq] == T_CASTLE)            /* cavalry leaves by its front, any facing */
        for (int nf = 0; nf < 4; nf++) push(L, act_step(u, f, nf));
      else push(L, act_step(u, f, f));
    }
    if (s->play.evade_stop && s->play.moving == u) continue; /* one more step only */
    for (int nf = 0; nf < 4; nf++)
      if (nf != f) push(L, act_turn(u, nf));
  }
  int l = leader_of_army(army);
  if (l >= 0 && s->units.leader[l] < NSQ) { /* */
    int sq = s->units.leader[l];
    for (int d = 0; d < 4; d++) {
      int t = sc->nb[sq][d];
      if (t == SQ_NONE || (sc->edge[sq][d] & E_POND)) continue;
      int v = unit_at(sc, s, t);
      if (v != UNIT_NONE && unit_side(sc, v) != side) continue;
      if (s->units.leader[l ^ 1] == t) continue;
      push(L, act_lead(d));
    }
  }
}

void legal_declare(const Scen *sc, const State *s, ActList *L) {
  push(L, act_kind(A_NOBATTLE));
  int army = s->play.army, side = side_of_army(army);
  FOR_SIDE(v, opp(side)) {
    if (!on_map(s, v) || unit_side(sc, v) == side) continue;
    int mask = attackers_of(sc, s, s->units.sq[v], army);
    for (int sub = mask; sub; sub = (sub - 1) & mask)
      if (__builtin_popcount(sub) <= sc->p.max_attackers) push(L, act_declare(s->units.sq[v], sub));
  }
}

static void legal_bcards(const Scen *sc, const State *s, ActList *L, int attacking) {
  push(L, act_kind(A_BDONE));
  int army = attacking ? s->battle.army : sc->unit[s->battle.def_unit].army;
  if (attacking && s->battle.att_side == s->turn.active && !under_limit(sc, s)) return;
  uint64_t mine = sc->army_cards[army];
  uint64_t committed = s->cards.pend & mine;
  /* cards are committed in increasing order so that each set has one sequence */
  int above = committed ? 63 - __builtin_clzll(committed) : -1;
  int all = charge_battle_cards_ok(sc, s), side = side_of_army(army);
  int elite_used = (s->cards.pend_elite & mine) != 0 || banned(sc, side, 1 << ACT_ELITE);
  int command = all && !banned(sc, side, 1 << ACT_COMMAND); /* */
  for (uint64_t m = s->cards.hand & mine; m; m &= m - 1) {
    int c = __builtin_ctzll(m);
    if (c <= above) continue;
    int act = sc->card[c].action;
    if (all) push(L, act_bcard(c, BP_POINTS));
    if (command && act == ACT_COMMAND) push(L, act_bcard(c, BP_COMMAND));
    if (act == ACT_ELITE && !elite_used) push(L, act_bcard(c, BP_ELITE));
  }
}

/* the defender's retreats: square and free facing */
static void legal_retreats(const Scen *sc, const State *s, ActList *L, int u, int only_fr) {
  int mask = retreat_dirs(sc, s, u, only_fr);
  for (int d = 0; d < 4; d++)
    if (mask & (1 << d))
      for (int f = 0; f < 4; f++) push(L, act_retreat(sc->nb[s->units.sq[u]][d], f));
}

static int castle_point_ok(const Scen *sc, const State *s) {
  int def = s->battle.def_unit;
  if (sc->unit[def].kind != K_INF || !in_castle(sc, s, def)) return 0;
  int c = sc->castle_of[s->units.sq[def]];
  if (banned(sc, sc->uside[def], BAN_CDP0 << c)) return 0; /* */
  return s->turn.cdp[c] > 0;
}

void legal_loss(const Scen *sc, const State *s, ActList *L) {
  int def = s->battle.def_unit;
  int only = only_flank_rear(sc, s);
  int cp = castle_point_ok(sc, s);
  if (s->battle.loss_owed & LOSS_CHOICE) {
    push(L, act_kind(A_REDUCE));
    legal_retreats(sc, s, L, def, only);
  } else if (s->battle.loss_owed & LOSS_REDUCE) {
    push(L, act_kind(A_REDUCE));
  } else {
    int n = L->n;
    legal_retreats(sc, s, L, def, only);
    if (L->n == n) push(L, act_kind(A_REDUCE)); /* */
  }
  if (cp) push(L, act_kind(A_CDP)); /* */
}

void legal_evade(const Scen *sc, const State *s, ActList *L) {
  push(L, act_kind(A_NOEVADE));
  int inf = s->play.moving;
  for (uint64_t m = s->interrupt.evaders; m; m &= m - 1) {
    int u = __builtin_ctzll(m);
    /* front allowed when the infantry is not in front of the cavalry (R-8.5 by analogy) */
    int front_sq = sc->nb[s->units.sq[u]][facing(s, u)];
    int only = inf == UNIT_NONE || s->units.sq[inf] != front_sq;
    int mask = retreat_dirs(sc, s, u, only);
    for (int d = 0; d < 4; d++)
      if (mask & (1 << d))
        for (int f = 0; f < 4; f++) push(L, act_evade(u, sc->nb[s->units.sq[u]][d], f));
  }
}

void legal_bid(const Scen *sc, const State *s, ActList *L) {
  push(L, act_bid(CARD_NONE));
  if (banned(sc, s->turn.decider, BAN_BID)) return; /* it may only offer nothing */
  for (uint64_t m = s->cards.hand & side_cards(sc, s->turn.decider); m; m &= m - 1)
    push(L, act_bid(__builtin_ctzll(m)));
}

void legal_leader(const Scen *sc, const State *s, ActList *L) {
  uint8_t t[NSQ];
  int l = __builtin_ctz(s->interrupt.leader_pending);
  int n = leader_targets(sc, s, l, t);
  for (int i = 0; i < n; i++) push(L, act_place(t[i]));
}

void legal_bfire(const Scen *sc, const State *s, ActList *L) {
  push(L, act_kind(A_NOFIRE));
  legal_fire(sc, s, L, s->turn.decider, 1);
}

void legal_react(const Scen *sc, const State *s, ActList *L) {
  push(L, act_kind(A_NOFIRE));
  legal_fire(sc, s, L, s->turn.decider, 0);
}

void legal_attcards(const Scen *sc, const State *s, ActList *L) { legal_bcards(sc, s, L, 1); }

void legal_defcards(const Scen *sc, const State *s, ActList *L) { legal_bcards(sc, s, L, 0); }

void legal_advance(const Scen *sc, const State *s, ActList *L) {
  int slots = advance_slots(sc, s);
  for (int d = 0; d < 4; d++)
    if (slots & (1 << d))
      for (int f = 0; f < 4; f++) push(L, act_advance(d, f));
}

void legal_attloss(const Scen *sc, const State *s, ActList *L) {
  int best = -1;
  for (int d = 0; d < 4; d++)
    if (s->battle.att[d] != UNIT_NONE && unit_bp(sc, s, s->battle.att[d]) > best)
      best = unit_bp(sc, s, s->battle.att[d]);
  for (int d = 0; d < 4; d++)
    if (s->battle.att[d] != UNIT_NONE && unit_bp(sc, s, s->battle.att[d]) == best)
      push(L, act_lose(d));
}

/* the units a two-unit disorder rally may take second (after rally_first, in unit order) */
int rally2_units(const Scen *sc, const State *s, ActList *L) {
  int n = 0, army = s->play.army;
  for (int u = s->interrupt.rally_first + 1; u < sc->nunits; u++) {
    if (sc->unit[u].army != army || !on_map(s, u)) continue;
    if (s->units.flag[u] & (UF_MOVED | UF_ATTACKED | UF_RALLIED)) continue;
    if (!(s->units.flag[u] & UF_DISORDER)) continue;
    if (L) push(L, act_play(A_RALLY, CARD_NONE, u));
    n++;
  }
  return n;
}

void legal_rally2(const Scen *sc, const State *s, ActList *L) {
  push(L, act_kind(A_RALLY_DONE));
  rally2_units(sc, s, L);
}

void legal_over(const Scen *sc, const State *s, ActList *L) { (void)sc, (void)s, (void)L; }

