/* ./waterloo serve: the board in a web browser.  libmicrohttpd does the HTTP; this file is the
 * JSON API of docs/API.md and the static files of web/.  Several games at once, one per game
 * id, each with its own computer thread, so a request never waits for the computer to think.
 * Nothing the client sends names a file: saves are NAME.json in the saves folder, NAME checked
 * against [A-Za-z0-9_-]{1,40}; static files are looked up in a fixed list of web/ files. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../engine/num.h"
#include "front.h"
#include "reference.h"
#include "json.h"
#include "replay.h"
#include "session.h"
#include "../ai/review.h"
#include "../engine/util.h"

#define MAX_GAMES 32
#define MAX_BODY 16384

typedef struct Game {
  char id[24];
  int refs, gone, quit, thinking, deleted;
  int kept; /* the last autosave wrote SAVES/auto/ID.* (0: the game is not kept) */
  double last_used;
  double think_start, think_longest; /* wall seconds: this decision's start, the longest yet */
  double think_cap;       /* the level's cap per decision for a waiting person (s; 0 none)   */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  pthread_t thr;
  Session S;
} Game;

/* The games in play, each on the heap: a game leaves the table under the table's lock, and its
 * computer thread frees it when it stops thinking (game_retire), so no request ever waits for
 * another game's computer. */
static Game *games[MAX_GAMES];
static int ai_live;                 /* computer threads not yet finished (table lock) */
/* Games out of the table (evicted, deleted) whose computer is still finishing the decision it
 * was thinking over (a search cannot be cut short): at most RETIRING_MAX before a new game is
 * refused (503), so making and deleting games in a loop cannot pile up searches without bound */
#define RETIRING_MAX 4
static int ai_retiring; /* (table lock) */
static pthread_mutex_t table_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ai_done = PTHREAD_COND_INITIALIZER;
static char web_dir[4200], saves_dir[4200], docs_dir[4200];
static volatile sig_atomic_t stop_flag;

static void autosave(Game *G);

/* ---------------------------------------------------------------- the computer's thread */
static void *ai_thread(void *arg) {
  Game *G = arg;
  Session *S = &G->S;
  pthread_mutex_lock(&G->mu);
  for (;;) {
    while (!G->quit && (gs_over(&S->s) || session_humans_turn(S))) pthread_cond_wait(&G->cv, &G->mu);
    if (G->quit) break;
    State s = S->s;
    int at = S->g.n;
    __atomic_store_n(&G->thinking, 1, __ATOMIC_RELAXED); /* read by game_add without G->mu */
    G->think_start = clock_wall();
    pthread_mutex_unlock(&G->mu);
    char why[512];
    Action a = session_computer_think(S, &s, why, sizeof why);
    pthread_mutex_lock(&G->mu);
    __atomic_store_n(&G->thinking, 0, __ATOMIC_RELAXED);
    double took = clock_wall() - G->think_start;
    if (took > G->think_longest) G->think_longest = took;
    if (!G->quit && S->g.n == at && !memcmp(&s, &S->s, sizeof s)) {
      session_apply(S, a, 0);
      session_note_why(S, why);
      autosave(G);
    }
    pthread_cond_broadcast(&G->cv);
  }
  pthread_mutex_unlock(&G->mu);
  session_free(&G->S);   /* retired: out of the table, nobody reads it */
  pthread_mutex_destroy(&G->mu);
  pthread_cond_destroy(&G->cv);
  free(G);
  pthread_mutex_lock(&table_mu);
  ai_live--, ai_retiring--; /* every computer thread stops retired */
  pthread_cond_broadcast(&ai_done);
  pthread_mutex_unlock(&table_mu);
  return NULL;
}

/* a game out of the table with no reader: its computer thread stops (after the decision it
 * may be thinking over, never applied) and frees it (table lock held) */
static void game_retire(Game *G) {
  ai_retiring++;
  pthread_mutex_lock(&G->mu);
  G->quit = 1;
  pthread_cond_broadcast(&G->cv);
  pthread_mutex_unlock(&G->mu);
}

/* a new game slot for a session already made, under `id` (a resumed game) or a fresh one;
 * NULL when every slot is busy, or while RETIRING_MAX closed games' computers are still
 * thinking (*busy set) */
static Game *game_add(Session *S, const char *id, int *busy) {
  pthread_mutex_lock(&table_mu);
  int at = -1;
  for (int i = 0; i < MAX_GAMES && id; i++)
    if (games[i] && !games[i]->gone && !strcmp(games[i]->id, id)) {   /* resumed twice */
      games[i]->refs++;
      pthread_mutex_unlock(&table_mu);
      session_free(S);
      return games[i];
    }
  *busy = ai_retiring >= RETIRING_MAX;
  for (int i = 0; i < MAX_GAMES && at < 0 && !*busy; i++)
    if (!games[i]) at = i;
  /* else the least recently used game nobody is reading, one whose computer is idle first */
  for (int pass = 0; pass < 2 && at < 0 && !*busy; pass++)
    for (int i = 0; i < MAX_GAMES; i++)
      if (games[i]->refs == 0 &&
          (pass || !__atomic_load_n(&games[i]->thinking, __ATOMIC_RELAXED)) &&
          (at < 0 || games[i]->last_used < games[at]->last_used))
        at = i;
  if (at >= 0 && games[at]) game_retire(games[at]), games[at] = NULL;
  Game *slot = at >= 0 ? calloc(1, sizeof *slot) : NULL;
  if (!slot) {
    pthread_mutex_unlock(&table_mu);
    return NULL;
  }
  uint64_t r[2] = {0, 0};
  if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) r[0] = (uint64_t)time(NULL) ^ (uint64_t)(uintptr_t)slot;
  snprintf(slot->id, sizeof slot->id, "%016" PRIx64, r[0] ^ (r[1] << 1));
  if (id) snprintf(slot->id, sizeof slot->id, "%s", id);
  slot->refs = 1;
  slot->last_used = clock_wall();
  slot->S = *S;
  pthread_mutex_init(&slot->mu, NULL);
  pthread_cond_init(&slot->cv, NULL);
  if (pthread_create(&slot->thr, NULL, ai_thread, slot)) {
    pthread_mutex_unlock(&table_mu);
    pthread_mutex_destroy(&slot->mu);
    pthread_cond_destroy(&slot->cv);
    free(slot);
    return NULL;
  }
  pthread_detach(slot->thr);
  ai_live++;
  games[at] = slot;
  pthread_mutex_unlock(&table_mu);
  return slot;
}

static Game *game_get(const char *id) {
  pthread_mutex_lock(&table_mu);
  Game *g = NULL;
  for (int i = 0; i < MAX_GAMES; i++)
    if (games[i] && !games[i]->gone && !strcmp(games[i]->id, id)) {
      g = games[i];
      g->refs++;
      g->last_used = clock_wall();
      break;
    }
  pthread_mutex_unlock(&table_mu);
  return g;
}

static void game_put(Game *g) {
  pthread_mutex_lock(&table_mu);
  if (--g->refs == 0 && g->gone) {
    for (int i = 0; i < MAX_GAMES; i++)
      if (games[i] == g) games[i] = NULL;
    game_retire(g);
  }
  pthread_mutex_unlock(&table_mu);
}

/* ---------------------------------------------------------------- responses */
#define MAX_DISCARD (1 << 20) /* a body over MAX_BODY is read to its end up to this, then cut */
typedef struct {
  char *body;
  size_t len, seen;
  int too_big;
} Req;

/* an answer of text (freed by libmicrohttpd); allow: the Allow header of a 405, or NULL */
static enum MHD_Result send_with(struct MHD_Connection *c, unsigned code, const char *type,
                                 char *text, size_t len, const char *allow) {
  struct MHD_Response *r = MHD_create_response_from_buffer(len, text, MHD_RESPMEM_MUST_FREE);
  MHD_add_response_header(r, "Content-Type", type);
  MHD_add_response_header(r, "Cache-Control", "no-store");
  MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
  if (allow) MHD_add_response_header(r, "Allow", allow);
  enum MHD_Result ret = MHD_queue_response(c, code, r);
  MHD_destroy_response(r);
  return ret;
}

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned code, const char *type,
                                 char *text, size_t len) {
  return send_with(c, code, type, text, len, NULL);
}

static char *json_text(cJSON *o) { /* o deleted */
  char *t = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  return t ? t : strdup("{\"error\":\"out of memory\"}");
}

static enum MHD_Result send_json(struct MHD_Connection *c, unsigned code, cJSON *o) {
  char *t = json_text(o);
  return send_text(c, code, "application/json", t, strlen(t));
}

