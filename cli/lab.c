/* The options of ./waterloo balance and ./waterloo worth (issue 24 items 3 and 4); the runs are
 * sim/balance.c and sim/worth.c (sim/lab.h). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../sim/lab.h"

static const char BALANCE_USAGE[] =
    "usage: waterloo balance --param NAME --range LO,HI [options]\n"
    "Which value of a parameter makes the game even: the value at which the French win rate\n"
    "is 50% (or --target), with its 95% interval and the curve (balance.md, balance.svg).\n"
    "Rounds of sweep points: round 1 spreads --points values over the range, each later\n"
    "round plays the whole values around the crossing of a logistic fit of every game so far\n"
    "and the ends of its interval.  Says so when no value in the range reaches the target.\n"
    "  --param NAME        a one-number parameter of docs/PARAMETERS.md (hand_fr, cdp_lhs ...)\n"
    "  --range LO,HI       the whole values searched\n"
    "  --target P          the French win rate sought, 0 < P < 1 (default 0.5)\n"
    "  --scenario S        short or long (default short)\n"
    "  --fix NAME=V[+...]  other parameters held at a value in every game\n"
    "  --players A,B       French and Allied player (default heuristic); A/B when a spec\n"
    "                      has commas\n"
    "  --games N           games a value a round (default 400)\n"
    "  --points K          values a round, 2..16 (default 5)\n"
    "  --rounds R          rounds, 1..16 (default 4)\n"
    "  --seed S            round r plays the seeds of S + r - 1 (default 1815)\n"
    "  --threads T         OpenMP threads (default: all); results do not depend on it\n"
    "  --out DIR           report folder (default results/balance-NAME); round r's games\n"
    "                      and journal in DIR/round-r\n"
    "  --resume            continue a killed run from its journals (same options)\n"
    "  --overwrite         discard the journals found in DIR\n"
    "  --quiet             no progress output\n"
    "Under mpirun (waterloo-mpi) each round's games are shared by the ranks as in sim.\n";

/* A,B or A/B or A (both sides) */
static int lab_players(const char *cmd, const char *s, char *pf, char *pa) {
  const char *cut = strchr(s, '/');
  if (!cut && !strchr(s, '=')) cut = strchr(s, ',');
  size_t la = cut ? (size_t)(cut - s) : strlen(s);
  const char *b = cut ? cut + 1 : s;
  if (la == 0 || la >= LAB_SPEC || !*b || strlen(b) >= LAB_SPEC) {
    fprintf(stderr, "waterloo %s: bad --players '%s' (A,B or A/B)\n", cmd, s);
    return 2;
  }
  memcpy(pf, s, la);
  pf[la] = 0;
  snprintf(pa, LAB_SPEC, "%s", b);
  return 0;
}

/* the options every lab command shares */
static int lab_common(int argc, char **argv, const char *cmd, long def_games, long *games,
                      uint64_t *seed, int *threads, int *flags, char *pf, char *pa) {
  const char *v;
  *seed = 1815;
  *games = def_games;
  if ((v = opt_get(argc, argv, "--games", NULL)) && opt_long(cmd, "--games", v, 1, 10000000, games)) return 2;
  if ((v = opt_get(argc, argv, "--seed", NULL)) && opt_u64(cmd, "--seed", v, seed)) return 2;
  if ((v = opt_get(argc, argv, "--threads", NULL)) && opt_int(cmd, "--threads", v, 1, CLI_MAX_THREADS, threads)) return 2;
  if (lab_players(cmd, opt_get(argc, argv, "--players", "heuristic"), pf, pa)) return 2;
  flags[0] = opt_has(argc, argv, "--resume");
  flags[1] = opt_has(argc, argv, "--overwrite");
  flags[2] = !opt_has(argc, argv, "--quiet");
  if (flags[0] && flags[1]) {
    fprintf(stderr, "waterloo %s: --resume and --overwrite contradict each other\n", cmd);
    return 2;
  }
  return 0;
}

/* --range LO,HI */
static int balance_range(const char *v, BalanceCfg *b) {
  char lo[32] = "", *comma = strchr(v, ',');
  if (comma && comma - v < 31) memcpy(lo, v, (size_t)(comma - v));
  if (!comma || num_int(lo, -1000, 1000, &b->lo) || num_int(comma + 1, -1000, 1000, &b->hi) ||
      b->hi <= b->lo) {
    fprintf(stderr, "waterloo balance: bad --range '%s' (LO,HI whole numbers, LO < HI)\n", v);
    return 2;
  }
  return 0;
}

