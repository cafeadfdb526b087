/* A human-vs-computer game and its JSON forms (see session.h and docs/API.md). */
#include "session.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/cli.h"
#include "../ai/review.h"

static const char *VNAMES[V_COUNT] = {"Mont St. Jean", "Hougoumont", "La Haye Sainte",
                                      "Frischermont", "Plancenoit", "Plancenoit", "Plancenoit"};
static const char *KIND[A_COUNT] = {
    "none",   "end",     "play_move", "artillery", "charge", "force_charge", "rally",
    "restore", "health", "step",      "turn",      "leader", "enter",        "done",
    "declare", "noattack", "battle_card", "battle_done", "nofire", "reduce", "retreat",
    "castle_point", "advance", "lose", "evade", "noevade", "place", "bid", "rally_done"};
static const char *PURPOSE[3] = {"points", "command", "elite"};

/* ---------------------------------------------------------------- the session */
Player *session_player(const Session *S, const char *level, uint64_t seed, char *err, size_t len) {
  char spec[96];
  cli_level_spec(level, spec, sizeof spec);
  return player_new(S->sc, spec, seed, err, len);
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
  for (int i = 0; i < g.n; i++) session_apply(S, g.acts[i], S->s.turn.decider == human);
  free(g.acts);
  /* with a human side, undo stays after the loaded actions; without, it may take them back */
  S->barrier = human == SESSION_NO_HUMAN ? 0 : S->g.n;
  return 0;
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

static void cards_text(const Scen *sc, uint64_t m, uint64_t cmd, uint64_t elite, char *buf,
                       size_t len) {
  size_t n = 0;
  buf[0] = 0;
  if (!m) snprintf(buf, len, "none");
  for (; m; m &= m - 1) {
    int c = __builtin_ctzll(m);
    const CardDef *d = &sc->card[c];
    if ((cmd >> c) & 1)
      n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s \"%s\" (command +%d/+%d)",
                            n ? ", " : "", d->id, d->name, d->cmd_att, d->cmd_def);
    else if ((elite >> c) & 1)
      n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s \"%s\" (elite)", n ? ", " : "",
                            d->id, d->name);
    else
      n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s \"%s\" (%d BP)", n ? ", " : "",
                            d->id, d->name, d->bp);
  }
}

/* each attacker's own share of the total before cards (its BP with its multipliers: terrain,
 * edges, flank or rear, charge, leader), by direction from the defender; -1 unused */
static void attacker_values(const Scen *sc, const State *s, int def_sq, int mask, int vals[4]) {
  for (int d = 0; d < 4; d++) {
    vals[d] = -1;
    if (!(mask & (1 << d))) continue;
    int a, df;
    battle_base_totals(sc, s, def_sq, 1 << d, &a, &df);
    vals[d] = a;
  }
}

static cJSON *values_json(const Scen *sc, const State *s, int def_sq, int mask) {
  int v[4];
  char why[4][64], defwhy[64];
  attacker_values(sc, s, def_sq, mask, v);
  battle_reasons(sc, s, def_sq, mask, why, defwhy);
  cJSON *arr = cJSON_CreateArray();
  for (int d = 0; d < 4; d++) {
    if (v[d] < 0) continue;
    int u = unit_at(sc, s, sc->nb[def_sq][d]);
    if (u == UNIT_NONE) continue;
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "unit", sc->unit[u].name);
    cJSON_AddNumberToObject(x, "bp", unit_bp(sc, s, u));
    cJSON_AddNumberToObject(x, "value", v[d]);
    cJSON_AddStringToObject(x, "why", why[d]);
    cJSON_AddItemToArray(arr, x);
  }
  return arr;
}

/* why the defender counts what it does before cards (terrain, castle), "" when as printed */
static cJSON *defender_why_json(const Scen *sc, const State *s, int def_sq, int mask) {
  char why[4][64], defwhy[64];
  battle_reasons(sc, s, def_sq, mask, why, defwhy);
  return cJSON_CreateString(defwhy);
}

static int card_phase_done(const State *before, const State *after) {
  int card_phase = before->turn.phase == PH_B_ATTCARDS || before->turn.phase == PH_B_DEFCARDS;
  int still = after->turn.phase == PH_B_ATTCARDS || after->turn.phase == PH_B_DEFCARDS;
  return card_phase && !still && before->battle.def_unit != UNIT_NONE;
}

/* the battle just revealed, as both sides now see it */
static void battle_fill(const Scen *sc, const State *before, const State *after, BattleRec *b) {
  uint64_t rev = before->cards.pend & after->cards.seen & ~before->cards.seen;
  memset(b, 0, sizeof *b);
  b->valid = 1;
  b->att_side = before->battle.att_side;
  b->kind = before->battle.kind;
  b->def_unit = before->battle.def_unit;
  b->def_sq = before->battle.def_sq;
  int mask = 0;
  for (int k = 0; k < 4; k++) {
    b->att[k] = before->battle.att[k] == UNIT_NONE ? -1 : before->battle.att[k];
    mask |= before->battle.att[k] != UNIT_NONE ? 1 << k : 0;
  }
  battle_base_totals(sc, before, before->battle.def_sq, mask, &b->base_att, &b->base_def);
  attacker_values(sc, before, before->battle.def_sq, mask, b->att_val);
  battle_reasons(sc, before, before->battle.def_sq, mask, b->att_why, b->def_why);
  for (int k = 0; k < 4; k++) b->att_bp[k] = b->att[k] >= 0 ? unit_bp(sc, before, b->att[k]) : 0;
  b->def_bp = unit_bp(sc, before, before->battle.def_unit);
  b->cards_att = rev & side_cards_mask(sc, before->battle.att_side);
  b->cards_def = rev & side_cards_mask(sc, !before->battle.att_side);
  b->cmd = before->cards.pend_cmd & rev;
  b->elite = before->cards.pend_elite & rev;
  b->total_att = after->battle.att_total;
  b->total_def = after->battle.def_total;
  snprintf(
      b->outcome, sizeof b->outcome, "%s",
      after->battle.att_total > 2 * after->battle.def_total   ? "attacker wins by more than double"
      : after->battle.att_total > after->battle.def_total     ? "attacker wins"
      : after->battle.def_total > 2 * after->battle.att_total ? "defender wins by more than double"
                                                              : "defender holds");
}

static void battle_record(Session *S, const State *before, const State *after, int index) {
  battle_fill(S->sc, before, after, &S->battle);
  S->battle.index = index;
}

