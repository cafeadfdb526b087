/* The engine beyond single rules: invariants over thousands of random games, notation round
 * trip, JSON save/load, observation and determinization, scenario loader errors.
 *
 * Hot loops check with plain `if` and fail with cr_assert_fail, so that a passing run does not
 * send millions of assertion events to the Criterion runner. */
#include <time.h>

#include "helpers.h"

/* ---------------------------------------------------------------- random games */
typedef struct {
  long actions;
  int games;
  int results[4];
} GameStats;

/* One game of uniformly random legal actions, checking after every action: gs_check, the
 * notation round trip, a non-empty legal list for the decider, and that the game ends. */
static void checked_game(const Scen *sc, uint64_t seed, ActList *L, GameStats *st) {
  State s;
  gs_init(sc, &s, seed, seed ^ 0x9e37);
  Rng r;
  rng_seed(&r, seed, 77);
  char why[256], buf[160], err[300];
  if (gs_check(sc, &s, why, sizeof why)) cr_assert_fail("seed %lu: initial position: %s", (unsigned long)seed, why);
  long n = 0;
  while (!gs_over(&s)) {
    gs_legal(sc, &s, L);
    if (L->n <= 0)
      cr_assert_fail("seed %lu: no legal action in phase %s", (unsigned long)seed,
                     phase_name(s.turn.phase));
    Action a = L->a[rng_below(&r, (uint32_t)L->n)];
    action_format(sc, &s, a, buf, sizeof buf);
    Action b;
    if (action_parse(sc, &s, buf, &b, err, sizeof err))
      cr_assert_fail("seed %lu action %ld: '%s' does not parse: %s", (unsigned long)seed, n, buf, err);
    if (memcmp(&a, &b, sizeof a))
      cr_assert_fail("seed %lu action %ld: '%s' is %d(%d,%d,%d) but parses as %d(%d,%d,%d)",
                     (unsigned long)seed, n, buf, a.t, a.a, a.b, a.c, b.t, b.a, b.b, b.c);
    gs_apply(sc, &s, a);
    n++;
    if (gs_check(sc, &s, why, sizeof why))
      cr_assert_fail("seed %lu after action %ld ('%s'): %s", (unsigned long)seed, n, buf, why);
    if (n > 100000) cr_assert_fail("seed %lu: the game does not end", (unsigned long)seed);
  }
  if (s.turn.number != sc->p.turns)
    cr_assert_fail("seed %lu: ended on turn %d", (unsigned long)seed, s.turn.number);
  if (s.score.result < 1 || s.score.result > (sc->scenario == SC_LONG ? 3 : 2))
    cr_assert_fail("seed %lu: result %d", (unsigned long)seed, s.score.result);
  st->actions += n;
  st->games++;
  st->results[s.score.result]++;
}

static void property_run(const char *scen, const char *variants, uint64_t first, int games) {
  Scen *sc = th_load(scen, variants);
  ActList *L = malloc(sizeof *L);
  GameStats st = {0};
  for (int g = 0; g < games; g++) checked_game(sc, first + (uint64_t)g, L, &st);
  cr_assert_eq(st.games, games);
  /* random play is not a strategy, but both results must be reachable by it */
  cr_log_info("%s/%s: %d games, %ld actions, French %d Allied %d draws %d", scen, variants, st.games,
              st.actions, st.results[1], st.results[2], st.results[3]);
  free(L);
  free(sc);
}

/* 3,000 short and 1,000 long games in all (about 5 s on 2 cores), split so that --jobs 2 runs
 * them side by side */
Test(engine, property_random_short_games_a, .timeout = 60) { property_run("short", "base", 100000, 1500); }
Test(engine, property_random_short_games_b, .timeout = 60) { property_run("short", "base", 200000, 1500); }
Test(engine, property_random_long_games_a, .timeout = 60) { property_run("long", "base", 300000, 500); }
Test(engine, property_random_long_games_b, .timeout = 60) { property_run("long", "base", 400000, 500); }
/* the variants change which paths are taken: a few games each */
Test(engine, property_random_games_variants, .timeout = 60) {
  property_run("long", "three-player", 500000, 30);
  property_run("short", "charge-all-cards", 510000, 40);
  property_run("short", "no-bidding", 520000, 40);
  property_run("long", "prussians-early,strong-hougoumont", 530000, 30);
}

