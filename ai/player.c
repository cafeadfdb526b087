/* Player API: one registry of player kinds.  Each kind has a name, a line of help, its levels,
 * and one option table (name, type, range, help, offset into its options struct) that drives
 * parsing, range checks, `waterloo players` and the canonical spec.  A spec is validated by
 * player_spec_check before any game starts; player_new then cannot fail on it.
 *
 * Spec grammar:  KIND[:TOKEN[,TOKEN...]]
 *   TOKEN = LEVEL[*K]   (first token only: a named level, K multiplies the kind's budget)
 *         | NAME=VALUE  (an option of the kind's table, strictly parsed and range checked) */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ai_internal.h"

/* ---------------------------------------------------------------- option tables */
typedef enum { OPT_INT, OPT_REAL, OPT_CHOICE, OPT_FILE } OptType;

typedef struct {
  const char *name;
  OptType type;
  size_t off;           /* offset of the int, double or (OPT_FILE) char[FIT_NAME_MAX] in the
                         * kind's options struct ("" when not given)                    */
  double lo, hi;        /* inclusive range                                                */
  const char *choices;  /* OPT_CHOICE: space-separated names, stored as their index (int) */
  const char *help;
  int quiet;            /* left out of the canonical text at 0 (an option added after reports
                         * whose journals name their players by that text)               */
} OptDef;

typedef struct {
  const char *name;
  const char *help;
  const char *levels;                 /* space-separated; "" when the kind has none        */
  const OptDef *opts;
  int nopts;
  const char *budget;                 /* option a *K multiplier scales; NULL: no budget    */
  size_t opts_size;
  /* the options of a spec without a level, and those of a level (0 ok; NULL when levels is
   * ""), in the scenario named scen ("short", "long"; NULL: every scenario's common setting) */
  void (*defaults)(void *opts, const char *scen);
  int (*level)(const char *name, const char *scen, void *opts);
  const char *probe;                  /* a cheap spec of this kind whose first decisions
                                       * fingerprint its code (player_spec_identity); NULL for
                                       * the rule players, which play_fingerprint covers.  Its
                                       * options are pinned where a level has moved since the
                                       * journals were keyed by it (sim's dest in the short
                                       * game, stop 41), so that a level's new setting changes
                                       * that level's identity, not every player's of its kind */
  /* behaviour: make (NULL: nothing to make; -1 out of memory; -2 its evalfile cannot be used,
   * eval_desc says why), choose, search statistics for
   * analyze (NULL: the choice alone with the evaluation), free */
  int (*init)(Player *p, const void *opts, uint64_t seed);
  Action (*act)(Player *p, const State *s);
  int (*root)(Player *p, const State *s, RootStat *out, int max);
  void (*fini)(Player *p);
} KindDef;

/* caps: generous for any real use, small enough that nothing overflows or runs for days */
#define MAX_ITERS 10000000
#define MAX_TIME_MS 3600000
#define MAX_MULT 1000

#define EVALFILE_HELP "instead of eval: the weights in this file of the scenario folder (written by train --out)"
#define MO(f) offsetof(MctsOpts, f)
static const OptDef MCTS_OPTS[] = {
    {"iters", OPT_INT, MO(iters), 1, MAX_ITERS, NULL, "iterations per full decision (all trees)", 0},
    {"trees", OPT_INT, MO(trees), 1, 64, NULL, "root-parallel trees (the result depends on it)", 0},
    {"threads", OPT_INT, MO(threads), 1, 64, NULL, "threads running one search (not the result)", 0},
    {"time", OPT_INT, MO(time_ms), 0, MAX_TIME_MS, NULL, "wall-time cap per decision in ms (0 none)", 0},
    {"playtime", OPT_INT, MO(play_ms), 0, MAX_TIME_MS, NULL, "the cap in interactive play (ms)", 0},
    {"c", OPT_REAL, MO(c), 0, 100, NULL, "UCB exploration constant", 0},
    {"pb", OPT_REAL, MO(pb), 0, 100, NULL, "progressive bias weight of the prior", 0},
    {"pwc", OPT_REAL, MO(pwc), 0, 1000, NULL, "progressive widening: 1 + pwc * n^pwa children", 0},
    {"pwa", OPT_REAL, MO(pwa), 0, 1, NULL, "progressive widening exponent", 0},
    {"root", OPT_CHOICE, MO(root), 0, 1, "halving ucb", "root: sequential halving on common worlds, or UCB", 0},
    {"rk", OPT_REAL, MO(rk), 0, 100, NULL, "halving root: 8 + rk * sqrt(budget) candidates", 0},
    {"rmin", OPT_INT, MO(rmin), 0, MAX_ITERS, NULL, "halving root: candidates while each gets rmin first-round walks (0: rk)", 0},
    {"rollout", OPT_CHOICE, MO(rollout), 0, 2, "random heuristic light", "rollout policy", 0},
    {"eps", OPT_REAL, MO(eps), 0, 1, NULL, "random-move share of the rollout policy", 0},
    {"seps", OPT_REAL, MO(seps), 0, 1, NULL, "random share of the opponent's secret choices in the tree", 0},
    {"even", OPT_INT, MO(even), 0, 1, NULL, "1: even candidate counts in the halving rounds (2 threads)", 0},
    {"cut", OPT_INT, MO(cut), 0, 1000, NULL, "rollout cut-off in rounds (0 to the end)", 0},
    {"maxroll", OPT_INT, MO(max_roll), 1, 1000000, NULL, "cap on rollout actions", 0},
    {"eval", OPT_CHOICE, MO(eval), 0, 2, "hand fit own", "cut-off rollouts scored by (fit: the base rules' eval-S.ini in every variant; own: the variant's)", 0},
    {"evalfile", OPT_FILE, MO(evalfile), 0, 0, NULL, EVALFILE_HELP, 0},
    {"mscale", OPT_REAL, MO(mscale), 0, 1, NULL, "budget share of a movement step", 0},
    {"sscale", OPT_REAL, MO(sscale), 0, 1, NULL, "budget share of a small decision", 0},
    {"fscale", OPT_REAL, MO(fscale), 0, 1, NULL, "budget share of a full decision (card, battle, bid, battle card)", 0},
    {"reuse", OPT_INT, MO(reuse), 0, 1, NULL, "1: keep the subtree for the same side's next decision", 0},
    {"dest", OPT_REAL, MO(dest), 0, 1, NULL, "> 0: own movement searched by destination, at this budget share (0: by steps)", 1},
    {"tmove", OPT_INT, MO(tmove), 0, 2, NULL, "movement steps below the root by the rollout policy, no node: 0 none, 1 but the root card's, 2 all", 1},
    {"mem", OPT_INT, MO(mem_mb), 1, 4096, NULL, "tree memory in MB (all trees)", 0},
};
#undef MO

