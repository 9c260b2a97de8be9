// arena.c: the bump arena. Blocks are singly linked, newest first; allocation is a pointer
// bump inside the newest block, a request larger than the default block gets a block of
// its own. Expected workload: tens of thousands of small allocations per function
// analysed, a handful of large arrays.
#include "metrale/arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrale/checked.h"

struct met_arena_block_t {
  met_arena_block_t *next;
  size_t capacity;
  _Alignas(16) unsigned char data[];
};

// Makes |b| (or none) the block met_arena_alloc bumps into, |used| bytes in.
static void set_head(met_arena_t *arena, met_arena_block_t *b, size_t used) {
  arena->head = b;
  arena->used = used;
  arena->data = b ? b->data : NULL;
  arena->capacity = b ? b->capacity : 0;
}

static void *system_alloc(void *self, size_t bytes) { (void)self; return malloc(bytes); }
static void system_free(void *self, void *ptr) { (void)self; free(ptr); }

met_allocator_t met_allocator_system(void) {
  met_allocator_t a = {system_alloc, system_free, NULL, NULL};
  return a;
}

void met_arena_initialize(met_allocator_t allocator, met_arena_t *arena) {
  memset(arena, 0, sizeof(*arena));
  arena->allocator = allocator;
  arena->block_bytes = 64 * 1024;
}

void met_arena_initialize_buffer(met_allocator_t allocator, void *buffer, size_t size,
                                 met_arena_t *arena) {
  met_arena_initialize(allocator, arena);
  if (!buffer || ((uintptr_t)buffer & 15u) || size < sizeof(met_arena_block_t) + 16) return;
  met_arena_block_t *b = buffer;
  b->next = NULL;
  b->capacity = (size - sizeof(met_arena_block_t)) & ~(size_t)15u;
  arena->first = b;
  set_head(arena, b, 0);
}

// Gives |b| back to the allocator unless it is the caller's buffer.
static void give_back(met_arena_t *arena, met_arena_block_t *b) {
  if (b != arena->first) arena->allocator.free(arena->allocator.self, b);
}

void met_arena_deinitialize(met_arena_t *arena) {
  met_arena_block_t *b = arena->head;
  while (b) {
    met_arena_block_t *next = b->next;
    give_back(arena, b);
    b = next;
  }
  arena->first = NULL;
  set_head(arena, NULL, 0);
}

// A block of at least |*cap| payload bytes from the allocator; |*cap| becomes what it holds.
static met_arena_block_t *take_block(met_arena_t *arena, size_t *cap) {
  if (*cap > SIZE_MAX - sizeof(met_arena_block_t)) return NULL;
  size_t bytes = sizeof(met_arena_block_t) + *cap, got = 0;
  met_arena_block_t *b;
  if (arena->allocator.alloc_at_least) {
    b = arena->allocator.alloc_at_least(arena->allocator.self, bytes, &got);
    if (b && got > bytes) *cap = got - sizeof(met_arena_block_t);
  } else {
    b = arena->allocator.alloc(arena->allocator.self, bytes);
  }
  return b;
}

