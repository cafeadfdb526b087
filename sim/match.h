/* Mirrored matches and their journal: the machinery of `strength` (match.c), shared with
 * `scaling` (scaling.c).  Internal to sim/. */
#ifndef WATERLOO_MATCH_H
#define WATERLOO_MATCH_H
#include "sim.h"

typedef struct {
  long games, w, l, d;         /* from A's point of view                  */
  long a_fr_games, a_fr_wins;  /* A playing French                        */
  long a_al_games, a_al_wins;  /* A playing Allied                        */
  long fr_wins, al_wins, draws;
  double seconds;
  double cpu;                  /* CPU seconds of the process while the games ran (getrusage) */
  int cpu_est;                 /* 1: cpu is wall time x threads (a journal line written before
                                  the CPU time was measured)                              */
  /* mirrored pairs: penta[k] = seeds on which A scored k/2 points over its two games (the
   * pentanomial counts); npenta = 0: not recorded (an old journal line) */
  long penta[5];
  /* paired margin: per seed, (French margin when A was French - French margin when B was
   * French) / 2 -- the seed's and the side's effect cancel.  The French margin is VP(French) -
   * VP(Allied) in the long game, objectives (castles + Mont St. Jean) held by the French at the
   * end in the short game.  mpairs = 0: not recorded (an old journal line). */
  long mpairs;
  double msum, msum2;
  double cpu_a, cpu_b;         /* thread CPU seconds of A's and of B's decisions over cpu_games
                                  games (journalled; 0 games: an older journal line)      */
  long cpu_games;
} MatchRes;

/* "objectives" (short game) or "VP" (long): the unit of the paired margin */
const char *margin_unit(const Scen *sc);
/* the 95% Student-t half-width of the mean paired margin: inf with one seed, NAN when every
 * seed gave the same value at a small sample (no spread seen: the interval is unknown, not 0) */
double margin_half(const MatchRes *r);
/* "0-1-5-2-0", or "—" when the pairs were not counted */
void fmt_penta(char *buf, size_t len, const MatchRes *r);
/* 1 when every seed of r was counted as a pair */
int has_penta(const MatchRes *r);

/* called under a lock whenever the finished seeds of a match form a longer prefix: r holds the
 * games of seeds [0, seeds) (with what *r held before the call) */
typedef int (*MatchPrefixFn)(void *ctx, long seeds, const MatchRes *r);

/* plays seeds [from, to): game j of the range has seed index from + j/2; even j: A French,
 * odd j: B French (sides swapped on the same seed).  Adds to *r; on_prefix (may be NULL) sees
 * each longer prefix, the last the whole range, whose times *r then keeps; a non-zero return
 * stops the match.  0, or -1 with err */
int match_range(const Scen *sc, const char *A, const char *B, long from, long to,
                uint64_t seed, int threads, MatchRes *r, int progress, MatchPrefixFn on_prefix,
                void *ctx, char *err, size_t errlen);

/* ---------------------------------------------------------------- the journal
 * OUT.journal: one line per finished prefix of a match's seeds (the last is the whole match):
 * a killed run loses only the games under way.  A shorter match is the start of a
 * longer one (seeds 0, 1, ... in order), so a longer match plays only the seeds the shorter
 * did not; a match of another play fingerprint is never reused. */
typedef struct {
  char scen[16], a[128], b[128];
  long games;
  uint64_t seed;
  uint32_t fp;
  uint32_t sfp;             /* the pair's search fingerprint (pair_fingerprint); 0: no search,
                             * or a line from before it was kept (taken as this build's) */
  MatchRes r;
} JRec;

typedef struct {
  const char *cmd;          /* the command, for messages ("strength")  */
  char path[1100];
  JRec *jr;                 /* the matches read (--resume) and written */
  int njr;
  FILE *f;                  /* the journal, appended to                */
  uint64_t seed;
  int threads;
} MatchJournal;

/* out.journal next to the table out: the directory made, an existing journal kept unless
 * resume or overwrite, out checked for writing, the journal read (resume) and opened for
 * appending.  0, or 2 after one line on stderr */
int mjournal_open(MatchJournal *J, const char *cmd, const char *out, int resume, int overwrite);
void mjournal_close(MatchJournal *J);
/* the match of a vs b (ng games, even) in scenario scen (fingerprint fp): from the journal and
 * the seeds it lacks played and journalled.  0 with *r filled; 1 when it could not be played
 * (err says why); 2 when the journal cannot be written (said on stderr) */
int mjournal_match(MatchJournal *J, const char *scen, const Scen *sc, uint32_t fp, const char *a,
                   const char *b, long ng, MatchRes *r, char *err, size_t errlen);
#endif
