/* Rule tests of chapter 8: battle effects (docs/RULES.md, R-8.x): test names carry the rule id. */
#include "rules.h"

Test(rules, R_8_1_reduce_flips_a_reduced_unit_is_eliminated) {
  SETUP("short");
  int d = th_put(sc, &s, "br-3/I", "H6", DIR_S);
  th_put(sc, &s, "fr-6/II", "H7", DIR_N);
  s.units.flag[d] |= UF_REDUCED;
  th_declare_phase(&s, FRENCH, ARMY_FR);
  th_battle(sc, &s, th_sq(sc, "H6"), DB(DIR_S), NULL, NULL);
  cr_assert_eq(s.battle.def_total, 2, "the reduced side");
  TH_DO(sc, &s, A_REDUCE, 0, 0, 0);
  cr_assert_eq(s.units.sq[d], SQ_DEAD);
  cr_assert_eq(unit_at(sc, &s, th_sq(sc, "H6")), UNIT_NONE);
  cr_assert_eq(unit_bp(sc, &s, d), 0);
  th_check(sc, &s);
  free(sc);
}

Test(rules, R_8_2_eliminated_units_score_their_full_bp) {
  SETUP_AT("long", 4);
  int d = th_put(sc, &s, "br-3/I", "H6", DIR_S);
  th_put(sc, &s, "fr-6/II", "H7", DIR_N);
  s.units.flag[d] |= UF_REDUCED;
  int before[2], after[2];
  gs_score(sc, &s, before);
  th_declare_phase(&s, FRENCH, ARMY_FR);
  th_battle(sc, &s, th_sq(sc, "H6"), DB(DIR_S), NULL, NULL);
  TH_DO(sc, &s, A_REDUCE, 0, 0, 0);
  cr_assert_eq(s.units.sq[d], SQ_DEAD);
  cr_assert_eq(s.score.elim_vp[FRENCH], 4, "full BP 4, though it died reduced");
  cr_assert_eq(s.score.elim_vp[ALLIED], 0);
  gs_score(sc, &s, after);
  cr_assert_eq(after[FRENCH] - before[FRENCH], 4);
  cr_assert_eq(after[ALLIED], before[ALLIED]);
  /* a reduction that does not eliminate scores nothing */
  th_empty(sc, &s, 4);
  d = h6_battle(sc, &s, "fr-6/II", "br-3/I", NULL, NULL);
  TH_DO(sc, &s, A_REDUCE, 0, 0, 0);
  cr_assert_eq(s.score.elim_vp[FRENCH], 0);
  free(sc);
}

Test(rules, R_8_3_disorder_blocks_attack_fire_charge_but_not_move_or_defence) {
  SETUP("short");
  int f = duel_round(sc, &s, 1, "fr-1/I", "H7", DIR_N, "br-3/I", "H6", DIR_S, "F10 F11 B01 B08");
  int d = th_unit(sc, "br-3/I");
  TH_DO(sc, &s, A_ARTY, th_card(sc, "F10"), f, 0);
  cr_assert(s.units.flag[d] & UF_DISORDER);
  cr_assert_eq(s.units.flag[d] & UF_REDUCED, 0);
  /* it still defends */
  cr_assert_eq(s.turn.phase, PH_DECLARE);
  cr_assert(th_legal(sc, &s, A_DECLARE, th_sq(sc, "H6"), DB(DIR_S), 0));
  /* it may not attack or fire, it may move */
  th_declare_phase(&s, ALLIED, ARMY_BR);
  cr_assert(!th_legal(sc, &s, A_DECLARE, th_sq(sc, "H7"), DB(DIR_N), 0));
  th_round(&s, ALLIED);
  cr_assert(!th_legal(sc, &s, A_ARTY, th_card(sc, "B08"), d, 0));
  th_play_move(sc, &s, "B01");
  cr_assert(th_legal(sc, &s, A_TURN, d, DIR_E, 0));
  s.units.flag[d] &= (uint8_t)~UF_DISORDER;
  th_declare_phase(&s, ALLIED, ARMY_BR);
  cr_assert(th_legal(sc, &s, A_DECLARE, th_sq(sc, "H7"), DB(DIR_N), 0), "not disordered: it may");
  /* disorder on a disordered unit: reduced, disorder gone */
  s.units.flag[d] |= UF_DISORDER;
  th_round(&s, FRENCH);
  TH_DO(sc, &s, A_ARTY, th_card(sc, "F11"), f, 0);
  cr_assert(s.units.flag[d] & UF_REDUCED);
  cr_assert_eq(s.units.flag[d] & UF_DISORDER, 0);
  /* a disordered cavalry unit may not charge */
  int c = duel_round(sc, &s, 2, "fr-gd-heavy", "J9", DIR_N, "br-3/I", "J6", DIR_E, "F15");
  cr_assert(th_legal(sc, &s, A_CHARGE, th_card(sc, "F15"), c, 2));
  s.units.flag[c] |= UF_DISORDER;
  cr_assert(!th_legal(sc, &s, A_CHARGE, th_card(sc, "F15"), c, 2));
  free(sc);
}

Test(rules, R_8_4_artillery_fire_never_eliminates) {
  SETUP("short");
  int f = th_put(sc, &s, "fr-1/I", "H7", DIR_N);
  int one = th_put(sc, &s, "br-4/II", "H6", DIR_S); /* no reduced side */
  th_give(sc, &s, "F10");
  th_round(&s, FRENCH);
  int c = th_card(sc, "F10");
  cr_assert(th_legal(sc, &s, A_ARTY, c, f, 0), "a first fire disorders it");
  s.units.flag[one] |= UF_DISORDER;
  cr_assert(!th_legal(sc, &s, A_ARTY, c, f, 0), "a second could only eliminate it");
  s.units.sq[one] = SQ_DEAD;
  int r = th_put(sc, &s, "br-3/I", "H6", DIR_S);
  s.units.flag[r] |= UF_REDUCED | UF_DISORDER;
  cr_assert(!th_legal(sc, &s, A_ARTY, c, f, 0), "a reduced disordered unit neither");
  s.units.flag[r] &= (uint8_t)~UF_DISORDER;
  cr_assert(th_legal(sc, &s, A_ARTY, c, f, 0));
  free(sc);
}

