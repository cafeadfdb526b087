/* ./waterloo: one program, many subcommands. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "../ai/player.h"

static int cmd_random(int argc, char **argv) {
  int rc = cli_args(argc, argv, "random", "--scenario --variant --games --seed --quiet!",
                    "usage: waterloo random [--scenario short|long] [--variant V[,V...]] [--games N] [--seed S]\n"
                    "Plays games with uniformly random legal actions to the end; prints how each ended and\n"
                    "the totals.\n");
  if (rc >= 0) return rc;
  Scen *sc =
      sim_scen_load("random", opt_get(argc, argv, "--scenario", "short"), opt_get(argc, argv, "--variant", "base"));
  if (!sc) return 2;
  long ngames;
  uint64_t games, seed;
  if (opt_long("random", "--games", opt_get(argc, argv, "--games", "10"), 1, CLI_MAX_GAMES, &ngames) ||
      opt_u64("random", "--seed", opt_get(argc, argv, "--seed", "1"), &seed)) {
    free(sc);
    return 2;
  }
  games = (uint64_t)ngames;
  int quiet = opt_has(argc, argv, "--quiet");
  long res[4] = {0, 0, 0, 0};
  long decisions = 0;
  for (uint64_t g = 0; g < games; g++) {
    State s;
    long n = game_random(sc, &s, seed, g, NULL);
    decisions += n;
    res[s.score.result]++;
    if (!quiet) {
      char d[256];
      gs_describe(sc, &s, d, sizeof d);
      printf("game %" PRIu64 ": %s; %ld decisions\n", g, d, n);
    }
  }
  printf("%" PRIu64 " games (%s, %s, seed %" PRIu64 "): French %ld, Allied %ld, draws %ld; "
         "%.1f decisions per game\n",
         games, sc->scen_name, sc->variant_names, seed, res[RES_FRENCH], res[RES_ALLIED], res[RES_DRAW],
         games ? (double)decisions / (double)games : 0.0);
  free(sc);
  return res[0] ? 1 : 0;
}

/* ---------------------------------------------------------------- show */
static int cmd_show(int argc, char **argv) {
  int rc = cli_args(argc, argv, "show", "--scenario --variant --color! --no-color! --data!",
                    "usage: waterloo show [--scenario short|long] [--variant V[,V...]] [--color|--no-color] [--data]\n"
                    "Prints the board at set-up, the units, the reinforcements, the decks and the parameters.\n"
                    "--data: the data as tables in the order an owner of the printed game checks them\n"
                    "(counters, set-up, cards, reference table, map), each naming the file to edit.\n");
  if (rc >= 0) return rc;
  Scen *sc =
      sim_scen_load("show", opt_get(argc, argv, "--scenario", "short"), opt_get(argc, argv, "--variant", "base"));
  if (!sc) return 2;
  if (opt_has(argc, argv, "--data")) {
    show_data(sc, stdout);
    free(sc);
    return 0;
  }
  int col = opt_has(argc, argv, "--color") || (isatty(1) && !opt_has(argc, argv, "--no-color"));
  State s;
  gs_init(sc, &s, 1, 0);
  printf("Waterloo, %s game (%d turns), variants: %s\n", sc->scen_name, sc->p.turns, sc->variant_names);
  printf("Map, order of battle and cards are a reconstruction (see scenarios/README.md).\n\n");
  board_print(sc, &s, stdout, col);
  printf("\nUnits:\n");
  for (int u = 0; u < sc->nunits; u++) {
    const UnitDef *d = &sc->unit[u];
    if (d->army == ARMY_PR && !sc->p.prussians) continue;
    char q[4];
    sq_name(s.units.sq[u], q);
    printf("  %-15s %-8s %s %d/%d%s%s  %-4s %c  %s\n", d->name, army_name(d->army),
           d->kind == K_CAV ? "cav" : "inf", d->bp_full, d->bp_red, d->elite ? " elite" : "",
           d->kind == K_CAV ? (d->heavy ? " heavy" : " light") : "",
           s.units.sq[u] == SQ_OFF ? "off" : q,
           s.units.sq[u] == SQ_OFF ? '-' : "NESW"[s.units.flag[u] & 3], d -> longname);
  }
  char q[4];
  sq_name(sc->leader_start[0], q);
  printf("  Napoleon %s", q);
  sq_name(sc->leader_start[1], q);
  printf(", Wellington %s\n", q);
  if (sc->p.prussians) {
    printf("\nPrussian reinforcements:\n");
    for (int g = 0; g < sc->ngroups; g++) {
      printf("  %-4s from turn %d at", sc->group[g].name, sc->group[g].turn + sc->p.prussian_shift);
      for (int i = 0; i < sc->group[g].nentry; i++) {
        sq_name(sc->group[g].entry[i], q);
        printf(" %s", q);
      }
      printf(":");
      for (int u = 0; u < sc->nunits; u++)
        if (sc->unit[u].group == g) printf(" %s", sc->unit[u].name);
      printf("\n");
    }
  }
  printf("\nDecks:\n");
  for (int c = 0; c < sc->ncards; c++) {
    const CardDef *d = &sc->card[c];
    if (d->army == ARMY_PR && !sc->p.prussians) continue;
    printf("  %s %-8s MP %d BP %d %-12s", d->id, army_name(d->army), d->mp, d->bp,
           action_kind_name(d->action));
    if (d->action == ACT_COMMAND) printf(" +%d/+%d", d->cmd_att, d->cmd_def);
    printf("  %s\n", d->name);
  }
  const Params *p = &sc->p;
  printf("\nParameters: hands French %d, British %d, Prussian", p->hand_fr, p->hand_br);
  for (int t = 1; t <= p->turns; t++) printf(" %d", p->prussians ? p->hand_pr[t] : 0);
  printf("; round limit %d; castle points %d/%d/%d; bidding %s; %s-player card rule; charge battles: %s\n",
         p->round_limit, p->cdp[0], p->cdp[1], p->cdp[2], p->bidding ? "on" : "off",
         p->three_player ? "3" : "2", p->charge_all_cards ? "all cards" : "elite cards only");
  free(sc);
  return 0;
}

