// planner.c: greedy offset planning over lifetimes.
//
// Buffers are placed one at a time in a strategy's order. To place a buffer with lifetime
// [a, b] we need the already placed buffers whose lifetimes intersect it: those alive at
// position a plus those that start inside (a, b] (a list per start position). "Alive at
// a" comes from two places: a short buffer (lifetime of at most kShort positions, nearly
// all of them in real graphs) is listed at every position it covers; a long one is kept in
// a segment tree over positions (each node holding the intervals that cover it
// canonically), built lazily and asked only when a long buffer has been placed. The
// memory ranges found are sorted by offset and scanned for a gap.
// Invariant after each placement: no two placed buffers with intersecting lifetimes share
// a byte. Expected workload: up to ~10^6 buffers with lifetimes of a few positions.
#include "metrale/planner.h"

#include <stdlib.h>
#include <string.h>

#include "metrale/checked.h"

typedef struct cell_t { int32_t buf; int32_t next; } cell_t;

typedef struct order_t { uint64_t key; int32_t first; uint32_t idx; } order_t;

typedef struct range_t { uint64_t lo, hi; } range_t;

enum { kShort = 16 };

typedef struct plan_state_t {
  met_arena_t *arena;
  cell_t *cells; size_t ncells, capcells;
  int32_t *tree;        // head cell per segment-tree node, -1 empty (NULL until needed)
  int32_t *starts;      // head cell per start position
  int32_t *cover;       // head cell per position: short buffers alive there
  uint32_t leaves;      // power of two >= positions
  range_t *tmp;         // overlapping ranges of one query
} plan_state_t;

static int cmp_order(const void *pa, const void *pb) {
  const order_t *a = pa, *b = pb;
  if (a->key != b->key) return a->key > b->key ? -1 : 1;
  if (a->first != b->first) return a->first < b->first ? -1 : 1;
  return a->idx < b->idx ? -1 : (a->idx > b->idx);
}

static int cmp_range(const void *pa, const void *pb) {
  const range_t *a = pa, *b = pb;
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  return a->hi < b->hi ? -1 : (a->hi > b->hi);
}

static met_status_t push_cell(plan_state_t *s, int32_t *head, int32_t buf) {
  met_status_t st = met_arena_reserve(s->arena, (void **)&s->cells, &s->capcells, s->ncells,
                                      sizeof(cell_t));
  if (st) return st;
  s->cells[s->ncells].buf = buf;
  s->cells[s->ncells].next = *head;
  *head = (int32_t)s->ncells++;
  return MET_OK;
}

// Adds buffer |buf| covering [a, b] to the canonical nodes of the segment tree.
static met_status_t tree_insert(plan_state_t *s, uint32_t node, uint32_t lo, uint32_t hi,
                                uint32_t a, uint32_t b, int32_t buf) {
  if (b < lo || hi < a) return MET_OK;
  if (a <= lo && hi <= b) return push_cell(s, &s->tree[node], buf);
  uint32_t mid = lo + (hi - lo) / 2;
  met_status_t st = tree_insert(s, 2 * node, lo, mid, a, b, buf);
  if (st) return st;
  return tree_insert(s, 2 * node + 1, mid + 1, hi, a, b, buf);
}

