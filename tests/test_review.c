/* Tests of the review (issue 23): marks on hand-made positions, reproducibility and resume of
 * `waterloo review`, and the reasons in words. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/review.h"
#include "../sim/review.h"
#include "../front/json.h"
#include "../front/session.h"
#include "helpers.h"

#define JUDGE "mcts:sim"

/* the last turn of the short game: the French hold Hougoumont and Mont St. Jean and have
 * beaten br-1/I in La Haye Sainte (F5) from F6; the Allies owe a loss and nobody holds a
 * card.  Reducing or spending a castle point keeps the square and the game; retreating lets
 * the attacker advance into the third square the French need. */
static void lhs_loss(const Scen *sc, State *s) {
  th_empty(sc, s, 3);
  s->turn.number = (uint8_t)sc->p.turns;
  s->turn.owner = (uint8_t)((1u << V_HOUGOUMONT) | (1u << V_MSJ));
  th_put(sc, s, "br-1/I", "F5", DIR_S);
  th_put(sc, s, "fr-6/II", "F6", DIR_N);
  th_declare_phase(s, FRENCH, ARMY_FR);
  th_battle(sc, s, th_sq(sc, "F5"), DB(DIR_S), NULL, NULL);
  cr_assert_eq(s->turn.phase, PH_B_LOSS, "%s", th_legal_text(sc, s));
  cr_assert_eq(gs_decider(s), ALLIED);
}

static int same_act(Action a, Action b) { return !memcmp(&a, &b, sizeof a); }

static Action first_of_kind(const Scen *sc, const State *s, int t) {
  ActList *L = malloc(sizeof *L);
  gs_legal(sc, s, L);
  Action a = {0};
  for (int i = 0; i < L->n; i++)
    if (L->a[i].t == t) { a = L->a[i]; break; }
  free(L);
  cr_assert(a.t == t, "no action of kind %d: %s", t, th_legal_text(sc, s));
  return a;
}

Test(review, giving_up_an_objective_for_nothing_is_a_blunder) {
  Scen *sc = th_load("short", "base");
  State s;
  lhs_loss(sc, &s);
  RvDec d;
  char err[300];
  cr_assert_eq(review_decision(sc, JUDGE, &s, first_of_kind(sc, &s, A_RETREAT), 64, REVIEW_JUDGE_WALKS, 11, &d, err,
                               sizeof err), 0, "%s", err);
  cr_assert_eq(d.mark, MARK_BLUNDER, "retreat lost %.3f ± %.3f (how %d), mark %s", d.loss, d.se,
               d.how, mark_name(d.mark));
  cr_assert(d.best.t == A_REDUCE || d.best.t == A_CDP, "the search keeps the square");
  cr_assert_gt(d.loss, 0.5, "the game is thrown away: %.3f", d.loss);
  free(sc);
}

/* --judge end: the loss judged by the game's end, paired on the same worlds whatever the root's
 * statistics say; here the last turn's retreat hands the French their third square, which the
 * heuristic's play to the end finds in every world */
Test(review, judged_by_the_games_end_the_retreat_loses_the_game_in_every_world) {
  Scen *sc = th_load("short", "base");
  State s;
  lhs_loss(sc, &s);
  RvDec w, e;
  char err[300];
  Action retreat = first_of_kind(sc, &s, A_RETREAT);
  cr_assert_eq(review_decision(sc, JUDGE, &s, retreat, 64, REVIEW_JUDGE_WALKS, 11, &w, err, sizeof err), 0, "%s", err);
  cr_assert_eq(review_decision(sc, JUDGE, &s, retreat, 64, REVIEW_JUDGE_END, 11, &e, err, sizeof err), 0, "%s", err);
  cr_assert(same_act(w.best, e.best), "the same search chooses");
  cr_assert_eq(e.how, HOW_PAIRED, "the end judge plays both actions on the same worlds");
  cr_assert_gt(e.loss, 0.95, "the retreat loses the game: %.3f ± %.3f", e.loss, e.se);
  cr_assert_eq(e.mark, MARK_BLUNDER);
  free(sc);
}

