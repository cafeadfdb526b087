/* AI benchmark, honesty check, game driver. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "ai_bench.h"
#include "ai_internal.h"
#include "../engine/util.h"
#include "../engine/driver.h"


static Action choose_player(void *ctx, const State *s, const ActList *L) {
  (void)L;
  return player_act(((Player **)ctx)[s->turn.decider], s);
}

int ai_play_game(const Scen *sc, const char *spec_fr, const char *spec_al, uint64_t seed,
                 uint64_t stream, int *nact) {
  char err[200];
  State s;
  gs_init(sc, &s, seed, stream);
  Player *p[2];
  p[0] = player_new(sc, spec_fr, mix64(seed ^ mix64(stream * 2 + 1)), err, sizeof err);
  p[1] = player_new(sc, spec_al, mix64(seed ^ mix64(stream * 2 + 2)), err, sizeof err);
  int res = -1;
  long n = 0;
  if (p[0] && p[1]) {
    GameHooks hk = {.choose = choose_player, .ctx = p, .check_legal = 1, .max_actions = 100000};
    n = game_run(sc, &s, &hk);
    if (n == GAME_ILLEGAL) {
      Action a = player_act(p[s.turn.decider], &s);
      fprintf(stderr,
              "ai_play_game: %s returned an illegal action (t=%d a=%d b=%d c=%d) in phase %s\n",
              player_name(p[s.turn.decider]), a.t, a.a, a.b, a.c, phase_name(s.turn.phase));
      n = -1;
    } else if (n == GAME_LIMIT) {
      n = 100000;
    }
    if (n >= 0 && gs_over(&s)) res = s.score.result;
  }
  if (nact) *nact = (int)n;
  player_free(p[0]);
  player_free(p[1]);
  return res;
}

int ai_honesty_check(const Scen *sc, const char *spec, uint64_t seed, int npairs) {
  char err[200];
  Rng r;
  rng_seed(&r, seed, 0x40e5ULL);
  int done = 0, bad = 0, game = 0;
  ActList L;
  while (done < npairs && game < 10 * npairs + 20) {
    State s;
    gs_init(sc, &s, seed + (uint64_t)game, (uint64_t)game);
    game++;
    int steps = 0;
    while (!gs_over(&s) && done < npairs && steps < 20000) {
      gs_legal(sc, &s, &L);
      if (L.n <= 0) return -1;
      int d = s.turn.decider;
      /* take a position now and then when it has a real choice */
      if (L.n > 1 && rng_below(&r, 12) == 0) {
        State s2, o1, o2;
        gs_determinize(sc, &s, d, &r, &s2);
        gs_observe(sc, &s, d, &o1);
        gs_observe(sc, &s2, d, &o2);
        if (memcmp(&o1, &o2, sizeof o1) != 0) {
          fprintf(stderr, "honesty: gs_determinize changed the decider's observation (phase %s)\n",
                  phase_name(s.turn.phase));
          bad++;
          done++;
        } else if (memcmp(&s, &s2, sizeof s) != 0) {
          uint64_t ps = mix64(seed ^ (uint64_t)done * 0x9e3779b97f4a7c15ULL);
          Player *p1 = player_new(sc, spec, ps, err, sizeof err);
          Player *p2 = player_new(sc, spec, ps, err, sizeof err);
          if (!p1 || !p2) { player_free(p1); player_free(p2); return -1; }
          Action a1 = player_act(p1, &s), a2 = player_act(p2, &s2);
          if (memcmp(&a1, &a2, sizeof a1) != 0 && ++bad <= 3) {
            char b1[64], b2[64];
            action_format(sc, &s, a1, b1, sizeof b1);
            action_format(sc, &s2, a2, b2, sizeof b2);
            fprintf(stderr, "honesty: %s chose %s and %s (phase %s)\n", spec, b1, b2,
                    phase_name(s.turn.phase));
          }
          player_free(p1);
          player_free(p2);
          done++;
        }
      }
      gs_apply(sc, &s, L.a[rng_below(&r, (uint32_t)L.n)]);
      steps++;
    }
  }
  return done < npairs ? -1 : bad;
}

/* a fixed early position: the first decision of the game after a few heuristic actions */
static void bench_position(const Scen *sc, State *s) {
  char err[100];
  gs_init(sc, s, 20240601ULL, 7);
  Player *h = player_new(sc, "heuristic", 99, err, sizeof err);
  ActList L;
  for (int i = 0; i < 6 && !gs_over(s); i++) gs_apply(sc, s, player_act(h, s));
  /* then to the next card decision */
  for (int i = 0; i < 200 && !gs_over(s); i++) {
    gs_legal(sc, s, &L);
    if (s->turn.phase == PH_ROUND && L.n > 1) break;
    gs_apply(sc, s, player_act(h, s));
  }
  player_free(h);
}

/* a bench search: a level of the tree search with one budget for every decision (iters, or
 * a time cap in ms when ms > 0) on `trees` trees run by `threads` threads */
static Mcts *bench_mcts(const Scen *sc, const AiCtx *ctx, const char *level, int iters, int ms,
                        int trees, int threads) {
  MctsOpts o;
  mcts_level_opts(level, NULL, &o); /* the step search in every scenario: the bench's signatures */
  o.iters = iters;
  o.time_ms = ms;
  o.trees = trees;
  o.threads = threads;
  o.reuse = 0;
  return mcts_new(sc, ctx, &o, 1);
}

