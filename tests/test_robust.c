/* Robustness (issue 12): bounded and validated input, saves that never lose data, strict
 * numbers.  Each test is a regression test of a defect found by adversarial use. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../engine/engine.h"
#include "../engine/num.h"
#include "helpers.h"

static int lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

static char *slurp(const char *path) { return th_slurp(path, NULL); }

static void tmpdir(char *dir, size_t len) {
  snprintf(dir, len, "/tmp/waterloo-test-XXXXXX");
  cr_assert_not_null(mkdtemp(dir));
}

/* ---------------------------------------------------------------- strict numbers (item 9) */
Test(robust, strict_number_parser) {
  uint64_t u;
  int i;
  double d;
  cr_assert_eq(num_u64("18446744073709551615", 0, UINT64_MAX, &u), 0);
  cr_assert_eq(u, UINT64_MAX);
  const char *bad_u[] = {"", "-1", "+1", " 1", "1 ", "1x", "0x10", "18446744073709551616",
                         "99999999999999999999", "abc", "1e3"};
  for (size_t k = 0; k < sizeof bad_u / sizeof *bad_u; k++)
    cr_assert_neq(num_u64(bad_u[k], 0, UINT64_MAX, &u), 0, "'%s' accepted", bad_u[k]);
  cr_assert_neq(num_u64("0", 1, 10, &u), 0);
  cr_assert_eq(num_int("-5", -10, 10, &i), 0);
  cr_assert_eq(i, -5);
  cr_assert_neq(num_int("9223372036854775806", 0, 100, &i), 0);
  cr_assert_neq(num_int("2147483648", 0, 2147483647, &i), 0);
  cr_assert_eq(num_double("0.25", 0, 1, &d), 0);
  cr_assert_float_eq(d, 0.25, 1e-12);
  const char *bad_d[] = {"nan", "inf", "-inf", "0x1p3", "1,5", "", ".5", "1e999", "2"};
  for (size_t k = 0; k < sizeof bad_d / sizeof *bad_d; k++)
    cr_assert_neq(num_double(bad_d[k], 0, 1, &d), 0, "'%s' accepted", bad_d[k]);
  char e[16];
  cr_assert_str_eq(num_escape("a\033[2Jb", e, sizeof e), "a\\x1b[2Jb");
  cr_assert_str_eq(num_escape("0123456789abcdefghij", e, sizeof e), "0123456789ab...");
}

Test(robust, every_numeric_option_refuses_bad_numbers_in_one_line) {
  static char out[8192];
  struct { const char *cmd, *opt; } cases[] = {
      {"./waterloo sim --games 0", "--games"},
      {"./waterloo sim --games 99999999999999999999", "--games"},
      {"./waterloo sim --games 9223372036854775806", "--games"},
      {"./waterloo sim --seed abc", "--seed"},
      {"./waterloo sim --seed -1", "--seed"},
      {"./waterloo sim --threads abc", "--threads"},
      {"./waterloo sim --threads 999", "--threads"},
      {"./waterloo sim --batch 0 --until-ci 0.1", "--batch"},
      {"./waterloo sim --until-ci nan", "--until-ci"},
      {"./waterloo sim --until-ci 0", "--until-ci"},
      {"./waterloo sim --shard 1/x", "--shard"},
      {"./waterloo match --games 99999999999999999999", "--games"},
      {"./waterloo match --seed 1.5", "--seed"},
      {"./waterloo match --threads 0", "--threads"},
      {"./waterloo match --sprt 0,abc", "--sprt"},
      {"./waterloo strength --games 9223372036854775806", "--games"},
      {"./waterloo strength --threads abc", "--threads"},
      {"./waterloo strength --pairs 'heuristic/random@x'", "@x"},
      {"./waterloo random --games 0", "--games"},
      {"./waterloo random --seed -1", "--seed"},
      {"./waterloo bench --seconds abc", "--seconds"},
      {"./waterloo replay --index -3", "--index"},
      {"./waterloo replay --csv x --row 1x", "--row"},
      {"./waterloo play --seed 12abc", "--seed"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    int rc = th_sh(cases[k].cmd, out, sizeof out);
    cr_assert_neq(rc, 0, "%s should fail", cases[k].cmd);
    cr_assert_eq(lines(out), 1, "%s: one line expected, got: %s", cases[k].cmd, out);
    cr_assert_not_null(strstr(out, cases[k].opt), "%s: should name %s: %s", cases[k].cmd, cases[k].opt, out);
  }
}

Test(robust, error_messages_escape_control_bytes) {
  static char out[4096];
  int rc = th_sh("./waterloo random --games \"$(printf 'x\\033[2J\\007')\"", out, sizeof out);
  cr_assert_eq(rc, 2);
  cr_assert_null(strchr(out, '\033'), "raw escape byte in: %s", out);
  cr_assert_null(strchr(out, '\007'));
  cr_assert_not_null(strstr(out, "x\\x1b[2J\\x07"), "%s", out);
  rc = th_sh("printf 'new short\\nbo\\033gus\\nquit\\n' | ./waterloo engine", out, sizeof out);
  cr_assert_eq(rc, 0);
  cr_assert_null(strchr(out, '\033'));
  cr_assert_not_null(strstr(out, "? unknown command 'bo\\x1bgus'"), "%s", out);
}

Test(robust, engine_new_seed_is_strict) {
  static char out[4096];
  th_sh("printf 'new short seed -1\\nnew short seed abc\\nnew short seed 99999999999999999999\\n"
     "new short seed\\nnew short seed 18446744073709551615\\nquit\\n' | ./waterloo engine",
     out, sizeof out);
  const char *p = out;
  for (int k = 0; k < 4; k++) {
    p = strstr(p, "? new: seed must be a whole number");
    cr_assert_not_null(p, "answer %d should refuse the seed: %s", k, out);
    p++;
  }
  cr_assert_not_null(strstr(p, "\n= \n"), "the largest seed is fine: %s", out);
}

/* map errors name the file (and line), never "DIR:0:" */
Test(robust, scenario_errors_name_the_file) {
  char dir[256], err[2048];
  th_tmpdir(dir, sizeof dir);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "sed -i '/^row3 /d' '%s/map.ini'", dir);
  cr_assert_eq(system(cmd), 0);
  Scen *sc = malloc(sizeof *sc);
  cr_assert_neq(scen_load(sc, dir, "short", "base", err, sizeof err), 0);
  char want[400];
  snprintf(want, sizeof want, "%s/map.ini: row3 missing", dir);
  cr_assert_str_eq(err, want);
  snprintf(cmd, sizeof cmd, "cp scenarios/map.ini '%s/map.ini' && printf '[long]\\nturns = 13\\n' > '%s/variants/x.ini'", dir, dir);
  cr_assert_eq(system(cmd), 0);
  cr_assert_neq(scen_load(sc, dir, "long", "x", err, sizeof err), 0);
  snprintf(want, sizeof want, "%s/variants/x.ini:2: ", dir);
  cr_assert(strncmp(err, want, strlen(want)) == 0 && strstr(err, "turns"), "%s", err);
  /* a name given twice in one section would keep the last value without a word: refused at
   * the second line; the same name in another section, or a continuation line, is not twice */
  snprintf(cmd, sizeof cmd, "printf '[params]\\ncdp_hougoumont = 5\\n[long]\\ncdp_hougoumont = 3\\n"
           "[params]\\nmax_attackers = 3\\ncdp_hougoumont = 6\\n' > '%s/variants/x.ini'", dir);
  cr_assert_eq(system(cmd), 0);
  cr_assert_neq(scen_load(sc, dir, "long", "x", err, sizeof err), 0);
  snprintf(want, sizeof want, "%s/variants/x.ini:7: 'cdp_hougoumont' given twice in [params] (first at line 2)", dir);
  cr_assert_str_eq(err, want);
  snprintf(cmd, sizeof cmd, "printf '[params]\\ncdp_hougoumont = 5\\n[long]\\ncdp_hougoumont = 3\\n' > '%s/variants/x.ini'", dir);
  cr_assert_eq(system(cmd), 0);
  cr_assert_eq(scen_load(sc, dir, "long", "x", err, sizeof err), 0, "%s", err);
  free(sc);
  th_rmdir(dir);
}

