/* `waterloo review`: the decisions of a saved game searched again (sim/review.h).  The report
 * files are written by sim/review_report.c. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "review.h"
#include "review_int.h"
#include "sim.h"
#include "../ai/review.h"
#include "../engine/util.h"

const char *mark_name(int mark) {
  static const char *n[] = {"", "inaccuracy", "mistake", "blunder"};
  return mark >= 0 && mark <= MARK_BLUNDER ? n[mark] : "?";
}

int review_mark(double loss, double se) {
  if (loss <= REVIEW_NOISE_Z * se) return MARK_NONE;
  return loss >= REVIEW_BLUNDER ? MARK_BLUNDER : loss >= REVIEW_MISTAKE ? MARK_MISTAKE
         : loss >= REVIEW_INACCURACY ? MARK_INACCURACY : MARK_NONE;
}

const char *group_name(int g) {
  static const char *n[G_COUNT] = {"cards", "movement", "battles", "bids", "battle cards"};
  return g >= 0 && g < G_COUNT ? n[g] : "?";
}

int phase_group(int phase) {
  switch (phase) {
  case PH_BID: return G_BID;
  case PH_MOVE: case PH_EVADE: case PH_LEADER: return G_MOVE;
  case PH_DECLARE: case PH_B_FIRE: case PH_B_LOSS: case PH_B_ADVANCE: case PH_B_ATTLOSS:
    return G_BATTLE;
  case PH_B_ATTCARDS: case PH_B_DEFCARDS: return G_BCARDS;
  default: return G_CARDS;
  }
}

static int same_action(Action a, Action b) {
  return a.t == b.t && a.a == b.a && a.b == b.b && a.c == b.c;
}

/* the loss of the played action against the search's choice c[0]: its own statistics when it
 * has enough visits, else both judged on the same worlds */
static void review_loss(const Scen *sc, const State *s, const Candidate *c, int n, int evals,
                        int judge, uint64_t seed, RvDec *d) {
  int k = -1;
  for (int i = 0; i < n; i++)
    if (same_action(c[i].a, d->played)) k = i;
  if (k == 0) {
    d->how = HOW_SAME;
    d->loss = 0;
    d->se = review_se(c[0].winrate, c[0].visits);
  } else if (k > 0 && c[k].visits >= REVIEW_MIN_VISITS && judge == REVIEW_JUDGE_WALKS) {
    d->how = HOW_ROOT;
    d->loss = c[0].winrate - c[k].winrate;
    double a = review_se(c[0].winrate, c[0].visits), b = review_se(c[k].winrate, c[k].visits);
    d->se = sqrt(a * a + b * b);
  } else {
    d->how = HOW_PAIRED;
    Judge *j = judge == REVIEW_JUDGE_END ? judge_new_end(sc) : judge_new(sc);
    d->loss = j ? judge_pair(j, s, c[0].a, d->played, evals, splitmix64(seed ^ 0x6a09e667ULL),
                             &d->se)
                : 0;
    judge_free(j);
  }
  d->mark = review_mark(d->loss, d->se);
}

int review_decision(const Scen *sc, const char *spec, const State *s, Action played, int evals,
                    int judge, uint64_t seed, RvDec *d, char *err, size_t errlen) {
  Player *p = player_new(sc, spec, splitmix64(seed), err, errlen);
  if (!p) return -1;
  Candidate c[64];
  int n = player_analyze(p, s, c, 64);
  player_free(p);
  ActList L;
  d->nlegal = gs_legal(sc, s, &L);
  d->side = gs_decider(s);
  d->phase = s->turn.phase;
  d->turn = s->turn.number;
  d->played = played;
  if (n < 1) {
    c[0].a = played;
    c[0].winrate = 0.5;
    c[0].visits = 0;
    n = 1;
  }
  d->best = c[0].a;
  d->wp = c[0].winrate;
  review_loss(sc, s, c, n, evals, judge, seed, d);
  /* the precision of the journal, so that a resumed review is the same to the last digit */
  d->wp = round(d->wp * 1e6) / 1e6;
  d->loss = round(d->loss * 1e6) / 1e6;
  d->se = round(d->se * 1e6) / 1e6;
  d->mark = review_mark(d->loss, d->se);
  d->done = 1;
  return 0;
}

/* ---------------------------------------------------------------- the run */
/* the fingerprint a journal line must carry to be reused: the game, the judge (its name and how
 * it plays: spec_fingerprint), the seed, the rules and the fitted evaluation */
