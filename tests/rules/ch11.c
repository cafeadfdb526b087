/* Rule tests of chapter 11: leaders, reinforcements (docs/RULES.md, R-11.x): test names carry the rule id. */
#include "rules.h"

/* an empty board (seed) with Wellington at H4 and British units u1 at sq1 and u2 at sq2 (both
 * facing south): fr-1/I steps north from H6 to H5, next to Wellington */
static void step_next_to_wellington(const Scen *sc, State *s, uint64_t seed, const char *u1,
                                    const char *sq1, const char *u2, const char *sq2) {
  th_empty(sc, s, seed);
  int u = th_put(sc, s, "fr-1/I", "H6", DIR_N);
  th_leader(sc, s, 1, "H4");
  th_put(sc, s, u1, sq1, DIR_S);
  th_put(sc, s, u2, sq2, DIR_S);
  th_french_move(sc, s, "F01");
  TH_DO(sc, s, A_STEP, u, DIR_N, DIR_N);
}

Test(rules, R_11_1_lone_leader_moves_to_the_nearest_friendly_unit) {
  Scen *sc = th_load("short", "base");
  State s;
  step_next_to_wellington(sc, &s, 1, "br-3/I", "H2", "br-5/R", "L4"); /* 2 and 4 away */
  cr_assert_eq(s.units.leader[1], th_sq(sc, "H2"));
  cr_assert_eq(s.turn.phase, PH_MOVE);
  /* two at the same distance: the owner chooses */
  step_next_to_wellington(sc, &s, 2, "br-3/I", "H2", "br-5/R", "F4");
  cr_assert_eq(s.turn.phase, PH_LEADER);
  cr_assert_eq(s.turn.decider, ALLIED);
  cr_assert_eq(th_count(sc, &s, A_PLACE, -1), 2);
  cr_assert(th_legal(sc, &s, A_PLACE, th_sq(sc, "H2"), 0, 0));
  TH_DO(sc, &s, A_PLACE, th_sq(sc, "F4"), 0, 0);
  cr_assert_eq(s.units.leader[1], th_sq(sc, "F4"));
  cr_assert_eq(s.turn.phase, PH_MOVE);
  cr_assert_eq(s.turn.decider, FRENCH);
  /* not alone: stays */
  step_next_to_wellington(sc, &s, 3, "br-6/R", "H4", "br-3/I", "H2");
  cr_assert_eq(s.units.leader[1], th_sq(sc, "H4"));
  free(sc);
}

Test(rules, R_11_2_leader_goes_with_retreat_relocates_on_elimination_never_advances) {
  SETUP("short");
  win_position(sc, &s, NULL);
  cr_assert_eq(s.units.leader[1], th_sq(sc, "R1"));
  /* with Wellington in the defender's square */
  th_empty(sc, &s, 2);
  int d = th_put(sc, &s, "br-3/I", "H6", DIR_S);
  th_put(sc, &s, "fr-6/II", "H7", DIR_N);
  th_leader(sc, &s, 1, "H6");
  th_declare_phase(&s, FRENCH, ARMY_FR);
  th_battle(sc, &s, th_sq(sc, "H6"), DB(DIR_S), NULL, NULL);
  TH_DO(sc, &s, A_RETREAT, th_sq(sc, "H5"), DIR_S, DIR_S);
  cr_assert_eq(s.units.sq[d], th_sq(sc, "H5"));
  cr_assert_eq(s.units.leader[1], th_sq(sc, "H5"), "the leader goes with it");
  /* eliminated: to the nearest friendly unit; Napoleon stays behind the advance */
  th_empty(sc, &s, 3);
  int a = th_unit(sc, "fr-6/II");
  th_put(sc, &s, "br-5/R", "K6", DIR_S);  /* 3 away */
  th_put(sc, &s, "br-6/R", "H2", DIR_S);  /* 4 away */
  th_leader(sc, &s, 0, "H7");
  wellington_loses_his_unit(sc, &s);
  cr_assert_eq(s.units.sq[d], SQ_DEAD);
  cr_assert_eq(s.units.leader[1], th_sq(sc, "K6"), "never eliminated");
  cr_assert_eq(s.turn.phase, PH_B_ADVANCE);
  TH_DO(sc, &s, A_ADVANCE, DIR_S, DIR_N, 0);
  cr_assert_eq(s.units.sq[a], th_sq(sc, "H6"));
  cr_assert_eq(s.units.leader[0], th_sq(sc, "H7"), "leaders never advance");
  th_check(sc, &s);
  free(sc);
}

