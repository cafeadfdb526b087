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
#include <unistd.h>

#include "../ai/player.h"
#include "../cli/cli.h"
#include "../cli/session.h"

typedef struct {
  Session S;          /* scenario, position, record, undo barrier, log, the computer */
  Scen *sc;           /* = S.sc */
  int human;          /* FRENCH / ALLIED */
  int color;
  FILE *log;          /* optional log file */
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
    printf("%s hand:", army_name(armies[i]));
    for (uint64_t m = P->S.s.hand & sc->army_cards[armies[i]]; m; m &= m - 1) {
      const CardDef *c = &sc->card[__builtin_ctzll(m)];
      printf("  %s(%d/%d%s%s)", c->id, c->mp, c->bp, c->action ? " " : "",
             c->action ? action_kind_name(c->action) : "");
    }
    printf("\n");
  }
  printf("opponent cards in hand: %d\n",
         P->human == FRENCH ? hand_count(sc, &P->S.s, ARMY_BR) + hand_count(sc, &P->S.s, ARMY_PR)
                            : hand_count(sc, &P->S.s, ARMY_FR));
}

static void show(Play *P) {
  board_print(P->sc, &P->S.s, stdout, P->color);
  char d[256];
  gs_describe(P->sc, &P->S.s, d, sizeof d);
  printf("%s\n", d);
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
    battle_base_totals(P->sc, &P->S.s, L->a[i].a, L->a[i].b, &a, &d);
    char txt[128];
    action_format(P->sc, &P->S.s, L->a[i], txt, sizeof txt);
    printf("  %-32s attacker %d vs defender %d before cards%s\n", txt, a, d,
           a > 2 * d ? " (more than double: defender reduced and retreats)" : "");
    odds_units(P, L->a[i].a, L->a[i].b);
    any = 1;
  }
  if (P->S.s.bdef_unit != UNIT_NONE) {
    int a, d, mask = 0;
    for (int k = 0; k < 4; k++) mask |= P->S.s.batt[k] != UNIT_NONE ? 1 << k : 0;
    battle_base_totals(P->sc, &P->S.s, P->S.s.bdef_sq, mask, &a, &d);
    printf("  battle in progress: attacker %d vs defender %d before cards (ties go to the defender)\n", a, d);
    odds_units(P, P->S.s.bdef_sq, mask);
    int h;
    if (battle_seen_totals(P->sc, &P->S.s, P->human, &a, &d, &h) == 0 && (P->S.s.pend || h))
      printf("  with the cards you have committed: attacker %d vs defender %d; the other side has "
             "committed %d secret card%s\n", a, d, h, h == 1 ? "" : "s");
    any = 1;
  }
  if (!any) printf("  no battle to weigh now\n");
  free(L);
}

/* play one action through the session (which moves the undo barrier past reveals, chance and
 * the computer's replies) and print its log line and what it caused */
static void apply(Play *P, Action a, int by_human) {
  int turn = P->S.s.turn;
  session_apply(&P->S, a, by_human);
  const LogEntry *e = &P->S.log[P->S.nlog - 1];
  char line[1024];
  snprintf(line, sizeof line, "[t%d %s] %s (%s): %s", e->turn, phase_name(e->phase), side_name(e->side),
           by_human ? "you" : "AI", e->text);
  say(P, line);
  if (e->events[0]) {
    snprintf(line, sizeof line, "    %s", e->events);
    say(P, line);
  }
  if (P->S.s.turn != turn && !gs_over(&P->S.s)) {
    snprintf(line, sizeof line, "=== turn %d ===", P->S.s.turn);
    say(P, line);
  }
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
      if (s->usq[u] < NSQ) sq_name(s->usq[u], q);
      int f = s->uflag[u];
      printf("  %-14s %-4s %c  BP %d%s%s%s%s%s%s  %s\n", sc->unit[u].name,
             s->usq[u] == SQ_OFF ? "off" : s->usq[u] == SQ_DEAD ? "dead" : q, "NESW"[f & 3], unit_bp(sc, s, u),
             sc->unit[u].kind == K_CAV ? " cav" : " inf", sc->unit[u].elite ? " elite" : "",
             f & UF_REDUCED ? " reduced" : "", f & UF_DISORDER ? " disordered" : "", f & UF_MOVED ? " moved" : "",
             f & UF_RALLIED ? " rallied" : "", sc->unit[u].longname);
    }
  }
}

/* one command line, read whole however long; an over-long line (or one with a NUL byte) is
 * refused whole and read as an empty line: no part of it runs */
