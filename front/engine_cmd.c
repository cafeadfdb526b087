/* ./waterloo engine: one command per line on stdin, answers in the GTP style:
 * "= answer" (possibly several lines) then a blank line, or "? message" then a blank line.
 * The game is a Session without a human side (front/session.h): every action comes from the
 * caller or from genmove, undo takes back one action.  The commands are the table ENGINE_CMDS. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/player.h"
#include "front.h"
#include "cmd.h"
#include "json.h"
#include "parse.h"
#include "session.h"
#include "../engine/num.h"

static void ok(const char *text) {
  printf("= %s\n\n", text ? text : "");
  fflush(stdout);
}
/* an error answer is one line: newlines become "; ", other control bytes are escaped */
static void fail(const char *msg) {
  fputs("? ", stdout);
  for (const unsigned char *p = (const unsigned char *)msg; *p; p++) {
    if (*p == '\n') fputs("; ", stdout);
    else if (*p < 0x20 || *p == 0x7f) printf("\\x%02x", *p);
    else putchar(*p);
  }
  fputs("\n\n", stdout);
  fflush(stdout);
}

/* the engine's game is replaced by T once T is made */
static int adopt(Session *S, Session *T) {
  if (S->sc) session_free(S);
  *S = *T;
  ok("");
  return 0;
}

static int c_new(void *ctx, char *args) {
  char *tok[16];
  int n = 0;
  char *save = NULL;
  for (char *t = strtok_r(args, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
    if (n == 16) return fail("new: too many words (at most 16)"), 0;
    tok[n++] = t;
  }
  if (n < 1) return fail("usage: new short|long [VARIANT ...] [seed N]"), 0;
  char vars[256] = "";
  uint64_t seed = 1;
  for (int i = 1; i < n; i++) {
    if (!strcmp(tok[i], "seed")) {
      char e[64], m[160];
      if (i + 1 >= n || num_u64(tok[i + 1], 0, UINT64_MAX, &seed)) {
        snprintf(m, sizeof m, "new: seed must be a whole number from 0 to 18446744073709551615, not '%s'",
                 i + 1 < n ? num_escape(tok[i + 1], e, sizeof e) : "");
        return fail(m), 0;
      }
      i++;
      continue;
    }
    if (*vars) strncat(vars, ",", sizeof vars - strlen(vars) - 1);
    strncat(vars, tok[i], sizeof vars - strlen(vars) - 1);
  }
  char err[2048];
  Session T;
  if (session_new(&T, tok[0], vars, seed, SESSION_NO_HUMAN, NULL, err, sizeof err)) return fail(err), 0;
  return adopt(ctx, &T);
}

static int c_load(void *ctx, char *args) {
  char err[512];
  Session T;
  if (!*args) fail("usage: load FILE");
  else if (session_load(&T, args, SESSION_NO_HUMAN, NULL, err, sizeof err)) fail(err);
  else adopt(ctx, &T);
  return 0;
}

/* setposition SCENARIO VARIANTS KEY=VALUE ...: the game restarts from that position */
static int c_setposition(void *ctx, char *args) {
  char scen[64], vars[512], err[2048];
  Session T;
  if (position_scenario(args, scen, sizeof scen, vars, sizeof vars))
    fail("usage: setposition SCENARIO VARIANTS KEY=VALUE ... (as `position` prints it)");
  else if (session_from_position(&T, args, SESSION_NO_HUMAN, NULL, err, sizeof err)) fail(err);
  else adopt(ctx, &T);
  return 0;
}

static int c_save(void *ctx, char *args) {
  char err[512];
  if (!*args) fail("usage: save FILE");
  else if (session_save(ctx, args, err, sizeof err)) fail(err);
  else ok("");
  return 0;
}

static int c_show(void *ctx, char *args) {
  char *b = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&b, &len);
  if (!f) return fail("out of memory"), 0;
  session_board(ctx, f, 0);
  fclose(f);
  ok(b);
  free(b);
  return 0;
}

static int c_legal(void *ctx, char *args) {
  Session *S = ctx;
  ActList *L = malloc(sizeof *L);
  if (!L) return fail("out of memory"), 0;
  gs_legal(S->sc, &S->s, L);
  size_t cap = 136 * (size_t)L->n + 16, n = 0;
  char *out = malloc(cap);
  if (!out) {
    free(L);
    return fail("out of memory"), 0;
  }
  out[0] = 0;
  for (int i = 0; i < L->n; i++) {
    char a[128];
    action_format(S->sc, &S->s, L->a[i], a, sizeof a);
    n += (size_t)snprintf(out + n, cap - n, "%s%s", i ? "\n" : "", a);
  }
  ok(out);
  free(out);
  free(L);
  return 0;
}

