/* `waterloo review SAVE` (issue 23): every decision of a saved game searched again from the
 * deciding side's observation at that moment, the win probability each decision lost against
 * the search's choice with its standard error, and a mark where the loss is larger than its
 * noise.  The thresholds are written in sim/README.md and in every report.
 *
 * The run: one player per decision (seeded by the review seed and the decision's index, so
 * nothing depends on the thread count), OpenMP over decisions, each finished decision appended
 * to DIR/review.journal at once (--resume reuses them); the report is written whole at the end:
 * DIR/review.md, DIR/winprob.svg and DIR/review.json (the page's replay reads it). */
#ifndef WATERLOO_SIM_REVIEW_H
#define WATERLOO_SIM_REVIEW_H
#include <stdint.h>
#include "../engine/engine.h"

/* marks, weakest first */
enum { MARK_NONE = 0, MARK_INACCURACY, MARK_MISTAKE, MARK_BLUNDER };
/* a loss (win-probability points lost, 0..1) is marked when it is larger than
 * REVIEW_NOISE_Z standard errors and at least the threshold of the mark */
#define REVIEW_INACCURACY 0.04
#define REVIEW_MISTAKE 0.08
#define REVIEW_BLUNDER 0.16
#define REVIEW_NOISE_Z 2.0
/* the played move's own root statistics are used when it has at least this many visits;
 * else it and the search's choice are judged on the same sampled worlds */
#define REVIEW_MIN_VISITS 100
const char *mark_name(int mark);
int review_mark(double loss, double se);

/* how a decision's loss was measured */
enum { HOW_SAME = 0, HOW_ROOT = 1, HOW_PAIRED = 2 };
/* the judge of a loss: the search's root statistics, else the paired judge of light rollouts cut
 * after 6 rounds and scored by the fitted evaluation (walks); or every differing decision judged
 * paired by heuristic rollouts played to the game's end (end: independent of the search) */
enum { REVIEW_JUDGE_WALKS = 0, REVIEW_JUDGE_END = 1 };
/* the phase groups of the summary */
enum { G_CARDS = 0, G_MOVE, G_BATTLE, G_BID, G_BCARDS, G_COUNT };
const char *group_name(int g);
int phase_group(int phase);

/* one reviewed decision */
typedef struct {
  int idx;            /* index of the action in the saved game                    */
  int side, phase, turn, nlegal;
  Action played, best; /* best: the search's choice (the most visited candidate)    */
  double wp;          /* the search's estimated win rate of its choice, for side   */
  double loss, se;    /* win probability lost by the played action, its standard error */
  int how, mark;
  int done;
} RvDec;

typedef struct {
  const char *save;   /* the saved game                                           */
  const char *out;    /* DIR, or NULL: the Markdown report on stdout only           */
  char spec[200];     /* the player whose search judges                             */
  int sides;          /* bit per side reviewed; 0: both in a finished game, in one in   *
                       * progress the side its person plays (else refused: review_run) */
  uint64_t seed;
  int threads;        /* 0: OpenMP's default                                        */
  int evals;          /* worlds of the paired judge                                 */
  int judge;          /* REVIEW_JUDGE_*: how a loss is judged                        */
  int resume, overwrite, quiet;
  char command[1024]; /* the command that reproduces the report                    */
} ReviewOpts;

/* the whole review; the process exit code (0, 1 when a write failed, 2 bad input) */
int review_run(const ReviewOpts *o);

/* one decision: s the position before it, played the action taken there; fills d (all but
 * idx); seed seeds the search player and the judge.  0, or -1 with the player's error. */
int review_decision(const Scen *sc, const char *spec, const State *s, Action played,
                    int evals, int judge, uint64_t seed, RvDec *d, char *err, size_t errlen);
#endif
