/* Internals shared by the files of sim/ (not part of the public interface). */
#ifndef WATERLOO_SIM_INT_H
#define WATERLOO_SIM_INT_H
#include "sim.h"

typedef struct {
  int si, vi, pi;
  Scen *sc;
  GameFacts *res;      /* indexed by game index, cfg.games slots        */
  uint8_t *have;
  long cap;            /* slots allocated in res / have                 */
  long target;         /* games [0, target) make the reported set       */
  long planned, done;  /* in the current batch (for progress lines)     */
  int active;
  int identical;       /* the variant changes nothing in this scenario: its rules are
                          base's, the cell is not played and the reports say so */
  long resumed;        /* games loaded from a journal (--resume, merge)                  */
} Cell;

/* cell order: scenario, then player pair, then variant */
static inline int cell_id(const SimCfg *c, int si, int pi, int vi) {
  return (si * c->npair + pi) * c->nvar + vi;
}
static inline int ncells(const SimCfg *c) { return c->nscen * c->npair * c->nvar; }
/* make room for games [0, n); 0 or -1 (out of memory) */
int cell_reserve(Cell *cl, long n);

/* the header line of a journal (without newline) and its parser */
void cfg_line(const SimCfg *c, Buf *b);
int cfg_parse(const char *line, SimCfg *c);
/* a hash of a random-vs-random game per scenario: changes when the engine's behaviour does */
uint32_t engine_fingerprint(const SimCfg *c, Cell *cells);
/* 1 when a player of the run searches */
int cfg_searches(const SimCfg *c);
/* the run's search players on every cell (pair_fingerprint), 0 when none searches: the
 * journal's header keeps it (sfp=), and a resumed run refuses a journal of other searches */
uint32_t search_cells_fingerprint(const SimCfg *c, Cell *cells);
/* the command that reproduces the results (no --threads, --out, --resume, --shard) */
void cfg_command(const SimCfg *c, Buf *b);

/* games.csv: the header and one row per game played of every cell, in cell order */
void games_csv(const SimCfg *c, const Cell *cells, Buf *b);
/* all reports into dir (Markdown, JSON, CSV, SVG), written atomically */
int sim_report(const SimCfg *c, Cell *cells, const char *dir);

/* per-cell tallies over games [0, target) */
typedef struct {
  long n, w[4];                 /* w[1] French, w[2] Allied, w[3] draws, w[0] unfinished */
  long cond[COND_COUNT];
  double turns, rounds, passes, decisions, cards[2], bids[2], battles[2], lost[2], reduced[2];
  double vp[2], vp_sq[2], vp_elim[2], margin, margin_sd;
  long fell[V_COUNT];
  long timed;                   /* games whose CPU time the journal knows */
  double cpu;                   /* their CPU seconds in all (cost.md, never report.md) */
  double fall_turn[V_COUNT];    /* mean over games where it fell */
} CellStats;
void cell_stats(const Cell *cell, CellStats *st);

/* ---------------------------------------------------------------- game facts with their
 * intervals (facts.c) */
typedef struct { double s, s2; long n; } Mom;  /* sum, sum of squares, count */
/* the facts of FactStats.m: length, then French / Allied pairs (FT_X + side) */
enum {
  FT_TURNS, FT_ROUNDS, FT_DECISIONS, FT_PASSES,
  FT_CARDS, FT_BIDS = FT_CARDS + 2, FT_BATTLES = FT_BIDS + 2, FT_LOST = FT_BATTLES + 2,
  FT_REDUCED = FT_LOST + 2, FT_VP = FT_REDUCED + 2, FT_BIDS_WON = FT_VP + 2,
  FT_COUNT = FT_BIDS_WON + 2
};
typedef struct {
  long n;
  Mom m[FT_COUNT];              /* FT_BIDS_WON over the games that recorded it        */
  long held[V_COUNT];           /* games the French hold the square at the end        */
  long fell[V_COUNT];           /* games it ever turned French                        */
  Mom fall_turn[V_COUNT], fall_round[V_COUNT]; /* over those games                   */
  long bidw[BIDW_COUNT];        /* games by bid winner (bid_winner)                   */
  long fr_win_when[BIDW_COUNT]; /* of them, French wins                               */
  long bidw_won;                /* games the French or Allied bid winner won          */
} FactStats;
void fact_stats(const Cell *cl, FactStats *fs);
/* the mean of m with its Student-t 95% interval */
Interval mom_ci(const Mom *m);
/* the bid winner's win rate (Wilson) and the French win rate when the French won the bid minus
 * when the Allies did (Newcombe, independent groups) */
