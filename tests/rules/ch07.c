/* Rule tests of chapter 7: battles (docs/RULES.md, R-7.x): test names carry the rule id. */
#include "rules.h"

Test(rules, R_7_1_attackers_adjacent_facing_fit_at_most_four) {
  SETUP("short");
  int dsq = th_sq(sc, "H6");
  th_put(sc, &s, "br-3/I", "H6", DIR_S);
  th_put(sc, &s, "fr-1/I", "H7", DIR_N);            /* S side, facing it      */
  th_put(sc, &s, "fr-2/I", "G6", DIR_E);            /* W side, facing it      */
  int c = th_put(sc, &s, "fr-3/I", "I6", DIR_N);    /* E side, facing away    */
  int d = th_put(sc, &s, "fr-4/I", "H5", DIR_S);    /* N side, but disordered */
  s.units.flag[d] |= UF_DISORDER;
  th_declare_phase(&s, FRENCH, ARMY_FR);
  cr_assert_eq(th_count(sc, &s, A_DECLARE, dsq), 3, "%s", th_legal_text(sc, &s));
  cr_assert(th_legal(sc, &s, A_DECLARE, dsq, DB(DIR_S), 0));
  cr_assert(th_legal(sc, &s, A_DECLARE, dsq, DB(DIR_W), 0));
  cr_assert(th_legal(sc, &s, A_DECLARE, dsq, DB(DIR_S) | DB(DIR_W), 0));
  /* all four sides */
  s.units.flag[c] = DIR_W;
  s.units.flag[d] = DIR_S;
  cr_assert_eq(th_count(sc, &s, A_DECLARE, dsq), 15);
  cr_assert(th_legal(sc, &s, A_DECLARE, dsq, 15, 0));
  /* rallied or already attacked: out */
  s.units.flag[c] |= UF_RALLIED;
  s.units.flag[d] |= UF_ATTACKED;
  cr_assert_eq(th_count(sc, &s, A_DECLARE, dsq), 3);
  /* the limit of 4 attackers is the max_attackers parameter: with 3, no 4-unit attack */
  char dir[64];
  th_tmpdir(dir, sizeof dir);
  th_write(dir, "variants/max3.ini", "[variant]\ndescription = three attackers\n[params]\nmax_attackers = 3\n");
  Scen *p3 = th_load_dir(dir, "short", "max3");
  th_rmdir(dir);
  cr_assert_eq(p3->p.max_attackers, 3);
  s.units.flag[c] = DIR_W;
  s.units.flag[d] = DIR_S;
  cr_assert(!th_legal(p3, &s, A_DECLARE, dsq, 15, 0));
  cr_assert_eq(th_count(p3, &s, A_DECLARE, dsq), 14);
  free(p3);
  free(sc);
}

Test(rules, R_7_1_attack_after_moving_once_per_round) {
  SETUP("short");
  duel_round(sc, &s, 1, "br-3/I", "H6", DIR_S, "fr-2/I", "G7", DIR_N, "F01 F02");
  int u = th_unit(sc, "fr-2/I");
  th_play_move(sc, &s, "F01");
  TH_DO(sc, &s, A_STEP, u, DIR_N, DIR_N);
  TH_DO(sc, &s, A_TURN, u, DIR_E, 0);
  TH_DO(sc, &s, A_DONE, 0, 0, 0);
  cr_assert_eq(s.turn.phase, PH_DECLARE);
  th_battle(sc, &s, th_sq(sc, "H6"), DB(DIR_W), NULL, NULL); /* 6 vs 4: flank */
  cr_assert_eq(s.battle.att_total, 6);
  TH_DO(sc, &s, A_REDUCE, 0, 0, 0);
  th_skip_react(sc, &s);
  cr_assert_eq(s.turn.phase, PH_ROUND);
  /* a second card: the unit has attacked this round */
  th_play_move(sc, &s, "F02");
  TH_DO(sc, &s, A_DONE, 0, 0, 0);
  cr_assert_neq(s.turn.phase, PH_DECLARE);
  free(sc);
}

