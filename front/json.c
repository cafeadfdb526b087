/* The JSON forms of docs/API.md (front/json.h): the scenario, one side's observation, the
 * structured actions, reach, the log, the last battle, the page's whole view, the summary. */
#include "json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front_int.h"

static const char *KIND[A_COUNT] = {
    "none",   "end",     "play_move", "artillery", "charge", "force_charge", "rally",
    "restore", "health", "step",      "turn",      "leader", "enter",        "done",
    "declare", "noattack", "battle_card", "battle_done", "nofire", "reduce", "retreat",
    "castle_point", "advance", "lose", "evade", "noevade", "place", "bid", "rally_done"};
static const char *PURPOSE[3] = {"points", "command", "elite"};

static cJSON *values_json(const Scen *sc, const State *s, int def_sq, int mask) {
  int v[4];
  char why[4][64], defwhy[64];
  attacker_values(sc, s, def_sq, mask, v);
  battle_reasons(sc, s, def_sq, mask, why, defwhy);
  cJSON *arr = cJSON_CreateArray();
  for (int d = 0; d < 4; d++) {
    if (v[d] < 0) continue;
    int u = unit_at(sc, s, sc->nb[def_sq][d]);
    if (u == UNIT_NONE) continue;
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "unit", sc->unit[u].name);
    cJSON_AddNumberToObject(x, "bp", unit_bp(sc, s, u));
    cJSON_AddNumberToObject(x, "value", v[d]);
    cJSON_AddStringToObject(x, "why", why[d]);
    cJSON_AddItemToArray(arr, x);
  }
  return arr;
}

/* why the defender counts what it does before cards (terrain, castle), "" when as printed */
static cJSON *defender_why_json(const Scen *sc, const State *s, int def_sq, int mask) {
  char why[4][64], defwhy[64];
  battle_reasons(sc, s, def_sq, mask, why, defwhy);
  return cJSON_CreateString(defwhy);
}

static cJSON *sq_str(int sq) {
  char b[4];
  if (sq == SQ_OFF) return cJSON_CreateString("off");
  if (sq == SQ_DEAD) return cJSON_CreateString("dead");
  if (sq < 0 || sq >= NSQ) return cJSON_CreateNull();
  sq_name(sq, b);
  return cJSON_CreateString(b);
}

static const char *dir_str(int d) {
  static const char *D[] = {"N", "E", "S", "W"};
  return D[d & 3];
}

static cJSON *card_list(const Scen *sc, uint64_t m) {
  cJSON *a = cJSON_CreateArray();
  for (; m; m &= m - 1) cJSON_AddItemToArray(a, cJSON_CreateString(sc->card[__builtin_ctzll(m)].id));
  return a;
}

/* the map of scen_json: squares with terrain and place names, each edge once (east and south
 * sides) with its kinds */
static void scen_map_json(cJSON *o, const Scen *sc) {
  static const char *TER[] = {"clear", "woods", "village", "castle", "hill"};
  cJSON *sqs = cJSON_AddArrayToObject(o, "squares");
  for (int q = 0; q < NSQ; q++) {
    cJSON *x = cJSON_CreateObject();
    char b[4];
    sq_name(q, b);
    cJSON_AddStringToObject(x, "sq", b);
    cJSON_AddStringToObject(x, "terrain", TER[sc->terrain[q] % 5]);
    if (sc->sqname[q][0]) cJSON_AddStringToObject(x, "place", sc->sqname[q]);
    cJSON_AddItemToArray(sqs, x);
  }
  cJSON *edges = cJSON_AddArrayToObject(o, "edges");
  static const struct { int bit; const char *name; } EK[] = {
      {E_RIDGE, "ridge"}, {E_STREAM, "stream"}, {E_BRIDGE, "bridge"}, {E_ROAD, "road"}, {E_POND, "pond"}};
  for (int q = 0; q < NSQ; q++)
    for (int d = DIR_E; d <= DIR_S; d++) {
      int e = sc->edge[q][d], t = sc->nb[q][d];
      if (!e || t == SQ_NONE) continue;
      cJSON *x = cJSON_CreateObject();
      cJSON_AddItemToObject(x, "a", sq_str(q));
      cJSON_AddItemToObject(x, "b", sq_str(t));
      cJSON *k = cJSON_AddArrayToObject(x, "kinds");
      for (int i = 0; i < 5; i++)
        if (e & EK[i].bit) cJSON_AddItemToArray(k, cJSON_CreateString(EK[i].name));
      cJSON_AddItemToArray(edges, x);
    }
}

