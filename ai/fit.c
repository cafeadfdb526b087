/* The fitted evaluation: a logistic regression of the French result on a few position
 * features, fitted to game outcomes by `./waterloo train` (Texel tuning's idea: minimise the
 * log-loss of a logistic of the evaluation against the results of many positions).
 *
 * Weights are readable data beside the scenario (scenarios/eval-<scenario>[+<variant>].ini) with the
 * fingerprint of the scenario data they were fitted on; a file whose fingerprint does not match
 * the loaded scenario (map, units, cards, parameters and variants) is not used: the players fall
 * back to the hand-written evaluation and a warning names the file once per process. */
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ai_internal.h"

const char *const FIT_NAMES[FIT_NF] = {
    "bias", "progress", "castles", "msj", "win_now", "castles_x_progress", "vp_diff",
    "vp_diff_x_progress", "material", "disorder_fr", "disorder_al", "castle_garrison",
    "castle_points", "fr_distance", "hand_share", "prussians_off", "hougoumont_fr", "lhs_fr",
    "frischermont_fr", "castle_threat", "castle_defence", "short_gap", "short_gap_x_progress",
    "msj_distance", "vp_threat_fr", "vp_threat_al"};

/* and the rules and the rollout policy as they play: two games of light:eps=0.1 on both sides
 * (the policy train plays by default), their final states hashed.  A fit made before a change
 * of the engine or of the light rule no longer matches, although the data do. */
static uint64_t fit_behaviour(const Scen *sc, uint64_t h) {
  AiCtx *c = malloc(sizeof *c);
  if (!c) return h ^ 1;
  ai_ctx_init(c, sc);
  for (uint64_t g = 0; g < 2; g++) {
    State s;
    gs_init(sc, &s, 0xf17ULL, g);
    Rng r;
    rng_seed(&r, 0xf17ULL, g);
    ActList L;
    for (int n = 0; s.turn.phase != PH_OVER && n < 200000; n++) {
      gs_legal(sc, &s, &L);
      if (L.n <= 0) break;
      gs_apply(sc, &s, L.a[light_pick(c, &s, &L, &r, 0.1)]);
    }
    h = ai_hash_bytes(&s, sizeof s, h);
  }
  free(c);
  return h;
}

/* the data a fit depends on: map, order of battle, cards, parameters (so variants too); field by
 * field, so that fields added to Scen for other purposes (names, display data) do not count;
 * then how the engine and the rollout policy play on them (fit_behaviour) */
uint64_t fit_fingerprint(const Scen *sc) {
  uint64_t h = 0x5ca1ab1eULL;
#define HF(x) h = ai_hash_bytes(&(x), sizeof(x), h)
  HF(sc->scenario);
  HF(sc->terrain);
  HF(sc->edge);
  HF(sc->castle_of);
  HF(sc->vsq_of);
  HF(sc->vsq);
  HF(sc->vsq_active);
  HF(sc->castle_sq);
  HF(sc->nunits);
  for (int u = 0; u < sc->nunits && u < MAX_UNITS; u++) {
    const UnitDef *d = &sc->unit[u];
    HF(d->army); HF(d->kind); HF(d->heavy); HF(d->elite); HF(d->bp_full); HF(d->bp_red);
    HF(d->start_sq); HF(d->start_facing); HF(d->group);
  }
  HF(sc->leader_start);
  HF(sc->ngroups);
  for (int g = 0; g < sc->ngroups && g < MAX_GROUPS; g++) {
    HF(sc->group[g].turn); HF(sc->group[g].nentry); HF(sc->group[g].entry);
  }
  HF(sc->ncards);
  for (int c = 0; c < sc->ncards && c < MAX_CARDS; c++) {
    const CardDef *d = &sc->card[c];
    HF(d->army); HF(d->mp); HF(d->bp); HF(d->action); HF(d->cmd_att); HF(d->cmd_def);
  }
  /* the parameters before the restrictions of R-5.8 (every cell plays with the base rules'
   * weights, and this keeps the fingerprint of the shipped files) */
  h = ai_hash_bytes(&sc->p, offsetof(Params, ban), h);
#undef HF
  return fit_behaviour(sc, h);
}

/* the battle points of side's units (not disordered) next to sq through its open sides, and
 * what defends sq for its holder: its occupant's points, doubled for infantry in a castle, and
 * the castle's damage points left (R-3.3; counted for an empty Allied castle too, as the short
 * game's features always have) */
