/* Information-set Monte Carlo tree search: the difficulty levels (`mcts:sim` ... `mcts:expert`).
 *
 * What it is: single-observer ISMCTS (Cowling, Powley & Whitehouse 2012).  One tree over the
 * deciding side's information; each iteration samples a world from that side's observation
 * (gs_determinize: never the hidden truth, unless the player is the labelled `cheat`), walks
 * the tree in that world, adds one node, plays a rollout, and backs the result up.
 *   - Edges are actions as the searcher sees them.  The opponent's secret choices (bids, battle
 *     cards) are one edge per action type, and the opponent's concrete secret card comes from
 *     the heuristic (a uniformly random one with probability `seps`), which sees only the
 *     number of the searcher's hidden commitments: neither side peeks at the other's secret.
 *   - Selection: UCB1 with availability counts (the number of iterations in which a child was
 *     legal, not the parent's visits) plus a progressive bias toward the prior.
 *   - Progressive widening in the order of the prior: a node visited n times may have
 *     1 + pwc * n^pwa children; the prior orders every legal action (the heuristic's scores;
 *     in the movement phase interleaved with the light rule's), so given time every legal
 *     action is tried — nothing is cut to a fixed few.
 *   - Budget: `iters` (times `fscale`, 1 in every level) per full decision (cards, battles,
 *     bids, battle cards, artillery), a movement step `mscale` of `iters`, a small decision
 *     (loss, advance, evasion, leader, rally) `sscale`; forced moves are not searched.
 *   - Tree reuse: when the next decision is the same side's and nothing it could not foresee
 *     happened in between (its expected next observation is the real one), the subtree of the
 *     chosen action becomes the new root.
 *   - Root parallel: `trees` independent trees (own seeds and worlds), root statistics summed;
 *     `threads` run them.  A result depends on the seed, the budget and `trees`, never on the
 *     thread count.  `time=MS` caps a decision's wall time (then not reproducible).
 * What it is not: a search of simultaneous moves as a matrix game (the opponent's secret choice
 * follows its policy), or a multiple-observer tree (the opponent's choices are keyed by what
 * the searcher sees of them).
 *
 * The trees live in per-tree arenas with a memory cap; nothing is global. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "ai_internal.h"
#include "../engine/util.h"

typedef struct {
  uint32_t key;       /* the action into this node, as the searcher sees it */
  int32_t child, next;
  uint32_t n, avail;  /* visits; iterations in which the action was legal  */
  float w;            /* reward for `who`, summed                          */
  uint8_t who;        /* the side that chose the action into this node     */
} Node;

/* one tree per worker; each on its own cache line */
typedef struct {
  Node *nodes;
  int cap, used;
  int root;           /* the root of the current search                    */
  long iters;         /* iterations (walks) of the last search             */
  long worlds;        /* halving root: worlds sampled in the last search   */
  uint64_t next_h;    /* reuse: the observation hash expected next (0: none) */
  int next_root;      /* ... and the node that becomes the root then       */
} __attribute__((aligned(64))) Tree;

struct Mcts {
  const Scen *sc;
  const AiCtx *ctx;
  MctsOpts o;
  uint64_t seed;
  Tree *trees;
  RootStat root[MAX_ACTIONS];
  int nroot;
  long last_iters;
  uint64_t last_h;    /* observation hash of the last search (its statistics are kept) */
  int have_last;
  double bal_work, bal_span; /* halving rounds: the candidates' walk CPU, and the time two
                              * threads would take on it in the round's schedule (bench) */
  Action last_act;    /* the answer of the last search (or plan step) */
  struct Macros *mac; /* dest: the root's destination candidates (NULL until the first) */
  int mac_on;         /* the current search's root candidates are mac's                 */
  Action plan[REACH_PATH];   /* dest: the chosen move's later steps ...                 */
  uint64_t plan_h[REACH_PATH]; /* ... and the observation expected before each          */
  int plan_n, plan_i;
};

void mcts_default_opts(MctsOpts *o) {
  memset(o, 0, sizeof *o);
  o->iters = 3000;
  o->trees = 1;
  o->threads = 1;
  o->c = 0.7;
  o->pb = 0.5;
  o->pwc = 1.0;
  o->pwa = 0.5;
  o->rk = 0.25;
  o->rollout = ROLL_LIGHT;
  o->eps = 0.1;
  o->seps = 0.1;
  o->cut = 6;
  o->max_roll = 5000;
  o->eval = 1;
  o->mscale = 0.4;
  o->sscale = 0.25;
  o->fscale = 1.0;
  o->reuse = 1;
  o->mem_mb = 256;
}

/* the levels (ai/README.md): iterations per full decision, the threads that run one search
 * (the result does not depend on them), the time cap in play; and from easy up the halving
 * root's rule and opponent model that the games chose at their budgets (results/search-tree.md):
 * candidates while each gets rmin first-round walks, the opponent's secret choices random at
 * seps, even halving rounds; in the short game only, the searcher's own movement by destination
 * at dest_short (the short game's decisions D of stop 39 and, for sim, Q of stop 41, at a share
 * chosen for sim's CPU; the long game's measured no gain).  sim keeps the defaults otherwise
 * (the laboratory's tables were played by it) */
static const struct {
  const char *name;
  int iters, threads, play_ms, rmin, even;
  double seps, dest_short;
} LEVELS[] = {
    {"sim", 120, 1, 0, 0, 0, 0.1, 0.6},
    {"easy", 750, 2, 1500, 64, 1, 0.5, 1},
    {"normal", 3000, 2, 4000, 64, 1, 0.5, 1},
    {"hard", 12000, 2, 8000, 64, 1, 0.5, 1},
    {"expert", 48000, 2, 15000, 64, 1, 0.5, 1},
};

int mcts_level_opts(const char *level, const char *scen, MctsOpts *o) {
  mcts_default_opts(o);
  for (size_t i = 0; i < sizeof LEVELS / sizeof *LEVELS; i++)
    if (!strcmp(level, LEVELS[i].name)) {
      o->iters = LEVELS[i].iters;
      o->threads = LEVELS[i].threads;
      o->play_ms = LEVELS[i].play_ms;
      o->rmin = LEVELS[i].rmin;
      o->even = LEVELS[i].even;
      o->seps = LEVELS[i].seps;
      if (scen && !strcmp(scen, "short")) o->dest = LEVELS[i].dest_short;
      return 0;
    }
  return -1;
}

