/* Destination-level moves: every (square, facing) one unit can reach with the movement points
 * left on the card, at the least MP, and the A_STEP / A_TURN / A_ENTER actions that get there.
 * Built only from gs_legal and gs_apply, so it follows the rules exactly (R-6.x): a path ends
 * where the position leaves the unit's movement (an evasion window, the card's end). */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

#define NNODE (NSQ * 4)

typedef struct {
  State st[NNODE];
  uint8_t done[NNODE];
  int16_t prev[NNODE];   /* previous node, -1 the start, -2 none */
  Action act[NNODE];     /* action that reached the node */
} Work;

static int node_of(const State *t, int u) {
  return t->units.sq[u] < NSQ ? t->units.sq[u] * 4 + (int)(t->units.flag[u] & UF_FACING) : -1;
}

/* can the unit keep moving in t (same card, same decider, still the moving unit)? */
static int still_moving(const State *t, const State *s0, int u) {
  return t->turn.phase == PH_MOVE && t->turn.decider == s0->turn.decider && t->play.moving == u &&
         t->play.mp > 0;
}

static void expand(const Scen *sc, const State *s0, const State *from, int from_node, int u,
                   Reach *r, Work *w, ActList *L) {
  gs_legal(sc, from, L);
  for (int i = 0; i < L->n; i++) {
    Action a = L->a[i];
    if (action_mover(a) != u) continue;
    State t = *from;
    gs_apply(sc, &t, a);
    int k = node_of(&t, u);
    if (k < 0) continue;
    int cost = s0->play.mp - t.play.mp;
    if (cost < 0 || w->done[k] || r->cost[k / 4][k % 4] <= cost) continue;
    r->cost[k / 4][k % 4] = (uint8_t)cost;
    w->st[k] = t;
    w->prev[k] = (int16_t)from_node;
    w->act[k] = a;
  }
}

int gs_reach(const Scen *sc, const State *s, int u, Reach *r) {
  memset(r->cost, 255, sizeof r->cost);
  memset(r->npath, 0, sizeof r->npath);
  r->unit = u;
  r->n = 0;
  if (s->turn.phase != PH_MOVE || u < 0 || u >= sc->nunits) return 0;
  Work *w = malloc(sizeof *w);
  ActList *L = malloc(sizeof *L);
  if (!w || !L) abort();
  memset(w->done, 0, sizeof w->done);
  for (int k = 0; k < NNODE; k++) w->prev[k] = -2;
  int start = node_of(s, u);
  if (start >= 0) {
    r->cost[start / 4][start % 4] = 0;
    w->st[start] = *s;
    w->prev[start] = -1;
    w->done[start] = 1;
  }
  expand(sc, s, s, -1, u, r, w, L);
  for (;;) {                              /* Dijkstra over at most NNODE nodes */
    int best = -1;
    for (int k = 0; k < NNODE; k++)
      if (!w->done[k] && w->prev[k] != -2 &&
          (best < 0 || r->cost[k / 4][k % 4] < r->cost[best / 4][best % 4]))
        best = k;
    if (best < 0) break;
    w->done[best] = 1;
    if (still_moving(&w->st[best], s, u)) expand(sc, s, &w->st[best], best, u, r, w, L);
  }
  for (int k = 0; k < NNODE; k++) {
    if (w->prev[k] == -2 || k == start) continue;
    /* the path, walking back from k */
    Action rev[64];
    int n = 0;
    for (int j = k; j >= 0 && j != start && n < 64; j = w->prev[j]) rev[n++] = w->act[j];
    r->npath[k / 4][k % 4] = (uint8_t)n;
    for (int i = 0; i < n && i < REACH_PATH; i++) r->path[k / 4][k % 4][i] = rev[n - 1 - i];
    r->n++;
  }
  if (start >= 0) r->npath[start / 4][start % 4] = 0;
  free(w);
  free(L);
  return r->n;
}
