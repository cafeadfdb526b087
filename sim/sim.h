/* Monte Carlo balance simulator: AI-vs-AI games, statistics and reports.
 *
 * The commands (cli/ reads their options and calls the *_main functions of "the commands"
 * below; each returns the process exit code):
 *   sim       play every scenario x variant x player-pair cell, write the reports
 *   merge     merge the journals of --shard runs into one report
 *   replay    replay one game (from its seed and index, or from a CSV row) and print its log
 *   match     mirrored-seed match between two players, cutechess-style output
 *   strength  the strength table of the computer players (results/strength.md)
 *   scaling   strength against thinking budget by doublings (results/scaling.md)
 * sim_bench() prints games per second per thread and the 1->2 thread efficiency. */
#ifndef WATERLOO_SIM_H
#define WATERLOO_SIM_H
#include <stdint.h>
#include <stdio.h>

#include "../ai/player.h"
#include "../engine/engine.h"

void sim_bench(FILE *out);

/* ---------------------------------------------------------------- the commands
 * cli/ reads each command's options from the command line into its struct below (cli/sim_cmd.c:
 * sim, merge, replay; cli/match_cmd.c: match, strength, scaling) and calls its run function;
 * the values that are lists (scenarios, variants, pairs of players) are expanded here. */
#define SIM_MAX_GAMES 100000000L /* games a cell or a match at most (cli's CLI_MAX_GAMES) */
#define MAX_SCEN 2
#define MAX_VAR 48
#define MAX_SET 4         /* --set options (sweeps)                           */
#define MAX_PAIRS 16
#define SPEC_LEN 120
/* sim: the configuration of a run: the options of `sim` (read by cli/sim_cmd.c), then the cells
 * of its lists (scen, var, the pairs of --budgets, the sweep) filled by sim_main */
typedef struct {
  char scen[MAX_SCEN][16];
  int nscen;
  char var[MAX_VAR][64];
  int nvar;
  /* --set NAME=V1,V2,...: the sweep; its cells are var[sweep_from..nvar), labelled
   * "NAME=V" (several --set: every combination, "A=1+B=2") */
  char set[MAX_SET][256];
  int nset, sweep_from;
  char pf[MAX_PAIRS][SPEC_LEN], pa[MAX_PAIRS][SPEC_LEN];
  int npair;
  long games;          /* games per cell (the cap with --until-ci)     */
  uint64_t seed;
  double until_ci;     /* 0: off                                        */
  long batch;          /* batch size with --until-ci                    */
  uint32_t fp;         /* engine fingerprint (journal header only)      */
  uint32_t sfp;        /* the search players' (search_cells_fingerprint; journal header only;
                        * 0: none searches, or a journal from before it was kept) */
  double detect_pts, detect_vp; /* --detect, --detect-vp: the effects of the power columns
                                   (0: 5 points, 2 VP); the report only, not the games */
  /* not part of the results: */
  int threads;
  char out[1024];
  int resume, shard_i, shard_n, progress;
  int overwrite;       /* --overwrite: discard the journal or reports found in out */
  /* set by a command built on a sim run (skill), 0/NULL for sim itself: */
  long pair_games[MAX_PAIRS]; /* games of pair i's cells when > 0 (at most games), else games */
  const char *cmd;     /* the command its messages name, NULL: "sim" */
} SimCfg;
#define SIM_CMD(c) ((c)->cmd ? (c)->cmd : "sim")
/* the games of pair pi's cells */
static inline long sim_pair_games(const SimCfg *c, int pi) {
  return c->pair_games[pi] > 0 && c->pair_games[pi] < c->games ? c->pair_games[pi] : c->games;
}
/* the list options of sim, read after the others (their defaults depend on them) */
typedef struct {
  const char *scen, *var, *budgets;
} SimLists;
/* one more player pair (French a, Allied b): 0, or -1 when there are MAX_PAIRS or a spec is too
 * long */
int sim_add_pair(SimCfg *c, const char *a, const char *b);
/* sim: the cells of L's lists (sim_lists), the output folder, the run and its reports; c holds
 * the other options.  The exit code */
