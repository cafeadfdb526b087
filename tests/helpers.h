/* Shared helpers of the engine tests (tests/rules/, test_engine.c): load a scenario, build a
 * position by hand, find and apply actions with assertions, drive a battle through its phases.
 *
 * Positions are built the same way in every test: gs_init, then edit the State
 * directly (squares, flags, hands, phase) and rebuild the square table.  Every helper that
 * writes units.sq calls gs_rebuild_occ itself. */
#ifndef WATERLOO_TEST_HELPERS_H
#define WATERLOO_TEST_HELPERS_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../engine/engine.h"
#include "../engine/driver.h"
#include "../ai/ai_bench.h"
#include "../ai/player.h"

/* ---------------------------------------------------------------- loading, names */
static inline Scen *th_load(const char *scen, const char *variants) {
  Scen *sc = malloc(sizeof *sc);
  char err[1024];
  cr_assert(sc);
  int rc = scen_load(sc, "scenarios", scen, variants, err, sizeof err);
  cr_assert_eq(rc, 0, "scen_load %s/%s: %s", scen, variants, err);
  return sc;
}

static inline Scen *th_load_dir(const char *dir, const char *scen, const char *variants) {
  Scen *sc = malloc(sizeof *sc);
  char err[1024];
  cr_assert(sc);
  int rc = scen_load(sc, dir, scen, variants, err, sizeof err);
  cr_assert_eq(rc, 0, "scen_load %s %s/%s: %s", dir, scen, variants, err);
  return sc;
}

static inline int th_sq(const Scen *sc, const char *name) {
  int sq = scen_square(sc, name);
  cr_assert(sq >= 0 && sq < NSQ, "no square %s", name);
  return sq;
}

static inline int th_unit(const Scen *sc, const char *name) {
  int u = scen_unit(sc, name);
  cr_assert(u >= 0, "no unit %s", name);
  return u;
}

static inline int th_card(const Scen *sc, const char *id) {
  int c = scen_card(sc, id);
  cr_assert(c >= 0, "no card %s", id);
  return c;
}

static inline uint64_t th_bit(const Scen *sc, const char *id) { return 1ull << th_card(sc, id); }

/* the neighbour of a named square in direction d */
static inline int th_nb(const Scen *sc, const char *name, int d) { return sc->nb[th_sq(sc, name)][d]; }

/* ---------------------------------------------------------------- the program as a user runs it */
/* runs `sh -c cmd` (./waterloo built before the tests); its exit status, and what it printed
 * (stdout and stderr) in out: the first len - 1 bytes, the rest read and dropped, so that a long
 * output never ends the program by a broken pipe */
static inline int th_sh(const char *cmd, char *out, size_t len) {
  char full[4096], rest[4096];
  snprintf(full, sizeof full, "%s 2>&1", cmd);
  FILE *p = popen(full, "r");
  cr_assert_not_null(p, "cannot run %s", cmd);
  size_t n = fread(out, 1, len - 1, p);
  out[n] = 0;
  while (fread(rest, 1, sizeof rest, p) > 0) continue;
  int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* ./waterloo engine reading its commands from the file script: th_sh's exit status and output */
static inline int th_engine_file(const char *script, char *out, size_t len) {
  char cmd[600];
  snprintf(cmd, sizeof cmd, "./waterloo engine < %s", script);
  return th_sh(cmd, out, len);
}

/* a whole file in a new buffer (the caller frees it), NUL-terminated, its length in *len when
 * len is not NULL; NULL when it cannot be read */
static inline char *th_slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)(n < 0 ? 0 : n) + 1);
  cr_assert_not_null(s);
  size_t got = fread(s, 1, (size_t)(n < 0 ? 0 : n), f);
  s[got] = 0;
  fclose(f);
  if (len) *len = got;
  return s;
}

/* ---------------------------------------------------------------- random games */
/* a uniform random policy on the game driver that calls f(sc, position, arg) before every
 * action (and on the last position), asserting that a legal action always exists */
typedef struct {
  const Scen *sc;
  Rng pol;
  void (*f)(const Scen *, const State *, void *);
  void *arg;
} ThRandom;

static inline Action th_random_choose(void *ctx, const State *s, const ActList *L) {
  ThRandom *t = ctx;
  cr_assert_gt(L->n, 0, "no legal action in phase %s", phase_name(s->turn.phase));
  if (t->f) t->f(t->sc, s, t->arg);
  return L->a[rng_below(&t->pol, (uint32_t)L->n)];
}

/* plays s (already set up) to the end with the policy stream (pseed, pstream); returns the
 * number of actions */
