/* Rule tests of chapter 9: actions (docs/RULES.md, R-9.x): test names carry the rule id. */
#include "rules.h"

Test(rules, R_9_1_artillery_infantry_fires_at_the_unit_in_front) {
  SETUP("short");
  int f = th_put(sc, &s, "fr-1/I", "H7", DIR_N);
  int t = th_put(sc, &s, "br-3/I", "H6", DIR_S);
  int cav = th_put(sc, &s, "fr-c-jacq-1", "J7", DIR_N);
  th_put(sc, &s, "br-5/R", "J6", DIR_S);
  int dis = th_put(sc, &s, "fr-2/I", "M7", DIR_N);
  th_put(sc, &s, "br-6/R", "M6", DIR_S);
  s.units.flag[dis] |= UF_DISORDER;
  int side = th_put(sc, &s, "fr-3/I", "N7", DIR_E); /* an enemy at its side, not in front */
  th_put(sc, &s, "br-2/II", "N6", DIR_S);
  th_give(sc, &s, "F10");
  th_round(&s, FRENCH);
  int c = th_card(sc, "F10");
  cr_assert(!th_legal(sc, &s, A_ARTY, c, cav, 0), "cavalry does not fire");
  cr_assert(!th_legal(sc, &s, A_ARTY, c, dis, 0), "disordered infantry does not fire");
  cr_assert(!th_legal(sc, &s, A_ARTY, c, side, 0), "only at the square in front");
  cr_assert_eq(th_count(sc, &s, A_ARTY, c), 1);
  TH_DO(sc, &s, A_ARTY, c, f, 0);
  cr_assert(s.units.flag[t] & UF_DISORDER);
  cr_assert_eq(s.turn.ncards, 1, "in its own round it is a card of the round");
  free(sc);
}

/* R-9.1 ruling: infantry in a castle has its front on all sides, for fire too */
Test(rules, R_9_1_infantry_in_a_castle_fires_at_any_adjacent_enemy) {
  SETUP("short");
  int f = th_put(sc, &s, "fr-1/I", "C7", DIR_N);
  int e = th_put(sc, &s, "br-3/I", "D7", DIR_W);
  int n = th_put(sc, &s, "br-5/R", "C6", DIR_S);
  int cav = th_put(sc, &s, "fr-c-jacq-1", "F5", DIR_N); /* cavalry in La Haye Sainte: no fire */
  th_put(sc, &s, "br-6/R", "G5", DIR_W);
  th_give(sc, &s, "F10");
  th_round(&s, FRENCH);
  int k = th_card(sc, "F10");
  cr_assert(th_legal(sc, &s, A_ARTY, k, f, 1 + DIR_E), "at its side");
  cr_assert(th_legal(sc, &s, A_ARTY, k, f, 1 + DIR_N), "across the facing it entered with");
  cr_assert(!th_legal(sc, &s, A_ARTY, k, f, 1 + DIR_S), "no enemy there");
  cr_assert(!th_legal(sc, &s, A_ARTY, k, f, 0));
  cr_assert_eq(th_count(sc, &s, A_ARTY, k), 2, "%s", th_legal_text(sc, &s));
  (void)cav;
  char buf[96], err[200];
  Action a = th_a(A_ARTY, k, f, 1 + DIR_E), b;
  action_format(sc, &s, a, buf, sizeof buf);
  cr_assert_str_eq(buf, "play F10 fire fr-1/I at D7");
  cr_assert_eq(action_parse(sc, &s, buf, &b, err, sizeof err), 0, "%s", err);
  cr_assert(!memcmp(&a, &b, sizeof a));
  TH_DO(sc, &s, A_ARTY, k, f, 1 + DIR_E);
  cr_assert(s.units.flag[e] & UF_DISORDER);
  cr_assert(!(s.units.flag[n] & UF_DISORDER));
  free(sc);
}

/* R-9.1 ruling with R-7.2: the garrison of a castle fires before the reveal at an attacker on
 * any side, not only across the facing it entered with */
