/* Internal interface shared by the AI files (not part of the public player API). */
#ifndef WATERLOO_AI_INTERNAL_H
#define WATERLOO_AI_INTERNAL_H
#include <stdint.h>
#include "../engine/engine.h"
#include "fit.h"
#include "player.h"

#define AI_INF 250          /* unreachable distance */
#define AI_MAX_OBJ 8

/* the fitted evaluation's features (fit.c, FIT_NAMES), and those a weights file may leave out
 * after the first FIT_NF_REQUIRED (weight 0: files fitted before them play as before) */
#define FIT_NF 26
#define FIT_NF_REQUIRED 16

/* Static knowledge derived from the scenario (each player builds its own when it is made):
 * distance fields, card values.  Read-only after ai_ctx_init, so one context may be shared by
 * threads. */
typedef struct {
  const Scen *sc;
  int nobj;                         /* active victory squares                            */
  uint8_t obj_v[AI_MAX_OBJ];        /* V_* index                                         */
  uint8_t obj_sq[AI_MAX_OBJ];
  uint8_t dist[AI_MAX_OBJ][NSQ];    /* MP distance from a square to objective i          */
  uint8_t pr_dist[NSQ];             /* Prussian field: distance to the Plancenoit area   */
  uint8_t sq_obj[NSQ];              /* objective index + 1 on that square, 0 none        */
  float card_val[MAX_CARDS];        /* value of holding a card                           */
  float avg_bp[3];                  /* mean battle value of each army's deck             */
  float mean_val[3];                /* mean card_val of each army's deck                 */
  int use_fit;                      /* rollouts cut off are scored by the fitted evaluation */
  double fit_w[FIT_NF];             /* its weights (fit.c)                                  */
} AiCtx;

double ai_eval_french(const AiCtx *c, const State *s);
/* cards left in hand as a share of the turn's draw, French minus Allied (eval and fit) */
double ai_hand_share(const AiCtx *c, const State *s);

/* ---------------------------------------------------------------- fitted evaluation (fit.c) */
extern const char *const FIT_NAMES[FIT_NF];
uint64_t fit_fingerprint(const Scen *sc);
/* later 0: the features after the first FIT_NF_REQUIRED are left 0 (weights that do not use
 * them: the cut-off rollouts' hot path skips them) */
void fit_features(const AiCtx *c, const State *s, double *f, int later);
/* FIT_NF weights hashed from h: the required ones, and each later group only when one is not 0, so
 * that a file fitted before them keeps its fingerprint */
uint64_t fit_hash_weights(const double *w, uint64_t h);
double fit_eval(const double *w, const double *f);
/* (fit_path, the weights file of a scenario: fit.h) */
/* The fitted weights for sc.  own 0: those of the base rules of sc's scenario
 * (scenarios/eval-<scenario>.ini, checked against the base data), whatever sc's variants or
 * parameters, so that every cell of a run is scored by the same evaluation; own 1: sc's own
 * file (eval-<scenario>+<variant>.ini, checked against sc's data).  0 and the file's path in
 * why, or -1 and why not. */
int fit_load(const Scen *sc, int own, double *w, char *why, size_t wl);
/* a weights file named by a player's evalfile=NAME: NAME in the scenario folder
 * (scen_default_dir), checked against sc's own data (sc NULL: only read, for a spec's check) */
#define FIT_NAME_MAX 48
int fit_name_ok(const char *name);
int fit_load_named(const Scen *sc, const char *name, double *w, char *why, size_t wl);
/* a position of `train`: its features, the game's French result (1, 0.5, 0) and the hand-written
 * evaluation, the game it came from */
typedef struct { double f[FIT_NF]; float y, hand; int game; } FitSample;
/* Newton's method on the L2-regularised log-loss of fit_eval over n samples (penalty lambda * n,
 * the bias not penalised), each step's system solved by GSL's Cholesky decomposition (fit_train.c);
 * w gets FIT_NF weights.  0, or -1 when a step's system was not positive definite (w holds the
 * weights before it) */
int fit_logistic(const FitSample *S, long n, double lambda, double *w);
/* the evaluation a cut-off rollout uses: the fitted one when the context has it */
static inline double ai_eval_cut(const AiCtx *c, const State *s) {
  if (c->use_fit && !gs_over(s) && !s->score.result) {
    double f[FIT_NF];
    int later = 0;
    for (int i = FIT_NF_REQUIRED; i < FIT_NF; i++) later |= c->fit_w[i] != 0;
    fit_features(c, s, f, later);
    return fit_eval(c->fit_w, f);
  }
  return ai_eval_french(c, s);
}

void ai_ctx_init(AiCtx *c, const Scen *sc);

/* Evaluation: estimated probability that the French win, from a complete state (a sampled
 * world or the true state). */
double ai_eval_french(const AiCtx *c, const State *s);

