/* The paired judge of the review (ai/review.h): two actions played on the same sampled worlds
 * with the same rollout stream, so that what differs between the two values is the action. */
#include <math.h>
#include <stdlib.h>
#include "ai_internal.h"
#include "review.h"

struct Judge {
  const Scen *sc;
  AiCtx ctx;
  RollCfg rc;
};

static Judge *judge_make(const Scen *sc, RollCfg rc) {
  Judge *j = calloc(1, sizeof *j);
  if (!j) return NULL;
  j->sc = sc;
  ai_ctx_init(&j->ctx, sc);
  j->rc = rc;
  return j;
}

Judge *judge_new(const Scen *sc) {
  Judge *j = judge_make(sc, (RollCfg){ROLL_LIGHT, 0.1, 6, 5000});
  char why[600];
  if (j && fit_load(sc, 0, j->ctx.fit_w, why, sizeof why) == 0) j->ctx.use_fit = 1;
  return j;
}

/* no fitted evaluation: every rollout reaches the game's end */
Judge *judge_new_end(const Scen *sc) { return judge_make(sc, (RollCfg){ROLL_HEUR, 0.1, 0, 5000}); }

void judge_free(Judge *j) { free(j); }

double review_se(double p, int n) {
  if (n < 1) return 0.5;
  if (p < 0) p = 0;
  if (p > 1) p = 1;
  double v = p * (1 - p);
  if (v < 0.25 / n) v = 0.25 / n; /* a rate of 0 or 1 from a few playouts is not certain */
  return sqrt(v / n);
}

/* the value for `me` of world w after action a, played on with rollout stream r */
static double judge_one(const Judge *j, const State *w0, Action a, const Rng *r, int me) {
  State w = *w0;
  Rng rr = *r;
  gs_apply(j->sc, &w, a);
  double v = ai_rollout(j->sc, &j->ctx, &w, &rr, j->rc.policy, j->rc.eps, j->rc.cut,
                        j->rc.max_roll);
  return me == FRENCH ? v : 1.0 - v;
}

double judge_pair(const Judge *j, const State *s, Action a, Action b, int n, uint64_t seed,
                  double *se) {
  int me = gs_decider(s);
  State obs;
  gs_observe(j->sc, s, me, &obs);
  double sum = 0, sum2 = 0;
  for (int i = 0; i < n; i++) {
    Rng wr, rr;
    rng_seed(&wr, seed + 0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1), 0x1d6eULL);
    rng_seed(&rr, seed + 0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1), 0x2011ULL);
    State w;
    gs_determinize(j->sc, &obs, me, &wr, &w);
    double d = judge_one(j, &w, a, &rr, me) - judge_one(j, &w, b, &rr, me);
    sum += d;
    sum2 += d * d;
  }
  double mean = n > 0 ? sum / n : 0;
  if (se) {
    double var = n > 1 ? (sum2 - n * mean * mean) / (n - 1) : 0;
    *se = n > 1 ? sqrt(var > 0 ? var / n : 0) : 0;
  }
  return mean;
}