/* gs_check has teeth: broken positions are reported */
/* the hands of every turn of game (seed, g), played by uniformly random moves from policy
 * stream pol: hands[t] = the hand right after turn t's draw */
static void turn_hands(const Scen *sc, uint64_t seed, uint64_t g, uint64_t pol, uint64_t hands[8]) {
  State s;
  gs_init(sc, &s, seed, g);
  Rng r;
  rng_seed(&r, pol, 5);
  ActList L;
  memset(hands, 0, 8 * sizeof hands[0]);
  int last = 0;
  while (!gs_over(&s)) {
    if (s.turn.number != last && s.turn.number < 8) hands[s.turn.number] = s.cards.hand;
    last = s.turn.number;
    gs_legal(sc, &s, &L);
    gs_apply(sc, &s, L.a[rng_below(&r, (uint32_t)L.n)]);
  }
}

/* Chance is drawn per (game, turn, event), not from one stream in order: two games on the same
 * seed deal the same hands every turn whatever was played before (and in a variant that does not
 * change the decks), another seed deals others.  The common random numbers of sim's paired design
 * rest on this. */
Test(engine, chance_is_keyed_by_game_turn_and_event) {
  Scen *sc = th_load("long", "base"), *var = th_load("long", "strong-hougoumont");
  int other = 0, turns = 0;
  for (uint64_t g = 0; g < 20; g++) {
    uint64_t h1[8], h2[8], h3[8], h4[8];
    turn_hands(sc, 1815, g, 1, h1);
    turn_hands(sc, 1815, g, 2, h2);
    turn_hands(var, 1815, g, 3, h3);
    turn_hands(sc, 1816, g, 1, h4);
    for (int t = 1; t < 8 && t <= sc->p.turns; t++) {
      cr_assert_eq(h1[t], h2[t], "game %d turn %d: other play, other hand", (int)g, t);
      cr_assert_eq(h1[t], h3[t], "game %d turn %d: the variant deals another hand", (int)g, t);
      other += h1[t] != h4[t];
      turns++;
    }
  }
  cr_assert_gt(other, turns * 9 / 10, "another seed deals other hands (%d of %d)", other, turns);
  free(sc);
  free(var);
}

Test(engine, gs_check_rejects_broken_positions) {
  Scen *sc = th_load("short", "base");
  State s, t;
  gs_init(sc, &s, 1, 0);
  th_check(sc, &s);
  char why[256];
  t = s; /* two units on one square */
  t.units.sq[1] = t.units.sq[0];
  gs_rebuild_occ(sc, &t);
  cr_assert_neq(gs_check(sc, &t, why, sizeof why), 0);
  t = s; /* a card in the hand and the discards */
  t.cards.discard |= t.cards.hand & (~t.cards.hand + 1);
  cr_assert_neq(gs_check(sc, &t, why, sizeof why), 0);
  t = s; /* a castle point too many */
  t.turn.cdp[1] = 3;
  cr_assert_neq(gs_check(sc, &t, why, sizeof why), 0);
  t = s; /* a moved marker at the start of a round */
  t.units.flag[0] |= UF_MOVED;
  cr_assert_neq(gs_check(sc, &t, why, sizeof why), 0);
  t = s; /* a moved marker while the turn's bid is made (R-4.2: a bid opens a turn) */
  t.turn.phase = PH_BID;
  t.units.flag[0] |= UF_MOVED;
  cr_assert_neq(gs_check(sc, &t, why, sizeof why), 0);
  cr_assert(strstr(why, "R-4.4"), "%s", why);
  t.units.flag[0] &= (uint8_t)~UF_MOVED; /* ... or a card played before it */
  t.turn.ncards = 1;
  cr_assert_neq(gs_check(sc, &t, why, sizeof why), 0);
  cr_assert(strstr(why, "R-4.2"), "%s", why);
  t = s; /* the movement phase with no card played in the round */
  t.turn.phase = PH_MOVE;
  cr_assert_neq(gs_check(sc, &t, why, sizeof why), 0);
  cr_assert(strstr(why, "R-4.4"), "%s", why);
  t = s; /* a phase to return to in a movement with no interrupt (the saved card-before-bid.json
           * returned to a bid from the middle of a round) */
  t.turn.phase = PH_MOVE;
  t.turn.ncards = 1;
  t.play.card = (uint8_t)__builtin_ctzll(t.cards.hand);
  cr_assert_eq(gs_check(sc, &t, why, sizeof why), 0, "%s", why);
  t.interrupt.return_phase = PH_ROUND;
  cr_assert_neq(gs_check(sc, &t, why, sizeof why), 0);
  cr_assert(strstr(why, "R-11.1"), "%s", why);
  t.turn.phase = PH_EVADE; /* an evasion may return to the round, not to a bid */
  t.interrupt.return_phase = PH_ROUND;
  t.interrupt.evaders = 1;
  cr_assert_eq(gs_check(sc, &t, why, sizeof why), 0, "%s", why);
  t.interrupt.return_phase = PH_BID;
  cr_assert_neq(gs_check(sc, &t, why, sizeof why), 0);
  t.interrupt.return_phase = PH_MOVE; /* nor to a movement without its card */
  t.play.card = CARD_NONE;
  cr_assert_neq(gs_check(sc, &t, why, sizeof why), 0);
  cr_assert(strstr(why, "R-5.1"), "%s", why);
  t = s; /* Napoleon with a British unit */
  t.units.leader[0] = t.units.sq[th_unit(sc, "br-3/I")];
  cr_assert_neq(gs_check(sc, &t, why, sizeof why), 0);
  t = s; /* over too early */
  t.turn.phase = PH_OVER;
  t.score.result = 1;
  cr_assert_neq(gs_check(sc, &t, why, sizeof why), 0);
  free(sc);
}