/* the castles with their damage points and the victory squares with their VP */
static void scen_objectives_json(cJSON *o, const Scen *sc) {
  cJSON *cs = cJSON_AddArrayToObject(o, "castles");
  for (int c = 0; c < MAX_CASTLES; c++) {
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "name", vsq_name(c + 1, 0));
    cJSON_AddItemToObject(x, "sq", sq_str(sc->castle_sq[c]));
    cJSON_AddNumberToObject(x, "points", sc->p.cdp[c]);
    cJSON_AddItemToArray(cs, x);
  }
  cJSON *vs = cJSON_AddArrayToObject(o, "victory_squares");
  for (int v = 0; v < V_COUNT; v++) {
    if (!((sc->vsq_active >> v) & 1)) continue;
    cJSON *x = cJSON_CreateObject();
    cJSON_AddNumberToObject(x, "index", v);
    cJSON_AddStringToObject(x, "name", vsq_name(v, 0));
    cJSON_AddItemToObject(x, "sq", sq_str(sc->vsq[v]));
    cJSON_AddNumberToObject(x, "vp_french", sc->p.vp_fr[v]);
    cJSON_AddNumberToObject(x, "vp_allied", sc->p.vp_al[v]);
    cJSON_AddItemToArray(vs, x);
  }
}

static void scen_units_json(cJSON *o, const Scen *sc) {
  cJSON *us = cJSON_AddArrayToObject(o, "units");
  for (int u = 0; u < sc->nunits; u++) {
    const UnitDef *d = &sc->unit[u];
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "name", d->name);
    cJSON_AddStringToObject(x, "longname", d->longname);
    cJSON_AddStringToObject(x, "army", army_name(d->army));
    cJSON_AddStringToObject(x, "side", side_name(unit_side(sc, u)));
    cJSON_AddStringToObject(x, "kind", d->kind == K_CAV ? "cavalry" : "infantry");
    cJSON_AddBoolToObject(x, "heavy", d->heavy);
    cJSON_AddBoolToObject(x, "elite", d->elite);
    cJSON_AddNumberToObject(x, "bp_full", d->bp_full);
    cJSON_AddNumberToObject(x, "bp_reduced", d->bp_red);
    if (d->group >= 0 && d->group < sc->ngroups) {
      cJSON_AddStringToObject(x, "group", sc->group[d->group].name);
      cJSON_AddNumberToObject(x, "arrives", sc->group[d->group].turn + sc->p.prussian_shift);
    }
    cJSON_AddItemToArray(us, x);
  }
}

/* a card's whole text: its three uses in words, with the rule ids of docs/RULES.md */
static void card_text_json(cJSON *x, const CardDef *d) {
  static const struct { const char *rule, *text; } ACT[ACT_COUNT] = {
      [ACT_NONE] = {"", ""},
      [ACT_ARTILLERY] = {"R-9.1", "Artillery fire: in your round, or in the other side's round "
                                  "after a battle is declared or a card is completed, one of your "
                                  "infantry units that is not disordered fires at the enemy unit it "
                                  "faces: disordered, or reduced if already disordered (R-8.3); never "
                                  "eliminated (R-8.4). A unit in a castle is immune."},
      [ACT_COMMAND] = {"R-9.2", "Command, in a battle: every unit of your side in the battle on "
                                "its leader's square or next to it (not diagonally) adds the bonus: "
                                "+%d attacking, +%d defending. Far from the leader it adds nothing."},
      [ACT_CHARGE] = {"R-9.3", "Cavalry charge, in your round: one of your cavalry units (not "
                               "disordered, not one that attacked) advances 1 or 2 squares straight "
                               "ahead and attacks the unit ahead alone: x3 heavy, x2 light, x1 against "
                               "an infantry front or cavalry. Only elite cards in that battle. The "
                               "charger ends disordered."},
      [ACT_FORCE_CHARGE] = {"R-9.4", "Enemy cavalry must charge: name an enemy cavalry unit that "
                                     "could charge one of your units; it charges it at once, as the "
                                     "attacker."},
      [ACT_ELITE] = {"R-9.6", "Elite bonus, in a battle: your elite units in it count their BP "
                              "twice, before every other modifier."},
      [ACT_RALLY] = {"R-9.5", "Rally: clear the disorder of 2 of your units anywhere, or bring 1 "
                              "reduced unit with no enemy next to it back to full strength (not a "
                              "unit that moved or attacked this round)."},
      [ACT_HEALTH] = {"R-9.7", "Napoleon's health: 2 cards taken at random from the French hand "
                               "are discarded unseen."},
  };
  char t[700];
  int n = snprintf(t, sizeof t, "Movement: %d MP to share among your units (R-6.1). Battle: +%d "
                   "to your total in a battle (R-7.2).", d->mp, d->bp);
  int k = d->action < ACT_COUNT ? d->action : ACT_NONE;
  if (k != ACT_NONE && n > 0 && (size_t)n < sizeof t) {
    snprintf(t + n, sizeof t - (size_t)n, " Action: ");
    n = (int)strlen(t);
    snprintf(t + n, sizeof t - (size_t)n, ACT[k].text, d->cmd_att, d->cmd_def);
  }
  cJSON_AddStringToObject(x, "text", t);
  cJSON_AddStringToObject(x, "rule", k != ACT_NONE ? ACT[k].rule : "R-5.1");
}

