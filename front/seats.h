/* Seats (R-1.2, issue 22): the French, British and Prussian players of a game, each a person
 * or a computer player.  The engine says which seat decides (gs_seat); this says who sits
 * there.  A seat's view is its side's observation (the Allied partners see each other's hand:
 * docs/RULINGS.md, R-1.2), so a computer seat searches from exactly what its seat may know.
 *
 * Text form (play --seats, the saves' "seats" field): "french=human,british=normal,prussian=
 * human": each seat `human` or a level / player spec; a seat not named: the computer at the
 * default level; the short game has no Prussian seat (a prussian= there is refused). */
#ifndef WATERLOO_SEATS_H
#define WATERLOO_SEATS_H
#include <cjson/cJSON.h>

#include "../ai/player.h"
#include "../engine/engine.h"

typedef struct {
  int present[SEAT_COUNT];   /* the scenario has the seat (no Prussian in the short game) */
  int human[SEAT_COUNT];     /* a person sits there                                        */
  char level[SEAT_COUNT][64]; /* a computer seat: its level or player spec                 */
  Player *ai[SEAT_COUNT];    /* a computer seat's player (seats_start)                     */
  char token[SEAT_COUNT][33]; /* serve: the secret of a human seat's link ("" none)        */
} Seats;

/* the seats of a classic game: a person on every seat of human_side (FRENCH / ALLIED, or
 * SESSION_NO_HUMAN: nobody), the computer at level on the others */
void seats_classic(Seats *t, const Scen *sc, int human_side, const char *level);
/* the text form over the classic seats of (no human, default_level); 0, or -1 with one line
 * naming what is wrong.  At least one seat must be a person when need_human. */
int seats_parse_text(Seats *t, const Scen *sc, const char *text, const char *default_level,
                     int need_human, char *err, size_t len);
/* the text form of t (for saves and messages) */
void seats_text(const Seats *t, char *out, size_t len);
/* the players of the computer seats (seed derived per seat); 0 or -1 with err */
int seats_start(Seats *t, const Scen *sc, uint64_t seed, char *err, size_t len);
void seats_free(Seats *t);
/* bit per side (1 << FRENCH, 1 << ALLIED) with a person on one of its seats */
int seats_human_sides(const Seats *t);
/* the session's human side as before seats: the one side with people, SESSION_BOTH_SIDES when
 * people sit on both, SESSION_NO_HUMAN when nobody */
int seats_session_side(const Seats *t);
#define SESSION_BOTH_SIDES 2
/* fresh unguessable tokens for every human seat (getrandom), "" for the others */
void seats_new_tokens(Seats *t);
/* the human seat whose token is tok, -1 when none (compared in constant time) */
int seats_by_token(const Seats *t, const char *tok);
/* {"french": "human" | level, ...} for the present seats */
cJSON *seats_json(const Seats *t);
#endif
