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

/* ---------------------------------------------------------------- R-5.8 restricted play */
/* the ban bit an action uses, or -1 (what ban_french / ban_allied can bar) */
static int ban_of(const Scen *sc, const State *s, Action a) {
  switch (a.t) {
  case A_ARTY: return ACT_ARTILLERY;
  case A_CHARGE: return ACT_CHARGE;
  case A_FORCE: return ACT_FORCE_CHARGE;
  case A_RALLY: return a.play.card == CARD_NONE ? -1 : ACT_RALLY; /* the second unit: no card */
  case A_RESTORE: return ACT_RALLY;
  case A_HEALTH: return ACT_HEALTH;
  case A_BID: return a.bid.card == CARD_NONE ? -1 : __builtin_ctz(BAN_BID);
  case A_BCARD:
    return a.bcard.purpose == BP_COMMAND ? ACT_COMMAND : a.bcard.purpose == BP_ELITE ? ACT_ELITE : -1;
  case A_CDP:
    return __builtin_ctz(BAN_CDP0) + sc->castle_of[s->units.sq[s->battle.def_unit]];
  default: return -1;
  }
}

/* random games under a ban of every restriction for one side: at every position the legal
 * actions are exactly those of the same position without the ban, less the banned side's uses */
typedef struct {
  Scen *free_sc;
  int side;
  long removed[BAN_BITS], kept_other[BAN_BITS];
} BanWalk;

static void ban_check(const Scen *sc, const State *s, void *arg) {
  BanWalk *w = arg;
  ActList *lb = malloc(sizeof *lb), *lf = malloc(sizeof *lf);
  gs_legal(sc, s, lb);
  gs_legal(w->free_sc, s, lf);
  int k = 0;
  for (int i = 0; i < lf->n; i++) {
    int b = ban_of(sc, s, lf->a[i]);
    if (b >= 0 && s->turn.decider == w->side) { w->removed[b]++; continue; }
    if (b >= 0) w->kept_other[b]++;
    cr_assert(k < lb->n && !memcmp(&lb->a[k], &lf->a[i], sizeof(Action)),
              "phase %s: an action the ban does not name is missing", phase_name(s->turn.phase));
    k++;
  }
  cr_assert_eq(k, lb->n, "phase %s: the ban added an action", phase_name(s->turn.phase));
  free(lb);
  free(lf);
}

static void ban_walk(const char *scen, int side, int games, BanWalk *w) {
  const char *spec = side == FRENCH
      ? "ban_french=artillery/command/charge/force-charge/elite/rally/health/bid/cdp-hougoumont/"
        "cdp-lhs/cdp-frischermont"
      : "ban_allied=artillery/command/charge/force-charge/elite/rally/health/bid/cdp-hougoumont/"
        "cdp-lhs/cdp-frischermont";
  Scen *sc = malloc(sizeof *sc);
  char err[1024];
  cr_assert_eq(scen_load_user(sc, "scenarios", scen, spec, err, sizeof err), 0, "%s", err);
  cr_assert_eq(sc->p.ban[side], (1 << BAN_BITS) - 2, "every restriction read");
  cr_assert_eq(sc->p.ban[side ^ 1], 0);
  memset(w, 0, sizeof *w);
  w->free_sc = th_load(scen, "base");
  w->side = side;
  for (int g = 0; g < games; g++) {
    State s;
    gs_init(sc, &s, 58 + g, g);
    th_random_play(sc, &s, 7, g, ban_check, w);
  }
  free(w->free_sc);
  free(sc);
}

Test(rules, R_5_8_a_banned_side_never_has_the_banned_uses_the_other_keeps_them, .timeout = 300) {
  static const char *scen[2] = {"short", "long"};
  for (int side = 0; side < 2; side++)
    for (int k = 0; k < 2; k++) {
      BanWalk w;
      ban_walk(scen[k], side, 40, &w);
      /* the uses random play meets were there to remove, and the other side kept its own */
      int seen[] = {ACT_ARTILLERY, ACT_COMMAND, ACT_CHARGE, ACT_FORCE_CHARGE, ACT_ELITE,
                    ACT_RALLY, __builtin_ctz(BAN_BID)};
      for (size_t i = 0; i < sizeof seen / sizeof seen[0]; i++) {
        cr_assert_gt(w.removed[seen[i]], 0, "%s %s: no %s to remove", scen[k], side_name(side),
                     ban_name(seen[i]));
        cr_assert_gt(w.kept_other[seen[i]], 0, "%s %s: the other side lost %s", scen[k],
                     side_name(side), ban_name(seen[i]));
      }
      if (side == ALLIED) cr_assert_gt(w.removed[ACT_HEALTH], 0);
      else cr_assert_gt(w.kept_other[ACT_HEALTH], 0, "the British keep Napoleon's health");
    }
}

