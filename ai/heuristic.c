/* The rule-based policy: scores every legal action with cheap, phase-specific rules.  It is the
 * `heuristic` player (epsilon 0), the rollout policy of the search (epsilon-greedy) and the
 * prior that orders and prunes the search's candidate actions.
 *
 * It reads only what the deciding side may know plus, in a sampled world, that world's cards;
 * of the other side's secret battle commitments it uses only their number. */
#include <math.h>
#include <string.h>
#include "ai_internal.h"

typedef struct {
  const AiCtx *c;
  const Scen *sc;
  const State *s;
  int me;                 /* deciding side */
  const uint8_t *occ;     /* unit on each square: the engine's table, s->occ */
  uint64_t cached;        /* units whose values at their own square are cached */
  float c_goal[MAX_UNITS], c_ready[MAX_UNITS], c_exp[MAX_UNITS];
  /* movement scoring memo (PH_MOVE only; the same numbers, computed once): goal of a square
   * for each class of unit (French, British, Prussian) */
  uint8_t g_ok[3][NSQ];
  double g_val[3][NSQ];
  /* the battle in progress (the same for every action of one call), computed once */
  int bn_ok, bn_att, bn_def;
} H;

static void battle_now(H *h, int *att, int *def) {
  if (!h->bn_ok) {
    ai_battle_now(h->sc, h->s, &h->bn_att, &h->bn_def);
    h->bn_ok = 1;
  }
  *att = h->bn_att;
  *def = h->bn_def;
}

static inline int opp(int side) { return side ^ 1; }
static inline int facing(const State *s, int u) { return s->units.flag[u] & UF_FACING; }
static inline int in_castle_inf(const H *h, int u) {
  int sq = h->s->units.sq[u];
  return sq < NSQ && h->sc->castle_of[sq] >= 0 && h->sc->unit[u].kind == K_INF;
}
static inline int would_die(const H *h, int u) {
  return (h->s->units.flag[u] & UF_REDUCED) || h->sc->unit[u].bp_red == 0;
}
static inline int army_side(int army) { return army == ARMY_FR ? FRENCH : ALLIED; }

/* goal field: lower is better for side's unit u at square sq */
static double goal_calc(const H *h, int u, int sq) {
  const AiCtx *c = h->c;
  const State *s = h->s;
  int side = unit_side(h->sc, u);
  int best = AI_INF;
  if (side == FRENCH) {
    for (int i = 0; i < c->nobj; i++)
      if (!(s->turn.owner & (1u << c->obj_v[i])) && c->dist[i][sq] < best) best = c->dist[i][sq];
    if (best == AI_INF) { /* everything held: stay close to the objectives */
      for (int i = 0; i < c->nobj; i++)
        if (c->dist[i][sq] < best) best = c->dist[i][sq];
      return 0.3 * best;
    }
    return best;
  }
  for (int i = 0; i < c->nobj; i++)
    if ((s->turn.owner & (1u << c->obj_v[i])) && c->dist[i][sq] < best) best = c->dist[i][sq];
  if (h->sc->unit[u].army == ARMY_PR) {
    double pr = c->pr_dist[sq];
    if (best < AI_INF) return best < pr ? best : pr;
    return pr;
  }
  if (best < AI_INF) return best;
  /* nothing lost: a weak pull toward the nearest objective (defend it) */
  for (int i = 0; i < c->nobj; i++)
    if (c->dist[i][sq] < best) best = c->dist[i][sq];
  return best > 2 ? 0.25 * (best - 2) : 0;
}

/* goal_calc memoized by class of unit (it depends on the side and on being Prussian only) */
static double goal_move(H *h, int u, int sq) {
  int k = unit_side(h->sc, u) == FRENCH ? 0 : h->sc->unit[u].army == ARMY_PR ? 2 : 1;
  if (!h->g_ok[k][sq]) {
    h->g_val[k][sq] = goal_calc(h, u, sq);
    h->g_ok[k][sq] = 1;
  }
  return h->g_val[k][sq];
}

