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

typedef struct {
  Scen *sc;
  State s;
  GameRec g;
  int human;          /* FRENCH / ALLIED */
  int barrier;        /* undo may not go below this many actions */
  char level[32];
  uint64_t seed;
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
    for (uint64_t m = P->s.hand & sc->army_cards[armies[i]]; m; m &= m - 1) {
      const CardDef *c = &sc->card[__builtin_ctzll(m)];
      printf("  %s(%d/%d%s%s)", c->id, c->mp, c->bp, c->action ? " " : "",
             c->action ? action_kind_name(c->action) : "");
    }
    printf("\n");
  }
  printf("opponent cards in hand: %d\n",
         P->human == FRENCH ? hand_count(sc, &P->s, ARMY_BR) + hand_count(sc, &P->s, ARMY_PR)
                            : hand_count(sc, &P->s, ARMY_FR));
}

static void show(Play *P) {
  board_print(P->sc, &P->s, stdout, P->color);
  char d[256];
  gs_describe(P->sc, &P->s, d, sizeof d);
  printf("%s\n", d);
  show_hand(P);
}

/* battle odds for each legal attack: totals before cards */
static void odds(Play *P) {
  ActList *L = malloc(sizeof *L);
  gs_legal(P->sc, &P->s, L);
  int any = 0;
  for (int i = 0; i < L->n; i++) {
    if (L->a[i].t != A_DECLARE) continue;
    int a, d;
    battle_base_totals(P->sc, &P->s, L->a[i].a, L->a[i].b, &a, &d);
    char txt[128];
    action_format(P->sc, &P->s, L->a[i], txt, sizeof txt);
    printf("  %-32s attacker %d vs defender %d before cards%s\n", txt, a, d,
           a > 2 * d ? " (more than double: defender reduced and retreats)" : "");
    any = 1;
  }
  if (P->s.bdef_unit != UNIT_NONE) {
    int a, d, mask = 0;
    for (int k = 0; k < 4; k++) mask |= P->s.batt[k] != UNIT_NONE ? 1 << k : 0;
    battle_base_totals(P->sc, &P->s, P->s.bdef_sq, mask, &a, &d);
    printf("  battle in progress: attacker %d vs defender %d before cards (ties go to the defender)\n", a, d);
    int h;
    if (battle_seen_totals(P->sc, &P->s, P->human, &a, &d, &h) == 0 && (P->s.pend || h))
      printf("  with the cards you have committed: attacker %d vs defender %d; the other side has "
             "committed %d secret card%s\n", a, d, h, h == 1 ? "" : "s");
    any = 1;
  }
  if (!any) printf("  no battle to weigh now\n");
  free(L);
}

/* an action that drew on chance or revealed secret cards is a barrier to undo */
static void apply(Play *P, Action a, int by_human) {
  State before = P->s;
  char txt[128], line[640];
  action_format(P->sc, &P->s, a, txt, sizeof txt);
  gs_apply(P->sc, &P->s, a);
  gamerec_push(&P->g, a);
  if (memcmp(&before.rng, &P->s.rng, sizeof before.rng) || (P->s.seen & ~before.seen) ||
      before.turn != P->s.turn)
    P->barrier = P->g.n;
  const char *who = by_human ? "you" : "AI";
  int side = before.decider;
  if (!gs_action_public(P->sc, &before, a, P->human)) snprintf(txt, sizeof txt, "(a secret choice)");
  snprintf(line, sizeof line, "[t%d %s] %s (%s): %s", before.turn, phase_name(before.phase), side_name(side), who, txt);
  say(P, line);
  char ev[512];
  if (gs_event_text(P->sc, &before, &P->s, ev, sizeof ev)) {
    snprintf(line, sizeof line, "    %s", ev);
    say(P, line);
  }
  if (P->s.turn != before.turn && !gs_over(&P->s)) {
    snprintf(line, sizeof line, "=== turn %d ===", P->s.turn);
    say(P, line);
  }
}

static char *read_cmd(const char *prompt) {
  if (isatty(0)) {
    char *l = readline(prompt);
    if (l && *l) add_history(l);
    return l;
  }
  static char buf[512];
  fputs(prompt, stdout);
  fflush(stdout);
  if (!fgets(buf, sizeof buf, stdin)) return NULL;
  buf[strcspn(buf, "\r\n")] = 0;
  printf("%s\n", buf);
  return strdup(buf);
}

static void help(void) {
  printf("Type an action as `legal` prints it (or its number), or:\n"
         "  legal        list your legal actions, numbered\n"
         "  board        the board, the position and your hand\n"
         "  hint         the AI's top candidates for you (visit share, estimated win rate)\n"
         "  odds         battle totals before cards for each attack you may declare\n"
         "  undo         take back your last decision (never past a reveal or a random event)\n"
         "  save FILE    save the game (JSON; `waterloo play --load FILE` resumes it)\n"
         "  log          the actions so far\n"
         "  quit         leave (the game is not saved unless you saved it)\n");
}

