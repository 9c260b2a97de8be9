// check.h: the tiny harness of metrale's C unit tests. Each CHECK counts; the program
// ends with the line "N passed, M failed" and exits non-zero on any failure.
#ifndef METRALE_TEST_CHECK_H
#define METRALE_TEST_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static int g_passed, g_failed;  // test-program counters (single-threaded test binaries)

#define CHECK(cond)                                                          \
  do {                                                                       \
    if (cond) { ++g_passed; }                                                \
    else { ++g_failed; fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } \
  } while (0)

#define CHECK_EQ_U64(a, b)                                                   \
  do {                                                                       \
    uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                         \
    if (a_ == b_) { ++g_passed; }                                            \
    else { ++g_failed; fprintf(stderr, "%s:%d: %s == %" PRIu64 ", expected %" PRIu64 "\n", \
                              __FILE__, __LINE__, #a, a_, b_); }             \
  } while (0)

static inline int check_finish(const char *name) {
  printf("%s: %d passed, %d failed\n", name, g_passed, g_failed);
  return g_failed ? 1 : 0;
}

// An allocator that fails on the |budget|-th call and after (tests of out-of-memory paths).
typedef struct failing_t { int calls, budget; } failing_t;
static inline void *failing_alloc(void *self, size_t n) {
  failing_t *f = self;
  if (f->calls++ >= f->budget) return NULL;
  return malloc(n);
}
static inline void failing_free(void *self, void *p) { (void)self; free(p); }

#endif
