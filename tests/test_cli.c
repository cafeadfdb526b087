/* The command line as a user meets it: the engine protocol, solo play from a script, and bad
 * input giving one clear line and a non-zero exit.  Runs ./waterloo (built before the tests). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "helpers.h"
#include "../front/session.h"

static int count_lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

Test(cli, engine_protocol_answers_in_gtp_style) {
  static char out[1 << 16];
  int rc = th_sh("printf 'turn\\nnew short seed 5\\nlegal\\nplay nonsense\\nresult\\nplay pass\\nturn\\nquit\\n'"
               " | ./waterloo engine", out, sizeof out);
  cr_assert_eq(rc, 0);
  /* before a game: an error answer */
  cr_assert(strncmp(out, "? no game", 9) == 0, "got: %.80s", out);
  /* legal lists the pass and at least one card for movement */
  cr_assert_not_null(strstr(out, "= pass\n"), "legal should start with pass");
  cr_assert_not_null(strstr(out, " move\n"));
  cr_assert_not_null(strstr(out, "? 'nonsense' is not a legal action"));
  cr_assert_not_null(strstr(out, "= running\n"));
  /* after the French pass it is the Allies' round */
  cr_assert_not_null(strstr(out, "Allied round"), "the pass should hand the round over");
  /* every answer ends with a blank line */
  cr_assert_not_null(strstr(out, "= \n\n"));
  /* a card play as `legal` prints it, after the command's own `play`, or with `play` said once */
  rc = th_sh("printf 'new short seed 5\nplay play F01 move\nundo\nplay F01 move\nturn\nplay F99 move\nquit\n'"
             " | ./waterloo engine", out, sizeof out);
  cr_assert_eq(rc, 0);
  cr_assert_null(strstr(out, "? 'F01 move'"), "%s", out);
  cr_assert_not_null(strstr(out, "phase move, French to decide"), "the card was played: %s", out);
  cr_assert_not_null(strstr(out, "? 'F99 move' is not a legal action"), "%s", out);
}

Test(cli, engine_genmove_plays_a_legal_action_and_save_load_round_trip) {
  static char out[1 << 16];
  int rc = th_sh("printf 'new long prussians-early seed 9\\ngenmove heuristic\\ngenmove heuristic\\n"
               "save /tmp/waterloo-cli-test.json\\nturn\\nload /tmp/waterloo-cli-test.json\\nturn\\nquit\\n'"
               " | ./waterloo engine", out, sizeof out);
  cr_assert_eq(rc, 0);
  /* both turn answers (before save, after load) are the same line */
  char *a = strstr(out, "= turn ");
  cr_assert_not_null(a);
  char *b = strstr(a + 1, "= turn ");
  cr_assert_not_null(b, "second turn answer missing: %s", out);
  size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
  cr_assert_eq(la, lb);
  cr_assert(strncmp(a, b, la) == 0, "position changed across save/load:\n%.*s\n%.*s", (int)la, a,
            (int)lb, b);
  cr_assert_null(strstr(out, "? "), "an error answer: %s", out);
  remove("/tmp/waterloo-cli-test.json");
}

Test(cli, solo_play_from_a_script) {
  static char out[1 << 17];
  int rc = th_sh("printf 'help\\nlegal\\nodds\\n1\\nundo\\nbogus action\\nquit\\n'"
               " | ./waterloo play --side french --level heuristic --no-color --seed 3", out, sizeof out);
  cr_assert_eq(rc, 0);
  cr_assert_not_null(strstr(out, "You play the French"));
  cr_assert_not_null(strstr(out, "French hand:"));
  /* the pass is numbered last, so that 1 plays the first card (and undo takes it back)
   * instead of giving the round away */
  cr_assert_not_null(strstr(out, "    1  play F01 move\n"), "legal should number the actions: %s", out);
  cr_assert_not_null(strstr(out, "   16  pass   (no card this round"), "the pass last: %s", out);
  cr_assert_null(strstr(out, "   17  "), "the pass last: %s", out);
  cr_assert_not_null(strstr(out, "French (you): play F01 move\n"), "1 is the first card: %s", out);
  cr_assert_not_null(strstr(out, "undone to action 0"), "%s", out);
  cr_assert_null(strstr(out, "(you): pass"), "%s", out);
  /* a village is V, never the facing v: A3 is a village with a British unit facing south */
  cr_assert_not_null(strstr(out, "  3  VB4v "), "%s", out);
  cr_assert_not_null(strstr(out, "V village"));
  cr_assert_not_null(strstr(out, "is not a legal action"));
}

