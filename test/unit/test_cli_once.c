// Unit tests of tools/cli_once.c: what a sweep over targets holds of a model's runs and
// the order it writes them in; the held text in memory, in a file, and when that file
// cannot be made, written or read back.
#define _GNU_SOURCE 1  // open_memstream
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../tools/cli_once.h"
#include "check.h"

// Diagnostics and text go to one stream, as a terminal shows stderr and stdout.
typedef struct sink_t { FILE *out; } sink_t;
static void on_diag(void *user, MlirLocation loc, met_diag_severity_t sev, const char *msg) {
  sink_t *s = user;
  fprintf(s->out, "%c%d:%s\n", "EWRN"[sev], (int)(uintptr_t)loc.ptr, msg);
  fflush(s->out);
}

// Locations are uniqued pointers; the filter only compares them.
static MlirLocation at(int id) { return (MlirLocation){(const void *)(uintptr_t)id}; }

// One run: its diagnostics ("id:message" strings, a remark when the message starts with
// '~'), then its heading and table.
static void run(cli_once_t *f, const char *const *diags, const char *head,
                const char *table) {
  for (const char *const *d = diags; d && *d; ++d) {
    int id = atoi(*d);
    const char *msg = strchr(*d, ':') + 1;
    bool remark = *msg == '~';
    cli_once_diag(f, at(id), remark ? MET_DIAG_REMARK : MET_DIAG_WARNING, msg + remark);
  }
  met_strbuf_t text;
  met_strbuf_initialize(met_allocator_system(), &text);
  met_strbuf_cstr(&text, head);
  size_t head_len = text.len;
  met_strbuf_cstr(&text, table);
  cli_once_end_run(f, &text, head_len);
  met_strbuf_deinitialize(&text);
}

// A filter whose diagnostics and text go to one in-memory stream.
typedef struct capture_t {
  char *buf;
  size_t len;
  FILE *out;
  sink_t sink;
  cli_once_t f;
} capture_t;
static void capture_open(capture_t *c, bool remarks, size_t spill_after, const char *tmpdir) {
  c->buf = NULL;
  c->len = 0;
  c->out = open_memstream(&c->buf, &c->len);
  c->sink.out = c->out;
  cli_once_initialize(&c->f, on_diag, &c->sink, remarks, c->out, spill_after, tmpdir);
}
// Ends the filter; what the stream got (the caller frees it).
static char *capture_close(capture_t *c) {
  cli_once_deinitialize(&c->f);
  fclose(c->out);
  return c->buf;
}

// A directory the tests' files may go in: $TMPDIR, /tmp or the current one.
static char g_dir[4096];
static bool pick_dir(void) {
  const char *c[] = {getenv("TMPDIR"), "/tmp", "."};
  for (size_t i = 0; i < 3; ++i) {
    if (!c[i] || !*c[i] || strlen(c[i]) > sizeof(g_dir) - 32) continue;
    snprintf(g_dir, sizeof(g_dir), "%s/metrale-test-XXXXXX", c[i]);
    if (mkdtemp(g_dir)) return true;
  }
  return false;
}

// Two models of two targets through one filter; what the stream got.
// cli_once_flush succeeded (its message, had it failed, is checked where a test expects it).
static bool flush(cli_once_t *f, const char *model) {
  met_error_t err;
  met_error_init(&err);
  return cli_once_flush(f, model, &err) == MET_OK;
}

static char *two_models(size_t spill_after, const char *tmpdir, size_t mem_limit, bool *ok,
                        int *fd_used) {
  capture_t c;
  capture_open(&c, false, spill_after, tmpdir);
  if (mem_limit) c.f.mem_limit = mem_limit;
  // Model 1: "dead" at 1 on both targets (shared), "fast" at 2 only on t0, a remark at 3
  // (dropped: remarks are neither printed nor logged here).
  run(&c.f, (const char *const[]){"1:dead", "2:fast", "3:~note", NULL}, "== m on t0 ==\n",
      "table0\n");
  run(&c.f, (const char *const[]){"1:dead", NULL}, "\n== m on t1 ==\n", "table1\n");
  *fd_used = c.f.fd >= 0;
  *ok = flush(&c.f, "m");
  // Model 2: "x" at 4 shared, after the blank line that parts it from model 1.
  run(&c.f, (const char *const[]){"4:x", NULL}, "\n== n on t0 ==\n", "A\n");
  run(&c.f, (const char *const[]){"4:x", NULL}, "\n== n on t1 ==\n", "B\n");
  *ok = flush(&c.f, "n") && *ok;
  return capture_close(&c);
}

