/* Information-set MCTS (Cowling, Powley & Whitehouse 2012), single observer with partially
 * observable moves, root-parallel over OpenMP.
 *
 * One iteration: sample a world from the searcher's observation (gs_determinize), descend the
 * tree of the searcher's information sets choosing by UCB with availability counts among the
 * actions legal in this world, expand one node, play a cut-off heuristic rollout, evaluate,
 * back up.  Edges are keyed by the action as the searcher sees it: the opponent's secret actions
 * (gs_action_public == 0) share one edge per action type, so the tree never branches on what
 * the searcher cannot see.  At the opponent's secret choices (bids, battle cards) the opponent's
 * concrete action comes from the heuristic policy, which only sees the number of the searcher's
 * hidden commitments: the second chooser never sees the first.
 *
 * The tree lives in a preallocated arena (a memory limit in MB); nothing is global. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "ai_internal.h"

typedef struct {
  uint32_t key;
  int32_t child, next;
  uint32_t n, avail;
  float w;
  uint8_t who;
} Node;

/* one tree per thread; each on its own cache line, since every iteration writes used/iters */
typedef struct {
  Node *nodes;
  int cap, used;
  long iters;
} __attribute__((aligned(64))) Tree;

static Tree *trees_new(int n) {
  Tree *t = aligned_alloc(64, (size_t)n * sizeof(Tree));
  if (t) memset(t, 0, (size_t)n * sizeof(Tree));
  return t;
}

struct Mcts {
  const Scen *sc;
  const AiCtx *ctx;
  MctsOpts o;
  uint64_t seed;
  Tree *trees;
  int ntrees;
  RootStat root[MAX_ACTIONS];
  int nroot;
  long last_iters;
  uint64_t last_hash;   /* observation hash of the last search (its root stats are kept) */
  int have_last;
};

void mcts_default_opts(MctsOpts *o) {
  memset(o, 0, sizeof *o);
  o->iters = 400;
  o->threads = 1;
  o->c = 0.7;
  o->rollout = 1;
  o->eps = 0.1;
  o->cut = -1;         /* auto: to the end of the short game, 12 rounds of the long one */
  o->max_roll = 5000;
  o->topk = 10;
  o->mem_mb = 64;
  o->scale_small = 1;
  o->pb = 0.5;
  o->movesearch = 1;
  o->algo = MCTS_TREE;
  o->kh = 4;
  o->kl = 4;
  o->early = 0;
  o->mscale = 0.4;
  o->sscale = 0.25;
}

/* documented in ai/README.md; the -v1 levels are the tree search of before issue 8 */
int mcts_level_opts(const char *level, MctsOpts *o) {
  mcts_default_opts(o);
  if (!strcmp(level, "easy-v1")) { o->iters = 150; o->topk = 6; o->cut = 6; }
  else if (!strcmp(level, "normal-v1")) { o->iters = 400; }
  else if (!strcmp(level, "hard-v1")) { o->iters = 1600; o->threads = 2; o->topk = 12; }
  else if (!strcmp(level, "expert-v1")) { o->iters = 6400; o->threads = 2; o->topk = 14; o->mem_mb = 256; }
  else if (!strcmp(level, "easy") || !strcmp(level, "normal") || !strcmp(level, "hard") ||
           !strcmp(level, "expert")) {
    o->iters = !strcmp(level, "easy") ? 800 : !strcmp(level, "normal") ? 3200 : !strcmp(level, "hard") ? 12800 : 51200;
    o->algo = MCTS_FLAT;
    o->rollout = ROLL_LIGHT;
    o->cut = 6;
    o->eval = 1;
  } else if (!strcmp(level, "sim")) {
    /* the simulation preset: cheap enough for balance tables of many games */
    o->iters = 128;
    o->algo = MCTS_FLAT;
    o->rollout = ROLL_LIGHT;
    o->cut = 6;
    o->eval = 1;
  }
  else return -1;
  return 0;
}

Mcts *mcts_new(const Scen *sc, const AiCtx *ctx, const MctsOpts *o, uint64_t seed) {
  Mcts *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->sc = sc;
  m->ctx = ctx;
  m->o = *o;
  if (m->o.threads < 1) m->o.threads = 1;
  if (m->o.threads > 64) m->o.threads = 64;
  m->seed = seed;
  if (m->o.cut < 0) m->o.cut = sc->scenario == SC_SHORT ? 0 : 12;
  m->ntrees = m->o.threads;
  m->trees = trees_new(m->ntrees);
  if (!m->trees) { free(m); return NULL; }
  return m;
}

