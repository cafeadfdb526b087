/* The seat rule (R-1.2, engine/seat.c): which of the French, British and Prussian players
 * decides each decision, under both Allied card rules (R-5.6: `base` keeps an Allied round to
 * one army, `three-player` mixes).  Expectations come from the rulebook (§6: the British has
 * the last word on the Allied round's card; §7: one Allied player bids, the British in case of
 * doubt) and the ruling R-1.2 (seats) of docs/RULINGS.md. */
#include "rules/rules.h"
#include "../ai/ai_bench.h"
#include "../ai/player.h"

static const char *const RULES[2] = {"base", "three-player"};

/* every position of random games: the seat belongs to the deciding side, the Prussian seat
 * exists only with Prussians, and a decision tied to a card goes to that card's army */
static void seat_invariants(const Scen *sc, const State *s, void *arg) {
  int *prussian_seen = arg;
  int seat = gs_seat(sc, s);
  if (gs_over(s)) {
    cr_assert_eq(seat, -1);
    return;
  }
  cr_assert(seat >= 0 && seat < SEAT_COUNT);
  cr_assert_eq(seat_side(seat), s->turn.decider, "seat %s for side %d in %s", seat_name(seat),
               s->turn.decider, phase_name(s->turn.phase));
  cr_assert(scen_has_seat(sc, seat), "seat %s in the %s game", seat_name(seat), sc->scen_name);
  int ph = s->turn.phase;
  if (s->turn.decider == ALLIED && (ph == PH_MOVE || ph == PH_DECLARE || ph == PH_RALLY2))
    cr_assert_eq(seat, s->play.army, "the card's army carries out the card (%s)",
                 phase_name(ph));
  if (s->turn.decider == ALLIED && ph == PH_B_DEFCARDS)
    cr_assert_eq(seat, sc->unit[s->battle.def_unit].army, "the defending army's cards");
  if (seat == SEAT_PRUSSIAN) (*prussian_seen)++;
}

Test(rules, R_1_2_seat_of_every_decision_in_random_games) {
  for (int v = 0; v < 2; v++) {
    for (int scen = 0; scen < 2; scen++) {
      Scen *sc = th_load(scen ? "long" : "short", RULES[v]);
      int prussian = 0;
      for (uint64_t g = 1; g <= 6; g++) {
        State s;
        gs_init(sc, &s, g, g);
        th_random_play(sc, &s, g, 7, seat_invariants, &prussian);
      }
      if (scen) cr_assert_gt(prussian, 0, "the Prussian seat decides in the long game");
      else cr_assert_eq(prussian, 0, "no Prussian seat in the short game");
      free(sc);
    }
  }
}

Test(rules, R_1_2_short_game_has_no_prussian_seat) {
  Scen *sh = th_load("short", "base"), *lg = th_load("long", "base");
  cr_assert(scen_has_seat(sh, SEAT_FRENCH) && scen_has_seat(sh, SEAT_BRITISH));
  cr_assert(!scen_has_seat(sh, SEAT_PRUSSIAN));
  cr_assert(scen_has_seat(lg, SEAT_PRUSSIAN));
  cr_assert_eq(seat_parse("prussian"), SEAT_PRUSSIAN);
  cr_assert_eq(seat_parse("allied"), -1);
  free(sh);
  free(lg);
}

/* An Allied round with British and Prussian cards in hand: the British chooses the card.  After
 * a Prussian card for movement the Prussian moves; then the two card rules part: under the
 * two-player rule the round is now Prussian only, so the Prussian chooses its next card or the
 * end; under the three-player rule the British keeps the last word over both decks. */
Test(rules, R_1_2_round_card_choice_british_last_word_both_card_rules) {
  for (int v = 0; v < 2; v++) {
    SETUP_TURN("long", 6, 3);
    sc->p.three_player = v;
    th_put(sc, &s, "pr-13", "H5", DIR_S);
    th_give(sc, &s, "B01 B02 P01 P02");
    th_round(&s, ALLIED);
    cr_assert_eq(gs_seat(sc, &s), SEAT_BRITISH, "%s: first card", RULES[v]);
    th_play_move(sc, &s, "P01");
    cr_assert_eq(gs_seat(sc, &s), SEAT_PRUSSIAN, "a Prussian card is carried out by the Prussian");
    TH_DO(sc, &s, A_DONE, 0, 0, 0);
    th_skip_react(sc, &s);
    if (s.turn.phase == PH_DECLARE) TH_DO(sc, &s, A_NOBATTLE, 0, 0, 0);
    th_skip_react(sc, &s);
    cr_assert_eq(s.turn.phase, PH_ROUND);
    cr_assert_eq(s.turn.active, ALLIED);
    cr_assert_eq(gs_seat(sc, &s), v ? SEAT_BRITISH : SEAT_PRUSSIAN,
                 "%s: the round's next card", RULES[v]);
    free(sc);
  }
}

