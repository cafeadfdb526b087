/* ./waterloo balance: which value of a parameter makes the French win rate 50% (or a target).
 *
 * An adaptive sweep in rounds on sim's driver (sim_play: the journal, --resume, OpenMP threads,
 * MPI ranks, the seeds of sim).  Round 1 plays --points values spread over the range; after each
 * round a logistic fit of every game so far (crossing.c) places the crossing, and the next
 * round plays the two whole values around it and the ends of its interval.  Round r plays the
 * seeds of sim's run seed + r - 1 in out/round-r, so a value played again adds new games, and
 * the values of one round are paired on the same seeds.  The choice of each round depends only
 * on the games of the rounds before it, never on threads, ranks or a resume. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef USE_MPI
#include <mpi.h>
#endif

#include "lab.h"
#include "sim_int.h"
#include "../engine/util.h"

enum { BV_REACHED = 0, BV_BELOW, BV_ABOVE }; /* below/above: every value's interval is */

typedef struct { int v; long n, k; } BPoint;   /* a value, its games and French wins */

typedef struct {
  const BalanceCfg *b;
  BPoint pt[LAB_MAX_VALUES];
  int np;
  int rv[LAB_MAX_ROUNDS][LAB_MAX_VALUES], nrv[LAB_MAX_ROUNDS];
  int nr;                /* rounds played */
  int rank, size;
  LogitFit fit;
  int verdict;
  long games;            /* played in this process's rounds (not resumed) */
} Bal;

static BPoint *bal_point(Bal *B, int v) {
  for (int i = 0; i < B->np; i++)
    if (B->pt[i].v == v) return &B->pt[i];
  if (B->np >= LAB_MAX_VALUES) return NULL;
  int i = B->np++;
  while (i > 0 && B->pt[i - 1].v > v) B->pt[i] = B->pt[i - 1], i--; /* sorted by value */
  B->pt[i] = (BPoint){v, 0, 0};
  return &B->pt[i];
}

/* the cell's variant, FIX+PARAM=V; 0, or -1 when longer than len - 1 (out is then "") */
static int bal_label(const BalanceCfg *b, int v, char *out, size_t len) {
  Buf l = {0};
  buf_printf(&l, "%s%s%s=%d", b->fix, b->fix[0] ? "+" : "", b->param, v);
  int ok = l.n < len;
  memcpy(out, ok ? l.s : "", ok ? l.n + 1 : 1);
  buf_free(&l);
  return ok ? 0 : -1;
}

/* the round's sim run: one cell per value, the round's seed, its own folder */
static void bal_round_cfg(const Bal *B, int r, Run *R) {
  const BalanceCfg *b = B->b;
  SimCfg *c = &R->cfg;
  c->nscen = 1;
  snprintf(c->scen[0], sizeof c->scen[0], "%s", b->scen);
  for (int i = 0; i < B->nrv[r]; i++) bal_label(b, B->rv[r][i], c->var[c->nvar++], sizeof c->var[0]);
  sim_add_pair(c, b->pf, b->pa);
  c->games = b->games;
  c->seed = b->seed + (uint64_t)r;
  c->threads = b->threads;
  c->resume = b->resume;
  c->overwrite = b->overwrite;
  c->progress = b->progress;
  Buf d = {0};
  buf_printf(&d, "%s/round-%d", b->out, r + 1);
  snprintf(c->out, sizeof c->out, "%.1000s", d.s);
  buf_free(&d);
  R->rank = B->rank;
  R->size = B->size;
}

