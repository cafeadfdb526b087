/* ./waterloo bench: the numbers the speed targets are checked by.  No timed tests: the
 * benchmark prints, people (and CI logs) read. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#include "../ai/ai_bench.h"
#include "../sim/sim.h"

/* positions of random games, for timing the legal-action generation */
typedef struct { Rng pol; State *pos; int n, max; } PosCtx;
static Action pos_choose(void *ctx, const State *s, const ActList *L) {
  PosCtx *c = ctx;
  if (c->n < c->max) c->pos[c->n++] = *s;
  return L->a[rng_below(&c->pol, (uint32_t)L->n)];
}

int cmd_bench(int argc, char **argv) {
  int rc = cli_args(argc, argv, "bench", "--seconds --engine-only!",
                    "usage: waterloo bench [--seconds S] [--engine-only]\n"
                    "Prints sizeof(State), random playouts per second on one core (short and long),\n"
                    "nanoseconds per legal-action generation, a deterministic signature of the rules\n"
                    "(changes only when behaviour does), then the AI and simulator benchmarks.\n");
  if (rc >= 0) return rc;
  double secs;
  if (opt_double("bench", "--seconds", opt_get(argc, argv, "--seconds", "2"), 0.01, 3600, &secs)) return 2;
  printf("sizeof(State) = %zu bytes (target <= 512)\n", sizeof(State));
  const char *scens[2] = {"short", "long"};
  for (int k = 0; k < 2; k++) {
    Scen *sc = sim_scen_load("bench", scens[k], "base");
    if (!sc) return 2;
    double t0 = clock_wall();
    long games = 0, decisions = 0;
    while (clock_wall() - t0 < secs) {
      State s;
      for (int i = 0; i < 20; i++, games++) decisions += game_random(sc, &s, 99, (uint64_t)games, NULL);
    }
    double dt = clock_wall() - t0;
    printf("%-5s random playouts: %.0f games/s on one core (%.0f decisions per game)\n", scens[k],
           games / dt, (double)decisions / (double)games);
    /* legal generation on the positions of a few games */
    static State pos[4096];
    PosCtx pc = {.pos = pos, .max = 4096};
    GameHooks hk = {.choose = pos_choose, .ctx = &pc, .want_legal = 1, .max_actions = 4096};
    for (int g = 0; g < 8 && pc.n < pc.max; g++) {
      State s;
      rng_seed(&pc.pol, 5, (uint64_t)g);
      gs_init(sc, &s, 5, (uint64_t)g);
      hk.max_actions = pc.max - pc.n;
      game_run(sc, &s, &hk);
    }
    int npos = pc.n;
    ActList *L = malloc(sizeof *L);
    long calls = 0, acts = 0;
    t0 = clock_wall();
    while (clock_wall() - t0 < secs / 2)
      for (int i = 0; i < npos; i++, calls++) acts += gs_legal(sc, &pos[i], L);
    dt = clock_wall() - t0;
    printf("%-5s legal-action generation: %.0f ns per call (%.1f actions per list)\n", scens[k],
           dt * 1e9 / (double)calls, (double)acts / (double)calls);
    long lt = 0, nd = 0;
    uint64_t sig = rules_signature(sc, RULES_SIG_GAMES, &lt, &nd);
    printf("%-5s signature: %016" PRIx64 " (%ld legal actions over %ld decisions of %d seeded games)\n",
           scens[k], sig, lt, nd, RULES_SIG_GAMES);
    if (k == 1 && !opt_has(argc, argv, "--engine-only")) ai_bench(sc, stdout);
    free(L);
    free(sc);
  }
  if (!opt_has(argc, argv, "--engine-only")) sim_bench(stdout);
  return 0;
}
