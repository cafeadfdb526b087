/* PCG32 (engine/rng.h) against the reference implementation's published outputs, and the
 * helpers built on it. */
#include <criterion/criterion.h>

#include "../engine/rng.h"

/* pcg32-demo of the reference C library: pcg32_srandom_r(&rng, 42u, 54u), then
 * pcg32_random_r six times */
Test(rng, pcg32_reference_vectors) {
  static const uint32_t want[6] = {0xa15c02b7u, 0x7b47f409u, 0xba1d3330u,
                                   0x83d2f293u, 0xbfa4784bu, 0xcbed606eu};
  Rng r;
  rng_seed(&r, 42u, 54u);
  for (int i = 0; i < 6; i++) {
    uint32_t x = rng_u32(&r);
    cr_assert_eq(x, want[i], "output %d: 0x%08x, expected 0x%08x", i, x, want[i]);
  }
}

Test(rng, same_seed_same_stream_other_stream_differs) {
  Rng a, b, c;
  rng_seed(&a, 7, 1);
  rng_seed(&b, 7, 1);
  rng_seed(&c, 7, 2);
  int differ = 0;
  for (int i = 0; i < 100; i++) {
    uint32_t x = rng_u32(&a), y = rng_u32(&b), z = rng_u32(&c);
    cr_assert_eq(x, y);
    differ += x != z;
  }
  cr_assert_gt(differ, 90);
}

Test(rng, below_is_in_range_and_covers_it) {
  Rng r;
  rng_seed(&r, 1, 1);
  cr_assert_eq(rng_below(&r, 0), 0);
  cr_assert_eq(rng_below(&r, 1), 0);
  int count[7] = {0};
  for (int i = 0; i < 70000; i++) {
    uint32_t x = rng_below(&r, 7);
    cr_assert_lt(x, 7);
    count[x]++;
  }
  for (int k = 0; k < 7; k++) cr_assert(count[k] > 9000 && count[k] < 11000, "bucket %d: %d", k, count[k]);
  for (int i = 0; i < 1000; i++) {
    double u = rng_unit(&r);
    cr_assert(u >= 0.0 && u < 1.0);
  }
}

Test(rng, mask_nth_and_pick) {
  uint64_t m = (1ull << 3) | (1ull << 17) | (1ull << 63);
  cr_assert_eq(mask_nth(m, 0), 3);
  cr_assert_eq(mask_nth(m, 1), 17);
  cr_assert_eq(mask_nth(m, 2), 63);
  Rng r;
  rng_seed(&r, 3, 3);
  int seen = 0;
  for (int i = 0; i < 300; i++) {
    int b = mask_pick(&r, m);
    cr_assert(m & (1ull << b));
    seen |= b == 3 ? 1 : b == 17 ? 2 : 4;
  }
  cr_assert_eq(seen, 7);
}

Test(rng, split_children_are_reproducible_and_distinct) {
  Rng p1, p2, c1, c2, c3;
  rng_seed(&p1, 99, 0);
  rng_seed(&p2, 99, 0);
  rng_split(&p1, &c1, 5);
  rng_split(&p2, &c2, 5);
  rng_split(&p1, &c3, 5);
  cr_assert_eq(c1.state, c2.state);
  cr_assert_eq(c1.inc, c2.inc);
  cr_assert_eq(rng_u32(&c1), rng_u32(&c2));
  cr_assert_neq(c1.state, c3.state);
}
