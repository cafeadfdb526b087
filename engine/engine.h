/* Waterloo engine: rules, state, legal actions.  No AI, no printing except the text forms
 * asked for (board, notation, JSON, log).  See docs/RULINGS.md for every decision the rules
 * leave open.
 *
 * Static data (map, units, cards, parameters) lives in a read-only Scen, loaded once and shared
 * by every state.  A State is one fixed-size struct without pointers, copied by assignment.
 * Every function takes the Scen it needs; nothing is global, so everything is re-entrant. */
#ifndef WATERLOO_ENGINE_H
#define WATERLOO_ENGINE_H
#define WATERLOO_VERSION "1.0" /* the program's version (waterloo --version, the engine protocol) */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rng.h"

/* ---------------------------------------------------------------- sizes */
#define MAP_W 18           /* columns A..R, west to east   */
#define MAP_H 13           /* rows 1..13, north to south    */
#define NSQ (MAP_W * MAP_H)
#define SQ_NONE 255        /* no square                     */
#define SQ_OFF 254         /* unit off map (not yet arrived) */
#define SQ_DEAD 253        /* unit eliminated               */
#define MAX_UNITS 56
#define MAX_CARDS 64       /* 55 in the base game; masks are uint64_t */
#define MAX_VSQ 8          /* victory squares tracked       */
#define MAX_CASTLES 3
#define MAX_GROUPS 4       /* Prussian reinforcement groups */
#define MAX_ENTRY 6        /* entry squares per group       */
#define MAX_TURNS 12
#define UNIT_NONE 255
#define CARD_NONE 255
#define MAX_VARIANT_LIST 256 /* longest variant list, "a,b,c" (scen_load refuses longer) */

/* ---------------------------------------------------------------- enums */
enum { FRENCH = 0, ALLIED = 1 };                 /* sides   */
enum { ARMY_FR = 0, ARMY_BR = 1, ARMY_PR = 2 };  /* armies  */
enum { DIR_N = 0, DIR_E = 1, DIR_S = 2, DIR_W = 3 };
enum { T_CLEAR = 0, T_WOODS, T_VILLAGE, T_CASTLE, T_HILL };
enum { E_RIDGE = 1, E_STREAM = 2, E_BRIDGE = 4, E_ROAD = 8, E_POND = 16 }; /* edge bits */
enum { K_INF = 0, K_CAV = 1 };
enum {
  ACT_NONE = 0, ACT_ARTILLERY, ACT_COMMAND, ACT_CHARGE, ACT_FORCE_CHARGE, ACT_ELITE, ACT_RALLY,
  ACT_HEALTH, ACT_COUNT
};
enum { SC_SHORT = 0, SC_LONG = 1 };
/* State.result (and GameFacts.result) */
enum { RES_NONE = 0, RES_FRENCH = 1, RES_ALLIED = 2, RES_DRAW = 3 };

/* ---------------------------------------------------------------- static data */
typedef struct {
  char name[16];          /* unique: fr-4/I, br-3/I, pr-15 ...          */
  char longname[48];      /* "4th Division (Durutte)"                    */
  uint8_t army, kind, heavy, elite;
  uint8_t bp_full, bp_red; /* bp_red 0: no reduced side                  */
  uint8_t start_sq, start_facing; /* start_sq SQ_OFF for reinforcements  */
  int8_t group;           /* Prussian reinforcement group, -1 none       */
} UnitDef;

typedef struct {
  char id[8];             /* F01, B12, P03                               */
  char name[40];
  uint8_t army, mp, bp, action;
  uint8_t cmd_att, cmd_def; /* command bonus (ACT_COMMAND)               */
} CardDef;

typedef struct {
  char name[16];          /* IV, II, I                                  */
  uint8_t turn;           /* first turn the group may enter (base)      */
  uint8_t nentry;
  uint8_t entry[MAX_ENTRY];
} GroupDef;

/* Every number and option of the rules is a named parameter (docs/PARAMETERS.md).  A variant
 * file overrides any of them. */
typedef struct {
  int turns;                  /* 4 short, 7 long                                  */
  int hand_fr, hand_br;       /* cards drawn each turn                             */
  int hand_pr[MAX_TURNS + 1]; /* Prussian draw by turn (index 1..turns)            */
  int round_limit;            /* 5 cards per round                                 */
  int cdp[MAX_CASTLES];       /* Hougoumont, La Haye Sainte, Frischermont          */
  int vp_fr[MAX_VSQ], vp_al[MAX_VSQ]; /* VP per victory square (long game)         */
  int charge_all_cards;       /* 1: every battle card allowed in a charge battle   */
  int three_player;           /* 1: Allied round may mix British and Prussian cards */
  int bidding;                /* 0: the French go first every turn                  */
  int prussian_shift;         /* added to every group's arrival turn                */
  int prussians;              /* 0 short game: no Prussian units or cards           */
  int elite_mult, flank_mult, rear_mult, heavy_charge, light_charge, terrain_mult, castle_mult;
  int max_attackers;          /* 4                                                 */
  int short_castles_needed;   /* French short-game win: this many castles ...      */
  int short_castles_msj;      /* ... or this many castles and Mont St. Jean       */
  /* restricted play: per side, the BAN_* bits of what that side may not use; kept last
   * (the fitted evaluation's fingerprint hashes the parameters before it, ai/fit.c) */
  int ban[2];
} Params;

