/* The files of a review (sim/review.h): the Markdown report, the win-probability chart and the
 * JSON the page's replay reads. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "review_int.h"
#include "sim.h"
#include "../ai/review.h"
#include "../engine/util.h"

/* P(French win) after the search at decision d (the chart's curve) */
static double french_wp(const RvDec *d) { return d->side == FRENCH ? d->wp : 1.0 - d->wp; }

static const char *mark_colour(int m) {
  return m == MARK_BLUNDER ? "#c62828" : m == MARK_MISTAKE ? "#ef6c00" : "#d4a000";
}

/* ---------------------------------------------------------------- the chart */
static void svg_axes(FILE *f, const Rv *R, int W, int H, int L, int T, int PW, int PH) {
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
             "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n",
          W, H, W, H, W, H);
  fprintf(f, "<text x=\"%d\" y=\"16\" font-size=\"14\">P(French win) by the search, at each reviewed "
             "decision</text>\n", L);
  for (int p = 0; p <= 100; p += 25) {
    double y = T + PH - PH * p / 100.0;
    fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"%s/>\n"
               "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d%%</text>\n",
            L, L + PW, y, y, p == 50 ? " stroke-dasharray=\"4 3\"" : "", L - 4, y + 4, p);
  }
  int n = R->rec.n > 0 ? R->rec.n : 1, last = 0;
  for (int i = 0; i < R->rec.n; i++) {
    int t = R->pos[i].turn.number;
    if (t == last) continue;
    last = t;
    double x = L + PW * (double)i / n;
    fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#bbb\"/>\n"
               "<text x=\"%.1f\" y=\"%d\">turn %d</text>\n", x, x, T, T + PH, x + 3, T + PH + 16, t);
  }
}

static void svg_chart(FILE *f, const Rv *R) {
  const int W = 760, H = 300, L = 46, T = 28, PW = 690, PH = 230;
  svg_axes(f, R, W, H, L, T, PW, PH);
  int n = R->rec.n > 0 ? R->rec.n : 1;
  fprintf(f, "<polyline fill=\"none\" stroke=\"#1f4e9c\" stroke-width=\"2\" points=\"");
  for (int k = 0; k < R->nd; k++)
    fprintf(f, "%.1f,%.1f ", L + PW * (double)R->d[k].idx / n, T + PH - PH * french_wp(&R->d[k]));
  fprintf(f, "\"/>\n");
  for (int k = 0; k < R->nd; k++) {
    const RvDec *d = &R->d[k];
    if (!d->mark) continue;
    fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\"><title>action %d, %s %s: %s, "
               "%.1f points</title></circle>\n", L + PW * (double)d->idx / n,
            T + PH - PH * french_wp(d), 3 + d->mark, mark_colour(d->mark), d->idx + 1,
            side_name(d->side), group_name(phase_group(d->phase)), mark_name(d->mark), 100 * d->loss);
  }
  fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#555\">dots: inaccuracy (yellow), mistake (orange), "
             "blunder (red) of the side to move</text>\n</svg>\n", L, H - 4);
}

