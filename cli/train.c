/* ./waterloo train: the options; the fitting itself (games, logistic regression, the weights
 * file) is ai/fit_train.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "../ai/fit.h"
#include "../ai/player.h"

/* the weights file can be written (FILE.tmp beside it, then renamed over it), checked before
 * the games rather than after them: -1 to go on, else 2 after one line */
static int train_can_write(const char *out) {
  struct stat st;
  if (!*out || (stat(out, &st) == 0 && !S_ISREG(st.st_mode))) {
    fprintf(stderr, "train: --out '%s' is not a file that can be replaced\n", out);
    return 2;
  }
  if (can_create(out)) {
    fprintf(stderr, "train: cannot write %s: %s\n", out, strerror(errno));
    return 2;
  }
  return -1;
}

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
                    "scenarios/eval-<scenario>+<variant>.ini for a variant: each has its own weights,\n"
                    "which the search players read, so --scenario is required, never assumed); a FILE\n"
                    "that cannot be written is refused before the first game.  N is 10..10000000;\n"
                    "--threads T (1..256) plays T games at once (default 1; the fit does not depend on\n"
                    "it).  --dry-run writes nothing.  A FILE in the scenario folder under another name is\n"
                    "played by a search player that names it: mcts:normal,evalfile=NAME.ini.\n");
  if (rc >= 0) return rc;
  const char *scen = opt_get(argc, argv, "--scenario", NULL);
  if (!scen) {
    fprintf(stderr, "train: --scenario short|long is required (without --out the fit replaces "
                    "scenarios/eval-SCENARIO.ini, the search players' weights)\n");
    return 2;
  }
  const char *var = opt_get(argc, argv, "--variant", "base");
  T->sc = *scp = sim_scen_load("train", scen, var);
  if (!T->sc) return 2;
  long games;
  if (opt_long("train", "--games", opt_get(argc, argv, "--games", "6000"), 10, 10000000, &games) ||
      opt_u64("train", "--seed", opt_get(argc, argv, "--seed", "1"), &T->seed))
    return 2;
  T->games = (uint64_t)games;
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
  if (opt_int("train", "--threads", opt_get(argc, argv, "--threads", "1"), 1, CLI_MAX_THREADS,
              &T->threads))
    return 2;
  return T->dry ? -1 : train_can_write(T->out);
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
