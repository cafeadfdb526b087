/* One game between two players, watching the states to collect the game facts. */
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "../engine/util.h"
#include "../engine/driver.h"

#define MAX_GAME_ACTIONS 400000


uint64_t sim_player_seed(uint64_t seed, uint64_t index, int side) {
  return splitmix64(splitmix64(splitmix64(seed ^ 0x57617465726c6f6fULL) + index) + (uint64_t)side + 1);
}

const char *cond_name(int cond) {
  switch (cond) {
  case COND_3CASTLES: return "3-castles";
  case COND_2CASTLES_MSJ: return "2-castles+msj";
  case COND_HOLD: return "allied-hold";
  case COND_VP_FR: return "vp-french";
  case COND_VP_AL: return "vp-allied";
  case COND_VP_DRAW: return "vp-draw";
  default: return "unfinished";
  }
}

static int is_card_play(int t) {
  return t == A_PLAY_MOVE || t == A_ARTY || t == A_CHARGE || t == A_FORCE || t == A_RALLY ||
         t == A_RESTORE || t == A_HEALTH || t == A_BCARD;
}

int game_cond(const Scen *sc, const State *s) {
  if (!gs_over(s)) return COND_NONE;
  if (sc->scenario == SC_LONG)
    return s->score.result == RES_FRENCH   ? COND_VP_FR
           : s->score.result == RES_ALLIED ? COND_VP_AL
           : s->score.result == RES_DRAW   ? COND_VP_DRAW
                                           : COND_NONE;
  int castles = 0;
  for (int c = 0; c < MAX_CASTLES; c++)
    if (s->turn.owner & (1u << (V_HOUGOUMONT + c))) castles++;
  if (s->score.result == RES_FRENCH) return castles >= MAX_CASTLES ? COND_3CASTLES : COND_2CASTLES_MSJ;
  return s->score.result == RES_ALLIED ? COND_HOLD : COND_NONE;
}

static void finish_facts(const Scen *sc, const State *s, GameFacts *f) {
  f->result = s->score.result;
  f->turns = s->turn.number;
  f->owner = s->turn.owner;
  for (int u = 0; u < sc->nunits; u++) {
    int side = unit_side(sc, u);
    if (s->units.sq[u] == SQ_DEAD) f->lost[side]++;
    else if (s->units.flag[u] & UF_REDUCED) f->reduced[side]++;
  }
  if (sc->scenario == SC_LONG) {
    int vp[2] = {0, 0};
    gs_score(sc, s, vp);
    for (int i = 0; i < 2; i++) {
      f->vp[i] = (int16_t)vp[i];
      f->vp_elim[i] = (int16_t)s->score.elim_vp[i];
      f->vp_sq[i] = (int16_t)(vp[i] - s->score.elim_vp[i]);
    }
  }
  f->cond = (uint8_t)game_cond(sc, s);
  if (!gs_over(s)) f->result = 0;
}

/* the simulator's hooks on the game driver: log, record and game facts */
typedef struct {
  const Scen *sc;
  Player *pl[2];
  GameFacts *f;
  FILE *log;
  GameRec *rec;
  int last_turn, last_active, round_no;
} RunCtx;

static void log_headers(RunCtx *r, const State *s) {
  if (s->turn.phase == PH_ROUND &&
      (s->turn.number != r->last_turn || s->turn.active != r->last_active)) {
    if (s->turn.number != r->last_turn) {
      r->round_no = 0;
      if (r->log) fprintf(r->log, "== Turn %d ==\n", s->turn.number);
    }
    r->round_no++;
    r->f->rounds++;
    r->last_turn = s->turn.number;
    r->last_active = s->turn.active;
    if (r->log)
      fprintf(r->log, "-- Turn %d round %d: %s --\n", s->turn.number, r->round_no,
              side_name(s->turn.active));
  } else if (r->log && s->turn.number != r->last_turn && s->turn.phase == PH_BID) {
    /* bidding happens before the first round of a turn */
    fprintf(r->log, "== Turn %d ==\n", s->turn.number);
    r->last_turn = s->turn.number;
    r->last_active = -1;
    r->round_no = 0;
  }
}

static Action run_choose(void *ctx, const State *s, const ActList *L) {
  (void)L;
  RunCtx *r = ctx;
  log_headers(r, s);
  int side = gs_decider(s) ? ALLIED : FRENCH;
  double c0 = clock_thread_cpu();
  Action a = player_act(r->pl[side], s);
  r->f->cpu_side[side] += (float)(clock_thread_cpu() - c0);
  if (r->log) {
    char buf[160];
    action_format(r->sc, s, a, buf, sizeof buf);
    fprintf(r->log, "  %-7s %s\n", side_name(side), buf);
  }
  return a;
}