/* ---------------------------------------------------------------- the Markdown */
static void md_head(FILE *f, const Rv *R) {
  const ReviewOpts *o = R->o;
  State last = R->pos[R->rec.n];
  char cap[CAPTION_LEN];
  build_caption(cap, sizeof cap, spec_searches(o->spec));
  fprintf(f, "# Review of `%s`\n\n%s\n\nReproduce with:\n\n```\n%s\n```\n\n", o->save, cap, o->command);
  fprintf(f, "Game: %s (%s), seed %llu, %d actions, %s.  Reviewed: %s%s%s, %d decisions searched "
             "(%ld + %ld with one legal action skipped).  Judge: `%s`, %d paired worlds.\n\n",
          R->rec.scenario, R->rec.variants, (unsigned long long)R->rec.seed, R->rec.n,
          gs_over(&last) ? result_name(last.score.result) : "unfinished",
          R->sides & 1 ? "French" : "", R->sides == 3 ? " and " : "", R->sides & 2 ? "Allied" : "",
          R->nd, R->forced[0], R->forced[1], o->spec, o->evals);
  if (!gs_over(&last))
    fprintf(f, "The game is not over: only the %s side, the one its person plays, is reviewed, and "
               "only from what that side saw (the other side's cards stay hidden until the "
               "end).\n\n", side_name(R->sides == 1 ? FRENCH : ALLIED));
  if (o->judge == REVIEW_JUDGE_END)
    fprintf(f, "**Judged by the game's end** (`--judge end`): every loss below is the difference, over "
               "the same %d sampled worlds, between the search's choice and the played action each "
               "followed by the heuristic (10%% random moves) to the game's end, with no evaluation: "
               "a measure independent of what the search's walks measure; the search's own root "
               "statistics choose the action only.\n\n", o->evals);
  fprintf(f, "How to read it: every decision is searched again from the observation its side had "
             "then (never the hidden cards).  The **loss** is the search's estimated win probability "
             "of its own choice minus the played action's, in points: from the played action's own "
             "root statistics when it has at least %d visits, else from both actions played on the "
             "same %d sampled worlds (paired).  ± is one standard error (binomial for root "
             "statistics, of the paired differences otherwise).  A decision is marked only when its "
             "loss is larger than %.0f standard errors: **inaccuracy** from %.0f points, **mistake** "
             "from %.0f, **blunder** from %.0f.\n\n",
          REVIEW_MIN_VISITS, o->evals, REVIEW_NOISE_Z, 100 * REVIEW_INACCURACY,
          100 * REVIEW_MISTAKE, 100 * REVIEW_BLUNDER);
  if (o->out) fprintf(f, "![P(French win) over the game](winprob.svg)\n\n");
}

static void md_marked(FILE *f, const Rv *R) {
  int nm = 0;
  for (int k = 0; k < R->nd; k++) nm += R->d[k].mark > 0;
  fprintf(f, "## Marked decisions (%d)\n\n", nm);
  if (!nm) { fprintf(f, "None: no decision lost more than its noise and %.0f points.\n\n", 100 * REVIEW_INACCURACY); return; }
  for (int k = 0; k < R->nd; k++) {
    const RvDec *d = &R->d[k];
    if (!d->mark) continue;
    const State *s = &R->pos[d->idx];
    char played[96], best[96], why[512];
    action_format(R->sc, s, d->played, played, sizeof played);
    action_format(R->sc, s, d->best, best, sizeof best);
    reason_action(R->sc, s, d->best, 0, why, sizeof why);
    fprintf(f, "- **Action %d, turn %d, %s, %s: %s**, %.1f ± %.1f points (%s).  Played `%s`; "
               "better `%s`: %s.  The search gave its choice %.0f%%.\n",
            d->idx + 1, d->turn, side_name(d->side), group_name(phase_group(d->phase)),
            mark_name(d->mark), 100 * d->loss, 100 * d->se, d->how == HOW_ROOT ? "root statistics" : "paired",
            played, best, why, 100 * d->wp);
  }
  fprintf(f, "\n");
}

static void md_phases(FILE *f, const Rv *R) {
  fprintf(f, "## By phase\n\n| side | phase | decisions | same as the search | inaccuracies | "
             "mistakes | blunders | mean loss (points) | total loss |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (int side = 0; side < 2; side++) {
    if (!(R->sides & (1 << side))) continue;
    for (int g = 0; g < G_COUNT; g++) {
      long n = 0, same = 0, m[4] = {0};
      double tot = 0;
      for (int k = 0; k < R->nd; k++) {
        const RvDec *d = &R->d[k];
        if (d->side != side || phase_group(d->phase) != g) continue;
        n++;
        same += d->how == HOW_SAME;
        m[d->mark]++;
        tot += d->loss > 0 ? d->loss : 0;
      }
      if (!n) continue;
      fprintf(f, "| %s | %s | %ld | %ld | %ld | %ld | %ld | %.1f | %.1f |\n", side_name(side), group_name(g), n, same,
              m[1], m[2], m[3], 100 * tot / n, 100 * tot);
    }
  }
  fprintf(f, "\nA negative loss (the played action looked better than the search's choice) counts "
             "as 0 in the means.  CPU: %.1f s for this run (%ld of the %d decisions taken from the "
             "journal).\n", clock_cpu() - R->cpu0, R->reused, R->nd);
}