static inline long th_random_play(const Scen *sc, State *s, uint64_t pseed, uint64_t pstream,
                                  void (*f)(const Scen *, const State *, void *), void *arg) {
  ThRandom t = {.sc = sc, .f = f, .arg = arg};
  rng_seed(&t.pol, pseed, pstream);
  GameHooks h = {.choose = th_random_choose, .ctx = &t, .want_legal = 1, .max_actions = 200000};
  long n = game_run(sc, s, &h);
  cr_assert_geq(n, 0, "game does not end");
  if (f) f(sc, s, arg);
  return n;
}

/* ---------------------------------------------------------------- computer players' games */
/* games of scen between n computer players (specs[k], made for game g with seed pseed[k] + g);
 * game g starts from gs_init(gseed + g, g), and at each position pick(g, s) names the player
 * whose action is played.  ask_all: every player is asked at every position (and each answer
 * must be legal), else only the picked one.  Every game ends within 50,000 actions. */
typedef struct {
  Player *p[4];
  const char *const *specs;
  int n, g, ask_all;
  const Scen *sc;
  int (*pick)(int g, const State *s);
} ThPlayers;

static inline Action th_players_choose(void *ctx, const State *s, const ActList *L) {
  (void)L;
  ThPlayers *t = ctx;
  int k = t->pick(t->g, s);
  Action a[4];
  for (int i = 0; i < t->n; i++) {
    if (!t->ask_all && i != k) continue;
    a[i] = player_act(t->p[i], s);
    cr_assert(gs_is_legal(t->sc, s, a[i]), "%s: illegal action in phase %s", t->specs[i],
              phase_name(s->turn.phase));
  }
  return a[k];
}

static inline void th_player_games(const char *scen, int games, const char *const *specs, int n,
                                   const uint64_t *pseed, uint64_t gseed, int ask_all,
                                   int (*pick)(int g, const State *s)) {
  Scen *sc = th_load(scen, "base");
  char err[200];
  cr_assert_leq(n, 4);
  for (int g = 0; g < games; g++) {
    ThPlayers t = {.specs = specs, .n = n, .g = g, .ask_all = ask_all, .sc = sc, .pick = pick};
    for (int k = 0; k < n; k++) {
      t.p[k] = player_new(sc, specs[k], pseed[k] + (uint64_t)g, err, sizeof err);
      cr_assert_not_null(t.p[k], "%s", err);
    }
    State s;
    gs_init(sc, &s, gseed + (uint64_t)g, (uint64_t)g);
    GameHooks h = {.choose = th_players_choose, .ctx = &t, .max_actions = 49999};
    cr_assert_geq(game_run(sc, &s, &h), 0, "game does not end");
    for (int k = 0; k < n; k++) player_free(t.p[k]);
  }
  free(sc);
}

/* ai_honesty_check of spec on npairs positions of a scenario (base variants): the number of
 * pairs of worlds with the same observation on which the player decided differently */
static inline int th_honesty(const char *scen, const char *spec, uint64_t seed, int npairs) {
  Scen *sc = th_load(scen, "base");
  int r = ai_honesty_check(sc, spec, seed, npairs);
  free(sc);
  return r;
}

/* ---------------------------------------------------------------- edited scenario data */
/* A private copy of scenarios/ in a new temporary directory (path written to dir). */
static inline void th_tmpdir(char *dir, size_t len) {
  snprintf(dir, len, "/tmp/waterloo-test-XXXXXX");
  cr_assert(mkdtemp(dir) != NULL, "mkdtemp");
  char cmd[512];
  snprintf(cmd, sizeof cmd, "cp -r scenarios/. '%s'/", dir);
  cr_assert_eq(system(cmd), 0, "%s", cmd);
}

static inline void th_rmdir(const char *dir) {
  char cmd[512];
  cr_assert(!strncmp(dir, "/tmp/waterloo-test-", 19));
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  cr_assert_eq(system(cmd), 0);
}

static inline void th_write(const char *dir, const char *file, const char *text) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  FILE *f = fopen(path, "w");
  cr_assert(f, "cannot write %s", path);
  fputs(text, f);
  fclose(f);
}

enum { TH_REPLACE = 0, TH_BEFORE = 1 };
/* Edit dir/file: the first line that starts with `prefix` is replaced by `line` (TH_REPLACE), or
 * `line` is inserted before it (TH_BEFORE).  Returns the 1-based number of the new line. */