/* every `legal` listing numbers the action that ends or declines last (pass, done, noattack,
 * battle done ...), so that typing 1 through a whole hot-seat game never gives a round away nor
 * commits a battle with no card: checked on each listing of a scripted game that reaches battles */
static int declines(const char *line) {
  static const char *w[] = {"  pass", "  end", "  done", "  noattack", "  battle done", "  nofire", "  noevade"};
  for (size_t i = 0; i < sizeof w / sizeof *w; i++) {
    const char *p = strstr(line, w[i]);
    size_t n = strlen(w[i]);
    if (p && (p[n] == '\n' || p[n] == ' ' || p[n] == 0)) return 1;
  }
  return 0;
}

Test(cli, legal_numbers_the_action_that_ends_or_declines_last) {
  static char out[1 << 20];
  int rc = th_sh("(for i in $(seq 200); do echo legal; echo 1; done; echo quit)"
               " | ./waterloo play --seats french=human,british=human --seed 5 --no-color", out, sizeof out);
  cr_assert_eq(rc, 0);
  int listings = 0, bdone_after_cards = 0;
  for (char *l = out; *l;) {
    char *e = strchr(l, '\n');
    if (!e) break;
    int k;
    if (sscanf(l, " %d  ", &k) == 1 && l[0] == ' ' && k >= 1) {
      /* a listing: the last numbered line is the one before a line that is not numbered */
      int declined_before_last = 0;
      char *p = l;
      for (;;) {
        char *q = strchr(p, '\n');
        int j;
        if (!q || p[0] != ' ' || sscanf(p, " %d  ", &j) != 1) break;
        *q = 0;
        int d = declines(p);
        if (d && strstr(p, "battle done") && j > 1) bdone_after_cards = 1;
        char *nx = q + 1;
        int j2;
        int more = nx[0] == ' ' && sscanf(nx, " %d  ", &j2) == 1;
        if (d && more) declined_before_last = 1;
        *q = '\n';
        p = nx;
        if (!more) break;
      }
      cr_assert_not(declined_before_last, "a declining action numbered before another: %.400s", l);
      listings++;
      l = p;
      continue;
    }
    l = e + 1;
  }
  cr_assert_gt(listings, 100, "%d listings", listings);
  cr_assert(bdone_after_cards, "the game should reach battle cards with `battle done` after them");
  cr_assert_not_null(strstr(out, "Allied (you): attack "), "1 declares a battle, not noattack");
}

/* a saved game against the computer goes on as one: its side and level without options, its
 * level when --side changes sides, another level only when --level names it; never the
 * banner of seats that people share */
Test(cli, play_load_of_a_game_against_the_computer_keeps_its_level) {
  static char out[1 << 17];
  const char *save = "/tmp/waterloo-cli-classic.json";
  char cmd[512];
  snprintf(cmd, sizeof cmd, "printf 'save %s\nquit\n' | ./waterloo play --side allied --level easy --no-color --seed 4",
           save);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s", out);
  static const struct { const char *opts, *want; } cases[] = {
      {"", "You play the Allied; the computer (easy) the French."},
      {"--side french", "You play the French; the computer (easy) the Allied."},
      {"--side french --level hard", "You play the French; the computer (hard) the Allied."},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    snprintf(cmd, sizeof cmd, "printf 'quit\n' | ./waterloo play --load %s %s --no-color", save, cases[i].opts);
    cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s: %s", cmd, out);
    cr_assert_not_null(strstr(out, cases[i].want), "%s: %s", cmd, out);
    cr_assert_null(strstr(out, "Seats:"), "%s: %s", cmd, out);
  }
  remove(save);
}

/* play --save FILE: a game played at the terminal is kept when it ends, whole, so that
 * `waterloo review` judges both sides of it; a file already there is never overwritten (unless
 * it is the game --load goes on with), and input that runs out before the end says so */
