/* The session without a human side (SESSION_NO_HUMAN, front/session.h), the mode the engine
 * protocol runs on: the caller applies every action, undo takes back exactly one, nothing is
 * played by the computer; and the engine's undo seen through `position`. */
#include "../front/session.h"
#include "helpers.h"

/* the position text of the session now */
static void pos_text(const Session *S, char *buf, size_t len) {
  cr_assert_geq(position_format(S->sc, &S->s, buf, len), 0);
}

/* the side to decide plays its k-th legal action (k modulo their number) */
static void play_kth(Session *S, int k, int by_human) {
  ActList *L = malloc(sizeof *L);
  cr_assert(L);
  gs_legal(S->sc, &S->s, L);
  cr_assert_gt(L->n, 0);
  session_apply(S, L->a[k % L->n], by_human);
  free(L);
}

Test(session, no_human_undo_takes_back_one_action_of_either_side) {
  Session S;
  char err[512];
  cr_assert_eq(session_new(&S, "short", "base", 5, SESSION_NO_HUMAN, NULL, err, sizeof err), 0, "%s", err);
  cr_assert_null(S.ai, "no computer player without a human side");
  cr_assert(!session_humans_turn(&S));
  enum { N = 40 };
  static char before[N][8192];
  int sides = 0;
  for (int i = 0; i < N; i++) {
    pos_text(&S, before[i], sizeof before[i]);
    sides |= 1 << gs_decider(&S.s);
    play_kth(&S, i * 7 + 1, 0);
  }
  cr_assert_eq(sides, 3, "both sides decided in the %d actions", N);
  cr_assert_eq(S.g.n, N);
  cr_assert_eq(S.nlog, N);
  for (int i = N - 1; i >= 0; i--) {
    char now[8192];
    cr_assert_eq(session_undo(&S), i, "each undo takes back one action");
    cr_assert_eq(S.g.n, i);
    cr_assert_eq(S.nlog, i);
    pos_text(&S, now, sizeof now);
    cr_assert_str_eq(now, before[i], "undo %d restores the position before that action", i);
  }
  cr_assert_eq(session_undo(&S), -1, "nothing left to undo");
  session_free(&S);
}

Test(session, no_human_undo_at_the_start_is_refused) {
  Session S;
  char err[512], a[8192], b[8192];
  cr_assert_eq(session_new(&S, "long", "base", 9, SESSION_NO_HUMAN, NULL, err, sizeof err), 0, "%s", err);
  pos_text(&S, a, sizeof a);
  cr_assert_eq(session_undo(&S), -1);
  pos_text(&S, b, sizeof b);
  cr_assert_str_eq(a, b, "a refused undo leaves the position as it was");
  cr_assert_eq(S.g.n, 0);
  session_free(&S);
  /* from a position text: undo goes back to that position and no further */
  const char *text = "short base turn=3 phase=round decider=1 active=1";
  cr_assert_eq(session_from_position(&S, text, SESSION_NO_HUMAN, NULL, err, sizeof err), 0, "%s", err);
  pos_text(&S, a, sizeof a);
  cr_assert_eq(session_undo(&S), -1);
  play_kth(&S, 0, 0);
  pos_text(&S, b, sizeof b);
  cr_assert_str_neq(a, b);
  cr_assert_eq(session_undo(&S), 0);
  pos_text(&S, b, sizeof b);
  cr_assert_str_eq(a, b);
  cr_assert_eq(session_undo(&S), -1);
  session_free(&S);
  cr_assert_eq(session_from_position(&S, "short base turn=99", SESSION_NO_HUMAN, NULL, err, sizeof err), -1);
  cr_assert_neq(err[0], 0, "a bad position says why");
  cr_assert_null(S.sc);
}

/* a loaded game: without a human side every loaded action can be taken back; with one, none */
Test(session, loaded_game_undo_depends_on_the_human_side) {
  Session S;
  char err[512], start[8192], now[8192];
  const char *path = "/tmp/waterloo-test-session-load.json";
  cr_assert_eq(session_new(&S, "short", "base", 3, SESSION_NO_HUMAN, NULL, err, sizeof err), 0, "%s", err);
  pos_text(&S, start, sizeof start);
  for (int i = 0; i < 12; i++) play_kth(&S, i * 3, 0);
  cr_assert_eq(session_save(&S, path, err, sizeof err), 0, "%s", err);
  session_free(&S);
  cr_assert_eq(session_load(&S, path, SESSION_NO_HUMAN, NULL, err, sizeof err), 0, "%s", err);
  cr_assert_eq(S.g.n, 12);
  for (int i = 11; i >= 0; i--) cr_assert_eq(session_undo(&S), i);
  pos_text(&S, now, sizeof now);
  cr_assert_str_eq(now, start);
  cr_assert_eq(session_undo(&S), -1);
  session_free(&S);
  cr_assert_eq(session_load(&S, path, FRENCH, "random", err, sizeof err), 0, "%s", err);
  cr_assert_not_null(S.ai);
  cr_assert_eq(session_undo(&S), -1, "with a human side undo stays after the loaded actions");
  cr_assert_not_null(strstr(session_no_undo_why(&S), "since the game was loaded"),
                     "the refusal says why: %s", session_no_undo_why(&S));
  /* the log says who made each loaded action: the human's side or the computer's */
  State t;
  int by[2] = {0, 0};
  for (int i = 0; i < S.nlog; i++) {
    gamerec_position(S.sc, &S.g, i, &t);
    cr_assert_eq(S.log[i].by_human, gs_decider(&t) == FRENCH, "log entry %d", i);
    by[S.log[i].by_human]++;
  }
  cr_assert(by[0] && by[1], "actions of both sides in the loaded game (%d, %d)", by[0], by[1]);
  session_free(&S);
  unlink(path);
}

