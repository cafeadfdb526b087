/* Rule tests of chapter 3: set-up (docs/RULES.md, R-3.x): test names carry the rule id. */
#include "rules.h"

/* COMPONENTS.md: the printed set-up has the British in front of the castles, not inside; the
 * historical garrisons are the historical-garrisons variant ([setup] of a variant file) */
Test(rules, R_3_1_printed_setup_british_in_front_of_the_castles_garrisons_a_variant) {
  Scen *sc = th_load("short", "base"), *hg = th_load("short", "historical-garrisons");
  State s, h;
  gs_init(sc, &s, 1, 0);
  gs_init(hg, &h, 1, 0);
  int garrisoned = 0;
  for (int c = 0; c < MAX_CASTLES; c++) {
    int sq = sc->castle_sq[c], near = 0;
    cr_assert_eq(unit_at(sc, &s, sq), UNIT_NONE, "castle %d empty at set-up", c);
    for (int d = 0; d < 4; d++) {
      int v = unit_at(sc, &s, sc->nb[sq][d]);
      if (v != UNIT_NONE && unit_side(sc, v) == ALLIED && d == DIR_N) near = 1;
    }
    cr_assert(near, "a British unit in front of castle %d, on its north side", c);
    int g = unit_at(hg, &h, sq);
    if (g != UNIT_NONE && hg->unit[g].army == ARMY_BR && hg->unit[g].kind == K_INF) garrisoned++;
  }
  cr_assert_eq(garrisoned, 3, "the variant puts British infantry in all three castles");
  th_check(hg, &h);
  /* a variant's [setup] is checked: two units on one square is an error naming the file */
  char dir[64], err[1024];
  th_tmpdir(dir, sizeof dir);
  th_write(dir, "variants/bad.ini", "[variant]\ndescription = x\n[setup]\nbr-3/I = C7 S\nbr-1/I = C7 S\n");
  Scen *bad = malloc(sizeof *bad);
  cr_assert_eq(scen_load(bad, dir, "short", "bad", err, sizeof err), -1);
  cr_assert(strstr(err, "both start on C7"), "%s", err);
  th_write(dir, "variants/bad.ini", "[variant]\ndescription = x\n[setup]\nbr-nobody = C7 S\n");
  cr_assert_eq(scen_load(bad, dir, "short", "bad", err, sizeof err), -1);
  cr_assert(strstr(err, "bad.ini:4:") && strstr(err, "unknown unit"), "%s", err);
  th_rmdir(dir);
  free(bad);
  free(hg);
  free(sc);
}

Test(rules, R_3_1_units_and_leaders_start_on_their_squares_british_south_french_north) {
  SETUP_INIT("short", 1);
  for (int u = 0; u < sc->nunits; u++) {
    if (sc->unit[u].army == ARMY_PR) continue;
    cr_assert_eq(s.units.sq[u], sc->unit[u].start_sq, "%s", sc->unit[u].name);
    cr_assert_eq(s.units.flag[u], sc->unit[u].start_facing, "%s: facing and no markers",
                 sc->unit[u].name);
    cr_assert_eq(s.units.flag[u] & UF_FACING, sc->unit[u].army == ARMY_BR ? DIR_S : DIR_N, "%s",
                 sc->unit[u].name);
    cr_assert_eq(unit_at(sc, &s, s.units.sq[u]), u);
  }
  cr_assert_eq(s.units.sq[th_unit(sc, "fr-4/I")], th_sq(sc, "K7"));
  cr_assert_eq(s.units.sq[th_unit(sc, "br-3/I")], th_sq(sc, "E4"));
  cr_assert_eq(s.units.leader[0], sc->leader_start[0]);
  cr_assert_eq(s.units.leader[1], sc->leader_start[1]);
  th_check(sc, &s);
  free(sc);
}

Test(rules, R_3_2_victory_squares_start_allied_owned) {
  Scen *sh = th_load("short", "base"), *lg = th_load("long", "base");
  uint8_t want_short = (1u << V_HOUGOUMONT) | (1u << V_LHS) | (1u << V_FRISCHERMONT) | (1u << V_MSJ);
  uint8_t want_long = (1u << V_HOUGOUMONT) | (1u << V_LHS) | (1u << V_MSJ) | (1u << V_PLANC1) |
                      (1u << V_PLANC2) | (1u << V_PLANC3);
  cr_assert_eq(sh->vsq_active, want_short);
  cr_assert_eq(lg->vsq_active, want_long);
  cr_assert_eq(sh->vsq[V_HOUGOUMONT], th_sq(sh, "C7"));
  cr_assert_eq(sh->vsq[V_LHS], th_sq(sh, "F5"));
  cr_assert_eq(sh->vsq[V_FRISCHERMONT], th_sq(sh, "M5"));
  cr_assert_eq(sh->vsq[V_MSJ], th_sq(sh, "E2"));
  State s;
  int vp[2];
  gs_init(sh, &s, 1, 0);
  cr_assert_eq(s.turn.owner, 0, "all Allied-owned");
  gs_score(sh, &s, vp);
  cr_assert_eq(vp[FRENCH], 0);
  cr_assert_eq(vp[ALLIED], 1);
  gs_init(lg, &s, 1, 0);
  cr_assert_eq(s.turn.owner, 0);
  gs_score(lg, &s, vp);
  cr_assert_eq(vp[FRENCH], 0);
  cr_assert_eq(vp[ALLIED], 0 + 10 + 5 + 3 * 2, "MSJ 0, Hougoumont 10, LHS 5, Plancenoit 3 x 2");
  free(sh);
  free(lg);
}

Test(rules, R_3_3_castles_start_with_damage_points) {
  SETUP_INIT("short", 1);
  cr_assert_eq(sc->castle_sq[0], th_sq(sc, "C7"));
  cr_assert_eq(sc->castle_sq[1], th_sq(sc, "F5"));
  cr_assert_eq(sc->castle_sq[2], th_sq(sc, "M5"));
  cr_assert_eq(s.turn.cdp[0], 4);
  cr_assert_eq(s.turn.cdp[1], 2);
  cr_assert_eq(s.turn.cdp[2], 1);
  Scen *v = th_load("short", "strong-hougoumont");
  gs_init(v, &s, 1, 0);
  cr_assert_eq(s.turn.cdp[0], 6);
  free(sc);
  free(v);
}

Test(rules, R_3_4_prussians_start_off_the_map) {
  SETUP_INIT("long", 1);
  int n = 0;
  for (int u = 0; u < sc->nunits; u++)
    if (sc->unit[u].army == ARMY_PR) {
      cr_assert_eq(s.units.sq[u], SQ_OFF, "%s", sc->unit[u].name);
      cr_assert_geq(sc->unit[u].group, 0);
      n++;
    }
  cr_assert_gt(n, 0);
  free(sc);
}
