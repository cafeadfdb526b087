/* The replay and the review of saved games for the page (front/replay.h). */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay.h"
#include "json.h"
#include "session.h"
#include "../ai/player.h"
#include "../engine/util.h"
#include "../sim/review.h"
#include "../sim/sim.h"

static cJSON *fail(int *code, int c, const char *msg) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "error", msg);
  *code = c;
  return o;
}

static int name_ok(const char *n) {
  size_t k = n ? strlen(n) : 0;
  if (k < 1 || k > 40) return 0;
  for (const char *p = n; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
          *p == '_' || *p == '-'))
      return 0;
  return 1;
}

/* SAVES/NAME.json, a regular file of at most GAME_FILE_MAX bytes; 0 or -1 */
static int save_path(const char *saves, const char *name, char *path, size_t len) {
  snprintf(path, len, "%s/%s.json", saves, name);
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= (off_t)GAME_FILE_MAX ? 0 : -1;
}

/* SAVES/NAME-review is a folder of the saves folder itself (lstat: not a link to elsewhere),
 * the only kind a review is read from, written into or removed */
static int review_dir(const char *saves, const char *name, char *dir, size_t len) {
  snprintf(dir, len, "%s/%s-review", saves, name);
  struct stat st;
  return lstat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

/* the review's decisions, when SAVES/NAME-review/review.json is there */
static cJSON *review_of(const char *saves, const char *name) {
  char path[4400], err[300];
  if (!review_dir(saves, name, path, sizeof path)) return cJSON_CreateNull();
  snprintf(path, sizeof path, "%s/%s-review/review.json", saves, name);
  size_t n;
  char *t = file_read_capped(path, 8u << 20, &n, err, sizeof err);
  cJSON *j = t ? cJSON_Parse(t) : NULL;
  free(t);
  cJSON *d = j ? cJSON_DetachItemFromObjectCaseSensitive(j, "decisions") : NULL;
  cJSON_Delete(j);
  return cJSON_IsArray(d) ? d : (cJSON_Delete(d), cJSON_CreateNull());
}

/* An unfinished game shows one side's hand: only the side a person plays in it (the saved
 * seats; bit per side, 0 when the save names none), so a save never opens the computer's or
 * another person's hand before the end.  `waterloo review` keeps the same rule (sim/review.c). */
static int unfinished_people(const Scen *sc, const GameRec *g, int over) {
  int people = over ? 0 : gamerec_people(sc, g);
  return people < 0 ? 0 : people;
}

/* the whole game first (its length and whether it is over), then the session up to step */
cJSON *replay_get(const char *saves, const char *name, const char *step, const char *side,
                  const char *since, int with_scenario, int *code) {
  char path[4400], err[1024];
  if (!name_ok(name)) return fail(code, 400, "name: 1 to 40 letters, digits, '-' or '_'");
  if (save_path(saves, name, path, sizeof path)) return fail(code, 404, "no saved game by that name");
  int seat = !side || !*side ? -2 : !strcmp(side, "french") ? FRENCH : !strcmp(side, "allied") ? ALLIED : -3;
  if (seat == -3) return fail(code, 400, "side: french or allied");
  Scen *sc = malloc(sizeof *sc);
  GameRec g;
  State fin;
  if (!sc || game_load(sc, scen_default_dir(), path, &g, &fin, err, sizeof err)) {
    free(sc);
    return fail(code, 400, "cannot read the saved game");
  }
  int n = g.n, over = gs_over(&fin), result = fin.score.result;
  int people = unfinished_people(sc, &g, over);
  gamerec_free(&g);
  free(sc);
  char *end;
  long k = step && *step ? strtol(step, &end, 10) : n;
  if (step && *step && (*end || k < 0 || k > n)) return fail(code, 400, "step: 0 to the game's actions");
  if (!over && seat < 0) return fail(code, 403, "the game is not over: replay it as one side (side=french|allied)");
  if (!over && people == ((1 << FRENCH) | (1 << ALLIED)))
    return fail(code, 403, "the game is not over and people play both sides: it is replayed when it is over");
  if (!over && !(people & (1 << seat)))
    return fail(code, 403, "the game is not over: it is replayed only as the side its person plays");
  Session S;
  if (session_load_upto(&S, path, over ? SESSION_NO_HUMAN : seat, "heuristic", k, err, sizeof err))
    return fail(code, 400, "cannot replay the saved game");
  long from = since && *since ? strtol(since, &end, 10) : 0;
  if (from < 0 || from > k || (since && *since && *end)) {
    session_free(&S);
    return fail(code, 400, "since: 0 to step");
  }
  cJSON *v = session_view(&S, (int)from);
  /* a finished game: the position as the seat asked for (the French when none) sees it */
  cJSON_ReplaceItemInObjectCaseSensitive(v, "observation", observation_json(S.sc, &S.s, seat == ALLIED ? ALLIED : FRENCH));
  cJSON_ReplaceItemInObjectCaseSensitive(v, "human", cJSON_CreateString(side_name(seat == ALLIED ? ALLIED : FRENCH)));
  cJSON *e;   /* a replay has players, not a human and the computer */
  cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(v, "log"))
    cJSON_ReplaceItemInObjectCaseSensitive(e, "by", cJSON_CreateString("player"));
  cJSON_ReplaceItemInObjectCaseSensitive(v, "your_turn", cJSON_CreateFalse());
  cJSON_ReplaceItemInObjectCaseSensitive(v, "can_undo", cJSON_CreateFalse());
  cJSON *r = cJSON_AddObjectToObject(v, "replay");
  cJSON_AddStringToObject(r, "name", name);
  cJSON_AddNumberToObject(r, "step", (double)k);
  cJSON_AddNumberToObject(r, "actions", n);
  cJSON_AddBoolToObject(r, "over", over);
  cJSON_AddStringToObject(r, "result", result_name(result));
  cJSON_AddStringToObject(r, "side", over && seat < 0 ? "both" : side_name(seat));
  cJSON_AddItemToObject(v, "review", over ? review_of(saves, name) : cJSON_CreateNull());
  if (with_scenario) cJSON_AddItemToObject(v, "scenario", scen_json(S.sc));
  session_free(&S);
  *code = 200;
  return v;
}