/* ---------------------------------------------------------------- save / load */
typedef struct {
  void (*f)(const Scen *, const State *, void *);
  void *arg;
  long k, n;
} SampleCtx;
/* every k-th position, and the last one (which the driver passes after the game) */
static void sample_every(const Scen *sc, const State *s, void *arg) {
  SampleCtx *c = arg;
  if (c->n++ % c->k == 0 || gs_over(s)) c->f(sc, s, c->arg);
}

/* positions of one random game: calls f on every k-th position */
static void sample_game(const Scen *sc, uint64_t seed, int k, void (*f)(const Scen *, const State *, void *),
                        void *arg) {
  State s;
  gs_init(sc, &s, seed, seed + 1);
  SampleCtx c = {.f = f, .arg = arg, .k = k};
  th_random_play(sc, &s, seed, 5, sample_every, &c);
}

static void json_round_trip(const Scen *sc, const State *s, void *arg) {
  int *count = arg;
  char *text = state_to_json(sc, s);
  cr_assert(text);
  State t;
  memset(&t, 0xa5, sizeof t);
  char err[256];
  if (state_from_json(sc, text, &t, err, sizeof err)) cr_assert_fail("state_from_json: %s", err);
  if (memcmp(s, &t, sizeof t)) {
    const uint8_t *a = (const uint8_t *)s, *b = (const uint8_t *)&t;
    size_t i = 0;
    while (a[i] == b[i]) i++;
    cr_assert_fail("round trip differs at byte %zu (phase %s)", i, phase_name(s->turn.phase));
  }
  free(text);
  (*count)++;
}

Test(engine, state_json_round_trip_is_byte_identical) {
  const char *scen[2] = {"short", "long"};
  int count = 0;
  for (int k = 0; k < 2; k++) {
    Scen *sc = th_load(scen[k], "base");
    for (int g = 0; g < 12; g++) sample_game(sc, 700 + (uint64_t)g, 7, json_round_trip, &count);
    free(sc);
  }
  cr_assert_gt(count, 1000);
}

Test(engine, state_json_rejects_bad_text) {
  Scen *sc = th_load("short", "base");
  State s, t;
  gs_init(sc, &s, 3, 0);
  char err[256];
  cr_assert_neq(state_from_json(sc, "{ not json", &t, err, sizeof err), 0);
  cr_assert_neq(state_from_json(sc, "{}", &t, err, sizeof err), 0);
  char *text = state_to_json(sc, &s);
  char *p = strstr(text, "\"F0");
  cr_assert(p);
  p[1] = 'X'; /* an unknown card id */
  cr_assert_neq(state_from_json(sc, text, &t, err, sizeof err), 0);
  free(text);
  free(sc);
}

