/* Helpers shared by the subcommands: the options. */
#include <ctype.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "../ai/player.h"
#include "../engine/num.h"

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
/* An option given twice: the parsers would read one and ignore the other, so it is refused
 * (one line, -1) unless the command adds them up (sim's --set and --players: one cell each). */
static const char *const REPEATABLE[] = {"sim --set", "sim --players"};

int opt_once(int argc, char **argv, const char *cmd) {
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "--", 2) || !strcmp(argv[i], "--")) continue;
    int n = (int)strcspn(argv[i], "="); /* --games 5 and --games=5 are the same option */
    char key[96];
    snprintf(key, sizeof key, "%s %.*s", cmd, n, argv[i]);
    int adds = 0;
    for (size_t r = 0; r < sizeof REPEATABLE / sizeof REPEATABLE[0]; r++) adds |= !strcmp(key, REPEATABLE[r]);
    for (int k = 1; k < i && !adds; k++)
      if (!strncmp(argv[k], argv[i], (size_t)n) && (argv[k][n] == 0 || argv[k][n] == '=')) {
        fprintf(stderr, "waterloo %s: option '%.*s' given twice\n", cmd, n, argv[i]);
        return -1;
      }
  }
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

/* strict numbers for options (cli/cli.h): the whole value, in range, or one line naming
 * the command and the option, with the value escaped */
static int opt_bad(const char *cmd, const char *name, const char *v, const char *want_fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int opt_bad(const char *cmd, const char *name, const char *v, const char *want_fmt, ...) {
  char e[96], want[96];
  va_list ap;
  va_start(ap, want_fmt);
  vsnprintf(want, sizeof want, want_fmt, ap);
  va_end(ap);
  fprintf(stderr, "waterloo %s: %s must be %s, not '%s'\n", cmd, name, want, num_escape(v ? v : "", e, sizeof e));
  return -1;
}
int opt_u64(const char *cmd, const char *name, const char *v, uint64_t *out) {
  if (num_u64(v, 0, UINT64_MAX, out)) return opt_bad(cmd, name, v, "a whole number from 0 to %" PRIu64, UINT64_MAX);
  return 0;
}
int opt_long(const char *cmd, const char *name, const char *v, long lo, long hi, long *out) {
  if (num_long(v, lo, hi, out)) return opt_bad(cmd, name, v, "a whole number from %ld to %ld", lo, hi);
  return 0;
}
int opt_int(const char *cmd, const char *name, const char *v, int lo, int hi, int *out) {
  long x = 0;
  if (opt_long(cmd, name, v, lo, hi, &x)) return -1;
  *out = (int)x;
  return 0;
}
int opt_double(const char *cmd, const char *name, const char *v, double lo, double hi, double *out) {
  if (num_double(v, lo, hi, out)) return opt_bad(cmd, name, v, "a number from %g to %g", lo, hi);
  return 0;
}