static void run_after(void *ctx, const State *before, Action a, const State *s) {
  RunCtx *r = ctx;
  GameFacts *f = r->f;
  int side = gs_decider(before) ? ALLIED : FRENCH;
  if (is_card_play(a.t)) f->cards[side]++;
  if (a.t == A_BID && a.bid.card != CARD_NONE) f->bids[side]++;
  if (a.t == A_DECLARE) f->battles[side]++;
  if (a.t == A_END && before->turn.ncards == 0) f->passes++;
  if (r->rec) gamerec_push(r->rec, a);
  if (r->log) {
    char ev[512];
    if (gs_event_text(r->sc, before, s, ev, sizeof ev)) fprintf(r->log, "          %s\n", ev);
  }
  f->decisions++;
  f->decisions_side[side]++;
  /* the second bid resolves the bid; who goes first is then turn.first */
  if (before->turn.phase == PH_BID && s->turn.phase != PH_BID && s->turn.first < 2)
    f->bids_won[s->turn.first]++;
  uint8_t newly = (uint8_t)(s->turn.owner & ~before->turn.owner);
  for (int v = 0; v < V_COUNT; v++)
    if ((newly & (1u << v)) && !f->fall[v]) {
      f->fall[v] = s->turn.number ? s->turn.number : 1;
      f->fall_round[v] = f->rounds ? f->rounds : 1;
    }
}

int bid_winner(const GameFacts *f) {
  if (!f->more) return BIDW_UNKNOWN;
  if (f->bids_won[0] == f->bids_won[1]) return f->bids_won[0] ? BIDW_SPLIT : BIDW_NONE;
  return f->bids_won[0] > f->bids_won[1] ? BIDW_FRENCH : BIDW_ALLIED;
}

const char *bid_winner_name(int bw) {
  static const char *n[BIDW_COUNT] = {"none", "french", "allied", "split", "unknown"};
  return bw >= 0 && bw < BIDW_COUNT ? n[bw] : "unknown";
}

int run_game(const Scen *sc, Player *fr, Player *al, uint64_t seed, uint64_t index,
             GameFacts *f, FILE *log, GameRec *rec, State *final) {
  State s;
  gs_init(sc, &s, seed, index);
  memset(f, 0, sizeof *f);
  f->index = (int32_t)index;
  f->more = 1;
  RunCtx r = {.sc = sc, .pl = {fr, al}, .f = f, .log = log, .rec = rec, .last_turn = -1, .last_active = -1};
  GameHooks hk = {.choose = run_choose, .after = run_after, .ctx = &r, .max_actions = MAX_GAME_ACTIONS};
  int rc = game_run(sc, &s, &hk) == GAME_LIMIT ? -1 : 0;
  finish_facts(sc, &s, f);
  if (log) {
    if (sc->scenario == SC_LONG)
      fprintf(log, "== Result: %s (%s) VP French %d (squares %d, eliminated %d), Allied %d "
                   "(squares %d, eliminated %d); %u decisions ==\n",
              result_name(f->result),
              cond_name(f->cond), f->vp[0], f->vp_sq[0], f->vp_elim[0], f->vp[1], f->vp_sq[1],
              f->vp_elim[1], f->decisions);
    else
      fprintf(log, "== Result: %s (%s); %u decisions ==\n",
              result_name(f->result),
              cond_name(f->cond), f->decisions);
  }
  if (final) *final = s;
  return rc;
}

int run_game_specs(const Scen *sc, const char *spec_fr, const char *spec_al, uint64_t seed,
                   uint64_t index, GameFacts *f, FILE *log, char *err, size_t errlen) {
  Player *fr = player_new(sc, spec_fr, sim_player_seed(seed, index, FRENCH), err, errlen);
  if (!fr) return -2;
  Player *al = player_new(sc, spec_al, sim_player_seed(seed, index, ALLIED), err, errlen);
  if (!al) { player_free(fr); return -2; }
  int rc = run_game(sc, fr, al, seed, index, f, log, NULL, NULL);
  player_free(fr);
  player_free(al);
  return rc;
}

uint32_t facts_hash(uint32_t h, const Scen *sc, const char *spec, uint64_t index) {
  GameFacts f;
  char err[256];
  if (run_game_specs(sc, spec, spec, 1815, index, &f, NULL, err, sizeof err)) memset(&f, 0xff, sizeof f);
  const uint8_t *p = (const uint8_t *)&f;
  for (size_t i = 0; i < FACTS_RESULT_BYTES; i++) h = (h ^ p[i]) * 16777619u;
  return h;
}

uint32_t scen_fingerprint(const Scen *sc) {
  uint32_t h = 2166136261u;
  for (int k = 0; k < 2; k++) h = facts_hash(h, sc, "random", (uint64_t)k);
  return h;
}

uint32_t fit_hash(uint32_t h, const Scen *sc) {
  uint64_t e = fit_weights_fingerprint(sc);
  return (h ^ (uint32_t)e ^ (uint32_t)(e >> 32)) * 16777619u;
}

