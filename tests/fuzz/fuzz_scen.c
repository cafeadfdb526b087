/* libFuzzer target: the scenario and variant loader.  The first byte chooses which file the
 * rest replaces (map, units, cards, params, or a variant, short or long game); what loads
 * must give a game that plays to the end keeping the invariants. */
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_common.h"

static char dir[256];
static const char *FILES[] = {"map.ini", "units.ini", "cards.ini", "params.ini", "variants/fz.ini"};

static void link_all(void) {
  char src[4096], dst[512];
  char *real = realpath(fz_dir(), NULL);
  if (!real) abort();
  for (int i = 0; i < 4; i++) {
    snprintf(src, sizeof src, "%s/%s", real, FILES[i]);
    snprintf(dst, sizeof dst, "%s/%s", dir, FILES[i]);
    unlink(dst);
    if (symlink(src, dst)) abort();
  }
  free(real);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  snprintf(dir, sizeof dir, "/tmp/waterloo-fuzz-scen-%d", (int)getpid());
  mkdir(dir, 0700);
  char v[300];
  snprintf(v, sizeof v, "%s/variants", dir);
  mkdir(v, 0700);
  link_all();
  return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *d, size_t n) {
  if (n < 1 || n > 65536) return 0;
  int which = d[0] % 10;         /* 0..3 a data file; 4..9 a variant file */
  int file = which < 4 ? which : 4;
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, FILES[file]);
  unlink(path);
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  fwrite(d + 1, 1, n - 1, f);
  fclose(f);
  static Scen sc;
  char err[4096];
  const char *scen = (d[0] / 10) & 1 ? "long" : "short";
  if (scen_load(&sc, dir, scen, file == 4 ? "fz" : "base", err, sizeof err) == 0) {
    State s;
    gs_init(&sc, &s, d[0], 0);
    char why[256];
    if (gs_check(&sc, &s, why, sizeof why)) {
      fprintf(stderr, "the set-up of an accepted scenario breaks an invariant: %s\n", why);
      abort();
    }
    fz_walk(&sc, s, (unsigned)n, 3000);
  } else if (!strchr(err, ':')) {
    fprintf(stderr, "a scenario error that names no file: %s\n", err);
    abort();
  } else {
    for (const unsigned char *p = (const unsigned char *)err; *p; p++)
      if (*p != '\n' && (*p < 0x20 || *p >= 0x7f)) {  /* each error one printable line */
        fprintf(stderr, "a raw byte 0x%02x in a scenario error\n", *p);
        abort();
      }
  }
  if (file < 4) link_all();
  else unlink(path);
  return 0;
}