#define HO(f) offsetof(HalvOpts, f)
static const OptDef HALV_OPTS[] = {
    {"iters", OPT_INT, HO(iters), 1, MAX_ITERS, NULL, "playouts per full decision", 0},
    {"kh", OPT_INT, HO(kh), 0, MAX_ACTIONS, NULL, "candidates from the heuristic", 0},
    {"kl", OPT_INT, HO(kl), 0, MAX_ACTIONS, NULL, "candidates from the light rule", 0},
    {"rollout", OPT_CHOICE, HO(rollout), 0, 2, "random heuristic light", "rollout policy", 0},
    {"eps", OPT_REAL, HO(eps), 0, 1, NULL, "random-move share of the rollout policy", 0},
    {"cut", OPT_INT, HO(cut), 0, 1000, NULL, "rollout cut-off in rounds (0 to the end)", 0},
    {"maxroll", OPT_INT, HO(max_roll), 1, 1000000, NULL, "cap on rollout actions", 0},
    {"eval", OPT_CHOICE, HO(eval), 0, 2, "hand fit own", "cut-off rollouts scored by (fit: the base rules' eval-S.ini in every variant; own: the variant's)", 0},
    {"evalfile", OPT_FILE, HO(evalfile), 0, 0, NULL, EVALFILE_HELP, 0},
    {"mscale", OPT_REAL, HO(mscale), 0, 1, NULL, "budget share of a movement step (0: heuristic)", 0},
    {"sscale", OPT_REAL, HO(sscale), 0, 1, NULL, "budget share of a small decision (0: heuristic)", 0},
    {"early", OPT_REAL, HO(early), 0, 1, NULL, "stop halving when the leader is this far ahead", 0},
};
#undef HO

typedef struct { double eps; } HeurOpts;
static const OptDef HEUR_OPTS[] = {
    {"eps", OPT_REAL, offsetof(HeurOpts, eps), 0, 1, NULL, "share of uniformly random moves", 0},
};

#define FO(f) offsetof(FlatOpts, f)
static const OptDef FLAT_OPTS[] = {
    {"n", OPT_INT, FO(playouts), 1, MAX_ITERS, NULL, "playouts per decision (sequential halving)", 0},
    {"k", OPT_INT, FO(k), 1, MAX_ACTIONS, NULL, "candidate actions kept by the light rule", 0},
    {"eps", OPT_REAL, FO(eps), 0, 1, NULL, "random-move share of the rollouts", 0},
    {"cut", OPT_INT, FO(cut), 0, 1000, NULL, "rollout cut-off in rounds (0 to the end)", 0},
    {"rollout", OPT_CHOICE, FO(rollout), 0, 2, "random heuristic light", "rollout policy", 0},
};
#undef FO
static void flat_defaults(void *o, const char *scen) { (void)scen; flat_default_opts(o); }

static void heur_defaults(void *o, const char *scen) { (void)scen; ((HeurOpts *)o)->eps = 0; }
static void none_defaults(void *o, const char *scen) { (void)o, (void)scen; }
static void mcts_defaults(void *o, const char *scen) { mcts_level_opts("normal", scen, o); }
static int mcts_level(const char *name, const char *scen, void *o) { return mcts_level_opts(name, scen, o); }
static void halv_defaults(void *o, const char *scen) { (void)scen; halving_level_opts("normal", o); }
static int halv_level(const char *name, const char *scen, void *o) { (void)scen; return halving_level_opts(name, o); }

/* the options of any kind */
typedef union { MctsOpts mcts; HeurOpts heur; FlatOpts flat; HalvOpts halv; } AnyOpts;

/* ---------------------------------------------------------------- the kinds' behaviour */
struct Player {
  const KindDef *kind;
  char *name;
  const Scen *sc;
  AiCtx ctx;
  Rng rng;
  double eps;        /* heuristic player: randomness */
  Mcts *mcts;
  Flat *flat;
  Halving *halv;
  Player *ally;      /* a seated Allied spec "BRITISH+PRUSSIAN": the Prussian seat's player */
  char eval_desc[200]; /* the evaluation of cut-off rollouts (player_eval_desc)          */
};

