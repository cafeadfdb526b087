/* Reference data a front end shows beside a game: the rules by rule id and the variants. */
#ifndef WATERLOO_REFERENCE_H
#define WATERLOO_REFERENCE_H
#include <cjson/cJSON.h>
#include <stddef.h>

/* {rules: [{id "R-7.2", chapter "R-7 Battles (§9)", text}]} read from the rules reference at
 * path (docs/RULES.md); NULL with a message when it cannot be read */
cJSON *rules_json(const char *path, char *err, size_t len);
/* {variants: [{name, description}]}: the files of the scenario folder's variants/ (not base),
 * by name, with the description of their [variant] section */
cJSON *variants_json(void);
#endif
