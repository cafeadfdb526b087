/* Looking back at decisions (issue 23): the analysis behind `waterloo review` and the reasons
 * the computer gives for its choices.
 *
 * What it is: a paired judge of two actions (the same sampled worlds and the same rollout
 * stream for both, so their difference has a small error), read from one side's observation
 * only; and a reason in words for an action, built from facts of the position (objectives,
 * battle odds, cards kept) and the search's root statistics.  What it is not: a search.  The
 * values of the candidates come from any player through player_analyze (ai/player.h), so the
 * review keeps working when the search behind the levels changes. */
#ifndef WATERLOO_REVIEW_H
#define WATERLOO_REVIEW_H
#include "../engine/engine.h"
#include "player.h"

/* ---------------------------------------------------------------- the paired judge */
typedef struct Judge Judge;
/* light rollouts cut after 6 rounds and scored by the fitted evaluation when the scenario has
 * one (the estimator of the flat levels); NULL when out of memory */
Judge *judge_new(const Scen *sc);
/* a judge independent of the search's walks: the heuristic with 10% random moves plays every
 * world to the game's end (no cut-off, no evaluation); slower, for diagnosis (review --judge end) */
Judge *judge_new_end(const Scen *sc);
void judge_free(Judge *j);
/* v(a) - v(b) for side gs_decider(s), the mean over n worlds sampled from that side's
 * observation of s (never the hidden cards), each world played on after a and after b with the
 * same rollout stream (common random numbers); *se its standard error (0 when n < 2).  The
 * worlds and streams come from seed alone.  a and b must be legal in s. */
double judge_pair(const Judge *j, const State *s, Action a, Action b, int n, uint64_t seed,
                  double *se);

/* the binomial standard error of a win rate estimated from n playouts (n < 1: 0.5) */
double review_se(double p, int n);

/* ---------------------------------------------------------------- reasons in words */
/* one plain sentence on what action a does in s, for the decider, from the facts of the
 * position seen by that side (s is read through gs_observe): the unit and where it goes, the
 * objective it takes, leaves or comes closer to, the enemies next to it, the battle and its
 * odds before cards, the card and what it is worth, the cards kept.  pub: said to the other
 * side, so nothing it may not see (no cards kept, no secret totals; "" for a secret choice).
 * Returns the length written. */
int reason_action(const Scen *sc, const State *s, Action a, int pub, char *buf, size_t len);
/* the reason for the search's choice: reason_action, then what the search saw (its estimated
 * win rate, the visit share, the margin over the next candidate).  c[0] is the choice, c[1..n)
 * the other candidates (player_analyze's order).  "" when pub and the choice is secret. */
int reason_choice(const Scen *sc, const State *s, const Candidate *c, int n, int pub, char *buf,
                  size_t len);
/* the arrow an action draws on the board: from and to squares (SQ_NONE when it has none) */
void reason_arrow(const Scen *sc, const State *s, Action a, int *from, int *to);
#endif