/* multiplier of an attack from square `from` on the unit at `tsq` (1 front, 2 flank, 3 rear) */
static int pos_mult(const H *h, int from, int tsq, int t) {
  if (in_castle_inf(h, t)) return 1;
  int d = -1;
  for (int k = 0; k < 4; k++)
    if (h->sc->nb[tsq][k] == from) d = k;
  if (d < 0) return 1;
  int f = facing(h->s, t);
  if (d == f) return 1;
  if (d == ((f + 2) & 3)) return 3;
  return 2;
}

/* readiness of unit u standing at sq facing f: an enemy in front, weighted by position */
static double ready(const H *h, int u, int sq, int f) {
  int fr = h->sc->nb[sq][f];
  if (fr == SQ_NONE) return 0;
  int t = h->occ[fr];
  if (t == UNIT_NONE || unit_side(h->sc, t) == unit_side(h->sc, u)) return 0;
  if (h->sc->edge[sq][f] & E_POND) return 0;
  int m = pos_mult(h, sq, fr, t);
  double v = 0.6 + 0.5 * m;
  int ubp = unit_bp(h->sc, h->s, u), tbp = unit_bp(h->sc, h->s, t);
  v *= (ubp * m + 1.0) / (tbp + 1.0) > 1.0 ? 1.0 : 0.6;
  if (h->c->sq_obj[fr]) v += 0.6;
  return v;
}

/* threat to unit u at sq facing f from enemies whose front is sq */
static double exposure(const H *h, int u, int sq, int f, int ignore_sq) {
  const Scen *sc = h->sc;
  int side = unit_side(sc, u);
  int castle = sc->castle_of[sq] >= 0 && sc->unit[u].kind == K_INF;
  double e = 0;
  for (int d = 0; d < 4; d++) {
    int n = sc->nb[sq][d];
    if (n == SQ_NONE || n == ignore_sq) continue;
    int t = h->occ[n];
    if (t == UNIT_NONE || t == u || unit_side(sc, t) == side) continue;
    if (sc->nb[n][facing(h->s, t)] != sq) continue;
    if (h->s->units.flag[t] & UF_DISORDER) continue;
    int m = castle ? 1 : (d == f ? 1 : (d == ((f + 2) & 3) ? 3 : 2));
    e += unit_bp(sc, h->s, t) * m;
  }
  if (!e) return 0;
  double mine = unit_bp(sc, h->s, u) * (castle ? 2 : 1);
  return 0.12 * e * (e > mine ? 1.5 : 1.0);
}

/* goal, readiness and exposure of unit u where it stands, cached per decision */
static void here(H *h, int u, double *g, double *r, double *e) {
  if (!((h->cached >> u) & 1)) {
    int sq = h->s->units.sq[u], f = facing(h->s, u);
    h->c_goal[u] = (float)goal_calc(h, u, sq);
    h->c_ready[u] = (float)ready(h, u, sq, f);
    h->c_exp[u] = (float)exposure(h, u, sq, f, -1);
    h->cached |= 1ull << u;
  }
  *g = h->c_goal[u];
  *r = h->c_ready[u];
  *e = h->c_exp[u];
}

/* ---------------------------------------------------------------- battle arithmetic */
static int near_leader(const H *h, int u, int side) {
  int L = h->s->units.leader[side];
  if (L >= NSQ) return 0;
  int sq = h->s->units.sq[u];
  if (sq == L) return 1;
  for (int d = 0; d < 4; d++)
    if (h->sc->nb[L][d] == sq) return 1;
  return 0;
}