int action_events(const Scen *sc, const State *before_, Action a, const State *after, int viewer,
                  char *out, size_t outlen) {
  const State before = *before_;
  size_t n = 0;
  char buf[512];
  out[0] = 0;
#define ADD(...) (n += (size_t)snprintf(out + n, n < outlen ? outlen - n : 0, __VA_ARGS__))
  if (before.turn.phase == PH_BID && after->turn.phase != PH_BID) {
    for (int side = 0; side < 2; side++) {
      int c = before.turn.bid_card[side];
      if (side == before.turn.decider) c = a.t == A_BID ? a.bid.card : c;
      if (c != CARD_NONE && c < sc->ncards)
        ADD("%s bid %s \"%s\" (MP %d); ", side_name(side), sc->card[c].id, sc->card[c].name, sc->card[c].mp);
      else ADD("%s bid no card; ", side_name(side));
    }
    ADD("the %s go first; ", side_name(after->turn.first));
  }
  if (card_phase_done(&before, after)) {
    BattleRec br, *b = &br;
    battle_fill(sc, &before, after, b);
    cards_text(sc, b->cards_att, b->cmd, b->elite, buf, sizeof buf);
    ADD("cards revealed: attacker (%s) %s; ", side_name(b->att_side), buf);
    cards_text(sc, b->cards_def, b->cmd, b->elite, buf, sizeof buf);
    ADD("defender (%s) %s; before cards %d against %d; ", side_name(!b->att_side), buf, b->base_att,
        b->base_def);
  }
  if (a.t == A_HEALTH) {
    uint64_t disc =
        after->cards.discard & ~before.cards.discard & sc->army_cards[ARMY_FR] & ~after->cards.seen;
    if (viewer == FRENCH) {
      cards_text(sc, disc, 0, 0, buf, sizeof buf);
      ADD("Napoleon's health: the French discard %s; ", buf);
    } else {
      ADD("Napoleon's health: the French discard %d card%s at random, unseen; ", __builtin_popcountll(disc),
          __builtin_popcountll(disc) == 1 ? "" : "s");
    }
  }
  if (gs_event_text(sc, &before, after, buf, sizeof buf)) ADD("%s; ", buf);
  if (after->turn.number != before.turn.number && !gs_over(after))
    ADD("turn %d begins; ", after->turn.number);
  if (gs_over(after)) {
    gs_describe(sc, after, buf, sizeof buf);
    ADD("%s; ", buf);
  }
#undef ADD
  size_t k = strlen(out);
  if (k >= 2) out[k - 2] = 0;
  return out[0] != 0;
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
  if (strncmp(text, "move", 4) || S->s.turn.phase != PH_MOVE) return -1;
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

int destination_parse(const Scen *sc, const State *s, const char *text, Action *path, char *err,
                      size_t len) {
  char verb[16], un[32], sqs[8], fs[8] = "";
  int k = sscanf(text, " %15s %31s %7s %7s", verb, un, sqs, fs);
  if (k < 3 || (strcmp(verb, "move") && strcmp(verb, "moveto"))) {
    snprintf(err, len, "a destination move is: move UNIT SQUARE [N|E|S|W]");
    return -1;
  }
  int u = scen_unit(sc, un), sq = scen_square(sc, sqs);
  for (char *p = sqs; *p; p++) *p = (char)toupper((unsigned char)*p);
  if (sq < 0) sq = scen_square(sc, sqs);
  int f = -1;
  if (k == 4) {
    const char *d = strlen(fs) == 1 ? strchr("NESWnesw", fs[0]) : NULL;
    if (!d) {
      snprintf(err, len, "'%s' is not a facing (N, E, S or W)", fs);
      return -1;
    }
    f = (int)(d - "NESWnesw") % 4;
  }
  if (u < 0 || sq < 0 || sq >= NSQ) {
    snprintf(err, len, "%s: no such %s", u < 0 ? un : sqs, u < 0 ? "unit" : "square");
    return -1;
  }
  if (s->turn.phase != PH_MOVE) {
    snprintf(err, len, "no movement card is being played now");
    return -1;
  }
  Reach *r = malloc(sizeof *r);
  if (!r) abort();
  gs_reach(sc, s, u, r);
  if (f < 0) {
    int own = s->units.flag[u] & UF_FACING;
    for (int d = 0; d < 4; d++)
      if (r->cost[sq][d] != 255 && r->npath[sq][d] &&
          (f < 0 || r->cost[sq][d] < r->cost[sq][f] || (r->cost[sq][d] == r->cost[sq][f] && d == own)))
        f = d;
  }
  int n = f >= 0 && r->cost[sq][f] != 255 ? r->npath[sq][f] : 0;
  if (n <= 0 || n > REACH_PATH) {
    free(r);
    snprintf(err, len, "%s cannot reach %s%s%s with %d MP now", sc->unit[u].name, sqs,
             k == 4 ? " facing " : "", k == 4 ? fs : "", s->play.mp);
    return -1;
  }
  memcpy(path, r->path[sq][f], (size_t)n * sizeof *path);
  free(r);
  return n;
}

static int edit_distance(const char *a, const char *b) {
  int la = (int)strlen(a), lb = (int)strlen(b);
  if (la > 120) la = 120;
  if (lb > 120) lb = 120;
  int prev[121], cur[121];
  for (int j = 0; j <= lb; j++) prev[j] = j;
  for (int i = 1; i <= la; i++) {
    cur[0] = i;
    for (int j = 1; j <= lb; j++) {
      int c = prev[j - 1] + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
      if (prev[j] + 1 < c) c = prev[j] + 1;
      if (cur[j - 1] + 1 < c) c = cur[j - 1] + 1;
      cur[j] = c;
    }
    memcpy(prev, cur, sizeof cur);
  }
  return prev[lb];
}

int nearest_action(const Scen *sc, const State *s, const char *text, char *out, size_t len) {
  ActList *L = malloc(sizeof *L);
  if (!L) abort();
  gs_legal(sc, s, L);
  int best = -1;
  out[0] = 0;
  for (int i = 0; i < L->n; i++) {
    char t[128];
    action_format(sc, s, L->a[i], t, sizeof t);
    int d = edit_distance(text, t);
    if (best < 0 || d < best) {
      best = d;
      snprintf(out, len, "%s", t);
    }
  }
  free(L);
  return best;
}

/* ---------------------------------------------------------------- JSON */
static cJSON *sq_str(int sq) {
  char b[4];
  if (sq == SQ_OFF) return cJSON_CreateString("off");
  if (sq == SQ_DEAD) return cJSON_CreateString("dead");
  if (sq < 0 || sq >= NSQ) return cJSON_CreateNull();
  sq_name(sq, b);
  return cJSON_CreateString(b);
}
static const char *dir_str(int d) {
  static const char *D[] = {"N", "E", "S", "W"};
  return D[d & 3];
}
static cJSON *card_list(const Scen *sc, uint64_t m) {
  cJSON *a = cJSON_CreateArray();
  for (; m; m &= m - 1) cJSON_AddItemToArray(a, cJSON_CreateString(sc->card[__builtin_ctzll(m)].id));
  return a;
}

/* the map of scen_json: squares with terrain and place names, each edge once (east and south
 * sides) with its kinds */
static void scen_map_json(cJSON *o, const Scen *sc) {
  static const char *TER[] = {"clear", "woods", "village", "castle", "hill"};
  cJSON *sqs = cJSON_AddArrayToObject(o, "squares");
  for (int q = 0; q < NSQ; q++) {
    cJSON *x = cJSON_CreateObject();
    char b[4];
    sq_name(q, b);
    cJSON_AddStringToObject(x, "sq", b);
    cJSON_AddStringToObject(x, "terrain", TER[sc->terrain[q] % 5]);
    if (sc->sqname[q][0]) cJSON_AddStringToObject(x, "place", sc->sqname[q]);
    cJSON_AddItemToArray(sqs, x);
  }
  cJSON *edges = cJSON_AddArrayToObject(o, "edges");
  static const struct { int bit; const char *name; } EK[] = {
      {E_RIDGE, "ridge"}, {E_STREAM, "stream"}, {E_BRIDGE, "bridge"}, {E_ROAD, "road"}, {E_POND, "pond"}};
  for (int q = 0; q < NSQ; q++)
    for (int d = DIR_E; d <= DIR_S; d++) {
      int e = sc->edge[q][d], t = sc->nb[q][d];
      if (!e || t == SQ_NONE) continue;
      cJSON *x = cJSON_CreateObject();
      cJSON_AddItemToObject(x, "a", sq_str(q));
      cJSON_AddItemToObject(x, "b", sq_str(t));
      cJSON *k = cJSON_AddArrayToObject(x, "kinds");
      for (int i = 0; i < 5; i++)
        if (e & EK[i].bit) cJSON_AddItemToArray(k, cJSON_CreateString(EK[i].name));
      cJSON_AddItemToArray(edges, x);
    }
}

/* the castles with their damage points and the victory squares with their VP */
static void scen_objectives_json(cJSON *o, const Scen *sc) {
  cJSON *cs = cJSON_AddArrayToObject(o, "castles");
  for (int c = 0; c < MAX_CASTLES; c++) {
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "name", VNAMES[c + 1]);
    cJSON_AddItemToObject(x, "sq", sq_str(sc->castle_sq[c]));
    cJSON_AddNumberToObject(x, "points", sc->p.cdp[c]);
    cJSON_AddItemToArray(cs, x);
  }
  cJSON *vs = cJSON_AddArrayToObject(o, "victory_squares");
  for (int v = 0; v < V_COUNT; v++) {
    if (!((sc->vsq_active >> v) & 1)) continue;
    cJSON *x = cJSON_CreateObject();
    cJSON_AddNumberToObject(x, "index", v);
    cJSON_AddStringToObject(x, "name", VNAMES[v]);
    cJSON_AddItemToObject(x, "sq", sq_str(sc->vsq[v]));
    cJSON_AddNumberToObject(x, "vp_french", sc->p.vp_fr[v]);
    cJSON_AddNumberToObject(x, "vp_allied", sc->p.vp_al[v]);
    cJSON_AddItemToArray(vs, x);
  }
}