/* ---------------------------------------------------------------- protocol lines (item 2) */
Test(robust, R_protocol_long_line_never_runs_its_tail) {
  char dir[256];
  tmpdir(dir, sizeof dir);
  /* a 4 KB and a 70 KB `play` whose tail is `save FILE`: neither may create the file */
  char script[512];
  snprintf(script, sizeof script, "%s/in.txt", dir);
  FILE *f = fopen(script, "w");
  cr_assert_not_null(f);
  fprintf(f, "new short seed 1\n");
  for (int len = 4090; len <= 70000; len += 65910) {
    fprintf(f, "play ");
    for (int i = 0; i < len; i++) fputc('x', f);
    fprintf(f, "save %s/evil.json\n", dir);
  }
  fprintf(f, "turn\nquit\n");
  fclose(f);
  static char out[1 << 17];
  cr_assert_eq(th_engine_file(script, out, sizeof out), 0);
  char evil[512];
  snprintf(evil, sizeof evil, "%s/evil.json", dir);
  cr_assert_neq(access(evil, F_OK), 0, "the tail of a long line ran as a command");
  /* answers: new, one refusal for the 4 KB play (not legal), one for the 70 KB line, turn, quit */
  cr_assert_not_null(strstr(out, "? line too long"), "%.300s", out);
  int answers = 0;
  for (const char *p = out; (p = strstr(p, "\n\n")); p += 2) answers++;
  cr_assert_eq(answers, 5, "one answer per line expected, got %d:\n%.500s", answers, out);
  cr_assert_not_null(strstr(out, "= turn 1/4"), "the engine goes on after a refused line");
  th_rmdir(dir);
}

Test(robust, protocol_line_with_nul_is_refused_whole) {
  static char out[4096];
  cr_assert_eq(th_sh("printf 'new short\\nturn\\000; quit\\nturn\\nquit\\n' | ./waterloo engine", out, sizeof out), 0);
  cr_assert_not_null(strstr(out, "? line contains a NUL byte"), "%s", out);
  cr_assert_not_null(strstr(out, "= turn 1/4"), "%s", out);
}

Test(robust, play_long_line_never_runs_its_tail) {
  char dir[256];
  tmpdir(dir, sizeof dir);
  char script[512], cmd[1024];
  snprintf(script, sizeof script, "%s/in.txt", dir);
  FILE *f = fopen(script, "w");
  cr_assert_not_null(f);
  for (int i = 0; i < 70000; i++) fputc('x', f);
  fprintf(f, "save %s/evil.json\n", dir);
  for (int i = 0; i < 600; i++) fputc('y', f);
  fprintf(f, "save %s/evil2.json\nquit\n", dir);
  fclose(f);
  snprintf(cmd, sizeof cmd, "./waterloo play --level heuristic --no-color < %s > /dev/null", script);
  cr_assert_eq(system(cmd), 0);
  snprintf(cmd, sizeof cmd, "%s/evil.json", dir);
  cr_assert_neq(access(cmd, F_OK), 0);
  snprintf(cmd, sizeof cmd, "%s/evil2.json", dir);
  cr_assert_neq(access(cmd, F_OK), 0);
  th_rmdir(dir);
}

/* ---------------------------------------------------------------- load: the file (item 3) */
Test(robust, load_opens_only_regular_files_of_bounded_size) {
  char dir[256], path[512], err[512];
  tmpdir(dir, sizeof dir);
  Scen *sc = malloc(sizeof *sc);
  GameRec g;
  State s;
  /* a directory */
  cr_assert_neq(game_load(sc, "scenarios", dir, &g, &s, err, sizeof err), 0);
  cr_assert_not_null(strstr(err, "not a regular file"), "%s", err);
  /* a FIFO with no writer: refused at once, never blocks */
  snprintf(path, sizeof path, "%s/fifo", dir);
  cr_assert_eq(mkfifo(path, 0600), 0);
  alarm(10);
  cr_assert_neq(game_load(sc, "scenarios", path, &g, &s, err, sizeof err), 0);
  alarm(0);
  cr_assert_not_null(strstr(err, "not a regular file"), "%s", err);
  /* a device */
  cr_assert_neq(game_load(sc, "scenarios", "/dev/zero", &g, &s, err, sizeof err), 0);
  cr_assert_not_null(strstr(err, "not a regular file"), "%s", err);
  /* a huge sparse file: refused by its size, nothing allocated for it */
  snprintf(path, sizeof path, "%s/huge.json", dir);
  int fd = open(path, O_WRONLY | O_CREAT, 0600);
  cr_assert(fd >= 0);
  cr_assert_eq(ftruncate(fd, (off_t)1 << 40), 0);
  close(fd);
  cr_assert_neq(game_load(sc, "scenarios", path, &g, &s, err, sizeof err), 0);
  cr_assert_not_null(strstr(err, "too large"), "%s", err);
  free(sc);
  th_rmdir(dir);
}

/* ---------------------------------------------------------------- load: the position (item 4) */
/* a state-only save of a position reached by `n` random actions; returns the JSON object */
static cJSON *position_json(const Scen *sc, State *s, uint64_t seed, int n) {
  gs_init(sc, s, seed, 0);
  Rng r;
  rng_seed(&r, seed, 77);
  ActList L;
  for (int i = 0; i < n && !gs_over(s); i++) {
    gs_legal(sc, s, &L);
    gs_apply(sc, s, L.a[rng_below(&r, (uint32_t)L.n)]);
  }
  char *t = state_to_json(sc, s);
  cJSON *st = cJSON_Parse(t);
  free(t);
  cr_assert_not_null(st);
  return st;
}

static int load_state_obj(const char *scen, cJSON *st, char *err, size_t len) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "format", "waterloo-game-1");
  cJSON_AddStringToObject(o, "scenario", scen);
  cJSON_AddStringToObject(o, "variants", "base");
  cJSON_AddItemToObject(o, "state", cJSON_Duplicate(st, 1));
  char *text = cJSON_Print(o);
  cJSON_Delete(o);
  char path[] = "/tmp/waterloo-test-state-XXXXXX";
  int fd = mkstemp(path);
  cr_assert(fd >= 0);
  cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
  close(fd);
  free(text);
  Scen *sc = malloc(sizeof *sc);
  GameRec g;
  State s;
  int rc = game_load(sc, "scenarios", path, &g, &s, err, len);
  if (rc == 0) gamerec_free(&g);
  unlink(path);
  free(sc);
  return rc;
}

static void set_num(cJSON *o, const char *k, double v) {
  cJSON_ReplaceItemInObject(o, k, cJSON_CreateNumber(v));
}