static void trees_free(Mcts *m) {
  if (!m->trees) return;
  for (int i = 0; i < m->o.trees; i++) free(m->trees[i].nodes);
  free(m->trees);
  m->trees = NULL;
}

Mcts *mcts_new(const Scen *sc, const AiCtx *ctx, const MctsOpts *o, uint64_t seed) {
  Mcts *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->sc = sc;
  m->ctx = ctx;
  m->o = *o;
  if (m->o.trees < 1) m->o.trees = 1;
  if (m->o.threads < 1) m->o.threads = 1;
  m->seed = seed;
  m->trees = aligned_alloc(64, (size_t)m->o.trees * sizeof(Tree));
  if (!m->trees) { free(m); return NULL; }
  memset(m->trees, 0, (size_t)m->o.trees * sizeof(Tree));
  return m;
}

void mcts_free(Mcts *m) {
  if (!m) return;
  trees_free(m);
  free(m->mac);
  free(m);
}

/* forget every tree and the last search (the bench searches the same position again) */
void mcts_forget(Mcts *m) {
  m->have_last = 0;
  m->plan_n = m->plan_i = 0;
  m->bal_work = m->bal_span = 0;
  for (int i = 0; i < m->o.trees; i++) m->trees[i].next_h = 0;
}

/* the movement steps (A_STEP, A_TURN, A_LEAD, A_ENTER, A_DONE) among the first tree's nodes
 * below the root's children: what tmove leaves out of the tree (tests) */
long mcts_move_nodes(const Mcts *m) {
  const Tree *t = &m->trees[0];
  if (!t->nodes || t->used <= 0) return 0;
  int *stack = malloc((size_t)t->used * sizeof *stack), n = 0;
  if (!stack) return -1;
  long moves = 0;
  for (int c = t->nodes[t->root].child; c >= 0; c = t->nodes[c].next) stack[n++] = c;
  while (n > 0) { /* each node is pushed once: the stack never holds more than the tree */
    int x = stack[--n];
    for (int c = t->nodes[x].child; c >= 0; c = t->nodes[c].next) {
      int k = (int)(t->nodes[c].key >> 24);
      moves += k == A_STEP || k == A_TURN || k == A_LEAD || k == A_ENTER || k == A_DONE;
      stack[n++] = c;
    }
  }
  free(stack);
  return moves;
}

double mcts_balance(const Mcts *m) { return m->bal_span > 0 ? m->bal_work / m->bal_span : 0; }

int mcts_interactive(Mcts *m) {
  if (m->o.time_ms <= 0) m->o.time_ms = m->o.play_ms;
  return m->o.time_ms;
}

int mcts_root(const Mcts *m, RootStat *out, int max) {
  return ai_root_copy(m->root, m->nroot, out, max);
}

/* ---------------------------------------------------------------- the arena */
/* atomic: the candidates of a halving round grow their own subtrees of one tree in parallel */
static int new_node(Tree *t, uint32_t key, int who) {
  if (__atomic_load_n(&t->used, __ATOMIC_RELAXED) >= t->cap) return -1;
  int i = __atomic_fetch_add(&t->used, 1, __ATOMIC_RELAXED);
  if (i >= t->cap) return -1;
  t->nodes[i] = (Node){.key = key, .child = -1, .next = -1, .who = (uint8_t)who};
  return i;
}

static int add_child(Tree *t, int node, uint32_t key, int who) {
  int c = new_node(t, key, who);
  if (c < 0) return -1;
  t->nodes[c].next = t->nodes[node].child;
  t->nodes[node].child = c;
  return c;
}

static int find_child(const Tree *t, int node, uint32_t key) {
  for (int c = t->nodes[node].child; c >= 0; c = t->nodes[c].next)
    if (t->nodes[c].key == key) return c;
  return -1;
}

/* room for `want` more nodes: the arena grown toward it, up to the memory cap; 0 when it
 * holds them, 1 when it holds fewer (a search then stops adding nodes when it is full), -1
 * when it has no room at all */
static int arena_room(const Mcts *m, Tree *t, long want) {
  long limit = (long)m->o.mem_mb * 1024L * 1024L / (long)sizeof(Node) / m->o.trees;
  long need = t->used + want + 64;
  if (need > t->cap && t->cap < limit) {
    long cap = 2 * need < limit ? 2 * need : limit;
    Node *n = realloc(t->nodes, (size_t)cap * sizeof(Node));
    if (n) {
      t->nodes = n;
      t->cap = (int)cap;
    }
  }
  return need <= t->cap ? 0 : t->cap > t->used ? 1 : -1;
}

/* ---------------------------------------------------------------- one iteration */
#define MAX_PATH 512

/* a walk down the tree through one sampled world */
typedef struct {
  Mcts *m;
  Tree *t;
  Rng *r;
  State *w;
  int me;
  int root_turn, root_card; /* tmove: the root's turn and movement card (-1: not a move) */
  int rounds, pa, pt;       /* tmove: rounds begun since the root (as ai_rollout counts them:
                             * a round phase of another active side or turn) */
  int node, np;
  int path[MAX_PATH];
  struct Prior *prior;   /* scratch of descend_select (large: kept off the stack) */
} Descent;

/* this world's legal actions at a node: keys as the searcher sees them, the heuristic's scores
 * and a prior in [0, 1] (the score scaled between the worst and the best), and a table from
 * key to action index (open addressing, stamped: never cleared) */
#define KEY_SLOTS 4096
typedef struct Prior {
  int n;
  uint32_t key[MAX_ACTIONS];
  float sc[MAX_ACTIONS];
  float lo, hi;
  uint8_t have[MAX_ACTIONS]; /* a child of this key is in the tree */
  uint32_t stamp;
  struct { uint32_t key, stamp; int16_t idx; } slot[KEY_SLOTS];
} Prior;

static int prior_find(const Prior *P, uint32_t key) {
  uint32_t h = (key * 2654435761u) >> 20;
  for (;; h = (h + 1) & (KEY_SLOTS - 1)) {
    if (P->slot[h].stamp != P->stamp) return -1;
    if (P->slot[h].key == key) return P->slot[h].idx;
  }
}

