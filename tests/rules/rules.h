/* Helpers of the rule tests (tests/rules/chNN.c): the card and unit notes below say what the
 * tests use most.  Every expectation is derived from the rules and the scenario data. */
#ifndef WATERLOO_RULES_TEST_H
#define WATERLOO_RULES_TEST_H
/* The rules of docs/RULES.md, one or more tests per rule id (test names carry the
 * id: R_7_3_... tests ).  Every expectation is derived from the rules and the scenario
 * data (the .ini files of scenarios/), never copied from a run of the engine.
 *
 * Positions are built by hand on an empty board (tests/helpers.h): units placed on chosen
 * squares of the real map, hands set to named cards, the phase set to the one under test; then
 * the engine's own gs_legal / gs_apply are asked what is legal and what happens.
 *
 * Card indices follow cards.ini (F01..F26, B01..B19, P01..P10); the cards used most:
 *   F01 5/2 -  F02 5/3 -  F03 6/2 -  F04 4/4 -  F05 3/5 -  F07 2/2 command 2/1
 *   F10 3/2 artillery  F15 4/3 charge  F18 3/1 force-charge  F19 3/3 elite  F21 4/2 rally
 *   B01 5/3 -  B02 4/4 -  B04 4/5 -  B08 2/2 artillery  B10 2/2 command 1/4  B16 2/3 elite
 *   B19 3/2 health  P01 5/3 -  P02 4/3 -  P03 6/2 -
 * Units used most (units.ini): fr-1/I .. fr-4/I inf 3/2, fr-6/II inf 5/3, fr-og inf 3/2 elite,
 *   fr-c-jacq-1 cav 2/1 light, fr-gd-heavy cav 3/2 heavy, fr-gd-light cav 3/2 light,
 *   fr-9/II inf 4/2 (the rulebook's 4-BP "9/II"), br-3/I inf 4/2, br-5/R inf 5/3,
 *   br-6/R inf 3/2, br-1/I inf 2/1 elite, br-4/II inf 1/-, br-hougoumont inf 1/- elite,
 *   br-vivian cav 3/2 light, pr-13 inf 4/2.
 * Map squares used (map.ini): clear G5..K7, woods O6 P9 Q7 Q9 R8, village K4 M4 E2(MSJ), hill
 *   E8..I8, castles C7 (Hougoumont) F5 (La Haye Sainte) M5 (Frischermont), ridge on the south
 *   side of B4..J4, streams K4-K5 L4-L5 N10-O10, bridged stream M4-M5, ponds D2-E2 K5-L5,
 *   roads into E2 / F5. */
#include "../helpers.h"

/* a fresh empty board of a scenario (th_empty from seed); the caller frees sc */
#define SETUP_AT(scen, seed)         \
  Scen *sc = th_load(scen, "base");  \
  State s;                           \
  th_empty(sc, &s, seed)
#define SETUP(scen) SETUP_AT(scen, 1)
/* the same at turn t (in the long game from turn 3 the Prussians may be on the map) */
#define SETUP_TURN(scen, seed, t) \
  SETUP_AT(scen, seed);           \
  s.turn.number = t
/* the scenario's set-up position (gs_init from seed, stream 0) */
#define SETUP_INIT(scen, seed)       \
  Scen *sc = th_load(scen, "base");  \
  State s;                           \
  gs_init(sc, &s, seed, 0)


/* a position from its one-line text (engine/position.c), checked by gs_check */
static inline void th_position(const Scen *sc, State *s, const char *text) {
  char err[256];
  cr_assert_eq(position_parse(sc, text, s, err, sizeof err), 0, "%s", err);
}

/* apply one action given in notation (action_format); it must be legal */
static inline void th_do(const Scen *sc, State *s, const char *text) {
  char err[256];
  Action a;
  cr_assert_eq(action_parse(sc, s, text, &a, err, sizeof err), 0, "%s", err);
  gs_apply(sc, s, a);
}

/* play uniformly random legal actions to the end; calls f on every position */
static inline void random_game(const Scen *sc, State *s, uint64_t seed, void (*f)(const Scen *, const State *, void *)) {
  gs_init(sc, s, seed, seed);
  th_random_play(sc, s, seed, 99, f, NULL);
}