/* session_play_text: a destination move plays its steps; without a human side undo takes back
 * its last step only, with one the whole move */
Test(session, destination_move_undo_by_mode) {
  for (int mode = 0; mode < 2; mode++) {
    Session S;
    char err[512], derr[256];
    int human = mode ? FRENCH : SESSION_NO_HUMAN;
    cr_assert_eq(session_new(&S, "short", "base", 1, human, "random", err, sizeof err), 0, "%s", err);
    cr_assert_eq(session_play_text(&S, "play F03 move", 1, err, sizeof err, derr, sizeof derr), 1, "%s", err);
    cr_assert_eq(session_play_text(&S, "bogus", 1, err, sizeof err, derr, sizeof derr), -1);
    cr_assert_neq(err[0], 0);
    cr_assert_str_eq(derr, "", "not a destination move: the notation's own error only");
    cr_assert_eq(session_play_text(&S, "move fr-1/I G4", 1, err, sizeof err, derr, sizeof derr), -1);
    cr_assert_neq(derr[0], 0, "an unreachable destination says why");
    cr_assert_eq(S.g.n, 1, "nothing played by refused text");
    int n = session_play_text(&S, "move fr-1/I G5", 1, err, sizeof err, derr, sizeof derr);
    cr_assert_eq(n, 2, "two steps north (%s %s)", err, derr);
    cr_assert_eq(S.g.n, 3);
    char ev[2048];
    session_events(&S, 0, ev, sizeof ev);
    cr_assert_eq(session_undo(&S), mode ? 1 : 2);
    session_free(&S);
  }
}

/* "move UNIT SQUARE" says what is wrong in every phase, and a move to the unit's own square
 * (without a new facing) is refused, never played as a turn nobody asked for */
Test(session, destination_move_errors_and_own_square) {
  Session S;
  char err[512], derr[256], here[4], line[64];
  cr_assert_eq(session_new(&S, "short", "base", 1, FRENCH, "random", err, sizeof err), 0, "%s", err);
  cr_assert_eq(session_play_text(&S, "move nosuch G5", 1, err, sizeof err, derr, sizeof derr), -1);
  cr_assert_str_eq(derr, "nosuch: no such unit");
  cr_assert_eq(session_play_text(&S, "move fr-1/I G5", 1, err, sizeof err, derr, sizeof derr), -1);
  cr_assert_str_eq(derr, "no movement card is being played now");
  cr_assert_eq(session_play_text(&S, "play F03 move", 1, err, sizeof err, derr, sizeof derr), 1, "%s", err);
  int u = scen_unit(S.sc, "fr-1/I"), mp = S.s.play.mp;
  long n = S.g.n;
  int face = S.s.units.flag[u] & UF_FACING;
  sq_name(S.s.units.sq[u], here);
  static const char fc[] = "NESW";
  for (int k = 0; k < 2; k++) {
    snprintf(line, sizeof line, k ? "move fr-1/I %s %c" : "move fr-1/I %s", here, fc[face]);
    cr_assert_eq(session_play_text(&S, line, 1, err, sizeof err, derr, sizeof derr), -1, "%s", line);
    cr_assert_not_null(strstr(derr, "is already on"), "%s: %s", line, derr);
    cr_assert(S.g.n == n && S.s.play.mp == mp, "%s: nothing played, no MP spent", line);
  }
  snprintf(line, sizeof line, "move fr-1/I %s %c", here, fc[(face + 1) % 4]);
  cr_assert_eq(session_play_text(&S, line, 1, err, sizeof err, derr, sizeof derr), 1, "%s: %s %s", line, err, derr);
  cr_assert_eq(S.s.units.flag[u] & UF_FACING, (face + 1) % 4, "a new facing asked for is a turn");
  session_free(&S);
}

/* the engine protocol: after any run of actions, each undo gives back the exact position text
 * printed before the action it takes back */
Test(session, engine_undo_restores_the_exact_position_text) {
  const char *script = "/tmp/waterloo-test-session-undo.cmd";
  FILE *f = fopen(script, "w");
  cr_assert_not_null(f);
  fprintf(f, "new long seed 6\nundo\n");
  enum { N = 25 };
  for (int i = 0; i < N; i++) fprintf(f, "position\ngenmove %s\n", i % 3 ? "random" : "heuristic");
  for (int i = 0; i < N; i++) fprintf(f, "undo\nposition\n");
  fprintf(f, "undo\nquit\n");
  fclose(f);
  static char out[1 << 20];
  cr_assert_eq(th_engine_file(script, out, sizeof out), 0);
  /* answers: new, undo, N x (position, genmove), N x (undo, position), undo, quit */
  static char ans[2 + 4 * N + 2][8192];
  int k = 0;
  for (char *p = out; *p && k < (int)(sizeof ans / sizeof ans[0]);) {
    char *end = strstr(p, "\n\n");
    cr_assert_not_null(end, "every answer ends with a blank line");
    snprintf(ans[k++], sizeof ans[0], "%.*s", (int)(end - p), p);
    p = end + 2;
  }
  cr_assert_eq(k, 2 + 4 * N + 2, "%d answers", k);
  cr_assert_str_eq(ans[1], "? nothing to undo");
  for (int i = 0; i < N; i++) {
    const char *before = ans[2 + 2 * i], *after_undo = ans[2 + 2 * N + 2 * (N - 1 - i) + 1];
    cr_assert_eq(strncmp(before, "= long base ", 12), 0, "%s", before);
    cr_assert_str_eq(ans[2 + 2 * N + 2 * (N - 1 - i)], "= ");
    cr_assert_str_eq(after_undo, before, "the position before action %d", i + 1);
  }
  cr_assert_str_eq(ans[2 + 4 * N], "? nothing to undo");
  unlink(script);
}
