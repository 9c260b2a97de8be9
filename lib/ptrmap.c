// ptrmap.c: linear probing over a power-of-two table kept at most half full.
#include "metrale/ptrmap.h"

#include <string.h>

void met_ptrmap_initialize(met_arena_t *arena, met_ptrmap_t *map) {
  memset(map, 0, sizeof(*map));
  map->arena = arena;
}

static size_t slot_of(uintptr_t k, size_t cap) {
  uint64_t h = (uint64_t)k * 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 20) & (cap - 1);
}

static met_status_t grow_to(met_ptrmap_t *m, size_t ncap) {
  uintptr_t *keys;
  uint32_t *vals;
  met_status_t st = met_arena_calloc(m->arena, ncap, sizeof(uintptr_t), (void **)&keys);
  if (st) return st;
  if ((st = met_arena_calloc(m->arena, ncap, sizeof(uint32_t), (void **)&vals))) return st;
  for (size_t i = 0; i < m->cap; ++i) {
    if (!m->keys[i]) continue;
    size_t s = slot_of(m->keys[i], ncap);
    while (keys[s]) s = (s + 1) & (ncap - 1);
    keys[s] = m->keys[i];
    vals[s] = m->vals[i];
  }
  m->keys = keys;
  m->vals = vals;
  m->cap = ncap;
  return MET_OK;
}

static met_status_t grow(met_ptrmap_t *m) { return grow_to(m, m->cap ? m->cap * 2 : 16); }

met_status_t met_ptrmap_reserve(met_ptrmap_t *map, size_t count) {
  size_t cap = 16;
  while (cap < count * 2) {
    if (cap > SIZE_MAX / 4) return MET_EOVERFLOW;
    cap *= 2;
  }
  return cap > map->cap ? grow_to(map, cap) : MET_OK;
}

met_status_t met_ptrmap_put(met_ptrmap_t *map, const void *key, uint32_t val) {
  uintptr_t k = (uintptr_t)key;
  if (!k) return MET_EINVAL;
  if ((map->count + 1) * 2 > map->cap) {
    met_status_t st = grow(map);
    if (st) return st;
  }
  size_t s = slot_of(k, map->cap);
  while (map->keys[s] && map->keys[s] != k) s = (s + 1) & (map->cap - 1);
  if (!map->keys[s]) { map->keys[s] = k; map->count++; }
  map->vals[s] = val;
  return MET_OK;
}

uint32_t met_ptrmap_get(const met_ptrmap_t *map, const void *key) {
  uintptr_t k = (uintptr_t)key;
  if (!map->cap || !k) return UINT32_MAX;
  size_t s = slot_of(k, map->cap);
  while (map->keys[s]) {
    if (map->keys[s] == k) return map->vals[s];
    s = (s + 1) & (map->cap - 1);
  }
  return UINT32_MAX;
}