/* Restricted play (R-5.8, docs/PARAMETERS.md ban_french / ban_allied): a card action ACT_X is
 * bit 1 << ACT_X; then the bid and each castle's damage points. */
enum {
  BAN_BID = 1 << ACT_COUNT,
  BAN_CDP0 = 1 << (ACT_COUNT + 1), /* castle c: BAN_CDP0 << c (Hougoumont, LHS, Frischermont) */
  BAN_BITS = ACT_COUNT + 1 + MAX_CASTLES
};
/* the parameter word of ban bit b ("artillery", "force-charge", "bid", "cdp-lhs" ...), NULL for
 * a bit that is not a restriction (0, ACT_NONE); ban_bit(word) its bit, -1 when unknown */
const char *ban_name(int bit);
int ban_bit(const char *word);

/* victory-square indices */
enum { V_MSJ = 0, V_HOUGOUMONT, V_LHS, V_FRISCHERMONT, V_PLANC1, V_PLANC2, V_PLANC3, V_COUNT };

typedef struct Scen {
  char scen_name[16];         /* short / long                                     */
  char variant_names[MAX_VARIANT_LIST]; /* "base" or "three-player,prussians-early" */
  int scenario;               /* SC_SHORT / SC_LONG                              */
  /* map */
  uint8_t terrain[NSQ];
  uint8_t edge[NSQ][4];       /* edge bits across side d of square               */
  int8_t castle_of[NSQ];      /* castle index or -1                              */
  int8_t vsq_of[NSQ];         /* victory-square index or -1                      */
  uint8_t vsq[V_COUNT];       /* square of each victory square                   */
  uint8_t vsq_active;         /* bit per V_*: counts in this scenario            */
  uint8_t castle_sq[MAX_CASTLES];
  char sqname[NSQ][20];       /* place names, "" for none                        */
  /* order of battle */
  int nunits;
  UnitDef unit[MAX_UNITS];
  uint8_t leader_start[2];    /* Napoleon, Wellington                            */
  int ngroups;
  GroupDef group[MAX_GROUPS];
  /* cards */
  int ncards;
  CardDef card[MAX_CARDS];
  uint64_t army_cards[3];     /* mask of each army's deck                        */
  Params p;
  /* derived */
  uint8_t nb[NSQ][4];         /* neighbour square or SQ_NONE                     */
  uint8_t cost[NSQ][4];       /* MP to cross each side; 255 impossible   */
  uint8_t nb_open[NSQ][4];    /* neighbour across a side without a pond, or SQ_NONE */
  uint8_t uside[MAX_UNITS];   /* FRENCH / ALLIED of each unit                    */
  int n_army_units[3];
  uint8_t army_units[3][MAX_UNITS]; /* unit indices of each army                   */
  int n_side_units[2];
  uint8_t side_units[2][MAX_UNITS];
} Scen;

/* ---------------------------------------------------------------- state */
/* unit flag bits (State.units.flag) */
#define UF_FACING 3u          /* bits 0-1: facing                                  */
#define UF_REDUCED 4u
#define UF_DISORDER 8u
#define UF_MOVED 16u
#define UF_RALLIED 32u
#define UF_ATTACKED 64u
#define UF_INBATTLE 128u      /* attacking in the current battle                   */

/* phases: who decides is State.decider */
enum {
  PH_BID = 1,      /* simultaneous: French then Allied; offered card hidden          */
  PH_ROUND,        /* active side: play a card for movement/action, or end the round */
  PH_MOVE,         /* spending a movement card's MP                                  */
  PH_EVADE,        /* cavalry owner: evade an approaching infantry unit or not       */
  PH_LEADER,       /* leader owner: where a displaced leader goes                    */
  PH_DECLARE,      /* active side: use the card's battle right or not                */
  PH_B_FIRE,       /* defender: artillery at an attacker before the reveal           */
  PH_B_ATTCARDS,   /* attacker: secret battle cards, one at a time                  */
  PH_B_DEFCARDS,   /* defender: secret battle cards, one at a time                  */
  PH_B_LOSS,       /* defender: reduce / retreat / castle point                      */
  PH_B_ADVANCE,    /* attacker: which unit advances, facing                          */
  PH_B_ATTLOSS,    /* attacker: which tied unit is reduced                           */
  PH_RALLY2,       /* active side: second unit of a disorder rally                  */
  PH_REACT,        /* non-active side: artillery after a card has resolved           */
  PH_OVER,
  PH_COUNT
};

