/* The options of ./waterloo match, strength and scaling (the runs are in sim/: match_main,
 * strength_main, scaling_main). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../sim/sim.h"

/* ---------------------------------------------------------------- match */
static void match_usage(void) {
  printf("usage: waterloo match --scenario short --players A,B --games N [--seed S] "
         "[--threads T] [--variant V] [--sprt ELO0,ELO1 [--batch B]]\n"
         "Plays N games between A and B with mirrored seeds: each seed is played twice, "
         "sides swapped.\nPrints 'Score of A vs B: W - L - D [score] N' and 'Elo difference: "
         "x +/- y' (cutechess-cli shapes), and the win rates with 95%% Wilson intervals per "
         "side.\nA seed played with both side assignments is one pair: the pentanomial counts "
         "(seeds on which A scored 0, 1/2, 1, 3/2, 2 points), the Elo and LOS (likelihood of "
         "superiority) from the pairs.\n"
         "--sprt ELO0,ELO1: sequential probability ratio test on the pairs of H1: ELO1 against "
         "H0: ELO0 (alpha = beta = 0.05, bounds +-2.94), checked after every batch of B games "
         "(default 20, whole mirrored pairs); stops when a bound is crossed, N is the cap.\n"
         "Write A/B when a spec has commas.\n"
         "--players french=A,british=B,prussian=C: a player per seat (the long game's three seats;\n"
         "R-1.2): N games with these seats, no mirror; prints the French win rate and the CPU a game.\n");
}

/* --sprt ELO0,ELO1 */
static int match_opt_sprt(MatchOpts *o, const char *v) {
  char e0[40] = "", e1[40] = "";
  const char *cm = strchr(v, ',');
  if (cm && cm - v < 39) memcpy(e0, v, (size_t)(cm - v)), snprintf(e1, sizeof e1, "%s", cm + 1);
  if (num_double(e0, -2000, 2000, &o->sprt0) || num_double(e1, -2000, 2000, &o->sprt1) || o->sprt0 >= o->sprt1) {
    fprintf(stderr, "match: --sprt ELO0,ELO1 (two numbers, -2000 <= ELO0 < ELO1 <= 2000)\n");
    return 2;
  }
  return 0;
}

/* the options into *o, the specs checked: 0 to run, 1 after --help, 2 on bad input */
static int match_options(MatchOpts *o, int argc, char **argv) {
  char err0[300];
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { match_usage(); return 1; }
    if (!strcmp(a, "--quiet")) { o->quiet = 1; continue; }
    if (strncmp(a, "--", 2)) { fprintf(stderr, "match: unexpected argument '%s' (see --help)\n", a); return 2; }
    if (i + 1 >= argc) { fprintf(stderr, "match: %s needs a value\n", a); return 2; }
    const char *v = argv[++i];
    if (!strcmp(a, "--scenario")) snprintf(o->scen, sizeof o->scen, "%s", v);
    else if (!strcmp(a, "--variant")) snprintf(o->var, sizeof o->var, "%s", v);
    else if (!strcmp(a, "--players") && seats_form(v)) {
      if (seats_parse(v, o->seats, err0, sizeof err0) ||
          seats_allied_spec(o->seats, o->B, sizeof o->B)) {
        fprintf(stderr, "match: --players: %s\n", err0);
        return 2;
      }
      snprintf(o->A, sizeof o->A, "%s", o->seats[SEAT_FRENCH]);
      o->seated = 1;
    } else if (!strcmp(a, "--players")) {
      if (sim_split_players(v, o->A, o->B, sizeof o->A)) {
        fprintf(stderr, "match: --players '%s': two players, A,B (A/B when a spec has options, e.g. "
                        "mcts:iters=100/heuristic)\n", v);
        return 2;
      }
    } else if (!strcmp(a, "--games")) { if (opt_long("match", "--games", v, 2, CLI_MAX_GAMES, &o->games)) return 2; }
    else if (!strcmp(a, "--seed")) { if (opt_u64("match", "--seed", v, &o->seed)) return 2; }
    else if (!strcmp(a, "--threads")) { if (opt_int("match", "--threads", v, 1, CLI_MAX_THREADS, &o->threads)) return 2; }
    else if (!strcmp(a, "--batch")) { if (opt_long("match", "--batch", v, 2, CLI_MAX_GAMES, &o->batch)) return 2; }
    else if (!strcmp(a, "--sprt")) { if (match_opt_sprt(o, v)) return 2; }
    else { fprintf(stderr, "match: unknown option '%s' (see --help)\n", a); return 2; }
  }
  if (o->games < 2) { fprintf(stderr, "match: --games must be at least 2\n"); return 2; }
  if (player_spec_check(o->A, err0, sizeof err0) || player_spec_check(o->B, err0, sizeof err0)) {
    fprintf(stderr, "match: %s\n", err0);
    return 2;
  }
  if (o->games % 2) { o->games++; fprintf(stderr, "match: --games rounded up to %ld (mirrored pairs)\n", o->games); }
  if (o->batch < 2) o->batch = 2;
  return 0;
}

