/* The light policy and the flat Monte Carlo baseline: legality, honesty, sequential halving. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/ai_bench.h"
#include "../ai/player.h"
#include "helpers.h"

/* the light rule plays whole games with legal actions only, and they end: game g, light plays
 * side g & 1 and light:eps=0.1 the other */
static int pick_light(int g, const State *s) { return s->turn.decider == (g & 1) ? 0 : 1; }
static void light_games(const char *scen, int games) {
  static const char *const specs[] = {"light", "light:eps=0.1"};
  static const uint64_t pseed[] = {10, 20};
  th_player_games(scen, games, specs, 2, pseed, 700, 0, pick_light);
}
Test(search, light_always_legal_short) { light_games("short", 10); }
Test(search, light_always_legal_long) { light_games("long", 4); }

Test(search, baseline_honest) {
  cr_assert_eq(th_honesty("short", "baseline:n=24,cut=2", 21, 15), 0);
  cr_assert_eq(th_honesty("long", "baseline:n=24,cut=2", 22, 10), 0);
}

/* sequential halving: the chosen action is the candidate with the most playouts, every
 * candidate got some, the total stays within the budget */
Test(search, baseline_sequential_halving) {
  Scen *sc = th_load("short", "base");
  char err[200];
  Player *p = player_new(sc, "baseline:n=120,k=6,cut=2", 3, err, sizeof err);
  Player *h = player_new(sc, "heuristic:eps=0.3", 4, err, sizeof err);
  cr_assert(p && h, "%s", err);
  State s;
  gs_init(sc, &s, 99, 1);
  int checked = 0;
  for (int step = 0; step < 400 && !gs_over(&s) && checked < 6; step++) {
    ActList L;
    gs_legal(sc, &s, &L);
    if (L.n >= 6) {
      Candidate c[8];
      int n = player_analyze(p, &s, c, 8);
      cr_assert_eq(n, 6);
      int tot = 0;
      for (int i = 0; i < n; i++) {
        cr_assert(gs_is_legal(sc, &s, c[i].a));
        cr_assert_gt(c[i].visits, 0);
        cr_assert_geq(c[0].visits, c[i].visits);
        tot += c[i].visits;
      }
      cr_assert_leq(tot, 120);
      Action a = player_act(p, &s);
      cr_assert_eq(memcmp(&a, &c[0].a, sizeof a), 0, "the survivor is played");
      checked++;
    }
    gs_apply(sc, &s, player_act(h, &s));
  }
  cr_assert_gt(checked, 0);
  player_free(p);
  player_free(h);
  free(sc);
}

Test(search, baseline_spec_errors) {
  Scen *sc = th_load("short", "base");
  char err[200];
  const char *bad[] = {"baseline:n=0", "baseline:k=0", "baseline:foo=1", "baseline:rollout=x",
                       "baseline:800", "light:x"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    Player *p = player_new(sc, bad[i], 1, err, sizeof err);
    cr_assert_null(p, "%s accepted", bad[i]);
    cr_assert_gt(strlen(err), 0);
  }
  Player *p = player_new(sc, "baseline:n=50,k=3,eps=0.2,cut=4,rollout=heuristic", 1, err, sizeof err);
  cr_assert(p, "%s", err);
  player_free(p);
  free(sc);
}

