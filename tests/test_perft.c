/* Perft-style pinned counts (issue 12): the number of legal actions summed over fixed seeded
 * random games, per scenario and phase, against tests/perft.txt.  Any change to the rules or
 * the scenario data that changes what is legal changes a count, and the failure says in which
 * scenario and phase.  When the change is intended, the test writes the new table to
 * build/perft.actual: review it and copy it over tests/perft.txt. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"

#define PERFT_SEEDS 40

/* "scenario phase positions legal_actions" lines for both scenarios, written into buf */
static void perft_table(char *buf, size_t len) {
  const char *scen[2] = {"short", "long"};
  size_t n = 0;
  n += (size_t)snprintf(buf + n, len - n, "# scenario phase positions legal-actions (%d seeded random games each)\n", PERFT_SEEDS);
  for (int k = 0; k < 2; k++) {
    Scen *sc = malloc(sizeof *sc);
    char err[2048];
    cr_assert_eq(scen_load(sc, "scenarios", scen[k], "base", err, sizeof err), 0, "%s", err);
    long pos[PH_COUNT] = {0}, legal[PH_COUNT] = {0};
    static ActList L;
    for (uint64_t seed = 1; seed <= PERFT_SEEDS; seed++) {
      State s;
      gs_init(sc, &s, seed, 0);
      Rng r;
      rng_seed(&r, seed, 0x9e7f);
      while (!gs_over(&s)) {
        gs_legal(sc, &s, &L);
        cr_assert(L.n > 0);
        pos[s.turn.phase]++;
        legal[s.turn.phase] += L.n;
        gs_apply(sc, &s, L.a[rng_below(&r, (uint32_t)L.n)]);
      }
    }
    for (int ph = 1; ph < PH_COUNT; ph++)
      if (pos[ph]) n += (size_t)snprintf(buf + n, len - n, "%s %s %ld %ld\n", scen[k], phase_name(ph), pos[ph], legal[ph]);
    free(sc);
  }
}

Test(perft, legal_action_counts_per_scenario_and_phase) {
  static char got[8192], want[8192];
  perft_table(got, sizeof got);
  FILE *f = fopen("tests/perft.txt", "r");
  size_t n = f ? fread(want, 1, sizeof want - 1, f) : 0;
  want[n] = 0;
  if (f) fclose(f);
  if (strcmp(got, want)) {
    FILE *o = fopen("build/perft.actual", "w");
    if (o) fputs(got, o), fclose(o);
    /* the first line that differs names the scenario and phase */
    const char *a = got, *b = want;
    while (*a && *b) {
      size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
      if (la != lb || strncmp(a, b, la)) break;
      a += la + (a[la] != 0), b += lb + (b[lb] != 0);
    }
    cr_assert_fail("legal actions changed at:\n  now:      %.*s\n  expected: %.*s\n(whole table in "
                   "build/perft.actual; if the rules change is intended, copy it over tests/perft.txt)",
                   (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
  }
}
