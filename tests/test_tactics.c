/* The tactics suite (scenarios/tactics.txt, sim/tactics.c, `waterloo tactics`): every position
 * valid and a real choice, its accepted moves legal and, where tagged, winning when played out;
 * the easy ones solved by the heuristic and mcts:sim; the command's table and its bad input. */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"
#include "../sim/tactics.h"

static TacticSet load_suite(void) {
  TacticSet set;
  char err[2048];
  cr_assert_eq(tactics_load("scenarios/tactics.txt", &set, err, sizeof err), 0, "%s", err);
  return set;
}

/* every id of a position's rule list is a rule of docs/RULES.md */
static void rules_exist(const Tactic *t, const char *rules_md) {
  char list[sizeof t->rules], *save = NULL;
  snprintf(list, sizeof list, "%s", t->rules);
  for (char *id = strtok_r(list, ", ", &save); id; id = strtok_r(NULL, ", ", &save)) {
    char key[64];
    snprintf(key, sizeof key, "**%s**", id);
    cr_assert_not_null(strstr(rules_md, key), "%s: rule %s is not in docs/RULES.md", t->id, id);
  }
}

Test(tactics, every_position_is_valid_and_its_accepted_moves_legal) {
  TacticSet set = load_suite();
  cr_assert(set.n >= 20 && set.n <= 40, "%d positions", set.n);
  char *rules_md = th_slurp("docs/RULES.md", NULL);
  cr_assert_not_null(rules_md);
  int easy = 0, scen[2] = {0, 0};
  ActList L;
  for (int i = 0; i < set.n; i++) {
    const Tactic *t = &set.t[i];
    Scen *sc;
    State s;
    char err[1024];
    cr_assert_eq(tactic_state(t, &sc, &s, err, sizeof err), 0, "%s: %s", t->id, err);
    cr_assert_eq(gs_check(sc, &s, err, sizeof err), 0, "%s: %s", t->id, err);
    cr_assert(!gs_over(&s));
    gs_legal(sc, &s, &L);
    int acc = 0;
    for (int k = 0; k < L.n; k++) acc += tactic_accepts(sc, &s, t, L.a[k]);
    cr_assert(acc >= 1 && acc < L.n, "%s: %d of %d legal moves accepted", t->id, acc, L.n);
    rules_exist(t, rules_md);
    easy += t->easy;
    scen[!strcmp(t->scen, "long")]++;
    free(sc);
  }
  cr_assert(easy > 0 && easy < set.n);
  cr_assert(scen[0] > 0 && scen[1] > 0, "positions of both scenarios");
  free(rules_md);
  tactics_free(&set);
}

/* after an accepted move, random continuations (both sides) end with the tagged result */
static void play_out(const Scen *sc, const State *s, const Tactic *t, Action a) {
  for (uint64_t g = 0; g < 6; g++) {
    State r = *s;
    gs_apply(sc, &r, a);
    th_random_play(sc, &r, 77 + g, g, NULL, NULL);
    cr_assert(gs_over(&r));
    cr_assert_eq(r.score.result, t->win, "%s: a random continuation ended %s", t->id,
                 result_name(r.score.result));
  }
}

Test(tactics, accepted_moves_win_when_played_out) {
  TacticSet set = load_suite();
  ActList L;
  int checked = 0;
  for (int i = 0; i < set.n; i++) {
    const Tactic *t = &set.t[i];
    if (!t->win) continue;
    Scen *sc;
    State s;
    char err[1024];
    cr_assert_eq(tactic_state(t, &sc, &s, err, sizeof err), 0, "%s", err);
    gs_legal(sc, &s, &L);
    for (int k = 0; k < L.n; k++)
      if (tactic_accepts(sc, &s, t, L.a[k])) play_out(sc, &s, t, L.a[k]), checked++;
    free(sc);
  }
  cr_assert_geq(checked, 15);
  tactics_free(&set);
}