static inline int th_edit(const char *dir, const char *file, const char *prefix, const char *line,
                          int mode) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  FILE *f = fopen(path, "r");
  cr_assert(f, "cannot read %s", path);
  static __thread char buf[1 << 17];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  f = fopen(path, "w");
  cr_assert(f);
  int lineno = 0, found = 0;
  size_t plen = strlen(prefix);
  for (char *p = buf; *p;) {
    char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
    lineno++;
    if (!found && !strncmp(p, prefix, plen)) {
      found = lineno;
      fprintf(f, "%s\n", line);
      if (mode == TH_BEFORE) fwrite(p, 1, len, f);
    } else {
      fwrite(p, 1, len, f);
    }
    p += len;
  }
  fclose(f);
  cr_assert(found, "%s: no line starts with '%s'", path, prefix);
  return found;
}

/* ---------------------------------------------------------------- building positions */
/* An empty board: every unit gone (Prussians waiting off the map), no cards anywhere, the
 * leaders parked in the far corners (Napoleon A13, Wellington R1), no battle, no interrupt. */
static inline void th_clear(const Scen *sc, State *s) {
  for (int u = 0; u < sc->nunits; u++) {
    s->units.sq[u] = sc->unit[u].army == ARMY_PR ? SQ_OFF : SQ_DEAD;
    s->units.flag[u] = 0;
  }
  s->units.leader[0] = (uint8_t)th_sq(sc, "A13");
  s->units.leader[1] = (uint8_t)th_sq(sc, "R1");
  s->cards.hand = s->cards.discard = s->cards.seen = s->cards.pend = s->cards.pend_cmd =
      s->cards.pend_elite = 0;
  s->interrupt.leader_pending = 0;
  s->interrupt.evaders = 0;
  s->interrupt.return_phase = 0;
  gs_rebuild_occ(sc, s);
}

/* a fresh game of `scen` with an empty board */
static inline void th_empty(const Scen *sc, State *s, uint64_t seed) {
  gs_init(sc, s, seed, 0);
  th_clear(sc, s);
}

/* put a unit on a square with a facing (clears its flags) */
static inline int th_put(const Scen *sc, State *s, const char *unit, const char *sq, int facing) {
  int u = th_unit(sc, unit);
  s->units.sq[u] = (uint8_t)th_sq(sc, sq);
  s->units.flag[u] = (uint8_t)(facing & 3);
  gs_rebuild_occ(sc, s);
  gs_set_holder(sc, s, s->units.sq[u], unit_side(sc, u)); /* ruling: it holds it */
  return u;
}

static inline void th_leader(const Scen *sc, State *s, int l, const char *sq) {
  s->units.leader[l] = (uint8_t)th_sq(sc, sq);
}

/* add cards to the hands: "F01 F04 B10" */
static inline void th_give(const Scen *sc, State *s, const char *ids) {
  char buf[256], *save = NULL;
  snprintf(buf, sizeof buf, "%s", ids);
  for (char *t = strtok_r(buf, " ,", &save); t; t = strtok_r(NULL, " ,", &save)) {
    uint64_t b = th_bit(sc, t);
    s->cards.hand |= b;
    s->cards.discard &= ~b;
    s->cards.seen &= ~b;
    s->cards.pend &= ~b;
  }
}

/* the start of a round of `side`, no card played yet */
static inline void th_round(State *s, int side) {
  s->turn.phase = PH_ROUND;
  s->turn.decider = s->turn.active = (uint8_t)side;
  s->turn.ncards = 0;
  s->play.card = CARD_NONE;
  s->turn.round_army = 0;
  s->turn.last_pass = 0;
  s->first_round = 0;
  s->play.moving = UNIT_NONE;
  s->play.evade_stop = 0;
  s->play.mp = 0;
}

/* ---------------------------------------------------------------- actions */
static inline Action th_a(int t, int a, int b, int c) { return act_raw(t, a, b, c); }

static inline int th_legal(const Scen *sc, const State *s, int t, int a, int b, int c) {
  return gs_is_legal(sc, s, th_a(t, a, b, c));
}

/* how many legal actions of kind t (and, when a >= 0, with that first operand) */
static inline int th_count(const Scen *sc, const State *s, int t, int a) {
  ActList *L = malloc(sizeof *L);
  gs_legal(sc, s, L);
  int n = 0;
  for (int i = 0; i < L->n; i++)
    if (L->a[i].t == t && (a < 0 || L->a[i].a == a)) n++;
  free(L);
  return n;
}

/* describe the legal actions (for failure messages) */
static inline const char *th_legal_text(const Scen *sc, const State *s) {
  static __thread char out[4096];
  ActList *L = malloc(sizeof *L);
  gs_legal(sc, s, L);
  size_t n = (size_t)snprintf(out, sizeof out, "[%s, decider %d]", phase_name(s->turn.phase),
                              s->turn.decider);
  for (int i = 0; i < L->n && n < sizeof out - 64; i++) {
    char b[96];
    action_format(sc, s, L->a[i], b, sizeof b);
    n += (size_t)snprintf(out + n, sizeof out - n, " | %s", b);
  }
  free(L);
  return out;
}

