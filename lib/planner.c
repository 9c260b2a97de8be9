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

// A buffer's place in a strategy's order: largest key first, then largest key2, then
// smallest first (a strategy that prefers later starts stores -start), then index.
typedef struct order_t { uint64_t key, key2; int32_t first; uint32_t idx; } order_t;

typedef struct range_t { uint64_t lo, hi; } range_t;

enum { kShort = 16 };

// One planning pass's lists, allocated once per met_planner_plan_bounded call at their
// exact sizes (plan_state_init) and reset for each strategy it tries.
typedef struct plan_state_t {
  cell_t *cells; size_t ncells, capcells;  // capcells: exactly what the buffers need
  int32_t *tree;        // head cell per segment-tree node, -1 empty (NULL until needed)
  int32_t *starts;      // head cell per start position
  int32_t *cover;       // head cell per position: short buffers alive there
  uint32_t leaves;      // power of two >= positions
  range_t *tmp;         // overlapping ranges of one query
  int ntree;            // 1 once a long buffer is in the tree (queries skip it before)
} plan_state_t;

static int cmp_order(const void *pa, const void *pb) {
  const order_t *a = pa, *b = pb;
  if (a->key != b->key) return a->key > b->key ? -1 : 1;
  if (a->key2 != b->key2) return a->key2 > b->key2 ? -1 : 1;
  if (a->first != b->first) return a->first < b->first ? -1 : 1;
  return a->idx < b->idx ? -1 : (a->idx > b->idx);
}

static bool range_less(const range_t *a, const range_t *b) {
  return a->lo != b->lo ? a->lo < b->lo : a->hi < b->hi;
}

// Moves a[i] down the max-heap a[0, end) to where it belongs.
static void sift_down(range_t *a, size_t i, size_t end) {
  range_t v = a[i];
  for (size_t c; (c = 2 * i + 1) < end; i = c) {
    if (c + 1 < end && range_less(&a[c], &a[c + 1])) ++c;
    if (!range_less(&v, &a[c])) break;
    a[i] = a[c];
  }
  a[i] = v;
}

// Sorts |a| by (lo, hi): insertion for the usual handful of ranges, heapsort above that
// (in place, O(m log m) whatever the input). Ranges equal in both are interchangeable, so
// any correct sort gives the same array. glibc's qsort (a merge sort calling the
// comparison through a pointer) took 2% of the Budget pass's instructions on the LLaMA
// bf16 corpus model, whose long-lived buffers overlap dozens of others (1,703 queries of
// more than 16 ranges).
static void sort_ranges(range_t *a, size_t m) {
  if (m <= 16) {
    for (size_t x = 1; x < m; ++x) {
      range_t v = a[x];
      size_t y = x;
      for (; y > 0 && range_less(&v, &a[y - 1]); --y) a[y] = a[y - 1];
      a[y] = v;
    }
    return;
  }
  for (size_t i = m / 2; i-- > 0;) sift_down(a, i, m);
  for (size_t end = m - 1; end > 0; --end) {
    range_t t = a[0];
    a[0] = a[end];
    a[end] = t;
    sift_down(a, 0, end);
  }
}