/* ---------------------------------------------------------------- the JSON of the page */
static cJSON *json_decision(const Rv *R, const RvDec *d) {
  const State *s = &R->pos[d->idx];
  char played[96], best[96], why[512], sq[4];
  action_format(R->sc, s, d->played, played, sizeof played);
  action_format(R->sc, s, d->best, best, sizeof best);
  reason_action(R->sc, s, d->best, 0, why, sizeof why);
  cJSON *j = cJSON_CreateObject();
  cJSON_AddNumberToObject(j, "index", d->idx);
  cJSON_AddStringToObject(j, "side", side_name(d->side));
  cJSON_AddStringToObject(j, "phase", group_name(phase_group(d->phase)));
  cJSON_AddNumberToObject(j, "turn", d->turn);
  cJSON_AddStringToObject(j, "played", played);
  cJSON_AddStringToObject(j, "best", best);
  cJSON_AddNumberToObject(j, "winrate", d->wp);
  cJSON_AddNumberToObject(j, "loss", d->loss);
  cJSON_AddNumberToObject(j, "se", d->se);
  cJSON_AddStringToObject(j, "mark", mark_name(d->mark));
  cJSON_AddStringToObject(j, "why", why);
  int from, to;
  reason_arrow(R->sc, s, d->best, &from, &to);
  if (from < NSQ && to < NSQ) {
    sq_name(from, sq);
    cJSON_AddStringToObject(j, "from", sq);
    sq_name(to, sq);
    cJSON_AddStringToObject(j, "to", sq);
  }
  return j;
}

static char *review_json(const Rv *R) {
  cJSON *j = cJSON_CreateObject();
  cJSON_AddStringToObject(j, "format", "waterloo-review-1");
  cJSON_AddStringToObject(j, "judge", R->o->spec);
  cJSON_AddNumberToObject(j, "actions", R->rec.n);
  cJSON *a = cJSON_AddArrayToObject(j, "decisions");
  for (int k = 0; k < R->nd; k++) cJSON_AddItemToArray(a, json_decision(R, &R->d[k]));
  char *t = cJSON_Print(j);
  cJSON_Delete(j);
  return t;
}

/* ---------------------------------------------------------------- writing */
static int write_mem(const char *dir, const char *name, const Rv *R, int what) {
  char *data = NULL, path[1100];
  size_t len = 0;
  if (what == 2) {
    data = review_json(R);
    len = data ? strlen(data) : 0;
  } else {
    FILE *m = open_memstream(&data, &len);
    if (!m) return 1;
    if (what == 1) svg_chart(m, R);
    else { md_head(m, R); md_marked(m, R); md_phases(m, R); }
    fclose(m);
  }
  if (!dir) { fwrite(data, 1, len, stdout); free(data); return 0; }
  snprintf(path, sizeof path, "%s/%s", dir, name);
  int rc = data ? write_atomic(path, data, len) : -1;
  free(data);
  if (rc) fprintf(stderr, "review: cannot write %s: %s\n", path, strerror(errno));
  return rc ? 1 : 0;
}

int review_write(const Rv *R) {
  const char *dir = R->o->out;
  if (R->jbad) fprintf(stderr, "review: %ld unreadable line(s) of %s skipped\n", R->jbad, R->jpath);
  if (!dir) return write_mem(NULL, NULL, R, 0);
  int rc = write_mem(dir, "review.md", R, 0);
  if (!rc) rc = write_mem(dir, "winprob.svg", R, 1);
  if (!rc) rc = write_mem(dir, "review.json", R, 2);
  if (!rc && !R->o->quiet) printf("review: report in %s/review.md, chart %s/winprob.svg, data %s/review.json\n", dir, dir, dir);
  return rc;
}
