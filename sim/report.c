/* Reports of a sim run: report.md, summary.json, games.csv, winrate.svg, vp_margin.svg.
 * Everything is computed from the games sorted by index, so the files do not depend on the
 * number of threads, ranks or shards that played them. */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

void cell_stats(const Cell *cl, CellStats *st) {
  memset(st, 0, sizeof *st);
  double m2 = 0;
  for (long i = 0; i < cl->target; i++) {
    if (!cl->have[i]) continue;
    const GameFacts *f = &cl->res[i];
    st->n++;
    st->w[f->result & 3]++;
    st->cond[f->cond < COND_COUNT ? f->cond : 0]++;
    st->turns += f->turns;
    st->rounds += f->rounds;
    st->passes += f->passes;
    st->decisions += f->decisions;
    for (int s = 0; s < 2; s++) {
      st->cards[s] += f->cards[s];
      st->bids[s] += f->bids[s];
      st->battles[s] += f->battles[s];
      st->lost[s] += f->lost[s];
      st->reduced[s] += f->reduced[s];
      st->vp[s] += f->vp[s];
      st->vp_sq[s] += f->vp_sq[s];
      st->vp_elim[s] += f->vp_elim[s];
    }
    double mg = f->vp[0] - f->vp[1];
    st->margin += mg;
    m2 += mg * mg;
    for (int v = 0; v < V_COUNT; v++)
      if (f->fall[v]) { st->fell[v]++; st->fall_turn[v] += f->fall[v]; }
    if (f->cpu > 0) { st->timed++; st->cpu += f->cpu; }
  }
  if (st->n == 0) return;
  double n = (double)st->n;
  st->turns /= n; st->rounds /= n; st->passes /= n; st->decisions /= n;
  for (int s = 0; s < 2; s++) {
    st->cards[s] /= n; st->bids[s] /= n; st->battles[s] /= n; st->lost[s] /= n;
    st->reduced[s] /= n; st->vp[s] /= n; st->vp_sq[s] /= n; st->vp_elim[s] /= n;
  }
  double mean = st->margin / n;
  st->margin = mean;
  st->margin_sd = st->n > 1 ? sqrt(fmax(0, (m2 - n * mean * mean) / (n - 1))) : 0;
  for (int v = 0; v < V_COUNT; v++)
    if (st->fell[v]) st->fall_turn[v] /= (double)st->fell[v];
}

/* paired comparison of French wins in cells x (variant) and y (base) over common indices */
typedef struct {
  long n, a, b, c, d;
  Interval diff;        /* French win rate, variant - base, Newcombe                      */
  double p, chi2;       /* McNemar: exact two-sided p; continuity-corrected chi-square     */
  Interval mdiff;       /* mean paired VP margin difference, Student t (long game)        */
  double msd;           /* sd of the per-seed margin difference                            */
  double mp;            /* its two-sided paired t-test p (NAN: no spread)                  */
  PairGain g;           /* the win flags' pair correlation and what pairing bought        */
  double mphi, mgain;   /* the same for the VP margins: correlation, 1 - paired/unpaired  */
} Paired;

static Paired paired(const Cell *x, const Cell *y) {
  Paired r;
  memset(&r, 0, sizeof r);
  double ms = 0, ms2 = 0, sx = 0, sx2 = 0, sy = 0, sy2 = 0;
  long m = x->target < y->target ? x->target : y->target;
  for (long i = 0; i < m; i++) {
    if (!x->have[i] || !y->have[i]) continue;
    int fx = x->res[i].result == RES_FRENCH, fy = y->res[i].result == RES_FRENCH;
    double mx = x->res[i].vp[0] - x->res[i].vp[1], my = y->res[i].vp[0] - y->res[i].vp[1];
    double dm = mx - my;
    ms += dm;
    ms2 += dm * dm;
    sx += mx, sx2 += mx * mx, sy += my, sy2 += my * my;
    r.n++;
    if (fx && fy) r.a++;
    else if (fx) r.b++;
    else if (fy) r.c++;
    else r.d++;
  }
  r.diff = paired_diff(r.a, r.b, r.c, r.d, Z95);
  r.p = mcnemar_p(r.b, r.c, &r.chi2);
  r.mdiff = mean_t(ms, ms2, r.n, 0.95);
  r.msd = r.n > 1 ? sqrt(fmax(0, (ms2 - ms * ms / r.n) / (r.n - 1))) : NAN;
  double se = r.msd / sqrt((double)r.n);
  r.mp = r.n > 1 && se > 0 ? 2 * (1 - t_cdf(fabs(r.mdiff.p) / se, (double)r.n - 1)) : NAN;
  r.g = pair_gain(r.a, r.b, r.c, r.d, Z95);
  /* margins: var(x - y) = var x + var y - 2 cov; unpaired, the same two samples independent */
  double vx = r.n > 1 ? (sx2 - sx * sx / r.n) / (r.n - 1) : NAN;
  double vy = r.n > 1 ? (sy2 - sy * sy / r.n) / (r.n - 1) : NAN;
  double cov = (vx + vy - r.msd * r.msd) / 2;
  r.mphi = vx > 0 && vy > 0 ? cov / sqrt(vx * vy) : NAN;
  r.mgain = vx + vy > 0 ? 1 - r.msd / sqrt(vx + vy) : NAN;
  return r;
}

static const char *scen_title(const char *s) {
  return !strcmp(s, "short") ? "Short game" : !strcmp(s, "long") ? "Long game" : s;
}

static void pct_ci(Buf *b, Interval iv) {
  buf_printf(b, "%.1f%% [%.1f, %.1f]", 100 * iv.p, 100 * iv.lo, 100 * iv.hi);
}