/* assert legal, then apply */
#define TH_DO(sc, s, t, a, b, c)                                                              \
  do {                                                                                        \
    Action th_x_ = th_a((t), (a), (b), (c));                                                  \
    cr_assert(gs_is_legal((sc), (s), th_x_), "action %d(%d,%d,%d) not legal; legal: %s", (t), \
              (a), (b), (c), th_legal_text((sc), (s)));                                       \
    gs_apply((sc), (s), th_x_);                                                               \
  } while (0)

/* decline any artillery reaction window of the non-active side */
static inline void th_skip_react(const Scen *sc, State *s) {
  while (s->turn.phase == PH_REACT) gs_apply(sc, s, th_a(A_NOFIRE, 0, 0, 0));
}

/* The active side plays `card` for movement and is in the movement phase. */
static inline void th_play_move(const Scen *sc, State *s, const char *card) {
  int c = th_card(sc, card);
  TH_DO(sc, s, A_PLAY_MOVE, c, 0, 0);
  cr_assert_eq(s->turn.phase, PH_MOVE);
  cr_assert_eq(s->play.mp, sc->card[c].mp);
}
/* a French round with card in hand, played for movement: the French to move */
static inline void th_french_move(const Scen *sc, State *s, const char *card) {
  th_give(sc, s, card);
  th_round(s, FRENCH);
  th_play_move(sc, s, card);
}

/* A battle right of `side` with a card of `army` (as after a movement card that moved
 * nothing): the declare phase, one card counted. */
static inline void th_declare_phase(State *s, int side, int army) {
  th_round(s, side);
  s->turn.phase = PH_DECLARE;
  s->play.army = (uint8_t)army;
  s->turn.ncards = 1;
  s->play.after_battle = PH_REACT;
}

/* commit battle cards: "F01 F07:c F19:e" (":c" command, ":e" elite, else battle points),
 * in the increasing card order the engine asks for */
static inline void th_bcards(const Scen *sc, State *s, const char *ids) {
  int cards[16], purpose[16], n = 0;
  char buf[256], *save = NULL;
  snprintf(buf, sizeof buf, "%s", ids ? ids : "");
  for (char *t = strtok_r(buf, " ,", &save); t && n < 16; t = strtok_r(NULL, " ,", &save)) {
    char *colon = strchr(t, ':');
    purpose[n] = BP_POINTS;
    if (colon) {
      purpose[n] = colon[1] == 'c' ? BP_COMMAND : colon[1] == 'e' ? BP_ELITE : BP_POINTS;
      *colon = 0;
    }
    cards[n++] = th_card(sc, t);
  }
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && cards[j] < cards[j - 1]; j--) {
      int t = cards[j]; cards[j] = cards[j - 1]; cards[j - 1] = t;
      t = purpose[j]; purpose[j] = purpose[j - 1]; purpose[j - 1] = t;
    }
  for (int i = 0; i < n; i++) TH_DO(sc, s, A_BCARD, cards[i], purpose[i], 0);
  TH_DO(sc, s, A_BDONE, 0, 0, 0);
}

/* From the declare phase: declare against def_sq from the directions in mask, decline the
 * defender's artillery, play the attacker's then the defender's cards (NULL: the side has no
 * card phase, e.g. an empty hand), and leave the state right after the resolution. */
static inline void th_battle(const Scen *sc, State *s, int def_sq, int mask, const char *att,
                             const char *def) {
  TH_DO(sc, s, A_DECLARE, def_sq, mask, 0);
  if (s->turn.phase == PH_B_FIRE) TH_DO(sc, s, A_NOFIRE, 0, 0, 0);
  if (s->turn.phase == PH_B_ATTCARDS) th_bcards(sc, s, att);
  else
    cr_assert(att == NULL || !*att, "attacker had no card phase (%s)", phase_name(s->turn.phase));
  if (s->turn.phase == PH_B_DEFCARDS) th_bcards(sc, s, def);
  else
    cr_assert(def == NULL || !*def, "defender had no card phase (%s)", phase_name(s->turn.phase));
}

/* direction bit */
#define DB(d) (1 << (d))

/* the invariant check holds */
static inline void th_check(const Scen *sc, const State *s) {
  char why[256];
  cr_assert_eq(gs_check(sc, s, why, sizeof why), 0, "gs_check: %s", why);
}

#endif
