/* libFuzzer target: the engine protocol loop (engine_run) on arbitrary input.  Sandboxed: a
 * `save` line is pointed at a private folder, and genmove/analyze use the quick heuristic
 * player, so the fuzzer never writes outside that folder nor waits on a search. */
#include <sys/stat.h>
#include <unistd.h>

#include "../../front/front.h"
#include "fuzz_common.h"

static char dir[256];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  snprintf(dir, sizeof dir, "/tmp/waterloo-fuzz-proto-%d", (int)getpid());
  mkdir(dir, 0700);
  if (!freopen("/dev/null", "w", stdout)) abort();
  return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *d, size_t n) {
  if (n > 200000) return 0;
  /* rewrite the input line by line */
  size_t cap = n * 2 + 1024, m = 0;
  char *in = malloc(cap);
  if (!in) abort();
  size_t i = 0;
  while (i < n) {
    size_t j = i;
    while (j < n && d[j] != '\n') j++;
    const char *line = (const char *)d + i;
    size_t len = j - i;
    size_t k = 0;
    while (k < len && (line[k] == ' ' || line[k] == '\t')) k++;
    if (len - k >= 4 && !memcmp(line + k, "save", 4))
      m += (size_t)snprintf(in + m, cap - m, "save %s/s.json\n", dir);
    else if ((len - k >= 7 && !memcmp(line + k, "genmove", 7)) || (len - k >= 7 && !memcmp(line + k, "analyze", 7)))
      m += (size_t)snprintf(in + m, cap - m, "%.7s heuristic\n", line + k);
    else {
      memcpy(in + m, line, len);
      m += len;
      if (j < n) in[m++] = '\n';
    }
    i = j + 1;
  }
  FILE *f = fmemopen(in, m ? m : 1, "r");
  if (!f) abort();
  FILE *old = stdin;
  stdin = f;
  engine_run(stdin);
  stdin = old;
  fclose(f);
  free(in);
  return 0;
}