Test(rules, R_7_1_british_and_prussian_units_never_attack_together) {
  SETUP_TURN("long", 5, 3);
  th_put(sc, &s, "fr-1/I", "I5", DIR_S);
  th_put(sc, &s, "br-3/I", "H5", DIR_E);
  th_put(sc, &s, "br-5/R", "I4", DIR_S);
  th_put(sc, &s, "pr-13", "J5", DIR_W);
  int dsq = th_sq(sc, "I5");
  for (int army = ARMY_BR; army <= ARMY_PR; army++) {
    th_declare_phase(&s, ALLIED, army);
    ActList L;
    gs_legal(sc, &s, &L);
    for (int i = 0; i < L.n; i++) {
      if (L.a[i].t != A_DECLARE) continue;
      for (int d = 0; d < 4; d++)
        if (L.a[i].declare.dirs & DB(d))
          cr_assert_eq(sc->unit[unit_at(sc, &s, sc->nb[dsq][d])].army, army);
    }
  }
  free(sc);
}

Test(rules, R_7_2_defender_fires_before_reveal_attacker_drops_out) {
  SETUP("short");
  int a = th_unit(sc, "fr-1/I"), d = th_unit(sc, "br-3/I");
  fire_battle_position(sc, &s, 1);
  TH_DO(sc, &s, A_DECLARE, th_sq(sc, "H6"), DB(DIR_S) | DB(DIR_W), 0);
  cr_assert_eq(s.turn.phase, PH_B_FIRE);
  cr_assert_eq(s.turn.decider, ALLIED);
  TH_DO(sc, &s, A_ARTY, th_card(sc, "B08"), d, 0);
  cr_assert(s.units.flag[a] & UF_DISORDER);
  cr_assert_eq(s.battle.att[DIR_S], UNIT_NONE, "the disordered attacker drops out");
  cr_assert_eq(s.turn.phase, PH_B_ATTCARDS);
  th_bcards(sc, &s, "F05");
  th_bcards(sc, &s, "");
  cr_assert_eq(s.battle.att_total, 3 * 2 + 5, "only fr-2/I (flank) and the card");
  cr_assert_eq(s.battle.def_total, 4);
  /* a lone attacker disordered: the battle is off */
  fire_battle_position(sc, &s, 0);
  TH_DO(sc, &s, A_DECLARE, th_sq(sc, "H6"), DB(DIR_S), 0);
  TH_DO(sc, &s, A_ARTY, th_card(sc, "B08"), d, 0);
  cr_assert_eq(s.battle.def_unit, UNIT_NONE);
  for (int k = 0; k < 4; k++) cr_assert_eq(s.battle.att[k], UNIT_NONE);
  cr_assert_eq(s.units.flag[a] & UF_INBATTLE, 0);
  cr_assert(s.cards.hand & th_bit(sc, "F05"), "no battle card was played");
  cr_assert_eq(s.cards.pend, 0);
  cr_assert_eq(s.units.flag[d] & UF_REDUCED, 0);
  cr_assert(s.turn.phase == PH_REACT || s.turn.phase == PH_ROUND);
  free(sc);
}