static int find_var(const SimCfg *c, const char *name) {
  for (int i = 0; i < c->nvar; i++)
    if (!strcmp(c->var[i], name)) return i;
  return -1;
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static double median_margin(const Cell *cl) {
  int *m = malloc(sizeof(int) * (size_t)(cl->target + 1));
  long n = 0;
  for (long i = 0; i < cl->target; i++)
    if (cl->have[i]) m[n++] = cl->res[i].vp[0] - cl->res[i].vp[1];
  double med = 0;
  if (n) {
    qsort(m, (size_t)n, sizeof(int), cmp_int);
    med = n % 2 ? m[n / 2] : (m[n / 2 - 1] + m[n / 2]) / 2.0;
  }
  free(m);
  return med;
}

static void sweep_md(const SimCfg *c, Cell *cells, Buf *b);
static void svg_text(Buf *b, double x, double y, const char *anchor, int size, const char *fill,
                     const char *t);

/* ---------------------------------------------------------------- Markdown */
/* the effects the power columns are for: --detect POINTS (French win rate, default 5 points)
 * and --detect-vp VP (mean VP margin, long game, default 2) */
#define DETECT_POINTS (c->detect_pts > 0 ? c->detect_pts : 0.05)
#define DETECT_VP (c->detect_vp > 0 ? c->detect_vp : 2.0)

/* Holm-adjusted p of every variant against base in one scenario x pair group (the family of
 * tests the table makes): McNemar's on the win flags (vp 0) or the paired t test of the VP
 * margins (vp 1); NAN for base and identical variants */
static void holm_family(const SimCfg *c, Cell *cells, int si, int pi, int base, double *adj,
                        int vp) {
  double p[MAX_VAR] = {0}, a[MAX_VAR] = {0};
  int idx[MAX_VAR], n = 0;
  const Cell *bc = &cells[cell_id(c, si, pi, base)];
  for (int vi = 0; vi < c->nvar; vi++) {
    adj[vi] = NAN;
    const Cell *cl = &cells[cell_id(c, si, pi, vi)];
    if (vi == base || cl->identical) continue;
    Paired pr = paired(cl, bc);
    p[n] = vp ? (isnan(pr.mp) ? 1.0 : pr.mp) : pr.p;
    idx[n++] = vi;
  }
  holm_adjust(p, n, a);
  for (int k = 0; k < n; k++) adj[idx[k]] = a[k];
}

static int family_size(const SimCfg *c, Cell *cells, int si, int pi, int base) {
  int n = 0;
  for (int vi = 0; vi < c->nvar; vi++)
    if (vi != base && !cells[cell_id(c, si, pi, vi)].identical) n++;
  return n;
}

/* "+0.42, 31% narrower": a pair correlation and what pairing did to the interval's width */
static void fmt_gain(char *out, size_t len, double phi, double gain) {
  if (isnan(phi) || isnan(gain)) snprintf(out, len, "—");
  else snprintf(out, len, "%+.2f, %.0f%% %s", phi, 100 * fabs(gain), gain >= 0 ? "narrower" : "wider");
}

/* one row of the table against base */
static void vs_base_row(const SimCfg *c, const char *name, const Paired *p, double holm,
                        double holm_vp, int is_long, Buf *b) {
  double nn = p->n ? (double)p->n : 1;
  char reading[160], gain[64];
  if (p->diff.lo > 0 || p->diff.hi < 0)
    snprintf(reading, sizeof reading, "%s the French by %.1f to %.1f points%s",
             p->diff.lo > 0 ? "helps" : "hurts", 100 * fmin(fabs(p->diff.lo), fabs(p->diff.hi)),
             100 * fmax(fabs(p->diff.lo), fabs(p->diff.hi)), holm < 0.05 ? "" : " (not after Holm)");
  else
    snprintf(reading, sizeof reading, "no difference detected; effects larger than ±%.1f points excluded",
             100 * fmax(fabs(p->diff.lo), fabs(p->diff.hi)));
  double need = mcnemar_games_needed((double)(p->b + p->c) / nn, DETECT_POINTS, 0.05, 0.80);
  fmt_gain(gain, sizeof gain, p->g.phi, p->g.gain);
  double pb = (p->a + p->c) / nn, pv = (p->a + p->b) / nn;
  char plan[80];
  snprintf(plan, sizeof plan, "%.0f / %.0f", games_for_halfwidth(pv, pb, p->g.phi, 0.03, Z95),
           games_for_halfwidth(pv, pb, 0, 0.03, Z95));
  buf_printf(b, "| %s | %ld | %.1f%% | %.1f%% | %+.1f [%+.1f, %+.1f] | %+.1f [%+.1f, %+.1f] | %s | %s | %ld / %ld | %.3g | %.3g | %s | %.0f |",
             name, p->n, 100 * pb, 100 * pv, 100 * p->diff.p,
             100 * p->diff.lo, 100 * p->diff.hi, 100 * p->g.unpaired.p, 100 * p->g.unpaired.lo,
             100 * p->g.unpaired.hi, gain, plan, p->b, p->c, p->p, holm, reading, need);
  if (is_long) {
    fmt_gain(gain, sizeof gain, p->mphi, p->mgain);
    if (p->n > 1)
      buf_printf(b, " %+.2f [%+.2f, %+.2f] | %.3g | %.3g | %s | %.0f |", p->mdiff.p, p->mdiff.lo,
                 p->mdiff.hi, p->mp, holm_vp, gain, mean_games_needed(p->msd, DETECT_VP, 0.05, 0.80));
    else
      buf_printf(b, " — | — | — | — | — |");
  }
  buf_printf(b, "\n");
}

static void against_base_md(const SimCfg *c, Cell *cells, int si, int pi, int base, int is_long,
                            Buf *b) {
  double holm[MAX_VAR];
  holm_family(c, cells, si, pi, base, holm, 0);
  double holm_vp[MAX_VAR];
  holm_family(c, cells, si, pi, base, holm_vp, 1);
  int fam = family_size(c, cells, si, pi, base);
  buf_printf(b, "\n### Against base (paired, same seeds)\n\n");
  buf_printf(b, "Difference = variant − base in French win rate, points, Newcombe 95%% interval. "
                "Unpaired: the interval the same two rates would have from independent samples of "
                "the same size. Pairing: the correlation (φ) of a seed's base and variant results, "
                "and how much narrower the paired interval is than the unpaired one; games for ±3: the "
                "games a cell that give the difference a 95%% half-width of 3 points at this "
                "correlation and unpaired (the plan for a run at this level; the game's "
                "chance is drawn per turn and event, so base and variant keep the same luck as long "
                "as the rules allow). McNemar p: exact two-sided binomial test of b against c. "
                "Holm p: the same "
                "p-values adjusted by Holm's step-down method for the %d variant%s compared here "
                "(read this one when asking \"does any variant change anything?\"). Games for "
                "±%g: the games per cell that detect a %g-point change in the French win rate "
                "with 80%% power at α = 0.05 (McNemar, this variant's share of discordant seeds, or the "
                "%g%% that such a change needs at the least when fewer seeds differ).",
             fam, fam == 1 ? "" : "s", 100 * DETECT_POINTS, 100 * DETECT_POINTS, 100 * DETECT_POINTS);
  if (is_long)
    buf_printf(b, " VP margin difference: the mean over the seeds of (variant − base) of the "
                  "French VP margin, Student-t 95%% interval — far more sensitive than the win "
                  "flag; its p: the paired t test, two-sided, and its Holm p over the same "
                  "variants (a second family of tests: read the Holm p before calling a margin "
                  "difference real); its pairing likewise (correlation of the margins, paired "
                  "against unpaired width); games for ±%g VP likewise.", DETECT_VP);
  buf_printf(b, "\n\n| variant | pairs | French win base | French win variant | difference "
                "[95%% CI] | unpaired [95%% CI] | pairing | games for ±3 paired / unpaired | b / c | McNemar p | Holm p | reading | "
                "games for ±%g |", 100 * DETECT_POINTS);
  if (is_long)
    buf_printf(b, " VP margin difference [95%% CI] | t-test p | Holm p | margin pairing | games for ±%g VP |", DETECT_VP);
  buf_printf(b, "\n|---|---:|---:|---:|---|---|---|---|---|---:|---:|---|---:|%s\n",
             is_long ? "---|---:|---:|---|---:|" : "");
  const Cell *bc = &cells[cell_id(c, si, pi, base)];
  for (int vi = 0; vi < c->nvar; vi++) {
    if (vi == base) continue;
    const Cell *cl = &cells[cell_id(c, si, pi, vi)];
    if (cl->identical) {
      buf_printf(b, "| %s | identical to base in this scenario: not played | | | | | | | | | | | |%s\n",
                 c->var[vi], is_long ? " | | | | |" : "");
      continue;
    }
    Paired p = paired(cl, bc);
    vs_base_row(c, c->var[vi], &p, holm[vi], holm_vp[vi], is_long, b);
  }
}

/* "+3.2 [+1.1, +5.3]" : a mean with its Student-t 95% interval; "± ?" when no spread is known */
static void fmt_mean_ci(char *out, size_t len, double mean, double sd, long n) {
  if (n < 2) { snprintf(out, len, "%+.1f [−∞, +∞]", mean); return; }
  if (!(sd > 0) && n < 30) { snprintf(out, len, "%+.1f (± ?: all %ld equal)", mean, n); return; }
  double h = t_quantile(0.975, (double)n - 1) * sd / sqrt((double)n);
  snprintf(out, len, "%+.1f [%+.1f, %+.1f]", mean, mean - h, mean + h);
}

/* 1 when the strength journal has a match of this scenario played by the current build
 * (same scenario fingerprint), 0 when every match predates a change, -1 when unknown */
static int strength_current(const char *jpath, const char *scen, uint32_t fp) {
  FILE *f = fopen(jpath, "r");
  if (!f) return -1;
  char line[2048];
  int any = 0, cur = 0;
  while (fgets(line, sizeof line, f)) {
    char sc[16];
    unsigned x;
    if (sscanf(line, "M\t%15[^\t]\t%*[^\t]\t%*[^\t]\t%*[^\t]\t%*[^\t]\t%x", sc, &x) != 2 || strcmp(sc, scen)) continue;
    any = 1;
    cur |= x == fp;
  }
  fclose(f);
  return any ? cur : -1;
}

/* the committed strength table of a scenario, beside the scenario directory: the short game's
 * is results/strength-short.md, the long game's results/strength.md */
static const char *strength_table(const char *scen) {
  return !strcmp(scen, "short") ? "strength-short.md" : "strength.md";
}

/* the ladder row of every player of the report, and the strongest player the table rates */
static void strength_ladder(const SimCfg *c, const char *lad, Buf *b) {
  const char *names[2 * MAX_PAIRS];
  int nn = 0;
  for (int pi = 0; pi < c->npair; pi++)
    for (int s = 0; s < 2; s++) {
      const char *nm = s ? c->pa[pi] : c->pf[pi];
      int dup = 0;
      for (int q = 0; q < nn; q++) dup |= !strcmp(names[q], nm);
      if (!dup) names[nn++] = nm;
    }
  const char *end = strstr(lad, "\n\n");
  for (int q = 0; q < nn; q++) {
    char key[SPEC_LEN + 8];
    snprintf(key, sizeof key, "\n| %s | ", names[q]);
    const char *row = strstr(lad, key);
    if (!row || (end && row > end)) { buf_printf(b, "%s `%s` not measured", q ? ";" : "", names[q]); continue; }
    row += strlen(key);
    const char *bar = strchr(row, '|');
    int len = bar ? (int)(bar - row) : 0;
    while (len > 0 && row[len - 1] == ' ') len--;
    buf_printf(b, "%s `%s` %.*s", q ? ";" : "", names[q], len, row);
  }
  double best = -INFINITY;
  char bestname[128] = "";
  for (const char *r = strstr(lad, "\n| "); r && (!end || r < end); r = strstr(r + 1, "\n| ")) {
    char nm[128];
    double v;
    if (sscanf(r, "\n| %127[^ |] | %lf", nm, &v) == 2 && v > best) { best = v; snprintf(bestname, sizeof bestname, "%s", nm); }
  }
  if (bestname[0] && strcmp(bestname, "heuristic"))
    buf_printf(b, " (strongest measured: `%s` at %+.0f)", bestname, best);
  else if (bestname[0]) /* the anchor alone: no match of the table reaches it */
    buf_printf(b, " (no other player of the table is rated against the heuristic)");
  buf_printf(b, ".");
}

/* one scenario's line of the caveat: its table's ladder, and whether an earlier build made it */
static void strength_scenario(const SimCfg *c, Cell *cells, int si, Buf *b) {
  const char *file = strength_table(c->scen[si]);
  char path[1200], err[256];
  snprintf(path, sizeof path, "%s/../results/%s", scen_default_dir(), file);
  buf_printf(b, "\n- %s (`results/%s`):", scen_title(c->scen[si]), file);
  size_t n;
  char *text = file_read_capped(path, 1u << 22, &n, err, sizeof err);
  if (!text) { buf_printf(b, " the table was not found beside the scenarios."); return; }
  const char *sec = strstr(text, !strcmp(c->scen[si], "short") ? "## Short game" : "## Long game");
  const char *lad = sec ? strstr(sec, "\nLadder") : NULL;
  if (lad) lad = strstr(lad, "\n| player"); /* the ladder's table, up to the blank line */
  if (!lad) {
    buf_printf(b, " not in the table.");
    free(text);
    return;
  }
  strength_ladder(c, lad, b);
  free(text);
  char jp[1300];
  snprintf(jp, sizeof jp, "%s.journal", path);
  int base = find_var(c, "base");
  if (base >= 0 && strength_current(jp, c->scen[si], play_fingerprint(cells[cell_id(c, si, 0, base)].sc)) == 0)
    buf_printf(b, " **These were measured by an earlier build**: the rules, the scenario data, the "
                  "heuristic or the fitted evaluation have changed since (the journal's fingerprint "
                  "differs); rerun `./waterloo strength`.");
}

/* The players' measured strength from the repository's strength tables, so that no figure of
 * the report travels without it. */
static void strength_caveat(const SimCfg *c, Cell *cells, Buf *b) {
  buf_printf(b, "**Caveat: a balance figure is only as good as the players who made it.** "
                "This report was made by ");
  for (int pi = 0; pi < c->npair; pi++)
    buf_printf(b, "%s`%s` (French) vs `%s` (Allied)", pi ? (pi + 1 == c->npair ? " and " : ", ") : "",
               c->pf[pi], c->pa[pi]);
  buf_printf(b, ". A weak or lopsided player moves every rate here; read them as the balance "
                "of the rules under that play. Measured strength (the ladder of each scenario's "
                "strength table, fitted over all its matches, Elo relative to heuristic):");
  for (int si = 0; si < c->nscen; si++) strength_scenario(c, cells, si, b);
  buf_printf(b, "\n\n");
}

/* one section of report.md: a scenario and a player pair, over every variant */
typedef struct {
  const SimCfg *c;
  Cell *cells;
  Buf *b;
  int si, pi, is_long;
} MdSection;

/* the cell of variant vi in the section; NULL when it is identical to base (not played) */
static const Cell *md_cell(const MdSection *m, int vi) {
  const Cell *cl = &m->cells[cell_id(m->c, m->si, m->pi, vi)];
  return cl->identical ? NULL : cl;
}

/* the same, with its statistics in *st when it was played */
static const Cell *md_cell_stats(const MdSection *m, int vi, CellStats *st) {
  const Cell *cl = md_cell(m, vi);
  if (cl) cell_stats(cl, st);
  return cl;
}

/* the head of report.md: the command, the seeds, the statistics, the players' strength */
static void md_head(const SimCfg *c, Cell *cells, Buf *b) {
  char cap[CAPTION_LEN];
  build_caption(cap, sizeof cap, cfg_searches(c));
  buf_printf(b, "# Waterloo balance report\n\n%s\n\n", cap);
  buf_printf(b, "Reproduce with:\n\n```\n");
  cfg_command(c, b);
  buf_printf(b, "\n```\n\n");
  buf_printf(b, "Seed %" PRIu64 "; game *i* of every cell starts from `gs_init(seed, i)` and its "
                "players get seeds from (seed, i, side) only, so every variant is played on the "
                "same seeds (paired design) and the results do not depend on the number of "
                "threads. ",
             c->seed);
  if (c->until_ci > 0)
    buf_printf(b, "Games were played in batches of %ld until the 95%% half-width of every cell's "
                  "win rates was at most %.1f points (or %ld games).\n\n",
               c->batch, 100 * c->until_ci, c->games);
  else
    buf_printf(b, "%ld games per cell.\n\n", c->games);
  buf_printf(b, "Rates are with 95%% Wilson score intervals. *Balance* is 1 − |French rate − "
                "Allied rate| (1 = perfectly balanced). Variant against base: the paired "
                "difference in French win rate over the same seeds with Newcombe's 95%% "
                "interval, and McNemar's exact test on the discordant games (b: French win only "
                "in the variant, c: only in base).\n\n");
  strength_caveat(c, cells, b);
  buf_printf(b, "What the games cost (CPU seconds per game of each cell) is in `cost.md`: it depends "
                "on the machine, while this file depends only on the command.\n\n");
}

static void md_win_rates(const MdSection *m) {
  const SimCfg *c = m->c;
  Buf *b = m->b;
  buf_printf(b, "### Win rates\n\n| variant | games | French | Allied | draws | French win | "
                "Allied win | draws | balance |\n|---|---:|---:|---:|---:|---|---|---|---:|\n");
  for (int vi = 0; vi < c->nvar; vi++) {
    CellStats st;
    const Cell *cl = md_cell(m, vi);
    if (!cl) {
      buf_printf(b, "| %s | identical to base in this scenario (its rules change nothing here): not played | | | | | | | |\n", c->var[vi]);
      continue;
    }
    cell_stats(cl, &st);
    buf_printf(b, "| %s | %ld | %ld | %ld | %ld | ", c->var[vi], st.n, st.w[1], st.w[2], st.w[3]);
    pct_ci(b, wilson(st.w[1], st.n, Z95)); buf_printf(b, " | ");
    pct_ci(b, wilson(st.w[2], st.n, Z95)); buf_printf(b, " | ");
    pct_ci(b, wilson(st.w[3], st.n, Z95));
    double bal = st.n ? 1 - fabs((double)(st.w[1] - st.w[2]) / st.n) : 0;
    buf_printf(b, " | %.3f |\n", bal);
    if (st.w[0]) buf_printf(b, "| ↳ %ld unfinished games | | | | | | | | |\n", st.w[0]);
  }
}

/* the evaluation that scores each side's cut-off rollouts in a cell (player_eval_desc of a
 * player made for it: "" when the player has none) */
static void cell_evals(const SimCfg *c, const Cell *cl, int pi, char out[2][200]) {
  for (int side = 0; side < 2; side++) {
    char err[300];
    Player *p = player_new(cl->sc, side ? c->pa[pi] : c->pf[pi], 1, err, sizeof err);
    snprintf(out[side], 200, "%s", p ? player_eval_desc(p) : "?");
    player_free(p);
  }
}

/* which evaluation each cell's players used: one line when every cell used the same, else a
 * table (a sweep or a variant file compared with base by two different players says so) */
static void md_evals(const MdSection *m) {
  const SimCfg *c = m->c;
  char ev[MAX_VAR][2][200];
  int n = 0, same = 1, any = 0;
  for (int vi = 0; vi < c->nvar; vi++) {
    const Cell *cl = md_cell(m, vi);
    if (!cl) continue;
    cell_evals(c, cl, m->pi, ev[vi]);
    any |= ev[vi][0][0] || ev[vi][1][0];
    if (n++ && (strcmp(ev[vi][0], ev[0][0]) || strcmp(ev[vi][1], ev[0][1]))) same = 0;
  }
  if (!any) return;
  if (same) {
    buf_printf(m->b, "\nEvaluation of the cut-off rollouts, the same in every cell: French %s; Allied %s.\n",
               ev[0][0][0] ? ev[0][0] : "none", ev[0][1][0] ? ev[0][1] : "none");
    return;
  }
  buf_printf(m->b, "\n**The cells were not played by the same players**: the evaluation of the cut-off "
                   "rollouts differs between cells, so a difference between them mixes the rules' "
                   "effect with the evaluation's (`eval=fit` uses the base rules' weights in every "
                   "cell).\n\n| variant | French evaluation | Allied evaluation |\n|---|---|---|\n");
  for (int vi = 0; vi < c->nvar; vi++)
    if (md_cell(m, vi)) buf_printf(m->b, "| %s | %s | %s |\n", c->var[vi], ev[vi][0], ev[vi][1]);
}

/* how the games were won: the short game's conditions, the long game's VP */
static void md_victory(const MdSection *m) {
  const SimCfg *c = m->c;
  Buf *b = m->b;
  buf_printf(b, "\n### Victory breakdown\n\n");
  if (!m->is_long) {
    buf_printf(b, "| variant | 3 castles | 2 castles + Mont St. Jean | Allied hold |\n|---|---:|---:|---:|\n");
    for (int vi = 0; vi < c->nvar; vi++) {
      CellStats st;
      const Cell *cl = md_cell_stats(m, vi, &st);
      if (!cl) continue;
      buf_printf(b, "| %s |", c->var[vi]);
      static const int cond[3] = {COND_3CASTLES, COND_2CASTLES_MSJ, COND_HOLD};
      for (int k = 0; k < 3; k++) {
        buf_printf(b, " %ld (", st.cond[cond[k]]);
        pct_ci(b, wilson(st.cond[cond[k]], st.n, Z95));
        buf_printf(b, ") |");
      }
      buf_printf(b, "\n");
    }
    return;
  }
  buf_printf(b, "VP margin = French VP − Allied VP at the end of turn 7 (positive: French "
                "win). VP by source: squares held and enemy units eliminated (full BP).\n\n");
  buf_printf(b, "| variant | French VP (squares + eliminated) | Allied VP (squares + "
                "eliminated) | margin mean [95%% t CI] | margin sd | margin median | draws |\n"
                "|---|---|---|---|---:|---:|---:|\n");
  for (int vi = 0; vi < c->nvar; vi++) {
    CellStats st;
    const Cell *cl = md_cell_stats(m, vi, &st);
    if (!cl) continue;
    char ci[64];
    fmt_mean_ci(ci, sizeof ci, st.margin, st.margin_sd, st.n);
    buf_printf(b, "| %s | %.1f (%.1f + %.1f) | %.1f (%.1f + %.1f) | %s | %.1f | %+.1f | %ld |\n",
               c->var[vi], st.vp[0], st.vp_sq[0], st.vp_elim[0], st.vp[1], st.vp_sq[1],
               st.vp_elim[1], ci, st.margin_sd, median_margin(cl), st.cond[COND_VP_DRAW]);
  }
}

/* several player pairs: the French win rate of each, and the last against the first */
static void md_budgets(const SimCfg *c, Cell *cells, Buf *b) {
  buf_printf(b, "## Budget sensitivity\n\nFrench win rate per player pair (same seeds); the "
                "last column is the paired difference of the last pair against the first.\n\n"
                "| scenario | variant |");
  for (int pi = 0; pi < c->npair; pi++) buf_printf(b, " %s vs %s |", c->pf[pi], c->pa[pi]);
  buf_printf(b, " last − first [95%% CI], McNemar p |\n|---|---|");
  for (int pi = 0; pi <= c->npair; pi++) buf_printf(b, "---|");
  buf_printf(b, "\n");
  for (int si = 0; si < c->nscen; si++)
    for (int vi = 0; vi < c->nvar; vi++) {
      if (cells[cell_id(c, si, 0, vi)].identical) continue;
      buf_printf(b, "| %s | %s |", c->scen[si], c->var[vi]);
      for (int pi = 0; pi < c->npair; pi++) {
        CellStats st;
        cell_stats(&cells[cell_id(c, si, pi, vi)], &st);
        buf_printf(b, " ");
        pct_ci(b, wilson(st.w[1], st.n, Z95));
        buf_printf(b, " |");
      }
      Paired p = paired(&cells[cell_id(c, si, c->npair - 1, vi)], &cells[cell_id(c, si, 0, vi)]);
      buf_printf(b, " %+.1f [%+.1f, %+.1f], p = %.3g |\n", 100 * p.diff.p, 100 * p.diff.lo,
                 100 * p.diff.hi, p.p);
    }
  buf_printf(b, "\n");
}

static void report_md(const SimCfg *c, Cell *cells, Buf *b) {
  md_head(c, cells, b);
  int base = find_var(c, "base");
  for (int si = 0; si < c->nscen; si++) {
    int is_long = !strcmp(c->scen[si], "long");
    for (int pi = 0; pi < c->npair; pi++) {
      MdSection m = {c, cells, b, si, pi, is_long};
      buf_printf(b, "## %s — %s (French) vs %s (Allied)\n\n", scen_title(c->scen[si]), c->pf[pi], c->pa[pi]);
      md_win_rates(&m);
      md_evals(&m);
      md_victory(&m);
      facts_md(b, c, cells, si, pi, is_long);
      if (base >= 0 && c->nvar > 1) against_base_md(c, cells, si, pi, base, is_long, b);
      buf_printf(b, "\n");
    }
  }
  if (c->npair > 1) md_budgets(c, cells, b);
  sweep_md(c, cells, b);
  int has_long = 0;
  for (int si = 0; si < c->nscen; si++) has_long |= !strcmp(c->scen[si], "long");
  buf_printf(b, "Charts: [win rates](winrate.svg)%s. Every game: `games.csv`, written beside this "
                "report by the command above (a copy kept in `results/` leaves it out: run the "
                "command to have it; replay one with `./waterloo replay --csv games.csv --row K`).\n",
             has_long ? ", [VP margins of the long game](vp_margin.svg)" : "");
}

/* ---------------------------------------------------------------- sweep */
/* the cell whose games stand for sweep cell vi: base's when the value changes nothing */
static const Cell *sweep_cell(const SimCfg *c, Cell *cells, int si, int pi, int vi, int base) {
  const Cell *cl = &cells[cell_id(c, si, pi, vi)];
  return cl->identical && base >= 0 ? &cells[cell_id(c, si, pi, base)] : cl;
}

static void sweep_md(const SimCfg *c, Cell *cells, Buf *b) {
  int base = find_var(c, "base");
  if (c->nset <= 0 || base < 0) return;
  buf_printf(b, "## Sweep:");
  for (int k = 0; k < c->nset; k++) buf_printf(b, " `%s`", c->set[k]);
  buf_printf(b, "\n\nOne cell per value%s, each played on the same seeds as base and compared "
                "with it pair by pair (Newcombe interval, exact McNemar p, Holm-adjusted over the "
                "values that differ from base). `= base`: the value is base's own, or changes "
                "nothing in that scenario; base's games stand for it. Chart: [sweep.svg](sweep.svg).\n\n",
             c->nset > 1 ? " combination" : "");
  for (int si = 0; si < c->nscen; si++) {
    int is_long = !strcmp(c->scen[si], "long");
    for (int pi = 0; pi < c->npair; pi++) {
      buf_printf(b, "### %s — %s vs %s\n\n| value | games | French win [95%% CI] | difference "
                    "vs base [95%% CI] | McNemar p | Holm p |%s\n|---|---:|---|---|---:|---:|%s\n",
                 scen_title(c->scen[si]), c->pf[pi], c->pa[pi],
                 is_long ? " VP margin [95% t CI] | margin difference vs base [95% t CI], Holm p |" : "",
                 is_long ? "---|---|" : "");
      double holm[MAX_VAR], holm_vp[MAX_VAR];
      holm_family(c, cells, si, pi, base, holm, 0);
      holm_family(c, cells, si, pi, base, holm_vp, 1);
      const Cell *bc = &cells[cell_id(c, si, pi, base)];
      double best = 2;
      int bestv = -1;
      for (int vi = c->sweep_from; vi < c->nvar; vi++) {
        const Cell *cl = sweep_cell(c, cells, si, pi, vi, base);
        int same = cells[cell_id(c, si, pi, vi)].identical;
        CellStats st;
        cell_stats(cl, &st);
        Interval w = wilson(st.w[1], st.n, Z95);
        if (fabs(w.p - 0.5) < best) { best = fabs(w.p - 0.5); bestv = vi; }
        buf_printf(b, "| `%s`%s | %ld | ", c->var[vi], same ? " (= base)" : "", st.n);
        pct_ci(b, w);
        if (same) buf_printf(b, " | 0 (the same games) | — | — |");
        else {
          Paired p = paired(cl, bc);
          buf_printf(b, " | %+.1f [%+.1f, %+.1f] | %.3g | %.3g |", 100 * p.diff.p, 100 * p.diff.lo,
                     100 * p.diff.hi, p.p, holm[vi]);
        }
        if (is_long) {
          char ci[64];
          fmt_mean_ci(ci, sizeof ci, st.margin, st.margin_sd, st.n);
          buf_printf(b, " %s |", ci);
          if (same) buf_printf(b, " 0 (the same games) |");
          else {
            Paired p = paired(cl, bc);
            buf_printf(b, " %+.2f [%+.2f, %+.2f], Holm p %.3g |", p.mdiff.p, p.mdiff.lo,
                       p.mdiff.hi, holm_vp[vi]);
          }
        }
        buf_printf(b, "\n");
      }
      if (bestv >= 0) {
        CellStats st;
        cell_stats(sweep_cell(c, cells, si, pi, bestv, base), &st);
        Interval w = wilson(st.w[1], st.n, Z95);
        buf_printf(b, "\nClosest to an even game (French win rate 50%%): `%s`, %.1f%% [%.1f, %.1f]%s.\n\n",
                   c->var[bestv], 100 * w.p, 100 * w.lo, 100 * w.hi,
                   w.lo <= 0.5 && w.hi >= 0.5 ? ", 50% inside its interval" : ", 50% outside its interval: no value tried makes it even");
      }
    }
  }
}

/* sweep.svg: French win rate (and the long game's VP margin) against the value, with the
 * 95% bands; one panel per scenario and player pair, values in the order given */
/* sweep.svg being drawn: the x axis of the sweep values, shared by every panel */
typedef struct {
  const SimCfg *c;
  Cell *cells;
  Buf *b;
  int base, nv;
  double xv[MAX_VAR], xmin, xmax;
} SweepPlot;

/* one numeric parameter: the x axis is to scale; else the values are evenly spaced */
static void sweep_x_axis(SweepPlot *P) {
  const SimCfg *c = P->c;
  int nv = P->nv;
  double *xv = P->xv, xmin = 0, xmax = 1;
  int numeric = c->nset == 1;
  for (int k = 0; k < nv && numeric; k++) {
    const char *eq = strchr(c->var[c->sweep_from + k], '=');
    char *end;
    xv[k] = eq ? strtod(eq + 1, &end) : 0;
    if (!eq || end == eq + 1 || *end) numeric = 0;
    if (k == 0 || xv[k] < xmin) xmin = xv[k];
    if (k == 0 || xv[k] > xmax) xmax = xv[k];
  }
  if (!numeric || xmax <= xmin)
    for (int k = 0; k < nv; k++) { xv[k] = k; xmin = 0; xmax = nv > 1 ? nv - 1 : 1; }
  P->xmin = xmin;
  P->xmax = xmax;
}

/* the estimates and 95% bands of one panel (m 0: French win rate, 1: VP margin) and its y range */
static void sweep_estimates(const SweepPlot *P, int si, int pi, int m, double *est, double *lo,
                            double *hi, double *ymin, double *ymax) {
  const SimCfg *c = P->c;
  int nv = P->nv;
  *ymin = 0;
  *ymax = 1;
  for (int k = 0; k < nv; k++) {
    CellStats st;
    cell_stats(sweep_cell(c, P->cells, si, pi, c->sweep_from + k, P->base), &st);
    if (m == 0) {
      Interval w = wilson(st.w[1], st.n, Z95);
      est[k] = w.p; lo[k] = w.lo; hi[k] = w.hi;
    } else {
      double h = st.n > 1 ? t_quantile(0.975, (double)st.n - 1) * st.margin_sd / sqrt((double)st.n) : 0;
      est[k] = st.margin; lo[k] = st.margin - h; hi[k] = st.margin + h;
    }
  }
  if (m == 1) {
    *ymin = 0; *ymax = 0;
    for (int k = 0; k < nv; k++) { *ymin = fmin(*ymin, lo[k]); *ymax = fmax(*ymax, hi[k]); }
    if (*ymax - *ymin < 1) *ymax = *ymin + 1;
    double pad = 0.05 * (*ymax - *ymin);
    *ymin -= pad; *ymax += pad;
  }
}

/* one panel at height y: the estimate against the value with its band */
static void sweep_panel(const SweepPlot *P, int si, int pi, int m, double y) {
  const SimCfg *c = P->c;
  Buf *b = P->b;
  const int nv = P->nv;
  const double *xv = P->xv, xmin = P->xmin, xmax = P->xmax;
  const double L = 80, R = 740, ph = 220;
  double est[MAX_VAR], lo[MAX_VAR], hi[MAX_VAR], ymin, ymax;
  sweep_estimates(P, si, pi, m, est, lo, hi, &ymin, &ymax);
  char t[400];
  snprintf(t, sizeof t, "%s — %s vs %s: %s", scen_title(c->scen[si]), c->pf[pi], c->pa[pi],
           m == 0 ? "French win rate (Wilson 95%)" : "VP margin French − Allied (Student t 95%)");
  svg_text(b, L, y + 14, "start", 12, "black", t);
  double top = y + 24, bot = y + ph - 20;
#define SX(k) (nv > 1 ? L + 20 + (R - L - 40) * (xv[k] - xmin) / (xmax - xmin) : (L + R) / 2)
#define SY(v) (bot - (bot - top) * ((v) - ymin) / (ymax - ymin))
  buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#999\"/>\n", L, top, R - L, bot - top);
  double ref = m == 0 ? 0.5 : 0.0;
  buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\" stroke-dasharray=\"4 3\"/>\n", L, SY(ref), R, SY(ref));
  for (int q = 0; q <= 4; q++) {
    double v = ymin + (ymax - ymin) * q / 4.0;
    char lab[32];
    if (m == 0) snprintf(lab, sizeof lab, "%.0f%%", 100 * v); else snprintf(lab, sizeof lab, "%+.1f", v);
    svg_text(b, L - 6, SY(v) + 4, "end", 10, "#444", lab);
  }
  buf_printf(b, "<polygon fill=\"#3b6fb6\" fill-opacity=\"0.25\" stroke=\"none\" points=\"");
  for (int k = 0; k < nv; k++) buf_printf(b, "%.1f,%.1f ", SX(k), SY(hi[k]));
  for (int k = nv - 1; k >= 0; k--) buf_printf(b, "%.1f,%.1f ", SX(k), SY(lo[k]));
  buf_printf(b, "\"/>\n<polyline fill=\"none\" stroke=\"#3b6fb6\" stroke-width=\"2\" points=\"");
  for (int k = 0; k < nv; k++) buf_printf(b, "%.1f,%.1f ", SX(k), SY(est[k]));
  buf_printf(b, "\"/>\n");
  for (int k = 0; k < nv; k++) {
    buf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#3b6fb6\"/>\n", SX(k), SY(est[k]));
    const char *lab = c->var[c->sweep_from + k];
    const char *eq = c->nset == 1 ? strchr(lab, '=') : NULL;
    svg_text(b, SX(k), bot + 14, "middle", 10, "#222", eq ? eq + 1 : lab);
  }
#undef SX
#undef SY
}

