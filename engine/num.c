/* Strict number parsing (see num.h). */
#include "num.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int all_digits(const char *t) {
  if (!t || !*t) return 0;
  for (; *t; t++)
    if (*t < '0' || *t > '9') return 0;
  return 1;
}

int num_u64(const char *t, uint64_t lo, uint64_t hi, uint64_t *out) {
  if (!all_digits(t) || strlen(t) > 20) return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(t, &end, 10);
  if (errno || *end || v < lo || v > hi) return -1;
  *out = (uint64_t)v;
  return 0;
}

int num_i64(const char *t, int64_t lo, int64_t hi, int64_t *out) {
  if (!t) return -1;
  const char *d = *t == '-' ? t + 1 : t;
  if (!all_digits(d) || strlen(d) > 19) return -1;
  errno = 0;
  char *end;
  long long v = strtoll(t, &end, 10);
  if (errno || *end || v < lo || v > hi) return -1;
  *out = (int64_t)v;
  return 0;
}

int num_long(const char *t, long lo, long hi, long *out) {
  int64_t v;
  if (num_i64(t, lo, hi, &v)) return -1;
  *out = (long)v;
  return 0;
}

int num_int(const char *t, int lo, int hi, int *out) {
  int64_t v;
  if (num_i64(t, lo, hi, &v)) return -1;
  *out = (int)v;
  return 0;
}

int num_hex64(const char *t, uint64_t *out) {
  if (!t || !*t || strlen(t) > 16) return -1;
  uint64_t v = 0;
  for (const char *p = t; *p; p++) {
    int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
          : *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;
    if (d < 0) return -1;
    v = v << 4 | (uint64_t)d;
  }
  *out = v;
  return 0;
}

int num_double(const char *t, double lo, double hi, double *out) {
  if (!t || !*t) return -1;
  /* plain decimal only: digits, one '.', an optional leading '-' and exponent; no hex, inf, nan */
  for (const char *p = t; *p; p++)
    if (!strchr("0123456789.-+eE", *p)) return -1;
  if (*t == '+' || *t == '.' || (t[0] == '-' && (t[1] < '0' || t[1] > '9')) ||
      (*t != '-' && (*t < '0' || *t > '9')))
    return -1;
  errno = 0;
  char *end;
  double v = strtod(t, &end);
  if (errno || *end || !isfinite(v) || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

char *num_escape(const char *in, char *out, size_t len) {
  if (!len) return out;
  size_t n = 0;
  if (!in) in = "(null)";
  for (; *in; in++) {
    unsigned char c = (unsigned char)*in;
    char e[8];
    if (c < 0x20 || c >= 0x7f) snprintf(e, sizeof e, "\\x%02x", c);
    else e[0] = (char)c, e[1] = 0;
    size_t k = strlen(e);
    if (n + k + (in[1] ? 4 : 1) > len) {   /* keep room for "..." and the NUL */
      if (n + 4 <= len) memcpy(out + n, "...", 3), n += 3;
      break;
    }
    memcpy(out + n, e, k);
    n += k;
  }
  out[n] = 0;
  return out;
}