/* a card whose action is barred still moves (R-5.2: a card serves one purpose, named when played) */
Test(rules, R_5_8_banned_artillery_card_still_moves_and_fights_for_its_points) {
  Scen *sc = th_load("short", "base");
  sc->p.ban[FRENCH] = 1 << ACT_ARTILLERY;
  State s;
  th_empty(sc, &s, 1);
  int f = th_put(sc, &s, "fr-1/I", "H7", DIR_N);
  th_put(sc, &s, "br-3/I", "H6", DIR_S);
  int b = th_put(sc, &s, "br-5/R", "J6", DIR_S);
  th_put(sc, &s, "fr-2/I", "J7", DIR_N);
  th_give(sc, &s, "F10 B08");
  th_round(&s, FRENCH);
  int c = th_card(sc, "F10");
  cr_assert_eq(th_count(sc, &s, A_ARTY, -1), 0, "no French fire");
  cr_assert(th_legal(sc, &s, A_PLAY_MOVE, c, 0, 0), "the artillery card still moves");
  s.turn.phase = PH_REACT; /* the reaction window of R-9.1 (b) */
  cr_assert_eq(th_count(sc, &s, A_ARTY, -1), 0, "no French fire out of turn");
  cr_assert_eq(th_count(sc, &s, A_NOFIRE, -1), 1);
  sc->p.ban[FRENCH] = 0;
  cr_assert_gt(th_count(sc, &s, A_ARTY, -1), 0, "the same window without the ban");
  sc->p.ban[FRENCH] = 1 << ACT_ARTILLERY;
  th_round(&s, ALLIED);
  cr_assert(th_legal(sc, &s, A_ARTY, th_card(sc, "B08"), b, 0), "the Allies still fire");
  (void)f;
  free(sc);
}

/* each castle's damage points are barred one by one; the castle still doubles the defender */
Test(rules, R_5_8_castle_points_barred_per_castle) {
  for (int ban = 0; ban < MAX_CASTLES; ban++) {
    Scen *sc = th_load("short", "base");
    sc->p.ban[ALLIED] = BAN_CDP0 << ban;
    static const char *where[MAX_CASTLES] = {"C7", "F5", "M5"};
    for (int c = 0; c < MAX_CASTLES; c++) {
      State s;
      th_empty(sc, &s, 1);
      int d = th_put(sc, &s, "br-3/I", where[c], DIR_S);
      s.turn.phase = PH_B_LOSS;
      s.turn.decider = ALLIED;
      s.battle.def_unit = (uint8_t)d;
      s.battle.loss_owed = LOSS_REDUCE;
      cr_assert_eq(th_count(sc, &s, A_CDP, -1), c != ban, "castle %d, ban %d", c, ban);
      sc->p.ban[ALLIED] = 0;
      cr_assert_eq(th_count(sc, &s, A_CDP, -1), 1, "castle %d without the ban", c);
      sc->p.ban[ALLIED] = BAN_CDP0 << ban;
    }
    free(sc);
  }
}

Test(rules, R_5_8_restrictions_read_by_name_and_refused_when_unknown) {
  Scen *sc = malloc(sizeof *sc);
  char err[1024];
  cr_assert_eq(scen_load_user(sc, "scenarios", "long", "ban_allied=bid cdp-lhs+ban_french=none",
                              err, sizeof err), 0, "%s", err);
  cr_assert_eq(sc->p.ban[ALLIED], BAN_BID | BAN_CDP0 << 1);
  cr_assert_eq(sc->p.ban[FRENCH], 0);
  cr_assert_neq(scen_load_user(sc, "scenarios", "short", "ban_french=cannon", err, sizeof err), 0);
  cr_assert(strstr(err, "ban_french: unknown restriction 'cannon'"), "%s", err);
  cr_assert_neq(scen_load(sc, "scenarios", "short", "base", err, sizeof err), -1);
  cr_assert_eq(sc->p.ban[FRENCH] | sc->p.ban[ALLIED], 0, "no restriction in the base game");
  for (int b = 0; b < BAN_BITS; b++)
    if (ban_name(b)) cr_assert_eq(ban_bit(ban_name(b)), b);
  free(sc);
}
