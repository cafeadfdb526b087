/* ./waterloo worth: what a rule is worth (restricted play, Jaffe et al. 2012).
 *
 * One sim run (sim_run: its journal, --resume, threads, MPI, its own report.md) of base and of
 * one cell per side x restriction of R-5.8 (ban_french=artillery, ban_allied=bid ...), every
 * cell on the same seeds as base.  The restriction is a rule the engine enforces in the legal
 * actions, so it binds the side's player and any search it runs.  worth.md and worth.svg give,
 * for each row, how much of its own win rate the restricted side loses: the worth of the
 * ability to that side, paired against the full rules, with Holm-adjusted intervals. */
#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "sim_int.h"

typedef struct {
  int side, bit, vi;     /* the restricted side, its BAN bit, its cell's variant index */
} WRow;

/* one row's result in one scenario */
typedef struct {
  int moot;              /* the side has nothing this restriction could bar here */
  long n, a, b, c, d;    /* pairs of the side's wins: a both, b full rules only, c barred only */
  double p, holm, phi;
  Interval base, barred, worth; /* worth = base - barred, at the Holm step's level */
  double vsum, vsum2;    /* long game: the side's VP margin, full rules minus restricted */
  Interval vp;           /* its mean, Student t at its own Holm step's level */
  double vp_p, vp_holm, vp_level; /* the paired t-test of the margin, Holm over the rows */
  double level;
} WRes;

typedef struct {
  const WorthCfg *w;
  WRow row[2 * BAN_BITS];
  int nrow;
  WRes res[2][2 * BAN_BITS];
  Run R;
} Worth;

/* whether ban bit `bit` can bar anything of `side` in sc */
static int worth_moot(const Scen *sc, int side, int bit) {
  if (1 << bit == BAN_BID) return !sc->p.bidding;
  if (bit > ACT_COUNT) return sc->p.cdp[bit - ACT_COUNT - 1] == 0;
  for (int c = 0; c < sc->ncards; c++) {
    int army = sc->card[c].army;
    if (side_of_army(army) != side || (army == ARMY_PR && !sc->p.prussians)) continue;
    if (sc->card[c].action == bit) return 0;
  }
  return 1;
}

/* the rows: every restriction asked for, for each side asked for, unless moot in every
 * scenario; each a cell of the run after base */
static int worth_rows(Worth *W) {
  const WorthCfg *w = W->w;
  Scen *sc[2] = {NULL, NULL};
  for (int si = 0; si < w->nscen; si++)
    if (!(sc[si] = sim_scen_load("worth", w->scen[si], "base"))) return 2;
  for (int bit = 0; bit < BAN_BITS; bit++) {
    if (!ban_name(bit) || (w->bans && !(w->bans & (1 << bit)))) continue;
    for (int side = 0; side < 2; side++) {
      if (!(w->sides & (1 << side))) continue;
      int live = 0;
      for (int si = 0; si < w->nscen; si++) live |= !worth_moot(sc[si], side, bit);
      if (!live) continue;
      int k = W->nrow++;
      W->row[k] = (WRow){side, bit, k + 1};
    }
  }
  free(sc[0]);
  free(sc[1]);
  if (W->nrow == 0) { fprintf(stderr, "worth: no restriction left to measure\n"); return 2; }
  return 0;
}

static void worth_cfg(Worth *W) {
  const WorthCfg *w = W->w;
  SimCfg *c = &W->R.cfg;
  c->nscen = w->nscen;
  for (int si = 0; si < w->nscen; si++) snprintf(c->scen[si], sizeof c->scen[si], "%s", w->scen[si]);
  strcpy(c->var[c->nvar++], "base");
  for (int i = 0; i < W->nrow; i++)
    snprintf(c->var[c->nvar++], sizeof c->var[0], "ban_%s=%s",
             W->row[i].side == FRENCH ? "french" : "allied", ban_name(W->row[i].bit));
  sim_add_pair(c, w->pf, w->pa);
  c->games = w->games;
  c->seed = w->seed;
  c->threads = w->threads;
  c->resume = w->resume;
  c->overwrite = w->overwrite;
  c->progress = w->progress;
  snprintf(c->out, sizeof c->out, "%s", w->out);
}

