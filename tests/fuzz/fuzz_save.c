/* libFuzzer target: the save loader (game_load_text), then play on from what it accepted. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const unsigned char *d, size_t n) {
  if (n > 1 << 20) return 0;
  static Scen sc;
  char *t = fz_text(d, n), err[1024];
  GameRec g;
  State s;
  if (game_load_text(&sc, fz_dir(), "fuzz.json", t, &g, &s, err, sizeof err) == 0) {
    fz_walk(&sc, s, (unsigned)n, 40);
    State back;
    gamerec_position(&sc, &g, g.n, &back);
    if (memcmp(&back, &s, sizeof s)) {
      fprintf(stderr, "the record does not replay to the loaded position\n");
      abort();
    }
    gamerec_free(&g);
  } else if (strchr(err, '\n')) {
    fprintf(stderr, "a load error of more than one line: %s\n", err);
    abort();
  }
  free(t);
  return 0;
}