/* ./waterloo train writes weights with the data fingerprint; they load for the same data, are
 * refused for other data (a variant), and beat the hand-written evaluation's log-loss on the
 * held-out games */
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../ai/ai_internal.h"
Test(search, train_fingerprint_and_calibration) {
  char dir[] = "/tmp/wl-train-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "cp -r scenarios/. %s/ && rm -f %s/eval-*.ini && WATERLOO_DATA=%s ./waterloo train "
           "--scenario short --games 200 --seed 3 > %s/out.txt 2>&1", dir, dir, dir, dir);
  int st = system(cmd);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "train failed");
  char path[600];
  snprintf(path, sizeof path, "%s/out.txt", dir);
  FILE *f = fopen(path, "r");
  cr_assert_not_null(f);
  static char out[1 << 16];
  size_t n = fread(out, 1, sizeof out - 1, f);
  out[n] = 0;
  fclose(f);
  double fit, hand, base;
  char *p = strstr(out, "held-out positions: fit ");
  cr_assert_not_null(p, "%s", out);
  cr_assert_eq(sscanf(p, "held-out positions: fit %lf, hand-written evaluation %lf, base rate %lf", &fit, &hand, &base), 3);
  cr_assert_lt(fit, hand);
  cr_assert_lt(fit, base + 0.02);
  setenv("WATERLOO_DATA", dir, 1);
  Scen *sc = malloc(sizeof *sc);
  char err[600];
  cr_assert_eq(scen_load(sc, scen_default_dir(), "short", "base", err, sizeof err), 0, "%s", err);
  double w[FIT_NF];
  cr_assert_eq(fit_load(sc, 1, w, err, sizeof err), 0, "%s", err);
  /* a variant has its own weights: none fitted yet, then a stale copy of the base game's */
  cr_assert_eq(scen_load(sc, scen_default_dir(), "short", "three-player", err, sizeof err), 0, "%s", err);
  cr_assert_eq(fit_load(sc, 1, w, err, sizeof err), -1);
  cr_assert_not_null(strstr(err, "eval-short+three-player.ini: cannot open (fit it with ./waterloo train --scenario short --variant three-player)"), "%s", err);
  snprintf(cmd, sizeof cmd, "cp %s/eval-short.ini %s/eval-short+three-player.ini", dir, dir);
  cr_assert_eq(system(cmd), 0);
  cr_assert_eq(fit_load(sc, 1, w, err, sizeof err), -1);
  cr_assert_not_null(strstr(err, "refit"), "%s", err);
  cr_assert_eq(fit_path(sc, path, sizeof path), 0);
  cr_assert(strstr(path, "/eval-short+three-player.ini"), "%s", path);
  cr_assert_eq(scen_load(sc, scen_default_dir(), "long", "base", err, sizeof err), 0, "%s", err);
  cr_assert_eq(fit_load(sc, 1, w, err, sizeof err), -1, "no long-game file was written");
  unsetenv("WATERLOO_DATA");
  free(sc);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  cr_assert_eq(system(cmd), 0);
}

/* every shipped variant has its fitted evaluation, and every file loads (inih reads lines of at
 * most 200 bytes: a longer comment once made eval-*+historical-garrisons.ini unreadable, and the
 * search fell back to the hand-written evaluation with one warning) */
Test(fit, every_shipped_variant_has_weights_that_load) {
  static const char *vars[] = {"base", "charge-all-cards", "historical-garrisons", "no-bidding",
                               "prussians-early", "prussians-late", "strong-hougoumont",
                               "three-player"};
  Scen *sc = malloc(sizeof *sc);
  char err[600];
  double w[FIT_NF];
  for (int s = 0; s < 2; s++)
    for (size_t v = 0; v < sizeof vars / sizeof vars[0]; v++) {
      const char *scen = s ? "long" : "short";
      cr_assert_eq(scen_load(sc, scen_default_dir(), scen, vars[v], err, sizeof err), 0, "%s", err);
      cr_assert_eq(fit_load(sc, 1, w, err, sizeof err), 0, "%s %s: %s", scen, vars[v], err);
      char path[600];
      cr_assert_eq(fit_path(sc, path, sizeof path), 0);
      FILE *f = fopen(path, "r");
      cr_assert_not_null(f, "%s", path);
      char line[1024];
      int no = 0;
      while (fgets(line, sizeof line, f)) {
        no++;
        cr_assert_lt(strlen(line), 200, "%s:%d is longer than inih reads", path, no);
      }
      fclose(f);
    }
  free(sc);
}

/* train --threads plays games at once and keeps their positions in game order: the same fit
 * and summary as one thread (100 games: two batches, the second one partial) */
static void train_weights_line(int threads, char *out, size_t len) {
  char cmd[256];
  snprintf(cmd, sizeof cmd, "./waterloo train --scenario short --games 100 --seed 5 --dry-run --threads %d | grep -v 'CPU s'",
           threads);
  FILE *p = popen(cmd, "r");
  cr_assert_not_null(p);
  size_t n = fread(out, 1, len - 1, p);
  out[n] = 0;
  cr_assert_eq(pclose(p), 0, "%s", cmd);
}

Test(search, train_fit_independent_of_threads) {
  static char one[1 << 14], two[1 << 14];
  train_weights_line(1, one, sizeof one);
  train_weights_line(2, two, sizeof two);
  cr_assert_not_null(strstr(one, "weights: "), "%s", one);
  cr_assert_str_eq(one, two);
}

