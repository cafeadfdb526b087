/* Rule tests of chapter 10: castles (docs/RULES.md, R-10.x): test names carry the rule id. */
#include "rules.h"

Test(rules, R_10_1_castle_costs_two_an_empty_castle_is_taken) {
  SETUP("short");
  int u = th_put(sc, &s, "fr-1/I", "C8", DIR_N);
  th_french_move(sc, &s, "F03");
  cr_assert_eq(s.turn.owner & (1u << V_HOUGOUMONT), 0);
  TH_DO(sc, &s, A_STEP, u, DIR_N, DIR_N);
  cr_assert_eq(s.play.mp, 4);
  cr_assert_eq(s.units.sq[u], th_sq(sc, "C7"));
  cr_assert(s.turn.owner & (1u << V_HOUGOUMONT));
  free(sc);
}

Test(rules, R_10_2_castle_infantry_doubles_no_flanks_cavalry_as_village) {
  Scen *sc = th_load("short", "base");
  char dir[64];
  th_tmpdir(dir, sizeof dir); /* a copy of the map with a hill at D7, next to Hougoumont */
  /*                                 A B C D E F G H I J K L M N O P Q R */
  th_edit(dir, "map.ini", "row7 ", "row7  =  . . C h . . . . . . . . . . . . w .", TH_REPLACE);
  Scen *hill = th_load_dir(dir, "short", "base");
  th_rmdir(dir);
  cr_assert_eq(hill->terrain[th_sq(sc, "D7")], T_HILL);
  State s;
  int a, d;
  th_empty(sc, &s, 1);
  th_put(sc, &s, "br-1/I", "C7", DIR_S);
  th_put(sc, &s, "fr-1/I", "D7", DIR_W); /* east side: a flank outside a castle */
  battle_base_totals(sc, &s, th_sq(sc, "C7"), DB(DIR_E), &a, &d);
  cr_assert_eq(a, 3, "no flanks in a castle");
  cr_assert_eq(d, 2 * 2);
  battle_base_totals(hill, &s, th_sq(sc, "C7"), DB(DIR_E), &a, &d);
  cr_assert_eq(d, 2 * 2, "an attacker on a hill does not cancel the castle");
  th_put(sc, &s, "fr-1/I", "C6", DIR_S); /* north side: the rear outside a castle */
  battle_base_totals(sc, &s, th_sq(sc, "C7"), DB(DIR_N), &a, &d);
  cr_assert_eq(a, 3, "no rear in a castle");
  /* cavalry in a castle: as in a village, flanks count */
  th_clear(sc, &s);
  th_put(sc, &s, "br-vivian", "C7", DIR_S);
  th_put(sc, &s, "fr-1/I", "D7", DIR_W);
  battle_base_totals(sc, &s, th_sq(sc, "C7"), DB(DIR_E), &a, &d);
  cr_assert_eq(a, 3 * 2);
  cr_assert_eq(d, 3 * 2);
  battle_base_totals(hill, &s, th_sq(sc, "C7"), DB(DIR_E), &a, &d);
  cr_assert_eq(d, 3, "village doubling is cancelled by an attacker on a hill");
  /* infantry in a castle may retreat across any side */
  th_clear(sc, &s);
  th_put(sc, &s, "br-1/I", "C7", DIR_S);
  th_put(sc, &s, "fr-6/II", "C6", DIR_S);
  s.turn.cdp[0] = 0;
  th_declare_phase(&s, FRENCH, ARMY_FR);
  th_battle(sc, &s, th_sq(sc, "C7"), DB(DIR_N), NULL, NULL); /* 5 vs 4 */
  cr_assert_eq(s.turn.phase, PH_B_LOSS);
  cr_assert(th_legal(sc, &s, A_RETREAT, th_sq(sc, "C8"), DIR_S, DIR_S), "its 'front' side too");
  cr_assert(th_legal(sc, &s, A_RETREAT, th_sq(sc, "B7"), DIR_S, DIR_S));
  cr_assert(th_legal(sc, &s, A_RETREAT, th_sq(sc, "D7"), DIR_S, DIR_S));
  free(hill);
  free(sc);
}

Test(rules, R_10_3_castle_points_taken_instead_of_reduction_or_retreat) {
  SETUP("short");
  int d = th_unit(sc, "br-1/I");
  castle_position(sc, &s, "br-1/I", NULL, 4); /* 5 vs 4 */
  TH_DO(sc, &s, A_CDP, 0, 0, 0);
  cr_assert_eq(s.turn.cdp[0], 3);
  cr_assert_eq(s.units.sq[d], th_sq(sc, "C7"));
  cr_assert_eq(s.units.flag[d] & UF_REDUCED, 0);
  cr_assert_neq(s.turn.phase, PH_B_LOSS);
  cr_assert_neq(s.turn.phase, PH_B_ADVANCE);
  /* more than double (10 vs 4): a point for the reduction and one for the retreat */
  castle_position(sc, &s, "br-1/I", "F05", 4);
  TH_DO(sc, &s, A_CDP, 0, 0, 0);
  cr_assert_eq(s.turn.phase, PH_B_LOSS);
  TH_DO(sc, &s, A_CDP, 0, 0, 0);
  cr_assert_eq(s.turn.cdp[0], 2);
  cr_assert_eq(s.units.sq[d], th_sq(sc, "C7"));
  cr_assert_eq(s.units.flag[d] & UF_REDUCED, 0);
  /* one point left: the second loss is suffered */
  castle_position(sc, &s, "br-1/I", "F05", 1);
  TH_DO(sc, &s, A_CDP, 0, 0, 0);
  cr_assert_eq(s.turn.cdp[0], 0);
  cr_assert(!th_legal(sc, &s, A_CDP, 0, 0, 0));
  TH_DO(sc, &s, A_RETREAT, th_sq(sc, "C6"), DIR_S, DIR_S);
  cr_assert_eq(s.units.sq[d], th_sq(sc, "C6"));
  /* no points: no choice */
  castle_position(sc, &s, "br-1/I", NULL, 0);
  cr_assert(!th_legal(sc, &s, A_CDP, 0, 0, 0));
  /* cavalry in a castle uses no points */
  castle_position(sc, &s, "br-household", "F05", 4); /* 10 vs 2 x 2 */
  cr_assert(!th_legal(sc, &s, A_CDP, 0, 0, 0));
  free(sc);
}

Test(rules, R_10_4_artillery_has_no_effect_on_a_castle) {
  SETUP("short");
  int f = duel_round(sc, &s, 1, "fr-1/I", "C8", DIR_N, "br-3/I", "C7", DIR_S, "F10");
  int d = th_unit(sc, "br-3/I");
  int k = th_card(sc, "F10");
  cr_assert(!th_legal(sc, &s, A_ARTY, k, f, 0));
  s.turn.cdp[0] = 0;
  cr_assert(!th_legal(sc, &s, A_ARTY, k, f, 0), "even with 0 CDP");
  s.units.sq[d] = th_sq(sc, "D7"); /* the same two units, no castle */
  s.units.sq[f] = th_sq(sc, "D8");
  gs_rebuild_occ(sc, &s);
  cr_assert(th_legal(sc, &s, A_ARTY, k, f, 0));
  free(sc);
}
