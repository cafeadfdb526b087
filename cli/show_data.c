/* ./waterloo show --data: the scenario data as tables, in the order an owner of the printed game
 * checks them against the box: the counter sheets (front and back values), the set-up and the
 * reinforcement table, the three decks card by card, the player aid's reference table, and
 * last the map (terrain row by row, then every edge).  Each table names the file and section
 * to edit (scenarios/README.md, "Transcribing the printed components"). */
#include <stdio.h>

#include "cli.h"

static const char *TERRAIN[] = {"clear", "woods", "village", "castle", "hill"};

static void counters(const Scen *sc, FILE *f) {
  fprintf(f, "1. COUNTERS (units.ini [units]: name = army kind full reduced flags square facing \"name\")\n"
             "   Check the front (full, white) and back (reduced, red) value of every counter;\n"
             "   back 0 = no reduced side.\n\n");
  static const char *kinds[] = {"infantry", "cavalry"};
  for (int army = 0; army < 3; army++)
    for (int k = 0; k < 2; k++) {
      int n = 0;
      for (int u = 0; u < sc->nunits; u++) n += sc->unit[u].army == army && sc->unit[u].kind == k;
      if (!n) continue;
      fprintf(f, "   %s %s (%d)\n", army_name(army), kinds[k], n);
      fprintf(f, "   %-16s %5s %5s  %-12s %s\n", "name", "front", "back", "flags", "long name");
      for (int u = 0; u < sc->nunits; u++) {
        const UnitDef *d = &sc->unit[u];
        if (d->army != army || d->kind != k) continue;
        char flags[32];
        snprintf(flags, sizeof flags, "%s%s%s", d->elite ? "elite " : "",
                 d->kind == K_CAV ? (d->heavy ? "heavy" : "light") : "", "");
        fprintf(f, "   %-16s %5d %5d  %-12s %s\n", d->name, d->bp_full, d->bp_red,
                flags[0] ? flags : "-", d->longname);
      }
      fprintf(f, "\n");
    }
  int bp[3] = {0, 0, 0}, n[3] = {0, 0, 0};
  for (int u = 0; u < sc->nunits; u++) bp[sc->unit[u].army] += sc->unit[u].bp_full, n[sc->unit[u].army]++;
  fprintf(f, "   Totals: French %d units %d BP, British %d units %d BP, Prussian %d units %d BP; %d in all\n\n",
          n[0], bp[0], n[1], bp[1], n[2], bp[2], sc->nunits);
}

static void setup(const Scen *sc, FILE *f) {
  char q[4];
  fprintf(f, "2. SET-UP AT 11:30 (units.ini [units] square and facing, [leaders], [reinforcements];\n"
             "   a variant's [setup] section moves units: this table has the variants applied)\n\n");
  fprintf(f, "   %-6s %-16s %s\n", "square", "unit", "facing");
  for (int sq = 0; sq < NSQ; sq++) {  /* board order: row by row, west to east */
    for (int u = 0; u < sc->nunits; u++)
      if (sc->unit[u].start_sq == sq) {
        sq_name(sq, q);
        fprintf(f, "   %-6s %-16s %c%s%s\n", q, sc->unit[u].name, "NESW"[sc->unit[u].start_facing & 3],
                sc->sqname[sq][0] ? "   " : "", sc->sqname[sq]);
      }
    for (int l = 0; l < 2; l++)
      if (sc->leader_start[l] == sq) {
        sq_name(sq, q);
        fprintf(f, "   %-6s %-16s -\n", q, l ? "Wellington" : "Napoleon");
      }
  }
  fprintf(f, "\n   Reinforcements (%s):\n", sc->p.prussians ? "this scenario" : "long game only");
  for (int g = 0; g < sc->ngroups; g++) {
    fprintf(f, "   %-4s from turn %d at", sc->group[g].name, sc->group[g].turn + sc->p.prussian_shift);
    for (int i = 0; i < sc->group[g].nentry; i++) {
      sq_name(sc->group[g].entry[i], q);
      fprintf(f, " %s", q);
    }
    fprintf(f, ":");
    for (int u = 0; u < sc->nunits; u++)
      if (sc->unit[u].group == g) fprintf(f, " %s", sc->unit[u].name);
    fprintf(f, "\n");
  }
  fprintf(f, "\n");
}

static void cards(const Scen *sc, FILE *f) {
  fprintf(f, "3. CARDS (cards.ini [cards]: id = army mp bp action \"name\")\n\n");
  for (int army = 0; army < 3; army++) {
    int n = 0, mp = 0, bp = 0;
    for (int c = 0; c < sc->ncards; c++)
      if (sc->card[c].army == army) n++, mp += sc->card[c].mp, bp += sc->card[c].bp;
    fprintf(f, "   %s deck: %d cards, MP %d in all, BP %d in all\n", army_name(army), n, mp, bp);
    fprintf(f, "   %-4s %3s %3s  %-22s %s\n", "id", "MP", "BP", "action", "name");
    for (int c = 0; c < sc->ncards; c++) {
      const CardDef *d = &sc->card[c];
      if (d->army != army) continue;
      char act[32];
      if (d->action == ACT_COMMAND)
        snprintf(act, sizeof act, "command +%d att/+%d def", d->cmd_att, d->cmd_def);
      else
        snprintf(act, sizeof act, "%s", d->action ? action_kind_name(d->action) : "-");
      fprintf(f, "   %-4s %3d %3d  %-22s %s\n", d->id, d->mp, d->bp, act, d->name);
    }
    fprintf(f, "\n");
  }
}

