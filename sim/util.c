/* Small utilities of the simulator: atomic files, growable strings, the CSV row of a game. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim.h"

Scen *sim_scen_load(const char *cmd, const char *scen, const char *var) {
  Scen *sc = malloc(sizeof(Scen));
  char err[2048];
  if (!sc) {
    fprintf(stderr, "%s: out of memory\n", cmd);
    return NULL;
  }
  if (scen_load_user(sc, scen_default_dir(), scen, var, err, sizeof err)) {
    fprintf(stderr, "%s: %s %s: %s\n", cmd, scen, var, err);
    free(sc);
    return NULL;
  }
  return sc;
}

void build_caption(char *out, size_t len, int search) {
  static const char *scen[2] = {"short", "long"};
  uint32_t fp[2] = {0, 0};
  for (int k = 0; k < 2; k++) {
    Scen *sc = sim_scen_load("caption", scen[k], "base");
    if (sc) fp[k] = play_fingerprint(sc);
    free(sc);
  }
  char sf[48] = "";
  if (search) snprintf(sf, sizeof sf, ", search fingerprint %08" PRIx32, search_fingerprint());
  snprintf(out, len, "*Build: waterloo %s, play fingerprint short %08" PRIx32 ", long %08" PRIx32
                     "%s (`waterloo --version`; `make report-check` compares it with today's).*",
           WATERLOO_VERSION, fp[0], fp[1], sf);
}

int can_create(const char *prefix) {
  char probe[1400];
  snprintf(probe, sizeof probe, "%s.probe.%ld", prefix, (long)getpid());
  int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) return -1;
  close(fd);
  unlink(probe);
  return 0;
}

int ends_torn(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  int torn = fseek(f, -1, SEEK_END) == 0 && fgetc(f) != '\n';
  fclose(f);
  return torn;
}

/* the one atomic writer is the engine's (file_write_atomic: a temporary file beside the target,
 * fsync, rename; never over a file that is not a regular one); the caller says what failed */
int write_atomic(const char *path, const char *data, size_t len) {
  char err[512];
  return file_write_atomic(path, data, len, err, sizeof err) ? -1 : 0;
}

int mkdir_p(const char *path) {
  char buf[4096];
  size_t n = strlen(path);
  if (n == 0 || n >= sizeof buf) return -1;
  memcpy(buf, path, n + 1);
  for (size_t i = 1; i <= n; i++) {
    if (buf[i] == '/' || buf[i] == 0) {
      char c = buf[i];
      buf[i] = 0;
      if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
      buf[i] = c;
    }
  }
  return 0;
}

void buf_printf(Buf *b, const char *fmt, ...) {
  for (;;) {
    size_t room = b->cap - b->n;
    va_list ap;
    va_start(ap, fmt);
    int k = b->s ? vsnprintf(b->s + b->n, room, fmt, ap) : -2;
    va_end(ap);
    if (k >= 0 && (size_t)k < room) { b->n += (size_t)k; return; }
    size_t need = b->n + (k > 0 ? (size_t)k : 0) + 1;
    size_t cap = b->cap ? b->cap * 2 : 1024;
    while (cap < need) cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) { fprintf(stderr, "out of memory\n"); exit(2); }
    b->s = s;
    b->cap = cap;
  }
}

void buf_free(Buf *b) {
  free(b->s);
  b->s = NULL;
  b->n = b->cap = 0;
}

/* ---------------------------------------------------------------- CSV */
static const char *vname[V_COUNT] = {"msj", "hougoumont", "lhs", "frischermont",
                                     "plancenoit1", "plancenoit2", "plancenoit3"};

const char *vsq_key(int v) { return v >= 0 && v < V_COUNT ? vname[v] : "?"; }

