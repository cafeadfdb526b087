/* The one game loop: every place that plays a game to its end (the simulator, `random`,
 * `bench`, the AI's own checks, the tests) runs it through game_run with its own hooks. */
#ifndef WATERLOO_DRIVER_H
#define WATERLOO_DRIVER_H
#include "engine.h"

typedef struct {
  /* the action for gs_decider(s); L is the legal list when want_legal, else NULL */
  Action (*choose)(void *ctx, const State *s, const ActList *L);
  /* optional: after each action, with the position before it */
  void (*after)(void *ctx, const State *before, Action a, const State *after);
  void *ctx;
  int want_legal;      /* generate the legal list for choose (and count it in *legal_total) */
  int check_legal;     /* refuse an illegal choice: game_run returns GAME_ILLEGAL           */
  long max_actions;    /* safety limit; 0: none                                            */
  long *legal_total;   /* when want_legal and not NULL: the list sizes are added here       */
} GameHooks;

enum { GAME_LIMIT = -1, GAME_ILLEGAL = -2 };

/* plays s until the game is over; returns the number of actions applied, GAME_LIMIT when
 * max_actions were applied first, GAME_ILLEGAL when check_legal caught an illegal choice
 * (s is then the position where it was chosen) */
long game_run(const Scen *sc, State *s, const GameHooks *h);

/* a uniformly random game from gs_init(sc, s, seed, index) with its own policy stream;
 * returns the number of decisions (the same games as before the driver existed) */
long game_random(const Scen *sc, State *s, uint64_t seed, uint64_t index, long *legal_total);
#endif