Test(robust, load_validates_every_field_of_the_position) {
  Scen *sc = th_load("long", "base");
  State s;
  cJSON *base = position_json(sc, &s, 5, 120);
  char err[512];
  cr_assert_eq(load_state_obj("long", base, err, sizeof err), 0, "a real position is refused: %s", err);
  struct { const char *field; double v; const char *must; } bytes[] = {
      {"turn", 0, "turn"}, {"turn", 99, "turn"}, {"phase", 0, "phase"}, {"phase", 16, "phase"},
      {"decider", 2, "decider"}, {"card", 200, "card"}, {"moving", 99, "moving"},
      {"bdef_unit", 99, "bdef_unit"}, {"bdef_sq", 250, "bdef_sq"}, {"charger", 60, "charger"},
      {"rally_first", 70, "rally_first"}, {"round_army", 3, "round_army"},
      {"card_army", 7, "card_army"}, {"after_battle", 3, "after_battle"},
      {"ret_phase", 40, "ret_phase"}, {"entry_sq", 0, "entry_sq"}, {"result", 9, "result"},
      {"result", 1, "result"}, {"phase", PH_B_LOSS, "battle"}, {"turn", 1.5, "turn"},
      {"owner", 200, "owner"}, {"loss_need", 9, "loss_need"}};
  for (size_t k = 0; k < sizeof bytes / sizeof *bytes; k++) {
    cJSON *st = cJSON_Duplicate(base, 1);
    set_num(st, bytes[k].field, bytes[k].v);
    cr_assert_neq(load_state_obj("long", st, err, sizeof err), 0, "%s = %g accepted", bytes[k].field, bytes[k].v);
    cr_assert_not_null(strstr(err, bytes[k].must), "%s = %g: message should name '%s': %s",
                       bytes[k].field, bytes[k].v, bytes[k].must, err);
    cr_assert_null(strchr(err, '\n'), "one line: %s", err);
    cJSON_Delete(st);
  }
  /* castle points above the start, a card in two places, a seen card not discarded, two
   * units on one square, a leader with an enemy, a bad index in an array, an even rng_inc */
  struct { const char *what, *must; } edits[] = {
      {"cdp", "cdp"}, {"hand+discard", "two places"}, {"seen", "seen"}, {"stack", "two units"},
      {"leader", "leader"}, {"batt", "batt"}, {"bid_card", "bid_card"}, {"rng_inc", "rng_inc"},
      {"unknown card", "card"}, {"facing", "facing"}, {"flags", "flags"}, {"evader", "evader"},
      {"elim_vp", "elim_vp"}};
  for (size_t k = 0; k < sizeof edits / sizeof *edits; k++) {
    cJSON *st = cJSON_Duplicate(base, 1);
    const char *w = edits[k].what;
    cJSON *units = cJSON_GetObjectItem(st, "units");
    if (!strcmp(w, "cdp")) cJSON_ReplaceItemInArray(cJSON_GetObjectItem(st, "cdp"), 0, cJSON_CreateNumber(sc->p.cdp[0] + 1));
    else if (!strcmp(w, "hand+discard")) {
      cJSON *h = cJSON_GetObjectItem(st, "hand");
      cr_assert(cJSON_GetArraySize(h) > 0);
      cJSON_AddItemToArray(cJSON_GetObjectItem(st, "discard"), cJSON_Duplicate(cJSON_GetArrayItem(h, 0), 1));
    } else if (!strcmp(w, "seen")) {
      cJSON *h = cJSON_GetObjectItem(st, "hand");
      cJSON_AddItemToArray(cJSON_GetObjectItem(st, "seen"), cJSON_Duplicate(cJSON_GetArrayItem(h, 0), 1));
    } else if (!strcmp(w, "stack") || !strcmp(w, "leader")) {
      /* the first French unit on the map goes onto a British unit's square, or Napoleon does */
      int fr = -1, br = -1;
      for (int u = 0; u < sc->nunits; u++) {
        if (s.units.sq[u] >= NSQ) continue;
        if (sc->unit[u].army == ARMY_FR && fr < 0) fr = u;
        if (sc->unit[u].army == ARMY_BR && br < 0) br = u;
      }
      cr_assert(fr >= 0 && br >= 0);
      char q[4];
      sq_name(s.units.sq[br], q);
      if (!strcmp(w, "stack"))
        cJSON_ReplaceItemInObject(cJSON_GetArrayItem(units, fr), "square", cJSON_CreateString(q));
      else cJSON_ReplaceItemInObject(st, "napoleon", cJSON_CreateString(q));
    } else if (!strcmp(w, "batt")) cJSON_ReplaceItemInArray(cJSON_GetObjectItem(st, "batt"), 2, cJSON_CreateNumber(77));
    else if (!strcmp(w, "bid_card")) cJSON_ReplaceItemInArray(cJSON_GetObjectItem(st, "bid_card"), 1, cJSON_CreateNumber(99));
    else if (!strcmp(w, "rng_inc")) cJSON_ReplaceItemInObject(st, "rng_inc", cJSON_CreateString("2"));
    else if (!strcmp(w, "unknown card")) cJSON_AddItemToArray(cJSON_GetObjectItem(st, "hand"), cJSON_CreateString("Z99"));
    else if (!strcmp(w, "facing")) cJSON_ReplaceItemInObject(cJSON_GetArrayItem(units, 0), "facing", cJSON_CreateString("Q"));
    else if (!strcmp(w, "flags")) cJSON_ReplaceItemInObject(cJSON_GetArrayItem(units, 0), "flags", cJSON_CreateNumber(1e9));
    else if (!strcmp(w, "evader")) {
      cJSON *ev = cJSON_CreateArray();
      cJSON_AddItemToArray(ev, cJSON_CreateString(sc->unit[0].kind == K_CAV ? "nobody" : sc->unit[0].name));
      cJSON_ReplaceItemInObject(st, "evaders", ev);
    } else if (!strcmp(w, "elim_vp")) cJSON_ReplaceItemInArray(cJSON_GetObjectItem(st, "elim_vp"), 0, cJSON_CreateNumber(60000));
    cr_assert_neq(load_state_obj("long", st, err, sizeof err), 0, "%s accepted", w);
    cr_assert_not_null(strstr(err, edits[k].must), "%s: message should say '%s': %s", w, edits[k].must, err);
    cJSON_Delete(st);
  }
  cJSON_Delete(base);
  free(sc);
}

/* every position of real games (both scenarios, every phase) loads back as it was */
Test(robust, load_accepts_every_reachable_position) {
  const char *scen[2] = {"short", "long"};
  for (int k = 0; k < 2; k++) {
    Scen *sc = th_load(scen[k], "base");
    for (uint64_t seed = 1; seed <= 3; seed++) {
      State s;
      gs_init(sc, &s, seed, 0);
      Rng r;
      rng_seed(&r, seed, 1);
      ActList L;
      int step = 0;
      while (!gs_over(&s)) {
        if (step++ % 7 == 0) {
          char *t = state_to_json(sc, &s), err[256];
          State back;
          cr_assert_eq(state_from_json(sc, t, &back, err, sizeof err), 0, "%s step %d: %s", scen[k], step, err);
          cr_assert_eq(memcmp(&back, &s, sizeof s), 0);
          free(t);
        }
        gs_legal(sc, &s, &L);
        gs_apply(sc, &s, L.a[rng_below(&r, (uint32_t)L.n)]);
      }
    }
    free(sc);
  }
}

/* ---------------------------------------------------------------- odds (item 5) */
Test(robust, battle_totals_of_an_empty_square_are_zero) {
  Scen *sc = th_load("long", "base");
  State s;
  gs_init(sc, &s, 3, 0);
  int a = -1, d = -1, checked = 0;
  for (int sq = 0; sq < NSQ; sq++)
    if (s.occ[sq] == UNIT_NONE) {
      battle_base_totals(sc, &s, sq, 15, &a, &d);
      cr_assert(a == 0 && d == 0, "empty %d: %d vs %d", sq, a, d);
      checked++;
    }
  battle_base_totals(sc, &s, SQ_NONE, 15, &a, &d);
  cr_assert(a == 0 && d == 0);
  /* the `odds` case: after the defender retreated its square is empty while battle.def_unit is set */
  Rng r;
  rng_seed(&r, 11, 2);
  ActList L;
  int found = 0;
  for (uint64_t seed = 1; seed < 200 && !found; seed++) {
    gs_init(sc, &s, seed, 0);
    while (!gs_over(&s) && !found) {
      if (s.battle.def_unit != UNIT_NONE && s.units.sq[s.battle.def_unit] >= NSQ) {
        /* the defender eliminated, the advance to choose: no battle left to weigh (found by
         * fuzzing: totals read the dead defender's square) */
        int h;
        cr_assert_eq(battle_seen_totals(sc, &s, s.turn.decider, &a, &d, &h), -1);
      }
      if (s.battle.def_unit != UNIT_NONE && s.battle.def_sq < NSQ &&
          s.occ[s.battle.def_sq] == UNIT_NONE) {
        battle_base_totals(sc, &s, s.battle.def_sq, 15, &a, &d);
        cr_assert(a == 0 && d == 0);
        found = 1;
      }
      gs_legal(sc, &s, &L);
      gs_apply(sc, &s, L.a[rng_below(&r, (uint32_t)L.n)]);
    }
  }
  cr_assert(found, "no position with an emptied battle square in 200 games");
  cr_assert(checked > 100);
  free(sc);
}

