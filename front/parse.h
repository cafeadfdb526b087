/* Text a person types, beyond the notation engine/text.c parses: destination moves and the
 * nearest legal action to a mistyped one. */
#ifndef WATERLOO_FRONT_PARSE_H
#define WATERLOO_FRONT_PARSE_H
#include <stddef.h>

#include "../engine/engine.h"

/* "move UNIT SQUARE [FACING]" (also "moveto ...") as a destination move of the unit: the
 * path's actions into path[] (at most REACH_PATH); returns how many, or -1 with a message.
 * Without a facing: the cheapest, the unit's own facing on a tie. */
int destination_parse(const Scen *sc, const State *s, const char *text, Action *path, char *err,
                      size_t len);
/* the legal action whose notation is nearest to text (edit distance), for "did you mean" */
int nearest_action(const Scen *sc, const State *s, const char *text, char *out, size_t len);
#endif