static inline void no_prussians(const Scen *sc, const State *s, void *arg) {
  (void)arg;
  cr_assert_eq(s->cards.hand & sc->army_cards[ARMY_PR], 0,
               "a Prussian card in hand in the short game");
  cr_assert_eq(s->cards.discard & sc->army_cards[ARMY_PR], 0);
  for (int u = 0; u < sc->nunits; u++)
    if (sc->unit[u].army == ARMY_PR)
      cr_assert_eq(s->units.sq[u], SQ_OFF, "a Prussian unit entered");
}

/* both sides pass until the turn changes (bids: none) */
static inline void pass_turn(const Scen *sc, State *s) {
  int t = s->turn.number;
  int guard = 0;
  while (!gs_over(s) && s->turn.number == t) {
    if (s->turn.phase == PH_BID) TH_DO(sc, s, A_BID, CARD_NONE, 0, 0);
    else {
      cr_assert_eq(s->turn.phase, PH_ROUND);
      cr_assert_eq(s->turn.ncards, 0);
      TH_DO(sc, s, A_END, 0, 0, 0);
    }
    cr_assert_lt(++guard, 10);
  }
}

/* a position at the bid of turn 2 with the given hands (everything else undrawn) */
static inline void bid_position(const Scen *sc, State *s, uint64_t hand) {
  gs_init(sc, s, 8, 0);
  pass_turn(sc, s);
  cr_assert_eq(s->turn.number, 2);
  cr_assert_eq(s->turn.phase, PH_BID);
  cr_assert_eq(s->turn.decider, FRENCH);
  s->cards.hand = hand;
  s->cards.discard = s->cards.seen = s->cards.pend = 0;
}

/* cards of an army with a given movement value */
static inline uint64_t cards_mp(const Scen *sc, int army, int mp) {
  uint64_t m = 0;
  for (int c = 0; c < sc->ncards; c++)
    if (sc->card[c].army == army && sc->card[c].mp == mp) m |= 1ull << c;
  return m;
}

/* a French round on a quiet board: fr-1/I at H10, one British unit far away */
static inline void quiet_round(const Scen *sc, State *s, const char *french_hand, const char *allied_hand) {
  th_empty(sc, s, 12);
  th_put(sc, s, "fr-1/I", "H10", DIR_N);
  th_put(sc, s, "br-3/I", "A1", DIR_S);
  th_give(sc, s, french_hand);
  if (allied_hand && *allied_hand) th_give(sc, s, allied_hand);
  th_round(s, FRENCH);
}

/* a quiet round (quiet_round, F01 and B01 in hand) of turn t after an Allied pass: the French
 * to decide, and an A_END ends the turn */
static inline void end_of_turn(const Scen *sc, State *s, int t) {
  quiet_round(sc, s, "F01", "B01");
  s->turn.number = (uint8_t)t;
  s->turn.last_pass = 1;
}

static inline void play_and_done(const Scen *sc, State *s, const char *card) {
  th_play_move(sc, s, card);
  TH_DO(sc, s, A_DONE, 0, 0, 0);
  th_skip_react(sc, s);
  cr_assert_eq(s->turn.phase, PH_ROUND);
}

/* MP spent by one step of an infantry unit from `from` across side d, or -1 if not allowed */
static inline int step_cost(const Scen *sc, const char *from, int d) {
  State s;
  th_empty(sc, &s, 1);
  int u = th_put(sc, &s, "fr-1/I", from, d);
  th_french_move(sc, &s, "F03"); /* 6 MP */
  if (!th_legal(sc, &s, A_STEP, u, d, d)) return -1;
  int to = sc->nb[th_sq(sc, from)][d];
  gs_apply(sc, &s, th_a(A_STEP, u, d, d));
  cr_assert_eq(s.units.sq[u], to);
  return 6 - s.play.mp;
}

