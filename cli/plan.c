/* ./waterloo plan: how many games a cell needs for a 95% half-width of ±X points (issue 24 item
 * 5), on a cell's own French win rate and on a variant's difference from base at the measured
 * pair correlation (and unpaired), from a sim run's summary.json or from rates given by hand.
 * Nothing is played. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *PLAN_USAGE =
    "usage: waterloo plan [--points X] DIR...\n"
    "       waterloo plan [--points X] --rate P [--rate2 Q] [--phi F]\n"
    "The games a cell needs so that a 95% interval is at most ±X points wide (default 3), by\n"
    "the normal approximation (Wilson's interval is close to it away from 0% and 100%):\n"
    "  DIR...     sim runs (DIR/summary.json): for every cell its French win rate and the games\n"
    "             for ±X on it (at the end of its 95% interval nearest 50%: the most it may\n"
    "             need); for every variant its difference from base, the pair correlation\n"
    "             phi measured on its seeds, and the games for ±X on the difference paired (at\n"
    "             that phi) and unpaired. Plan a larger run with the command the report names.\n"
    "  --rate P   a French win rate (0 < P < 1; 0.22 or 22 both mean 22%): the games for ±X on it\n"
    "  --rate2 Q  a second rate: the games for ±X on the difference P - Q\n"
    "  --phi F    the correlation of the pairs' results (-1..1, default 0: unpaired)\n"
    "  --points X the half-width in points (0 < X < 50)\n"
    "A search-level run pairs poorly (phi near 0, sim/README.md 'What pairing buys'): plan it\n"
    "with the unpaired count.\n";

/* games for a half-width h on one rate p */
static double games_rate(double p, double h) {
  return ceil(Z95 * Z95 * fmax(p * (1 - p), 1e-12) / (h * h));
}

/* a rate given as 0.22 or as 22 (points) */
static int plan_rate(const char *name, const char *v, double *out) {
  if (opt_double("plan", name, v, 0, 100, out)) return -1;
  if (*out >= 1) *out /= 100;
  if (!(*out > 0 && *out < 1)) {
    fprintf(stderr, "waterloo plan: %s must lie strictly between 0 and 1 (or 0 and 100 points)\n", name);
    return -1;
  }
  return 0;
}

static int plan_by_hand(int argc, char **argv, double h) {
  double p, q = NAN, phi = 0;
  if (plan_rate("--rate", opt_get(argc, argv, "--rate", ""), &p)) return 2;
  if (opt_has(argc, argv, "--rate2") && plan_rate("--rate2", opt_get(argc, argv, "--rate2", ""), &q))
    return 2;
  if (opt_has(argc, argv, "--phi") &&
      opt_double("plan", "--phi", opt_get(argc, argv, "--phi", ""), -1, 1, &phi))
    return 2;
  printf("French win rate %.1f%%: %.0f games a cell for ±%g points\n", 100 * p,
         games_rate(p, h), 100 * h);
  if (!isnan(q))
    printf("difference %.1f%% − %.1f%% = %+.1f points: %.0f games a cell for ±%g points at pair "
           "correlation %+.2f, %.0f unpaired\n", 100 * p, 100 * q, 100 * (p - q),
           games_for_halfwidth(p, q, phi, h, Z95), 100 * h, phi,
           games_for_halfwidth(p, q, 0, h, Z95));
  return 0;
}