Test(tactics, heuristic_and_mcts_sim_solve_the_easy_ones) {
  TacticSet set = load_suite();
  const char *specs[] = {"heuristic", "mcts:sim"};
  for (int i = 0; i < set.n; i++) {
    if (!set.t[i].easy) continue;
    for (int p = 0; p < 2; p++) {
      TacticAnswer a;
      tactic_ask(&set.t[i], specs[p], 1 + (uint64_t)i, &a);
      cr_assert(a.ok, "%s: %s played '%s', not %s", set.t[i].id, specs[p], a.move, set.t[i].accept);
    }
  }
  tactics_free(&set);
}

Test(tactics, command_prints_and_writes_the_table) {
  static char out[1 << 16];
  char dir[64], cmd[512], path[128];
  th_tmpdir(dir, sizeof dir);
  snprintf(cmd, sizeof cmd, "./waterloo tactics --players heuristic,random --seed 3 --out %s/t.md",
           dir);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s", out);
  cr_assert_not_null(strstr(out, "| **score** | | | |"), "%s", out);
  cr_assert_not_null(strstr(out, "| short-army-last-pass-three-castles |"));
  snprintf(path, sizeof path, "%s/t.md", dir);
  char *md = th_slurp(path, NULL);
  cr_assert_not_null(md);
  cr_assert_not_null(
      strstr(md, "Made by `./waterloo tactics --players heuristic,random --seed 3 --out"));
  cr_assert_not_null(strstr(md, "## The positions"));
  free(md);
  /* the same table with 2 threads */
  static char out2[1 << 16];
  snprintf(cmd, sizeof cmd, "./waterloo tactics --players heuristic,random --seed 3 --threads 2");
  cr_assert_eq(th_sh(cmd, out2, sizeof out2), 0);
  char *c1 = strstr(out, "| CPU seconds"), *c2 = strstr(out2, "| CPU seconds");
  cr_assert(c1 && c2);
  *c1 = *c2 = 0; /* CPU seconds are measured, not reproduced */
  cr_assert_str_eq(out, out2, "the table depends on --threads");
  th_rmdir(dir);
}

Test(tactics, bad_input_one_line_and_exit_2) {
  char out[4096], dir[64], cmd[512], path[128];
  th_tmpdir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/bad.txt", dir);
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f);
  fprintf(f, "# a comment\nx | R-4.5 | pass | - | short base turn=4 last_pass=1 | - | c\n"
             "y | R-4.5 | move fr-1/I Z9 ; pass | - | short base | - | not legal\n");
  fclose(f);
  snprintf(cmd, sizeof cmd, "./waterloo tactics --players heuristic --file %s", path);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 2, "%s", out);
  char want[256];
  snprintf(want, sizeof want, "%s:3: accepted move 'move fr-1/I Z9' is not legal", path);
  cr_assert_not_null(strstr(out, want), "%s", out); /* quoted as written, not lower-cased */
  cr_assert_eq(th_sh("./waterloo tactics --players nobody", out, sizeof out), 2);
  cr_assert_not_null(strstr(out, "--players"), "%s", out);
  cr_assert_eq(th_sh("./waterloo tactics --file /nonexistent/t.txt", out, sizeof out), 2);
  cr_assert_not_null(strstr(out, "/nonexistent/t.txt: cannot read it"), "%s", out);
  cr_assert_eq(th_sh("./waterloo tactics --threads 0", out, sizeof out), 2);
  /* an --out that cannot be written is refused before any search: no table printed */
  snprintf(cmd, sizeof cmd, "./waterloo tactics --players heuristic --out %s/no/such/dir/t.md", dir);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 2, "%s", out);
  cr_assert_not_null(strstr(out, "/no/such/dir/t.md: cannot write it"), "%s", out);
  cr_assert_null(strstr(out, "| **score**"), "searched before refusing the output: %s", out);
  th_rmdir(dir);
}

/* the suite's target: every level from easy up solves every position of the suite */
Test(tactics, levels_from_easy_up_solve_every_position) {
  TacticSet set = load_suite();
  const char *specs[] = {"mcts:easy", "mcts:normal"};
  for (int i = 0; i < set.n; i++)
    for (int p = 0; p < 2; p++) {
      TacticAnswer a;
      tactic_ask(&set.t[i], specs[p], 1 + (uint64_t)i, &a);
      cr_assert(a.ok, "%s: %s played '%s', not %s", set.t[i].id, specs[p], a.move, set.t[i].accept);
    }
  tactics_free(&set);
}