/* plays round r (resumed from its journal) and pools its games by value; 0 or the exit code */
static int bal_play_round(Bal *B, int r) {
  Run R;
  memset(&R, 0, sizeof R);
  bal_round_cfg(B, r, &R);
  if (B->b->progress && B->rank == 0)
    fprintf(stderr, "balance: round %d: %d values, %ld games each, seed %llu\n", r + 1, B->nrv[r],
            B->b->games, (unsigned long long)R.cfg.seed);
  double cpu0;
  int rc = sim_play(&R, &cpu0);
  for (int ci = 0; !rc && ci < R.nc; ci++) {
    const Cell *cl = &R.cells[ci];
    BPoint *p = bal_point(B, B->rv[r][cl->vi]);
    for (long i = 0; p && i < R.cfg.games; i++) {
      p->n++;
      p->k += cl->res[i].result == RES_FRENCH;
    }
  }
  B->games += R.total_done;
  run_free(&R);
  return rc;
}

/* the fit of every game so far, and whether any value can reach the target */
static void bal_assess(Bal *B) {
  double x[LAB_MAX_VALUES];
  long k[LAB_MAX_VALUES], n[LAB_MAX_VALUES];
  int below = 0, above = 0;
  for (int i = 0; i < B->np; i++) {
    x[i] = B->pt[i].v, k[i] = B->pt[i].k, n[i] = B->pt[i].n;
    Interval w = wilson(k[i], n[i], Z95);
    below += w.hi < B->b->target;
    above += w.lo > B->b->target;
  }
  logit_fit(x, k, n, B->np, B->b->target, Z95, &B->fit);
  B->verdict = below == B->np ? BV_BELOW : above == B->np ? BV_ABOVE : BV_REACHED;
}

/* where the played rates cross the target (sweep_crossing) */
static double bal_sweep_crossing(const Bal *B, int *i0, int *count) {
  double x[LAB_MAX_VALUES], r[LAB_MAX_VALUES];
  for (int i = 0; i < B->np; i++) x[i] = B->pt[i].v, r[i] = (double)B->pt[i].k / B->pt[i].n;
  return sweep_crossing(x, r, B->np, B->b->target, i0, count);
}

/* the best guess of the crossing for the next round, inside the range */
static double bal_guess(const Bal *B) {
  const BalanceCfg *b = B->b;
  double c = B->fit.ok && isfinite(B->fit.xs) ? B->fit.xs : NAN;
  int i0, n;
  if (!isfinite(c)) c = bal_sweep_crossing(B, &i0, &n);
  if (!isfinite(c)) { /* every rate on one side: the value closest to the target */
    double best = 2;
    for (int i = 0; i < B->np; i++) {
      double d = fabs((double)B->pt[i].k / B->pt[i].n - b->target);
      if (d < best) best = d, c = B->pt[i].v;
    }
  }
  return c < b->lo ? b->lo : c > b->hi ? b->hi : c;
}

static void bal_add(const BalanceCfg *b, int *out, int *n, double v) {
  if (!isfinite(v) || *n >= b->points) return;
  int x = (int)lround(v);
  if (x < b->lo || x > b->hi) return;
  for (int i = 0; i < *n; i++)
    if (out[i] == x) return;
  out[(*n)++] = x;
}

/* the values of round r: spread over the range first, then around the crossing */
static int bal_design(const Bal *B, int r, int *out) {
  const BalanceCfg *b = B->b;
  int n = 0;
  if (r == 0) {
    for (int i = 0; i < b->points; i++)
      bal_add(b, out, &n, b->points > 1 ? b->lo + (double)i * (b->hi - b->lo) / (b->points - 1) : b->lo);
  } else {
    double c = bal_guess(B), f0 = floor(c);
    bal_add(b, out, &n, f0);
    bal_add(b, out, &n, f0 + 1);
    if (f0 == c) bal_add(b, out, &n, f0 - 1);
    if (B->fit.ok && B->fit.bounded) {
      bal_add(b, out, &n, floor(B->fit.xlo));
      bal_add(b, out, &n, ceil(B->fit.xhi));
    }
    for (int d = 1; d <= b->hi - b->lo && n < b->points; d++) {
      bal_add(b, out, &n, f0 - d);
      bal_add(b, out, &n, f0 + 1 + d);
    }
  }
  for (int i = 1; i < n; i++) /* in order */
    for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
      int t = out[j];
      out[j] = out[j - 1], out[j - 1] = t;
    }
  return n;
}

