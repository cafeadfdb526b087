/* The game facts of a sim cell with their intervals (issue 24 item 5): the game's length in
 * turns, rounds and decisions, what each side did, who won the bids and how often that side won
 * the game, the victory squares held at the end and when each first fell.  Every rate has its
 * 95% Wilson interval, every mean its 95% Student-t interval; report.md's sections and
 * summary.json's "game_facts" are written from the same tallies. */
#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

#include "sim_int.h"

static void mom_add(Mom *m, double x) {
  m->s += x;
  m->s2 += x * x;
  m->n++;
}

/* one game's per-side and length facts into fs->m */
static void facts_add(FactStats *fs, const GameFacts *f) {
  mom_add(&fs->m[FT_TURNS], f->turns);
  mom_add(&fs->m[FT_ROUNDS], f->rounds);
  mom_add(&fs->m[FT_DECISIONS], f->decisions);
  mom_add(&fs->m[FT_PASSES], f->passes);
  for (int s = 0; s < 2; s++) {
    mom_add(&fs->m[FT_CARDS + s], f->cards[s]);
    mom_add(&fs->m[FT_BIDS + s], f->bids[s]);
    mom_add(&fs->m[FT_BATTLES + s], f->battles[s]);
    mom_add(&fs->m[FT_LOST + s], f->lost[s]);
    mom_add(&fs->m[FT_REDUCED + s], f->reduced[s]);
    mom_add(&fs->m[FT_VP + s], f->vp[s]);
    if (f->more) mom_add(&fs->m[FT_BIDS_WON + s], f->bids_won[s]);
  }
}

void fact_stats(const Cell *cl, FactStats *fs) {
  memset(fs, 0, sizeof *fs);
  for (long i = 0; i < cl->target; i++) {
    if (!cl->have[i]) continue;
    const GameFacts *f = &cl->res[i];
    fs->n++;
    facts_add(fs, f);
    int bw = bid_winner(f);
    fs->bidw[bw]++;
    if (f->result == RES_FRENCH) fs->fr_win_when[bw]++;
    if ((bw == BIDW_FRENCH && f->result == RES_FRENCH) ||
        (bw == BIDW_ALLIED && f->result == RES_ALLIED))
      fs->bidw_won++;
    for (int v = 0; v < V_COUNT; v++) {
      if (f->owner & (1u << v)) fs->held[v]++;
      if (!f->fall[v]) continue;
      fs->fell[v]++;
      mom_add(&fs->fall_turn[v], f->fall[v]);
      if (f->more) mom_add(&fs->fall_round[v], f->fall_round[v]);
    }
  }
}

Interval mom_ci(const Mom *m) { return mean_t(m->s, m->s2, m->n, 0.95); }

/* the bid winner's win rate: of the games with a French or an Allied bid winner, the share the
 * bid winner won */
Interval bid_winner_rate(const FactStats *fs) {
  return wilson(fs->bidw_won, fs->bidw[BIDW_FRENCH] + fs->bidw[BIDW_ALLIED], Z95);
}

/* what winning the bid goes with: the French win rate in the games the French won the bid
 * minus in those the Allies won it (two independent groups, Newcombe method 10) */
Interval bid_advantage(const FactStats *fs) {
  return diff_indep(fs->fr_win_when[BIDW_FRENCH], fs->bidw[BIDW_FRENCH],
                    fs->fr_win_when[BIDW_ALLIED], fs->bidw[BIDW_ALLIED], Z95);
}

/* ---------------------------------------------------------------- report.md */
/* "67.2 [65.1, 69.3]"; decimals by size; "—" without games, "[?]" without a spread */
static void put_mean(Buf *b, const Mom *m) {
  if (!m->n) { buf_printf(b, "—"); return; }
  Interval iv = mom_ci(m);
  double a = fabs(iv.p);
  int d = a < 10 ? 2 : a < 100 ? 1 : 0;
  if (!isfinite(iv.lo) || !isfinite(iv.hi) || isnan(iv.lo)) {
    buf_printf(b, "%.*f [?]", d, iv.p);
    return;
  }
  buf_printf(b, "%.*f [%.*f, %.*f]", d, iv.p, d, iv.lo, d, iv.hi);
}

