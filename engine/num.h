/* Strict text-to-number parsing and safe echo of untrusted text, shared by every reader of
 * numbers (command-line options, the engine protocol, save files, scenario files); the options
 * themselves are read in cli/ (cli/cli.h: opt_long ...).
 *
 * A number is accepted only when the WHOLE text is one: no blanks, no trailing characters, no
 * sign where none is allowed, no overflow, and within [lo, hi].  0 ok, -1 not. */
#ifndef WATERLOO_NUM_H
#define WATERLOO_NUM_H
#include <stddef.h>
#include <stdint.h>

int num_u64(const char *t, uint64_t lo, uint64_t hi, uint64_t *out);   /* decimal, no sign     */
int num_i64(const char *t, int64_t lo, int64_t hi, int64_t *out);      /* decimal, '-' allowed */
int num_int(const char *t, int lo, int hi, int *out);
int num_long(const char *t, long lo, long hi, long *out);
int num_hex64(const char *t, uint64_t *out);                          /* 1..16 hex digits     */
int num_double(const char *t, double lo, double hi, double *out);     /* finite, decimal      */
/* untrusted text for a message: control bytes, quotes-breaking bytes and non-ASCII as \xNN,
 * cut (with "...") to fit len.  Returns out. */
char *num_escape(const char *in, char *out, size_t len);

#endif
