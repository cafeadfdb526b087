/* Rule tests of chapter 1: sides, scenarios (docs/RULES.md, R-1.x): test names carry the rule id. */
#include "rules.h"

Test(rules, R_1_1_two_sides_british_and_prussian_armies_are_allied) {
  Scen *sc = th_load("long", "base");
  cr_assert_eq(side_of_army(ARMY_FR), FRENCH);
  cr_assert_eq(side_of_army(ARMY_BR), ALLIED);
  cr_assert_eq(side_of_army(ARMY_PR), ALLIED);
  int n[3] = {0, 0, 0};
  for (int u = 0; u < sc->nunits; u++) {
    n[sc->unit[u].army]++;
    cr_assert_eq(unit_side(sc, u), sc->unit[u].army == ARMY_FR ? FRENCH : ALLIED);
  }
  cr_assert(n[ARMY_FR] > 0 && n[ARMY_BR] > 0 && n[ARMY_PR] > 0);
  /* the Allied side's cards are the British and the Prussian decks */
  cr_assert_eq(side_cards_mask(sc, ALLIED), sc->army_cards[ARMY_BR] | sc->army_cards[ARMY_PR]);
  cr_assert_eq(side_cards_mask(sc, FRENCH), sc->army_cards[ARMY_FR]);
  cr_assert_eq(sc->army_cards[ARMY_BR] & sc->army_cards[ARMY_PR], 0);
  /* the Allied side decides for both armies: its round offers British and Prussian cards */
  State s;
  th_empty(sc, &s, 3);
  s.turn.number = 3;
  th_put(sc, &s, "br-3/I", "H4", DIR_S);
  th_put(sc, &s, "pr-13", "Q8", DIR_W);
  th_give(sc, &s, "B01 P01");
  th_round(&s, ALLIED);
  cr_assert(th_legal(sc, &s, A_PLAY_MOVE, th_card(sc, "B01"), 0, 0));
  cr_assert(th_legal(sc, &s, A_PLAY_MOVE, th_card(sc, "P01"), 0, 0));
  free(sc);
}

Test(rules, R_1_2_one_allied_side_decides_two_player_card_rule_default) {
  Scen *sc = th_load("long", "base");
  cr_assert_eq(sc->p.three_player, 0, "the 2-player card rule is the default");
  Scen *sc3 = th_load("long", "three-player");
  cr_assert_eq(sc3->p.three_player, 1);
  /* the decider is always one of the two sides, in every phase of a random long game */
  State s;
  gs_init(sc, &s, 77, 1);
  Rng r;
  rng_seed(&r, 5, 5);
  ActList *L = malloc(sizeof *L);
  int steps = 0, allied_pr = 0;
  while (!gs_over(&s) && steps < 100000) {
    cr_assert(s.turn.decider == FRENCH || s.turn.decider == ALLIED);
    gs_legal(sc, &s, L);
    cr_assert_gt(L->n, 0);
    Action a = L->a[rng_below(&r, (uint32_t)L->n)];
    if (s.turn.decider == ALLIED && a.t == A_PLAY_MOVE && sc->card[a.play.card].army == ARMY_PR)
      allied_pr++;
    gs_apply(sc, &s, a);
    steps++;
  }
  cr_assert(gs_over(&s));
  cr_assert_gt(allied_pr, 0, "the Allied side played Prussian cards in the long game");
  free(L);
  free(sc);
  free(sc3);
}

Test(rules, R_1_3_short_four_turns_no_prussians_long_seven_turns) {
  Scen *sh = th_load("short", "base"), *lg = th_load("long", "base");
  cr_assert_eq(sh->p.turns, 4);
  cr_assert_eq(lg->p.turns, 7);
  cr_assert_eq(sh->p.prussians, 0);
  cr_assert_eq(lg->p.prussians, 1);
  State s;
  for (int g = 0; g < 3; g++) {
    random_game(sh, &s, 40 + g, no_prussians);
    cr_assert_eq(s.turn.number, 4);
  }
  random_game(lg, &s, 50, NULL);
  cr_assert_eq(s.turn.number, 7);
  free(sh);
  free(lg);
}

Test(rules, R_1_4_turn_one_is_the_first_of_consecutive_turns) {
  SETUP_INIT("short", 9);
  cr_assert_eq(s.turn.number, 1, "the game starts with turn 1 (11:30)");
  for (int t = 1; t <= 4; t++) {
    cr_assert_eq(s.turn.number, t);
    pass_turn(sc, &s);
  }
  cr_assert(gs_over(&s));
  cr_assert_eq(s.turn.number, 4, "4 turns of 90 minutes: 11:30 to 17:30");
  free(sc);
}

/* ruling (seats): a round limited to Prussian cards, by a Prussian bid or by a
 * first Prussian card under the two-player card rule, is the Prussian's to play on and
 * to end, also when no Prussian card is left in the hand (the British cards cannot be played in
 * it) */
Test(rules, R_1_2_a_prussian_round_is_the_prussians_to_end) {
  Scen *sc = th_load("long", "base");
  State s;
  /* turn 2: the one Prussian card is bid and wins; the first round may use Prussian cards only */
  th_position(sc, &s, "long base board=empty turn=2 phase=bid decider=0 active=0 "
                      "turn_first_round=1 napoleon=A12 wellington=R1 "
                      "units=fr-1/I=A13:N,br-3/I=A1:S hand=F07,F01,B01,B02,P03");
  th_do(sc, &s, "bid F07");
  th_do(sc, &s, "bid P03");
  cr_assert_eq(s.turn.active, ALLIED);
  cr_assert_eq(s.turn.round_army, ARMY_PR);
  cr_assert_eq(th_count(sc, &s, A_PLAY_MOVE, -1), 0, "only the pass: %s", th_legal_text(sc, &s));
  cr_assert_eq(gs_seat(sc, &s), SEAT_PRUSSIAN, "a Prussian round with no Prussian card left");
  /* a Prussian round of the two-player card rule after its last Prussian card */
  th_position(sc, &s, "long base board=empty turn=3 phase=round decider=1 active=1 "
                      "napoleon=A12 wellington=R1 units=fr-1/I=A13:N,br-3/I=A1:S hand=P01,B01,B02");
  th_do(sc, &s, "play P01 move");
  th_do(sc, &s, "done");
  cr_assert_eq(s.turn.phase, PH_ROUND);
  cr_assert_eq(s.turn.round_army, ARMY_PR);
  cr_assert_eq(gs_seat(sc, &s), SEAT_PRUSSIAN, "the Prussian ends the round he was handed");
  free(sc);
}
