/* Helpers shared by the subcommands: scenario loading, options, clocks, random games. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "../ai/player.h"

int cli_scen(Scen *sc, const char *scenario, const char *variant) {
  char err[2048];
  if (scen_load(sc, scen_default_dir(), scenario, variant, err, sizeof err)) {
    fprintf(stderr, "waterloo: %s\n", err);
    return -1;
  }
  return 0;
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
int opt_u64(const char *cmd, const char *name, const char *v, uint64_t *out) {
  char *end;
  if (!v || !*v || *v == '-') goto bad;
  *out = strtoull(v, &end, 10);
  if (*end) goto bad;
  return 0;
bad:
  fprintf(stderr, "waterloo %s: %s needs a whole number, not '%s'\n", cmd, name, v ? v : "");
  return -1;
}


/* a difficulty level (easy normal hard expert) or a full player spec, as a player spec */
void cli_level_spec(const char *level, char *spec, size_t len) {
  if (!level || !*level) level = "normal";
  if (player_is_kind(level))
    snprintf(spec, len, "%s", level);
  else
    snprintf(spec, len, "mcts:%s", level);
}