Test(rules, R_9_1_castle_garrison_fires_at_an_attacker_on_any_side_before_the_reveal) {
  SETUP("short");
  int g = th_put(sc, &s, "br-3/I", "C7", DIR_S);   /* in Hougoumont, "facing" south */
  int a = th_put(sc, &s, "fr-1/I", "D7", DIR_W);   /* attacks from the east */
  th_give(sc, &s, "B08 F01");
  th_declare_phase(&s, FRENCH, ARMY_FR);
  TH_DO(sc, &s, A_DECLARE, th_sq(sc, "C7"), DB(DIR_E), 0);
  cr_assert_eq(s.turn.phase, PH_B_FIRE, "%s", th_legal_text(sc, &s));
  cr_assert_eq(s.turn.decider, ALLIED);
  TH_DO(sc, &s, A_ARTY, th_card(sc, "B08"), g, 1 + DIR_E);
  cr_assert(s.units.flag[a] & UF_DISORDER);
  cr_assert_neq(s.turn.phase, PH_B_LOSS, "its only attacker dropped out: the battle is off");
  cr_assert_eq(s.battle.def_unit, UNIT_NONE);
  free(sc);
}

Test(rules, R_9_1_artillery_reaction_after_an_opponent_card) {
  SETUP("short");
  int b = duel_round(sc, &s, 1, "br-3/I", "H6", DIR_S, "fr-1/I", "H7", DIR_E, "F01 B08");
  int f = th_unit(sc, "fr-1/I");
  th_play_move(sc, &s, "F01");
  TH_DO(sc, &s, A_DONE, 0, 0, 0);
  cr_assert_eq(s.turn.phase, PH_REACT, "after the French card is done, the Allies may fire");
  cr_assert_eq(s.turn.decider, ALLIED);
  TH_DO(sc, &s, A_ARTY, th_card(sc, "B08"), b, 0);
  cr_assert(s.units.flag[f] & UF_DISORDER);
  cr_assert(s.cards.discard & th_bit(sc, "B08"));
  cr_assert_eq(s.turn.ncards, 1);
  cr_assert_eq(s.turn.phase, PH_ROUND);
  cr_assert_eq(s.turn.decider, FRENCH);
  cr_assert_eq(s.turn.active, FRENCH);
  free(sc);
}

Test(rules, R_9_2_command_bonus_in_or_orthogonally_next_to_the_leader) {
  Scen *sc = th_load("short", "base");
  cr_assert_eq(command_total(sc, "I6"), 3 * 2 + 2, "in the leader's square");
  cr_assert_eq(command_total(sc, "I5"), 3 * 2 + 2, "orthogonally adjacent");
  cr_assert_eq(command_total(sc, "H6"), 3 * 2 + 2);
  cr_assert_eq(command_total(sc, "H5"), 3 * 2, "not diagonally");
  cr_assert_eq(command_total(sc, "A13"), 3 * 2);
  /* in defence: Wellington's card gives 4 to the defender next to him */
  State s;
  for (int near = 0; near < 2; near++) {
    th_empty(sc, &s, 1);
    th_put(sc, &s, "br-3/I", "J6", DIR_N);
    th_put(sc, &s, "fr-2/I", "I6", DIR_E);
    th_leader(sc, &s, 1, near ? "J5" : "K5");
    th_give(sc, &s, "B10");
    th_declare_phase(&s, FRENCH, ARMY_FR);
    th_battle(sc, &s, th_sq(sc, "J6"), DB(DIR_W), NULL, "B10:c");
    cr_assert_eq(s.battle.def_total, near ? 8 : 4);
  }
  for (int c = 0; c < sc->ncards; c++)
    if (sc->card[c].army == ARMY_PR) cr_assert_neq(sc->card[c].action, ACT_COMMAND);
  free(sc);
}

