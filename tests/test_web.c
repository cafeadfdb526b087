/* The web front end's engine side (issue 9): what the page is shown never depends on the other
 * side's hidden cards, destination moves follow the rules step by step, and the session's undo
 * stays within the human's own decisions. */
#include <cjson/cJSON.h>

#include "../front/json.h"
#include "../front/session.h"
#include "helpers.h"

/* random positions of a short and a long game: every n-th position of a random game */
typedef void (*Visit)(const Scen *sc, const State *s, void *ctx);
static void walk(const Scen *sc, uint64_t seed, int every, Visit f, void *ctx) {
  State s;
  gs_init(sc, &s, seed, 0);
  Rng r;
  rng_seed(&r, seed, 77);
  ActList *L = malloc(sizeof *L);
  for (int k = 0; !gs_over(&s) && k < 4000; k++) {
    if (k % every == 0) f(sc, &s, ctx);
    gs_legal(sc, &s, L);
    gs_apply(sc, &s, L->a[rng_below(&r, (uint32_t)L->n)]);
  }
  free(L);
}

/* q as a value that is not a square ("F10" is a card and a square) */
static const char *card_mention(const char *json, const char *q) {
  for (const char *h = strstr(json, q); h; h = strstr(h + 1, q)) {
    const char *k = h;
    if (k > json && k[-1] == ':') {              /* "key":"F10": the key names a square? */
      const char *e = k - 1, *b = e - 1;
      while (b > json && b[-1] != '"') b--;
      char key[32];
      snprintf(key, sizeof key, "%.*s", (int)(e - 1 - b), b);
      if (strstr(key, "sq") || strstr(key, "square") || !strcmp(key, "Napoleon") || !strcmp(key, "Wellington")) continue;
    }
    return h;
  }
  return NULL;
}

static void check_obs(const Scen *sc, const State *s, void *ctx) {
  int *count = ctx;
  for (int side = 0; side < 2; side++) {
    cJSON *o = observation_json(sc, s, side);
    char *a = cJSON_PrintUnformatted(o);
    /* the same observation from a world with the other side's hidden cards dealt anew */
    Rng r;
    rng_seed(&r, s->nactions, side);
    State w;
    gs_determinize(sc, s, side, &r, &w);
    cJSON *o2 = observation_json(sc, &w, side);
    char *b = cJSON_PrintUnformatted(o2);
    cr_assert_str_eq(a, b, "observation of the %s depends on hidden cards at action %u", side_name(side), s->nactions);
    /* no hidden card of the other side is named anywhere in it */
    uint64_t hidden = (s->cards.hand | s->cards.pend | s->cards.discard) &
                      side_cards_mask(sc, !side) & ~s->cards.seen;
    for (uint64_t m = hidden; m; m &= m - 1) {
      char q[16];
      snprintf(q, sizeof q, "\"%s\"", sc->card[__builtin_ctzll(m)].id);
      const char *hit = card_mention(a, q);
      cr_assert_null(hit, "%s's observation names the hidden card %s: ...%.80s", side_name(side), q, hit ? (hit - a > 60 ? hit - 60 : a) : "");
    }
    free(a);
    free(b);
    cJSON_Delete(o);
    cJSON_Delete(o2);
    (*count)++;
  }
}

Test(web, observation_never_holds_the_other_sides_hidden_cards) {
  int count = 0;
  const char *scen[] = {"short", "long"};
  for (int i = 0; i < 2; i++) {
    Scen *sc = th_load(scen[i], "base");
    for (uint64_t seed = 1; seed <= 3; seed++) walk(sc, seed, 7, check_obs, &count);
    free(sc);
  }
  cr_assert_gt(count, 100);
}

