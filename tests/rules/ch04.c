/* Rule tests of chapter 4: turn sequence (docs/RULES.md, R-4.x): test names carry the rule id. */
#include "rules.h"

Test(rules, R_4_1_each_turn_fresh_hands_of_15_12_and_prussian_by_turn) {
  Scen *sc = th_load("long", "base");
  cr_assert_eq(__builtin_popcountll(sc->army_cards[ARMY_FR]), 26);
  cr_assert_eq(__builtin_popcountll(sc->army_cards[ARMY_BR]), 19);
  cr_assert_eq(__builtin_popcountll(sc->army_cards[ARMY_PR]), 10);
  int pr[8] = {0, 0, 1, 3, 4, 6, 7, 8};
  State s;
  gs_init(sc, &s, 21, 0);
  for (int t = 1; t <= 7; t++) {
    cr_assert_eq(s.turn.number, t);
    cr_assert_eq(hand_count(sc, &s, ARMY_FR), 15, "turn %d", t);
    cr_assert_eq(hand_count(sc, &s, ARMY_BR), 12, "turn %d", t);
    cr_assert_eq(hand_count(sc, &s, ARMY_PR), pr[t], "turn %d", t);
    cr_assert_eq(s.cards.discard, 0, "nothing carries over");
    cr_assert_eq(s.cards.pend, 0);
    if (t == 1) {
      /* play a card on turn 1: it is not lost for turn 2 */
      th_play_move(sc, &s, sc->card[__builtin_ctzll(s.cards.hand & sc->army_cards[ARMY_FR])].id);
      TH_DO(sc, &s, A_DONE, 0, 0, 0);
      if (s.turn.phase == PH_DECLARE) TH_DO(sc, &s, A_NOBATTLE, 0, 0, 0);
      th_skip_react(sc, &s);
      TH_DO(sc, &s, A_END, 0, 0, 0);
      cr_assert_eq(hand_count(sc, &s, ARMY_FR), 14);
    }
    pass_turn(sc, &s);
  }
  cr_assert(gs_over(&s));
  free(sc);
}

Test(rules, R_4_2_higher_bid_goes_first_bids_discarded_not_counted) {
  Scen *sc = th_load("short", "base");
  State s;
  uint64_t fr = sc->army_cards[ARMY_FR], br = sc->army_cards[ARMY_BR];
  bid_position(sc, &s, fr | br);
  TH_DO(sc, &s, A_BID, th_card(sc, "F03"), 0, 0); /* 6 MP */
  cr_assert_eq(s.turn.phase, PH_BID);
  cr_assert_eq(s.turn.decider, ALLIED);
  cr_assert(!th_legal(sc, &s, A_BID, th_card(sc, "F01"), 0, 0), "the Allies bid their own cards");
  TH_DO(sc, &s, A_BID, th_card(sc, "B08"), 0, 0); /* 2 MP */
  cr_assert_eq(s.turn.phase, PH_ROUND);
  cr_assert_eq(s.turn.active, FRENCH);
  cr_assert_eq(s.turn.first, FRENCH);
  cr_assert_eq(s.turn.ncards, 0, "bid cards do not count against the limit");
  uint64_t both = th_bit(sc, "F03") | th_bit(sc, "B08");
  cr_assert_eq(s.cards.discard & both, both);
  cr_assert_eq(s.cards.hand & both, 0);
  /* the other way round */
  bid_position(sc, &s, fr | br);
  TH_DO(sc, &s, A_BID, th_card(sc, "F12"), 0, 0); /* 2 MP */
  TH_DO(sc, &s, A_BID, th_card(sc, "B03"), 0, 0); /* 6 MP */
  cr_assert_eq(s.turn.active, ALLIED);
  cr_assert_eq(s.turn.decider, ALLIED);
  th_check(sc, &s);
  free(sc);
}