static void scen_units_json(cJSON *o, const Scen *sc) {
  cJSON *us = cJSON_AddArrayToObject(o, "units");
  for (int u = 0; u < sc->nunits; u++) {
    const UnitDef *d = &sc->unit[u];
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "name", d->name);
    cJSON_AddStringToObject(x, "longname", d->longname);
    cJSON_AddStringToObject(x, "army", army_name(d->army));
    cJSON_AddStringToObject(x, "side", side_name(unit_side(sc, u)));
    cJSON_AddStringToObject(x, "kind", d->kind == K_CAV ? "cavalry" : "infantry");
    cJSON_AddBoolToObject(x, "heavy", d->heavy);
    cJSON_AddBoolToObject(x, "elite", d->elite);
    cJSON_AddNumberToObject(x, "bp_full", d->bp_full);
    cJSON_AddNumberToObject(x, "bp_reduced", d->bp_red);
    if (d->group >= 0 && d->group < sc->ngroups) {
      cJSON_AddStringToObject(x, "group", sc->group[d->group].name);
      cJSON_AddNumberToObject(x, "arrives", sc->group[d->group].turn + sc->p.prussian_shift);
    }
    cJSON_AddItemToArray(us, x);
  }
}

/* a card's whole text: its three uses in words, with the rule ids of docs/RULES.md */
static void card_text_json(cJSON *x, const CardDef *d) {
  static const struct { const char *rule, *text; } ACT[ACT_COUNT] = {
      [ACT_NONE] = {"", ""},
      [ACT_ARTILLERY] = {"R-9.1", "Artillery fire: in your round, or in the other side's round "
                                  "after a battle is declared or a card is completed, one of your "
                                  "infantry units that is not disordered fires at the enemy unit it "
                                  "faces: disordered, or reduced if already disordered (R-8.3); never "
                                  "eliminated (R-8.4). A unit in a castle is immune."},
      [ACT_COMMAND] = {"R-9.2", "Command, in a battle: every unit of your side in the battle on "
                                "its leader's square or next to it (not diagonally) adds the bonus: "
                                "+%d attacking, +%d defending. Far from the leader it adds nothing."},
      [ACT_CHARGE] = {"R-9.3", "Cavalry charge, in your round: one of your cavalry units (not "
                               "disordered, not one that attacked) advances 1 or 2 squares straight "
                               "ahead and attacks the unit ahead alone: x3 heavy, x2 light, x1 against "
                               "an infantry front or cavalry. Only elite cards in that battle. The "
                               "charger ends disordered."},
      [ACT_FORCE_CHARGE] = {"R-9.4", "Enemy cavalry must charge: name an enemy cavalry unit that "
                                     "could charge one of your units; it charges it at once, as the "
                                     "attacker."},
      [ACT_ELITE] = {"R-9.6", "Elite bonus, in a battle: your elite units in it count their BP "
                              "twice, before every other modifier."},
      [ACT_RALLY] = {"R-9.5", "Rally: clear the disorder of 2 of your units anywhere, or bring 1 "
                              "reduced unit with no enemy next to it back to full strength (not a "
                              "unit that moved or attacked this round)."},
      [ACT_HEALTH] = {"R-9.7", "Napoleon's health: 2 cards taken at random from the French hand "
                               "are discarded unseen."},
  };
  char t[700];
  int n = snprintf(t, sizeof t, "Movement: %d MP to share among your units (R-6.1). Battle: +%d "
                   "to your total in a battle (R-7.2).", d->mp, d->bp);
  int k = d->action < ACT_COUNT ? d->action : ACT_NONE;
  if (k != ACT_NONE && n > 0 && (size_t)n < sizeof t) {
    snprintf(t + n, sizeof t - (size_t)n, " Action: ");
    n = (int)strlen(t);
    snprintf(t + n, sizeof t - (size_t)n, ACT[k].text, d->cmd_att, d->cmd_def);
  }
  cJSON_AddStringToObject(x, "text", t);
  cJSON_AddStringToObject(x, "rule", k != ACT_NONE ? ACT[k].rule : "R-5.1");
}