Test(rules, R_9_3_heavy_charge_flank_then_disordered_and_moved) {
  SETUP("short");
  charge_position(sc, &s, "fr-gd-heavy", "br-3/I", DIR_E, "F15 F05 F19");
  int c = th_unit(sc, "fr-gd-heavy"), d = th_unit(sc, "br-3/I");
  cr_assert(!th_legal(sc, &s, A_CHARGE, th_card(sc, "F15"), c, 1), "J7 is empty: nothing to hit");
  TH_DO(sc, &s, A_CHARGE, th_card(sc, "F15"), c, 2);
  cr_assert_eq(s.units.sq[c], th_sq(sc, "J7"), "two squares straight ahead");
  cr_assert_eq(s.turn.phase, PH_B_ATTCARDS);
  cr_assert(!th_legal(sc, &s, A_BCARD, th_card(sc, "F05"), BP_POINTS, 0), "only elite cards");
  cr_assert(th_legal(sc, &s, A_BCARD, th_card(sc, "F19"), BP_ELITE, 0));
  TH_DO(sc, &s, A_BDONE, 0, 0, 0);
  cr_assert_eq(s.battle.att_total, 3 * 3 * 2);
  cr_assert_eq(s.battle.def_total, 4);
  TH_DO(sc, &s, A_REDUCE, 0, 0, 0);
  TH_DO(sc, &s, A_RETREAT, th_sq(sc, "J5"), DIR_S, DIR_S);
  cr_assert_eq(s.units.sq[d], th_sq(sc, "J5"));
  TH_DO(sc, &s, A_ADVANCE, DIR_S, DIR_N, 0);
  cr_assert_eq(s.units.sq[c], th_sq(sc, "J6"));
  cr_assert(s.units.flag[c] & UF_DISORDER, "disordered after the charge");
  cr_assert(s.units.flag[c] & UF_MOVED, "and marked moved");
  free(sc);
}

Test(rules, R_9_3_no_multiplier_against_infantry_front_or_cavalry) {
  SETUP("short");
  int c = th_unit(sc, "fr-gd-heavy");
  charge_position(sc, &s, "fr-gd-heavy", "br-3/I", DIR_S, "F15");
  TH_DO(sc, &s, A_CHARGE, th_card(sc, "F15"), c, 2);
  cr_assert_eq(s.battle.att_total, 3, "into the infantry's front");
  cr_assert_eq(s.battle.def_total, 4);
  cr_assert(s.units.flag[c] & UF_DISORDER, "disordered whatever the result");
  cr_assert(s.units.flag[c] & UF_MOVED);
  charge_position(sc, &s, "fr-gd-heavy", "br-vivian", DIR_E, "F15");
  TH_DO(sc, &s, A_CHARGE, th_card(sc, "F15"), c, 2);
  cr_assert_eq(s.battle.att_total, 3 * 2, "against cavalry: only the flank");
  charge_position(sc, &s, "fr-gd-heavy", "br-3/I", DIR_N, "F15");
  TH_DO(sc, &s, A_CHARGE, th_card(sc, "F15"), c, 2);
  cr_assert_eq(s.battle.att_total, 3 * 3 * 3, "infantry's rear: heavy x 3, rear x 3");
  free(sc);
}

Test(rules, R_9_3_charge_path_straight_empty_no_ridge_or_stream_may_attack_across) {
  SETUP("short");
  /* across the ridge H4-H5 */
  int c = duel_round(sc, &s, 1, "fr-gd-heavy", "H6", DIR_N, "br-3/I", "H4", DIR_E, "F15");
  cr_assert(th_legal(sc, &s, A_CHARGE, th_card(sc, "F15"), c, 1), "may attack across the ridge");
  cr_assert(!th_legal(sc, &s, A_CHARGE, th_card(sc, "F15"), c, 2));
  TH_DO(sc, &s, A_CHARGE, th_card(sc, "F15"), c, 1);
  cr_assert_eq(s.battle.att_total, 3 * 3 * 2 - 1, "heavy, flank, then -1 for the ridge");
  /* not across the ridge on the way */
  duel_round(sc, &s, 2, "fr-gd-heavy", "H6", DIR_N, "br-3/I", "H3", DIR_E, "F15");
  cr_assert_eq(th_count(sc, &s, A_CHARGE, -1), 0);
  /* not across a stream on the way (K5-L5) */
  duel_round(sc, &s, 3, "fr-gd-heavy", "J5", DIR_E, "br-3/I", "M5", DIR_S, "F15");
  cr_assert_eq(th_count(sc, &s, A_CHARGE, -1), 0);
  /* not through a unit */
  c = duel_round(sc, &s, 4, "fr-gd-heavy", "J9", DIR_N, "br-3/I", "J6", DIR_E, "F15");
  th_put(sc, &s, "fr-1/I", "J8", DIR_N);
  cr_assert(!th_legal(sc, &s, A_CHARGE, th_card(sc, "F15"), c, 2));
  free(sc);
}