static int attack_on(const Scen *sc, const State *s, int sq, int side) {
  int att = 0;
  for (int d = 0; d < 4; d++) {
    int n = sc->nb_open[sq][d];
    if (n >= NSQ) continue;
    int u = unit_at(sc, s, n);
    if (u != UNIT_NONE && unit_side(sc, u) == side && !(s->units.flag[u] & UF_DISORDER))
      att += unit_bp(sc, s, u);
  }
  return att;
}
static int defence_of(const Scen *sc, const State *s, int sq, int holder) {
  int k = sc->castle_of[sq], g = unit_at(sc, s, sq), def = 0, inf = 0;
  if (g != UNIT_NONE && unit_side(sc, g) == holder) {
    inf = k >= 0 && sc->unit[g].kind == K_INF;
    def = unit_bp(sc, s, g) * (inf ? 2 : 1);
  }
  if (k >= 0 && (holder == ALLIED || inf)) def += s->turn.cdp[k];
  return def;
}

/* the victory squares one by one (long game): for each square one side holds, what the
 * other side stands to gain by taking it (the French VP it gives and the Allied VP it takes away,
 * ) times the attackers' points next to it against its defence (capped at 2), in tens of
 * VP: f[24] for the French taking Allied squares, f[25] for the Allies taking French ones */
static void vp_threats(const AiCtx *c, const State *s, double *f) {
  const Scen *sc = c->sc;
  double fr = 0, al = 0;
  for (int v = 0; v < V_COUNT; v++) {
    if (!(sc->vsq_active & (1u << v)) || sc->vsq[v] >= NSQ) continue;
    int sq = sc->vsq[v], holder = (s->turn.owner >> v) & 1 ? FRENCH : ALLIED;
    double t = attack_on(sc, s, sq, !holder) / (defence_of(sc, s, sq, holder) + 1.0);
    double swing = (sc->p.vp_fr[v] + sc->p.vp_al[v]) * (t > 2 ? 2 : t);
    if (holder == ALLIED) fr += swing;
    else al += swing;
  }
  f[24] = fr / 10.0;
  f[25] = al / 10.0;
}

/* the castles one by one (both games): which the French hold; the French battle points next
 * to each castle the Allies hold against what defends it (the garrison's doubled points and the
 * castle's damage points); msj_dist, their nearest unit's distance to Mont St. Jean (fit_features'
 * walk over the units finds it); in the short game the objectives the French still lack for a
 * win by as the parameters set it, in the long game the victory squares' threats */
static void castle_features(const AiCtx *c, const State *s, double prog, int hc, int msj,
                            int msj_dist, double *f) {
  const Scen *sc = c->sc;
  double threat = 0, defence = 0;
  for (int k = 0; k < 3; k++) {
    int held = (s->turn.owner >> (V_HOUGOUMONT + k)) & 1;
    f[16 + k] = held;
    int csq = sc->castle_sq[k];
    if (held || csq >= NSQ) continue;
    int def = defence_of(sc, s, csq, ALLIED);
    double t = attack_on(sc, s, csq, FRENCH) / (def + 1.0);
    threat += t > 2 ? 2 : t;
    defence += def;
  }
  f[19] = threat;
  f[20] = defence / 10.0;
  f[23] = msj ? 0 : (msj_dist > 12 ? 12 : msj_dist) / 12.0;
  if (sc->scenario != SC_SHORT) {
    vp_threats(c, s, f);
    return;
  }
  int gap_all = sc->p.short_castles_needed - hc;
  int gap_msj = (hc >= sc->p.short_castles_msj ? 0 : sc->p.short_castles_msj - hc) + !msj;
  f[21] = gap_all < gap_msj ? gap_all : gap_msj;
  if (f[21] < 0) f[21] = 0;
  f[22] = f[21] * prog;
}