Test(robust, play_odds_in_every_phase_does_not_crash) {
  /* `odds` typed at every decision of a scripted game */
  static char out[1 << 18];
  char script[] = "/tmp/waterloo-test-odds-XXXXXX";
  int fd = mkstemp(script);
  cr_assert(fd >= 0);
  FILE *f = fdopen(fd, "w");
  for (int i = 0; i < 300; i++) fprintf(f, "odds\n1\n");
  fclose(f);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "./waterloo play --scenario long --level heuristic --no-color --seed 4 < %s", script);
  int rc = th_sh(cmd, out, sizeof out);
  unlink(script);
  cr_assert_eq(rc, 0, "play exited %d", rc);
}

/* ---------------------------------------------------------------- saves (item 7) */
static void new_game(Scen **scp, GameRec *g, State *s, const char *scen, const char *vars, int n) {
  Scen *sc = th_load(scen, vars);
  gamerec_init(g, scen, vars, 21, 0);
  gs_init(sc, s, 21, 0);
  Rng r;
  rng_seed(&r, 21, 3);
  ActList L;
  for (int i = 0; i < n && !gs_over(s); i++) {
    gs_legal(sc, s, &L);
    Action a = L.a[rng_below(&r, (uint32_t)L.n)];
    gs_apply(sc, s, a);
    gamerec_push(g, a);
  }
  *scp = sc;
}

/* the saved game at path must still be the old one, whole */
static void assert_intact(const char *path, const char *old) {
  char *now = slurp(path);
  cr_assert_not_null(now, "%s lost", path);
  cr_assert_str_eq(now, old, "%s damaged", path);
  free(now);
}

static void no_tmp_left(const char *dir) {
  char cmd[600], out[256];
  snprintf(cmd, sizeof cmd, "ls '%s' | grep -c tmp", dir);
  th_sh(cmd, out, sizeof out);
  cr_assert_eq(atoi(out), 0, "temporary files left in %s", dir);
}

Test(robust, save_keeps_a_long_variant_list_whole) {
  const char *vars = "three-player,prussians-early,charge-all-cards,no-bidding,strong-hougoumont";
  cr_assert(strlen(vars) > 64);
  Scen *sc;
  GameRec g, g2;
  State s, s2;
  new_game(&sc, &g, &s, "long", vars, 40);
  cr_assert_str_eq(sc->variant_names, vars);
  char dir[256], path[512], err[512];
  tmpdir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/g.json", dir);
  cr_assert_eq(game_save(sc, &g, &s, path, err, sizeof err), 0, "%s", err);
  Scen *sc2 = malloc(sizeof *sc2);
  cr_assert_eq(game_load(sc2, "scenarios", path, &g2, &s2, err, sizeof err), 0, "%s", err);
  cr_assert_str_eq(g2.variants, vars);
  cr_assert_eq(memcmp(&s, &s2, sizeof s), 0);
  /* longer than any list can be: refused, never cut */
  char big[400];
  memset(big, 0, sizeof big);
  for (size_t i = 0; strlen(big) + 6 < sizeof big - 10; i++) strcat(big, "base,");
  cr_assert_neq(scen_load(sc2, "scenarios", "long", big, err, sizeof err), 0);
  cr_assert_not_null(strstr(err, "too long"), "%s", err);
  gamerec_free(&g);
  gamerec_free(&g2);
  free(sc);
  free(sc2);
  th_rmdir(dir);
}

Test(robust, save_refuses_a_target_that_is_not_a_regular_file) {
  Scen *sc;
  GameRec g;
  State s;
  new_game(&sc, &g, &s, "short", "base", 10);
  char dir[256], path[512], err[512];
  tmpdir(dir, sizeof dir);
  struct stat st;
  /* a FIFO, a directory, a symlink: each refused and left as it was */
  snprintf(path, sizeof path, "%s/fifo", dir);
  cr_assert_eq(mkfifo(path, 0600), 0);
  cr_assert_neq(game_save(sc, &g, &s, path, err, sizeof err), 0);
  cr_assert_not_null(strstr(err, "not a regular file"), "%s", err);
  cr_assert_eq(lstat(path, &st), 0);
  cr_assert(S_ISFIFO(st.st_mode));
  snprintf(path, sizeof path, "%s/sub", dir);
  cr_assert_eq(mkdir(path, 0700), 0);
  cr_assert_neq(game_save(sc, &g, &s, path, err, sizeof err), 0);
  cr_assert_eq(lstat(path, &st), 0);
  cr_assert(S_ISDIR(st.st_mode));
  char target[512];
  snprintf(target, sizeof target, "%s/victim", dir);
  FILE *f = fopen(target, "w");
  fputs("precious\n", f);
  fclose(f);
  snprintf(path, sizeof path, "%s/link.json", dir);
  cr_assert_eq(symlink(target, path), 0);
  cr_assert_neq(game_save(sc, &g, &s, path, err, sizeof err), 0);
  char *v = slurp(target);
  cr_assert_str_eq(v, "precious\n");
  free(v);
  /* /dev/null (the program runs as root in CI): refused, still a device */
  cr_assert_neq(game_save(sc, &g, &s, "/dev/null", err, sizeof err), 0);
  cr_assert_eq(stat("/dev/null", &st), 0);
  cr_assert(S_ISCHR(st.st_mode));
  /* a regular file is replaced, and no temporary file is left behind */
  snprintf(path, sizeof path, "%s/ok.json", dir);
  cr_assert_eq(game_save(sc, &g, &s, path, err, sizeof err), 0, "%s", err);
  cr_assert_eq(game_save(sc, &g, &s, path, err, sizeof err), 0, "%s", err);
  no_tmp_left(dir);
  gamerec_free(&g);
  free(sc);
  th_rmdir(dir);
}

/* ---------------------------------------------------------------- fault injection (writers) */
/* a game of n random actions saved as g.json in a new temporary folder; old: the file's text */
typedef struct {
  Scen *sc;
  GameRec g;
  State s;
  char dir[256], path[512], err[512];
  char *old;
} Saved;

static void saved_open(Saved *v, const char *scen, int n) {
  new_game(&v->sc, &v->g, &v->s, scen, "base", n);
  tmpdir(v->dir, sizeof v->dir);
  snprintf(v->path, sizeof v->path, "%s/g.json", v->dir);
  cr_assert_eq(game_save(v->sc, &v->g, &v->s, v->path, v->err, sizeof v->err), 0);
  v->old = slurp(v->path);
}

/* no temporary file left beside the save; then cleans up */
static void saved_close(Saved *v) {
  no_tmp_left(v->dir);
  free(v->old);
  gamerec_free(&v->g);
  free(v->sc);
  th_rmdir(v->dir);
}

Test(robust, save_on_a_full_disk_keeps_the_old_file) {
  Saved v;
  saved_open(&v, "long", 5);
  State s2 = v.s;
  ActList L;
  for (int i = 0; i < 200 && !gs_over(&s2); i++) {   /* a longer game: a bigger file */
    gs_legal(v.sc, &s2, &L);
    gs_apply(v.sc, &s2, L.a[0]);
    gamerec_push(&v.g, L.a[0]);
  }
  /* the disk fills after 1 KB: the file size limit (SIGXFSZ ignored: write fails EFBIG) */
  pid_t pid = fork();
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = {1024, 1024};
    setrlimit(RLIMIT_FSIZE, &rl);
    int rc = game_save(v.sc, &v.g, &s2, v.path, v.err, sizeof v.err);
    _exit(rc != 0 && strstr(v.err, "not saved") && strstr(v.err, v.path) ? 0 : 1);
  }
  int st;
  waitpid(pid, &st, 0);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the full disk gave no clear error");
  assert_intact(v.path, v.old);
  saved_close(&v);
}

