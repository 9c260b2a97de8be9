// metrale/ptrmap.h: an open-addressing map from opaque pointers to uint32 ids, used by the
// adapter to find the graph value of an MLIR value. Grows by doubling in an arena; never
// removes. Thread-compatible.
#ifndef METRALE_PTRMAP_H
#define METRALE_PTRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/arena.h"
#include "metrale/status.h"

// A key and its id side by side in 12 bytes: one cache line per probe (which matters when
// a million values miss the cache) and no more memory than two arrays. The key is split
// in 32-bit halves so that the entry needs no 8-byte alignment.
typedef struct met_ptrmap_entry_t {
  uint32_t key_lo, key_hi;  // both 0: an empty slot (NULL is never a key)
  uint32_t val;
} met_ptrmap_entry_t;

typedef struct met_ptrmap_t {
  met_arena_t *arena;
  met_ptrmap_entry_t *slots;
  size_t cap, count;
  bool scatter;  // keys too dense for page windows: every key hashed (ptrmap.c)
} met_ptrmap_t;

void met_ptrmap_initialize(met_arena_t *arena, met_ptrmap_t *map);
// Makes room for |count| keys without regrowing. Optional.
met_status_t met_ptrmap_reserve(met_ptrmap_t *map, size_t count);
// Inserts or overwrites |key| (not NULL). O(1) expected.
met_status_t met_ptrmap_put(met_ptrmap_t *map, const void *key, uint32_t val);
// Returns the id of |key| or UINT32_MAX. O(1) expected.
uint32_t met_ptrmap_get(const met_ptrmap_t *map, const void *key);

#endif