/* the short game's castle features of the fitted evaluation (ai/fit.c), the French point of
 * view: which castles the French hold, their battle points next to a castle the Allies hold
 * against its defence, and the objectives they still lack for a win */
static void castle_feats(const char *scen, const char *pos, double *f) {
  Scen *sc = th_load(scen, "base");
  AiCtx *c = malloc(sizeof *c);
  cr_assert_not_null(c);
  ai_ctx_init(c, sc);
  State s;
  char err[256];
  cr_assert_eq(position_parse(sc, pos, &s, err, sizeof err), 0, "%s", err);
  fit_features(c, &s, f, 1);
  free(c);
  free(sc);
}

Test(fit, R_12_1_castle_features_of_the_short_game) {
  double f[FIT_NF], g[FIT_NF], h[FIT_NF];
  /* Hougoumont and Frischermont French, La Haye Sainte Allied with a garrison, two French
   * units next to it */
  castle_feats("short", "short base board=empty turn=3 owner=10 cdp=4,2,1 units=fr-6/II=F6:N,"
               "fr-1/I=G5:W,br-4/II=F5:S,br-3/I=A1:S", f);
  cr_assert(f[16] == 1 && f[17] == 0 && f[18] == 1, "castles held %g %g %g", f[16], f[17], f[18]);
  cr_assert_gt(f[19], 0, "French next to La Haye Sainte threaten it");
  cr_assert_gt(f[20], 0, "the garrison and the damage points defend it");
  cr_assert_eq(f[21], 1, "one castle (or Mont St. Jean) short of a win");
  /* one attacker fewer: less threat; an empty castle with the same attackers: more */
  castle_feats("short", "short base board=empty turn=3 owner=10 cdp=4,2,1 units=fr-6/II=F6:N,"
               "br-4/II=F5:S,br-3/I=A1:S", g);
  cr_assert_lt(g[19], f[19]);
  castle_feats("short", "short base board=empty turn=3 owner=10 cdp=4,0,1 units=fr-6/II=F6:N,"
               "fr-1/I=G5:W,br-3/I=A1:S", h);
  cr_assert_gt(h[19], f[19]);
  cr_assert_lt(h[20], f[20]);
  /* all three castles French: a win now, nothing left to threaten */
  castle_feats("short", "short base board=empty turn=3 owner=14 cdp=4,2,1 units=fr-6/II=F6:N,"
               "fr-1/I=G5:W,br-3/I=A1:S", g);
  cr_assert(g[17] == 1 && g[19] == 0 && g[21] == 0);
  /* the victory squares' threats are the long game's */
  cr_assert(f[24] == 0 && f[25] == 0);
}

/* the long game's victory squares one by one: the castles as in the short game (but no
 * objectives lacking for R-12.1's win), and for each square a side holds what the other side
 * stands to gain by taking it, times its attackers' points against the defence */
Test(fit, R_12_2_victory_square_features_of_the_long_game) {
  double f[FIT_NF], g[FIT_NF], h[FIT_NF];
  /* Hougoumont and Frischermont French (empty), La Haye Sainte Allied with a garrison and two
   * French units next to it */
  castle_feats("long", "long base board=empty turn=3 owner=10 cdp=4,2,1 units=fr-6/II=F6:N,"
               "fr-1/I=G5:W,br-4/II=F5:S,br-3/I=A1:S", f);
  cr_assert(f[16] == 1 && f[17] == 0 && f[18] == 1, "castles held %g %g %g", f[16], f[17], f[18]);
  cr_assert_gt(f[19], 0, "French next to La Haye Sainte threaten it");
  cr_assert(f[21] == 0 && f[22] == 0, "R-12.1's objectives are the short game's");
  cr_assert_gt(f[24], 0, "the French threaten La Haye Sainte's 10 VP");
  cr_assert_eq(f[25], 0, "no Allied unit is next to a French square");
  /* a French unit next to Plancenoit (2 VP): more French threat */
  castle_feats("long", "long base board=empty turn=3 owner=10 cdp=4,2,1 units=fr-6/II=F6:N,"
               "fr-1/I=G5:W,fr-2/I=J9:S,br-4/II=F5:S,br-3/I=A1:S", g);
  cr_assert_gt(g[24], f[24]);
  /* an Allied unit next to the French Hougoumont (15 VP at stake): an Allied threat, and less
   * of it when French infantry holds the castle */
  castle_feats("long", "long base board=empty turn=3 owner=10 cdp=4,2,1 units=fr-6/II=F6:N,"
               "fr-1/I=G5:W,br-4/II=F5:S,br-3/I=C6:S", g);
  cr_assert_gt(g[25], 0, "the Allies threaten Hougoumont");
  castle_feats("long", "long base board=empty turn=3 owner=10 cdp=4,2,1 units=fr-6/II=F6:N,"
               "fr-1/I=G5:W,fr-3/I=C7:N,br-4/II=F5:S,br-3/I=C6:S", h);
  cr_assert_lt(h[25], g[25], "a French garrison defends Hougoumont");
  cr_assert_gt(h[25], 0);
}