/* the answer's words: the crossing and its interval, or why there is none */
static void bal_answer(const Bal *B, Buf *o) {
  const BalanceCfg *b = B->b;
  const LogitFit *f = &B->fit;
  double t = 100 * b->target;
  if (B->verdict != BV_REACHED) {
    const BPoint *e = &B->pt[0];
    for (int i = 0; i < B->np; i++) { /* the value closest to the target */
      double d = fabs((double)B->pt[i].k / B->pt[i].n - b->target);
      if (d < fabs((double)e->k / e->n - b->target)) e = &B->pt[i];
    }
    Interval w = wilson(e->k, e->n, Z95);
    buf_printf(o, "**No value of `%s` in %d..%d reaches a French win rate of %.1f%%**: the 95%% "
               "interval of every value played lies %s it (the closest: %s = %d, %.1f%% [%.1f, "
               "%.1f] in %ld games); a value not played could reach it only if the rate jumped "
               "between two neighbouring values played.", b->param, b->lo, b->hi, t, B->verdict == BV_BELOW ? "below" : "above",
               b->param, e->v, 100 * w.p, 100 * w.lo, 100 * w.hi, e->n);
    if (f->ok && isfinite(f->xs))
      buf_printf(o, " The logistic fit would cross %.1f%% at %s = %.2f, outside the range.", t,
                 b->param, f->xs);
    buf_printf(o, "\n");
    return;
  }
  if (!f->ok || !isfinite(f->xs)) {
    buf_printf(o, "**No logistic fit** (the games do not tell a slope): read the played values "
               "below.\n");
    return;
  }
  buf_printf(o, "**`%s` = %.2f** makes the French win rate %.1f%% (the logistic fit's crossing; "
             "95%% Fieller interval ", b->param, f->xs, t);
  if (f->bounded) buf_printf(o, "[%.2f, %.2f]).", f->xlo, f->xhi);
  else buf_printf(o, "unbounded: the slope is not told from 0).");
  if (f->xs < b->lo || f->xs > b->hi)
    buf_printf(o, " This lies outside the range %d..%d searched.", b->lo, b->hi);
  buf_printf(o, "\n");
}

/* the two whole values around the crossing, with their own games, and where the played rates
 * cross (an integer parameter has no value in between: these are the designer's choices) */
static void bal_bracket(const Bal *B, Buf *o) {
  const BalanceCfg *b = B->b;
  double t = 100 * b->target;
  if (B->verdict == BV_REACHED && B->fit.ok && isfinite(B->fit.xs)) {
    int v0 = (int)floor(B->fit.xs);
    buf_printf(o, "\nThe whole values around it:");
    for (int v = v0; v <= v0 + 1; v++) {
      const BPoint *p = NULL;
      for (int i = 0; i < B->np; i++)
        if (B->pt[i].v == v) p = &B->pt[i];
      if (!p) { buf_printf(o, " %s = %d (not played%s)", b->param, v, v == v0 ? ";" : "."); continue; }
      Interval w = wilson(p->k, p->n, Z95);
      buf_printf(o, " %s = %d gives %.1f%% [%.1f, %.1f] (%ld games)%s", b->param, v, 100 * w.p,
                 100 * w.lo, 100 * w.hi, p->n, v == v0 ? ";" : ".");
    }
    buf_printf(o, "\n");
  }
  int i0 = 0, n = 0;
  double at = bal_sweep_crossing(B, &i0, &n);
  if (n == 0) buf_printf(o, "\nThe played rates never cross %.1f%%.\n", t);
  else
    buf_printf(o, "\nThe played rates cross %.1f%% between %s = %d and %d (linear interpolation "
               "%.2f)%s.\n", t, b->param, B->pt[i0].v, B->pt[i0 + 1].v, at,
               n > 1 ? "; they cross it more than once: the rate does not move one way with the value" : "");
}

