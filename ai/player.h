/* Players: the one interface the simulator, the engine protocol and solo play use.
 * Every player is re-entrant: all its memory hangs off its own Player. */
#ifndef WATERLOO_PLAYER_H
#define WATERLOO_PLAYER_H
#include "../engine/engine.h"

typedef struct Player Player;

/* The registry of player kinds (ai/player.c): `waterloo players` prints it. */
/* 0 if spec names a known kind with valid, in-range options; else -1 and one line in err.
 * Every command checks its specs with this before any game starts. */
int player_spec_check(const char *spec, char *err, size_t errlen);
/* the spec with every option of its kind written out (kind:opt=v,...) as it plays in the
 * scenario named scen ("short", "long"; NULL: the levels' setting common to every scenario, as
 * `players --canonical` prints it without --scenario): equal strings, equal players */
int player_spec_canonical(const char *spec, const char *scen, char *out, size_t len, char *err,
                          size_t errlen);
void player_help(FILE *f);
/* what tells spec apart from its kinds' probes, the cheap specs whose first decisions
 * fingerprint the code behind its kinds ("mcts:sim" for any mcts spec, one per kind, two for a
 * seated "A+B", none for the rule players): its options whose values differ from the probe's, "mcts:iters=3000,threads=2,playtime=4000," ("kind:" when none; two
 * joined by '+' for a seated spec; "" for a rule player), and the probes.  With the probes' play
 * it is a search player's fingerprint: a level's settings are seen, and an option added later
 * that is inert at its default changes nothing.  In the scenario named scen (NULL: the
 * levels' common setting).  The probes' count, or -1. */
int player_spec_identity(const char *spec, const char *scen, char *out, size_t len, const char **probe,
                         int max);
/* player_spec_identity of every named level of every search kind, one a line, then a line
 * "short: ..." where the level plays otherwise in that scenario: what the level tables say
 * today (the search fingerprint hashes it); 0, or -1 when len is too small */
int player_levels_text(char *out, size_t len);
/* 1 if spec starts with a kind's name ("mcts", "heuristic:eps=0.1"); 0 for a bare level */
int player_is_kind(const char *spec);
/* a difficulty level (easy normal hard expert; NULL or "" is normal) or a full player spec, as
 * a player spec ("mcts:easy", "heuristic") */
void player_level_spec(const char *level, char *spec, size_t len);
/* player_level_spec's spec checked: 0, or -1 with err saying why in the words the person
 * typed (a bare word that is no level is named as such, with the levels and the players) */
int player_level_check(const char *level, char *err, size_t len);
/* the levels of the kind named `kind`, space-separated ("" when it has none), or NULL when no
 * kind has that name: what a front end offers as difficulty levels */
const char *player_kind_levels(const char *kind);
/* a hash of the fitted evaluation weights the search players (eval=fit and eval=own) would use
 * on these data; a simulator's journal records it so that a resumed run never mixes games of
 * two evaluations */
uint64_t fit_weights_fingerprint(const Scen *sc);

/* spec examples: "random", "heuristic", "mcts" (= mcts:normal), "mcts:easy", "mcts:hard",
 * "mcts:expert", "mcts:normal*4" (4x the normal budget), "mcts:iters=3000,threads=2,c=0.7",
 * "cheat:normal" (same search on the true state: the labelled cheating player).
 * seed: the player's own random stream (the simulator derives it from seed, game index, side). */
Player *player_new(const Scen *sc, const char *spec, uint64_t seed, char *err, size_t errlen);
/* chooses a legal action for gs_decider(s).  Honest players read s only through
 * gs_observe / gs_determinize. */
Action player_act(Player *p, const State *s);
const char *player_name(const Player *p);   /* the spec it was made from */
/* the evaluation that scores the player's cut-off rollouts, in words with the file and a hash of
 * its weights ("fitted: eval-short.ini, weights 1a2b3c4d"; "hand-written"); "" for a player
 * without one (random, heuristic, light) */
const char *player_eval_desc(const Player *p);
/* for a person waiting at a front end (play, serve, engine genmove): a search level without
 * its own `time=` gets its level's cap per decision (`playtime`); sim, match and strength never
 * call this, so their games stay reproducible.  Returns the cap in ms (0: none). */
int player_set_interactive(Player *p);
void player_free(Player *p);

/* Seats.  A seated Allied spec "BRITISH+PRUSSIAN" is two players: the second plays the
 * decisions gs_seat gives the Prussian seat, the first every other Allied decision; player_new,
 * player_act, player_analyze and the checks take it like any spec.  The seat form of a player
 * list, "french=A,british=B,prussian=C" (a new seat starts only at ",SEAT=", so a spec keeps
 * its option commas), gives each seat's spec (spec[SEAT_*], "" when a seat is not named; 0 or
 * -1 and one line in err); seats_allied_spec joins the two Allied seats into one spec ("B" when
 * the Prussian seat is absent or plays the same, else "B+P"). */
#define SEATED_ALLY_SEED(seed) ((seed) ^ 0x9e3779b97f4a7c15ULL) /* the Prussian player's seed */
int seats_form(const char *text);
int seats_parse(const char *text, char spec[3][128], char *err, size_t errlen);
int seats_allied_spec(char spec[3][128], char *out, size_t len);

/* top candidates of the last (or a fresh) search: action, visit share, estimated win rate for
 * the deciding side.  Returns how many were written. Non-search players return their choice
 * with share 1. */
typedef struct { Action a; double share; double winrate; int visits; } Candidate;
int player_analyze(Player *p, const State *s, Candidate *out, int max);
#endif
