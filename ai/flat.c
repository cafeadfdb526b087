/* The reference baseline: determinized flat Monte Carlo with sequential halving.
 *
 * One decision: the light rule (light.c) keeps its k best actions as candidates; the budget of
 * n playouts is split over ceil(log2 k) rounds of sequential halving (Karnin, Koren & Somekh
 * 2013).  In a round every surviving candidate is played in the same sampled worlds
 * (gs_determinize of the decider's observation: never the hidden truth) followed by the same
 * rollout random numbers (common random numbers: a candidate is compared with the others on
 * equal worlds), rollouts by the light rule with epsilon-random moves to the end of the game
 * (or `cut` rounds, then the evaluation).  The better half by mean reward goes on; the last one
 * left is played.
 *
 * It is a yardstick, not a level: simple, fixed, and independent of the search's tree code. */
#include <stdlib.h>
#include <string.h>
#include "ai_internal.h"

struct Flat {
  const Scen *sc;
  const AiCtx *ctx;
  FlatOpts o;
  uint64_t seed;
  RootStat root[MAX_ACTIONS];
  int nroot;
};

void flat_default_opts(FlatOpts *o) {
  memset(o, 0, sizeof *o);
  o->playouts = 800;
  o->k = 6;
  o->eps = 0.1;
  o->cut = 0;
  o->max_roll = 5000;
  o->rollout = ROLL_LIGHT;
}

Flat *flat_new(const Scen *sc, const AiCtx *ctx, const FlatOpts *o, uint64_t seed) {
  Flat *f = calloc(1, sizeof *f);
  if (!f) return NULL;
  f->sc = sc;
  f->ctx = ctx;
  f->o = *o;
  f->seed = seed;
  return f;
}

void flat_free(Flat *f) { free(f); }

int flat_root(const Flat *f, RootStat *out, int max) { return ai_root_copy(f->root, f->nroot, out, max); }

int ai_roll_pick(const AiCtx *ctx, const State *w, const ActList *L, Rng *r, int policy,
                 double eps) {
  if (policy == ROLL_LIGHT) return light_pick(ctx, w, L, r, eps);
  if (policy == ROLL_HEUR) return heur_pick(ctx, w, L, r, eps);
  return (int)rng_below(r, (uint32_t)L->n);
}

/* a rollout from w to the end (or the cut-off): French win probability */
double ai_rollout(const Scen *sc, const AiCtx *ctx, State *w, Rng *r, int policy, double eps,
                  int cut, int max_roll) {
  ActList L;
  int rounds = 0, steps = 0;
  int pa = w->turn.active, pt = w->turn.number;
  while (!gs_over(w) && steps < max_roll) {
    if (cut > 0 && w->turn.phase == PH_ROUND && (w->turn.active != pa || w->turn.number != pt)) {
      pa = w->turn.active;
      pt = w->turn.number;
      if (++rounds >= cut) break;
    }
    gs_legal(sc, w, &L);
    if (L.n <= 0) break;
    gs_apply(sc, w, L.a[L.n == 1 ? 0 : ai_roll_pick(ctx, w, &L, r, policy, eps)]);
    steps++;
  }
  return ai_eval_cut(ctx, w);
}

/* the k best actions of L by the light rule (ties at random), best first */
int ai_light_candidates(const AiCtx *ctx, const State *s, const ActList *L, int k, Rng *r,
                        int *idx) {
  float sc[MAX_ACTIONS];
  light_score_all(ctx, s, L, sc);
  float key[MAX_ACTIONS];
  for (int i = 0; i < L->n; i++) key[i] = sc[i] + (float)(rng_unit(r) * 1e-4);
  return ai_top_k(key, L->n, k, idx);
}

int ai_top_k(const float *key, int n, int k, int *idx) {
  if (k <= 0 || k > n) k = n;
  int tmp[MAX_ACTIONS];
  for (int i = 0; i < n; i++) tmp[i] = i;
  for (int i = 0; i < k; i++) {   /* partial selection sort */
    int b = i;
    for (int j = i + 1; j < n; j++)
      if (key[tmp[j]] > key[tmp[b]]) b = j;
    int x = tmp[i]; tmp[i] = tmp[b]; tmp[b] = x;
    idx[i] = tmp[i];
  }
  return k;
}