/* the values played, pooled over the rounds, and the fit */
static void bal_table(const Bal *B, Buf *o) {
  const BalanceCfg *b = B->b;
  const LogitFit *f = &B->fit;
  buf_printf(o, "\n## Values played (every round pooled)\n\n| `%s` | games | French wins | French win "
             "[95%% Wilson] | fitted |\n|---:|---:|---:|---|---:|\n", b->param);
  for (int i = 0; i < B->np; i++) {
    const BPoint *p = &B->pt[i];
    Interval w = wilson(p->k, p->n, Z95);
    buf_printf(o, "| %d | %ld | %ld | %.1f%% [%.1f, %.1f] | ", p->v, p->n, p->k, 100 * w.p,
               100 * w.lo, 100 * w.hi);
    if (f->ok) buf_printf(o, "%.1f%% |\n", 100 * logit_p(f, p->v));
    else buf_printf(o, "— |\n");
  }
  if (!f->ok) return;
  buf_printf(o, "\nFit: logit P(French win) = %.4f %+.4f × %s (standard errors %.4f, %.4f), by "
             "maximum likelihood over every game. Pearson's χ² of the fit: %.2f on %d df",
             f->a, f->b, b->param, sqrt(f->va), sqrt(f->vb), f->chi2, f->df);
  if (f->df > 0)
    buf_printf(o, ", p = %.3g%s", f->gof_p,
               f->gof_p < 0.05 ? " (the rate is not logistic in the value: read the played values "
                                 "around the crossing, not the curve far from it)" : "");
  buf_printf(o, ".");
  if (f->disp > 1)
    buf_printf(o, " The values scatter %.2f times more than binomial noise about the curve: the "
               "standard errors and the crossing's interval are widened by that factor's square "
               "root (quasi-binomial).", f->disp);
  buf_printf(o, "\n");
}

static void bal_rounds(const Bal *B, Buf *o) {
  const BalanceCfg *b = B->b;
  buf_printf(o, "\n## Rounds\n\nRound 1 spreads %d values over the range; each later round plays "
             "the whole values around the crossing fitted so far and the ends of its interval. "
             "Round r plays the seeds of `--seed` + r − 1, so a value played again adds new "
             "games; its games and journal are in `round-r/`.\n\n| round | seed | games a value | "
             "values |\n|---:|---:|---:|---|\n", b->points);
  for (int r = 0; r < B->nr; r++) {
    buf_printf(o, "| %d | %llu | %ld | ", r + 1, (unsigned long long)(b->seed + (uint64_t)r), b->games);
    for (int i = 0; i < B->nrv[r]; i++) buf_printf(o, "%s%d", i ? ", " : "", B->rv[r][i]);
    buf_printf(o, " |\n");
  }
  if (B->nr < b->rounds)
    buf_printf(o, "\nStopped after round %d of %d: no value can reach the target.\n", B->nr, b->rounds);
}

/* the command that reproduces the run (no --threads, --out, --resume) */
static void bal_command(const BalanceCfg *b, Buf *o) {
  buf_printf(o, "./waterloo balance --scenario %s --param %s --range %d,%d --target %g --players "
             "'%s/%s' --games %ld --points %d --rounds %d --seed %llu", b->scen, b->param, b->lo,
             b->hi, b->target, b->pf, b->pa, b->games, b->points, b->rounds,
             (unsigned long long)b->seed);
  if (b->fix[0]) buf_printf(o, " --fix '%s'", b->fix);
}