/* ---------------------------------------------------------------- a game of a sim run */
static const char *const CHEAP[] = {"random", "light", "heuristic", "baseline", "mcts:sim", "mcts:easy", "sim", "easy"};

static int cheap(const char *spec) {
  for (size_t i = 0; i < sizeof CHEAP / sizeof CHEAP[0]; i++)
    if (!strcmp(spec, CHEAP[i])) return 1;
  return 0;
}

static const char *jstr(const cJSON *o, const char *k, const char *def) {
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsString(x) ? x->valuestring : def;
}

static int jnum(const cJSON *o, const char *k, uint64_t *v) {
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
  if (cJSON_IsNumber(x) && x->valuedouble >= 0 && x->valuedouble < 9007199254740992.0) {
    *v = (uint64_t)x->valuedouble;
    return x->valuedouble == (double)*v ? 0 : -1;
  }
  if (!cJSON_IsString(x) || !*x->valuestring) return -1;
  char *end;
  errno = 0;
  *v = strtoull(x->valuestring, &end, 10);
  return *end || errno || x->valuestring[0] == '-' ? -1 : 0;
}

cJSON *replay_sim(const char *saves, const cJSON *b, int *code) {
  const char *scen = jstr(b, "scenario", "short"), *var = jstr(b, "variants", "base");
  char players[128], pf[64], pa[64];
  snprintf(players, sizeof players, "%s", jstr(b, "players", "heuristic,heuristic"));
  char *comma = strchr(players, ',');
  snprintf(pf, sizeof pf, "%.*s", comma ? (int)(comma - players) : (int)strlen(players), players);
  snprintf(pa, sizeof pa, "%s", comma ? comma + 1 : players);
  uint64_t seed, index;
  if (jnum(b, "seed", &seed) || jnum(b, "index", &index) || index > 2147483647u)
    return fail(code, 400, "seed and index: whole numbers (index below 2^31)");
  if (!cheap(pf) || !cheap(pa))
    return fail(code, 400, "players: two of random, light, heuristic, baseline, mcts:sim, mcts:easy");
  if (strcmp(scen, "short") && strcmp(scen, "long")) return fail(code, 400, "scenario: short or long");
  if (strlen(var) > 64 || strspn(var, "abcdefghijklmnopqrstuvwxyz0123456789-,") != strlen(var))
    return fail(code, 400, "variants: shipped variant names, comma separated");
  char err[1024], name[48], path[4400], sf[80], sa[80];
  Scen *sc = malloc(sizeof *sc);
  if (!sc || scen_load(sc, scen_default_dir(), scen, var, err, sizeof err)) {
    free(sc);
    return fail(code, 400, "no such scenario or variant");
  }
  snprintf(sf, sizeof sf, "%s%s", strchr(pf, ':') || player_is_kind(pf) ? "" : "mcts:", pf);
  snprintf(sa, sizeof sa, "%s%s", strchr(pa, ':') || player_is_kind(pa) ? "" : "mcts:", pa);
  Player *fr = player_new(sc, sf, sim_player_seed(seed, index, FRENCH), err, sizeof err);
  Player *al = fr ? player_new(sc, sa, sim_player_seed(seed, index, ALLIED), err, sizeof err) : NULL;
  GameRec rec;
  State fin;
  GameFacts f;
  gamerec_init(&rec, scen, var, seed, index);
  int rc = al ? run_game(sc, fr, al, seed, index, &f, NULL, &rec, &fin) : -1;
  uint64_t h = hash_fnv1a(scen, strlen(scen), 0);
  h = hash_fnv1a(var, strlen(var), h);
  h = hash_fnv1a(sf, strlen(sf), h);
  h = hash_fnv1a(sa, strlen(sa), h);
  h = hash_fnv1a(&seed, sizeof seed, h);   /* the whole game's inputs name it: no two share a name */
  snprintf(name, sizeof name, "sim-%016" PRIx64 "-%" PRIu64, h, index);
  snprintf(path, sizeof path, "%s/%s.json", saves, name);
  mkdir(saves, 0755);
  int kept = rc ? -1 : game_save(sc, &rec, &fin, path, err, sizeof err);
  gamerec_free(&rec);
  player_free(fr);
  player_free(al);
  free(sc);
  if (rc) return fail(code, 500, "the game could not be played");
  if (kept) { /* the saves folder full or read-only: why, naming the file within it only */
    char msg[1200];
    size_t k = strlen(saves);
    snprintf(msg, sizeof msg, "the game could not be kept: %s",
             !strncmp(err, saves, k) && err[k] == '/' ? err + k + 1 : err);
    return fail(code, 500, msg);
  }
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", name);
  *code = 201;
  return o;
}