/* infantry fr-1/I marches north from H7 toward British light cavalry at H4 facing south */
static inline void evasion_position(const Scen *sc, State *s, int *inf, int *cav) {
  th_empty(sc, s, 7);
  *inf = th_put(sc, s, "fr-1/I", "H7", DIR_N);
  *cav = th_put(sc, s, "br-vivian", "H4", DIR_S);
  th_french_move(sc, s, "F03");
  TH_DO(sc, s, A_STEP, *inf, DIR_N, DIR_N); /* H6: not adjacent */
  cr_assert_eq(s->turn.phase, PH_MOVE);
  TH_DO(sc, s, A_STEP, *inf, DIR_N, DIR_N); /* H5: adjacent */
}

/* br-3/I at H6 facing S, fr-1/I in front at H7, fr-2/I on its west flank at G6 */
static inline void fire_battle_position(const Scen *sc, State *s, int two) {
  th_empty(sc, s, 11);
  th_put(sc, s, "br-3/I", "H6", DIR_S);
  th_put(sc, s, "fr-1/I", "H7", DIR_N);
  if (two) th_put(sc, s, "fr-2/I", "G6", DIR_E);
  th_give(sc, s, "F05 B08 B09");
  th_declare_phase(s, FRENCH, ARMY_FR);
}

/* battle_seen_totals: while cards are chosen each side sees its own committed cards in the
 * totals and only the number of the other side's */
/* fr-1/I at H7 facing north may attack br-3/I at H6 (facing east: a flank attack); the French
 * to declare, with these cards in hand */
static inline void h6_flank_battle(const Scen *sc, State *s, const char *cards) {
  th_put(sc, s, "br-3/I", "H6", DIR_E);
  th_put(sc, s, "fr-1/I", "H7", DIR_N);
  th_give(sc, s, cards);
  th_declare_phase(s, FRENCH, ARMY_FR);
}

/* the French `att` at H7 facing north attacks `def` at H6 facing south from the front, each
 * side playing its battle cards (given to it first; NULL: none); def's index */
static inline int h6_battle(const Scen *sc, State *s, const char *att, const char *def,
                            const char *att_cards, const char *def_cards) {
  th_put(sc, s, att, "H7", DIR_N);
  int d = th_put(sc, s, def, "H6", DIR_S);
  if (att_cards) th_give(sc, s, att_cards);
  if (def_cards) th_give(sc, s, def_cards);
  th_declare_phase(s, FRENCH, ARMY_FR);
  th_battle(sc, s, th_sq(sc, "H6"), DB(DIR_S), att_cards, def_cards);
  return d;
}

/* Wellington's unit lost: the reduced br-3/I (2) at H6 with Wellington, attacked from the front
 * by fr-6/II (5) at H7, takes its loss and is eliminated (the rest of the board is the
 * caller's); the attacker's advance comes next */
static inline void wellington_loses_his_unit(const Scen *sc, State *s) {
  int d = th_put(sc, s, "br-3/I", "H6", DIR_S);
  s->units.flag[d] |= UF_REDUCED;
  th_put(sc, s, "fr-6/II", "H7", DIR_N);
  th_leader(sc, s, 1, "H6");
  th_declare_phase(s, FRENCH, ARMY_FR);
  th_battle(sc, s, th_sq(sc, "H6"), DB(DIR_S), NULL, NULL);
  TH_DO(sc, s, A_REDUCE, 0, 0, 0);
}

/* fr-6/II (5) at H7 attacks br-3/I (4) at H6 from the front, with French battle cards */
static inline void win_position(const Scen *sc, State *s, const char *fr_cards) {
  th_empty(sc, s, 13);
  h6_battle(sc, s, "fr-6/II", "br-3/I", fr_cards, NULL);
  cr_assert_eq(s->turn.phase, PH_B_LOSS);
  cr_assert_eq(s->turn.decider, ALLIED);
}

/* the rulebook's battle (section 9.7): br-3/I (4) at H4 facing south, Wellington next to it;
 * fr-4/I (3) on its east flank at I4, the 4-BP French cavalry in front at H5, both across a
 * ridge (H4-H5 is a ridge on the map; the flank ridge H4-I4 is added here) */