/* the legal list of s, or NULL when there is no action (the game is over) */
static const ActList *legal_or_none(Player *p, const State *s, ActList *L) {
  gs_legal(p->sc, s, L);
  return L->n > 0 ? L : NULL;
}

static Action act_random(Player *p, const State *s) {
  ActList L;
  Action none = {0};
  if (!legal_or_none(p, s, &L)) return none;
  return L.a[rng_below(&p->rng, (uint32_t)L.n)];
}

static int init_eps(Player *p, const void *o, uint64_t seed) {
  (void)seed;
  p->eps = ((const HeurOpts *)o)->eps;
  return 0;
}

/* a rule-based choice (heur_pick or light_pick) made on the observation only */
typedef int (*RulePick)(const AiCtx *c, const State *s, const ActList *L, Rng *r, double eps);
static Action act_rule(Player *p, const State *s, RulePick pick) {
  ActList L;
  Action none = {0};
  if (!legal_or_none(p, s, &L)) return none;
  if (L.n == 1) return L.a[0];
  State obs;
  gs_observe(p->sc, s, s->turn.decider, &obs);
  return L.a[pick(&p->ctx, &obs, &L, &p->rng, p->eps)];
}
static Action act_heuristic(Player *p, const State *s) { return act_rule(p, s, heur_pick); }
static Action act_light(Player *p, const State *s) { return act_rule(p, s, light_pick); }

static int init_flat(Player *p, const void *o, uint64_t seed) {
  p->flat = flat_new(p->sc, &p->ctx, o, seed);
  return p->flat ? 0 : -1;
}
static Action act_flat(Player *p, const State *s) { return flat_decide(p->flat, s); }
static int root_flat(Player *p, const State *s, RootStat *out, int max) {
  flat_decide(p->flat, s);
  return flat_root(p->flat, out, max);
}
static void fini_flat(Player *p) { flat_free(p->flat); }

/* eval=fit (own 0: the base rules' weights in every variant) or eval=own (own 1: the variant's
 * own file): the fitted weights, or one loud warning and the hand-written ones */
static void use_fit(Player *p, int own) {
  char why[600];
  if (fit_load(p->sc, own, p->ctx.fit_w, why, sizeof why) == 0) {
    p->ctx.use_fit = 1;
    const char *file = strrchr(why, '/') ? strrchr(why, '/') + 1 : why;
    snprintf(p->eval_desc, sizeof p->eval_desc, "fitted: %.150s, weights %08x", file,
             (unsigned)fit_hash_weights(p->ctx.fit_w, 0));
    return;
  }
  snprintf(p->eval_desc, sizeof p->eval_desc, "hand-written (the fitted one not usable)");
  /* loud, once per process: the player goes on with the hand-written evaluation */
  static int warned;
  if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
    fprintf(stderr, "warning: fitted evaluation not used: %s\n", why);
}

/* evalfile=NAME: its weights, checked against the scenario's own data; -2 and why in
 * eval_desc when they cannot be used (the player named them: an error, not a fallback) */
static int use_named_fit(Player *p, const char *name) {
  char why[600];
  if (fit_load_named(p->sc, name, p->ctx.fit_w, why, sizeof why)) {
    snprintf(p->eval_desc, sizeof p->eval_desc, "evalfile=%.40s: %.140s", name, why);
    return -2;
  }
  p->ctx.use_fit = 1;
  snprintf(p->eval_desc, sizeof p->eval_desc, "fitted: %.150s, weights %08x", name,
           (unsigned)fit_hash_weights(p->ctx.fit_w, 0));
  return 0;
}

/* the evaluation of cut-off rollouts: eval= and evalfile= */
static int init_eval(Player *p, int eval, const char *evalfile) {
  snprintf(p->eval_desc, sizeof p->eval_desc, "hand-written");
  if (*evalfile) return use_named_fit(p, evalfile);
  if (eval >= 1) use_fit(p, eval == 2);
  return 0;
}

static int init_search(Player *p, const void *opts, uint64_t seed, int cheat) {
  MctsOpts o = *(const MctsOpts *)opts;
  if (init_eval(p, o.eval, o.evalfile)) return -2;
  o.cheat = cheat;
  p->mcts = mcts_new(p->sc, &p->ctx, &o, seed);
  return p->mcts ? 0 : -1;
}
static int init_mcts(Player *p, const void *o, uint64_t seed) { return init_search(p, o, seed, 0); }
static int init_cheat(Player *p, const void *o, uint64_t seed) { return init_search(p, o, seed, 1); }
static Action act_mcts(Player *p, const State *s) { return mcts_decide(p->mcts, s, NULL); }
static int root_mcts(Player *p, const State *s, RootStat *out, int max) {
  mcts_decide(p->mcts, s, NULL);
  return mcts_root(p->mcts, out, max);
}
static void fini_mcts(Player *p) { mcts_free(p->mcts); }

static int init_halv(Player *p, const void *opts, uint64_t seed) {
  const HalvOpts *ho = opts;
  if (init_eval(p, ho->eval, ho->evalfile)) return -2;
  p->halv = halving_new(p->sc, &p->ctx, opts, seed);
  return p->halv ? 0 : -1;
}
static Action act_halv(Player *p, const State *s) { return halving_decide(p->halv, s); }
static int root_halv(Player *p, const State *s, RootStat *out, int max) {
  halving_decide(p->halv, s);
  return halving_root(p->halv, out, max);
}
static void fini_halv(Player *p) { halving_free(p->halv); }