/* a weights file fitted before the later features loads with those weights at 0, and its
 * weights hash as they did before (so the play fingerprint of its scenario does not move) */
Test(fit, file_without_the_later_features_loads_them_as_zero) {
  Scen *sc = th_load("long", "base");
  double w[FIT_NF];
  char err[600];
  cr_assert_eq(fit_load(sc, 0, w, err, sizeof err), 0, "%s", err);
  for (int k = FIT_NF_REQUIRED; k < FIT_NF; k++) cr_assert_eq(w[k], 0);
  cr_assert_eq(fit_hash_weights(w, 7), ai_hash_bytes(w, sizeof(double) * FIT_NF_REQUIRED, 7));
  w[FIT_NF - 1] = 0.5;
  cr_assert_neq(fit_hash_weights(w, 7), ai_hash_bytes(w, sizeof(double) * FIT_NF_REQUIRED, 7));
  /* a file with the short game's castle features (16..23) and none of the long game's later
   * ones (24..) hashes as it did before those were added: the short files keep their hash */
  w[FIT_NF - 1] = 0;
  w[FIT_NF_REQUIRED] = 0.25;
  cr_assert_eq(fit_hash_weights(w, 7),
               ai_hash_bytes(w + FIT_NF_REQUIRED, sizeof(double) * (24 - FIT_NF_REQUIRED),
                             ai_hash_bytes(w, sizeof(double) * FIT_NF_REQUIRED, 7)));
  free(sc);
}

/* evalfile=NAME: a weights file of the scenario folder, checked when the spec is and against the
 * scenario's data when the player is made; a bad name, a missing file or another scenario's
 * file is a one-line error, never a silent fallback */
Test(fit, evalfile_names_a_weights_file_of_the_scenario_folder) {
  Scen *sc = th_load("long", "base");
  char err[600];
  Player *p = player_new(sc, "mcts:sim,evalfile=eval-long.ini", 1, err, sizeof err);
  cr_assert_not_null(p, "%s", err);
  cr_assert(strstr(player_eval_desc(p), "fitted: eval-long.ini"), "%s", player_eval_desc(p));
  player_free(p);
  p = player_new(sc, "flat:sim,evalfile=eval-long.ini", 1, err, sizeof err);
  cr_assert_not_null(p, "%s", err);
  player_free(p);
  cr_assert_eq(player_spec_check("mcts:sim,evalfile=no-such-file.ini", err, sizeof err), -1);
  cr_assert(strstr(err, "no-such-file.ini: cannot open"), "%s", err);
  cr_assert_eq(player_spec_check("mcts:sim,evalfile=..", err, sizeof err), -1);
  cr_assert(strstr(err, "a file name in the scenario folder"), "%s", err);
  cr_assert_eq(player_spec_check("mcts:sim,evalfile=eval-short.ini", err, sizeof err), 0, "%s", err);
  cr_assert_null(player_new(sc, "mcts:sim,evalfile=eval-short.ini", 1, err, sizeof err));
  cr_assert(strstr(err, "fitted for scenario 'short', not 'long'"), "%s", err);
  /* the canonical text names it only when given */
  char can[1024];
  cr_assert_eq(player_spec_canonical("mcts:sim", NULL, can, sizeof can, err, sizeof err), 0);
  cr_assert_null(strstr(can, "evalfile"), "%s", can);
  cr_assert_eq(player_spec_canonical("mcts:sim,evalfile=eval-long.ini", NULL, can, sizeof can, err, sizeof err), 0);
  cr_assert(strstr(can, ",evalfile=eval-long.ini,"), "%s", can);
  free(sc);
}
