/* The JSON forms of docs/API.md, shared by the engine protocol (state, legaljson, reach,
 * scenario) and the web server (every answer).  cJSON trees the caller deletes. */
#ifndef WATERLOO_FRONT_JSON_H
#define WATERLOO_FRONT_JSON_H
#include <cjson/cJSON.h>

#include "session.h"

cJSON *scen_json(const Scen *sc);
/* what `side` sees of s: built from gs_observe only, so it never holds the other side's hand,
 * undrawn cards or secret commitments */
cJSON *observation_json(const Scen *sc, const State *s, int side);
/* one action in structured form, with its notation */
cJSON *action_json(const Scen *sc, const State *s, Action a);
cJSON *legal_json(const Scen *sc, const State *s);
cJSON *reach_json(const Scen *sc, const State *s, int u);
cJSON *log_json(const Session *S, int since);
cJSON *battle_json(const Scen *sc, const BattleRec *b);
/* the full view the page needs (observation of the human, legal actions when the human
 * decides, score, log since `since`) */
cJSON *session_view(const Session *S, int since);
/* the game turn by turn, replayed from its record (public facts only: castles and objectives
 * the French hold, VP, units lost, battles fought by each side as attacker), the result */
cJSON *summary_json(const Session *S);
/* the view of one seat (session_view's fields for that seat's side: its observation, legal
 * actions only when that seat decides) plus seat, seats and deciding_seat; seat -1: the
 * session's own view (the human side; with people on both sides, the deciding human seat's) */
cJSON *session_view_seat(const Session *S, int since, int seat);
/* the seat fields of a view: seat (the viewer's, when one), seats, deciding_seat */
void seats_view_json(const Session *S, cJSON *view, int seat);
#endif