Test(rules, R_7_2_each_side_sees_its_own_committed_cards_only) {
  SETUP("short");
  h6_flank_battle(sc, &s, "F01 F02 B01 B02");
  int a, d, h;
  cr_assert_eq(battle_seen_totals(sc, &s, FRENCH, &a, &d, &h), -1, "no battle yet");
  TH_DO(sc, &s, A_DECLARE, th_sq(sc, "H6"), DB(DIR_S), 0);
  cr_assert_eq(s.turn.phase, PH_B_ATTCARDS);
  TH_DO(sc, &s, A_BCARD, th_card(sc, "F01"), BP_POINTS, 0);
  TH_DO(sc, &s, A_BDONE, 0, 0, 0);
  cr_assert_eq(s.turn.phase, PH_B_DEFCARDS);
  TH_DO(sc, &s, A_BCARD, th_card(sc, "B01"), BP_POINTS, 0);
  cr_assert_eq(battle_seen_totals(sc, &s, FRENCH, &a, &d, &h), 0);
  cr_assert(a == 3 * 2 + 2 && d == 4 && h == 1, "French view %d %d %d", a, d, h);
  cr_assert_eq(battle_seen_totals(sc, &s, ALLIED, &a, &d, &h), 0);
  cr_assert(a == 3 * 2 && d == 4 + 3 && h == 1, "Allied view %d %d %d", a, d, h);
  battle_base_totals(sc, &s, th_sq(sc, "H6"), DB(DIR_S), &a, &d);
  cr_assert(a == 6 && d == 4, "base %d %d", a, d);
  TH_DO(sc, &s, A_BDONE, 0, 0, 0);
  cr_assert(s.battle.att_total == 8 && s.battle.def_total == 7,
            "both views add up to the revealed totals");
  free(sc);
}

Test(rules, R_7_2_attacker_cards_count_against_the_limit_defender_unlimited) {
  SETUP("short");
  h6_flank_battle(sc, &s, "F01 F02 F04 F05 F06 B01 B02 B03 B04 B05 B06 B07");
  s.turn.ncards = 4;
  TH_DO(sc, &s, A_DECLARE, th_sq(sc, "H6"), DB(DIR_S), 0);
  cr_assert_eq(s.turn.phase, PH_B_ATTCARDS);
  TH_DO(sc, &s, A_BCARD, th_card(sc, "F01"), BP_POINTS, 0);
  cr_assert_eq(s.turn.ncards, 5);
  ActList L;
  gs_legal(sc, &s, &L);
  cr_assert_eq(L.n, 1, "the fifth card was the last");
  cr_assert_eq(L.a[0].t, A_BDONE);
  TH_DO(sc, &s, A_BDONE, 0, 0, 0);
  /* the defender plays six */
  th_bcards(sc, &s, "B01 B02 B03 B04 B05 B06");
  cr_assert_eq(s.battle.def_total, 4 + 3 + 4 + 3 + 5 + 3 + 3);
  cr_assert_eq(s.battle.att_total, 3 * 2 + 2, "a flank attack (the defender faces east) + F01");
  /* cards are secret until the reveal: the other side does not see them committed */
  cr_assert_eq(s.cards.pend, 0);
  cr_assert(s.cards.seen & th_bit(sc, "B06"), "revealed after the battle");
  /* at the limit already: no attack cards at all */
  th_declare_phase(&s, FRENCH, ARMY_FR);
  s.turn.ncards = 5;
  s.units.flag[th_unit(sc, "fr-1/I")] &= (uint8_t)~UF_ATTACKED;
  TH_DO(sc, &s, A_DECLARE, th_sq(sc, "H6"), DB(DIR_S), 0);
  cr_assert_eq(s.turn.phase, PH_B_DEFCARDS);
  free(sc);
}

Test(rules, R_7_3_attacker_total_flank_elite_ridge) {
  SETUP("short");
  th_put(sc, &s, "br-2/II", "H4", DIR_W);
  th_put(sc, &s, "fr-og", "H5", DIR_N); /* across the ridge H4-H5, on the defender's flank */
  th_give(sc, &s, "F05 F19");
  th_declare_phase(&s, FRENCH, ARMY_FR);
  int a, d;
  battle_base_totals(sc, &s, th_sq(sc, "H4"), DB(DIR_S), &a, &d);
  cr_assert_eq(a, 3 * 2 - 1);
  cr_assert_eq(d, 4);
  th_battle(sc, &s, th_sq(sc, "H4"), DB(DIR_S), "F05 F19:e", NULL);
  cr_assert_eq(s.battle.att_total, 3 * 2 * 2 - 1 + 5, "3 x 2 elite x 2 flank - 1 ridge + card 5");
  cr_assert_eq(s.battle.def_total, 4);
  free(sc);
}

