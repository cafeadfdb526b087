/* ./waterloo play: a solo game against the computer.
 * The human types actions in the engine notation (or a number from `legal`); the computer plays
 * the other side with an honest player.  Hints, battle odds, undo (never past a reveal or a
 * random event), save/load, a readable log and the seed to replay the game. */
#include <ctype.h>
#include <inttypes.h>
#include <readline/history.h>
#include <readline/readline.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../ai/player.h"
#include "front.h"
#include "cmd.h"
#include "json.h"
#include "parse.h"
#include "session.h"
#include "../ai/review.h"

typedef struct {
  Session S;          /* scenario, position, record, undo barrier, log, the computer */
  Scen *sc;           /* = S.sc */
  int human;          /* FRENCH / ALLIED: the side of the person at the keyboard now */
  int seat;           /* the seat that person holds (-1 before the first prompt) */
  int seated;         /* --seats (or a saved game's seats): seat names at the prompt */
  int color;
  FILE *log;          /* optional log file */
  StUnits seen;       /* the units as the board last shown drew them */
  int computer_acted; /* the computer has acted since the human's last prompt */
  ActList *L;         /* the legal actions at the prompt, as `legal` numbers them */
  int cheat;          /* a cheat player sits at the table: said at the start */
  int was_over;       /* a loaded game that had ended: nobody at this keyboard won or lost it */
} Play;

static void say(Play *P, const char *text) {
  printf("%s\n", text);
  if (P->log) fprintf(P->log, "%s\n", text);
}

static void show_hand(Play *P) {
  const Scen *sc = P->sc;
  int armies[2] = {P->human == FRENCH ? ARMY_FR : ARMY_BR, ARMY_PR};
  int n = P->human == FRENCH ? 1 : (sc->p.prussians ? 2 : 1);
  for (int i = 0; i < n; i++) {
    printf("%s hand:\n", army_name(armies[i]));
    for (uint64_t m = P->S.s.cards.hand & sc->army_cards[armies[i]]; m; m &= m - 1) {
      const CardDef *c = &sc->card[__builtin_ctzll(m)];
      char act[48] = "";
      if (c->action == ACT_COMMAND) snprintf(act, sizeof act, ", command +%d/+%d", c->cmd_att, c->cmd_def);
      else if (c->action) snprintf(act, sizeof act, ", %s", action_kind_name(c->action));
      printf("  %s %-34s MP %d  BP %d%s\n", c->id, c->name, c->mp, c->bp, act);
    }
  }
  printf("opponent cards in hand: %d\n",
         P->human == FRENCH ? hand_count(sc, &P->S.s, ARMY_BR) + hand_count(sc, &P->S.s, ARMY_PR)
                            : hand_count(sc, &P->S.s, ARMY_FR));
}

static void show(Play *P) {
  P->seen = P->S.s.units;
  session_board(&P->S, stdout, P->color);
  printf("\n");
  show_hand(P);
}

/* the units of one battle before cards, with the modifiers behind each value */
static void odds_units(Play *P, int def_sq, int mask) {
  const Scen *sc = P->sc;
  const State *s = &P->S.s;
  char why[4][64], defwhy[64];
  battle_reasons(sc, s, def_sq, mask, why, defwhy);
  for (int d = 0; d < 4; d++) {
    int u = (mask & (1 << d)) ? unit_at(sc, s, sc->nb[def_sq][d]) : UNIT_NONE;
    if (u != UNIT_NONE)
      printf("      %-14s BP %d%s%s%s\n", sc->unit[u].name, unit_bp(sc, s, u), why[d][0] ? " (" : "", why[d],
             why[d][0] ? ")" : "");
  }
  int v = unit_at(sc, s, def_sq);
  if (v != UNIT_NONE)
    printf("      %-14s BP %d%s%s%s (defending)\n", sc->unit[v].name, unit_bp(sc, s, v), defwhy[0] ? " (" : "",
           defwhy, defwhy[0] ? ")" : "");
}