enum { K_RANDOM, K_HEURISTIC, K_LIGHT, K_BASELINE, K_FLAT, K_MCTS, K_CHEAT, NKINDS };

#define NOPTS(t) ((int)(sizeof t / sizeof t[0]))
static const KindDef KINDS[NKINDS] = {
    [K_RANDOM] = {"random", "uniform over the legal actions", "", NULL, 0, NULL, 1, none_defaults, NULL, NULL,
                  NULL, act_random, NULL, NULL},
    [K_HEURISTIC] = {"heuristic", "fast rule-based player", "", HEUR_OPTS, NOPTS(HEUR_OPTS), NULL,
                     sizeof(HeurOpts), heur_defaults, NULL, NULL,
                     init_eps, act_heuristic, NULL, NULL},
    [K_LIGHT] = {"light", "the light rule alone (table look-ups for movement; the rollout policy of baseline)",
                 "", HEUR_OPTS, NOPTS(HEUR_OPTS), NULL, sizeof(HeurOpts), heur_defaults, NULL, NULL,
                 init_eps, act_light, NULL, NULL},
    [K_BASELINE] = {"baseline", "reference yardstick: determinized flat Monte Carlo, sequential halving (honest)",
                    "", FLAT_OPTS, NOPTS(FLAT_OPTS), NULL, sizeof(FlatOpts), flat_defaults, NULL,
                    "baseline:n=64", init_flat, act_flat, root_flat, fini_flat},
    [K_FLAT] = {"flat", "the levels of before the tree search: sequential halving over 8 pre-chosen candidates (honest)",
                "easy normal hard expert sim", HALV_OPTS, NOPTS(HALV_OPTS), "iters", sizeof(HalvOpts),
                halv_defaults, halv_level, "flat:sim", init_halv, act_halv, root_halv, fini_halv},
    [K_MCTS] = {"mcts", "information-set Monte Carlo tree search on sampled worlds (honest): the levels", "easy normal hard expert sim",
                MCTS_OPTS, NOPTS(MCTS_OPTS), "iters", sizeof(MctsOpts), mcts_defaults, mcts_level,
                "mcts:sim,dest=0", init_mcts, act_mcts, root_mcts, fini_mcts},
    [K_CHEAT] = {"cheat", "the same search on the true state: labelled cheating, never a level",
                 "easy normal hard expert sim", MCTS_OPTS, NOPTS(MCTS_OPTS), "iters", sizeof(MctsOpts),
                 mcts_defaults, mcts_level, "cheat:sim,dest=0",
                 init_cheat, act_mcts, root_mcts, fini_mcts},
};

/* ---------------------------------------------------------------- parsing */
static void seterr(char *err, size_t n, const char *msg, const char *arg) {
  if (err && n) snprintf(err, n, "%s%s%s", msg, arg ? ": " : "", arg ? arg : "");
}

/* strict number: the whole text, finite */
static int parse_real(const char *v, double *out) {
  if (!v || !*v) return -1;
  char *end;
  errno = 0;
  double x = strtod(v, &end);
  if (*end || errno == ERANGE || !isfinite(x)) return -1;
  *out = x;
  return 0;
}

static int *opt_int(void *o, const OptDef *d) { return (int *)((char *)o + d->off); }
static double *opt_real(void *o, const OptDef *d) { return (double *)((char *)o + d->off); }

static int set_option(const KindDef *k, void *o, const char *name, const char *v, char *err,
                      size_t errlen) {
  const OptDef *d = NULL;
  for (int i = 0; i < k->nopts; i++)
    if (!strcmp(k->opts[i].name, name)) d = &k->opts[i];
  if (!d) {
    char list[256] = "";
    for (int i = 0; i < k->nopts; i++)
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? " " : "", k->opts[i].name);
    if (err && errlen)
      snprintf(err, errlen, "unknown %s option '%.40s' (%s)", k->name, name, k->nopts ? list : "it takes none");
    return -1;
  }
  if (d->type == OPT_FILE) {
    double w[FIT_NF];
    char why[600];
    if (fit_load_named(NULL, v, w, why, sizeof why)) {
      if (err && errlen) snprintf(err, errlen, "%s=%.40s: %.400s", name, v, why);
      return -1;
    }
    snprintf((char *)o + d->off, FIT_NAME_MAX, "%s", v);
    return 0;
  }
  if (d->type == OPT_CHOICE) {
    char buf[128];
    snprintf(buf, sizeof buf, "%s", d->choices);
    int idx = 0;
    char *save = NULL;
    for (char *c = strtok_r(buf, " ", &save); c; c = strtok_r(NULL, " ", &save), idx++)
      if (!strcmp(c, v)) { *opt_int(o, d) = idx; return 0; }
    if (err && errlen) snprintf(err, errlen, "%s must be one of: %s (not '%.40s')", name, d->choices, v);
    return -1;
  }
  double x;
  if (parse_real(v, &x) || (d->type == OPT_INT && x != floor(x)) || x < d->lo || x > d->hi) {
    if (err && errlen)
      snprintf(err, errlen, "%s=%.40s: %s %.*f..%.*f", name, v,
               d->type == OPT_INT ? "needs a whole number in" : "needs a number in",
               d->type == OPT_INT ? 0 : 1, d->lo, d->type == OPT_INT ? 0 : 1, d->hi);
    return -1;
  }
  if (d->type == OPT_INT) *opt_int(o, d) = (int)x;
  else *opt_real(o, d) = x;
  return 0;
}

