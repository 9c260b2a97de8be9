// strmap.c: linear probing over a power-of-two table kept at most half full, keys hashed
// with FNV-1a (metrale/strmap.h).
#include "metrale/strmap.h"

#include <stdint.h>
#include <string.h>

#include "metrale/checked.h"

void met_strmap_initialize(met_arena_t *arena, met_strmap_t *map) {
  memset(map, 0, sizeof(*map));
  map->arena = arena;
}

static size_t key_hash(const void *scope, const char *name, size_t len) {
  uint64_t h = 1469598103934665603ull ^ (uint64_t)(uintptr_t)scope;
  for (size_t i = 0; i < len; ++i) h = (h ^ (unsigned char)name[i]) * 1099511628211ull;
  return (size_t)(h ^ (h >> 29));
}

static met_strmap_slot_t *slot_of(const met_strmap_slot_t *slots, size_t cap, const void *scope,
                                  const char *name, size_t len) {
  for (size_t i = key_hash(scope, name, len) & (cap - 1);; i = (i + 1) & (cap - 1)) {
    const met_strmap_slot_t *e = &slots[i];
    if (!e->name || (e->scope == scope && e->len == len && !memcmp(e->name, name, len)))
      return (met_strmap_slot_t *)e;
  }
}

static met_status_t grow(met_strmap_t *m) {
  size_t ncap = m->cap ? m->cap : 8, bytes;
  while (ncap < 2 * (m->count + 1)) {
    if (!met_mul_size(ncap, 2, &ncap)) return MET_EOVERFLOW;
  }
  if (ncap == m->cap) return MET_OK;
  if (!met_mul_size(ncap, sizeof(met_strmap_slot_t), &bytes)) return MET_EOVERFLOW;
  met_strmap_slot_t *slots = met_arena_alloc(m->arena, bytes);
  if (!slots) return MET_ENOMEM;
  memset(slots, 0, bytes);
  for (size_t i = 0; i < m->cap; ++i)
    if (m->slots[i].name)
      *slot_of(slots, ncap, m->slots[i].scope, m->slots[i].name, m->slots[i].len) = m->slots[i];
  m->slots = slots;
  m->cap = ncap;
  return MET_OK;
}

met_status_t met_strmap_put(met_strmap_t *map, const void *scope, const char *name,
                            size_t len, size_t val, bool *inserted) {
  if (!name) return MET_EINVAL;
  MET_RETURN_IF_ERROR(grow(map));
  met_strmap_slot_t *e = slot_of(map->slots, map->cap, scope, name, len);
  bool fresh = !e->name;
  if (fresh) {
    *e = (met_strmap_slot_t){scope, name, len, val};
    map->count++;
  }
  if (inserted) *inserted = fresh;
  return MET_OK;
}

size_t met_strmap_get(const met_strmap_t *map, const void *scope, const char *name, size_t len) {
  if (!map->cap || !name) return SIZE_MAX;
  const met_strmap_slot_t *e = slot_of(map->slots, map->cap, scope, name, len);
  return e->name ? e->val : SIZE_MAX;
}