/* what a battle card adds for side: purpose 0 BP, 1 command, 2 elite */
static double card_gain(const H *h, int card, int purpose, int attacker) {
  const Scen *sc = h->sc;
  const State *s = h->s;
  const CardDef *cd = &sc->card[card];
  if (purpose == BP_POINTS) return cd->bp;
  int side = army_side(cd->army);
  double g = 0;
  if (purpose == BP_COMMAND) {
    int bonus = attacker ? cd->cmd_att : cd->cmd_def;
    if (attacker) {
      for (int i = 0; i < 4; i++)
        if (s->battle.att[i] != UNIT_NONE && near_leader(h, s->battle.att[i], side)) g += bonus;
    } else if (s->battle.def_sq < NSQ && h->occ[s->battle.def_sq] != UNIT_NONE &&
               near_leader(h, h->occ[s->battle.def_sq], side))
      g += bonus;
    return g;
  }
  if (purpose == BP_ELITE) {
    int m = sc->p.elite_mult > 1 ? sc->p.elite_mult - 1 : 1;
    if (attacker) {
      for (int i = 0; i < 4; i++)
        if (s->battle.att[i] != UNIT_NONE && sc->unit[s->battle.att[i]].elite)
          g += unit_bp(sc, s, s->battle.att[i]) * m;
    } else if (s->battle.def_sq < NSQ && h->occ[s->battle.def_sq] != UNIT_NONE &&
               sc->unit[h->occ[s->battle.def_sq]].elite)
      g += unit_bp(sc, s, h->occ[s->battle.def_sq]) * m *
           (in_castle_inf(h, h->occ[s->battle.def_sq]) ? 2 : 1);
    return g;
  }
  return 0;
}

/* my pending battle cards' total for this battle */
static double pending_total(const H *h, int attacker, uint64_t mine) {
  double t = 0;
  uint64_t m = h->s->cards.pend & mine;
  for (; m; m &= m - 1) {
    int cd = __builtin_ctzll(m);
    int purpose = (h->s->cards.pend_cmd >> cd) & 1
                      ? BP_COMMAND
                      : ((h->s->cards.pend_elite >> cd) & 1 ? BP_ELITE : BP_POINTS);
    t += card_gain(h, cd, purpose, attacker);
  }
  return t;
}

static int hand_of(const H *h, int army) { return hand_count(h->sc, h->s, army); }
/* what the defender stands to lose */
static double defender_stake(const H *h, int dsq, int att, int def) {
  int d = h->occ[dsq];
  if (d == UNIT_NONE) return 0;
  double st;
  if (in_castle_inf(h, d) && h->s->turn.cdp[(int)h->sc->castle_of[dsq]] > 0) return 0.8;
  st = 1.0 + 0.4 * unit_bp(h->sc, h->s, d);
  if (would_die(h, d)) st += 1.5;
  if (h->c->sq_obj[dsq]) st += 2.0;
  if (att > 2 * def) st += 1.0;
  return st;
}

/* the usual BP of the top k cards of army in my hand */
static double top_cards(const H *h, int army, int k) {
  int best[3] = {0, 0, 0};
  uint64_t m = h->s->cards.hand & h->sc->army_cards[army];
  for (; m; m &= m - 1) {
    int bp = h->sc->card[__builtin_ctzll(m)].bp;
    for (int i = 0; i < 3; i++)
      if (bp > best[i]) { int t = best[i]; best[i] = bp; bp = t; }
  }
  double t = 0;
  for (int i = 0; i < k && i < 3; i++) t += best[i];
  return t;
}

/* simulate a special action and read the resulting battle: returns 1 and totals if a battle
 * is under way afterwards */
static int sim_battle(const H *h, Action a, int *att, int *def, int *dsq) {
  State t = *h->s;
  gs_apply(h->sc, &t, a);
  if (t.turn.phase < PH_B_FIRE || t.turn.phase > PH_B_DEFCARDS) return 0;
  ai_battle_now(h->sc, &t, att, def);
  *dsq = t.battle.def_sq;
  return 1;
}

/* ---------------------------------------------------------------- per-phase scores */
static double cardv(const H *h, int card) { return card < MAX_CARDS ? h->c->card_val[card] : 0; }

static int round_target(const H *h) {
  int army = h->me == FRENCH ? ARMY_FR : ARMY_BR;
  int hand = hand_of(h, army) + (h->me == ALLIED ? hand_of(h, ARMY_PR) : 0);
  int lim = h->sc->p.round_limit > 0 ? h->sc->p.round_limit : 5;
  int t = (hand + h->s->turn.ncards + 2) / 3;
  if (t < 1) t = 1;
  if (t > lim) t = lim;
  if (h->me == ALLIED && t > 3) t = 3;
  return t;
}

