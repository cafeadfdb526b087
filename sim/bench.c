/* sim_bench: games per second per thread for the fast player pairs, and the 1 -> 2 thread
 * efficiency of a batch of games measured in the same run. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim.h"
#include "../engine/util.h"



/* plays games 0..n-1 with `threads` threads; returns the wall time; *dec: decisions made */
static double play_n(const Scen *sc, const char *a, const char *b, long n, int threads,
                     double *dec) {
  double t0 = clock_wall();
  double d = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) reduction(+ : d)
  for (long i = 0; i < n; i++) {
    GameFacts f;
    char err[128];
    if (run_game_specs(sc, a, b, 1815, (uint64_t)i, &f, NULL, err, sizeof err) == 0)
      d += f.decisions;
  }
  if (dec) *dec = d;
  return clock_wall() - t0;
}

void sim_bench(FILE *out) {
  static const char *pairs[][2] = {{"random", "random"}, {"heuristic", "heuristic"},
                                   {"heuristic", "random"}, {"random", "heuristic"}};
  static const char *scens[] = {"short", "long"};
  Scen *sc = malloc(sizeof(Scen));
  char err[512];
  fprintf(out, "sim: games per second per thread (seed 1815, games 0..n-1, one thread; CPU time)\n");
  for (int si = 0; si < 2; si++) {
    if (scen_load(sc, scen_default_dir(), scens[si], "base", err, sizeof err)) {
      fprintf(out, "  %s: %s\n", scens[si], err);
      continue;
    }
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
      char e2[256];
      Player *p = player_new(sc, pairs[k][0], 1, e2, sizeof e2);
      Player *q = p ? player_new(sc, pairs[k][1], 1, e2, sizeof e2) : NULL;
      if (p) player_free(p);
      if (q) player_free(q);
      if (!p || !q) { fprintf(out, "  %-5s %s vs %s: %s\n", scens[si], pairs[k][0], pairs[k][1], e2); continue; }
      /* grow n until a run takes at least 1 s */
      long n = 4;
      double t = 0, dec = 0, cpu = 0;
      for (;;) {
        double c0 = clock_cpu();
        t = play_n(sc, pairs[k][0], pairs[k][1], n, 1, &dec);
        cpu = clock_cpu() - c0; /* the rate per CPU second: other load on the machine does not
                                   lower it as it lowers the wall-clock rate */
        if (cpu <= 0) cpu = t;
        if (t >= 1.0 || n >= 100000) break;
        long nn = t > 0.01 ? (long)(n * 1.2 / t) + 1 : n * 8;
        n = nn > n * 8 ? n * 8 : nn;
      }
      fprintf(out, "  %-5s %-9s vs %-9s %8.1f games/s/thread  (%ld games, %.0f decisions/game, %.0f decisions/s; per CPU second)\n",
              scens[si], pairs[k][0], pairs[k][1], n / cpu, n, dec / n, dec / cpu);
    }
  }
  /* efficiency: the same set of games with 1 and then 2 threads */
  if (scen_load(sc, scen_default_dir(), "short", "base", err, sizeof err) == 0) {
    const char *a = "heuristic";
    char e2[256];
    Player *p = player_new(sc, a, 1, e2, sizeof e2);
    if (!p) a = "random";
    else player_free(p);
    long n = 8;
    double t1;
    for (;;) {
      t1 = play_n(sc, a, a, n, 1, NULL);
      if (t1 >= 2.0 || n >= 200000) break;
      long nn = t1 > 0.01 ? (long)(n * 2.4 / t1) + 1 : n * 8;
      n = nn > n * 8 ? n * 8 : nn;
    }
    if (n % 2) n++;
    double c0 = clock_cpu();
    t1 = play_n(sc, a, a, n, 1, NULL);
    double c1 = clock_cpu();
    double t2 = play_n(sc, a, a, n, 2, NULL);
    double c2 = clock_cpu();
    fprintf(out, "sim: 1->2 thread efficiency (short, %s vs %s, %ld games): 1 thread %.2f s, "
                 "2 threads %.2f s, speedup %.2fx, efficiency %.0f%% (%d cores available; "
                 "CPU time %.2f s vs %.2f s: %.0f%% of the work per core when other load "
                 "steals cores)\n",
            a, a, n, t1, t2, t1 / t2, 100 * t1 / (2 * t2), omp_get_num_procs(), c1 - c0, c2 - c1,
            100 * (c1 - c0) / (c2 - c1));
  }
  free(sc);
}
