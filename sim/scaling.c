/* ./waterloo scaling: does the search get stronger the longer it thinks?  For each scenario,
 * the mirrored head-to-head match of every doubling of a search's budget (2x against 1x, 4x
 * against 2x, ...), judged on the score and on the paired margin with Holm's adjustment over the
 * steps, the Elo curve against log2(budget) cumulated from the first level, as Markdown and SVG
 * (issue 19 item 4).  The matches are `strength`'s (match.h): the same journal, --resume and
 * growth, mirrored pairs, pentanomial counts and paired margin; each finished seed is
 * journalled, so a killed run loses only the games under way. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/num.h"
#include "../engine/util.h"
#include "match.h"

#define MAX_DOUBLINGS SCALING_MAX_DOUBLINGS
#define ALPHA 0.05

/* one step of the ladder: the match of level k + 1 (A) against level k (B), its judgement */
typedef struct {
  MatchRes r;
  int played;
  double elo, elo_lo, elo_hi;  /* Elo of A over B and its 95% interval (+-inf: unbounded)     */
  int wilson;                  /* 1: the interval is over the games (Wilson), every pair equal */
  double los;                  /* likelihood of superiority from the pairs, NAN: no spread    */
  double s, s_var;             /* mean pair score of A (a game's share) and the variance of
                                  the mean (NAN: no spread)                                  */
  double p[2], holm[2];        /* one-sided p of "A is stronger": score (0), margin (1); NAN
                                  when unknown (no spread): Holm takes it as 1               */
  double m, m_lo, m_hi, m_var; /* mean paired margin, its 95% t interval and the variance of
                                  the mean (NAN: unknown)                                    */
} Step;

/* one run of `scaling` */
typedef struct {
  const char *from, *out, *scen_arg;
  int doublings, threads, resume, overwrite;
  long games;
  uint64_t seed;
  char scens[2][16];
  long sgames[2];              /* games per step of each scenario (SCEN@N, else --games)     */
  int ns;
  char spec[MAX_DOUBLINGS + 1][160];
  long budget[MAX_DOUBLINGS + 1];
  char svg[1100];
  Step steps[2][MAX_DOUBLINGS];
  MatchJournal J;
  Buf b;
} Scaling;

/* --scenario short,long (each optionally SCEN@N) */
static int scaling_scenarios(Scaling *S) {
  char buf[128];
  snprintf(buf, sizeof buf, "%s", S->scen_arg);
  char *save = NULL;
  for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    long n = S->games;
    char *at = strchr(t, '@');
    if (at) {
      *at = 0;
      if (num_long(at + 1, 2, SIM_MAX_GAMES, &n)) {
        fprintf(stderr, "scaling: --scenario %s@%s: the games must be a number, 2 to %ld\n", t, at + 1, SIM_MAX_GAMES);
        return 2;
      }
      n += n % 2;
    }
    if (S->ns == 2 || (strcmp(t, "short") && strcmp(t, "long")) ||
        (S->ns == 1 && !strcmp(S->scens[0], t))) {
      fprintf(stderr, "scaling: --scenario takes short, long or short,long (not '%s')\n", t);
      return 2;
    }
    snprintf(S->scens[S->ns], sizeof S->scens[0], "%s", t);
    S->sgames[S->ns++] = n;
  }
  if (!S->ns) { fprintf(stderr, "scaling: --scenario names no scenario\n"); return 2; }
  return 0;
}

/* the iteration budget of a spec (its canonical iters=N), 0 when it has none */
static long spec_budget(const char *spec) {
  char canon[1024], err[300];
  if (player_spec_canonical(spec, NULL, canon, sizeof canon, err, sizeof err)) return 0;
  const char *p = strstr(canon, "iters=");
  while (p && p > canon && p[-1] != ':' && p[-1] != ',') p = strstr(p + 1, "iters=");
  return p ? strtol(p + 6, NULL, 10) : 0;
}

/* the spec of from with its budget multiplied by mult: LEVEL[*K] -> LEVEL*(K mult), or the
 * number of iters=N multiplied; -1 when from has neither */