/* battle odds for each legal attack: totals before cards */
static void odds(Play *P) {
  ActList *L = malloc(sizeof *L);
  gs_legal(P->sc, &P->S.s, L);
  int any = 0;
  for (int i = 0; i < L->n; i++) {
    if (L->a[i].t != A_DECLARE) continue;
    int a, d;
    int dsq = L->a[i].declare.sq, dirs = L->a[i].declare.dirs;
    battle_base_totals(P->sc, &P->S.s, dsq, dirs, &a, &d);
    char txt[128];
    action_format(P->sc, &P->S.s, L->a[i], txt, sizeof txt);
    printf("  %-32s attacker %d vs defender %d before cards%s\n", txt, a, d,
           a > 2 * d ? " (more than double: defender reduced and retreats)" : "");
    odds_units(P, dsq, dirs);
    any = 1;
  }
  if (P->S.s.battle.def_unit != UNIT_NONE) {
    int a, d, mask = 0;
    for (int k = 0; k < 4; k++) mask |= P->S.s.battle.att[k] != UNIT_NONE ? 1 << k : 0;
    battle_base_totals(P->sc, &P->S.s, P->S.s.battle.def_sq, mask, &a, &d);
    printf("  battle in progress: attacker %d vs defender %d before cards (ties go to the defender)\n", a, d);
    odds_units(P, P->S.s.battle.def_sq, mask);
    int h;
    if (battle_seen_totals(P->sc, &P->S.s, P->human, &a, &d, &h) == 0 && (P->S.s.cards.pend || h))
      printf("  with the cards you have committed: attacker %d vs defender %d; the other side has "
             "committed %d secret card%s\n", a, d, h, h == 1 ? "" : "s");
    any = 1;
  }
  if (!any) printf("  no battle to weigh now\n");
  free(L);
}

/* print the log lines of the actions from log entry `first` on: who played what, what it
 * caused, a new turn */
static void print_entries(Play *P, int first) {
  for (int i = first; i < P->S.nlog; i++) {
    const LogEntry *e = &P->S.log[i];
    char line[1100];
    snprintf(line, sizeof line, "[t%d %s] %s (%s): %s", e->turn, phase_name(e->phase), side_name(e->side),
             e->by_human ? "you" : "AI", e->text);
    say(P, line);
    /* why the computer chose it, then what it caused (a reveal, a loss, the game's end) */
    if (e->why[0]) {
      snprintf(line, sizeof line, "    why: %s", e->why);
      say(P, line);
    }
    if (e->events[0]) {
      snprintf(line, sizeof line, "    %s", e->events);
      say(P, line);
    }
    int turn = i + 1 < P->S.nlog ? P->S.log[i + 1].turn : P->S.s.turn.number;
    if (turn != e->turn && !(i + 1 == P->S.nlog && gs_over(&P->S.s))) {
      snprintf(line, sizeof line, "=== turn %d ===", turn);
      say(P, line);
    }
  }
}

/* play the computer's action through the session (which moves the undo barrier past reveals,
 * chance and the computer's replies) and print its log line, what it caused and why */
static void apply_computer(Play *P) {
  char why[512];
  Action a = session_computer_think(&P->S, &P->S.s, why, sizeof why);
  session_apply(&P->S, a, 0);
  session_note_why(&P->S, why);
  print_entries(P, P->S.nlog - 1);
  P->computer_acted = 1;
}