static void prior_build(Descent *D, const ActList *L, int d, Prior *P) {
  heur_score_all(D->m->ctx, D->w, L, P->sc);
  P->stamp++;
  P->hi = -1e30f;
  P->lo = 1e30f;
  P->n = L->n;
  for (int i = 0; i < L->n; i++) {
    Action a = L->a[i];
    uint32_t key = (d == D->me || gs_action_public(D->m->sc, D->w, a, D->me)) ? ai_act_key(a)
                                                                             : AI_HIDDEN_KEY(a.t);
    P->key[i] = key;
    P->have[i] = 0;
    P->sc[i] += (float)(rng_unit(D->r) * 1e-3); /* ties broken differently in each world */
    if (P->sc[i] > P->hi) P->hi = P->sc[i];
    if (P->sc[i] < P->lo) P->lo = P->sc[i];
    uint32_t h = (key * 2654435761u) >> 20;
    while (P->slot[h].stamp == P->stamp && P->slot[h].key != key) h = (h + 1) & (KEY_SLOTS - 1);
    if (P->slot[h].stamp == P->stamp) { P->have[i] = 1; continue; } /* a key seen already */
    P->slot[h].key = key;
    P->slot[h].stamp = P->stamp;
    P->slot[h].idx = (int16_t)i;
  }
}

static float prior_of(const Prior *P, int i) {
  return P->hi > P->lo ? (P->sc[i] - P->lo) / (P->hi - P->lo) : 1.0f;
}

/* the next action to add below a node: the best by the heuristic not yet in the tree; in the
 * movement phase every other one the best by the light rule (the two orders interleaved);
 * -1 when every key is in the tree */
static int prior_next(Descent *D, const ActList *L, const Prior *P, int nkids) {
  const float *key = P->sc;
  float lsc[MAX_ACTIONS];
  if (D->w->turn.phase == PH_MOVE && (nkids & 1)) {
    light_score_all(D->m->ctx, D->w, L, lsc);
    key = lsc;
  }
  int best = -1;
  for (int i = 0; i < P->n; i++)
    if (!P->have[i] && (best < 0 || key[i] > key[best])) best = i;
  return best;
}

static void step_into(Descent *D, int c, Action a) {
  gs_apply(D->m->sc, D->w, a);
  if (c >= 0 && D->np < MAX_PATH) {
    D->t->nodes[c].avail++;
    D->path[D->np++] = c;
  }
  D->node = c;
}

/* the opponent's secret choice: made by the heuristic, seen as its class; 1 when the walk
 * stops (a new node, or the arena is full) */
static int descend_secret(Descent *D, const ActList *L, int d) {
  int i = heur_pick(D->m->ctx, D->w, L, D->r, D->m->o.seps);
  Action a = L->a[i];
  uint32_t key = gs_action_public(D->m->sc, D->w, a, D->me) ? ai_act_key(a) : AI_HIDDEN_KEY(a.t);
  int c = find_child(D->t, D->node, key), fresh = c < 0;
  if (fresh) c = add_child(D->t, D->node, key, d);
  step_into(D, c, a);
  return fresh || c < 0;
}

/* a choice by the tree: UCB with availability among the expanded children legal in this
 * world, or a new child (the prior's next) while the node may widen; 1 when the walk stops */
static int descend_select(Descent *D, const ActList *L, int d) {
  Tree *t = D->t;
  const MctsOpts *o = &D->m->o;
  Prior *P = D->prior;
  prior_build(D, L, d, P);
  int best = -1, besti = -1, navail = 0, nkids = 0;
  double bestv = -1e300;
  for (int c = t->nodes[D->node].child; c >= 0; c = t->nodes[c].next) {
    Node *x = &t->nodes[c];
    nkids++;
    int i = prior_find(P, x->key);
    if (i < 0) continue;
    P->have[i] = 1;
    navail++;
    x->avail++;
    double v = x->n ? x->w / x->n + o->c * sqrt(log((double)x->avail) / x->n) +
                          o->pb * prior_of(P, i) / (x->n + 1.0)
                    : 1e9;
    if (v > bestv) { bestv = v; best = c; besti = i; }
  }
  double width = 1.0 + o->pwc * pow((double)t->nodes[D->node].n, o->pwa);
  if (navail < width || best < 0) {
    int i = prior_next(D, L, P, nkids);
    if (i >= 0) {
      int c = add_child(t, D->node, P->key[i], d);
      step_into(D, c, L->a[i]);
      return 1;
    }
  }
  /* avail was counted above for every available child, the chosen one included */
  gs_apply(D->m->sc, D->w, L->a[besti]);
  if (D->np < MAX_PATH) D->path[D->np++] = best;
  D->node = best;
  return 0;
}

/* tmove: a movement step of w that the tree leaves to the rollout policy (no node): every
 * movement step at 2, at 1 those of every movement card but the root's own (root_card -1: the
 * root is not a movement decision) */
static int ruled_step(const MctsOpts *o, int root_turn, int root_card, const State *w) {
  return o->tmove && w->turn.phase == PH_MOVE &&
         !(o->tmove == 1 && w->turn.number == root_turn && w->play.card == root_card);
}

/* tmove: the movement card a decision of obs belongs to, -1 when obs is not a movement decision */
static int root_card_of(const State *obs) {
  return obs->turn.phase == PH_MOVE ? obs->play.card : -1;
}

/* tmove: the walk's rounds start counting at the root (obs) */
static void rounds_start(Descent *D, const State *obs) {
  D->rounds = 0;
  D->pa = obs->turn.active;
  D->pt = obs->turn.number;
}

/* tmove: w begins a round (counted as ai_rollout counts them) */
static void rounds_tick(Descent *D, const State *w) {
  if (w->turn.phase == PH_ROUND && (w->turn.active != D->pa || w->turn.number != D->pt)) {
    D->pa = w->turn.active;
    D->pt = w->turn.number;
    D->rounds++;
  }
}

/* down the tree until the game ends, a node is added or the path is full; forced moves (and,
 * with tmove, the movement steps ruled_step names, at most maxroll of them) are played
 * without a node.  With tmove the horizon is `cut` rounds from the root, the tree's included:
 * a walk that reaches it stops (the tree below the root no longer makes the walks longer) */