static int spec_times(const char *from, long mult, char *out, size_t len) {
  const char *colon = strchr(from, ':');
  if (!colon) return -1;
  const char *tok = colon + 1, *end = tok + strcspn(tok, ",");
  if (!memchr(tok, '=', (size_t)(end - tok)) && end > tok) { /* a level first */
    const char *star = memchr(tok, '*', (size_t)(end - tok));
    double k = star ? strtod(star + 1, NULL) : 1;
    const char *lend = star ? star : end;
    if (mult == 1) { snprintf(out, len, "%s", from); return 0; }
    snprintf(out, len, "%.*s*%g%s", (int)(lend - from), from, k * (double)mult, end);
    return 0;
  }
  for (const char *p = tok;;) {
    size_t l = strcspn(p, ",");
    if (!strncmp(p, "iters=", 6)) {
      long n = strtol(p + 6, NULL, 10);
      const char *rest = p + 6 + strspn(p + 6, "0123456789");
      snprintf(out, len, "%.*siters=%ld%s", (int)(p - from), from, n * mult, rest);
      return 0;
    }
    if (!p[l]) break;
    p += l + 1;
  }
  return -1;
}

/* the levels: from and its doublings, each spec checked and its budget known */
static int scaling_levels(Scaling *S) {
  for (int k = 0; k <= S->doublings; k++) {
    char err[300];
    if (spec_times(S->from, 1L << k, S->spec[k], sizeof S->spec[k])) {
      fprintf(stderr, "scaling: --from %s: give a level (mcts:sim, mcts:easy*2) or iters=N "
                      "(mcts:iters=128)\n", S->from);
      return 2;
    }
    if (player_spec_check(S->spec[k], err, sizeof err)) {
      fprintf(stderr, "scaling: --from %s: %s\n", S->from, err);
      return 2;
    }
    S->budget[k] = spec_budget(S->spec[k]);
    if (S->budget[k] <= 0) {
      fprintf(stderr, "scaling: --from %s: this player has no iteration budget to double\n", S->from);
      return 2;
    }
  }
  size_t n = strlen(S->out);
  if (n > 3 && !strcmp(S->out + n - 3, ".md")) snprintf(S->svg, sizeof S->svg, "%.*s.svg", (int)(n - 3), S->out);
  else snprintf(S->svg, sizeof S->svg, "%s.svg", S->out);
  return 0;
}

/* ---------------------------------------------------------------- judging a step */
/* the Elo of A over B and its 95% interval: from the pair scores (Student t over the seeds),
 * or, when every pair scored the same (no spread), from the Wilson interval of the games */
static void step_elo(Step *st) {
  const MatchRes *r = &st->r;
  double sum = 0, sum2 = 0;
  long n = 0;
  for (int q = 0; q < 5; q++) {
    n += r->penta[q];
    sum += r->penta[q] * (q / 4.0);
    sum2 += r->penta[q] * (q / 4.0) * (q / 4.0);
  }
  Interval iv = mean_t(sum, sum2, n, 0.95);
  double se = n > 1 ? (iv.hi - iv.lo) / 2 / t_quantile(0.975, (double)n - 1) : 0;
  st->wilson = !(se > 1e-12);
  st->s = iv.p;
  st->s_var = st->wilson ? NAN : se * se;
  PentaStats ps;
  penta_stats(r->penta, &ps);
  st->los = st->wilson ? NAN : ps.los;
  st->p[0] = st->wilson ? NAN : 1 - t_cdf((iv.p - 0.5) / se, (double)n - 1);
  if (st->wilson) {
    st->elo = elo_from_score((r->w + 0.5 * r->d) / (double)r->games);
    elo_bounds_wilson(r->w, r->l, r->d, &st->elo_lo, &st->elo_hi);
  } else {
    st->elo = elo_from_score(iv.p);
    double wlo, whi; /* an end of the t interval past 0% or 100%: the finite Wilson bound */
    elo_bounds_wilson(r->w, r->l, r->d, &wlo, &whi);
    st->elo_lo = iv.lo > 0 ? elo_from_score(iv.lo) : wlo;
    st->elo_hi = iv.hi < 1 ? elo_from_score(iv.hi) : whi;
  }
}

/* the paired margin of A over B: mean, 95% t interval, one-sided p (NAN: no spread) */
static void step_margin(Step *st) {
  const MatchRes *r = &st->r;
  long n = r->mpairs;
  Interval iv = mean_t(r->msum, r->msum2, n, 0.95);
  st->m = iv.p;
  double se = n > 1 ? (iv.hi - iv.lo) / 2 / t_quantile(0.975, (double)n - 1) : 0;
  if (se > 1e-12) {
    st->m_lo = iv.lo;
    st->m_hi = iv.hi;
    st->m_var = se * se;
    st->p[1] = 1 - t_cdf(iv.p / se, (double)n - 1);
  } else {
    st->m_lo = st->m_hi = st->m_var = st->p[1] = NAN;
  }
}

