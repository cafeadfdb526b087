/* What an action caused, as a viewer may know it: the battle just revealed (its cards, totals
 * and the reasons behind them) and the sentences of the log (front/session.h: action_events). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front_int.h"
#include "session.h"
#include "../sim/sim.h"

static void cards_text(const Scen *sc, uint64_t m, uint64_t cmd, uint64_t elite, char *buf,
                       size_t len) {
  size_t n = 0;
  buf[0] = 0;
  if (!m) snprintf(buf, len, "none");
  for (; m; m &= m - 1) {
    int c = __builtin_ctzll(m);
    const CardDef *d = &sc->card[c];
    if ((cmd >> c) & 1)
      n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s \"%s\" (command +%d/+%d)",
                            n ? ", " : "", d->id, d->name, d->cmd_att, d->cmd_def);
    else if ((elite >> c) & 1)
      n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s \"%s\" (elite)", n ? ", " : "",
                            d->id, d->name);
    else
      n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s \"%s\" (%d BP)", n ? ", " : "",
                            d->id, d->name, d->bp);
  }
}

/* each attacker's own share of the total before cards (its BP with its multipliers: terrain,
 * edges, flank or rear, charge, leader), by direction from the defender; -1 unused */
void attacker_values(const Scen *sc, const State *s, int def_sq, int mask, int vals[4]) {
  for (int d = 0; d < 4; d++) {
    vals[d] = -1;
    if (!(mask & (1 << d))) continue;
    int a, df;
    battle_base_totals(sc, s, def_sq, 1 << d, &a, &df);
    vals[d] = a;
  }
}

int card_phase_done(const State *before, const State *after) {
  int card_phase = before->turn.phase == PH_B_ATTCARDS || before->turn.phase == PH_B_DEFCARDS;
  int still = after->turn.phase == PH_B_ATTCARDS || after->turn.phase == PH_B_DEFCARDS;
  return card_phase && !still && before->battle.def_unit != UNIT_NONE;
}

/* the battle just revealed, as both sides now see it */
void battle_fill(const Scen *sc, const State *before, const State *after, BattleRec *b) {
  uint64_t rev = before->cards.pend & after->cards.seen & ~before->cards.seen;
  memset(b, 0, sizeof *b);
  b->valid = 1;
  b->att_side = before->battle.att_side;
  b->kind = before->battle.kind;
  b->def_unit = before->battle.def_unit;
  b->def_sq = before->battle.def_sq;
  int mask = 0;
  for (int k = 0; k < 4; k++) {
    b->att[k] = before->battle.att[k] == UNIT_NONE ? -1 : before->battle.att[k];
    mask |= before->battle.att[k] != UNIT_NONE ? 1 << k : 0;
  }
  battle_base_totals(sc, before, before->battle.def_sq, mask, &b->base_att, &b->base_def);
  attacker_values(sc, before, before->battle.def_sq, mask, b->att_val);
  battle_reasons(sc, before, before->battle.def_sq, mask, b->att_why, b->def_why);
  for (int k = 0; k < 4; k++) b->att_bp[k] = b->att[k] >= 0 ? unit_bp(sc, before, b->att[k]) : 0;
  b->def_bp = unit_bp(sc, before, before->battle.def_unit);
  b->cards_att = rev & side_cards_mask(sc, before->battle.att_side);
  b->cards_def = rev & side_cards_mask(sc, !before->battle.att_side);
  b->cmd = before->cards.pend_cmd & rev;
  b->elite = before->cards.pend_elite & rev;
  b->total_att = after->battle.att_total;
  b->total_def = after->battle.def_total;
  snprintf(
      b->outcome, sizeof b->outcome, "%s",
      after->battle.att_total > 2 * after->battle.def_total   ? "attacker wins by more than double"
      : after->battle.att_total > after->battle.def_total     ? "attacker wins"
      : after->battle.def_total > 2 * after->battle.att_total ? "defender wins by more than double"
                                                              : "defender holds");
}