static void check_reach(const Scen *sc, const State *s, void *ctx) {
  if (s->turn.phase != PH_MOVE) return;
  int *count = ctx;
  Reach *r = malloc(sizeof *r);
  for (int u = 0; u < sc->nunits; u++) {
    if (sc->unit[u].army != s->play.army) continue;
    gs_reach(sc, s, u, r);
    for (int q = 0; q < NSQ; q++)
      for (int f = 0; f < 4; f++) {
        if (r->cost[q][f] == 255 || r->npath[q][f] == 0) continue;
        State t = *s;
        for (int i = 0; i < r->npath[q][f]; i++) {
          cr_assert(gs_is_legal(sc, &t, r->path[q][f][i]), "step %d of %s's path is not legal", i, sc->unit[u].name);
          gs_apply(sc, &t, r->path[q][f][i]);
        }
        cr_assert_eq(t.units.sq[u], q);
        cr_assert_eq((int)(t.units.flag[u] & UF_FACING), f);
        cr_assert_eq(s->play.mp - t.play.mp, r->cost[q][f], "path cost");
        (*count)++;
      }
    /* the page is never offered the square and facing the unit already has */
    if (s->units.sq[u] < NSQ) {
      cJSON *rj = reach_json(sc, s, u), *x;
      char here[4];
      sq_name(s->units.sq[u], here);
      const char f0[2] = {"NESW"[s->units.flag[u] & 3], 0};
      cJSON_ArrayForEach(x, cJSON_GetObjectItem(rj, "squares")) {
        if (strcmp(cJSON_GetObjectItem(x, "sq")->valuestring, here)) continue;
        cr_assert_null(cJSON_GetObjectItem(cJSON_GetObjectItem(x, "facings"), f0), "%s offered a move to where it stands",
                       sc->unit[u].name);
      }
      cJSON_Delete(rj);
    }
    /* every single legal step or turn of u is reached at no more than its own cost */
    ActList *L = malloc(sizeof *L);
    gs_legal(sc, s, L);
    for (int i = 0; i < L->n; i++) {
      Action a = L->a[i];
      if (action_mover(a) != u) continue;
      State t = *s;
      gs_apply(sc, &t, a);
      if (t.units.sq[u] >= NSQ) continue;
      cr_assert_leq(r->cost[t.units.sq[u]][t.units.flag[u] & UF_FACING], s->play.mp - t.play.mp);
    }
    free(L);
  }
  free(r);
}

Test(web, destination_moves_are_legal_step_sequences_at_least_cost) {
  int count = 0;
  Scen *sc = th_load("long", "base");
  for (uint64_t seed = 1; seed <= 2; seed++) walk(sc, seed, 5, check_reach, &count);
  free(sc);
  cr_assert_gt(count, 50);
}

Test(web, session_undo_stays_within_the_humans_decisions) {
  Session S;
  char err[256];
  cr_assert_eq(session_new(&S, "short", "base", 5, FRENCH, "random", err, sizeof err), 0, "%s", err);
  cr_assert(session_humans_turn(&S));
  cr_assert_eq(session_undo(&S), -1, "nothing to undo at the start");
  /* play a movement card and move a unit: both undoable, back to the start of the round */
  Action a = act_play(A_PLAY_MOVE, __builtin_ctzll(S.s.cards.hand & S.sc->army_cards[ARMY_FR]), 0);
  cr_assert(gs_is_legal(S.sc, &S.s, a));
  session_apply(&S, a, 1);
  State after_card = S.s;
  int u = th_unit(S.sc, "fr-4/I");
  Reach *r = malloc(sizeof *r);
  gs_reach(S.sc, &S.s, u, r);
  int to = -1, tf = 0;
  for (int q = 0; q < NSQ && to < 0; q++)
    for (int f = 0; f < 4; f++)
      if (r->cost[q][f] != 255 && r->npath[q][f] >= 3) { to = q, tf = f; break; }
  free(r);
  cr_assert(to >= 0, "a destination three actions away");
  cr_assert_eq(session_move_to(&S, u, to, tf, err, sizeof err), 0, "%s", err);
  cr_assert_eq(S.s.units.sq[u], to);
  cr_assert_geq(S.g.n, 4);
  int k = S.g.n;
  cr_assert_eq(session_undo(&S), 1, "undo the whole destination move (%d actions), back to the card", k - 1);
  cr_assert(!memcmp(&S.s, &after_card, sizeof S.s));
  cr_assert_eq(S.nlog, 1);
  cr_assert_eq(session_undo(&S), 0);
  /* end the round: the computer's reply is a barrier */
  Action end = act_kind(A_END);
  session_apply(&S, end, 1);
  cr_assert(!session_humans_turn(&S));
  ActList *L = malloc(sizeof *L);
  gs_legal(S.sc, &S.s, L);
  session_apply(&S, L->a[0], 0);
  free(L);
  cr_assert_eq(session_undo(&S), -1, "never past the computer's action");
  session_free(&S);
}