/* the cards, and the arrival groups with their turn and entry squares */
static void scen_cards_json(cJSON *o, const Scen *sc) {
  cJSON *cd = cJSON_AddArrayToObject(o, "cards");
  for (int c = 0; c < sc->ncards; c++) {
    const CardDef *d = &sc->card[c];
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "id", d->id);
    cJSON_AddStringToObject(x, "name", d->name);
    cJSON_AddStringToObject(x, "army", army_name(d->army));
    cJSON_AddNumberToObject(x, "mp", d->mp);
    cJSON_AddNumberToObject(x, "bp", d->bp);
    cJSON_AddStringToObject(x, "action", action_kind_name(d->action));
    if (d->action == ACT_COMMAND) {
      cJSON_AddNumberToObject(x, "command_attack", d->cmd_att);
      cJSON_AddNumberToObject(x, "command_defence", d->cmd_def);
    }
    card_text_json(x, d);
    cJSON_AddItemToArray(cd, x);
  }
  cJSON *gr = cJSON_AddArrayToObject(o, "groups");
  for (int g = 0; g < sc->ngroups; g++) {
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "name", sc->group[g].name);
    cJSON_AddNumberToObject(x, "turn", sc->group[g].turn + sc->p.prussian_shift);
    cJSON *en = cJSON_AddArrayToObject(x, "entry");
    for (int i = 0; i < sc->group[g].nentry; i++) cJSON_AddItemToArray(en, sq_str(sc->group[g].entry[i]));
    cJSON_AddItemToArray(gr, x);
  }
}

cJSON *scen_json(const Scen *sc) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "scenario", sc->scen_name);
  cJSON_AddStringToObject(o, "variants", sc->variant_names);
  cJSON_AddNumberToObject(o, "turns", sc->p.turns);
  cJSON_AddNumberToObject(o, "width", MAP_W);
  cJSON_AddNumberToObject(o, "height", MAP_H);
  cJSON_AddNumberToObject(o, "round_limit", sc->p.round_limit);
  cJSON_AddNumberToObject(o, "max_attackers", sc->p.max_attackers);
  cJSON_AddBoolToObject(o, "prussians", sc->p.prussians);
  scen_map_json(o, sc);
  scen_objectives_json(o, sc);
  scen_units_json(o, sc);
  scen_cards_json(o, sc);
  return o;
}

/* a battle declaration: the defender, the attackers and their squares, the base totals and
 * why each value is what it is */
static void declare_json(cJSON *o, const Scen *sc, const State *s, Action a) {
  int dsq = a.declare.sq, dirs = a.declare.dirs;
  cJSON_AddItemToObject(o, "defender_square", sq_str(dsq));
  int u = unit_at(sc, s, dsq);
  if (u != UNIT_NONE) cJSON_AddStringToObject(o, "defender", sc->unit[u].name);
  cJSON *at = cJSON_AddArrayToObject(o, "attackers");
  cJSON *aq = cJSON_AddArrayToObject(o, "attacker_squares");
  for (int d = 0; d < 4; d++)
    if (dirs & (1 << d)) {
      int q = sc->nb[dsq][d];
      cJSON_AddItemToArray(aq, sq_str(q));
      int v = q < NSQ ? unit_at(sc, s, q) : UNIT_NONE;
      if (v != UNIT_NONE) cJSON_AddItemToArray(at, cJSON_CreateString(sc->unit[v].name));
    }
  int att, def;
  battle_base_totals(sc, s, dsq, dirs, &att, &def);
  cJSON_AddNumberToObject(o, "attack_total", att);
  cJSON_AddNumberToObject(o, "defence_total", def);
  cJSON_AddItemToObject(o, "attacker_values", values_json(sc, s, dsq, dirs));
  cJSON_AddItemToObject(o, "defender_why", defender_why_json(sc, s, dsq, dirs));
  if (u != UNIT_NONE) cJSON_AddNumberToObject(o, "defender_bp", unit_bp(sc, s, u));
}

/* what committing a battle card adds to its side's total now, by the battle's own arithmetic
 * (the side's seen totals with the card among its commitments, minus without), and the total
 * it makes: a command card far from the leader adds 0 */
static void bcard_value_json(cJSON *o, const Scen *sc, const State *s, Action a) {
  int side = s->turn.decider, att0, def0, att1, def1, h;
  int c = a.bcard.card;
  if (c >= sc->ncards || battle_seen_totals(sc, s, side, &att0, &def0, &h)) return;
  State t = *s;
  uint64_t bit = 1ull << c;
  t.cards.hand &= ~bit;
  t.cards.pend |= bit;
  if (a.bcard.purpose == 1) t.cards.pend_cmd |= bit;
  if (a.bcard.purpose == 2) t.cards.pend_elite |= bit;
  if (battle_seen_totals(sc, &t, side, &att1, &def1, &h)) return;
  int attacking = side == s->battle.att_side;
  cJSON_AddNumberToObject(o, "adds", attacking ? att1 - att0 : def1 - def0);
  cJSON_AddNumberToObject(o, "total_now", attacking ? att0 : def0);
  cJSON_AddNumberToObject(o, "total_after", attacking ? att1 : def1);
}