/* a random game of n actions (or to the end when n < 0), recorded */
static void recorded_game(const Scen *sc, const char *scen, const char *var, uint64_t seed, long n,
                          GameRec *g, State *s) {
  gamerec_init(g, scen, var, seed, seed * 3 + 1);
  gs_init(sc, s, seed, seed * 3 + 1);
  Rng r;
  rng_seed(&r, seed, 11);
  ActList *L = malloc(sizeof *L);
  for (long i = 0; !gs_over(s) && (n < 0 || i < n); i++) {
    gs_legal(sc, s, L);
    Action a = L->a[rng_below(&r, (uint32_t)L->n)];
    gs_apply(sc, s, a);
    gamerec_push(g, a);
  }
  free(L);
}

Test(engine, game_save_load_replays_to_the_same_state) {
  struct { const char *scen, *var; long n; } t[] = {
      {"short", "base", -1}, {"short", "base", 137}, {"long", "base", -1},
      {"long", "base", 801}, {"long", "three-player", 455}, {"short", "charge-all-cards", 290}};
  char dir[64], path[128], err[512];
  th_tmpdir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/game.json", dir);
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    Scen *sc = th_load(t[i].scen, t[i].var);
    GameRec g, g2;
    State s, s2;
    recorded_game(sc, t[i].scen, t[i].var, 40 + i, t[i].n, &g, &s);
    cr_assert_eq(game_save(sc, &g, &s, path, err, sizeof err), 0, "%s", err);
    Scen *sc2 = malloc(sizeof *sc2);
    memset(&s2, 0, sizeof s2);
    cr_assert_eq(game_load(sc2, "scenarios", path, &g2, &s2, err, sizeof err), 0, "%s", err);
    cr_assert_eq(memcmp(&s, &s2, sizeof s), 0, "game %zu: the replayed state differs", i);
    cr_assert_eq(g2.n, g.n);
    cr_assert_eq(memcmp(g.acts, g2.acts, (size_t)g.n * sizeof *g.acts), 0);
    cr_assert_eq(g2.seed, g.seed);
    cr_assert_eq(g2.stream, g.stream);
    cr_assert_str_eq(sc2->scen_name, t[i].scen);
    cr_assert_eq(sc2->p.three_player, sc->p.three_player);
    cr_assert_eq(sc2->p.charge_all_cards, sc->p.charge_all_cards);
    /* a saved position that the actions do not reach is refused */
    if (g.n > 10) {
      State other = s;
      other.turn.cdp[0] ^= 1;
      cr_assert_eq(game_save(sc, &g, &other, path, err, sizeof err), 0, "%s", err);
      cr_assert_neq(game_load(sc2, "scenarios", path, &g2, &s2, err, sizeof err), 0);
    }
    gamerec_free(&g);
    gamerec_free(&g2);
    free(sc);
    free(sc2);
  }
  /* a file that does not exist, and one that is not JSON */
  GameRec g;
  State s;
  Scen *sc = malloc(sizeof *sc);
  cr_assert_neq(game_load(sc, "scenarios", "/nonexistent/waterloo.json", &g, &s, err, sizeof err), 0);
  th_write(dir, "bad.json", "{\n\"scenario\": \"short\",\n oops\n}\n");
  snprintf(path, sizeof path, "%s/bad.json", dir);
  cr_assert_neq(game_load(sc, "scenarios", path, &g, &s, err, sizeof err), 0);
  cr_assert(strstr(err, "bad.json:"), "%s", err);
  free(sc);
  th_rmdir(dir);
}

Test(engine, game_load_reports_an_illegal_action) {
  Scen *sc = th_load("short", "base");
  GameRec g, g2;
  State s, s2;
  char dir[64], path[128], err[512];
  th_tmpdir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/game.json", dir);
  recorded_game(sc, "short", "base", 9, 60, &g, &s);
  cr_assert_eq(game_save(sc, &g, &s, path, err, sizeof err), 0, "%s", err);
  /* the first action of turn 1 is a French one: make it an impossible one */
  char cmd[256];
  snprintf(cmd, sizeof cmd, "sed -i '0,/\"actions\"/{s/\"actions\":[[:space:]]*\\[/&\"move fr-1\\/I A1 N\",/}' '%s'", path);
  cr_assert_eq(system(cmd), 0);
  Scen *sc2 = malloc(sizeof *sc2);
  cr_assert_neq(game_load(sc2, "scenarios", path, &g2, &s2, err, sizeof err), 0);
  cr_assert(strstr(err, "action 1"), "%s", err);
  gamerec_free(&g);
  free(sc2);
  free(sc);
  th_rmdir(dir);
}