/* a level with an optional *K multiplier of the kind's budget */
static int set_level(const KindDef *k, const char *scen, void *o, char *tok, char *err, size_t errlen) {
  double mult = 1;
  char *star = strchr(tok, '*');
  if (star) {
    *star = 0;
    if (!k->budget || parse_real(star + 1, &mult) || mult <= 0 || mult > MAX_MULT) {
      if (err && errlen) snprintf(err, errlen, "budget multiplier '*%.40s' must be a number in (0, %d]", star + 1, MAX_MULT);
      return -1;
    }
  }
  if (!k->level || k->level(tok, scen, o)) {
    if (err && errlen)
      snprintf(err, errlen, "unknown %s level '%.40s'%s%s%s", k->name, tok, *k->levels ? " (" : "",
               k->levels, *k->levels ? ")" : "");
    return -1;
  }
  if (star) {
    const OptDef *b = NULL;
    for (int i = 0; i < k->nopts; i++)
      if (!strcmp(k->opts[i].name, k->budget)) b = &k->opts[i];
    int *n = opt_int(o, b);
    double scaled = floor(*n * mult + 0.5);
    if (scaled > b->hi) {
      if (err && errlen) snprintf(err, errlen, "%s*%g: %s %.0f exceeds the cap %.0f", tok, mult, b->name, scaled, b->hi);
      return -1;
    }
    *n = scaled < 1 ? 1 : (int)scaled;
  }
  return 0;
}

/* options on top of *o (already set to the kind's defaults) */
static int parse_opts(const KindDef *k, const char *scen, const char *text, void *o, char *err,
                      size_t errlen) {
  if (!text || !*text) return 0;
  size_t len = strlen(text);
  char *buf = malloc(len + 1);
  if (!buf) { seterr(err, errlen, "out of memory", NULL); return -1; }
  memcpy(buf, text, len + 1);
  int rc = 0, first = 1, nseen = 0;
  const char *seen[64]; /* the options set so far: one given twice is refused, not read twice */
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save), first = 0) {
    char *eq = strchr(tok, '=');
    if (eq) {
      *eq = 0;
      for (int i = 0; i < nseen && !rc; i++)
        if (!strcmp(seen[i], tok)) {
          if (err && errlen) snprintf(err, errlen, "option '%.40s' given twice", tok);
          rc = -1;
        }
      if (!rc && nseen < 64) seen[nseen++] = tok;
      if (!rc) rc = set_option(k, o, tok, eq + 1, err, errlen);
    } else if (!first) {
      if (err && errlen) snprintf(err, errlen, "the level must come first ('%.40s')", tok);
      rc = -1;
    } else {
      rc = set_level(k, scen, o, tok, err, errlen);
    }
  }
  free(buf);
  return rc;
}

/* the kind of a spec and the text of its options: "KIND", "KIND:LEVEL,...", "KIND:OPT=V,..."
 * or "KIND,OPT=V,..." (the options straight after the kind) */
static const KindDef *spec_kind(const char *spec, const char **opts, char *err, size_t errlen) {
  size_t bl = strcspn(spec, ":,");
  *opts = spec[bl] ? spec + bl + 1 : "";
  if (!bl) {
    seterr(err, errlen, "an empty player name (see `waterloo players`)", NULL);
    return NULL;
  }
  if (spec[bl] == ',' && !strchr(*opts, '=')) bl = strlen(spec); /* "a,b": not options */
  for (int i = 0; i < NKINDS; i++)
    if (strlen(KINDS[i].name) == bl && !strncmp(KINDS[i].name, spec, bl)) return &KINDS[i];
  if (err && errlen) {
    char list[128] = "";
    for (int i = 0; i < NKINDS; i++)
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", KINDS[i].name);
    snprintf(err, errlen, "unknown player '%.*s' (%s; see `waterloo players`)", (int)(bl > 40 ? 40 : bl),
             spec, list);
  }
  return NULL;
}


/* spec's kind and options in the scenario named scen (NULL: every scenario's common setting) */
static const KindDef *spec_parse(const char *spec, const char *scen, AnyOpts *o, char *err,
                                 size_t errlen) {
  if (!spec) spec = "mcts";
  const char *text;
  const KindDef *k = spec_kind(spec, &text, err, errlen);
  if (!k) return NULL;
  memset(o, 0, sizeof *o);
  k->defaults(o, scen);
  if (parse_opts(k, scen, text, o, err, errlen)) return NULL;
  return k;
}

static int seated_split(const char *spec, char *a, char *b, size_t len, char *err, size_t errlen);

int player_is_kind(const char *spec) {
  const char *text;
  return spec && spec_kind(spec, &text, NULL, 0) != NULL;
}

const char *player_kind_levels(const char *kind) {
  for (int i = 0; i < NKINDS; i++)
    if (!strcmp(KINDS[i].name, kind)) return KINDS[i].levels;
  return NULL;
}

void player_level_spec(const char *level, char *spec, size_t len) {
  if (!level || !*level) level = "normal";
  if (player_is_kind(level))
    snprintf(spec, len, "%s", level);
  else
    snprintf(spec, len, "mcts:%s", level);
}

