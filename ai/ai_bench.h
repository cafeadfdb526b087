/* AI benchmark, honesty check and a small game driver (used by `./waterloo bench` and tests). */
#ifndef WATERLOO_AI_BENCH_H
#define WATERLOO_AI_BENCH_H
#include <stdint.h>
#include <stdio.h>
#include "../engine/engine.h"

/* MCTS iterations per second per thread (one search from a fixed early position of the short
 * and the long game, fixed seed), the 1->2 thread speedup of one search measured in this run,
 * and a deterministic signature of a few fixed searches.  sc is one loaded scenario; the other
 * one is loaded from scen_default_dir() when it can be. */
void ai_bench(const Scen *sc, FILE *out);

/* Honesty: builds npairs pairs of states from real positions of random games that give the
 * deciding side the same gs_observe but differ in hidden information, and checks that player
 * `spec` makes the same decision with the same seed on both.  Returns 0 when every pair agrees,
 * the number of disagreeing pairs otherwise, -1 on setup errors. */
int ai_honesty_check(const Scen *sc, const char *spec, uint64_t seed, int npairs);

/* one game: spec_fr plays the French, spec_al the Allies; players seeded from (seed, side).
 * Returns State.result (1 French win, 2 Allied win, 3 draw) or -1 on error.  When nact is not
 * NULL it receives the number of actions played. */
int ai_play_game(const Scen *sc, const char *spec_fr, const char *spec_al, uint64_t seed,
                 uint64_t stream, int *nact);
#endif
