/* The one game loop (see driver.h). */
#include "driver.h"

long game_run(const Scen *sc, State *s, const GameHooks *h) {
  ActList L;
  long n = 0;
  while (!gs_over(s)) {
    if (h->max_actions > 0 && n >= h->max_actions) return GAME_LIMIT;
    const ActList *lp = NULL;
    if (h->want_legal) {
      gs_legal(sc, s, &L);
      if (h->legal_total) *h->legal_total += L.n;
      lp = &L;
    }
    Action a = h->choose(h->ctx, s, lp);
    if (h->check_legal && !gs_is_legal(sc, s, a)) return GAME_ILLEGAL;
    if (h->after) {
      State before = *s;
      gs_apply(sc, s, a);
      h->after(h->ctx, &before, a, s);
    } else {
      gs_apply(sc, s, a);
    }
    n++;
  }
  return n;
}

static Action choose_uniform(void *ctx, const State *s, const ActList *L) {
  (void)s;
  return L->a[rng_below((Rng *)ctx, (uint32_t)L->n)];
}

long game_random(const Scen *sc, State *s, uint64_t seed, uint64_t index, long *legal_total) {
  Rng pol;
  rng_seed(&pol, seed ^ 0x9e3779b97f4a7c15ULL, index);
  gs_init(sc, s, seed, index);
  GameHooks h = {.choose = choose_uniform, .ctx = &pol, .want_legal = 1, .legal_total = legal_total};
  return game_run(sc, s, &h);
}