static met_status_t push_cell(plan_state_t *s, int32_t *head, int32_t buf) {
  if (s->ncells == s->capcells) return MET_EINVAL;  // the count below was wrong: a bug
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

// Segment-tree nodes that hold a buffer covering [a, b] (its canonical cover; the
// bottom-up walk visits the same nodes as tree_insert's top-down one). O(log leaves).
static size_t tree_cells(uint32_t leaves, uint32_t a, uint32_t b) {
  size_t n = 0;
  for (uint64_t l = (uint64_t)a + leaves, r = (uint64_t)b + leaves + 1; l < r; l >>= 1, r >>= 1) {
    if (l & 1) { ++n; ++l; }
    if (r & 1) { --r; ++n; }
  }
  return n;
}

// Sizes every list of one planning pass exactly: a start cell per buffer, a cover cell
// per position of a short one, the canonical tree nodes of a long one.
static met_status_t plan_state_init(const met_buffer_t *buf, size_t n, uint32_t positions,
                                    met_arena_t *arena, plan_state_t *s) {
  memset(s, 0, sizeof(*s));
  s->leaves = 1;
  while (s->leaves < positions) s->leaves *= 2;
  bool long_ones = false;
  for (size_t i = 0; i < n; ++i) {
    const met_buffer_t *b = &buf[i];
    if (b->bytes == 0) continue;
    size_t k = 1;
    if (b->last - b->first < kShort) {
      k += (size_t)(b->last - b->first) + 1;
    } else {
      k += tree_cells(s->leaves, (uint32_t)b->first, (uint32_t)b->last);
      long_ones = true;
    }
    if (!met_add_size(s->capcells, k, &s->capcells)) return MET_EOVERFLOW;
  }
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, s->capcells ? s->capcells : 1, sizeof(cell_t),
                                       (void **)&s->cells));
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, positions, sizeof(int32_t), (void **)&s->starts));
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, positions, sizeof(int32_t), (void **)&s->cover));
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, n, sizeof(range_t), (void **)&s->tmp));
  if (long_ones)
    MET_RETURN_IF_ERROR(met_arena_calloc(arena, 2 * (size_t)s->leaves, sizeof(int32_t),
                                         (void **)&s->tree));
  return MET_OK;
}

static met_status_t plan_one_order(const met_buffer_t *buf, size_t n, uint32_t positions,
                                   const order_t *order, int best_fit, plan_state_t *sp,
                                   uint64_t *offsets, uint64_t *out_size) {
  plan_state_t s = *sp;  // the lists' storage; emptied here
  s.ncells = 0;
  met_status_t st;
  memset(s.starts, 0xff, positions * sizeof(int32_t));
  memset(s.cover, 0xff, positions * sizeof(int32_t));
  if (s.tree) memset(s.tree, 0xff, 2 * (size_t)s.leaves * sizeof(int32_t));

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
    while (s.tree && s.ntree) {
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
    sort_ranges(s.tmp, m);
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
      s.ntree = 1;
      if ((st = tree_insert(&s, 1, 0, s.leaves - 1, (uint32_t)b->first, (uint32_t)b->last,
                            (int32_t)i)))
        return st;
    }
    if ((st = push_cell(&s, &s.starts[b->first], (int32_t)i))) return st;
  }
  *out_size = arena_size;
  return MET_OK;
}

// The orders the strategies place buffers in (met_plan_strategy_t).
typedef enum order_kind_e {
  ORDER_SIZE,        // decreasing size; ties: earlier start
  ORDER_AREA,        // decreasing bytes x lifetime; ties: earlier start
  ORDER_SIZE_LATE,   // decreasing size; ties: later start, then longer lifetime
  ORDER_BREADTH,     // decreasing breadth of the busiest position a buffer is live at,
                     // then decreasing size (TFLite's greedy-by-breadth, in offsets)
} order_kind_t;

// The live profile, the one sweep behind the lower bound, the memory model's allocation
// peak and breadth orders: |live|[t] (|positions| entries) = the bytes of the buffers live
// at t. MET_EINVAL for a lifetime outside [0, positions); MET_EOVERFLOW when a live sum
// passes 2^64. O(n + positions).
static met_status_t live_profile(const met_buffer_t *buffers, size_t count, uint32_t positions,
                                 met_arena_t *scratch, uint64_t *live) {
  uint64_t total = 0;
  bool fits = true;
  for (size_t i = 0; i < count; ++i) {
    const met_buffer_t *b = &buffers[i];
    if (b->first < 0 || b->last < b->first || (uint32_t)b->last >= positions) return MET_EINVAL;
    fits = fits && met_add_u64(total, b->bytes, &total);
  }
  // One array of changes: +bytes where a buffer starts, -bytes after it ends. When the
  // sum of all buffers fits in 64 bits, so does every live sum, and wrapping arithmetic
  // gives each exactly. Otherwise entries and exits are kept apart, every sum checked.
  met_arena_mark_t m = met_arena_mark(scratch);
  uint64_t *add, *sub = NULL;
  MET_RETURN_IF_ERROR(met_arena_calloc(scratch, (size_t)positions + 1, sizeof(uint64_t),
                                       (void **)&add));
  if (!fits)
    MET_RETURN_IF_ERROR(met_arena_calloc(scratch, (size_t)positions + 1, sizeof(uint64_t),
                                         (void **)&sub));
  met_status_t st = MET_OK;
  for (size_t i = 0; i < count && !st; ++i) {
    const met_buffer_t *b = &buffers[i];
    if (fits) {
      add[b->first] += b->bytes;
      add[b->last + 1] -= b->bytes;
    } else if (!met_add_u64(add[b->first], b->bytes, &add[b->first]) ||
               !met_add_u64(sub[b->last + 1], b->bytes, &sub[b->last + 1])) {
      st = MET_EOVERFLOW;
    }
  }
  uint64_t now = 0;
  for (uint32_t t = 0; t < positions && !st; ++t) {
    if (fits) {
      now += add[t];
    } else {
      now -= sub[t];  // never underflows: what leaves at t entered before t
      if (!met_add_u64(now, add[t], &now)) st = MET_EOVERFLOW;
    }
    live[t] = now;
  }
  met_arena_release_to(scratch, m);
  return st;
}