/* the bytes of the UTF-8 character at p (1 to 4), 0 when p does not start a valid one (a stray
 * continuation byte, an overlong form, a surrogate, beyond U+10FFFF, a cut sequence) */
static size_t utf8_char(const unsigned char *p) {
  if (p[0] < 0x80) return 1;
  size_t n = 0;
  unsigned lo = 0x80, hi = 0xbf; /* the second byte's range */
  if (p[0] >= 0xc2 && p[0] <= 0xdf) n = 2;
  else if (p[0] >= 0xe0 && p[0] <= 0xef)
    n = 3, lo = p[0] == 0xe0 ? 0xa0 : lo, hi = p[0] == 0xed ? 0x9f : hi;
  else if (p[0] >= 0xf0 && p[0] <= 0xf4)
    n = 4, lo = p[0] == 0xf0 ? 0x90 : lo, hi = p[0] == 0xf4 ? 0x8f : hi;
  if (!n || p[1] < lo || p[1] > hi) return 0;
  for (size_t i = 2; i < n; i++)
    if (p[i] < 0x80 || p[i] > 0xbf) return 0;
  return n;
}

/* text as one printable line of valid UTF-8 in out (len > 4): a control byte becomes a space, a
 * byte that is not part of a valid character '?', and a text too long is cut at a character
 * boundary with "..." (an answer's JSON must stay readable whatever a client sent) */
static void one_line(const char *text, char *out, size_t len) {
  const unsigned char *p = (const unsigned char *)text;
  size_t o = 0;
  while (*p) {
    size_t n = utf8_char(p);
    if (o + (n ? n : 1) + 4 > len) {
      memcpy(out + o, "...", 4);
      return;
    }
    if (n == 1 && (*p < 0x20 || *p == 0x7f)) out[o++] = ' ';
    else if (n) memcpy(out + o, p, n), o += n;
    else out[o++] = '?';
    p += n ? n : 1;
  }
  out[o] = 0;
}

/* the request being answered on this connection's thread (libmicrohttpd runs a thread per
 * connection), named in every error answer */
static __thread const char *req_method, *req_url;

/* {"error": msg, "request": "METHOD /path"}, each one line */
static cJSON *err_object(const char *msg) {
  cJSON *o = cJSON_CreateObject();
  char one[300];
  one_line(msg, one, sizeof one);
  cJSON_AddStringToObject(o, "error", one);
  if (req_method && req_url) {
    char both[200];
    snprintf(both, sizeof both, "%.20s %.170s", req_method, req_url);
    one_line(both, one, 160);
    cJSON_AddStringToObject(o, "request", one);
  }
  return o;
}

static enum MHD_Result send_err(struct MHD_Connection *c, unsigned code, const char *msg) {
  return send_json(c, code, err_object(msg));
}

/* 405 for a path that is answered, naming the methods it takes (and in Allow: "GET, HEAD") */
static enum MHD_Result send_405(struct MHD_Connection *c, const char *allow) {
  char msg[120];
  snprintf(msg, sizeof msg, "method not allowed here: use %s", allow);
  char *t = json_text(err_object(msg));
  return send_with(c, 405, "application/json", t, strlen(t), allow);
}

/* ---------------------------------------------------------------- static files */
static const struct { const char *name, *type; } FILES[] = {
    {"index.html", "text/html; charset=utf-8"},
    {"style.css", "text/css; charset=utf-8"},
    {"seats.css", "text/css; charset=utf-8"},
    {"favicon.svg", "image/svg+xml"},
};

/* The page's scripts, one file a concern: NAME.js with NAME of [a-z0-9-]{1,40}, so a new script
 * needs no change here and no request names any other file. */
static int script_name(const char *name) {
  size_t n = strlen(name);
  if (n < 4 || n > 43 || strcmp(name + n - 3, ".js")) return 0;
  for (size_t i = 0; i < n - 3; i++)
    if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9') || name[i] == '-'))
      return 0;
  return 1;
}

static enum MHD_Result send_file(struct MHD_Connection *c, const char *name, const char *type) {
  char path[4400];
  snprintf(path, sizeof path, "%s/%s", web_dir, name);
  FILE *f = fopen(path, "rb");
  if (!f) return send_err(c, 404, "file missing from the web folder");
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc(n > 0 ? (size_t)n : 1);
  size_t got = n > 0 ? fread(buf, 1, (size_t)n, f) : 0;
  fclose(f);
  return send_text(c, 200, type, buf, got);
}

static enum MHD_Result serve_file(struct MHD_Connection *c, const char *url) {
  const char *name = url[1] ? url + 1 : "index.html";
  for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++)
    if (!strcmp(name, FILES[i].name)) return send_file(c, FILES[i].name, FILES[i].type);
  if (script_name(name)) return send_file(c, name, "text/javascript; charset=utf-8");
  return send_err(c, 404, "no such page");
}

/* ---------------------------------------------------------------- API helpers */
static const char *jstr(const cJSON *o, const char *k, const char *def) {
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsString(x) ? x->valuestring : def;
}

static int name_ok(const char *n) {
  size_t k = strlen(n);
  if (k < 1 || k > 40) return 0;
  for (const char *p = n; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
      return 0;
  return 1;
}

static int word_ok(const char *n, size_t max) {   /* scenario, level, variants */
  size_t k = strlen(n);
  if (k < 1 || k > max) return 0;
  for (const char *p = n; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == ','))
      return 0;
  return 1;
}

static int side_of(const char *s) {
  if (!strcmp(s, "french")) return FRENCH;
  if (!strcmp(s, "allied")) return ALLIED;
  return -1;
}

/* The levels a client may ask for: the search's levels, read from the player registry
 * (player_kind_levels), and the quick rule-based players; no options (no budget of its own). */
static const char *const QUICK_PLAYERS[] = {"heuristic", "random"};

static int level_ok(const char *l) {
  for (size_t i = 0; i < sizeof QUICK_PLAYERS / sizeof QUICK_PLAYERS[0]; i++)
    if (!strcmp(l, QUICK_PLAYERS[i])) return 1;
  const char *p = player_kind_levels("mcts");
  size_t n = strlen(l);
  for (; n && p && *p; p += strspn(p, " ")) {
    size_t k = strcspn(p, " ");
    if (k == n && !strncmp(p, l, n)) return 1;
    p += k;
  }
  return 0;
}

/* the 400 answer naming every level level_ok takes ("level: easy, normal, ... or random") */
static enum MHD_Result send_level_err(struct MHD_Connection *c) {
  char msg[300] = "level: ", lv[200], *save = NULL;
  snprintf(lv, sizeof lv, "%s", player_kind_levels("mcts") ? player_kind_levels("mcts") : "");
  for (char *w = strtok_r(lv, " ", &save); w; w = strtok_r(NULL, " ", &save))
    snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "%s, ", w);
  snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "%s or %s", QUICK_PLAYERS[0], QUICK_PLAYERS[1]);
  return send_err(c, 400, msg);
}

/* the view of a seat (-1: the game's own view) */
static cJSON *game_view(Game *G, int since, int seat) {   /* game lock held */
  cJSON *v = session_view_seat(&G->S, since, seat);
  cJSON_AddStringToObject(v, "id", G->id);
  int thinking = !gs_over(&G->S.s) && !session_humans_turn(&G->S);
  cJSON_AddBoolToObject(v, "thinking", thinking);
  cJSON_AddBoolToObject(v, "kept", G->kept);
  cJSON *t = cJSON_AddObjectToObject(v, "think");
  cJSON_AddNumberToObject(t, "seconds", thinking && G->thinking ? clock_wall() - G->think_start : 0);
  cJSON_AddNumberToObject(t, "longest", G->think_longest);
  cJSON_AddNumberToObject(t, "cap", G->think_cap);
  return v;
}

/* ---------------------------------------------------------------- seats and their tokens */
/* A game made with seats gives every human seat a secret token (its link: /#ID/TOKEN).  A
 * request speaks for a seat with the X-Seat-Token header (or token=): it is answered with that
 * seat's view only, and may act only when that seat decides.  Without a token a request is
 * served as the game's own view when people sit on one side only (the game's id is then the
 * capability, as before seats); a game with people on both sides needs a token. */
#define SEAT_REFUSED (-2)
static int request_seat(struct MHD_Connection *c, const Session *S) {
  const char *t = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Seat-Token");
  if (!t) t = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token");
  if (!t || !*t) return S->human == SESSION_BOTH_SIDES ? SEAT_REFUSED : -1;
  int k = seats_by_token(&S->seats, t);
  return k >= 0 ? k : SEAT_REFUSED;
}