void *met_arena_alloc_block(met_arena_t *arena, size_t bytes) {
  size_t need = (bytes + 15u) & ~(size_t)15u;
  if (need < bytes) return NULL;
  if (!arena->head || arena->head->capacity - arena->used < need) {
    // Blocks grow geometrically from 1.5 KiB up to |block_bytes|, so that an arena used for
    // a tiny function (one of 20,000) takes about what it holds, not a whole 64 KiB block:
    // a one-op function's graph, Budget report and summary remark take about 1.1 KiB, and
    // a first block just under that doubles its memory (bench/RESULTS.md (1)).
    size_t grow = arena->head ? arena->head->capacity * 2 : 1536;
    if (grow > arena->block_bytes) grow = arena->block_bytes;
    size_t cap = need > grow ? need : grow;
    // A large request gets a block of at least half what the arena already holds, so a
    // large analysis takes a few blocks that its stages bump into and release in turn
    // (met_arena_release_to), not one block per array. Memory never touched stays virtual.
    if (need > arena->block_bytes && cap < arena->total_bytes / 2) cap = arena->total_bytes / 2;
    met_arena_block_t *b = take_block(arena, &cap);
    // The grown size is a wish: an allocator that refuses it may still give what is needed.
    if (!b && cap > need) {
      cap = need;
      b = take_block(arena, &cap);
    }
    if (!b) return NULL;
    b->capacity = cap;
    arena->total_bytes += sizeof(met_arena_block_t) + cap;
    // A large request keeps bumping in the current block afterwards, unless its own block
    // has more room left than the current one (an allocator that rounds up to whole pages).
    if (arena->head && need > arena->block_bytes &&
        cap - need <= arena->head->capacity - arena->used) {
      b->next = arena->head->next;
      arena->head->next = b;
      return b->data;
    }
    b->next = arena->head;
    set_head(arena, b, 0);
  }
  void *p = arena->head->data + arena->used;
  arena->used += need;
  return p;
}

met_status_t met_arena_calloc(met_arena_t *arena, size_t count, size_t size, void **out) {
  size_t bytes;
  *out = NULL;
  if (!met_mul_size(count, size, &bytes)) return MET_EOVERFLOW;
  void *p = met_arena_alloc(arena, bytes ? bytes : 1);
  if (!p) return MET_ENOMEM;
  memset(p, 0, bytes);
  *out = p;
  return MET_OK;
}

char *met_arena_strndup(met_arena_t *arena, const char *s, size_t len) {
  if (len == SIZE_MAX) return NULL;
  char *p = met_arena_alloc(arena, len + 1);
  if (!p) return NULL;
  if (len) memcpy(p, s, len);  // |s| may be NULL when |len| is 0
  p[len] = '\0';
  return p;
}

char *met_arena_printf(met_arena_t *arena, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *out = met_arena_vprintf(arena, fmt, ap);
  va_end(ap);
  return out;
}

char *met_arena_vprintf(met_arena_t *arena, const char *fmt, va_list ap) {
  char buf[2048];
  int n = vsnprintf(buf, sizeof(buf), fmt, ap);
  if (n < 0) return NULL;
  return met_arena_strndup(arena, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

met_status_t met_arena_reserve_grow(met_arena_t *arena, void **items, size_t *cap, size_t count,
                                    size_t elem) {
  if (count < *cap) return MET_OK;
  size_t ncap = *cap ? *cap * 2 : 16;
  if (ncap < *cap) return MET_EOVERFLOW;
  size_t bytes;
  if (!met_mul_size(ncap, elem, &bytes)) return MET_EOVERFLOW;
  void *p = met_arena_alloc(arena, bytes);
  if (!p) return MET_ENOMEM;
  if (*items && count) memcpy(p, *items, count * elem);
  *items = p;
  *cap = ncap;
  return MET_OK;
}


met_arena_mark_t met_arena_mark(const met_arena_t *arena) {
  met_arena_mark_t m = {arena->head, arena->head ? arena->head->next : NULL, arena->used};
  return m;
}

void met_arena_release_to(met_arena_t *arena, met_arena_mark_t mark) {
  // Default blocks made since the mark are in front of its head, and so are large blocks
  // linked in behind a newer head; large blocks linked in behind the mark's own head sit
  // between it and its old successor.
  met_arena_block_t *b = arena->head;
  while (b && b != mark.head) {
    met_arena_block_t *next = b->next;
    give_back(arena, b);
    b = next;
  }
  if (mark.head) {
    for (b = mark.head->next; b != mark.next;) {
      met_arena_block_t *next = b->next;
      give_back(arena, b);
      b = next;
    }
    mark.head->next = mark.next;
  }
  set_head(arena, mark.head, mark.used);
}