int player_level_check(const char *level, char *err, size_t len) {
  char spec[160];
  player_level_spec(level, spec, sizeof spec);
  if (!player_spec_check(spec, err, len)) return 0;
  if (level && *level && !strpbrk(level, ":,*") && !player_is_kind(level) && err && len) {
    char kinds[128] = "";
    for (int i = 0; i < NKINDS; i++)
      snprintf(kinds + strlen(kinds), sizeof kinds - strlen(kinds), "%s%s", i ? ", " : "", KINDS[i].name);
    snprintf(err, len, "unknown level '%.40s' (a level: %s; or a player: %s; see `waterloo players`)", level,
             player_kind_levels("mcts"), kinds);
  }
  return -1;
}

int player_spec_check(const char *spec, char *err, size_t errlen) {
  AnyOpts o;
  char e[256], a[256], b[256];
  int seated = seated_split(spec, a, b, sizeof a, e, sizeof e);
  if (seated == 0) return player_spec_check(a, err, errlen) ? -1 : player_spec_check(b, err, errlen);
  if (seated < 0) {
    if (err && errlen) snprintf(err, errlen, "player '%.60s': %s", spec, e);
    return -1;
  }
  if (spec_parse(spec, NULL, &o, e, sizeof e)) return 0;
  if (err && errlen) snprintf(err, errlen, "player '%.60s': %s", spec ? spec : "", e);
  return -1;
}

/* ---------------------------------------------------------------- seated Allied specs */
/* "BRITISH+PRUSSIAN" (R-1.2 seats): one player for each Allied seat; the second plays the
 * decisions gs_seat gives the Prussian, the first all others.  Each reads the position through
 * the Allied observation only (the partners see each other's hand: ruling ).  Splits spec
 * at its '+' into the two halves; 0, 1 when spec has no '+', -1 when it is malformed. */
static int seated_split(const char *spec, char *a, char *b, size_t len, char *err, size_t errlen) {
  const char *plus = spec ? strchr(spec, '+') : NULL;
  if (!plus) return 1;
  size_t la = (size_t)(plus - spec);
  if (!la || !plus[1] || strchr(plus + 1, '+') || la >= len || strlen(plus + 1) >= len) {
    seterr(err, errlen, "a seated Allied spec is BRITISH+PRUSSIAN (two player specs)", NULL);
    return -1;
  }
  memcpy(a, spec, la);
  a[la] = 0;
  snprintf(b, len, "%s", plus + 1);
  return 0;
}

static Player *seated_new(const Scen *sc, const char *spec, uint64_t seed, char *err,
                          size_t errlen) {
  char a[256], b[256];
  if (seated_split(spec, a, b, sizeof a, err, errlen)) return NULL;
  Player *p = player_new(sc, a, seed, err, errlen);
  if (!p) return NULL;
  p->ally = player_new(sc, b, SEATED_ALLY_SEED(seed), err, errlen);
  char *name = strdup(spec);
  if (!p->ally || !name) {
    free(name);
    player_free(p);
    return NULL;
  }
  free(p->name);
  p->name = name;
  return p;
}

static int seat_at(const char *t, int *seat) {   /* "french=" ... at t: its length */
  static const char *const W[3] = {"french=", "british=", "prussian="};
  for (int k = 0; k < 3; k++)
    if (!strncmp(t, W[k], strlen(W[k]))) return *seat = k, (int)strlen(W[k]);
  return 0;
}

int seats_form(const char *text) {
  int seat;
  return text && seat_at(text, &seat) > 0;
}

int seats_parse(const char *text, char spec[3][128], char *err, size_t errlen) {
  for (int k = 0; k < 3; k++) spec[k][0] = 0;
  const char *t = text;
  int seat, n;
  while (*t) {
    if (!(n = seat_at(t, &seat))) {
      seterr(err, errlen, "seats are french=SPEC,british=SPEC[,prussian=SPEC]", NULL);
      return -1;
    }
    t += n;
    const char *end = t; /* a new seat starts only at ",SEAT=": a spec's options keep commas */
    int s2;
    while (*end && !(*end == ',' && seat_at(end + 1, &s2))) end++;
    if (spec[seat][0] || end == t || end - t >= 128) {
      seterr(err, errlen, spec[seat][0] ? "a seat named twice" : "a seat without a spec", NULL);
      return -1;
    }
    memcpy(spec[seat], t, (size_t)(end - t));
    spec[seat][end - t] = 0;
    t = *end ? end + 1 : end;
  }
  if (!spec[0][0] || !spec[1][0]) {
    seterr(err, errlen, "seats: french= and british= are needed (prussian= in the long game)", NULL);
    return -1;
  }
  return 0;
}

int seats_allied_spec(char spec[3][128], char *out, size_t len) {
  if (!spec[2][0] || !strcmp(spec[1], spec[2])) return (size_t)snprintf(out, len, "%s", spec[1]) < len ? 0 : -1;
  return (size_t)snprintf(out, len, "%s+%s", spec[1], spec[2]) < len ? 0 : -1;
}

/* the player of the seat that decides s */
static Player *seat_player(Player *p, const State *s) {
  return p->ally && gs_seat(p->sc, s) == SEAT_PRUSSIAN ? p->ally : p;
}