static void put_rate(Buf *b, long k, long n) {
  if (!n) { buf_printf(b, "—"); return; }
  Interval iv = wilson(k, n, Z95);
  buf_printf(b, "%.1f%% [%.1f, %.1f]", 100 * iv.p, 100 * iv.lo, 100 * iv.hi);
}

static void put_pair(Buf *b, const FactStats *fs, int ft) {
  put_mean(b, &fs->m[ft]);
  buf_printf(b, " / ");
  put_mean(b, &fs->m[ft + 1]);
}

/* the played cells of one scenario x pair, in variant order */
static int section_cells(const SimCfg *c, Cell *cells, int si, int pi, const Cell **out,
                         const char **names) {
  int n = 0;
  for (int vi = 0; vi < c->nvar; vi++) {
    const Cell *cl = &cells[cell_id(c, si, pi, vi)];
    if (cl->identical) continue;
    names[n] = c->var[vi];
    out[n++] = cl;
  }
  return n;
}

static void md_length(Buf *b, const Cell **cl, const char **names, int n, int is_long) {
  buf_printf(b, "\n### Game facts (mean per game [95%% Student-t interval])\n\nLength: turns, "
                "rounds (both sides' rounds, passes included) and decisions (actions the players "
                "chose); then per side, French / Allied: cards played (movement, action or battle "
                "cards), cards offered in bids, battles declared, units eliminated, units on "
                "their reduced side at the end%s.\n\n| variant | turns | rounds | decisions | "
                "passes | cards F / A | bid cards F / A | battles F / A | units lost F / A | "
                "reduced at end F / A |%s\n|---|---|---|---|---|---|---|---|---|---|%s\n",
             is_long ? ", VP at the end" : "", is_long ? " VP F / A |" : "", is_long ? "---|" : "");
  for (int k = 0; k < n; k++) {
    FactStats fs;
    fact_stats(cl[k], &fs);
    buf_printf(b, "| %s |", names[k]);
    static const int one[] = {FT_TURNS, FT_ROUNDS, FT_DECISIONS, FT_PASSES};
    for (int q = 0; q < 4; q++) { buf_printf(b, " "); put_mean(b, &fs.m[one[q]]); buf_printf(b, " |"); }
    static const int two[] = {FT_CARDS, FT_BIDS, FT_BATTLES, FT_LOST, FT_REDUCED, FT_VP};
    for (int q = 0; q < 5 + is_long; q++) { buf_printf(b, " "); put_pair(b, &fs, two[q]); buf_printf(b, " |"); }
    buf_printf(b, "\n");
  }
}

static void md_bid_row(Buf *b, const char *name, const FactStats *fs) {
  long known = fs->n - fs->bidw[BIDW_UNKNOWN];
  buf_printf(b, "| %s", name);
  if (known && fs->bidw[BIDW_UNKNOWN]) /* a resumed journal of an older build */
    buf_printf(b, " (%ld games; %ld not recorded)", known, fs->bidw[BIDW_UNKNOWN]);
  buf_printf(b, " | ");
  if (!known) { buf_printf(b, "not recorded (games of an older build's journal) | | | | | |\n"); return; }
  put_pair(b, fs, FT_BIDS_WON);
  buf_printf(b, " | %ld / %ld / %ld / %ld | ", fs->bidw[BIDW_FRENCH], fs->bidw[BIDW_ALLIED],
             fs->bidw[BIDW_SPLIT], fs->bidw[BIDW_NONE]);
  if (fs->bidw[BIDW_FRENCH] + fs->bidw[BIDW_ALLIED] == 0) {
    buf_printf(b, "no bid won | | | |\n");
    return;
  }
  Interval r = bid_winner_rate(fs);
  buf_printf(b, "%.1f%% [%.1f, %.1f] | ", 100 * r.p, 100 * r.lo, 100 * r.hi);
  put_rate(b, fs->fr_win_when[BIDW_FRENCH], fs->bidw[BIDW_FRENCH]);
  buf_printf(b, " | ");
  put_rate(b, fs->fr_win_when[BIDW_ALLIED], fs->bidw[BIDW_ALLIED]);
  Interval d = bid_advantage(fs);
  if (isnan(d.p)) buf_printf(b, " | — |");
  else buf_printf(b, " | %+.1f [%+.1f, %+.1f] |", 100 * d.p, 100 * d.lo, 100 * d.hi);
  buf_printf(b, "\n");
}