/* the battle panels' reasons name exactly the modifiers the totals apply (before cards) */
Test(rules, R_7_3_battle_reasons_name_the_flank_ridge_and_terrain) {
  SETUP("short");
  th_put(sc, &s, "br-2/II", "H4", DIR_W);
  th_put(sc, &s, "fr-og", "H5", DIR_N); /* across the ridge H4-H5, on the defender's flank */
  th_declare_phase(&s, FRENCH, ARMY_FR);
  char why[4][64], defwhy[64];
  battle_reasons(sc, &s, th_sq(sc, "H4"), DB(DIR_S), why, defwhy);
  cr_assert_str_eq(why[DIR_S], "x2 flank, -1 ridge");
  cr_assert_str_eq(why[DIR_N], "");
  cr_assert_str_eq(defwhy, "", "H4 is clear: the defender counts as printed");
  /* a defender in a village doubles (R-7.4) and says so */
  th_put(sc, &s, "br-3/I", "K4", DIR_S);
  th_put(sc, &s, "fr-1/I", "K5", DIR_N);
  int a, d;
  battle_base_totals(sc, &s, th_sq(sc, "K4"), DB(DIR_S), &a, &d);
  battle_reasons(sc, &s, th_sq(sc, "K4"), DB(DIR_S), why, defwhy);
  cr_assert_str_eq(defwhy, "x2 village");
  cr_assert_eq(d, 2 * unit_bp(sc, &s, th_unit(sc, "br-3/I")));
  free(sc);
}

Test(rules, R_7_3_rear_and_command_per_unit_near_the_leader) {
  SETUP("short");
  th_put(sc, &s, "br-3/I", "J6", DIR_N);
  th_put(sc, &s, "fr-1/I", "J7", DIR_N); /* rear */
  th_put(sc, &s, "fr-2/I", "I6", DIR_E); /* flank, next to Napoleon */
  th_leader(sc, &s, 0, "H6");
  th_give(sc, &s, "F05 F07");
  th_declare_phase(&s, FRENCH, ARMY_FR);
  th_battle(sc, &s, th_sq(sc, "J6"), DB(DIR_S) | DB(DIR_W), "F05 F07:c", NULL);
  cr_assert_eq(s.battle.att_total, 3 * 3 + (3 * 2 + 2) + 5, "rear 9, flank 6 + command 2, card 5");
  cr_assert_eq(s.battle.def_total, 4);
  free(sc);
}

Test(rules, R_7_3_stream_minus_one_after_command) {
  SETUP("short");
  th_put(sc, &s, "br-3/I", "L4", DIR_S);
  th_put(sc, &s, "fr-1/I", "L5", DIR_N); /* across the stream L5-L4, in front */
  th_leader(sc, &s, 0, "L6");
  th_give(sc, &s, "F05 F07");
  th_declare_phase(&s, FRENCH, ARMY_FR);
  th_battle(sc, &s, th_sq(sc, "L4"), DB(DIR_S), "F05 F07:c", NULL);
  cr_assert_eq(s.battle.att_total, 3 + 2 - 1 + 5);
  /* docs/RULINGS.md R-7.3: a stream crossed at a bridge (M5-M4) gives no -1 */
  th_empty(sc, &s, 2);
  th_put(sc, &s, "br-3/I", "M4", DIR_S);
  th_put(sc, &s, "fr-1/I", "M5", DIR_N);
  int a, d;
  battle_base_totals(sc, &s, th_sq(sc, "M4"), DB(DIR_S), &a, &d);
  cr_assert_eq(a, 3);
  free(sc);
}

