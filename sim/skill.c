/* ./waterloo skill: balance across skill.  The French win rate of each scenario when both sides
 * are played by the same player, for a ladder of players from weak to strong: does the balance
 * estimate settle as the players get better, or does it still move with skill?
 *
 * A skill run is a sim run (sim_play): one player pair per level, the level on both sides, one
 * variant; so its games are sim's games on the same seed (sim_player_seed, run_game), its journal
 * is sim's (DIR/journal.csv, --resume, --overwrite), its games.csv is sim's, and `replay`
 * reproduces any game.  What is skill's own is the table (report.md) and the chart (skill.svg).
 * Its options are read in cli/skill.c. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

/* one row of the table: a level in a scenario, counted from its sim cell */
typedef struct {
  const char *spec;
  long games, fr, al, dr, bad, reused;
  double cpu;
} Row;

/* the table of one run */
typedef struct {
  const SkillOpts *o;
  Row rows[MAX_SCEN][SKILL_MAX_LEVELS];
} Table;

static void svg_axes(FILE *f, const Table *T, int W, int H, int L, int R, int Tp, int B) {
  double pw = W - L - R, ph = H - Tp - B;
  int nl = T->o->nl;
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H);
  fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
  fprintf(f, "<text x=\"%d\" y=\"22\" font-size=\"15\">French win rate when both sides are played by the same player (95%% Wilson)</text>\n", L);
  for (int g = 0; g <= 10; g += 2) {
    double y = Tp + ph * (1 - g / 10.0);
    fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, y, W - R, y);
    fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d%%</text>\n", L - 6, y + 4, g * 10);
  }
  double y50 = Tp + ph * 0.5;
  fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n", L, y50, W - R, y50);
  for (int i = 0; i < nl; i++) {
    double x = L + pw * (i + 0.5) / nl;
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" transform=\"rotate(-30 %.1f %d)\">%s</text>\n",
            x, H - B + 18, x, H - B + 18, T->o->spec[i]);
  }
}

/* skill.svg: the French win rate of each level, one line per scenario */
static void svg(FILE *f, const Table *T) {
  const int W = 760, H = 420, L = 70, R = 20, Tp = 40, B = 110;
  double pw = W - L - R, ph = H - Tp - B;
  int nl = T->o->nl;
  svg_axes(f, T, W, H, L, R, Tp, B);
  const char *col[2] = {"#1f5fbf", "#c0392b"};
  for (int s = 0; s < T->o->nsc; s++) {
    double px = 0, py = 0;
    for (int i = 0; i < nl; i++) {
      const Row *c = &T->rows[s][i];
      if (!c->games) continue;
      Interval wi = wilson_d(c->fr + 0.5 * c->dr, c->games, Z95);
      double x = L + pw * (i + 0.5) / nl + (s ? 6 : -6);
      double y = Tp + ph * (1 - wi.p);
      fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x, Tp + ph * (1 - wi.lo), x,
              Tp + ph * (1 - wi.hi), col[s]);
      fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n", x, y, col[s]);
      if (i) fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\"/>\n", px, py, x, y, col[s]);
      px = x;
      py = y;
    }
    fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s game</text>\n", L + 10 + 130 * s,
            H - 14, col[s], L + 18 + 130 * s, H - 10, T->o->scen[s]);
  }
  fprintf(f, "</svg>\n");
}

/* the last rows' reading: do the two strongest players still disagree on the balance?
 * Newcombe's interval for a difference of two independent proportions (from Wilson's) */
static void skill_reading(FILE *f, const Row *lo, const Row *hi) {
  if (!lo->games || !hi->games) return;
  Interval a = wilson_d(lo->fr + 0.5 * lo->dr, lo->games, Z95), b = wilson_d(hi->fr + 0.5 * hi->dr, hi->games, Z95);
  double d = b.p - a.p;
  double dl = d - sqrt((b.p - b.lo) * (b.p - b.lo) + (a.hi - a.p) * (a.hi - a.p));
  double dh = d + sqrt((b.hi - b.p) * (b.hi - b.p) + (a.p - a.lo) * (a.p - a.lo));
  fprintf(f, "Reading: from %s to %s the French win rate moves %+.1f points, 95%% [%+.1f, %+.1f] (Newcombe). %s\n\n",
          lo->spec, hi->spec, 100 * d, 100 * dl, 100 * dh,
          dl > 0 || dh < 0 ? "The estimate still moves with skill: stronger players are needed before it is the game's balance."
                           : "No move is detected at these game counts; the interval says how large a move could still hide.");
}