cJSON *action_json(const Scen *sc, const State *s, Action a) {
  cJSON *o = cJSON_CreateObject();
  char txt[128];
  action_format(sc, s, a, txt, sizeof txt);
  cJSON_AddStringToObject(o, "kind", a.t < A_COUNT ? KIND[a.t] : "?");
  cJSON_AddStringToObject(o, "notation", txt);
  int u;
  switch (a.t) {
  case A_PLAY_MOVE:
  case A_HEALTH: cJSON_AddStringToObject(o, "card", sc->card[a.play.card].id); break;
  case A_ARTY: case A_CHARGE: case A_FORCE: case A_RALLY: case A_RESTORE:
    if (a.play.card != CARD_NONE) cJSON_AddStringToObject(o, "card", sc->card[a.play.card].id);
    cJSON_AddStringToObject(o, "unit", sc->unit[a.play.unit].name);
    cJSON_AddItemToObject(o, "square", sq_str(s->units.sq[a.play.unit]));
    if (a.t == A_CHARGE || a.t == A_FORCE) cJSON_AddNumberToObject(o, "squares", a.charge.squares);
    break;
  case A_STEP:
    u = a.step.unit;
    cJSON_AddStringToObject(o, "unit", sc->unit[u].name);
    cJSON_AddItemToObject(o, "square", sq_str(s->units.sq[u]));
    cJSON_AddItemToObject(o, "to", sq_str(sc->nb[s->units.sq[u]][a.step.dir & 3]));
    cJSON_AddStringToObject(o, "facing", dir_str(a.step.facing));
    break;
  case A_TURN:
    cJSON_AddStringToObject(o, "unit", sc->unit[a.turn.unit].name);
    cJSON_AddItemToObject(o, "square", sq_str(s->units.sq[a.turn.unit]));
    cJSON_AddStringToObject(o, "facing", dir_str(a.turn.facing));
    break;
  case A_LEAD: {
    int l = s->play.army == ARMY_FR ? 0 : 1;
    cJSON_AddStringToObject(o, "leader", l ? "Wellington" : "Napoleon");
    cJSON_AddItemToObject(o, "square", sq_str(s->units.leader[l]));
    cJSON_AddItemToObject(
        o, "to",
        sq_str(s->units.leader[l] < NSQ ? sc->nb[s->units.leader[l]][a.lead.dir & 3] : -1));
    break;
  }
  case A_ENTER: case A_EVADE:
    cJSON_AddStringToObject(o, "unit", sc->unit[a.to.unit].name);
    cJSON_AddItemToObject(o, "square", sq_str(s->units.sq[a.to.unit]));
    cJSON_AddItemToObject(o, "to", sq_str(a.to.sq));
    cJSON_AddStringToObject(o, "facing", dir_str(a.to.facing));
    break;
  case A_DECLARE: declare_json(o, sc, s, a); break;
  case A_BCARD:
    cJSON_AddStringToObject(o, "card", sc->card[a.bcard.card].id);
    cJSON_AddStringToObject(o, "purpose", PURPOSE[a.bcard.purpose % 3]);
    bcard_value_json(o, sc, s, a);
    break;
  case A_RETREAT:
    if (s->battle.def_unit != UNIT_NONE)
      cJSON_AddStringToObject(o, "unit", sc->unit[s->battle.def_unit].name);
    cJSON_AddItemToObject(o, "square", sq_str(s->battle.def_sq));
    cJSON_AddItemToObject(o, "to", sq_str(a.retreat.sq));
    cJSON_AddStringToObject(o, "facing", dir_str(a.retreat.facing));
    break;
  case A_ADVANCE: case A_LOSE: {
    int q = s->battle.def_sq < NSQ ? sc->nb[s->battle.def_sq][a.attacker.slot & 3] : -1;
    u = q >= 0 && q < NSQ ? unit_at(sc, s, q) : UNIT_NONE;
    if (u != UNIT_NONE) cJSON_AddStringToObject(o, "unit", sc->unit[u].name);
    cJSON_AddItemToObject(o, "square", sq_str(q));
    if (a.t == A_ADVANCE) {
      cJSON_AddItemToObject(o, "to", sq_str(s->battle.def_sq));
      cJSON_AddStringToObject(o, "facing", dir_str(a.attacker.facing));
    }
    break;
  }
  case A_PLACE: cJSON_AddItemToObject(o, "to", sq_str(a.place.sq)); break;
  case A_BID:
    if (a.bid.card != CARD_NONE) cJSON_AddStringToObject(o, "card", sc->card[a.bid.card].id);
    break;
  default:
    break;
  }
  return o;
}

cJSON *legal_json(const Scen *sc, const State *s) {
  ActList *L = malloc(sizeof *L);
  if (!L) abort();
  gs_legal(sc, s, L);
  cJSON *a = cJSON_CreateArray();
  for (int i = 0; i < L->n; i++) cJSON_AddItemToArray(a, action_json(sc, s, L->a[i]));
  free(L);
  return a;
}

cJSON *reach_json(const Scen *sc, const State *s, int u) {
  Reach *r = malloc(sizeof *r);
  if (!r) abort();
  gs_reach(sc, s, u, r);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "unit", sc->unit[u].name);
  cJSON_AddNumberToObject(o, "mp", s->play.mp);
  cJSON *arr = cJSON_AddArrayToObject(o, "squares");
  for (int q = 0; q < NSQ; q++) {
    int any = 0;
    for (int f = 0; f < 4; f++) {
      if (r->npath[q][f] == 0) r->cost[q][f] = 255;   /* where it stands: not a move */
      any |= r->cost[q][f] != 255;
    }
    if (!any) continue;
    cJSON *x = cJSON_CreateObject();
    cJSON_AddItemToObject(x, "sq", sq_str(q));
    cJSON *fc = cJSON_AddObjectToObject(x, "facings");
    int best = 255;
    for (int f = 0; f < 4; f++)
      if (r->cost[q][f] != 255) {
        cJSON_AddNumberToObject(fc, dir_str(f), r->cost[q][f]);
        if (r->cost[q][f] < best) best = r->cost[q][f];
      }
    cJSON_AddNumberToObject(x, "cost", best);
    cJSON_AddItemToArray(arr, x);
  }
  free(r);
  return o;
}