// Per buffer: the largest sum of live bytes over the positions it is live at, through a
// max segment tree over the live profile. When a live sum passes 2^64 (no plan fits then)
// every breadth is 0 and the order is by size alone: any order gives a valid plan.
static met_status_t breadths(const met_buffer_t *buf, size_t n, uint32_t positions,
                             met_arena_t *arena, uint64_t *out) {
  uint32_t leaves = 1;
  while (leaves < positions) leaves *= 2;
  uint64_t *tree;
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, 2 * (size_t)leaves, sizeof(uint64_t),
                                       (void **)&tree));
  met_status_t st = live_profile(buf, n, positions, arena, tree + leaves);
  if (st == MET_EOVERFLOW) {
    memset(out, 0, n * sizeof(uint64_t));
    return MET_OK;
  }
  MET_RETURN_IF_ERROR(st);
  for (uint32_t k = leaves - 1; k >= 1; --k)
    tree[k] = tree[2 * k] > tree[2 * k + 1] ? tree[2 * k] : tree[2 * k + 1];
  for (size_t i = 0; i < n; ++i) {
    uint64_t m = 0;
    for (uint64_t l = (uint64_t)buf[i].first + leaves, r = (uint64_t)buf[i].last + leaves + 1;
         l < r; l >>= 1, r >>= 1) {
      if ((l & 1) && tree[l] > m) m = tree[l];
      if (l & 1) ++l;
      if (r & 1) { --r; if (tree[r] > m) m = tree[r]; }
    }
    out[i] = m;
  }
  return MET_OK;
}

// The sort's digits of |o|, most significant first: |key| and |key2| descending (bytes
// 0-7 and 8-15, complemented, high byte first), |first| ascending (16-19, the sign
// flipped), |idx| ascending (20-23). Every order_t differs in |idx|: the digits order them
// exactly as cmp_order does.
enum { kDigits = 24 };
// Byte |d| of the 24 bytes k, k2, f, i, high byte first.
static inline unsigned digit_of(uint64_t k, uint64_t k2, uint32_t f, uint32_t i, unsigned d) {
  if (d < 8) return (unsigned)(k >> (56 - 8 * d)) & 0xff;
  if (d < 16) return (unsigned)(k2 >> (56 - 8 * (d - 8))) & 0xff;
  if (d < 20) return f >> (24 - 8 * (d - 16)) & 0xff;
  return i >> (24 - 8 * (d - 20)) & 0xff;
}
static inline unsigned order_digit(const order_t *o, unsigned d) {
  return digit_of(~o->key, ~o->key2, (uint32_t)o->first ^ 0x80000000u, o->idx, d);
}

