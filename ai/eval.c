/* Static AI knowledge (distance fields, card values) and the evaluation function used at the
 * rollout cut-off. */
#include <math.h>
#include <string.h>
#include "ai_internal.h"
#include "../engine/util.h"

uint64_t ai_hash_bytes(const void *p, size_t n, uint64_t h) { return hash_fnv1a(p, n, h); }

/* MP to enter nb[u][d] from u, or -1 when impossible */
static int enter_cost(const Scen *sc, int u, int d) {
  int v = sc->nb[u][d];
  if (v == SQ_NONE) return -1;
  int e = sc->edge[u][d];
  if (e & E_POND) return -1;
  int t = sc->terrain[v], c;
  switch (t) {
    case T_CLEAR: c = 1; break;
    case T_HILL: c = sc->terrain[u] == T_HILL ? 1 : 2; break;
    default: c = 2; break;
  }
  if (e & E_RIDGE) c++;
  if ((e & E_STREAM) && !(e & E_BRIDGE)) c++;
  if ((e & E_ROAD) && sc->vsq_of[v] >= 0 &&
      (sc->vsq_of[v] == V_MSJ || sc->vsq_of[v] == V_LHS))
    c = 1;
  return c;
}

static void dist_field(const Scen *sc, const uint8_t *targets, int nt, uint8_t *out) {
  int d[NSQ], q[NSQ * 8], qh = 0, qt = 0;
  uint8_t inq[NSQ];
  memset(inq, 0, sizeof inq);
  for (int i = 0; i < NSQ; i++) d[i] = AI_INF;
  for (int i = 0; i < nt; i++) { d[targets[i]] = 0; q[qt++] = targets[i]; inq[targets[i]] = 1; }
  /* label-correcting search backwards: d[u] = min over moves u->v of cost + d[v] */
  while (qh != qt) {
    int v = q[qh];
    qh = (qh + 1) % (NSQ * 8);
    inq[v] = 0;
    for (int k = 0; k < 4; k++) {
      int u = sc->nb[v][k];
      if (u == SQ_NONE) continue;
      int c = enter_cost(sc, u, (k + 2) & 3);
      if (c < 0 || sc->nb[u][(k + 2) & 3] != v) continue;
      if (d[v] + c < d[u]) {
        d[u] = d[v] + c;
        if (!inq[u]) { inq[u] = 1; q[qt] = u; qt = (qt + 1) % (NSQ * 8); }
      }
    }
  }
  for (int i = 0; i < NSQ; i++) out[i] = (uint8_t)(d[i] > AI_INF ? AI_INF : d[i]);
}

void ai_ctx_init(AiCtx *c, const Scen *sc) {
  memset(c, 0, sizeof *c);
  c->sc = sc;
  for (int v = 0; v < V_COUNT && c->nobj < AI_MAX_OBJ; v++) {
    if (!(sc->vsq_active & (1u << v))) continue;
    if (sc->vsq[v] >= NSQ) continue;
    c->obj_v[c->nobj] = (uint8_t)v;
    c->obj_sq[c->nobj] = sc->vsq[v];
    c->nobj++;
  }
  for (int i = 0; i < c->nobj; i++) {
    dist_field(sc, &c->obj_sq[i], 1, c->dist[i]);
    c->sq_obj[c->obj_sq[i]] = (uint8_t)(i + 1);
  }
  /* Prussians head for Plancenoit (the French rear) */
  uint8_t t[3];
  int nt = 0;
  for (int v = V_PLANC1; v <= V_PLANC3; v++)
    if (sc->vsq[v] < NSQ) t[nt++] = sc->vsq[v];
  if (nt) dist_field(sc, t, nt, c->pr_dist);
  else memset(c->pr_dist, 0, sizeof c->pr_dist);

  double sum[3] = {0, 0, 0};
  int cnt[3] = {0, 0, 0};
  for (int i = 0; i < sc->ncards && i < MAX_CARDS; i++) {
    const CardDef *cd = &sc->card[i];
    float v = 0.35f * cd->bp + 0.12f * cd->mp;
    switch (cd->action) {
      case ACT_ARTILLERY: v += 1.2f; break;
      case ACT_COMMAND: v += 0.4f * (cd->cmd_att > cd->cmd_def ? cd->cmd_att : cd->cmd_def); break;
      case ACT_CHARGE: v += 0.8f; break;
      case ACT_FORCE_CHARGE: v += 0.5f; break;
      case ACT_ELITE: v += 1.0f; break;
      case ACT_RALLY: v += 0.8f; break;
      case ACT_HEALTH: v += 1.0f; break;
      default: break;
    }
    c->card_val[i] = v;
    if (cd->army < 3) { sum[cd->army] += cd->bp; cnt[cd->army]++; }
  }
  for (int a = 0; a < 3; a++) c->avg_bp[a] = cnt[a] ? (float)(sum[a] / cnt[a]) : 2.0f;
  double vs[3] = {0, 0, 0};
  for (int i = 0; i < sc->ncards && i < MAX_CARDS; i++)
    if (sc->card[i].army < 3) vs[sc->card[i].army] += c->card_val[i];
  for (int a = 0; a < 3; a++) c->mean_val[a] = cnt[a] ? (float)(vs[a] / cnt[a]) : 1.0f;
}