/* the turn, phase and card being played of an observation */
static void obs_turn_json(cJSON *o, const Scen *sc, const State *s) {
  cJSON_AddNumberToObject(o, "turn", s->turn.number);
  cJSON_AddNumberToObject(o, "turns", sc->p.turns);
  cJSON_AddStringToObject(o, "phase", phase_name(s->turn.phase));
  cJSON_AddStringToObject(o, "decider", side_name(s->turn.decider));
  cJSON_AddStringToObject(o, "active", side_name(s->turn.active));
  cJSON_AddStringToObject(o, "first", side_name(s->turn.first));
  cJSON_AddNumberToObject(o, "cards_this_round", s->turn.ncards);
  cJSON_AddNumberToObject(o, "round_limit", sc->p.round_limit);
  cJSON_AddBoolToObject(o, "last_round_passed", s->turn.last_pass);
  cJSON_AddBoolToObject(o, "over", gs_over(s));
  cJSON_AddStringToObject(o, "result", !gs_over(s) ? "running" : result_name(s->score.result));
  char d[256];
  gs_describe(sc, s, d, sizeof d);
  cJSON_AddStringToObject(o, "description", d);
  int in_card = s->turn.phase >= PH_MOVE && s->turn.phase != PH_OVER && s->turn.phase != PH_BID &&
                s->play.card < sc->ncards && ((s->cards.seen >> s->play.card) & 1);
  if (in_card) cJSON_AddStringToObject(o, "card", sc->card[s->play.card].id);
  cJSON_AddNumberToObject(o, "mp", s->turn.phase == PH_MOVE ? s->play.mp : 0);
  if (s->play.moving != UNIT_NONE && s->play.moving < sc->nunits)
    cJSON_AddStringToObject(o, "moving", sc->unit[s->play.moving].name);
}

/* the units, the leaders, the victory squares' holders and the castles' points */
static void obs_board_json(cJSON *o, const Scen *sc, const State *s) {
  cJSON *us = cJSON_AddArrayToObject(o, "units");
  for (int u = 0; u < sc->nunits; u++) {
    if (sc->unit[u].army == ARMY_PR && !sc->p.prussians) continue;
    cJSON *x = cJSON_CreateObject();
    int f = s->units.flag[u];
    cJSON_AddStringToObject(x, "name", sc->unit[u].name);
    cJSON_AddItemToObject(x, "square", sq_str(s->units.sq[u]));
    cJSON_AddStringToObject(x, "facing", dir_str(f));
    cJSON_AddNumberToObject(x, "bp", unit_bp(sc, s, u));
    cJSON_AddBoolToObject(x, "reduced", f & UF_REDUCED);
    cJSON_AddBoolToObject(x, "disordered", f & UF_DISORDER);
    cJSON_AddBoolToObject(x, "moved", f & UF_MOVED);
    cJSON_AddBoolToObject(x, "rallied", f & UF_RALLIED);
    cJSON_AddBoolToObject(x, "attacked", f & UF_ATTACKED);
    cJSON_AddBoolToObject(x, "in_battle", f & UF_INBATTLE);
    cJSON_AddItemToArray(us, x);
  }
  cJSON *ld = cJSON_AddObjectToObject(o, "leaders");
  cJSON_AddItemToObject(ld, "Napoleon", sq_str(s->units.leader[0]));
  cJSON_AddItemToObject(ld, "Wellington", sq_str(s->units.leader[1]));
  cJSON *vs = cJSON_AddArrayToObject(o, "victory_squares");
  for (int v = 0; v < V_COUNT; v++) {
    if (!((sc->vsq_active >> v) & 1)) continue;
    cJSON *x = cJSON_CreateObject();
    cJSON_AddNumberToObject(x, "index", v);
    cJSON_AddItemToObject(x, "sq", sq_str(sc->vsq[v]));
    cJSON_AddStringToObject(x, "holder", (s->turn.owner >> v) & 1 ? "French" : "Allied");
    cJSON_AddItemToArray(vs, x);
  }
  cJSON *cp = cJSON_AddArrayToObject(o, "castle_points");
  for (int c = 0; c < MAX_CASTLES; c++)
    cJSON_AddItemToArray(cp, cJSON_CreateNumber(s->turn.cdp[c]));
}

/* the score: VP (long game) or whether the French would win (short), castles, losses */
static void obs_score_json(cJSON *o, const Scen *sc, const State *s) {
  int vp[2];
  gs_score(sc, s, vp);
  cJSON *sc_ = cJSON_AddObjectToObject(o, "score");
  if (sc->scenario == SC_LONG) {
    cJSON_AddNumberToObject(sc_, "vp_french", vp[0]);
    cJSON_AddNumberToObject(sc_, "vp_allied", vp[1]);
  } else {
    cJSON_AddBoolToObject(sc_, "french_would_win", vp[0]);
  }
  int castles_fr = 0, lost[2] = {0, 0};
  for (int c = 0; c < MAX_CASTLES; c++)
    if ((sc->vsq_active >> (c + 1)) & 1 && ((s->turn.owner >> (c + 1)) & 1)) castles_fr++;
  for (int u = 0; u < sc->nunits; u++)
    if (s->units.sq[u] == SQ_DEAD) lost[unit_side(sc, u)]++;
  cJSON_AddNumberToObject(sc_, "castles_french", castles_fr);
  cJSON_AddNumberToObject(sc_, "units_lost_french", lost[FRENCH]);
  cJSON_AddNumberToObject(sc_, "units_lost_allied", lost[ALLIED]);
  cJSON_AddNumberToObject(sc_, "eliminated_bp_by_french", s->score.elim_vp[FRENCH]);
  cJSON_AddNumberToObject(sc_, "eliminated_bp_by_allied", s->score.elim_vp[ALLIED]);
}