static int balance_options(int argc, char **argv, BalanceCfg *b) {
  int flags[3];
  const char *v, *param = opt_get(argc, argv, "--param", NULL);
  if (lab_common(argc, argv, "balance", 400, &b->games, &b->seed, &b->threads, flags, b->pf, b->pa))
    return 2;
  b->resume = flags[0], b->overwrite = flags[1], b->progress = flags[2];
  if (!param || !param[0] || strlen(param) >= sizeof b->param || strchr(param, '=')) {
    fprintf(stderr, "waterloo balance: --param NAME is needed (a parameter of docs/PARAMETERS.md)\n");
    return 2;
  }
  snprintf(b->param, sizeof b->param, "%s", param);
  if (!(v = opt_get(argc, argv, "--range", NULL))) {
    fprintf(stderr, "waterloo balance: --range LO,HI is needed\n");
    return 2;
  }
  if (balance_range(v, b)) return 2;
  b->target = 0.5;
  b->points = 5;
  b->rounds = 4;
  if ((v = opt_get(argc, argv, "--target", NULL)) && opt_double("balance", "--target", v, 0.001, 0.999, &b->target)) return 2;
  if ((v = opt_get(argc, argv, "--points", NULL)) && opt_int("balance", "--points", v, 2, 16, &b->points)) return 2;
  if ((v = opt_get(argc, argv, "--rounds", NULL)) && opt_int("balance", "--rounds", v, 1, LAB_MAX_ROUNDS, &b->rounds)) return 2;
  v = opt_get(argc, argv, "--scenario", "short");
  if (strcmp(v, "short") && strcmp(v, "long")) {
    fprintf(stderr, "waterloo balance: --scenario is short or long, not '%s'\n", v);
    return 2;
  }
  snprintf(b->scen, sizeof b->scen, "%s", v);
  v = opt_get(argc, argv, "--fix", "");
  if (strlen(v) >= sizeof b->fix || strchr(v, ',') || (v[0] && !strchr(v, '='))) {
    fprintf(stderr, "waterloo balance: bad --fix '%s' (NAME=V[+NAME=V])\n", v);
    return 2;
  }
  snprintf(b->fix, sizeof b->fix, "%s", v);
  snprintf(b->out, sizeof b->out, "%s", opt_get(argc, argv, "--out", ""));
  if (!b->out[0]) snprintf(b->out, sizeof b->out, "results/balance-%s", b->param);
  return 0;
}

int cmd_balance(int argc, char **argv) {
  int rc = cli_args(argc, argv, "balance",
                    "--param --range --target --scenario --fix --players --games --points --rounds "
                    "--seed --threads --out --resume! --overwrite! --quiet!",
                    BALANCE_USAGE);
  if (rc >= 0) return rc;
  BalanceCfg *b = calloc(1, sizeof *b);
  if (!b) return 2;
  rc = balance_options(argc, argv, b);
  if (!rc) rc = balance_run(b);
  free(b);
  return rc;
}

static const char WORTH_USAGE[] =
    "usage: waterloo worth [options]\n"
    "What each rule is worth (restricted play): for each card ability, the bid and each\n"
    "castle's damage points, the change of a side's win rate when that side may not use it\n"
    "(ban_french / ban_allied, docs/PARAMETERS.md), paired on the same seeds against the full\n"
    "rules, with Holm-adjusted intervals: worth.md, worth.svg, and sim's report.md of the run.\n"
    "  --scenario LIST     short,long (default both)\n"
    "  --players A,B       French and Allied player (default heuristic); A/B when a spec\n"
    "                      has commas\n"
    "  --games N           games a row (default 1000)\n"
    "  --only LIST         the restrictions measured (default all): artillery, command,\n"
    "                      charge, force-charge, elite, rally, health, bid, cdp-hougoumont,\n"
    "                      cdp-lhs, cdp-frischermont\n"
    "  --sides S           french, allied or both (default both): whose play is restricted\n"
    "  --seed S            run seed (default 1815)\n"
    "  --threads T         OpenMP threads (default: all); results do not depend on it\n"
    "  --out DIR           report folder (default results/worth)\n"
    "  --resume            continue a killed run from DIR's journal (same options)\n"
    "  --overwrite         discard the journal and reports found in DIR\n"
    "  --quiet             no progress output\n";

/* --scenario, --only, --sides */
static int worth_lists(int argc, char **argv, WorthCfg *w) {
  char buf[256], *save = NULL;
  snprintf(buf, sizeof buf, "%s", opt_get(argc, argv, "--scenario", "short,long"));
  for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if ((strcmp(t, "short") && strcmp(t, "long")) || w->nscen >= 2 ||
        (w->nscen && !strcmp(w->scen[0], t))) {
      fprintf(stderr, "waterloo worth: bad --scenario (short, long or short,long)\n");
      return 2;
    }
    snprintf(w->scen[w->nscen++], sizeof w->scen[0], "%s", t);
  }
  snprintf(buf, sizeof buf, "%s", opt_get(argc, argv, "--only", ""));
  for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    int b = ban_bit(t);
    if (b < 0) {
      fprintf(stderr, "waterloo worth: --only: unknown restriction '%s' (see --help)\n", t);
      return 2;
    }
    w->bans |= 1 << b;
  }
  const char *s = opt_get(argc, argv, "--sides", "both");
  w->sides = !strcmp(s, "french") ? 1 : !strcmp(s, "allied") ? 2 : !strcmp(s, "both") ? 3 : 0;
  if (!w->sides || w->nscen == 0) {
    fprintf(stderr, "waterloo worth: bad --%s\n", w->sides ? "scenario" : "sides (french, allied, both)");
    return 2;
  }
  return 0;
}

int cmd_worth(int argc, char **argv) {
  int rc = cli_args(argc, argv, "worth",
                    "--scenario --players --games --only --sides --seed --threads --out "
                    "--resume! --overwrite! --quiet!",
                    WORTH_USAGE);
  if (rc >= 0) return rc;
  WorthCfg *w = calloc(1, sizeof *w);
  if (!w) return 2;
  int flags[3];
  rc = lab_common(argc, argv, "worth", 1000, &w->games, &w->seed, &w->threads, flags, w->pf, w->pa);
  if (!rc) rc = worth_lists(argc, argv, w);
  if (!rc) {
    w->resume = flags[0], w->overwrite = flags[1], w->progress = flags[2];
    snprintf(w->out, sizeof w->out, "%s", opt_get(argc, argv, "--out", "results/worth"));
    rc = worth_run(w);
  }
  free(w);
  return rc;
}
