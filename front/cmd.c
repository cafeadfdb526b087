/* The text command tables of the front ends and the reading of their lines (front/cmd.h). */
#include "cmd.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

long cmd_read_line(FILE *f, char **buf, size_t *cap, size_t max) {
  size_t n = 0;
  int c, over = 0, nul = 0, any = 0;
  while ((c = getc(f)) != EOF) {
    any = 1;
    if (c == '\n') break;
    if (c == 0) nul = 1;
    if (over || nul) continue;
    if (n >= max) { over = 1; continue; }
    if (n + 2 > *cap) {
      size_t nc = *cap ? *cap * 2 : 256;
      if (nc > max + 2) nc = max + 2;
      char *nb = realloc(*buf, nc);
      if (!nb) { over = 1; continue; }
      *buf = nb, *cap = nc;
    }
    (*buf)[n++] = (char)c;
  }
  if (!any) return -1;
  if (over) return -2;
  if (nul) return -3;
  if (n && (*buf)[n - 1] == '\r') n--;
  if (!*buf) {
    *buf = malloc(1);
    if (!*buf) return -2;
    *cap = 1;
  }
  (*buf)[n] = 0;
  return (long)n;
}

char *cmd_split(char *line, char **args) {
  char *w = line;
  while (isspace((unsigned char)*w)) w++;
  if (!*w) return NULL;
  char *a = w + strcspn(w, " \t");
  if (*a) *a++ = 0;
  while (isspace((unsigned char)*a)) a++;
  *args = a;
  return w;
}

const CmdDef *cmd_find(const CmdDef *t, const char *word, const char *args) {
  for (; t->name; t++)
    if (!strcmp(t->name, word)) return (t->flags & CMD_ARGS) || !*args ? t : NULL;
  return NULL;
}
