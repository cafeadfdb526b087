/* One game and what its front ends share (front/session.h): the record, undo, the log. */
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "../ai/review.h"
#include "front_int.h"
#include "json.h"
#include "parse.h"

Player *session_player(const Session *S, const char *level, uint64_t seed, char *err, size_t len) {
  char spec[96];
  player_level_spec(level, spec, sizeof spec);
  Player *p = player_new(S->sc, spec, seed, err, len);
  if (!p) player_level_check(level, err, len); /* why, in the words typed */
  else player_set_interactive(p);              /* a person waits: the level's time cap (ai/README.md) */
  return p;
}

const char *session_hint_level(const Session *S) {
  const char *lv = S->level;
  return !strcmp(lv, "easy") || !strcmp(lv, "random") || !strcmp(lv, "heuristic") ? "normal" : lv;
}

/* the part every constructor shares once the scenario, record and position are set: the
 * human side, the level and the computer player (none without a human side) */
static int session_begin(Session *S, int human, const char *level, char *err, size_t len) {
  S->human = human;
  snprintf(S->level, sizeof S->level, "%s", level && *level ? level : "normal");
  seats_classic(&S->seats, S->sc, human, S->level);
  if (human == SESSION_NO_HUMAN) return 0;
  if (!(S->ai = session_player(S, S->level, S->seed * 7919u + 1, err, len))) {
    session_free(S);
    return -1;
  }
  return 0;
}

static int session_scen(Session *S, const char *scenario, const char *variants, char *err,
                        size_t len) {
  S->sc = malloc(sizeof *S->sc);
  if (!S->sc) abort();
  if (scen_load(S->sc, scen_default_dir(), scenario, variants, err, len)) {
    for (char *p = err; *p; p++)
      if (*p == '\n') *p = ';';
    free(S->sc);
    S->sc = NULL;
    return -1;
  }
  return 0;
}

uint64_t session_fresh_seed(void) {
  uint64_t seed;
  if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed) seed = (uint64_t)time(NULL);
  return seed % 1000000000u;
}

int session_new(Session *S, const char *scenario, const char *variants, uint64_t seed, int human,
                const char *level, char *err, size_t len) {
  memset(S, 0, sizeof *S);
  if (session_scen(S, scenario, variants && *variants ? variants : "base", err, len)) return -1;
  S->seed = seed;
  gamerec_init(&S->g, S->sc->scen_name, S->sc->variant_names, seed, 0);
  gs_init(S->sc, &S->s, seed, 0);
  return session_begin(S, human, level, err, len);
}

int session_from_position(Session *S, const char *text, int human, const char *level, char *err,
                          size_t len) {
  char scen[64], vars[512];
  memset(S, 0, sizeof *S);
  if (position_scenario(text, scen, sizeof scen, vars, sizeof vars)) {
    snprintf(err, len, "position: must start with the scenario and the variants");
    return -1;
  }
  if (session_scen(S, scen, vars, err, len)) return -1;
  if (position_parse(S->sc, text, &S->s, err, len) || state_validate(S->sc, &S->s, err, len)) {
    for (char *p = err; *p; p++)
      if (*p == '\n') *p = ';';
    free(S->sc);
    S->sc = NULL;
    return -1;
  }
  S->seed = 1;
  gamerec_init(&S->g, scen, vars, 1, 0);
  S->g.has_start = 1;
  S->g.start = S->s;
  return session_begin(S, human, level, err, len);
}

int session_load(Session *S, const char *path, int human, const char *level, char *err, size_t len) {
  return session_load_upto(S, path, human, level, -1, err, len);
}

int session_load_upto(Session *S, const char *path, int human, const char *level, long upto,
                      char *err, size_t len) {
  memset(S, 0, sizeof *S);
  S->sc = malloc(sizeof *S->sc);
  if (!S->sc) abort();
  GameRec g;
  State t;
  if (game_load(S->sc, scen_default_dir(), path, &g, &t, err, len)) {
    free(S->sc);
    S->sc = NULL;
    return -1;
  }
  S->seed = g.seed;
  if (session_begin(S, human, level, err, len)) {
    gamerec_free(&g);
    return -1;
  }
  /* the log of a loaded game: its actions as the human may see them, replayed from its start */
  S->g = g;
  S->g.n = 0;
  S->g.acts = NULL;
  S->g.cap = 0;
  gamerec_position(S->sc, &g, 0, &S->s);
  for (int i = 0; i < g.n && (upto < 0 || i < upto); i++)
    session_apply(S, g.acts[i], S->s.turn.decider == human);
  free(g.acts);
  /* with a human side, undo stays after the loaded actions; without, it may take them back */
  S->barrier = human == SESSION_NO_HUMAN ? 0 : S->g.n;
  S->loaded = S->g.n;
  return 0;
}