/* both measures of every step, and Holm's adjustment over the steps for each measure */
static void scaling_judge(Scaling *S, int si) {
  Step *st = S->steps[si];
  for (int k = 0; k < S->doublings; k++)
    if (st[k].played) { step_elo(&st[k]); step_margin(&st[k]); }
  for (int m = 0; m < 2; m++) {
    double p[MAX_DOUBLINGS], adj[MAX_DOUBLINGS];
    int idx[MAX_DOUBLINGS], n = 0;
    for (int k = 0; k < S->doublings; k++)
      if (st[k].played) {
        idx[n] = k;
        p[n++] = isnan(st[k].p[m]) ? 1.0 : st[k].p[m];
      }
    holm_adjust(p, n, adj);
    for (int k = 0; k < S->doublings; k++) st[k].holm[m] = NAN;
    for (int i = 0; i < n; i++) st[idx[i]].holm[m] = adj[i];
  }
}

/* ---------------------------------------------------------------- the levels, cumulated */
typedef struct {
  double elo, lo, hi;          /* Elo over the first level, 95% (+-inf: unbounded); NAN: a
                                  step below it was not played                             */
  double m, m_lo, m_hi;        /* the paired margin likewise (NAN: unknown)                 */
  double cpu;                  /* CPU seconds of its own decisions per game, NAN: unknown  */
} Level;

/* level i over level 0: the steps' Elos added, the deviations of each side of their intervals
 * added in quadrature (when a step's Elo is infinite, its every game won or lost: the ends of
 * the steps' intervals added instead); the margins added, the variances added,
 * Welch–Satterthwaite degrees of freedom for the t quantile */
static void scaling_level(const Scaling *S, int si, int i, Level *L) {
  const Step *st = S->steps[si];
  double e = 0, dl = 0, dh = 0, slo = 0, shi = 0, m = 0, v = 0, v2n = 0;
  int ok = 1, mok = 1, inf = 0;
  for (int k = 0; k < i; k++) {
    if (!st[k].played) { ok = mok = 0; break; }
    e += st[k].elo;
    inf |= isinf(st[k].elo);
    slo += st[k].elo_lo;
    shi += st[k].elo_hi;
    dl += (st[k].elo - st[k].elo_lo) * (st[k].elo - st[k].elo_lo);
    dh += (st[k].elo_hi - st[k].elo) * (st[k].elo_hi - st[k].elo);
    m += st[k].m;
    if (isnan(st[k].m_var)) mok = 0;
    else {
      v += st[k].m_var;
      v2n += st[k].m_var * st[k].m_var / (double)(st[k].r.mpairs - 1);
    }
  }
  L->elo = ok ? e : NAN;
  L->lo = !ok ? NAN : inf ? slo : e - sqrt(dl);
  L->hi = !ok ? NAN : inf ? shi : e + sqrt(dh);
  if (i == 0) L->lo = L->hi = 0;
  double h = mok && i > 0 ? t_quantile(0.975, v * v / v2n) * sqrt(v) : 0;
  L->m = ok ? m : NAN;
  L->m_lo = mok ? m - h : NAN;
  L->m_hi = mok ? m + h : NAN;
  double cpu = 0;
  long g = 0;
  if (i > 0 && st[i - 1].played) { cpu += st[i - 1].r.cpu_a; g += st[i - 1].r.cpu_games; }
  if (i < S->doublings && st[i].played) { cpu += st[i].r.cpu_b; g += st[i].r.cpu_games; }
  L->cpu = g > 0 ? cpu / (double)g : NAN;
}

/* x with dec decimals and its sign, "0" for what rounds to 0, "+inf" / "-inf" */
static void fmt_num(char *buf, size_t len, double x, int dec) {
  if (isinf(x)) snprintf(buf, len, "%s", x > 0 ? "+inf" : "-inf");
  else if (fabs(x) < 0.5 * pow(10, -dec)) snprintf(buf, len, "%.*f", dec, 0.0);
  else snprintf(buf, len, "%+.*f", dec, x);
}