void facts_csv_header(Buf *b) {
  buf_printf(b, "scenario,variant,french,allied,seed,index,result,winner,condition,turns,rounds,"
                "passes,decisions,decisions_fr,decisions_al,cards_fr,cards_al,bids_fr,bids_al,"
                "battles_fr,battles_al,lost_fr,lost_al,reduced_fr,reduced_al,vp_fr,vp_al,"
                "vp_margin,vp_squares_fr,vp_squares_al,vp_elim_fr,vp_elim_al,owner");
  for (int v = 0; v < V_COUNT; v++) buf_printf(b, ",fall_%s", vname[v]);
  buf_printf(b, ",bid_winner,bids_won_fr,bids_won_al,held");
  for (int v = 0; v < V_COUNT; v++) buf_printf(b, ",fall_round_%s", vname[v]);
}

/* the columns after fall_*: who won the bids, the squares the French hold at the end (names
 * joined by '+', "none"), the round of each first fall; a game of an older journal leaves the
 * facts it did not record empty */
static void csv_more(Buf *b, const GameFacts *f) {
  buf_printf(b, ",%s", bid_winner_name(bid_winner(f)));
  if (f->more) buf_printf(b, ",%d,%d,", f->bids_won[0], f->bids_won[1]);
  else buf_printf(b, ",,,");
  int any = 0;
  for (int v = 0; v < V_COUNT; v++)
    if (f->owner & (1u << v)) buf_printf(b, "%s%s", any++ ? "+" : "", vname[v]);
  if (!any) buf_printf(b, "none");
  for (int v = 0; v < V_COUNT; v++) {
    if (f->more) buf_printf(b, ",%d", f->fall_round[v]);
    else buf_printf(b, ",");
  }
}

static void csv_str(Buf *b, const char *s) {
  if (strpbrk(s, ",\"\n")) {
    buf_printf(b, "\"");
    for (const char *p = s; *p; p++) buf_printf(b, *p == '"' ? "\"\"" : "%c", *p);
    buf_printf(b, "\"");
  } else {
    buf_printf(b, "%s", s);
  }
}

void facts_csv_row(Buf *b, const char *scen, const char *variant, const char *pf, const char *pa,
                   uint64_t seed, const GameFacts *f) {
  csv_str(b, scen); buf_printf(b, ",");
  csv_str(b, variant); buf_printf(b, ",");
  csv_str(b, pf); buf_printf(b, ",");
  csv_str(b, pa);
  const char *winner = f->result == RES_FRENCH ? "french" : f->result == RES_ALLIED ? "allied"
                     : f->result == RES_DRAW ? "draw" : "none";
  buf_printf(b, ",%" PRIu64 ",%d,%d,%s,%s,%d,%d,%d,%u,%u,%u,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,"
                "%d,%d,%d,%d,%d,%d",
             seed, f->index, f->result, winner, cond_name(f->cond), f->turns, f->rounds, f->passes,
             f->decisions, f->decisions_side[0], f->decisions_side[1], f->cards[0], f->cards[1],
             f->bids[0], f->bids[1], f->battles[0], f->battles[1], f->lost[0], f->lost[1],
             f->reduced[0], f->reduced[1], f->vp[0], f->vp[1], f->vp[0] - f->vp[1], f->vp_sq[0],
             f->vp_sq[1], f->vp_elim[0], f->vp_elim[1], f->owner);
  for (int v = 0; v < V_COUNT; v++) buf_printf(b, ",%d", f->fall[v]);
  csv_more(b, f);
}

/* split one CSV line into fields (quotes handled); returns the count */
static int csv_split(const char *line, char fields[][128], int maxf) {
  int n = 0;
  const char *p = line;
  for (;;) {
    if (n >= maxf) return -1;
    char *o = fields[n];
    size_t k = 0;
    if (*p == '"') {
      p++;
      for (;;) {
        if (!*p) return -1;
        if (*p == '"') {
          if (p[1] == '"') { p += 2; if (k < 127) o[k++] = '"'; continue; }
          p++;
          break;
        }
        if (k < 127) o[k++] = *p;
        p++;
      }
    } else {
      while (*p && *p != ',' && *p != '\n' && *p != '\r') { if (k < 127) o[k++] = *p; p++; }
    }
    o[k] = 0;
    n++;
    if (*p == ',') { p++; continue; }
    if (*p == 0 || *p == '\n' || *p == '\r') return n;
    return -1;
  }
}

