/* Internal interface of the rules (engine/board.c, legal.c, flow.c): not for the AI or the
 * front ends, which use engine.h.  The layers call downwards only: flow.c (phases, applying
 * actions, the phase table) uses legal.c (legal actions and the predicates "is there a
 * legal ..."), which uses board.c (board primitives, unit changes, battle arithmetic,
 * invariants). */
#ifndef WATERLOO_RULES_INT_H
#define WATERLOO_RULES_INT_H
#include "engine.h"

static inline int opp(int side) { return side ^ 1; }
static inline int facing(const State *s, int u) { return s->units.flag[u] & UF_FACING; }
static inline int on_map(const State *s, int u) { return s->units.sq[u] < NSQ; }
static inline int leader_of_army(int army) { return army == ARMY_FR ? 0 : army == ARMY_BR ? 1 : -1; }
static inline int leader_army(int l) { return l == 0 ? ARMY_FR : ARMY_BR; }

#define side_cards side_cards_mask

static inline int in_castle(const Scen *sc, const State *s, int u) {
  return sc->terrain[s->units.sq[u]] == T_CASTLE;
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

static inline int side_hand(const Scen *sc, const State *s, int side) {
  return __builtin_popcountll(s->cards.hand & side_cards(sc, side));
}

/* is there an enemy leader alone at sq (it blocks entry like a unit) */
static inline int enemy_leader_at(const State *s, int side, int sq) {
  return side == FRENCH ? s->units.leader[1] == sq : s->units.leader[0] == sq;
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

/* the side unit u fires across: fire.across of A_ARTY is 0 for the facing, 1 + side for
 * infantry in a castle, which has its front on all sides (R-9.1 ruling) */
static inline int fire_side(const State *s, int u, int across) {
  return across ? (across - 1) & 3 : facing(s, u);
}

/* No bound check: the longest list (every defender with every subset of 4 attackers, or
 * every card with every firing unit) stays far below MAX_ACTIONS with 56 units and 64 cards. */
static inline void push(ActList *L, Action a) { L->a[L->n++] = a; }

/* ---------------------------------------------------------------- board.c */
int under_limit(const Scen *sc, const State *s);
uint64_t round_cards(const Scen *sc, const State *s);
int leader_targets(const Scen *sc, const State *s, int l, uint8_t *out);
void reduce_unit(const Scen *sc, State *s, int u);
int retreat_dirs(const Scen *sc, const State *s, int u, int only_fr);
/* how a unit enters a square: what the arrival sets off depends on it */
enum { ENTER_MOVE, ENTER_CHARGE, ENTER_RETREAT, ENTER_ADVANCE, ENTER_EVADE };
void enter_square(const Scen *sc, State *s, int u, int sq, int f, int how);
int fire_target(const Scen *sc, const State *s, int u, int d);
int fire_codes(const Scen *sc, const State *s, int u, int battle_only);
void fire_at(const Scen *sc, State *s, int v);
int charge_target(const Scen *sc, const State *s, int c, int n);
int pos_of(const Scen *sc, const State *s, int def, int d);
void totals(const Scen *sc, const State *s, int *att, int *def);
int attackers_of(const Scen *sc, const State *s, int dsq, int army);

/* ---------------------------------------------------------------- legal.c */
int declare_possible(const Scen *sc, const State *s);
int fire_window(const Scen *sc, const State *s, int side, int battle_only);
int charge_battle_cards_ok(const Scen *sc, const State *s);
int advance_slots(const Scen *sc, const State *s);
void legal_round(const Scen *sc, const State *s, ActList *L);
void legal_move(const Scen *sc, const State *s, ActList *L);
void legal_declare(const Scen *sc, const State *s, ActList *L);
void legal_loss(const Scen *sc, const State *s, ActList *L);
void legal_evade(const Scen *sc, const State *s, ActList *L);
void legal_bid(const Scen *sc, const State *s, ActList *L);
void legal_leader(const Scen *sc, const State *s, ActList *L);
void legal_bfire(const Scen *sc, const State *s, ActList *L);
void legal_react(const Scen *sc, const State *s, ActList *L);
void legal_attcards(const Scen *sc, const State *s, ActList *L);
void legal_defcards(const Scen *sc, const State *s, ActList *L);
void legal_advance(const Scen *sc, const State *s, ActList *L);
void legal_attloss(const Scen *sc, const State *s, ActList *L);
int rally2_units(const Scen *sc, const State *s, ActList *L);
void legal_rally2(const Scen *sc, const State *s, ActList *L);
void legal_over(const Scen *sc, const State *s, ActList *L);

#endif