/* "+88.7 [+12.3, +170.0]"; "[?]" when the interval is unknown */
static void fmt_iv(char *buf, size_t len, double x, double lo, double hi, int dec) {
  char a[24], l[24], h[24];
  fmt_num(a, sizeof a, x, dec);
  if (isnan(lo) || isnan(hi)) { snprintf(buf, len, "%s [?]", a); return; }
  fmt_num(l, sizeof l, lo, dec);
  fmt_num(h, sizeof h, hi, dec);
  snprintf(buf, len, "%s [%s, %s]", a, l, h);
}

static void fmt_p(char *buf, size_t len, double p) {
  if (isnan(p)) snprintf(buf, len, "—");
  else snprintf(buf, len, "%.3g", p);
}

static void fmt_cpu(char *buf, size_t len, double cpu, long games) {
  if (games <= 0) snprintf(buf, len, "—");
  else snprintf(buf, len, "%.2f", cpu / (double)games);
}

/* ---------------------------------------------------------------- the report */
static void scaling_preamble(Scaling *S) {
  Buf *b = &S->b;
  char cap[CAPTION_LEN];
  build_caption(cap, sizeof cap, spec_searches(S->from));
  buf_printf(b, "# Scaling: strength against thinking budget\n\n%s\n\nReproduce with:\n\n```\n"
                "./waterloo scaling --scenario %s --from %s --doublings %d --games %ld --seed %" PRIu64,
             cap, S->scen_arg, S->from, S->doublings, S->games, S->seed);
  if (strcmp(S->out, "results/scaling.md")) buf_printf(b, " --out %s", S->out);
  buf_printf(b, "\n```\n\n(add `--resume` to reuse `%s.journal`: it plays only the games it lacks; "
                "a larger `--games` grows every match.)\n\n", S->out);
  buf_printf(b, "Each step is a mirrored match of a level against the level with half its budget "
                "(iterations per full decision): every seed played twice with sides swapped, one "
                "pair. Both measures are means over the pairs, judged with Student's t over the "
                "seeds:\n\n"
                "- **score**: A's points per pair (0, ¼, ½, ¾ or 1 a game); the Elo is "
                "−400·log10(1/score − 1) and its 95%% interval the Elo of the score interval's ends "
                "(so it is not symmetric; an end past 0%% or 100%%, where the Elo would be "
                "infinite, is the finite Wilson bound of the games' score); ʷ: every pair scored the same, no spread is known, the "
                "interval is the Wilson interval of the games' score instead and no p-value is "
                "given. LOS: likelihood of superiority from the pentanomial counts (fishtest).\n"
                "- **margin**: per seed, the French margin when A played the French minus when B "
                "did, halved (objectives held at the end in the short game, VP(French) − "
                "VP(Allied) in the long): what A gets per game more than B, with the seed's and "
                "the side's effect cancelled.\n\n"
                "p: one-sided (H1: the doubled budget is stronger); Holm: adjusted by Holm's "
                "step-down method over the steps of the scenario, for each measure separately "
                "(an unknown p counts as 1). A step **gains** on a measure when its Holm-adjusted "
                "p is below %.2f.\n\n"
                "One gain a doubling: the steps' pair scores (and margins) pooled with weights "
                "1/variance (fixed effect, normal approximation): the common gain a doubling if "
                "every step gained alike, with its 95%% interval; Cochran's Q, whether the steps "
                "differ more than their own intervals allow (chi-square, steps − 1 df; a small p: "
                "they do, the gain is not one per doubling); and the weighted linear trend of the "
                "gain over the steps (below 0: each doubling gains less than the one before), "
                "two-sided p, and what is left of Q about that line (a small p: the steps differ "
                "more than a steady trend and chance would make them).\n\n"
                "Levels: the Elo and margin of each level over the first (= 0), the steps below it "
                "added; the interval adds the steps' lower and upper deviations in quadrature, "
                "each side apart (exact for the first step, an approximation beyond), the margin's "
                "with Welch–Satterthwaite degrees of freedom. CPU s/game: thread CPU seconds of "
                "that level's own decisions per game, over every game it played here (it depends "
                "on the machine, never on the result).\n\n", ALPHA);
  buf_printf(b, "![Elo against log2(budget)](%s)\n\n",
             strrchr(S->svg, '/') ? strrchr(S->svg, '/') + 1 : S->svg);
}

