/* Seats in a session (issue 22): who decides now, the computer seats' players, a seat's view. */
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "session.h"

int session_set_seats(Session *S, const char *text, char *err, size_t len) {
  Seats t;
  if (seats_parse_text(&t, S->sc, text, S->level, 1, err, len)) return -1;
  if (seats_start(&t, S->sc, S->seed, err, len)) {
    seats_free(&t);
    return -1;
  }
  seats_free(&S->seats);
  if (S->ai) player_free(S->ai);
  S->ai = NULL;
  S->seats = t;
  S->human = seats_session_side(&t);
  S->barrier = S->g.n;
  for (int k = 0; k < SEAT_COUNT; k++) /* the level the view shows: a computer seat's */
    if (t.present[k] && !t.human[k]) {
      snprintf(S->level, sizeof S->level, "%s", t.level[k]);
      break;
    }
  return 0;
}

Player *session_seat_ai(const Session *S, const State *s) {
  int k = gs_seat(S->sc, s);
  return k >= 0 && S->seats.ai[k] ? S->seats.ai[k] : S->ai;
}

int session_view_side(const Session *S) {
  if (S->human == FRENCH || S->human == ALLIED) return S->human;
  int k = gs_seat(S->sc, &S->s);
  if (k >= 0 && S->seats.human[k]) return seat_side(k);
  for (k = 0; k < SEAT_COUNT; k++)
    if (S->seats.present[k] && S->seats.human[k]) return seat_side(k);
  return FRENCH;
}

void seats_view_json(const Session *S, cJSON *o, int seat) {
  if (seat >= 0) cJSON_AddStringToObject(o, "seat", seat_name(seat));
  cJSON_AddItemToObject(o, "seats", seats_json(&S->seats));
  int k = gs_seat(S->sc, &S->s);
  if (k >= 0) cJSON_AddStringToObject(o, "deciding_seat", seat_name(k));
  else cJSON_AddNullToObject(o, "deciding_seat");
}