Test(robust, save_into_a_read_only_folder_keeps_the_old_file) {
  Saved v;
  saved_open(&v, "short", 5);
  cr_assert_eq(chmod(v.dir, 0777), 0);
  cr_assert_eq(chmod(v.path, 0666), 0);
  cr_assert_eq(chmod(v.dir, 0555), 0);
  pid_t pid = fork();
  if (pid == 0) {
    /* root ignores permissions: save as an ordinary user */
    if (getuid() == 0 && setuid(65534) != 0) _exit(3);
    gamerec_push(&v.g, act_kind(A_END));
    v.g.n--;
    int rc = game_save(v.sc, &v.g, &v.s, v.path, v.err, sizeof v.err);
    _exit(rc != 0 && strstr(v.err, v.path) && strstr(v.err, "ermission") ? 0 : 1);
  }
  int st;
  waitpid(pid, &st, 0);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "no clear error in a read-only folder (%d)", WEXITSTATUS(st));
  assert_intact(v.path, v.old);
  cr_assert_eq(chmod(v.dir, 0700), 0);
  saved_close(&v);
}

/* allocation failure: cJSON's allocator fails at the k-th call, for every k */
static long fail_at, calls;
static void *failing_malloc(size_t n) { return ++calls == fail_at ? NULL : malloc(n); }

Test(robust, save_with_allocation_failure_keeps_the_old_file) {
  Saved v;
  saved_open(&v, "short", 30);
  State s2 = v.s;
  ActList L;
  gs_legal(v.sc, &s2, &L);
  gs_apply(v.sc, &s2, L.a[0]);
  gamerec_push(&v.g, L.a[0]);
  cJSON_Hooks h = {failing_malloc, free};
  cJSON_InitHooks(&h);
  int failures = 0;
  for (fail_at = 1;; fail_at++) {
    calls = 0;
    int rc = game_save(v.sc, &v.g, &s2, v.path, v.err, sizeof v.err);
    if (calls < fail_at) {            /* no allocation failed: the save went through */
      cr_assert_eq(rc, 0, "%s", v.err);
      break;
    }
    cr_assert_neq(rc, 0, "allocation %ld failed but the save reported success", fail_at);
    failures++;
    cr_assert_not_null(strstr(v.err, v.path), "%s", v.err);
    assert_intact(v.path, v.old);
  }
  cJSON_InitHooks(NULL);
  cr_assert(failures > 10, "only %d allocation failures were reported", failures);
  saved_close(&v);
}

/* found by fuzzing: an action text with a newline made a load error of two lines */
Test(robust, load_error_about_an_action_is_one_line) {
  const char *text = "{\"scenario\":\"short\",\"variants\":\"base\",\"seed\":\"1\","
                     "\"actions\":[\"pass\",\"bogus\\n\\u001b[2Jmove\"]}";
  Scen *sc = malloc(sizeof *sc);
  GameRec g;
  State s;
  char err[512];
  cr_assert_neq(game_load_text(sc, "scenarios", "x.json", text, &g, &s, err, sizeof err), 0);
  cr_assert_null(strchr(err, '\n'), "%s", err);
  cr_assert_null(strchr(err, '\033'), "%s", err);
  cr_assert_not_null(strstr(err, "x.json: action 2"), "%s", err);
  free(sc);
}

/* a save killed mid-write leaves its temporary file (PATH.PID.K.NSEC.tmp); the next
 * write beside it removes it when its process is gone, never a live writer's; `serve` cleans
 * its saves folder at start (file_clean_stale_temps with no target) */
Test(robust, save_killed_mid_write_leaves_no_temporary_for_long) {
  Saved v;
  saved_open(&v, "short", 5);
  /* a real kill during a write: a child writes a big file slowly and is killed with SIGKILL */
  pid_t pid = fork();
  if (pid == 0) {
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.%ld.1.abc.tmp", v.path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    for (;;) {
      if (write(fd, "x", 1) != 1) _exit(1);
      usleep(1000);
    }
  }
  usleep(50000);
  kill(pid, SIGKILL);
  int st;
  waitpid(pid, &st, 0);
  char dead[600], live[600], other[600];
  snprintf(dead, sizeof dead, "%s.%ld.1.abc.tmp", v.path, (long)pid);
  snprintf(live, sizeof live, "%s.%ld.7.ff.tmp", v.path, (long)getppid()); /* a running process */
  snprintf(other, sizeof other, "%s/h.json.%ld.2.10.tmp", v.dir, (long)pid); /* another file's */
  struct stat sb;
  cr_assert_eq(stat(dead, &sb), 0, "the killed writer left its temporary file");
  close(open(live, O_WRONLY | O_CREAT, 0666));
  close(open(other, O_WRONLY | O_CREAT, 0666));
  cr_assert_eq(game_save(v.sc, &v.g, &v.s, v.path, v.err, sizeof v.err), 0);
  cr_assert_neq(stat(dead, &sb), 0, "the next save beside it removed the dead writer's file");
  cr_assert_eq(stat(live, &sb), 0, "a running writer's temporary file is kept");
  cr_assert_eq(stat(other, &sb), 0, "another target's file is left to its own writes");
  cr_assert_eq(file_clean_stale_temps(v.dir, NULL), 1, "start-up cleaning takes the other one");
  cr_assert_neq(stat(other, &sb), 0);
  unlink(live);
  saved_close(&v);
}

/* a data file's raw bytes (control, high) never reach an error message raw */
Test(robust, scenario_error_messages_are_printable_lines) {
  char dir[256], err[4096];
  th_tmpdir(dir, sizeof dir);
  th_write(dir, "variants/bad.ini", "[params]\nturns\x1b[2J = 3\xff\n");
  th_write(dir, "variants/bad2.ini", "[vari\x07" "ant]\n\x01\xfe = 1\n");
  Scen *sc = malloc(sizeof *sc);
  const char *vars[] = {"bad", "bad2", "bad,bad2"};
  for (int k = 0; k < 3; k++) {
    cr_assert_neq(scen_load(sc, dir, "short", vars[k], err, sizeof err), 0);
    for (const unsigned char *p = (const unsigned char *)err; *p; p++)
      cr_assert(*p == '\n' || (*p >= 0x20 && *p < 0x7f), "raw byte 0x%02x in: %s", *p, err);
    cr_assert_not_null(strstr(err, "\\x"), "the bytes are shown escaped: %s", err);
  }
  cr_assert_not_null(strstr(err, "[vari\\x07ant]"), "%s", err);
  free(sc);
  th_rmdir(dir);
}

/* ---------------------------------------------------------------- the HTTP server (serve) */
/* An outside robustness suite's findings against `./waterloo serve` on loopback: each test
 * starts its own server (a free port, its own saves folder and a one-file page, so it runs from
 * any build folder) and speaks raw HTTP to it. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "../engine/util.h"

typedef struct {
  pid_t pid;
  int port;
  char dir[256], saves[300];
} Srv;

/* the folder of a server to be (dir/saves, dir/web/index.html), for files put there first */
static void srv_prepare(Srv *v) {
  memset(v, 0, sizeof *v);
  tmpdir(v->dir, sizeof v->dir);
  snprintf(v->saves, sizeof v->saves, "%s/saves", v->dir);
  char web[300];
  snprintf(web, sizeof web, "%s/web", v->dir);
  cr_assert_eq(mkdir(v->saves, 0755), 0);
  cr_assert_eq(mkdir(web, 0755), 0);
  th_write(web, "index.html", "<!doctype html><title>waterloo</title>\n");
}

/* ./waterloo serve on it; fsize: the server's file size limit in bytes (a full disk), 0 none */
static void srv_run(Srv *v, long fsize) {
  int fds[2];
  cr_assert_eq(pipe(fds), 0);
  v->pid = fork();
  cr_assert_geq(v->pid, 0);
  if (v->pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlives a failed test */
    char web[300];
    snprintf(web, sizeof web, "%s/web", v->dir);
    setenv("WATERLOO_WEB", web, 1);
    dup2(fds[1], 1);
    close(fds[0]);
    if (fsize) {
      signal(SIGXFSZ, SIG_IGN); /* a write past the limit fails (EFBIG) as on a full disk */
      struct rlimit rl = {(rlim_t)fsize, (rlim_t)fsize};
      setrlimit(RLIMIT_FSIZE, &rl);
    }
    execl("./waterloo", "waterloo", "serve", "--port", "0", "--saves", v->saves, (char *)NULL);
    _exit(127);
  }
  close(fds[1]);
  FILE *f = fdopen(fds[0], "r");
  char line[512] = "";
  cr_assert_not_null(fgets(line, sizeof line, f), "the server did not start");
  fclose(f);
  const char *p = strstr(line, "http://127.0.0.1:");
  cr_assert_not_null(p, "%s", line);
  v->port = atoi(p + 17);
  cr_assert_gt(v->port, 0, "%s", line);
}