/* 0 when the request's seat may decide now, else the refusal sent */
static int seat_decides(struct MHD_Connection *c, const Session *S, int seat, enum MHD_Result *ret) {
  int k = gs_seat(S->sc, &S->s);
  if (seat < 0 || k == seat) return 0;
  char msg[120];
  snprintf(msg, sizeof msg, "not your seat's decision: the %s seat decides now", k >= 0 ? seat_name(k) : "no");
  *ret = send_err(c, 403, msg);
  return -1;
}

/* a whole number in [lo, hi] (a JSON number, never cast before the check) */
static int json_whole(const cJSON *x, double lo, double hi, long *out) {
  if (!cJSON_IsNumber(x)) return -1;
  double v = x->valuedouble;
  if (!(v >= lo && v <= hi) || v != (double)(long)v) return -1;
  *out = (long)v;
  return 0;
}

static void tokens_json(cJSON *o, const Seats *t) {
  cJSON *x = cJSON_AddObjectToObject(o, "tokens");
  for (int k = 0; k < SEAT_COUNT; k++)
    if (t->token[k][0]) cJSON_AddStringToObject(x, seat_name(k), t->token[k]);
}

/* the first seat with a token, -1 when none */
static int first_token_seat(const Seats *t) {
  for (int k = 0; k < SEAT_COUNT; k++)
    if (t->token[k][0]) return k;
  return -1;
}

/* "seats": {"french": "human" | LEVEL, ...} into the text form; 0, or -1 with msg */
static int seats_body(const cJSON *o, char *text, size_t len, char *msg, size_t mlen) {
  size_t n = 0;
  text[0] = 0;
  if (!cJSON_IsObject(o)) return snprintf(msg, mlen, "seats: an object {french, british, prussian}"), -1;
  for (const cJSON *x = o->child; x; x = x->next) {
    const char *who = cJSON_IsString(x) ? x->valuestring : "";
    if (seat_parse(x->string ? x->string : "") < 0 || (strcmp(who, "human") && !level_ok(who)))
      return snprintf(msg, mlen, "seats: each of french, british, prussian is human or a level"), -1;
    n += (size_t)snprintf(text + n, n < len ? len - n : 0, "%s%s=%s", n ? "," : "", x->string, who);
  }
  return n < len ? 0 : (snprintf(msg, mlen, "seats: too long"), -1);
}

/* ---------------------------------------------------------------- autosave and resume */
/* Every game is kept in SAVES/auto/ID.json (the record, engine/save.c) with ID.info (side,
 * level, scenario, turn, result, time) after each change, so a restarted server resumes it. */
static int game_id_ok(const char *id) {
  return strlen(id) == 16 && strspn(id, "0123456789abcdef") == 16;
}

/* SAVES/auto/ID.EXT in out; 0 when SAVES/auto is a folder of the saves folder itself, -1 when
 * it is missing or a link to elsewhere (nothing is read, written or removed through a link) */
static int auto_path(char *out, size_t len, const char *id, const char *ext) {
  struct stat st;
  snprintf(out, len, "%s/auto", saves_dir);
  int ok = lstat(out, &st) == 0 && S_ISDIR(st.st_mode);
  snprintf(out, len, "%s/auto/%s.%s", saves_dir, id, ext);
  return ok ? 0 : -1;
}

static void autosave(Game *G) {   /* game lock held */
  Session *S = &G->S;
  char path[4400], err[300];
  if (G->deleted) return;
  snprintf(path, sizeof path, "%s/auto", saves_dir);
  mkdir(saves_dir, 0755);
  mkdir(path, 0755);
  G->kept = 0; /* until both files are written; else the game goes on unsaved, and says so */
  if (auto_path(path, sizeof path, G->id, "json") || session_save(S, path, err, sizeof err)) return;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "id", G->id);
  cJSON_AddStringToObject(o, "side", S->human == FRENCH ? "french" : "allied");
  cJSON_AddStringToObject(o, "level", S->level);
  if (first_token_seat(&S->seats) >= 0) {   /* the seats and their links survive a restart */
    char st[160];
    seats_text(&S->seats, st, sizeof st);
    cJSON_AddStringToObject(o, "seats", st);
    tokens_json(o, &S->seats);
  }
  cJSON_AddStringToObject(o, "scenario", S->sc->scen_name);
  cJSON_AddStringToObject(o, "variants", S->sc->variant_names);
  cJSON_AddNumberToObject(o, "turn", S->s.turn.number);
  cJSON_AddNumberToObject(o, "actions", S->g.n);
  cJSON_AddStringToObject(o, "result", gs_over(&S->s) ? result_name(S->s.score.result) : "running");
  cJSON_AddNumberToObject(o, "saved", (double)time(NULL));
  char *t = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  auto_path(path, sizeof path, G->id, "info");
  G->kept = t && !file_write_atomic(path, t, strlen(t), err, sizeof err);
  free(t);
}

static cJSON *auto_info(const char *id) {
  char path[4400], err[300];
  size_t n;
  char *t = auto_path(path, sizeof path, id, "info")
                ? NULL
                : file_read_capped(path, 4096, &n, err, sizeof err);
  cJSON *o = t ? cJSON_Parse(t) : NULL;
  free(t);
  if (o && !cJSON_IsObject(o)) {
    cJSON_Delete(o);
    o = NULL;
  }
  return o;
}

static int newer_first(const void *a, const void *b) {
  const cJSON *x = *(cJSON *const *)a, *y = *(cJSON *const *)b;
  double tx = cJSON_GetNumberValue(cJSON_GetObjectItem(x, "saved"));
  double ty = cJSON_GetNumberValue(cJSON_GetObjectItem(y, "saved"));
  return tx < ty ? 1 : tx > ty ? -1 : 0;
}

/* GET /api/autosaves: the kept games, newest first (at most 30) */
static enum MHD_Result api_autosaves(struct MHD_Connection *c, const cJSON *b) {
  char dir[4400];
  snprintf(dir, sizeof dir, "%s/auto", saves_dir);
  cJSON *items[200];
  int n = 0;
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && n < 200 && (e = readdir(d))) {
    size_t k = strlen(e->d_name);
    char id[24];
    if (k != 21 || strcmp(e->d_name + 16, ".info")) continue;
    snprintf(id, sizeof id, "%.16s", e->d_name);
    if (game_id_ok(id) && (items[n] = auto_info(id))) n++;
  }
  if (d) closedir(d);
  qsort(items, (size_t)n, sizeof items[0], newer_first);
  cJSON *o = cJSON_CreateObject(), *a = cJSON_AddArrayToObject(o, "games");
  for (int i = 0; i < n; i++) {
    cJSON_DeleteItemFromObjectCaseSensitive(items[i], "tokens");   /* the seats' links stay secret */
    if (i < 30) cJSON_AddItemToArray(a, items[i]);
    else cJSON_Delete(items[i]);
  }
  return send_json(c, 200, o);
}

/* a new game's first view: with its seats' tokens to the one who made it (not on a resume) */
/* a person waits at the page: each computer player gets its level's time cap per decision
 * (player_set_interactive); the longest cap, in seconds, for the think indicator */
static double interactive_cap(Session *S) {
  int ms = S->ai ? player_set_interactive(S->ai) : 0;
  for (int k = 0; k < SEAT_COUNT; k++)
    if (S->seats.ai[k]) {
      int m = player_set_interactive(S->seats.ai[k]);
      if (m > ms) ms = m;
    }
  return ms / 1000.0;
}

static enum MHD_Result new_game_reply(struct MHD_Connection *c, Session *S, const char *id, int as) {
  int seat = id ? -1 : as >= 0 && S->seats.token[as][0] ? as : first_token_seat(&S->seats);
  double cap = interactive_cap(S);
  int busy = 0;
  Game *G = game_add(S, id, &busy);
  if (!G) {
    session_free(S);
    return send_err(
        c, 503,
        busy ? "the computer is still finishing games that were closed: try again in a moment"
             : "too many games in progress");
  }
  pthread_mutex_lock(&G->mu);
  if (!G->think_cap) G->think_cap = cap;
  autosave(G);
  cJSON *v = game_view(G, 0, seat);
  if (seat >= 0) tokens_json(v, &G->S.seats);
  pthread_cond_broadcast(&G->cv);
  pthread_mutex_unlock(&G->mu);
  game_put(G);
  return send_json(c, 201, v);
}