/* features of a complete state, the French point of view */
void fit_features(const AiCtx *c, const State *s, double *f, int later) {
  const Scen *sc = c->sc;
  memset(f, 0, sizeof(double) * FIT_NF);
  double turns = sc->p.turns > 0 ? sc->p.turns : 4;
  double prog = s->turn.number / turns;
  f[0] = 1;
  f[1] = prog;
  int hc = 0;
  for (int v = V_HOUGOUMONT; v <= V_FRISCHERMONT; v++)
    if (s->turn.owner & (1u << v)) hc++;
  int msj = (s->turn.owner >> V_MSJ) & 1;
  if (sc->scenario == SC_SHORT) {
    int need = sc->p.short_castles_needed > 0 ? sc->p.short_castles_needed : 3;
    int win = hc >= need || (hc >= need - 1 && msj);
    f[2] = hc;
    f[3] = msj;
    f[4] = win;
    f[5] = hc * prog;
  } else {
    int vp[2];
    gs_score(sc, s, vp);
    f[6] = (vp[FRENCH] - vp[ALLIED]) / 10.0;
    f[7] = f[6] * prog;
    f[2] = hc;
    f[3] = msj;
  }
  double mat = 0, fr_near = 0;
  int nfr = 0, dfr = 0, dal = 0, gar = 0, poff = 0, msj_dist = AI_INF;
  for (int u = 0; u < sc->nunits; u++) {
    int sq = s->units.sq[u];
    if (sq == SQ_OFF && sc->unit[u].army == ARMY_PR && sc->p.prussians) poff++;
    if (sq >= NSQ) continue;
    int bp = unit_bp(sc, s, u);
    int sd = sc->uside[u];
    mat += sd == FRENCH ? bp : -bp;
    if (s->units.flag[u] & UF_DISORDER) {
      if (sd == FRENCH) dfr++;
      else dal++;
    }
    if (sd == ALLIED && sc->castle_of[sq] >= 0 && sc->unit[u].kind == K_INF) gar++;
    if (sd == FRENCH) {
      int best = AI_INF;
      for (int i = 0; i < c->nobj; i++)
        if (!(s->turn.owner & (1u << c->obj_v[i]))) {
          if (c->dist[i][sq] < best) best = c->dist[i][sq];
          if (c->obj_v[i] == V_MSJ && c->dist[i][sq] < msj_dist) msj_dist = c->dist[i][sq];
        }
      if (best < AI_INF) { fr_near += best > 12 ? 12 : best; nfr++; }
    }
  }
  f[8] = mat / 10.0;
  f[9] = dfr;
  f[10] = dal;
  f[11] = gar;
  int cdp = 0;
  for (int k = 0; k < MAX_CASTLES; k++) cdp += s->turn.cdp[k];
  f[12] = cdp;
  f[13] = nfr ? fr_near / nfr / 12.0 : 0;
  f[14] = ai_hand_share(c, s);
  f[15] = poff;
  if (later) castle_features(c, s, prog, hc, msj, msj_dist, f);
}

double fit_eval(const double *w, const double *f) {
  double x = 0;
  for (int i = 0; i < FIT_NF; i++) x += w[i] * f[i];
  if (x > 40) x = 40;
  if (x < -40) x = -40;
  return 1.0 / (1.0 + exp(-x));
}

typedef struct {
  double w[FIT_NF];
  int seen[FIT_NF];
  char scenario[16];
  uint64_t fp;
  int has_fp;
} FitFile;

static int fit_handler(void *user, const char *section, const char *name, const char *value) {
  FitFile *ff = user;
  if (!strcmp(section, "fit")) {
    if (!strcmp(name, "scenario")) snprintf(ff->scenario, sizeof ff->scenario, "%s", value);
    else if (!strcmp(name, "fingerprint")) { ff->fp = strtoull(value, NULL, 16); ff->has_fp = 1; }
    return 1;
  }
  if (!strcmp(section, "weights")) {
    for (int i = 0; i < FIT_NF; i++)
      if (!strcmp(name, FIT_NAMES[i])) {
        char *end;
        ff->w[i] = strtod(value, &end);
        if (*end) return 0;
        ff->seen[i] = 1;
        return 1;
      }
    return 0; /* an unknown feature: the file is from another version */
  }
  return 1;
}

/* eval-<scenario>.ini for the base game; eval-<scenario>+<variant>[+<variant>...].ini for a
 * variant (a variant file's path gives its base name without ".ini"; any character other than
 * letters, digits, '-', '_', '=' and '.' becomes '_'): every variant has its own weights, since
 * a variant's rules change who wins from where */
int fit_path(const Scen *sc, char *out, size_t len) {
  char tail[MAX_VARIANT_LIST + 8] = "";
  size_t n = 0;
  const char *v = sc->variant_names;
  if (strcmp(v, "base") && *v) {
    while (*v) {
      const char *end = strchr(v, ',');
      size_t k = end ? (size_t)(end - v) : strlen(v);
      const char *name = v;
      for (size_t i = 0; i < k; i++)
        if (v[i] == '/') name = v + i + 1;
      size_t nk = k - (size_t)(name - v);
      if (nk > 4 && !strncmp(name + nk - 4, ".ini", 4)) nk -= 4;
      if (nk == 4 && !strncmp(name, "base", 4)) nk = 0; /* "base" adds nothing */
      if (n + nk + 2 >= sizeof tail) return -1;
      if (!nk) { v = end ? end + 1 : v + k; continue; }
      tail[n++] = '+';
      for (size_t i = 0; i < nk; i++) {
        char ch = name[i];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                 ch == '-' || ch == '_' || ch == '=' || ch == '.';
        tail[n++] = ok ? ch : '_';
      }
      tail[n] = 0;
      v = end ? end + 1 : v + k;
    }
  }
  return snprintf(out, len, "%s/eval-%s%s.ini", scen_default_dir(), sc->scen_name, tail) < (int)len
             ? 0 : -1;
}

/* the data of the base rules of sc's scenario, loaded again (a sweep's cell is named "base" but
 * has other parameters): a new Scen, NULL and why on failure */