/* is there something worth a movement card for the side */
static double want_move(const H *h, int army) {
  const Scen *sc = h->sc;
  const State *s = h->s;
  double w = 0;
  for (int u = 0; u < sc->nunits; u++) {
    if (sc->unit[u].army != army) continue;
    int sq = s->units.sq[u];
    if (sq == SQ_OFF && army == ARMY_PR) {
      int g = sc->unit[u].group;
      if (g >= 0 && g < sc->ngroups && s->turn.number >= sc->group[g].turn + sc->p.prussian_shift)
        w += 1.5;
      continue;
    }
    if (sq >= NSQ) continue;
    if (s->units.flag[u] & (UF_MOVED | UF_RALLIED)) continue;
    double r = ready(h, u, sq, facing(s, u));
    if (r > 0 && !(s->units.flag[u] & (UF_DISORDER | UF_ATTACKED))) w += r;
    double g = goal_calc(h, u, sq);
    if (g > 0.5 && r == 0) w += 0.15 * (g > 6 ? 6 : g);
  }
  return w;
}

static double sc_round(const H *h, Action a, double wm[3]) {
  const Scen *sc = h->sc;
  const State *s = h->s;
  double cv = cardv(h, a.play.card); /* the card of the kinds that play one */
  switch (a.t) {
    case A_END: {
      int tgt = round_target(h);
      if (s->turn.ncards >= tgt) return 3.0;
      if (h->me == ALLIED) return s->turn.ncards == 0 ? 0.3 : 0.1;
      return -0.4;
    }
    case A_PLAY_MOVE: {
      int army = sc->card[a.play.card].army;
      double w = wm[army];
      if (w <= 0.2) return -1.0;
      double v = (w > 3 ? 3 : w) * 0.35 + 0.1 * sc->card[a.play.card].mp - 0.45 * cv;
      if (h->me == FRENCH) v += 0.5;
      return v;
    }
    case A_ARTY: {
      int u = a.fire.unit, across = a.fire.across;
      int sq = s->units.sq[u];
      if (sq >= NSQ) return -1;
      int fr = sc->nb[sq][across ? (across - 1) & 3 : facing(s, u)]; /* from a castle */
      int t = fr == SQ_NONE ? UNIT_NONE : h->occ[fr];
      if (t == UNIT_NONE || unit_side(sc, t) == h->me || in_castle_inf(h, t)) return -2;
      double v;
      if (s->units.flag[t] & UF_DISORDER) v = would_die(h, t) ? (sc->unit[t].bp_red ? 0 : -1) : 2.2;
      else v = 0.5 + (sc->nb[fr][facing(s, t)] != SQ_NONE && h->occ[sc->nb[fr][facing(s, t)]] != UNIT_NONE ? 0.4 : 0);
      if (s->units.flag[t] & UF_DISORDER && would_die(h, t)) v = 2.6; /* reduction eliminates */
      return v - 0.45 * cv;
    }
    case A_CHARGE: case A_FORCE: {
      int att, def, dsq;
      if (!sim_battle(h, a, &att, &def, &dsq)) return -1;
      double v;
      if (a.t == A_CHARGE)
        v = att > def ? 1.4 + (att > 2 * def ? 1.0 : 0) + (h->c->sq_obj[dsq] ? 1.0 : 0) - 0.6 : -1.5;
      else
        v = def >= att ? 1.0 + (2 * att < def ? 1.0 : 0) : -1.5;
      return v - 0.45 * cv;
    }
    case A_RALLY: {
      int r = a.play.unit;
      if (!(s->units.flag[r] & UF_DISORDER)) return -1;
      int n = 0;
      for (int u = 0; u < sc->nunits; u++)
        if (u != r && s->units.sq[u] < NSQ && unit_side(sc, u) == h->me &&
            (s->units.flag[u] & UF_DISORDER))
          n++;
      return 0.9 + (n ? 0.7 : 0) + 0.1 * unit_bp(sc, s, r) - 0.45 * cv;
    }
    case A_RESTORE: {
      const UnitDef *ud = &sc->unit[a.play.unit];
      return 0.6 * (ud->bp_full - ud->bp_red) - 0.45 * cv;
    }
    case A_HEALTH:
      return hand_of(h, ARMY_FR) >= 2 ? 1.3 - 0.4 * cv : -1;
    default:
      return 0;
  }
}