/* the cards, and the arrival groups with their turn and entry squares */
static void scen_cards_json(cJSON *o, const Scen *sc) {
  cJSON *cd = cJSON_AddArrayToObject(o, "cards");
  for (int c = 0; c < sc->ncards; c++) {
    const CardDef *d = &sc->card[c];
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "id", d->id);
    cJSON_AddStringToObject(x, "name", d->name);
    cJSON_AddStringToObject(x, "army", army_name(d->army));
    cJSON_AddNumberToObject(x, "mp", d->mp);
    cJSON_AddNumberToObject(x, "bp", d->bp);
    cJSON_AddStringToObject(x, "action", action_kind_name(d->action));
    if (d->action == ACT_COMMAND) {
      cJSON_AddNumberToObject(x, "command_attack", d->cmd_att);
      cJSON_AddNumberToObject(x, "command_defence", d->cmd_def);
    }
    card_text_json(x, d);
    cJSON_AddItemToArray(cd, x);
  }
  cJSON *gr = cJSON_AddArrayToObject(o, "groups");
  for (int g = 0; g < sc->ngroups; g++) {
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "name", sc->group[g].name);
    cJSON_AddNumberToObject(x, "turn", sc->group[g].turn + sc->p.prussian_shift);
    cJSON *en = cJSON_AddArrayToObject(x, "entry");
    for (int i = 0; i < sc->group[g].nentry; i++) cJSON_AddItemToArray(en, sq_str(sc->group[g].entry[i]));
    cJSON_AddItemToArray(gr, x);
  }
}

cJSON *scen_json(const Scen *sc) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "scenario", sc->scen_name);
  cJSON_AddStringToObject(o, "variants", sc->variant_names);
  cJSON_AddNumberToObject(o, "turns", sc->p.turns);
  cJSON_AddNumberToObject(o, "width", MAP_W);
  cJSON_AddNumberToObject(o, "height", MAP_H);
  cJSON_AddNumberToObject(o, "round_limit", sc->p.round_limit);
  cJSON_AddNumberToObject(o, "max_attackers", sc->p.max_attackers);
  cJSON_AddBoolToObject(o, "prussians", sc->p.prussians);
  scen_map_json(o, sc);
  scen_objectives_json(o, sc);
  scen_units_json(o, sc);
  scen_cards_json(o, sc);
  return o;
}

/* a battle declaration: the defender, the attackers and their squares, the base totals and
 * why each value is what it is */
static void declare_json(cJSON *o, const Scen *sc, const State *s, Action a) {
  int dsq = a.declare.sq, dirs = a.declare.dirs;
  cJSON_AddItemToObject(o, "defender_square", sq_str(dsq));
  int u = unit_at(sc, s, dsq);
  if (u != UNIT_NONE) cJSON_AddStringToObject(o, "defender", sc->unit[u].name);
  cJSON *at = cJSON_AddArrayToObject(o, "attackers");
  cJSON *aq = cJSON_AddArrayToObject(o, "attacker_squares");
  for (int d = 0; d < 4; d++)
    if (dirs & (1 << d)) {
      int q = sc->nb[dsq][d];
      cJSON_AddItemToArray(aq, sq_str(q));
      int v = q < NSQ ? unit_at(sc, s, q) : UNIT_NONE;
      if (v != UNIT_NONE) cJSON_AddItemToArray(at, cJSON_CreateString(sc->unit[v].name));
    }
  int att, def;
  battle_base_totals(sc, s, dsq, dirs, &att, &def);
  cJSON_AddNumberToObject(o, "attack_total", att);
  cJSON_AddNumberToObject(o, "defence_total", def);
  cJSON_AddItemToObject(o, "attacker_values", values_json(sc, s, dsq, dirs));
  cJSON_AddItemToObject(o, "defender_why", defender_why_json(sc, s, dsq, dirs));
  if (u != UNIT_NONE) cJSON_AddNumberToObject(o, "defender_bp", unit_bp(sc, s, u));
}

/* what committing a battle card adds to its side's total now, by the battle's own arithmetic
 * (the side's seen totals with the card among its commitments, minus without), and the total
 * it makes: a command card far from the leader adds 0 */
static void bcard_value_json(cJSON *o, const Scen *sc, const State *s, Action a) {
  int side = s->turn.decider, att0, def0, att1, def1, h;
  int c = a.bcard.card;
  if (c >= sc->ncards || battle_seen_totals(sc, s, side, &att0, &def0, &h)) return;
  State t = *s;
  uint64_t bit = 1ull << c;
  t.cards.hand &= ~bit;
  t.cards.pend |= bit;
  if (a.bcard.purpose == 1) t.cards.pend_cmd |= bit;
  if (a.bcard.purpose == 2) t.cards.pend_elite |= bit;
  if (battle_seen_totals(sc, &t, side, &att1, &def1, &h)) return;
  int attacking = side == s->battle.att_side;
  cJSON_AddNumberToObject(o, "adds", attacking ? att1 - att0 : def1 - def0);
  cJSON_AddNumberToObject(o, "total_now", attacking ? att0 : def0);
  cJSON_AddNumberToObject(o, "total_after", attacking ? att1 : def1);
}

