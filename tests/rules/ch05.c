/* Rule tests of chapter 5: cards (docs/RULES.md, R-5.x): test names carry the rule id. */
#include "rules.h"

Test(rules, R_5_1_cards_have_mp_bp_and_an_action) {
  SETUP("short");
  const CardDef *f05 = &sc->card[th_card(sc, "F05")];
  cr_assert_eq(f05->mp, 3);
  cr_assert_eq(f05->bp, 5);
  cr_assert_eq(f05->action, ACT_NONE);
  cr_assert_eq(sc->card[th_card(sc, "F10")].action, ACT_ARTILLERY);
  cr_assert_eq(sc->card[th_card(sc, "F15")].action, ACT_CHARGE);
  cr_assert_eq(sc->card[th_card(sc, "F18")].action, ACT_FORCE_CHARGE);
  cr_assert_eq(sc->card[th_card(sc, "F19")].action, ACT_ELITE);
  cr_assert_eq(sc->card[th_card(sc, "F21")].action, ACT_RALLY);
  cr_assert_eq(sc->card[th_card(sc, "B19")].action, ACT_HEALTH);
  const CardDef *b10 = &sc->card[th_card(sc, "B10")];
  cr_assert_eq(b10->action, ACT_COMMAND);
  cr_assert_eq(b10->cmd_def, 4, "Wellington gives 4 in defence");
  cr_assert_eq(sc->card[th_card(sc, "F07")].cmd_att, 2, "Napoleon gives 2 in attack");
  for (int c = 0; c < sc->ncards; c++) {
    cr_assert_gt(sc->card[c].mp, 0);
    cr_assert_gt(sc->card[c].bp, 0);
    cr_assert_lt(sc->card[c].action, ACT_COUNT);
  }
  /* an action card may be played for its movement value or its action */
  th_put(sc, &s, "fr-1/I", "H7", DIR_N);
  th_put(sc, &s, "br-3/I", "H6", DIR_S);
  th_give(sc, &s, "F10");
  th_round(&s, FRENCH);
  cr_assert(th_legal(sc, &s, A_PLAY_MOVE, th_card(sc, "F10"), 0, 0));
  cr_assert(th_legal(sc, &s, A_ARTY, th_card(sc, "F10"), th_unit(sc, "fr-1/I"), 0));
  th_play_move(sc, &s, "F10"); /* its MP: 3 */
  cr_assert_eq(s.play.mp, 3);
  free(sc);
}

Test(rules, R_5_2_card_played_for_one_purpose_then_discarded) {
  SETUP("short");
  int a = duel_round(sc, &s, 1, "fr-1/I", "H7", DIR_N, "br-3/I", "H6", DIR_S, "F10 F11");
  int c = th_card(sc, "F10");
  th_play_move(sc, &s, "F10");
  cr_assert_eq(s.cards.hand & (1ull << c), 0);
  cr_assert(s.cards.discard & (1ull << c));
  TH_DO(sc, &s, A_DONE, 0, 0, 0);
  if (s.turn.phase == PH_DECLARE) TH_DO(sc, &s, A_NOBATTLE, 0, 0, 0);
  th_skip_react(sc, &s);
  cr_assert_eq(s.turn.phase, PH_ROUND);
  cr_assert(!th_legal(sc, &s, A_ARTY, c, a, 0), "the card was used for its movement");
  /* played for its action: no movement points */
  int c2 = th_card(sc, "F11");
  TH_DO(sc, &s, A_ARTY, c2, a, 0);
  cr_assert_neq(s.turn.phase, PH_MOVE);
  cr_assert(s.cards.discard & (1ull << c2));
  cr_assert_eq(s.cards.hand, 0);
  free(sc);
}

Test(rules, R_5_3_one_battle_per_movement_or_action_card_unused_right_lost) {
  SETUP("short");
  int a = th_put(sc, &s, "fr-1/I", "H7", DIR_N);
  int b = th_put(sc, &s, "fr-2/I", "G6", DIR_E);
  th_put(sc, &s, "br-3/I", "H6", DIR_S);
  th_give(sc, &s, "F01 F02 F10 F04");
  th_round(&s, FRENCH);
  /* movement card: a battle right */
  th_play_move(sc, &s, "F01");
  TH_DO(sc, &s, A_DONE, 0, 0, 0);
  cr_assert_eq(s.turn.phase, PH_DECLARE);
  TH_DO(sc, &s, A_NOBATTLE, 0, 0, 0);
  th_skip_react(sc, &s);
  cr_assert_eq(s.turn.phase, PH_ROUND);
  cr_assert_eq(th_count(sc, &s, A_DECLARE, -1), 0, "the right is lost");
  /* one battle only: after it, no second declaration with the same card */
  th_play_move(sc, &s, "F02");
  TH_DO(sc, &s, A_DONE, 0, 0, 0);
  cr_assert_eq(s.turn.phase, PH_DECLARE);
  th_battle(sc, &s, th_sq(sc, "H6"), DB(DIR_S), NULL, NULL); /* 3 vs 4: nothing happens */
  cr_assert_eq(s.units.sq[a], th_sq(sc, "H7"));
  th_skip_react(sc, &s);
  cr_assert_eq(s.turn.phase, PH_ROUND, "fr-2/I could still attack, but the card's battle is used");
  /* an action card gives a battle right too, to units that have not attacked */
  TH_DO(sc, &s, A_ARTY, th_card(sc, "F10"), a, 0);
  cr_assert_eq(s.turn.phase, PH_DECLARE);
  cr_assert(th_legal(sc, &s, A_DECLARE, th_sq(sc, "H6"), DB(DIR_W), 0));
  cr_assert(!th_legal(sc, &s, A_DECLARE, th_sq(sc, "H6"), DB(DIR_S), 0), "fr-1/I attacked already");
  (void)b;
  free(sc);
}