Test(review, the_right_move_and_a_forced_move_are_not_marked) {
  Scen *sc = th_load("short", "base");
  State s;
  lhs_loss(sc, &s);
  RvDec d;
  char err[300];
  Action keep = first_of_kind(sc, &s, A_CDP);
  cr_assert_eq(review_decision(sc, JUDGE, &s, keep, 64, REVIEW_JUDGE_WALKS, 11, &d, err, sizeof err), 0, "%s", err);
  cr_assert_eq(d.mark, MARK_NONE, "castle point marked %s: %.3f ± %.3f", mark_name(d.mark), d.loss, d.se);
  /* after the castle point nothing is left but to end the round: one legal action */
  gs_apply(sc, &s, keep);
  ActList *L = malloc(sizeof *L);
  while (!gs_over(&s) && gs_legal(sc, &s, L) > 1) gs_apply(sc, &s, L->a[0]);
  cr_assert(!gs_over(&s));
  cr_assert_eq(gs_legal(sc, &s, L), 1);
  cr_assert_eq(review_decision(sc, JUDGE, &s, L->a[0], 64, REVIEW_JUDGE_WALKS, 11, &d, err, sizeof err), 0, "%s", err);
  cr_assert_eq(d.how, HOW_SAME);
  cr_assert_eq(d.mark, MARK_NONE);
  cr_assert_eq(d.loss, 0);
  free(L);
  free(sc);
}

Test(review, marks_need_the_loss_beyond_its_noise) {
  cr_assert_eq(review_mark(0.30, 0.20), MARK_NONE, "30 points ± 20 is noise");
  cr_assert_eq(review_mark(0.30, 0.05), MARK_BLUNDER);
  cr_assert_eq(review_mark(0.10, 0.01), MARK_MISTAKE);
  cr_assert_eq(review_mark(0.05, 0.01), MARK_INACCURACY);
  cr_assert_eq(review_mark(0.03, 0.001), MARK_NONE);
  cr_assert_eq(review_mark(-0.2, 0.01), MARK_NONE);
}

Test(review, reasons_are_built_from_the_position) {
  Scen *sc = th_load("short", "base");
  State s;
  lhs_loss(sc, &s);
  char why[512];
  reason_action(sc, &s, first_of_kind(sc, &s, A_RETREAT), 0, why, sizeof why);
  cr_assert(strstr(why, "br-1/I") && strstr(why, "giving up the square"), "%s", why);
  reason_action(sc, &s, first_of_kind(sc, &s, A_CDP), 0, why, sizeof why);
  cr_assert(strstr(why, "castle point") && strstr(why, "1 left"), "%s", why);
  /* a declared battle gives its odds before cards */
  th_empty(sc, &s, 3);
  th_put(sc, &s, "br-1/I", "F5", DIR_S);
  th_put(sc, &s, "fr-6/II", "F6", DIR_N);
  th_declare_phase(&s, FRENCH, ARMY_FR);
  Action a = act_declare(th_sq(sc, "F5"), DB(DIR_S));
  cr_assert(gs_is_legal(sc, &s, a));
  reason_action(sc, &s, a, 0, why, sizeof why);
  cr_assert(strstr(why, "attacks br-1/I") && strstr(why, "5 against 4 before cards"), "%s", why);
  /* Napoleon's health is played on no unit: its reason names the card and no unit */
  th_empty(sc, &s, 3);
  th_put(sc, &s, "br-1/I", "F5", DIR_S);
  th_put(sc, &s, "fr-6/II", "F6", DIR_N);
  th_give(sc, &s, "B19");
  th_round(&s, ALLIED);
  a = first_of_kind(sc, &s, A_HEALTH);
  cr_assert_eq(a.t, A_HEALTH, "the health card can be played");
  reason_action(sc, &s, a, 0, why, sizeof why);
  cr_assert(strstr(why, "B19") && !strstr(why, " with "), "%s", why);
  free(sc);
}

/* the computer (the French at `mcts:sim`) against a human Allied side that only ends its
 * rounds: every public decision of the computer with a choice carries a reason with the
 * search's figures (or, a later step of a whole move, says so), no secret one does, and no
 * reason names a card the human has not seen */