cJSON *action_json(const Scen *sc, const State *s, Action a) {
  cJSON *o = cJSON_CreateObject();
  char txt[128];
  action_format(sc, s, a, txt, sizeof txt);
  cJSON_AddStringToObject(o, "kind", a.t < A_COUNT ? KIND[a.t] : "?");
  cJSON_AddStringToObject(o, "notation", txt);
  int u;
  switch (a.t) {
  case A_PLAY_MOVE:
  case A_HEALTH: cJSON_AddStringToObject(o, "card", sc->card[a.play.card].id); break;
  case A_ARTY: case A_CHARGE: case A_FORCE: case A_RALLY: case A_RESTORE:
    if (a.play.card != CARD_NONE) cJSON_AddStringToObject(o, "card", sc->card[a.play.card].id);
    cJSON_AddStringToObject(o, "unit", sc->unit[a.play.unit].name);
    cJSON_AddItemToObject(o, "square", sq_str(s->units.sq[a.play.unit]));
    if (a.t == A_CHARGE || a.t == A_FORCE) cJSON_AddNumberToObject(o, "squares", a.charge.squares);
    break;
  case A_STEP:
    u = a.step.unit;
    cJSON_AddStringToObject(o, "unit", sc->unit[u].name);
    cJSON_AddItemToObject(o, "square", sq_str(s->units.sq[u]));
    cJSON_AddItemToObject(o, "to", sq_str(sc->nb[s->units.sq[u]][a.step.dir & 3]));
    cJSON_AddStringToObject(o, "facing", dir_str(a.step.facing));
    break;
  case A_TURN:
    cJSON_AddStringToObject(o, "unit", sc->unit[a.turn.unit].name);
    cJSON_AddItemToObject(o, "square", sq_str(s->units.sq[a.turn.unit]));
    cJSON_AddStringToObject(o, "facing", dir_str(a.turn.facing));
    break;
  case A_LEAD: {
    int l = s->play.army == ARMY_FR ? 0 : 1;
    cJSON_AddStringToObject(o, "leader", l ? "Wellington" : "Napoleon");
    cJSON_AddItemToObject(o, "square", sq_str(s->units.leader[l]));
    cJSON_AddItemToObject(
        o, "to",
        sq_str(s->units.leader[l] < NSQ ? sc->nb[s->units.leader[l]][a.lead.dir & 3] : -1));
    break;
  }
  case A_ENTER: case A_EVADE:
    cJSON_AddStringToObject(o, "unit", sc->unit[a.to.unit].name);
    cJSON_AddItemToObject(o, "square", sq_str(s->units.sq[a.to.unit]));
    cJSON_AddItemToObject(o, "to", sq_str(a.to.sq));
    cJSON_AddStringToObject(o, "facing", dir_str(a.to.facing));
    break;
  case A_DECLARE: declare_json(o, sc, s, a); break;
  case A_BCARD:
    cJSON_AddStringToObject(o, "card", sc->card[a.bcard.card].id);
    cJSON_AddStringToObject(o, "purpose", PURPOSE[a.bcard.purpose % 3]);
    bcard_value_json(o, sc, s, a);
    break;
  case A_RETREAT:
    if (s->battle.def_unit != UNIT_NONE)
      cJSON_AddStringToObject(o, "unit", sc->unit[s->battle.def_unit].name);
    cJSON_AddItemToObject(o, "square", sq_str(s->battle.def_sq));
    cJSON_AddItemToObject(o, "to", sq_str(a.retreat.sq));
    cJSON_AddStringToObject(o, "facing", dir_str(a.retreat.facing));
    break;
  case A_ADVANCE: case A_LOSE: {
    int q = s->battle.def_sq < NSQ ? sc->nb[s->battle.def_sq][a.attacker.slot & 3] : -1;
    u = q >= 0 && q < NSQ ? unit_at(sc, s, q) : UNIT_NONE;
    if (u != UNIT_NONE) cJSON_AddStringToObject(o, "unit", sc->unit[u].name);
    cJSON_AddItemToObject(o, "square", sq_str(q));
    if (a.t == A_ADVANCE) {
      cJSON_AddItemToObject(o, "to", sq_str(s->battle.def_sq));
      cJSON_AddStringToObject(o, "facing", dir_str(a.attacker.facing));
    }
    break;
  }
  case A_PLACE: cJSON_AddItemToObject(o, "to", sq_str(a.place.sq)); break;
  case A_BID:
    if (a.bid.card != CARD_NONE) cJSON_AddStringToObject(o, "card", sc->card[a.bid.card].id);
    break;
  default:
    break;
  }
  return o;
}

cJSON *legal_json(const Scen *sc, const State *s) {
  ActList *L = malloc(sizeof *L);
  if (!L) abort();
  gs_legal(sc, s, L);
  cJSON *a = cJSON_CreateArray();
  for (int i = 0; i < L->n; i++) cJSON_AddItemToArray(a, action_json(sc, s, L->a[i]));
  free(L);
  return a;
}