static char *read_cmd(const char *prompt) {
  if (isatty(0)) {
    char *l = readline(prompt);
    if (l && strlen(l) > CLI_MAX_LINE) {
      printf("  line too long (at most %d bytes); ignored\n", CLI_MAX_LINE);
      l[0] = 0;
    }
    if (l && *l) add_history(l);
    return l;
  }
  static char *buf;
  static size_t cap;
  fputs(prompt, stdout);
  fflush(stdout);
  long n = cli_read_line(stdin, &buf, &cap, CLI_MAX_LINE);
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
         "  legal        list your legal actions, numbered\n"
         "  board        the board, the position and your hand\n"
         "  hint         the AI's top candidates for you (visit share, estimated win rate)\n"
         "  odds         battle totals before cards for each attack you may declare\n"
         "  units        your units and the enemy's: square, facing, BP, markers\n"
         "  move UNIT SQUARE [N|E|S|W]   a destination move: the steps and turns are played for you\n"
         "  undo         take back your last decision (never past a reveal or a random event)\n"
         "  save FILE    save the game (JSON; `waterloo play --load FILE` resumes it)\n"
         "  log          the actions so far\n"
         "  quit         leave (the game is not saved unless you saved it)\n");
}

static Player *make_hint(Play *P, char *err, size_t len) {
  const char *lv = P->S.level;
  char spec[96];
  cli_level_spec(!strcmp(lv, "easy") || !strcmp(lv, "random") || !strcmp(lv, "heuristic") ? "normal" : lv, spec,
                 sizeof spec);
  return player_new(P->sc, spec, P->S.seed * 7919u + 2, err, len);
}

