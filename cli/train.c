/* ./waterloo train: the options; the fitting itself (games, logistic regression, the weights
 * file) is ai/fit_train.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../ai/fit.h"
#include "../ai/player.h"

/* the options into *T: -1 to run, else the exit code (after --help or bad input) */
static int train_options(FitTrainOpts *T, Scen **scp, char *defpath, size_t dl, int argc, char **argv) {
  int rc = cli_args(argc, argv, "train", "--scenario --variant --games --seed --players --holdout --lambda --out --threads --dry-run!",
                    "usage: waterloo train --scenario short|long [--variant V] [--games N] [--seed S]\n"
                    "                      [--players SPEC] [--holdout F] [--lambda L] [--out FILE] [--threads T]\n"
                    "                      [--dry-run]\n"
                    "Fits the evaluation used by cut-off rollouts (`mcts:...,eval=fit`) to game outcomes:\n"
                    "plays N games (default 6000) with SPEC on both sides (default light:eps=0.1, the rollout\n"
                    "policy, so the fit predicts how a rollout would end), takes the position at every round\n"
                    "start, and fits a logistic regression of the French result (win 1, draw 0.5) on the\n"
                    "features of ai/fit.c by Newton's method with L2 penalty L (default 1e-4).  The last\n"
                    "share F of the games (default 0.2) is held out: the command prints the log-loss of the\n"
                    "fit, of the hand-written evaluation and of the base rate on them, and the calibration\n"
                    "(predicted against actual French win rate in ten bins).  Writes the weights with the\n"
                    "fingerprint of the scenario data to FILE (default scenarios/eval-<scenario>.ini, and\n"
                    "scenarios/eval-<scenario>+<variant>.ini for a variant: each has its own weights);\n"
                    "--threads T plays T games at once (default 1; the fit does not depend on it).\n"
                    "--dry-run writes nothing.\n");
  if (rc >= 0) return rc;
  const char *scen = opt_get(argc, argv, "--scenario", "short");
  const char *var = opt_get(argc, argv, "--variant", "base");
  T->sc = *scp = sim_scen_load("train", scen, var);
  if (!T->sc) return 2;
  if (opt_u64("train", "--games", opt_get(argc, argv, "--games", "6000"), &T->games) ||
      opt_u64("train", "--seed", opt_get(argc, argv, "--seed", "1"), &T->seed))
    return 2;
  if (T->games < 10 || T->games > 10000000) {
    fprintf(stderr, "train: --games must be in 10..10000000\n");
    return 2;
  }
  char *end;
  T->hold = strtod(opt_get(argc, argv, "--holdout", "0.2"), &end);
  if (*end || !(T->hold > 0 && T->hold < 1)) { fprintf(stderr, "train: --holdout must be a number in (0, 1)\n"); return 2; }
  T->lambda = strtod(opt_get(argc, argv, "--lambda", "1e-4"), &end);
  if (*end || !(T->lambda >= 0 && T->lambda < 1)) { fprintf(stderr, "train: --lambda must be a number in [0, 1)\n"); return 2; }
  T->spec = opt_get(argc, argv, "--players", "light:eps=0.1");
  char err[512];
  if (player_spec_check(T->spec, err, sizeof err)) { fprintf(stderr, "train: %s\n", err); return 2; }
  fit_path(T->sc, defpath, dl);
  T->out = opt_get(argc, argv, "--out", defpath);
  T->dry = opt_has(argc, argv, "--dry-run");
  uint64_t th;
  if (opt_u64("train", "--threads", opt_get(argc, argv, "--threads", "1"), &th)) return 2;
  if (th < 1 || th > 256) { fprintf(stderr, "train: --threads must be in 1..256\n"); return 2; }
  T->threads = (int)th;
  return -1;
}

int cmd_train(int argc, char **argv) {
  FitTrainOpts o;
  memset(&o, 0, sizeof o);
  Scen *sc = NULL;
  char defpath[512], cmd[1024] = "./waterloo train";
  int rc = train_options(&o, &sc, defpath, sizeof defpath, argc, argv);
  if (rc >= 0) { free(sc); return rc; }
  for (int i = 1; i < argc; i++) snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), " %s", argv[i]);
  o.cmd = cmd;
  rc = fit_train(&o);
  free(sc);
  return rc;
}
