/* The doors of the front ends, opened by cli/ once it has read the command line (cli/front.c):
 * the terminal game, the engine protocol and the web server.  Each returns the exit status. */
#ifndef WATERLOO_FRONT_H
#define WATERLOO_FRONT_H
#include <stdint.h>
#include <stdio.h>

/* `waterloo play`: a game against the computer at the terminal prompt */
typedef struct {
  int human;                  /* FRENCH or ALLIED */
  const char *level;          /* the computer's level or player spec */
  const char *scenario, *variant;
  uint64_t seed;
  int seed_given;             /* 0: a fresh random seed (printed, to replay the game) */
  const char *load;           /* a saved game to go on with (scenario, variant, seed unused) */
  const char *log;            /* a file the game's text is appended to, or NULL */
  const char *save;           /* a file the game is saved to when it ends or the player leaves */
  const char *seats;          /* who sits where (front/seats.h text form), or NULL */
  int side_given;             /* --side was given: a loaded game's own seats are not restored */
  int level_given;            /* --level was given: else a loaded classic game's level is kept */
  int color;
} PlayOpts;
int play_run(const PlayOpts *o);

/* `waterloo engine`: the text protocol, one command a line from in, answers on stdout */
int engine_run(FILE *in);

/* `waterloo serve`: the board in a web browser until SIGINT or SIGTERM */
typedef struct {
  const char *host;           /* an IPv4 address (checked by the caller) */
  unsigned port;              /* 0: any free port (the one bound is printed) */
  const char *saves;          /* the folder of saved games */
} ServeOpts;
int serve_run(const ServeOpts *o);
#endif
