/* ./waterloo engine: one command per line on stdin, answers in the GTP style:
 * "= answer" (possibly several lines) then a blank line, or "? message" then a blank line. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/player.h"
#include "cli.h"
#include "session.h"
#include "../engine/num.h"

typedef struct {
  Scen *sc;
  State s;
  GameRec g;
  int ready;
  uint64_t seed;
} Eng;

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

static char *board_text(const Scen *sc, const State *s) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  board_print(sc, s, f, 0);
  char d[256];
  gs_describe(sc, s, d, sizeof d);
  fprintf(f, "%s", d);
  fclose(f);
  return buf;
}

/* the engine's game becomes a new one on sc (which it now owns) from position *s: the set-up of
 * (seed, 0), or a position of its own (has_start) that the record starts from */
static void eng_adopt(Eng *e, Scen *sc, const char *scen, const char *vars, uint64_t seed,
                      const State *s, int has_start) {
  free(e->sc);
  e->sc = sc;
  gamerec_free(&e->g);
  gamerec_init(&e->g, scen, vars, seed, 0);
  e->g.has_start = has_start;
  if (has_start) e->g.start = *s;
  e->s = *s;
  e->ready = 1;
  e->seed = seed;
}

static int eng_new(Eng *e, char *args) {
  char *tok[16];
  int n = 0;
  char *save = NULL;
  for (char *t = strtok_r(args, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
    if (n == 16) {
      fail("new: too many words (at most 16)");
      return -1;
    }
    tok[n++] = t;
  }
  if (n < 1) {
    fail("usage: new short|long [VARIANT ...] [seed N]");
    return -1;
  }
  char vars[256] = "";
  uint64_t seed = 1;
  for (int i = 1; i < n; i++) {
    if (!strcmp(tok[i], "seed")) {
      char e[64], m[160];
      if (i + 1 >= n || num_u64(tok[i + 1], 0, UINT64_MAX, &seed)) {
        snprintf(m, sizeof m, "new: seed must be a whole number from 0 to 18446744073709551615, not '%s'",
                 i + 1 < n ? num_escape(tok[i + 1], e, sizeof e) : "");
        fail(m);
        return -1;
      }
      i++;
      continue;
    }
    if (*vars) strncat(vars, ",", sizeof vars - strlen(vars) - 1);
    strncat(vars, tok[i], sizeof vars - strlen(vars) - 1);
  }
  char err[2048];
  Scen *sc = malloc(sizeof *sc);
  if (!sc) {
    fail("out of memory");
    return -1;
  }
  if (scen_load(sc, scen_default_dir(), tok[0], *vars ? vars : "base", err, sizeof err)) {
    for (char *p = err; *p; p++)
      if (*p == '\n') *p = ';';
    fail(err);
    free(sc);
    return -1;
  }
  State s;
  gs_init(sc, &s, seed, 0);
  eng_adopt(e, sc, tok[0], *vars ? vars : "base", seed, &s, 0);
  return 0;
}

/* setposition SCENARIO VARIANTS KEY=VALUE ...: the game restarts from that position */
static int eng_setposition(Eng *e, const char *args) {
  char scen[64], vars[512], err[2048];
  if (position_scenario(args, scen, sizeof scen, vars, sizeof vars)) {
    fail("usage: setposition SCENARIO VARIANTS KEY=VALUE ... (as `position` prints it)");
    return -1;
  }
  Scen *sc = malloc(sizeof *sc);
  State s;
  if (!sc) {
    fail("out of memory");
    return -1;
  }
  if (scen_load(sc, scen_default_dir(), scen, vars, err, sizeof err) ||
      position_parse(sc, args, &s, err, sizeof err) || state_validate(sc, &s, err, sizeof err)) {
    for (char *p = err; *p; p++)
      if (*p == '\n') *p = ';';
    fail(err);
    free(sc);
    return -1;
  }
  eng_adopt(e, sc, scen, vars, 1, &s, 1);
  return 0;
}

/* plays a and appends what it caused (public events, as action_events) to ev */
static void play_action(Eng *e, Action a, char *ev, size_t evlen) {
  State before = e->s;
  gs_apply(e->sc, &e->s, a);
  gamerec_push(&e->g, a);
  char t[1024];
  if (ev && action_events(e->sc, &before, a, &e->s, -1, t, sizeof t)) {
    size_t n = strlen(ev);
    snprintf(ev + n, evlen - n, "%s%s", n ? "; " : "", t);
  }
}

static void print_json(cJSON *o) {
  char *t = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  ok(t);
  free(t);
}

static void eng_ai(Eng *e, const char *level, int analyze) {
  if (gs_over(&e->s)) {
    fail("the game is over");
    return;
  }
  char spec[96], err[256];
  cli_level_spec(level, spec, sizeof spec);
  Player *p = player_new(e->sc, spec, e->seed * 1000003u + e->g.n, err, sizeof err);
  if (!p) {
    fail(err);
    return;
  }
  if (analyze) {
    Candidate c[8];
    int n = player_analyze(p, &e->s, c, 8);
    char out[2048] = "";
    for (int i = 0; i < n; i++) {
      char a[128], line[200];
      action_format(e->sc, &e->s, c[i].a, a, sizeof a);
      snprintf(line, sizeof line, "%s%s | visits %.1f%% | win %.1f%%", i ? "\n" : "", a,
               100 * c[i].share, 100 * c[i].winrate);
      strncat(out, line, sizeof out - strlen(out) - 1);
    }
    ok(out);
  } else {
    Action a = player_act(p, &e->s);
    char txt[128];
    action_format(e->sc, &e->s, a, txt, sizeof txt);
    play_action(e, a, NULL, 0);
    ok(txt);
  }
  player_free(p);
}

static void eng_undo(Eng *e) {
  if (e->g.n == 0) {
    fail("nothing to undo");
    return;
  }
  e->g.n--;
  gamerec_position(e->sc, &e->g, e->g.n, &e->s);
  ok("");
}

static const char *COMMANDS =
    "protocol_version\nname\nversion\nlist_commands\nnew\nload\nsave\nshow\nlegal\nlegaljson\nplay\nstate\n"
    "scenario\nreach\n"
    "position\nsetposition\nturn\nresult\nundo\ngenmove\nanalyze\nquit";

int cmd_engine(int argc, char **argv) {
  if (opt_has(argc, argv, "--help")) {
    printf("usage: waterloo engine\n"
           "Reads one command per line on stdin; answers '= ...' and a blank line, or '? message'.\n"
           "Commands:\n"
           "  new short|long [VARIANT ...] [seed N]   start a game\n"
           "  load FILE / save FILE                   a whole game (JSON)\n"
           "  show            the board and the position\n"
           "  legal           the legal actions of the side to decide, one per line\n"
           "  legaljson       the legal actions in structured form (JSON, docs/API.md)\n"
           "  play ACTION     play one (notation as printed by legal); answers what it caused\n"
           "                  (bids and battle cards revealed, totals, losses, squares taken)\n"
           "  play move UNIT SQUARE [N|E|S|W]   a destination move (its steps and turns)\n"
           "  reach UNIT      where UNIT can move with the card's MP left, at what cost (JSON)\n"
           "  state           the position as JSON (everything: both hands, the deck)\n"
           "  state SIDE      what french or allied sees (JSON, never the other side's cards)\n"
           "  scenario        map, units, cards and parameters (JSON)\n"
           "  position        the position as one line of text (KEY=VALUE fields)\n"
           "  setposition SCENARIO VARIANTS KEY=VALUE ...   start from a position text (the\n"
           "                  set-up with the fields given written over it; see HACKING.md)\n"
           "  turn            turn, round, phase and who decides\n"
           "  result          running, French win, Allied win or draw (with VP)\n"
           "  undo            take back the last action\n"
           "  genmove [LEVEL] the AI chooses and plays an action (easy normal hard expert, or a spec)\n"
           "  analyze [LEVEL] the AI's top candidates with visit share and win rate\n"
           "  quit\n");
    return 0;
  }
  Eng e = {0};
  char *line = NULL;
  size_t cap = 0;
  long len;
  /* a line is read whole, however long; one over CLI_MAX_LINE or with a NUL byte is refused
   * whole (one '?' answer): no part of it is ever run as a command */
  while ((len = cli_read_line(stdin, &line, &cap, CLI_MAX_LINE)) != -1) {
    if (len == -2) {
      fail("line too long (at most 65536 bytes); ignored");
      continue;
    }
    if (len == -3) {
      fail("line contains a NUL byte; ignored");
      continue;
    }
    char *cmd = line;
    while (isspace((unsigned char)*cmd)) cmd++;
    if (!*cmd || *cmd == '#') continue;
    char *args = cmd + strcspn(cmd, " \t");
    if (*args) *args++ = 0;
    while (isspace((unsigned char)*args)) args++;
    if (!strcmp(cmd, "quit")) {
      ok("");
      break;
    } else if (!strcmp(cmd, "protocol_version")) ok("2");
    else if (!strcmp(cmd, "name")) ok("waterloo");
    else if (!strcmp(cmd, "version")) ok("1.0");
    else if (!strcmp(cmd, "list_commands")) ok(COMMANDS);
    else if (!strcmp(cmd, "new")) {
      if (!eng_new(&e, args)) ok("");
    } else if (!strcmp(cmd, "load")) {
      char err[512];
      Scen *sc = malloc(sizeof *sc);
      GameRec g;
      State s;
      if (!sc) fail("out of memory");
      else if (!*args) {
        fail("usage: load FILE");
        free(sc);
      }
      else if (game_load(sc, scen_default_dir(), args, &g, &s, err, sizeof err)) {
        fail(err);
        free(sc);
      } else {
        free(e.sc);
        gamerec_free(&e.g);
        e.sc = sc, e.g = g, e.s = s, e.ready = 1, e.seed = g.seed;
        ok("");
      }
    } else if (!strcmp(cmd, "setposition")) {
      if (!eng_setposition(&e, args)) ok("");
    } else if (!e.ready) {
      fail("no game: use 'new short' or 'new long' first");
    } else if (!strcmp(cmd, "save")) {
      char err[512];
      if (!*args) fail("usage: save FILE");
      else if (game_save(e.sc, &e.g, &e.s, args, err, sizeof err)) fail(err);
      else ok("");
    } else if (!strcmp(cmd, "show")) {
      char *b = board_text(e.sc, &e.s);
      ok(b);
      free(b);
    } else if (!strcmp(cmd, "legal")) {
      ActList *L = malloc(sizeof *L);
      if (!L) {
        fail("out of memory");
        continue;
      }
      gs_legal(e.sc, &e.s, L);
      size_t cap = 136 * (size_t)L->n + 16, n = 0;
      char *out = malloc(cap);
      if (!out) {
        fail("out of memory");
        free(L);
        continue;
      }
      out[0] = 0;
      for (int i = 0; i < L->n; i++) {
        char a[128];
        action_format(e.sc, &e.s, L->a[i], a, sizeof a);
        n += (size_t)snprintf(out + n, cap - n, "%s%s", i ? "\n" : "", a);
      }
      ok(out);
      free(out);
      free(L);
    } else if (!strcmp(cmd, "play")) {
      Action a;
      char err[256];
      char ev[2048] = "", derr[256];
      Action path[REACH_PATH];
      int n;
      if (gs_over(&e.s)) fail("the game is over");
      else if (!action_parse(e.sc, &e.s, args, &a, err, sizeof err)) {
        play_action(&e, a, ev, sizeof ev);
        ok(ev);
      } else if (!strncmp(args, "move", 4) && e.s.phase == PH_MOVE &&
                 (n = destination_parse(e.sc, &e.s, args, path, derr, sizeof derr)) > 0) {
        /* a destination move: its steps and turns, until another decision interrupts it */
        int side = e.s.decider;
        for (int i = 0; i < n && e.s.decider == side && gs_is_legal(e.sc, &e.s, path[i]); i++)
          play_action(&e, path[i], ev, sizeof ev);
        ok(ev);
      } else {
        char near[128], msg[600];
        if (nearest_action(e.sc, &e.s, args, near, sizeof near) >= 0 && near[0])
          snprintf(msg, sizeof msg, "%s; nearest: %s", err, near);
        else snprintf(msg, sizeof msg, "%s", err);
        fail(msg);
      }
    } else if (!strcmp(cmd, "state") && *args) {
      if (strcmp(args, "french") && strcmp(args, "allied")) fail("usage: state [french|allied]");
      else print_json(observation_json(e.sc, &e.s, !strcmp(args, "french") ? FRENCH : ALLIED));
    } else if (!strcmp(cmd, "scenario")) {
      print_json(scen_json(e.sc));
    } else if (!strcmp(cmd, "legaljson")) {
      print_json(legal_json(e.sc, &e.s));
    } else if (!strcmp(cmd, "reach")) {
      int u = scen_unit(e.sc, args);
      if (u < 0) fail("usage: reach UNIT");
      else print_json(reach_json(e.sc, &e.s, u));
    } else if (!strcmp(cmd, "state")) {
      char *j = state_to_json(e.sc, &e.s);
      ok(j);
      free(j);
    } else if (!strcmp(cmd, "position")) {
      char buf[8192];
      if (position_format(e.sc, &e.s, buf, sizeof buf) < 0) fail("position too long");
      else ok(buf);
    } else if (!strcmp(cmd, "turn")) {
      char d[256];
      gs_describe(e.sc, &e.s, d, sizeof d);
      ok(d);
    } else if (!strcmp(cmd, "result")) {
      int vp[2];
      char d[128];
      gs_score(e.sc, &e.s, vp);
      const char *r = !gs_over(&e.s) ? "running" : result_name(e.s.result);
      if (e.sc->scenario == SC_LONG) snprintf(d, sizeof d, "%s VP %d %d", r, vp[0], vp[1]);
      else snprintf(d, sizeof d, "%s", r);
      ok(d);
    } else if (!strcmp(cmd, "undo")) eng_undo(&e);
    else if (!strcmp(cmd, "genmove")) eng_ai(&e, args, 0);
    else if (!strcmp(cmd, "analyze")) eng_ai(&e, args, 1);
    else {
      char m[200], c[104];
      snprintf(m, sizeof m, "unknown command '%s' (try list_commands)", num_escape(cmd, c, sizeof c));
      fail(m);
    }
  }
  free(line);
  gamerec_free(&e.g);
  free(e.sc);
  return 0;
}