static void svg_sweep(const SimCfg *c, Cell *cells, Buf *b) {
  SweepPlot P = {c, cells, b, find_var(c, "base"), c->nvar - c->sweep_from, {0}, 0, 1};
  sweep_x_axis(&P);
  int panels = 0;
  for (int si = 0; si < c->nscen; si++) panels += c->npair * (!strcmp(c->scen[si], "long") ? 2 : 1);
  const double W = 780, ph = 220;
  double H = 40 + panels * (ph + 30);
  buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, H);
  char title[400];
  snprintf(title, sizeof title, "Sweep %s%s: estimate and 95%% band against the value", c->set[0], c->nset > 1 ? " …" : "");
  svg_text(b, W / 2, 22, "middle", 14, "black", title);
  double y = 40;
  for (int si = 0; si < c->nscen; si++)
    for (int pi = 0; pi < c->npair; pi++)
      for (int m = 0; m < (!strcmp(c->scen[si], "long") ? 2 : 1); m++) {
        sweep_panel(&P, si, pi, m, y);
        y += ph + 30;
      }
  buf_printf(b, "</svg>\n");
}

/* ---------------------------------------------------------------- JSON */
static cJSON *iv_json(Interval iv) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "rate", iv.p);
  cJSON_AddNumberToObject(o, "lo", iv.lo);
  cJSON_AddNumberToObject(o, "hi", iv.hi);
  return o;
}

