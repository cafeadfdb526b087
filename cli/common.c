/* Helpers shared by the subcommands: scenario loading, options, clocks, random games. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "../ai/player.h"
#include "../engine/num.h"

Scen *cli_scen(const char *scenario, const char *variant) {
  char err[2048];
  Scen *sc = malloc(sizeof *sc);
  if (!sc) {
    fprintf(stderr, "waterloo: out of memory\n");
    return NULL;
  }
  if (scen_load(sc, scen_default_dir(), scenario, variant, err, sizeof err)) {
    fprintf(stderr, "waterloo: %s\n", err);
    free(sc);
    return NULL;
  }
  return sc;
}

/* option parsing shared by the subcommands: --name value */
const char *opt_get(int argc, char **argv, const char *name, const char *def) {
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], name)) return argv[i + 1];
  return def;
}
int opt_has(int argc, char **argv, const char *name) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], name)) return 1;
  return 0;
}
/* every --option must be one of `known` (space-separated; flags end in '!') */
int opt_check(int argc, char **argv, const char *cmd, const char *known) {
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "--", 2)) {
      fprintf(stderr, "waterloo %s: unexpected argument '%s' (see --help)\n", cmd, argv[i]);
      return -1;
    }
    char key[64];
    snprintf(key, sizeof key, " %s ", argv[i]);
    char flag[64];
    snprintf(flag, sizeof flag, " %s! ", argv[i]);
    char list[512];
    snprintf(list, sizeof list, " %s ", known);
    if (strstr(list, flag)) continue;
    if (!strstr(list, key)) {
      fprintf(stderr, "waterloo %s: unknown option '%s' (see --help)\n", cmd, argv[i]);
      return -1;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "waterloo %s: option '%s' needs a value\n", cmd, argv[i]);
      return -1;
    }
    i++;
  }
  return 0;
}
/* the head of a command: --help anywhere prints usage on stdout (returns 0); an option not in
 * `known` (opt_check; NULL: none checked) gives one line on stderr (returns 2); else -1: go on */
int cli_args(int argc, char **argv, const char *cmd, const char *known, const char *usage) {
  if (opt_has(argc, argv, "--help")) {
    fputs(usage, stdout);
    return 0;
  }
  if (known && opt_check(argc, argv, cmd, known)) return 2;
  return -1;
}