int cmd_play(int argc, char **argv) {
  if (opt_has(argc, argv, "--help")) {
    printf("usage: waterloo play [--side french|allied] [--level easy|normal|hard|expert|heuristic]\n"
           "                     [--scenario short|long] [--variant V[,V...]] [--seed S]\n"
           "                     [--load FILE] [--log FILE] [--no-color]\n"
           "A game against the computer. Type `help` at the prompt for the commands.\n"
           "The computer plays honestly: it never sees your hand or the deck.\n");
    return 0;
  }
  if (opt_check(argc, argv, "play", "--side --level --scenario --variant --seed --load --log --no-color!"))
    return 2;
  Play P;
  memset(&P, 0, sizeof P);
  const char *side = opt_get(argc, argv, "--side", "french");
  if (strcmp(side, "french") && strcmp(side, "allied")) {
    fprintf(stderr, "waterloo play: --side is french or allied, not '%s'\n", side);
    return 2;
  }
  P.human = !strcmp(side, "french") ? FRENCH : ALLIED;
  const char *level = opt_get(argc, argv, "--level", "normal");
  P.color = isatty(1) && !opt_has(argc, argv, "--no-color");
  char err[2048];
  const char *load = opt_get(argc, argv, "--load", NULL);
  if (load) {
    if (session_load(&P.S, load, P.human, level, err, sizeof err)) {
      fprintf(stderr, "waterloo play: %s\n", err);
      return 2;
    }
  } else {
    uint64_t seed;
    if (opt_u64("play", "--seed", opt_get(argc, argv, "--seed", "1"), &seed)) return 2;
    const char *scen = opt_get(argc, argv, "--scenario", "short"), *var = opt_get(argc, argv, "--variant", "base");
    if (session_new(&P.S, scen, var, seed, P.human, level, err, sizeof err)) {
      fprintf(stderr, "waterloo play: %s\n", err);
      return 2;
    }
  }
  P.sc = P.S.sc;
  const char *logpath = opt_get(argc, argv, "--log", NULL);
  if (logpath && !(P.log = fopen(logpath, "a"))) {
    fprintf(stderr, "waterloo play: cannot open log %s\n", logpath);
    session_free(&P.S);
    return 2;
  }
  printf("Waterloo, %s game, variants %s, seed %" PRIu64 ". You play the %s; the computer (%s) the %s.\n"
         "Type `help` for the commands.\n",
         P.sc->scen_name, P.sc->variant_names, P.S.seed, side_name(P.human), P.S.level,
         side_name(!P.human));
  show(&P);
  ActList *L = malloc(sizeof *L);
  while (!gs_over(&P.S.s)) {
    if (gs_decider(&P.S.s) != P.human) {
      gs_legal(P.sc, &P.S.s, L);
      Action a = L->n == 1 ? L->a[0] : player_act(P.S.ai, &P.S.s);
      apply(&P, a, 0);
      continue;
    }
    gs_legal(P.sc, &P.S.s, L);
    char prompt[96], mp[16] = "";
    if (P.S.s.phase == PH_MOVE) snprintf(mp, sizeof mp, ", %d MP", P.S.s.mp);
    snprintf(prompt, sizeof prompt, "[turn %d, %s%s] %s> ", P.S.s.turn, phase_name(P.S.s.phase), mp, side_name(P.human));
    char *line = read_cmd(prompt);
    if (!line) break;
    char *cmd = line;
    while (isspace((unsigned char)*cmd)) cmd++;
    if (!*cmd) {
    } else if (!strcmp(cmd, "quit")) {
      free(line);
      break;
    } else if (!strcmp(cmd, "help")) help();
    else if (!strcmp(cmd, "board")) show(&P);
    else if (!strcmp(cmd, "legal")) {
      for (int i = 0; i < L->n; i++) {
        char t[128];
        action_format(P.sc, &P.S.s, L->a[i], t, sizeof t);
        printf("  %3d  %s\n", i + 1, t);
      }
    } else if (!strcmp(cmd, "odds")) odds(&P);
    else if (!strcmp(cmd, "hint")) {
      Player *h = make_hint(&P, err, sizeof err);
      if (h) {
        Candidate c[5];
        int n = player_analyze(h, &P.S.s, c, 5);
        for (int i = 0; i < n; i++) {
          char t[128];
          action_format(P.sc, &P.S.s, c[i].a, t, sizeof t);
          printf("  %-34s visits %5.1f%%  win %5.1f%%\n", t, 100 * c[i].share, 100 * c[i].winrate);
        }
        player_free(h);
      } else printf("  %s\n", err);
    } else if (!strcmp(cmd, "undo")) {
      int k = session_undo(&P.S);
      if (k < 0) printf("  cannot undo: a card was revealed, chance was drawn or the computer has acted since your last decision\n");
      else printf("  undone to action %d\n", k);
    } else if (!strcmp(cmd, "units")) {
      units(&P);
    } else if (!strcmp(cmd, "log")) {
      for (int i = 0; i < P.S.nlog; i++) {
        const LogEntry *e = &P.S.log[i];
        printf("  %4d t%d %-7s %s%s%s\n", i + 1, e->turn, side_name(e->side), e->text, e->events[0] ? "\n         " : "",
               e->events);
      }
    } else if (!strncmp(cmd, "save ", 5)) {
      if (session_save(&P.S, cmd + 5, err, sizeof err)) printf("  %s\n", err);
      else printf("  saved to %s\n", cmd + 5);
    } else {
      Action a;
      char *end;
      long k = strtol(cmd, &end, 10);
      Action path[REACH_PATH];
      char derr[256], near[128];
      int n;
      if (*end == 0 && k >= 1 && k <= L->n) apply(&P, L->a[k - 1], 1);
      else if (action_parse(P.sc, &P.S.s, cmd, &a, err, sizeof err) == 0) apply(&P, a, 1);
      else if (!strncmp(cmd, "move", 4) && P.S.s.phase == PH_MOVE &&
               (n = destination_parse(P.sc, &P.S.s, cmd, path, derr, sizeof derr)) > 0) {
        /* a destination move: its steps and turns, until another decision interrupts it */
        P.S.in_move = 1;
        for (int i = 0; i < n && gs_decider(&P.S.s) == P.human && gs_is_legal(P.sc, &P.S.s, path[i]); i++)
          apply(&P, path[i], 1);
        P.S.in_move = 0;
      } else {
        printf("  %s\n", err);
        if (!strncmp(cmd, "move", 4) && P.S.s.phase == PH_MOVE) printf("  %s\n", derr);
        else if (nearest_action(P.sc, &P.S.s, cmd, near, sizeof near) >= 0 && near[0])
          printf("  nearest legal action: %s\n", near);
      }
      if (P.S.s.phase == PH_ROUND && gs_decider(&P.S.s) == P.human && P.S.s.ncards == 0) show(&P);
    }
    free(line);
  }
  if (gs_over(&P.S.s)) {
    char d[256];
    gs_describe(P.sc, &P.S.s, d, sizeof d);
    say(&P, d);
    int won = (P.S.s.result == RES_FRENCH && P.human == FRENCH) || (P.S.s.result == RES_ALLIED && P.human == ALLIED);
    printf("%s Replay this game with: waterloo play --seed %" PRIu64 " --scenario %s --variant %s\n",
           P.S.s.result == RES_DRAW ? "A draw." : won ? "You won." : "You lost.", P.S.seed, P.sc->scen_name,
           P.sc->variant_names);
  }
  if (P.log) fclose(P.log);
  free(L);
  session_free(&P.S);
  return 0;
}