void mcts_free(Mcts *m) {
  if (!m) return;
  for (int i = 0; i < m->ntrees; i++) free(m->trees[i].nodes);
  free(m->trees);
  free(m);
}

void mcts_set_iters(Mcts *m, int iters, int threads) {
  m->o.iters = iters;
  m->have_last = 0;
  if (threads >= 1 && threads != m->o.threads) {
    for (int i = 0; i < m->ntrees; i++) free(m->trees[i].nodes);
    free(m->trees);
    m->o.threads = threads;
    m->ntrees = threads;
    m->trees = trees_new(threads);
  }
}

int mcts_root(const Mcts *m, RootStat *out, int max) { return ai_root_copy(m->root, m->nroot, out, max); }

static int new_node(Tree *t, uint32_t key, int who) {
  if (t->used >= t->cap) return -1;
  int i = t->used++;
  Node *x = &t->nodes[i];
  x->key = key;
  x->child = x->next = -1;
  x->n = x->avail = 0;
  x->w = 0;
  x->who = (uint8_t)who;
  return i;
}

static int find_child(const Tree *t, int node, uint32_t key) {
  for (int c = t->nodes[node].child; c >= 0; c = t->nodes[c].next)
    if (t->nodes[c].key == key) return c;
  return -1;
}

static int add_child(Tree *t, int node, uint32_t key, int who) {
  int c = new_node(t, key, who);
  if (c < 0) return -1;
  t->nodes[c].next = t->nodes[node].child;
  t->nodes[node].child = c;
  return c;
}

/* the engine's phase table says which choices are secret and what share of the budget a
 * decision of each phase deserves (small decisions get less) */
static int secret_phase(int ph) { return phase_def(ph)->secret; }
static double phase_scale(int ph) { return phase_def(ph)->budget; }

/* candidate indices of L ordered by heuristic score (best first), at most k */
static int candidates(const AiCtx *ctx, const State *w, const ActList *L, int k, int *idx,
                      float *prior, Rng *r) {
  float sc[MAX_ACTIONS];
  heur_score_all(ctx, w, L, sc);
  /* small random jitter breaks ties differently per sample */
  for (int i = 0; i < L->n; i++) sc[i] += (float)(rng_unit(r) * 1e-3);
  k = ai_top_k(sc, L->n, k, idx);
  /* prior in [0,1]: the heuristic's opinion, best candidate 1 */
  float hi = sc[idx[0]], lo = sc[idx[k - 1]];
  for (int i = 0; i < k; i++) prior[i] = hi > lo ? (sc[idx[i]] - lo) / (hi - lo) : 1.0f;
  return k;
}

static double rollout(const Mcts *m, State *w, Rng *r) {
  return ai_rollout(m->sc, m->ctx, w, r, m->o.rollout, m->o.eps, m->o.cut, m->o.max_roll);
}

typedef struct { int node; } PathEl;
#define MAX_PATH 512

/* one descent of the tree through a sampled world: where it is and the nodes it went through */
typedef struct {
  Mcts *m;
  Tree *t;
  Rng *r;
  State *w;                  /* the sampled world, played down the tree */
  int me, rootk;
  int node, np;              /* the current node; the length of the path */
  int path[MAX_PATH];
} Descent;

/* the opponent's secret choice: made by the policy, seen as its class; 1 when the descent
 * stops here (a new node, or the arena full: roll out from here) */
static int descend_secret(Descent *D, const ActList *L, int d) {
  const Scen *sc = D->m->sc;
  Tree *t = D->t;
  int i = heur_pick(D->m->ctx, D->w, L, D->r, D->m->o.eps);
  Action a = L->a[i];
  uint32_t key = gs_action_public(sc, D->w, a, D->me) ? ai_act_key(a) : AI_HIDDEN_KEY(a.t);
  int c = find_child(t, D->node, key), expanded = 0;
  if (c < 0) {
    c = add_child(t, D->node, key, d);
    expanded = 1;
  }
  gs_apply(sc, D->w, a);
  if (c < 0) return 1;
  t->nodes[c].avail++;
  D->path[D->np++] = c;
  D->node = c;
  return expanded;
}

/* the searcher's candidates at this node, as it sees them: keys (hidden choices collapsed to
 * their class), priors and action indices, duplicates of a key left out; their number */