/* summary.json's head: the command, the seed, the games and what every statistic means */
static cJSON *json_head(const SimCfg *c) {
  cJSON *root = cJSON_CreateObject();
  Buf cmd = {0};
  cfg_command(c, &cmd);
  cJSON_AddStringToObject(root, "command", cmd.s);
  buf_free(&cmd);
  char seed[32];
  snprintf(seed, sizeof seed, "%" PRIu64, c->seed);
  cJSON_AddStringToObject(root, "seed", seed);
  cJSON_AddNumberToObject(root, "games_per_cell", (double)c->games);
  if (c->until_ci > 0) {
    cJSON_AddNumberToObject(root, "until_ci", c->until_ci);
    cJSON_AddNumberToObject(root, "batch", (double)c->batch);
  }
  cJSON *notes = cJSON_AddObjectToObject(root, "notes");
  cJSON_AddStringToObject(notes, "rates", "95% Wilson score intervals (rate, lo, hi)");
  cJSON_AddStringToObject(notes, "vs_base.diff", "French win rate, variant minus base over the same seeds; lo/hi: Newcombe hybrid-score 95% interval (method 10)");
  cJSON_AddStringToObject(notes, "vs_base.b", "seeds won by the French in the variant only");
  cJSON_AddStringToObject(notes, "vs_base.c", "seeds won by the French in base only");
  cJSON_AddStringToObject(notes, "vs_base.mcnemar_p", "McNemar's test, EXACT two-sided binomial p-value of b against c (b + c trials, 1/2): the p-value the report uses");
  cJSON_AddStringToObject(notes, "vs_base.mcnemar_chi2", "McNemar's chi-square statistic WITH continuity correction, (|b - c| - 1)^2 / (b + c), 1 degree of freedom: for reference only, no p-value is taken from it");
  cJSON_AddStringToObject(notes, "vs_base.holm_p", "mcnemar_p adjusted by Holm's step-down method over the variants compared with base in the same scenario and player pair");
  cJSON_AddStringToObject(notes, "vs_base.pair_phi", "the correlation (phi) of a seed's French-win flags in base and in the variant: what the common random numbers bought");
  cJSON_AddStringToObject(notes, "vs_base.unpaired_lo", "unpaired_lo/hi: Newcombe's interval of the same difference had the two cells been independent samples of the same size; pairing_gain: 1 - paired width / unpaired width");
  cJSON_AddStringToObject(notes, "vs_base.vp_margin_diff.pair_corr", "the correlation of a seed's French VP margins in base and variant; pairing_gain: 1 - sd(difference) / sqrt(var base + var variant)");
  cJSON_AddStringToObject(notes, "vs_base.games_to_detect", "games per cell for 80% power to detect a change of detect_points in the French win rate at two-sided alpha 0.05 (McNemar, Connor 1987, this variant's share of discordant seeds, at least the share the change needs)");
  cJSON_AddStringToObject(notes, "vs_base.vp_margin_diff", "long game: mean over the seeds of the variant's French VP margin minus base's, Student-t 95% interval; p: the paired t test, two-sided; holm_p: p adjusted by Holm over the variants compared with base in the same scenario and player pair; games_to_detect: 80% power, alpha 0.05, for a change of detect_vp");
  cJSON_AddNumberToObject(root, "detect_points", DETECT_POINTS);
  cJSON_AddNumberToObject(root, "detect_vp", DETECT_VP);
  cJSON_AddStringToObject(notes, "facts.vp_margin_ci", "long game: Student-t 95% interval of the mean VP margin");
  return root;
}

