/* ./waterloo headline DIR...: the headline rows of balance reports already written by `sim`
 * (DIR/summary.json): the French win rate with its 95% interval for each scenario x variant,
 * a one-line reading of each scenario and the command that made them.  `make run` prints the
 * committed search-level table this way beside a short live run (issue 19 item 6). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define HL_ALPHA 0.05

static const char *HL_USAGE =
    "usage: waterloo headline [--title TEXT] DIR...\n"
    "Prints the headline of balance reports written by `waterloo sim` (DIR/summary.json): for\n"
    "each scenario and variant the French win rate with its 95% Wilson interval and the games,\n"
    "a one-line reading of each scenario (which side base favours; which variants move it, by\n"
    "McNemar's test with Holm's adjustment as the report computes them) and the command that\n"
    "made the report, and a note when DIR/report.md says it was played by another build (its\n"
    "caption \"As of build\": its games would not all replay today).  Nothing is played.\n"
    "`make run` prints the committed search-level table (results/balance-search) this way beside\n"
    "a short live run.\n";

/* a whole file (NUL-terminated, the caller frees it), NULL when it cannot be read */
static char *hl_read(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *s = NULL;
  if (fseek(f, 0, SEEK_END) == 0) {
    long n = ftell(f);
    rewind(f);
    s = n >= 0 && n < (64L << 20) ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) { free(s); s = NULL; }
    if (s) s[n] = 0;
  }
  fclose(f);
  return s;
}

static double hl_num(const cJSON *o, const char *k) {
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}
static const char *hl_str(const cJSON *o, const char *k) {
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsString(x) ? x->valuestring : NULL;
}

/* the row of one cell; 0, or -1 when it lacks its rate */
static int hl_row(const cJSON *c) {
  const char *var = hl_str(c, "variant");
  if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "identical_to_base"))) {
    printf("    %-22s  = base (its rules change nothing in this scenario)\n", var);
    return 0;
  }
  const cJSON *fr = cJSON_GetObjectItemCaseSensitive(c, "french_rate");
  double p = hl_num(fr, "rate"), lo = hl_num(fr, "lo"), hi = hl_num(fr, "hi"), n = hl_num(c, "games");
  if (isnan(p) || isnan(lo) || isnan(hi) || isnan(n)) return -1;
  printf("    %-22s %5.1f%% [%4.1f, %4.1f]   %6.0f\n", var, 100 * p, 100 * lo, 100 * hi, n);
  return 0;
}

/* the reading of one scenario: which side base favours, which variants move it */
static void hl_reading(const cJSON *cells, const char *scen) {
  char moved[1024] = "";
  const cJSON *c, *base = NULL;
  int variants = 0;
  cJSON_ArrayForEach(c, cells) {
    const char *s = hl_str(c, "scenario"), *v = hl_str(c, "variant");
    if (!s || !v || strcmp(s, scen)) continue;
    if (!strcmp(v, "base")) base = c;
    const cJSON *vb = cJSON_GetObjectItemCaseSensitive(c, "vs_base");
    double hp = hl_num(vb, "holm_p"), d = hl_num(vb, "diff"), lo = hl_num(vb, "lo"), hi = hl_num(vb, "hi");
    variants += !isnan(d);
    if (!(hp < HL_ALPHA) || isnan(d)) continue;
    size_t k = strlen(moved);
    snprintf(moved + k, sizeof moved - k, "%s%s %+.1f points [%+.1f, %+.1f] (Holm p %.2g)",
             k ? "; " : "", v, 100 * d, 100 * lo, 100 * hi, hp);
  }
  const cJSON *fr = base ? cJSON_GetObjectItemCaseSensitive(base, "french_rate") : NULL;
  double p = hl_num(fr, "rate"), lo = hl_num(fr, "lo"), hi = hl_num(fr, "hi");
  printf("  Reading: ");
  if (isnan(p)) printf("no base cell");
  else if (hi < 0.5) printf("the Allies are favoured (the French win %.0f%%, at most %.0f%%)", 100 * p, 100 * hi);
  else if (lo > 0.5) printf("the French are favoured (they win %.0f%%, at least %.0f%%)", 100 * p, 100 * lo);
  else printf("no side is shown to be favoured (the French win %.0f%% [%.0f, %.0f])", 100 * p, 100 * lo, 100 * hi);
  if (moved[0]) printf("; against base, %s.\n", moved);
  else if (variants) printf("; no variant is shown to move it (McNemar, Holm, 5%%).\n");
  else printf(".\n");
}