static double sc_move(H *h, Action a) {
  const Scen *sc = h->sc;
  const State *s = h->s;
  switch (a.t) {
    case A_DONE: return 0.05;
    case A_STEP: {
      int u = a.step.unit, from = s->units.sq[u];
      if (from >= NSQ) return -1;
      int to = sc->nb[from][a.step.dir];
      if (to == SQ_NONE) return -1;
      int nf = a.step.facing & 3;
      double g0, r0, e0;
      here(h, u, &g0, &r0, &e0);
      double v = g0 - goal_move(h, u, to);
      v += ready(h, u, to, nf) - r0;
      v -= exposure(h, u, to, nf, from) - e0;
      int oi = h->c->sq_obj[to];
      if (oi) {
        int mine = ((s->turn.owner >> h->c->obj_v[oi - 1]) & 1) == (unit_side(sc, u) == FRENCH);
        if (!mine) v += 6.0;
        else if (sc->castle_of[to] >= 0 && sc->unit[u].kind == K_INF) v += 1.0;
      }
      if (h->c->sq_obj[from] && sc->castle_of[from] >= 0 && sc->unit[u].kind == K_INF) v -= 1.5;
      if (s->play.moving == u) v += 0.3;
      return v;
    }
    case A_TURN: {
      int u = a.turn.unit, sq = s->units.sq[u];
      if (sq >= NSQ) return -1;
      int of = facing(s, u), nf = a.turn.facing & 3;
      double g, r0, e0;
      here(h, u, &g, &r0, &e0);
      double v = ready(h, u, sq, nf) - r0;
      v -= exposure(h, u, sq, nf, -1) - e0;
      int n1 = sc->nb[sq][nf], n0 = sc->nb[sq][of];
      double g1 = n1 == SQ_NONE || h->occ[n1] != UNIT_NONE ? g + 1 : goal_move(h, u, n1);
      double g0 = n0 == SQ_NONE || h->occ[n0] != UNIT_NONE ? g + 1 : goal_move(h, u, n0);
      if (g > 0.5 && s->play.mp >= 2) v += 0.5 * ((g - g1) - (g - g0 > 0 ? g - g0 : 0));
      if (s->play.moving == u) v += 0.1;
      return v - 0.35;
    }
    case A_LEAD: {
      int side = h->me;
      int L = s->units.leader[side];
      if (L >= NSQ) return -1;
      int to = sc->nb[L][a.lead.dir];
      if (to == SQ_NONE) return -1;
      /* stay with the own units that are in contact with the enemy */
      double v0 = 0, v1 = 0;
      for (int pass = 0; pass < 2; pass++) {
        int q = pass ? to : L;
        double v = 0;
        for (int d = -1; d < 4; d++) {
          int n = d < 0 ? q : sc->nb[q][d];
          if (n == SQ_NONE) continue;
          int t = h->occ[n];
          if (t == UNIT_NONE || unit_side(sc, t) != side) continue;
          v += 0.3 + (ready(h, t, n, facing(s, t)) > 0 ? 0.5 : 0) + (exposure(h, t, n, facing(s, t), -1) > 0 ? 0.4 : 0);
        }
        if (pass) v1 = v; else v0 = v;
      }
      return 0.6 * (v1 - v0) - 0.1;
    }
    case A_ENTER: {
      int sq = a.to.sq;
      return 3.0 + 0.2 * ready(h, a.to.unit, sq, a.to.facing & 3) - 0.05 * h->c->pr_dist[sq];
    }
    default: return 0;
  }
}