static void srv_start(Srv *v) {
  srv_prepare(v);
  srv_run(v, 0);
}

static void srv_stop(Srv *v) {
  kill(v->pid, SIGKILL);
  waitpid(v->pid, NULL, 0);
  th_rmdir(v->dir);
}

/* a connection to the server from src (127.0.0.X, NULL: 127.0.0.1), reads timed at 3 s */
static int http_connect(const Srv *v, const char *src) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  cr_assert_geq(fd, 0);
  struct timeval tv = {3, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  struct sockaddr_in a = {.sin_family = AF_INET};
  inet_pton(AF_INET, src ? src : "127.0.0.1", &a.sin_addr);
  cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0, "bind %s", src);
  a.sin_port = htons((uint16_t)v->port);
  inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  cr_assert_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0, "connect: %s", strerror(errno));
  return fd;
}

/* what the server answers on fd until it closes (or 3 s of silence), NUL-terminated; its length */
static size_t http_read(int fd, char *out, size_t cap) {
  size_t n = 0;
  ssize_t r;
  while (n + 1 < cap && (r = recv(fd, out + n, cap - 1 - n, 0)) > 0) n += (size_t)r;
  out[n] = 0;
  return n;
}

/* len bytes sent as they are from src, the whole answer read; its status (0: none) */
static int http_raw(const Srv *v, const char *src, const char *req, size_t len, char *out,
                    size_t cap) {
  int fd = http_connect(v, src);
  for (size_t k = 0; k < len;) {
    ssize_t w = send(fd, req + k, len - k, MSG_NOSIGNAL);
    if (w <= 0) break;
    k += (size_t)w;
  }
  shutdown(fd, SHUT_WR);
  http_read(fd, out, cap);
  close(fd);
  return strncmp(out, "HTTP/1.1 ", 9) ? 0 : atoi(out + 9);
}

/* METHOD path with a body (NULL: none) from 127.0.0.1; the status, the answer in out */
static int http(const Srv *v, const char *method, const char *path, const char *body, char *out,
                size_t cap) {
  char req[20000];
  size_t bl = body ? strlen(body) : 0;
  int h = snprintf(
      req, sizeof req,
      "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: %zu\r\n\r\n",
      method, path, bl);
  cr_assert(h > 0 && (size_t)h + bl < sizeof req);
  memcpy(req + h, body ? body : "", bl);
  return http_raw(v, NULL, req, (size_t)h + bl, out, cap);
}

static const char *http_body(const char *out) {
  const char *b = strstr(out, "\r\n\r\n");
  return b ? b + 4 : "";
}

/* a new game of the body's kind; its id in id */
static void srv_game(const Srv *v, const char *body, char id[17]) {
  static char out[1 << 18];
  cr_assert_eq(http(v, "POST", "/api/games", body, out, sizeof out), 201, "%.300s", out);
  const char *p = strstr(out, "\"id\":\"");
  cr_assert_not_null(p);
  snprintf(id, 17, "%.16s", p + 6);
}

/* the answer's body is a JSON object whose "error" is one line and whose "request" names it */
static void assert_error(const char *out, const char *request) {
  const char *b = http_body(out);
  cJSON *o = cJSON_Parse(b);
  cr_assert_not_null(o, "not JSON: %.300s", b);
  const cJSON *e = cJSON_GetObjectItem(o, "error"), *r = cJSON_GetObjectItem(o, "request");
  cr_assert(cJSON_IsString(e) && !strchr(e->valuestring, '\n'), "%s", b);
  cr_assert(cJSON_IsString(r) && !strcmp(r->valuestring, request), "the error should name '%s': %s",
            request, b);
  cJSON_Delete(o);
}

/* More connections than an address may hold (32), trickling a header or idle after an answer,
 * and more than the server holds (256) from other addresses: a client still gets its answer at
 * once (they locked out the page of the same machine until the slow ones timed out) */
Test(robust, serve_answers_a_client_past_the_connection_limits) {
  Srv v;
  srv_start(&v);
  static char out[1 << 16];
  static int held[400];
  int n = 0;
  const char *part = "GET /api/saves HTTP/1.1\r\nHost: 127.";
  for (int i = 0; i < 40; i++, n++) { /* trickling from 127.0.0.1 */
    held[n] = http_connect(&v, "127.0.0.1");
    cr_assert_eq(send(held[n], part, strlen(part), MSG_NOSIGNAL), (ssize_t)strlen(part));
  }
  const char *whole = "GET /api/saves HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  for (int i = 0; i < 40; i++, n++) { /* idle keep-alive from 127.0.0.2 */
    held[n] = http_connect(&v, "127.0.0.2");
    cr_assert_eq(send(held[n], whole, strlen(whole), MSG_NOSIGNAL), (ssize_t)strlen(whole));
    cr_assert_gt(recv(held[n], out, sizeof out, 0), 0, "keep-alive request %d answered", i);
  }
  for (int i = 0; i < 240; i++, n++) { /* trickling from 8 more addresses: 320 in all */
    char src[32];
    snprintf(src, sizeof src, "127.0.0.%d", 10 + i % 8);
    held[n] = http_connect(&v, src);
    send(held[n], part, strlen(part), MSG_NOSIGNAL);
  }
  usleep(200000);
  const char *who[] = {"127.0.0.1", "127.0.0.2", "127.0.0.10", "127.0.0.99"};
  for (int k = 0; k < 4; k++) {
    double t0 = clock_wall();
    char req[200];
    int len = snprintf(req, sizeof req,
                       "GET /api/saves HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    int code = http_raw(&v, who[k], req, (size_t)len, out, sizeof out);
    cr_assert_eq(code, 200, "%s not answered under %d slow or idle connections: %.100s", who[k], n,
                 out);
    cr_assert_lt(clock_wall() - t0, 2.0, "%s answered late", who[k]);
  }
  for (int i = 0; i < n; i++) close(held[i]);
  srv_stop(&v);
}

/* A body announced over 16 KB is refused from its head at once (it was read to its end: the
 * client got no answer before the 10 s timeout), and a length given twice or both ways is
 * refused rather than read one of the ways */
Test(robust, serve_refuses_a_too_large_or_ambiguous_body_from_its_head) {
  Srv v;
  srv_start(&v);
  static char out[1 << 16];
  const char *big =
      "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000000\r\n\r\n{";
  int fd = http_connect(&v, NULL);
  double t0 = clock_wall();
  send(fd, big, strlen(big), MSG_NOSIGNAL); /* and nothing more: the answer must not wait */
  http_read(fd, out, sizeof out);
  close(fd);
  cr_assert(!strncmp(out, "HTTP/1.1 413", 12) && clock_wall() - t0 < 2, "%.200s", out);
  assert_error(out, "POST /api/games");
  cr_assert_not_null(strstr(out, "1000000000 bytes"), "%s", out);
  const char *twice[] = {"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: "
                         "2\r\nContent-Length: 30\r\n\r\n{}",
                         "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: "
                         "5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"};
  for (int k = 0; k < 2; k++) {
    cr_assert_eq(http_raw(&v, NULL, twice[k], strlen(twice[k]), out, sizeof out), 400, "%d: %.200s",
                 k, out);
    assert_error(out, "POST /api/games");
  }
  /* a chunked body is read (and one over 16 KB refused when it ends) */
  const char *chunked =
      "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
      "Transfer-Encoding: chunked\r\n\r\n9\r\n{\"level\":\r\n9\r\n\"random\"}\r\n0\r\n\r\n";
  cr_assert_eq(http_raw(&v, NULL, chunked, strlen(chunked), out, sizeof out), 201, "%.200s", out);
  srv_stop(&v);
}