Test(cli, play_save_keeps_the_finished_game_for_review) {
  static char out[1 << 21];
  char dir[256], cmd[2048], path[300], err[512];
  th_tmpdir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/game.json", dir);
  snprintf(cmd, sizeof cmd, "for i in $(seq 300); do echo pass; echo 1; done | ./waterloo play --side allied "
           "--level heuristic --no-color --seed 5 --save %s", path);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s", out);
  cr_assert_not_null(strstr(out, "`waterloo review "), "%s", out + (strlen(out) > 400 ? strlen(out) - 400 : 0));
  Session S;
  cr_assert_eq(session_load(&S, path, -1, "heuristic", err, sizeof err), 0, "%s", err);
  cr_assert(gs_over(&S.s), "the saved game is the finished one");
  session_free(&S);
  /* the same name again: refused before the game, the finished game kept */
  size_t before = 0;
  char *was = th_slurp(path, &before);
  snprintf(cmd, sizeof cmd, "printf 'pass\n' | ./waterloo play --level heuristic --seed 5 --no-color --save %s", path);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 2, "%s", out);
  cr_assert(strstr(out, "the file exists") && count_lines(out) == 1, "%s", out);
  size_t after_len;
  char *now = th_slurp(path, &after_len);
  cr_assert(now && was && after_len == before && !memcmp(now, was, after_len), "the save is untouched");
  free(now), free(was);
  /* an unfinished game: the input runs out, which is said, and the game is saved as it stands */
  snprintf(path, sizeof path, "%s/part.json", dir);
  snprintf(cmd, sizeof cmd, "printf 'pass\n' | ./waterloo play --level heuristic --seed 5 --no-color --save %s", path);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s", out);
  cr_assert(strstr(out, "the input ended at turn ") && strstr(out, "(unfinished)"), "%s", out);
  cr_assert_eq(session_load(&S, path, -1, "heuristic", err, sizeof err), 0, "%s", err);
  cr_assert(!gs_over(&S.s) && S.nlog > 0);
  session_free(&S);
  /* and going on with it may save over it */
  snprintf(cmd, sizeof cmd, "printf 'quit\n' | ./waterloo play --load %s --save %s --no-color", path, path);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s", out);
  th_rmdir(dir);
}

/* a finished game loaded into play is shown as over, won by a side, not by "you"; a cheat
 * player is said to be one before the game starts */
Test(cli, play_says_what_a_loaded_game_and_a_cheat_player_are) {
  static char out[1 << 17];
  char dir[256], cmd[1024];
  th_tmpdir(dir, sizeof dir);
  snprintf(cmd, sizeof cmd, "./waterloo replay --seed 3 --index 2 --quiet --save %s/hh.json", dir);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s", out);
  snprintf(cmd, sizeof cmd, "printf 'quit\n' | ./waterloo play --load %s/hh.json --no-color", dir);
  cr_assert_eq(th_sh(cmd, out, sizeof out), 0, "%s", out);
  cr_assert(strstr(out, "this game is over") && strstr(out, "The Allies won.") && !strstr(out, "You "), "%s", out);
  cr_assert_eq(th_sh("printf 'quit\n' | ./waterloo play --level cheat:easy --seed 2 --no-color | head -n 3", out,
                     sizeof out), 0);
  cr_assert_not_null(strstr(out, "a cheat player sees every hand"), "%s", out);
  cr_assert_eq(th_sh("printf 'quit\n' | ./waterloo play --level easy --seed 2 --no-color", out, sizeof out), 0);
  cr_assert_null(strstr(out, "cheat player"), "%s", out);
  th_rmdir(dir);
}