static const char kTwoModels[] =
    "W1:dead\n"
    "== m on t0 ==\nW2:fast\ntable0\n"
    "\n== m on t1 ==\ntable1\n"
    "\nW4:x\n== n on t0 ==\nA\n"
    "\n== n on t1 ==\nB\n";

static void test_order_in_memory(void) {
  bool ok;
  int fd_used;
  char *got = two_models(0, NULL, 0, &ok, &fd_used);
  CHECK(ok && !fd_used);  // 60 bytes of text: under 8 MiB, no file
  CHECK(!strcmp(got, kTwoModels));
  free(got);
}

static void test_order_through_file(void) {
  bool ok;
  int fd_used;
  char *got = two_models(1, g_dir, 0, &ok, &fd_used);  // every run's text goes to the file
  CHECK(ok && fd_used);
  CHECK(!strcmp(got, kTwoModels));
  free(got);
  // A directory that is not there: the text stays in memory, in the same order.
  got = two_models(1, "/nonexistent/metrale", 0, &ok, &fd_used);
  CHECK(ok && !fd_used);
  CHECK(!strcmp(got, kTwoModels));
  free(got);
}

// A blank line before the shared diagnostics, not between them and the first heading.
static void test_blank_line_first(void) {
  capture_t c;
  capture_open(&c, true, 0, NULL);
  run(&c.f, (const char *const[]){"5:~dead", NULL}, "\n== m on t0 ==\n", "table0\n");
  run(&c.f, (const char *const[]){"5:~dead", NULL}, "\n== m on t1 ==\n", "table1\n");
  CHECK(flush(&c.f, "m"));
  char *got = capture_close(&c);
  CHECK(!strcmp(got, "\nR5:dead\n== m on t0 ==\ntable0\n\n== m on t1 ==\ntable1\n"));
  free(got);
}

// Shared only when every run gave it as often as the first: two ops at one location.
static char *counts(const char *const *r0, const char *const *r1, const char *const *r2) {
  capture_t c;
  capture_open(&c, false, 0, NULL);
  run(&c.f, r0, "H0\n", "T0\n");
  run(&c.f, r1, "H1\n", "T1\n");
  if (r2) run(&c.f, r2, "H2\n", "T2\n");
  CHECK(flush(&c.f, "m"));
  return capture_close(&c);
}

static void test_counts(void) {
  const char *const once[] = {"7:d", NULL}, *const twice[] = {"7:d", "7:d", NULL};
  char *got = counts(twice, twice, NULL);
  CHECK(!strcmp(got, "W7:d\nW7:d\nH0\nT0\nH1\nT1\n"));  // 2 and 2: said twice, once
  free(got);
  got = counts(once, twice, NULL);
  CHECK(!strcmp(got, "H0\nW7:d\nT0\nH1\nW7:d\nW7:d\nT1\n"));  // 1 then 2: under each
  free(got);
  got = counts(twice, once, NULL);
  CHECK(!strcmp(got, "H0\nW7:d\nW7:d\nT0\nH1\nW7:d\nT1\n"));  // 2 then 1: under each
  free(got);
  got = counts(twice, twice, once);  // the last run's count differs
  CHECK(!strcmp(got, "H0\nW7:d\nW7:d\nT0\nH1\nW7:d\nW7:d\nT1\nH2\nW7:d\nT2\n"));
  free(got);
  got = counts(once, NULL, once);  // not every run
  CHECK(!strcmp(got, "H0\nW7:d\nT0\nH1\nT1\nH2\nW7:d\nT2\n"));
  free(got);
  got = counts(once, once, once);
  CHECK(!strcmp(got, "W7:d\nH0\nT0\nH1\nT1\nH2\nT2\n"));
  free(got);
}

