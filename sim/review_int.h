/* Internals shared by sim/review.c (the run) and sim/review_report.c (its files). */
#ifndef WATERLOO_SIM_REVIEW_INT_H
#define WATERLOO_SIM_REVIEW_INT_H
#include <stdio.h>
#include "review.h"

typedef struct {
  const ReviewOpts *o;
  Scen *sc;
  GameRec rec;
  State fin;
  State *pos;          /* pos[i]: the position before action i (rec.n + 1 of them)  */
  RvDec *d;            /* the decisions reviewed, in game order                      */
  int nd;
  int sides;           /* bit per side reviewed: o->sides, or its default (review_sides)   */
  long forced[2];      /* decisions with one legal action (not searched)             */
  uint32_t fp;         /* the journal fingerprint                                   */
  FILE *jf;
  char jpath[1100];
  long reused, jbad;
  int werr;
  double cpu0;         /* process CPU seconds at the start                           */
} Rv;

/* DIR/review.md, DIR/winprob.svg, DIR/review.json (or the Markdown on stdout without DIR) */
int review_write(const Rv *R);
#endif
