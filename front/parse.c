/* Text a person types: destination moves ("move UNIT SQUARE [FACING]") and the legal action
 * nearest to a mistyped one (edit distance), for "did you mean" (front/parse.h). */
#include "parse.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int destination_parse(const Scen *sc, const State *s, const char *text, Action *path, char *err,
                      size_t len) {
  char verb[16], un[32], sqs[8], fs[8] = "", extra[2];
  int k = sscanf(text, " %15s %31s %7s %7s %1s", verb, un, sqs, fs, extra);
  if (k < 3 || k > 4 || (strcmp(verb, "move") && strcmp(verb, "moveto"))) {
    snprintf(err, len, "a destination move is: move UNIT SQUARE [N|E|S|W]");
    return -1;
  }
  int u = scen_unit(sc, un), sq = scen_square(sc, sqs);
  for (char *p = sqs; *p; p++) *p = (char)toupper((unsigned char)*p);
  if (sq < 0) sq = scen_square(sc, sqs);
  int f = -1;
  if (k == 4) {
    const char *d = strlen(fs) == 1 ? strchr("NESWnesw", fs[0]) : NULL;
    if (!d) {
      snprintf(err, len, "'%s' is not a facing (N, E, S or W)", fs);
      return -1;
    }
    f = (int)(d - "NESWnesw") % 4;
  }
  if (u < 0 || sq < 0 || sq >= NSQ) {
    snprintf(err, len, "%s: no such %s", u < 0 ? un : sqs, u < 0 ? "unit" : "square");
    return -1;
  }
  if (s->turn.phase != PH_MOVE) {
    snprintf(err, len, "no movement card is being played now");
    return -1;
  }
  int own = s->units.flag[u] & UF_FACING;
  if (sq == s->units.sq[u] && (f < 0 || f == own)) {
    /* the stay path costs nothing and is no action: never turn a unit nobody asked to turn */
    snprintf(err, len, "%s is already on %s%s%s (to turn it there: move %s %s N|E|S|W)",
             sc->unit[u].name, sqs, f < 0 ? "" : " facing ", f < 0 ? "" : fs, sc->unit[u].name, sqs);
    return -1;
  }
  Reach *r = malloc(sizeof *r);
  if (!r) abort();
  gs_reach(sc, s, u, r);
  if (f < 0) {
    for (int d = 0; d < 4; d++)
      if (r->cost[sq][d] != 255 && r->npath[sq][d] &&
          (f < 0 || r->cost[sq][d] < r->cost[sq][f] || (r->cost[sq][d] == r->cost[sq][f] && d == own)))
        f = d;
  }
  int n = f >= 0 && r->cost[sq][f] != 255 ? r->npath[sq][f] : 0;
  if (n <= 0 || n > REACH_PATH) {
    free(r);
    snprintf(err, len, "%s cannot reach %s%s%s with %d MP now", sc->unit[u].name, sqs,
             k == 4 ? " facing " : "", k == 4 ? fs : "", s->play.mp);
    return -1;
  }
  memcpy(path, r->path[sq][f], (size_t)n * sizeof *path);
  free(r);
  return n;
}

static int edit_distance(const char *a, const char *b) {
  int la = (int)strlen(a), lb = (int)strlen(b);
  if (la > 120) la = 120;
  if (lb > 120) lb = 120;
  int prev[121], cur[121];
  for (int j = 0; j <= lb; j++) prev[j] = j;
  for (int i = 1; i <= la; i++) {
    cur[0] = i;
    for (int j = 1; j <= lb; j++) {
      int c = prev[j - 1] + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
      if (prev[j] + 1 < c) c = prev[j] + 1;
      if (cur[j - 1] + 1 < c) c = cur[j - 1] + 1;
      cur[j] = c;
    }
    memcpy(prev, cur, sizeof cur);
  }
  return prev[lb];
}

int nearest_action(const Scen *sc, const State *s, const char *text, char *out, size_t len) {
  ActList *L = malloc(sizeof *L);
  if (!L) abort();
  gs_legal(sc, s, L);
  int best = -1;
  out[0] = 0;
  for (int i = 0; i < L->n; i++) {
    char t[128];
    action_format(sc, s, L->a[i], t, sizeof t);
    int d = edit_distance(text, t);
    if (best < 0 || d < best) {
      best = d;
      snprintf(out, len, "%s", t);
    }
  }
  free(L);
  return best;
}

