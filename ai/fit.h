/* Fitting the evaluation of cut-off rollouts to game outcomes (ai/fit_train.c): the interface
 * of `./waterloo train`, whose options are parsed in cli/train.c. */
#ifndef WATERLOO_FIT_H
#define WATERLOO_FIT_H
#include <stddef.h>
#include <stdint.h>

#include "../engine/engine.h"

typedef struct {
  const Scen *sc;      /* the scenario and variants to fit                               */
  const char *spec;    /* the players of the games (both sides)                          */
  const char *out;     /* the weights file                                               */
  const char *cmd;     /* the command line that reproduces the file                      */
  uint64_t games, seed;
  double hold, lambda; /* held-out share of the games; L2 penalty                         */
  int dry;             /* 1: print, write nothing                                         */
  int threads;         /* games played at once (the result does not depend on it)         */
} FitTrainOpts;

/* play, fit, print the summary, write the weights (unless dry): the exit code */
int fit_train(const FitTrainOpts *o);
/* the weights file of a scenario and its variants: scenarios/eval-<scenario>[+<variant>...].ini */
int fit_path(const Scen *sc, char *out, size_t len);
#endif