/* the row of step k */
static void scaling_step_row(Scaling *S, int si, int k) {
  const Step *st = &S->steps[si][k];
  const MatchRes *r = &st->r;
  char e[96], pn[64], los[16], p0[16], h0[16], m[96], p1[16], h1[16], ca[16], cb[16];
  fmt_iv(e, sizeof e, st->elo, st->elo_lo, st->elo_hi, 1);
  fmt_penta(pn, sizeof pn, r);
  if (isnan(st->los)) snprintf(los, sizeof los, "—");
  else snprintf(los, sizeof los, "%.1f%%", 100 * st->los);
  fmt_p(p0, sizeof p0, st->p[0]);
  fmt_p(h0, sizeof h0, st->holm[0]);
  fmt_iv(m, sizeof m, st->m, st->m_lo, st->m_hi, 2);
  fmt_p(p1, sizeof p1, st->p[1]);
  fmt_p(h1, sizeof h1, st->holm[1]);
  fmt_cpu(ca, sizeof ca, r->cpu_a, r->cpu_games);
  fmt_cpu(cb, sizeof cb, r->cpu_b, r->cpu_games);
  buf_printf(&S->b, "| %d | %s (%ld) | %s (%ld) | %ld | %ld - %ld - %ld | %.3f | %s | %s%s | %s | "
                    "%s | %s | %s | %s | %s | %s / %s |\n",
             k + 1, S->spec[k + 1], S->budget[k + 1], S->spec[k], S->budget[k], r->games, r->w,
             r->l, r->d, (r->w + 0.5 * r->d) / (double)r->games, pn, e, st->wilson ? " ʷ" : "",
             los, p0, h0, m, p1, h1, ca, cb);
}

/* the verdict of each step and the whole climb */
static void scaling_verdicts(Scaling *S, int si, const char *unit) {
  const Step *st = S->steps[si];
  buf_printf(&S->b, "\n");
  for (int k = 0; k < S->doublings; k++) {
    if (!st[k].played) continue;
    const char *w[2];
    for (int m = 0; m < 2; m++)
      w[m] = st[k].holm[m] < ALPHA ? "**gains**" : "no gain shown";
    buf_printf(&S->b, "- %s over %s: score %s (Holm p %.3g), margin %s (Holm p %.3g)\n",
               S->spec[k + 1], S->spec[k], w[0], st[k].holm[0], w[1], st[k].holm[1]);
  }
  Level L;
  scaling_level(S, si, S->doublings, &L);
  char e[96], m[96];
  fmt_iv(e, sizeof e, L.elo, L.lo, L.hi, 1);
  fmt_iv(m, sizeof m, L.m, L.m_lo, L.m_hi, 2);
  char per[48] = "";
  if (isfinite(L.elo)) {
    char x[24];
    fmt_num(x, sizeof x, L.elo / S->doublings, 1);
    snprintf(per, sizeof per, ", %s a doubling", x);
  }
  if (isnan(L.elo))
    buf_printf(&S->b, "- from %s to %s: not every step was played\n", S->spec[0], S->spec[S->doublings]);
  else
    buf_printf(&S->b, "- from %s (%ld) to %s (%ld), %d doublings: **%s Elo** in all (95%%)%s; "
                      "margin %s %s\n",
               S->spec[0], S->budget[0], S->spec[S->doublings], S->budget[S->doublings],
               S->doublings, e, per, m, unit);
}

/* one gain a doubling?  The steps' scores and margins pooled (stats.c pool_estimates): the
 * common gain, whether the steps differ more than chance would make them, and the trend */
