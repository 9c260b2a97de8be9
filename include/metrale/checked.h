// metrale/checked.h: overflow-checked arithmetic on sizes (Lua's luaM_testsize habit).
// Every product or sum of sizes in metrale is checked: through these, or, where a loop
// needs the carry itself, __builtin_*_overflow directly. Thread-safe.
#ifndef METRALE_CHECKED_H
#define METRALE_CHECKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// Sets |*out| = a * b; returns false (and leaves |*out| undefined) on overflow.
static inline bool met_mul_u64(uint64_t a, uint64_t b, uint64_t *out) {
  return !__builtin_mul_overflow(a, b, out);
}
// Sets |*out| = a + b; returns false on overflow.
static inline bool met_add_u64(uint64_t a, uint64_t b, uint64_t *out) {
  return !__builtin_add_overflow(a, b, out);
}
// Rounds |v| up to a multiple of |align| (a power of two or any value >= 1).
// Returns false on overflow.
static inline bool met_align_up_u64(uint64_t v, uint64_t align, uint64_t *out) {
  if (align <= 1) { *out = v; return true; }
  uint64_t rem = v % align;
  if (rem == 0) { *out = v; return true; }
  return met_add_u64(v, align - rem, out);
}
// Sets |*out| = a + b as size_t; false on overflow.
static inline bool met_add_size(size_t a, size_t b, size_t *out) {
  return !__builtin_add_overflow(a, b, out);
}

// Sets |*out| = a * b as size_t; false on overflow.
static inline bool met_mul_size(size_t a, size_t b, size_t *out) {
  return !__builtin_mul_overflow(a, b, out);
}

#endif
