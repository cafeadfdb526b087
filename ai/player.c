/* Player API: spec parsing and dispatch to the random, heuristic and search players. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ai_internal.h"

enum { P_RANDOM, P_HEURISTIC, P_MCTS };

struct Player {
  int kind;
  char name[128];
  const Scen *sc;
  AiCtx ctx;
  Rng rng;
  uint64_t seed;
  double eps;        /* heuristic player: randomness */
  Mcts *mcts;
};

static void seterr(char *err, size_t n, const char *msg, const char *arg) {
  if (err && n) snprintf(err, n, "%s%s%s", msg, arg ? ": " : "", arg ? arg : "");
}

static int parse_mcts(const char *opts, MctsOpts *o, char *err, size_t errlen) {
  mcts_level_opts("normal", o);
  return mcts_parse_opts(opts, o, err, errlen);
}

int mcts_parse_opts(const char *opts, MctsOpts *o, char *err, size_t errlen) {
  if (!opts || !*opts) return 0;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", opts);
  char *save = NULL;
  int first = 1;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save), first = 0) {
    char *eq = strchr(tok, '=');
    if (!eq) {
      /* a level, with an optional *K budget multiplier */
      double mult = 1;
      char *star = strchr(tok, '*');
      if (star) {
        *star = 0;
        mult = atof(star + 1);
        if (mult <= 0) { seterr(err, errlen, "bad budget multiplier", star + 1); return -1; }
      }
      if (!first) { seterr(err, errlen, "the level must come first", tok); return -1; }
      if (mcts_level_opts(tok, o)) { seterr(err, errlen, "unknown level (easy, normal, hard, expert)", tok); return -1; }
      o->iters = (int)(o->iters * mult + 0.5);
      if (o->iters < 1) o->iters = 1;
      continue;
    }
    *eq = 0;
    const char *k = tok, *v = eq + 1;
    if (!strcmp(k, "iters")) o->iters = atoi(v);
    else if (!strcmp(k, "time")) o->time_ms = atoi(v);
    else if (!strcmp(k, "threads")) o->threads = atoi(v);
    else if (!strcmp(k, "c")) o->c = atof(v);
    else if (!strcmp(k, "rollout")) {
      if (!strcmp(v, "random")) o->rollout = 0;
      else if (!strcmp(v, "heuristic")) o->rollout = 1;
      else { seterr(err, errlen, "rollout must be random or heuristic", v); return -1; }
    } else if (!strcmp(k, "eps")) o->eps = atof(v);
    else if (!strcmp(k, "cut")) o->cut = atoi(v);
    else if (!strcmp(k, "maxroll")) o->max_roll = atoi(v);
    else if (!strcmp(k, "topk")) o->topk = atoi(v);
    else if (!strcmp(k, "mem")) o->mem_mb = atoi(v);
    else if (!strcmp(k, "scale")) o->scale_small = atoi(v);
    else if (!strcmp(k, "pb")) o->pb = atof(v);
    else if (!strcmp(k, "movesearch")) o->movesearch = atoi(v);
    else { seterr(err, errlen, "unknown mcts option (iters time threads c rollout eps cut maxroll topk mem scale pb movesearch)", k); return -1; }
  }
  if (o->iters < 1 || o->threads < 1 || o->threads > 64 || o->mem_mb < 1 || o->c < 0 ||
      o->eps < 0 || o->eps > 1 || o->max_roll < 1 || o->cut < -1 || o->time_ms < 0) {
    seterr(err, errlen, "mcts option out of range", opts);
    return -1;
  }
  return 0;
}

Player *player_new(const Scen *sc, const char *spec, uint64_t seed, char *err, size_t errlen) {
  if (!spec || !*spec) spec = "mcts";
  Player *p = calloc(1, sizeof *p);
  if (!p) { seterr(err, errlen, "out of memory", NULL); return NULL; }
  snprintf(p->name, sizeof p->name, "%s", spec);
  p->sc = sc;
  p->seed = seed;
  rng_seed(&p->rng, seed, 0xa1a1ULL);
  ai_ctx_init(&p->ctx, sc);
  char base[32];
  const char *colon = strchr(spec, ':');
  size_t bl = colon ? (size_t)(colon - spec) : strlen(spec);
  if (bl >= sizeof base) bl = sizeof base - 1;
  memcpy(base, spec, bl);
  base[bl] = 0;
  const char *opts = colon ? colon + 1 : "";
  if (!strcmp(base, "random")) {
    p->kind = P_RANDOM;
  } else if (!strcmp(base, "heuristic")) {
    p->kind = P_HEURISTIC;
    p->eps = 0;
    if (!strncmp(opts, "eps=", 4)) p->eps = atof(opts + 4);
    else if (*opts) { seterr(err, errlen, "heuristic takes only eps=X", opts); free(p); return NULL; }
  } else if (!strcmp(base, "mcts") || !strcmp(base, "cheat")) {
    MctsOpts o;
    if (parse_mcts(opts, &o, err, errlen)) { free(p); return NULL; }
    o.cheat = !strcmp(base, "cheat");
    p->kind = P_MCTS;
    p->mcts = mcts_new(sc, &p->ctx, &o, seed);
    if (!p->mcts) { seterr(err, errlen, "out of memory", NULL); free(p); return NULL; }
  } else {
    seterr(err, errlen, "unknown player (random, heuristic, mcts[:level], cheat[:level])", spec);
    free(p);
    return NULL;
  }
  return p;
}

/* the heuristic decides on the observation only */
static Action heuristic_act(Player *p, const State *s, const ActList *L) {
  State obs;
  gs_observe(p->sc, s, s->decider, &obs);
  int i = heur_pick(&p->ctx, &obs, L, &p->rng, p->eps);
  return L->a[i];
}

Action player_act(Player *p, const State *s) {
  ActList L;
  gs_legal(p->sc, s, &L);
  Action none = {0, 0, 0, 0};
  if (L.n <= 0) return none;
  switch (p->kind) {
    case P_RANDOM: return L.a[rng_below(&p->rng, (uint32_t)L.n)];
    case P_HEURISTIC: return L.n == 1 ? L.a[0] : heuristic_act(p, s, &L);
    default: return mcts_decide(p->mcts, s, NULL);
  }
}

const char *player_name(const Player *p) { return p->name; }

void player_free(Player *p) {
  if (!p) return;
  mcts_free(p->mcts);
  free(p);
}

int player_analyze(Player *p, const State *s, Candidate *out, int max) {
  if (max <= 0) return 0;
  if (p->kind != P_MCTS) {
    Rng save = p->rng;
    Action a = player_act(p, s);
    p->rng = save;
    State obs;
    gs_observe(p->sc, s, s->decider, &obs);
    double v = ai_eval_french(&p->ctx, &obs);
    out[0].a = a;
    out[0].share = 1.0;
    out[0].winrate = s->decider == FRENCH ? v : 1.0 - v;
    out[0].visits = 1;
    return 1;
  }
  mcts_decide(p->mcts, s, NULL);
  RootStat rs[64];
  int n = mcts_root(p->mcts, rs, 64);
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