/* Heuristic policy.  Scores every action of L (higher is better) into score[]; reads s (a
 * complete world for rollouts, or an observation for the heuristic player) and never looks at
 * the other side's secret battle commitments beyond their number. */
void heur_score_all(const AiCtx *c, const State *s, const ActList *L, float *score);
/* a policy's scores of every action of L (heur_score_all, light_score_all) */
typedef void (*AiScoreFn)(const AiCtx *c, const State *s, const ActList *L, float *score);
/* epsilon-greedy choice by score_all: with probability eps a uniform index into L, else the
 * best score, ties (within 1e-6) broken uniformly by r */
int ai_pick_scored(const AiCtx *c, const State *s, const ActList *L, Rng *r, double eps,
                   AiScoreFn score_all);
/* epsilon-greedy choice by the heuristic: index into L */
int heur_pick(const AiCtx *c, const State *s, const ActList *L, Rng *r, double eps);

/* Light policy (light.c): table look-ups in the movement phase, the heuristic elsewhere. */
void light_score_all(const AiCtx *c, const State *s, const ActList *L, float *score);
int light_pick(const AiCtx *c, const State *s, const ActList *L, Rng *r, double eps);
int ai_light_candidates(const AiCtx *ctx, const State *s, const ActList *L, int k, Rng *r,
                        int *idx);
/* the indices of the k largest of key[0..n) (k <= 0 or k > n: all n), largest first, by a
 * partial selection sort; returns k */
int ai_top_k(const float *key, int n, int k, int *idx);
enum { ROLL_RANDOM = 0, ROLL_HEUR = 1, ROLL_LIGHT = 2 };
/* a rollout of w by the policy (epsilon-greedy) to the end or `cut` rounds (0: the end);
 * returns the evaluation (the result when over) */
double ai_rollout(const Scen *sc, const AiCtx *ctx, State *w, Rng *r, int policy, double eps,
                  int cut, int max_roll);
/* the rollout policy's choice among L (more than one action): an index */
int ai_roll_pick(const AiCtx *ctx, const State *w, const ActList *L, Rng *r, int policy,
                 double eps);

typedef struct { int policy; double eps; int cut, max_roll; } RollCfg;
typedef struct { uint32_t key; int visits; double wins; } RootStat;
/* copies at most max of the n root statistics into out; how many */
int ai_root_copy(const RootStat *root, int n, RootStat *out, int max);
int ai_sh_search(const Scen *sc, const AiCtx *ctx, const State *obs, int me, const ActList *L,
                 const int *cand, int k, long n, uint64_t h, const RollCfg *rc, double early,
                 int cheat, RootStat *root, long *done);

/* helpers */
int ai_battle_mask(const Scen *sc, const State *s);
void ai_battle_now(const Scen *sc, const State *s, int *att, int *def);
static inline uint32_t ai_act_key(Action a) {
  return ((uint32_t)a.t << 24) | ((uint32_t)a.a << 16) | ((uint32_t)a.b << 8) | a.c;
}
static inline Action ai_key_act(uint32_t k) {
  Action a = {
      .t = (uint8_t)(k >> 24), .a = (uint8_t)(k >> 16), .b = (uint8_t)(k >> 8), .c = (uint8_t)k};
  return a;
}
#define AI_HIDDEN_KEY(t) (((uint32_t)(t) << 24) | 0xFFFFFFu)

uint64_t ai_hash_bytes(const void *p, size_t n, uint64_t h);

/* the small decisions (loss, advance, attacker loss, evasion, leader, second rally unit): the
 * searches give them a smaller share of a full decision's budget */
static inline int ai_small_phase(int ph) {
  return ph == PH_EVADE || ph == PH_LEADER || ph == PH_B_LOSS || ph == PH_B_ADVANCE ||
         ph == PH_B_ATTLOSS || ph == PH_RALLY2;
}