int cmd_match(int argc, char **argv) {
  MatchOpts o = {"short", "base", "heuristic", "random", 100, 20, 1815, 0, 0, NAN, NAN, {""}, 0};
  int orc = match_options(&o, argc, argv);
  if (orc) return orc == 1 ? 0 : orc;
  return match_main(&o);
}

/* ---------------------------------------------------------------- strength */
static void strength_usage(void) {
  printf("usage: waterloo strength [--games N] [--out results/strength.md] [--seed S]\n"
         "                         [--threads T] [--scenario short,long] [--pairs 'A/B[@N];C/D']\n"
         "                         [--resume | --overwrite]\n"
         "The strength table of the computer players: mirrored-seed matches (N games each, each seed\n"
         "played twice with sides swapped) of random, heuristic, mcts at every level, mcts at\n"
         "1x, 2x, 4x, 8x the normal budget, and cheat:normal, in both scenarios; win rates\n"
         "with 95%% Wilson intervals, Elo with error bars, and a ladder anchored at\n"
         "heuristic = 0.  Written as Markdown with the command that reproduces it.\n"
         "A/B@N: N games for that pair (else --games).\n"
         "Every finished seed (both its games) is appended to OUT.journal; --resume reuses\n"
         "what it holds (same scenario, players, seed and build) after a killed run, and grows a\n"
         "match: asked for more games than the journal has, it plays only the new seeds\n"
         "(so does a pair's later step in one run: A/B@40;A/B@80 plays 40 + 40 games).\n"
         "Without --resume an existing journal is never touched: the run stops (--overwrite\n"
         "discards it).  The output is checked for writing before the first game.\n"
         "The margin column is a paired, finer measure: per seed, A's French margin minus\n"
         "B's (VP in the long game, objectives held in the short), halved.\n");
}

/* the options into *S: 0 to run, 1 after --help, 2 on bad input (said on stderr) */
static int strength_options(StrengthOpts *S, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { strength_usage(); return 1; }
    if (!strcmp(a, "--resume")) { S->resume = 1; continue; }
    if (!strcmp(a, "--overwrite")) { S->overwrite = 1; continue; }
    if (i + 1 >= argc) { fprintf(stderr, "strength: %s needs a value\n", a); return 2; }
    const char *v = argv[++i];
    if (!strcmp(a, "--games")) { if (opt_long("strength", "--games", v, 2, CLI_MAX_GAMES, &S->games)) return 2; }
    else if (!strcmp(a, "--out")) S->out = v;
    else if (!strcmp(a, "--seed")) { if (opt_u64("strength", "--seed", v, &S->seed)) return 2; }
    else if (!strcmp(a, "--threads")) { if (opt_int("strength", "--threads", v, 1, CLI_MAX_THREADS, &S->threads)) return 2; }
    else if (!strcmp(a, "--scenario")) S->scen_list = v;
    else if (!strcmp(a, "--pairs")) S->pairs = v;
    else { fprintf(stderr, "strength: unknown option '%s' (see --help)\n", a); return 2; }
  }
  if (S->games < 2) { fprintf(stderr, "strength: --games must be at least 2\n"); return 2; }
  if (S->games % 2) S->games++;
  return 0;
}