/* State.battle.loss_owed: what a defender who lost still owes */
enum { LOSS_REDUCE = 1, LOSS_RETREAT = 2, LOSS_CHOICE = 4 };
/* State.battle.elite: an elite card was played by the attacker / the defender */
enum { ELITE_ATT = 1, ELITE_DEF = 2 };

/* battle kinds */
enum { BK_NORMAL = 0, BK_CHARGE = 1 };

/* The state of a game, in named parts.  It is one fixed-size struct with no pointers, copied by
 * assignment.  The byte layout is fixed (the offsets are checked below): the search seeds its
 * random streams from a hash of the observed state's bytes, so moving a field would change every
 * search game.  Every byte is a field, padding included, and padding is always zero. */

/* cards: a card is in exactly one of hand / pend / discard, else undrawn */
typedef struct {
  uint64_t hand;       /* in its army's hand                                        */
  uint64_t discard;    /* played or discarded                                       */
  uint64_t seen;       /* discards both sides saw                                   */
  uint64_t pend;       /* committed in secret (bid, battle)                         */
  uint64_t pend_cmd;   /* pending battle cards played for command            */
  uint64_t pend_elite; /* pending battle cards played as elite              */
} StCards;

typedef struct {
  uint8_t sq[MAX_UNITS];   /* square of each unit, or SQ_OFF / SQ_DEAD                  */
  uint8_t flag[MAX_UNITS]; /* UF_* bits: facing, reduced, disordered, moved ...          */
  uint8_t leader[2];       /* Napoleon, Wellington squares                              */
} StUnits;

typedef struct {
  uint8_t number;           /* turn 1..turns                                             */
  uint8_t phase;            /* PH_*                                                      */
  uint8_t decider;          /* side that chooses the next action                         */
  uint8_t active;           /* side playing the round                                    */
  uint8_t first;            /* side that plays the first round of the turn              */
  uint8_t ncards;           /* cards counted against the round limit this round          */
  uint8_t last_pass;        /* previous round was a pass                                 */
  uint8_t round_army;       /* Allied round restricted to: 0 none, ARMY_BR, ARMY_PR       */
  uint8_t owner;            /* bit per victory square: 1 French holds it                 */
  uint8_t cdp[MAX_CASTLES]; /* castle damage points left                                 */
  uint8_t entry_sq;         /* Prussian entry square chosen this turn                    */
  uint8_t bid_made;         /* bit per side: bid decided (card or none)                  */
  uint8_t bid_card[2];      /* card offered or CARD_NONE                                 */
} StTurn;

/* the card being resolved in the round */
typedef struct {
  uint8_t card;         /* the card                                                  */
  uint8_t army;         /* army the card commands                                    */
  uint8_t mp;           /* movement points left                                      */
  uint8_t moving;       /* unit in motion or UNIT_NONE                               */
  uint8_t evade_stop;   /* 1: after an evasion the moving unit may step once more;   */
                        /* 2: it took it, and stops once the evasions it set off are  */
                        /* chosen                                             */
  uint8_t after_battle; /* phase after the current battle: PH_DECLARE / PH_REACT     */
} StPlay;

typedef struct {
  uint8_t kind;      /* BK_NORMAL / BK_CHARGE                                     */
  uint8_t att_side;  /* attacking side                                            */
  uint8_t def_unit;  /* defending unit                                            */
  uint8_t def_sq;    /* defender's square                                         */
  uint8_t att[4];    /* attacking units (UNIT_NONE unused)                        */
  uint8_t army;      /* army the attacker's cards must come from                  */
  uint8_t loss_owed; /* LOSS_* bits still owed by the defender            */
  uint8_t elite;     /* ELITE_ATT / ELITE_DEF: who played an elite card   */
  uint8_t charger;   /* the charging cavalry in a charge battle                   */
  uint8_t att_total; /* totals of the last battle (for logs and odds)             */
  uint8_t def_total;
} StBattle;

/* an interrupt: a choice out of the normal flow, after which play returns */
typedef struct __attribute__((packed)) {
  uint8_t rally_first;    /* first unit chosen in a 2-unit disorder rally              */
  uint8_t return_phase;   /* phase to return to after the interrupt                    */
  uint8_t return_decider; /* ... and who decides there                                 */
  uint8_t leader_pending; /* bit per leader: must be displaced                         */
  uint8_t pad[5];
  uint64_t evaders; /* cavalry that may evade now                                */
} StInterrupt;

typedef struct {
  uint16_t elim_vp[2]; /* full BP of enemy units each side eliminated               */
  uint8_t result;      /* RES_NONE while running, RES_FRENCH, RES_ALLIED, RES_DRAW  */
  uint8_t pad[3];
} StScore;

