/* The text command tables of the front ends (the engine protocol, play's prompt) and the
 * reading of their lines. */
#ifndef WATERLOO_FRONT_CMD_H
#define WATERLOO_FRONT_CMD_H
#include <stddef.h>
#include <stdio.h>

#define CMD_MAX_LINE 65536        /* longest protocol / command line */
/* one protocol or command line of any length from f into *buf (grown as needed, without the
 * end of line).  Returns the length, -1 at the end of input, -2 for a line longer than max
 * (read to its end and dropped whole), -3 for a line with a NUL byte (dropped whole). */
long cmd_read_line(FILE *f, char **buf, size_t *cap, size_t max);

/* A text command table: one row per command word, ended by a row whose name is NULL.  run gets
 * the front end's context and the arguments; it returns 1 to end the session.  A row without
 * CMD_ARGS matches only its word alone on the line. */
enum { CMD_GAME = 1 /* needs a game */, CMD_ARGS = 2 /* takes arguments */ };
typedef struct {
  const char *name;
  int flags;
  int (*run)(void *ctx, char *args);
} CmdDef;
/* cuts a command line in place: returns its first word (split at a space or tab; NULL for a
 * blank line) and in *args the rest, leading white space skipped */
char *cmd_split(char *line, char **args);
/* the row of t for word and args, or NULL */
const CmdDef *cmd_find(const CmdDef *t, const char *word, const char *args);
#endif