cJSON *reach_json(const Scen *sc, const State *s, int u) {
  Reach *r = malloc(sizeof *r);
  if (!r) abort();
  gs_reach(sc, s, u, r);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "unit", sc->unit[u].name);
  cJSON_AddNumberToObject(o, "mp", s->play.mp);
  cJSON *arr = cJSON_AddArrayToObject(o, "squares");
  for (int q = 0; q < NSQ; q++) {
    int any = 0;
    for (int f = 0; f < 4; f++) {
      if (r->npath[q][f] == 0) r->cost[q][f] = 255;   /* where it stands: not a move */
      any |= r->cost[q][f] != 255;
    }
    if (!any) continue;
    cJSON *x = cJSON_CreateObject();
    cJSON_AddItemToObject(x, "sq", sq_str(q));
    cJSON *fc = cJSON_AddObjectToObject(x, "facings");
    int best = 255;
    for (int f = 0; f < 4; f++)
      if (r->cost[q][f] != 255) {
        cJSON_AddNumberToObject(fc, dir_str(f), r->cost[q][f]);
        if (r->cost[q][f] < best) best = r->cost[q][f];
      }
    cJSON_AddNumberToObject(x, "cost", best);
    cJSON_AddItemToArray(arr, x);
  }
  free(r);
  return o;
}

/* the turn, phase and card being played of an observation */
static void obs_turn_json(cJSON *o, const Scen *sc, const State *s) {
  cJSON_AddNumberToObject(o, "turn", s->turn.number);
  cJSON_AddNumberToObject(o, "turns", sc->p.turns);
  cJSON_AddStringToObject(o, "phase", phase_name(s->turn.phase));
  cJSON_AddStringToObject(o, "decider", side_name(s->turn.decider));
  cJSON_AddStringToObject(o, "active", side_name(s->turn.active));
  cJSON_AddStringToObject(o, "first", side_name(s->turn.first));
  cJSON_AddNumberToObject(o, "cards_this_round", s->turn.ncards);
  cJSON_AddNumberToObject(o, "round_limit", sc->p.round_limit);
  cJSON_AddBoolToObject(o, "last_round_passed", s->turn.last_pass);
  cJSON_AddBoolToObject(o, "over", gs_over(s));
  cJSON_AddStringToObject(o, "result", !gs_over(s) ? "running" : result_name(s->score.result));
  char d[256];
  gs_describe(sc, s, d, sizeof d);
  cJSON_AddStringToObject(o, "description", d);
  int in_card = s->turn.phase >= PH_MOVE && s->turn.phase != PH_OVER && s->turn.phase != PH_BID &&
                s->play.card < sc->ncards && ((s->cards.seen >> s->play.card) & 1);
  if (in_card) cJSON_AddStringToObject(o, "card", sc->card[s->play.card].id);
  cJSON_AddNumberToObject(o, "mp", s->turn.phase == PH_MOVE ? s->play.mp : 0);
  if (s->play.moving != UNIT_NONE && s->play.moving < sc->nunits)
    cJSON_AddStringToObject(o, "moving", sc->unit[s->play.moving].name);
}

/* the units, the leaders, the victory squares' holders and the castles' points */
static void obs_board_json(cJSON *o, const Scen *sc, const State *s) {
  cJSON *us = cJSON_AddArrayToObject(o, "units");
  for (int u = 0; u < sc->nunits; u++) {
    if (sc->unit[u].army == ARMY_PR && !sc->p.prussians) continue;
    cJSON *x = cJSON_CreateObject();
    int f = s->units.flag[u];
    cJSON_AddStringToObject(x, "name", sc->unit[u].name);
    cJSON_AddItemToObject(x, "square", sq_str(s->units.sq[u]));
    cJSON_AddStringToObject(x, "facing", dir_str(f));
    cJSON_AddNumberToObject(x, "bp", unit_bp(sc, s, u));
    cJSON_AddBoolToObject(x, "reduced", f & UF_REDUCED);
    cJSON_AddBoolToObject(x, "disordered", f & UF_DISORDER);
    cJSON_AddBoolToObject(x, "moved", f & UF_MOVED);
    cJSON_AddBoolToObject(x, "rallied", f & UF_RALLIED);
    cJSON_AddBoolToObject(x, "attacked", f & UF_ATTACKED);
    cJSON_AddBoolToObject(x, "in_battle", f & UF_INBATTLE);
    cJSON_AddItemToArray(us, x);
  }
  cJSON *ld = cJSON_AddObjectToObject(o, "leaders");
  cJSON_AddItemToObject(ld, "Napoleon", sq_str(s->units.leader[0]));
  cJSON_AddItemToObject(ld, "Wellington", sq_str(s->units.leader[1]));
  cJSON *vs = cJSON_AddArrayToObject(o, "victory_squares");
  for (int v = 0; v < V_COUNT; v++) {
    if (!((sc->vsq_active >> v) & 1)) continue;
    cJSON *x = cJSON_CreateObject();
    cJSON_AddNumberToObject(x, "index", v);
    cJSON_AddItemToObject(x, "sq", sq_str(sc->vsq[v]));
    cJSON_AddStringToObject(x, "holder", (s->turn.owner >> v) & 1 ? "French" : "Allied");
    cJSON_AddItemToArray(vs, x);
  }
  cJSON *cp = cJSON_AddArrayToObject(o, "castle_points");
  for (int c = 0; c < MAX_CASTLES; c++)
    cJSON_AddItemToArray(cp, cJSON_CreateNumber(s->turn.cdp[c]));
}