Player *player_new(const Scen *sc, const char *spec, uint64_t seed, char *err, size_t errlen) {
  if (!spec || !*spec) spec = "mcts";
  if (strchr(spec, '+')) return seated_new(sc, spec, seed, err, errlen);
  AnyOpts o;
  const KindDef *k = spec_parse(spec, sc->scen_name, &o, err, errlen);
  if (!k) return NULL;
  Player *p = calloc(1, sizeof *p);
  if (p) p->name = strdup(spec);
  if (!p || !p->name) {
    free(p);
    seterr(err, errlen, "out of memory", NULL);
    return NULL;
  }
  p->kind = k;
  p->sc = sc;
  rng_seed(&p->rng, seed, 0xa1a1ULL);
  ai_ctx_init(&p->ctx, sc);
  int rc = k->init ? k->init(p, &o, seed) : 0;
  if (rc) {
    if (rc == -2 && err && errlen) snprintf(err, errlen, "player '%.60s': %s", spec, p->eval_desc);
    else seterr(err, errlen, "out of memory", NULL);
    player_free(p);
    return NULL;
  }
  return p;
}

Action player_act(Player *p, const State *s) {
  if (p->ally) p = seat_player(p, s);
  return p->kind->act(p, s);
}

int player_set_interactive(Player *p) {
  int ms = p->ally ? player_set_interactive(p->ally) : 0;
  if (p->mcts) ms = mcts_interactive(p->mcts);
  return ms;
}

const char *player_name(const Player *p) { return p->name; }

const char *player_eval_desc(const Player *p) { return p->eval_desc; }

void player_free(Player *p) {
  if (!p) return;
  if (p->kind->fini) p->kind->fini(p);
  player_free(p->ally);
  free(p->name);
  free(p);
}

int player_analyze(Player *p, const State *s, Candidate *out, int max) {
  if (max <= 0) return 0;
  if (p->ally) p = seat_player(p, s);
  if (!p->kind->root) {
    Rng save = p->rng;
    Action a = player_act(p, s);
    p->rng = save;
    State obs;
    gs_observe(p->sc, s, s->turn.decider, &obs);
    double v = ai_eval_french(&p->ctx, &obs);
    out[0].a = a;
    out[0].share = 1.0;
    out[0].winrate = s->turn.decider == FRENCH ? v : 1.0 - v;
    out[0].visits = 1;
    return 1;
  }
  RootStat rs[64];
  int n = p->kind->root(p, s, rs, 64);
  long tot = 0;
  for (int i = 0; i < n; i++) tot += rs[i].visits;
  int k = 0;
  for (int i = 0; i < n && k < max; i++) {
    out[k].a = ai_key_act(rs[i].key);
    out[k].share = tot ? (double)rs[i].visits / tot : 1.0;
    out[k].winrate = rs[i].visits ? rs[i].wins / rs[i].visits : 0.5;
    out[k].visits = rs[i].visits;
    k++;
  }
  return k;
}

/* ---------------------------------------------------------------- help and canonical specs */
static void fmt_value(const OptDef *d, const void *o, char *buf, size_t len) {
  if (d->type == OPT_FILE) { snprintf(buf, len, "%s", (const char *)o + d->off); return; }
  if (d->type == OPT_REAL) { snprintf(buf, len, "%g", *(const double *)((const char *)o + d->off)); return; }
  int v = *(const int *)((const char *)o + d->off);
  if (d->type == OPT_INT) { snprintf(buf, len, "%d", v); return; }
  char c[128];
  snprintf(c, sizeof c, "%s", d->choices);
  char *save = NULL, *w = strtok_r(c, " ", &save);
  for (int i = 0; w && i < v; i++) w = strtok_r(NULL, " ", &save);
  snprintf(buf, len, "%s", w ? w : "?");
}

int player_spec_canonical(const char *spec, const char *scen, char *out, size_t len, char *err,
                          size_t errlen) {
  char a[256], b[256];
  int seated = seated_split(spec, a, b, sizeof a, err, errlen);
  if (seated < 0) return -1;
  if (seated == 0) {
    char ca[512], cb[512];
    if (player_spec_canonical(a, scen, ca, sizeof ca, err, errlen) ||
        player_spec_canonical(b, scen, cb, sizeof cb, err, errlen))
      return -1;
    return (size_t)snprintf(out, len, "%s+%s", ca, cb) < len ? 0 : -1;
  }
  AnyOpts o;
  const KindDef *k = spec_parse(spec, scen, &o, err, errlen);
  if (!k) return -1;
  size_t n = (size_t)snprintf(out, len, "%s", k->name);
  for (int i = 0, first = 1; i < k->nopts && n < len; i++) {
    char v[64];
    fmt_value(&k->opts[i], &o, v, sizeof v);
    if (k->opts[i].type == OPT_FILE && !*v) continue; /* not given: the canonical text of before */
    if (k->opts[i].quiet && !strcmp(v, "0")) continue;
    n += (size_t)snprintf(out + n, len - n, "%s%s=%s", first ? ":" : ",", k->opts[i].name, v);
    first = 0;
  }
  return n < len ? 0 : -1;
}

/* "name=v," for each option of k whose value in o differs from q's, appended at out + n; the
 * new length (>= len when it did not fit) */
static size_t opts_diff(const KindDef *k, const void *o, const void *q, char *out, size_t n, size_t len) {
  for (int i = 0; i < k->nopts && n < len; i++) {
    char v[64], w[64];
    fmt_value(&k->opts[i], o, v, sizeof v);
    fmt_value(&k->opts[i], q, w, sizeof w);
    if (strcmp(v, w)) n += (size_t)snprintf(out + n, len - n, "%s=%s,", k->opts[i].name, v);
  }
  return n;
}