Test(rules, R_7_4_defender_terrain_doubles_unless_an_attacker_is_on_a_hill) {
  SETUP("short");
  struct { const char *def, *att; int mult; } t[] = {
      {"H6", "H7", 1}, {"O6", "O7", 2}, {"M4", "M5", 2}, {"F8", "F9", 2}, {"E2", "E3", 2}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    th_clear(sc, &s);
    th_put(sc, &s, "br-3/I", t[i].def, DIR_S);
    th_put(sc, &s, "fr-1/I", t[i].att, DIR_N);
    int a, d;
    battle_base_totals(sc, &s, th_sq(sc, t[i].def), DB(DIR_S), &a, &d);
    cr_assert_eq(d, 4 * t[i].mult, "defender at %s", t[i].def);
    cr_assert_eq(a, 3);
  }
  /* an attacker on a hill (E8) cancels the defender's hill (F8) */
  th_clear(sc, &s);
  th_put(sc, &s, "br-3/I", "F8", DIR_S);
  th_put(sc, &s, "fr-1/I", "F9", DIR_N);
  th_put(sc, &s, "fr-2/I", "E8", DIR_E);
  int a, d;
  battle_base_totals(sc, &s, th_sq(sc, "F8"), DB(DIR_S) | DB(DIR_W), &a, &d);
  cr_assert_eq(d, 4);
  cr_assert_eq(a, 3 + 6);
  battle_base_totals(sc, &s, th_sq(sc, "F8"), DB(DIR_S), &a, &d);
  cr_assert_eq(d, 8, "only the attackers in the battle count");
  free(sc);
}

Test(rules, R_7_4_defender_elite_command_and_cards) {
  SETUP("short");
  int a = th_put(sc, &s, "fr-1/I", "K5", DIR_N);
  th_put(sc, &s, "br-1/I", "K4", DIR_S); /* elite 2 in the village of Papelotte */
  th_leader(sc, &s, 1, "K3");
  th_give(sc, &s, "B01 B10 B16");
  th_declare_phase(&s, FRENCH, ARMY_FR);
  th_battle(sc, &s, th_sq(sc, "K4"), DB(DIR_S), NULL, "B01 B10:c B16:e");
  cr_assert_eq(s.battle.def_total, 2 * 2 * 2 + 4 + 3,
               "2 x 2 elite x 2 village + Wellington 4 + card 3");
  cr_assert_eq(s.battle.att_total, 3 - 1, "across the Smohain brook (K5-K4)");
  cr_assert(s.units.flag[a] & UF_REDUCED, "15 > 2 x 2: the attacker is reduced (R-7.7)");
  free(sc);
}

Test(rules, R_7_5_a_tie_goes_to_the_defender) {
  SETUP("short");
  int d = h6_battle(sc, &s, "fr-1/I", "br-6/R", NULL, NULL);
  int a = th_unit(sc, "fr-1/I");
  cr_assert_eq(s.battle.att_total, 3);
  cr_assert_eq(s.battle.def_total, 3);
  cr_assert_neq(s.turn.phase, PH_B_LOSS);
  cr_assert_eq(s.units.sq[d], th_sq(sc, "H6"));
  cr_assert_eq(s.units.flag[d] & UF_REDUCED, 0);
  cr_assert_eq(s.units.flag[a] & UF_REDUCED, 0);
  /* with cards: 3 + 5 against 3 + 5 */
  th_empty(sc, &s, 2);
  d = h6_battle(sc, &s, "fr-1/I", "br-6/R", "F05", "B04");
  cr_assert_eq(s.battle.att_total, 8);
  cr_assert_eq(s.battle.def_total, 8);
  cr_assert_neq(s.turn.phase, PH_B_LOSS);
  cr_assert_eq(s.units.flag[d] & UF_REDUCED, 0);
  free(sc);
}

