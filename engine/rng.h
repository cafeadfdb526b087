/* PCG32 (XSH RR 64/32), O'Neill 2014: our own implementation, checked against the reference
 * test vectors in tests/test_rng.c.  One stream per game, derived from (seed, game index). */
#ifndef WATERLOO_RNG_H
#define WATERLOO_RNG_H
#include <stdint.h>

typedef struct { uint64_t state, inc; } Rng;

static inline uint32_t rng_u32(Rng *r) {
  uint64_t old = r->state;
  r->state = old * 6364136223846793005ULL + r->inc;
  uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
  uint32_t rot = (uint32_t)(old >> 59u);
  return (xorshifted >> rot) | (xorshifted << ((-rot) & 31));
}

/* seed: initial state, seq: stream selector (the reference pcg32_srandom_r) */
static inline void rng_seed(Rng *r, uint64_t seed, uint64_t seq) {
  r->state = 0u;
  r->inc = (seq << 1u) | 1u;
  rng_u32(r);
  r->state += seed;
  rng_u32(r);
}

/* uniform in [0, bound) without modulo bias */
static inline uint32_t rng_below(Rng *r, uint32_t bound) {
  if (bound <= 1) return 0;
  uint32_t threshold = (uint32_t)(-bound) % bound;
  for (;;) {
    uint32_t x = rng_u32(r);
    if (x >= threshold) return x % bound;
  }
}

static inline double rng_unit(Rng *r) { return rng_u32(r) * (1.0 / 4294967296.0); }

/* a child stream: used to give each game, search thread or sample its own generator */
static inline void rng_split(Rng *parent, Rng *child, uint64_t tag) {
  uint64_t s = ((uint64_t)rng_u32(parent) << 32) | rng_u32(parent);
  rng_seed(child, s, tag);
}

/* the n-th set bit of a mask (n < popcount) */
static inline int mask_nth(uint64_t m, int n) {
  while (n-- > 0) m &= m - 1;
  return __builtin_ctzll(m);
}
/* a random set bit of a non-empty mask */
static inline int mask_pick(Rng *r, uint64_t m) {
  return mask_nth(m, (int)rng_below(r, (uint32_t)__builtin_popcountll(m)));
}
#endif