static void md_bids(Buf *b, const Cell **cl, const char **names, int n) {
  buf_printf(b, "\n### The bid\n\nFrom turn 2 the sides bid for the first round (R-4.2); the "
                "bid winner of a game is the side that won more of its bids (split: as many "
                "each; none: no bid, e.g. `no-bidding`). The bid winner's win rate is over the "
                "games with a French or Allied bid winner; the last column is the French win "
                "rate when the French won the bid minus when the Allies did (Newcombe's 95%% "
                "interval for independent groups). It says what winning the bid goes with, not "
                "what it causes: the side with the better hand also bids higher. What the bid is "
                "worth as a rule is `no-bidding` against base.\n\n| variant | bids won F / A "
                "(mean) | bid winner French / Allied / split / none | bid winner wins | French "
                "win, French won the bid | French win, Allies won the bid | difference |\n"
                "|---|---|---|---|---|---|---|\n");
  for (int k = 0; k < n; k++) {
    FactStats fs;
    fact_stats(cl[k], &fs);
    md_bid_row(b, names[k], &fs);
  }
}

/* the squares of the scenario's victory conditions, in the order the report names them */
static int report_squares(int is_long, int *vs) {
  static const int l[] = {V_HOUGOUMONT, V_LHS, V_MSJ, V_PLANC1, V_PLANC2, V_PLANC3};
  static const int s[] = {V_HOUGOUMONT, V_LHS, V_FRISCHERMONT, V_MSJ};
  memcpy(vs, is_long ? l : s, is_long ? sizeof l : sizeof s);
  return is_long ? 6 : 4;
}

static void md_squares(Buf *b, const Cell **cl, const char **names, int n, int is_long) {
  int vs[V_COUNT], nv = report_squares(is_long, vs);
  buf_printf(b, "\n### The victory squares\n\nHeld: the share of games the French hold the "
                "square at the end. Fell: the share in which it ever turned French, and the mean "
                "turn and round of the game (1 = the first) in which it first did, over those "
                "games.\n\n| variant | |");
  for (int k = 0; k < nv; k++) buf_printf(b, " %s |", vsq_name(vs[k], 1));
  buf_printf(b, "\n|---|---|");
  for (int k = 0; k < nv; k++) buf_printf(b, "---|");
  buf_printf(b, "\n");
  for (int k = 0; k < n; k++) {
    FactStats fs;
    fact_stats(cl[k], &fs);
    static const char *what[4] = {"held", "fell", "turn", "round"};
    for (int w = 0; w < 4; w++) {
      buf_printf(b, "| %s | %s", w ? "" : names[k], what[w]);
      if (w == 3 && fs.bidw[BIDW_UNKNOWN]) /* a resumed journal of an older build */
        buf_printf(b, " (the %ld games that recorded it)", fs.n - fs.bidw[BIDW_UNKNOWN]);
      buf_printf(b, " |");
      for (int q = 0; q < nv; q++) {
        int v = vs[q];
        buf_printf(b, " ");
        if (w == 0) put_rate(b, fs.held[v], fs.n);
        else if (w == 1) put_rate(b, fs.fell[v], fs.n);
        else put_mean(b, w == 2 ? &fs.fall_turn[v] : &fs.fall_round[v]);
        buf_printf(b, " |");
      }
      buf_printf(b, "\n");
    }
  }
}

void facts_md(Buf *b, const SimCfg *c, Cell *cells, int si, int pi, int is_long) {
  const Cell *cl[MAX_VAR];
  const char *names[MAX_VAR];
  int n = section_cells(c, cells, si, pi, cl, names);
  md_length(b, cl, names, n, is_long);
  md_bids(b, cl, names, n);
  md_squares(b, cl, names, n, is_long);
}