static void descend_from(Descent *D) {
  const Scen *sc = D->m->sc;
  const MctsOpts *o = &D->m->o;
  State *w = D->w;
  ActList L;
  int ruled = 0;
  while (!gs_over(w) && D->np < MAX_PATH) {
    if (o->tmove) {
      rounds_tick(D, w);
      if (o->cut > 0 && D->rounds >= o->cut) break;
    }
    gs_legal(sc, w, &L);
    if (L.n <= 0) break;
    if (L.n == 1) { gs_apply(sc, w, L.a[0]); continue; }
    if (ruled_step(o, D->root_turn, D->root_card, w) && ruled++ < o->max_roll) {
      gs_apply(sc, w, L.a[ai_roll_pick(D->m->ctx, w, &L, D->r, o->rollout, o->eps)]);
      continue;
    }
    int d = w->turn.decider;
    int stop = (d != D->me && phase_def(w->turn.phase)->secret) ? descend_secret(D, &L, d)
                                                                : descend_select(D, &L, d);
    if (stop) break;
  }
}

static void descend(Descent *D) {
  D->node = D->t->root;
  D->np = 0;
  D->path[D->np++] = D->node;
  descend_from(D);
}

static void back_up(Tree *t, const int *path, int np, double v) {
  for (int i = 0; i < np; i++) {
    Node *x = &t->nodes[path[i]];
    x->n++;
    x->w += (float)(x->who == FRENCH ? v : 1.0 - v);
  }
}

/* the value of the world D->w as the walk left it: the result, or a rollout (with tmove, of the
 * rounds left of the horizon counted from the root; none left: the evaluation) */
static double leaf_value(const Descent *D) {
  const Mcts *m = D->m;
  State *w = D->w;
  int cut = m->o.cut;
  if (m->o.tmove && cut > 0) {
    if (D->rounds >= cut && !gs_over(w)) return ai_eval_cut(m->ctx, w);
    cut -= D->rounds;
  }
  return gs_over(w) ? ai_eval_french(m->ctx, w)
                    : ai_rollout(m->sc, m->ctx, w, D->r, m->o.rollout, m->o.eps, cut, m->o.max_roll);
}

/* the UCB root: every iteration a new world, down the tree from the root */
static void run_ucb(Descent *D, const State *obs, long iters, double deadline) {
  Mcts *m = D->m;
  for (long it = 0; it < iters; it++) {
    if (deadline > 0 && omp_get_wtime() > deadline) break;
    if (m->o.cheat) *D->w = *obs;
    else gs_determinize(m->sc, obs, D->me, D->r, D->w);
    rounds_start(D, obs);
    descend(D);
    back_up(D->t, D->path, D->np, leaf_value(D));
    D->t->iters++;
  }
}

/* the observation the searcher expects next: o2 (a copy of its observation) given a stream of
 * its own: the observation has none, and chance that shows makes the next observation differ */
static void expect_start(const Mcts *m, State *o2) { rng_seed(&o2->rng, m->seed, 0x2e05eULL); }

/* a played on o2, then the forced actions after it; 1 and *h the hash of me's observation when
 * me decides next, 0 when the game ends or the other side decides */
static int expect_after(const Mcts *m, State *o2, Action a, int me, uint64_t *h) {
  ActList L;
  gs_apply(m->sc, o2, a);
  while (!gs_over(o2) && gs_legal(m->sc, o2, &L) == 1) gs_apply(m->sc, o2, L.a[0]);
  if (gs_over(o2) || o2->turn.decider != me) return 0;
  State seen;
  gs_observe(m->sc, o2, me, &seen);
  *h = ai_hash_bytes(&seen, sizeof seen, m->seed ^ 0x9e3779b97f4a7c15ULL);
  return 1;
}

/* ---------------------------------------------------------------- destination moves (dest) */
/* With `dest`, a movement decision of the searcher is searched at the grain a player thinks
 * in: the root's candidates are whole moves of one unit (every square and facing it can reach,
 * engine/reach.c, by the least MP; and the moves the heuristic and the light rule would make
 * with it, step by step) besides the decision's other actions (end the card, the leader).
 * Their prior order interleaves three lists: the heuristic's (other actions, and each unit's
 * heuristic move, by the score of its first step), the light rule's (the same by the light
 * rule), and every destination by the evaluation of the position it leaves.  The chosen move's
 * first step is played; its later ones follow without a search while each observation is the
 * one expected. */
#define MAC_POOL 2048
#define MAC_TAG 0xFEu
typedef struct Macros {
  int n;                               /* candidates, in the prior's order */
  uint32_t key[MAX_ACTIONS];
  uint8_t len[MAX_ACTIONS];
  Action path[MAX_ACTIONS][REACH_PATH];
  /* the pool the three lists are drawn from */
  int np;
  uint32_t pkey[MAC_POOL];
  uint8_t plen[MAC_POOL], plist[MAC_POOL];
  float psc[MAC_POOL];
  Action ppath[MAC_POOL][REACH_PATH];
  int ord[MAC_POOL];                   /* the pool by list, each by score */
  /* scratch of mac_build */
  Reach reach;
  ActList T;
  float hs[MAX_ACTIONS], ls[MAX_ACTIONS], sc[MAX_ACTIONS];
} Macros;

/* the key of a move: the unit and where it ends (not an action key: MAC_TAG is no action type) */
static uint32_t mac_key(int u, const State *x) {
  int f = (int)(x->units.flag[u] & UF_FACING);
  return (MAC_TAG << 24) | ((uint32_t)u << 16) | ((uint32_t)x->units.sq[u] << 8) | (uint32_t)f;
}

/* the steps p[0..n) played on x while they stay the decider's movement; how many were */
static int mac_play(const Scen *sc, State *x, const Action *p, int n) {
  int me = x->turn.decider, i = 0;
  for (; i < n; i++) {
    if (i > 0 && (x->turn.phase != PH_MOVE || x->turn.decider != me)) break;
    gs_apply(sc, x, p[i]);
  }
  return i;
}

static void mac_pool_add(Macros *M, int list, uint32_t key, const Action *p, int n, float sc) {
  if (M->np >= MAC_POOL || n < 1) return;
  int i = M->np++;
  M->pkey[i] = key;
  M->plen[i] = (uint8_t)n;
  M->plist[i] = (uint8_t)list;
  M->psc[i] = sc;
  memcpy(M->ppath[i], p, (size_t)n * sizeof *p);
}

/* the move a policy would make with unit u: its best action of u, then while the policy's best
 * action is still one of u's; the first step's score in *first; the steps */