/* an Allied round of turn t with no Prussian entry square used yet: P01 (5 MP) is played for
 * movement, the Prussians' chance to enter */
static void prussian_card_in_turn(const Scen *sc, State *s, int t) {
  th_give(sc, s, "P01");
  s->turn.number = (uint8_t)t;
  s->turn.entry_sq = SQ_NONE;
  th_round(s, ALLIED);
  th_play_move(sc, s, "P01");
}

Test(rules, R_11_3_prussian_reinforcements_enter_by_turn_one_entry_square) {
  SETUP_AT("long", 1);
  int p13 = th_unit(sc, "pr-13"), p14 = th_unit(sc, "pr-14"), p5 = th_unit(sc, "pr-5");
  th_give(sc, &s, "P02 B01");
  /* turn 2: IV Corps not yet */
  prussian_card_in_turn(sc, &s, 2);
  cr_assert_eq(th_count(sc, &s, A_ENTER, -1), 0);
  /* turn 3: IV Corps on R8, R9 or R10, any facing; II Corps not yet */
  prussian_card_in_turn(sc, &s, 3);
  cr_assert_eq(th_count(sc, &s, A_ENTER, p13), 3 * 4);
  cr_assert_eq(th_count(sc, &s, A_ENTER, p5), 0);
  TH_DO(sc, &s, A_ENTER, p13, th_sq(sc, "R8"), DIR_W); /* woods, but 1 MP */
  cr_assert_eq(s.play.mp, 4);
  cr_assert_eq(s.units.sq[p13], th_sq(sc, "R8"));
  TH_DO(sc, &s, A_STEP, p13, DIR_W, DIR_W); /* Q8 woods: 2 */
  cr_assert_eq(s.play.mp, 2);
  cr_assert(th_legal(sc, &s, A_ENTER, p14, th_sq(sc, "R8"), DIR_N));
  cr_assert(!th_legal(sc, &s, A_ENTER, p14, th_sq(sc, "R9"), DIR_N), "the same entry square");
  /* a British card does not bring them on */
  th_round(&s, ALLIED);
  th_play_move(sc, &s, "B01");
  cr_assert_eq(th_count(sc, &s, A_ENTER, -1), 0);
  /* those that did not enter may enter later; II Corps from turn 6 */
  prussian_card_in_turn(sc, &s, 6);
  cr_assert_gt(th_count(sc, &s, A_ENTER, p14), 0);
  cr_assert_gt(th_count(sc, &s, A_ENTER, p5), 0);
  /* the variant with the Prussians a turn early: IV Corps on turn 2 */
  Scen *early = th_load("long", "prussians-early");
  th_empty(early, &s, 1);
  prussian_card_in_turn(early, &s, 2);
  cr_assert_gt(th_count(early, &s, A_ENTER, p13), 0);
  free(early);
  free(sc);
}

Test(rules, R_11_1_leader_displaced_by_an_advance_too) {
  SETUP("short");
  th_put(sc, &s, "fr-6/II", "H7", DIR_N);
  th_put(sc, &s, "br-4/II", "H6", DIR_S);  /* 1 BP: eliminated */
  th_leader(sc, &s, 1, "H5");              /* alone, next to H6 */
  th_put(sc, &s, "br-3/I", "H2", DIR_S);
  th_declare_phase(&s, FRENCH, ARMY_FR);
  th_battle(sc, &s, th_sq(sc, "H6"), DB(DIR_S), NULL, NULL);
  TH_DO(sc, &s, A_REDUCE, 0, 0, 0);
  cr_assert_eq(s.units.leader[1], th_sq(sc, "H5"));
  TH_DO(sc, &s, A_ADVANCE, DIR_S, DIR_N, 0);
  cr_assert_eq(s.units.leader[1], th_sq(sc, "H2"), "moved to the nearest British unit");
  th_check(sc, &s);
  free(sc);
}

