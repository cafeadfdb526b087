/* Small utilities every layer shares: hashing, seed mixing, clocks.  Header-only. */
#ifndef WATERLOO_UTIL_H
#define WATERLOO_UTIL_H
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define FNV1A_OFFSET 1469598103934665603ULL
#define FNV1A_PRIME 1099511628211ULL

/* FNV-1a over n bytes, continuing from h (0: start a new hash) */
static inline uint64_t hash_fnv1a(const void *p, size_t n, uint64_t h) {
  const unsigned char *b = (const unsigned char *)p;
  if (!h) h = FNV1A_OFFSET;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * FNV1A_PRIME;
  return h;
}
/* one FNV-1a step on a whole word (the bench signature hashes actions this way) */
static inline uint64_t hash_fnv1a_word(uint64_t h, uint64_t w) { return (h ^ w) * FNV1A_PRIME; }

/* the splitmix64 finalizer (Stafford variant 13): a bijective 64-bit mixer */
static inline uint64_t mix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
/* one splitmix64 output: the golden-ratio increment, then the finalizer */
static inline uint64_t splitmix64(uint64_t x) { return mix64(x + 0x9e3779b97f4a7c15ULL); }

/* seconds on the monotonic wall clock */
static inline double clock_wall(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}
/* CPU seconds used by the calling thread alone (one game of a parallel batch) */
static inline double clock_thread_cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}
/* CPU seconds used by the whole process, every thread included */
static inline double clock_cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}
#endif