Test(rules, R_4_2_a_card_beats_no_card) {
  Scen *sc = th_load("short", "base");
  State s;
  uint64_t all = sc->army_cards[ARMY_FR] | sc->army_cards[ARMY_BR];
  bid_position(sc, &s, all);
  TH_DO(sc, &s, A_BID, CARD_NONE, 0, 0);
  TH_DO(sc, &s, A_BID, th_card(sc, "B08"), 0, 0); /* the lowest value still wins */
  cr_assert_eq(s.turn.active, ALLIED);
  bid_position(sc, &s, all);
  TH_DO(sc, &s, A_BID, th_card(sc, "F07"), 0, 0);
  TH_DO(sc, &s, A_BID, CARD_NONE, 0, 0);
  cr_assert_eq(s.turn.active, FRENCH);
  free(sc);
}

Test(rules, R_4_2_ties_broken_by_draws_from_undrawn_cards_put_back) {
  Scen *sc = th_load("short", "base");
  State s;
  uint64_t fr = sc->army_cards[ARMY_FR], br = sc->army_cards[ARMY_BR];
  for (int seed = 0; seed < 4; seed++) {
    /* the French undrawn cards all have 6 MP, the British ones 2 MP: the French go first */
    uint64_t hand = (fr & ~cards_mp(sc, ARMY_FR, 6)) | (br & ~cards_mp(sc, ARMY_BR, 2));
    bid_position(sc, &s, hand);
    s.rng.inc += (uint64_t)seed * 2 * 7919; /* another game's key */
    TH_DO(sc, &s, A_BID, CARD_NONE, 0, 0);
    TH_DO(sc, &s, A_BID, CARD_NONE, 0, 0);
    cr_assert_eq(s.turn.active, FRENCH);
    cr_assert_eq(s.cards.hand, hand, "tie-break draws are put back");
    /* equal bids (5 MP each) tie too: now the British undrawn cards are higher */
    hand = (fr & ~cards_mp(sc, ARMY_FR, 2)) | (br & ~cards_mp(sc, ARMY_BR, 6));
    bid_position(sc, &s, hand);
    s.rng.inc += (uint64_t)seed * 2 * 7919; /* another game's key */
    TH_DO(sc, &s, A_BID, th_card(sc, "F01"), 0, 0);
    TH_DO(sc, &s, A_BID, th_card(sc, "B01"), 0, 0);
    cr_assert_eq(s.turn.active, ALLIED);
    uint64_t bids = th_bit(sc, "F01") | th_bit(sc, "B01");
    cr_assert_eq(s.cards.hand, hand & ~bids);
    cr_assert_eq(s.cards.discard, bids);
  }
  free(sc);
}

Test(rules, R_4_2_allied_prussian_bid_tie_breaks_with_prussian_undrawn) {
  Scen *sc = th_load("long", "base");
  State s;
  uint64_t fr = sc->army_cards[ARMY_FR], br = sc->army_cards[ARMY_BR], pr = sc->army_cards[ARMY_PR];
  /* French undrawn: 4 MP; British undrawn: 2 MP (would lose); Prussian undrawn: 6 MP (wins) */
  uint64_t fr_keep = cards_mp(sc, ARMY_FR, 4) & ~th_bit(sc, "F26");
  uint64_t hand = (fr & ~fr_keep) | (br & ~cards_mp(sc, ARMY_BR, 2)) | (pr & ~cards_mp(sc, ARMY_PR, 6));
  for (int seed = 0; seed < 4; seed++) {
    bid_position(sc, &s, hand);
    s.rng.inc += (uint64_t)seed * 2 * 104729; /* another game's key */
    TH_DO(sc, &s, A_BID, th_card(sc, "F26"), 0, 0); /* 4 MP */
    TH_DO(sc, &s, A_BID, th_card(sc, "P02"), 0, 0); /* 4 MP: tie */
    cr_assert_eq(s.turn.active, ALLIED, "the Prussian undrawn cards break the tie");
    cr_assert_eq(s.turn.round_army, ARMY_PR);
  }
  free(sc);
}