Test(review, the_computer_says_why_and_never_what_is_hidden) {
  Session S;
  char err[512];
  cr_assert_eq(session_new(&S, "short", "base", 8, ALLIED, "sim", err, sizeof err), 0, "%s", err);
  ActList *L = malloc(sizeof *L);
  int said = 0, secret = 0, planned = 0;
  for (int k = 0; k < 400 && !gs_over(&S.s); k++) {
    State before = S.s;
    int n = gs_legal(S.sc, &before, L);
    if (gs_decider(&before) == ALLIED) { session_apply(&S, L->a[n - 1], 1); continue; }
    char why[512];
    Action a = session_computer_think(&S, &before, why, sizeof why);
    session_apply(&S, a, 0);
    session_note_why(&S, why);
    const char *w = S.log[S.nlog - 1].why;
    if (!gs_action_public(S.sc, &before, a, ALLIED)) {
      cr_assert_str_eq(w, "", "a secret choice explained: %s", w);
      secret++;
    } else if (n > 1) {
      int step = strstr(w, "the next step of the whole move its search chose") != NULL;
      cr_assert(step || strstr(w, "the search gives the French"), "no reason for %s: '%s'", S.log[S.nlog - 1].text, w);
      said++;
      planned += step;
    }
    for (int c = 0; c < S.sc->ncards; c++)
      if ((before.cards.hand >> c & 1) && strstr(w, S.sc->card[c].id) && c != a.play.card &&
          scen_square(S.sc, S.sc->card[c].id) < 0) /* F10 is a card and a square */
        cr_assert(0, "the reason names %s, a card in the computer's hand: %s", S.sc->card[c].id, w);
  }
  cr_assert_gt(said, 20);
  cr_assert_gt(secret, 0, "the game had no secret choice of the computer");
  /* in the short game sim plans a unit's whole move: its later steps say so, not a rule's 50% */
  cr_assert_gt(planned, 0, "no step of a planned move");
  cr_assert_lt(planned, said, "every public decision a planned step");
  free(L);
  session_free(&S);
}

/* ---------------------------------------------------------------- the command */
static char *review_of(const char *dir, const char *out, const char *extra) {
  char cmd[1024], res[8192];
  snprintf(cmd, sizeof cmd, "./waterloo review %s/g.json --level 'mcts:sim,iters=32' --side french "
                            "--evals 16 --seed 5 --out %s/%s --quiet %s", dir, dir, out, extra);
  cr_assert_eq(th_sh(cmd, res, sizeof res), 0, "%s: %s", cmd, res);
  char path[600];
  snprintf(path, sizeof path, "%s/%s/review.json", dir, out);
  size_t len;
  char *t = th_slurp(path, &len);
  cr_assert_not_null(t, "%s", path);
  return t;
}

Test(review, a_review_is_reproducible_for_any_thread_count_and_after_resume) {
  char dir[64], cmd[512], res[4096];
  snprintf(dir, sizeof dir, "/tmp/waterloo-test-XXXXXX");
  cr_assert(mkdtemp(dir));
  snprintf(cmd, sizeof cmd, "./waterloo replay --players heuristic,heuristic --seed 4 --index 1 "
                            "--save %s/g.json --quiet", dir);
  cr_assert_eq(th_sh(cmd, res, sizeof res), 0, "%s", res);
  char *a = review_of(dir, "a", "--threads 1");
  char *b = review_of(dir, "b", "--threads 2");
  cr_assert_str_eq(a, b, "one thread and two threads differ");
  cr_assert(strstr(a, "\"decisions\"") && strstr(a, "\"winrate\""));
  /* a killed run: half of the journal kept, the rest searched again on --resume */
  snprintf(cmd, sizeof cmd, "cd %s/b && n=$(wc -l < review.journal) && head -n $((n / 2)) "
                            "review.journal > j && mv j review.journal && rm review.json", dir);
  cr_assert_eq(system(cmd), 0);
  char *c = review_of(dir, "b", "--threads 2 --resume");
  cr_assert_str_eq(a, c, "the resumed review differs");
  /* without --resume an existing journal is never touched */
  snprintf(cmd, sizeof cmd, "./waterloo review %s/g.json --out %s/b", dir, dir);
  cr_assert_eq(th_sh(cmd, res, sizeof res), 2, "%s", res);
  cr_assert(strstr(res, "--resume"), "%s", res);
  snprintf(cmd, sizeof cmd, "./waterloo review %s/none.json", dir);
  cr_assert_eq(th_sh(cmd, res, sizeof res), 2, "%s", res);
  free(a);
  free(b);
  free(c);
  th_rmdir(dir);
}

