// metrale/strmap.h: an open-addressing map from (scope, name) keys to size_t values: a
// module's symbols by their symbol table and name, functions by qualified name (scope
// NULL). The names are not copied: their storage must outlive the map. Grows by doubling
// in an arena, at most half full; never removes. Thread-compatible: concurrent gets are
// safe once the puts are done.
#ifndef METRALE_STRMAP_H
#define METRALE_STRMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "metrale/arena.h"
#include "metrale/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct met_strmap_slot_t {
  const void *scope;
  const char *name;  // NULL: an empty slot
  size_t len;
  size_t val;
} met_strmap_slot_t;

typedef struct met_strmap_t {
  met_arena_t *arena;
  met_strmap_slot_t *slots;
  size_t cap, count;
} met_strmap_t;

void met_strmap_initialize(met_arena_t *arena, met_strmap_t *map);
// Inserts (scope, name[0..len)) with |val| unless the key is there; |*inserted| (may be
// NULL) says which. |name| must not be NULL. O(1) expected.
met_status_t met_strmap_put(met_strmap_t *map, const void *scope, const char *name,
                            size_t len, size_t val, bool *inserted);
// The value of (scope, name[0..len)), or SIZE_MAX. O(1) expected.
size_t met_strmap_get(const met_strmap_t *map, const void *scope, const char *name, size_t len);

#ifdef __cplusplus
}
#endif

#endif