// The file fills up (a file-size limit stands in for a full disk) after the first run:
// the rest stays in memory and nothing is lost or reordered.
static void test_file_full(void) {
  struct rlimit old;
  CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
  void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
  // "== m on t0 ==\n" + "table0\n" is 21 bytes: the first run fits, the second does not.
  struct rlimit lim = {25, old.rlim_max};
  CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0);
  bool ok;
  int fd_used;
  char *got = two_models(1, g_dir, 0, &ok, &fd_used);
  CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0);
  signal(SIGXFSZ, prev);
  CHECK(ok && fd_used);
  CHECK(!strcmp(got, kTwoModels));
  free(got);
  // The failed write's bytes are cut off the file: the disk gets its room back.
  CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0);
  signal(SIGXFSZ, SIG_IGN);
  cli_once_t f;
  sink_t s = {stdout};
  cli_once_initialize(&f, on_diag, &s, false, stdout, 1, g_dir);
  run(&f, NULL, "", "0123456789\n");          // 11 bytes
  run(&f, NULL, "", "0123456789012345678\n");  // 20 more: 31 > 25, 14 of them written
  struct stat st;
  CHECK(f.spill_failed && f.spilled == 11 && fstat(f.fd, &st) == 0 && st.st_size == 11);
  CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0);
  signal(SIGXFSZ, prev);
  printf("(test_cli_once: the next two lines are expected)\n");
  CHECK(flush(&f, "m"));
  cli_once_deinitialize(&f);
}

// The file is cut behind the filter's back: flush says so, and writes what it can.
static void test_read_back_fails(void) {
  capture_t c;
  capture_open(&c, false, 1, g_dir);
  run(&c.f, NULL, "H0\n", "T0\n");
  run(&c.f, NULL, "H1\n", "T1\n");
  CHECK(c.f.fd >= 0 && c.f.spilled == 12);  // 4 lines of 3 bytes
  CHECK(ftruncate(c.f.fd, 5) == 0);
  met_error_t err;
  met_error_init(&err);
  CHECK(cli_once_flush(&c.f, "m", &err) == MET_EEXTERNAL);
  CHECK(!strcmp(err.message, "part of the output of m held in a temporary file could not be "
                             "read back: the file ends early"));
  char *got = capture_close(&c);
  CHECK(!strcmp(got, "H0\nT0"));  // the 5 bytes left
  free(got);
}

// No file and no room in memory: the filter gives up on model m at its second run, says
// so, and writes what it held in order, each diagnostic under its run; model n (17 + 17
// bytes) is held again.
static void test_give_up(void) {
  bool ok;
  int fd_used;
  fprintf(stderr, "(test_cli_once: the next line is expected)\n");
  // 40 bytes of memory: run t0's 21 bytes fit, t1's 22 more do not.
  char *got = two_models(1, "/nonexistent/metrale", 40, &ok, &fd_used);
  CHECK(ok && !fd_used);
  CHECK(!strcmp(got,
                "== m on t0 ==\nW1:dead\nW2:fast\ntable0\n"
                "\n== m on t1 ==\nW1:dead\ntable1\n"
                "\nW4:x\n== n on t0 ==\nA\n"
                "\n== n on t1 ==\nB\n"));
  free(got);
}

int main(void) {
  test_order_in_memory();
  test_blank_line_first();
  test_counts();
  test_give_up();
  if (!pick_dir()) {
    printf("test_cli_once: no writable directory ($TMPDIR, /tmp, .): the file tests are skipped\n");
    return check_finish("test_cli_once");
  }
  test_order_through_file();
  test_file_full();
  test_read_back_fails();
  CHECK(rmdir(g_dir) == 0);  // every file was unlinked as soon as it was made
  return check_finish("test_cli_once");
}