/* bad input: one line, naming the command or file, and a non-zero exit */
Test(cli, bad_input_gives_one_line_and_nonzero_exit) {
  static char out[4096];
  struct { const char *cmd, *must; } cases[] = {
      {"./waterloo random --games x", "--games"},
      {"./waterloo show --variant no-such-variant", "variants/no-such-variant.ini"},
      {"./waterloo show --scenario medium", "medium"},
      {"./waterloo sim --no-such-option 1", "no-such-option"},
      {"./waterloo frobnicate", "frobnicate"},
      {"./waterloo play --side prussian", "prussian"},
      {"./waterloo play --level superhard </dev/null", "unknown level 'superhard' (a level: easy normal"},
      {"./waterloo play --seats french=human,british=bogus </dev/null", "british=bogus: unknown level 'bogus'"},
      {"./waterloo sim --games", "waterloo sim: --games needs a value"},
      {"./waterloo sim --until-ci 0", "above 0 and below 0.5, not '0'"},
      {"WATERLOO_DATA=/nonexistent ./waterloo show", "/nonexistent/map.ini: cannot open"},
      {"./waterloo engine --help >/dev/null; ./waterloo play --load /nonexistent/game.json", "/nonexistent/game.json"},
      {"./waterloo match --games 2 --games 4", "--games' given twice"},
      /* the words a new user typed, named; not "extra needs a value" nor a bare "--players A,B" */
      {"./waterloo match --players random,random --games 2 extra", "unexpected argument 'extra'"},
      {"./waterloo match --players heuristic", "--players 'heuristic': two players"},
      {"./waterloo play --side allied --seats french=human </dev/null", "--side and --seats"},
      {"./waterloo play --seats french=human,british=easy,prussian=human </dev/null", "--seats: the short game has no prussian seat"},
      {"./waterloo sim --seed 1 --games 2 --seed 2", "--seed' given twice"},
      {"./waterloo engine --foo </dev/null", "--foo"},
      {"./waterloo help frobnicate", "frobnicate"},
      {"./waterloo play --load /tmp/any.json --scenario long </dev/null", "--scenario with --load"},
      {"./waterloo sim --scenario short,short --games 2", "names 'short' twice"},
      {"./waterloo play --load /tmp/any.json --seed 9 </dev/null", "--seed with --load"},
      {"./waterloo play --load /tmp/any.json --level random </dev/null", "--level with --load"},
      {"./waterloo players --check mcts:sim,iters=5,iters=6", "'iters' given twice"},
      {"./waterloo sim --games 2 --games=3 --out /tmp/never", "'--games' given twice"},
      {"./waterloo sim --set cdp_hougoumont=1,01 --games 2 --out /tmp/never", "1 and 01 are the same value"},
      /* a number out of range names the option's own range, not the parser's */
      {"./waterloo train --scenario short --games -5", "--games must be a whole number from 10 to 10000000"},
      {"./waterloo train --scenario short --threads 0", "--threads must be a whole number from 1 to 256"},
      {"./waterloo review x.json --threads -1", "--threads must be a whole number from 1 to 256"},
      {"./waterloo review x.json --threads 0", "--threads must be a whole number from 1 to 256"},
      {"./waterloo skill --out /nonexistent/skill --threads 0 --scenario medium", "--threads must be"},
      /* train: the scenario is never assumed; an unwritable --out is refused before any game */
      {"./waterloo train --games 10 --dry-run", "--scenario short|long is required"},
      {"./waterloo train --scenario short --games 10 --out /nonexistent/dir/w.ini", "/nonexistent/dir/w.ini"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int rc = th_sh(cases[i].cmd, out, sizeof out);
    cr_assert_neq(rc, 0, "%s should fail", cases[i].cmd);
    cr_assert_not_null(strstr(out, cases[i].must), "%s: message should name '%s', got: %s", cases[i].cmd,
                       cases[i].must, out);
    cr_assert_eq(count_lines(out), 1, "%s: expected one line, got: %s", cases[i].cmd, out);
  }
}

/* train without --scenario never replaces the shipped weights (it used to fit the short game
 * and write scenarios/eval-short.ini): run on a copy of the data, the copy is unchanged */
Test(cli, train_without_scenario_keeps_the_shipped_weights) {
  static char out[4096];
  char dir[] = "/tmp/wl-train-noscen-XXXXXX", cmd[600];
  cr_assert_not_null(mkdtemp(dir));
  snprintf(cmd, sizeof cmd, "cp -r scenarios/. %s/ && WATERLOO_DATA=%s ./waterloo train --games 10 --seed 2",
           dir, dir);
  int rc = th_sh(cmd, out, sizeof out);
  cr_assert_neq(rc, 0, "train without --scenario should be refused: %s", out);
  cr_assert_not_null(strstr(out, "--scenario"), "%s", out);
  cr_assert_eq(count_lines(out), 1, "one line: %s", out);
  snprintf(cmd, sizeof cmd, "cmp -s scenarios/eval-short.ini %s/eval-short.ini", dir);
  cr_assert_eq(system(cmd), 0, "the copy's eval-short.ini was rewritten");
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  cr_assert_eq(system(cmd), 0);
}

Test(cli, every_command_has_help) {
  static char out[1 << 14];
  const char *cmds[] = {"play", "sim", "match", "strength", "replay", "merge", "engine", "show",
                        "random", "bench"};
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
    char c[128];
    snprintf(c, sizeof c, "./waterloo %s --help", cmds[i]);
    cr_assert_eq(th_sh(c, out, sizeof out), 0, "%s", c);
    cr_assert_not_null(strstr(out, "usage"), "%s prints no usage: %s", c, out);
    snprintf(c, sizeof c, "./waterloo help %s", cmds[i]);   /* the same as COMMAND --help */
    static char again[1 << 14];
    cr_assert_eq(th_sh(c, again, sizeof again), 0, "%s", c);
    cr_assert_str_eq(again, out, "%s differs from --help", c);
  }
}