static met_status_t plan_one_order(const met_buffer_t *buf, size_t n, uint32_t positions,
                                   const order_t *order, int best_fit, met_arena_t *arena,
                                   uint64_t *offsets, uint64_t *out_size) {
  plan_state_t s;
  memset(&s, 0, sizeof(s));
  s.arena = arena;
  s.leaves = 1;
  while (s.leaves < positions) s.leaves *= 2;
  met_status_t st;
  if ((st = met_arena_calloc(arena, positions, sizeof(int32_t), (void **)&s.starts))) return st;
  if ((st = met_arena_calloc(arena, positions, sizeof(int32_t), (void **)&s.cover))) return st;
  if ((st = met_arena_calloc(arena, n, sizeof(range_t), (void **)&s.tmp))) return st;
  memset(s.starts, 0xff, positions * sizeof(int32_t));
  memset(s.cover, 0xff, positions * sizeof(int32_t));

  uint64_t arena_size = 0;
  for (size_t k = 0; k < n; ++k) {
    uint32_t i = order[k].idx;
    const met_buffer_t *b = &buf[i];
    if (b->bytes == 0) { offsets[i] = 0; continue; }
    size_t m = 0;
    // Placed buffers alive at b->first: short ones from the cover list ...
    for (int32_t c = s.cover[b->first]; c >= 0; c = s.cells[c].next) {
      int32_t j = s.cells[c].buf;
      s.tmp[m].lo = offsets[j];
      s.tmp[m].hi = offsets[j] + buf[j].bytes;
      ++m;
    }
    // ... long ones from the tree.
    uint32_t node = 1, lo = 0, hi = s.leaves - 1, p = (uint32_t)b->first;
    while (s.tree) {
      for (int32_t c = s.tree[node]; c >= 0; c = s.cells[c].next) {
        int32_t j = s.cells[c].buf;
        s.tmp[m].lo = offsets[j];
        s.tmp[m].hi = offsets[j] + buf[j].bytes;
        ++m;
      }
      if (lo == hi) break;
      uint32_t mid = lo + (hi - lo) / 2;
      if (p <= mid) { node = 2 * node; hi = mid; } else { node = 2 * node + 1; lo = mid + 1; }
    }
    // Placed buffers starting inside (first, last].
    for (int32_t t = b->first + 1; t <= b->last; ++t) {
      for (int32_t c = s.starts[t]; c >= 0; c = s.cells[c].next) {
        int32_t j = s.cells[c].buf;
        s.tmp[m].lo = offsets[j];
        s.tmp[m].hi = offsets[j] + buf[j].bytes;
        ++m;
      }
    }
    if (m > 16) {
      qsort(s.tmp, m, sizeof(range_t), cmp_range);
    } else {
      for (size_t x = 1; x < m; ++x) {  // the usual case: a handful of ranges
        range_t v = s.tmp[x];
        size_t y = x;
        for (; y > 0 && cmp_range(&s.tmp[y - 1], &v) > 0; --y) s.tmp[y] = s.tmp[y - 1];
        s.tmp[y] = v;
      }
    }
    uint64_t cur = 0, chosen = UINT64_MAX, chosen_gap = UINT64_MAX;
    for (size_t r = 0; r < m; ++r) {
      if (s.tmp[r].lo > cur && s.tmp[r].lo - cur >= b->bytes) {
        uint64_t gap = s.tmp[r].lo - cur;
        if (!best_fit) { chosen = cur; break; }
        if (gap < chosen_gap) { chosen_gap = gap; chosen = cur; }
      }
      if (s.tmp[r].hi > cur) cur = s.tmp[r].hi;
    }
    if (chosen == UINT64_MAX) chosen = cur;
    uint64_t end;
    if (!met_add_u64(chosen, b->bytes, &end)) return MET_EOVERFLOW;
    offsets[i] = chosen;
    if (end > arena_size) arena_size = end;
    if (b->last - b->first < kShort) {
      for (int32_t t = b->first; t <= b->last; ++t)
        if ((st = push_cell(&s, &s.cover[t], (int32_t)i))) return st;
    } else {
      if (!s.tree) {
        if ((st = met_arena_calloc(arena, 2 * (size_t)s.leaves, sizeof(int32_t),
                                   (void **)&s.tree)))
          return st;
        memset(s.tree, 0xff, 2 * (size_t)s.leaves * sizeof(int32_t));
      }
      if ((st = tree_insert(&s, 1, 0, s.leaves - 1, (uint32_t)b->first, (uint32_t)b->last,
                            (int32_t)i)))
        return st;
    }
    if ((st = push_cell(&s, &s.starts[b->first], (int32_t)i))) return st;
  }
  *out_size = arena_size;
  return MET_OK;
}

static met_status_t make_order(const met_buffer_t *buf, size_t n, int by_area,
                               met_arena_t *arena, order_t **out) {
  order_t *order;
  met_status_t st = met_arena_calloc(arena, n, sizeof(order_t), (void **)&order);
  if (st) return st;
  for (size_t i = 0; i < n; ++i) {
    uint64_t key = buf[i].bytes;
    if (by_area && !met_mul_u64(key, (uint64_t)(buf[i].last - buf[i].first) + 1, &key))
      key = UINT64_MAX;  // saturate: only the order depends on it
    order[i].key = key;
    order[i].first = buf[i].first;
    order[i].idx = (uint32_t)i;
  }
  qsort(order, n, sizeof(order_t), cmp_order);
  *out = order;
  return MET_OK;
}

met_status_t met_planner_plan(const met_buffer_t *buffers, size_t count, uint32_t positions,
                              met_plan_strategy_t strategy, met_arena_t *scratch,
                              uint64_t *out_offsets, uint64_t *out_arena_bytes) {
  *out_arena_bytes = 0;
  uint64_t bound = 0;
  if (strategy == MET_PLAN_BEST && count) {
    // A plan that meets the sum-of-live lower bound is optimal: no need to try more.
    met_status_t st = met_planner_peak_live(buffers, count, positions, scratch, &bound);
    if (st) return st;
  }
  return met_planner_plan_bounded(buffers, count, positions, strategy, bound, scratch,
                                  out_offsets, out_arena_bytes);
}

