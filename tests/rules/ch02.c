/* Rule tests of chapter 2: pieces (docs/RULES.md, R-2.x): test names carry the rule id. */
#include "rules.h"

Test(rules, R_2_1_units_are_infantry_or_cavalry_only_cavalry_charges) {
  SETUP("short");
  int kinds[3][2] = {{0}};
  for (int u = 0; u < sc->nunits; u++) {
    cr_assert(sc->unit[u].kind == K_INF || sc->unit[u].kind == K_CAV);
    kinds[sc->unit[u].army][sc->unit[u].kind]++;
  }
  for (int a = 0; a < 3; a++) cr_assert(kinds[a][K_INF] && kinds[a][K_CAV]);
  /* an infantry unit two squares from an enemy flank cannot charge; a cavalry unit can */
  int inf = duel_round(sc, &s, 1, "fr-1/I", "J9", DIR_N, "br-3/I", "J6", DIR_E, "F15");
  cr_assert_eq(th_count(sc, &s, A_CHARGE, -1), 0);
  s.units.sq[inf] = SQ_DEAD;
  int cav = th_put(sc, &s, "fr-gd-heavy", "J9", DIR_N);
  cr_assert(th_legal(sc, &s, A_CHARGE, th_card(sc, "F15"), cav, 2));
  free(sc);
}

Test(rules, R_2_2_full_reduced_sides_one_bp_unit_has_none) {
  SETUP("short");
  for (int u = 0; u < sc->nunits; u++) {
    if (sc->unit[u].bp_full == 1) cr_assert_eq(sc->unit[u].bp_red, 0);
    cr_assert_lt(sc->unit[u].bp_red, sc->unit[u].bp_full);
  }
  /* a full 4/2 unit loses a battle and takes the reduction: it shows its reduced value */
  int d = h6_battle(sc, &s, "fr-6/II", "br-3/I", NULL, NULL); /* 5 vs 4 */
  cr_assert_eq(s.turn.phase, PH_B_LOSS);
  TH_DO(sc, &s, A_REDUCE, 0, 0, 0);
  cr_assert(s.units.flag[d] & UF_REDUCED);
  cr_assert_eq(unit_bp(sc, &s, d), 2);
  cr_assert_eq(s.units.sq[d], th_sq(sc, "H6"));
  /* the one-sided 1-BP unit is eliminated by its first reduction */
  th_empty(sc, &s, 2);
  int one = h6_battle(sc, &s, "fr-1/I", "br-4/II", NULL, NULL); /* 3 vs 1: more than double */
  cr_assert_eq(s.turn.phase, PH_B_LOSS);
  TH_DO(sc, &s, A_REDUCE, 0, 0, 0);
  cr_assert_eq(s.units.sq[one], SQ_DEAD);
  free(sc);
}

Test(rules, R_2_3_elite_only_french_british_prussian_cavalry_light) {
  Scen *sc = th_load("long", "base");
  int elite[3] = {0, 0, 0};
  for (int u = 0; u < sc->nunits; u++) {
    const UnitDef *d = &sc->unit[u];
    elite[d->army] += d->elite;
    if (d->army == ARMY_PR) cr_assert(!d->elite && !d->heavy, "%s", d->name);
    if (d->kind == K_INF) cr_assert(!d->heavy);
  }
  cr_assert(elite[ARMY_FR] > 0 && elite[ARMY_BR] > 0);
  cr_assert_eq(elite[ARMY_PR], 0);
  /* heavy and light cavalry: a heavy charge triples, a light one doubles (against a flank) */
  State s;
  int res[2];
  const char *cav[2] = {"fr-gd-heavy", "fr-gd-light"}; /* both 3 BP: heavy, light */
  for (int k = 0; k < 2; k++) {
    int c = duel_round(sc, &s, 4, cav[k], "J9", DIR_N, "br-6/R", "J6", DIR_E, "F15");
    TH_DO(sc, &s, A_CHARGE, th_card(sc, "F15"), c, 2);
    res[k] = s.battle.att_total;
  }
  cr_assert_eq(res[0], 3 * 3 * 2, "heavy: 3 x 3 (charge) x 2 (flank)");
  cr_assert_eq(res[1], 3 * 2 * 2, "light: 3 x 2 (charge) x 2 (flank)");
  free(sc);
}