typedef struct {
  Rng rng; /* the game's chance: inc the key of (seed, game), state the number of chance
            * events so far; each event draws from its own stream keyed by (key, turn, event)
            * (engine/flow.c `chance`), so no draw depends on what came before it */
  StCards cards;
  StUnits units;
  StTurn turn;
  StPlay play;
  StBattle battle;
  uint8_t first_round; /* the next round is the first of the turn (a turn field kept
                            * here for the fixed layout)                                */
  StInterrupt interrupt;
  StScore score;
  uint32_t nactions; /* actions applied this game                                 */
  /* derived: the unit on each square (UNIT_NONE), kept in step with units.sq for speed;
   * gs_rebuild_occ recomputes it after units.sq is written directly */
  uint8_t occ[NSQ];
  uint8_t pad[2];
} State;
_Static_assert(offsetof(State, cards) == 16 && offsetof(State, units) == 64 &&
                   offsetof(State, turn) == 178 && offsetof(State, play) == 194 &&
                   offsetof(State, battle) == 200 && offsetof(State, first_round) == 214 &&
                   offsetof(State, interrupt) == 215 && offsetof(State, interrupt.evaders) == 224 &&
                   offsetof(State, score) == 232 && offsetof(State, nactions) == 240 &&
                   offsetof(State, occ) == 244 && sizeof(State) == 480,
               "State layout: the search's seeds hash these bytes");
void gs_rebuild_occ(const Scen *sc, State *s);
/* side now holds sq, when sq is a victory square (a unit of side moved in) */
void gs_set_holder(const Scen *sc, State *s, int sq, int side);

/* ---------------------------------------------------------------- actions */
/* The kinds of action; the view of Action each one fills is named first in the comment. */
/* clang-format off */
enum {
  A_END = 1,     /* end the round (a pass when no card was played)                               */
  A_PLAY_MOVE,   /* play: card                                                                   */
  A_ARTY,        /* fire: card, unit that fires, across (0 its facing, 1+side in a castle)       */
  A_CHARGE,      /* charge: card, cavalry, squares (1, 2)                                        */
  A_FORCE,       /* charge: card, enemy cavalry, squares (1, 2)                                  */
  A_RALLY,       /* play: card (CARD_NONE for the second unit), unit; then PH_RALLY2             */
  A_RESTORE,     /* play: card, reduced unit                                                     */
  A_HEALTH,      /* play: card                                                                   */
  A_STEP,        /* step: unit, dir, facing (dir = facing unless in a castle)                    */
  A_TURN,        /* turn: unit, facing                                                           */
  A_LEAD,        /* lead: dir                                                                    */
  A_ENTER,       /* to: unit, sq, facing (a Prussian unit enters the map)                        */
  A_DONE,        /* end of the movement card                                                     */
  A_DECLARE,     /* declare: sq of the defender, dirs (mask of attacker directions)              */
  A_NOBATTLE,
  A_BCARD,       /* bcard: card, purpose (BP_*)                                                  */
  A_BDONE,
  A_NOFIRE,      /* decline artillery (battle or reaction window)                                */
  A_REDUCE,      /* defender loss: reduce                                                        */
  A_RETREAT,     /* retreat: sq, facing, facing_again (the same facing)                          */
  A_CDP,         /* defender loss: spend a castle damage point                                   */
  A_ADVANCE,     /* attacker: slot in battle.att, facing (it advances)                           */
  A_LOSE,        /* attacker: slot of the tied attacking unit reduced                            */
  A_EVADE,       /* to: unit, sq, facing (cavalry evades)                                        */
  A_NOEVADE,
  A_PLACE,       /* place: sq the displaced leader goes to                                       */
  A_BID,         /* bid: card or CARD_NONE                                                       */
  A_RALLY_DONE,  /* disorder rally of one unit only                                              */
  A_COUNT
};
enum { BP_POINTS = 0, BP_COMMAND = 1, BP_ELITE = 2 };

/* An action: its kind t and three argument bytes, read through the view its kind names (the
 * comments of A_*): a.step.unit, a.fire.across, a.declare.dirs ...  Views that are shorter
 * than three bytes leave the rest 0.  The raw bytes a, b, c are for code that treats every
 * kind alike (equality, keys, hashing, debug prints).  The four bytes are the encoding: the
 * search hashes them and saved games, notation and JSON depend on them, so a view never moves
 * a byte. */