static enum MHD_Result api_new(struct MHD_Connection *c, const cJSON *b) {
  const char *side = jstr(b, "side", "french"), *level = jstr(b, "level", "normal");
  const char *scen = jstr(b, "scenario", "short"), *vars = jstr(b, "variants", "base");
  const cJSON *sd = cJSON_GetObjectItemCaseSensitive(b, "seed");
  uint64_t seed = 1;
  if (!sd || cJSON_IsNull(sd)) {                 /* a fresh game: a random seed, shown in the view */
    seed = session_fresh_seed();
  } else if (cJSON_IsNumber(sd)) {
    if (!(sd->valuedouble >= 0 && sd->valuedouble < 9e15) || sd->valuedouble != (double)(uint64_t)sd->valuedouble)
      return send_err(c, 400, "seed: a whole number from 0");
    seed = (uint64_t)sd->valuedouble;
  } else if (cJSON_IsString(sd)) {
    if (num_u64(sd->valuestring, 0, UINT64_MAX, &seed)) /* as --seed: up to 2^64-1 */
      return send_err(c, 400, "seed: a whole number from 0 to 18446744073709551615");
  } else {
    return send_err(c, 400, "seed: a whole number from 0");
  }
  if (side_of(side) < 0) return send_err(c, 400, "side: french or allied");
  if (!level_ok(level)) return send_level_err(c);
  if (strcmp(scen, "short") && strcmp(scen, "long")) return send_err(c, 400, "scenario: short or long");
  if (!word_ok(vars, 60)) return send_err(c, 400, "variants: names separated by commas");
  int as = seat_parse(jstr(b, "as", ""));
  if (cJSON_GetObjectItemCaseSensitive(b, "as") && as < 0) return send_err(c, 400, "as: french, british or prussian");
  const cJSON *seats = cJSON_GetObjectItemCaseSensitive(b, "seats");
  char st[200], msg[200];
  if (seats && seats_body(seats, st, sizeof st, msg, sizeof msg)) return send_err(c, 400, msg);
  Session S;
  char err[1024];
  if (session_new(&S, scen, vars, seed, side_of(side), level, err, sizeof err)) return send_err(c, 400, err);
  if (seats && session_set_seats(&S, st, err, sizeof err)) {
    session_free(&S);
    return send_err(c, 400, err);
  }
  if (seats) seats_new_tokens(&S.seats);
  return new_game_reply(c, &S, NULL, as);
}

static enum MHD_Result api_load(struct MHD_Connection *c, const cJSON *b) {
  const char *name = jstr(b, "name", ""), *side = jstr(b, "side", "french"), *level = jstr(b, "level", "normal");
  if (!name_ok(name)) return send_err(c, 400, "name: 1 to 40 letters, digits, '-' or '_'");
  if (side_of(side) < 0) return send_err(c, 400, "side: french or allied");
  if (!level_ok(level)) return send_level_err(c);
  char path[4400];
  snprintf(path, sizeof path, "%s/%s.json", saves_dir, name);
  struct stat st;
  if (stat(path, &st) != 0) return send_err(c, 404, "no saved game by that name");
  if (st.st_size > 4 << 20) return send_err(c, 400, "saved game too large");
  const cJSON *seats = cJSON_GetObjectItemCaseSensitive(b, "seats");
  char stx[200], msg[1200];
  if (seats && seats_body(seats, stx, sizeof stx, msg, sizeof msg)) return send_err(c, 400, msg);
  Session S;
  char err[1024];
  if (session_load(&S, path, side_of(side), level, err, sizeof err)) {
    /* the message names the file inside the saves folder only */
    const char *p = strstr(err, path) == err ? err + strlen(saves_dir) + 1 : err;
    snprintf(msg, sizeof msg, "cannot load: %s", p);
    return send_err(c, 400, msg);
  }
  /* the seats asked for, else (no side asked for either) the saved game's own */
  const char *use = seats ? stx : !cJSON_GetObjectItem(b, "side") && S.g.seats[0] ? S.g.seats : NULL;
  if (use && session_set_seats(&S, use, err, sizeof err)) {
    session_free(&S);
    return send_err(c, 400, err);
  }
  if (use) seats_new_tokens(&S.seats);
  return new_game_reply(c, &S, NULL, seat_parse(jstr(b, "as", "")));
}

/* POST /api/resume {id}: a kept game (SAVES/auto/ID.json) back under its id, after a restart;
 * the view of the game when it is still in play */
static enum MHD_Result api_resume(struct MHD_Connection *c, const cJSON *b) {
  const char *id = jstr(b, "id", "");
  if (!game_id_ok(id)) return send_err(c, 400, "id: a game id (16 hexadecimal digits)");
  Game *G = game_get(id);
  if (G) {
    pthread_mutex_lock(&G->mu);
    int seat = request_seat(c, &G->S);
    cJSON *v = seat == SEAT_REFUSED ? NULL : game_view(G, 0, seat);
    pthread_mutex_unlock(&G->mu);
    game_put(G);
    return v ? send_json(c, 200, v) : send_err(c, 403, "this game needs your seat's link (token)");
  }
  cJSON *info = auto_info(id);
  if (!info) return send_err(c, 404, "no kept game by that id");
  char side[16], level[32], path[4400], err[1024], st[160];
  snprintf(side, sizeof side, "%s", jstr(info, "side", ""));
  snprintf(level, sizeof level, "%s", jstr(info, "level", ""));
  snprintf(st, sizeof st, "%s", jstr(info, "seats", ""));
  Seats keep;
  memset(&keep, 0, sizeof keep);
  const cJSON *tk = cJSON_GetObjectItem(info, "tokens");
  for (int k = 0; k < SEAT_COUNT; k++) {
    const char *t = jstr(tk, seat_name(k), "");
    if (strlen(t) == 32 && strspn(t, "0123456789abcdef") == 32) snprintf(keep.token[k], 33, "%s", t);
  }
  cJSON_Delete(info);
  if ((side_of(side) < 0 && !st[0]) || !level_ok(level))
    return send_err(c, 400, "the kept game's side or level is damaged");
  Session S;
  if (auto_path(path, sizeof path, id, "json") ||
      session_load(&S, path, side_of(side) < 0 ? FRENCH : side_of(side), level, err, sizeof err))
    return send_err(c, 400, "the kept game cannot be read");
  if (st[0] && session_set_seats(&S, st, err, sizeof err)) {
    session_free(&S);
    return send_err(c, 400, "the kept game's seats are damaged");
  }
  for (int k = 0; k < SEAT_COUNT; k++)
    if (S.seats.human[k]) memcpy(S.seats.token[k], keep.token[k], 33);
  if (S.human == SESSION_BOTH_SIDES && request_seat(c, &S) == SEAT_REFUSED) {
    session_free(&S);   /* not brought back for someone without a seat's link */
    return send_err(c, 403, "this game needs your seat's link (token)");
  }
  return new_game_reply(c, &S, id, -1);
}

static enum MHD_Result api_saves(struct MHD_Connection *c, const cJSON *b) {
  cJSON *o = cJSON_CreateObject(), *a = cJSON_AddArrayToObject(o, "saves");
  DIR *d = opendir(saves_dir);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d))) {
      size_t n = strlen(e->d_name);
      if (n < 6 || strcmp(e->d_name + n - 5, ".json")) continue;
      char nm[64];
      if (n - 5 >= sizeof nm) continue;
      memcpy(nm, e->d_name, n - 5);
      nm[n - 5] = 0;
      if (name_ok(nm)) cJSON_AddItemToArray(a, cJSON_CreateString(nm));
    }
    closedir(d);
  }
  return send_json(c, 200, o);
}

static int parse_sq(const char *t) {
  if (!t || t[0] < 'A' || t[0] >= 'A' + MAP_W || t[1] < '0' || t[1] > '9') return -1;
  char *end;
  long r = strtol(t + 1, &end, 10);
  if (*end || r < 1 || r > MAP_H) return -1;
  return (int)(r - 1) * MAP_W + (t[0] - 'A');
}

/* POST /api/games/ID/play: {"action": notation} | {"index": i} | {"move": {unit, to, facing}};
 * optional "at": the number of actions the client saw (409 when the game has moved on) */