/* your units and the enemy's, one line each */
static void units(Play *P) {
  const Scen *sc = P->sc;
  const State *s = &P->S.s;
  for (int pass = 0; pass < 2; pass++) {
    int side = pass ? !P->human : P->human;
    printf("%s units:\n", pass ? "enemy" : "your");
    for (int u = 0; u < sc->nunits; u++) {
      if (unit_side(sc, u) != side || (sc->unit[u].army == ARMY_PR && !sc->p.prussians)) continue;
      char q[4] = "-";
      if (s->units.sq[u] < NSQ) sq_name(s->units.sq[u], q);
      int f = s->units.flag[u];
      printf("  %-14s %-4s %c  BP %d%s%s%s%s%s%s  %s\n", sc->unit[u].name,
             s->units.sq[u] == SQ_OFF    ? "off"
             : s->units.sq[u] == SQ_DEAD ? "dead"
                                         : q,
             "NESW"[f & 3], unit_bp(sc, s, u), sc -> unit[u].kind == K_CAV ? " cav" : " inf",
             sc->unit[u].elite ? " elite" : "", f & UF_REDUCED ? " reduced" : "",
             f & UF_DISORDER ? " disordered" : "", f & UF_MOVED ? " moved" : "",
             f & UF_RALLIED ? " rallied" : "", sc->unit[u].longname);
    }
  }
}

/* one command line, read whole however long; an over-long line (or one with a NUL byte) is
 * refused whole and read as an empty line: no part of it runs */
static char *read_cmd(const char *prompt) {
  if (isatty(0)) {
    char *l = readline(prompt);
    if (l && strlen(l) > CMD_MAX_LINE) {
      printf("  line too long (at most %d bytes); ignored\n", CMD_MAX_LINE);
      l[0] = 0;
    }
    if (l && *l) add_history(l);
    return l;
  }
  static char *buf;
  static size_t cap;
  fputs(prompt, stdout);
  fflush(stdout);
  long n = cmd_read_line(stdin, &buf, &cap, CMD_MAX_LINE);
  if (n == -1) {
    free(buf);
    buf = NULL, cap = 0;
    return NULL;
  }
  if (n < 0) {
    printf("\n  %s; ignored\n", n == -2 ? "line too long (at most 65536 bytes)" : "line contains a NUL byte");
    return strdup("");
  }
  printf("%s\n", buf);
  return strdup(buf);
}

static void help(void) {
  printf("Type an action as `legal` prints it (or its number), or:\n"
         "  legal        list your legal actions, numbered (a pass or `done` last: its word or number)\n"
         "  board        the board, the position and your hand\n"
         "  hint         the AI's top candidates for you (visit share, estimated win rate)\n"
         "  odds         battle totals before cards for each attack you may declare\n"
         "  units        your units and the enemy's: square, facing, BP, markers\n"
         "  move UNIT SQUARE [N|E|S|W]   a destination move: the steps and turns are played for you\n"
         "  undo         take back your last decision (never past the computer's reply, a reveal or\n"
         "               a random event)\n"
         "  save FILE    save the game (JSON; `waterloo play --load FILE` resumes it); the file holds\n"
         "               every hand, the computer's too: read it after the game (`waterloo review`\n"
         "               of it judges only your side until the game is over)\n"
         "  log          the actions so far\n"
         "  quit         leave (the game is not saved unless you saved it or gave --save FILE)\n");
}

static int c_help(void *ctx, char *args) { return help(), 0; }
static int c_board(void *ctx, char *args) { return show(ctx), 0; }
static int c_odds(void *ctx, char *args) { return odds(ctx), 0; }
static int c_units(void *ctx, char *args) { return units(ctx), 0; }
static int c_quit(void *ctx, char *args) { return 1; }

/* the actions that end or decline a step of play: the round's pass or end, a movement card's
 * `done`, no battle, no more battle cards, no fire, no evasion, one unit rallied only */
static int ends_or_declines(Action a) {
  switch (a.t) {
  case A_END: case A_DONE: case A_NOBATTLE: case A_BDONE: case A_NOFIRE: case A_NOEVADE: case A_RALLY_DONE:
    return 1;
  default:
    return 0;
  }
}

/* the legal actions at the prompt as `legal` numbers them: gs_legal's order, but the action
 * that ends or declines (the round's pass or end, `done`, `battle done`, no battle, no fire ...)
 * last, so that a 1 typed for the first choice never gives the round away (a pass answered by
 * a pass ends the turn, R-4.5, and undo stops at the computer's reply) nor commits a battle
 * with no card; the words (`pass`, `battle done` ...) play them as before */