/* the score: VP (long game) or whether the French would win (short), castles, losses */
static void obs_score_json(cJSON *o, const Scen *sc, const State *s) {
  int vp[2];
  gs_score(sc, s, vp);
  cJSON *sc_ = cJSON_AddObjectToObject(o, "score");
  if (sc->scenario == SC_LONG) {
    cJSON_AddNumberToObject(sc_, "vp_french", vp[0]);
    cJSON_AddNumberToObject(sc_, "vp_allied", vp[1]);
  } else {
    cJSON_AddBoolToObject(sc_, "french_would_win", vp[0]);
  }
  int castles_fr = 0, lost[2] = {0, 0};
  for (int c = 0; c < MAX_CASTLES; c++)
    if ((sc->vsq_active >> (c + 1)) & 1 && ((s->turn.owner >> (c + 1)) & 1)) castles_fr++;
  for (int u = 0; u < sc->nunits; u++)
    if (s->units.sq[u] == SQ_DEAD) lost[unit_side(sc, u)]++;
  cJSON_AddNumberToObject(sc_, "castles_french", castles_fr);
  cJSON_AddNumberToObject(sc_, "units_lost_french", lost[FRENCH]);
  cJSON_AddNumberToObject(sc_, "units_lost_allied", lost[ALLIED]);
  cJSON_AddNumberToObject(sc_, "eliminated_bp_by_french", s->score.elim_vp[FRENCH]);
  cJSON_AddNumberToObject(sc_, "eliminated_bp_by_allied", s->score.elim_vp[ALLIED]);
}

/* cards: own hand and own secret commitments; of the other side only counts; the bids */
static void obs_cards_json(cJSON *o, const Scen *sc, const State *s, int side) {
  uint64_t mine = side_cards_mask(sc, side), theirs = side_cards_mask(sc, !side);
  cJSON_AddItemToObject(o, "hand", card_list(sc, s->cards.hand & mine));
  cJSON *pend = cJSON_AddArrayToObject(o, "committed");
  for (uint64_t m = s->cards.pend & mine; m; m &= m - 1) {
    int c = __builtin_ctzll(m);
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "card", sc->card[c].id);
    cJSON_AddStringToObject(x, "purpose",
                            (s->cards.pend_cmd >> c) & 1     ? "command"
                            : (s->cards.pend_elite >> c) & 1 ? "elite"
                                                             : "points");
    cJSON_AddItemToArray(pend, x);
  }
  cJSON *opp = cJSON_AddObjectToObject(o, "opponent");
  cJSON_AddNumberToObject(opp, "hand", __builtin_popcountll(s->cards.hand & theirs));
  cJSON_AddNumberToObject(opp, "committed", __builtin_popcountll(s->cards.pend & theirs));
  cJSON *ha = cJSON_AddObjectToObject(o, "hand_counts");
  for (int a = 0; a < 3; a++) cJSON_AddNumberToObject(ha, army_name(a), hand_count(sc, s, a));
  cJSON_AddItemToObject(o, "played", card_list(sc, s->cards.discard & s->cards.seen));
  cJSON *bid = cJSON_AddObjectToObject(o, "bids");
  cJSON_AddBoolToObject(bid, "french_made", s->turn.bid_made & 1);
  cJSON_AddBoolToObject(bid, "allied_made", (s->turn.bid_made >> 1) & 1);
  if (s->turn.phase == PH_BID && ((s->turn.bid_made >> side) & 1))
    cJSON_AddItemToObject(bid, "mine",
                          s->turn.bid_card[side] < sc->ncards
                              ? cJSON_CreateString(sc->card[s->turn.bid_card[side]].id)
                              : cJSON_CreateNull());
}

/* the battle being fought: sides, units, base totals, what this side has seen, the totals */
static void obs_battle_json(cJSON *o, const Scen *sc, const State *s, int side) {
  cJSON *b = cJSON_AddObjectToObject(o, "battle");
  cJSON_AddStringToObject(b, "attacker", side_name(s->battle.att_side));
  cJSON_AddStringToObject(b, "kind", s->battle.kind == BK_CHARGE ? "charge" : "normal");
  cJSON_AddStringToObject(b, "defender", sc->unit[s->battle.def_unit].name);
  cJSON_AddItemToObject(b, "defender_square", sq_str(s->battle.def_sq));
  cJSON *at = cJSON_AddArrayToObject(b, "attackers");
  int mask = 0;
  for (int k = 0; k < 4; k++)
    if (s->battle.att[k] != UNIT_NONE && s->battle.att[k] < sc->nunits) {
      cJSON_AddItemToArray(at, cJSON_CreateString(sc->unit[s->battle.att[k]].name));
      mask |= 1 << k;
    }
  int a, df, h = 0;
  battle_base_totals(sc, s, s->battle.def_sq, mask, &a, &df);
  cJSON_AddNumberToObject(b, "base_attack", a);
  cJSON_AddNumberToObject(b, "base_defence", df);
  cJSON_AddItemToObject(b, "attacker_values", values_json(sc, s, s->battle.def_sq, mask));
  cJSON_AddItemToObject(b, "defender_why", defender_why_json(sc, s, s->battle.def_sq, mask));
  cJSON_AddNumberToObject(b, "defender_bp", unit_bp(sc, s, s->battle.def_unit));
  if (battle_seen_totals(sc, s, side, &a, &df, &h) == 0) {
    cJSON_AddNumberToObject(b, "seen_attack", a);
    cJSON_AddNumberToObject(b, "seen_defence", df);
    cJSON_AddNumberToObject(b, "opponent_cards_committed", h);
  }
  if (s->turn.phase >= PH_B_LOSS) {
    cJSON_AddNumberToObject(b, "total_attack", s->battle.att_total);
    cJSON_AddNumberToObject(b, "total_defence", s->battle.def_total);
  }
}