Test(rules, R_7_6_attacker_wins_defender_chooses_reduce_or_retreat) {
  SETUP("short");
  int a = th_unit(sc, "fr-6/II"), d = th_unit(sc, "br-3/I");
  win_position(sc, &s, NULL); /* 5 vs 4 */
  cr_assert(th_legal(sc, &s, A_REDUCE, 0, 0, 0));
  cr_assert(th_legal(sc, &s, A_RETREAT, th_sq(sc, "H5"), DIR_N, DIR_N));
  TH_DO(sc, &s, A_REDUCE, 0, 0, 0);
  cr_assert(s.units.flag[d] & UF_REDUCED);
  cr_assert_eq(s.units.sq[d], th_sq(sc, "H6"), "reduced and stays");
  cr_assert_neq(s.turn.phase, PH_B_ADVANCE);
  cr_assert_eq(s.units.sq[a], th_sq(sc, "H7"));
  /* exactly double (8 vs 4) is not more than double: still a choice */
  win_position(sc, &s, "F02");
  cr_assert_eq(s.battle.att_total, 8);
  cr_assert(th_legal(sc, &s, A_RETREAT, th_sq(sc, "H5"), DIR_N, DIR_N));
  cr_assert(th_legal(sc, &s, A_REDUCE, 0, 0, 0));
  free(sc);
}

Test(rules, R_7_6_more_than_double_reduce_and_retreat_then_advance) {
  SETUP("short");
  int a = th_unit(sc, "fr-6/II"), d = th_unit(sc, "br-3/I");
  win_position(sc, &s, "F05"); /* 10 vs 4 */
  cr_assert(!th_legal(sc, &s, A_RETREAT, th_sq(sc, "H5"), DIR_N, DIR_N), "first the reduction");
  TH_DO(sc, &s, A_REDUCE, 0, 0, 0);
  cr_assert(s.units.flag[d] & UF_REDUCED);
  cr_assert_eq(s.turn.phase, PH_B_LOSS, "and then the retreat");
  cr_assert(!th_legal(sc, &s, A_REDUCE, 0, 0, 0));
  TH_DO(sc, &s, A_RETREAT, th_sq(sc, "H5"), DIR_W, DIR_W);
  cr_assert_eq(s.units.sq[d], th_sq(sc, "H5"));
  /* the square is empty: the attacker must advance, any facing, not marked moved */
  cr_assert_eq(s.turn.phase, PH_B_ADVANCE);
  cr_assert_eq(s.turn.decider, FRENCH);
  cr_assert_eq(th_count(sc, &s, A_ADVANCE, -1), 4);
  TH_DO(sc, &s, A_ADVANCE, DIR_S, DIR_E, 0);
  cr_assert_eq(s.units.sq[a], th_sq(sc, "H6"));
  cr_assert_eq(s.units.flag[a] & UF_FACING, DIR_E);
  cr_assert_eq(s.units.flag[a] & UF_MOVED, 0, "advancing is not movement");
  /* a moved unit may advance */
  win_position(sc, &s, "F05");
  s.units.flag[a] |= UF_MOVED;
  TH_DO(sc, &s, A_REDUCE, 0, 0, 0);
  TH_DO(sc, &s, A_RETREAT, th_sq(sc, "G6"), DIR_N, DIR_N);
  TH_DO(sc, &s, A_ADVANCE, DIR_S, DIR_N, 0);
  cr_assert_eq(s.units.sq[a], th_sq(sc, "H6"));
  free(sc);
}

Test(rules, R_7_6_elite_bonus_unit_must_be_the_one_to_advance) {
  SETUP("short");
  for (int elite = 0; elite < 2; elite++) {
    th_empty(sc, &s, 3);
    th_put(sc, &s, "br-3/I", "H6", DIR_S);
    th_put(sc, &s, "fr-1/I", "H7", DIR_N);
    int g = th_put(sc, &s, "fr-og", "G6", DIR_E);
    th_give(sc, &s, "F05 F19");
    th_declare_phase(&s, FRENCH, ARMY_FR);
    th_battle(sc, &s, th_sq(sc, "H6"), DB(DIR_S) | DB(DIR_W), elite ? "F05 F19:e" : "F05", NULL);
    cr_assert_eq(s.battle.att_total, elite ? 3 + 3 * 2 * 2 + 5 : 3 + 3 * 2 + 5);
    TH_DO(sc, &s, A_REDUCE, 0, 0, 0);
    TH_DO(sc, &s, A_RETREAT, th_sq(sc, "H5"), DIR_S, DIR_S);
    cr_assert_eq(s.turn.phase, PH_B_ADVANCE);
    cr_assert(th_legal(sc, &s, A_ADVANCE, DIR_W, DIR_N, 0));
    cr_assert_eq(th_legal(sc, &s, A_ADVANCE, DIR_S, DIR_N, 0), !elite,
                 "%s", elite ? "the elite unit that got the bonus advances" : "any attacker");
    TH_DO(sc, &s, A_ADVANCE, DIR_W, DIR_N, 0);
    cr_assert_eq(s.units.sq[g], th_sq(sc, "H6"));
  }
  free(sc);
}

