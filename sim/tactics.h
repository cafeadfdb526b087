/* The tactics suite (issue 19 item 3): positions on the real map where the rules make one move
 * clearly best, each with the moves it accepts and the rule ids that make them best, and the
 * experiment that asks players for their move in each (`waterloo tactics`, cli/tactics.c).
 *
 * The positions are data (scenarios/tactics.txt), one line each, fields separated by " | ":
 *
 *   ID | RULE IDS | ACCEPTED MOVES | TAGS | POSITION TEXT | SET-UP ACTIONS | COMMENT
 *
 * ACCEPTED MOVES: the moves of the deciding side in notation (action_format), separated by ';';
 * '*' matches any text ("play * move", "retreat *").  TAGS: comma-separated, '-' for none:
 * `easy` (the accepted move itself takes or keeps the objective, or the VP, in that one action:
 * no reply of the opponent needs to be seen; the fast test asks the heuristic and mcts:sim to
 * solve these), `win=french|allied|draw`
 * (after any accepted move, every continuation ends with this result: the test plays random
 * continuations).  POSITION TEXT: engine/position.c (it names its scenario).  SET-UP ACTIONS:
 * actions in notation applied to the position before the decision, separated by ';', '-' for
 * none (a battle's earlier choices, a step that opens an evasion window). */
#ifndef WATERLOO_TACTICS_H
#define WATERLOO_TACTICS_H
#include <stddef.h>
#include <stdio.h>

#include "../engine/engine.h"

#define TACTIC_FIELD 512

typedef struct {
  int line;                          /* line of the file                         */
  char id[48], rules[128], accept[TACTIC_FIELD], tags[128], setup[TACTIC_FIELD];
  char comment[TACTIC_FIELD];
  char *position;                    /* the position text (owned)                 */
  char scen[32], variant[256];       /* from the position text                    */
  int easy, win;                     /* tags: easy; RES_* after an accepted move, or 0 */
} Tactic;

typedef struct {
  Tactic *t;
  int n;
} TacticSet;

/* reads and checks a suite: every line parses, its scenario loads, its position is valid
 * (gs_check), its set-up actions are legal, every accepted move matches a legal action of the
 * decider and at least one legal action is not accepted.  0, or -1 and "FILE:LINE: why". */
int tactics_load(const char *path, TacticSet *set, char *err, size_t errlen);
void tactics_free(TacticSet *set);

/* the scenario and the decision position of t (position, then its set-up actions); the caller
 * frees *sc.  0, or -1 and why */
int tactic_state(const Tactic *t, Scen **sc, State *s, char *err, size_t errlen);
/* 1 if the suite accepts action a of the decider in s */
int tactic_accepts(const Scen *sc, const State *s, const Tactic *t, Action a);

/* player spec's move in t, seeded by seed, from the deciding side's observation only
 * (gs_observe): its notation (or what went wrong, in brackets), whether the suite accepts it,
 * the thread CPU seconds of the decision */
typedef struct {
  char move[160];
  int ok;
  double cpu;
} TacticAnswer;
void tactic_ask(const Tactic *t, const char *spec, uint64_t seed, TacticAnswer *ans);

/* the experiment: every player on every position, from its observation only */
typedef struct {
  const char *file;       /* the suite                                            */
  const char **players;   /* player specs                                         */
  int nplayers;
  uint64_t seed;          /* player p on position i is seeded by (seed, i, p)     */
  int threads;
  const char *out;        /* markdown table, or NULL                              */
  const char *command;    /* the command line that reproduces the table           */
} TacticsRun;

/* prints the table to f (and writes o->out); 0, or 2 after one line naming the problem */
int tactics_run(const TacticsRun *o, FILE *f);
#endif
