// fuzz_common.h: what the libFuzzer harnesses of test/fuzz share: a reader that decodes
// the fuzzer's bytes into bounded integers (running out of bytes reads zeros, so every
// input decodes to something), an allocator that fails on purpose after a number of
// calls, and FUZZ_CHECK, which reports a broken invariant and aborts (libFuzzer then
// saves the input as a crash artifact).
// Thread-compatible: one reader per input; the harnesses run single-threaded.
#ifndef METRALE_FUZZ_COMMON_H
#define METRALE_FUZZ_COMMON_H

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "metrale/arena.h"

#define FUZZ_CHECK(cond)                                                            \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #cond); \
      abort();                                                                      \
    }                                                                               \
  } while (0)

#define FUZZ_CHECK_EQ(a, b)                                                          \
  do {                                                                               \
    uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                                 \
    if (a_ != b_) {                                                                  \
      fprintf(stderr, "%s:%d: invariant broken: %s == %" PRIu64 ", expected %s == %" \
              PRIu64 "\n", __FILE__, __LINE__, #a, a_, #b, b_);                      \
      abort();                                                                       \
    }                                                                                \
  } while (0)

typedef struct fuzz_reader_t {
  const uint8_t *data;
  size_t size, pos;
} fuzz_reader_t;

static inline bool fuzz_done(const fuzz_reader_t *r) { return r->pos >= r->size; }

static inline uint8_t fuzz_u8(fuzz_reader_t *r) {
  return r->pos < r->size ? r->data[r->pos++] : 0;
}

static inline uint16_t fuzz_u16(fuzz_reader_t *r) {
  uint16_t lo = fuzz_u8(r);
  return (uint16_t)(lo | (uint16_t)fuzz_u8(r) << 8);
}

// A value in [0, n) (n > 0), from one byte when n <= 256, else from two.
static inline uint32_t fuzz_below(fuzz_reader_t *r, uint32_t n) {
  return n <= 256 ? fuzz_u8(r) % n : fuzz_u16(r) % n;
}

// A byte size with a wide distribution: mostly small and round (what tensors are), now
// and then 0, odd, or near 2^64 (what overflow checks are for).
static inline uint64_t fuzz_size(fuzz_reader_t *r) {
  uint8_t sel = fuzz_u8(r);
  uint64_t base = fuzz_u16(r);
  switch (sel & 15) {
    case 0: return 0;
    case 1: case 2: case 3: return base;                    // small, odd ones too
    case 4: case 5: case 6: return base << (sel >> 4);      // up to ~2^31, round
    case 7: return (base | 1) << (16 + (sel >> 4));          // up to 2^47
    case 8: return UINT64_MAX - base;                        // overflows any sum
    case 9: return (uint64_t)1 << (48 + (sel >> 4));         // 2^48 .. 2^63
    default: return (base & 0xff) * 64;                      // many equal aligned sizes
  }
}

// An allocator that fails from its |budget|-th call on (tests of out-of-memory paths).
typedef struct fuzz_failing_t {
  uint32_t calls, budget;
} fuzz_failing_t;

static inline void *fuzz_failing_alloc(void *self, size_t n) {
  fuzz_failing_t *f = self;
  if (f->calls++ >= f->budget) return NULL;
  return malloc(n);
}
static inline void fuzz_failing_free(void *self, void *p) {
  (void)self;
  free(p);
}

// An arena whose allocator fails after |f->budget| calls, in blocks of |block_bytes|.
static inline void fuzz_failing_arena(fuzz_failing_t *f, size_t block_bytes, met_arena_t *out) {
  met_allocator_t al = {fuzz_failing_alloc, fuzz_failing_free, f, NULL};
  met_arena_initialize(al, out);
  out->block_bytes = block_bytes;
}

#endif