Test(rules, R_9_3_charge_target_not_in_woods_village_castle_nor_adjacent) {
  SETUP("short");
  struct { const char *cav, *def; } t[] = {{"O9", "O6"}, {"K7", "K4"}, {"C10", "C7"}, {"J7", "J6"}};
  for (int i = 0; i < 4; i++) {
    duel_round(sc, &s, 5, "fr-gd-heavy", t[i].cav, DIR_N, "br-3/I", t[i].def, DIR_E, "F15");
    cr_assert_eq(th_count(sc, &s, A_CHARGE, -1), 0, "target at %s", t[i].def);
  }
  free(sc);
}

Test(rules, R_9_3_moved_cavalry_may_charge_not_disordered_attacked_or_rallied) {
  SETUP("short");
  charge_position(sc, &s, "fr-gd-heavy", "br-3/I", DIR_E, "F15");
  int c = th_unit(sc, "fr-gd-heavy"), k = th_card(sc, "F15");
  s.units.flag[c] |= UF_MOVED;
  cr_assert(th_legal(sc, &s, A_CHARGE, k, c, 2), "even a moved one");
  s.units.flag[c] = DIR_N | UF_ATTACKED;
  cr_assert(!th_legal(sc, &s, A_CHARGE, k, c, 2));
  s.units.flag[c] = DIR_N | UF_RALLIED;
  cr_assert(!th_legal(sc, &s, A_CHARGE, k, c, 2));
  s.units.flag[c] = DIR_N | UF_DISORDER;
  cr_assert(!th_legal(sc, &s, A_CHARGE, k, c, 2));
  free(sc);
}

Test(rules, R_9_3_charge_battle_elite_cards_only_variant_allows_all) {
  for (int v = 0; v < 2; v++) {
    Scen *sc = th_load("short", v ? "charge-all-cards" : "base");
    State s;
    charge_position(sc, &s, "fr-gd-heavy", "br-3/I", DIR_E, "F15 F05 B04 B16");
    int c = th_unit(sc, "fr-gd-heavy");
    TH_DO(sc, &s, A_CHARGE, th_card(sc, "F15"), c, 2);
    cr_assert_eq(s.turn.phase, PH_B_ATTCARDS);
    cr_assert_eq(th_legal(sc, &s, A_BCARD, th_card(sc, "F05"), BP_POINTS, 0), v);
    TH_DO(sc, &s, A_BDONE, 0, 0, 0);
    cr_assert_eq(s.turn.phase, PH_B_DEFCARDS);
    cr_assert_eq(th_legal(sc, &s, A_BCARD, th_card(sc, "B04"), BP_POINTS, 0), v);
    cr_assert(th_legal(sc, &s, A_BCARD, th_card(sc, "B16"), BP_ELITE, 0));
    free(sc);
  }
}

Test(rules, R_9_3_charge_comes_with_the_card_battle_right_too) {
  SETUP("short");
  charge_position(sc, &s, "fr-c-jacq-1", "br-3/I", DIR_S, "F15");
  int c = th_unit(sc, "fr-c-jacq-1");
  th_put(sc, &s, "fr-1/I", "I6", DIR_E);
  TH_DO(sc, &s, A_CHARGE, th_card(sc, "F15"), c, 2);
  cr_assert_eq(s.battle.att_total, 2, "light cavalry into the front: no multiplier");
  cr_assert_eq(s.turn.phase, PH_DECLARE, "the card's own battle is still to come");
  cr_assert(th_legal(sc, &s, A_DECLARE, th_sq(sc, "J6"), DB(DIR_W), 0));
  cr_assert(!th_legal(sc, &s, A_DECLARE, th_sq(sc, "J6"), DB(DIR_S), 0), "the charger is done");
  free(sc);
}

