/* ./waterloo review SAVE: the options; the review itself is sim/review.c. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../ai/player.h"
#include "../sim/review.h"

#define REVIEW_USAGE \
  "usage: waterloo review SAVE [--level L] [--side french|allied|both] [--out DIR] [--seed N]\n" \
  "                            [--threads N] [--evals N] [--judge walks|end] [--resume | --overwrite]\n" \
  "                            [--quiet]\n" \
  "Reviews a saved game: every decision of the chosen side(s) with more than one legal action is\n" \
  "searched again from that side's observation at that moment (never the hidden cards); the\n" \
  "win probability the played action lost against the search's choice, with its standard\n" \
  "error, and a mark where the loss is larger than 2 standard errors: inaccuracy from 4\n" \
  "points, mistake from 8, blunder from 16.  Without --out the report goes to stdout.\n" \
  "  --level L     the judge: a level (default normal*4: 4x the normal budget, about 2 CPU minutes\n" \
  "                a short game) or a player spec (mcts:hard, ...; sim: a few seconds, a rough look)\n" \
  "  --side S      french, allied or both (default both).  A game that is not over is\n" \
  "                reviewed only for the side its person plays (its saved seats), so that no\n" \
  "                hidden card of the other side is shown; it is refused when the save does not\n" \
  "                say who that is or people play both sides\n" \
  "  --out DIR     DIR/review.md, DIR/winprob.svg (the chart), DIR/review.json (for the page);\n" \
  "                every decision is appended to DIR/review.journal as it finishes\n" \
  "  --seed N      the judge's seed (default 1); the results depend on it and on nothing else\n" \
  "  --threads N   decisions searched at once, 1..256 (default: every core); results do not\n" \
  "                change\n" \
  "  --evals N     sampled worlds on which the played action and the search's choice are both\n" \
  "                played when the played action has too few visits of its own (default 256)\n" \
  "  --judge J     walks (default): the loss from the search's root statistics, else paired on\n" \
  "                light rollouts cut after 6 rounds and the fitted evaluation, as the search's\n" \
  "                walks measure; end: every decision where the two differ judged paired by the\n" \
  "                heuristic played to the game's end (a measure independent of the search;\n" \
  "                slower: for diagnosis)\n" \
  "  --resume      reuse the decisions of DIR/review.journal (same game, judge and seed)\n" \
  "  --overwrite   discard DIR/review.journal\n"

static int review_side(const char *v, int *sides) {
  if (!strcmp(v, "french")) *sides = 1;
  else if (!strcmp(v, "allied")) *sides = 2;
  else if (!strcmp(v, "both")) *sides = 3;
  else { fprintf(stderr, "waterloo review: --side must be french, allied or both, not '%s'\n", v); return 2; }
  return 0;
}

/* the command that reproduces the report (no --threads, --resume, --overwrite, --quiet) */
static void review_command(ReviewOpts *o, int argc, char **argv) {
  size_t n = (size_t)snprintf(o->command, sizeof o->command, "./waterloo review %s", o->save);
  for (int i = 1; i < argc && n < sizeof o->command; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--resume") || !strcmp(a, "--overwrite") || !strcmp(a, "--quiet")) continue;
    if (!strcmp(a, "--threads")) { i++; continue; }
    const char *q = strpbrk(a, "*;, ") ? "'" : "";
    n += (size_t)snprintf(o->command + n, sizeof o->command - n, " %s%s%s", q, a, q);
  }
}

static int review_options(ReviewOpts *o, int argc, char **argv) {
  int rc = cli_args(argc, argv, "review",
                    "--level --side --out --seed --threads --evals --judge --resume! --overwrite! --quiet!", REVIEW_USAGE);
  if (rc >= 0) return rc;
  char err[300];
  player_level_spec(opt_get(argc, argv, "--level", "normal*4"), o->spec, sizeof o->spec);
  if (player_spec_check(o->spec, err, sizeof err)) {
    fprintf(stderr, "waterloo review: --level: %s\n", err);
    return 2;
  }
  long ev = 256;
  const char *th = opt_get(argc, argv, "--threads", NULL); /* left out: every core (0) */
  o->threads = 0;
  const char *side = opt_get(argc, argv, "--side", NULL); /* left out: 0, review_run decides */
  o->sides = 0;
  if ((side && review_side(side, &o->sides)) ||
      opt_u64("review", "--seed", opt_get(argc, argv, "--seed", "1"), &o->seed) ||
      (th && opt_int("review", "--threads", th, 1, CLI_MAX_THREADS, &o->threads)) ||
      opt_long("review", "--evals", opt_get(argc, argv, "--evals", "256"), 2, 1000000, &ev))
    return 2;
  o->evals = (int)ev;
  const char *judge = opt_get(argc, argv, "--judge", "walks");
  if (!strcmp(judge, "end")) o->judge = REVIEW_JUDGE_END;
  else if (strcmp(judge, "walks")) {
    fprintf(stderr, "waterloo review: --judge must be walks or end, not '%s'\n", judge);
    return 2;
  }
  o->out = opt_get(argc, argv, "--out", NULL);
  o->resume = opt_has(argc, argv, "--resume");
  o->overwrite = opt_has(argc, argv, "--overwrite");
  o->quiet = opt_has(argc, argv, "--quiet");
  if (o->resume && o->overwrite) { fprintf(stderr, "waterloo review: --resume and --overwrite exclude each other\n"); return 2; }
  if (o->resume && !o->out) { fprintf(stderr, "waterloo review: --resume needs --out DIR (the journal)\n"); return 2; }
  review_command(o, argc, argv);
  return -1;
}

int cmd_review(int argc, char **argv) {
  static ReviewOpts o;
  memset(&o, 0, sizeof o);
  if (argc >= 2 && strncmp(argv[1], "--", 2)) { /* SAVE first, the options after it */
    o.save = argv[1];
    argv[1] = argv[0];
    argc--;
    argv++;
  }
  int rc = review_options(&o, argc, argv);
  if (rc >= 0) return rc;
  if (!o.save) { fprintf(stderr, "waterloo review: which saved game? (usage: waterloo review SAVE ...)\n"); return 2; }
  return review_run(&o);
}