/* one cell of summary.json being written */
typedef struct {
  const SimCfg *c;
  Cell *cells;
  int si, pi, vi, base, is_long;
  const Cell *cl;
  CellStats st;
} JsonCell;

/* the means per game: per side, and in the long game the VP and the margin */
static void json_facts(cJSON *o, const JsonCell *j) {
  const CellStats *st = &j->st;
  cJSON *fa = cJSON_AddObjectToObject(o, "facts");
  cJSON_AddNumberToObject(fa, "turns", st->turns);
  cJSON_AddNumberToObject(fa, "rounds", st->rounds);
  cJSON_AddNumberToObject(fa, "passes", st->passes);
  cJSON_AddNumberToObject(fa, "decisions", st->decisions);
  const char *sn[2] = {"french", "allied"};
  for (int s = 0; s < 2; s++) {
    cJSON *so = cJSON_AddObjectToObject(fa, sn[s]);
    cJSON_AddNumberToObject(so, "cards", st->cards[s]);
    cJSON_AddNumberToObject(so, "bids", st->bids[s]);
    cJSON_AddNumberToObject(so, "battles", st->battles[s]);
    cJSON_AddNumberToObject(so, "units_lost", st->lost[s]);
    cJSON_AddNumberToObject(so, "reduced", st->reduced[s]);
    if (j->is_long) {
      cJSON_AddNumberToObject(so, "vp", st->vp[s]);
      cJSON_AddNumberToObject(so, "vp_squares", st->vp_sq[s]);
      cJSON_AddNumberToObject(so, "vp_eliminated", st->vp_elim[s]);
    }
  }
  if (!j->is_long) return;
  cJSON_AddNumberToObject(fa, "vp_margin_mean", st->margin);
  cJSON_AddNumberToObject(fa, "vp_margin_sd", st->margin_sd);
  if (st->n > 1) {
    double h = t_quantile(0.975, (double)st->n - 1) * st->margin_sd / sqrt((double)st->n);
    cJSON *mc = cJSON_AddObjectToObject(fa, "vp_margin_ci");
    cJSON_AddNumberToObject(mc, "lo", st->margin - h);
    cJSON_AddNumberToObject(mc, "hi", st->margin + h);
  }
  cJSON_AddNumberToObject(fa, "vp_margin_median", median_margin(j->cl));
}