Test(rules, R_8_5_retreat_flank_or_rear_front_only_if_attacked_from_flanks_rear) {
  SETUP("short");
  /* attacked from the front: flanks and rear, any facing */
  win_position(sc, &s, NULL);
  int d = th_unit(sc, "br-3/I");
  cr_assert_eq(th_count(sc, &s, A_RETREAT, -1), 3 * 4);
  cr_assert(th_legal(sc, &s, A_RETREAT, th_sq(sc, "G6"), DIR_W, DIR_W));
  cr_assert(th_legal(sc, &s, A_RETREAT, th_sq(sc, "I6"), DIR_N, DIR_N));
  cr_assert(th_legal(sc, &s, A_RETREAT, th_sq(sc, "H5"), DIR_E, DIR_E));
  TH_DO(sc, &s, A_RETREAT, th_sq(sc, "I6"), DIR_E, DIR_E);
  cr_assert_eq(s.units.sq[d], th_sq(sc, "I6"));
  cr_assert_eq(s.units.flag[d] & UF_FACING, DIR_E, "any facing for free");
  /* attacked only from a flank: the front too; a friendly leader's square is empty, an enemy
   * leader's is not */
  th_empty(sc, &s, 2);
  d = th_put(sc, &s, "br-3/I", "H6", DIR_S);
  th_put(sc, &s, "fr-6/II", "G6", DIR_E);
  th_leader(sc, &s, 1, "H5");
  th_leader(sc, &s, 0, "I6");
  th_declare_phase(&s, FRENCH, ARMY_FR);
  th_battle(sc, &s, th_sq(sc, "H6"), DB(DIR_W), NULL, NULL); /* 10 vs 4: reduce and retreat */
  TH_DO(sc, &s, A_REDUCE, 0, 0, 0);
  cr_assert(th_legal(sc, &s, A_RETREAT, th_sq(sc, "H7"), DIR_S, DIR_S), "front allowed");
  cr_assert(th_legal(sc, &s, A_RETREAT, th_sq(sc, "H5"), DIR_S, DIR_S), "Wellington's square");
  cr_assert(!th_legal(sc, &s, A_RETREAT, th_sq(sc, "I6"), DIR_S, DIR_S), "Napoleon's square");
  cr_assert_eq(th_count(sc, &s, A_RETREAT, -1), 2 * 4);
  TH_DO(sc, &s, A_RETREAT, th_sq(sc, "H5"), DIR_S, DIR_S);
  cr_assert_eq(s.units.leader[1], th_sq(sc, "H5"));
  /* not across a pond: L5 with the pond on its west side (K5-L5) */
  th_empty(sc, &s, 3);
  th_put(sc, &s, "br-3/I", "L5", DIR_E);
  th_put(sc, &s, "fr-6/II", "M5", DIR_W); /* from Frischermont */
  th_declare_phase(&s, FRENCH, ARMY_FR);
  th_battle(sc, &s, th_sq(sc, "L5"), DB(DIR_E), NULL, NULL);
  cr_assert(!th_legal(sc, &s, A_RETREAT, th_sq(sc, "K5"), DIR_N, DIR_N));
  cr_assert(th_legal(sc, &s, A_RETREAT, th_sq(sc, "L4"), DIR_N, DIR_N));
  cr_assert(th_legal(sc, &s, A_RETREAT, th_sq(sc, "L6"), DIR_N, DIR_N));
  free(sc);
}

Test(rules, R_8_6_no_retreat_possible_reduce_instead) {
  SETUP("short");
  for (int big = 0; big < 2; big++) {
    th_empty(sc, &s, 5);
    int d = th_put(sc, &s, "br-3/I", "H6", DIR_S);
    th_put(sc, &s, "fr-6/II", "H7", DIR_N);
    th_put(sc, &s, "fr-1/I", "G6", DIR_N);
    th_put(sc, &s, "fr-2/I", "I6", DIR_N);
    th_put(sc, &s, "fr-3/I", "H5", DIR_N);
    th_give(sc, &s, "F05");
    th_declare_phase(&s, FRENCH, ARMY_FR);
    th_battle(sc, &s, th_sq(sc, "H6"), DB(DIR_S), big ? "F05" : "", NULL);
    ActList L;
    gs_legal(sc, &s, &L);
    cr_assert_eq(L.n, 1);
    cr_assert_eq(L.a[0].t, A_REDUCE);
    TH_DO(sc, &s, A_REDUCE, 0, 0, 0);
    cr_assert(s.units.flag[d] & UF_REDUCED);
    if (big) {
      /* reduced, then it cannot retreat: reduced again, eliminated */
      cr_assert_eq(s.turn.phase, PH_B_LOSS);
      gs_legal(sc, &s, &L);
      cr_assert_eq(L.n, 1);
      cr_assert_eq(L.a[0].t, A_REDUCE);
      TH_DO(sc, &s, A_REDUCE, 0, 0, 0);
      cr_assert_eq(s.units.sq[d], SQ_DEAD);
    } else {
      cr_assert_eq(s.units.sq[d], th_sq(sc, "H6"));
    }
  }
  free(sc);
}