static Player *make_ai(Play *P, const char *level, int salt, char *err, size_t len) {
  char spec[96];
  cli_level_spec(level, spec, sizeof spec);
  return player_new(P->sc, spec, P->seed * 7919u + (uint64_t)salt, err, len);
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
  snprintf(P.level, sizeof P.level, "%s", opt_get(argc, argv, "--level", "normal"));
  P.color = isatty(1) && !opt_has(argc, argv, "--no-color");
  P.sc = malloc(sizeof *P.sc);
  char err[2048];
  const char *load = opt_get(argc, argv, "--load", NULL);
  if (load) {
    if (game_load(P.sc, scen_default_dir(), load, &P.g, &P.s, err, sizeof err)) {
      fprintf(stderr, "waterloo play: %s\n", err);
      return 2;
    }
    P.seed = P.g.seed;
    P.barrier = P.g.n;
  } else {
    if (opt_u64("play", "--seed", opt_get(argc, argv, "--seed", "1"), &P.seed)) return 2;
    if (cli_scen(P.sc, opt_get(argc, argv, "--scenario", "short"), opt_get(argc, argv, "--variant", "base")))
      return 2;
    gamerec_init(&P.g, P.sc->scen_name, P.sc->variant_names, P.seed, 0);
    gs_init(P.sc, &P.s, P.seed, 0);
  }
  const char *logpath = opt_get(argc, argv, "--log", NULL);
  if (logpath && !(P.log = fopen(logpath, "a"))) {
    fprintf(stderr, "waterloo play: cannot open log %s\n", logpath);
    return 2;
  }
  Player *ai = make_ai(&P, P.level, 1, err, sizeof err);
  if (!ai) {
    fprintf(stderr, "waterloo play: %s\n", err);
    return 2;
  }
  printf("Waterloo, %s game, variants %s, seed %" PRIu64 ". You play the %s; the computer (%s) the %s.\n"
         "Type `help` for the commands.\n",
         P.sc->scen_name, P.sc->variant_names, P.seed, side_name(P.human), P.level,
         side_name(!P.human));
  show(&P);
  ActList *L = malloc(sizeof *L);
  while (!gs_over(&P.s)) {
    if (gs_decider(&P.s) != P.human) {
      gs_legal(P.sc, &P.s, L);
      Action a = L->n == 1 ? L->a[0] : player_act(ai, &P.s);
      apply(&P, a, 0);
      continue;
    }
    gs_legal(P.sc, &P.s, L);
    char prompt[96];
    snprintf(prompt, sizeof prompt, "[turn %d, %s] %s> ", P.s.turn, phase_name(P.s.phase), side_name(P.human));
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
        action_format(P.sc, &P.s, L->a[i], t, sizeof t);
        printf("  %3d  %s\n", i + 1, t);
      }
    } else if (!strcmp(cmd, "odds")) odds(&P);
    else if (!strcmp(cmd, "hint")) {
      Player *h = make_ai(&P, !strcmp(P.level, "easy") ? "normal" : P.level, 2, err, sizeof err);
      if (h) {
        Candidate c[5];
        int n = player_analyze(h, &P.s, c, 5);
        for (int i = 0; i < n; i++) {
          char t[128];
          action_format(P.sc, &P.s, c[i].a, t, sizeof t);
          printf("  %-34s visits %5.1f%%  win %5.1f%%\n", t, 100 * c[i].share, 100 * c[i].winrate);
        }
        player_free(h);
      } else printf("  %s\n", err);
    } else if (!strcmp(cmd, "undo")) {
      /* back to the human's previous decision, not past a barrier: one forward pass */
      State t;
      gamerec_position(P.sc, &P.g, P.barrier, &t);
      int target = -1;
      State at;
      for (int k = P.barrier; k < P.g.n; k++) {
        if (gs_decider(&t) == P.human) target = k, at = t;
        gs_apply(P.sc, &t, P.g.acts[k]);
      }
      if (target < 0) {
        printf("  cannot undo: a card was revealed or chance was drawn since your last decision\n");
      } else {
        P.g.n = target;
        P.s = at;
        printf("  undone to action %d\n", target);
      }
    } else if (!strcmp(cmd, "log")) {
      State t;
      gamerec_position(P.sc, &P.g, 0, &t);
      for (int i = 0; i < P.g.n; i++) {
        char txt[128];
        action_format(P.sc, &t, P.g.acts[i], txt, sizeof txt);
        if (!gs_action_public(P.sc, &t, P.g.acts[i], P.human)) snprintf(txt, sizeof txt, "(a secret choice)");
        printf("  %4d t%d %-7s %s\n", i + 1, t.turn, side_name(t.decider), txt);
        gs_apply(P.sc, &t, P.g.acts[i]);
      }
    } else if (!strncmp(cmd, "save ", 5)) {
      if (game_save(P.sc, &P.g, &P.s, cmd + 5, err, sizeof err)) printf("  %s\n", err);
      else printf("  saved to %s\n", cmd + 5);
    } else {
      Action a;
      char *end;
      long k = strtol(cmd, &end, 10);
      if (*end == 0 && k >= 1 && k <= L->n) apply(&P, L->a[k - 1], 1);
      else if (action_parse(P.sc, &P.s, cmd, &a, err, sizeof err) == 0) apply(&P, a, 1);
      else printf("  %s\n", err);
      if (P.s.phase == PH_ROUND && gs_decider(&P.s) == P.human && P.s.ncards == 0) show(&P);
    }
    free(line);
  }
  if (gs_over(&P.s)) {
    char d[256];
    gs_describe(P.sc, &P.s, d, sizeof d);
    say(&P, d);
    int won = (P.s.result == 1 && P.human == FRENCH) || (P.s.result == 2 && P.human == ALLIED);
    printf("%s Replay this game with: waterloo play --seed %" PRIu64 " --scenario %s --variant %s\n",
           P.s.result == 3 ? "A draw." : won ? "You won." : "You lost.", P.seed, P.sc->scen_name,
           P.sc->variant_names);
  }
  if (P.log) fclose(P.log);
  player_free(ai);
  free(L);
  gamerec_free(&P.g);
  free(P.sc);
  return 0;
}