static void scaling_alike(Scaling *S, int si, const char *unit) {
  const Step *st = S->steps[si];
  for (int m = 0; m < 2; m++) {
    double x[MAX_DOUBLINGS], v[MAX_DOUBLINGS];
    for (int k = 0; k < S->doublings; k++) {
      x[k] = !st[k].played ? NAN : m ? st[k].m : st[k].s;
      v[k] = !st[k].played ? NAN : m ? st[k].m_var : st[k].s_var;
    }
    Pooled P;
    pool_estimates(x, v, S->doublings, &P);
    if (P.n < 2) continue;
    double h = 1.959964 * sqrt(P.var), th = 1.959964 * sqrt(P.slope_var);
    char c[160], t[224] = "";
    if (m) {
      char g[96];
      fmt_iv(g, sizeof g, P.mean, P.mean - h, P.mean + h, 2);
      snprintf(c, sizeof c, "%s %s", g, unit);
    } else {
      char e[96];
      fmt_iv(e, sizeof e, elo_from_score(P.mean), elo_from_score(P.mean - h),
             elo_from_score(P.mean + h), 1);
      snprintf(c, sizeof c, "%.3f a game (%s Elo)", P.mean, e);
    }
    if (isfinite(P.slope)) {
      char sl[96];
      fmt_iv(sl, sizeof sl, P.slope, P.slope - th, P.slope + th, m ? 2 : 3);
      snprintf(t, sizeof t, "; trend from step to step %s %s a step, p %.2g; about that line "
               "Q %.1f on %d df, p %.2g", sl, m ? unit : "score", P.slope_p, P.q_line, P.n - 2,
               P.q_line_p);
    }
    buf_printf(&S->b, "- one gain a doubling, %s: %s a doubling over the %d steps; the steps "
                      "differ by Q %.1f on %d df, p %.2g (%s)%s\n",
               m ? "margin" : "score", c, P.n, P.q, P.n - 1, P.q_p,
               P.q_p < ALPHA ? "**more than chance**" : "no more than chance would make them", t);
  }
}

/* where the named levels of --from's kind fall on this ladder */
static void scaling_named_levels(Scaling *S) {
  static const char *names[] = {"sim", "easy", "normal", "hard", "expert"};
  const char *colon = strchr(S->from, ':');
  int n = 0;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    char spec[160];
    snprintf(spec, sizeof spec, "%.*s:%s", (int)(colon - S->from), S->from, names[i]);
    long bud = spec_budget(spec);
    if (bud <= 0) continue;
    buf_printf(&S->b, "%s`%s` %ld", n++ ? ", " : "\nThe named levels (iterations): ", spec, bud);
  }
  if (n) buf_printf(&S->b, ".\n");
}

/* the levels table of scenario si */
static void scaling_levels_table(Scaling *S, int si, const char *unit) {
  buf_printf(&S->b, "\n| level | iterations | log2 | Elo over the first (95%%) | margin over the "
                    "first, %s (95%%) | CPU s/game |\n|---|---:|---:|---|---|---:|\n", unit);
  for (int i = 0; i <= S->doublings; i++) {
    Level L;
    scaling_level(S, si, i, &L);
    char e[96], m[96], c[16];
    if (i == 0) snprintf(e, sizeof e, "0 (anchor)"), snprintf(m, sizeof m, "0 (anchor)");
    else if (isnan(L.elo)) snprintf(e, sizeof e, "—"), snprintf(m, sizeof m, "—");
    else {
      fmt_iv(e, sizeof e, L.elo, L.lo, L.hi, 1);
      fmt_iv(m, sizeof m, L.m, L.m_lo, L.m_hi, 2);
    }
    if (isnan(L.cpu)) snprintf(c, sizeof c, "—");
    else snprintf(c, sizeof c, "%.2f", L.cpu);
    buf_printf(&S->b, "| %s | %ld | %.2f | %s | %s | %s |\n", S->spec[i], S->budget[i],
               log2((double)S->budget[i]), e, m, c);
  }
  scaling_named_levels(S);
}

/* the section of one scenario: its matches played or read, judged and written; 2 on an error */
static int scaling_scenario(Scaling *S, int si) {
  const char *scen = S->scens[si];
  Scen *sc = sim_scen_load("scaling", scen, "base");
  if (!sc) return 2;
  uint32_t fp = play_fingerprint(sc);
  const char *unit = margin_unit(sc);
  char notes[2048] = "";
  for (int k = 0; k < S->doublings; k++) {
    Step *st = &S->steps[si][k];
    char err[512];
    fprintf(stderr, "scaling: %s: %s vs %s, %ld games\n", scen, S->spec[k + 1], S->spec[k], S->sgames[si]);
    int rc = mjournal_match(&S->J, scen, sc, fp, S->spec[k + 1], S->spec[k], S->sgames[si], &st->r, err, sizeof err);
    if (rc == 2) { free(sc); return 2; }
    st->played = rc == 0 && st->r.games > 0;
    if (rc == 1) {
      fprintf(stderr, "scaling: %s\n", err);
      size_t n = strlen(notes);
      snprintf(notes + n, sizeof notes - n, "- step %d not played: %s\n", k + 1, err);
    }
  }
  free(sc);
  scaling_judge(S, si);
  buf_printf(&S->b, "## %s game (%ld games a step)\n\n| step | A (iterations) | B (iterations) | games | "
                    "W - L - D | score | pairs 0-½-1-1½-2 | Elo A − B (95%%) | LOS | p | Holm p | "
                    "margin A − B, %s (95%%) | p | Holm p | CPU s/game A / B |\n"
                    "|---:|---|---|---:|---|---:|---|---|---:|---:|---:|---|---:|---:|---|\n",
             strcmp(scen, "short") ? "Long" : "Short", S->sgames[si], unit);
  for (int k = 0; k < S->doublings; k++)
    if (S->steps[si][k].played) scaling_step_row(S, si, k);
  if (notes[0]) buf_printf(&S->b, "\n%s", notes);
  scaling_verdicts(S, si, unit);
  scaling_alike(S, si, unit);
  scaling_levels_table(S, si, unit);
  buf_printf(&S->b, "\n");
  return 0;
}