Interval bid_winner_rate(const FactStats *fs);
Interval bid_advantage(const FactStats *fs);
/* report.md's game facts, bid and victory-square sections of one scenario x pair */
void facts_md(Buf *b, const SimCfg *c, Cell *cells, int si, int pi, int is_long);
/* summary.json's "game_facts" of one cell into o */
struct cJSON;
void facts_json(struct cJSON *o, const Cell *cl, int is_long);

/* ---------------------------------------------------------------- one run (sim.c, batch.c,
 * journal.c) */
typedef struct {
  SimCfg cfg;
  Cell *cells;
  int nc;
  int rank, size;
  FILE *journal;
  int jerr;            /* errno of the first journal write that failed: the run stops      */
  long jlines, jfail_after;
  long beyond;         /* --resume: journalled games past --games (kept, not reported)     */
  /* progress */
  long total_planned, total_done;
  double t0, last_print;
  int tty;
} Run;

/* config.c */
int split_list(const char *s, char sep, char *out, int max, size_t len);
int list_variants(SimCfg *c);
int add_sweep(SimCfg *c);

/* journal.c */
void journal_line(Run *R, const Cell *cell, const GameFacts *f);
long journal_load(Run *R, const char *path, int check_seed);
long journal_load_dir(Run *R, const char *dir, int check_seed);
int is_journal_name(const char *n);
void journal_name(const Run *R, char *p, size_t len);
void remove_journals(const char *dir);
int check_out_dir(Run *R);
/* the header of the journal at path into *jc: 0, or -1 (unreadable, or not a sim journal) */
int journal_header(const char *path, SimCfg *jc);
/* every journal of dir that holds something (journal*.csv, not empty), with its path, name
 * and header (NULL when it has none), until fn returns nonzero; fn's last value, or -1 (errno
 * set) when dir cannot be opened */
typedef int (*JournalFn)(void *ctx, const char *path, const char *name, const SimCfg *hdr);
int journals_each(const char *dir, JournalFn fn, void *ctx);
/* 0 when the journal of header b belongs to the run of header a (its games go into the same
 * report); else 1 with what differs in why ("made with --seed 5, not 1815") */
int cfg_mismatch(const SimCfg *b, const SimCfg *a, char *why, size_t n);
/* merge's --out holds nothing of another run (or cfg.overwrite): 0, else 2 after one line */
int merge_check_out(const Run *R);
/* WATERLOO_JOURNAL_FAIL_AFTER (the tests' fault injection), -1 when unset */
long journal_fail_after(void);

/* batch.c */
void mark_identical(const SimCfg *c, Cell *cells);
/* R->cells: a cell for every scenario x pairing x variant, its scenario loaded once per
 * scenario x variant (sim_scen_load, errors named after cmd), the variants identical to base
 * marked; 0, or 2 after one line on stderr */
int cells_load(Run *R, const char *cmd);
int sim_run(Run *R);
/* sim_run without the reports (the rounds of balance): every game of the run played (resumed
 * from the journal with cfg.resume), on every MPI rank; *cpu0 the process CPU at its start;
 * 0 or the exit code */
int sim_play(Run *R, double *cpu0);
void run_free(Run *R);

#endif