static int candidate_keys(Descent *D, const ActList *L, int d, uint32_t *keys, float *kprior,
                          int *kidx) {
  int idx[MAX_ACTIONS];
  float prior[MAX_ACTIONS];
  int k = D->node == 0 ? D->rootk : D->m->o.topk;
  int nc = candidates(D->m->ctx, D->w, L, k, idx, prior, D->r);
  int nk = 0;
  for (int j = 0; j < nc; j++) {
    Action a = L->a[idx[j]];
    uint32_t key = (d == D->me || gs_action_public(D->m->sc, D->w, a, D->me)) ? ai_act_key(a) : AI_HIDDEN_KEY(a.t);
    int dup = 0;
    for (int q = 0; q < nk; q++)
      if (keys[q] == key) { dup = 1; break; }
    if (dup) continue;
    keys[nk] = key;
    kprior[nk] = prior[j];
    kidx[nk] = idx[j];
    nk++;
  }
  return nk;
}

/* a choice the searcher sees: the first candidate not yet in the tree, else the child with the
 * best UCB among those available in this world; 1 when the descent stops here */
static int descend_select(Descent *D, const ActList *L, int d) {
  Tree *t = D->t;
  const MctsOpts *o = &D->m->o;
  uint32_t keys[MAX_ACTIONS];
  float kprior[MAX_ACTIONS];
  int kidx[MAX_ACTIONS];
  int nk = candidate_keys(D, L, d, keys, kprior, kidx);
  uint8_t matched[MAX_ACTIONS];
  memset(matched, 0, (size_t)nk);
  int best = -1, bestj = -1;
  double bestv = -1e300;
  /* availability: every expanded child legal in this world (remembered for the UCB pass) */
  int nmatch = 0;
  int mchild[MAX_ACTIONS], mkey[MAX_ACTIONS];
  for (int c = t->nodes[D->node].child; c >= 0; c = t->nodes[c].next) {
    Node *x = &t->nodes[c];
    int j = -1;
    for (int q = 0; q < nk; q++)
      if (keys[q] == x->key) { j = q; break; }
    if (j < 0) continue;
    matched[j] = 1;
    mchild[nmatch] = c;
    mkey[nmatch] = j;
    nmatch++;
    x->avail++;
  }
  int unexp = -1;
  if (nmatch < nk)
    for (int q = 0; q < nk; q++)
      if (!matched[q]) { unexp = q; break; }
  if (unexp >= 0) {
    int c = add_child(t, D->node, keys[unexp], d);
    gs_apply(D->m->sc, D->w, L->a[kidx[unexp]]);
    if (c >= 0) {
      t->nodes[c].avail++;
      D->path[D->np++] = c;
    }
    return 1;
  }
  double lc = o->c;
  for (int i = 0; i < nmatch; i++) {
    int c = mchild[i], j = mkey[i];
    Node *x = &t->nodes[c];
    double v = x->n ? x->w / x->n + lc * sqrt(log((double)x->avail) / x->n) +
                          o->pb * kprior[j] / (x->n + 1.0)
                    : 1e9;
    if (v > bestv) { bestv = v; best = c; bestj = j; }
  }
  if (best < 0) return 1;
  gs_apply(D->m->sc, D->w, L->a[kidx[bestj]]);
  D->path[D->np++] = best;
  D->node = best;
  return 0;
}

/* down the tree from the root until the game ends, a node is added or the path is full;
 * forced moves and (without movesearch) unit movement are played without a node */
static void descend(Descent *D) {
  const Scen *sc = D->m->sc;
  State *w = D->w;
  ActList L;
  D->node = 0;
  D->np = 0;
  while (!gs_over(w) && D->np < MAX_PATH) {
    gs_legal(sc, w, &L);
    if (L.n <= 0) break;
    if (L.n == 1) { gs_apply(sc, w, L.a[0]); continue; }
    if (!D->m->o.movesearch && w->turn.phase == PH_MOVE) {
      /* unit movement by the heuristic: the tree holds the strategic choices only */
      gs_apply(sc, w, L.a[heur_pick(D->m->ctx, w, &L, D->r, 0.0)]);
      continue;
    }
    int d = w->turn.decider;
    int stop = (d != D->me && secret_phase(w->turn.phase)) ? descend_secret(D, &L, d)
                                                           : descend_select(D, &L, d);
    if (stop) break;
  }
}

