/* The light policy: a cheap greedy rule for rollouts and for choosing a search's candidates.
 *
 * The movement phase is where a game spends most of its decisions (a step per unit and MP,
 * ~50 legal actions each), and where the full heuristic spends most of its time (exposure and
 * readiness of every step).  Here a step is scored by table look-ups only: progress along the
 * side's distance field to the objectives it wants, entering an objective the enemy holds,
 * ending the step facing an enemy (more on its flank or rear), keeping infantry in castles.
 * Every other phase (cards, battles, losses: few actions, rare) uses the full heuristic's
 * scores, which judge battles far better than any cheap rule could.
 *
 * Reads what heur_score_all reads (the deciding side's knowledge, or a sampled world). */
#include <string.h>
#include "ai_internal.h"

/* distance (MP) of unit u's side to what it wants from square sq: lower is better.  The same
 * targets as the heuristic's goal field, without the fine weighting. */
static int light_goal(const AiCtx *c, const State *s, int side, int prussian, int sq) {
  int best = AI_INF;
  if (side == FRENCH) {
    for (int i = 0; i < c->nobj; i++)
      if (!(s->turn.owner & (1u << c->obj_v[i])) && c->dist[i][sq] < best) best = c->dist[i][sq];
    if (best == AI_INF) return 0;
    return best;
  }
  for (int i = 0; i < c->nobj; i++)
    if ((s->turn.owner & (1u << c->obj_v[i])) && c->dist[i][sq] < best) best = c->dist[i][sq];
  if (prussian) return best < c->pr_dist[sq] ? best : c->pr_dist[sq];
  if (best < AI_INF) return best;
  for (int i = 0; i < c->nobj; i++)
    if (c->dist[i][sq] < best) best = c->dist[i][sq];
  return best > 2 ? (best - 2) / 4 : 0;
}

/* an enemy in front of a unit of `side` at sq facing f: 0 none, else 1 front, 2 flank, 3 rear
 * (the position multiplier of the attack), +4 when the enemy stands on an objective */
static int light_front(const Scen *sc, const AiCtx *c, const State *s, int side, int sq, int f) {
  int fr = sc->nb[sq][f];
  if (fr == SQ_NONE || (sc->edge[sq][f] & E_POND)) return 0;
  int t = s->occ[fr];
  if (t == UNIT_NONE || sc->uside[t] == side) return 0;
  int m = 1;
  if (!(sc->castle_of[fr] >= 0 && sc->unit[t].kind == K_INF)) {
    int tf = s->units.flag[t] & UF_FACING;
    int back = (f + 2) & 3; /* the side of fr we come from */
    m = back == tf ? 1 : (back == ((tf + 2) & 3) ? 3 : 2);
  }
  return m + (c->sq_obj[fr] ? 4 : 0);
}

static float light_move(const AiCtx *c, const State *s, Action a) {
  const Scen *sc = c->sc;
  switch (a.t) {
    case A_DONE: return 0.05f;
    case A_ENTER: return 3.0f - 0.05f * c->pr_dist[a.to.sq];
    case A_LEAD: return -0.2f;
    case A_STEP: {
      int u = a.step.unit, from = s->units.sq[u];
      if (from >= NSQ) return -1;
      int to = sc->nb[from][a.step.dir];
      if (to == SQ_NONE) return -1;
      int side = sc->uside[u], pr = sc->unit[u].army == ARMY_PR;
      float v = (float)(light_goal(c, s, side, pr, from) - light_goal(c, s, side, pr, to));
      int fr = light_front(sc, c, s, side, to, a.step.facing & 3);
      if (fr) v += 0.5f + 0.5f * (fr & 3) + (fr & 4 ? 0.6f : 0);
      int oi = c->sq_obj[to];
      int inf = sc->unit[u].kind == K_INF;
      if (oi) {
        int mine = ((s->turn.owner >> c->obj_v[oi - 1]) & 1) == (side == FRENCH);
        if (!mine) v += 6.0f;
        else if (sc->castle_of[to] >= 0 && inf) v += 1.0f;
      }
      if (c->sq_obj[from] && sc->castle_of[from] >= 0 && inf) v -= 1.5f;
      if (s->play.moving == u) v += 0.3f;
      return v;
    }
    case A_TURN: {
      int u = a.turn.unit, sq = s->units.sq[u];
      if (sq >= NSQ) return -1;
      int side = sc->uside[u];
      int f0 = light_front(sc, c, s, side, sq, s->units.flag[u] & UF_FACING);
      int f1 = light_front(sc, c, s, side, sq, a.turn.facing & 3);
      return 0.6f * ((f1 & 3) - (f0 & 3)) - 0.35f;
    }
    default: return 0;
  }
}

void light_score_all(const AiCtx *c, const State *s, const ActList *L, float *score) {
  if (s->turn.phase != PH_MOVE) {
    heur_score_all(c, s, L, score);
    return;
  }
  for (int i = 0; i < L->n; i++) score[i] = light_move(c, s, L->a[i]);
}

int light_pick(const AiCtx *c, const State *s, const ActList *L, Rng *r, double eps) {
  return ai_pick_scored(c, s, L, r, eps, light_score_all);
}