typedef struct {
  uint8_t t;
  union {
    struct { uint8_t a, b, c; };                          /* raw arguments */
    struct { uint8_t card, unit; } play;                  /* every kind that plays a card */
    struct { uint8_t card, unit, across; } fire;          /* A_ARTY */
    struct { uint8_t card, unit, squares; } charge;       /* A_CHARGE, A_FORCE */
    struct { uint8_t card; } bid;                         /* A_BID */
    struct { uint8_t card, purpose; } bcard;              /* A_BCARD */
    struct { uint8_t unit, dir, facing; } step;           /* A_STEP */
    struct { uint8_t unit, facing; } turn;                /* A_TURN */
    struct { uint8_t pad, dir; } lead;                    /* A_LEAD */
    struct { uint8_t unit, sq, facing; } to;              /* A_ENTER, A_EVADE */
    struct { uint8_t sq, dirs; } declare;                 /* A_DECLARE */
    struct { uint8_t sq, facing, facing_again; } retreat; /* A_RETREAT */
    struct { uint8_t slot, facing; } attacker;            /* A_ADVANCE, A_LOSE */
    struct { uint8_t sq; } place;                         /* A_PLACE */
  };
} Action;
/* clang-format on */
_Static_assert(sizeof(Action) == 4 && offsetof(Action, a) == 1 && offsetof(Action, c) == 3 &&
                   offsetof(Action, play.unit) == 2 && offsetof(Action, fire.across) == 3 &&
                   offsetof(Action, charge.squares) == 3 && offsetof(Action, bcard.purpose) == 2 &&
                   offsetof(Action, step.facing) == 3 && offsetof(Action, turn.facing) == 2 &&
                   offsetof(Action, lead.dir) == 2 && offsetof(Action, to.facing) == 3 &&
                   offsetof(Action, declare.dirs) == 2 &&
                   offsetof(Action, retreat.facing_again) == 3 &&
                   offsetof(Action, attacker.facing) == 2 && offsetof(Action, place.sq) == 1 &&
                   offsetof(Action, bid.card) == 1,
               "Action layout: the views share the bytes of the encoding t, a, b, c");

/* Building an action from its kind and named arguments; act_kind for the kinds without
 * arguments.  Each constructor is the one place that lays its arguments on the raw bytes (the
 * offsets of its view are asserted above); the bytes a view does not cover are 0.  (Written as
 * one initializer of the raw bytes: the legal-move generator builds millions of actions and
 * compiles this to one store.) */
static inline Action act_raw(int t, int a, int b, int c) {
  return (Action){.t = (uint8_t)t, .a = (uint8_t)a, .b = (uint8_t)b, .c = (uint8_t)c};
}
static inline Action act_kind(int t) { return act_raw(t, 0, 0, 0); }
static inline Action act_play(int t, int card, int unit) { return act_raw(t, card, unit, 0); }
static inline Action act_fire(int card, int unit, int across) {
  return act_raw(A_ARTY, card, unit, across);
}
static inline Action act_charge(int t, int card, int unit, int squares) {
  return act_raw(t, card, unit, squares);
}
static inline Action act_bid(int card) { return act_raw(A_BID, card, 0, 0); }
static inline Action act_bcard(int card, int purpose) { return act_raw(A_BCARD, card, purpose, 0); }
static inline Action act_step(int unit, int dir, int facing) {
  return act_raw(A_STEP, unit, dir, facing);
}
static inline Action act_turn(int unit, int facing) { return act_raw(A_TURN, unit, facing, 0); }
static inline Action act_lead(int dir) { return act_raw(A_LEAD, 0, dir, 0); }
static inline Action act_enter(int unit, int sq, int facing) {
  return act_raw(A_ENTER, unit, sq, facing);
}
static inline Action act_evade(int unit, int sq, int facing) {
  return act_raw(A_EVADE, unit, sq, facing);
}
static inline Action act_declare(int sq, int dirs) { return act_raw(A_DECLARE, sq, dirs, 0); }
static inline Action act_retreat(int sq, int facing) {
  return act_raw(A_RETREAT, sq, facing, facing); /* facing_again repeats the facing */
}
static inline Action act_advance(int slot, int facing) {
  return act_raw(A_ADVANCE, slot, facing, 0);
}
static inline Action act_lose(int slot) { return act_raw(A_LOSE, slot, 0, 0); }
static inline Action act_place(int sq) { return act_raw(A_PLACE, sq, 0, 0); }

/* the unit a movement action (A_STEP, A_TURN, A_ENTER) moves; UNIT_NONE for other kinds */
static inline int action_mover(Action a) {
  switch (a.t) {
  case A_STEP: return a.step.unit;
  case A_TURN: return a.turn.unit;
  case A_ENTER: return a.to.unit;
  default: return UNIT_NONE;
  }
}

#define MAX_ACTIONS 1024
typedef struct { int n; Action a[MAX_ACTIONS]; } ActList;

/* The phase table (engine/flow.c): one row per phase, read by gs_legal, gs_apply, phase_name,
 * the save loader and the search.  phase_def of an unknown phase gives the "?" row, which has
 * no legal action. */