static void json_first_fall(cJSON *o, const JsonCell *j) {
  cJSON *fall = cJSON_AddObjectToObject(o, "first_fall");
  static const char *vk[V_COUNT] = {"msj", "hougoumont", "lhs", "frischermont",
                                    "plancenoit1", "plancenoit2", "plancenoit3"};
  for (int v = 0; v < V_COUNT; v++) {
    if (!(j->cl->sc->vsq_active & (1u << v)) && !j->st.fell[v]) continue;
    cJSON *fo = cJSON_AddObjectToObject(fall, vk[v]);
    cJSON_AddNumberToObject(fo, "games", (double)j->st.fell[v]);
    cJSON_AddNumberToObject(fo, "mean_turn", j->st.fall_turn[v]);
  }
}

/* the paired comparison of a variant with base */
static void json_vs_base(cJSON *o, const JsonCell *j) {
  const SimCfg *c = j->c;
  Paired p = paired(j->cl, &j->cells[cell_id(c, j->si, j->pi, j->base)]);
  double holm[MAX_VAR];
  holm_family(c, j->cells, j->si, j->pi, j->base, holm, 0);
  double holm_vp[MAX_VAR];
  holm_family(c, j->cells, j->si, j->pi, j->base, holm_vp, 1);
  cJSON *vb = cJSON_AddObjectToObject(o, "vs_base");
  cJSON_AddNumberToObject(vb, "pairs", (double)p.n);
  cJSON_AddNumberToObject(vb, "diff", p.diff.p);
  cJSON_AddNumberToObject(vb, "lo", p.diff.lo);
  cJSON_AddNumberToObject(vb, "hi", p.diff.hi);
  cJSON_AddNumberToObject(vb, "b", (double)p.b);
  cJSON_AddNumberToObject(vb, "c", (double)p.c);
  cJSON_AddNumberToObject(vb, "mcnemar_chi2", p.chi2);
  cJSON_AddNumberToObject(vb, "mcnemar_p", p.p);
  cJSON_AddNumberToObject(vb, "holm_p", holm[j->vi]);
  cJSON_AddNumberToObject(vb, "unpaired_lo", p.g.unpaired.lo);
  cJSON_AddNumberToObject(vb, "unpaired_hi", p.g.unpaired.hi);
  cJSON_AddNumberToObject(vb, "pair_phi", p.g.phi);
  cJSON_AddNumberToObject(vb, "pairing_gain", p.g.gain);
  double nb = p.n ? (double)p.n : 1;
  cJSON_AddNumberToObject(vb, "games_for_3_points_paired",
                          games_for_halfwidth((p.a + p.b) / nb, (p.a + p.c) / nb, p.g.phi, 0.03, Z95));
  cJSON_AddNumberToObject(vb, "games_for_3_points_unpaired",
                          games_for_halfwidth((p.a + p.b) / nb, (p.a + p.c) / nb, 0, 0.03, Z95));
  double nn = p.n ? (double)p.n : 1;
  cJSON_AddNumberToObject(vb, "games_to_detect",
                          mcnemar_games_needed((p.b + p.c) / nn, DETECT_POINTS, 0.05, 0.80));
  if (j->is_long && p.n > 1) {
    cJSON *md = cJSON_AddObjectToObject(vb, "vp_margin_diff");
    cJSON_AddNumberToObject(md, "mean", p.mdiff.p);
    cJSON_AddNumberToObject(md, "lo", p.mdiff.lo);
    cJSON_AddNumberToObject(md, "hi", p.mdiff.hi);
    cJSON_AddNumberToObject(md, "sd", p.msd);
    cJSON_AddNumberToObject(md, "p", p.mp);
    cJSON_AddNumberToObject(md, "holm_p", holm_vp[j->vi]);
    cJSON_AddNumberToObject(md, "pair_corr", p.mphi);
    cJSON_AddNumberToObject(md, "pairing_gain", p.mgain);
    cJSON_AddNumberToObject(md, "games_to_detect", mean_games_needed(p.msd, DETECT_VP, 0.05, 0.80));
  }
}