/* waterloo, waterloo help, --help, -h and help --help: the same list of commands, exit 0 */
Test(cli, every_way_of_asking_for_help_lists_the_commands) {
  static char out[1 << 14], again[1 << 14];
  cr_assert_eq(th_sh("./waterloo", out, sizeof out), 0);
  cr_assert_not_null(strstr(out, "usage: waterloo COMMAND"), "%s", out);
  const char *ways[] = {"./waterloo help", "./waterloo --help", "./waterloo -h", "./waterloo help --help"};
  for (size_t i = 0; i < sizeof ways / sizeof ways[0]; i++) {
    cr_assert_eq(th_sh(ways[i], again, sizeof again), 0, "%s: %s", ways[i], again);
    cr_assert_str_eq(again, out, "%s differs from waterloo alone", ways[i]);
  }
}

/* `show --data` prints the components in the order an owner checks them, each unit
 * and card once, with the variant's set-up applied */
Test(cli, show_data_lists_counters_setup_cards_reference_and_map_in_order) {
  static char out[1 << 17];
  int rc = th_sh("./waterloo show --data --scenario long", out, sizeof out);
  cr_assert_eq(rc, 0, "%.200s", out);
  const char *order[] = {"1. COUNTERS", "2. SET-UP", "3. CARDS", "4. REFERENCE TABLE", "5. MAP"};
  const char *at = out;
  for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
    const char *p = strstr(at, order[i]);
    cr_assert_not_null(p, "section '%s' missing or out of order", order[i]);
    at = p;
  }
  cr_assert_not_null(strstr(out, "   P05    3   1  force-charge"), "the Prussian force-charge card");
  cr_assert_not_null(strstr(out, "   C6     br-hougoumont    S"), "base: in front of Hougoumont");
  cr_assert_not_null(strstr(out, "50 in all"));
  rc = th_sh("./waterloo show --data --variant historical-garrisons", out, sizeof out);
  cr_assert_eq(rc, 0);
  cr_assert_not_null(strstr(out, "   C7     br-hougoumont    S"), "the variant's garrison in the castle");
}

/* the end of the game says why it ended: the castles and Mont St. Jean the French hold,
 * or the VP, and the condition as `replay` names it */
static void ended(const Scen *sc, State *s, unsigned owner, int result) {
  th_empty(sc, s, 1);
  s->turn.number = (uint8_t)sc->p.turns;
  s->turn.owner = (uint8_t)owner;
  s->turn.phase = PH_OVER;
  s->score.result = (uint8_t)result;
}

Test(cli, the_game_over_line_gives_the_reason) {
  Scen *sc = th_load("short", "base");
  State s;
  char why[300];
  ended(sc, &s, 1u << V_FRISCHERMONT, RES_ALLIED);
  game_end_reason(sc, &s, why, sizeof why);
  cr_assert_str_eq(why, "the French hold one castle (Frischermont) but not Mont St. Jean: they "
                        "needed three castles, or two and Mont St. Jean (allied-hold)");
  ended(sc, &s, (1u << V_HOUGOUMONT) | (1u << V_LHS) | (1u << V_MSJ), RES_FRENCH);
  game_end_reason(sc, &s, why, sizeof why);
  cr_assert_str_eq(why, "the French hold two castles (Hougoumont and La Haye Sainte) and Mont St. "
                        "Jean (2-castles+msj)");
  ended(sc, &s, 0, RES_ALLIED);
  game_end_reason(sc, &s, why, sizeof why);
  cr_assert(strstr(why, "the French hold no castle nor Mont St. Jean: ") && strstr(why, "(allied-hold)"),
            "%s", why);
  s.turn.phase = PH_ROUND;
  cr_assert_eq(game_end_reason(sc, &s, why, sizeof why), 0);
  cr_assert_str_eq(why, "");
  free(sc);
  /* a whole game at the terminal: its last line before the verdict is the reason */
  static char out[4096];
  int rc = th_sh("for i in $(seq 300); do echo pass; echo 1; done | ./waterloo play --side allied "
                 "--level heuristic --no-color --seed 5 | tail -n 3", out, sizeof out);
  cr_assert_eq(rc, 0, "%s", out);
  char *line = strstr(out, "\ngame over after turn 4: ");
  cr_assert_not_null(line, "%s", out);
  cr_assert(strstr(line, " win \xe2\x80\x94 the French hold ") && strstr(line, " Mont St. Jean") &&
            (strstr(line, ")\nYou won.") || strstr(line, ")\nYou lost.")), "%s", line);
}