static void run_tree(Mcts *m, Tree *t, const State *obs, int me, uint64_t seed, long iters,
                     double deadline) {
  Rng r;
  rng_seed(&r, seed, 0x5eedULL);
  t->used = 0;
  t->iters = 0;
  int root = new_node(t, 0, me);
  (void)root;
  State w;
  Descent desc, *D = &desc;
  D->m = m;
  D->t = t;
  D->r = &r;
  D->w = &w;
  D->me = me;
  D->rootk = m->o.topk > 0 ? 2 * m->o.topk : 0;
  if (D->rootk > 0 && D->rootk < 16) D->rootk = 16;
  for (long it = 0; it < iters; it++) {
    if (deadline > 0 && (it & 15) == 0 && omp_get_wtime() > deadline) break;
    if (m->o.cheat) w = *obs;
    else gs_determinize(m->sc, obs, me, &r, &w);
    descend(D);
    double v = gs_over(&w) ? ai_eval_french(m->ctx, &w) : rollout(m, &w, &r);
    for (int i = 0; i < D->np; i++) {
      Node *x = &t->nodes[D->path[i]];
      x->n++;
      x->w += (float)(x->who == FRENCH ? v : 1.0 - v);
    }
    t->iters++;
  }
}

static int ensure_arena(Mcts *m, Tree *t, long iters) {
  long limit = (long)m->o.mem_mb * 1024L * 1024L / (long)sizeof(Node) / m->ntrees;
  long want = m->o.time_ms > 0 ? limit : iters + 64;
  if (want > limit) want = limit;
  if (want < 64) want = 64;
  if (t->cap >= want && t->nodes) return 0;
  free(t->nodes);
  t->nodes = malloc((size_t)want * sizeof(Node));
  if (!t->nodes) { t->cap = 0; return -1; }
  t->cap = (int)want;
  return 0;
}

static Action pick_root(const Mcts *m, const ActList *L);

/* the flat mode: sequential halving over the heuristic's best kh and the light rule's best kl
 * actions (interleaved, duplicates once), common random numbers (flat.c) */
static Action flat_mode(Mcts *m, const State *obs, int me, const ActList *L, uint64_t h,
                        double scale, int *iters_done) {
  Rng r;
  rng_seed(&r, h, 0xca7dULL);
  int ih[MAX_ACTIONS], il[MAX_ACTIONS], cand[MAX_ACTIONS];
  int nh = 0, nl = 0, k = 0;
  if (m->o.kh > 0) {
    float prior[MAX_ACTIONS];
    nh = candidates(m->ctx, obs, L, m->o.kh, ih, prior, &r);
  }
  if (m->o.kl > 0) nl = ai_light_candidates(m->ctx, obs, L, m->o.kl, &r, il);
  for (int i = 0; i < nh || i < nl; i++)
    for (int pass = 0; pass < 2; pass++) {
      if (pass == 0 ? i >= nh : i >= nl) continue;
      int x = pass == 0 ? ih[i] : il[i], dup = 0;
      for (int j = 0; j < k; j++) dup |= cand[j] == x;
      if (!dup) cand[k++] = x;
    }
  if (k == 0) cand[k++] = 0;
  long total = (long)(m->o.iters * scale);
  if (total < 8) total = 8;
  RollCfg rc = {m->o.rollout, m->o.eps, m->o.cut, m->o.max_roll};
  long done = 0;
  int i = ai_sh_search(m->sc, m->ctx, obs, me, L, cand, k, total, h, &rc, m->o.early, m->o.cheat, m->root, &done);
  m->nroot = k;
  m->last_iters = done;
  if (iters_done) *iters_done = (int)done;
  m->last_hash = h;
  m->have_last = 1;
  /* by visits (the survivor has the most), as mcts_root promises */
  for (int a = 1; a < m->nroot; a++) {
    RootStat x = m->root[a];
    int b = a - 1;
    while (b >= 0 && m->root[b].visits < x.visits) { m->root[b + 1] = m->root[b]; b--; }
    m->root[b + 1] = x;
  }
  return L->a[i];
}

static void root_single(Mcts *m, Action a);
static Action mcts_search(Mcts *m, const State *obs, int me, const ActList *L, uint64_t h,
                          int *iters_done);

Action mcts_decide(Mcts *m, const State *s, int *iters_done) {
  const Scen *sc = m->sc;
  int me = s->turn.decider;
  ActList L;
  gs_legal(sc, s, &L);
  if (iters_done) *iters_done = 0;
  Action none = {0};
  if (L.n <= 0) return none;
  if (L.n == 1) {
    m->have_last = 0;
    root_single(m, L.a[0]);
    return L.a[0];
  }
  State obs;
  if (m->o.cheat) obs = *s;
  else gs_observe(sc, s, me, &obs);
  uint64_t h = ai_hash_bytes(&obs, sizeof obs, m->seed ^ 0x9e3779b97f4a7c15ULL);
  if (m->have_last && m->last_hash == h && m->o.time_ms <= 0) {
    /* the same observation again (analyze, then act): same search, same answer */
    if (iters_done) *iters_done = (int)m->last_iters;
    return pick_root(m, &L);
  }
  m->have_last = 0;
  m->nroot = 0;
  return mcts_search(m, &obs, me, &L, h, iters_done);
}