/* ---------------------------------------------------------------- observation, determinization */
/* swap one hidden card of `army` (hand or unseen discard) with an undrawn one: the same
 * observation for the other side */
static int swap_hidden(const Scen *sc, State *s, int army) {
  uint64_t mine = sc->army_cards[army];
  uint64_t und = mine & ~(s->cards.hand | s->cards.discard | s->cards.pend);
  uint64_t held = mine & (s->cards.hand | (s->cards.discard & ~s->cards.seen));
  if (!und || !held) return 0;
  int in = __builtin_ctzll(held), out = 63 - __builtin_clzll(und);
  uint64_t bi = 1ull << in, bo = 1ull << out;
  if (s->cards.hand & bi) s->cards.hand = (s->cards.hand & ~bi) | bo;
  else s->cards.discard = (s->cards.discard & ~bi) | bo;
  return 1;
}

typedef struct { int n, swapped, differ; } DetStats;

static void det_checks(const Scen *sc, const State *s, void *arg) {
  DetStats *st = arg;
  if (gs_over(s)) return;
  int side = s->turn.decider, other = side ^ 1;
  uint64_t own = side_cards_mask(sc, side);
  char why[256];
  Rng r1, r2;
  rng_seed(&r1, 1234 + (uint64_t)st->n, 1);
  rng_seed(&r2, 1234 + (uint64_t)st->n, 1);
  State d1, d2, d3;
  gs_determinize(sc, s, side, &r1, &d1);
  gs_determinize(sc, s, side, &r2, &d2);
  if (gs_check(sc, &d1, why, sizeof why)) cr_assert_fail("determinized state: %s", why);
  if (memcmp(&d1, &d2, sizeof d1)) cr_assert_fail("determinization not reproducible by seed");
  /* own cards and commitments kept */
  if ((d1.cards.hand & own) != (s->cards.hand & own)) cr_assert_fail("own hand changed");
  if ((d1.cards.pend & own) != (s->cards.pend & own) ||
      (d1.cards.pend_cmd & own) != (s->cards.pend_cmd & own) ||
      (d1.cards.pend_elite & own) != (s->cards.pend_elite & own))
    cr_assert_fail("own commitments changed");
  if ((d1.cards.discard & own) != (s->cards.discard & own)) cr_assert_fail("own discards changed");
  /* public information kept */
  if (memcmp(d1.units.sq, s->units.sq, sizeof d1.units.sq) ||
      memcmp(d1.units.flag, s->units.flag, sizeof d1.units.flag) ||
      memcmp(d1.units.leader, s->units.leader, sizeof d1.units.leader) ||
      memcmp(d1.occ, s->occ, sizeof d1.occ))
    cr_assert_fail("the board changed");
  if (d1.cards.seen != s->cards.seen ||
      (d1.cards.discard & d1.cards.seen) != (s->cards.discard & s->cards.seen))
    cr_assert_fail("the seen discards changed");
  if (d1.turn.number != s->turn.number || d1.turn.phase != s->turn.phase ||
      d1.turn.decider != s->turn.decider || d1.turn.active != s->turn.active ||
      d1.turn.ncards != s->turn.ncards || d1.turn.owner != s->turn.owner ||
      memcmp(d1.turn.cdp, s->turn.cdp, sizeof d1.turn.cdp) || d1.play.mp != s->play.mp ||
      d1.battle.def_unit != s->battle.def_unit ||
      memcmp(d1.battle.att, s->battle.att, sizeof d1.battle.att) ||
      d1.score.elim_vp[0] != s->score.elim_vp[0] || d1.score.elim_vp[1] != s->score.elim_vp[1])
    cr_assert_fail("public state changed");
  for (int a = 0; a < 3; a++) {
    uint64_t m = sc->army_cards[a];
    if (hand_count(sc, &d1, a) != hand_count(sc, s, a)) cr_assert_fail("hand count of army %d changed", a);
    if (__builtin_popcountll(d1.cards.pend & m) != __builtin_popcountll(s->cards.pend & m) ||
        __builtin_popcountll(d1.cards.discard & m) != __builtin_popcountll(s->cards.discard & m))
      cr_assert_fail("committed or discarded count of army %d changed", a);
  }
  /* the decider's choices are the same in the sampled world */
  ActList *L1 = malloc(sizeof *L1), *L2 = malloc(sizeof *L2);
  gs_legal(sc, s, L1);
  gs_legal(sc, &d1, L2);
  if (L1->n != L2->n || memcmp(L1->a, L2->a, (size_t)L1->n * sizeof L1->a[0]))
    cr_assert_fail("the decider's legal actions differ in a determinization (phase %s)",
                   phase_name(s->turn.phase));
  /* a sampled world plays on like a real one: every action of the decider keeps the invariants
   * (a secret card's sampled purpose must not outlive its commitment) */
  for (int i = 0; i < L2->n; i++) {
    State w = d1;
    gs_apply(sc, &w, L2->a[i]);
    if (gs_check(sc, &w, why, sizeof why))
      cr_assert_fail("a determinized world after the decider's action (phase %s): %s",
                     phase_name(s->turn.phase), why);
  }
  free(L1);
  free(L2);
  /* hidden cards of the other side: observation and determinization do not see them */
  State t = *s;
  int armies[2] = {other == FRENCH ? ARMY_FR : ARMY_BR, other == FRENCH ? ARMY_FR : ARMY_PR};
  int sw = swap_hidden(sc, &t, armies[0]) | swap_hidden(sc, &t, armies[1]);
  t.rng.state ^= 0xdeadbeefULL;
  State o1, o2;
  gs_observe(sc, s, side, &o1);
  gs_observe(sc, &t, side, &o2);
  if (memcmp(&o1, &o2, sizeof o1)) cr_assert_fail("the observation depends on the opponent's hidden cards");
  Rng r3;
  rng_seed(&r3, 1234 + (uint64_t)st->n, 1);
  gs_determinize(sc, &t, side, &r3, &d3);
  if (memcmp(&d1, &d3, sizeof d1)) cr_assert_fail("the determinization depends on hidden cards");
  st->swapped += sw;
  /* other seeds give other worlds, when the opponent holds hidden cards */
  uint64_t opp_hidden = side_cards_mask(sc, other) & ~s->cards.seen;
  if (hand_count(sc, s, armies[0]) + (armies[1] != armies[0] ? hand_count(sc, s, armies[1]) : 0) >
          0 &&
      (opp_hidden & ~(s->cards.hand | s->cards.pend | s->cards.discard))) {
    Rng r4;
    rng_seed(&r4, 999 + (uint64_t)st->n, 2);
    State d4;
    gs_determinize(sc, s, side, &r4, &d4);
    st->differ += d4.cards.hand != d1.cards.hand;
  }
  st->n++;
}