int sim_main(SimCfg *c, const SimLists *L);
/* merge: the folders of one run's shards and the folder of the merged report */
#define MERGE_MAX_DIRS 256
typedef struct {
  const char *out;                      /* required: never one of dirs                  */
  const char *dirs[MERGE_MAX_DIRS];
  int nd, overwrite;                    /* overwrite: replace another run found in out  */
} MergeOpts;
/* merge: the reports of the journals of o->dirs into o->out; the exit code */
int merge_main(const MergeOpts *o);
/* replay: the game to replay (seed and index, or the CSV row) and what to do with it */
typedef struct {
  char scen[16], var[MAX_VARIANT_LIST], pf[128], pa[128];
  uint64_t seed;
  long index, row;
  const char *csv, *save;
  int quiet;
} ReplayOpts;
/* replay: plays the game with its log on stdout (checked against the CSV row); the exit code */
int replay_main(const ReplayOpts *o);
/* match: the players, the seeds and the SPRT */
typedef struct {
  char scen[16], var[MAX_VARIANT_LIST], A[128], B[128];
  long games, batch;
  uint64_t seed;
  int threads, quiet;
  double sprt0, sprt1;  /* NAN: no SPRT */
  char seats[3][128];   /* --players french=A,british=B,prussian=C: fixed seats, no mirror */
  int seated;
} MatchOpts;

/* match: the mirrored match (or the seated games) and its lines on stdout; the exit code */
int match_main(const MatchOpts *o);
/* "A,B" or "A/B" (a spec with '=' is cut at '/' only) into a and b: 0, or -1 */
int sim_split_players(const char *v, char *a, char *b, size_t len);
/* strength: the table of the computer players (the pairs of --pairs, else the default list) */
typedef struct {
  long games;
  uint64_t seed;
  int threads, resume, overwrite;
  const char *out, *scen_list;
  const char *pairs;        /* --pairs 'A/B[@N];C/D', NULL: the default pairs */
} StrengthOpts;
int strength_main(const StrengthOpts *o);
/* scaling: strength against the budget by doublings of --from */
#define SCALING_MAX_DOUBLINGS 12
typedef struct {
  const char *from, *out, *scen_arg;
  int doublings, threads, resume, overwrite;
  long games;
  uint64_t seed;
} ScalingOpts;
int scaling_main(const ScalingOpts *o);
/* skill: balance across skill, a sim run with one pair per level (the level on both sides) and
 * one variant: its games, journal (DIR/journal.csv) and games.csv are sim's; report.md and
 * skill.svg are its own (sim/skill.c) */
#define SKILL_MAX_LEVELS MAX_PAIRS
typedef struct {
  char scen[MAX_SCEN][16];
  int nsc;
  char spec[SKILL_MAX_LEVELS][SPEC_LEN];
  long games[SKILL_MAX_LEVELS];  /* games of each level */
  int nl;
  const char *var, *out;
  const char *command;           /* the command line that reproduces the report */
  uint64_t seed;
  int threads, resume, overwrite;
} SkillOpts;
int skill_main(const SkillOpts *o);

/* ---------------------------------------------------------------- one game */
/* how a game was won */
enum {
  COND_NONE = 0,      /* unfinished (should not happen)                  */
  COND_3CASTLES,      /* short: the French hold every castle             */
  COND_2CASTLES_MSJ,  /* short: two castles and Mont St. Jean            */
  COND_HOLD,          /* short: the Allies hold                          */
  COND_VP_FR,         /* long: French VP margin > 0                      */
  COND_VP_AL,         /* long: Allied VP margin > 0                      */
  COND_VP_DRAW,       /* long: equal VP                                  */
  COND_COUNT
};
const char *cond_name(int cond);
/* how the game s ended, COND_* (COND_NONE while it is not over): a game's `cond` fact, the
 * reason `replay` and the end of `play` name */
int game_cond(const Scen *sc, const State *s);

