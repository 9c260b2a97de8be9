// metrale/arena.h: one bump arena per analysis run (IREE arena.h: "frees are ignored").
//
// All memory of one analysis (graph, plans, reports) comes from one arena and is released
// as a whole by met_arena_deinitialize. The arena draws blocks from a met_allocator_t so
// tests can hand it an allocator that fails on purpose.
// Thread-compatible: one arena per thread / per analysis run.
#ifndef METRALE_ARENA_H
#define METRALE_ARENA_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// A block allocator. |alloc| returns NULL on failure; |free| accepts NULL.
// |alloc_at_least| (optional, may be NULL) returns a block of at least |bytes| and sets
// |*got| to what it really holds: an allocator that maps whole pages says so, and the arena
// bumps into the rest of the page instead of leaving it untouched.
typedef struct met_allocator_t {
  void *(*alloc)(void *self, size_t bytes);
  void (*free)(void *self, void *ptr);
  void *self;
  void *(*alloc_at_least)(void *self, size_t bytes, size_t *got);
} met_allocator_t;

// The C library's malloc/free.
met_allocator_t met_allocator_system(void);

typedef struct met_arena_block_t met_arena_block_t;

typedef struct met_arena_t {
  met_allocator_t allocator;
  met_arena_block_t *head;   // newest block
  size_t used;               // bytes used in |head|
  unsigned char *data;       // |head|'s payload, and its size (NULL and 0 without a head):
  size_t capacity;           // what met_arena_alloc bumps into without a call
  size_t block_bytes;        // largest default block payload (blocks grow from 1 KiB)
  uint64_t total_bytes;      // bytes obtained from |allocator| (for memory benchmarks)
  met_arena_block_t *first;  // the caller's buffer (met_arena_initialize_buffer) or NULL:
                             // the oldest block, never given back to |allocator|
} met_arena_t;

// Initializes |arena| on caller storage. No memory is taken until the first allocation.
void met_arena_initialize(met_allocator_t allocator, met_arena_t *arena);
// Like met_arena_initialize, with |buffer| (|size| bytes, 16-byte aligned, outliving the
// arena; commonly a local array) as its first block, so that an analysis whose scratch fits
// in it allocates nothing: for the short-lived arenas of the many tiny functions a module
// may hold. A |size| too small for a block header leaves the arena without one.
void met_arena_initialize_buffer(met_allocator_t allocator, void *buffer, size_t size,
                                 met_arena_t *arena);
// Returns every block to the allocator. Safe on a zeroed or already deinitialized arena.
void met_arena_deinitialize(met_arena_t *arena);

// Returns |bytes| of 16-byte aligned, uninitialized memory, or NULL when the allocator
// fails or |bytes| overflows. O(1) amortized; inline while the head block has room (an
// analysis of a tiny function makes dozens of small allocations, each a call otherwise).
void *met_arena_alloc_block(met_arena_t *arena, size_t bytes);
static inline void *met_arena_alloc(met_arena_t *arena, size_t bytes) {
  size_t need = (bytes + 15u) & ~(size_t)15u;
  // need - 1 wraps for 0 bytes (and for a |bytes| whose rounding overflowed): both take the
  // block path, which gives an empty arena a block instead of NULL + 0.
  if (need - 1 < arena->capacity - arena->used) {
    void *p = arena->data + arena->used;
    arena->used += need;
    return p;
  }
  return met_arena_alloc_block(arena, bytes);
}
// Like met_arena_alloc for |count| * |size| bytes, zero-filled, with the product checked.
met_status_t met_arena_calloc(met_arena_t *arena, size_t count, size_t size, void **out);
// Copies |len| bytes of |s| plus a NUL into the arena. Returns NULL on failure.
char *met_arena_strndup(met_arena_t *arena, const char *s, size_t len);
// Formats like snprintf into a new NUL-terminated string in the arena (messages are cut
// at 2047 bytes). Returns NULL on failure.
char *met_arena_printf(met_arena_t *arena, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
char *met_arena_vprintf(met_arena_t *arena, const char *fmt, va_list ap);
// A point in an arena's life: everything allocated after it can be released at once
// (met_arena_release_to), so one arena serves stages whose arrays die in turn, without
// returning memory to the system and asking for it again.
typedef struct met_arena_mark_t {
  met_arena_block_t *head, *next;  // the head block then, and what followed it
  size_t used;
} met_arena_mark_t;
met_arena_mark_t met_arena_mark(const met_arena_t *arena);
// Releases what was allocated after |mark|: the blocks made since go back to the
// allocator, and allocation resumes where the mark was. O(blocks released).
void met_arena_release_to(met_arena_t *arena, met_arena_mark_t mark);

// Grows an arena-backed array: when |*count| == |*cap|, moves |*items| to a block twice as
// large (the old one is abandoned to the arena). |elem| is the element size.
// The growing half is out of line; the test is inline (a graph's build calls this per
// node, value and operand).
met_status_t met_arena_reserve_grow(met_arena_t *arena, void **items, size_t *cap, size_t count,
                                    size_t elem);
static inline met_status_t met_arena_reserve(met_arena_t *arena, void **items, size_t *cap,
                                             size_t count, size_t elem) {
  if (count < *cap) return MET_OK;
  return met_arena_reserve_grow(arena, items, cap, count, elem);
}

#ifdef __cplusplus
}
#endif

#endif