Test(engine, determinization_keeps_own_and_public_information) {
  const char *scen[2] = {"short", "long"};
  DetStats st = {0};
  for (int k = 0; k < 2; k++) {
    Scen *sc = th_load(scen[k], "base");
    for (int g = 0; g < 8; g++) sample_game(sc, 900 + (uint64_t)g, 5, det_checks, &st);
    free(sc);
  }
  cr_log_info("determinization: %d positions, %d with a hidden-card swap, %d differing samples", st.n,
              st.swapped, st.differ);
  cr_assert_gt(st.n, 500);
  cr_assert_gt(st.swapped, st.n / 2, "the swap test ran on most positions");
  cr_assert_gt(st.differ, 0, "determinizations sample the hidden cards");
}

Test(engine, observation_hides_the_opponent_hand) {
  Scen *sc = th_load("short", "base");
  State s, o;
  gs_init(sc, &s, 44, 0);
  gs_observe(sc, &s, FRENCH, &o);
  cr_assert_eq(o.rng.state, 0);
  cr_assert_eq(o.rng.inc, 0);
  cr_assert_eq(o.cards.hand & sc->army_cards[ARMY_FR], s.cards.hand & sc->army_cards[ARMY_FR]);
  cr_assert_eq(hand_count(sc, &o, ARMY_BR), 12);
  /* every British hand of the same size gives the same observation */
  for (int seed = 45; seed < 60; seed++) {
    State t = s, ot;
    Rng r;
    rng_seed(&r, (uint64_t)seed, 0);
    uint64_t br = sc->army_cards[ARMY_BR], h = 0;
    for (int i = 0; i < 12; i++) h |= 1ull << mask_pick(&r, br & ~h);
    t.cards.hand = (t.cards.hand & ~br) | h;
    gs_observe(sc, &t, FRENCH, &ot);
    cr_assert_eq(memcmp(&o, &ot, sizeof o), 0);
  }
  free(sc);
}