Test(rules, R_5_4_defender_and_reaction_cards_do_not_count) {
  SETUP("short");
  int a = duel_round(sc, &s, 1, "fr-1/I", "H7", DIR_N, "br-3/I", "H6", DIR_S,
                     "F01 F02 F05 B01 B04 B08 B09");
  int d = th_unit(sc, "br-3/I");
  th_play_move(sc, &s, "F01");
  TH_DO(sc, &s, A_DONE, 0, 0, 0);
  cr_assert_eq(s.turn.ncards, 1);
  TH_DO(sc, &s, A_DECLARE, th_sq(sc, "H6"), DB(DIR_S), 0);
  cr_assert_eq(s.turn.phase, PH_B_FIRE, "br-3/I faces the attacker");
  TH_DO(sc, &s, A_NOFIRE, 0, 0, 0);
  TH_DO(sc, &s, A_BCARD, th_card(sc, "F05"), BP_POINTS, 0);
  cr_assert_eq(s.turn.ncards, 2, "the attacker's battle card counts");
  TH_DO(sc, &s, A_BDONE, 0, 0, 0);
  TH_DO(sc, &s, A_BCARD, th_card(sc, "B01"), BP_POINTS, 0);
  TH_DO(sc, &s, A_BCARD, th_card(sc, "B04"), BP_POINTS, 0);
  cr_assert_eq(s.turn.ncards, 2, "the defender's do not");
  TH_DO(sc, &s, A_BDONE, 0, 0, 0);
  cr_assert_eq(s.battle.att_total, 3 + 5);
  cr_assert_eq(s.battle.def_total, 4 + 3 + 5, "4 + B01 3 + B04 5");
  cr_assert(s.cards.discard & th_bit(sc, "B01"));
  cr_assert(s.cards.discard & th_bit(sc, "B04"));
  /* a reaction after the card: artillery, discarded, not counted */
  cr_assert_eq(s.turn.phase, PH_REACT);
  cr_assert_eq(s.turn.decider, ALLIED);
  TH_DO(sc, &s, A_ARTY, th_card(sc, "B08"), d, 0);
  cr_assert(s.units.flag[a] & UF_DISORDER);
  cr_assert_eq(s.turn.ncards, 2);
  cr_assert(s.cards.discard & th_bit(sc, "B08"));
  free(sc);
}

Test(rules, R_5_5_british_cards_command_british_units_prussian_cards_prussian_units) {
  SETUP_TURN("long", 5, 3);
  int br = th_put(sc, &s, "br-3/I", "H5", DIR_E);
  int pr = th_put(sc, &s, "pr-13", "J5", DIR_W);
  th_put(sc, &s, "fr-1/I", "I5", DIR_S);
  th_give(sc, &s, "B01 B04 P01 P04");
  th_round(&s, ALLIED);
  th_play_move(sc, &s, "B01");
  cr_assert_gt(th_count(sc, &s, A_TURN, br), 0);
  cr_assert_eq(th_count(sc, &s, A_TURN, pr), 0);
  cr_assert_eq(th_count(sc, &s, A_STEP, pr), 0);
  th_round(&s, ALLIED);
  th_play_move(sc, &s, "P01");
  cr_assert_gt(th_count(sc, &s, A_TURN, pr), 0);
  cr_assert_eq(th_count(sc, &s, A_TURN, br), 0);
  /* a British battle: British attackers and British battle cards only */
  int dsq = th_sq(sc, "I5");
  th_declare_phase(&s, ALLIED, ARMY_BR);
  cr_assert(th_legal(sc, &s, A_DECLARE, dsq, DB(DIR_W), 0));
  cr_assert(!th_legal(sc, &s, A_DECLARE, dsq, DB(DIR_E), 0));
  cr_assert(!th_legal(sc, &s, A_DECLARE, dsq, DB(DIR_E) | DB(DIR_W), 0), "never together");
  TH_DO(sc, &s, A_DECLARE, dsq, DB(DIR_W), 0);
  cr_assert_eq(s.turn.phase, PH_B_ATTCARDS);
  cr_assert(th_legal(sc, &s, A_BCARD, th_card(sc, "B04"), BP_POINTS, 0));
  cr_assert(!th_legal(sc, &s, A_BCARD, th_card(sc, "P04"), BP_POINTS, 0));
  /* the Prussian card commands the Prussian unit only */
  th_declare_phase(&s, ALLIED, ARMY_PR);
  cr_assert(th_legal(sc, &s, A_DECLARE, dsq, DB(DIR_E), 0));
  cr_assert(!th_legal(sc, &s, A_DECLARE, dsq, DB(DIR_W), 0));
  TH_DO(sc, &s, A_DECLARE, dsq, DB(DIR_E), 0);
  cr_assert(th_legal(sc, &s, A_BCARD, th_card(sc, "P04"), BP_POINTS, 0));
  cr_assert(!th_legal(sc, &s, A_BCARD, th_card(sc, "B04"), BP_POINTS, 0));
  free(sc);
}