static enum MHD_Result api_play(struct MHD_Connection *c, Game *G, const cJSON *b, int seat) {
  Session *S = &G->S;
  const cJSON *at = cJSON_GetObjectItemCaseSensitive(b, "at");
  long atn = -1, k = -1;
  if (at && json_whole(at, 0, GAME_MAX_ACTIONS, &atn)) return send_err(c, 400, "at: the number of actions seen (a whole number)");
  if (at && atn != S->g.n) return send_err(c, 409, "the game has moved on; reload it");
  if (gs_over(&S->s)) return send_err(c, 409, "the game is over");
  if (!session_humans_turn(S)) return send_err(c, 409, "not your decision now: the computer is thinking");
  enum MHD_Result refused;
  if (seat_decides(c, S, seat, &refused)) return refused;
  const cJSON *act = cJSON_GetObjectItemCaseSensitive(b, "action");
  const cJSON *idx = cJSON_GetObjectItemCaseSensitive(b, "index");
  const cJSON *mv = cJSON_GetObjectItemCaseSensitive(b, "move");
  char err[300];
  int first_log = S->nlog;
  if (cJSON_IsString(act)) {
    Action a;
    if (strlen(act->valuestring) > 150) return send_err(c, 400, "action: too long");
    if (action_parse(S->sc, &S->s, act->valuestring, &a, err, sizeof err)) return send_err(c, 400, err);
    session_apply(S, a, 1);
  } else if (cJSON_IsNumber(idx)) {
    if (json_whole(idx, 0, MAX_ACTIONS - 1, &k) || session_play_index(S, k, 1))
      return send_err(c, 400, "index: not a legal action number");
  } else if (cJSON_IsObject(mv)) {
    int u = scen_unit(S->sc, jstr(mv, "unit", ""));
    int sq = parse_sq(jstr(mv, "to", ""));
    const char *f = jstr(mv, "facing", "");
    const char *fp = strlen(f) == 1 ? strchr("NESW", f[0]) : NULL;
    if (u < 0 || sq < 0 || !fp) return send_err(c, 400, "move: unit, to (a square) and facing (N E S W)");
    if (session_move_to(S, u, sq, (int)(fp - "NESW"), err, sizeof err)) return send_err(c, 400, err);
  } else {
    return send_err(c, 400, "give 'action' (notation), 'index' or 'move'");
  }
  autosave(G);
  pthread_cond_broadcast(&G->cv);
  return send_json(c, 200, game_view(G, first_log, seat));
}

#define HINTS_AT_ONCE 2
static int hints_running;
static pthread_mutex_t hint_mu = PTHREAD_MUTEX_INITIALIZER;

static enum MHD_Result api_hint(struct MHD_Connection *c, Game *G, const cJSON *b, int seat) {
  Session *S = &G->S;
  if (!session_humans_turn(S)) return send_err(c, 409, "no decision of yours to hint at");
  enum MHD_Result refused;
  if (seat_decides(c, S, seat, &refused)) return refused;
  const char *level = jstr(b, "level", session_hint_level(S));
  if (!level_ok(level)) return send_level_err(c);
  char err[256];
  Player *p = session_player(S, level, S->seed * 31u + (uint64_t)S->g.n, err, sizeof err);
  if (!p) return send_err(c, 500, err);
  pthread_mutex_lock(&hint_mu);   /* hints search on the request's thread: a few at once */
  int busy = hints_running >= HINTS_AT_ONCE;
  hints_running += !busy;
  pthread_mutex_unlock(&hint_mu);
  if (busy) {
    player_free(p);
    return send_err(c, 503, "the server is busy with other hints: ask again in a moment");
  }
  State s = S->s;
  int n_at = S->g.n;
  pthread_mutex_unlock(&G->mu);            /* think without holding the game */
  Candidate cand[6];
  int n = player_analyze(p, &s, cand, 6);
  player_free(p);
  pthread_mutex_lock(&hint_mu);
  hints_running--;
  pthread_mutex_unlock(&hint_mu);
  pthread_mutex_lock(&G->mu);
  if (S->g.n != n_at) return send_err(c, 409, "the game has moved on");
  cJSON *o = cJSON_CreateObject(), *a = cJSON_AddArrayToObject(o, "candidates");
  for (int i = 0; i < n; i++) {
    cJSON *x = action_json(S->sc, &s, cand[i].a);
    cJSON_AddNumberToObject(x, "share", cand[i].share);
    cJSON_AddNumberToObject(x, "winrate", cand[i].winrate);
    cJSON_AddNumberToObject(x, "visits", cand[i].visits);
    char why[512];
    reason_action(S->sc, &s, cand[i].a, 0, why, sizeof why);
    cJSON_AddStringToObject(x, "why", why);
    cJSON_AddItemToArray(a, x);
  }
  cJSON_AddStringToObject(o, "level", level);
  return send_json(c, 200, o);
}

/* GET /api/games/ID/record: the game's record (the save format), from its autosave; the record
 * holds every hand and the chance streams' state, so it is given once the game is over */
static enum MHD_Result api_record(struct MHD_Connection *c, Game *G, const cJSON *b, int seat) {
  char path[4400], err[300];
  if (!gs_over(&G->S.s))
    return send_err(c, 409,
                    "the record holds every hidden card: it is given when the game is over");
  size_t n;
  char *t = auto_path(path, sizeof path, G->id, "json")
                ? NULL
                : file_read_capped(path, GAME_FILE_MAX, &n, err, sizeof err);
  if (!t) return send_err(c, 404, "the game's record is not kept");
  return send_text(c, 200, "application/json", t, n);
}

static enum MHD_Result api_variants(struct MHD_Connection *c, const cJSON *b) {
  return send_json(c, 200, variants_json());
}

static enum MHD_Result api_rules(struct MHD_Connection *c, const cJSON *b) {
  char path[4400], err[200];
  snprintf(path, sizeof path, "%s/RULES.md", docs_dir);
  cJSON *r = rules_json(path, err, sizeof err);
  return r ? send_json(c, 200, r) : send_err(c, 404, err);
}

/* a save being written: the session, the file, the error (the path within the saves folder) */
typedef struct {
  const Session *S;
  const char *path;
  char err[512];
} SaveJob;

static int save_write(void *arg) {
  SaveJob *j = arg;
  mkdir(saves_dir, 0755);
  char e[512];
  if (!session_save(j->S, j->path, e, sizeof e)) return 0;
  size_t k = strlen(saves_dir);
  snprintf(j->err, sizeof j->err, "%s", !strncmp(e, saves_dir, k) && e[k] == '/' ? e + k + 1 : e);
  return -1;
}

/* one look at a name and its write at a time: two games saved under one new name at once must
 * not both find it free (the second would replace the first without asking) */
static pthread_mutex_t save_mu = PTHREAD_MUTEX_INITIALIZER;

/* SAVES/name.json written (j), save_mu held: 0, else the answer's status with its message */
static int save_named(SaveJob *j, const char *name, int overwrite, char *msg, size_t len) {
  struct stat st;
  int there = lstat(j->path, &st) == 0;
  if (there && !S_ISREG(st.st_mode)) {
    snprintf(msg, len, "%s.json in the saves folder is not a saved game (a link or a folder): "
             "not replaced", name);
    return 409;
  }
  if (there && !overwrite) {   /* another game by that name: replaced only when asked */
    snprintf(msg, len, "a saved game by that name exists: choose another name, or overwrite it");
    return 409;
  }
  int rc = review_replace(saves_dir, name, save_write, j);   /* a left-over review goes too */
  if (rc == -2)
    snprintf(msg, len, "that saved game is being reviewed: choose another name, or wait for it");
  else if (rc)
    snprintf(msg, len, "could not write the save (nothing was replaced): %s", j->err);
  return rc == -2 ? 409 : rc ? 500 : 0;
}

/* POST /api/games/ID/save {name}: SAVES/name.json (with the seats) */
static enum MHD_Result api_save(struct MHD_Connection *c, Game *G, const cJSON *b, int seat) {
  const char *name = jstr(b, "name", "");
  char path[4400], msg[600];
  if (!name_ok(name)) return send_err(c, 400, "name: 1 to 40 letters, digits, '-' or '_'");
  snprintf(path, sizeof path, "%s/%s.json", saves_dir, name);
  SaveJob j = {&G->S, path, ""};
  pthread_mutex_lock(&save_mu);
  int code = save_named(&j, name, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "overwrite")),
                        msg, sizeof msg);
  pthread_mutex_unlock(&save_mu);
  if (code) return send_err(c, (unsigned)code, msg);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "saved", name);
  return send_json(c, 200, o);
}

/* ---------------------------------------------------------------- the requests of one game */
/* a game route's handler: called with the game's lock held (unless ROUTE_UNLOCKED) and the
 * seat of the request (request_seat: a seat, or -1 for the session's own view) */