static void legal_numbered(Play *P) {
  ActList *L = P->L;
  gs_legal(P->sc, &P->S.s, L);
  for (int i = 0; i + 1 < L->n; i++)
    if (ends_or_declines(L->a[i])) {
      Action end = L->a[i];
      memmove(&L->a[i], &L->a[i + 1], sizeof L->a[0] * (size_t)(L->n - 1 - i));
      L->a[L->n - 1] = end;
      break;
    }
}

static int c_legal(void *ctx, char *args) {
  Play *P = ctx;
  for (int i = 0; i < P->L->n; i++) {
    char t[128];
    Action a = P->L->a[i];
    action_format(P->sc, &P->S.s, a, t, sizeof t);
    int pass = a.t == A_END && P->S.s.turn.ncards == 0;
    printf("  %3d  %s%s\n", i + 1, t,
           a.t == A_BDONE ? "   (commits no more battle cards)"
           : a.t == A_DONE ? "   (ends this card's movement)"
           : a.t != A_END  ? ""
           : pass          ? "   (no card this round; a pass answered by a pass ends the turn)"
                           : "   (ends your round)");
  }
  return 0;
}

/* the AI's top candidates for the human, at the hint level (front/session.h) */
static int c_hint(void *ctx, char *args) {
  Play *P = ctx;
  char err[256];
  Player *h = session_player(&P->S, session_hint_level(&P->S), P->S.seed * 7919u + 2, err, sizeof err);
  if (!h) return printf("  %s\n", err), 0;
  Candidate c[5];
  int n = player_analyze(h, &P->S.s, c, 5);
  for (int i = 0; i < n; i++) {
    char t[128];
    action_format(P->sc, &P->S.s, c[i].a, t, sizeof t);
    char why[512];
    reason_action(P->sc, &P->S.s, c[i].a, 0, why, sizeof why);
    printf("  %-34s visits %5.1f%%  win %5.1f%%\n      %s\n", t, 100 * c[i].share, 100 * c[i].winrate, why);
  }
  player_free(h);
  return 0;
}

static int c_undo(void *ctx, char *args) {
  int k = session_undo(&((Play *)ctx)->S);
  if (k < 0) printf("  cannot undo: %s\n", session_no_undo_why(&((Play *)ctx)->S));
  else printf("  undone to action %d\n", k);
  return 0;
}

static int c_log(void *ctx, char *args) {
  Play *P = ctx;
  for (int i = 0; i < P->S.nlog; i++) {
    const LogEntry *e = &P->S.log[i];
    printf("  %4d t%d %-7s %s%s%s\n", i + 1, e->turn, side_name(e->side), e->text, e->events[0] ? "\n         " : "",
           e->events);
  }
  return 0;
}

static int c_save(void *ctx, char *args) {
  Play *P = ctx;
  char err[2048];
  if (!*args) printf("  usage: save FILE\n");
  else if (session_save(&P->S, args, err, sizeof err)) printf("  %s\n", err);
  else printf("  saved to %s\n", args);
  return 0;
}

/* the prompt's commands; any other line is an action (or its number in `legal`) */
static const CmdDef PLAY_CMDS[] = {
    {"quit", 0, c_quit},   {"help", 0, c_help}, {"board", 0, c_board}, {"legal", 0, c_legal},
    {"odds", 0, c_odds},   {"hint", 0, c_hint}, {"undo", 0, c_undo},   {"units", 0, c_units},
    {"log", 0, c_log},     {"save", CMD_ARGS, c_save}, {NULL, 0, NULL}};

/* a line that is not a command: the number of a legal action, an action in notation or a
 * destination move (front/session.h: session_play_text) */