Test(rules, R_9_4_enemy_cavalry_must_charge) {
  SETUP("short");
  int bc = th_put(sc, &s, "br-vivian", "K5", DIR_S);   /* light 3 */
  int f = th_put(sc, &s, "fr-1/I", "K8", DIR_E);       /* its flank toward the cavalry */
  int own = th_put(sc, &s, "fr-gd-heavy", "H9", DIR_N);
  th_put(sc, &s, "br-6/R", "H6", DIR_E);
  th_give(sc, &s, "F18");
  th_round(&s, FRENCH);
  int k = th_card(sc, "F18");
  cr_assert(th_legal(sc, &s, A_FORCE, k, bc, 2));
  cr_assert(!th_legal(sc, &s, A_FORCE, k, own, 2), "never a unit of its own side");
  TH_DO(sc, &s, A_FORCE, k, bc, 2);
  cr_assert_eq(s.units.sq[bc], th_sq(sc, "K7"));
  cr_assert_eq(s.battle.att_side, ALLIED, "the enemy is the attacker");
  cr_assert_eq(s.battle.att_total, 3 * 2 * 2, "light x 2, flank x 2");
  cr_assert_eq(s.battle.def_total, 3);
  cr_assert_eq(s.turn.phase, PH_B_LOSS);
  cr_assert_eq(s.turn.decider, FRENCH);
  TH_DO(sc, &s, A_REDUCE, 0, 0, 0);
  TH_DO(sc, &s, A_RETREAT, th_sq(sc, "K9"), DIR_N, DIR_N);
  cr_assert_eq(s.turn.phase, PH_B_ADVANCE);
  cr_assert_eq(s.turn.decider, ALLIED);
  TH_DO(sc, &s, A_ADVANCE, DIR_N, DIR_S, 0);
  cr_assert(s.units.flag[bc] & UF_DISORDER);
  cr_assert(s.units.flag[bc] & UF_MOVED);
  cr_assert(s.units.flag[f] & UF_REDUCED);
  free(sc);
}

Test(rules, R_9_5_rally_two_disordered_units) {
  SETUP("short");
  int a = th_put(sc, &s, "fr-1/I", "H7", DIR_N);
  int b = th_put(sc, &s, "fr-2/I", "K9", DIR_N);
  int m = th_put(sc, &s, "fr-3/I", "L9", DIR_N);
  th_put(sc, &s, "br-3/I", "H6", DIR_E);
  s.units.flag[a] |= UF_DISORDER;
  s.units.flag[b] |= UF_DISORDER;
  s.units.flag[m] |= UF_DISORDER | UF_MOVED;
  th_give(sc, &s, "F21 F01");
  th_round(&s, FRENCH);
  int k = th_card(sc, "F21");
  cr_assert(th_legal(sc, &s, A_RALLY, k, a, 0));
  cr_assert(th_legal(sc, &s, A_RALLY, k, b, 0));
  cr_assert(!th_legal(sc, &s, A_RALLY, k, m, 0), "a moved unit may not be rallied");
  TH_DO(sc, &s, A_RALLY, k, a, 0);
  cr_assert_eq(s.turn.phase, PH_RALLY2);
  TH_DO(sc, &s, A_RALLY, CARD_NONE, b, 0);
  for (int u = 0; u < 2; u++) {
    int x = u ? b : a;
    cr_assert_eq(s.units.flag[x] & UF_DISORDER, 0);
    cr_assert(s.units.flag[x] & UF_RALLIED);
  }
  cr_assert(s.units.flag[m] & UF_DISORDER);
  /* rallied: may not attack or move this round */
  cr_assert_neq(s.turn.phase, PH_DECLARE, "fr-1/I faces br-3/I but has rallied");
  th_skip_react(sc, &s);
  th_play_move(sc, &s, "F01");
  cr_assert_eq(th_count(sc, &s, A_STEP, a) + th_count(sc, &s, A_TURN, a), 0);
  cr_assert_eq(th_count(sc, &s, A_STEP, b) + th_count(sc, &s, A_TURN, b), 0);
  free(sc);
}

Test(rules, R_9_5_restore_a_reduced_unit_not_next_to_an_enemy) {
  SETUP("short");
  int far = th_put(sc, &s, "fr-1/I", "H9", DIR_N);
  int near = th_put(sc, &s, "fr-2/I", "K7", DIR_N);
  int att = th_put(sc, &s, "fr-3/I", "M9", DIR_N);
  th_put(sc, &s, "br-3/I", "K6", DIR_S);
  th_put(sc, &s, "br-5/R", "I8", DIR_S); /* diagonal to H9: does not count */
  s.units.flag[far] |= UF_REDUCED;
  s.units.flag[near] |= UF_REDUCED;
  s.units.flag[att] |= UF_REDUCED | UF_ATTACKED;
  th_give(sc, &s, "F22");
  th_round(&s, FRENCH);
  int k = th_card(sc, "F22");
  cr_assert(th_legal(sc, &s, A_RESTORE, k, far, 0));
  cr_assert(!th_legal(sc, &s, A_RESTORE, k, near, 0), "orthogonally next to an enemy");
  cr_assert(!th_legal(sc, &s, A_RESTORE, k, att, 0), "attacked this round");
  TH_DO(sc, &s, A_RESTORE, k, far, 0);
  cr_assert_eq(s.units.flag[far] & UF_REDUCED, 0);
  cr_assert_eq(unit_bp(sc, &s, far), 3);
  cr_assert(s.units.flag[far] & UF_RALLIED);
  free(sc);
}