/* a game in progress (saved mid-battle from `play`, the computer's battle cards committed and
 * secret) is reviewed only for the side its person plays, and nothing of the computer's
 * hidden cards reaches the report; a save that cannot say who that is, or one where people
 * play both sides, is refused in one line (docs/RULINGS.md, Information) */
Test(review, a_game_in_progress_is_reviewed_only_for_its_persons_side) {
  char dir[64], cmd[1024], res[4096], path[600];
  snprintf(dir, sizeof dir, "/tmp/waterloo-test-XXXXXX");
  cr_assert(mkdtemp(dir));
  snprintf(cmd, sizeof cmd, "printf 'battle B04\\nsave %s/x.json\\nquit\\n' | ./waterloo play --side "
                            "allied --level easy --no-color --seed 5 >/dev/null", dir);
  cr_assert_eq(th_sh(cmd, res, sizeof res), 0, "%s", res);
  snprintf(path, sizeof path, "%s/x.json", dir);
  Scen *sc = malloc(sizeof *sc);
  GameRec g;
  State fin;
  char err[600];
  cr_assert_eq(game_load(sc, scen_default_dir(), path, &g, &fin, err, sizeof err), 0, "%s", err);
  cr_assert(!gs_over(&fin) && fin.cards.pend & sc->army_cards[ARMY_FR] & ~fin.cards.seen,
            "the save is not in a battle with secret French cards");
  snprintf(cmd, sizeof cmd, "./waterloo review %s/x.json --level sim --evals 16 --out %s/r --quiet",
           dir, dir);
  cr_assert_eq(th_sh(cmd, res, sizeof res), 0, "%s: %s", cmd, res);
  static const char *files[] = {"review.md", "review.json", "winprob.svg"};
  for (int f = 0; f < 3; f++) {
    snprintf(path, sizeof path, "%s/r/%s", dir, files[f]);
    char *t = th_slurp(path, NULL);
    cr_assert_not_null(t, "%s", path);
    uint64_t hidden = (fin.cards.hand | fin.cards.pend) & sc->army_cards[ARMY_FR] & ~fin.cards.seen;
    for (int c = 0; c < sc->ncards; c++)
      if ((hidden >> c & 1) && scen_square(sc, sc->card[c].id) < 0)
        cr_assert_null(strstr(t, sc->card[c].id), "%s names %s, a hidden French card:\n%s",
                       files[f], sc->card[c].id, t);
    cr_assert_null(strstr(t, "French,"), "%s reviews a French decision:\n%s", files[f], t);
    cr_assert_null(strstr(t, "\"French\""), "%s reviews a French decision:\n%s", files[f], t);
    if (f == 0) cr_assert_not_null(strstr(t, "Reviewed: Allied,"), "%s", t);
    if (f == 1) cr_assert_not_null(strstr(t, "\"battle B04\""), "the person's decision: %s", t);
    free(t);
  }
  /* the other side, or both, asked for: refused, naming the side that is reviewed */
  static const char *sides[] = {"french", "both"};
  for (int i = 0; i < 2; i++) {
    snprintf(cmd, sizeof cmd, "./waterloo review %s/x.json --level sim --side %s", dir, sides[i]);
    cr_assert_eq(th_sh(cmd, res, sizeof res), 2, "%s: %s", cmd, res);
    cr_assert(strstr(res, "not over: only the Allied side") && !strchr(res, '\n')[1], "%s", res);
  }
  /* the seats not saved, or people on both sides: refused */
  static const struct { const char *sed, *want; } cases[] = {
      {"/\"seats\":/d", "does not say which side a person plays"},
      {"s/\"french=easy,british=human\"/\"french=human,british=human\"/", "people play both sides"},
  };
  for (int i = 0; i < 2; i++) {
    snprintf(cmd, sizeof cmd, "sed '%s' %s/x.json > %s/y.json && ./waterloo review %s/y.json "
                              "--level sim", cases[i].sed, dir, dir, dir);
    cr_assert_eq(th_sh(cmd, res, sizeof res), 2, "%s: %s", cmd, res);
    cr_assert(strstr(res, cases[i].want) && !strchr(res, '\n')[1], "%s", res);
  }
  gamerec_free(&g);
  free(sc);
  th_rmdir(dir);
}