Test(rules, R_4_3_bid_won_with_british_card_first_round_british_only) {
  Scen *sc = th_load("long", "base");
  State s;
  uint64_t all = sc->army_cards[ARMY_FR] | sc->army_cards[ARMY_BR] | sc->army_cards[ARMY_PR];
  for (int k = 0; k < 2; k++) {
    bid_position(sc, &s, all);
    TH_DO(sc, &s, A_BID, th_card(sc, "F07"), 0, 0); /* 2 MP */
    TH_DO(sc, &s, A_BID, th_card(sc, k == 0 ? "B03" : "P03"), 0, 0); /* 6 MP */
    cr_assert_eq(s.turn.active, ALLIED);
    int allowed = k == 0 ? ARMY_BR : ARMY_PR, other = k == 0 ? ARMY_PR : ARMY_BR;
    int n_allowed = 0;
    ActList L;
    gs_legal(sc, &s, &L);
    for (int i = 0; i < L.n; i++) {
      if (L.a[i].t == A_END) continue;
      cr_assert_neq(sc->card[L.a[i].play.card].army, other,
                    "first round limited to the bid's army");
      n_allowed += sc->card[L.a[i].play.card].army == allowed;
    }
    cr_assert_gt(n_allowed, 0);
  }
  /* the limit is for the first round only: the next Allied round of the turn is free */
  bid_position(sc, &s, all);
  TH_DO(sc, &s, A_BID, th_card(sc, "F07"), 0, 0);
  TH_DO(sc, &s, A_BID, th_card(sc, "B03"), 0, 0);
  TH_DO(sc, &s, A_END, 0, 0, 0);                                   /* Allied pass */
  cr_assert_eq(s.turn.active, FRENCH);
  th_play_move(sc, &s, "F01");
  TH_DO(sc, &s, A_DONE, 0, 0, 0);
  th_skip_react(sc, &s);
  TH_DO(sc, &s, A_END, 0, 0, 0);
  cr_assert_eq(s.turn.active, ALLIED);
  cr_assert(th_legal(sc, &s, A_PLAY_MOVE, th_card(sc, "P01"), 0, 0));
  cr_assert(th_legal(sc, &s, A_PLAY_MOVE, th_card(sc, "B01"), 0, 0));
  free(sc);
}

Test(rules, R_4_4_one_to_five_cards_per_round_then_markers_removed) {
  SETUP("short");
  quiet_round(sc, &s, "F01 F02 F03 F04 F05 F06 F23", "B01");
  int u = th_unit(sc, "fr-1/I");
  th_play_move(sc, &s, "F01");
  TH_DO(sc, &s, A_STEP, u, DIR_N, DIR_N);
  TH_DO(sc, &s, A_DONE, 0, 0, 0);
  th_skip_react(sc, &s);
  cr_assert(s.units.flag[u] & UF_MOVED);
  const char *more[4] = {"F02", "F03", "F04", "F05"};
  for (int i = 0; i < 4; i++) play_and_done(sc, &s, more[i]);
  cr_assert_eq(s.turn.ncards, 5);
  ActList L;
  gs_legal(sc, &s, &L);
  cr_assert_eq(L.n, 1, "after 5 cards only the end of the round: %s", th_legal_text(sc, &s));
  cr_assert_eq(L.a[0].t, A_END);
  TH_DO(sc, &s, A_END, 0, 0, 0);
  cr_assert_eq(s.turn.active, ALLIED);
  cr_assert_eq(s.turn.phase, PH_ROUND);
  cr_assert_eq(s.turn.ncards, 0);
  cr_assert_eq(s.units.flag[u] & (UF_MOVED | UF_RALLIED | UF_ATTACKED), 0, "markers removed");
  th_check(sc, &s);
  free(sc);
}