static int mac_greedy(const Mcts *m, const State *obs, int u, AiScoreFn fn, Action *p,
                      float *first, ActList *L, float *sc) {
  State x = *obs;
  int n = 0, me = obs->turn.decider;
  while (n < REACH_PATH && !gs_over(&x) && x.turn.phase == PH_MOVE && x.turn.decider == me) {
    gs_legal(m->sc, &x, L);
    fn(m->ctx, &x, L, sc);
    int best = -1;
    for (int i = 0; i < L->n; i++)
      if ((n > 0 || action_mover(L->a[i]) == u) && (best < 0 || sc[i] > sc[best])) best = i;
    if (best < 0 || action_mover(L->a[best]) != u) break;
    if (n == 0) *first = sc[best];
    p[n++] = L->a[best];
    gs_apply(m->sc, &x, L->a[best]);
  }
  return n;
}

/* the root's candidates of a movement decision by destination, in the prior's order; how many */
static int mac_build(Mcts *m, const State *obs, const ActList *L) {
  if (!m->mac && !(m->mac = malloc(sizeof *m->mac))) return 0;
  Macros *M = m->mac;
  M->np = M->n = 0;
  int me = obs->turn.decider;
  heur_score_all(m->ctx, obs, L, M->hs);
  light_score_all(m->ctx, obs, L, M->ls);
  uint8_t seen[MAX_UNITS] = {0};
  for (int i = 0; i < L->n; i++) {
    Action a = L->a[i];
    int u = action_mover(a);
    if (u == UNIT_NONE) { /* not a unit's move: in both policies' lists as it is */
      mac_pool_add(M, 0, ai_act_key(a), &a, 1, M->hs[i]);
      mac_pool_add(M, 1, ai_act_key(a), &a, 1, M->ls[i]);
      continue;
    }
    if (seen[u]) continue;
    seen[u] = 1;
    Action p[REACH_PATH];
    float first = 0;
    for (int list = 0; list < 2; list++) {
      int n = mac_greedy(m, obs, u, list ? light_score_all : heur_score_all, p, &first, &M->T,
                         M->sc);
      State x = *obs;
      n = mac_play(m->sc, &x, p, n);
      mac_pool_add(M, list, mac_key(u, &x), p, n, first);
    }
    gs_reach(m->sc, obs, u, &M->reach);
    for (int q = 0; q < NSQ; q++)
      for (int f = 0; f < 4; f++) {
        int n = M->reach.npath[q][f];
        if (!n) continue;
        State x = *obs;
        n = mac_play(m->sc, &x, M->reach.path[q][f], n);
        double v = ai_eval_cut(m->ctx, &x);
        mac_pool_add(M, 2, mac_key(u, &x), M->reach.path[q][f], n,
                     (float)(me == FRENCH ? v : 1.0 - v));
      }
  }
  /* each list by its scores (stable), then the three interleaved; a key seen already is left */
  int *ord = M->ord, cnt[3] = {0, 0, 0}, at[3] = {0, 0, 0};
  for (int i = 0; i < M->np; i++) cnt[M->plist[i]]++;
  int start[3] = {0, cnt[0], cnt[0] + cnt[1]}, fill[3] = {start[0], start[1], start[2]};
  for (int i = 0; i < M->np; i++) {
    int l = M->plist[i], j = fill[l]++;
    while (j > start[l] && M->psc[ord[j - 1]] < M->psc[i]) { ord[j] = ord[j - 1]; j--; }
    ord[j] = i;
  }
  for (int l = 0, left = M->np; left > 0 && M->n < MAX_ACTIONS; l = (l + 1) % 3) {
    if (at[l] >= cnt[l]) continue;
    int i = ord[start[l] + at[l]++];
    left--;
    int dup = 0;
    for (int j = 0; j < M->n && !dup; j++) dup = M->key[j] == M->pkey[i];
    if (dup) continue;
    int j = M->n++;
    M->key[j] = M->pkey[i];
    M->len[j] = M->plen[i];
    memcpy(M->path[j], M->ppath[i], (size_t)M->plen[i] * sizeof(Action));
  }
  return M->n;
}

/* a root candidate's actions: a move's steps, or the one legal action */
static int cand_seq(const Mcts *m, const ActList *L, int i, const Action **seq) {
  if (m->mac_on) {
    *seq = m->mac->path[i];
    return m->mac->len[i];
  }
  *seq = &L->a[i];
  return 1;
}

/* the chosen move's later steps, each with the observation expected before it (after the step
 * before and the forced actions after it, as plan_reuse) */
static void mac_plan(Mcts *m, const State *obs, int me, const Action *p, int n) {
  State o2 = *obs;
  uint64_t h;
  m->plan_n = m->plan_i = 0;
  expect_start(m, &o2);
  for (int i = 0; i + 1 < n && expect_after(m, &o2, p[i], me, &h) && o2.turn.phase == PH_MOVE;
       i++) {
    m->plan[m->plan_n] = p[i + 1];
    m->plan_h[m->plan_n++] = h;
  }
}

/* the root's statistics by first step: a move's entry becomes its first step's, the most
 * visited move of each first step kept (the statistics are sorted by visits) */
static void mac_roots_to_steps(Mcts *m) {
  int n = 0;
  for (int i = 0; i < m->nroot; i++) {
    uint32_t key = m->root[i].key;
    for (int j = 0; j < m->mac->n; j++)
      if (m->mac->key[j] == key) { key = ai_act_key(m->mac->path[j][0]); break; }
    int dup = 0;
    for (int j = 0; j < n && !dup; j++) dup = m->root[j].key == key;
    if (dup) continue;
    m->root[n] = m->root[i];
    m->root[n++].key = key;
  }
  m->nroot = n;
}

/* how many candidates the halving root compares on this budget: 8 + rk * sqrt(budget); or
 * (rmin > 0) the most that still give each candidate rmin walks in the first round, where
 * ceil(log2 k) rounds share the budget equally - at least 8.  Either grows without bound with
 * the budget: given time, every legal action is tried. */
static int root_count(const MctsOpts *o, long budget) {
  if (o->rmin <= 0) return 8 + (int)(sqrt((double)budget) * o->rk);
  int k = 8;
  for (; k < MAX_ACTIONS; k++) {
    int r = 0;
    while ((1 << r) < k + 1) r++;
    if (budget / ((long)r * (k + 1)) < o->rmin) break;
  }
  return k;
}