/* the pairs of one row: the restricted side's win under the full rules and restricted */
static void worth_pairs(const Worth *W, int si, const WRow *row, WRes *r) {
  const SimCfg *c = &W->R.cfg;
  const Cell *b = &W->R.cells[cell_id(c, si, 0, 0)], *v = &W->R.cells[cell_id(c, si, 0, row->vi)];
  int win = row->side == FRENCH ? RES_FRENCH : RES_ALLIED;
  for (long i = 0; i < c->games; i++) {
    int x = b->res[i].result == win, y = v->res[i].result == win;
    r->a += x && y, r->b += x && !y, r->c += !x && y, r->d += !x && !y;
    int sg = row->side == FRENCH ? 1 : -1;
    double dm = sg * ((b->res[i].vp[0] - b->res[i].vp[1]) - (v->res[i].vp[0] - v->res[i].vp[1]));
    r->vsum += dm, r->vsum2 += dm * dm;
  }
  r->n = c->games;
  r->base = wilson(r->a + r->b, r->n, Z95);
  r->barred = wilson(r->a + r->c, r->n, Z95);
  r->p = mcnemar_p(r->b, r->c, NULL);
  r->phi = pair_phi(r->a, r->b, r->c, r->d);
}

/* Holm over m p-values: the adjusted ones, and the level Holm's step-down tests each at
 * (1 - 0.05 / (m - k) for the k-th smallest p, from 0; ties in order) */
static void holm_levels(const double *p, int m, double *adj, double *level) {
  holm_adjust(p, m, adj);
  for (int j = 0; j < m; j++) {
    int k = 0;
    for (int i = 0; i < m; i++) k += p[i] < p[j] || (p[i] == p[j] && i < j);
    level[j] = 1 - 0.05 / (m - k);
  }
}

/* the paired t-test of the mean VP-margin difference: two-sided p (1 when every seed agrees
 * on 0, 0 when on another value) */
static double vp_t_p(const WRes *r) {
  if (r->n < 2) return 1;
  double mean = r->vsum / r->n, var = (r->vsum2 - r->vsum * mean) / (r->n - 1);
  if (!(var > 1e-12)) return fabs(mean) > 1e-12 ? 0 : 1;
  double t = mean / sqrt(var / r->n);
  return 2 * gsl_cdf_tdist_Q(fabs(t), (double)(r->n - 1)); /* the upper tail, not 1 - cdf */
}

/* Holm over the rows of a scenario that are not moot, for the win rate and for the VP margin:
 * adjusted p, and each row's interval at the level Holm tests it at */
static void worth_holm(Worth *W, int si) {
  double p[2 * BAN_BITS] = {0}, q[2 * BAN_BITS] = {0}, adj[2 * BAN_BITS] = {0};
  double qadj[2 * BAN_BITS] = {0}, lev[2 * BAN_BITS] = {0}, qlev[2 * BAN_BITS] = {0};
  int idx[2 * BAN_BITS], m = 0;
  for (int i = 0; i < W->nrow; i++) {
    WRes *r = &W->res[si][i];
    if (r->moot) continue;
    r->vp_p = vp_t_p(r);
    idx[m] = i, p[m] = r->p, q[m++] = r->vp_p;
  }
  holm_levels(p, m, adj, lev);
  holm_levels(q, m, qadj, qlev);
  for (int j = 0; j < m; j++) {
    WRes *r = &W->res[si][idx[j]];
    r->holm = adj[j], r->level = lev[j];
    r->worth = paired_diff(r->a, r->b, r->c, r->d, norm_quantile(1 - (1 - lev[j]) / 2));
    r->vp_holm = qadj[j], r->vp_level = qlev[j];
    r->vp = mean_t(r->vsum, r->vsum2, r->n, qlev[j]);
  }
}

static void worth_results(Worth *W) {
  const WorthCfg *w = W->w;
  for (int si = 0; si < w->nscen; si++) {
    const Scen *sc = W->R.cells[cell_id(&W->R.cfg, si, 0, 0)].sc;
    for (int i = 0; i < W->nrow; i++) {
      WRes *r = &W->res[si][i];
      memset(r, 0, sizeof *r);
      r->moot = worth_moot(sc, W->row[i].side, W->row[i].bit);
      if (!r->moot) worth_pairs(W, si, &W->row[i], r);
    }
    worth_holm(W, si);
  }
}

/* ---------------------------------------------------------------- worth.md */
static void worth_cmd(const WorthCfg *w, Buf *o) {
  buf_printf(o, "./waterloo worth --scenario ");
  for (int si = 0; si < w->nscen; si++) buf_printf(o, "%s%s", si ? "," : "", w->scen[si]);
  buf_printf(o, " --players '%s/%s' --games %ld --seed %llu", w->pf, w->pa, w->games,
             (unsigned long long)w->seed);
  if (w->bans) {
    buf_printf(o, " --only ");
    for (int b = 0, n = 0; b < BAN_BITS; b++)
      if (w->bans & (1 << b)) buf_printf(o, "%s%s", n++ ? "," : "", ban_name(b));
  }
  if (w->sides != 3) buf_printf(o, " --sides %s", w->sides == 1 ? "french" : "allied");
}