static void play_line(Play *P, const char *cmd) {
  char *end, err[2048], derr[256], near[128];
  long k = strtol(cmd, &end, 10);
  int first = P->S.nlog;
  int numbered = *end == 0 && k >= 1 && k <= P->L->n;
  if (numbered) session_apply(&P->S, P->L->a[k - 1], 1); /* `legal`'s numbers: legal_numbered */
  if (numbered ||
      session_play_text(&P->S, cmd, 1, err, sizeof err, derr, sizeof derr) >= 0)
    print_entries(P, first);
  else {
    printf("  %s\n", err);
    if (derr[0]) printf("  %s\n", derr);
    else {
      /* a suggestion only when it is near what was typed, else where to look */
      int d = nearest_action(P->sc, &P->S.s, cmd, near, sizeof near);
      int k = (int)strlen(cmd);
      if (d >= 0 && near[0] && d <= (k / 3 > 2 ? k / 3 : 2)) printf("  nearest legal action: %s\n", near);
      else printf("  `legal` lists your actions now, `help` the commands\n");
    }
    return;
  }
  if (P->S.s.turn.phase == PH_ROUND && gs_decider(&P->S.s) == P->human && P->S.s.turn.ncards == 0)
    show(P);
}

/* one line at the prompt: 1 when the human leaves */
static int prompt_line(Play *P, const char *line) {
  char *copy = strdup(line), *args;
  if (!copy) abort();
  char *word = cmd_split(copy, &args);
  const CmdDef *c = word ? cmd_find(PLAY_CMDS, word, args) : NULL;
  int stop = 0;
  if (c) stop = c->run(P, args);
  else if (word) play_line(P, line + strspn(line, " \t\n\v\f\r"));
  free(copy);
  return stop;
}

/* --save FILE is checked before the game, not found wrong after it: its folder must be
 * writable, and a file already there is never overwritten unless it is the game --load goes on
 * with (nothing already saved is lost); 1 (and the line said) when it is bad */
static int save_target_bad(const PlayOpts *o) {
  struct stat st, ld;
  if (stat(o->save, &st) == 0) {
    if (o->load && stat(o->load, &ld) == 0 && st.st_dev == ld.st_dev && st.st_ino == ld.st_ino) return 0;
    fprintf(stderr, "waterloo play: --save %s: the file exists (name another, or --load it to go on "
                    "with that game)\n", o->save);
    return 1;
  }
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", o->save);
  char *slash = strrchr(dir, '/');
  if (!slash) snprintf(dir, sizeof dir, ".");
  else if (slash == dir) dir[1] = 0;
  else *slash = 0;
  if (access(dir, W_OK) != 0) {
    fprintf(stderr, "waterloo play: --save %s: cannot write in %s\n", o->save, dir);
    return 1;
  }
  return 0;
}

/* the session from the command line: a new game or a saved one; 0 ok, 2 bad options */
static int play_open(Play *P, const PlayOpts *o) {
  P->human = o->human;
  P->seat = -1;
  P->color = o->color;
  char err[2048], saved[64];
  const char *level = o->level;
  /* a save of a game against the computer goes on as one (no seats' banner), at its level
   * unless --level names another, on its side unless --side names the other */
  int classic = 0, side;
  if (o->load && !o->seats && session_saved_classic(o->load, &side, saved, sizeof saved) == 1) {
    classic = 1;
    if (!o->side_given) P->human = side;
    if (!o->level_given) level = saved;
  }
  if (o->load) {
    if (session_load(&P->S, o->load, P->human, level, err, sizeof err)) {
      fprintf(stderr, "waterloo play: %s\n", err);
      return 2;
    }
  } else if (session_new(&P->S, o->scenario, o->variant, o->seed_given ? o->seed : session_fresh_seed(),
                         P->human, level, err, sizeof err)) {
    fprintf(stderr, "waterloo play: %s\n", err);
    return 2;
  }
  P->sc = P->S.sc;
  /* the seats asked for; else a saved game's own, unless a side was asked for */
  const char *seats = o->seats;
  if (!seats && o->load && !o->side_given && !classic && P->S.g.seats[0]) seats = P->S.g.seats;
  if (seats && session_set_seats(&P->S, seats, err, sizeof err)) {
    const char *why = strncmp(err, "seats: ", 7) ? err : err + 7; /* front/seats.c names them */
    if (seats == o->seats) fprintf(stderr, "waterloo play: --seats: %s\n", why);
    else fprintf(stderr, "waterloo play: %s: its seats: %s\n", o->load, why);
    session_free(&P->S);
    return 2;
  }
  P->seated = seats != NULL;
  if (o->save && save_target_bad(o)) {
    session_free(&P->S);
    return 2;
  }
  /* the labelled cheating player may be asked for, but never silently (README: players) */
  P->cheat = strstr(level, "cheat") || (seats && strstr(seats, "cheat"));
  if (o->log && !(P->log = fopen(o->log, "a"))) {
    fprintf(stderr, "waterloo play: cannot open log %s\n", o->log);
    session_free(&P->S);
    return 2;
  }
  return 0;
}

