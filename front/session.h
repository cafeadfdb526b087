/* One game and what its front ends share: scenario, position, game record, undo barrier, the
 * log of what happened as the human may see it, the computer player.  `play` (terminal) and
 * `serve` (browser) hold a session with a human side against the computer; the `engine`
 * protocol holds one without a human side (SESSION_NO_HUMAN: its caller applies every action,
 * undo takes back exactly one, no computer plays by itself).  Its JSON forms (the protocol of
 * docs/API.md) are in front/json.h, the parsing of typed text in front/parse.h. */
#ifndef WATERLOO_SESSION_H
#define WATERLOO_SESSION_H
#include "../ai/player.h"
#include "../engine/engine.h"
#include "seats.h"

typedef struct {
  int index;              /* 0-based action index in the game record                  */
  int turn, phase, side;  /* before the action                                         */
  int by_human;
  int cont;               /* a later step of one destination move (undone with its first) */
  char text[128];         /* the action, or "(a secret choice)" when the human may not see it */
  char act[1536];         /* the same action as action_json text ("" when secret)      */
  char events[1024];       /* what it caused (gs_event_text) and the cards it revealed  */
  char why[512];          /* the computer's reason (ai/review.h, said to the human: nothing
                             it may not see), "" for the human's actions and secret choices */
} LogEntry;

/* the last battle resolved (public once revealed) */
typedef struct {
  int valid;
  int index;              /* log index of the reveal                                  */
  int att_side, kind, def_unit, def_sq;
  int att[4];             /* attacking units or -1                                   */
  int base_att, base_def; /* totals before cards                                       */
  int att_val[4], att_bp[4], def_bp; /* each attacker's share of base_att, printed BPs     */
  char att_why[4][64], def_why[64]; /* the modifiers behind each value ("x2 flank, -1 ridge") */
  uint64_t cards_att, cards_def, cmd, elite; /* revealed cards and their purposes       */
  int total_att, total_def;
  char outcome[96];
} BattleRec;

typedef struct Session {
  Scen *sc;
  State s;
  GameRec g;
  int human;              /* FRENCH / ALLIED, or SESSION_NO_HUMAN */
  int barrier;            /* undo never goes below this many actions */
  int loaded;             /* actions read from a save (undo never takes them back)          */
  char level[32];
  uint64_t seed;
  Player *ai;             /* the computer's player; NULL without a human side */
  LogEntry *log;
  int nlog, caplog;
  int bat_base_att, bat_base_def; /* base totals at the declaration of the battle in progress */
  BattleRec battle;       /* the last battle revealed */
  int in_move;            /* >0 while session_move_to plays a path: steps after the first */
  /* who sits where (front/seats.h): people and computer players per seat.  human above is the
   * side with people, SESSION_BOTH_SIDES when people sit on both (then the log is the public
   * view and undo is off: one side could take back after learning the other's move) */
  Seats seats;
} Session;

#define SESSION_NO_HUMAN (-1) /* no human side: the caller decides for both, undo is one action */

/* a seed for a fresh game nobody gave one for: random (the kernel's), under 10^9 so a person
 * can type it back to replay the game */
uint64_t session_fresh_seed(void);
/* a new game of (scenario, variants, seed); level is the computer's (unused without a human) */
int session_new(Session *S, const char *scenario, const char *variants, uint64_t seed, int human,
                const char *level, char *err, size_t len);
/* a saved game (engine/save.c format); the human side and level are the caller's.  With a human
 * side, undo never goes back into the loaded actions; without, it may take them all back. */
int session_load(Session *S, const char *path, int human, const char *level, char *err, size_t len);
/* the seats of the save at path, read without playing it: 1 with the side people play and the
 * computer's level when they are a classic game's (people on the seats of one side only, one
 * level on every seat of the other), 0 when not (or the save has no seats), -1 when it does not
 * load */
int session_saved_classic(const char *path, int *human, char *level, size_t len);
/* the same, stopped after the first upto actions (upto < 0: all): a replay's step */
int session_load_upto(Session *S, const char *path, int human, const char *level, long upto,
                      char *err, size_t len);