Test(rules, R_7_6_elimination_vacates_the_square_attacker_advances) {
  SETUP("short");
  int d = h6_battle(sc, &s, "fr-1/I", "br-4/II", NULL, NULL); /* 1 BP, one-sided: 3 vs 1 */
  int a = th_unit(sc, "fr-1/I");
  TH_DO(sc, &s, A_REDUCE, 0, 0, 0);
  cr_assert_eq(s.units.sq[d], SQ_DEAD);
  cr_assert_eq(s.turn.phase, PH_B_ADVANCE);
  TH_DO(sc, &s, A_ADVANCE, DIR_S, DIR_N, 0);
  cr_assert_eq(s.units.sq[a], th_sq(sc, "H6"));
  free(sc);
}

Test(rules, R_7_7_attacker_loses_reduced_only_if_more_than_double) {
  SETUP("short");
  /* 3 vs 4: nothing happens, and the defender does not advance */
  int d = h6_battle(sc, &s, "fr-1/I", "br-3/I", NULL, NULL);
  int a = th_unit(sc, "fr-1/I");
  cr_assert_eq(s.units.flag[a] & UF_REDUCED, 0);
  cr_assert_eq(s.units.flag[d] & UF_REDUCED, 0);
  cr_assert_eq(s.units.sq[a], th_sq(sc, "H7"));
  cr_assert_eq(s.units.sq[d], th_sq(sc, "H6"));
  cr_assert(s.turn.phase == PH_ROUND || s.turn.phase == PH_REACT);
  /* 2 vs 8 (woods): the attacker is reduced */
  th_empty(sc, &s, 2);
  int c = th_put(sc, &s, "fr-c-jacq-1", "O7", DIR_N);
  d = th_put(sc, &s, "br-3/I", "O6", DIR_S);
  th_declare_phase(&s, FRENCH, ARMY_FR);
  th_battle(sc, &s, th_sq(sc, "O6"), DB(DIR_S), NULL, NULL);
  cr_assert_eq(s.battle.def_total, 8);
  cr_assert(s.units.flag[c] & UF_REDUCED);
  cr_assert_eq(unit_bp(sc, &s, c), 1);
  cr_assert_eq(s.units.sq[d], th_sq(sc, "O6"));
  /* the highest printed BP is reduced, not the others */
  th_empty(sc, &s, 3);
  a = th_put(sc, &s, "fr-1/I", "O7", DIR_N);   /* 3, front  */
  c = th_put(sc, &s, "fr-c-jacq-1", "N6", DIR_E); /* 2, flank: 4 */
  th_put(sc, &s, "br-3/I", "O6", DIR_S);
  th_give(sc, &s, "B04 B02");
  th_declare_phase(&s, FRENCH, ARMY_FR);
  th_battle(sc, &s, th_sq(sc, "O6"), DB(DIR_S) | DB(DIR_W), NULL, "B02 B04"); /* 7 vs 17 */
  cr_assert_eq(s.battle.att_total, 7);
  cr_assert_eq(s.battle.def_total, 17);
  cr_assert(s.units.flag[a] & UF_REDUCED);
  cr_assert_eq(s.units.flag[c] & UF_REDUCED, 0);
  free(sc);
}