static uint32_t review_fp(const Rv *R) {
  uint64_t h = hash_fnv1a(&R->pos[0], sizeof(State), 0);
  for (int i = 0; i < R->rec.n; i++) h = hash_fnv1a(&R->rec.acts[i], sizeof(Action), h);
  h = hash_fnv1a(R->o->spec, strlen(R->o->spec), h);
  h = hash_fnv1a_word(h, R->o->seed);
  h = hash_fnv1a_word(h, (uint64_t)R->o->evals);
  if (R->o->judge) h = hash_fnv1a_word(h, (uint64_t)R->o->judge); /* the journals of before stay good */
  h = hash_fnv1a_word(h, play_fingerprint(R->sc));
  h = hash_fnv1a_word(h, spec_fingerprint(R->sc, R->o->spec));
  return (uint32_t)(h ^ (h >> 32));
}

/* the sides reviewed.  A finished game: those asked for (both by default).  A game in
 * progress shows a side only what that side may see (docs/RULINGS.md, Information), as the
 * page's replay does: its decisions are judged from the side's own observation, but a report on
 * the other side's would name its hidden cards; so only the side a person plays in it (its
 * saved seats) is reviewed, and the review is refused when the save does not say who that is or
 * people play both sides (each may not see the other's report).  0, or 2 with one line. */
static int review_sides(Rv *R) {
  const ReviewOpts *o = R->o;
  R->sides = o->sides ? o->sides : 3;
  if (gs_over(&R->fin)) return 0;
  int people = gamerec_people(R->sc, &R->rec);
  const char *why = people <= 0 ? "its save does not say which side a person plays"
                    : people == 3 ? "people play both sides, and neither may see the other's"
                                  : NULL;
  if (why) {
    fprintf(stderr, "review: %s: the game is not over and %s: it is reviewed when it is over\n",
            o->save, why);
    return 2;
  }
  if (o->sides && o->sides != people) {
    fprintf(stderr, "review: %s: the game is not over: only the %s side, the one its person plays, "
                    "is reviewed until it ends (--side %s)\n",
            o->save, side_name(people == 1 ? FRENCH : ALLIED), people == 1 ? "french" : "allied");
    return 2;
  }
  R->sides = people;
  return 0;
}

/* the game, its positions and the decisions to review */
static int review_load(Rv *R) {
  char err[1024];
  R->sc = malloc(sizeof *R->sc);
  if (!R->sc) { fprintf(stderr, "review: out of memory\n"); return 2; }
  if (game_load(R->sc, scen_default_dir(), R->o->save, &R->rec, &R->fin, err, sizeof err)) {
    fprintf(stderr, "review: %s\n", err);
    return 2;
  }
  if (review_sides(R)) return 2;
  R->pos = malloc(sizeof(State) * (size_t)(R->rec.n + 1));
  R->d = calloc((size_t)R->rec.n + 1, sizeof *R->d);
  if (!R->pos || !R->d) { fprintf(stderr, "review: out of memory\n"); return 2; }
  gamerec_position(R->sc, &R->rec, 0, &R->pos[0]);
  ActList L;
  for (int i = 0; i < R->rec.n; i++) {
    const State *s = &R->pos[i];
    R->pos[i + 1] = *s;
    gs_apply(R->sc, &R->pos[i + 1], R->rec.acts[i]);
    if (!(R->sides & (1 << gs_decider(s)))) continue;
    if (gs_legal(R->sc, s, &L) <= 1) { R->forced[gs_decider(s)]++; continue; }
    R->d[R->nd++].idx = i;
  }
  R->fp = review_fp(R);
  return 0;
}

/* a journal line: D fp idx best-key wp loss se how ok (tab-separated; the closing "ok" tells
 * a whole line from a torn one) */
static void journal_read(Rv *R) {
  FILE *f = fopen(R->jpath, "r");
  if (!f) return;
  char line[256];
  while (fgets(line, sizeof line, f)) {
    size_t len = strlen(line);
    unsigned fp, key;
    int idx, how, n = 0;
    double wp, loss, se;
    if (sscanf(line, "D\t%x\t%d\t%x\t%lf\t%lf\t%lf\t%d\tok\n%n", &fp, &idx, &key, &wp, &loss, &se,
               &how, &n) != 7 || (size_t)n != len) {
      if (strspn(line, " \t\n") != len) R->jbad++;
      continue;
    }
    if (fp != R->fp) continue;
    for (int k = 0; k < R->nd; k++) {
      RvDec *d = &R->d[k];
      if (d->idx != idx || d->done) continue;
      const State *s = &R->pos[idx];
      Action best = {.t = (uint8_t)(key >> 24), .a = (uint8_t)(key >> 16),
                     .b = (uint8_t)(key >> 8), .c = (uint8_t)key};
      if (!gs_is_legal(R->sc, s, best) || how < HOW_SAME || how > HOW_PAIRED) { R->jbad++; break; }
      ActList L;
      *d = (RvDec){.idx = idx, .side = gs_decider(s), .phase = s->turn.phase,
                   .turn = s->turn.number, .nlegal = gs_legal(R->sc, s, &L),
                   .played = R->rec.acts[idx], .best = best, .wp = wp, .loss = loss, .se = se,
                   .how = how, .mark = review_mark(loss, se), .done = 1};
      R->reused++;
      break;
    }
  }
  fclose(f);
}