struct Scen;
typedef struct {
  const char *name;
  void (*legal)(const struct Scen *sc, const State *s, ActList *L);
  void (*apply)(const struct Scen *sc, State *s, Action a);
  uint8_t secret;   /* the choice is hidden from the other side until a reveal (bids, battle cards) */
} PhaseDef;
const PhaseDef *phase_def(int phase);
static inline int phase_valid(int phase) { return phase >= PH_BID && phase < PH_COUNT; }

/* ---------------------------------------------------------------- scenario loading */
/* Load scenarios/<dir>/map.ini, units.ini, cards.ini and the scenario; then variants by name
 * from <dir>/variants/NAME.ini, comma separated ("base" is the empty variant).  On error returns
 * -1 and writes "file:line: message" into err. */
int scen_load(Scen *sc, const char *dir, const char *scenario, const char *variants, char *err,
              size_t errlen);
/* The same, for the command line of the simulator (the user's own options): a variant may also
 * be the path of a variant file (it has a '/' or ends in ".ini"), or NAME=VALUE[+NAME=VALUE]
 * parameters set directly (sim --set).  scen_load refuses both: a save file or a protocol line
 * must not make the engine read an arbitrary file. */
int scen_load_user(Scen *sc, const char *dir, const char *scenario, const char *variants,
                   char *err, size_t errlen);
/* directory that holds the scenario files: $WATERLOO_DATA, else ./scenarios, else the one
 * beside the executable, else the installed one (PREFIX/share/waterloo/scenarios) */
const char *scen_default_dir(void);
/* a folder of the program's files: $ENV_VAR, else ./NAME when it holds PROBE, else NAME beside
 * the executable when it holds PROBE, else EXEDIR/../share/waterloo/NAME when that does (where
 * `make install` puts it), else NAME beside the executable (also the web page's and docs') */
void data_dir(const char *env_var, const char *name, const char *probe, char *out, size_t len);
int scen_square(const Scen *sc, const char *name);   /* "F5" or a place name; -1 if none */
void sq_name(int sq, char out[4]);                    /* 0 -> "A1"                         */
/* the name of victory square v (V_MSJ ...): "Plancenoit" for each of its three squares, or
 * "Plancenoit 1".."3" when numbered (tables that list them side by side); "?" out of range */
const char *vsq_name(int v, int numbered);
int scen_unit(const Scen *sc, const char *name);     /* -1 if none                        */
int scen_card(const Scen *sc, const char *id);       /* -1 if none                        */

/* ---------------------------------------------------------------- game */
void gs_init(const Scen *sc, State *s, uint64_t seed, uint64_t stream);
int gs_legal(const Scen *sc, const State *s, ActList *out);       /* returns out->n         */
int gs_is_legal(const Scen *sc, const State *s, Action a);
/* invariants of every reachable position (one unit per square, leaders, castle points, every
 * card in one place, markers cleared at round start, end at the right turn): 0 or -1 + why */
int gs_check(const Scen *sc, const State *s, char *why, size_t len);
void gs_apply(const Scen *sc, State *s, Action a);                 /* a must be legal        */
static inline int gs_over(const State *s) { return s->turn.phase == PH_OVER; }
static inline int gs_decider(const State *s) { return s->turn.decider; }
/* long game VP so far (squares held + eliminated); short game: 1 if the French would win */
void gs_score(const Scen *sc, const State *s, int vp[2]);
int side_of_army(int army);
static inline uint64_t side_cards_mask(const Scen *sc, int side) {
  return side == FRENCH ? sc->army_cards[ARMY_FR] : sc->army_cards[ARMY_BR] | sc->army_cards[ARMY_PR];
}
static inline int unit_side(const Scen *sc, int u) { return sc->unit[u].army == ARMY_FR ? FRENCH : ALLIED; }
/* printed BP now, 0 dead (inline: the AI's policy calls it in its inner loops) */
static inline int unit_bp(const Scen *sc, const State *s, int u) {
  if (s->units.sq[u] >= NSQ) return 0;
  return (s->units.flag[u] & UF_REDUCED) ? sc->unit[u].bp_red : sc->unit[u].bp_full;
}
int unit_at(const Scen *sc, const State *s, int sq);              /* UNIT_NONE if empty     */
int hand_count(const Scen *sc, const State *s, int army);
/* battle odds before cards: attacker and defender totals of the units attacking def_sq from
 * the directions in mask (bit d: side d of the defender).  For the battle in progress a charge
 * keeps its multiplier. */
void battle_base_totals(const Scen *sc, const State *s, int def_sq, int mask, int *att, int *def);
/* why each unit counts what it does before cards, for the battle panels: why[d] for the
 * attacker across side d of def_sq (mask), defwhy for the defender, e.g. "x2 flank, -1 ridge"
 * or "x2 village" ("" when its printed BP counts as it is) */
void battle_reasons(const Scen *sc, const State *s, int def_sq, int mask, char why[4][64],
                    char defwhy[64]);