static void play_end(Play *P) {
  char d[256], why[300], line[600];
  gs_describe(P->sc, &P->S.s, d, sizeof d);
  game_end_reason(P->sc, &P->S.s, why, sizeof why); /* the castles held, or the VP, as replay */
  snprintf(line, sizeof line, "%s — %s", d, why);
  say(P, line);
  const State *s = &P->S.s;
  int won = (s->score.result == RES_FRENCH && P->human == FRENCH) ||
            (s->score.result == RES_ALLIED && P->human == ALLIED);
  /* the command names who sat where too, so that it plays the same game again */
  char who[256];
  if (P->seated) {
    char st[200];
    seats_text(&P->S.seats, st, sizeof st);
    snprintf(who, sizeof who, "--seats %s", st);
  } else {
    snprintf(who, sizeof who, "--side %s --level %s", P->human == FRENCH ? "french" : "allied", P->S.level);
  }
  /* nobody at this keyboard alone won it: people on both sides, or a game that had ended */
  int shared = P->S.human == SESSION_BOTH_SIDES || P->was_over;
  const char *verdict = s->score.result == RES_DRAW     ? "A draw."
                        : shared                        ? (s->score.result == RES_FRENCH ? "The French won."
                                                                                         : "The Allies won.")
                        : won                           ? "You won."
                                                        : "You lost.";
  printf("%s Replay this game with: waterloo play --seed %" PRIu64 " --scenario %s --variant %s %s\n", verdict,
         P->S.seed, P->sc->scen_name, P->sc->variant_names, who);
}

/* the person whose seat decides comes to the keyboard: when people sit on both sides and the
 * side changes, the screen is cleared (a terminal) and the next player confirms before their
 * hand is shown; a partner of the same side sees the same hand (ruling) */
static void take_seat(Play *P) {
  int seat = gs_seat(P->sc, &P->S.s), side = seat_side(seat);
  if (seat == P->seat) return;
  int was_side = P->human, first = P->seat < 0;
  P->seat = seat;
  P->human = side;
  if (!P->seated) return;   /* a classic game: one person, one side, as before seats */
  if (P->S.human == SESSION_BOTH_SIDES && !first && side != was_side) {
    if (isatty(1)) printf("\033[2J\033[H");
    printf("-- the %s player's decision: the others look away --\n", army_name(seat));
    if (isatty(0)) free(read_cmd("press Enter when you are at the keyboard "));
    show(P);
    return;
  }
  printf("-- the %s player's decision --\n", army_name(seat));
  if (first || side != was_side) show(P);
}

/* --save FILE: the game as it stands when the player leaves, finished or not; 1 if it failed */
static int save_at_end(Play *P, const char *path, int over) {
  char err[2048];
  if (session_save(&P->S, path, err, sizeof err)) {
    fprintf(stderr, "waterloo play: --save: %s\n", err);
    return 1;
  }
  if (over) printf("Saved to %s: `waterloo review %s` shows what each decision cost.\n", path, path);
  else printf("Saved to %s (unfinished): `waterloo play --load %s` goes on with it.\n", path, path);
  return 0;
}