/* a single root statistic: the decision was taken without a search */
static void root_single(Mcts *m, Action a) {
  m->root[0].key = ai_act_key(a);
  m->root[0].visits = 1;
  m->root[0].wins = 0.5;
  m->nroot = 1;
}

/* the root statistics of every tree summed, sorted by visits (then key); returns iterations */
static long merge_roots(Mcts *m) {
  long iters = 0;
  for (int t = 0; t < m->ntrees; t++) {
    Tree *tr = &m->trees[t];
    iters += tr->iters;
    for (int c = tr->nodes[0].child; c >= 0; c = tr->nodes[c].next) {
      Node *x = &tr->nodes[c];
      int j;
      for (j = 0; j < m->nroot; j++)
        if (m->root[j].key == x->key) break;
      if (j == m->nroot) {
        if (m->nroot >= MAX_ACTIONS) continue;
        m->root[j].key = x->key;
        m->root[j].visits = 0;
        m->root[j].wins = 0;
        m->nroot++;
      }
      m->root[j].visits += (int)x->n;
      m->root[j].wins += x->w;
    }
  }
  for (int i = 1; i < m->nroot; i++) {
    RootStat x = m->root[i];
    int j = i - 1;
    while (j >= 0 && (m->root[j].visits < x.visits ||
                      (m->root[j].visits == x.visits && m->root[j].key > x.key))) {
      m->root[j + 1] = m->root[j];
      j--;
    }
    m->root[j + 1] = x;
  }
  return iters;
}

/* the search of a new observation: the heuristic alone where the options say so, the flat
 * search, or the trees (root parallel) */
static Action mcts_search(Mcts *m, const State *obsp, int me, const ActList *Lp, uint64_t h,
                          int *iters_done) {
  State obs = *obsp;
  const ActList *L = Lp;
  double pscale = phase_scale(obs.turn.phase);
  int small = pscale < 1.0 && obs.turn.phase != PH_MOVE;
  if ((!m->o.movesearch && obs.turn.phase == PH_MOVE) ||
      (m->o.algo == MCTS_FLAT &&
       ((obs.turn.phase == PH_MOVE && m->o.mscale <= 0) || (small && m->o.sscale <= 0)))) {
    Rng r;
    rng_seed(&r, h, 0x3017eULL);
    Action a = L->a[heur_pick(m->ctx, &obs, L, &r, 0.0)];
    root_single(m, a);
    return a;
  }
  double scale = m->o.scale_small ? phase_scale(obs.turn.phase) : 1.0;
  if (m->o.algo == MCTS_FLAT) {
    if (m->o.scale_small)
      scale = obs.turn.phase == PH_MOVE ? m->o.mscale : small ? m->o.sscale : 1.0;
    return flat_mode(m, &obs, me, L, h, scale, iters_done);
  }
  long total = (long)(m->o.iters * scale);
  if (total < 32) total = 32;
  int T = m->ntrees;
  long per = (total + T - 1) / T;
  double deadline = 0;
  if (m->o.time_ms > 0) {
    deadline = omp_get_wtime() + m->o.time_ms * scale / 1000.0;
    per = 1L << 40;
  }
  for (int t = 0; t < T; t++)
    if (ensure_arena(m, &m->trees[t], per) < 0) return L->a[0];
#pragma omp parallel for num_threads(T) schedule(static, 1)
  for (int t = 0; t < T; t++)
    run_tree(m, &m->trees[t], &obs, me, h + 0x1000193ULL * (uint64_t)(t + 1), per, deadline);
  long iters = merge_roots(m);
  m->last_iters = iters;
  if (iters_done) *iters_done = (int)iters;
  m->last_hash = h;
  m->have_last = 1;
  return pick_root(m, L);
}

/* the most visited root action legal in the position */
static Action pick_root(const Mcts *m, const ActList *L) {
  for (int i = 0; i < m->nroot; i++) {
    for (int j = 0; j < L->n; j++)
      if (ai_act_key(L->a[j]) == m->root[i].key) return L->a[j];
  }
  return L->a[0];
}
