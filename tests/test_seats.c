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

/* ---------------------------------------------------------------- seats in a session */
#include "../front/json.h"
#include "../front/session.h"

/* a long game with a person at the British seat only: the person is asked exactly the British
 * seat's decisions, the computer players (French, and the Prussian ally) every other one, and
 * never one of the person's; the game ends; the save keeps the seats */
Test(seats, session_computer_ally_plays_only_its_seat) {
  for (int v = 0; v < 2; v++) {
    Session S;
    char err[512];
    cr_assert_eq(session_new(&S, "long", RULES[v], 5, ALLIED, "random", err, sizeof err), 0, "%s", err);
    cr_assert_eq(session_set_seats(&S, "french=random,british=human,prussian=heuristic", err, sizeof err), 0, "%s", err);
    cr_assert_eq(S.human, ALLIED);
    int asked = 0, ally = 0;
    uint64_t pick = 12345;
    while (!gs_over(&S.s)) {
      int seat = gs_seat(S.sc, &S.s);
      if (session_humans_turn(&S)) {
        cr_assert_eq(seat, SEAT_BRITISH);
        asked++;
        ActList L;
        gs_legal(S.sc, &S.s, &L);
        pick = pick * 6364136223846793005ull + 1442695040888963407ull;
        cr_assert_eq(session_play_index(&S, (long)((pick >> 33) % (uint64_t)L.n), 1), 0);
      } else {
        cr_assert_neq(seat, SEAT_BRITISH, "the computer decided for the person");
        ally += seat == SEAT_PRUSSIAN;
        session_apply(&S, session_computer_choice(&S, &S.s), 0);
      }
    }
    cr_assert_gt(asked, 0);
    cr_assert_gt(ally, 0, "the Prussian ally played its decisions");
    char dir[256], path[300];
    th_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/g.json", dir);
    cr_assert_eq(session_save(&S, path, err, sizeof err), 0, "%s", err);
    Session L;
    cr_assert_eq(session_load(&L, path, FRENCH, "normal", err, sizeof err), 0, "%s", err);
    cr_assert_str_eq(L.g.seats, "french=random,british=human,prussian=heuristic");
    cr_assert_eq(session_set_seats(&L, L.g.seats, err, sizeof err), 0, "%s", err);
    cr_assert(L.seats.human[SEAT_BRITISH] && !L.seats.human[SEAT_PRUSSIAN] && !L.seats.human[SEAT_FRENCH]);
    session_free(&L);
    session_free(&S);
    th_rmdir(dir);
  }
}

/* people on both sides: the log is the public view (no secret choice named to anyone), a seat's
 * view holds its side's hand only, and undo is off */
Test(seats, session_people_on_both_sides_see_only_their_side) {
  Session S;
  char err[512];
  cr_assert_eq(session_new(&S, "long", "base", 9, FRENCH, "random", err, sizeof err), 0, "%s", err);
  cr_assert_eq(session_set_seats(&S, "french=human,british=random,prussian=human", err, sizeof err), 0, "%s", err);
  cr_assert_eq(S.human, SESSION_BOTH_SIDES);
  int n = 0;
  while (!gs_over(&S.s) && n++ < 3000) {
    if (session_humans_turn(&S)) {
      int seat = gs_seat(S.sc, &S.s);
      cJSON *me = session_view_seat(&S, 0, seat), *other = session_view_seat(&S, 0, seat == SEAT_FRENCH ? SEAT_PRUSSIAN : SEAT_FRENCH);
      char *a = cJSON_PrintUnformatted(me), *b = cJSON_PrintUnformatted(other);
      cr_assert(strstr(a, "\"your_turn\":true") && strstr(b, "\"your_turn\":false"));
      cr_assert_null(strstr(b, "\"legal\":[{"), "the other seat gets no legal actions");
      /* the other side's view names none of the deciding side's hand */
      uint64_t mine = S.s.cards.hand & side_cards_mask(S.sc, seat_side(seat));
      for (uint64_t m = mine; m; m &= m - 1) {
        char q[16];
        snprintf(q, sizeof q, "\"%s\"", S.sc->card[__builtin_ctzll(m)].id);
        const cJSON *hand = cJSON_GetObjectItem(cJSON_GetObjectItem(other, "observation"), "hand");
        char *h = cJSON_PrintUnformatted(hand);
        cr_assert_null(strstr(h, q), "card %s of the deciding side in the other side's hand", q);
        free(h);
      }
      free(a);
      free(b);
      cJSON_Delete(me);
      cJSON_Delete(other);
      cr_assert_eq(session_play_index(&S, 0, 1), 0);
      cr_assert_lt(session_undo(&S), 0, "no undo with people on both sides");
    } else {
      session_apply(&S, session_computer_choice(&S, &S.s), 0);
    }
  }
  for (int i = 0; i < S.nlog; i++)
    if (S.log[i].phase == PH_BID || S.log[i].phase == PH_B_ATTCARDS || S.log[i].phase == PH_B_DEFCARDS)
      if (strncmp(S.log[i].text, "bid none", 8) && strncmp(S.log[i].text, "battle done", 11))
        cr_assert_str_eq(S.log[i].text, "(a secret choice)", "log entry %d names a secret: %s", i,
                         S.log[i].text);
  session_free(&S);
}

Test(seats, seats_text_refused_with_one_line) {
  Session S;
  char err[512];
  cr_assert_eq(session_new(&S, "short", "base", 1, FRENCH, "random", err, sizeof err), 0);
  const char *bad[] = {"french=human,prussian=human", "french=human,british=bogus", "french=random,british=random",
                       "french=human,french=human", "spain=human", "french"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cr_assert_neq(session_set_seats(&S, bad[i], err, sizeof err), 0, "%s accepted", bad[i]);
    cr_assert_null(strchr(err, '\n'));
    cr_assert(strncmp(err, "seats:", 6) == 0, "%s", err);
  }
  session_free(&S);
}

/* play --seats in the terminal and the engine protocol's seat, state SEAT and genmove ... SEAT */
Test(seats, play_and_engine_protocol_take_seats) {
  static char out[1 << 16];
  int rc = th_sh("printf 'pass\\nquit\\n' | ./waterloo play --scenario long --seed 3 --no-color "
                 "--seats french=human,british=random,prussian=human", out, sizeof out);
  cr_assert_eq(rc, 0, "%s", out);
  cr_assert_not_null(strstr(out, "Seats: french=human,british=random,prussian=human."), "%s", out);
  cr_assert_not_null(strstr(out, "French> "), "%s", out);
  rc = th_sh("./waterloo play --scenario short --seats french=human,prussian=human 2>&1", out, sizeof out);
  cr_assert_eq(rc, 2);
  cr_assert_not_null(strstr(out, "no prussian seat"), "%s", out);
  th_sh("printf 'new long seed 3\\nseat\\ngenmove heuristic prussian\\nstate british\\nquit\\n' | ./waterloo engine",
        out, sizeof out);
  cr_assert_not_null(strstr(out, "= french\n"), "%s", out);
  cr_assert_not_null(strstr(out, "? the prussian seat does not decide now (french does)"), "%s", out);
  cr_assert_not_null(strstr(out, "\"side\":\"Allied\""), "%s", out);
}