// Sorts |o[0, n)| in place by the digits |dig[0, nd)| (an American flag sort: most
// significant digit first, buckets permuted in place, each bucket sorted by the next
// digit); short runs by insertion with cmp_order.
static void flag_sort(order_t *o, size_t n, const uint8_t *dig, unsigned nd) {
  if (n < 32 || !nd) {
    for (size_t i = 1; i < n; ++i) {
      order_t v = o[i];
      size_t j = i;
      for (; j > 0 && cmp_order(&v, &o[j - 1]) < 0; --j) o[j] = o[j - 1];
      o[j] = v;
    }
    return;
  }
  size_t count[256] = {0}, next[256], end[256];
  for (size_t i = 0; i < n; ++i) count[order_digit(&o[i], dig[0])]++;
  size_t at = 0;
  for (unsigned v = 0; v < 256; ++v) {
    next[v] = at;
    at += count[v];
    end[v] = at;
  }
  for (unsigned v = 0; v < 256; ++v)
    while (next[v] < end[v]) {
      unsigned d = order_digit(&o[next[v]], dig[0]);
      if (d == v) {
        next[v]++;
      } else {
        order_t t = o[next[v]];
        o[next[v]] = o[next[d]];
        o[next[d]++] = t;
      }
    }
  for (unsigned v = 0; v < 256; ++v)
    if (count[v] > 1) flag_sort(o + end[v] - count[v], count[v], dig + 1, nd - 1);
}

// Sorts |o| into cmp_order's order in place, by the digits where the buffers differ (a
// graph's sizes and positions use a few bytes; found in one pass). O(n) per digit for a
// planner's n of up to ~10^6 buffers, where qsort spent a tenth of the Budget's analysis;
// no second array (qsort's took 24 bytes a buffer at the analysis' peak).
static void sort_order(order_t *o, size_t n) {
  uint64_t kdiff = 0, k2diff = 0;
  uint32_t fdiff = 0, idiff = 0;
  for (size_t i = 1; i < n; ++i) {
    kdiff |= o[i].key ^ o[0].key;
    k2diff |= o[i].key2 ^ o[0].key2;
    fdiff |= (uint32_t)o[i].first ^ (uint32_t)o[0].first;
    idiff |= o[i].idx ^ o[0].idx;
  }
  uint8_t dig[kDigits];
  unsigned nd = 0;
  for (unsigned d = 0; d < kDigits; ++d)  // complementing a byte keeps it equal or not
    if (digit_of(kdiff, k2diff, fdiff, idiff, d)) dig[nd++] = (uint8_t)d;
  flag_sort(o, n, dig, nd);
}