Test(rules, R_2_4_facing_front_flanks_rear) {
  SETUP("short");
  /* a 4-BP defender facing north on clear ground, a 3-BP attacker on each side in turn */
  th_put(sc, &s, "br-3/I", "I6", DIR_N);
  const char *from[4] = {"I5", "J6", "I7", "H6"};
  int expect[4] = {3, 6, 9, 6}; /* front, flank, rear, flank */
  for (int d = 0; d < 4; d++) {
    int u = th_put(sc, &s, "fr-1/I", from[d], (d + 2) & 3);
    int a, df;
    battle_base_totals(sc, &s, th_sq(sc, "I6"), DB(d), &a, &df);
    cr_assert_eq(a, expect[d], "attacker from side %c", "NESW"[d]);
    cr_assert_eq(df, 4);
    /* it may attack only while its front is the defender's square */
    th_declare_phase(&s, FRENCH, ARMY_FR);
    cr_assert(th_legal(sc, &s, A_DECLARE, th_sq(sc, "I6"), DB(d), 0));
    s.units.flag[u] = (uint8_t)((s.units.flag[u] & ~UF_FACING) | (unsigned)d); /* facing away */
    cr_assert(!th_legal(sc, &s, A_DECLARE, th_sq(sc, "I6"), DB(d), 0));
    s.units.sq[u] = SQ_DEAD;
    gs_rebuild_occ(sc, &s);
  }
  free(sc);
}

Test(rules, R_2_5_two_leaders_no_prussian_leader) {
  SETUP_INIT("long", 1);
  cr_assert_eq(s.units.leader[0], th_sq(sc, "G8"));
  cr_assert_eq(s.units.leader[1], th_sq(sc, "F4"));
  th_clear(sc, &s);
  s.turn.number = 3;
  th_leader(sc, &s, 0, "K7");
  th_leader(sc, &s, 1, "H2");
  th_give(sc, &s, "F01 B01 P01");
  /* a French card moves Napoleon, a British card Wellington, a Prussian card no leader */
  th_round(&s, FRENCH);
  th_play_move(sc, &s, "F01");
  cr_assert_eq(th_count(sc, &s, A_LEAD, -1), 4);
  TH_DO(sc, &s, A_LEAD, 0, DIR_N, 0);
  cr_assert_eq(s.units.leader[0], th_sq(sc, "K6"));
  th_round(&s, ALLIED);
  th_play_move(sc, &s, "B01");
  cr_assert_eq(th_count(sc, &s, A_LEAD, -1), 4);
  th_round(&s, ALLIED);
  th_play_move(sc, &s, "P01");
  cr_assert_eq(th_count(sc, &s, A_LEAD, -1), 0);
  free(sc);
}

Test(rules, R_2_6_markers_moved_rallied_disordered_attacked_cdp_owner) {
  SETUP("short");
  int a = th_put(sc, &s, "fr-1/I", "H8", DIR_N);
  int d = th_put(sc, &s, "br-3/I", "H6", DIR_S);
  int r = th_put(sc, &s, "fr-2/I", "K9", DIR_N);
  s.units.flag[r] |= UF_DISORDER;
  th_give(sc, &s, "F01 F21 F10");
  th_round(&s, FRENCH);
  /* rallied */
  TH_DO(sc, &s, A_RALLY, th_card(sc, "F21"), r, 0);
  if (s.turn.phase == PH_RALLY2) TH_DO(sc, &s, A_RALLY_DONE, 0, 0, 0);
  cr_assert(s.units.flag[r] & UF_RALLIED);
  cr_assert(!(s.units.flag[r] & UF_DISORDER));
  th_skip_react(sc, &s);
  /* moved */
  th_play_move(sc, &s, "F01");
  TH_DO(sc, &s, A_STEP, a, DIR_N, DIR_N);
  cr_assert(s.units.flag[a] & UF_MOVED);
  TH_DO(sc, &s, A_DONE, 0, 0, 0);
  /* attacked */
  cr_assert_eq(s.turn.phase, PH_DECLARE);
  th_battle(sc, &s, th_sq(sc, "H6"), DB(DIR_S), NULL, NULL);
  cr_assert(s.units.flag[a] & UF_ATTACKED);
  th_skip_react(sc, &s);
  /* disordered */
  TH_DO(sc, &s, A_ARTY, th_card(sc, "F10"), a, 0);
  cr_assert(s.units.flag[d] & UF_DISORDER);
  /* castle points and ownership are state too */
  cr_assert_eq(s.turn.cdp[0], 4);
  cr_assert_eq(s.turn.owner, 0);
  free(sc);
}