/* the root's candidates: the prior's best k (root_count; heuristic and, in the movement phase,
 * light rule interleaved), every legal action when the budget allows; their children made; the
 * number */
static int root_candidates(Descent *D, const State *obs, const ActList *L, long budget,
                           int *cand, int *child) {
  Prior *P = D->prior;
  *D->w = *obs;
  int k = root_count(&D->m->o, budget), n = 0;
  if (D->m->o.even) k += k & 1;
  Tree *t = D->t;
  if (D->m->mac_on) { /* the moves, in the order mac_build gave them */
    const Macros *M = D->m->mac;
    for (; n < k && n < M->n; n++) {
      int c = find_child(t, t->root, M->key[n]);
      if (c < 0) c = add_child(t, t->root, M->key[n], D->me);
      if (c < 0) break;
      cand[n] = n;
      child[n] = c;
    }
    return n;
  }
  prior_build(D, L, D->me, P);
  for (int kids = 0; n < k; kids++) {
    int i = prior_next(D, L, P, kids);
    if (i < 0) break;
    P->have[i] = 1;
    int c = find_child(t, t->root, P->key[i]);
    if (c < 0) c = add_child(t, t->root, P->key[i], D->me);
    if (c < 0) break;
    cand[n] = i;
    child[n++] = c;
  }
  return n;
}

/* the walks of one candidate in one round of the halving root: `per` worlds, world j the
 * (wbase + j + 1)-th of the tree's sequence, the same worlds and random numbers below for every
 * candidate (common random numbers).  They touch only the candidate's own subtree, so the
 * candidates of a round run in parallel and the result does not depend on the threads.  The
 * walks done (fewer at the deadline); *vroot: the root's reward summed */
static long cand_walks(Descent *D, const State *obs, const Action *seq, int ns, int node,
                       long per, uint64_t seed, long wbase, double deadline, double *vroot) {
  Mcts *m = D->m;
  Tree *t = D->t;
  Rng *keep = D->r;
  long done = 0;
  for (long j = 0; j < per; j++) {
    if (deadline > 0 && omp_get_wtime() > deadline) break;
    uint64_t ws = seed + 0x9e3779b97f4a7c15ULL * (uint64_t)(wbase + j + 1);
    Rng wr, r2;
    rng_seed(&wr, ws, 0xd37ULL);
    rng_seed(&r2, ws, 0x7011ULL);
    if (m->o.cheat) *D->w = *obs;
    else gs_determinize(m->sc, obs, D->me, &wr, D->w);
    D->r = &r2;
    rounds_start(D, obs);
    mac_play(m->sc, D->w, seq, ns);
    t->nodes[node].avail++;
    D->np = 0;
    D->path[D->np++] = node;
    D->node = node;
    descend_from(D);
    double v = leaf_value(D);
    back_up(t, D->path, D->np, v);
    *vroot += t->nodes[t->root].who == FRENCH ? v : 1.0 - v;
    done++;
  }
  D->r = keep;
  return done;
}

/* a thread's walk, random numbers and world (the walk points at them) */
typedef struct {
  Descent D;
  Rng r;
  State w;
} __attribute__((aligned(64))) Walker;

/* the bench's load-independent view of 2 threads on a fixed budget: a round's candidates
 * (their walk CPU times, in order) dealt to two threads as the dynamic schedule deals them,
 * each to the thread free first; the round's work and its span on two threads added up */
static void round_balance(Mcts *m, const double *cpu, int items) {
  double load[2] = {0, 0};
  for (int i = 0; i < items; i++) {
    load[load[1] < load[0]] += cpu[i];
    m->bal_work += cpu[i];
  }
  m->bal_span += load[0] > load[1] ? load[0] : load[1];
}

/* one round of the halving root: every alive candidate of every tree walks `per` worlds (in
 * parallel, a thread a candidate at a time); the root's visits and the trees' counts added
 * after, in a fixed order; 1 when the deadline stopped it */
static int sh_round(Mcts *m, Walker *wk, int threads, const State *obs, const ActList *L,
                    const int *cand, int *const *child, const int *alive, int na, long per,
                    const uint64_t *seed, double deadline) {
  int T = m->o.trees, items = T * na, stop = 0;
  long *done = calloc((size_t)items, sizeof *done);
  double *vr = calloc((size_t)items, sizeof *vr), *cpu = calloc((size_t)items, sizeof *cpu);
  if (!done || !vr || !cpu) { free(done); free(vr); free(cpu); return 1; }
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(| : stop)
  for (int i = 0; i < items; i++) {
    int k = i / na, c = alive[i % na];
    Descent *D = &wk[omp_get_thread_num()].D;
    D->t = &m->trees[k];
    double t0 = clock_thread_cpu();
    const Action *seq;
    int ns = cand_seq(m, L, cand[c], &seq);
    done[i] = cand_walks(D, obs, seq, ns, child[k][c], per, seed[k], m->trees[k].worlds,
                         deadline, &vr[i]);
    cpu[i] = clock_thread_cpu() - t0;
    stop |= done[i] < per;
  }
  round_balance(m, cpu, items);
  free(cpu);
  for (int i = 0; i < items; i++) {
    Tree *t = &m->trees[i / na];
    if (t->used > t->cap) t->used = t->cap;
    t->nodes[t->root].n += (uint32_t)done[i];
    t->nodes[t->root].w += (float)vr[i];
    t->iters += done[i];
  }
  for (int k = 0; k < T; k++) m->trees[k].worlds += per;
  free(done);
  free(vr);
  return stop;
}

/* a candidate's mean value over every tree (the trees play other worlds: one estimate) */
static double merged_mean(const Mcts *m, int *const *child, int c) {
  double w = 0, n = 0;
  for (int k = 0; k < m->o.trees; k++) {
    const Node *x = &m->trees[k].nodes[child[k][c]];
    w += x->w;
    n += x->n;
  }
  return n > 0 ? w / n : 0;
}

/* the candidates' nodes in every tree after the first (which chose them) */
static int candidates_everywhere(Mcts *m, int *const *child, int na, int me) {
  for (int k = 1; k < m->o.trees; k++)
    for (int c = 0; c < na; c++) {
      Tree *t = &m->trees[k];
      uint32_t key = m->trees[0].nodes[child[0][c]].key;
      int x = find_child(t, t->root, key);
      if (x < 0) x = add_child(t, t->root, key, me);
      if (x < 0) return -1;
      child[k][c] = x;
    }
  return 0;
}