/* report.md: the command, what a row is, one table per scenario */
static void skill_report(FILE *f, const Table *T) {
  const SkillOpts *o = T->o;
  char cap[CAPTION_LEN];
  int search = 0;
  for (int i = 0; i < o->nl; i++) search |= spec_searches(o->spec[i]);
  build_caption(cap, sizeof cap, search);
  fprintf(f, "# Balance across skill\n\n%s\n\nReproduce with:\n\n```\n%s\n```\n\n", cap, o->command);
  fprintf(f, "Each row: the same player on both sides, variant %s, seed %" PRIu64 "; game i is `sim`'s "
             "game i of that player pair (replay it with `./waterloo replay --scenario S --variant %s "
             "--players P --seed %" PRIu64 " --index i`; every game is a row of `games.csv`, "
             "written beside this report by the command, not kept in `results/`: "
             "`./waterloo replay --csv games.csv --row K`). French win rate with draws counted half, 95%% "
             "Wilson interval; CPU s/game is the thread CPU time of both players per game.  Rows go from "
             "weak to strong: where the rate stops moving, the balance estimate no longer depends on "
             "skill.\n\n",
          o->var, o->seed, o->var, o->seed);
  for (int s = 0; s < o->nsc; s++) {
    fprintf(f, "## %s game\n\n| player (both sides) | games | French - Allied - draws | French win rate | CPU s/game |\n|---|---:|---|---|---:|\n", o->scen[s]);
    for (int i = 0; i < o->nl; i++) {
      const Row *c = &T->rows[s][i];
      Interval wi = wilson_d(c->fr + 0.5 * c->dr, c->games, Z95);
      fprintf(f, "| %s | %ld | %ld - %ld - %ld | %.1f%% [%.1f, %.1f] | %.3f |\n", c->spec, c->games, c->fr, c->al, c->dr,
              100 * wi.p, 100 * wi.lo, 100 * wi.hi, c->games ? c->cpu / c->games : 0);
    }
    fprintf(f, "\n");
    if (o->nl >= 2) skill_reading(f, &T->rows[s][o->nl - 2], &T->rows[s][o->nl - 1]);
  }
  fprintf(f, "![French win rate by skill](skill.svg)\n");
}

/* what = 0: report.md, 1: skill.svg, written atomically from a memory stream */
static int skill_write(const char *dir, const Table *T, int what) {
  char path[1200], *data = NULL;
  size_t len = 0;
  snprintf(path, sizeof path, "%s/%s", dir, what ? "skill.svg" : "report.md");
  FILE *m = open_memstream(&data, &len);
  if (!m) return 1;
  if (what) svg(m, T);
  else skill_report(m, T);
  fclose(m);
  int rc = write_atomic(path, data, len);
  free(data);
  if (rc) fprintf(stderr, "skill: cannot write %s: %s\n", path, strerror(errno));
  return rc ? 1 : 0;
}

/* the sim configuration of a skill run: the scenarios, the one variant, a pair per level */
static void skill_cfg(const SkillOpts *o, SimCfg *c) {
  c->cmd = "skill";
  c->nscen = o->nsc;
  for (int s = 0; s < o->nsc; s++) snprintf(c->scen[s], sizeof c->scen[s], "%s", o->scen[s]);
  c->nvar = 1;
  snprintf(c->var[0], sizeof c->var[0], "%s", o->var);
  for (int i = 0; i < o->nl; i++) {
    sim_add_pair(c, o->spec[i], o->spec[i]);
    c->pair_games[i] = o->games[i];
    if (o->games[i] > c->games) c->games = o->games[i];
  }
  c->seed = o->seed;
  c->threads = o->threads;
  snprintf(c->out, sizeof c->out, "%s", o->out);
  c->resume = o->resume;
  c->overwrite = o->overwrite;
  c->progress = 0; /* skill says a line per level */
}

/* the rows from the cells, each said on stderr */
static void skill_rows(const Run *R, Table *T) {
  const SimCfg *c = &R->cfg;
  for (int s = 0; s < c->nscen; s++)
    for (int i = 0; i < c->npair; i++) {
      const Cell *cl = &R->cells[cell_id(c, s, i, 0)];
      Row *r = &T->rows[s][i];
      r->spec = T->o->spec[i];
      r->reused = cl->resumed;
      for (long g = 0; g < sim_pair_games(c, i); g++) {
        int res = g < cl->cap && cl->have[g] ? cl->res[g].result : 0;
        r->fr += res == RES_FRENCH;
        r->al += res == RES_ALLIED;
        r->dr += res == RES_DRAW;
        r->bad += res == RES_NONE;
        if (res) r->cpu += cl->res[g].cpu;
      }
      r->games = r->fr + r->al + r->dr;
      Interval wi = wilson_d(r->fr + 0.5 * r->dr, r->games, Z95);
      fprintf(stderr, "skill: %s %s: %ld games (%ld from the journal), French %.1f%% [%.1f, %.1f], %.3f CPU s/game\n",
              c->scen[s], r->spec, r->games, r->reused, 100 * wi.p, 100 * wi.lo, 100 * wi.hi,
              r->games ? r->cpu / r->games : 0);
    }
}

int skill_main(const SkillOpts *o) {
  Run *R = calloc(1, sizeof *R);
  Table *T = calloc(1, sizeof *T);
  if (!R || !T) { free(R); free(T); fprintf(stderr, "skill: out of memory\n"); return 2; }
  R->size = 1;
  T->o = o;
  skill_cfg(o, &R->cfg);
  double cpu0;
  int rc = sim_play(R, &cpu0);
  if (rc == 0) {
    skill_rows(R, T);
    Buf b = {0};
    games_csv(&R->cfg, R->cells, &b);
    char path[1200];
    snprintf(path, sizeof path, "%s/games.csv", o->out);
    if (write_atomic(path, b.s, b.n)) {
      fprintf(stderr, "skill: cannot write %s: %s\n", path, strerror(errno));
      rc = 1;
    }
    buf_free(&b);
    if (!rc) rc = skill_write(o->out, T, 0);
    if (!rc) rc = skill_write(o->out, T, 1);
    if (!rc) printf("skill: report in %s/report.md, chart in %s/skill.svg, games in %s/games.csv\n", o->out, o->out, o->out);
  }
  run_free(R);
  free(R);
  free(T);
  return rc;
}