static double sc_declare(const H *h, Action a) {
  if (a.t == A_NOBATTLE) return 0;
  if (a.t != A_DECLARE) return 0;
  int att, def;
  int dsq = a.declare.sq;
  battle_base_totals(h->sc, h->s, dsq, a.declare.dirs, &att, &def);
  int lim = h->sc->p.round_limit > 0 ? h->sc->p.round_limit : 5;
  int army = h->s->play.army < 3 ? h->s->play.army : (h->me == FRENCH ? ARMY_FR : ARMY_BR);
  int room = lim - h->s->turn.ncards;
  if (room > 2) room = 2;
  if (room < 0) room = 0;
  double mine = top_cards(h, army, room);
  int d = h->occ[dsq];
  int dside = h->me ^ 1;
  int darmy = d != UNIT_NONE ? h->sc->unit[d].army : (dside == FRENCH ? ARMY_FR : ARMY_BR);
  int oh = hand_of(h, darmy);
  double stake = defender_stake(h, dsq, att, def);
  double oest = (oh < 2 ? oh : 2) * h->c->avg_bp[darmy] * (stake > 2 ? 0.9 : 0.6);
  double margin = att + 0.8 * mine - (def + oest);
  double v;
  if (att > 2 * def) v = 3.0 + 0.5 * stake;
  else if (margin > 0) v = 1.0 + 0.25 * margin + 0.4 * stake;
  else v = -1.0 + 0.2 * margin;
  if (def > 2 * att) v -= 2.0;
  v += 0.02 * att;  /* prefer the fuller attack */
  return v;
}

static double sc_cards(H *h, Action a, int attacker) {
  const Scen *sc = h->sc;
  const State *s = h->s;
  int att0, def0;
  battle_now(h, &att0, &def0);
  int batt_army = s->battle.army < 3 ? s->battle.army : ARMY_FR;
  int dunit = s->battle.def_sq < NSQ ? h->occ[s->battle.def_sq] : UNIT_NONE;
  int darmy = dunit != UNIT_NONE ? sc->unit[dunit].army : ARMY_BR;
  uint64_t attmask = sc->army_cards[batt_army], defmask = sc->army_cards[darmy];
  double stake = s->battle.def_sq < NSQ ? defender_stake(h, s->battle.def_sq, att0, def0) : 1;
  int charge = s->battle.kind == BK_CHARGE;
  if (attacker) {
    double now = att0 + pending_total(h, 1, attmask);
    int oh = hand_of(h, darmy);
    double oest = charge ? 0 : (oh < 2 ? oh : 2) * h->c->avg_bp[darmy] * (stake > 2 ? 0.9 : 0.6);
    double target = def0 + oest + 1;
    if (a.t == A_BDONE) {
      if (now >= target) return 1.0;
      if (now + top_cards(h, batt_army, 2) < def0) return 0.5; /* hopeless: keep the cards */
      return -0.2;
    }
    if (a.t != A_BCARD) return 0;
    double g = card_gain(h, a.bcard.card, a.bcard.purpose, 1);
    if (g <= 0) return -2;
    double v = now >= target ? (now < 2 * def0 + 1 && now + g > 2 * def0 ? 0.4 : -0.6) : 0.35 * g + (now + g >= target ? 0.8 : 0);
    return v - 0.3 * cardv(h, a.bcard.card);
  }
  /* defender: the attacker's cards are hidden, only their number counts */
  double now = def0 + pending_total(h, 0, defmask);
  int natt = __builtin_popcountll(s->cards.pend & attmask);
  double aest = att0 + natt * h->c->avg_bp[batt_army] * 1.1;
  if (a.t == A_BDONE) {
    if (now >= aest + 0.5) return 1.0;
    return 0.0;
  }
  if (a.t != A_BCARD) return 0;
  double g = card_gain(h, a.bcard.card, a.bcard.purpose, 0);
  if (g <= 0) return -2;
  if (now >= aest + 0.5) return -0.8;
  double gap = aest + 0.5 - now;
  double v =
      (now + g >= aest + 0.5 ? stake : 0.4 * stake * g / gap) - 0.35 * cardv(h, a.bcard.card);
  if (gap > 8 && 2 * now < aest && 2 * (now + g) >= aest) v += 0.5; /* avoid the double loss */
  return v;
}