typedef enum MHD_Result (*GameFn)(struct MHD_Connection *c, Game *G, const cJSON *b, int seat);

static enum MHD_Result api_view(struct MHD_Connection *c, Game *G, const cJSON *b, int seat) {
  const char *sn = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "since");
  long since = 0;
  if (sn && num_long(sn, 0, 1000000, &since)) since = 0;
  return send_json(c, 200, game_view(G, (int)since, seat));
}

/* DELETE /api/games/ID: the game leaves the table and its kept files (SAVES/auto/ID.*) go, so
 * it cannot be resumed; saves made of it under a name stay */
static enum MHD_Result api_delete(struct MHD_Connection *c, Game *G, const cJSON *b, int seat) {
  pthread_mutex_lock(&table_mu);   /* without the game's lock: the table's comes first */
  G->gone = 1;
  pthread_mutex_unlock(&table_mu);
  pthread_mutex_lock(&G->mu);      /* no autosave after this (the computer may be thinking) */
  G->deleted = 1;
  char path[4400];
  if (!auto_path(path, sizeof path, G->id, "info")) unlink(path);
  if (!auto_path(path, sizeof path, G->id, "json")) unlink(path);
  pthread_mutex_unlock(&G->mu);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddBoolToObject(o, "deleted", 1);
  return send_json(c, 200, o);
}

static enum MHD_Result api_scenario(struct MHD_Connection *c, Game *G, const cJSON *b, int seat) {
  return send_json(c, 200, scen_json(G->S.sc));
}

static enum MHD_Result api_reach(struct MHD_Connection *c, Game *G, const cJSON *b, int seat) {
  Session *S = &G->S;
  const char *un = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "unit");
  int u = un ? scen_unit(S->sc, un) : -1;
  if (u < 0) return send_err(c, 400, "reach: unit=NAME of a unit");
  if (!session_humans_turn(S) || S->s.turn.phase != PH_MOVE ||
      unit_side(S->sc, u) != gs_decider(&S->s) || (seat >= 0 && gs_seat(S->sc, &S->s) != seat))
    return send_err(c, 409, "that unit has no movement now");
  return send_json(c, 200, reach_json(S->sc, &S->s, u));
}

static enum MHD_Result api_undo(struct MHD_Connection *c, Game *G, const cJSON *b, int seat) {
  Session *S = &G->S;
  if (G->thinking) return send_err(c, 409, "the computer is thinking; undo when it is your decision");
  if (seat >= 0 && seat_side(seat) != S->human) return send_err(c, 403, "not your seat's decision to undo");
  if (session_undo(S) < 0) {
    char msg[200];
    snprintf(msg, sizeof msg, "nothing to undo: %s", session_no_undo_why(S));
    return send_err(c, 409, msg);
  }
  autosave(G);
  return send_json(c, 200, game_view(G, 0, seat));
}

static enum MHD_Result api_summary(struct MHD_Connection *c, Game *G, const cJSON *b, int seat) {
  return send_json(c, 200, summary_json(&G->S));
}

static enum MHD_Result api_log(struct MHD_Connection *c, Game *G, const cJSON *b, int seat) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddItemToObject(o, "log", log_json(&G->S, 0));
  return send_json(c, 200, o);
}

/* The routes of /api/games/ID[/OP]: method, OP ("" for the game itself), handler. */
enum { ROUTE_UNLOCKED = 1 /* called without the game's lock */ };
static const struct {
  const char *method, *op;
  GameFn run;
  int flags;
} GAME_ROUTES[] = {
    {"GET", "", api_view, 0},
    {"DELETE", "", api_delete, ROUTE_UNLOCKED},
    {"GET", "scenario", api_scenario, 0},
    {"GET", "reach", api_reach, 0},
    {"POST", "play", api_play, 0},
    {"POST", "undo", api_undo, 0},
    {"POST", "hint", api_hint, 0},
    {"POST", "save", api_save, 0},
    {"GET", "summary", api_summary, 0},
    {"GET", "record", api_record, 0},
    {"GET", "log", api_log, 0},
};

static enum MHD_Result api_game(struct MHD_Connection *c, const char *method, const char *rest,
                                const cJSON *b) {
  char id[24];
  size_t k = strcspn(rest, "/");
  if (k == 0 || k >= sizeof id) return send_err(c, 404, "no such game");
  memcpy(id, rest, k);
  id[k] = 0;
  const char *op = rest[k] == '/' ? rest + k + 1 : "";
  Game *G = game_get(id);
  if (!G) return send_err(c, 404, "no such game (the server may have restarted)");
  size_t r = 0, nr = sizeof GAME_ROUTES / sizeof GAME_ROUTES[0];
  const char *m = !strcmp(method, "HEAD") ? "GET" : method;   /* HEAD: a GET without its body */
  char allow[40] = "";                                        /* the methods of op, for a 405 */
  for (size_t i = 0; i < nr; i++)
    if (!strcmp(GAME_ROUTES[i].op, op))
      snprintf(allow + strlen(allow), sizeof allow - strlen(allow), "%s%s", *allow ? ", " : "",
               !strcmp(GAME_ROUTES[i].method, "GET") ? "GET, HEAD" : GAME_ROUTES[i].method);
  while (r < nr && (strcmp(GAME_ROUTES[r].op, op) || strcmp(GAME_ROUTES[r].method, m))) r++;
  enum MHD_Result ret;
  pthread_mutex_lock(&G->mu);
  int seat = request_seat(c, &G->S), locked = 1;
  if (seat == SEAT_REFUSED && strcmp(op, "scenario")) {   /* the scenario is anyone's to read */
    ret = send_err(c, 403, "not a seat of this game: open it with your seat's link (token)");
  } else if (r == nr) {
    ret = *allow ? send_405(c, allow) : send_err(c, 404, "no such request");
  } else {
    if (GAME_ROUTES[r].flags & ROUTE_UNLOCKED) pthread_mutex_unlock(&G->mu), locked = 0;
    ret = GAME_ROUTES[r].run(c, G, b, seat);
  }
  if (locked) pthread_mutex_unlock(&G->mu);
  game_put(G);
  return ret;
}

/* the replay and the review of saved games (front/replay.c) */
static enum MHD_Result api_replay(struct MHD_Connection *c, const char *method, const char *api,
                                  const cJSON *b) {
  int get = !strcmp(method, "GET") || !strcmp(method, "HEAD"), post = !strcmp(method, "POST"), code = 404;
  const char *name = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "name");
  cJSON *o = NULL;
  if (!strcmp(api, "replay") && get)
    o = replay_get(saves_dir, name ? name : "", MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "step"),
                   MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "side"),
                   MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "since"),
                   MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "scenario") != NULL, &code);
  else if (!strcmp(api, "replay/sim") && post) o = replay_sim(saves_dir, b, &code);
  else if (!strcmp(api, "review") && post) o = review_start(saves_dir, b, &code);
  else if (!strcmp(api, "review") && get) o = review_status(saves_dir, name ? name : "", &code);
  /* front/replay.c says what went wrong; the answer names the request too, as every error does */
  const cJSON *e = o && code >= 400 ? cJSON_GetObjectItemCaseSensitive(o, "error") : NULL;
  if (cJSON_IsString(e) && !cJSON_HasObjectItem(o, "request")) {
    cJSON *named = err_object(e->valuestring);
    cJSON_Delete(o);
    o = named;
  }
  if (o) return send_json(c, (unsigned)code, o);
  const char *allow = !strcmp(api, "replay")       ? "GET, HEAD"
                      : !strcmp(api, "replay/sim") ? "POST"
                      : !strcmp(api, "review")     ? "GET, HEAD, POST"
                                                   : NULL;
  return allow ? send_405(c, allow) : send_err(c, 404, "no such request");
}

/* The routes of /api/NAME; /api/games/ID... goes to GAME_ROUTES. */
static const struct {
  const char *method, *name;
  enum MHD_Result (*run)(struct MHD_Connection *c, const cJSON *b);
} API_ROUTES[] = {
    {"POST", "games", api_new},
    {"POST", "load", api_load},
    {"GET", "saves", api_saves},
    {"HEAD", "saves", api_saves},
    {"GET", "autosaves", api_autosaves},
    {"HEAD", "autosaves", api_autosaves},
    {"POST", "resume", api_resume},
    {"GET", "rules", api_rules},
    {"HEAD", "rules", api_rules},
    {"GET", "variants", api_variants},
    {"HEAD", "variants", api_variants},
};

