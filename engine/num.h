/* Strict text-to-number parsing and safe echo of untrusted text, shared by every reader of
 * numbers (command-line options, the engine protocol, save files, scenario files).
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

/* the caps every command applies to its options */
#define CLI_MAX_GAMES 100000000L  /* --games: at most 1e8 */
#define CLI_MAX_THREADS 256       /* --threads: 1..256 */

/* the value v of a command's option, strictly (the num_* rules above): 0, or -1 after one line
 * on stderr naming the command, the option and what it must be, with v escaped */
int opt_u64(const char *cmd, const char *name, const char *v, uint64_t *out);
int opt_long(const char *cmd, const char *name, const char *v, long lo, long hi, long *out);
int opt_int(const char *cmd, const char *name, const char *v, int lo, int hi, int *out);
int opt_double(const char *cmd, const char *name, const char *v, double lo, double hi, double *out);
#endif