int session_saved_classic(const char *path, int *human, char *level, size_t len) {
  Scen *sc = malloc(sizeof *sc);
  if (!sc) abort();
  GameRec g;
  State t;
  char err[512];
  int rc = -1;
  if (!game_load(sc, scen_default_dir(), path, &g, &t, err, sizeof err)) {
    Seats st;
    rc = 0;
    if (g.seats[0] && !seats_parse_text(&st, sc, g.seats, "normal", 1, err, sizeof err)) {
      int side = seats_session_side(&st), ok = side == FRENCH || side == ALLIED;
      const char *lv = NULL;
      for (int k = 0; k < SEAT_COUNT && ok; k++)
        if (st.present[k] && !st.human[k]) {
          ok = seat_side(k) != side && (!lv || !strcmp(lv, st.level[k]));
          lv = st.level[k];
        }
      if (ok && lv) {
        *human = side;
        snprintf(level, len, "%s", lv);
        rc = 1;
      }
      seats_free(&st);
    }
    gamerec_free(&g);
  }
  free(sc);
  return rc;
}

int session_save(const Session *S, const char *path, char *err, size_t len) {
  GameRec g = S->g; /* with the seats as they are now */
  if (S->human != SESSION_NO_HUMAN) seats_text(&S->seats, g.seats, sizeof g.seats);
  return game_save(S->sc, &g, &S->s, path, err, len);
}

void session_free(Session *S) {
  if (S->ai) player_free(S->ai);
  seats_free(&S->seats);
  gamerec_free(&S->g);
  free(S->log);
  free(S->sc);
  memset(S, 0, sizeof *S);
}

static void battle_record(Session *S, const State *before, const State *after, int index) {
  battle_fill(S->sc, before, after, &S->battle);
  S->battle.index = index;
}

void session_apply(Session *S, Action a, int by_human) {
  const Scen *sc = S->sc;
  State before = S->s;
  LogEntry e;
  memset(&e, 0, sizeof e);
  e.index = S->g.n;
  e.turn = before.turn.number;
  e.phase = before.turn.phase;
  e.side = before.turn.decider;
  e.by_human = by_human;
  e.cont = S->in_move > 1;
  if (S->in_move) S->in_move++;
  if (S->human == SESSION_NO_HUMAN || gs_action_public(sc, &before, a, S->human)) {
    action_format(sc, &before, a, e.text, sizeof e.text);
    cJSON *j = action_json(sc, &before, a);   /* the structured action beside its text */
    if (!cJSON_PrintPreallocated(j, e.act, sizeof e.act, 0)) e.act[0] = 0;
    cJSON_Delete(j);
  } else snprintf(e.text, sizeof e.text, "(a secret choice)");
  gs_apply(sc, &S->s, a);
  gamerec_push(&S->g, a);
  const State *after = &S->s;
  /* undo stays within the human's own decisions: never past the computer's action, a random
   * event, a new turn or a card of the other side seen (without a human side: no barrier) */
  if (S->human == SESSION_NO_HUMAN) {
  } else if (before.turn.decider != S->human || !by_human ||
             memcmp(&before.rng, &after->rng, sizeof before.rng) ||
             before.turn.number != after->turn.number ||
             (after->cards.seen & ~before.cards.seen & side_cards_mask(sc, !S->human)))
    S->barrier = S->g.n;
  if (card_phase_done(&before, after)) battle_record(S, &before, after, e.index);
  action_events(sc, &before, a, after, S->human, e.events, sizeof e.events);
  if (S->nlog == S->caplog) {
    S->caplog = S->caplog ? 2 * S->caplog : 64;
    S->log = realloc(S->log, (size_t)S->caplog * sizeof *S->log);
    if (!S->log) abort();
  }
  S->log[S->nlog++] = e;
}

/* the action undo goes back to, and the position before it; -1 if none */
static int undo_target(const Session *S, State *at) {
  if (S->human == SESSION_NO_HUMAN) {       /* exactly one action */
    if (S->g.n <= S->barrier) return -1;
    gamerec_position(S->sc, &S->g, S->g.n - 1, at);
    return S->g.n - 1;
  }
  State t;
  gamerec_position(S->sc, &S->g, S->barrier, &t);
  int target = -1;
  for (int k = S->barrier; k < S->g.n; k++) {
    if (gs_decider(&t) == S->human && !(k < S->nlog && S->log[k].cont)) target = k, *at = t;
    gs_apply(S->sc, &t, S->g.acts[k]);
  }
  return target;
}

int session_undo(Session *S) {
  State at;
  int target = undo_target(S, &at);
  if (target < 0) return -1;
  S->g.n = target;
  S->s = at;
  while (S->nlog > 0 && S->log[S->nlog - 1].index >= target) S->nlog--;
  if (S->battle.valid && S->battle.index >= target) S->battle.valid = 0;
  return target;
}