// Fills |order| with every buffer in the order of |kind|.
static met_status_t reorder(const met_buffer_t *buf, size_t n, uint32_t positions,
                            order_kind_t kind, met_arena_t *arena, order_t *order) {
  uint64_t *breadth = NULL;
  met_arena_mark_t m = met_arena_mark(arena);
  if (kind == ORDER_BREADTH) {
    MET_RETURN_IF_ERROR(met_arena_calloc(arena, n, sizeof(uint64_t), (void **)&breadth));
    MET_RETURN_IF_ERROR(breadths(buf, n, positions, arena, breadth));
  }
  for (size_t i = 0; i < n; ++i) {
    uint64_t len = (uint64_t)(buf[i].last - buf[i].first) + 1, key = buf[i].bytes, key2 = 0;
    int32_t first = buf[i].first;
    switch (kind) {
      case ORDER_SIZE: break;
      case ORDER_AREA:
        if (!met_mul_u64(key, len, &key)) key = UINT64_MAX;  // saturate: an order only
        break;
      case ORDER_SIZE_LATE: first = -first; key2 = len; break;
      case ORDER_BREADTH: key = breadth[i]; key2 = buf[i].bytes; break;
    }
    order[i] = (order_t){key, key2, first, (uint32_t)i};
  }
  met_arena_release_to(arena, m);
  sort_order(order, n);
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
  // Each strategy's order and fit; MET_PLAN_BEST tries them in this order.
  static const struct { met_plan_strategy_t s; order_kind_t order; int best_fit; } kinds[] = {
      {MET_PLAN_GREEDY_SIZE_FIRST_FIT, ORDER_SIZE, 0},
      {MET_PLAN_GREEDY_SIZE_BEST_FIT, ORDER_SIZE, 1},
      {MET_PLAN_GREEDY_AREA_BEST_FIT, ORDER_AREA, 1},
      {MET_PLAN_GREEDY_SIZE_LATE_FIRST_FIT, ORDER_SIZE_LATE, 0},
      {MET_PLAN_GREEDY_SIZE_LATE_BEST_FIT, ORDER_SIZE_LATE, 1},
      {MET_PLAN_GREEDY_BREADTH_FIRST_FIT, ORDER_BREADTH, 0},
      {MET_PLAN_GREEDY_BREADTH_BEST_FIT, ORDER_BREADTH, 1},
  };
  const int nkinds = (int)(sizeof kinds / sizeof kinds[0]);
  int lo = -1, hi = -1;
  for (int k = 0; k < nkinds; ++k)
    if (kinds[k].s == strategy) lo = hi = k;
  if (strategy == MET_PLAN_BEST) lo = 0, hi = nkinds - 1;
  if (lo < 0) return MET_EINVAL;
  uint64_t *trial = out_offsets;
  uint64_t bound = hi > lo ? lower_bound : 0;
  met_status_t st;
  if (hi > lo && (st = met_arena_calloc(scratch, count, sizeof(uint64_t), (void **)&trial)))
    return st;
  uint64_t best = UINT64_MAX;
  bool have = false;  // an arena of exactly 2^64 - 1 bytes is a plan too
  bool overflowed = false;
  order_t *order = NULL;
  plan_state_t state;
  if ((st = plan_state_init(buffers, count, positions, scratch, &state))) return st;
  if ((st = met_arena_calloc(scratch, count, sizeof(order_t), (void **)&order))) return st;
  for (int k = lo; k <= hi && (!have || best > bound); ++k) {
    if (k == lo || kinds[k].order != kinds[k - 1].order)  // in place: no second array
      if ((st = reorder(buffers, count, positions, kinds[k].order, scratch, order))) return st;
    uint64_t size;
    st = plan_one_order(buffers, count, positions, order, kinds[k].best_fit, &state, trial,
                        &size);
    // A strategy whose plan passes 2^64 bytes gives no plan; `best` keeps the others'.
    if (st == MET_EOVERFLOW && hi > lo) {
      overflowed = true;
      continue;
    }
    if (st) return st;
    if (!have || size < best) {
      have = true;
      best = size;
      if (trial != out_offsets && count) memcpy(out_offsets, trial, count * sizeof(uint64_t));
    }
  }
  if (!have && overflowed) return MET_EOVERFLOW;
  *out_arena_bytes = best;
  return MET_OK;
}

met_status_t met_planner_peak_live(const met_buffer_t *buffers, size_t count,
                                   uint32_t positions, met_arena_t *scratch,
                                   uint64_t *out_peak) {
  return met_planner_peak_live_at(buffers, count, positions, scratch, out_peak, NULL);
}

met_status_t met_planner_peak_live_at(const met_buffer_t *buffers, size_t count,
                                      uint32_t positions, met_arena_t *scratch,
                                      uint64_t *out_peak, int32_t *out_position) {
  *out_peak = 0;
  if (out_position) *out_position = positions ? 0 : -1;
  met_arena_mark_t m = met_arena_mark(scratch);
  uint64_t *live;
  met_status_t st = met_arena_calloc(scratch, (size_t)positions + 1, sizeof(uint64_t),
                                     (void **)&live);
  if (!st) st = live_profile(buffers, count, positions, scratch, live);
  for (uint32_t t = 0; !st && t < positions; ++t)
    if (live[t] > *out_peak) {
      *out_peak = live[t];
      if (out_position) *out_position = (int32_t)t;
    }
  met_arena_release_to(scratch, m);
  return st;
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

static const char *const kStrategyNames[] = {"first-fit",      "best-fit",          "area",
                                             "best",           "late-first-fit",    "late-best-fit",
                                             "breadth-first-fit", "breadth-best-fit"};

const char *met_plan_strategy_name(met_plan_strategy_t s) {
  return (unsigned)s < sizeof kStrategyNames / sizeof *kStrategyNames ? kStrategyNames[s] : NULL;
}

met_status_t met_plan_strategy_parse(const char *name, size_t len, met_plan_strategy_t *out) {
  for (size_t k = 0; k < sizeof kStrategyNames / sizeof *kStrategyNames; ++k)
    if (strlen(kStrategyNames[k]) == len && !memcmp(kStrategyNames[k], name, len)) {
      *out = (met_plan_strategy_t)k;
      return MET_OK;
    }
  return MET_ENOTFOUND;
}