/* Everything the simulator records about one finished game (one CSV row). */
typedef struct {
  int32_t index;              /* game index inside the run (the gs_init stream)   */
  uint8_t result;             /* 1 French, 2 Allied, 3 draw, 0 unfinished          */
  uint8_t cond;               /* COND_*                                           */
  uint8_t turns;              /* last turn played                                  */
  uint8_t owner;              /* final owner bits (V_*)                            */
  uint16_t rounds, passes;    /* rounds played (both sides), of them passes        */
  uint16_t battles[2];        /* battles declared by each side                     */
  uint16_t cards[2];          /* cards played for movement, action or battle       */
  uint16_t bids[2];           /* cards offered in bids                             */
  uint16_t lost[2];           /* units of each side eliminated                     */
  uint16_t reduced[2];        /* units of each side on their reduced side at the end */
  int16_t vp[2];              /* final VP (long game; short: 0)                    */
  int16_t vp_elim[2];         /* VP from eliminated enemy units                    */
  int16_t vp_sq[2];           /* VP from squares held                              */
  uint8_t fall[V_COUNT];      /* turn each victory square first turned French, 0 never */
  uint32_t decisions;         /* actions chosen by the players                     */
  uint32_t decisions_side[2];
  /* not a result: thread CPU seconds of the game (both players), 0 when not known (a journal of
   * an older build); kept in the journal, never in games.csv or in the fingerprints */
  float cpu;
  float cpu_side[2];          /* not a result: thread CPU seconds of each side's decisions   */
  /* the later facts (bids won, squares held, the round of each fall), after the fingerprinted
   * bytes so that the journals' fingerprints stay; a row of an older journal has none of them
   * (more = 0) */
  uint8_t more;               /* 1: the facts below were recorded                  */
  uint8_t bids_won[2];        /* bids each side won (who went first after a bid)    */
  uint16_t fall_round[V_COUNT]; /* round of the game (1 = the first) in which each victory
                                   square first turned French, 0 never              */
} GameFacts;
/* the side that won more of a game's bids: BIDW_FRENCH, BIDW_ALLIED, BIDW_SPLIT (as many each),
 * BIDW_NONE (no bid was made: no-bidding, or the game ended on turn 1), BIDW_UNKNOWN (a row of
 * an older journal) */
enum { BIDW_NONE, BIDW_FRENCH, BIDW_ALLIED, BIDW_SPLIT, BIDW_UNKNOWN, BIDW_COUNT };
int bid_winner(const GameFacts *f);
const char *bid_winner_name(int bw);
/* the bytes of a GameFacts that are results (the fingerprints hash these) */
#define FACTS_RESULT_BYTES offsetof(GameFacts, cpu)

/* Seeds: the engine stream is gs_init(sc, s, seed, index); each player's seed depends on
 * (seed, index, side) only — never on a thread id. */
uint64_t sim_player_seed(uint64_t seed, uint64_t index, int side);

/* Plays one game from gs_init(sc, s, seed, index) to the end with two players already made.
 * log: when not NULL, one line per action with turn/round headers and the result.
 * rec: when not NULL, every action is pushed.  final: when not NULL, gets the last state.
 * Returns 0, or -1 when the game did not end within a safety limit of actions. */
int run_game(const Scen *sc, Player *fr, Player *al, uint64_t seed, uint64_t index,
             GameFacts *f, FILE *log, GameRec *rec, State *final);
/* Same, making the players from their specs with sim_player_seed(). */
int run_game_specs(const Scen *sc, const char *spec_fr, const char *spec_al, uint64_t seed,
                   uint64_t index, GameFacts *f, FILE *log, char *err, size_t errlen);

/* a hash of two random-vs-random games on sc: changes when the engine's behaviour does */
uint32_t scen_fingerprint(const Scen *sc);
/* h extended (FNV-1a) by the result bytes of one game of spec against itself (seed 1815, game
 * index); a game that cannot be played hashes as all 0xff */
uint32_t facts_hash(uint32_t h, const Scen *sc, const char *spec, uint64_t index);
/* h extended by the fitted evaluation weights the search players would use on sc */
uint32_t fit_hash(uint32_t h, const Scen *sc);
/* how games of sc are played: the rules (rules_signature), its data (scen_fingerprint), the
 * heuristic (one game) and the fitted evaluation of the search players.  A journal of games is
 * reused only under the same play fingerprint. */
uint32_t play_fingerprint(const Scen *sc);
/* the rules signature (bench, --version): FNV-1a over the legal-action lists of `games` seeded
 * random games of sc, RULES_SIG_GAMES of them there (changes only when the rules' behaviour or
 * the data do); the legal actions and decisions counted into *legal_total, *decisions */
#define RULES_SIG_GAMES 50
uint64_t rules_signature(const Scen *sc, int games, long *legal_total, long *decisions);
/* how a search player plays, beyond play_fingerprint: its options that differ from its kind's
 * probe's (the level tables behind its name: player_spec_identity) and its kind's code, probed by
 * the first decisions of that cheap spec of the kind; 0 for the rule players.  A journal keeps it so that a resumed run
 * never mixes the games of two searches. */
