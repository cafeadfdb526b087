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
/* the command that reproduces the results (no --threads, --out, --resume, --shard) */
void cfg_command(const SimCfg *c, Buf *b);

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