/* a finished game at the keyboard: the player may still keep it, for `waterloo review` */
static void after_game(Play *P) {
  static const CmdDef AFTER_CMDS[] = {{"quit", 0, c_quit}, {"board", 0, c_board}, {"units", 0, c_units},
                                      {"log", 0, c_log},   {"save", CMD_ARGS, c_save}, {NULL, 0, NULL}};
  printf("The game is over: `save FILE` keeps it for `waterloo review FILE` (what each decision "
         "cost); `log`, `board`; Enter leaves.\n");
  char *line;
  while ((line = read_cmd("game over> "))) {
    char *args, *word = cmd_split(line, &args);
    const CmdDef *c = word ? cmd_find(AFTER_CMDS, word, args) : NULL;
    int stop = !word || (c && c->run(P, args));
    if (word && !c) printf("  the game is over: `save FILE`, `log`, `board`, `units`, or Enter to leave\n");
    free(line);
    if (stop) break;
  }
}

static void cheat_note(void) {
  printf("Note: a cheat player sees every hand and the deck: a yardstick for the laboratory, not a "
         "difficulty level.\n");
}

int play_run(const PlayOpts *o) {
  Play P;
  memset(&P, 0, sizeof P);
  if (play_open(&P, o)) return 2;
  P.was_over = gs_over(&P.S.s);
  if (P.was_over) {
    printf("Waterloo, %s game, variants %s, seed %" PRIu64 ": this game is over (%d actions; "
           "`waterloo review %s` judges its decisions).\n",
           P.sc->scen_name, P.sc->variant_names, P.S.seed, P.S.nlog, o->load);
    show(&P);
  } else if (P.seated) {
    char st[200];
    seats_text(&P.S.seats, st, sizeof st);
    printf("Waterloo, %s game, variants %s, seed %" PRIu64 ". Seats: %s.\nType `help` for the commands.\n",
           P.sc->scen_name, P.sc->variant_names, P.S.seed, st);
    if (P.cheat) cheat_note();
  } else {
    printf("Waterloo, %s game, variants %s, seed %" PRIu64 ". You play the %s; the computer (%s) the %s.\n"
           "Type `help` for the commands.\n",
           P.sc->scen_name, P.sc->variant_names, P.S.seed, side_name(P.human), P.S.level,
           side_name(!P.human));
    if (P.cheat) cheat_note();
    show(&P);
  }
  P.L = malloc(sizeof *P.L);
  if (!P.L) abort();
  int ended = 0; /* the input ran out (not `quit`) */
  while (!gs_over(&P.S.s)) {
    if (!session_humans_turn(&P.S)) {
      apply_computer(&P);
      continue;
    }
    take_seat(&P);
    /* the computer moved, turned or hit something since the board was drawn: draw it again */
    if (P.computer_acted && memcmp(&P.seen, &P.S.s.units, sizeof P.seen)) show(&P);
    P.computer_acted = 0;
    legal_numbered(&P);
    char prompt[96], mp[16] = "";
    if (P.S.s.turn.phase == PH_MOVE) snprintf(mp, sizeof mp, ", %d MP", P.S.s.play.mp);
    snprintf(prompt, sizeof prompt, "[turn %d, %s%s] %s> ", P.S.s.turn.number,
             phase_name(P.S.s.turn.phase), mp,
             P.seated ? army_name(P.seat) : side_name(P.human));
    char *line = read_cmd(prompt);
    if (!line) {
      ended = 1;
      break;
    }
    int stop = prompt_line(&P, line);
    free(line);
    if (stop) break;
  }
  int over = gs_over(&P.S.s), rc = 0;
  if (over) play_end(&P);
  else if (ended)
    fprintf(stderr, "waterloo play: the input ended at turn %d, before the game did%s\n", P.S.s.turn.number,
            o->save ? "" : "; it is not saved (`save FILE` at the prompt, or --save FILE)");
  if (o->save) rc = save_at_end(&P, o->save, over);
  else if (over && isatty(0)) after_game(&P);
  if (P.log) fclose(P.log);
  free(P.L);
  session_free(&P.S);
  return rc;
}