/* ---------------------------------------------------------------- loader errors */
/* one line of a copy of scenarios/ edited (th_edit: the line starting with prefix replaced by,
 * or preceded by, text): the load fails with one error starting "dir/file:line:" that says
 * words, where line is the edited line */
static void expect_edit_error(const char *file, const char *prefix, const char *text, int mode,
                              const char *words) {
  char dir[64];
  th_tmpdir(dir, sizeof dir);
  int line = th_edit(dir, file, prefix, text, mode);
  Scen *sc = malloc(sizeof *sc);
  char err[2048], want[256];
  int rc = scen_load(sc, dir, "short", "base", err, sizeof err);
  cr_assert_eq(rc, -1, "the broken %s loaded", file);
  snprintf(want, sizeof want, "%s/%s:%d:", dir, file, line);
  cr_assert(!strncmp(err, want, strlen(want)), "error '%s', expected it to start with '%s'", err, want);
  cr_assert(strstr(err, words), "error '%s' should say '%s'", err, words);
  free(sc);
  th_rmdir(dir);
}

Test(engine, loader_unknown_terrain_letter) {
  /*                                                  A B C D E F G H I J K L M N O P Q R */
  expect_edit_error("map.ini", "row5 ", "row5  =  . . . . . C X . . . . . . C w . . .", TH_REPLACE,
                    "unknown terrain 'X'");
}

Test(engine, loader_bad_unit_square) {
  expect_edit_error("units.ini", "fr-4/I ",
                    "fr-4/I      = fr inf 3 2 - Z7 N \"4th Division (Durutte), I Corps\"", TH_REPLACE,
                    "'Z7' is not a square");
}

Test(engine, loader_duplicate_card) {
  expect_edit_error("cards.ini", "F06 ", "F05 = fr 3 5 - \"At the point of the bayonet, again\"", TH_BEFORE,
                    "F05 defined twice");
}

Test(engine, loader_other_errors_carry_file_and_line) {
  /* two units on one square */
  expect_edit_error("units.ini", "fr-4/I ",
                    "fr-4/I      = fr inf 3 2 - G7 N \"4th Division (Durutte), I Corps\"", TH_REPLACE,
                    "already holds");
  /* an elite Prussian */
  expect_edit_error("units.ini", "pr-13 ", "pr-13       = pr inf 4 2 elite @IV - \"13th Brigade\"", TH_REPLACE,
                    "never elite");
  /* an edge between squares that do not touch */
  expect_edit_error("map.ini", "[places]", "ridge = A1-C1", TH_BEFORE, "not orthogonally adjacent");
  /* an unknown parameter */
  expect_edit_error("params.ini", "round_limit", "round_limt = 5", TH_REPLACE, "unknown parameter");
  char dir[64];
  /* a variant with an error: the variant's own file and line */
  th_tmpdir(dir, sizeof dir);
  th_write(dir, "variants/broken.ini", "; a broken variant\n[variant]\ndescription = x\n[params]\nelite_mult = two\n");
  Scen *sc = malloc(sizeof *sc);
  char err[1024], want[256];
  cr_assert_eq(scen_load(sc, dir, "short", "broken", err, sizeof err), -1);
  snprintf(want, sizeof want, "%s/variants/broken.ini:5:", dir);
  cr_assert(!strncmp(err, want, strlen(want)), "%s", err);
  cr_assert_eq(scen_load(sc, dir, "short", "no-such-variant", err, sizeof err), -1);
  free(sc);
  th_rmdir(dir);
  /* the copy itself loads: the errors above come from the edits */
  th_tmpdir(dir, sizeof dir);
  sc = th_load_dir(dir, "long", "base");
  free(sc);
  th_rmdir(dir);
}

/* ---------------------------------------------------------------- scenario data (issue 10) */
/* COMPONENTS.md: every landmark on the square its longitude and latitude give, with the
 * north-west corner at (4.383 E, 50.692 N) and a square of 0.00495 by 0.00315 degrees. */