static void bal_md(const Bal *B, Buf *o) {
  const BalanceCfg *b = B->b;
  char cap[CAPTION_LEN];
  build_caption(cap, sizeof cap, spec_searches(b->pf) || spec_searches(b->pa));
  buf_printf(o, "# Which `%s` makes the %s game even? French win rate %.1f%%, %s (French) "
             "against %s (Allied)\n\n%s\n\nCommand: `", b->param, b->scen, 100 * b->target, b->pf,
             b->pa, cap);
  bal_command(b, o);
  buf_printf(o, "`%s%s%s\n\n", b->fix[0] ? " (held fixed: `" : "", b->fix, b->fix[0] ? "`)" : "");
  bal_answer(B, o);
  bal_bracket(B, o);
  buf_printf(o, "\nThe answer holds for these players: another level can put the crossing "
             "elsewhere. Chart: [balance.svg](balance.svg).\n");
  if (!spec_searches(b->pf) && !spec_searches(b->pa)) buf_printf(o, "\n%s\n", LAB_NO_SEARCH);
  bal_table(B, o);
  bal_rounds(B, o);
  buf_printf(o, "\nReplay a game: `./waterloo replay --scenario %s --variant '%s%s%s=V' "
             "--players '%s/%s' --seed SEED --index I` (SEED of its round).\n", b->scen, b->fix,
             b->fix[0] ? "+" : "", b->param, b->pf, b->pa);
}

/* ---------------------------------------------------------------- balance.svg */
typedef struct { double L, T, W, H, x0, x1; } Plot;
static double px(const Plot *P, double v) { return P->L + P->W * (v - P->x0) / (P->x1 - P->x0); }
static double py(const Plot *P, double p) { return P->T + P->H * (1 - p); }

static void bal_svg_axes(const Bal *B, const Plot *P, Buf *o) {
  const BalanceCfg *b = B->b;
  for (int g = 0; g <= 10; g += 2) {
    double y = py(P, g / 10.0);
    buf_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
               "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%d%%</text>\n",
               P->L, y, P->L + P->W, y, P->L - 6, y + 4, g * 10);
  }
  int step = (b->hi - b->lo) / 12 + 1;
  for (int v = b->lo; v <= b->hi; v += step)
    buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>\n", px(P, v),
               P->T + P->H + 18, v);
  buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
             P->L + P->W / 2, P->T + P->H + 38, b->param);
  double yt = py(P, b->target);
  buf_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\" "
             "stroke-dasharray=\"5 4\"/><text x=\"%.1f\" y=\"%.1f\" fill=\"#666\">target %.1f%%</text>\n",
             P->L, yt, P->L + P->W, yt, P->L + 4, yt - 5, 100 * b->target);
}

static void bal_svg_fit(const Bal *B, const Plot *P, Buf *o) {
  const LogitFit *f = &B->fit;
  if (!f->ok) return;
  if (B->verdict == BV_REACHED && isfinite(f->xs)) {
    double a = fmax(f->xlo, P->x0), z = fmin(f->xhi, P->x1);
    if (a < z)
      buf_printf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#c0392b\" "
                 "fill-opacity=\"0.12\"/>\n", px(P, a), P->T, px(P, z) - px(P, a), P->H);
    if (f->xs >= P->x0 && f->xs <= P->x1)
      buf_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c0392b\"/>\n"
                 "<text x=\"%.1f\" y=\"%.1f\" fill=\"#c0392b\">%.2f</text>\n", px(P, f->xs), P->T,
                 px(P, f->xs), P->T + P->H, px(P, f->xs) + 4, P->T + 14, f->xs);
  }
  buf_printf(o, "<polyline fill=\"none\" stroke=\"#1f5fbf\" stroke-width=\"1.5\" points=\"");
  for (int i = 0; i <= 200; i++) {
    double v = P->x0 + (P->x1 - P->x0) * i / 200;
    buf_printf(o, "%.1f,%.1f ", px(P, v), py(P, logit_p(f, v)));
  }
  buf_printf(o, "\"/>\n");
}

