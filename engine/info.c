/* What each side knows, and worlds sampled from it (determinization). */
#include <string.h>

#include "engine.h"

/* the armies of a side */
static int side_armies(int side, int out[2]) {
  if (side == FRENCH) {
    out[0] = ARMY_FR;
    return 1;
  }
  out[0] = ARMY_BR;
  out[1] = ARMY_PR;
  return 2;
}

int gs_action_public(const Scen *sc, const State *s, Action a, int observer) {
  (void)sc;
  if (a.t == A_BID || a.t == A_BCARD) return observer == s->turn.decider;
  return 1;
}

/* cards of `army` the other side cannot tell apart: everything not seen face up */
typedef struct { uint64_t hidden; int nh, np, nd; } Pool;

static Pool pool_of(const Scen *sc, const State *s, int army) {
  uint64_t all = sc->army_cards[army];
  Pool p;
  p.hidden = all & ~s->cards.seen;
  p.nh = __builtin_popcountll(s->cards.hand & all);
  p.np = __builtin_popcountll(s->cards.pend & all);
  p.nd = __builtin_popcountll(s->cards.discard & ~s->cards.seen & all);
  return p;
}

/* lay the pool out: the first nh picks go to hand, then np to pend, then nd to unseen discard;
 * picks are the lowest cards (canonical) or random ones (r != NULL) */
static void lay_out(const Scen *sc, State *o, int army, Pool p, Rng *r) {
  uint64_t all = sc->army_cards[army];
  o->cards.hand &= ~all;
  o->cards.pend &= ~all;
  o->cards.pend_cmd &= ~all;
  o->cards.pend_elite &= ~all;
  o->cards.discard &= ~(all & ~o->cards.seen);
  uint64_t left = p.hidden;
  int counts[3] = {p.nh, p.np, p.nd};
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < counts[k] && left; i++) {
      int c = r ? mask_pick(r, left) : __builtin_ctzll(left);
      uint64_t bit = 1ull << c;
      left &= ~bit;
      if (k == 0) o->cards.hand |= bit;
      else if (k == 1) {
        o->cards.pend |= bit;
        if (r) {                      /* a plausible purpose for a card committed in secret */
          int act = sc->card[c].action;
          /* only a battle card has one: a bid card has none, and a purpose left on it
           * would outlive the bid (gs_check); the draws stay the same either way */
          int battle = o->turn.phase != PH_BID;
          if (act == ACT_COMMAND && rng_below(r, 2) && battle) o->cards.pend_cmd |= bit;
          if (act == ACT_ELITE && !(o->cards.pend_elite & all) && battle) o->cards.pend_elite |= bit;
        }
      } else o->cards.discard |= bit;
    }
}

static void hide(const Scen *sc, const State *s, int side, State *o, Rng *r) {
  int armies[2];
  int other = side ^ 1;
  int n = side_armies(other, armies);
  for (int i = 0; i < n; i++) {
    Pool p = pool_of(sc, s, armies[i]);
    lay_out(sc, o, armies[i], p, r);
  }
  /* an offered bid card is the side's pending card */
  if (s->turn.bid_card[other] != CARD_NONE && (s->cards.pend & side_cards_mask(sc, other))) {
    uint64_t pend = o->cards.pend & side_cards_mask(sc, other);
    o->turn.bid_card[other] = pend ? (uint8_t)__builtin_ctzll(pend) : CARD_NONE;
  }
}

void gs_observe(const Scen *sc, const State *s, int side, State *obs) {
  *obs = *s;
  obs->rng.state = 0;
  obs->rng.inc = 0;
  hide(sc, s, side, obs, NULL);
}

void gs_determinize(const Scen *sc, const State *s, int side, Rng *r, State *out) {
  State obs;
  gs_observe(sc, s, side, &obs);     /* from here on only the observation is used */
  *out = obs;
  hide(sc, &obs, side, out, r);
  rng_split(r, &out->rng, 0x5eed);
}