Test(rules, R_4_5_two_passes_in_a_row_end_the_turn) {
  SETUP("short");
  quiet_round(sc, &s, "F01 F02", "B01 B02");
  s.turn.number = 2;
  TH_DO(sc, &s, A_END, 0, 0, 0); /* French pass */
  cr_assert_eq(s.turn.number, 2);
  cr_assert_eq(s.turn.active, ALLIED);
  play_and_done(sc, &s, "B01"); /* the Allies play: no turn end */
  TH_DO(sc, &s, A_END, 0, 0, 0);
  cr_assert_eq(s.turn.number, 2);
  cr_assert_eq(s.turn.active, FRENCH);
  /* the French passed before, may play again */
  cr_assert(th_legal(sc, &s, A_PLAY_MOVE, th_card(sc, "F01"), 0, 0));
  TH_DO(sc, &s, A_END, 0, 0, 0); /* pass */
  cr_assert_eq(s.turn.number, 2);
  TH_DO(sc, &s, A_END, 0, 0, 0); /* pass right after: the turn ends with cards in hand */
  cr_assert_eq(s.turn.number, 3);
  cr_assert_eq(s.turn.phase, PH_BID);
  th_check(sc, &s);
  free(sc);
}

Test(rules, R_4_6_no_round_limit_when_the_other_side_has_no_cards) {
  SETUP("short");
  quiet_round(sc, &s, "F01 F02 F03 F04 F05 F06 F23", NULL);
  const char *cards[7] = {"F01", "F02", "F03", "F04", "F05", "F06", "F23"};
  for (int i = 0; i < 7; i++) play_and_done(sc, &s, cards[i]);
  cr_assert_eq(s.turn.ncards, 7);
  /* with a card left to the Allies the limit is back */
  quiet_round(sc, &s, "F01 F02 F03 F04 F05 F06 F23", "B01");
  for (int i = 0; i < 5; i++) play_and_done(sc, &s, cards[i]);
  cr_assert(!th_legal(sc, &s, A_PLAY_MOVE, th_card(sc, "F06"), 0, 0));
  free(sc);
}

/* ending turn last - 1 starts turn last; ending turn last ends the game */
static void last_turn_ends_the_game(const Scen *sc, State *s, int last) {
  end_of_turn(sc, s, last - 1);
  TH_DO(sc, s, A_END, 0, 0, 0);
  cr_assert(!gs_over(s));
  cr_assert_eq(s->turn.number, last);
  end_of_turn(sc, s, last);
  TH_DO(sc, s, A_END, 0, 0, 0);
  cr_assert(gs_over(s));
}

Test(rules, R_4_7_game_ends_after_the_last_turn) {
  Scen *sh = th_load("short", "base"), *lg = th_load("long", "base");
  State s;
  last_turn_ends_the_game(sh, &s, 4);
  cr_assert_eq(s.turn.number, 4);
  cr_assert(s.score.result == 1 || s.score.result == 2);
  th_check(sh, &s);
  last_turn_ends_the_game(lg, &s, 7);
  cr_assert(s.score.result >= 1 && s.score.result <= 3);
  free(sh);
  free(lg);
}

Test(rules, R_4_5_a_side_without_cards_must_pass) {
  SETUP("short");
  quiet_round(sc, &s, "", "B01");
  ActList L;
  gs_legal(sc, &s, &L);
  cr_assert_eq(L.n, 1);
  cr_assert_eq(L.a[0].t, A_END);
  free(sc);
}

Test(rules, R_4_3_three_player_rule_first_round_still_limited_to_the_bid_army) {
  Scen *sc = th_load("long", "three-player");
  State s;
  uint64_t all = sc->army_cards[ARMY_FR] | sc->army_cards[ARMY_BR] | sc->army_cards[ARMY_PR];
  bid_position(sc, &s, all);
  TH_DO(sc, &s, A_BID, th_card(sc, "F07"), 0, 0);
  TH_DO(sc, &s, A_BID, th_card(sc, "P03"), 0, 0);
  cr_assert_eq(s.turn.active, ALLIED);
  cr_assert(th_legal(sc, &s, A_PLAY_MOVE, th_card(sc, "P01"), 0, 0));
  cr_assert(!th_legal(sc, &s, A_PLAY_MOVE, th_card(sc, "B01"), 0, 0));
  free(sc);
}
