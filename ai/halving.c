/* The `flat` player: the difficulty levels of before the tree search, kept for comparison.
 *
 * It is not a tree search.  Each decision compares a few candidates chosen beforehand (the
 * heuristic's best kh and the light rule's best kl, interleaved, duplicates once) by sequential
 * halving over sampled worlds with common random numbers (ai_sh_search, flat.c), so a move
 * outside those candidates is never found however long it thinks.  One thread; the budget is
 * playouts per full decision, movement steps `mscale` of it, small decisions `sscale`. */
#include <stdlib.h>
#include <string.h>
#include "ai_internal.h"

struct Halving {
  const Scen *sc;
  const AiCtx *ctx;
  HalvOpts o;
  uint64_t seed;
  RootStat root[MAX_ACTIONS];
  int nroot;
};

void halving_default_opts(HalvOpts *o) {
  memset(o, 0, sizeof *o);
  o->iters = 3200;
  o->rollout = ROLL_LIGHT;
  o->eps = 0.1;
  o->cut = 6;
  o->max_roll = 5000;
  o->kh = 4;
  o->kl = 4;
  o->eval = 1;
  o->mscale = 0.4;
  o->sscale = 0.25;
}

/* the levels (ai/README.md): playouts per full decision */
int halving_level_opts(const char *level, HalvOpts *o) {
  static const struct { const char *name; int iters; } LV[] = {
      {"sim", 128}, {"easy", 800}, {"normal", 3200}, {"hard", 12800}, {"expert", 51200}};
  halving_default_opts(o);
  for (size_t i = 0; i < sizeof LV / sizeof *LV; i++)
    if (!strcmp(level, LV[i].name)) {
      o->iters = LV[i].iters;
      return 0;
    }
  return -1;
}

Halving *halving_new(const Scen *sc, const AiCtx *ctx, const HalvOpts *o, uint64_t seed) {
  Halving *f = calloc(1, sizeof *f);
  if (!f) return NULL;
  f->sc = sc;
  f->ctx = ctx;
  f->o = *o;
  f->seed = seed;
  return f;
}

void halving_free(Halving *f) { free(f); }

int halving_root(const Halving *f, RootStat *out, int max) {
  return ai_root_copy(f->root, f->nroot, out, max);
}

/* the candidates: the heuristic's best kh and the light rule's best kl, interleaved */
static int halving_candidates(const Halving *f, const State *obs, const ActList *L, Rng *r,
                              int *cand) {
  int ih[MAX_ACTIONS], il[MAX_ACTIONS];
  int nh = 0, nl = 0, k = 0;
  if (f->o.kh > 0) {
    float sc[MAX_ACTIONS];
    heur_score_all(f->ctx, obs, L, sc);
    for (int i = 0; i < L->n; i++) sc[i] += (float)(rng_unit(r) * 1e-3);
    nh = ai_top_k(sc, L->n, f->o.kh, ih);
  }
  if (f->o.kl > 0) nl = ai_light_candidates(f->ctx, obs, L, f->o.kl, r, il);
  for (int i = 0; i < nh || i < nl; i++)
    for (int pass = 0; pass < 2; pass++) {
      if (pass == 0 ? i >= nh : i >= nl) continue;
      int x = pass == 0 ? ih[i] : il[i], dup = 0;
      for (int j = 0; j < k; j++) dup |= cand[j] == x;
      if (!dup) cand[k++] = x;
    }
  if (k == 0) cand[k++] = 0;
  return k;
}

Action halving_decide(Halving *f, const State *s) {
  const Scen *sc = f->sc;
  int me = s->turn.decider;
  ActList L;
  gs_legal(sc, s, &L);
  Action none = {0};
  f->nroot = 0;
  if (L.n <= 0) return none;
  if (L.n == 1) {
    f->root[0] = (RootStat){ai_act_key(L.a[0]), 1, 0.5};
    f->nroot = 1;
    return L.a[0];
  }
  State obs;
  if (f->o.cheat) obs = *s;
  else gs_observe(sc, s, me, &obs);
  uint64_t h = ai_hash_bytes(&obs, sizeof obs, f->seed ^ 0x9e3779b97f4a7c15ULL);
  int ph = obs.turn.phase;
  double scale = ph == PH_MOVE ? f->o.mscale : ai_small_phase(ph) ? f->o.sscale : 1.0;
  if (scale <= 0) { /* the heuristic decides alone */
    Rng r;
    rng_seed(&r, h, 0x3017eULL);
    Action a = L.a[heur_pick(f->ctx, &obs, &L, &r, 0.0)];
    f->root[0] = (RootStat){ai_act_key(a), 1, 0.5};
    f->nroot = 1;
    return a;
  }
  Rng r;
  rng_seed(&r, h, 0xca7dULL);
  int cand[MAX_ACTIONS];
  int k = halving_candidates(f, &obs, &L, &r, cand);
  long total = (long)(f->o.iters * scale);
  if (total < 8) total = 8;
  RollCfg rc = {f->o.rollout, f->o.eps, f->o.cut, f->o.max_roll};
  long done = 0;
  int i = ai_sh_search(sc, f->ctx, &obs, me, &L, cand, k, total, h, &rc, f->o.early, f->o.cheat,
                       f->root, &done);
  f->nroot = k;
  /* by visits (the survivor has the most), as a root listing promises */
  for (int a = 1; a < f->nroot; a++) {
    RootStat x = f->root[a];
    int b = a - 1;
    while (b >= 0 && f->root[b].visits < x.visits) { f->root[b + 1] = f->root[b]; b--; }
    f->root[b + 1] = x;
  }
  return L.a[i];
}