/* read after Holm: a row is told from 0 when its adjusted p and its interval both say so */
static void worth_reading(const WRes *r, const char *side, Buf *o) {
  if (r->holm >= 0.05 || (r->worth.lo <= 0 && r->worth.hi >= 0))
    buf_printf(o, "not told from 0 after Holm (more than ±%.1f points excluded)",
               100 * fmax(fabs(r->worth.lo), fabs(r->worth.hi)));
  else if (r->worth.lo > 0)
    buf_printf(o, "worth %.1f to %.1f points to the %s", 100 * r->worth.lo, 100 * r->worth.hi, side);
  else if (r->worth.hi < 0)
    buf_printf(o, "the %s do %.1f to %.1f points better without it", side, -100 * r->worth.hi,
               -100 * r->worth.lo);
}

static void worth_table(const Worth *W, int si, Buf *o) {
  const WorthCfg *w = W->w;
  int lg = !strcmp(w->scen[si], "long");
  buf_printf(o, "\n## %s game — %s (French) against %s (Allied), %ld games a row\n\n"
             "| restriction | side | its win rate, full rules | restricted | worth to the side "
             "[Holm-adjusted CI] | level | b / c | McNemar p | Holm p | pairing φ | %sreading |\n"
             "|---|---|---:|---:|---|---:|---|---:|---:|---:|%s---|\n",
             !strcmp(w->scen[si], "short") ? "Short" : "Long",
             w->pf, w->pa, w->games, lg ? "worth in its VP margin [Holm-adjusted CI] | VP Holm p | " : "",
             lg ? "---|---:|" : "");
  for (int i = 0; i < W->nrow; i++) {
    const WRes *r = &W->res[si][i];
    const char *side = W->row[i].side == FRENCH ? "French" : "Allies";
    buf_printf(o, "| %s | %s | ", ban_name(W->row[i].bit), side);
    if (r->moot) {
      buf_printf(o, "— | — | moot: nothing to bar in this game | | | | | | |%s\n", lg ? " | |" : "");
      continue;
    }
    buf_printf(o, "%.1f%% | %.1f%% | %+.1f [%+.1f, %+.1f] | %.4g%% | %ld / %ld | %.3g | %.3g | %+.2f | ",
               100 * r->base.p, 100 * r->barred.p, 100 * r->worth.p, 100 * r->worth.lo,
               100 * r->worth.hi, 100 * r->level, r->b, r->c, r->p, r->holm, r->phi);
    if (lg) buf_printf(o, "%+.2f [%+.2f, %+.2f] | %.3g | ", r->vp.p, r->vp.lo, r->vp.hi, r->vp_holm);
    worth_reading(r, W->row[i].side == FRENCH ? "French" : "Allies", o);
    if (lg && r->vp_holm < 0.05 && (r->vp.lo > 0 || r->vp.hi < 0))
      buf_printf(o, "; VP margin %+.1f to %+.1f", r->vp.lo, r->vp.hi);
    buf_printf(o, " |\n");
  }
}

static void worth_md(const Worth *W, Buf *o) {
  const WorthCfg *w = W->w;
  char cap[CAPTION_LEN];
  build_caption(cap, sizeof cap, spec_searches(w->pf) || spec_searches(w->pa));
  buf_printf(o, "# What each rule is worth (restricted play)\n\n%s\n\nCommand: `", cap);
  worth_cmd(w, o);
  buf_printf(o, "`\n\nEach row bars one side from one ability (R-5.8: `ban_french` / `ban_allied` "
             "of docs/PARAMETERS.md, enforced in the legal actions, so it binds that side's player "
             "and any search it runs) and plays the same seeds as the full rules. **Worth** is how "
             "many points of its own win rate the restricted side loses: full rules minus "
             "restricted, paired seed by seed (Newcombe's interval for paired proportions, "
             "McNemar's exact test; b: seeds the side wins only under the full rules, c: only "
             "restricted). With m rows, Holm's step-down method adjusts the p-values, and each "
             "row's interval is at the level Holm tests it at: 1 − 0.05/(m − k + 1) for the k-th "
             "smallest p (the `level` column). A negative worth: the side does better without "
             "the ability, which says more about how its player uses it than about the rule. "
             "*Moot*: the side holds no such card in this game (the Prussians in the short game), "
             "or the castle has no damage points. In the long game the VP margin (the side's VP minus the "
             "other's) is worth more than the win flag: its worth is the mean over the seeds of the "
             "margin under the full rules minus restricted, with its paired t-test, Holm over the rows on its "
             "own and Student's t interval at its own Holm level.\n\n"
             "The figures hold for these players; a weak player's use of an ability is not the "
             "game's. Chart: [worth.svg](worth.svg); every cell, with the game facts and the "
             "long game's VP margins: [report.md](report.md).\n");
  if (!spec_searches(w->pf) && !spec_searches(w->pa)) buf_printf(o, "\n%s\n", LAB_NO_SEARCH);
  for (int si = 0; si < w->nscen; si++) worth_table(W, si, o);
}