static inline Scen *example_scen(void) {
  char dir[64];
  th_tmpdir(dir, sizeof dir);
  th_edit(dir, "map.ini", "[places]", "ridge = H4-I4", TH_BEFORE);
  Scen *sc = th_load_dir(dir, "short", "base");
  th_rmdir(dir);
  int h4 = th_sq(sc, "H4");
  cr_assert(sc->edge[h4][DIR_E] & E_RIDGE);
  cr_assert(sc->edge[h4][DIR_S] & E_RIDGE);
  return sc;
}

static inline void example_position(const Scen *sc, State *s, const char *british) {
  th_empty(sc, s, 15);
  th_put(sc, s, "br-3/I", "H4", DIR_S);
  th_leader(sc, s, 1, "H3");
  th_put(sc, s, "fr-4/I", "I4", DIR_W);
  th_put(sc, s, "fr-9/II", "H5", DIR_N); /* "9/II Corps", 4 BP: Foy's infantry (units.ini) */
  th_give(sc, s, "F01 F04");
  th_give(sc, s, british);
  th_declare_phase(s, FRENCH, ARMY_FR);
}

/* fr-2/I (flank of br-3/I at J6 facing N) attacks with the command card F07, Napoleon at lsq */
static inline int command_total(const Scen *sc, const char *lsq) {
  State s;
  th_empty(sc, &s, 1);
  th_put(sc, &s, "br-3/I", "J6", DIR_N);
  th_put(sc, &s, "fr-2/I", "I6", DIR_E);
  th_leader(sc, &s, 0, lsq);
  th_give(sc, &s, "F07");
  th_declare_phase(&s, FRENCH, ARMY_FR);
  th_battle(sc, &s, th_sq(sc, "J6"), DB(DIR_W), "F07:c", NULL);
  return s.battle.att_total;
}

/* an empty board (seed): the French `att` at asq facing af, a second unit `def` (usually the
 * enemy) at dsq facing df, cards in hand, a French round; att's index */
static inline int duel_round(const Scen *sc, State *s, uint64_t seed, const char *att, const char *asq,
                             int af, const char *def, const char *dsq, int df, const char *cards) {
  th_empty(sc, s, seed);
  int u = th_put(sc, s, att, asq, af);
  th_put(sc, s, def, dsq, df);
  th_give(sc, s, cards);
  th_round(s, FRENCH);
  return u;
}

/* French cavalry `cav` at J9 facing north charges 2 squares at `def` on J6 with `facing` */
static inline void charge_position(const Scen *sc, State *s, const char *cav, const char *def, int facing,
                            const char *cards) {
  duel_round(sc, s, 17, cav, "J9", DIR_N, def, "J6", facing, cards);
}

/* fr-6/II (5, plus cards) attacks the defender of Hougoumont from C8 */
static inline void castle_position(const Scen *sc, State *s, const char *def, const char *cards, int cdp) {
  th_empty(sc, s, 19);
  th_put(sc, s, "fr-6/II", "C8", DIR_N);
  th_put(sc, s, def, "C7", DIR_S);
  s->turn.cdp[0] = (uint8_t)cdp;
  if (cards) th_give(sc, s, cards);
  th_declare_phase(s, FRENCH, ARMY_FR);
  th_battle(sc, s, th_sq(sc, "C7"), DB(DIR_S), cards, NULL);
  cr_assert_eq(s->turn.phase, PH_B_LOSS);
}

static inline int short_result(const Scen *sc, uint8_t owner) {
  State s;
  end_of_turn(sc, &s, 4);
  s.turn.owner = owner;
  gs_apply(sc, &s, th_a(A_END, 0, 0, 0));
  cr_assert(gs_over(&s));
  return s.score.result;
}

static inline int long_result(const Scen *sc, uint8_t owner, int fr_elim, int al_elim, int vp[2]) {
  State s;
  end_of_turn(sc, &s, 7);
  s.turn.owner = owner;
  s.score.elim_vp[FRENCH] = (uint16_t)fr_elim;
  s.score.elim_vp[ALLIED] = (uint16_t)al_elim;
  gs_score(sc, &s, vp);
  gs_apply(sc, &s, th_a(A_END, 0, 0, 0));
  cr_assert(gs_over(&s));
  return s.score.result;
}

#endif