Test(rules, R_7_7_attacker_picks_among_tied_highest) {
  SETUP("short");
  int a = th_put(sc, &s, "fr-1/I", "N6", DIR_E);
  int b = th_put(sc, &s, "fr-2/I", "P6", DIR_W);
  s.units.flag[a] |= UF_REDUCED;
  s.units.flag[b] |= UF_REDUCED;
  th_put(sc, &s, "br-3/I", "O6", DIR_S);
  th_give(sc, &s, "B04 B02");
  th_declare_phase(&s, FRENCH, ARMY_FR);
  th_battle(sc, &s, th_sq(sc, "O6"), DB(DIR_E) | DB(DIR_W), NULL, "B02 B04");
  cr_assert_eq(s.battle.att_total, 2 * 2 + 2 * 2);
  cr_assert_eq(s.battle.def_total, 4 * 2 + 4 + 5);
  cr_assert_eq(s.turn.phase, PH_B_ATTLOSS);
  cr_assert_eq(s.turn.decider, FRENCH);
  cr_assert_eq(th_count(sc, &s, A_LOSE, -1), 2);
  TH_DO(sc, &s, A_LOSE, DIR_W, 0, 0);
  cr_assert_eq(s.units.sq[a], SQ_DEAD);
  cr_assert_eq(s.units.sq[b], th_sq(sc, "P6"));
  free(sc);
}

Test(rules, R_7_8_worked_example_14_against_11_british_retreat_north) {
  Scen *sc = example_scen();
  State s;
  example_position(sc, &s, "B01 B10");
  int d = th_unit(sc, "br-3/I");
  int h4 = th_sq(sc, "H4");
  int a, df;
  battle_base_totals(sc, &s, h4, DB(DIR_S) | DB(DIR_E), &a, &df);
  cr_assert_eq(a, 3 * 2 - 1 + 4 - 1, "3 x 2 - 1 + 4 - 1 = 8");
  cr_assert_eq(df, 4);
  th_battle(sc, &s, h4, DB(DIR_S) | DB(DIR_E), "F01 F04", "B01 B10:c");
  cr_assert_eq(s.battle.att_total, 14);
  cr_assert_eq(s.battle.def_total, 11);
  cr_assert_eq(s.turn.phase, PH_B_LOSS, "14 > 11, not more than double: the British choose");
  cr_assert(th_legal(sc, &s, A_REDUCE, 0, 0, 0));
  cr_assert(!th_legal(sc, &s, A_RETREAT, th_sq(sc, "H5"), DIR_N, DIR_N));
  TH_DO(sc, &s, A_RETREAT, th_sq(sc, "H3"), DIR_S, DIR_S);
  cr_assert_eq(s.units.sq[d], th_sq(sc, "H3"), "north, into Wellington's square");
  cr_assert_eq(s.units.flag[d] & UF_REDUCED, 0);
  cr_assert_eq(s.turn.phase, PH_B_ADVANCE);
  th_check(sc, &s);
  free(sc);
}

Test(rules, R_7_8_worked_example_artillery_makes_it_11_all_defender_wins) {
  Scen *sc = example_scen();
  State s;
  example_position(sc, &s, "B01 B08 B10");
  int d = th_unit(sc, "br-3/I"), cav = th_unit(sc, "fr-9/II");
  int h4 = th_sq(sc, "H4");
  TH_DO(sc, &s, A_DECLARE, h4, DB(DIR_S) | DB(DIR_E), 0);
  cr_assert_eq(s.turn.phase, PH_B_FIRE);
  TH_DO(sc, &s, A_ARTY, th_card(sc, "B08"), d, 0); /* br-3/I fires at 9/II in front */
  cr_assert(s.units.flag[cav] & UF_DISORDER);
  th_bcards(sc, &s, "F01 F04");
  th_bcards(sc, &s, "B01 B10:c");
  cr_assert_eq(s.battle.att_total, 11);
  cr_assert_eq(s.battle.def_total, 11);
  cr_assert_neq(s.turn.phase, PH_B_LOSS, "a tie goes to the defender");
  cr_assert_eq(s.units.sq[d], h4);
  cr_assert_eq(s.units.flag[d] & UF_REDUCED, 0);
  free(sc);
}