static void journal_write(Rv *R, const RvDec *d) {
  if (!R->jf || R->werr) return;
  Action b = d->best;
  uint32_t key = ((uint32_t)b.t << 24) | ((uint32_t)b.a << 16) | ((uint32_t)b.b << 8) | b.c;
  if (fprintf(R->jf, "D\t%08x\t%d\t%08x\t%.6f\t%.6f\t%.6f\t%d\tok\n", R->fp, d->idx, key, d->wp,
              d->loss, d->se, d->how) < 0 || fflush(R->jf))
    R->werr = errno ? errno : EIO;
}

/* the output folder and the journal, checked before the first search */
static int review_open(Rv *R) {
  const ReviewOpts *o = R->o;
  if (!o->out) return 0;
  char path[1100];
  if (mkdir_p(o->out)) { fprintf(stderr, "review: cannot create %s: %s\n", o->out, strerror(errno)); return 2; }
  snprintf(path, sizeof path, "%s/review.md", o->out);
  if (can_create(path)) { fprintf(stderr, "review: cannot write in %s: %s\n", o->out, strerror(errno)); return 2; }
  snprintf(R->jpath, sizeof R->jpath, "%s/review.journal", o->out);
  struct stat st;
  off_t size = stat(R->jpath, &st) == 0 ? st.st_size : 0;
  if (!o->resume && !o->overwrite && size > 0) {
    fprintf(stderr, "review: %s holds an earlier review: add --resume to reuse it, or --overwrite "
                    "to discard it\n", R->jpath);
    return 2;
  }
  if (o->resume) journal_read(R);
  R->jf = fopen(R->jpath, o->resume ? "a" : "w");
  if (!R->jf || (o->resume && size > 0 && (fprintf(R->jf, "\n") < 0 || fflush(R->jf)))) {
    fprintf(stderr, "review: cannot write %s: %s\n", R->jpath, strerror(errno));
    return 2;
  }
  return 0;
}

static void review_progress(const Rv *R, long done, int last) {
  if (R->o->quiet) return;
  int tty = isatty(2);
  if (!tty && !last && done % 25) return;
  fprintf(stderr, "%sreview: %ld/%d decisions (%ld from the journal), %.1f CPU s%s", tty ? "\r" : "",
          done, R->nd, R->reused, clock_cpu() - R->cpu0, tty && !last ? "" : "\n");
}

/* the decisions not in the journal, over the threads */
static int review_search(Rv *R) {
  int T = R->o->threads > 0 ? R->o->threads : omp_get_max_threads();
  long done = R->reused;
  int failed = 0;
  char err[300] = "";
#pragma omp parallel for num_threads(T) schedule(dynamic, 1)
  for (int k = 0; k < R->nd; k++) {
    RvDec *d = &R->d[k];
    if (d->done || __atomic_load_n(&failed, __ATOMIC_RELAXED)) continue;
    char e[300];
    int idx = d->idx;
    uint64_t seed = splitmix64(R->o->seed ^ splitmix64((uint64_t)idx + 1));
    int rc = review_decision(R->sc, R->o->spec, &R->pos[idx], R->rec.acts[idx], R->o->evals,
                             R->o->judge, seed, d, e, sizeof e);
    d->idx = idx;
#pragma omp critical(review_journal)
    {
      if (rc) { failed = 1; snprintf(err, sizeof err, "%s", e); }
      else { journal_write(R, d); review_progress(R, ++done, 0); }
    }
  }
  if (failed) { fprintf(stderr, "review: player %s: %s\n", R->o->spec, err); return 2; }
  if (R->werr) {
    fprintf(stderr, "review: cannot append to %s: %s; the decisions so far are kept (rerun with "
                    "--resume)\n", R->jpath, strerror(R->werr));
    return 1;
  }
  review_progress(R, done, 1);
  return 0;
}

static void review_free(Rv *R) {
  if (R->jf) fclose(R->jf);
  gamerec_free(&R->rec);
  free(R->pos);
  free(R->d);
  free(R->sc);
}

int review_run(const ReviewOpts *o) {
  Rv R;
  memset(&R, 0, sizeof R);
  R.o = o;
  R.cpu0 = clock_cpu();
  int rc = review_load(&R);
  if (!rc) rc = review_open(&R);
  if (!rc) rc = review_search(&R);
  if (!rc) rc = review_write(&R);
  review_free(&R);
  return rc;
}