int cmd_strength(int argc, char **argv) {
  StrengthOpts o = {40, 1815, 0, 0, 0, "results/strength.md", "short,long", NULL};
  int rc = strength_options(&o, argc, argv);
  if (rc) return rc == 1 ? 0 : rc;
  return strength_main(&o);
}

/* ---------------------------------------------------------------- scaling */
static void scaling_usage(void) {
  printf("usage: waterloo scaling [--scenario short,long] [--from mcts:sim] [--doublings 5]\n"
         "                        [--games N] [--seed S] [--threads T] [--out results/scaling.md]\n"
         "                        [--resume | --overwrite]\n"
         "Strength against thinking time: for each scenario, the mirrored match (N games, each seed\n"
         "played twice with sides swapped) of every doubling of the budget of --from against the\n"
         "level below it (2x vs 1x, 4x vs 2x, ... 2^D x vs 2^(D-1) x).  --from is a level with an\n"
         "optional multiplier (mcts:sim, mcts:easy*2) or a spec with iters=N (mcts:iters=128,c=0.7).\n"
         "Each step is judged on the score (Elo with its 95%% interval, LOS) and on the paired margin\n"
         "(objectives held in the short game, VP in the long), each with a one-sided p-value adjusted\n"
         "by Holm over the steps of the scenario; the Elo of every level cumulated from the first\n"
         "(= 0) is drawn against log2(budget) in OUT with .svg for .md.  The steps are also pooled\n"
         "(\"one gain a doubling\"): their common gain, Cochran's Q of whether they differ more\n"
         "than chance, and the trend from step to step.  SCEN@N in --scenario: N\n"
         "games per step in that scenario (e.g. short@200,long@100).\n"
         "Every finished seed is appended to OUT.journal; --resume plays only what it lacks (a\n"
         "killed run loses only the games under way; a larger N grows the matches).  Without\n"
         "--resume an existing journal is never touched: the run stops (--overwrite discards it).\n"
         "Results do not depend on --threads.\n");
}

/* the options into *S: 0 to run, 1 after --help, 2 on bad input (said on stderr) */
static int scaling_options(ScalingOpts *S, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { scaling_usage(); return 1; }
    if (!strcmp(a, "--resume")) { S->resume = 1; continue; }
    if (!strcmp(a, "--overwrite")) { S->overwrite = 1; continue; }
    if (i + 1 >= argc) { fprintf(stderr, "scaling: %s needs a value\n", a); return 2; }
    const char *v = argv[++i];
    long d;
    if (!strcmp(a, "--games")) { if (opt_long("scaling", "--games", v, 2, CLI_MAX_GAMES, &S->games)) return 2; }
    else if (!strcmp(a, "--doublings")) {
      if (opt_long("scaling", "--doublings", v, 1, SCALING_MAX_DOUBLINGS, &d)) return 2;
      S->doublings = (int)d;
    } else if (!strcmp(a, "--out")) S->out = v;
    else if (!strcmp(a, "--from")) S->from = v;
    else if (!strcmp(a, "--seed")) { if (opt_u64("scaling", "--seed", v, &S->seed)) return 2; }
    else if (!strcmp(a, "--threads")) { if (opt_int("scaling", "--threads", v, 1, CLI_MAX_THREADS, &S->threads)) return 2; }
    else if (!strcmp(a, "--scenario")) S->scen_arg = v;
    else { fprintf(stderr, "scaling: unknown option '%s' (see --help)\n", a); return 2; }
  }
  if (S->resume && S->overwrite) { fprintf(stderr, "scaling: --resume and --overwrite exclude each other\n"); return 2; }
  if (!*S->out) { fprintf(stderr, "scaling: --out needs a file name\n"); return 2; }
  S->games += S->games % 2;
  return 0;
}

int cmd_scaling(int argc, char **argv) {
  ScalingOpts o = {"mcts:sim", "results/scaling.md", "short,long", 5, 0, 0, 0, 100, 1815};
  int rc = scaling_options(&o, argc, argv);
  if (rc) return rc == 1 ? 0 : rc;
  return scaling_main(&o);
}