/* the halving root (Pepels et al. 2014, hybrid MCTS): sequential halving over the root's
 * candidates, each round on common worlds and random numbers, the tree below each candidate
 * grown by the walks; the better half by mean value goes on.  The candidates of a round walk
 * in parallel (their subtrees are apart).  With several trees (root parallel) every tree plays
 * each round on worlds of its own and the halving is decided on the means over all trees.  The
 * survivor's candidate index */
static int run_sh(Mcts *m, Walker *wk, int threads, const State *obs, const ActList *L,
                  long iters, int *const *child, const uint64_t *seed, double deadline) {
  int T = m->o.trees;
  int cand[MAX_ACTIONS], alive[MAX_ACTIONS];
  wk[0].D.t = &m->trees[0];
  int na = root_candidates(&wk[0].D, obs, L, iters, cand, child[0]);
  if (na < 1 || candidates_everywhere(m, child, na, wk[0].D.me) < 0) return -1;
  for (int i = 0; i < na; i++) alive[i] = i;
  int rounds = 0;
  while ((1 << rounds) < na) rounds++;
  long used = 0;
  for (int rd = 0; rd < rounds && na > 1; rd++) {
    long per = (iters - used) / (rounds - rd) / na;
    if (per < 1) per = 1;
    long perk = (per + T - 1) / T;
    int stop = sh_round(m, wk, threads, obs, L, cand, child, alive, na, perk, seed, deadline);
    used += perk * T * na;
    for (int a = 1; a < na; a++) { /* by mean, stable: the prior's order breaks ties */
      int x = alive[a], b = a - 1;
      double vx = merged_mean(m, child, x);
      while (b >= 0 && merged_mean(m, child, alive[b]) < vx) {
        alive[b + 1] = alive[b];
        b--;
      }
      alive[b + 1] = x;
    }
    if (stop) break;
    na = (na + 1) / 2;
    if (m->o.even && na > 2 && (na & 1)) na++; /* o.even: 3 survivors become 4 */
  }
  return alive[0];
}

/* the walks of a search: the halving root (1, *pick: the survivor's key) or the UCB root in
 * each tree apart (0); -1 when out of memory.  Walker k serves thread k (halving) or tree k */
static int run_trees(Mcts *m, const State *obs, int me, const ActList *L, uint64_t h, long total,
                     double deadline, uint32_t *pick) {
  int T = m->o.trees, nw = T > m->o.threads ? T : m->o.threads, ret = -1;
  Walker *wk = aligned_alloc(64, (size_t)nw * sizeof *wk);
  uint64_t *seed = calloc((size_t)T, sizeof *seed);
  int *cbuf = calloc((size_t)T * MAX_ACTIONS, sizeof *cbuf);
  int **child = calloc((size_t)T, sizeof *child);
  int ok = wk && seed && cbuf && child;
  if (wk) memset(wk, 0, (size_t)nw * sizeof *wk);
  for (int k = 0; ok && k < T; k++) {
    seed[k] = h + 0x1000193ULL * (uint64_t)(k + 1);
    child[k] = cbuf + (size_t)k * MAX_ACTIONS;
    m->trees[k].iters = m->trees[k].worlds = 0;
  }
  for (int k = 0; ok && k < nw; k++) {
    int tk = k < T ? k : 0;
    rng_seed(&wk[k].r, seed[tk], 0x15c75ULL);
    wk[k].D = (Descent){.m = m, .t = &m->trees[tk], .r = &wk[k].r, .w = &wk[k].w, .me = me,
                        .root_turn = obs->turn.number,
                        .root_card = root_card_of(obs)};
    ok = (wk[k].D.prior = calloc(1, sizeof(Prior))) != NULL;
  }
  if (ok && m->o.root == ROOT_SH) {
    int c = run_sh(m, wk, m->o.threads, obs, L, total, child, seed, deadline);
    if (c >= 0) *pick = m->trees[0].nodes[child[0][c]].key, ret = 1;
  } else if (ok) {
    long per = (total + T - 1) / T;
    int threads = m->o.threads < T ? m->o.threads : T;
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int k = 0; k < T; k++) run_ucb(&wk[k].D, obs, per, deadline);
    ret = 0;
  }
  for (int k = 0; wk && k < nw; k++) free(wk[k].D.prior);
  free(wk);
  free(seed);
  free(cbuf);
  free(child);
  return ret;
}

/* the tree a search starts from: the subtree kept from the last decision when this is the
 * observation it expected, else a fresh root; -1 when out of memory */
static int tree_start(Mcts *m, Tree *t, uint64_t h, int me, long per) {
  if (m->o.reuse && t->next_h == h && t->next_root >= 0 && arena_room(m, t, per) == 0) {
    t->root = t->next_root;
    t->next_h = 0;
    return 0;
  }
  t->next_h = 0;
  t->used = 0;
  if (arena_room(m, t, per) < 0) return -1;
  t->root = new_node(t, 0, me ^ 1);
  return t->root < 0 ? -1 : 0;
}

/* ---------------------------------------------------------------- a decision */
/* the root's statistics when no search ran: one action, `visits` walks at an even score (1 for
 * the only legal action; 0 for a later step of a whole move already searched: analyze and the
 * reason say so) */
static void root_single(Mcts *m, Action a, int visits) {
  m->root[0] = (RootStat){ai_act_key(a), visits, 0.5 * visits};
  m->nroot = 1;
}

static int root_cmp(const void *pa, const void *pb) {
  const RootStat *a = pa, *b = pb;
  if (a->visits != b->visits) return a->visits < b->visits ? 1 : -1;
  return a->key < b->key ? -1 : a->key > b->key;
}

/* the root statistics of every tree summed, by visits (then key); the iterations */
static long merge_roots(Mcts *m) {
  long iters = 0;
  m->nroot = 0;
  for (int k = 0; k < m->o.trees; k++) {
    const Tree *t = &m->trees[k];
    iters += t->iters;
    for (int c = t->nodes[t->root].child; c >= 0; c = t->nodes[c].next) {
      const Node *x = &t->nodes[c];
      int j = 0;
      while (j < m->nroot && m->root[j].key != x->key) j++;
      if (j == m->nroot) {
        if (m->nroot >= MAX_ACTIONS) continue;
        m->root[m->nroot++] = (RootStat){x->key, 0, 0};
      }
      m->root[j].visits += (int)x->n;
      m->root[j].wins += x->w;
    }
  }
  qsort(m->root, (size_t)m->nroot, sizeof *m->root, root_cmp);
  return iters;
}

