/* Shared by the libFuzzer targets (make fuzz): the scenario folder, a bounded walk through a
 * position that checks the invariants after every action. */
#ifndef WATERLOO_FUZZ_COMMON_H
#define WATERLOO_FUZZ_COMMON_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/engine.h"

static inline const char *fz_dir(void) {
  const char *d = getenv("WATERLOO_DATA");
  return d && *d ? d : "scenarios";
}

/* a NUL-terminated copy of the input */
static inline char *fz_text(const unsigned char *d, size_t n) {
  char *t = malloc(n + 1);
  if (!t) abort();
  memcpy(t, d, n);
  t[n] = 0;
  return t;
}

/* up to `steps` actions from s (choices from `pick`), every text form on the way, and the
 * invariants after each action: a position the engine accepted must be playable */
static inline void fz_walk(const Scen *sc, State s, unsigned pick, int steps) {
  static ActList L;
  char buf[256];
  for (int i = 0; i < steps && !gs_over(&s); i++) {
    gs_legal(sc, &s, &L);
    if (L.n <= 0) {
      gs_describe(sc, &s, buf, sizeof buf);
      fprintf(stderr, "no legal action in a running game: %s\n", buf);
      abort();
    }
    Action a = L.a[(pick = pick * 1103515245u + 12345u) % (unsigned)L.n];
    action_format(sc, &s, a, buf, sizeof buf);
    int att, def, hid;
    battle_base_totals(sc, &s, s.battle.def_sq, 15, &att, &def);
    battle_seen_totals(sc, &s, s.turn.decider, &att, &def, &hid);
    gs_apply(sc, &s, a);
    if (gs_check(sc, &s, buf, sizeof buf)) {
      fprintf(stderr, "invariant broken after a legal action: %s\n", buf);
      abort();
    }
  }
  char *j = state_to_json(sc, &s);
  free(j);
  gs_describe(sc, &s, buf, sizeof buf);
}
#endif
