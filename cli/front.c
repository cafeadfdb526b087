/* The commands of the front ends (front/front.h): their options are read here, the game is
 * played there. */
#include <arpa/inet.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "../front/front.h"

/* --load resumes the save's game: an option that would start another game, or a level that the
 * save's own seats would override, is refused rather than silently ignored */
static int play_load_conflict(int argc, char **argv, const PlayOpts *o) {
  static const char *const game[] = {"--scenario", "--variant", "--seed"};
  for (size_t i = 0; i < sizeof game / sizeof *game; i++)
    if (opt_has(argc, argv, game[i])) {
      fprintf(stderr, "waterloo play: %s with --load: a loaded game keeps the save's scenario, variants "
                      "and seed\n", game[i]);
      return 1;
    }
  if (opt_has(argc, argv, "--level") && !o->side_given && !o->seats) {
    fprintf(stderr, "waterloo play: --level with --load needs --side or --seats (else the save's "
                    "seats, with their levels, are restored)\n");
    return 1;
  }
  return 0;
}

int cmd_play(int argc, char **argv) {
  int rc = cli_args(argc, argv, "play", "--side --level --seats --scenario --variant --seed --load --save --log --no-color!",
                    "usage: waterloo play [--side french|allied] [--level easy|normal|hard|expert|heuristic]\n"
                    "                     [--seats SEAT=WHO,...] [--scenario short|long] [--variant V[,V...]]\n"
                    "                     [--seed S] [--load FILE] [--save FILE] [--log FILE] [--no-color]\n"
                    "A game against the computer. Type `help` at the prompt for the commands.\n"
                    "Defaults: the French against normal, the short game, a random seed (printed: --seed\n"
                    "replays the same deal).  --level takes a level or any player spec (waterloo players).\n"
                    "--seats french=human,british=normal,prussian=human: who sits where (R-1.2): each seat\n"
                    "human or a level; friends share the terminal (the hand is shown to the player whose\n"
                    "decision it is, after the others look away); the short game has no Prussian seat.\n"
                    "A saved game keeps its seats (--load restores them unless --side or --seats is given;\n"
                    "with --side alone, a game against the computer keeps the computer's level).\n"
                    "--save FILE saves the game when it ends or you leave (a new file, or the one\n"
                    "--load goes on with): `waterloo review FILE` then shows what each decision cost;\n"
                    "at a terminal, `save FILE` also works after the last move.  --log FILE appends\n"
                    "the game's text (what the screen says of each action) to FILE.\n"
                    "The computer plays honestly: it never sees your hand or the deck (only a\n"
                    "`cheat:` player, which is said at the start, does).\n");
  if (rc >= 0) return rc;
  PlayOpts o = {.level = opt_get(argc, argv, "--level", "normal"),
                .scenario = opt_get(argc, argv, "--scenario", "short"),
                .variant = opt_get(argc, argv, "--variant", "base"),
                .load = opt_get(argc, argv, "--load", NULL),
                .log = opt_get(argc, argv, "--log", NULL),
                .save = opt_get(argc, argv, "--save", NULL),
                .seats = opt_get(argc, argv, "--seats", NULL),
                .side_given = opt_has(argc, argv, "--side"),
                .level_given = opt_has(argc, argv, "--level"),
                .color = isatty(1) && !opt_has(argc, argv, "--no-color")};
  const char *side = opt_get(argc, argv, "--side", "french");
  if (strcmp(side, "french") && strcmp(side, "allied")) {
    fprintf(stderr, "waterloo play: --side is french or allied, not '%s'\n", side);
    return 2;
  }
  o.human = !strcmp(side, "french") ? FRENCH : ALLIED;
  if (o.side_given && o.seats) {
    fprintf(stderr, "waterloo play: --side and --seats both say who plays: give one (--seats names "
                    "every seat, e.g. --seats french=normal,british=human)\n");
    return 2;
  }
  if (o.load && play_load_conflict(argc, argv, &o)) return 2;
  o.seed_given = opt_has(argc, argv, "--seed");
  if (!o.load && o.seed_given && opt_u64("play", "--seed", opt_get(argc, argv, "--seed", "1"), &o.seed)) return 2;
  return play_run(&o);
}

int cmd_engine(int argc, char **argv) {
  int rc = cli_args(argc, argv, "engine", "",
                    "usage: waterloo engine\n"
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
                    "  seat            the seat that decides now: french, british or prussian (R-1.2)\n"
                    "  genmove [LEVEL] [SEAT]  the AI chooses and plays an action (easy normal hard expert,\n"
                    "                  or a spec), capped as in play: the level's cap, or the spec's time=MS\n"
                    "  analyze [LEVEL] [SEAT]  the AI's top candidates with visit share and win rate\n"
                    "  list_commands, name, version, protocol_version   (as in GTP)\n"
                    "  quit\n");
  if (rc >= 0) return rc;
  return engine_run(stdin);
}

int cmd_serve(int argc, char **argv) {
  int rc = cli_args(argc, argv, "serve", "--port --host --saves",
                    "usage: waterloo serve [--port 8815] [--host 127.0.0.1] [--saves DIR]\n"
                    "Serves the board in a web browser: open the address it prints and play against the\n"
                    "computer.  Loopback only unless --host says otherwise.  Saved games go to DIR/NAME.json\n"
                    "(default ./saves).  --port 0 takes a free port (the address printed names it).\n"
                    "The page comes from web/ (or $WATERLOO_WEB); the JSON API is in\n"
                    "docs/API.md.  Stop it with Ctrl-C.\n"
                    "--host 0.0.0.0 (or this machine's address) lets other devices of a home network play\n"
                    "(friends at their own seat through its link): plain HTTP without a password, so anyone\n"
                    "who can reach the port can start games, list the kept ones and open a game by its id\n"
                    "when people sit on one side only; a seat's link is the key to that seat.  Use it only on\n"
                    "a network you trust, never on one open to the Internet (docs/API.md, \"Seats\").\n");
  if (rc >= 0) return rc;
  long port;
  if (opt_long("serve", "--port", opt_get(argc, argv, "--port", "8815"), 0, 65535, &port)) return 2;
  const char *host = opt_get(argc, argv, "--host", "127.0.0.1");
  if (!strcmp(host, "localhost")) host = "127.0.0.1";
  struct sockaddr_in addr;
  memset(&addr, 0, sizeof addr);
  addr.sin_family = AF_INET;
  addr.sin_port = htons((uint16_t)port);
  if (inet_pton(AF_INET, host, &addr.sin_addr) != 1) {
    fprintf(stderr, "waterloo serve: --host '%s' is not an IPv4 address\n", host);
    return 2;
  }
  ServeOpts o = {.host = host, .port = (unsigned)port, .saves = opt_get(argc, argv, "--saves", "saves")};
  return serve_run(&o);
}