/* cards: own hand and own secret commitments; of the other side only counts; the bids */
static void obs_cards_json(cJSON *o, const Scen *sc, const State *s, int side) {
  uint64_t mine = side_cards_mask(sc, side), theirs = side_cards_mask(sc, !side);
  cJSON_AddItemToObject(o, "hand", card_list(sc, s->cards.hand & mine));
  cJSON *pend = cJSON_AddArrayToObject(o, "committed");
  for (uint64_t m = s->cards.pend & mine; m; m &= m - 1) {
    int c = __builtin_ctzll(m);
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "card", sc->card[c].id);
    cJSON_AddStringToObject(x, "purpose",
                            (s->cards.pend_cmd >> c) & 1     ? "command"
                            : (s->cards.pend_elite >> c) & 1 ? "elite"
                                                             : "points");
    cJSON_AddItemToArray(pend, x);
  }
  cJSON *opp = cJSON_AddObjectToObject(o, "opponent");
  cJSON_AddNumberToObject(opp, "hand", __builtin_popcountll(s->cards.hand & theirs));
  cJSON_AddNumberToObject(opp, "committed", __builtin_popcountll(s->cards.pend & theirs));
  cJSON *ha = cJSON_AddObjectToObject(o, "hand_counts");
  for (int a = 0; a < 3; a++) cJSON_AddNumberToObject(ha, army_name(a), hand_count(sc, s, a));
  cJSON_AddItemToObject(o, "played", card_list(sc, s->cards.discard & s->cards.seen));
  cJSON *bid = cJSON_AddObjectToObject(o, "bids");
  cJSON_AddBoolToObject(bid, "french_made", s->turn.bid_made & 1);
  cJSON_AddBoolToObject(bid, "allied_made", (s->turn.bid_made >> 1) & 1);
  if (s->turn.phase == PH_BID && ((s->turn.bid_made >> side) & 1))
    cJSON_AddItemToObject(bid, "mine",
                          s->turn.bid_card[side] < sc->ncards
                              ? cJSON_CreateString(sc->card[s->turn.bid_card[side]].id)
                              : cJSON_CreateNull());
}

/* the battle being fought: sides, units, base totals, what this side has seen, the totals */
static void obs_battle_json(cJSON *o, const Scen *sc, const State *s, int side) {
  cJSON *b = cJSON_AddObjectToObject(o, "battle");
  cJSON_AddStringToObject(b, "attacker", side_name(s->battle.att_side));
  cJSON_AddStringToObject(b, "kind", s->battle.kind == BK_CHARGE ? "charge" : "normal");
  cJSON_AddStringToObject(b, "defender", sc->unit[s->battle.def_unit].name);
  cJSON_AddItemToObject(b, "defender_square", sq_str(s->battle.def_sq));
  cJSON *at = cJSON_AddArrayToObject(b, "attackers");
  int mask = 0;
  for (int k = 0; k < 4; k++)
    if (s->battle.att[k] != UNIT_NONE && s->battle.att[k] < sc->nunits) {
      cJSON_AddItemToArray(at, cJSON_CreateString(sc->unit[s->battle.att[k]].name));
      mask |= 1 << k;
    }
  int a, df, h = 0;
  battle_base_totals(sc, s, s->battle.def_sq, mask, &a, &df);
  cJSON_AddNumberToObject(b, "base_attack", a);
  cJSON_AddNumberToObject(b, "base_defence", df);
  cJSON_AddItemToObject(b, "attacker_values", values_json(sc, s, s->battle.def_sq, mask));
  cJSON_AddItemToObject(b, "defender_why", defender_why_json(sc, s, s->battle.def_sq, mask));
  cJSON_AddNumberToObject(b, "defender_bp", unit_bp(sc, s, s->battle.def_unit));
  if (battle_seen_totals(sc, s, side, &a, &df, &h) == 0) {
    cJSON_AddNumberToObject(b, "seen_attack", a);
    cJSON_AddNumberToObject(b, "seen_defence", df);
    cJSON_AddNumberToObject(b, "opponent_cards_committed", h);
  }
  if (s->turn.phase >= PH_B_LOSS) {
    cJSON_AddNumberToObject(b, "total_attack", s->battle.att_total);
    cJSON_AddNumberToObject(b, "total_defence", s->battle.def_total);
  }
}

cJSON *observation_json(const Scen *sc, const State *real, int side) {
  State obs;
  gs_observe(sc, real, side, &obs);     /* from here on only the observation is read */
  const State *s = &obs;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "side", side_name(side));
  obs_turn_json(o, sc, s);
  obs_board_json(o, sc, s);
  obs_score_json(o, sc, s);
  obs_cards_json(o, sc, s, side);
  if (s->turn.phase != PH_OVER && s->battle.def_unit != UNIT_NONE &&
      s->battle.def_unit < sc->nunits && s->turn.phase >= PH_B_FIRE &&
      s->turn.phase <= PH_B_ATTLOSS)
    obs_battle_json(o, sc, s, side);
  if (s->interrupt.evaders) {
    cJSON *ev = cJSON_AddArrayToObject(o, "evaders");
    for (uint64_t m = s->interrupt.evaders; m; m &= m - 1)
      cJSON_AddItemToArray(ev, cJSON_CreateString(sc->unit[__builtin_ctzll(m)].name));
  }
  return o;
}

cJSON *log_json(const Session *S, int since) {
  cJSON *a = cJSON_CreateArray();
  for (int i = since < 0 ? 0 : since; i < S->nlog; i++) {
    const LogEntry *e = &S->log[i];
    cJSON *x = cJSON_CreateObject();
    cJSON_AddNumberToObject(x, "n", i);
    cJSON_AddNumberToObject(x, "turn", e->turn);
    cJSON_AddStringToObject(x, "phase", phase_name(e->phase));
    cJSON_AddStringToObject(x, "side", side_name(e->side));
    cJSON_AddStringToObject(x, "by", e->by_human ? "human" : "computer");
    cJSON_AddStringToObject(x, "action", e->text);
    cJSON *act = e->act[0] ? cJSON_Parse(e->act) : NULL;
    cJSON_AddItemToObject(x, "act", act ? act : cJSON_CreateNull());
    cJSON_AddStringToObject(x, "events", e->events);
    cJSON_AddStringToObject(x, "why", e->why);
    cJSON_AddItemToArray(a, x);
  }
  return a;
}

