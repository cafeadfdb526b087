/* `waterloo tactics`: the options of the tactics suite; the experiment is sim/tactics.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../ai/player.h"
#include "../sim/tactics.h"

#define MAX_TACTICS_PLAYERS 16

static const char USAGE[] =
    "usage: waterloo tactics [--players SPEC[,SPEC...]] [--file F] [--seed N] [--threads N]\n"
    "                        [--out FILE.md]\n"
    "Asks each player for its move in each position of the tactics suite (default\n"
    "scenarios/tactics.txt: positions on the real map where the rules make one move clearly\n"
    "best, with the moves each accepts and the rule ids that make them best; format in\n"
    "sim/tactics.h) and prints a table: position, accepted moves, each player's move and\n"
    "ok/fail, the score per player, the easy ones, the CPU seconds. A player sees only the\n"
    "deciding side's observation. --players: specs separated by ',' (a piece with '=' and no\n"
    "':' is an option of the spec before it: mcts:normal,iters=100) or by '/' (default\n"
    "heuristic,baseline,mcts:sim); --seed: players are seeded by (seed, position, player)\n"
    "(default 1); --threads: positions in parallel (the table does not depend on it);\n"
    "--out: also write the table, with the command that reproduces it, as markdown.\n";

/* the specs of a --players list into out (pointers into buf); their number or -1 */
static int split_specs(char *buf, const char **out, int max) {
  int n = 0;
  char sep = strchr(buf, '/') ? '/' : ',';
  for (char *p = buf; p && *p;) {
    char *e = strchr(p, sep);
    if (e) *e = 0;
    int option = sep == ',' && n > 0 && strchr(p, '=') && !strchr(p, ':');
    if (option) p[-1] = ',';            /* glue it back onto the spec before */
    else if (n == max) return -1;
    else out[n++] = p;
    p = e ? e + 1 : NULL;
  }
  return n;
}

/* the command line, for the table's "made by" */
static void command_line(int argc, char **argv, char *out, size_t len) {
  size_t n = (size_t)snprintf(out, len, "./waterloo tactics");
  for (int i = 1; i < argc && n < len; i++)
    n += (size_t)snprintf(out + n, len - n, strchr(argv[i], ' ') ? " '%s'" : " %s", argv[i]);
}

int cmd_tactics(int argc, char **argv) {
  int rc = cli_args(argc, argv, "tactics", "--players --file --seed --threads --out", USAGE);
  if (rc >= 0) return rc;
  char specs[1024], def[1024], file[1024], cmd[2048], err[512];
  snprintf(specs, sizeof specs, "%s",
           opt_get(argc, argv, "--players", "heuristic,baseline,mcts:sim"));
  snprintf(def, sizeof def, "%s/tactics.txt", scen_default_dir());
  snprintf(file, sizeof file, "%s", opt_get(argc, argv, "--file", def));
  const char *players[MAX_TACTICS_PLAYERS];
  int np = split_specs(specs, players, MAX_TACTICS_PLAYERS);
  if (np <= 0) {
    fprintf(stderr, "waterloo tactics: --players: 1 to %d specs\n", MAX_TACTICS_PLAYERS);
    return 2;
  }
  for (int p = 0; p < np; p++)
    if (player_spec_check(players[p], err, sizeof err)) {
      fprintf(stderr, "waterloo tactics: --players: %s\n", err);
      return 2;
    }
  uint64_t seed;
  int threads;
  if (opt_u64("tactics", "--seed", opt_get(argc, argv, "--seed", "1"), &seed) ||
      opt_int("tactics", "--threads", opt_get(argc, argv, "--threads", "1"), 1, CLI_MAX_THREADS,
              &threads))
    return 2;
  command_line(argc, argv, cmd, sizeof cmd);
  TacticsRun o = {file, players, np, seed, threads, opt_get(argc, argv, "--out", NULL), cmd};
  return tactics_run(&o, stdout);
}
