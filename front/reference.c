/* Reference data for the page: the rules of docs/RULES.md by rule id and the shipped variants
 * with their descriptions (see reference.h). */
#include "reference.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"

/* one rule: "- **R-x.y** text..." and its indented continuation lines; the id and the text
 * without the markdown bold and italic marks, links to RULINGS.md kept as "[ruling ...]" */
static void rule_add(cJSON *arr, const char *chapter, const char *id, const char *text) {
  cJSON *x = cJSON_CreateObject();
  cJSON_AddStringToObject(x, "id", id);
  cJSON_AddStringToObject(x, "chapter", chapter);
  char *t = malloc(strlen(text) + 1);
  if (!t) abort();
  size_t n = 0;
  for (const char *p = text; *p; p++) {
    if (p[0] == '*') continue;   /* bold and italic marks */
    if (!strncmp(p, "(RULINGS.md)", 12)) { p += 11; continue; }
    t[n++] = *p;
  }
  while (n && (t[n - 1] == ' ' || t[n - 1] == '\n')) n--;
  t[n] = 0;
  cJSON_AddStringToObject(x, "text", t);
  free(t);
  cJSON_AddItemToArray(arr, x);
}

typedef struct {
  cJSON *arr;
  char chapter[120], id[16];
  char *text;
  size_t len, cap;
} RuleScan;

static void scan_flush(RuleScan *r) {
  if (r->id[0] && r->len) rule_add(r->arr, r->chapter, r->id, r->text);
  r->id[0] = 0;
  r->len = 0;
  if (r->text) r->text[0] = 0;
}

static void scan_append(RuleScan *r, const char *s) {
  size_t k = strlen(s);
  if (r->len + k + 2 > r->cap) {
    r->cap = (r->len + k + 2) * 2;
    r->text = realloc(r->text, r->cap);
    if (!r->text) abort();
  }
  if (r->len) r->text[r->len++] = ' ';
  memcpy(r->text + r->len, s, k + 1);
  r->len += k;
}

static void scan_line(RuleScan *r, char *line) {
  line[strcspn(line, "\r\n")] = 0;
  if (!strncmp(line, "## ", 3)) {
    scan_flush(r);
    snprintf(r->chapter, sizeof r->chapter, "%.119s", line + 3);
  } else if (!strncmp(line, "- **R-", 6)) {
    scan_flush(r);
    const char *end = strstr(line + 4, "**");
    size_t k = end ? (size_t)(end - (line + 4)) : 0;
    if (!end || k >= sizeof r->id) return;
    memcpy(r->id, line + 4, k);
    r->id[k] = 0;
    scan_append(r, end + 2 + (end[2] == ' '));
  } else if (r->id[0] && line[0] == ' ') {
    scan_append(r, line + strspn(line, " "));
  } else if (r->id[0]) {
    scan_flush(r);
  }
}

cJSON *rules_json(const char *path, char *err, size_t len) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, len, "the rules reference (RULES.md) is not installed");
    return NULL;
  }
  RuleScan r = {.arr = cJSON_CreateArray()};
  char line[2048];
  while (fgets(line, sizeof line, f)) scan_line(&r, line);
  scan_flush(&r);
  fclose(f);
  free(r.text);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddItemToObject(o, "rules", r.arr);
  return o;
}

static int by_name(const void *a, const void *b) {
  return strcmp(cJSON_GetObjectItem(*(cJSON *const *)a, "name")->valuestring,
                cJSON_GetObjectItem(*(cJSON *const *)b, "name")->valuestring);
}

/* the description line of a variant file ("description = ..."), "" when none */
static void variant_description(const char *path, char *out, size_t len) {
  out[0] = 0;
  FILE *f = fopen(path, "r");
  if (!f) return;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    char *p = line + strspn(line, " \t");
    if (strncmp(p, "description", 11)) continue;
    p = strchr(p, '=');
    if (!p) continue;
    p += 1 + strspn(p + 1, " \t");
    p[strcspn(p, "\r\n")] = 0;
    snprintf(out, len, "%s", p);
    break;
  }
  fclose(f);
}

cJSON *variants_json(void) {
  char dir[4400];
  snprintf(dir, sizeof dir, "%s/variants", scen_default_dir());
  cJSON *items[64];
  int n = 0;
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && n < 64 && (e = readdir(d))) {
    size_t k = strlen(e->d_name);
    if (k < 5 || k > 60 || strcmp(e->d_name + k - 4, ".ini") || e->d_name[0] == '.') continue;
    char name[64], path[4500], desc[400];
    snprintf(name, sizeof name, "%.*s", (int)(k - 4), e->d_name);
    if (!strcmp(name, "base")) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    variant_description(path, desc, sizeof desc);
    items[n] = cJSON_CreateObject();
    cJSON_AddStringToObject(items[n], "name", name);
    cJSON_AddStringToObject(items[n], "description", desc);
    n++;
  }
  if (d) closedir(d);
  qsort(items, (size_t)n, sizeof items[0], by_name);
  cJSON *o = cJSON_CreateObject(), *a = cJSON_AddArrayToObject(o, "variants");
  for (int i = 0; i < n; i++) cJSON_AddItemToArray(a, items[i]);
  return o;
}