/* a whole text of valid UTF-8 (no stray, overlong or surrogate byte) without a control byte */
static int printable_utf8(const char *t) {
  for (const unsigned char *p = (const unsigned char *)t; *p;) {
    int n = *p < 0x80             ? 0
            : (*p & 0xe0) == 0xc0 ? 1
            : (*p & 0xf0) == 0xe0 ? 2
            : (*p & 0xf8) == 0xf0 ? 3
                                  : -1;
    if (n < 0 || (n == 0 && *p < 0x20)) return 0;
    unsigned cp = n ? *p & (0x3f >> n) : *p;
    for (int i = 1; i <= n; i++) {
      if ((p[i] & 0xc0) != 0x80) return 0;
      cp = cp << 6 | (p[i] & 0x3f);
    }
    static const unsigned least[4] = {0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    p += n + 1;
  }
  return 1;
}

/* The body is one JSON object and nothing else: trailing bytes, a second object or a NUL (raw,
 * or \u0000, which cut a name: "nul\u0000../../x" was saved as nul.json) are refused, not read
 * in part; an error answer is one line of valid UTF-8 whatever bytes it quotes, and names the
 * request */
Test(robust, serve_reads_a_body_only_as_one_whole_json_object) {
  Srv v;
  srv_start(&v);
  static char out[1 << 18];
  char id[17], path[100], request[120];
  srv_game(&v, "{\"level\":\"random\",\"seed\":4}", id);
  snprintf(path, sizeof path, "/api/games/%s/save", id);
  snprintf(request, sizeof request, "POST %s", path);
  struct {
    const char *body;
    size_t len;
  } bad[] = {{"{\"name\":\"tail\"} x", 0},
             {"{\"name\":\"two\"}{\"name\":\"x\"}", 0},
             {"{\"name\":\"nul\\u0000../../x\"}", 0},
             {"{\"name\":\"raw\0zz\"}", 16},
             {"{\"name\":\"after\"}\0", 17}};
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    char req[400];
    size_t bl = bad[k].len ? bad[k].len : strlen(bad[k].body);
    int h =
        snprintf(req, sizeof req,
                 "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %zu\r\n\r\n", path, bl);
    memcpy(req + h, bad[k].body, bl);
    cr_assert_eq(http_raw(&v, NULL, req, (size_t)h + bl, out, sizeof out), 400, "body %zu: %.300s",
                 k, out);
    assert_error(out, request);
  }
  char cmd[400], ls[400];
  snprintf(cmd, sizeof cmd, "ls '%s'", v.saves);
  th_sh(cmd, ls, sizeof ls);
  cr_assert_str_eq(ls, "auto\n", "a refused body wrote a save: %s", ls);
  cr_assert_eq(http(&v, "POST", path, "  {\"name\":\"fine\"}\r\n", out, sizeof out), 200,
               "white space around: %.200s", out);
  /* an action cut at a NUL is not played; raw bytes quoted back stay valid UTF-8 */
  snprintf(path, sizeof path, "/api/games/%s/play", id);
  snprintf(request, sizeof request, "POST %s", path);
  cr_assert_eq(http(&v, "POST", path, "{\"action\":\"pass\\u0000 no\"}", out, sizeof out), 400);
  const char *odd[] = {
      "{\"action\":\"\xff\xfe\xc3\"}", "{\"action\":\"\xed\xa0\x80 \xc0\xaf \x1b[2J\"}",
      "{\"action\":\"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xe2\x82\"}"};
  for (size_t k = 0; k < sizeof odd / sizeof *odd; k++) {
    cr_assert_eq(http(&v, "POST", path, odd[k], out, sizeof out), 400, "%.300s", out);
    assert_error(out, request);
    cr_assert(printable_utf8(http_body(out)), "answer %zu is not printable UTF-8: %s", k,
              http_body(out));
  }
  snprintf(path, sizeof path, "/api/games/%s", id);
  cr_assert_eq(http(&v, "GET", path, NULL, out, sizeof out), 200);
  cr_assert_not_null(strstr(out, "\"actions\":0,"), "a refused action was played: %.200s",
                     http_body(out));
  /* a seed as a digit string: any 64-bit number, as --seed */
  cr_assert_eq(http(&v, "POST", "/api/games",
                    "{\"level\":\"random\",\"seed\":\"18446744073709551615\"}", out, sizeof out),
               201);
  cr_assert_eq(http(&v, "POST", "/api/games",
                    "{\"level\":\"random\",\"seed\":\"18446744073709551616\"}", out, sizeof out),
               400);
  assert_error(out, "POST /api/games");
  srv_stop(&v);
}

/* %00 in the address cut it ("/api/games/ID%00/log" was answered as the game's view,
 * "/index.html%00.js" with the page): refused; a path answered with another method gets 405
 * with the methods it takes (it was 404 "no such request", or a 405 that did not say) */
Test(robust, serve_refuses_a_nul_in_the_address_and_names_the_methods_of_a_path) {
  Srv v;
  srv_start(&v);
  static char out[1 << 18];
  char id[17], path[160];
  srv_game(&v, "{\"level\":\"random\",\"seed\":4}", id);
  const char *nul[] = {"/api/games/%s%%00/log", "/index.html%%00.js",
                       "/api/games/%s/reach?unit=fr-4/I%%00x"};
  for (size_t k = 0; k < sizeof nul / sizeof *nul; k++) {
    snprintf(path, sizeof path, nul[k], id);
    cr_assert_eq(http(&v, "GET", path, NULL, out, sizeof out), 400, "%s: %.200s", path, out);
    cr_assert_not_null(strstr(out, "NUL"), "%s", out);
  }
  snprintf(path, sizeof path, "/api/games/%s/log", id);
  cr_assert_eq(http(&v, "GET", path, NULL, out, sizeof out), 200,
               "the same connection's next request");
  struct {
    const char *method, *path, *allow;
  } wrong[] = {{"GET", "/api/games/%s/play", "POST"},
               {"POST", "/api/games/%s", "GET, HEAD, DELETE"},
               {"HEAD", "/api/games", "POST"},
               {"OPTIONS", "/api/games", "POST"},
               {"POST", "/api/saves", "GET, HEAD"},
               {"DELETE", "/api/saves", "GET, HEAD"},
               {"GET", "/api/replay/sim", "POST"},
               {"PUT", "/api/review", "GET, HEAD, POST"},
               {"FOO", "/api/games/%s/log", "GET, HEAD"},
               {"POST", "/index.html", "GET, HEAD"}};
  for (size_t k = 0; k < sizeof wrong / sizeof *wrong; k++) {
    snprintf(path, sizeof path, wrong[k].path, id);
    cr_assert_eq(http(&v, wrong[k].method, path, NULL, out, sizeof out), 405, "%s %s: %.200s",
                 wrong[k].method, path, out);
    char allow[80];
    snprintf(allow, sizeof allow, "\r\nAllow: %s\r\n", wrong[k].allow);
    cr_assert_not_null(strstr(out, allow), "%s %s should allow %s: %.300s", wrong[k].method, path,
                       wrong[k].allow, out);
    char request[200];
    snprintf(request, sizeof request, "%s %s", wrong[k].method, path);
    if (strcmp(wrong[k].method, "HEAD")) assert_error(out, request);
  }
  cr_assert_eq(http(&v, "GET", "/api/nosuch", NULL, out, sizeof out), 404);
  assert_error(out, "GET /api/nosuch");
  srv_stop(&v);
}

/* The saves folder full (the server's file size limit: writes fail as on a full disk): replacing
 * a save keeps the old one and its review (the review was removed before the write that then
 * failed), the answer says why, and a view says its game is not kept (autosaves failed
 * silently: the page believed a restart would bring the game back) */