static enum MHD_Result api_route(struct MHD_Connection *c, const char *method, const char *api,
                                 const cJSON *b) {
  char allow[40] = ""; /* the methods of api, for a 405 */
  for (size_t i = 0; i < sizeof API_ROUTES / sizeof API_ROUTES[0]; i++) {
    if (strcmp(API_ROUTES[i].name, api)) continue;
    if (!strcmp(API_ROUTES[i].method, method)) return API_ROUTES[i].run(c, b);
    snprintf(allow + strlen(allow), sizeof allow - strlen(allow), "%s%s", *allow ? ", " : "",
             API_ROUTES[i].method);
  }
  if (*allow) return send_405(c, allow);
  if (!strncmp(api, "games/", 6)) return api_game(c, method, api + 6, b);
  if (!strncmp(api, "replay", 6) || !strncmp(api, "review", 6)) return api_replay(c, method, api, b);
  return send_err(c, 404, "no such request");
}

/* ---------------------------------------------------------------- who may speak to the server */
/* A page of another site may not drive the server, nor reach it under another name that
 * resolves to this machine (DNS rebinding): served on a loopback address, a request's Host
 * must name the loopback (127.x.x.x, localhost, [::1], any port); and a request a browser
 * sends from a page (its Origin header) must come from a page of this server. */
static int serve_loopback;

static int host_ok(const char *host) {
  if (!serve_loopback || !host) return 1;   /* no Host: not a browser (HTTP/1.0) */
  char h[128];
  snprintf(h, sizeof h, "%s", host);
  char *colon = strrchr(h, ':');   /* the port, after "[v6]" or a name or v4 address */
  if (colon && (h[0] != '[' || colon[-1] == ']') && strspn(colon + 1, "0123456789") == strlen(colon + 1)) *colon = 0;
  struct in_addr a;
  return !strcmp(h, "localhost") || !strcmp(h, "[::1]") || (inet_pton(AF_INET, h, &a) == 1 && (ntohl(a.s_addr) >> 24) == 127);
}

static int origin_ok(const char *origin, const char *host) {
  return !origin || (host && !strncmp(origin, "http://", 7) && !strcmp(origin + 7, host));
}

/* Slow clients (issue 22): a connection silent for 10 s is closed by libmicrohttpd; one that
 * trickles a request byte by byte is closed when it has not sent a whole request within
 * REQUEST_DEADLINE seconds of connecting or of its last answer (the main thread's sweep), so
 * slow connections cannot hold the server's connections for long.  A request being answered
 * (a hint may think for the level's cap) is not timed.
 * Many clients: at most PER_IP_LIMIT connections from one address and CONN_LIMIT in all; a
 * newcomer beyond either makes room (admit) by closing the connection of its address (else of
 * anyone) that has waited longest without a request being answered (trickling, or idle between
 * requests), so neither slow nor idle connections lock a client out (the page on this machine
 * shares its address with every other local client); it is refused only when every one of them
 * is being answered.  libmicrohttpd's own limit, WATCH_SLOTS, leaves room for the connections
 * closed that way until their threads end. */
#define REQUEST_DEADLINE 12.0
#define CONN_LIMIT 256
#define PER_IP_LIMIT 32
#define WATCH_SLOTS (CONN_LIMIT + 64)
typedef struct {
  int used, busy, shut;
  MHD_socket fd;
  uint32_t ip; /* the client's IPv4 address (network order) */
  double since;
} Watch;
static Watch watches[WATCH_SLOTS + 8];
static pthread_mutex_t watch_mu = PTHREAD_MUTEX_INITIALIZER;

static uint32_t addr_ip(const struct sockaddr *a) {
  return a && a->sa_family == AF_INET ? ((const struct sockaddr_in *)a)->sin_addr.s_addr : 0;
}

static enum MHD_Result admit(void *cls, const struct sockaddr *addr, socklen_t len) {
  uint32_t ip = addr_ip(addr);
  int mine = 0, all = 0;
  Watch *old_mine = NULL, *old_all = NULL; /* the longest waiting without an answer */
  pthread_mutex_lock(&watch_mu);
  for (size_t i = 0; i < sizeof watches / sizeof watches[0]; i++) {
    Watch *w = &watches[i];
    if (!w->used || w->shut) continue;
    all++, mine += w->ip == ip;
    if (w->busy) continue;
    if (w->ip == ip && (!old_mine || w->since < old_mine->since)) old_mine = w;
    if (!old_all || w->since < old_all->since) old_all = w;
  }
  int full = mine >= PER_IP_LIMIT || all >= CONN_LIMIT;
  Watch *room = mine >= PER_IP_LIMIT ? old_mine : all >= CONN_LIMIT ? old_all : NULL;
  if (room) {
    shutdown(room->fd, SHUT_RDWR); /* libmicrohttpd sees the end and closes it */
    room->shut = 1;
  }
  pthread_mutex_unlock(&watch_mu);
  return !full || room ? MHD_YES : MHD_NO;
}

static void on_connection(void *cls, struct MHD_Connection *c, void **ctx, enum MHD_ConnectionNotificationCode code) {
  pthread_mutex_lock(&watch_mu);
  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    const union MHD_ConnectionInfo *ca =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    for (size_t i = 0; ci && i < sizeof watches / sizeof watches[0]; i++)
      if (!watches[i].used) {
        watches[i] =
            (Watch){1, 0, 0, ci->connect_fd, addr_ip(ca ? ca->client_addr : NULL), clock_wall()};
        *ctx = &watches[i];
        break;
      }
  } else if (*ctx) {
    ((Watch *)*ctx)->used = 0;
    *ctx = NULL;
  }
  pthread_mutex_unlock(&watch_mu);
}

/* the connection's request is whole and being answered (1), or answered (0: the clock restarts);
 * 1 when the connection was shut before (then the request must not run: under watch_mu, a
 * request runs only if marked busy before admit or the sweep chose it) */
static int watch_busy(struct MHD_Connection *c, int busy) {
  const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  Watch *w = ci ? ci->socket_context : NULL;
  if (!w) return 0;
  pthread_mutex_lock(&watch_mu);
  int shut = w->shut;
  w->busy = busy;
  w->since = clock_wall();
  pthread_mutex_unlock(&watch_mu);
  return shut;
}

static void watch_sweep(void) {
  double now = clock_wall();
  pthread_mutex_lock(&watch_mu);
  for (size_t i = 0; i < sizeof watches / sizeof watches[0]; i++) {
    Watch *w = &watches[i];
    if (w->used && !w->busy && !w->shut && now - w->since > REQUEST_DEADLINE) {
      shutdown(w->fd, SHUT_RDWR);   /* libmicrohttpd sees the end and closes it */
      w->shut = 1;
    }
  }
  pthread_mutex_unlock(&watch_mu);
}

/* ---------------------------------------------------------------- a request as it comes */
/* An address holding %00 would reach the routes cut at the NUL ("/api/games/ID%00/log" read as
 * the game's view): libmicrohttpd's unescaping with a note of it, and the request is refused. */
static __thread int url_nul;

static size_t unescape(void *cls, struct MHD_Connection *c, char *s) {
  for (const char *p = s; (p = strchr(p, '%')); p++)
    if (p[1] == '0' && p[2] == '0') url_nul = 1;
  return MHD_http_unescape(s);
}

typedef struct {
  int length, chunked;
} Framing;

static enum MHD_Result count_framing(void *cls, enum MHD_ValueKind kind, const char *key,
                                     const char *value) {
  Framing *f = cls;
  f->length += !strcasecmp(key, "Content-Length");
  f->chunked += !strcasecmp(key, "Transfer-Encoding");
  return MHD_YES;
}

/* a request refused from its head, before its body is read (libmicrohttpd then closes the
 * connection): a NUL in the address, a body whose length is said twice or two ways, a
 * Content-Length over MAX_BODY (413 at once, not after reading it); its status and message in
 * msg, 0 when none */
static unsigned refused_head(struct MHD_Connection *c, char *msg, size_t len) {
  int nul = url_nul;
  url_nul = 0;
  Framing f = {0, 0};
  MHD_get_connection_values(c, MHD_HEADER_KIND, count_framing, &f);
  const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
  uint64_t n;
  if (nul) snprintf(msg, len, "the address holds a NUL byte (%%00)");
  else if (f.length > 1 || (f.length && f.chunked))
    snprintf(msg, len, "the body's length is given twice (Content-Length, Transfer-Encoding)");
  else if (cl && !num_u64(cl, 0, UINT64_MAX, &n) && n > MAX_BODY)
    snprintf(msg, len, "request body too large: %" PRIu64 " bytes (at most %d)", n, MAX_BODY);
  else return 0;
  return nul || f.length > 1 || f.chunked ? 400 : 413;
}