/* ---------------------------------------------------------------- the chart */
typedef struct { double x0, x1, y0, y1; int W, H, L, R, T, B; } Frame;

static double fx(const Frame *f, double x) { return f->L + (f->W - f->L - f->R) * (x - f->x0) / (f->x1 - f->x0); }
static double fy(const Frame *f, double y) { return f->T + (f->H - f->T - f->B) * (f->y1 - y) / (f->y1 - f->y0); }

/* the y range: every finite end of every interval, and 0, on a grid step */
static double scaling_yrange(const Scaling *S, Frame *f) {
  double lo = 0, hi = 0;
  for (int si = 0; si < S->ns; si++)
    for (int i = 0; i <= S->doublings; i++) {
      Level L;
      scaling_level(S, si, i, &L);
      double v[3] = {L.elo, L.lo, L.hi};
      for (int q = 0; q < 3; q++)
        if (isfinite(v[q])) { lo = fmin(lo, v[q]); hi = fmax(hi, v[q]); }
    }
  double span = hi - lo > 1 ? hi - lo : 100, step = 50;
  while (span / step > 8) step *= 2;
  f->y0 = floor(lo / step) * step - step;
  f->y1 = ceil(hi / step) * step + step;
  return step;
}

/* the grid, the axes' labels and the title */
static void svg_frame(Buf *b, const Scaling *S, const Frame *f, double step) {
  buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"%d\" height=\"%d\" "
                "fill=\"white\"/>\n<text x=\"%d\" y=\"22\" font-size=\"15\">Elo over %s against "
                "log2(iterations per decision), 95%% intervals</text>\n",
             f->W, f->H, f->W, f->H, f->L, S->spec[0]);
  for (double y = f->y0; y <= f->y1 + 1e-9; y += step) {
    double py = fy(f, y);
    buf_printf(b, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>\n<text x=\"%d\" "
                  "y=\"%.1f\" text-anchor=\"end\">%s%.0f</text>\n", f->L, py, f->W - f->R, py,
               fabs(y) < 1e-9 ? "#888" : "#ddd", f->L - 6, py + 4, y > 1e-9 ? "+" : "",
               fabs(y) < 1e-9 ? 0.0 : y);
  }
  for (int i = 0; i <= S->doublings; i++) {
    double lx = log2((double)S->budget[i]), px = fx(f, lx);
    buf_printf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>\n<text x=\"%.1f\" "
                  "y=\"%d\" text-anchor=\"middle\">%.2g</text>\n<text x=\"%.1f\" y=\"%d\" "
                  "text-anchor=\"middle\" fill=\"#666\">%ld</text>\n", px, f->T, px, f->H - f->B, px,
               f->H - f->B + 16, lx, px, f->H - f->B + 31, S->budget[i]);
  }
  buf_printf(b, "<text x=\"%d\" y=\"%d\" fill=\"#666\">log2(iterations) / iterations; an open "
                "triangle: +-inf, off the chart</text>\n"
                "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" text-anchor=\"middle\">Elo "
                "over the first level</text>\n", f->L, f->H - f->B + 48,
             (f->T + f->H - f->B) / 2, (f->T + f->H - f->B) / 2);
}