/* the most visited root action legal in the position */
static Action pick_root(const Mcts *m, const ActList *L) {
  for (int i = 0; i < m->nroot; i++)
    for (int j = 0; j < L->n; j++)
      if (ai_act_key(L->a[j]) == m->root[i].key) return L->a[j];
  return L->a[0];
}

/* reuse: the observation expected after a when the same side decides next without anything
 * it could not foresee; its subtree becomes the next root of each tree */
static void plan_reuse(Mcts *m, const State *obs, int me, Action a) {
  State o2 = *obs;
  uint64_t h;
  expect_start(m, &o2);
  if (!expect_after(m, &o2, a, me, &h)) return;
  /* tmove: a movement step the tree left to the rollout policy has no nodes to reuse */
  if (ruled_step(&m->o, obs->turn.number, root_card_of(obs), &o2)) return;
  for (int k = 0; k < m->o.trees; k++) {
    Tree *t = &m->trees[k];
    t->next_root = find_child(t, t->root, ai_act_key(a));
    t->next_h = t->next_root >= 0 ? h : 0;
  }
}

/* the share of a full decision's budget a decision of this phase gets */
static double phase_share(const MctsOpts *o, int phase) {
  return phase == PH_MOVE ? o->mscale : ai_small_phase(phase) ? o->sscale : o->fscale;
}

/* the halving's survivor made the most visited root action (the choice): one more visit than
 * any other over all trees, added to its node in the first tree at its mean */
static void promote(Mcts *m, uint32_t key) {
  int j = -1, most = -1;
  for (int i = 0; i < m->nroot; i++)
    if (m->root[i].key == key) j = i;
    else if (m->root[i].visits > most) most = m->root[i].visits;
  Tree *t = &m->trees[0];
  int c = find_child(t, t->root, key);
  if (j < 0 || c < 0 || m->root[j].visits > most) return;
  Node *b = &t->nodes[c];
  uint32_t add = (uint32_t)(most + 1 - m->root[j].visits);
  b->w += (float)(b->n ? b->w / b->n : 0.5) * add;
  b->n += add;
  merge_roots(m);
}

static Action mcts_search(Mcts *m, const State *obs, int me, const ActList *L, uint64_t h,
                          int *iters_done) {
  double share = phase_share(&m->o, obs->turn.phase);
  m->mac_on = m->o.dest > 0 && m->o.root == ROOT_SH && obs->turn.phase == PH_MOVE &&
              mac_build(m, obs, L) > 1;
  if (m->mac_on) {
    share = m->o.dest;
    for (int k = 0; k < m->o.trees; k++) m->trees[k].next_h = 0; /* a fresh tree of moves */
  }
  long total = (long)(m->o.iters * share);
  if (total < 16) total = 16;
  int T = m->o.trees;
  long per = (total + T - 1) / T;
  double deadline = m->o.time_ms > 0 ? omp_get_wtime() + m->o.time_ms / 1000.0 : 0;
  uint32_t pick = 0;
  for (int k = 0; k < T; k++)
    if (tree_start(m, &m->trees[k], h, me, per) < 0) return L->a[0];
  int sh = run_trees(m, obs, me, L, h, total, deadline, &pick);
  if (sh < 0) return L->a[0];
  m->last_iters = merge_roots(m);
  if (sh) promote(m, pick);
  if (iters_done) *iters_done = (int)m->last_iters;
  m->last_h = h;
  m->have_last = 1;
  int move = -1; /* the chosen candidate when it is a unit's move (not another action) */
  if (m->mac_on) {
    if ((pick >> 24) == MAC_TAG)
      for (int j = 0; j < m->mac->n; j++)
        if (m->mac->key[j] == pick) move = j;
    mac_roots_to_steps(m);
  }
  Action a = move >= 0 ? m->mac->path[move][0] : pick_root(m, L);
  if (move >= 0) mac_plan(m, obs, me, m->mac->path[move], m->mac->len[move]);
  else if (m->o.reuse && !m->o.cheat) plan_reuse(m, obs, me, a);
  m->last_act = a;
  return a;
}

/* dest: the planned move's next step when this is the observation it expected; 0 when none */
static int plan_next(Mcts *m, const ActList *L, uint64_t h, Action *a) {
  if (m->plan_i >= m->plan_n || m->plan_h[m->plan_i] != h) {
    m->plan_n = m->plan_i = 0;
    return 0;
  }
  Action p = m->plan[m->plan_i++];
  for (int j = 0; j < L->n; j++)
    if (!memcmp(&L->a[j], &p, sizeof p)) {
      *a = p;
      return 1;
    }
  m->plan_n = m->plan_i = 0;
  return 0;
}

Action mcts_decide(Mcts *m, const State *s, int *iters_done) {
  const Scen *sc = m->sc;
  int me = s->turn.decider;
  ActList L;
  gs_legal(sc, s, &L);
  if (iters_done) *iters_done = 0;
  Action none = {0};
  if (L.n <= 0) return none;
  if (L.n == 1) {
    root_single(m, L.a[0], 1);
    return L.a[0];
  }
  State obs;
  if (m->o.cheat) obs = *s;
  else gs_observe(sc, s, me, &obs);
  uint64_t h = ai_hash_bytes(&obs, sizeof obs, m->seed ^ 0x9e3779b97f4a7c15ULL);
  if (m->have_last && m->last_h == h) {
    /* the same observation again (act, then analyze for the reason): the same search and
     * answer, also under a time cap (a second search would cost the cap again and might
     * differ from the move played) */
    if (iters_done) *iters_done = (int)m->last_iters;
    return m->last_act;
  }
  m->have_last = 0;
  Action a;
  if (plan_next(m, &L, h, &a)) {
    root_single(m, a, 0);
    m->last_iters = 0;
    m->last_h = h;
    m->have_last = 1;
    m->last_act = a;
    return a;
  }
  return mcts_search(m, &obs, me, &L, h, iters_done);
}