/* ---------------------------------------------------------------- summary.json */
static void json_mean(cJSON *o, const char *key, const Mom *m) {
  cJSON *x = cJSON_AddObjectToObject(o, key);
  Interval iv = mom_ci(m);
  cJSON_AddNumberToObject(x, "games", (double)m->n);
  cJSON_AddNumberToObject(x, "mean", m->n ? iv.p : NAN);
  cJSON_AddNumberToObject(x, "lo", m->n > 1 ? iv.lo : NAN);
  cJSON_AddNumberToObject(x, "hi", m->n > 1 ? iv.hi : NAN);
}

static void json_rate(cJSON *o, const char *key, long k, long n) {
  cJSON *x = cJSON_AddObjectToObject(o, key);
  Interval iv = wilson(k, n, Z95);
  cJSON_AddNumberToObject(x, "count", (double)k);
  cJSON_AddNumberToObject(x, "of", (double)n);
  cJSON_AddNumberToObject(x, "rate", n ? iv.p : NAN);
  cJSON_AddNumberToObject(x, "lo", n ? iv.lo : NAN);
  cJSON_AddNumberToObject(x, "hi", n ? iv.hi : NAN);
}

static void json_bid(cJSON *g, const FactStats *fs) {
  cJSON *bo = cJSON_AddObjectToObject(g, "bid");
  for (int w = 0; w < BIDW_COUNT; w++)
    cJSON_AddNumberToObject(bo, bid_winner_name(w), (double)fs->bidw[w]);
  json_mean(bo, "bids_won_french", &fs->m[FT_BIDS_WON]);
  json_mean(bo, "bids_won_allied", &fs->m[FT_BIDS_WON + 1]);
  json_rate(bo, "bid_winner_wins", fs->bidw_won, fs->bidw[BIDW_FRENCH] + fs->bidw[BIDW_ALLIED]);
  json_rate(bo, "french_win_french_won_bid", fs->fr_win_when[BIDW_FRENCH], fs->bidw[BIDW_FRENCH]);
  json_rate(bo, "french_win_allies_won_bid", fs->fr_win_when[BIDW_ALLIED], fs->bidw[BIDW_ALLIED]);
  Interval d = bid_advantage(fs);
  cJSON *x = cJSON_AddObjectToObject(bo, "advantage");
  cJSON_AddNumberToObject(x, "diff", d.p);
  cJSON_AddNumberToObject(x, "lo", d.lo);
  cJSON_AddNumberToObject(x, "hi", d.hi);
}

void facts_json(struct cJSON *o, const Cell *cl, int is_long) {
  FactStats fs;
  fact_stats(cl, &fs);
  cJSON *g = cJSON_AddObjectToObject(o, "game_facts");
  static const char *len[] = {"turns", "rounds", "decisions", "passes"};
  for (int q = 0; q < 4; q++) json_mean(g, len[q], &fs.m[q]);
  static const char *per[] = {"cards", "bid_cards", "battles", "units_lost", "reduced", "vp"};
  const char *sn[2] = {"french", "allied"};
  for (int s = 0; s < 2; s++) {
    cJSON *so = cJSON_AddObjectToObject(g, sn[s]);
    for (int q = 0; q < 5 + is_long; q++) json_mean(so, per[q], &fs.m[FT_CARDS + 2 * q + s]);
  }
  json_bid(g, &fs);
  cJSON *sq = cJSON_AddObjectToObject(g, "squares");
  int vs[V_COUNT], nv = report_squares(is_long, vs);
  for (int k = 0; k < nv; k++) {
    int v = vs[k];
    cJSON *x = cJSON_AddObjectToObject(sq, vsq_key(v));
    json_rate(x, "held", fs.held[v], fs.n);
    json_rate(x, "fell", fs.fell[v], fs.n);
    json_mean(x, "fall_turn", &fs.fall_turn[v]);
    json_mean(x, "fall_round", &fs.fall_round[v]);
  }
}