/* ---------------------------------------------------------------- players */
static int cmd_players(int argc, char **argv) {
  int rc = cli_args(argc, argv, "players", "--check --canonical --scenario",
                    "usage: waterloo players [--check SPEC] [--canonical SPEC [--scenario short|long]]\n"
                    "Lists the computer players, their levels and every option with its range and default.\n"
                    "--check SPEC says whether a spec is valid; --canonical SPEC writes it with every option,\n"
                    "as it plays in the --scenario given (without it: the levels' setting common to both).\n");
  if (rc >= 0) return rc;
  const char *chk = opt_get(argc, argv, "--check", NULL), *can = opt_get(argc, argv, "--canonical", NULL);
  const char *scen = opt_get(argc, argv, "--scenario", NULL);
  char err[300], out[1024];
  if (scen && strcmp(scen, "short") && strcmp(scen, "long")) {
    fprintf(stderr, "waterloo players: --scenario '%.40s': short or long\n", scen);
    return 2;
  }
  if (chk && player_spec_check(chk, err, sizeof err)) { fprintf(stderr, "waterloo players: %s\n", err); return 2; }
  if (can) {
    if (player_spec_canonical(can, scen, out, sizeof out, err, sizeof err)) {
      fprintf(stderr, "waterloo players: %s\n", err);
      return 2;
    }
    printf("%s\n", out);
  }
  if (chk && !can) printf("%s: valid\n", chk);
  if (!chk && !can) player_help(stdout);
  return 0;
}

/* ---------------------------------------------------------------- dispatch */
typedef struct { const char *name; int (*fn)(int, char **); const char *help; } Cmd;

static int cmd_help(int argc, char **argv);

static const Cmd CMDS[] = {
    {"play", cmd_play, "play a game against the computer (solo)"},
    {"sim", cmd_sim, "balance analysis: many AI-vs-AI games per scenario and variant"},
    {"match", cmd_match, "strength match between two players, mirrored seeds"},
    {"strength", cmd_strength, "the strength table of the AI players"},
    {"scaling", cmd_scaling, "strength against thinking budget: each doubling head to head, Elo curve"},
    {"plan", cmd_plan, "games a cell needs for a ±X-point interval, from a run's summary.json"},
    {"headline", cmd_headline, "the headline rows of balance reports already written (make run)"},
    {"balance", cmd_balance, "which value of a parameter makes the game even (French win rate 50%)"},
    {"worth", cmd_worth, "what each rule is worth: win-rate change when one side may not use it"},
    {"skill", cmd_skill, "balance across skill: French win rate as both sides get stronger"},
    {"train", cmd_train, "fit the evaluation to game outcomes (logistic regression)"},
    {"review", cmd_review, "review a saved game: the win probability each decision lost, marked"},
    {"tactics", cmd_tactics, "the tactics suite: each player's move in positions with one best move"},
    {"replay", cmd_replay, "replay one simulated game and print its log"},
    {"merge", cmd_merge, "merge sharded simulation outputs"},
    {"serve", cmd_serve, "the board in a web browser: play against the computer (local web server)"},
    {"engine", cmd_engine, "text protocol on stdin/stdout (GTP style)"},
    {"players", cmd_players, "the computer players, their levels and options"},
    {"show", cmd_show, "print the board, units, decks and parameters"},
    {"random", cmd_random, "play random games to the end"},
    {"bench", cmd_bench, "benchmarks: state size, playouts/s, legal-move time, AI and sim speed"},
    {"version", cmd_version, "the version, rules signature and data fingerprint (also --version)"},
    {"help", cmd_help, "this list"},
};

static int cmd_help(int argc, char **argv) {
  /* `help --help` and `help help` ask for this list, as every other COMMAND --help asks for its text */
  if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))) argc = 1;
  for (size_t i = 0; argc > 1 && i < sizeof CMDS / sizeof CMDS[0]; i++)   /* help COMMAND */
    if (!strcmp(argv[1], CMDS[i].name) && CMDS[i].fn != cmd_help) {
      char *av[] = {argv[1], "--help", NULL};
      return CMDS[i].fn(2, av);
    }
  if (argc > 1) {
    fprintf(stderr, "waterloo help: unknown command '%s' (waterloo help lists them)\n", argv[1]);
    return 2;
  }
  printf("usage: waterloo COMMAND [options]   (waterloo COMMAND --help for each)\n\n");
  for (size_t i = 0; i < sizeof CMDS / sizeof CMDS[0]; i++)
    printf("  %-9s %s\n", CMDS[i].name, CMDS[i].help);
  printf("\nScenario data: %s (set WATERLOO_DATA to use another folder)\n", scen_default_dir());
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) return cmd_help(1, argv);
  if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) return cmd_version(argc - 1, argv + 1);
  for (size_t i = 0; i < sizeof CMDS / sizeof CMDS[0]; i++)
    if (!strcmp(argv[1], CMDS[i].name)) {
      return opt_once(argc - 1, argv + 1, CMDS[i].name) ? 2 : CMDS[i].fn(argc - 1, argv + 1);
    }
  fprintf(stderr, "waterloo: unknown command '%s' (try: waterloo help)\n", argv[1]);
  return 2;
}