/* the wall time of one search of `iters` (best of 3: the machine may be shared); *bal (when
 * not NULL): the 2-thread bound of its rounds (mcts_balance) */
static double time_search(const Scen *sc, const AiCtx *ctx, const State *s, int iters, int trees,
                          int threads, long *done, double *bal) {
  Mcts *m = bench_mcts(sc, ctx, "normal", iters, 0, trees, threads);
  if (!m) return -1;
  int it = 0;
  mcts_decide(m, s, &it); /* warm-up: arena allocation, caches */
  double t = 1e30;
  for (int rep = 0; rep < 3; rep++) {
    mcts_forget(m);
    double t0 = omp_get_wtime();
    mcts_decide(m, s, &it);
    double dt = omp_get_wtime() - t0;
    if (dt < t) t = dt;
  }
  *done = it;
  if (bal) *bal = mcts_balance(m);
  mcts_free(m);
  return t;
}

/* iterations per wall second of a time-capped search (1 s) on `threads` threads */
static double rate_timed(const Scen *sc, const AiCtx *ctx, const State *s, int threads) {
  Mcts *m = bench_mcts(sc, ctx, "normal", 10000000, 1000, 1, threads);
  if (!m) return -1;
  int it = 0;
  double best = 0;
  for (int rep = 0; rep < 3; rep++) {
    mcts_forget(m);
    double t0 = omp_get_wtime();
    mcts_decide(m, s, &it);
    double dt = omp_get_wtime() - t0;
    if (dt > 0 && it / dt > best) best = it / dt;
  }
  mcts_free(m);
  return best;
}

/* the signature: the shipped levels (mcts:sim, mcts:easy and flat:sim, every decision at its
 * level's budget) through a few decisions of the fixed position, chosen actions and visits */
static uint64_t bench_signature(const Scen *sc, const State *s, uint64_t h) {
  static const char *const specs[] = {"mcts:sim", "mcts:easy", "flat:sim"};
  for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
    char err[160];
    Player *p = player_new(sc, specs[k], 42, err, sizeof err);
    if (!p) continue;
    State t = *s;
    for (int d = 0; d < 4 && !gs_over(&t); d++) {
      Candidate c[4];
      int n = player_analyze(p, &t, c, 4);
      Action a = player_act(p, &t);
      h = ai_hash_bytes(&a, sizeof a, h);
      for (int i = 0; i < n; i++) h = ai_hash_bytes(&c[i].visits, sizeof c[i].visits, h);
      gs_apply(sc, &t, a);
    }
    player_free(p);
  }
  return h;
}

static void bench_one(const Scen *sc, FILE *out, uint64_t *sig) {
  AiCtx ctx;
  ai_ctx_init(&ctx, sc);
  char why[600];
  if (fit_load(sc, 0, ctx.fit_w, why, sizeof why) == 0) ctx.use_fit = 1;
  State s;
  bench_position(sc, &s);
  char desc[160];
  gs_describe(sc, &s, desc, sizeof desc);
  fprintf(out, "mcts %-5s  position: %s\n", sc->scen_name, desc);
  long d1, d2;
  const int N = 3200;
  double b1;
  double t1 = time_search(sc, &ctx, &s, N, 1, 1, &d1, &b1);
  double t2 = time_search(sc, &ctx, &s, N, 1, 2, &d2, NULL);
  fprintf(out, "mcts %-5s  normal's search (light rollouts, 6 rounds, fitted evaluation), 1 thread: %ld iterations in %.3f s = %.0f iterations/s\n",
          sc->scen_name, d1, t1, d1 / t1);
  fprintf(out, "mcts %-5s  the same on 2 threads (same result): %ld iterations in %.3f s = %.0f iterations/s (%.2fx)\n",
          sc->scen_name, d2, t2, d2 / t2, (d2 / t2) / (d1 / t1));
  fprintf(out, "mcts %-5s  the most 2 threads can do on that fixed budget, whatever the load: %.2fx (the halving rounds' walk CPU over their longest thread's share, one thread's CPU times dealt as the rounds deal them)\n",
          sc->scen_name, b1);
  double r1 = rate_timed(sc, &ctx, &s, 1), r2 = rate_timed(sc, &ctx, &s, 2);
  fprintf(out, "mcts %-5s  time-capped search (1 s): 1 thread %.0f iterations/s, 2 threads %.0f iterations/s: %.2fx\n",
          sc->scen_name, r1, r2, r1 > 0 ? r2 / r1 : 0.0);
  *sig = bench_signature(sc, &s, *sig);
}

void ai_bench(const Scen *sc, FILE *out) {
  uint64_t sig = 0;
  static const char *names[2] = {"short", "long"};
  for (int k = 0; k < 2; k++) {
    if (sc->scenario == k) { bench_one(sc, out, &sig); continue; }
    Scen *o = malloc(sizeof *o);
    char err[256];
    if (o && scen_load(o, scen_default_dir(), names[k], "base", err, sizeof err) == 0)
      bench_one(o, out, &sig);
    else
      fprintf(out, "mcts %-5s  (scenario not loaded: %s)\n", names[k], o ? err : "no memory");
    free(o);
  }
  fprintf(out, "mcts signature: %016llx\n", (unsigned long long)sig);
}