Test(robust, serve_on_a_full_disk_loses_nothing_and_says_so) {
  Srv v;
  srv_prepare(&v);
  char dir[400];
  snprintf(dir, sizeof dir, "%s/keep-review", v.saves);
  cr_assert_eq(mkdir(dir, 0755), 0);
  th_write(v.saves, "keep.json", "the old game\n");
  th_write(dir, "review.json", "{\"decisions\":[]}\n");
  srv_run(&v, 64);
  static char out[1 << 18];
  char id[17], path[100];
  cr_assert_eq(http(&v, "POST", "/api/games", "{\"level\":\"random\",\"seed\":4}", out, sizeof out),
               201);
  cr_assert_not_null(strstr(out, "\"kept\":false"),
                     "a game the server could not keep says so: %.300s", http_body(out));
  snprintf(id, sizeof id, "%.16s", strstr(out, "\"id\":\"") + 6);
  snprintf(path, sizeof path, "/api/games/%s/save", id);
  cr_assert_eq(http(&v, "POST", path, "{\"name\":\"keep\",\"overwrite\":true}", out, sizeof out),
               500, "%.300s", out);
  cr_assert_not_null(strstr(out, "could not write the save (nothing was replaced): keep.json"),
                     "%s", http_body(out));
  cr_assert_not_null(strstr(out, "File too large"), "the reason: %s", http_body(out));
  cr_assert_null(strstr(out, v.dir), "the message names the file within the saves folder only: %s",
                 http_body(out));
  char file[500];
  snprintf(file, sizeof file, "%s/keep.json", v.saves);
  assert_intact(file, "the old game\n");
  snprintf(file, sizeof file, "%s/review.json", dir);
  assert_intact(file, "{\"decisions\":[]}\n");
  cr_assert_eq(http(&v, "POST", path, "{\"name\":\"fresh\"}", out, sizeof out), 500);
  snprintf(file, sizeof file, "%s/fresh.json", v.saves);
  cr_assert_neq(access(file, F_OK), 0);
  const char *sim = "{\"players\":\"random,random\",\"seed\":3,\"index\":0}";
  cr_assert_eq(http(&v, "POST", "/api/replay/sim", sim, out, sizeof out), 500, "%.300s", out);
  cr_assert_not_null(strstr(out, "the game could not be kept: sim-"), "%s", http_body(out));
  cr_assert_not_null(strstr(out, "File too large"), "the reason: %s", http_body(out));
  no_tmp_left(v.saves);
  srv_stop(&v);
}

/* Links in the saves folder are never followed to write or remove: SAVES/auto and
 * SAVES/NAME-review pointing elsewhere (replacing the save NAME emptied the folder the link
 * named; every game was kept in it), SAVES/NAME.json a link (500 before, now 409 naming it) */
Test(robust, serve_never_writes_or_removes_through_a_link_in_the_saves) {
  Srv v;
  srv_prepare(&v);
  char victim[300], link[400], file[500];
  snprintf(victim, sizeof victim, "%s/elsewhere", v.dir);
  cr_assert_eq(mkdir(victim, 0755), 0);
  th_write(victim, "precious.txt", "precious\n");
  snprintf(link, sizeof link, "%s/auto", v.saves);
  cr_assert_eq(symlink(victim, link), 0);
  snprintf(link, sizeof link, "%s/keep-review", v.saves);
  cr_assert_eq(symlink(victim, link), 0);
  snprintf(file, sizeof file, "%s/precious.txt", victim);
  snprintf(link, sizeof link, "%s/link.json", v.saves);
  cr_assert_eq(symlink(file, link), 0);
  srv_run(&v, 0);
  static char out[1 << 18];
  char id[17], path[100];
  cr_assert_eq(http(&v, "POST", "/api/games", "{\"level\":\"random\",\"seed\":4}", out, sizeof out),
               201);
  cr_assert_not_null(strstr(out, "\"kept\":false"), "%.300s", http_body(out));
  snprintf(id, sizeof id, "%.16s", strstr(out, "\"id\":\"") + 6);
  snprintf(path, sizeof path, "/api/games/%s/save", id);
  cr_assert_eq(http(&v, "POST", path, "{\"name\":\"keep\"}", out, sizeof out), 200, "%.300s", out);
  cr_assert_eq(http(&v, "POST", path, "{\"name\":\"keep\",\"overwrite\":true}", out, sizeof out),
               200, "%.300s", out);
  cr_assert_eq(
      http(&v, "POST", "/api/review", "{\"name\":\"keep\",\"level\":\"sim\"}", out, sizeof out),
      409, "%.300s", out);
  cr_assert_eq(http(&v, "POST", path, "{\"name\":\"link\",\"overwrite\":true}", out, sizeof out),
               409, "%.300s", out);
  cr_assert_not_null(strstr(out, "link.json in the saves folder is not a saved game"), "%s",
                     http_body(out));
  snprintf(path, sizeof path, "/api/games/%s", id);
  cr_assert_eq(http(&v, "DELETE", path, NULL, out, sizeof out), 200);
  char cmd[400], ls[400];
  snprintf(cmd, sizeof cmd, "ls '%s'", victim);
  th_sh(cmd, ls, sizeof ls);
  cr_assert_str_eq(ls, "precious.txt\n", "written or removed through a link: %s", ls);
  assert_intact(file, "precious\n");
  srv_stop(&v);
}

typedef struct {
  const Srv *v;
  char path[100], body[100];
  pthread_barrier_t *go;
  int code;
} Racer;

static void *race_save(void *arg) {
  Racer *r = arg;
  static __thread char out[1 << 16];
  pthread_barrier_wait(r->go);
  r->code = http(r->v, "POST", r->path, r->body, out, sizeof out);
  return NULL;
}

/* Two games saved under one new name at the same moment: one is saved, the other told the name
 * is taken (both found the name free and the second replaced the first without asking) */
Test(robust, serve_two_saves_racing_for_a_name_never_replace_one_another) {
  Srv v;
  srv_start(&v);
  char id[2][17];
  srv_game(&v, "{\"level\":\"random\",\"seed\":4}", id[0]);
  srv_game(&v, "{\"level\":\"random\",\"seed\":5,\"scenario\":\"long\"}", id[1]);
  for (int round = 0; round < 12; round++) {
    pthread_barrier_t go;
    pthread_barrier_init(&go, NULL, 2);
    Racer r[2];
    pthread_t t[2];
    for (int k = 0; k < 2; k++) {
      r[k] = (Racer){.v = &v, .go = &go};
      snprintf(r[k].path, sizeof r[k].path, "/api/games/%s/save", id[k]);
      snprintf(r[k].body, sizeof r[k].body, "{\"name\":\"race%d\"}", round);
      pthread_create(&t[k], NULL, race_save, &r[k]);
    }
    for (int k = 0; k < 2; k++) pthread_join(t[k], NULL);
    pthread_barrier_destroy(&go);
    cr_assert((r[0].code == 200 && r[1].code == 409) || (r[0].code == 409 && r[1].code == 200),
              "round %d: answers %d and %d", round, r[0].code, r[1].code);
  }
  srv_stop(&v);
}

/* A game made and deleted in a loop (or pushed out of memory) leaves its computer finishing the
 * decision it thinks over: at most RETIRING_MAX (4) at once, then a new game is refused with 503
 * until they end (the searches piled up without bound: a machine's every core, for seconds) */
Test(robust, serve_bounds_the_searches_of_closed_games) {
  Srv v;
  srv_start(&v);
  static char out[1 << 18];
  int refused = 0;
  for (int k = 0; k < 30 && !refused; k++) {   /* an easy search: 0.1 s CPU, a few ms a round */
    int code =
        http(&v, "POST", "/api/games",
             "{\"level\":\"easy\",\"side\":\"allied\",\"scenario\":\"long\"}", out, sizeof out);
    if (code == 503) {
      cr_assert_not_null(strstr(out, "still finishing games that were closed"), "%s",
                         http_body(out));
      refused = 1;
      break;
    }
    cr_assert_eq(code, 201, "%.200s", out);
    char path[100];
    snprintf(path, sizeof path, "/api/games/%.16s", strstr(out, "\"id\":\"") + 6);
    cr_assert_eq(http(&v, "DELETE", path, NULL, out, sizeof out), 200);
  }
  cr_assert(refused, "30 games made and deleted while their computers think: none refused");
  double t0 = clock_wall();
  int code = 503;
  while (code == 503 && clock_wall() - t0 < 8) {
    usleep(100000);
    code = http(&v, "POST", "/api/games", "{\"level\":\"random\"}", out, sizeof out);
  }
  cr_assert_eq(code, 201, "a new game once they ended: %.200s", out);
  srv_stop(&v);
}