static double pl_num(const cJSON *o, const char *k) {
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

/* the French win rate of the base cell of c's scenario and players, NAN when absent */
static double base_rate(const cJSON *cells, const cJSON *c) {
  const cJSON *b;
  cJSON_ArrayForEach(b, cells) {
    const char *k[3] = {"scenario", "french", "allied"};
    int same = 1;
    for (int i = 0; i < 3; i++) {
      const cJSON *x = cJSON_GetObjectItemCaseSensitive(b, k[i]), *y = cJSON_GetObjectItemCaseSensitive(c, k[i]);
      same &= cJSON_IsString(x) && cJSON_IsString(y) && !strcmp(x->valuestring, y->valuestring);
    }
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(b, "variant");
    if (same && cJSON_IsString(v) && !strcmp(v->valuestring, "base"))
      return pl_num(cJSON_GetObjectItemCaseSensitive(b, "french_rate"), "rate");
  }
  return NAN;
}

static void plan_cell(const cJSON *cells, const cJSON *c, double h) {
  const char *scen = cJSON_GetObjectItemCaseSensitive(c, "scenario")->valuestring;
  const char *var = cJSON_GetObjectItemCaseSensitive(c, "variant")->valuestring;
  if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "identical_to_base"))) {
    printf("| %s | %s | = base: not played | | | | | |\n", scen, var);
    return;
  }
  const cJSON *fr = cJSON_GetObjectItemCaseSensitive(c, "french_rate");
  double p = pl_num(fr, "rate"), n = pl_num(c, "games"), lo = pl_num(fr, "lo"), hi = pl_num(fr, "hi");
  /* planned at the rate the cell may still have that needs the most games (its interval's end
   * nearest 50%): a small cell at 0% would otherwise "need" 1 game */
  double pp = hi < 0.5 ? hi : lo > 0.5 ? lo : 0.5;
  printf("| %s | %s | %.0f | %.1f%% ±%.1f | %.0f |", scen, var, n, 100 * p, 50 * (hi - lo),
         games_rate(isnan(pp) ? p : pp, h));
  const cJSON *vb = cJSON_GetObjectItemCaseSensitive(c, "vs_base");
  double q = base_rate(cells, c), phi = pl_num(vb, "pair_phi");
  if (!vb || isnan(q)) { printf(" | | |\n"); return; }
  double d = pl_num(vb, "diff"); /* over the seeds both cells played */
  printf(" %+.1f |", 100 * (isnan(d) ? p - q : d));
  if (isnan(phi)) printf(" — (not measured) | — /"); /* a summary.json of an older build */
  else printf(" %+.2f | %.0f /", phi, games_for_halfwidth(p, q, phi, h, Z95));
  printf(" %.0f |\n", games_for_halfwidth(p, q, 0, h, Z95));
}

/* one run's table; 0, or 2 after one line */
static int plan_dir(const char *dir, double h) {
  char path[4200];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  size_t len = 0;
  char err[300];
  char *text = file_read_capped(path, 64u << 20, &len, err, sizeof err);
  if (!text) {
    fprintf(stderr, "waterloo plan: %s\n", err);
    return 2;
  }
  cJSON *root = cJSON_Parse(text);
  free(text);
  const cJSON *cells = root ? cJSON_GetObjectItemCaseSensitive(root, "cells") : NULL;
  if (!cJSON_IsArray(cells)) {
    fprintf(stderr, "waterloo plan: %s: not the summary.json of a sim run\n", path);
    cJSON_Delete(root);
    return 2;
  }
  const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(root, "command");
  printf("## %s\n\n%s%s%s\n\n| scenario | variant | games | French win [now ±] | games for ±%g | "
         "vs base | phi | games for ±%g paired / unpaired |\n|---|---|---:|---|---:|---:|---:|---|\n",
         dir, cJSON_IsString(cmd) ? "Made by `" : "", cJSON_IsString(cmd) ? cmd->valuestring : "",
         cJSON_IsString(cmd) ? "`" : "", 100 * h, 100 * h);
  const cJSON *c;
  cJSON_ArrayForEach(c, cells) plan_cell(cells, c, h);
  printf("\n");
  cJSON_Delete(root);
  return 0;
}

/* the options (each with a value) and the folders; 0, 1 after --help, 2 after one line */
static int plan_args(int argc, char **argv, const char **dirs, int *nd) {
  static const char *known[] = {"--points", "--rate", "--rate2", "--phi"};
  *nd = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { fputs(PLAN_USAGE, stdout); return 1; }
    if (argv[i][0] != '-') { if (*nd < 64) dirs[(*nd)++] = argv[i]; continue; }
    int ok = 0;
    for (int k = 0; k < 4; k++) ok |= !strcmp(argv[i], known[k]);
    if (!ok) { fprintf(stderr, "waterloo plan: unknown option '%s' (see --help)\n", argv[i]); return 2; }
    if (++i >= argc) { fprintf(stderr, "waterloo plan: option '%s' needs a value\n", argv[i - 1]); return 2; }
  }
  return 0;
}

int cmd_plan(int argc, char **argv) {
  const char *dirs[64];
  int nd, rc = plan_args(argc, argv, dirs, &nd);
  if (rc) return rc == 1 ? 0 : rc;
  double x = 3;
  if (opt_has(argc, argv, "--points") &&
      opt_double("plan", "--points", opt_get(argc, argv, "--points", ""), 1e-3, 49.999, &x))
    return 2;
  double h = x / 100;
  if (opt_has(argc, argv, "--rate") != (nd == 0)) {
    fprintf(stderr, "waterloo plan: name sim runs' folders (DIR/summary.json) or --rate P, one of "
                    "the two\n");
    return 2;
  }
  if (!nd) return plan_by_hand(argc, argv, h);
  for (int k = 0; k < nd && rc == 0; k++) rc = plan_dir(dirs[k], h);
  return rc;
}