/* the options of spec whose values differ from its kind's probe's, "kind:name=v,..." ("kind:"
 * when none): with the probe's play, what a search fingerprint needs to tell two players apart.
 * An option added later, inert at its default, changes neither. */
static int spec_delta(const char *spec, const char *scen, char *out, size_t len) {
  AnyOpts o, q;
  const KindDef *k = spec_parse(spec, scen, &o, NULL, 0);
  if (!k || !k->probe || spec_parse(k->probe, scen, &q, NULL, 0) != k) return -1;
  size_t n = (size_t)snprintf(out, len, "%s:", k->name);
  return opts_diff(k, &o, &q, out, n, len) < len ? 0 : -1;
}

int player_spec_identity(const char *spec, const char *scen, char *out, size_t len, const char **probe,
                         int max) {
  char a[256], b[256];
  int seated = seated_split(spec, a, b, sizeof a, NULL, 0);
  if (seated < 0 || !len) return -1;
  if (seated == 0) {
    size_t la;
    int n = player_spec_identity(a, scen, out, len, probe, max);
    if (n < 0 || (la = strlen(out)) + 1 >= len) return -1;
    out[la] = '+';
    int m = player_spec_identity(b, scen, out + la + 1, len - la - 1, probe + n, max - n);
    return m < 0 ? -1 : n + m;
  }
  const char *text;
  const KindDef *k = spec_kind(spec, &text, NULL, 0);
  if (!k) return -1;
  out[0] = 0;
  if (!k->probe) return 0;
  if (max < 1 || spec_delta(spec, scen, out, len)) return -1;
  probe[0] = k->probe;
  return 1;
}

int player_levels_text(char *out, size_t len) {
  size_t n = 0;
  if (len) out[0] = 0;
  for (int i = 0; i < NKINDS; i++) {
    char lv[128], *save = NULL;
    snprintf(lv, sizeof lv, "%s", KINDS[i].levels);
    for (char *w = strtok_r(lv, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
      static const char *const SCEN[3] = {NULL, "short", "long"};
      char spec[160], id[3][1024];
      if (!KINDS[i].probe) continue;
      snprintf(spec, sizeof spec, "%s:%s", KINDS[i].name, w);
      for (int j = 0; j < 3; j++) { /* the common setting, then a scenario's own where it differs */
        if (spec_delta(spec, SCEN[j], id[j], sizeof id[j])) return -1;
        if (j && !strcmp(id[j], id[0])) continue;
        n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s%s%s\n", j ? SCEN[j] : "", j ? ": " : "", id[j]);
        if (n >= len) return -1;
      }
    }
  }
  return 0;
}

/* one line of scen_levels_help: the levels named (space-separated) and what they take */
static void levels_line(FILE *f, const char *scen, const char *names, const char *diff) {
  fprintf(f, "  in the %s game: %s take%s %s\n", scen, names, strchr(names, ' ') ? "" : "s", diff);
}

/* "  in the short game: easy normal hard expert take dest=1": the levels of k whose options in
 * the scenario named scen differ from their common setting, and how (none: no line) */
static void scen_levels_help(FILE *f, const KindDef *k, const char *scen) {
  char lv[128], names[128] = "", diff[256] = "", *save = NULL;
  snprintf(lv, sizeof lv, "%s", k->levels);
  for (char *w = strtok_r(lv, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
    AnyOpts o, q;
    char spec[160], d[256];
    snprintf(spec, sizeof spec, "%s:%s", k->name, w);
    if (!spec_parse(spec, scen, &q, NULL, 0) || !spec_parse(spec, NULL, &o, NULL, 0)) continue;
    size_t n = opts_diff(k, &q, &o, d, 0, sizeof d);
    if (!n || n >= sizeof d) continue;
    d[n - 1] = 0; /* the last comma */
    if (*names && strcmp(d, diff)) { /* levels that differ otherwise: a line each group */
      levels_line(f, scen, names, diff);
      names[0] = 0;
    }
    snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", *names ? " " : "", w);
    snprintf(diff, sizeof diff, "%s", d);
  }
  if (*names) levels_line(f, scen, names, diff);
}

void player_help(FILE *f) {
  fprintf(f, "Player specs: KIND[:LEVEL[*K]][,OPTION=VALUE...]   (LEVEL first; *K multiplies the budget)\n");
  for (int i = 0; i < NKINDS; i++) {
    const KindDef *k = &KINDS[i];
    fprintf(f, "\n%s: %s\n", k->name, k->help);
    if (*k->levels) fprintf(f, "  levels: %s (default normal)\n", k->levels);
    if (*k->levels) scen_levels_help(f, k, "short"), scen_levels_help(f, k, "long");
    AnyOpts o;
    memset(&o, 0, sizeof o);
    k->defaults(&o, NULL);
    for (int j = 0; j < k->nopts; j++) {
      const OptDef *d = &k->opts[j];
      char v[64], range[96];
      fmt_value(d, &o, v, sizeof v);
      if (d->type == OPT_CHOICE) snprintf(range, sizeof range, "%s", d->choices);
      else if (d->type == OPT_FILE) snprintf(range, sizeof range, "NAME.ini"), snprintf(v, sizeof v, "none");
      else snprintf(range, sizeof range, "%.*f..%.*f", d->type == OPT_INT ? 0 : 1, d->lo,
                    d->type == OPT_INT ? 0 : 1, d->hi);
      fprintf(f, "  %-11s %-22s default %-6s %s\n", d->name, range, v, d->help);
    }
  }
}