const char *session_no_undo_why(const Session *S) {
  for (int i = 0; i < S->nlog; i++)
    if (S->log[i].by_human && S->log[i].index >= S->loaded)
      return "a card was revealed, chance was drawn or the computer has acted since your last decision";
  return S->loaded ? "you have made no decision since the game was loaded (its saved moves stay)"
                   : "you have made no decision yet";
}

/* the steps of one destination move by the side to decide, until the move ends, the game ends
 * or another decision (or side) interrupts it; the later steps are undone with the first */
static int play_path(Session *S, const Action *path, int n, int by_human) {
  int side = gs_decider(&S->s), k = 0;
  S->in_move = 1;
  for (; k < n && !gs_over(&S->s) && gs_decider(&S->s) == side && gs_is_legal(S->sc, &S->s, path[k]); k++)
    session_apply(S, path[k], by_human);
  S->in_move = 0;
  return k;
}

int session_move_to(Session *S, int u, int sq, int f, char *err, size_t len) {
  if (!session_humans_turn(S) || S->s.turn.phase != PH_MOVE) {
    snprintf(err, len, "no movement card is being played by you now");
    return -1;
  }
  if (u < 0 || u >= S->sc->nunits || sq < 0 || sq >= NSQ || f < 0 || f > 3) {
    snprintf(err, len, "bad unit, square or facing");
    return -1;
  }
  Reach *r = malloc(sizeof *r);
  if (!r) abort();
  gs_reach(S->sc, &S->s, u, r);
  int n = r->npath[sq][f];
  if (r->cost[sq][f] == 255 || n == 0 || n > REACH_PATH) {
    free(r);
    snprintf(err, len, "%s cannot reach that square and facing now", S->sc->unit[u].name);
    return -1;
  }
  play_path(S, r->path[sq][f], n, 1);
  free(r);
  return 0;
}

int session_play_text(Session *S, const char *text, int by_human, char *err, size_t len, char *derr,
                      size_t dlen) {
  Action a, path[REACH_PATH];
  derr[0] = 0;
  if (!action_parse(S->sc, &S->s, text, &a, err, len)) {
    session_apply(S, a, by_human);
    return 1;
  }
  /* "move UNIT SQUARE": the destination's own error in every phase (no such unit, no
   * movement card being played, cannot reach), not only the notation's */
  if (strncmp(text, "move", 4) || (text[4] != ' ' && strncmp(text + 4, "to ", 3))) return -1;
  int n = destination_parse(S->sc, &S->s, text, path, derr, dlen);
  return n > 0 ? play_path(S, path, n, by_human) : -1;
}

int session_play_index(Session *S, long k, int by_human) {
  ActList *L = malloc(sizeof *L);
  if (!L) abort();
  gs_legal(S->sc, &S->s, L);
  int ok = k >= 0 && k < L->n;
  if (ok) session_apply(S, L->a[k], by_human);
  free(L);
  return ok ? 0 : -1;
}

void session_board(const Session *S, FILE *f, int color) {
  char d[256];
  board_print(S->sc, &S->s, f, color);
  gs_describe(S->sc, &S->s, d, sizeof d);
  fputs(d, f);
}

size_t session_events(const Session *S, int first, char *buf, size_t len) {
  size_t n = 0;
  buf[0] = 0;
  for (int i = first < 0 ? 0 : first; i < S->nlog; i++) {
    if (!S->log[i].events[0]) continue;
    n = strlen(buf);
    snprintf(buf + n, len - n, "%s%s", n ? "; " : "", S->log[i].events);
  }
  return strlen(buf);
}

Action session_computer_choice(const Session *S, const State *s) {
  ActList *L = malloc(sizeof *L);
  if (!L) abort();
  gs_legal(S->sc, s, L);
  Action a = L->n == 1 ? L->a[0] : player_act(session_seat_ai(S, s), s);
  free(L);
  return a;
}

Action session_computer_think(const Session *S, const State *s, char *why, size_t len) {
  if (len) why[0] = 0;
  ActList *L = malloc(sizeof *L);
  if (!L) abort();
  int forced = gs_legal(S->sc, s, L) == 1;
  Player *ai = session_seat_ai(S, s);
  Action a = forced ? L->a[0] : player_act(ai, s);
  free(L);
  if (forced) return a;
  Candidate c[4];
  int n = player_analyze(ai, s, c, 4), k = -1;
  for (int i = 0; i < n; i++)
    if (!memcmp(&c[i].a, &a, sizeof a)) k = i;
  if (k > 0) { Candidate t = c[0]; c[0] = c[k]; c[k] = t; }
  if (k < 0) { c[0].a = a; n = 1; c[0].winrate = 0.5; c[0].share = 1; }
  if (k < 0) reason_action(S->sc, s, a, 1, why, len);
  else reason_choice(S->sc, s, c, n, 1, why, len);
  return a;
}

void session_note_why(Session *S, const char *why) {
  if (S->nlog > 0 && why) snprintf(S->log[S->nlog - 1].why, sizeof S->log[0].why, "%s", why);
}