/* ---------------------------------------------------------------- the tree search (mcts.c) */
/* Every knob of the search in one struct (the `mcts` player's option table, ai/player.c). */
typedef struct {
  int iters;          /* iterations per full decision, all trees together                   */
  int trees;          /* root-parallel trees: results depend on it, not on threads          */
  int threads;        /* threads that run the trees (at most `trees` are used)              */
  int time_ms;        /* >0: wall-time cap per decision (not reproducible)                  */
  int play_ms;        /* the level's cap for interactive play (player_set_interactive)      */
  double c;           /* UCB exploration constant                                           */
  double pb;          /* progressive bias: weight of the prior / (n + 1)                    */
  double pwc, pwa;    /* progressive widening: 1 + pwc * n^pwa children                     */
  int root;           /* ROOT_SH: sequential halving at the root; ROOT_UCB: UCB as below     */
  double rk;          /* halving root: 8 + rk * sqrt(budget) candidates                      */
  int rmin;           /* > 0: instead, as many candidates as still get rmin walks each in the
                       * halving's first round (at least 8; 0: the rk rule)                  */
  int rollout;        /* ROLL_*                                                             */
  double eps;         /* random-move share of the rollout policy                            */
  double seps;        /* random share of the opponent's secret choices in the tree          */
  int even;           /* 1: the halving root's rounds have even candidate counts (2 threads
                       * share a round by candidates: an odd count idles one at the end)     */
  int cut;            /* rollout cut-off in rounds (0: play to the end)                     */
  int max_roll;       /* cap on rollout actions                                             */
  int eval;           /* cut-off rollouts scored by 0 the hand-written, 1 the fitted evaluation */
  char evalfile[FIT_NAME_MAX]; /* "" or a weights file in the scenario folder (evalfile=NAME) */
  double mscale, sscale; /* budget share of a movement step / of a small decision           */
  double fscale;      /* budget share of a full decision (1: iters; below 1 moves budget from
                       * the cards and battles to the movement steps at the same iters)      */
  int reuse;          /* 1: keep the chosen subtree for the same side's next decision        */
  double dest;        /* > 0: the searcher's own movement decided by destination (a unit's
                       * whole move, engine/reach.c) at this share of a full decision's
                       * budget, the move's later steps played without a search; 0: step by
                       * step at mscale                                                     */
  int tmove;          /* movement steps inside the tree (below the root) played by the rollout
                       * policy without a node: 0 none (every step a node); 1 those of every
                       * movement card but the root's own (the tree branches on the cards,
                       * battles, bids and the opponent's choices of later rounds); 2 all   */
  int mem_mb;         /* arena cap, all trees together                                      */
  int cheat;          /* search the true state (the labelled cheating player)               */
} MctsOpts;

enum { ROOT_SH = 0, ROOT_UCB = 1 };

typedef struct Mcts Mcts;
Mcts *mcts_new(const Scen *sc, const AiCtx *ctx, const MctsOpts *o, uint64_t seed);
void mcts_free(Mcts *m);
/* search the decision of s (honest unless o->cheat); returns the chosen action.  The root
 * statistics are kept for mcts_root. */
Action mcts_decide(Mcts *m, const State *s, int *iters_done);
int mcts_root(const Mcts *m, RootStat *out, int max);
/* forgets the last search and the kept subtrees (the bench searches one position again) */
void mcts_forget(Mcts *m);
/* the halving rounds since the last mcts_forget: their candidates' walk CPU over the time two
 * threads would take on it in the rounds' schedule — the speed-up 2 threads can reach on a fixed
 * budget, whatever the machine's load (0: no halving round) */
double mcts_balance(const Mcts *m);
/* the movement steps among the nodes of the last search's (first) tree below the root's
 * children: none with tmove=2, none below a root that is not a movement decision with
 * tmove=1 (tests) */
long mcts_move_nodes(const Mcts *m);
/* the level's cap in play when no time= was given; the cap in ms (0 none) */
int mcts_interactive(Mcts *m);
void mcts_default_opts(MctsOpts *o);
/* the options of a level (0 ok, -1 no such level) in the scenario named scen ("short",
 * "long"; NULL: the setting common to every scenario) */
int mcts_level_opts(const char *level, const char *scen, MctsOpts *o);

/* ---------------------------------------------------------------- the flat levels (halving.c) */
/* The levels of before the tree search (`flat:normal` ...): sequential halving over the
 * heuristic's best kh and the light rule's best kl actions. */
typedef struct {
  int iters;          /* playouts per full decision                                         */
  int rollout;
  double eps;
  int cut, max_roll;
  int kh, kl;         /* candidates from the heuristic and from the light rule              */
  double early;       /* stop halving when the leader is this far ahead (0 never)           */
  int eval;
  char evalfile[FIT_NAME_MAX];
  double mscale, sscale;
  int cheat;
} HalvOpts;
typedef struct Halving Halving;
void halving_default_opts(HalvOpts *o);
int halving_level_opts(const char *level, HalvOpts *o);
Halving *halving_new(const Scen *sc, const AiCtx *ctx, const HalvOpts *o, uint64_t seed);
void halving_free(Halving *f);
Action halving_decide(Halving *f, const State *s);
int halving_root(const Halving *f, RootStat *out, int max);

/* ---------------------------------------------------------------- flat Monte Carlo baseline */
typedef struct {
  int playouts;       /* per decision (sequential halving over the candidates)             */
  int k;              /* candidates kept by the light rule                                 */
  double eps;         /* epsilon of the rollout policy                                     */
  int cut;            /* rollout cut-off in rounds (0: to the end of the game)             */
  int max_roll;
  int rollout;        /* ROLL_*                                                            */
} FlatOpts;
typedef struct Flat Flat;
void flat_default_opts(FlatOpts *o);
Flat *flat_new(const Scen *sc, const AiCtx *ctx, const FlatOpts *o, uint64_t seed);
void flat_free(Flat *f);
Action flat_decide(Flat *f, const State *s);
int flat_root(const Flat *f, RootStat *out, int max);

#endif