Test(rules, R_9_6_elite_bonus_doubles_own_elite_units_both_sides) {
  SETUP("short");
  th_put(sc, &s, "br-1/I", "H6", DIR_S);  /* elite 2 */
  th_put(sc, &s, "fr-og", "H7", DIR_N);   /* elite 3, front */
  th_put(sc, &s, "fr-1/I", "G6", DIR_E);  /* 3, flank */
  th_give(sc, &s, "F19 F20 B16");
  th_declare_phase(&s, FRENCH, ARMY_FR);
  int a, d;
  battle_base_totals(sc, &s, th_sq(sc, "H6"), DB(DIR_S) | DB(DIR_W), &a, &d);
  cr_assert_eq(a, 3 + 6);
  cr_assert_eq(d, 2);
  TH_DO(sc, &s, A_DECLARE, th_sq(sc, "H6"), DB(DIR_S) | DB(DIR_W), 0);
  TH_DO(sc, &s, A_NOFIRE, 0, 0, 0);
  TH_DO(sc, &s, A_BCARD, th_card(sc, "F19"), BP_ELITE, 0);
  cr_assert(!th_legal(sc, &s, A_BCARD, th_card(sc, "F20"), BP_ELITE, 0),
            "RULINGS R-7.2: one elite card per side per battle");
  TH_DO(sc, &s, A_BDONE, 0, 0, 0);
  th_bcards(sc, &s, "B16:e");
  cr_assert_eq(s.battle.att_total, 3 * 2 + 3 * 2,
               "fr-og doubled, fr-1/I not; the card's BP not added");
  cr_assert_eq(s.battle.def_total, 2 * 2);
  cr_assert_eq(s.battle.loss_owed, 3, "12 is more than twice 4: reduced and retreats");
  Scen *lg = th_load("long", "base");
  for (int c = 0; c < lg->ncards; c++)
    if (lg->card[c].army == ARMY_PR) cr_assert_neq(lg->card[c].action, ACT_ELITE);
  free(lg);
  free(sc);
}

Test(rules, R_9_7_napoleons_health_two_random_french_cards_unseen) {
  SETUP("short");
  th_put(sc, &s, "br-3/I", "H2", DIR_S);
  th_give(sc, &s, "F01 F02 F03 F04 F05 B19");
  uint64_t fr_before = s.cards.hand & sc->army_cards[ARMY_FR];
  th_round(&s, FRENCH);
  cr_assert_eq(th_count(sc, &s, A_HEALTH, -1), 0, "a British card");
  th_round(&s, ALLIED);
  TH_DO(sc, &s, A_HEALTH, th_card(sc, "B19"), 0, 0);
  uint64_t fr_after = s.cards.hand & sc->army_cards[ARMY_FR];
  cr_assert_eq(__builtin_popcountll(fr_after), 3);
  uint64_t gone = fr_before & ~fr_after;
  cr_assert_eq(__builtin_popcountll(gone), 2);
  cr_assert_eq(s.cards.discard & gone, gone, "discarded");
  cr_assert_eq(s.cards.seen & gone, 0, "unseen");
  cr_assert(s.cards.seen & th_bit(sc, "B19"));
  cr_assert_eq(s.turn.ncards, 1);
  th_check(sc, &s);
  free(sc);
}

Test(rules, R_9_4_allies_force_french_cavalry_to_charge_a_prussian_unit) {
  SETUP_TURN("long", 8, 3);
  int fc = th_put(sc, &s, "fr-gd-light", "J9", DIR_N); /* light 3 */
  int p = th_put(sc, &s, "pr-13", "J6", DIR_E);
  th_put(sc, &s, "br-3/I", "A3", DIR_S);
  th_give(sc, &s, "B15");
  th_round(&s, ALLIED);
  TH_DO(sc, &s, A_FORCE, th_card(sc, "B15"), fc, 2);
  cr_assert_eq(s.battle.att_side, FRENCH);
  cr_assert_eq(s.battle.def_unit, p);
  cr_assert_eq(s.battle.att_total, 3 * 2 * 2, "light x 2 into the Prussian flank x 2");
  cr_assert_eq(s.battle.def_total, 4);
  TH_DO(sc, &s, A_REDUCE, 0, 0, 0);
  cr_assert(s.units.flag[p] & UF_REDUCED);
  free(sc);
}