Test(data, landmarks_on_the_squares_of_their_coordinates) {
  Scen *sc = th_load("long", "base");
  struct { const char *place; double lon, lat; } t[] = {
      {"msj", 4.4076, 50.6860},         {"lhs", 4.4116, 50.6783},
      {"hougoumont", 4.3952, 50.6706},  {"papelotte", 4.4339, 50.6806},
      {"la-haie", 4.4362, 50.6804},     {"smohain", 4.4425, 50.6807},
      {"frischermont", 4.4430, 50.6776}, {"la-belle-alliance", 4.4144, 50.6694},
      {"plancenoit1", 4.4298, 50.6606}, {"rossomme", 4.4190, 50.6545},
      {"bois-de-paris", 4.4660, 50.6680}};
  int vidx[] = {V_MSJ, V_LHS, V_HOUGOUMONT, -1, -1, -1, V_FRISCHERMONT, -1, V_PLANC1, -1, -1};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    int col = (int)((t[i].lon - 4.383) / 0.00495), row = (int)((50.692 - t[i].lat) / 0.00315);
    int want = row * MAP_W + col;
    char w[4];
    sq_name(want, w);
    int got = vidx[i] >= 0 ? sc->vsq[vidx[i]] : scen_square(sc, t[i].place);
    if (!strcmp(t[i].place, "la-haie")) got = scen_square(sc, "papelotte"); /* same square */
    cr_assert_eq(got, want, "%s should be on %s", t[i].place, w);
  }
  cr_assert_eq(sc->terrain[scen_square(sc, "smohain")], T_VILLAGE);
  cr_assert_eq(sc->terrain[scen_square(sc, "papelotte")], T_VILLAGE);
  /* the Nivelles road leaves the Brussels road at the hamlet of Mont St. Jean (E1) */
  int e1 = scen_square(sc, "mont-st-jean-hamlet");
  cr_assert(sc->edge[e1][DIR_S] & E_ROAD, "Brussels road E1-E2");
  cr_assert(sc->edge[e1][DIR_W] & E_ROAD, "Nivelles road E1-D1");
  /* the Smohain brook runs between Smohain and Frischermont, bridged on the lane */
  int m4 = scen_square(sc, "smohain");
  cr_assert_eq(sc->edge[m4][DIR_S] & (E_STREAM | E_BRIDGE), E_STREAM | E_BRIDGE);
  /* a pond beside a brook: an edge next to a stream edge */
  int beside = 0;
  for (int sq = 0; sq < NSQ; sq++)
    for (int d = 0; d < 4; d++)
      if (sc->edge[sq][d] & E_POND)
        for (int k = 0; k < 4; k++) beside |= (sc->edge[sq][k] & E_STREAM) != 0;
  cr_assert(beside, "a pond beside a brook");
  free(sc);
}

/* units.ini states its rule: the reduced side is half the full side rounded up, none for 1 BP */
Test(data, reduced_side_is_half_the_full_side_rounded_up) {
  Scen *sc = th_load("long", "base");
  int n[3] = {0, 0, 0};
  for (int u = 0; u < sc->nunits; u++) {
    const UnitDef *d = &sc->unit[u];
    n[d->army]++;
    int want = d->bp_full == 1 ? 0 : (d->bp_full + 1) / 2;
    cr_assert_eq(d->bp_red, want, "%s %d/%d", d->name, d->bp_full, d->bp_red);
  }
  cr_assert_eq(n[0] + n[1] + n[2], 50, "50 combat units (COMPONENTS.md)");
  free(sc);
}

/* the Imperial Guard does not stand next to Plancenoit at 11:30 (issue 10) */
Test(data, imperial_guard_not_next_to_plancenoit_at_1130) {
  Scen *sc = th_load("long", "base");
  const char *guard[] = {"fr-og", "fr-og-chas", "fr-yg", "fr-gd-heavy", "fr-gd-light"};
  for (size_t i = 0; i < sizeof guard / sizeof guard[0]; i++) {
    int sq = sc->unit[th_unit(sc, guard[i])].start_sq;
    for (int v = V_PLANC1; v <= V_PLANC3; v++) {
      int p = sc->vsq[v];
      int dist = abs(sq / MAP_W - p / MAP_W) + abs(sq % MAP_W - p % MAP_W);
      cr_assert_gt(dist, 1, "%s starts next to Plancenoit", guard[i]);
    }
  }
  free(sc);
}