cJSON *battle_json(const Scen *sc, const BattleRec *b) {
  if (!b->valid) return cJSON_CreateNull();
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "log_index", b->index);
  cJSON_AddStringToObject(o, "attacker", side_name(b->att_side));
  cJSON_AddStringToObject(o, "kind", b->kind == BK_CHARGE ? "charge" : "normal");
  cJSON_AddStringToObject(o, "defender", sc->unit[b->def_unit].name);
  cJSON_AddItemToObject(o, "defender_square", sq_str(b->def_sq));
  cJSON *at = cJSON_AddArrayToObject(o, "attackers");
  for (int k = 0; k < 4; k++)
    if (b->att[k] >= 0) cJSON_AddItemToArray(at, cJSON_CreateString(sc->unit[b->att[k]].name));
  cJSON_AddNumberToObject(o, "base_attack", b->base_att);
  cJSON_AddNumberToObject(o, "base_defence", b->base_def);
  cJSON *av = cJSON_AddArrayToObject(o, "attacker_values");
  for (int k = 0; k < 4; k++)
    if (b->att[k] >= 0) {
      cJSON *x = cJSON_CreateObject();
      cJSON_AddStringToObject(x, "unit", sc->unit[b->att[k]].name);
      cJSON_AddNumberToObject(x, "bp", b->att_bp[k]);
      cJSON_AddNumberToObject(x, "value", b->att_val[k]);
      cJSON_AddStringToObject(x, "why", b->att_why[k]);
      cJSON_AddItemToArray(av, x);
    }
  cJSON_AddNumberToObject(o, "defender_bp", b->def_bp);
  cJSON_AddStringToObject(o, "defender_why", b->def_why);
  for (int side = 0; side < 2; side++) {
    cJSON *cs = cJSON_AddArrayToObject(o, side ? "defence_cards" : "attack_cards");
    for (uint64_t m = side ? b->cards_def : b->cards_att; m; m &= m - 1) {
      int c = __builtin_ctzll(m);
      cJSON *x = cJSON_CreateObject();
      cJSON_AddStringToObject(x, "card", sc->card[c].id);
      cJSON_AddStringToObject(x, "name", sc->card[c].name);
      const char *p = (b->cmd >> c) & 1 ? "command" : (b->elite >> c) & 1 ? "elite" : "points";
      cJSON_AddStringToObject(x, "purpose", p);
      cJSON_AddNumberToObject(x, "bp", sc->card[c].bp);
      if ((b->cmd >> c) & 1) {
        cJSON_AddNumberToObject(x, "command_attack", sc->card[c].cmd_att);
        cJSON_AddNumberToObject(x, "command_defence", sc->card[c].cmd_def);
      }
      cJSON_AddItemToArray(cs, x);
    }
  }
  cJSON_AddNumberToObject(o, "total_attack", b->total_att);
  cJSON_AddNumberToObject(o, "total_defence", b->total_def);
  cJSON_AddStringToObject(o, "outcome", b->outcome);
  return o;
}

cJSON *session_view(const Session *S, int since) { return session_view_seat(S, since, -1); }

cJSON *session_view_seat(const Session *S, int since, int seat) {
  const Scen *sc = S->sc;
  int side = seat >= 0 ? seat_side(seat) : session_view_side(S);
  int yours = session_humans_turn(S) && (seat < 0 || gs_seat(sc, &S->s) == seat);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "human", side_name(side));
  cJSON_AddStringToObject(o, "level", S->level);
  cJSON_AddStringToObject(o, "scenario", sc->scen_name);
  cJSON_AddStringToObject(o, "variants", sc->variant_names);
  char num[32];
  snprintf(num, sizeof num, "%" PRIu64, S->seed);
  cJSON_AddStringToObject(o, "seed", num);
  cJSON_AddNumberToObject(o, "actions", S->g.n);
  cJSON_AddBoolToObject(o, "your_turn", yours);
  /* can undo: some human decision after the barrier */
  cJSON_AddBoolToObject(o, "can_undo", S->nlog > 0 && S->g.n > S->barrier);
  cJSON_AddItemToObject(o, "observation", observation_json(sc, &S->s, side));
  cJSON_AddItemToObject(o, "legal", yours ? legal_json(sc, &S->s) : cJSON_CreateArray());
  seats_view_json(S, o, seat);
  cJSON_AddItemToObject(o, "last_battle", battle_json(sc, &S->battle));
  cJSON_AddNumberToObject(o, "log_size", S->nlog);
  cJSON_AddItemToObject(o, "log", log_json(S, since));
  return o;
}

/* the score of s as one row of the summary: castles and objectives the French hold, VP (long
 * game), units lost by each side */
static cJSON *summary_row(const Scen *sc, const State *s, int turn, const int battles[2]) {
  cJSON *x = cJSON_CreateObject();
  cJSON_AddNumberToObject(x, "turn", turn);
  cJSON_AddStringToObject(x, "first", side_name(s->turn.first));
  int vp[2], castles = 0, objectives = 0, lost[2] = {0, 0};
  gs_score(sc, s, vp);
  if (sc->scenario == SC_LONG) {
    cJSON_AddNumberToObject(x, "vp_french", vp[0]);
    cJSON_AddNumberToObject(x, "vp_allied", vp[1]);
  }
  for (int v = 0; v < V_COUNT; v++) {
    if (!((sc->vsq_active >> v) & 1) || !((s->turn.owner >> v) & 1)) continue;
    objectives++;
    castles += v >= 1 && v <= MAX_CASTLES;
  }
  for (int u = 0; u < sc->nunits; u++)
    if (s->units.sq[u] == SQ_DEAD) lost[unit_side(sc, u)]++;
  cJSON_AddNumberToObject(x, "castles_french", castles);
  cJSON_AddNumberToObject(x, "objectives_french", objectives);
  cJSON_AddNumberToObject(x, "units_lost_french", lost[FRENCH]);
  cJSON_AddNumberToObject(x, "units_lost_allied", lost[ALLIED]);
  cJSON_AddNumberToObject(x, "battles_french", battles[FRENCH]);
  cJSON_AddNumberToObject(x, "battles_allied", battles[ALLIED]);
  return x;
}

cJSON *summary_json(const Session *S) {
  const Scen *sc = S->sc;
  State s, before;
  gamerec_position(sc, &S->g, 0, &s);
  cJSON *o = cJSON_CreateObject(), *rows = cJSON_AddArrayToObject(o, "turns");
  int battles[2] = {0, 0}, turn = s.turn.number;
  for (int i = 0; i < S->g.n; i++) {
    before = s;
    gs_apply(sc, &s, S->g.acts[i]);
    if (card_phase_done(&before, &s)) battles[before.battle.att_side & 1]++;
    if (s.turn.number != turn || (gs_over(&s) && !gs_over(&before))) {
      cJSON_AddItemToArray(rows, summary_row(sc, gs_over(&s) ? &s : &before, turn, battles));
      battles[0] = battles[1] = 0;
      turn = s.turn.number;
    }
  }
  if (!gs_over(&s)) cJSON_AddItemToArray(rows, summary_row(sc, &s, turn, battles));
  cJSON_AddBoolToObject(o, "over", gs_over(&s));
  cJSON_AddStringToObject(o, "result", gs_over(&s) ? result_name(s.score.result) : "running");
  cJSON_AddNumberToObject(o, "actions", S->g.n);
  cJSON_AddItemToObject(o, "final", summary_row(sc, &s, s.turn.number, battles));
  return o;
}