Test(rules, R_5_5_defending_army_plays_its_own_cards) {
  SETUP_TURN("long", 5, 3);
  th_put(sc, &s, "fr-1/I", "I6", DIR_N);
  th_put(sc, &s, "pr-13", "I5", DIR_E);
  th_give(sc, &s, "F01 B04 P04");
  th_declare_phase(&s, FRENCH, ARMY_FR);
  TH_DO(sc, &s, A_DECLARE, th_sq(sc, "I5"), DB(DIR_S), 0);
  TH_DO(sc, &s, A_BDONE, 0, 0, 0);
  cr_assert_eq(s.turn.phase, PH_B_DEFCARDS);
  cr_assert(th_legal(sc, &s, A_BCARD, th_card(sc, "P04"), BP_POINTS, 0));
  cr_assert(!th_legal(sc, &s, A_BCARD, th_card(sc, "B04"), BP_POINTS, 0));
  free(sc);
}

Test(rules, R_5_6_two_player_allied_round_one_army_three_player_mixes) {
  for (int v = 0; v < 2; v++) {
    Scen *sc = th_load("long", v ? "three-player" : "base");
    State s;
    th_empty(sc, &s, 6);
    s.turn.number = 3;
    th_put(sc, &s, "br-3/I", "H2", DIR_S);
    th_give(sc, &s, "B01 B02 P01");
    th_round(&s, ALLIED);
    play_and_done(sc, &s, "B01");
    cr_assert(th_legal(sc, &s, A_PLAY_MOVE, th_card(sc, "B02"), 0, 0));
    cr_assert_eq(th_legal(sc, &s, A_PLAY_MOVE, th_card(sc, "P01"), 0, 0), v,
                 "%s", v ? "three-player: British and Prussian cards in one round"
                   : "two-player: all British or all Prussian");
    free(sc);
  }
}

Test(rules, R_5_7_hands_secret_counts_public) {
  Scen *sc = th_load("long", "base");
  State s, o;
  gs_init(sc, &s, 31, 0);
  pass_turn(sc, &s);
  pass_turn(sc, &s); /* turn 3: Prussian cards in hand */
  gs_observe(sc, &s, FRENCH, &o);
  for (int a = 0; a < 3; a++) cr_assert_eq(hand_count(sc, &o, a), hand_count(sc, &s, a));
  cr_assert_eq(o.cards.hand & sc->army_cards[ARMY_FR], s.cards.hand & sc->army_cards[ARMY_FR]);
  /* the observation does not depend on which British cards are held */
  State s2 = s, o2;
  uint64_t und = sc->army_cards[ARMY_BR] & ~(s.cards.hand | s.cards.discard | s.cards.pend);
  int in = __builtin_ctzll(s.cards.hand & sc->army_cards[ARMY_BR]), out = __builtin_ctzll(und);
  s2.cards.hand = (s2.cards.hand & ~(1ull << in)) | (1ull << out);
  gs_observe(sc, &s2, FRENCH, &o2);
  cr_assert_eq(memcmp(&o, &o2, sizeof o), 0);
  /* secret commitments are not seen by the other side */
  cr_assert_eq(gs_action_public(sc, &s, th_a(A_BID, 0, 0, 0), s.turn.decider ^ 1), 0);
  cr_assert_eq(gs_action_public(sc, &s, th_a(A_BCARD, 0, 0, 0), s.turn.decider ^ 1), 0);
  cr_assert_eq(gs_action_public(sc, &s, th_a(A_PLAY_MOVE, 0, 0, 0), s.turn.decider ^ 1), 1);
  free(sc);
}