/* a game that starts from a position text (engine/position.c: SCENARIO VARIANTS KEY=VALUE ...),
 * seed 1; undo goes back to that position at most */
int session_from_position(Session *S, const char *text, int human, const char *level, char *err,
                          size_t len);
int session_save(const Session *S, const char *path, char *err, size_t len);
void session_free(Session *S);
/* apply a legal action, log it, move the undo barrier past reveals and chance */
void session_apply(Session *S, Action a, int by_human);
/* back to the human's previous decision within the barrier (without a human side: back one
 * action); the number of actions left, or -1 if there is nothing to undo */
int session_undo(Session *S);
/* why session_undo refused: no decision of the human yet, or a reveal, chance or the computer since */
const char *session_no_undo_why(const Session *S);
/* the side to decide plays its k-th legal action (0-based, as gs_legal lists them); -1 when
 * there is no such action */
int session_play_index(Session *S, long k, int by_human);
/* the side to decide plays `text`: an action in notation, or in a movement phase a destination
 * move "move UNIT SQUARE [N|E|S|W]" (its steps until the move ends or another decision
 * interrupts it).  Returns how many actions were played, or -1: err says why the notation was
 * refused, derr why the destination move was ("" when text is not one). */
int session_play_text(Session *S, const char *text, int by_human, char *err, size_t len, char *derr,
                      size_t dlen);
/* what the log entries from `first` on caused, joined by "; " (their events); its length */
size_t session_events(const Session *S, int first, char *buf, size_t len);
/* the board and the one-line description of the position (no newline after it) */
void session_board(const Session *S, FILE *f, int color);
/* a player of `level` (a level name or a player spec) on the session's scenario */
Player *session_player(const Session *S, const char *level, uint64_t seed, char *err, size_t len);
/* the level of a hint: the session's, or normal when the computer plays easy, random or heuristic */
const char *session_hint_level(const Session *S);
/* the computer's action in s (the only legal one without thinking) */
Action session_computer_choice(const Session *S, const State *s);
/* the same, with its reason in why (reason_choice: what the action does, the search's win
 * rate, visit share and margin; "" for a secret choice or a forced one).  The root statistics
 * are read after the choice from the same search (the player keeps its last search for the same
 * observation), so the reason costs no second search. */
Action session_computer_think(const Session *S, const State *s, char *why, size_t len);
/* the reason of the last log entry (the computer's action just applied) */
void session_note_why(Session *S, const char *why);
/* the human moves unit u to square sq facing f (a destination move): the path's actions are
 * played until the move ends or another decision interrupts it.  0 ok, -1 (message in err). */
int session_move_to(Session *S, int u, int sq, int f, char *err, size_t len);
/* a person decides now (the seat gs_seat names is human)? */
static inline int session_humans_turn(const Session *S) {
  if (S->human == SESSION_NO_HUMAN || gs_over(&S->s)) return 0;
  int k = gs_seat(S->sc, &S->s);
  return k >= 0 && S->seats.human[k];
}
/* the seats from their text form (front/seats.h) over the game's: computer seats get players of
 * their level, people sit on the others; undo stays after this point.  0 or -1 with err. */
int session_set_seats(Session *S, const char *text, char *err, size_t len);
/* the player of the computer seat deciding in s */
Player *session_seat_ai(const Session *S, const State *s);
/* the side whose view session_view shows (front/session_seats.c) */
int session_view_side(const Session *S);

/* what action a caused, in plain sentences, as `viewer` may know it: bids and battle cards
 * revealed with the totals before cards, Napoleon's-health discards (their cards only to the
 * French), then gs_event_text, a new turn, the result.  Returns 0 when there is nothing. */
int action_events(const Scen *sc, const State *before, Action a, const State *after, int viewer,
                  char *buf, size_t len);
/* why the game s ended, one clause from the victory rule: the castles and Mont St. Jean
 * the French hold in the short game, the VP of squares and of units eliminated in the long one,
 * then the condition's name as `replay` prints it ("... (allied-hold)"); "" while not over.
 * Returns the length written. */
int game_end_reason(const Scen *sc, const State *s, char *buf, size_t len);

#endif
