/* waterloo --version: the version and the fingerprints that say which rules and data this copy
 * plays, so that a result, a journal or a bug report can be matched to the program. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "../sim/sim.h"

int cmd_version(int argc, char **argv) {
  int rc = cli_args(argc, argv, "--version", "",
                    "usage: waterloo --version\n"
                    "Prints the version; the rules signature of each scenario (the one `waterloo bench\n"
                    "--engine-only` prints: the legal actions of 50 seeded random games); the play\n"
                    "fingerprint (the data, one heuristic game and the fitted evaluation: the key of the\n"
                    "sim, skill and strength journals); the search fingerprint (every level's settings\n"
                    "and the first decisions of each search kind: a report made by a search player\n"
                    "carries it); the folders the data and the page come from.\n");
  if (rc >= 0) return rc;
  printf("waterloo %s\n", WATERLOO_VERSION);
  const char *scens[2] = {"short", "long"};
  uint64_t sig[2];
  uint32_t play[2];
  for (int k = 0; k < 2; k++) {
    Scen *sc = sim_scen_load("version", scens[k], "base");
    if (!sc) return 2;
    long lt = 0, nd = 0;
    sig[k] = rules_signature(sc, RULES_SIG_GAMES, &lt, &nd);
    play[k] = play_fingerprint(sc);
    free(sc);
  }
  printf("rules signature: short %016" PRIx64 ", long %016" PRIx64 "\n", sig[0], sig[1]);
  printf("play fingerprint: short %08" PRIx32 ", long %08" PRIx32 "\n", play[0], play[1]);
  printf("search fingerprint: %08" PRIx32 "\n", search_fingerprint());
  char web[4200], full[2][PATH_MAX];
  data_dir("WATERLOO_WEB", "web", "index.html", web, sizeof web);
  const char *dirs[2] = {scen_default_dir(), web};
  for (int k = 0; k < 2; k++)   /* absolute and without "..", as a person would look for it */
    if (!realpath(dirs[k], full[k])) snprintf(full[k], sizeof full[k], "%.4000s", dirs[k]);
  printf("scenario data: %s\nweb page: %s\n", full[0], full[1]);
  return 0;
}
