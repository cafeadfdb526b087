/* Rule tests of chapter 12: victory (docs/RULES.md, R-12.x): test names carry the rule id. */
#include "rules.h"

Test(rules, R_12_1_short_game_french_need_three_castles_or_two_and_mont_st_jean) {
  Scen *sc = th_load("short", "base");
  uint8_t H = 1u << V_HOUGOUMONT, L = 1u << V_LHS, F = 1u << V_FRISCHERMONT, M = 1u << V_MSJ;
  cr_assert_eq(short_result(sc, H | L | F), 1);
  cr_assert_eq(short_result(sc, H | L | M), 1);
  cr_assert_eq(short_result(sc, H | F | M), 1);
  cr_assert_eq(short_result(sc, L | F | M), 1);
  cr_assert_eq(short_result(sc, H | L | F | M), 1);
  cr_assert_eq(short_result(sc, H | L), 2);
  cr_assert_eq(short_result(sc, H | M), 2);
  cr_assert_eq(short_result(sc, M), 2);
  cr_assert_eq(short_result(sc, 0), 2, "no draw: the Allies win");
  free(sc);
}

Test(rules, R_12_2_long_game_victory_points) {
  Scen *sc = th_load("long", "base");
  int vp[2];
  uint8_t M = 1u << V_MSJ, H = 1u << V_HOUGOUMONT, L = 1u << V_LHS, F = 1u << V_FRISCHERMONT;
  uint8_t P = (1u << V_PLANC1) | (1u << V_PLANC2) | (1u << V_PLANC3);
  /* French: MSJ 15 + LHS 5 = 20; Allies: Hougoumont 10 + Plancenoit 3 x 2 = 16, plus 4 */
  cr_assert_eq(long_result(sc, M | L, 0, 4, vp), 3, "equal VP: a draw");
  cr_assert_eq(vp[FRENCH], 20);
  cr_assert_eq(vp[ALLIED], 20);
  cr_assert_eq(long_result(sc, M | L, 0, 5, vp), 2);
  cr_assert_eq(long_result(sc, M | L, 1, 4, vp), 1);
  cr_assert_eq(long_result(sc, M | L | F, 0, 4, vp), 3, "Frischermont counts for nothing");
  /* everything French: 15 + 5 + 5 + 0; Allies 0 */
  long_result(sc, M | H | L | P, 0, 0, vp);
  cr_assert_eq(vp[FRENCH], 25);
  cr_assert_eq(vp[ALLIED], 0);
  /* nothing French: Allies 0 + 10 + 5 + 6 */
  long_result(sc, 0, 7, 0, vp);
  cr_assert_eq(vp[FRENCH], 7);
  cr_assert_eq(vp[ALLIED], 21);
  free(sc);
}