/* with seats: a round limited to Prussian cards by a Prussian bid is the Prussian's
 * under both card rules; a hand of Prussian cards only too; the bid itself is the British's */
Test(rules, R_1_2_bid_british_round_after_prussian_bid_prussian) {
  for (int v = 0; v < 2; v++) {
    Scen *sc = th_load("long", RULES[v]);
    State s;
    uint64_t all = sc->army_cards[ARMY_FR] | sc->army_cards[ARMY_BR] | sc->army_cards[ARMY_PR];
    bid_position(sc, &s, all);
    TH_DO(sc, &s, A_BID, th_card(sc, "F07"), 0, 0);
    cr_assert_eq(s.turn.phase, PH_BID);
    cr_assert_eq(gs_seat(sc, &s), SEAT_BRITISH, "%s: the Allied bid", RULES[v]);
    TH_DO(sc, &s, A_BID, th_card(sc, "P03"), 0, 0);
    cr_assert_eq(s.turn.active, ALLIED);
    cr_assert_eq(gs_seat(sc, &s), SEAT_PRUSSIAN, "%s: first round after a Prussian bid",
                 RULES[v]);
    free(sc);
  }
  SETUP_TURN("long", 6, 3);
  th_give(sc, &s, "P01 P02");
  th_round(&s, ALLIED);
  cr_assert_eq(gs_seat(sc, &s), SEAT_PRUSSIAN, "only Prussian cards in the Allied hand");
  th_give(sc, &s, "B01");
  cr_assert_eq(gs_seat(sc, &s), SEAT_BRITISH);
  free(sc);
}

/* A French attack on a Prussian unit: every Allied decision of the battle (artillery before
 * the reveal, battle cards, the loss) is the Prussian's; on a British unit, the British's.  An
 * Allied attack: the attacking army's. */
Test(rules, R_1_2_battle_decisions_by_the_army_in_battle) {
  for (int v = 0; v < 2; v++)
    for (int army = ARMY_BR; army <= ARMY_PR; army++) {
      SETUP_TURN("long", 6, 3);
      sc->p.three_player = v;
      th_put(sc, &s, army == ARMY_PR ? "pr-13" : "br-3/I", "H5", DIR_S);
      th_put(sc, &s, "fr-1/I", "H6", DIR_N);
      th_give(sc, &s, "F01 F02 B01 B02 P01 P02");
      th_declare_phase(&s, FRENCH, ARMY_FR);
      TH_DO(sc, &s, A_DECLARE, th_sq(sc, "H5"), DB(DIR_S), 0);
      cr_assert_eq(s.turn.phase, PH_B_FIRE);
      cr_assert_eq(gs_seat(sc, &s), army, "the defender's artillery window");
      TH_DO(sc, &s, A_NOFIRE, 0, 0, 0);
      cr_assert_eq(gs_seat(sc, &s), SEAT_FRENCH);
      th_bcards(sc, &s, "F01 F02");
      cr_assert_eq(s.turn.phase, PH_B_DEFCARDS);
      cr_assert_eq(gs_seat(sc, &s), army, "the defender's battle cards");
      TH_DO(sc, &s, A_BDONE, 0, 0, 0);
      cr_assert_eq(s.turn.phase, PH_B_LOSS, "%s", th_legal_text(sc, &s));
      cr_assert_eq(gs_seat(sc, &s), army, "the defender's loss");
      free(sc);
    }
  SETUP_TURN("long", 6, 3);
  th_put(sc, &s, "pr-13", "H5", DIR_S);
  th_put(sc, &s, "fr-1/I", "H6", DIR_N);
  th_give(sc, &s, "B01 P01");
  th_declare_phase(&s, ALLIED, ARMY_PR);
  cr_assert_eq(gs_seat(sc, &s), SEAT_PRUSSIAN, "the battle right of a Prussian card");
  TH_DO(sc, &s, A_DECLARE, th_sq(sc, "H6"), DB(DIR_N), 0);
  if (s.turn.phase == PH_B_FIRE) TH_DO(sc, &s, A_NOFIRE, 0, 0, 0);
  cr_assert_eq(s.turn.phase, PH_B_ATTCARDS);
  cr_assert_eq(gs_seat(sc, &s), SEAT_PRUSSIAN, "the attacker's cards");
  free(sc);
}