static void bal_svg(const Bal *B, Buf *o) {
  const BalanceCfg *b = B->b;
  double pad = (b->hi - b->lo) * 0.04 + 0.5;
  Plot P = {70, 46, 660, 300, b->lo - pad, b->hi + pad};
  buf_printf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"420\" "
             "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"760\" height=\"420\" "
             "fill=\"white\"/>\n<text x=\"70\" y=\"20\" font-size=\"15\">French win rate against "
             "%s, %s game, %s vs %s%s</text>\n<text x=\"70\" y=\"36\" fill=\"#555\">points: the "
             "values played with their 95%% Wilson interval; line: the logistic fit; band: the "
             "crossing's 95%% Fieller interval</text>\n", b->param, b->scen, b->pf, b->pa,
             !spec_searches(b->pf) && !spec_searches(b->pa) ? " (not search-level)" : "");
  bal_svg_axes(B, &P, o);
  bal_svg_fit(B, &P, o);
  for (int i = 0; i < B->np; i++) {
    const BPoint *p = &B->pt[i];
    Interval w = wilson(p->k, p->n, Z95);
    double x = px(&P, p->v);
    buf_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#222\"/>"
               "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#222\"/>\n", x, py(&P, w.lo), x,
               py(&P, w.hi), x, py(&P, w.p));
  }
  buf_printf(o, "</svg>\n");
}

/* ---------------------------------------------------------------- the run */
/* the range's ends load (a parameter of one number, values the rules accept) */
static int bal_check(const BalanceCfg *b) {
  int v[2] = {b->lo, b->hi};
  for (int i = 0; i < 2; i++) {
    char lab[64];
    if (bal_label(b, v[i], lab, sizeof lab)) {
      fprintf(stderr, "balance: --fix and --param make a cell name over 63 characters\n");
      return 2;
    }
    Scen *sc = sim_scen_load("balance", b->scen, lab);
    if (!sc) return 2;
    free(sc);
  }
  char err[512];
  if (player_spec_check(b->pf, err, sizeof err) || player_spec_check(b->pa, err, sizeof err)) {
    fprintf(stderr, "balance: %s\n", err);
    return 2;
  }
  return 0;
}

/* a number for JSON: null when not finite */
static void bal_jnum(Buf *o, const char *key, double v, const char *end) {
  if (isfinite(v)) buf_printf(o, "\"%s\": %.10g%s", key, v, end);
  else buf_printf(o, "\"%s\": null%s", key, end);
}

/* balance.json: the same answer for a script */
static void bal_json(const Bal *B, Buf *o) {
  const BalanceCfg *b = B->b;
  const LogitFit *f = &B->fit;
  static const char *verdict[] = {"reached", "below", "above"};
  buf_printf(o, "{\n  \"scenario\": \"%s\", \"param\": \"%s\", \"fix\": \"%s\", \"lo\": %d, "
             "\"hi\": %d, \"target\": %g,\n  \"french\": \"%s\", \"allied\": \"%s\", \"seed\": %llu, "
             "\"rounds_played\": %d,\n  \"verdict\": \"%s\", \"fit_ok\": %s, ", b->scen, b->param,
             b->fix, b->lo, b->hi, b->target, b->pf, b->pa, (unsigned long long)b->seed, B->nr,
             verdict[B->verdict], f->ok ? "true" : "false");
  bal_jnum(o, "crossing", f->ok ? f->xs : NAN, ", ");
  bal_jnum(o, "crossing_lo", f->ok ? f->xlo : NAN, ", ");
  bal_jnum(o, "crossing_hi", f->ok ? f->xhi : NAN, ",\n  ");
  bal_jnum(o, "a", f->ok ? f->a : NAN, ", ");
  bal_jnum(o, "b", f->ok ? f->b : NAN, ", ");
  bal_jnum(o, "chi2", f->ok ? f->chi2 : NAN, ", ");
  bal_jnum(o, "gof_p", f->ok ? f->gof_p : NAN, ", ");
  bal_jnum(o, "dispersion", f->ok ? f->disp : NAN, ",\n  \"values\": [");
  for (int i = 0; i < B->np; i++) {
    Interval w = wilson(B->pt[i].k, B->pt[i].n, Z95);
    buf_printf(o, "%s\n    {\"value\": %d, \"games\": %ld, \"french_wins\": %ld, \"rate\": %.10g, "
               "\"lo\": %.10g, \"hi\": %.10g}", i ? "," : "", B->pt[i].v, B->pt[i].n, B->pt[i].k,
               w.p, w.lo, w.hi);
  }
  buf_printf(o, "\n  ]\n}\n");
}

