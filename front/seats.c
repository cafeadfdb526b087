/* Seats: who sits at the French, British and Prussian seats of a game (see seats.h). */
#include "seats.h"

#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "../engine/engine.h"

void seats_classic(Seats *t, const Scen *sc, int human_side, const char *level) {
  memset(t, 0, sizeof *t);
  for (int k = 0; k < SEAT_COUNT; k++) {
    t->present[k] = scen_has_seat(sc, k);
    t->human[k] = t->present[k] && (human_side == FRENCH || human_side == ALLIED) &&
                  seat_side(k) == human_side;
    snprintf(t->level[k], sizeof t->level[k], "%s", level && *level ? level : "normal");
  }
}

/* one "SEAT=WHO" of the text form into t */
static int seats_one(Seats *t, const char *item, char *err, size_t len) {
  const char *eq = strchr(item, '=');
  char name[16];
  if (!eq || eq - item >= (long)sizeof name) {
    snprintf(err, len, "seats: '%.40s' is not SEAT=human or SEAT=LEVEL", item);
    return -1;
  }
  memcpy(name, item, (size_t)(eq - item));
  name[eq - item] = 0;
  int k = seat_parse(name);
  const char *who = eq + 1;
  if (k < 0) {
    snprintf(err, len, "seats: no seat '%.20s' (french, british, prussian)", name);
    return -1;
  }
  if (!t->present[k]) {
    snprintf(err, len, "seats: the short game has no %s seat (the British plays all the Allies)",
             seat_name(k));
    return -1;
  }
  char perr[240];
  if (!strcmp(who, "human")) {
    t->human[k] = 1;
    return 0;
  }
  if (!*who || strlen(who) >= sizeof t->level[k] || player_level_check(who, perr, sizeof perr)) {
    snprintf(err, len, "seats: %s=%.40s: %s", seat_name(k), who,
             *who ? perr : "human, or a level (easy, normal, hard, expert, heuristic, random)");
    return -1;
  }
  t->human[k] = 0;
  snprintf(t->level[k], sizeof t->level[k], "%s", who);
  return 0;
}

int seats_parse_text(Seats *t, const Scen *sc, const char *text, const char *default_level,
                     int need_human, char *err, size_t len) {
  seats_classic(t, sc, -1, default_level);
  char buf[512];
  if (strlen(text) >= sizeof buf) {
    snprintf(err, len, "seats: too long");
    return -1;
  }
  snprintf(buf, sizeof buf, "%s", text);
  int seen = 0;
  char *save = NULL;
  for (char *it = strtok_r(buf, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
    char name[16];
    size_t nl = strcspn(it, "=");
    snprintf(name, sizeof name, "%.*s", (int)(nl < 15 ? nl : 15), it);
    int s = seat_parse(name);
    if (s >= 0 && (seen & (1 << s))) {
      snprintf(err, len, "seats: the %s seat is named twice", name);
      return -1;
    }
    if (seats_one(t, it, err, len)) return -1;
    seen |= 1 << s;
  }
  if (need_human && !seats_human_sides(t)) {
    snprintf(err, len, "seats: nobody is human (give SEAT=human for yours)");
    return -1;
  }
  return 0;
}

void seats_text(const Seats *t, char *out, size_t len) {
  size_t n = 0;
  out[0] = 0;
  for (int k = 0; k < SEAT_COUNT && n < len; k++)
    if (t->present[k])
      n += (size_t)snprintf(out + n, len - n, "%s%s=%s", n ? "," : "", seat_name(k),
                            t->human[k] ? "human" : t->level[k]);
}

int seats_start(Seats *t, const Scen *sc, uint64_t seed, char *err, size_t len) {
  for (int k = 0; k < SEAT_COUNT; k++) {
    if (!t->present[k] || t->human[k] || t->ai[k]) continue;
    char spec[96];
    player_level_spec(t->level[k], spec, sizeof spec);
    t->ai[k] = player_new(sc, spec, seed * 7919u + 1 + (uint64_t)k * 0x9e3779b9u, err, len);
    if (!t->ai[k]) return -1;
    player_set_interactive(t->ai[k]); /* a person waits: the level's time cap */
  }
  return 0;
}

void seats_free(Seats *t) {
  for (int k = 0; k < SEAT_COUNT; k++) {
    player_free(t->ai[k]);
    t->ai[k] = NULL;
  }
}

int seats_human_sides(const Seats *t) {
  int m = 0;
  for (int k = 0; k < SEAT_COUNT; k++)
    if (t->present[k] && t->human[k]) m |= 1 << seat_side(k);
  return m;
}

int seats_session_side(const Seats *t) {
  int m = seats_human_sides(t);
  return m == 3 ? SESSION_BOTH_SIDES : m == 1 ? FRENCH : m == 2 ? ALLIED : -1;
}

void seats_new_tokens(Seats *t) {
  for (int k = 0; k < SEAT_COUNT; k++) {
    t->token[k][0] = 0;
    if (!t->present[k] || !t->human[k]) continue;
    unsigned char r[16];
    if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
      struct timespec ts;
      clock_gettime(CLOCK_REALTIME, &ts);   /* never used in practice: getrandom does not fail */
      for (size_t i = 0; i < sizeof r; i++) r[i] = (unsigned char)(ts.tv_nsec >> (i % 4 * 8)) ^ (unsigned char)(i * 77 + k);
    }
    for (size_t i = 0; i < sizeof r; i++) snprintf(t->token[k] + 2 * i, 3, "%02x", r[i]);
  }
}

int seats_by_token(const Seats *t, const char *tok) {
  if (!tok || strlen(tok) != 32) return -1;
  int found = -1;
  for (int k = 0; k < SEAT_COUNT; k++) {
    if (!t->token[k][0]) continue;
    unsigned diff = 0;
    for (int i = 0; i < 32; i++) diff |= (unsigned)(t->token[k][i] ^ tok[i]);
    if (!diff) found = k;
  }
  return found;
}

cJSON *seats_json(const Seats *t) {
  cJSON *o = cJSON_CreateObject();
  for (int k = 0; k < SEAT_COUNT; k++)
    if (t->present[k]) cJSON_AddStringToObject(o, seat_name(k), t->human[k] ? "human" : t->level[k]);
  return o;
}