/* t[0..n) holds a NUL byte, raw or as \u0000 inside a string (cJSON's strings are C strings:
 * "a\u0000../x" would be read as "a") */
static int holds_nul(const char *t, size_t n) {
  if (memchr(t, 0, n)) return 1;
  for (size_t i = 0, in = 0; i < n; i++) {
    if (t[i] == '"') in = !in;
    else if (in && t[i] == '\\') {
      if (i + 5 < n && t[i + 1] == 'u' && !strncmp(t + i + 2, "0000", 4)) return 1;
      i++;
    }
  }
  return 0;
}

/* the body as one JSON object (white space around it only), or NULL with the reason */
static cJSON *body_object(const char *t, size_t n, const char **why) {
  if (holds_nul(t, n)) return *why = "the body holds a NUL byte (raw or \\u0000)", NULL;
  const char *end = NULL;
  cJSON *b = cJSON_ParseWithLengthOpts(t, n, &end, 0);
  while (b && end && end < t + n && strchr(" \t\r\n", *end)) end++;
  if (!b || !cJSON_IsObject(b) || end != t + n) {
    cJSON_Delete(b);
    return *why = "the body must be one JSON object", NULL;
  }
  return b;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                               const char *version, const char *upload, size_t *upload_size, void **con_cls) {
  Req *r = *con_cls;
  req_method = method, req_url = url;
  if (!r) {
    char msg[160];
    unsigned code = refused_head(c, msg, sizeof msg);
    if (code) return watch_busy(c, 1) ? MHD_NO : send_err(c, code, msg);
    r = calloc(1, sizeof *r);
    if (!r) return MHD_NO;
    *con_cls = r;
    return MHD_YES;
  }
  if (*upload_size) {
    r->seen += *upload_size;
    if (r->seen > MAX_DISCARD) return MHD_NO; /* an endless chunked body: the connection is cut */
    if (r->len + *upload_size > MAX_BODY) r->too_big = 1;
    else {
      char *nb = realloc(r->body, r->len + *upload_size + 1);
      if (!nb) return MHD_NO;
      r->body = nb;
      memcpy(r->body + r->len, upload, *upload_size);
      r->len += *upload_size;
      r->body[r->len] = 0;
    }
    *upload_size = 0;
    return MHD_YES;
  }
  if (watch_busy(c, 1)) return MHD_NO;   /* shut just before (admit, the sweep): not answered */
  if (r->too_big) {                      /* a chunked body: its length known only at its end */
    char msg[80];
    snprintf(msg, sizeof msg, "request body too large (at most %d bytes)", MAX_BODY);
    return send_err(c, 413, msg);
  }
  const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
  if (!host_ok(host)) return send_err(c, 403, "Host: this server answers to 127.0.0.1 or localhost only");
  if (!origin_ok(MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin"), host))
    return send_err(c, 403, "Origin: requests from pages of another site are refused");
  int get = !strcmp(method, "GET") || !strcmp(method, "HEAD");
  if (strncmp(url, "/api/", 5)) {
    if (!get) return send_405(c, "GET, HEAD");
    return serve_file(c, url);
  }
  cJSON *b = NULL;
  const char *why;
  if (!get && r->len && !(b = body_object(r->body, r->len, &why))) return send_err(c, 400, why);
  if (!b) b = cJSON_CreateObject();
  enum MHD_Result ret = api_route(c, method, url + 5, b);
  cJSON_Delete(b);
  return ret;
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode t) {
  watch_busy(c, 0);
  req_method = req_url = NULL;
  Req *r = *con_cls;
  if (r) {
    free(r->body);
    free(r);
    *con_cls = NULL;
  }
}

static void on_signal(int sig) { stop_flag = 1; }

/* the scenario data loads (a game could start): else one line "waterloo: error", 0 */
static int data_probe(void) {
  char err[2048];
  Scen *sc = malloc(sizeof *sc);
  if (!sc) abort();
  int ok = scen_load(sc, scen_default_dir(), "short", "base", err, sizeof err) == 0;
  if (!ok) fprintf(stderr, "waterloo: %s\n", err);
  free(sc);
  return ok;
}

static void find_web_dir(void) {
  data_dir("WATERLOO_WEB", "web", "index.html", web_dir, sizeof web_dir);
  data_dir("WATERLOO_DOCS", "docs", "RULES.md", docs_dir, sizeof docs_dir);
}

int serve_run(const ServeOpts *o) {
  struct sockaddr_in addr;
  memset(&addr, 0, sizeof addr);
  addr.sin_family = AF_INET;
  addr.sin_port = htons((uint16_t)o->port);
  if (inet_pton(AF_INET, o->host, &addr.sin_addr) != 1) return 2;   /* checked by cli/front.c */
  const char *host = o->host;
  unsigned port = o->port;
  snprintf(saves_dir, sizeof saves_dir, "%s", o->saves);
  serve_loopback = !strncmp(o->host, "127.", 4);
  struct stat sst;   /* the saves folder: made now, and writable, or the server does not start */
  if (stat(saves_dir, &sst) != 0) mkdir(saves_dir, 0755);
  if (stat(saves_dir, &sst) != 0 || !S_ISDIR(sst.st_mode) || access(saves_dir, W_OK | X_OK) != 0) {
    fprintf(stderr, "waterloo serve: --saves %s: %s\n", saves_dir,
            stat(saves_dir, &sst) != 0 ? strerror(errno) : !S_ISDIR(sst.st_mode) ? "not a folder" : "cannot write in it");
    return 2;
  }
  find_web_dir();
  char idx[4400];
  snprintf(idx, sizeof idx, "%s/index.html", web_dir);
  if (access(idx, R_OK) != 0) {
    fprintf(stderr, "waterloo serve: %s: not found (run from the project folder or set WATERLOO_WEB)\n", idx);
    return 2;
  }
  if (!data_probe()) return 2;
  char autodir[4400];   /* what a save killed midway left there (file_write_atomic) */
  snprintf(autodir, sizeof autodir, "%s/auto", saves_dir);
  file_clean_stale_temps(saves_dir, NULL);
  struct stat ast;
  if (lstat(autodir, &ast) == 0 && S_ISDIR(ast.st_mode)) file_clean_stale_temps(autodir, NULL);
  signal(SIGPIPE, SIG_IGN);
  struct MHD_Daemon *d = MHD_start_daemon(
      MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION, (uint16_t)port, admit, NULL,
      handler, NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr, MHD_OPTION_NOTIFY_COMPLETED,
      completed, NULL,
      /* slow or many clients (issue 22): at most CONN_LIMIT connections, PER_IP_LIMIT from one
       * address (admit: the longest waiting makes room); a connection silent for 10 s is closed,
       * and one that has not sent a whole request within REQUEST_DEADLINE (watch_sweep), so
       * half-open or trickling connections cannot hold it */
      MHD_OPTION_CONNECTION_LIMIT, (unsigned)WATCH_SLOTS, MHD_OPTION_CONNECTION_TIMEOUT,
      (unsigned)10, MHD_OPTION_NOTIFY_CONNECTION, on_connection, NULL,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024), MHD_OPTION_UNESCAPE_CALLBACK,
      unescape, NULL, MHD_OPTION_END);
  if (!d) {
    fprintf(stderr, "waterloo serve: cannot listen on %s:%u (%s)\n", host, port, strerror(errno));
    return 1;
  }
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
  unsigned bound = info ? info->port : (unsigned)port;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  printf("waterloo serve: open http://%s:%u/ in a browser (Ctrl-C stops)\n", host, bound);
  if (strncmp(host, "127.", 4))
    fprintf(stderr, "waterloo serve: listening beyond this machine (%s): anyone who reaches the port "
                    "can play; see serve --help\n", host);
  fflush(stdout);
  while (!stop_flag) {
    struct timespec tick = {0, 250 * 1000 * 1000};
    nanosleep(&tick, NULL);
    watch_sweep();
  }
  MHD_stop_daemon(d);
  pthread_mutex_lock(&table_mu);   /* every computer stops; wait for them (at most a minute) */
  for (int i = 0; i < MAX_GAMES; i++)
    if (games[i]) game_retire(games[i]), games[i] = NULL;
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 60;
  while (ai_live > 0 && pthread_cond_timedwait(&ai_done, &table_mu, &until) == 0) {
  }
  pthread_mutex_unlock(&table_mu);
  printf("waterloo serve: stopped\n");
  return 0;
}
