/* libFuzzer target: the HTTP server of `waterloo serve` (issue 22), through a real socket.  The
 * server runs in this process (cmd_serve in a thread, on a loopback port of its own, saves in a
 * private folder); every input becomes one request to it:
 *   byte 0 % 8 = 0: the rest sent as raw bytes (request line, headers, body: the HTTP parser)
 *   1..5: a request of the API on a live game, the rest its body or query
 *         (play, undo, save, the view with ?since=, reach?unit=)
 *   6: a play request whose numbers ("at", "index") are doubles taken from the input's bytes
 *      (NaN, infinities, -9.2e18 ...): every number a request carries must be range-checked
 *   7: a new game, load or resume, with the body after a fixed {"level":"random", prefix
 *      (the first key wins, so the fuzzer never starts an expensive computer player)
 * Checks: every request gets a whole answer with a status line within 10 s, and no answer of the
 * API is a 5xx other than 503 (busy) or 500 from a save that could not be written (a raw
 * request may get libmicrohttpd's own 505 or 501, or be dropped); the sanitizers of
 * the fuzz build stop on undefined behaviour anywhere in the server. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "../../cli/cli.h"
#include "fuzz_common.h"

static char dir[256], port_s[16], game_id[2][32];
static int port;

static void *serve_thread(void *arg) {
  (void)arg;
  char *argv[] = {"serve", "--port", port_s, "--saves", dir, NULL};
  cmd_serve(5, argv);
  return NULL;
}

static int connect_local(void) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) abort();
  struct timeval tv = {10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, (struct sockaddr *)&a, sizeof a)) {
    close(fd);
    return -1;
  }
  return fd;
}

/* sends len bytes, reads the whole answer into out (NUL-terminated); its length or -1 */
static long exchange(const char *req, size_t len, char *out, size_t cap) {
  int fd = connect_local();
  if (fd < 0) return -1;
  for (size_t k = 0; k < len;) {
    ssize_t w = send(fd, req + k, len - k, MSG_NOSIGNAL);
    if (w <= 0) break;   /* the server may close early on a bad request: read its answer */
    k += (size_t)w;
  }
  shutdown(fd, SHUT_WR);
  size_t n = 0;
  for (;;) {
    ssize_t r = recv(fd, out + n, cap - 1 - n, 0);
    if (r <= 0) break;
    n += (size_t)r;
    if (n + 1 >= cap) break;
  }
  close(fd);
  out[n] = 0;
  return (long)n;
}

/* one request; retried for up to 2 s while the server refuses it outright (0 bytes: the
 * per-address connection limit counts connections just closed until their threads end) */
static long request_once(const char *method, const char *path, const char *body, size_t blen,
                         char *out, size_t cap);
static long request(const char *method, const char *path, const char *body, size_t blen,
                    char *out, size_t cap) {
  long n = 0;
  for (int k = 0; k < 100 && n <= 0; k++) {
    if (k) usleep(20000);
    n = request_once(method, path, body, blen, out, cap);
  }
  return n;
}

static long request_once(const char *method, const char *path, const char *body, size_t blen,
                         char *out, size_t cap) {
  size_t hl = 256 + strlen(path);
  char *req = malloc(hl + blen);
  if (!req) abort();
  int h = snprintf(req, hl, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                   "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n", method, path, blen);
  memcpy(req + h, body, blen);
  long n = exchange(req, (size_t)h + blen, out, cap);
  free(req);
  return n;
}

static void new_game(const char *scen, char *id) {
  static char out[1 << 20];
  char body[128];
  snprintf(body, sizeof body, "{\"level\":\"random\",\"scenario\":\"%s\",\"seed\":7}", scen);
  if (request("POST", "/api/games", body, strlen(body), out, sizeof out) <= 0) abort();
  const char *p = strstr(out, "\"id\":\"");
  if (!p) {
    fprintf(stderr, "fuzz-http: no game id in %.300s\n", out);
    abort();
  }
  snprintf(id, 32, "%.16s", p + 6);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  snprintf(dir, sizeof dir, "/tmp/waterloo-fuzz-http-%d", (int)getpid());
  mkdir(dir, 0700);
  if (!freopen("/dev/null", "w", stdout)) abort();
  for (int tries = 0; tries < 20 && !port; tries++) {
    int p = 20000 + (int)((getpid() * 7 + tries * 131) % 30000);
    snprintf(port_s, sizeof port_s, "%d", p);
    pthread_t t;
    pthread_create(&t, NULL, serve_thread, NULL);
    pthread_detach(t);
    port = p;
    int fd = -1;
    for (int k = 0; k < 100 && fd < 0; k++) {
      usleep(20000);
      fd = connect_local();
    }
    if (fd < 0) port = 0; /* taken: the thread gave up, try another */
    else close(fd);
  }
  if (!port) abort();
  new_game("long", game_id[0]);
  new_game("short", game_id[1]);
  return 0;
}