#define NCSV_OLD (33 + V_COUNT) /* a row of a journal written before the later facts */
#define NCSV (NCSV_OLD + 4 + V_COUNT)

static int num(const char *s, long lo, long hi, long *out) {
  if (!*s) return -1;
  char *e;
  errno = 0;
  long v = strtol(s, &e, 10);
  if (*e || errno || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

/* the columns of csv_more (the held column is the owner column again, not read) */
static int csv_parse_more(char fl[][128], GameFacts *f) {
  if (!strcmp(fl[0], "unknown")) return 0;
  long v;
  for (int s = 0; s < 2; s++) {
    if (num(fl[1 + s], 0, 255, &v)) return -1;
    f->bids_won[s] = (uint8_t)v;
  }
  for (int k = 0; k < V_COUNT; k++) {
    if (num(fl[4 + k], 0, 65535, &v)) return -1;
    f->fall_round[k] = (uint16_t)v;
  }
  f->more = 1;
  return strcmp(fl[0], bid_winner_name(bid_winner(f))) ? -1 : 0;
}

int facts_csv_parse(const char *line, char *scen, size_t scen_len, char *variant,
                    size_t var_len, char *pf, char *pa, size_t p_len, uint64_t *seed,
                    GameFacts *f) {
  static __thread char fl[NCSV + 2][128];
  int n = csv_split(line, fl, NCSV + 1);
  if (n != NCSV && n != NCSV_OLD) return -1;
  snprintf(scen, scen_len, "%s", fl[0]);
  snprintf(variant, var_len, "%s", fl[1]);
  snprintf(pf, p_len, "%s", fl[2]);
  snprintf(pa, p_len, "%s", fl[3]);
  char *e;
  errno = 0;
  *seed = strtoull(fl[4], &e, 10);
  if (*e || errno || !fl[4][0]) return -1;
  long v[NCSV];
  for (int i = 5; i < NCSV_OLD; i++) {
    if (i == 7 || i == 8) continue;
    if (num(fl[i], -100000, 4294967295L, &v[i])) return -1;
  }
  memset(f, 0, sizeof *f);
  f->index = (int32_t)v[5];
  f->result = (uint8_t)v[6];
  int cond = -1;
  for (int c = 0; c < COND_COUNT; c++)
    if (!strcmp(fl[8], cond_name(c))) cond = c;
  if (cond < 0) return -1;
  f->cond = (uint8_t)cond;
  f->turns = (uint8_t)v[9];
  f->rounds = (uint16_t)v[10];
  f->passes = (uint16_t)v[11];
  f->decisions = (uint32_t)v[12];
  f->decisions_side[0] = (uint32_t)v[13];
  f->decisions_side[1] = (uint32_t)v[14];
  f->cards[0] = (uint16_t)v[15]; f->cards[1] = (uint16_t)v[16];
  f->bids[0] = (uint16_t)v[17]; f->bids[1] = (uint16_t)v[18];
  f->battles[0] = (uint16_t)v[19]; f->battles[1] = (uint16_t)v[20];
  f->lost[0] = (uint16_t)v[21]; f->lost[1] = (uint16_t)v[22];
  f->reduced[0] = (uint16_t)v[23]; f->reduced[1] = (uint16_t)v[24];
  f->vp[0] = (int16_t)v[25]; f->vp[1] = (int16_t)v[26];
  f->vp_sq[0] = (int16_t)v[28]; f->vp_sq[1] = (int16_t)v[29];
  f->vp_elim[0] = (int16_t)v[30]; f->vp_elim[1] = (int16_t)v[31];
  f->owner = (uint8_t)v[32];
  for (int k = 0; k < V_COUNT; k++) f->fall[k] = (uint8_t)v[33 + k];
  return n == NCSV ? csv_parse_more(fl + NCSV_OLD, f) : 0;
}