Test(rules, R_12_3_holder_changes_when_an_enemy_unit_enters) {
  SETUP("short");
  uint8_t L = 1u << V_LHS;
  int f = th_put(sc, &s, "fr-1/I", "F6", DIR_N);
  int b = th_put(sc, &s, "br-3/I", "F3", DIR_S);
  th_give(sc, &s, "F01 B01");
  th_round(&s, FRENCH);
  th_play_move(sc, &s, "F01");
  TH_DO(sc, &s, A_STEP, f, DIR_N, DIR_N); /* into La Haye Sainte */
  cr_assert(s.turn.owner & L);
  TH_DO(sc, &s, A_STEP, f, DIR_E, DIR_N); /* out again: still French */
  cr_assert(s.turn.owner & L);
  th_round(&s, ALLIED);
  th_play_move(sc, &s, "B01");
  TH_DO(sc, &s, A_STEP, b, DIR_S, DIR_S); /* F4 */
  TH_DO(sc, &s, A_STEP, b, DIR_S, DIR_S); /* F5 */
  cr_assert_eq(s.turn.owner & L, 0);
  /* by advance: Hougoumont */
  th_empty(sc, &s, 2);
  th_put(sc, &s, "fr-6/II", "C8", DIR_N);
  th_put(sc, &s, "br-4/II", "C7", DIR_S);
  s.turn.cdp[0] = 0;
  th_declare_phase(&s, FRENCH, ARMY_FR);
  th_battle(sc, &s, th_sq(sc, "C7"), DB(DIR_S), NULL, NULL);
  TH_DO(sc, &s, A_REDUCE, 0, 0, 0);
  cr_assert_eq(s.turn.owner & (1u << V_HOUGOUMONT), 0);
  TH_DO(sc, &s, A_ADVANCE, DIR_S, DIR_N, 0);
  cr_assert(s.turn.owner & (1u << V_HOUGOUMONT));
  /* by retreat: Mont St. Jean, French-held, retaken by a retreating British unit */
  th_empty(sc, &s, 3);
  s.turn.owner = 1u << V_MSJ;
  th_put(sc, &s, "br-3/I", "E3", DIR_S);
  th_put(sc, &s, "fr-6/II", "E4", DIR_N);
  th_declare_phase(&s, FRENCH, ARMY_FR);
  th_battle(sc, &s, th_sq(sc, "E3"), DB(DIR_S), NULL, NULL);
  TH_DO(sc, &s, A_RETREAT, th_sq(sc, "E2"), DIR_S, DIR_S);
  cr_assert_eq(s.turn.owner & (1u << V_MSJ), 0);
  free(sc);
}

/* ================================================================ more cases */

/* The ruling of for built positions (docs/RULINGS.md): a unit on a victory square moved
 * into it, so its side holds it.  A position text without owner= takes the holder from the
 * units standing on the squares; an owner= that gives such a square to the other side is
 * refused with the square and the rule named; every reachable position keeps it (gs_check). */
Test(rules, R_12_3_a_unit_on_a_victory_square_holds_it_in_a_built_position) {
  Scen *sc = th_load("long", "base");
  State s;
  char err[300];
  const char *lhs = "long base board=empty turn=7 units=fr-1/I=F5:N,br-3/I=E2:S";
  cr_assert_eq(position_parse(sc, lhs, &s, err, sizeof err), 0, "%s", err);
  cr_assert(s.turn.owner & (1u << V_LHS), "the French unit on La Haye Sainte holds it");
  cr_assert_eq(s.turn.owner & (1u << V_MSJ), 0, "the British unit on Mont St. Jean holds it");
  int vp[2];
  gs_score(sc, &s, vp);
  cr_assert_eq(vp[FRENCH], 5, "La Haye Sainte's 5 VP score for its holder");
  /* owner= gives the markers, an empty square's too */
  cr_assert_eq(position_parse(sc, "long base board=empty owner=6 units=fr-1/I=F5:N", &s, err, sizeof err), 0,
               "%s", err);
  cr_assert_eq(s.turn.owner, (1u << V_HOUGOUMONT) | (1u << V_LHS));
  /* a marker that contradicts the unit on the square is refused */
  cr_assert_eq(position_parse(sc, "long base board=empty owner=0 units=fr-1/I=F5:N", &s, err, sizeof err), -1);
  cr_assert(strstr(err, "F5") && strstr(err, "R-12.3") && strstr(err, "fr-1/I"), "%s", err);
  cr_assert_eq(position_parse(sc, "long base board=empty owner=1 units=br-3/I=E2:S", &s, err, sizeof err), -1);
  cr_assert(strstr(err, "E2") && strstr(err, "Allies") == NULL && strstr(err, "French"), "%s", err);
  /* the invariant of every reachable position */
  cr_assert_eq(position_parse(sc, lhs, &s, err, sizeof err), 0, "%s", err);
  s.turn.owner &= (uint8_t) ~(1u << V_LHS);
  cr_assert_eq(gs_check(sc, &s, err, sizeof err), -1);
  free(sc);
}