uint32_t spec_fingerprint(const Scen *sc, const char *spec);
/* the two players of a match: 0 when neither searches */
uint32_t pair_fingerprint(const Scen *sc, const char *a, const char *b);
/* every search of this build, on both scenarios' base rules: every level's settings and each
 * search kind's probe.  `waterloo --version` prints it; a report made by a search player carries
 * it in its caption (build_caption). */
uint32_t search_fingerprint(void);
/* 1 when spec has a search kind (its play is in the search fingerprint) */
int spec_searches(const char *spec);

/* ---------------------------------------------------------------- statistics */
#define Z95 1.959963984540054
typedef struct { double p, lo, hi; } Interval;
/* Wilson score interval for k successes in n trials (z = 1.96 for 95%). */
Interval wilson(long k, long n, double z);
/* standard normal quantile and distribution function */
double norm_quantile(double p);
double norm_cdf(double x);
/* the exact one-sided sign test: P(at least w wins of w + l decided games | 1/2); 1 without games */
double sign_test_p(long w, long l);
/* McNemar test on the discordant pairs b, c: exact two-sided binomial p-value, and the
 * continuity-corrected chi-square statistic in *chi2 (may be NULL). */
double mcnemar_p(long b, long c, double *chi2);
/* Paired difference of two proportions p1 - p2 from the 2x2 table of pairs
 * (a: both, b: first only, c: second only, d: neither) with Newcombe's hybrid score interval
 * (method 10, 1998). */
Interval paired_diff(long a, long b, long c, long d, double z);
/* the correlation (phi) of the pairs' two results; NAN when a margin is empty */
double pair_phi(long a, long b, long c, long d);
/* what pairing bought: phi, the paired interval (paired_diff), the interval the same rates would
 * have from independent samples of the same size (Newcombe with phi = 0), and the gain
 * 1 - paired width / unpaired width (0.3: the paired interval is 30% narrower) */
typedef struct { double phi, gain; Interval paired, unpaired; } PairGain;
PairGain pair_gain(long a, long b, long c, long d, double z);
/* the plan: games per cell for a half-width h of the difference p1 - p2 (normal approximation)
 * when the pairs correlate phi (0: unpaired; NAN counts as 0) */
double games_for_halfwidth(double p1, double p2, double phi, double h, double z);
/* the difference p1 - p2 of two independent proportions k1/n1 and k2/n2 with Newcombe's
 * hybrid score interval (method 10 with no correlation, 1998); NAN without games in a group */
Interval diff_indep(long k1, long n1, long k2, long n2, double z);
/* Elo difference for an expected score in (0,1): -400 log10(1/s - 1) (+-inf at 0 and 1). */
double elo_from_score(double s);
/* Elo difference and its 95% error margin from wins, losses, draws (cutechess-style margin
 * from the trinomial per-game variance). */
void elo_wld(long w, long l, long d, double *elo, double *margin);
/* the same 95% interval as its two ends, the Elo of the score interval's ends (not symmetric;
 * +-inf when an end leaves (0, 1)) */
void elo_wld_interval(long w, long l, long d, double *lo, double *hi);
/* SPRT log-likelihood ratio for H1: elo1 against H0: elo0 (BayesElo-free, logistic model,
 * trinomial approximation). */
double sprt_llr(long w, long l, long d, double elo0, double elo1);

/* Student t: cdf and quantile with df degrees of freedom */
double t_cdf(double t, double df);
double t_quantile(double p, double df);
/* mean of n values from their sum and sum of squares, with the Student-t interval at level
 * conf (0.95); n < 2: lo = -inf, hi = +inf (no spread is known) */
Interval mean_t(double sum, double sum2, long n, double conf);
/* Wilson interval for a non-integer count (a score with draws as halves) */
Interval wilson_d(double k, long n, double z);
/* Elo interval from the Wilson interval of the score (w + d/2 of n): finite at 100% and 0% */
void elo_bounds_wilson(long w, long l, long d, double *lo, double *hi);
/* Mirrored pairs: pc[k] = seeds on which A scored k/2 points over its two games (k = 0..4,
 * the pentanomial counts of fishtest).  Elo and its 95% margin from the pair scores, and the
 * likelihood of superiority LOS = P(A stronger) (normal approximation). */