/* ---------------------------------------------------------------- the terminal and the protocol */
#include <sys/wait.h>
Test(web, engine_state_side_hides_the_other_hand_and_play_answers_events) {
  static char out[1 << 17];
  int rc = th_sh("printf 'new short seed 4\\nstate allied\\nplay play F01 move\\nplay move fr-4/I K5\\nplay done\\n"
              "play moev\\nreach nosuch\\nscenario\\nquit\\n' | ./waterloo engine", out, sizeof out);
  cr_assert_eq(rc, 0);
  Scen *sc = th_load("short", "base");
  State s;
  gs_init(sc, &s, 4, 0);
  /* the Allied observation names no card of the French hand */
  char *st = strstr(out, "= {\"side\":\"Allied\"");
  cr_assert_not_null(st, "state allied: %.200s", out);
  char *end = strchr(st, '\n');
  cr_assert_not_null(end);
  *end = 0;
  cr_assert_not_null(strstr(st, "\"hand\":[\"B"), "the Allied hand is shown");
  for (uint64_t m = s.cards.hand & sc->army_cards[ARMY_FR]; m; m &= m - 1) {
    char q[16];
    snprintf(q, sizeof q, "\"%s\"", sc->card[__builtin_ctzll(m)].id);
    cr_assert_null(card_mention(st, q), "state allied names the French card %s", q);
  }
  *end = '\n';
  /* a destination move in the protocol, and a typo answered with the nearest legal action */
  cr_assert_null(strstr(out, "? 'move fr-4/I K5'"), "destination move refused: %s", out);
  cr_assert_not_null(strstr(out, "; nearest legal action: "), "no nearest action suggested: %s", out);
  cr_assert_not_null(strstr(out, "(the line: play "), "the suggestion is a whole line: %s", out);
  cr_assert_not_null(strstr(out, "? no unit 'nosuch'"), "reach of no unit says so: %s", out);
  cr_assert_not_null(strstr(out, "= {\"scenario\":\"short\""), "scenario JSON");
  free(sc);
}

Test(web, play_destination_move_units_and_typo_suggestion) {
  static char out[1 << 17];
  int rc = th_sh("printf 'play F01 moev\\nplay F01 move\\nmove fr-4/I K5 N extra words\\nmove fr-4/I K5\\nunits\\nfoo\\nundo\\nquit\\n'"
              " | ./waterloo play --side french --level heuristic --no-color --seed 4", out, sizeof out);
  cr_assert_eq(rc, 0);
  cr_assert_not_null(strstr(out, "French (you): move fr-4/I K5 N"), "the destination move's last step: %s", out);
  cr_assert_not_null(strstr(out, "[turn 1, move, 3 MP]"), "MP left in the prompt");
  cr_assert_not_null(strstr(out, "  fr-4/I         K5   N  BP 3 inf moved"), "unit list");
  cr_assert_not_null(strstr(out, "nearest legal action: play F01 move"), "typo suggestion");
  cr_assert_not_null(strstr(out, "`legal` lists your actions now"), "no suggestion far from every action");
  cr_assert_not_null(strstr(out, "undone to action 1"), "undo takes back the whole destination move");
  cr_assert_not_null(strstr(out, "a destination move is: move UNIT SQUARE [N|E|S|W]"),
                     "words after the facing are refused, not read as a facing: %s", out);
}