/* the battle in progress as `side` sees it while cards are chosen: the totals with the
 * cards `side` has committed so far, and in *hidden the number of cards the other side has
 * committed (secret until both have chosen).  -1 when no battle is in progress. */
int battle_seen_totals(const Scen *sc, const State *s, int side, int *att, int *def, int *hidden);

/* Destination-level moves (engine/reach.c): in PH_MOVE, every square and facing unit u can
 * reach with the card's MP left, the least MP it costs and the actions (A_ENTER / A_TURN /
 * A_STEP of u) that get there.  cost 255: unreachable.  A path ends where the position leaves
 * the unit's movement (an evasion window).  Returns the number of reachable (square, facing). */
#define REACH_PATH 16
typedef struct {
  int unit, n;
  uint8_t cost[NSQ][4];
  uint8_t npath[NSQ][4];
  Action path[NSQ][4][REACH_PATH];
} Reach;
int gs_reach(const Scen *sc, const State *s, int u, Reach *r);

/* ---------------------------------------------------------------- information */
/* Does `observer` see action a exactly when it is played?  (secret bids and battle cards:
 * no; everything else: yes.) */
int gs_action_public(const Scen *sc, const State *s, Action a, int observer);
/* The observation of `side`: a copy of s with the other side's hidden cards (hand, undrawn,
 * unseen discards, secret commitments) put in a canonical arrangement and the rng cleared.
 * Two states with the same observation give byte-identical results. */
void gs_observe(const Scen *sc, const State *s, int side, State *obs);
/* A complete state consistent with side's observation of s, sampled with r.  Uses only
 * what gs_observe keeps, so it never reads hidden information. */
void gs_determinize(const Scen *sc, const State *s, int side, Rng *r, State *out);

/* ---------------------------------------------------------------- seats */
/* The three players of the game (engine/seat.c).  A seat's number is its army's.  The short
 * game has no Prussian seat.  The partners of the Allied side see the same observation (the
 * Allied hand of both decks: docs/RULINGS.md, R-1.2), so a seat's view is gs_observe of its
 * side; the seat rule only says who decides. */
enum { SEAT_FRENCH = ARMY_FR, SEAT_BRITISH = ARMY_BR, SEAT_PRUSSIAN = ARMY_PR, SEAT_COUNT = 3 };
/* the seat that decides now, -1 when the game is over: the French seat every French decision;
 * an Allied one goes to the army it concerns (the card being carried out, the battle's attacking
 * army or defending unit, the evading cavalry), and a choice among Allied cards (the bid, the
 * round's next card, the artillery window after a French card) to the British, who has the last
 * word, unless every card that could be played is Prussian.  Short game: the British. */
int gs_seat(const Scen *sc, const State *s);
static inline int seat_side(int seat) { return seat == SEAT_FRENCH ? FRENCH : ALLIED; }
int scen_has_seat(const Scen *sc, int seat);  /* the Prussian seat only with Prussians */
const char *seat_name(int seat);              /* "french", "british", "prussian"       */
int seat_parse(const char *name);             /* -1 if none                            */

/* ---------------------------------------------------------------- text forms */
int action_format(const Scen *sc, const State *s, Action a, char *buf, size_t len);
/* parse a notation string into a legal action; 0 ok, -1 error (message in err) */
int action_parse(const Scen *sc, const State *s, const char *text, Action *a, char *err,
                 size_t errlen);
/* board as text; color: ANSI colours */
void board_print(const Scen *sc, const State *s, FILE *f, int color);
const char *phase_name(int phase);
/* "unfinished", "French win", "Allied win", "draw" */
const char *result_name(int result);
const char *side_name(int side);
const char *army_name(int army);
const char *action_kind_name(int action_kind);
/* what an action caused beyond itself, for logs: a battle's totals and outcome, units reduced,
 * eliminated or disordered, castle points spent, victory squares changing hands.  Writes ""
 * and returns 0 when there is nothing to say. */
int gs_event_text(const Scen *sc, const State *before, const State *after, char *buf, size_t len);
/* one-line description of the position: turn, phase, who decides */
void gs_describe(const Scen *sc, const State *s, char *buf, size_t len);

/* ---------------------------------------------------------------- position text */
/* the byte fields of State by name (the JSON save and the position text use these names) */
typedef struct { const char *name; size_t off; } StateByte;
extern const StateByte STATE_BYTES[];
extern const int N_STATE_BYTES;
/* the card sets of State by name (hand, discard, seen, pend, pend_cmd, pend_elite) */
typedef struct { const char *name; size_t off; } StateCards;
extern const StateCards STATE_CARDS[];
extern const int N_STATE_CARDS;
static inline uint64_t *state_cards(State *s, const StateCards *f) {
  return (uint64_t *)((char *)s + f->off);
}
static inline uint64_t state_cards_get(const State *s, const StateCards *f) {
  return *(const uint64_t *)((const char *)s + f->off);
}
/* the small number arrays of State by name (cdp, bid_card, batt, elim_vp): n numbers 0..max
 * of `size` bytes each; form: how the position text writes them (for its errors) */