met_status_t met_planner_plan_bounded(const met_buffer_t *buffers, size_t count,
                                      uint32_t positions, met_plan_strategy_t strategy,
                                      uint64_t lower_bound, met_arena_t *scratch,
                                      uint64_t *out_offsets, uint64_t *out_arena_bytes) {
  *out_arena_bytes = 0;
  if (count > INT32_MAX) return MET_EINVAL;
  for (size_t i = 0; i < count; ++i) {
    if (buffers[i].first < 0 || buffers[i].last < buffers[i].first ||
        (uint32_t)buffers[i].last >= positions)
      return MET_EINVAL;
  }
  if (count == 0) return MET_OK;
  static const struct { int by_area, best_fit; } kinds[3] = {{0, 0}, {0, 1}, {1, 1}};
  int lo = strategy == MET_PLAN_BEST ? 0 : (int)strategy;
  int hi = strategy == MET_PLAN_BEST ? 2 : (int)strategy;
  if (lo < 0 || hi > 2) return MET_EINVAL;
  uint64_t *trial = out_offsets;
  uint64_t bound = hi > lo ? lower_bound : 0;
  met_status_t st;
  if (hi > lo && (st = met_arena_calloc(scratch, count, sizeof(uint64_t), (void **)&trial)))
    return st;
  uint64_t best = UINT64_MAX;
  bool have = false;  // an arena of exactly 2^64 - 1 bytes is a plan too
  order_t *order = NULL;
  for (int k = lo; k <= hi && (!have || best > bound); ++k) {
    if (!order || kinds[k].by_area != kinds[k - 1].by_area)
      if ((st = make_order(buffers, count, kinds[k].by_area, scratch, &order))) return st;
    uint64_t size;
    if ((st = plan_one_order(buffers, count, positions, order, kinds[k].best_fit, scratch,
                             trial, &size)))
      return st;
    if (!have || size < best) {
      have = true;
      best = size;
      if (trial != out_offsets && count) memcpy(out_offsets, trial, count * sizeof(uint64_t));
    }
  }
  *out_arena_bytes = best;
  return MET_OK;
}

met_status_t met_planner_peak_live(const met_buffer_t *buffers, size_t count,
                                   uint32_t positions, met_arena_t *scratch,
                                   uint64_t *out_peak) {
  *out_peak = 0;
  uint64_t *add, *sub;
  met_status_t st;
  if ((st = met_arena_calloc(scratch, (size_t)positions + 1, sizeof(uint64_t), (void **)&add)))
    return st;
  if ((st = met_arena_calloc(scratch, (size_t)positions + 1, sizeof(uint64_t), (void **)&sub)))
    return st;
  for (size_t i = 0; i < count; ++i) {
    const met_buffer_t *b = &buffers[i];
    if (b->first < 0 || b->last < b->first || (uint32_t)b->last >= positions) return MET_EINVAL;
    if (!met_add_u64(add[b->first], b->bytes, &add[b->first])) return MET_EOVERFLOW;
    if (!met_add_u64(sub[b->last + 1], b->bytes, &sub[b->last + 1])) return MET_EOVERFLOW;
  }
  uint64_t live = 0, peak = 0;
  for (uint32_t t = 0; t < positions; ++t) {
    live -= sub[t];  // never underflows: what leaves at t entered before t
    if (!met_add_u64(live, add[t], &live)) return MET_EOVERFLOW;
    if (live > peak) peak = live;
  }
  *out_peak = peak;
  return MET_OK;
}

met_status_t met_planner_verify(const met_buffer_t *buffers, size_t count,
                                const uint64_t *offsets, size_t *out_a, size_t *out_b) {
  for (size_t i = 0; i < count; ++i) {
    for (size_t j = i + 1; j < count; ++j) {
      const met_buffer_t *a = &buffers[i], *b = &buffers[j];
      if (a->bytes == 0 || b->bytes == 0) continue;
      if (a->last < b->first || b->last < a->first) continue;
      if (offsets[i] + a->bytes <= offsets[j] || offsets[j] + b->bytes <= offsets[i]) continue;
      *out_a = i;
      *out_b = j;
      return MET_EINVAL;
    }
  }
  return MET_OK;
}
