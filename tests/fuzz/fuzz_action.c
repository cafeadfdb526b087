/* libFuzzer target: the action parser.  Input: scenario byte, seed byte, prefix length byte,
 * then the text.  Whatever action_parse accepts must be legal and keep the invariants. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const unsigned char *d, size_t n) {
  static Scen sc[2];
  static int ready;
  if (!ready) {
    char err[2048];
    if (scen_load(&sc[0], fz_dir(), "short", "base", err, sizeof err) ||
        scen_load(&sc[1], fz_dir(), "long", "base", err, sizeof err)) {
      fprintf(stderr, "%s\n", err);
      abort();
    }
    ready = 1;
  }
  if (n < 3 || n > 4096) return 0;
  const Scen *S = &sc[d[0] & 1];
  State s;
  gs_init(S, &s, d[1], 0);
  Rng r;
  rng_seed(&r, d[1], 5);
  static ActList L;
  for (int i = 0; i < d[2] * 2 && !gs_over(&s); i++) {
    gs_legal(S, &s, &L);
    gs_apply(S, &s, L.a[rng_below(&r, (uint32_t)L.n)]);
  }
  if (gs_over(&s)) return 0;
  char *t = fz_text(d + 3, n - 3), err[512];
  Action a;
  if (action_parse(S, &s, t, &a, err, sizeof err) == 0) {
    if (!gs_is_legal(S, &s, a)) {
      fprintf(stderr, "action_parse accepted an illegal action: %s\n", t);
      abort();
    }
    gs_apply(S, &s, a);
    if (gs_check(S, &s, err, sizeof err)) {
      fprintf(stderr, "invariant broken: %s\n", err);
      abort();
    }
  }
  free(t);
  return 0;
}