/* the rows and reading of every scenario of one summary; 0, or 2 after one line on stderr */
static int hl_summary(const char *dir, const cJSON *root) {
  const cJSON *cells = cJSON_GetObjectItemCaseSensitive(root, "cells"), *c;
  if (!cJSON_IsArray(cells) || !cJSON_GetArraySize(cells)) {
    fprintf(stderr, "headline: %s/summary.json: no \"cells\"\n", dir);
    return 2;
  }
  char seen[4][16] = {""};
  int ns = 0;
  cJSON_ArrayForEach(c, cells) {
    const char *s = hl_str(c, "scenario"), *v = hl_str(c, "variant");
    if (!s || !v) { fprintf(stderr, "headline: %s/summary.json: a cell without scenario or variant\n", dir); return 2; }
    int known = 0;
    for (int i = 0; i < ns; i++) known |= !strcmp(seen[i], s);
    if (known || ns == 4) continue;
    snprintf(seen[ns++], sizeof seen[0], "%s", s);
    const char *pf = hl_str(c, "french"), *pa = hl_str(c, "allied");
    printf("  %s game, %s (French) vs %s (Allied)\n    %-22s %-20s %6s\n", s, pf ? pf : "?",
           pa ? pa : "?", "variant", "French wins (95%)", "games");
    const cJSON *d;
    cJSON_ArrayForEach(d, cells) {
      const char *s2 = hl_str(d, "scenario");
      if (!s2 || strcmp(s2, s)) continue;
      if (hl_row(d)) {
        fprintf(stderr, "headline: %s/summary.json: the cell %s/%s has no French rate\n", dir, s, hl_str(d, "variant"));
        return 2;
      }
    }
    hl_reading(cells, s);
  }
  const char *cmd = hl_str(root, "command");
  printf("  Made by: %s\n", cmd ? cmd : "(no command recorded)");
  return 0;
}

/* the note under a table that another build played: DIR/report.md's caption reads "*As of build:
 * BUILD — not today's build ..." (tools/report-check --mark writes it, make report-check
 * refuses a report of another build without it); nothing when the report is this build's or
 * absent */
static void hl_build_note(const char *dir) {
  char path[1200], line[1024];
  snprintf(path, sizeof path, "%s/report.md", dir);
  FILE *f = fopen(path, "r");
  if (!f) return;
  static const char AS_OF[] = "*As of build: ";
  for (int i = 0; i < 12 && fgets(line, sizeof line, f); i++) {
    if (strncmp(line, AS_OF, sizeof AS_OF - 1)) continue;
    char *build = line + sizeof AS_OF - 1, *end = strstr(build, " \xe2\x80\x94 "); /* " — " */
    if (!end) end = build + strcspn(build, "*\n");
    printf("  Note: played by another build (%.*s), not this one: its games would not all replay "
           "today; the command above makes it again.\n", (int)(end - build), build);
    break;
  }
  fclose(f);
}

static int hl_dir(const char *dir) {
  char path[1200];
  snprintf(path, sizeof path, "%s/summary.json", dir);
  errno = 0;
  char *text = hl_read(path);
  if (!text) {
    fprintf(stderr, "headline: cannot read %s: %s\n", path, strerror(errno ? errno : EIO));
    return 2;
  }
  cJSON *root = cJSON_Parse(text);
  free(text);
  if (!root) {
    fprintf(stderr, "headline: %s: not valid JSON\n", path);
    return 2;
  }
  int rc = hl_summary(dir, root);
  cJSON_Delete(root);
  if (!rc) hl_build_note(dir);
  return rc;
}

int cmd_headline(int argc, char **argv) {
  const char *title = NULL;
  int ndir = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { printf("%s", HL_USAGE); return 0; }
    if (!strcmp(argv[i], "--title")) {
      if (++i >= argc) { fprintf(stderr, "headline: --title needs a value\n"); return 2; }
      title = argv[i];
    } else if (!strncmp(argv[i], "--", 2)) {
      fprintf(stderr, "headline: unknown option '%s' (see --help)\n", argv[i]);
      return 2;
    } else {
      ndir++;
    }
  }
  if (!ndir) { fprintf(stderr, "headline: name at least one report folder (see --help)\n"); return 2; }
  if (title) printf("%s\n", title);
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--title")) { i++; continue; }
    int rc = hl_dir(argv[i]);
    if (rc) return rc;
  }
  return 0;
}
