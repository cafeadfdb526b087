/* The replay and the review of saved games for the page of `serve` (issue 23; docs/API.md).
 * Every function answers a JSON object and an HTTP code in *code: on bad input
 * {"error": one line} with a 4xx.  Names are the saves folder's (1-40 of A-Z a-z 0-9 - _);
 * nothing outside that folder is read or written. */
#ifndef WATERLOO_FRONT_REPLAY_H
#define WATERLOO_FRONT_REPLAY_H
#include <cjson/cJSON.h>

/* GET /api/replay?name=NAME&step=K&side=S&since=M: the position after the first K actions of
 * SAVES/NAME.json as a view (the same fields as a game's, your_turn false), with `replay`
 * (name, step, actions, over, result, side) and `review` (the decisions of
 * SAVES/NAME-review/review.json, when there is one), the log entries from M, and with_scenario
 * the scenario's JSON.  A finished game is shown whole (every
 * action in the log, both sides' secret choices named); an unfinished one only as the seat
 * `side` saw it. */
cJSON *replay_get(const char *saves, const char *name, const char *step, const char *side,
                  const char *since, int with_scenario, int *code);
/* POST /api/replay/sim {scenario, variants, players "A,B", seed, index}: plays that game of a
 * sim run again (cheap players only: random, light, heuristic, baseline, mcts:sim, mcts:easy)
 * and keeps it as SAVES/sim-....json; answers {name} */
cJSON *replay_sim(const char *saves, const cJSON *body, int *code);
/* POST /api/review {name, level}: starts `waterloo review` of SAVES/NAME.json at the level
 * (normal, the default; easy or sim) on one thread in the background, into SAVES/NAME-review/ (resumed when it was stopped); GET
 * /api/review?name=NAME: {state: none|running|done|failed, done, of} */
cJSON *review_start(const char *saves, const cJSON *body, int *code);
cJSON *review_status(const char *saves, const char *name, int *code);
/* SAVES/NAME.json replaced by another game: write(arg) writes it (0, or -1 on failure), and
 * only once it is written the old game's review (SAVES/NAME-review/, a folder of the saves
 * folder itself: never a link followed) is removed, so no mark of the old game is shown on the
 * new one and a failed write loses nothing; -2 (nothing written) while that review runs */
int review_replace(const char *saves, const char *name, int (*write)(void *), void *arg);
#endif
