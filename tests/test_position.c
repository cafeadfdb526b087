/* The one-line position text: every reachable position round-trips byte for byte; a partial
 * text is the set-up with its fields written over it; impossible texts are refused. */
#include "helpers.h"

static void round_trip(const Scen *sc, const State *s, void *arg) {
  int *count = arg;
  char text[8192], err[512];
  int n = position_format(sc, s, text, sizeof text);
  cr_assert_gt(n, 0, "position_format failed");
  cr_assert_null(strchr(text, '\n'), "the position text is one line");
  State t;
  memset(&t, 0x5a, sizeof t);
  cr_assert_eq(position_parse(sc, text, &t, err, sizeof err), 0, "%s\n%s", err, text);
  State a = *s;
  /* padding bytes carry no information */
  memset(a.pad, 0, sizeof a.pad), memset(t.pad, 0, sizeof t.pad);
  memset(a.pad, 0, sizeof a.pad), memset(t.pad, 0, sizeof t.pad);
  cr_assert_eq(memcmp(&a, &t, sizeof a), 0, "state differs after a round trip: %s", text);
  (*count)++;
}

Test(position, every_position_of_random_games_round_trips) {
  const char *scen[2] = {"short", "long"};
  for (int k = 0; k < 2; k++) {
    Scen *sc = th_load(scen[k], "base");
    int count = 0;
    for (int g = 0; g < 3; g++) {
      State s;
      gs_init(sc, &s, 300 + (uint64_t)g, (uint64_t)g);
      th_random_play(sc, &s, 17 + (uint64_t)g, 3, round_trip, &count);
    }
    cr_assert_gt(count, 300);
    free(sc);
  }
}

Test(position, partial_text_is_the_setup_with_fields_over_it) {
  Scen *sc = th_load("short", "base");
  State s, init;
  char err[512];
  cr_assert_eq(position_parse(sc, "short base seed=7 units=fr-4/I=F6:E:d cdp=1,2,0 hand=F01,F12,B03",
                              &s, err, sizeof err), 0, "%s", err);
  gs_init(sc, &init, 7, 0);
  int u = th_unit(sc, "fr-4/I");
  cr_assert_eq(s.units.sq[u], th_sq(sc, "F6"));
  cr_assert_eq(s.units.flag[u], DIR_E | UF_DISORDER);
  cr_assert_eq(unit_at(sc, &s, th_sq(sc, "F6")), u, "the square table follows the units");
  cr_assert_eq(s.turn.cdp[0], 1);
  cr_assert_eq(s.turn.cdp[2], 0);
  cr_assert_eq(s.cards.hand, th_bit(sc, "F01") | th_bit(sc, "F12") | th_bit(sc, "B03"));
  int v = th_unit(sc, "br-3/I");
  cr_assert_eq(s.units.sq[v], init.units.sq[v], "units not named keep their set-up square");
  cr_assert_eq(s.turn.number, init.turn.number);
  free(sc);
}

Test(position, impossible_or_malformed_texts_are_refused_with_one_line) {
  Scen *sc = th_load("long", "base");
  const char *bad[] = {
      "short base",                                        /* another scenario */
      "long base units=fr-4/I=Z9:N",                       /* not a square */
      "long base units=fr-4/I=F6:Q",                       /* not a facing */
      "long base units=fr-4/I=F6:N:z",                     /* unknown flag */
      "long base units=nobody=F6:N",                       /* unknown unit */
      "long base units=fr-4/I=F6:N,fr-3/I=F6:S",           /* two units on a square */
      "long base hand=F01,F01",                            /* a card twice */
      "long base hand=F01 discard=F01",                    /* a card in two places */
      "long base turn=abc", "long base turn=300", "long base cdp=1,2", "long base cdp=-1,2,2",
      "long base phase=sleeping", "long base foo=1", "long base loose", "long base rng=12:34",
      "long base seed=-1"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    State s;
    char err[512] = "";
    cr_assert_eq(position_parse(sc, bad[i], &s, err, sizeof err), -1, "accepted: %s", bad[i]);
    cr_assert(err[0] && !strchr(err, '\n'), "%s: '%s'", bad[i], err);
  }
  free(sc);
}

/* through the engine protocol: `position` after some play, `setposition` of that text, and
 * `position` again print the same line; the game then goes on from there */
Test(position, engine_protocol_position_and_setposition_round_trip) {
  FILE *p = popen("printf 'new long seed 5\\ngenmove heuristic\\ngenmove heuristic\\nposition\\nquit\\n' | ./waterloo engine", "r");
  cr_assert_not_null(p);
  static char line[16384], pos[16384];
  pos[0] = 0;
  while (fgets(line, sizeof line, p))
    if (!strncmp(line, "= long ", 7)) snprintf(pos, sizeof pos, "%s", line + 2);
  pclose(p);
  pos[strcspn(pos, "\n")] = 0;
  cr_assert(pos[0], "no position printed");
  FILE *f = fopen("/tmp/waterloo-position-test.cmd", "w");
  cr_assert_not_null(f);
  fprintf(f, "setposition %s\nposition\ngenmove heuristic\nquit\n", pos);
  fclose(f);
  p = popen("./waterloo engine < /tmp/waterloo-position-test.cmd", "r");
  int same = 0, answers = 0, errors = 0;
  while (fgets(line, sizeof line, p)) {
    if (line[0] == '=') answers++;
    if (line[0] == '?') errors++;
    line[strcspn(line, "\n")] = 0;
    if (!strcmp(line + 2, pos)) same = 1;
  }
  pclose(p);
  unlink("/tmp/waterloo-position-test.cmd");
  cr_assert_eq(errors, 0);
  cr_assert_eq(answers, 4);
  cr_assert(same, "setposition then position does not give the same text back");
}