/* ruling R-11.1 (docs/RULINGS.md): a displaced Wellington goes to the nearest British unit,
 * though a Prussian unit is nearer; to a Prussian unit only when no British unit is left */
Test(rules, R_11_1_displaced_wellington_goes_to_a_british_unit_not_a_nearer_prussian) {
  Scen *sc = th_load("long", "base");
  State s;
  th_position(sc, &s, "long base board=empty turn=3 wellington=H4 units=fr-1/I=H6:N,"
                      "br-3/I=A1:S,pr-13=H2:S hand=F01");
  th_do(sc, &s, "play F01 move");
  th_do(sc, &s, "move fr-1/I H5");
  cr_assert_eq(s.units.leader[1], th_sq(sc, "A1"), "10 away, the Prussian at H2 is 2 away");
  /* the same without the British unit: the Prussian unit */
  th_position(sc, &s, "long base board=empty turn=3 wellington=H4 units=fr-1/I=H6:N,"
                      "pr-13=H2:S hand=F01");
  th_do(sc, &s, "play F01 move");
  th_do(sc, &s, "move fr-1/I H5");
  cr_assert_eq(s.units.leader[1], th_sq(sc, "H2"));
  /* Wellington stacked with a Prussian unit is not alone: he stays */
  th_position(sc, &s, "long base board=empty turn=3 wellington=H4 units=fr-1/I=H6:N,"
                      "pr-13=H4:S,br-3/I=A1:S hand=F01");
  th_do(sc, &s, "play F01 move");
  th_do(sc, &s, "move fr-1/I H5");
  cr_assert_eq(s.units.leader[1], th_sq(sc, "H4"));
  free(sc);
}

/* R-11.3 with R-6.8 and R-6.3: after a cavalry evasion the infantry that caused it may take one
 * more step, but nothing bars the other units: another Prussian unit may still enter with the
 * card's MP, which ends the infantry's move as any other unit's move would */
Test(rules, R_11_3_a_unit_may_enter_after_an_evasion) {
  Scen *sc = th_load("long", "base");
  State s;
  th_position(sc, &s, "long base board=empty turn=3 phase=round decider=1 active=1 napoleon=A12 "
                      "wellington=R1 units=pr-13=N9:W,fr-c-jacq-1=L9:E,fr-1/I=A13:N hand=P03");
  int inf = th_unit(sc, "pr-13"), enter = th_unit(sc, "pr-14");
  th_do(sc, &s, "play P03 move");
  cr_assert(th_legal(sc, &s, A_ENTER, enter, th_sq(sc, "R9"), DIR_W));
  th_do(sc, &s, "move pr-13 M9 W");
  cr_assert_eq(s.turn.phase, PH_EVADE, "the French cavalry on L9 may evade");
  th_do(sc, &s, "evade fr-c-jacq-1 K9 E");
  cr_assert_eq(s.turn.phase, PH_MOVE);
  cr_assert(th_legal(sc, &s, A_STEP, inf, DIR_W, DIR_W), "the one more step");
  cr_assert(th_legal(sc, &s, A_ENTER, enter, th_sq(sc, "R9"), DIR_W), "%s", th_legal_text(sc, &s));
  TH_DO(sc, &s, A_ENTER, enter, th_sq(sc, "R9"), DIR_W);
  cr_assert_eq(s.units.sq[enter], th_sq(sc, "R9"));
  cr_assert(!th_legal(sc, &s, A_STEP, inf, DIR_W, DIR_W), "pr-13's move has ended");
  th_check(sc, &s);
  free(sc);
}