/* play ACTION, or play move UNIT SQUARE [FACING]: answers what it caused */
static int c_play(void *ctx, char *args) {
  Session *S = ctx;
  char err[256], derr[256], ev[2048];
  int first = S->nlog;
  /* `play F25 move` is the action `play F25 move` (the notation's word said once): no action
   * starts with a card id, so no other text is read this way */
  char twice[600], word[16] = "";
  snprintf(twice, sizeof twice, "play %s", args);
  sscanf(args, "%15s", word);
  if (gs_over(&S->s)) fail("the game is over");
  else if (session_play_text(S, args, 0, err, sizeof err, derr, sizeof derr) >= 0 ||
           (scen_card(S->sc, word) >= 0 &&
            session_play_text(S, twice, 0, err, sizeof err, derr, sizeof derr) >= 0)) {
    session_events(S, first, ev, sizeof ev);
    ok(ev);
  } else {
    char near[128], msg[600];
    const char *why = derr[0] ? derr : err; /* a destination move: why it cannot be played */
    if (nearest_action(S->sc, &S->s, args, near, sizeof near) >= 0 && near[0])
      snprintf(msg, sizeof msg, "%s; nearest legal action: %s (the line: play %s)", why, near, near);
    else snprintf(msg, sizeof msg, "%s", why);
    fail(msg);
  }
  return 0;
}

static void print_json(cJSON *o) {
  char *t = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  ok(t);
  free(t);
}

/* state: everything (JSON); state french|allied: what that side sees */
static int c_state(void *ctx, char *args) {
  Session *S = ctx;
  if (!*args) {
    char *j = state_to_json(S->sc, &S->s);
    ok(j);
    free(j);
  } else if (!strcmp(args, "french") || !strcmp(args, "allied"))
    print_json(observation_json(S->sc, &S->s, !strcmp(args, "french") ? FRENCH : ALLIED));
  else if (seat_parse(args) >= 0 && scen_has_seat(S->sc, seat_parse(args)))
    print_json(observation_json(S->sc, &S->s, seat_side(seat_parse(args)))); /* a seat sees its side */
  else fail(S->sc->p.prussians ? "usage: state [french|allied|british|prussian]"
                               : "usage: state [french|allied|british] (no Prussian seat in this game)");
  return 0;
}

/* seat: the seat that decides now (R-1.2: french, british or prussian; none when over) */
static int c_seat(void *ctx, char *args) {
  Session *S = ctx;
  int k = gs_seat(S->sc, &S->s);
  return ok(k >= 0 ? seat_name(k) : "none"), 0;
}

static int c_scenario(void *ctx, char *args) {
  print_json(scen_json(((Session *)ctx)->sc));
  return 0;
}

static int c_legaljson(void *ctx, char *args) {
  Session *S = ctx;
  print_json(legal_json(S->sc, &S->s));
  return 0;
}

static int c_reach(void *ctx, char *args) {
  Session *S = ctx;
  int u = scen_unit(S->sc, args);
  char msg[160];
  snprintf(msg, sizeof msg, "no unit '%.60s' in this scenario (usage: reach UNIT, e.g. fr-1/I)", args);
  if (!*args) fail("usage: reach UNIT");
  else if (u < 0) fail(msg);
  else print_json(reach_json(S->sc, &S->s, u));
  return 0;
}

static int c_position(void *ctx, char *args) {
  Session *S = ctx;
  char buf[8192];
  if (position_format(S->sc, &S->s, buf, sizeof buf) < 0) fail("position too long");
  else ok(buf);
  return 0;
}

static int c_turn(void *ctx, char *args) {
  Session *S = ctx;
  char d[256];
  gs_describe(S->sc, &S->s, d, sizeof d);
  ok(d);
  return 0;
}

static int c_result(void *ctx, char *args) {
  Session *S = ctx;
  int vp[2];
  char d[128];
  gs_score(S->sc, &S->s, vp);
  const char *r = !gs_over(&S->s) ? "running" : result_name(S->s.score.result);
  if (S->sc->scenario == SC_LONG) snprintf(d, sizeof d, "%s VP %d %d", r, vp[0], vp[1]);
  else snprintf(d, sizeof d, "%s", r);
  ok(d);
  return 0;
}

static int c_undo(void *ctx, char *args) {
  if (session_undo(ctx) < 0) fail("nothing to undo");
  else ok("");
  return 0;
}

