/* Seats: which of the three players decides now.  The rules decide per side (the
 * State's decider); the seat rule splits an Allied decision between the British and the
 * Prussian player by the army it concerns, with the British having the last word on what
 * concerns the Allied side as a whole.  docs/RULINGS.md, R-1.2 (seats), says why. */
#include <string.h>

#include "rules_int.h"

static const char *const SEAT_NAMES[SEAT_COUNT] = {"french", "british", "prussian"};

const char *seat_name(int seat) {
  return seat >= 0 && seat < SEAT_COUNT ? SEAT_NAMES[seat] : "?";
}

int seat_parse(const char *name) {
  for (int i = 0; i < SEAT_COUNT; i++)
    if (!strcmp(name, SEAT_NAMES[i])) return i;
  return -1;
}

int scen_has_seat(const Scen *sc, int seat) {
  if (seat == SEAT_PRUSSIAN) return sc->p.prussians != 0;
  return seat == SEAT_FRENCH || seat == SEAT_BRITISH;
}

/* a decision over a set of Allied cards: the Prussian only when every card it could play is
 * Prussian (a round restricted to Prussian cards, a hand of Prussian cards only), else the
 * British, who has the last word (rulebook §6 and §7) */
static int seat_of_cards(const Scen *sc, uint64_t cards) {
  if (cards && !(cards & sc->army_cards[ARMY_BR])) return SEAT_PRUSSIAN;
  return SEAT_BRITISH;
}

/* the army of the evading cavalry; both armies at once: the British */
static int seat_of_evaders(const Scen *sc, uint64_t evaders) {
  int armies = 0;
  for (uint64_t m = evaders; m; m &= m - 1) armies |= 1 << sc->unit[__builtin_ctzll(m)].army;
  return armies == (1 << ARMY_PR) ? SEAT_PRUSSIAN : SEAT_BRITISH;
}

static int seat_of_army(int army) { return army == ARMY_PR ? SEAT_PRUSSIAN : SEAT_BRITISH; }

static int allied_seat(const Scen *sc, const State *s) {
  uint64_t hand = s->cards.hand & side_cards(sc, ALLIED);
  switch (s->turn.phase) {
  case PH_BID: return seat_of_cards(sc, hand);
  case PH_ROUND: /* a round limited to Prussian cards is the Prussian's, even
                  * with no Prussian card left to play in it */
    if (s->turn.round_army == ARMY_PR) return SEAT_PRUSSIAN;
    return seat_of_cards(sc, round_cards(sc, s));
  case PH_REACT: return seat_of_cards(sc, hand);
  case PH_MOVE:
  case PH_DECLARE:
  case PH_RALLY2: return seat_of_army(s->play.army);
  case PH_EVADE: return seat_of_evaders(sc, s->interrupt.evaders);
  case PH_LEADER: return SEAT_BRITISH; /* Wellington is the only Allied leader */
  case PH_B_FIRE:
  case PH_B_DEFCARDS:
  case PH_B_LOSS: return seat_of_army(sc->unit[s->battle.def_unit].army);
  case PH_B_ATTCARDS:
  case PH_B_ADVANCE:
  case PH_B_ATTLOSS: return seat_of_army(s->battle.army);
  default: return SEAT_BRITISH;
  }
}

int gs_seat(const Scen *sc, const State *s) {
  if (gs_over(s)) return -1;
  if (s->turn.decider == FRENCH) return SEAT_FRENCH;
  if (!sc->p.prussians) return SEAT_BRITISH;
  return allied_seat(sc, s);
}

int gamerec_people(const Scen *sc, const GameRec *g) {
  const char *t = g->seats;
  int people = 0;
  if (!*t) return -1;
  while (*t) {
    size_t len = strcspn(t, ","), nl = strcspn(t, "=");
    char name[16];
    if (nl >= len || nl >= sizeof name) return -1;
    memcpy(name, t, nl);
    name[nl] = 0;
    int k = seat_parse(name);
    if (k < 0 || !scen_has_seat(sc, k) || nl + 1 == len) return -1;
    if (len - nl - 1 == 5 && !strncmp(t + nl + 1, "human", 5)) people |= 1 << seat_side(k);
    t += len;
    if (*t == ',') t++;
  }
  return people;
}