int ai_root_copy(const RootStat *root, int n, RootStat *out, int max) {
  if (n > max) n = max;
  memcpy(out, root, (size_t)n * sizeof *out);
  return n;
}

/* Sequential halving over the candidates cand[0..k) of L (indices), about n playouts, every
 * candidate of a round on the same sampled worlds with the same rollout numbers.  early > 0:
 * stop when, after a round, the leader's mean beats the runner-up's by more than `early`
 * (a clear decision keeps the rest of its budget).  Writes the statistics of every
 * candidate into root[0..k) (the chosen one first) and returns the index into L. */
int ai_sh_search(const Scen *sc, const AiCtx *ctx, const State *obs, int me, const ActList *L,
                 const int *cand, int k, long n, uint64_t h, const RollCfg *rc, double early,
                 int cheat, RootStat *root, long *done) {
  double sum[MAX_ACTIONS];
  int cnt[MAX_ACTIONS], alive[MAX_ACTIONS];
  alive[0] = 0;
  for (int i = 0; i < k; i++) { sum[i] = 0; cnt[i] = 0; alive[i] = i; }
  int na = k;
  int rounds = 0;
  while ((1 << rounds) < k) rounds++;
  long world = 0, played = 0;
  for (int rd = 0; rd < rounds && na > 1; rd++) {
    long per = n / rounds / na;
    if (per < 1) per = 1;
    for (long j = 0; j < per; j++, world++) {
      Rng wr, rr;
      rng_seed(&wr, h + 0x9e3779b97f4a7c15ULL * (uint64_t)(world + 1), 0xd37ULL);
      rng_seed(&rr, h + 0x9e3779b97f4a7c15ULL * (uint64_t)(world + 1), 0x7011ULL);
      State w0;
      if (cheat) w0 = *obs; /* the labelled cheat: the true state, as the tree search does */
      else gs_determinize(sc, obs, me, &wr, &w0);
      for (int q = 0; q < na; q++) {
        int c = alive[q];
        State w = w0;
        Rng r2 = rr;
        gs_apply(sc, &w, L->a[cand[c]]);
        double v = ai_rollout(sc, ctx, &w, &r2, rc->policy, rc->eps, rc->cut, rc->max_roll);
        sum[c] += me == FRENCH ? v : 1.0 - v;
        cnt[c]++;
        played++;
      }
    }
    /* keep the better half (stable: the candidate order breaks ties) */
    for (int a = 1; a < na; a++) {
      int x = alive[a], b = a - 1;
      while (b >= 0 && sum[alive[b]] / cnt[alive[b]] < sum[x] / cnt[x]) { alive[b + 1] = alive[b]; b--; }
      alive[b + 1] = x;
    }
    if (early > 0 && sum[alive[0]] / cnt[alive[0]] - sum[alive[1]] / cnt[alive[1]] > early) na = 1;
    na = (na + 1) / 2;
  }
  for (int i = 0; i < k; i++) {
    root[i].key = ai_act_key(L->a[cand[i]]);
    root[i].visits = cnt[i];
    root[i].wins = sum[i];
  }
  /* the survivor first */
  RootStat t = root[0];
  root[0] = root[alive[0]];
  root[alive[0]] = t;
  if (done) *done = played;
  return cand[alive[0]];
}

Action flat_decide(Flat *f, const State *s) {
  const Scen *sc = f->sc;
  int me = s->turn.decider;
  ActList L;
  gs_legal(sc, s, &L);
  Action none = {0};
  f->nroot = 0;
  if (L.n <= 0) return none;
  if (L.n == 1) return L.a[0];
  State obs;
  gs_observe(sc, s, me, &obs);
  uint64_t h = ai_hash_bytes(&obs, sizeof obs, f->seed ^ 0xf1a7f1a7ULL);
  Rng r;
  rng_seed(&r, h, 0xca7dULL);
  int idx[MAX_ACTIONS];
  int k = ai_light_candidates(f->ctx, &obs, &L, f->o.k, &r, idx);
  RollCfg rc = {f->o.rollout, f->o.eps, f->o.cut, f->o.max_roll};
  int i = ai_sh_search(sc, f->ctx, &obs, me, &L, idx, k, f->o.playouts, h, &rc, 0, 0, f->root,
                       NULL);
  f->nroot = k;
  return L.a[i];
}