cJSON *observation_json(const Scen *sc, const State *real, int side) {
  State obs;
  gs_observe(sc, real, side, &obs);     /* from here on only the observation is read */
  const State *s = &obs;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "side", side_name(side));
  obs_turn_json(o, sc, s);
  obs_board_json(o, sc, s);
  obs_score_json(o, sc, s);
  obs_cards_json(o, sc, s, side);
  if (s->turn.phase != PH_OVER && s->battle.def_unit != UNIT_NONE &&
      s->battle.def_unit < sc->nunits && s->turn.phase >= PH_B_FIRE &&
      s->turn.phase <= PH_B_ATTLOSS)
    obs_battle_json(o, sc, s, side);
  if (s->interrupt.evaders) {
    cJSON *ev = cJSON_AddArrayToObject(o, "evaders");
    for (uint64_t m = s->interrupt.evaders; m; m &= m - 1)
      cJSON_AddItemToArray(ev, cJSON_CreateString(sc->unit[__builtin_ctzll(m)].name));
  }
  return o;
}

cJSON *log_json(const Session *S, int since) {
  cJSON *a = cJSON_CreateArray();
  for (int i = since < 0 ? 0 : since; i < S->nlog; i++) {
    const LogEntry *e = &S->log[i];
    cJSON *x = cJSON_CreateObject();
    cJSON_AddNumberToObject(x, "n", i);
    cJSON_AddNumberToObject(x, "turn", e->turn);
    cJSON_AddStringToObject(x, "phase", phase_name(e->phase));
    cJSON_AddStringToObject(x, "side", side_name(e->side));
    cJSON_AddStringToObject(x, "by", e->by_human ? "human" : "computer");
    cJSON_AddStringToObject(x, "action", e->text);
    cJSON *act = e->act[0] ? cJSON_Parse(e->act) : NULL;
    cJSON_AddItemToObject(x, "act", act ? act : cJSON_CreateNull());
    cJSON_AddStringToObject(x, "events", e->events);
    cJSON_AddStringToObject(x, "why", e->why);
    cJSON_AddItemToArray(a, x);
  }
  return a;
}

cJSON *battle_json(const Scen *sc, const BattleRec *b) {
  if (!b->valid) return cJSON_CreateNull();
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "log_index", b->index);
  cJSON_AddStringToObject(o, "attacker", side_name(b->att_side));
  cJSON_AddStringToObject(o, "kind", b->kind == BK_CHARGE ? "charge" : "normal");
  cJSON_AddStringToObject(o, "defender", sc->unit[b->def_unit].name);
  cJSON_AddItemToObject(o, "defender_square", sq_str(b->def_sq));
  cJSON *at = cJSON_AddArrayToObject(o, "attackers");
  for (int k = 0; k < 4; k++)
    if (b->att[k] >= 0) cJSON_AddItemToArray(at, cJSON_CreateString(sc->unit[b->att[k]].name));
  cJSON_AddNumberToObject(o, "base_attack", b->base_att);
  cJSON_AddNumberToObject(o, "base_defence", b->base_def);
  cJSON *av = cJSON_AddArrayToObject(o, "attacker_values");
  for (int k = 0; k < 4; k++)
    if (b->att[k] >= 0) {
      cJSON *x = cJSON_CreateObject();
      cJSON_AddStringToObject(x, "unit", sc->unit[b->att[k]].name);
      cJSON_AddNumberToObject(x, "bp", b->att_bp[k]);
      cJSON_AddNumberToObject(x, "value", b->att_val[k]);
      cJSON_AddStringToObject(x, "why", b->att_why[k]);
      cJSON_AddItemToArray(av, x);
    }
  cJSON_AddNumberToObject(o, "defender_bp", b->def_bp);
  cJSON_AddStringToObject(o, "defender_why", b->def_why);
  for (int side = 0; side < 2; side++) {
    cJSON *cs = cJSON_AddArrayToObject(o, side ? "defence_cards" : "attack_cards");
    for (uint64_t m = side ? b->cards_def : b->cards_att; m; m &= m - 1) {
      int c = __builtin_ctzll(m);
      cJSON *x = cJSON_CreateObject();
      cJSON_AddStringToObject(x, "card", sc->card[c].id);
      cJSON_AddStringToObject(x, "name", sc->card[c].name);
      const char *p = (b->cmd >> c) & 1 ? "command" : (b->elite >> c) & 1 ? "elite" : "points";
      cJSON_AddStringToObject(x, "purpose", p);
      cJSON_AddNumberToObject(x, "bp", sc->card[c].bp);
      if ((b->cmd >> c) & 1) {
        cJSON_AddNumberToObject(x, "command_attack", sc->card[c].cmd_att);
        cJSON_AddNumberToObject(x, "command_defence", sc->card[c].cmd_def);
      }
      cJSON_AddItemToArray(cs, x);
    }
  }
  cJSON_AddNumberToObject(o, "total_attack", b->total_att);
  cJSON_AddNumberToObject(o, "total_defence", b->total_def);
  cJSON_AddStringToObject(o, "outcome", b->outcome);
  return o;
}