typedef struct { const char *name; size_t off; int n, size; unsigned max; const char *form; } StateArray;
extern const StateArray STATE_ARRAYS[];
extern const int N_STATE_ARRAYS;
static inline void state_array_set(State *s, const StateArray *f, const unsigned *v) {
  for (int i = 0; i < f->n; i++) {
    char *p = (char *)s + f->off + (size_t)(i * f->size);
    if (f->size == 1) *(uint8_t *)p = (uint8_t)v[i];
    else *(uint16_t *)p = (uint16_t)v[i];
  }
}
/* the whole state as one line (engine/position.c documents the format); the length written,
 * or -1 when buf is too small (8 KB is always enough) */
int position_format(const Scen *sc, const State *s, char *buf, size_t len);
/* a position text into *s: the set-up of `seed=N` (default 1) with the given fields written
 * over it, checked by gs_check; 0, or -1 with one line in err.  The text must start with
 * sc's scenario and variants. */
int position_parse(const Scen *sc, const char *text, State *s, char *err, size_t errlen);
/* the scenario and variants a position text starts with; 0 or -1 */
int position_scenario(const char *text, char *scen, size_t slen, char *var, size_t vlen);

/* ---------------------------------------------------------------- save / load (JSON) */
/* state as JSON text (malloc'ed) */
char *state_to_json(const Scen *sc, const State *s);
int state_from_json(const Scen *sc, const char *text, State *s, char *err, size_t errlen);
/* every field of a position that enters from outside (a file, the protocol) against the
 * scenario: indices and codes in range, what the phase needs, then gs_check.  0, or -1 and a
 * one-line message naming the field */
int state_validate(const Scen *sc, const State *s, char *err, size_t errlen);

/* A whole game: scenario, variants, seed, stream, and the actions played. */
typedef struct {
  char scenario[16];
  char variants[MAX_VARIANT_LIST];
  uint64_t seed, stream;
  int n, cap;
  Action *acts;
  int has_start;          /* 1: the game starts from `start`, not from gs_init(seed, stream) */
  State start;
  char seats[128];        /* who sits where ("french=human,british=mcts:normal,..."; "" not
                           * recorded): written and read back as text of [a-z0-9:=,.*+_-] */
} GameRec;
void gamerec_init(GameRec *g, const char *scenario, const char *variants, uint64_t seed,
                  uint64_t stream);
/* the sides a person plays in the record's seats (bit per side, 1 << FRENCH, 1 << ALLIED; 0
 * when every seat named is the computer), -1 when the record names no seats or they are not
 * SEAT=WHO of sc's seats: who may see what of a game in progress (docs/RULINGS.md, Information) */
int gamerec_people(const Scen *sc, const GameRec *g);
void gamerec_push(GameRec *g, Action a);       /* aborts when out of memory */
void gamerec_free(GameRec *g);
/* the position after the first n actions of the record (n = 0: its start) */
void gamerec_position(const Scen *sc, const GameRec *g, int n, State *out);
/* save: JSON with scenario, variants, seed, actions (notation) and final position.
 * Returns 0 or -1 (errno-style message in err).  Written atomically (tmp + rename). */
int game_save(const Scen *sc, const GameRec *g, const State *s, const char *path, char *err,
              size_t errlen);
/* load: reloads the scenario into *sc, replays the actions, checks the position.  Opens only a
 * regular file of at most GAME_FILE_MAX bytes; every field of a saved position is checked
 * against the scenario and gs_check before it is accepted (one-line message naming the field). */
/* files: read whole (regular files only, at most max bytes; malloc'ed text or NULL + err) and
 * write atomically (exclusive temporary beside path, fsync, rename; refuses a target that is
 * not a regular file).  Used by every writer of the program. */
char *file_read_capped(const char *path, size_t max, size_t *len, char *err, size_t errlen);
int file_write_atomic(const char *path, const char *text, size_t len, char *err, size_t errlen);
/* removes the temporary files a write killed midway left in dir (those of target, a file name
 * in dir, or of any file when target is NULL) whose writing process is gone; file_write_atomic
 * does it beside its target before each write, `serve` in its saves folder at start.  Returns
 * how many it removed. */
int file_clean_stale_temps(const char *dir, const char *target);
#define GAME_FILE_MAX (4u << 20)
#define GAME_MAX_ACTIONS 200000
int game_load(Scen *sc, const char *dir, const char *path, GameRec *g, State *s, char *err,
              size_t errlen);
/* the same from the text of a save (path only names it in messages) */
int game_load_text(Scen *sc, const char *dir, const char *path, const char *text, GameRec *g,
                   State *s, char *err, size_t errlen);

#endif