/* one cell: counts, rates, conditions, facts, first falls, against base */
static cJSON *json_cell(JsonCell *j) {
  const SimCfg *c = j->c;
  const CellStats *st = &j->st;
  cell_stats(j->cl, &j->st);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "scenario", c->scen[j->si]);
  cJSON_AddStringToObject(o, "variant", c->var[j->vi]);
  cJSON_AddStringToObject(o, "french", c->pf[j->pi]);
  cJSON_AddStringToObject(o, "allied", c->pa[j->pi]);
  if (j->cl->identical) {
    cJSON_AddBoolToObject(o, "identical_to_base", 1);
    return o;
  }
  char ev[2][200];
  cell_evals(c, j->cl, j->pi, ev);
  cJSON *eo = cJSON_AddObjectToObject(o, "evaluation");
  cJSON_AddStringToObject(eo, "french", ev[0]);
  cJSON_AddStringToObject(eo, "allied", ev[1]);
  cJSON_AddNumberToObject(o, "games", (double)st->n);
  cJSON_AddNumberToObject(o, "french_wins", (double)st->w[1]);
  cJSON_AddNumberToObject(o, "allied_wins", (double)st->w[2]);
  cJSON_AddNumberToObject(o, "draws", (double)st->w[3]);
  cJSON_AddNumberToObject(o, "unfinished", (double)st->w[0]);
  cJSON_AddItemToObject(o, "french_rate", iv_json(wilson(st->w[1], st->n, Z95)));
  cJSON_AddItemToObject(o, "allied_rate", iv_json(wilson(st->w[2], st->n, Z95)));
  cJSON_AddItemToObject(o, "draw_rate", iv_json(wilson(st->w[3], st->n, Z95)));
  cJSON_AddNumberToObject(o, "balance", st->n ? 1 - fabs((double)(st->w[1] - st->w[2]) / st->n) : 0);
  cJSON *cond = cJSON_AddObjectToObject(o, "conditions");
  for (int k = 1; k < COND_COUNT; k++)
    if (st->cond[k]) cJSON_AddNumberToObject(cond, cond_name(k), (double)st->cond[k]);
  json_facts(o, j);
  json_first_fall(o, j);
  facts_json(o, j->cl, j->is_long);
  if (j->base >= 0 && j->vi != j->base) json_vs_base(o, j);
  return o;
}

static char *report_json(const SimCfg *c, Cell *cells) {
  cJSON *root = json_head(c);
  int base = find_var(c, "base");
  cJSON *arr = cJSON_AddArrayToObject(root, "cells");
  for (int si = 0; si < c->nscen; si++)
    for (int pi = 0; pi < c->npair; pi++)
      for (int vi = 0; vi < c->nvar; vi++) {
        JsonCell j = {c, cells, si, pi, vi, base, !strcmp(c->scen[si], "long"),
                      &cells[cell_id(c, si, pi, vi)], {0}};
        cJSON_AddItemToArray(arr, json_cell(&j));
      }
  char *s = cJSON_Print(root);
  cJSON_Delete(root);
  return s;
}

/* ---------------------------------------------------------------- SVG */
static void svg_text(Buf *b, double x, double y, const char *anchor, int size, const char *fill,
                     const char *t) {
  buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\" fill=\"%s\">",
             x, y, anchor, size, fill);
  for (const char *p = t; *p; p++) {
    if (*p == '<') buf_printf(b, "&lt;");
    else if (*p == '>') buf_printf(b, "&gt;");
    else if (*p == '&') buf_printf(b, "&amp;");
    else buf_printf(b, "%c", *p);
  }
  buf_printf(b, "</text>\n");
}

static void svg_winrate(const SimCfg *c, Cell *cells, Buf *b) {
  const double L = 300, R = 740, W = 780, row = 22;
  int groups = c->nscen * c->npair;
  double H = 60 + groups * 30 + (double)ncells(c) * row + 30;
  buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
             W, H);
  svg_text(b, W / 2, 22, "middle", 15, "black", "French win rate with 95% Wilson interval");
  double y = 50;
  /* axis ticks */
  for (int t = 0; t <= 100; t += 10) {
    double x = L + (R - L) * t / 100.0;
    buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                  "stroke-width=\"1\"%s/>\n",
               x, y - 6, x, H - 30, t == 50 ? "#444" : "#ddd", t == 50 ? " stroke-dasharray=\"4 3\"" : "");
    char lab[8];
    snprintf(lab, sizeof lab, "%d%%", t);
    svg_text(b, x, H - 14, "middle", 10, "#444", lab);
  }
  for (int si = 0; si < c->nscen; si++)
    for (int pi = 0; pi < c->npair; pi++) {
      char g[300];
      snprintf(g, sizeof g, "%s — %s vs %s", scen_title(c->scen[si]), c->pf[pi], c->pa[pi]);
      y += 8;
      svg_text(b, 10, y + 10, "start", 12, "black", g);
      y += 22;
      for (int vi = 0; vi < c->nvar; vi++) {
        CellStats st;
        svg_text(b, L - 10, y + 14, "end", 11, "#222", c->var[vi]);
        if (cells[cell_id(c, si, pi, vi)].identical) {
          svg_text(b, L + 6, y + 14, "start", 10, "#666", "identical to base in this scenario: not played");
          y += row;
          continue;
        }
        cell_stats(&cells[cell_id(c, si, pi, vi)], &st);
        Interval iv = wilson(st.w[1], st.n, Z95);
        double x0 = L, x1 = L + (R - L) * iv.p;
        buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#3b6fb6\"/>\n",
                   x0, y + 4, x1 - x0, row - 8);
        double lo = L + (R - L) * iv.lo, hi = L + (R - L) * iv.hi, ym = y + row / 2;
        buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" stroke-width=\"1.5\"/>\n", lo, ym, hi, ym);
        buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" stroke-width=\"1.5\"/>\n", lo, ym - 5, lo, ym + 5);
        buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" stroke-width=\"1.5\"/>\n", hi, ym - 5, hi, ym + 5);
        char lab[64];
        snprintf(lab, sizeof lab, "%.1f%% (n=%ld)", 100 * iv.p, st.n);
        svg_text(b, hi + 6 > R - 60 ? lo - 6 : hi + 6, y + 14, hi + 6 > R - 60 ? "end" : "start", 10, "#222", lab);
        y += row;
      }
    }
  buf_printf(b, "</svg>\n");
}