cJSON *session_view(const Session *S, int since) { return session_view_seat(S, since, -1); }

cJSON *session_view_seat(const Session *S, int since, int seat) {
  const Scen *sc = S->sc;
  int side = seat >= 0 ? seat_side(seat) : session_view_side(S);
  int yours = session_humans_turn(S) && (seat < 0 || gs_seat(sc, &S->s) == seat);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "human", side_name(side));
  cJSON_AddStringToObject(o, "level", S->level);
  cJSON_AddStringToObject(o, "scenario", sc->scen_name);
  cJSON_AddStringToObject(o, "variants", sc->variant_names);
  char num[32];   /* the seed decides every draw to come: shown when the game is over */
  snprintf(num, sizeof num, "%" PRIu64, S->seed);
  if (gs_over(&S->s)) cJSON_AddStringToObject(o, "seed", num);
  cJSON_AddNumberToObject(o, "actions", S->g.n);
  cJSON_AddBoolToObject(o, "your_turn", yours);
  /* can undo: some human decision after the barrier */
  cJSON_AddBoolToObject(o, "can_undo", S->nlog > 0 && S->g.n > S->barrier);
  cJSON_AddItemToObject(o, "observation", observation_json(sc, &S->s, side));
  cJSON_AddItemToObject(o, "legal", yours ? legal_json(sc, &S->s) : cJSON_CreateArray());
  seats_view_json(S, o, seat);
  cJSON_AddItemToObject(o, "last_battle", battle_json(sc, &S->battle));
  cJSON_AddNumberToObject(o, "log_size", S->nlog);
  cJSON_AddItemToObject(o, "log", log_json(S, since));
  return o;
}

/* the score of s as one row of the summary: castles and objectives the French hold, VP (long
 * game), units lost by each side */
static cJSON *summary_row(const Scen *sc, const State *s, int turn, const int battles[2]) {
  cJSON *x = cJSON_CreateObject();
  cJSON_AddNumberToObject(x, "turn", turn);
  cJSON_AddStringToObject(x, "first", side_name(s->turn.first));
  int vp[2], castles = 0, objectives = 0, lost[2] = {0, 0};
  gs_score(sc, s, vp);
  if (sc->scenario == SC_LONG) {
    cJSON_AddNumberToObject(x, "vp_french", vp[0]);
    cJSON_AddNumberToObject(x, "vp_allied", vp[1]);
  }
  for (int v = 0; v < V_COUNT; v++) {
    if (!((sc->vsq_active >> v) & 1) || !((s->turn.owner >> v) & 1)) continue;
    objectives++;
    castles += v >= 1 && v <= MAX_CASTLES;
  }
  for (int u = 0; u < sc->nunits; u++)
    if (s->units.sq[u] == SQ_DEAD) lost[unit_side(sc, u)]++;
  cJSON_AddNumberToObject(x, "castles_french", castles);
  cJSON_AddNumberToObject(x, "objectives_french", objectives);
  cJSON_AddNumberToObject(x, "units_lost_french", lost[FRENCH]);
  cJSON_AddNumberToObject(x, "units_lost_allied", lost[ALLIED]);
  cJSON_AddNumberToObject(x, "battles_french", battles[FRENCH]);
  cJSON_AddNumberToObject(x, "battles_allied", battles[ALLIED]);
  return x;
}

cJSON *summary_json(const Session *S) {
  const Scen *sc = S->sc;
  State s, before;
  gamerec_position(sc, &S->g, 0, &s);
  cJSON *o = cJSON_CreateObject(), *rows = cJSON_AddArrayToObject(o, "turns");
  int battles[2] = {0, 0}, turn = s.turn.number;
  for (int i = 0; i < S->g.n; i++) {
    before = s;
    gs_apply(sc, &s, S->g.acts[i]);
    if (card_phase_done(&before, &s)) battles[before.battle.att_side & 1]++;
    if (s.turn.number != turn || (gs_over(&s) && !gs_over(&before))) {
      cJSON_AddItemToArray(rows, summary_row(sc, gs_over(&s) ? &s : &before, turn, battles));
      battles[0] = battles[1] = 0;
      turn = s.turn.number;
    }
  }
  if (!gs_over(&s)) cJSON_AddItemToArray(rows, summary_row(sc, &s, turn, battles));
  cJSON_AddBoolToObject(o, "over", gs_over(&s));
  cJSON_AddStringToObject(o, "result", gs_over(&s) ? result_name(s.score.result) : "running");
  cJSON_AddNumberToObject(o, "actions", S->g.n);
  cJSON_AddItemToObject(o, "final", summary_row(sc, &s, s.turn.number, battles));
  return o;
}