static const Scen *base_of(const Scen *sc, Scen **owned, char *why, size_t wl) {
  *owned = NULL;
  Scen *b = malloc(sizeof *b);
  char err[400];
  if (!b || scen_load(b, scen_default_dir(), sc->scen_name, "base", err, sizeof err)) {
    snprintf(why, wl, "the base rules of '%s' do not load: %s", sc->scen_name, b ? err : "out of memory");
    free(b);
    return NULL;
  }
  return *owned = b;
}

/* the weights file at path, checked against data (NULL: read and checked for its weights
 * only); 0, or -1 and why not */
static int fit_read(const Scen *data, const char *path, double *w, char *why, size_t wl) {
  FitFile ff;
  memset(&ff, 0, sizeof ff);
  int prc = ini_parse(path, fit_handler, &ff);
  if (prc < 0) {
    if (data)
      snprintf(why, wl, "%s: cannot open (fit it with ./waterloo train --scenario %s --variant %s)",
               path, data->scen_name, data->variant_names);
    else snprintf(why, wl, "%s: cannot open", path);
    return -1;
  }
  if (prc > 0) { snprintf(why, wl, "%s:%d: bad line", path, prc); return -1; }
  for (int i = 0; i < FIT_NF_REQUIRED; i++)
    if (!ff.seen[i]) { snprintf(why, wl, "%s: weight '%s' missing", path, FIT_NAMES[i]); return -1; }
  if (data && strcmp(ff.scenario, data->scen_name)) {
    snprintf(why, wl, "%s: fitted for scenario '%s', not '%s'", path, ff.scenario, data->scen_name);
    return -1;
  }
  uint64_t fp = data ? fit_fingerprint(data) : 0;
  if (data && (!ff.has_fp || ff.fp != fp)) {
    snprintf(why, wl,
             "%s was fitted on other scenario data, or by another engine or rollout rule (fingerprint "
             "%016llx, these data with variants '%s': %016llx); refit with ./waterloo train",
             path, (unsigned long long)ff.fp, data->variant_names, (unsigned long long)fp);
    return -1;
  }
  memcpy(w, ff.w, sizeof ff.w);
  snprintf(why, wl, "%s", path);
  return 0;
}

int fit_load(const Scen *sc, int own, double *w, char *why, size_t wl) {
  Scen *owned;
  const Scen *data = own ? sc : base_of(sc, &owned, why, wl);
  if (!data) return -1;
  char path[512];
  int rc = -1;
  if (fit_path(data, path, sizeof path)) snprintf(why, wl, "path too long");
  else rc = fit_read(data, path, w, why, wl);
  if (!own) free(owned);
  return rc;
}

int fit_name_ok(const char *name) {
  size_t n = strlen(name);
  if (n < 5 || n >= FIT_NAME_MAX || strcmp(name + n - 4, ".ini") || name[0] == '.') return 0;
  for (size_t i = 0; i < n; i++) {
    char ch = name[i];
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
          ch == '-' || ch == '_' || ch == '=' || ch == '.'))
      return 0;
  }
  return 1;
}

int fit_load_named(const Scen *sc, const char *name, double *w, char *why, size_t wl) {
  char path[512];
  if (!fit_name_ok(name) ||
      snprintf(path, sizeof path, "%s/%s", scen_default_dir(), name) >= (int)sizeof path) {
    snprintf(why, wl, "evaluation file '%.60s': a file name in the scenario folder ending in .ini "
             "(letters, digits, '.', '-', '_', '=')", name);
    return -1;
  }
  return fit_read(sc, path, w, why, wl);
}

/* the weights hashed: the required ones, and each later group of features (as they were added)
 * only when one of its weights is not 0, so that a file fitted before them keeps its fingerprint */
uint64_t fit_hash_weights(const double *w, uint64_t h) {
  static const int group_end[] = {FIT_NF_REQUIRED, 24, FIT_NF}; /* the features as they came */
  int from = 0;
  for (size_t g = 0; g < sizeof group_end / sizeof *group_end; from = group_end[g++]) {
    int any = g == 0;
    for (int i = from; i < group_end[g]; i++) any |= w[i] != 0;
    if (any) h = ai_hash_bytes(w + from, sizeof(double) * (size_t)(group_end[g] - from), h);
  }
  return h;
}

/* the weights players with eval=fit (the base rules' file) and eval=own (the variant's file)
 * would use on these data, hashed together (a missing one counts as none) */
uint64_t fit_weights_fingerprint(const Scen *sc) {
  double w[2][FIT_NF];
  char why[600];
  uint64_t h = 0xe7a1ULL;
  for (int own = 0; own < 2; own++)
    h = fit_load(sc, own, w[own], why, sizeof why) ? h * 31 : fit_hash_weights(w[own], h);
  return h;
}