static double sc_fire(H *h, Action a) {
  const Scen *sc = h->sc;
  const State *s = h->s;
  if (a.t == A_NOFIRE) return 0;
  if (a.t != A_ARTY) return 0;
  double cv = cardv(h, a.fire.card);
  if (s->turn.phase == PH_B_FIRE) {
    int att0, def0, att1 = 0, def1 = 0, dsq;
    battle_now(h, &att0, &def0);
    if (!sim_battle(h, a, &att1, &def1, &dsq)) att1 = 0;
    double gain = att0 - att1;
    if (gain <= 0) return -1;
    double stake = defender_stake(h, s->battle.def_sq, att0, def0);
    double v = 0.25 * gain + (att0 > def0 && att1 <= def0 ? stake : 0.2 * stake);
    return v - 0.45 * cv;
  }
  /* reaction fire */
  int u = a.fire.unit, across = a.fire.across, sq = s->units.sq[u];
  if (sq >= NSQ) return -1;
  int fr = sc->nb[sq][across ? (across - 1) & 3 : facing(s, u)]; /* from a castle */
  int t = fr == SQ_NONE ? UNIT_NONE : h->occ[fr];
  if (t == UNIT_NONE || unit_side(sc, t) == h->me || in_castle_inf(h, t)) return -2;
  double v;
  if (s->units.flag[t] & UF_DISORDER)
    v = sc->unit[t].bp_red || !(s->units.flag[t] & UF_REDUCED) ? 1.8 : -1;
  else {
    v = 0.2;
    int tf = sc->nb[fr][facing(s, t)];
    if (tf != SQ_NONE && h->occ[tf] != UNIT_NONE && unit_side(sc, h->occ[tf]) == h->me) v += 0.6;
    if (h->c->sq_obj[fr]) v += 0.3;
  }
  return v - 0.5 * cv;
}

static double sc_loss(const H *h, Action a) {
  const Scen *sc = h->sc;
  const State *s = h->s;
  int dsq = s->battle.def_sq;
  int d = dsq < NSQ ? h->occ[dsq] : UNIT_NONE;
  switch (a.t) {
    case A_CDP: return 5.0;
    case A_REDUCE:
      if (d == UNIT_NONE) return 0;
      if (would_die(h, d)) return -3.0 - unit_bp(sc, s, d);
      return 0.8 - 0.3 * (sc->unit[d].bp_full - sc->unit[d].bp_red) + (h->c->sq_obj[dsq] ? 2.0 : 0);
    case A_RETREAT: {
      if (d == UNIT_NONE) return 0;
      int to = a.retreat.sq, f = a.retreat.facing & 3;
      double v = 0.5 - exposure(h, d, to, f, dsq) - 0.4 * goal_calc(h, d, to) / 4.0;
      v += 0.3 * ready(h, d, to, f);
      if (h->c->sq_obj[dsq]) v -= 2.0;
      if (h->c->sq_obj[to]) v += 0.5;
      return v;
    }
    default: return 0;
  }
}