/* the signature's policy: FNV-1a over every legal list, then a uniform choice */
typedef struct { Rng pol; uint64_t h; } SigCtx;
static Action sig_choose(void *ctx, const State *s, const ActList *L) {
  SigCtx *c = ctx;
  for (int i = 0; i < L->n; i++) {
    uint32_t w;
    memcpy(&w, &L->a[i], 4);
    c->h = hash_fnv1a_word(c->h, w);
  }
  return L->a[rng_below(&c->pol, (uint32_t)L->n)];
}

uint64_t rules_signature(const Scen *sc, int games, long *legal_total, long *decisions) {
  SigCtx c = {.h = FNV1A_OFFSET};
  GameHooks hk = {.choose = sig_choose, .ctx = &c, .want_legal = 1, .legal_total = legal_total};
  for (int g = 0; g < games; g++) {
    State s;
    rng_seed(&c.pol, 77, (uint64_t)g);
    gs_init(sc, &s, 12345, (uint64_t)g);
    *decisions += game_run(sc, &s, &hk);
    c.h = hash_fnv1a_word(c.h, s.score.result);
  }
  return c.h;
}

/* the rules' behaviour (rules_signature: the legal lists of RULES_SIG_GAMES random games, which
 * reach far more of the rules than the three games after it), the data, the heuristic and the
 * fitted evaluation: a change of any moves the fingerprint, so a report of another build is
 * never taken for today's */
uint32_t play_fingerprint(const Scen *sc) {
  long lt = 0, nd = 0;
  uint64_t r = rules_signature(sc, RULES_SIG_GAMES, &lt, &nd);
  uint32_t h = (scen_fingerprint(sc) ^ (uint32_t)r ^ (uint32_t)(r >> 32)) * 16777619u;
  return fit_hash(facts_hash(h, sc, "heuristic", 0), sc);
}

static uint32_t hash_bytes(uint32_t h, const void *p, size_t n) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 16777619u;
  return h;
}

/* a probe's first decisions of game 0 (seed 1815) on sc: each action and its candidates'
 * visits and win rates (a change anywhere in the search moves one of them) */
static uint32_t probe_hash(uint32_t h, const Scen *sc, const char *probe) {
  char err[256];
  Player *p = player_new(sc, probe, 1815, err, sizeof err);
  if (!p) return (h ^ 0xffu) * 16777619u;
  State s;
  gs_init(sc, &s, 1815, 0);
  for (int d = 0; d < 3 && !gs_over(&s); d++) {
    Candidate c[8];
    int n = player_analyze(p, &s, c, 8);
    Action a = player_act(p, &s);
    h = hash_bytes(h, &n, sizeof n);
    for (int i = 0; i < n; i++) {
      float wr = (float)c[i].winrate;
      h = hash_bytes(hash_bytes(h, &c[i].visits, sizeof c[i].visits), &wr, sizeof wr);
    }
    h = hash_bytes(h, &a, sizeof a);
    gs_apply(sc, &s, a);
  }
  player_free(p);
  return h;
}

uint32_t spec_fingerprint(const Scen *sc, const char *spec) {
  const char *probe[4];
  char id[2048];
  int n = player_spec_identity(spec, sc->scen_name, id, sizeof id, probe, 4);
  if (n <= 0) return 0;
  uint32_t h = hash_bytes(2166136261u, id, strlen(id));
  for (int i = 0; i < n; i++) h = probe_hash(h, sc, probe[i]);
  return h ? h : 1;
}

uint32_t pair_fingerprint(const Scen *sc, const char *a, const char *b) {
  uint32_t fa = spec_fingerprint(sc, a), fb = strcmp(a, b) ? spec_fingerprint(sc, b) : fa;
  if (!fa && !fb) return 0;
  uint32_t h = hash_bytes(hash_bytes(2166136261u, &fa, sizeof fa), &fb, sizeof fb);
  return h ? h : 1;
}

uint32_t search_fingerprint(void) {
  static uint32_t have; /* computed once (on the main thread: a report's caption) */
  if (have) return have;
  static const char *const scen[2] = {"short", "long"};
  static const char *const kinds[] = {"mcts:sim", "flat:sim", "baseline"};
  char levels[16384];
  uint32_t h = 2166136261u;
  if (player_levels_text(levels, sizeof levels) == 0) h = hash_bytes(h, levels, strlen(levels));
  for (int k = 0; k < 2; k++) {
    Scen *sc = sim_scen_load("search fingerprint", scen[k], "base");
    for (size_t i = 0; sc && i < sizeof kinds / sizeof *kinds; i++) {
      uint32_t f = spec_fingerprint(sc, kinds[i]);
      h = hash_bytes(h, &f, sizeof f);
    }
    free(sc);
  }
  return have = h ? h : 1;
}

int spec_searches(const char *spec) {
  const char *probe[4];
  char id[2048];
  return player_spec_identity(spec, NULL, id, sizeof id, probe, 4) > 0;
}