/* margin bins: 0 alone, then 1..5, 6..10, ... on each side */
static int vp_bin(int m) { return m == 0 ? 0 : m > 0 ? (m - 1) / 5 + 1 : -((-m - 1) / 5 + 1); }

static void svg_vp(const SimCfg *c, Cell *cells, Buf *b) {
  int li = -1;
  for (int si = 0; si < c->nscen; si++)
    if (!strcmp(c->scen[si], "long")) li = si;
  int lo = 0, hi = 0;
  for (int pi = 0; pi < c->npair && li >= 0; pi++)
    for (int vi = 0; vi < c->nvar; vi++) {
      const Cell *cl = &cells[cell_id(c, li, pi, vi)];
      for (long i = 0; i < cl->target; i++) {
        if (!cl->have[i]) continue;
        int k = vp_bin(cl->res[i].vp[0] - cl->res[i].vp[1]);
        if (k < lo) lo = k;
        if (k > hi) hi = k;
      }
    }
  int nb = hi - lo + 1;
  int panels = 0;
  for (int pi = 0; pi < c->npair && li >= 0; pi++)
    for (int vi = 0; vi < c->nvar; vi++) panels += !cells[cell_id(c, li, pi, vi)].identical;
  const double W = 780, L = 60, R = 760, ph = 130;
  double H = 54 + panels * (ph + 20) + 20;
  buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
             W, H);
  svg_text(b, W / 2, 20, "middle", 15, "black",
           li >= 0 ? "Long game: VP margin, French − Allied" : "Long game: not in this run");
  svg_text(b, W / 2, 36, "middle", 10, "#444",
           "bins 0, ±1–5, ±6–10, …; blue: French win, red: Allied win, grey: draw");
  double y = 44;
  long *cnt = calloc((size_t)nb, sizeof(long));
  for (int pi = 0; pi < c->npair && li >= 0; pi++)
    for (int vi = 0; vi < c->nvar; vi++) {
      const Cell *cl = &cells[cell_id(c, li, pi, vi)];
      if (cl->identical) continue;
      memset(cnt, 0, sizeof(long) * (size_t)nb);
      long mx = 1, n = 0;
      double sum = 0;
      for (long i = 0; i < cl->target; i++) {
        if (!cl->have[i]) continue;
        int m = cl->res[i].vp[0] - cl->res[i].vp[1];
        int k = vp_bin(m) - lo;
        cnt[k]++;
        if (cnt[k] > mx) mx = cnt[k];
        n++;
        sum += m;
      }
      char t[300];
      snprintf(t, sizeof t, "%s — %s vs %s (n=%ld, mean margin %+.1f)", c->var[vi], c->pf[pi],
               c->pa[pi], n, n ? sum / n : 0.0);
      svg_text(b, L, y + 12, "start", 12, "black", t);
      double top = y + 18, base = top + ph - 20, bwpx = (R - L) / nb;
      buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n", L, base, R, base);
      for (int k = 0; k < nb; k++) {
        int bin = lo + k;
        const char *col = bin > 0 ? "#3b6fb6" : bin < 0 ? "#c0392b" : "#888888";
        double h = (base - top) * cnt[k] / (double)mx;
        if (cnt[k])
          buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
                     L + k * bwpx + 0.5, base - h, bwpx - 1, h, col);
        if (nb <= 30 || bin % ((nb + 29) / 30) == 0) {
          char lab[16];
          if (bin == 0) snprintf(lab, sizeof lab, "0");
          else snprintf(lab, sizeof lab, "%+d", bin * 5);
          svg_text(b, L + (k + 0.5) * bwpx, base + 12, "middle", 9, "#444", lab);
        }
      }
      char mxl[24];
      snprintf(mxl, sizeof mxl, "%ld", mx);
      svg_text(b, L - 6, top + 8, "end", 9, "#444", mxl);
      y += ph + 20;
    }
  free(cnt);
  buf_printf(b, "</svg>\n");
}

/* ---------------------------------------------------------------- all files */
static int put(const char *dir, const char *name, const char *data, size_t len) {
  char p[1400];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  return write_atomic(p, data, len);
}

/* cost.md: thread CPU seconds per game of each cell, from the journal (machine-dependent, so
 * kept out of report.md and summary.json, which the seed alone decides) */
static void cost_md(const SimCfg *c, const Cell *cells, Buf *b) {
  char cap[CAPTION_LEN];
  build_caption(cap, sizeof cap, cfg_searches(c));
  buf_printf(b, "# What the games cost\n\n%s\n\nMade by:\n\n```\n", cap);
  cfg_command(c, b);
  buf_printf(b, "\n```\n\nThe CPU time of each game (both players, the thread "
                "that played it: `CLOCK_THREAD_CPUTIME_ID`), as the journal recorded it.  Games "
                "journalled by an older build carry no time and are not counted in the mean.  "
                "Machine-dependent; the results are in `report.md`.\n\n"
                "| scenario | French | Allied | variant | games | timed | CPU s/game | CPU s |\n"
                "|---|---|---|---|---:|---:|---:|---:|\n");
  double all = 0;
  long all_n = 0;
  for (int ci = 0; ci < ncells(c); ci++) {
    const Cell *cl = &cells[ci];
    if (cl->identical) continue;
    CellStats st;
    cell_stats(cl, &st);
    buf_printf(b, "| %s | %s | %s | %s | %ld | %ld | ", c->scen[cl->si], c->pf[cl->pi],
               c->pa[cl->pi], c->var[cl->vi], st.n, st.timed);
    if (st.timed) buf_printf(b, "%.3f | %.1f |\n", st.cpu / st.timed, st.cpu);
    else buf_printf(b, "— | — |\n");
    all += st.cpu;
    all_n += st.timed;
  }
  if (all_n) buf_printf(b, "\nAll timed games: %ld, %.1f CPU s, %.3f CPU s/game.\n", all_n, all, all / all_n);
}

void games_csv(const SimCfg *c, const Cell *cells, Buf *b) {
  facts_csv_header(b);
  buf_printf(b, "\n");
  for (int ci = 0; ci < ncells(c); ci++) {
    const Cell *cl = &cells[ci];
    for (long i = 0; i < cl->target; i++) {
      if (!cl->have[i]) continue;
      facts_csv_row(b, c->scen[cl->si], c->var[cl->vi], c->pf[cl->pi], c->pa[cl->pi], c->seed,
                    &cl->res[i]);
      buf_printf(b, "\n");
    }
  }
}

int sim_report(const SimCfg *c, Cell *cells, const char *dir) {
  int rc = 0;
  Buf b = {0};
  cost_md(c, cells, &b);
  rc |= put(dir, "cost.md", b.s, b.n);
  buf_free(&b);
  report_md(c, cells, &b);
  rc |= put(dir, "report.md", b.s, b.n);
  buf_free(&b);
  char *js = report_json(c, cells);
  if (js) {
    Buf j = {0};
    buf_printf(&j, "%s\n", js);
    rc |= put(dir, "summary.json", j.s, j.n);
    buf_free(&j);
    free(js);
  } else {
    rc = -1;
  }
  games_csv(c, cells, &b);
  rc |= put(dir, "games.csv", b.s, b.n);
  buf_free(&b);
  svg_winrate(c, cells, &b);
  rc |= put(dir, "winrate.svg", b.s, b.n);
  buf_free(&b);
  int has_long = 0;
  for (int si = 0; si < c->nscen; si++) has_long |= !strcmp(c->scen[si], "long");
  if (has_long) {
    svg_vp(c, cells, &b);
    rc |= put(dir, "vp_margin.svg", b.s, b.n);
    buf_free(&b);
  }
  if (c->nset > 0) {
    svg_sweep(c, cells, &b);
    rc |= put(dir, "sweep.svg", b.s, b.n);
    buf_free(&b);
  }
  return rc ? -1 : 0;
}
