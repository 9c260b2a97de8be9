// ptrmap.c: linear probing over a power-of-two table kept at most half full.
#include "metrale/ptrmap.h"

#include <stdbool.h>
#include <string.h>

void met_ptrmap_initialize(met_arena_t *arena, met_ptrmap_t *map) {
  memset(map, 0, sizeof(*map));
  map->arena = arena;
}

static bool is_empty(const met_ptrmap_entry_t *e) { return !(e->key_lo | e->key_hi); }

static bool holds(const met_ptrmap_entry_t *e, uint64_t k) {
  return e->key_lo == (uint32_t)k && e->key_hi == (uint32_t)(k >> 32);
}

static uint64_t key_of(const met_ptrmap_entry_t *e) {
  return (uint64_t)e->key_hi << 32 | e->key_lo;
}

// Keys are addresses of MLIR objects, made in program order by the parser, and are put and
// looked up in about that order. A large table keeps that locality: the keys of one 4 KiB
// page go to one window of 32 slots (384 bytes, by their 128-byte granule), and pages to
// windows by a Fibonacci hash, so a run of puts touches a few cache lines instead of one
// per key. A page of MLIR ops holds about 20 values (an op with its result, operands and
// own fields takes 150 to 250 bytes), so a window holds its page's keys in about six
// cache lines and spills little; a window of 256 slots by 16-byte granule (before) took
// one cache line per key, and the puts of a 1M-op graph took a third of the adapter's time.
// Keys much denser than that (a put probing past 512 slots) turn the table to |scatter|:
// every key hashed, so no pattern of addresses makes a put cost more than that. A small
// table hashes every key too.
static size_t slot_of(const met_ptrmap_t *m, uint64_t k, size_t cap) {
  if (cap < 4096 || m->scatter) return (size_t)((k * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
  uint64_t page = (k >> 12) * 0x9E3779B97F4A7C15ull;
  return (size_t)((page >> 20) << 5 | (k >> 7 & 31)) & (cap - 1);
}

static met_status_t grow_to(met_ptrmap_t *m, size_t ncap) {
  met_ptrmap_entry_t *slots;
  met_status_t st = met_arena_calloc(m->arena, ncap, sizeof(*slots), (void **)&slots);
  if (st) return st;
  for (size_t i = 0; i < m->cap; ++i) {
    if (is_empty(&m->slots[i])) continue;
    size_t s = slot_of(m, key_of(&m->slots[i]), ncap);
    while (!is_empty(&slots[s])) s = (s + 1) & (ncap - 1);
    slots[s] = m->slots[i];
  }
  m->slots = slots;
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
  uint64_t k = (uint64_t)(uintptr_t)key;
  if (!k) return MET_EINVAL;
  if ((map->count + 1) * 2 > map->cap) {
    met_status_t st = grow(map);
    if (st) return st;
  }
  size_t s = slot_of(map, k, map->cap), probes = 0;
  while (!is_empty(&map->slots[s]) && !holds(&map->slots[s], k)) {
    s = (s + 1) & (map->cap - 1);
    if (++probes > 512 && !map->scatter && map->cap >= 4096) {
      map->scatter = true;  // rehash every key, then put this one
      met_status_t st = grow_to(map, map->cap);
      return st ? st : met_ptrmap_put(map, key, val);
    }
  }
  if (is_empty(&map->slots[s])) {
    map->slots[s].key_lo = (uint32_t)k;
    map->slots[s].key_hi = (uint32_t)(k >> 32);
    map->count++;
  }
  map->slots[s].val = val;
  return MET_OK;
}

uint32_t met_ptrmap_get(const met_ptrmap_t *map, const void *key) {
  uint64_t k = (uint64_t)(uintptr_t)key;
  if (!map->cap || !k) return UINT32_MAX;
  size_t s = slot_of(map, k, map->cap);
  while (!is_empty(&map->slots[s])) {
    if (holds(&map->slots[s], k)) return map->slots[s].val;
    s = (s + 1) & (map->cap - 1);
  }
  return UINT32_MAX;
}