int ai_battle_mask(const Scen *sc, const State *s) {
  int m = 0;
  if (s->battle.def_sq >= NSQ) return 0;
  for (int i = 0; i < 4; i++) {
    int u = s->battle.att[i];
    if (u == UNIT_NONE || u >= sc->nunits) continue;
    int sq = s->units.sq[u];
    for (int d = 0; d < 4; d++)
      if (sc->nb[s->battle.def_sq][d] == sq) m |= 1 << d;
  }
  return m;
}

/* base totals of the battle under way (battle_base_totals keeps the charge multiplier, R-9.3,
 * of a charge battle in progress) */
void ai_battle_now(const Scen *sc, const State *s, int *att, int *def) {
  int m = ai_battle_mask(sc, s);
  *att = *def = 0;
  if (m) battle_base_totals(sc, s, s->battle.def_sq, m, att, def);
}

/* the cards left in hand as a share of what each side drew this turn, French minus Allied
 * (the hands are redrawn every turn, so only the share left matters); 0 when unknown */
double ai_hand_share(const AiCtx *c, const State *s) {
  const Scen *sc = c->sc;
  double hv[2] = {0, 0};
  for (uint64_t m = s->cards.hand; m; m &= m - 1) {
    int cd = __builtin_ctzll(m);
    hv[sc->card[cd].army == ARMY_FR ? FRENCH : ALLIED] += c->card_val[cd];
  }
  int t = s->turn.number >= 1 && s->turn.number <= MAX_TURNS ? s->turn.number : 1;
  double full_f = sc->p.hand_fr * c->mean_val[ARMY_FR];
  double full_a = sc->p.hand_br * c->mean_val[ARMY_BR] + sc->p.hand_pr[t] * c->mean_val[ARMY_PR];
  return full_f > 0 && full_a > 0 ? hv[FRENCH] / full_f - hv[ALLIED] / full_a : 0;
}

/* French advantage in "points" */
double ai_eval_french(const AiCtx *c, const State *s) {
  const Scen *sc = c->sc;
  if (s->turn.phase == PH_OVER || s->score.result) {
    if (s->score.result == RES_FRENCH) return 1.0;
    if (s->score.result == RES_ALLIED) return 0.0;
    return 0.5;
  }
  double turns = sc->p.turns > 0 ? sc->p.turns : 4;
  double prog = s->turn.number / turns; /* 0..1 */
  double sc_pts = 0, scale;
  /* objectives */
  if (sc->scenario == SC_SHORT) {
    int hc = 0;
    for (int v = V_HOUGOUMONT; v <= V_FRISCHERMONT; v++)
      if (s->turn.owner & (1u << v)) hc++;
    int msj = (s->turn.owner >> V_MSJ) & 1;
    int need = sc->p.short_castles_needed > 0 ? sc->p.short_castles_needed : 3;
    int win = hc >= need || (hc >= need - 1 && msj);
    sc_pts += (2.5 * hc + 2.0 * msj + (win ? 3.0 : 0.0)) * (0.7 + 0.6 * prog);
    sc_pts -= 1.5; /* the Allies start holding everything: centre the scale */
    scale = 3.0;
  } else {
    int vp[2];
    gs_score(sc, s, vp);
    sc_pts += 0.3 * (vp[FRENCH] - vp[ALLIED]) * (0.6 + 0.6 * prog);
    scale = 4.0;
  }
  /* material, disorder, castle damage points */
  double mat = 0;
  double fr_near = 0;
  int nfr = 0;
  for (int u = 0; u < sc->nunits; u++) {
    int sq = s->units.sq[u];
    if (sq >= NSQ) continue;
    int bp = unit_bp(sc, s, u);
    int sd = unit_side(sc, u);
    double v = bp;
    if (s->units.flag[u] & UF_DISORDER) v -= 0.8;
    if (sd == ALLIED && sc->castle_of[sq] >= 0 && sc->unit[u].kind == K_INF)
      v += 0.5 * s->turn.cdp[(int)sc->castle_of[sq]] + 1.0;
    mat += sd == FRENCH ? v : -v;
    if (sd == FRENCH) {
      int best = AI_INF;
      for (int i = 0; i < c->nobj; i++)
        if (!(s->turn.owner & (1u << c->obj_v[i])) && c->dist[i][sq] < best) best = c->dist[i][sq];
      if (best < AI_INF) { fr_near += best > 12 ? 12 : best; nfr++; }
    }
  }
  /* offboard Prussians will arrive: count them for the Allies in the long game */
  sc_pts += (sc->scenario == SC_SHORT ? 0.35 : 0.2) * mat;
  if (nfr) sc_pts -= 0.12 * (fr_near / nfr) * 3.0;
  /* cards in hand (they only last this turn) */
  /* cards in hand, as a share of what each side drew this turn: the hands are redrawn every
   * turn, so only the share left matters (ending a turn early is not a gain) */
  sc_pts += 2.0 * ai_hand_share(c, s);
  /* time is on the Allies' side: the French must get on with it */
  sc_pts -= (sc->scenario == SC_SHORT ? 3.0 : 2.0) * prog;
  return 1.0 / (1.0 + exp(-sc_pts / scale));
}