/* §11.5: the Prussian deck holds "enemy cavalry must charge"; with it the Prussian player
 * forces a French cavalry unit to charge a British (Allied) unit */
Test(rules, R_9_4_prussian_deck_forces_french_cavalry_to_charge_a_british_unit) {
  Scen *sc = th_load("long", "base");
  int k = -1;
  for (int c = 0; c < sc->ncards; c++)
    if (sc->card[c].army == ARMY_PR && sc->card[c].action == ACT_FORCE_CHARGE) k = c;
  cr_assert_geq(k, 0, "a force-charge card in the Prussian deck");
  State s;
  th_empty(sc, &s, 8);
  s.turn.number = 3;
  int fc = th_put(sc, &s, "fr-gd-light", "J9", DIR_N); /* light 3 */
  int b = th_put(sc, &s, "br-3/I", "J6", DIR_E);       /* its flank toward the cavalry */
  th_put(sc, &s, "pr-13", "R9", DIR_W);
  s.cards.hand |= 1ull << k;
  th_round(&s, ALLIED);
  TH_DO(sc, &s, A_FORCE, k, fc, 2);
  cr_assert_eq(s.turn.round_army, ARMY_PR, "a Prussian round (R-5.6)");
  cr_assert_eq(s.battle.att_side, FRENCH, "the French cavalry is the attacker");
  cr_assert_eq(s.battle.def_unit, b);
  cr_assert_eq(s.battle.att_total, 3 * 2 * 2, "light x 2 into the British flank x 2");
  free(sc);
}

/* §9.7, §11.2: Wellington's command gives 4 in defence -- every British command card */
Test(rules, R_9_2_every_wellington_command_card_gives_4_in_defence) {
  Scen *sc = th_load("short", "base");
  int n = 0;
  for (int c = 0; c < sc->ncards; c++)
    if (sc->card[c].army == ARMY_BR && sc->card[c].action == ACT_COMMAND) {
      cr_assert_eq(sc->card[c].cmd_def, 4, "%s", sc->card[c].id);
      n++;
    }
  cr_assert_gt(n, 0);
  free(sc);
}

/* R-9.3 with R-6.7 and R-11.2: the charge card moves the cavalry only ("una qualunque unita' di
 * Cavalleria ... spostarsi di una o due caselle", section 11.4); a leader moves with MP of his
 * own (section 8) and goes with his unit only when it retreats (section 12), so a leader on the
 * charger's square stays there */
Test(rules, R_9_3_a_leader_stays_behind_when_his_cavalry_charges) {
  Scen *sc = th_load("short", "base");
  State s;
  th_position(sc, &s, "short base board=empty napoleon=J9 wellington=A1 "
                      "units=fr-gd-heavy=J9:N,br-3/I=J6:E,br-6/R=A2:S hand=F15");
  th_do(sc, &s, "play F15 charge fr-gd-heavy 2");
  cr_assert_eq(s.units.sq[th_unit(sc, "fr-gd-heavy")], th_sq(sc, "J7"), "two squares ahead");
  cr_assert_eq(s.units.leader[0], th_sq(sc, "J9"), "Napoleon stays on J9");
  cr_assert_eq(s.battle.att_total, 3 * 3 * 2, "heavy x 3 into the flank x 2");
  th_check(sc, &s);
  /* a retreat still takes him along (R-11.2) */
  th_position(sc, &s, "short base board=empty napoleon=A13 wellington=J6 "
                      "units=fr-gd-heavy=J9:N,br-3/I=J6:E hand=F15");
  th_do(sc, &s, "play F15 charge fr-gd-heavy 2");
  th_do(sc, &s, "reduce");
  th_do(sc, &s, "retreat J5 S");
  cr_assert_eq(s.units.leader[1], th_sq(sc, "J5"));
  free(sc);
}