/* ---------------------------------------------------------------- reviews in the background */
#define MAX_REVIEWS 4
typedef struct {
  int used, state;            /* 1 running, 2 done, 3 failed */
  char name[48];
  ReviewOpts o;
  char save[4400], out[4400];
  int of;                     /* decisions to search */
  pthread_t thr;
} Job;
static Job jobs[MAX_REVIEWS];
static pthread_mutex_t jobs_mu = PTHREAD_MUTEX_INITIALIZER;

static void *review_thread(void *arg) {
  Job *j = arg;
  int rc = review_run(&j->o);
  pthread_mutex_lock(&jobs_mu);
  j->state = rc ? 3 : 2;
  pthread_mutex_unlock(&jobs_mu);
  return NULL;
}

/* the decisions with a choice of the sides the review judges: both in a finished game, in one
 * in progress the side its person plays (sim/review.c) */
static int decisions_of(const char *path) {
  Scen *sc = malloc(sizeof *sc);
  GameRec g;
  State fin, s;
  char err[600];
  int k = 0;
  ActList *L = malloc(sizeof *L);
  if (sc && L && !game_load(sc, scen_default_dir(), path, &g, &fin, err, sizeof err)) {
    int people = unfinished_people(sc, &g, gs_over(&fin)), sides = people ? people : 3;
    gamerec_position(sc, &g, 0, &s);
    for (int i = 0; i < g.n; i++) {
      k += ((sides >> gs_decider(&s)) & 1) && gs_legal(sc, &s, L) > 1;
      gs_apply(sc, &s, g.acts[i]);
    }
    gamerec_free(&g);
  } else k = -1;
  free(L);
  free(sc);
  return k;
}

static Job *job_find(const char *name) {
  for (int i = 0; i < MAX_REVIEWS; i++)
    if (jobs[i].used && !strcmp(jobs[i].name, name)) return &jobs[i];
  return NULL;
}