/* rank 0 writes balance.md, balance.svg and balance.json, and says the answer on stdout */
static int bal_write(const Bal *B) {
  if (B->rank != 0) return 0;
  const BalanceCfg *b = B->b;
  Buf md = {0}, svg = {0}, ans = {0}, js = {0};
  bal_md(B, &md);
  bal_svg(B, &svg);
  bal_json(B, &js);
  char p1[1100], p2[1100], p3[1100];
  snprintf(p1, sizeof p1, "%s/balance.md", b->out);
  snprintf(p2, sizeof p2, "%s/balance.svg", b->out);
  snprintf(p3, sizeof p3, "%s/balance.json", b->out);
  int rc = write_atomic(p1, md.s, md.n) || write_atomic(p2, svg.s, svg.n) ||
           write_atomic(p3, js.s, js.n);
  buf_free(&js);
  if (rc) fprintf(stderr, "balance: cannot write %s: %s\n", p1, strerror(errno));
  bal_answer(B, &ans);
  printf("%s", ans.s);
  if (b->progress) fprintf(stderr, "balance: report in %s/balance.md, chart %s/balance.svg\n", b->out, b->out);
  buf_free(&md);
  buf_free(&svg);
  buf_free(&ans);
  return rc ? 2 : 0;
}

/* --overwrite: the journals of every round folder go (a new design may play fewer rounds) */
static void bal_overwrite(const BalanceCfg *b) {
  for (int r = 1; r <= LAB_MAX_ROUNDS; r++) {
    char d[1100];
    snprintf(d, sizeof d, "%s/round-%d", b->out, r);
    remove_journals(d);
  }
}

static int bal_rounds_play(Bal *B) {
  const BalanceCfg *b = B->b;
  double cpu0 = clock_cpu();
  int rc = 0;
  for (int r = 0; r < b->rounds && !rc; r++) {
    if (r > 0 && B->verdict != BV_REACHED) break; /* no value can reach the target */
    B->nrv[r] = bal_design(B, r, B->rv[r]);
    if (B->nrv[r] == 0) break;
    rc = bal_play_round(B, r);
    if (rc) break;
    B->nr = r + 1;
    bal_assess(B);
  }
  if (!rc && b->progress && B->rank == 0)
    fprintf(stderr, "balance: %d rounds, %ld games played now in %.1f CPU s\n", B->nr, B->games,
            clock_cpu() - cpu0);
  return rc;
}

int lab_mpi_begin(int *rank, int *size) {
  *rank = 0, *size = 1;
  int mine = 0;
#ifdef USE_MPI
  int inited = 0;
  MPI_Initialized(&inited);
  if (!inited) {
    int prov;
    MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &prov);
    mine = 1;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
#endif
  return mine;
}

void lab_mpi_end(int mine) {
#ifdef USE_MPI
  if (mine) MPI_Finalize();
#else
  (void)mine;
#endif
}

int balance_run(const BalanceCfg *b) {
  Bal *B = calloc(1, sizeof *B);
  if (!B) { fprintf(stderr, "balance: out of memory\n"); return 2; }
  B->b = b;
  int rc = bal_check(b), mine = lab_mpi_begin(&B->rank, &B->size);
  if (!rc && b->overwrite && B->rank == 0) bal_overwrite(b);
  if (!rc && B->rank == 0 && mkdir_p(b->out)) {
    fprintf(stderr, "balance: cannot create %s: %s\n", b->out, strerror(errno));
    rc = 2;
  }
  if (!rc) rc = bal_rounds_play(B);
  if (!rc) rc = bal_write(B);
  lab_mpi_end(mine);
  free(B);
  return rc;
}
