/* Shared inside front/ only: the battle arithmetic the log and the JSON forms both show. */
#ifndef WATERLOO_FRONT_INT_H
#define WATERLOO_FRONT_INT_H
#include "session.h"

/* each attacker's own share of the total before cards (its BP with its multipliers: terrain,
 * edges, flank or rear, charge, leader), by direction from the defender; -1 unused */
void attacker_values(const Scen *sc, const State *s, int def_sq, int mask, int vals[4]);
/* did the action from before to after end the battle's card phase (the reveal)? */
int card_phase_done(const State *before, const State *after);
/* the battle just revealed, as both sides now see it */
void battle_fill(const Scen *sc, const State *before, const State *after, BattleRec *b);
#endif