/* one scenario's curve: points, 95% bars (an unbounded end drawn to the frame with an arrow) */
static void svg_curve(Buf *b, const Scaling *S, const Frame *f, int si) {
  const char *col = si ? "#c0392b" : "#1f5fbf";
  double px = NAN, py = NAN, off = S->ns > 1 ? (si ? 4 : -4) : 0;
  for (int i = 0; i <= S->doublings; i++) {
    Level L;
    scaling_level(S, si, i, &L);
    double x = fx(f, log2((double)S->budget[i])) + off;
    if (isinf(L.elo)) { /* every game won (lost) on a step below: off the chart */
      double ye = L.elo > 0 ? f->T : f->H - f->B;
      buf_printf(b, "<path d=\"M%.1f %.1f l-6 %d h12 z\" fill=\"none\" stroke=\"%s\"><title>%s, %s "
                    "game: %s Elo, off the chart</title></path>\n", x, ye, L.elo > 0 ? 10 : -10, col,
                 S->spec[i], S->scens[si], L.elo > 0 ? "+inf" : "-inf");
    }
    if (!isfinite(L.elo)) { px = NAN; continue; }
    double y = fy(f, L.elo);
    double ylo = isfinite(L.lo) ? fy(f, L.lo) : f->H - f->B, yhi = isfinite(L.hi) ? fy(f, L.hi) : f->T;
    buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x, ylo, x, yhi, col);
    if (!isfinite(L.hi)) buf_printf(b, "<path d=\"M%.1f %.1f l-4 8 h8 z\" fill=\"%s\"/>\n", x, yhi, col);
    if (!isfinite(L.lo)) buf_printf(b, "<path d=\"M%.1f %.1f l-4 -8 h8 z\" fill=\"%s\"/>\n", x, ylo, col);
    if (isfinite(px))
      buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\"/>\n", px, py, x, y, col);
    buf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>%s, %s game: %+.1f Elo</title></circle>\n",
               x, y, col, S->spec[i], S->scens[si], L.elo);
    px = x;
    py = y;
  }
  buf_printf(b, "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s game</text>\n",
             f->L + 10 + 120 * si, f->H - 12, col, f->L + 18 + 120 * si, f->H - 8, S->scens[si]);
}

static int scaling_svg(const Scaling *S) {
  Frame f = {0, 1, 0, 1, 760, 450, 70, 20, 40, 80};
  double a = log2((double)S->budget[0]), z = log2((double)S->budget[S->doublings]);
  f.x0 = a - 0.4;
  f.x1 = z + 0.4;
  double step = scaling_yrange(S, &f);
  Buf b = {0};
  svg_frame(&b, S, &f, step);
  for (int si = 0; si < S->ns; si++) svg_curve(&b, S, &f, si);
  buf_printf(&b, "</svg>\n");
  int rc = write_atomic(S->svg, b.s, b.n);
  buf_free(&b);
  if (rc) fprintf(stderr, "scaling: cannot write %s: %s\n", S->svg, strerror(errno));
  return rc ? 2 : 0;
}

/* ---------------------------------------------------------------- the command */
int scaling_main(const ScalingOpts *o) {
  Scaling *S = calloc(1, sizeof *S);
  if (!S) { fprintf(stderr, "scaling: out of memory\n"); return 2; }
  S->from = o->from;
  S->out = o->out;
  S->scen_arg = o->scen_arg;
  S->doublings = o->doublings;
  S->threads = o->threads;
  S->resume = o->resume;
  S->overwrite = o->overwrite;
  S->games = o->games;
  S->seed = o->seed;
  int rc = 0;
  if (rc == 0) rc = scaling_scenarios(S);
  if (rc == 0) rc = scaling_levels(S);
  if (rc == 0) {
    scaling_preamble(S);
    S->J.seed = S->seed;
    S->J.threads = S->threads;
    rc = mjournal_open(&S->J, "scaling", S->out, S->resume, S->overwrite);
  }
  for (int si = 0; si < S->ns && rc == 0; si++) rc = scaling_scenario(S, si);
  if (rc == 0) rc = scaling_svg(S);
  if (rc == 0 && write_atomic(S->out, S->b.s, S->b.n)) {
    fprintf(stderr, "scaling: cannot write %s: %s\n", S->out, strerror(errno));
    rc = 2;
  }
  if (rc == 0) fprintf(stderr, "scaling: table in %s, chart in %s\n", S->out, S->svg);
  buf_free(&S->b);
  mjournal_close(&S->J);
  free(S);
  return rc == 1 ? 0 : rc;
}