/* genmove / analyze [LEVEL]: a fresh player of that level, seeded by the game and its length */
static int engine_ai(Session *S, const char *level, int analyze) {
  if (gs_over(&S->s)) return fail("the game is over"), 0;
  char err[256];
  Player *p = session_player(S, level, S->seed * 1000003u + (uint64_t)S->g.n, err, sizeof err);
  if (!p) return fail(err), 0;
  if (analyze) {
    Candidate c[8];
    int n = player_analyze(p, &S->s, c, 8);
    char out[2048] = "";
    for (int i = 0; i < n; i++) {
      char a[128], line[200];
      action_format(S->sc, &S->s, c[i].a, a, sizeof a);
      snprintf(line, sizeof line, "%s%s | visits %.1f%% | win %.1f%%", i ? "\n" : "", a,
               100 * c[i].share, 100 * c[i].winrate);
      strncat(out, line, sizeof out - strlen(out) - 1);
    }
    ok(out);
  } else {
    Action a = player_act(p, &S->s);
    char txt[128];
    action_format(S->sc, &S->s, a, txt, sizeof txt);
    session_apply(S, a, 0);
    ok(txt);
  }
  player_free(p);
  return 0;
}

/* genmove/analyze [LEVEL] [SEAT]: a seat named must be the one deciding */
static int engine_ai_seat(Session *S, char *args, int analyze) {
  char *sp = strrchr(args, ' '), *last = sp ? sp + 1 : args;
  int k = seat_parse(last);
  if (k >= 0) {
    int now = gs_seat(S->sc, &S->s);
    if (k != now) {
      char m[120];
      snprintf(m, sizeof m, "the %s seat does not decide now (%s does)", seat_name(k),
               now >= 0 ? seat_name(now) : "nobody");
      return fail(m), 0;
    }
    if (sp) *sp = 0;
    else *args = 0;
  }
  return engine_ai(S, args, analyze);
}
static int c_genmove(void *ctx, char *args) { return engine_ai_seat(ctx, args, 0); }
static int c_analyze(void *ctx, char *args) { return engine_ai_seat(ctx, args, 1); }
static int c_protocol_version(void *ctx, char *args) { return ok("2"), 0; }
static int c_name(void *ctx, char *args) { return ok("waterloo"), 0; }
static int c_version(void *ctx, char *args) { return ok(WATERLOO_VERSION), 0; }
static int c_quit(void *ctx, char *args) { return ok(""), 1; }
static int c_list_commands(void *ctx, char *args);

#define G (CMD_GAME | CMD_ARGS)
static const CmdDef ENGINE_CMDS[] = {
    {"protocol_version", CMD_ARGS, c_protocol_version}, {"name", CMD_ARGS, c_name},
    {"version", CMD_ARGS, c_version}, {"list_commands", CMD_ARGS, c_list_commands},
    {"new", CMD_ARGS, c_new}, {"load", CMD_ARGS, c_load}, {"save", G, c_save},
    {"show", G, c_show}, {"legal", G, c_legal}, {"legaljson", G, c_legaljson},
    {"play", G, c_play}, {"state", G, c_state}, {"scenario", G, c_scenario},
    {"reach", G, c_reach}, {"position", G, c_position},
    {"setposition", CMD_ARGS, c_setposition}, {"turn", G, c_turn}, {"result", G, c_result},
    {"undo", G, c_undo}, {"genmove", G, c_genmove}, {"analyze", G, c_analyze},
    {"seat", G, c_seat},
    {"quit", CMD_ARGS, c_quit}, {NULL, 0, NULL}};
#undef G

static int c_list_commands(void *ctx, char *args) {
  char out[512] = "";
  for (const CmdDef *c = ENGINE_CMDS; c->name; c++)
    snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", c == ENGINE_CMDS ? "" : "\n", c->name);
  ok(out);
  return 0;
}

/* one protocol line: 1 when it ends the session */
static int engine_line(Session *S, char *line) {
  char *args, *cmd = cmd_split(line, &args);
  if (!cmd || *cmd == '#') return 0;
  const CmdDef *c = cmd_find(ENGINE_CMDS, cmd, args);
  if ((!c || (c->flags & CMD_GAME)) && !S->sc) {
    fail("no game: use 'new short' or 'new long' first");
    return 0;
  }
  if (c) return c->run(S, args);
  char m[200], e[104];
  snprintf(m, sizeof m, "unknown command '%s' (try list_commands)", num_escape(cmd, e, sizeof e));
  fail(m);
  return 0;
}

int engine_run(FILE *in) {
  Session S;
  memset(&S, 0, sizeof S);
  char *line = NULL;
  size_t cap = 0;
  long len;
  /* a line is read whole, however long; one over CMD_MAX_LINE or with a NUL byte is refused
   * whole (one '?' answer): no part of it is ever run as a command */
  while ((len = cmd_read_line(in, &line, &cap, CMD_MAX_LINE)) != -1) {
    if (len == -2) fail("line too long (at most 65536 bytes); ignored");
    else if (len == -3) fail("line contains a NUL byte; ignored");
    else if (engine_line(&S, line)) break;
  }
  free(line);
  if (S.sc) session_free(&S);
  return 0;
}