/* a number for a JSON body from 8 input bytes: any double, some written as JSON can't */
static void fz_number(const unsigned char *d, size_t n, char *out, size_t len) {
  double v = 0;
  memcpy(&v, d, n < 8 ? n : 8);
  snprintf(out, len, "%.17g", v);
}

static void check_answer(const char *out, long n, const char *what) {
  if (n <= 0 || strncmp(out, "HTTP/1.", 7) || strlen(out) < 12) {
    fprintf(stderr, "fuzz-http: no answer to %s (%ld bytes)\n", what, n);
    abort();
  }
  int code = atoi(out + 9);
  if (!strcmp(what, "a raw request")) return; /* libmicrohttpd answers bad HTTP itself (400, 505 ...) */
  if (code >= 500 && code != 503 && !(code == 500 && strstr(what, "save"))) {
    fprintf(stderr, "fuzz-http: %d to %s: %.300s\n", code, what, out);
    abort();
  }
}

static const char *const OPS[] = {"play", "undo", "save", "", "reach"};

int LLVMFuzzerTestOneInput(const unsigned char *d, size_t n) {
  static char out[1 << 20];
  if (n < 1 || n > 8192) return 0;
  int kind = d[0] % 8, g = (d[0] >> 3) & 1;
  const char *body = (const char *)d + 1;
  size_t blen = n - 1;
  char path[10000], what[64];
  long r;
  if (kind == 0) {
    r = exchange(body, blen, out, sizeof out);
    if (r <= 0) return 0; /* the server may drop a malformed request without an answer */
    snprintf(what, sizeof what, "a raw request");
  } else if (kind <= 5) {
    const char *op = OPS[kind - 1];
    if (kind == 4 || kind == 5) { /* query strings: the body's bytes, percent-encoded */
      size_t m = (size_t)snprintf(path, sizeof path, "/api/games/%s%s%s?%s=", game_id[g],
                                  *op ? "/" : "", op, kind == 4 ? "since" : "unit");
      for (size_t i = 0; i < blen && m + 4 < sizeof path; i++)
        m += (size_t)snprintf(path + m, sizeof path - m, "%%%02X", (unsigned char)body[i]);
      r = request("GET", path, "", 0, out, sizeof out);
    } else {
      snprintf(path, sizeof path, "/api/games/%s/%s", game_id[g], op);
      r = request("POST", path, body, blen, out, sizeof out);
    }
    snprintf(what, sizeof what, "%s", *op ? op : "the view");
  } else if (kind == 6) {
    char a[64], b[64], j[200];
    fz_number((const unsigned char *)body, blen, a, sizeof a);
    fz_number((const unsigned char *)body + (blen > 8 ? 8 : blen), blen > 8 ? blen - 8 : 0, b,
              sizeof b);
    snprintf(j, sizeof j, "{\"at\": %s, \"index\": %s}", a, b);
    snprintf(path, sizeof path, "/api/games/%s/play", game_id[g]);
    r = request("POST", path, j, strlen(j), out, sizeof out);
    snprintf(what, sizeof what, "play with numbers");
  } else {
    static const char *const P[] = {"/api/games", "/api/load", "/api/resume"};
    const char *p = P[(d[0] >> 4) % 3];
    char *j = malloc(blen + 32);
    if (!j) abort();
    size_t m = (size_t)snprintf(j, 32, "{\"level\":\"random\",");
    memcpy(j + m, body, blen);
    r = request("POST", p, j, m + blen, out, sizeof out);
    free(j);
    snprintf(what, sizeof what, "%s", p);
  }
  check_answer(out, r, what);
  if (kind >= 1 && kind <= 6 && strstr(out, "no such game")) /* evicted by new games: again */
    new_game(g ? "short" : "long", game_id[g]);
  return 0;
}