/* the short game: every Allied decision is the British seat's */
Test(rules, R_1_2_short_game_all_allied_decisions_british) {
  SETUP("short");
  th_give(sc, &s, "B01 B02");
  th_round(&s, ALLIED);
  cr_assert_eq(gs_seat(sc, &s), SEAT_BRITISH);
  th_round(&s, FRENCH);
  cr_assert_eq(gs_seat(sc, &s), SEAT_FRENCH);
  free(sc);
}

/* ---------------------------------------------------------------- players per seat */
/* a seated Allied spec "BRITISH+PRUSSIAN": every decision gs_seat gives the Prussian is made by
 * the second player, every other Allied one by the first (each checked against its own copy,
 * seeded as player.h says and asked the same decisions) */
typedef struct { const Scen *sc; Player *fr, *seated, *ref[3]; int asked[3]; } SeatGame;

static Action seated_choose(void *ctx, const State *s, const ActList *L) {
  (void)L;
  SeatGame *t = ctx;
  if (s->turn.decider == FRENCH) return player_act(t->fr, s);
  int seat = gs_seat(t->sc, s);
  Action a = player_act(t->seated, s), want = player_act(t->ref[seat], s);
  cr_assert(!memcmp(&a, &want, sizeof a), "the %s seat's decision in %s was not its player's",
            seat_name(seat), phase_name(s->turn.phase));
  t->asked[seat]++;
  return a;
}

Test(rules, R_1_2_seated_allied_player_plays_each_seat_with_its_own_player) {
  for (int v = 0; v < 2; v++) {
    Scen *sc = th_load("long", RULES[v]);
    char err[256];
    for (uint64_t g = 1; g <= 3; g++) {
      SeatGame t = {.sc = sc};
      t.fr = player_new(sc, "heuristic", g, err, sizeof err);
      t.seated = player_new(sc, "heuristic+random", 100 + g, err, sizeof err);
      cr_assert_not_null(t.seated, "%s", err);
      t.ref[SEAT_BRITISH] = player_new(sc, "heuristic", 100 + g, err, sizeof err);
      t.ref[SEAT_PRUSSIAN] = player_new(sc, "random", SEATED_ALLY_SEED(100 + g), err, sizeof err);
      State s;
      gs_init(sc, &s, g, g);
      GameHooks h = {.choose = seated_choose, .ctx = &t, .max_actions = 49999};
      cr_assert_geq(game_run(sc, &s, &h), 0);
      cr_assert_gt(t.asked[SEAT_PRUSSIAN], 0, "the Prussian seat decided in a long game");
      cr_assert_gt(t.asked[SEAT_BRITISH], 0);
      player_free(t.fr);
      player_free(t.seated);
      player_free(t.ref[SEAT_BRITISH]);
      player_free(t.ref[SEAT_PRUSSIAN]);
    }
    free(sc);
  }
}

/* the honesty check of a seated Allied player: same observation, same decision */
Test(rules, R_1_2_seated_allied_player_is_honest) {
  Scen *sc = th_load("long", "base");
  cr_assert_eq(ai_honesty_check(sc, "mcts:iters=100,cut=2+heuristic", 21, 12), 0);
  free(sc);
}

Test(rules, R_1_2_seats_player_list) {
  char spec[3][128], al[300], err[256];
  cr_assert(seats_form("french=heuristic,british=mcts:sim"));
  cr_assert(!seats_form("heuristic,heuristic"));
  cr_assert_eq(seats_parse("prussian=mcts:iters=300,cut=2,french=random,british=heuristic", spec,
                           err, sizeof err), 0, "%s", err);
  cr_assert_str_eq(spec[SEAT_PRUSSIAN], "mcts:iters=300,cut=2", "option commas stay in the spec");
  cr_assert_str_eq(spec[SEAT_FRENCH], "random");
  cr_assert_eq(seats_allied_spec(spec, al, sizeof al), 0);
  cr_assert_str_eq(al, "heuristic+mcts:iters=300,cut=2");
  cr_assert_eq(player_spec_check(al, err, sizeof err), 0, "%s", err);
  cr_assert_neq(seats_parse("french=random,french=heuristic,british=random", spec, err, sizeof err), 0);
  cr_assert_neq(seats_parse("french=random", spec, err, sizeof err), 0);
  cr_assert_neq(seats_parse("french=random,british=", spec, err, sizeof err), 0);
  cr_assert_neq(player_spec_check("heuristic+", err, sizeof err), 0);
  cr_assert_neq(player_spec_check("heuristic+random+random", err, sizeof err), 0);
  cr_assert_neq(player_spec_check("heuristic+bogus", err, sizeof err), 0);
}