int action_events(const Scen *sc, const State *before_, Action a, const State *after, int viewer,
                  char *out, size_t outlen) {
  const State before = *before_;
  size_t n = 0;
  char buf[512];
  out[0] = 0;
#define ADD(...) (n += (size_t)snprintf(out + n, n < outlen ? outlen - n : 0, __VA_ARGS__))
  if (before.turn.phase == PH_BID && after->turn.phase != PH_BID) {
    for (int side = 0; side < 2; side++) {
      int c = before.turn.bid_card[side];
      if (side == before.turn.decider) c = a.t == A_BID ? a.bid.card : c;
      if (c != CARD_NONE && c < sc->ncards)
        ADD("%s bid %s \"%s\" (MP %d); ", side_name(side), sc->card[c].id, sc->card[c].name, sc->card[c].mp);
      else ADD("%s bid no card; ", side_name(side));
    }
    ADD("the %s go first; ", side_name(after->turn.first));
  }
  if (card_phase_done(&before, after)) {
    BattleRec br, *b = &br;
    battle_fill(sc, &before, after, b);
    cards_text(sc, b->cards_att, b->cmd, b->elite, buf, sizeof buf);
    ADD("cards revealed: attacker (%s) %s; ", side_name(b->att_side), buf);
    cards_text(sc, b->cards_def, b->cmd, b->elite, buf, sizeof buf);
    ADD("defender (%s) %s; before cards %d against %d; ", side_name(!b->att_side), buf, b->base_att,
        b->base_def);
  }
  if (a.t == A_HEALTH) {
    uint64_t disc =
        after->cards.discard & ~before.cards.discard & sc->army_cards[ARMY_FR] & ~after->cards.seen;
    if (viewer == FRENCH) {
      cards_text(sc, disc, 0, 0, buf, sizeof buf);
      ADD("Napoleon's health: the French discard %s; ", buf);
    } else {
      ADD("Napoleon's health: the French discard %d card%s at random, unseen; ", __builtin_popcountll(disc),
          __builtin_popcountll(disc) == 1 ? "" : "s");
    }
  }
  if (gs_event_text(sc, &before, after, buf, sizeof buf)) ADD("%s; ", buf);
  if (after->turn.number != before.turn.number && !gs_over(after))
    ADD("turn %d begins; ", after->turn.number);
  if (gs_over(after)) {
    gs_describe(sc, after, buf, sizeof buf);
    ADD("%s; ", buf);
  }
#undef ADD
  size_t k = strlen(out);
  if (k >= 2) out[k - 2] = 0;
  return out[0] != 0;
}

static const char *count_word(int n) {
  static const char *w[] = {"no", "one", "two", "three"};
  static __thread char d[12];
  if (n >= 0 && n <= 3) return w[n];
  snprintf(d, sizeof d, "%d", n);
  return d;
}

int game_end_reason(const Scen *sc, const State *s, char *buf, size_t len) {
  size_t n = 0;
  if (len) buf[0] = 0;
  if (!gs_over(s)) return 0;
#define ADD(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
  int cond = game_cond(sc, s);
  if (sc->scenario == SC_LONG) { /* */
    int vp[2];
    gs_score(sc, s, vp);
    for (int side = 0; side < 2; side++)
      ADD("%s%s %d (%d from squares, %d from units eliminated)", side ? ", the " : "VP: the ",
          side == FRENCH ? "French" : "Allies", vp[side], vp[side] - s->score.elim_vp[side],
          s->score.elim_vp[side]);
  } else { /* the castles and Mont St. Jean the French hold */
    static const int castle[MAX_CASTLES] = {V_HOUGOUMONT, V_LHS, V_FRISCHERMONT};
    int held = 0, msj = (s->turn.owner >> V_MSJ) & 1;
    char names[96] = "";
    size_t k = 0;
    for (int i = 0; i < MAX_CASTLES; i++) held += (s->turn.owner >> castle[i]) & 1;
    for (int i = 0, j = 0; i < MAX_CASTLES; i++)
      if ((s->turn.owner >> castle[i]) & 1) {
        j++;
        k += (size_t)snprintf(names + k, k < sizeof names ? sizeof names - k : 0, "%s%s",
                              j == 1 ? "" : j == held ? " and " : ", ", vsq_name(castle[i], 0));
      }
    const char *cw = held == 1 ? "castle" : "castles";
    if (held) ADD("the French hold %s %s (%s) %s Mont St. Jean", count_word(held), cw, names,
                  msj ? "and" : "but not");
    else ADD("the French hold no castle %s Mont St. Jean", msj ? "but hold" : "nor");
    if (s->score.result != RES_FRENCH)
      ADD(": they needed %s castles, or %s and Mont St. Jean", count_word(sc->p.short_castles_needed),
          count_word(sc->p.short_castles_msj));
  }
  ADD(" (%s)", cond_name(cond));
#undef ADD
  return (int)(n < len ? n : len ? len - 1 : 0);
}