static void reference(const Scen *sc, FILE *f) {
  const Params *p = &sc->p;
  fprintf(f, "4. REFERENCE TABLE (the player aid; rule numbers in params.ini [base], docs/PARAMETERS.md)\n\n");
  fprintf(f, "   Movement cost to enter (R-6.5): clear 1, woods 2, village 2, castle 2, hill 2 (1 from a\n"
             "   hill); ridge +1, stream +1 (bridge 0), pond: no crossing; a road into Mont St. Jean or\n"
             "   La Haye Sainte: 1 in all. Turning 1. Leaders 1 per square.\n");
  fprintf(f, "   Battle: flank x%d, rear x%d, elite card x%d, defender in village/woods/hill x%d,\n"
             "   infantry in a castle x%d; charge heavy x%d, light x%d; across a ridge or stream -1.\n",
          p->flank_mult, p->rear_mult, p->elite_mult, p->terrain_mult, p->castle_mult, p->heavy_charge,
          p->light_charge);
  fprintf(f, "   Attackers at most %d; cards per round %d.\n", p->max_attackers, p->round_limit);
  fprintf(f, "   Hands: French %d, British %d, Prussian by turn", p->hand_fr, p->hand_br);
  for (int t = 1; t <= p->turns; t++) fprintf(f, " %d", p->prussians ? p->hand_pr[t] : 0);
  fprintf(f, ".\n   Castle damage points: Hougoumont %d, La Haye Sainte %d, Frischermont %d.\n", p->cdp[0],
          p->cdp[1], p->cdp[2]);
  for (int side = 0; side < 2; side++) { /* only when a variant restricts a side */
    if (!p->ban[side]) continue;
    fprintf(f, "   Restricted play (R-5.8): the %s may not use", side == FRENCH ? "French" : "Allies");
    for (int b = 0, n = 0; b < BAN_BITS; b++)
      if ((p->ban[side] >> b & 1) && ban_name(b)) fprintf(f, "%s %s", n++ ? "," : "", ban_name(b));
    fprintf(f, ".\n");
  }
  if (sc->scenario == SC_SHORT)
    fprintf(f, "   Victory (short game): the French hold %d castles, or %d castles and Mont St. Jean.\n",
            p->short_castles_needed, p->short_castles_msj);
  else {
    fprintf(f, "   Victory points (long game): square, French VP, Allied VP\n");
    for (int v = 0; v < V_COUNT; v++)
      if (sc->vsq_active & (1u << v))
        fprintf(f, "     %-16s %3d %3d\n", vsq_name(v, 1), p->vp_fr[v], p->vp_al[v]);
    fprintf(f, "     plus the full BP of every enemy unit eliminated.\n");
  }
  fprintf(f, "\n");
}

static void map(const Scen *sc, FILE *f) {
  char a[4], b[4];
  fprintf(f, "5. MAP (map.ini [terrain] row by row, west to east: . clear w woods v village C castle h hill)\n\n");
  fprintf(f, "          ");
  for (int c = 0; c < MAP_W; c++) fprintf(f, "%c ", 'A' + c);
  fprintf(f, "\n");
  for (int r = 0; r < MAP_H; r++) {
    fprintf(f, "   row%-3d ", r + 1);
    for (int c = 0; c < MAP_W; c++) fprintf(f, "%c ", ".wvCh"[sc->terrain[r * MAP_W + c]]);
    fprintf(f, "\n");
  }
  fprintf(f, "\n   Edges ([edges]; each pair once, north or west square first):\n");
  static const char *kinds[] = {"ridge", "stream", "bridge", "road", "pond"};
  for (int k = 0; k < 5; k++) {
    fprintf(f, "   %-6s =", kinds[k]);
    int n = 0;
    for (int sq = 0; sq < NSQ; sq++)
      for (int d = DIR_E; d <= DIR_S; d++)   /* east and south sides: each edge once */
        if (sc->edge[sq][d] & (1 << k)) {
          sq_name(sq, a);
          sq_name(sc->nb[sq][d], b);
          fprintf(f, "%s %s-%s", n && n % 10 == 0 ? "\n          " : "", a, b);
          n++;
        }
    fprintf(f, "\n");
  }
  fprintf(f, "\n   Places ([places]):");
  for (int sq = 0, n = 0; sq < NSQ; sq++)
    if (sc->sqname[sq][0]) {
      sq_name(sq, a);
      fprintf(f, "%s %s %s", n++ % 6 == 0 ? "\n  " : ",", sc->sqname[sq], a);
    }
  fprintf(f, "\n   Castles: ");
  for (int c = 0; c < MAX_CASTLES; c++) {
    sq_name(sc->castle_sq[c], a);
    fprintf(f, "%s%s", c ? ", " : "", a);
  }
  fprintf(f, " (%s terrain)\n", TERRAIN[T_CASTLE]);
}

void show_data(const Scen *sc, FILE *f) {
  fprintf(f, "Waterloo scenario data, %s game, variants: %s\n"
             "A reconstruction: compare each table with the printed components and edit the file it\n"
             "names (scenarios/README.md, \"Transcribing the printed components\").\n\n",
          sc->scen_name, sc->variant_names);
  counters(sc, f);
  setup(sc, f);
  cards(sc, f);
  reference(sc, f);
  map(sc, f);
}