cJSON *review_start(const char *saves, const cJSON *b, int *code) {
  const char *name = jstr(b, "name", ""), *level = jstr(b, "level", "normal");
  char path[4400];
  if (!name_ok(name)) return fail(code, 400, "name: 1 to 40 letters, digits, '-' or '_'");
  if (strcmp(level, "normal") && strcmp(level, "easy") && strcmp(level, "sim"))
    return fail(code, 400, "level: normal, easy or sim");
  if (save_path(saves, name, path, sizeof path)) return fail(code, 404, "no saved game by that name");
  char dir[4400];
  struct stat st;
  if (!review_dir(saves, name, dir, sizeof dir) && lstat(dir, &st) == 0)
    return fail(code, 409,
                "NAME-review in the saves folder is not a folder of its own (a link?): not written "
                "through");
  int of = decisions_of(path);
  if (of < 0) return fail(code, 400, "cannot read the saved game");
  pthread_mutex_lock(&jobs_mu);
  Job *j = job_find(name);
  if (j && j->state == 1) { pthread_mutex_unlock(&jobs_mu); return review_status(saves, name, code); }
  if (j) pthread_join(j->thr, NULL);
  for (int i = 0; i < MAX_REVIEWS && !j; i++)
    if (!jobs[i].used || jobs[i].state != 1) {
      j = &jobs[i];
      if (j->used) pthread_join(j->thr, NULL);
    }
  if (!j) { pthread_mutex_unlock(&jobs_mu); return fail(code, 503, "reviews are running already; try again later"); }
  memset(j, 0, sizeof *j);
  j->used = j->state = 1;
  j->of = of;
  snprintf(j->name, sizeof j->name, "%s", name);
  snprintf(j->save, sizeof j->save, "%s", path);
  snprintf(j->out, sizeof j->out, "%s/%s-review", saves, name);
  j->o = (ReviewOpts){.save = j->save, .out = j->out, .sides = 0, .seed = 1, .threads = 1,
                      .evals = 256, .resume = 1, .quiet = 1};
  snprintf(j->o.spec, sizeof j->o.spec, "mcts:%s", level);
  snprintf(j->o.command, sizeof j->o.command, "./waterloo review %.400s --level %s --out %.400s", j->save,
           level, j->out);
  if (pthread_create(&j->thr, NULL, review_thread, j)) { j->used = 0; pthread_mutex_unlock(&jobs_mu); return fail(code, 500, "cannot start the review"); }
  pthread_mutex_unlock(&jobs_mu);
  return review_status(saves, name, code);
}

int review_replace(const char *saves, const char *name, int (*write)(void *), void *arg) {
  if (!name_ok(name)) return -1;
  pthread_mutex_lock(&jobs_mu);
  Job *j = job_find(name);
  if (j && j->state == 1) {
    pthread_mutex_unlock(&jobs_mu);
    return -2;
  }
  int rc = write(arg);
  if (rc) { /* the old save stays, and its review with it */
    pthread_mutex_unlock(&jobs_mu);
    return rc;
  }
  if (j) {
    pthread_join(j->thr, NULL);
    j->used = 0;
  }
  char dir[4400], path[4700];
  DIR *d = review_dir(saves, name, dir, sizeof dir) ? opendir(dir) : NULL;
  struct dirent *e;
  while (d && (e = readdir(d)))
    if (e->d_name[0] != '.') {
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      unlink(path);
    }
  if (d) closedir(d), rmdir(dir);
  pthread_mutex_unlock(&jobs_mu);
  return 0;
}

cJSON *review_status(const char *saves, const char *name, int *code) {
  if (!name_ok(name)) return fail(code, 400, "name: 1 to 40 letters, digits, '-' or '_'");
  char path[4400];
  snprintf(path, sizeof path, "%s/%s-review/review.journal", saves, name);
  int lines = 0, ch, prev = '\n';
  FILE *f = fopen(path, "r");
  for (; f && (ch = fgetc(f)) != EOF; prev = ch) lines += ch == 'D' && prev == '\n';
  if (f) fclose(f);
  snprintf(path, sizeof path, "%s/%s-review/review.json", saves, name);
  struct stat st;
  int have = stat(path, &st) == 0;
  pthread_mutex_lock(&jobs_mu);
  Job *j = job_find(name);
  int state = j ? j->state : have ? 2 : 0, of = j ? j->of : lines;
  pthread_mutex_unlock(&jobs_mu);
  static const char *const NAMES[] = {"none", "running", "done", "failed"};
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "state", NAMES[state]);
  cJSON_AddNumberToObject(o, "done", lines);
  cJSON_AddNumberToObject(o, "of", of);
  *code = 200;
  return o;
}