typedef struct { long pairs; double score, var, elo, margin, los; } PentaStats;
void penta_stats(const long pc[5], PentaStats *ps);
/* SPRT log-likelihood ratio on the pair scores (normal approximation, fishtest's GSPRT) */
double sprt_llr_penta(const long pc[5], double elo0, double elo1);
/* Holm's step-down adjustment of n p-values (adj may not alias p) */
void holm_adjust(const double *p, int n, double *adj);
/* n estimates x[i] of one quantity with known variances v[i] (the steps of a scaling ladder):
 * the inverse-variance (fixed-effect) pooled value and its variance; Cochran's Q, the weighted
 * squared deviations from it, and its p on chi-square with n - 1 df (small: the estimates
 * differ more than their variances allow; n >= 2, else NAN); the weighted least-squares slope
 * of x over the index i, its variance and two-sided normal p (n >= 3, else NAN).  Estimates
 * with an unknown or non-positive variance are left out (n counts the rest).  q_line: what
 * is left of Q about the fitted line, and its p on n - 2 df (n >= 3): whether the estimates
 * differ more than a steady trend and chance would make them. */
typedef struct { int n; double mean, var, q, q_p, slope, slope_var, slope_p, q_line, q_line_p; } Pooled;
void pool_estimates(const double *x, const double *v, int n, Pooled *o);
/* games (pairs) needed to detect a paired difference delta in a proportion with McNemar's
 * test, given the share of discordant pairs (Connor 1987), two-sided alpha, power */
double mcnemar_games_needed(double p_disc, double delta, double alpha, double power);
/* games needed to detect a mean (paired) difference delta when the per-game sd is sd */
double mean_games_needed(double sd, double delta, double alpha, double power);
/* Bradley-Terry (logistic Elo) maximum-likelihood ratings over all matches at once; draws
 * count half.  prior_draws virtual draws are added to every match (0: pure ML; a positive
 * value keeps a 100% score finite, as BayesElo's prior does).  elo[i] and se[i] (standard
 * error) relative to the anchor; NAN for players not connected to it.  0 or -1. */
typedef struct { int a, b; double w, l, d; } BTMatch;
int bt_fit(int np, int nm, const BTMatch *m, int anchor, double prior_draws, double *elo,
           double *se);

/* Joint weighted least squares of additive ratings r[a] - r[b] = val (variance var) over all
 * matches, anchor = 0: the generalised-least-squares ladder of a paired measure.  Matches
 * with a variance that is not finite and positive are left out.  NAN when not connected. */
int ladder_wls(int np, int nm, const int *a, const int *b, const double *val, const double *var,
               int anchor, double *r, double *se);

/* ---------------------------------------------------------------- small utilities */
/* the one scenario loader of the commands (cli/ and sim/): a scenario with the variants of a
 * command line (scen_load_user: shipped names, variant files by path, NAME=VALUE) from the data
 * folder (scen_default_dir) in a new Scen (the caller frees it); NULL after "CMD: SCENARIO
 * VARIANTS: error" on stderr */
Scen *sim_scen_load(const char *cmd, const char *scen, const char *var);
/* write a whole buffer to path atomically (path.tmp + rename); 0 or -1 */
int write_atomic(const char *path, const char *data, size_t len);
/* the caption every report carries under its title: the version and the play fingerprints of
 * both scenarios ("*Build: waterloo 1.0, play fingerprint short a99fb89a, long 333f430f ...*"),
 * and when search is 1 (a player of the report searches) the search fingerprint;
 * tools/report-check (make report-check) holds the committed reports to it */
#define CAPTION_LEN 240
void build_caption(char *out, size_t len, int search);
/* whether a new file prefix.probe.PID can be created (it is removed again): 0, or -1 with errno */
int can_create(const char *prefix);
/* 1 when the file's last byte is not a newline: a journal line torn by a kill, to be ended
 * before a resume appends (and nothing is added after a whole line) */
int ends_torn(const char *path);
int mkdir_p(const char *path);
/* growable string */
typedef struct { char *s; size_t n, cap; } Buf;
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_free(Buf *b);

/* the key of a victory square in games.csv and summary.json ("hougoumont", "plancenoit1") */
const char *vsq_key(int v);
/* CSV of game facts: header and one row (no newline) */
void facts_csv_header(Buf *b);
void facts_csv_row(Buf *b, const char *scen, const char *variant, const char *pf, const char *pa,
                   uint64_t seed, const GameFacts *f);
/* parse a row written by facts_csv_row; 0 ok, -1 malformed.  Strings are copied into the
 * given buffers. */
int facts_csv_parse(const char *line, char *scen, size_t scen_len, char *variant,
                    size_t var_len, char *pf, char *pa, size_t p_len, uint64_t *seed,
                    GameFacts *f);

#endif