/* ---------------------------------------------------------------- worth.svg */
/* one panel per scenario: a row per restriction and side, its worth with the interval */
static void worth_panel(const Worth *W, int si, double x0, double span, double top, Buf *o) {
  const double L = 210, PW = 520;
  double zx = L + PW * (0 - x0) / span;
  buf_printf(o, "<text x=\"10\" y=\"%.1f\" font-size=\"14\">%s game</text>\n", top - 8,
             !strcmp(W->w->scen[si], "short") ? "Short" : "Long");
  buf_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>\n", zx, top,
             zx, top + 18.0 * W->nrow);
  for (int i = 0; i < W->nrow; i++) {
    const WRes *r = &W->res[si][i];
    double y = top + 18.0 * i + 9;
    const char *col = W->row[i].side == FRENCH ? "#1f5fbf" : "#c0392b";
    buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\">%s — %s</text>\n",
               L - 8, y + 4, col, ban_name(W->row[i].bit), W->row[i].side == FRENCH ? "French" : "Allies");
    if (r->moot) {
      buf_printf(o, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#999\">moot</text>\n", zx + 6, y + 4);
      continue;
    }
    double a = L + PW * (r->worth.lo - x0) / span, b = L + PW * (r->worth.hi - x0) / span;
    double c = L + PW * (r->worth.p - x0) / span;
    buf_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>"
               "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n", a, y, b, y, col, c, y, col);
  }
}

static void worth_svg(const Worth *W, Buf *o) {
  double m = 0.05; /* the axis: the widest interval, at least ±5 points, in steps of 5 */
  for (int si = 0; si < W->w->nscen; si++)
    for (int i = 0; i < W->nrow; i++)
      if (!W->res[si][i].moot) m = fmax(m, fmax(fabs(W->res[si][i].worth.lo), fabs(W->res[si][i].worth.hi)));
  m = ceil(m * 20) / 20;
  double ph = 18.0 * W->nrow + 40, H = 70 + ph * W->w->nscen + 30;
  buf_printf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"%.0f\" "
             "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"760\" height=\"%.0f\" "
             "fill=\"white\"/>\n<text x=\"10\" y=\"20\" font-size=\"15\">What each ability is worth "
             "to the side that loses it (points of its win rate), %s vs %s%s</text>\n<text x=\"10\" "
             "y=\"36\" fill=\"#555\">dot: full rules minus restricted, paired on the same seeds; "
             "line: Holm-adjusted interval; right of 0: the ability helps its side</text>\n",
             H, H, W->w->pf, W->w->pa,
             !spec_searches(W->w->pf) && !spec_searches(W->w->pa) ? " (not search-level)" : "");
  for (int si = 0; si < W->w->nscen; si++) worth_panel(W, si, -m, 2 * m, 70 + ph * si, o);
  double base = H - 24;
  for (int k = -(int)lround(m * 20); k <= (int)lround(m * 20); k++) {
    if (k % (m > 0.25 ? 2 : 1)) continue;
    double x = 210 + 520 * (k * 0.05 + m) / (2 * m);
    buf_printf(o, "<line x1=\"%.1f\" y1=\"60\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
               "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%+d</text>\n", x, x, base - 12,
               x, base + 4, k * 5);
  }
  buf_printf(o, "</svg>\n");
}

/* ---------------------------------------------------------------- the run */
static int worth_write(const Worth *W) {
  Buf md = {0}, svg = {0};
  worth_md(W, &md);
  worth_svg(W, &svg);
  char p1[1100], p2[1100];
  snprintf(p1, sizeof p1, "%s/worth.md", W->w->out);
  snprintf(p2, sizeof p2, "%s/worth.svg", W->w->out);
  int rc = write_atomic(p1, md.s, md.n) || write_atomic(p2, svg.s, svg.n);
  if (rc) fprintf(stderr, "worth: cannot write %s: %s\n", p1, strerror(errno));
  else if (W->w->progress) fprintf(stderr, "worth: %s, chart %s\n", p1, p2);
  buf_free(&md);
  buf_free(&svg);
  return rc ? 2 : 0;
}

int worth_run(const WorthCfg *w) {
  Worth *W = calloc(1, sizeof *W);
  if (!W) { fprintf(stderr, "worth: out of memory\n"); return 2; }
  W->w = w;
  int rc = worth_rows(W), mine = lab_mpi_begin(&W->R.rank, &W->R.size);
  if (!rc) {
    worth_cfg(W);
    rc = sim_run(&W->R);
  }
  if (!rc && W->R.rank == 0) {
    worth_results(W);
    rc = worth_write(W);
  }
  run_free(&W->R);
  lab_mpi_end(mine);
  free(W);
  return rc;
}