static double sc_other(const H *h, Action a) {
  const Scen *sc = h->sc;
  const State *s = h->s;
  switch (a.t) {
    case A_ADVANCE: {
      int u = s->battle.att[a.attacker.slot & 3];
      if (u == UNIT_NONE) return 0;
      int sq = s->battle.def_sq, f = a.attacker.facing & 3;
      double v = ready(h, u, sq, f) - exposure(h, u, sq, f, s->units.sq[u]);
      if (sc->castle_of[sq] >= 0 && sc->unit[u].kind == K_INF) v += 1.0;
      if (sc->unit[u].kind == K_INF) v += 0.1;
      return v;
    }
    case A_LOSE: {
      int u = s->battle.att[a.attacker.slot & 3];
      if (u == UNIT_NONE) return 0;
      if (would_die(h, u)) return -2.0 - unit_bp(sc, s, u);
      return -0.5 * (sc->unit[u].bp_full - sc->unit[u].bp_red) - (sc->unit[u].elite ? 0.3 : 0);
    }
    case A_EVADE: {
      int u = a.to.unit, to = a.to.sq, f = a.to.facing & 3;
      return 0.3 - exposure(h, u, to, f, -1) + 0.2 * ready(h, u, to, f);
    }
    case A_NOEVADE: {
      /* the mover is the only infantry unit in motion */
      for (uint64_t m = s->interrupt.evaders; m; m &= m - 1) {
        int u = __builtin_ctzll(m);
        if (s->units.sq[u] < NSQ && h->c->sq_obj[s->units.sq[u]]) return 0.6;
      }
      return 0.0;
    }
    case A_PLACE: {
      double v = 0;
      int q = a.place.sq;
      if (q >= NSQ) return 0;
      for (int d = -1; d < 4; d++) {
        int n = d < 0 ? q : sc->nb[q][d];
        if (n == SQ_NONE) continue;
        int t = h->occ[n];
        if (t != UNIT_NONE && unit_side(sc, t) == h->me) v += 0.3;
        else if (t != UNIT_NONE) v -= 0.4;
      }
      return v;
    }
    case A_RALLY_DONE: return 0;
    case A_RALLY: case A_RESTORE: return 1.0;
    case A_BID: {
      int c = a.bid.card;
      if (c == CARD_NONE || c >= MAX_CARDS) return 0;
      const CardDef *cd = &sc->card[c];
      double v = 0.18 * cd->mp - 0.6 * cardv(h, c);
      if (h->me == FRENCH) v += 0.2;
      return v;
    }
    default: return 0;
  }
}

void heur_score_all(const AiCtx *c, const State *s, const ActList *L, float *score) {
  H h;
  h.c = c;
  h.sc = c->sc;
  h.s = s;
  h.me = s->turn.decider;
  h.cached = 0;
  h.bn_ok = 0;
  h.occ = s->occ; /* the engine keeps it in step with units.sq */
  if (s->turn.phase == PH_MOVE) memset(h.g_ok, 0, sizeof h.g_ok);
  double wm[3] = {0, 0, 0};
  if (s->turn.phase == PH_ROUND) {
    if (h.me == FRENCH) wm[ARMY_FR] = want_move(&h, ARMY_FR);
    else { wm[ARMY_BR] = want_move(&h, ARMY_BR); wm[ARMY_PR] = want_move(&h, ARMY_PR); }
  }
  for (int i = 0; i < L->n; i++) {
    Action a = L->a[i];
    double v;
    switch (s->turn.phase) {
    case PH_ROUND: v = sc_round(&h, a, wm); break;
    case PH_MOVE: v = sc_move(&h, a); break;
    case PH_DECLARE: v = sc_declare(&h, a); break;
    case PH_B_ATTCARDS: v = sc_cards(&h, a, 1); break;
    case PH_B_DEFCARDS: v = sc_cards(&h, a, 0); break;
    case PH_B_FIRE:
    case PH_REACT: v = sc_fire(&h, a); break;
    case PH_B_LOSS: v = sc_loss(&h, a); break;
    default: v = sc_other(&h, a); break;
    }
    score[i] = (float)v;
  }
}

int ai_pick_scored(const AiCtx *c, const State *s, const ActList *L, Rng *r, double eps,
                   AiScoreFn score_all) {
  if (L->n <= 1) return 0;
  if (eps > 0 && rng_unit(r) < eps) return (int)rng_below(r, (uint32_t)L->n);
  float sc[MAX_ACTIONS];
  score_all(c, s, L, sc);
  int best = 0, nb = 1;
  for (int i = 1; i < L->n; i++) {
    if (sc[i] > sc[best] + 1e-6f) { best = i; nb = 1; }
    else if (sc[i] > sc[best] - 1e-6f && rng_below(r, (uint32_t)++nb) == 0) best = i;
  }
  return best;
}

int heur_pick(const AiCtx *c, const State *s, const ActList *L, Rng *r, double eps) {
  return ai_pick_scored(c, s, L, r, eps, heur_score_all);
}
