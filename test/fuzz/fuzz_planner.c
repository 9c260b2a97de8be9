// fuzz_planner.c: libFuzzer harness of the pure offset planner (metrale/planner.h).
//
// Each input decodes to a schedule length and a list of {bytes, first, last} buffers
// (mostly valid lifetimes, now and then a broken one), an alignment the sizes are rounded
// to, and sometimes an allocator that fails after a number of calls. Every strategy is
// run and checked against oracles that share no code with the planner:
//   - no two buffers with overlapping lifetimes overlap in memory (O(N^2) pairs), and
//     met_planner_verify agrees;
//   - the arena is max(offset + bytes), and at least the sum-of-live lower bound, which
//     met_planner_peak_live must compute exactly (O(N^2): the live sum at each buffer's
//     first position, in 128-bit arithmetic);
//   - offsets keep the sizes' alignment; MET_PLAN_BEST is the smallest of the three
//     strategies and never worse than first fit; plan_bounded agrees with plan;
//   - overflow: EOVERFLOW exactly when it must (the peak passes 2^64), never when the sum
//     of all sizes fits; broken lifetimes give EINVAL;
//   - a failing allocator gives MET_ENOMEM (or the answer of the system allocator), never
//     a crash, and a plan that succeeds is the same plan.
// Workload: up to 256 buffers on up to 4096 positions; a few thousand runs a second.
#include <stdbool.h>
#include <string.h>

#include "fuzz_common.h"
#include "metrale/planner.h"

enum { MAX_BUFFERS = 256 };

typedef unsigned __int128 u128;

// The sum-of-live lower bound the slow way: the live sum is largest at some buffer's
// first position. Returns it in 128 bits (it may pass 2^64).
static u128 oracle_peak(const met_buffer_t *b, size_t n) {
  u128 peak = 0;
  for (size_t i = 0; i < n; ++i) {
    u128 live = 0;
    for (size_t j = 0; j < n; ++j)
      if (b[j].first <= b[i].first && b[i].first <= b[j].last) live += b[j].bytes;
    if (live > peak) peak = live;
  }
  return peak;
}

// Checks one plan: in-bounds, disjoint where lifetimes overlap, the arena's size, the
// alignment of offsets. Returns the arena.
static uint64_t check_plan(const met_buffer_t *b, size_t n, const uint64_t *off,
                           uint64_t arena, uint64_t align, u128 peak) {
  u128 top = 0;
  for (size_t i = 0; i < n; ++i) {
    u128 end = (u128)off[i] + b[i].bytes;
    FUZZ_CHECK(end <= arena);
    if (end > top) top = end;
    if (b[i].bytes) FUZZ_CHECK(off[i] % align == 0);
  }
  FUZZ_CHECK(top == arena);
  FUZZ_CHECK((u128)arena >= peak);
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      if (!b[i].bytes || !b[j].bytes) continue;
      if (b[i].last < b[j].first || b[j].last < b[i].first) continue;
      bool disjoint = (u128)off[i] + b[i].bytes <= off[j] || (u128)off[j] + b[j].bytes <= off[i];
      if (!disjoint)
        fprintf(stderr, "buffers %zu [%d,%d] %" PRIu64 " B @%" PRIu64 " and %zu [%d,%d] %" PRIu64
                " B @%" PRIu64 " overlap\n", i, b[i].first, b[i].last, b[i].bytes, off[i], j,
                b[j].first, b[j].last, b[j].bytes, off[j]);
      FUZZ_CHECK(disjoint);
    }
  }
  size_t a = 0, c = 0;
  FUZZ_CHECK(met_planner_verify(b, n, off, &a, &c) == MET_OK);
  return arena;
}

// Fills |off| with a pattern no plan writes, so an offset the planner forgot to write
// breaks check_plan instead of passing on what an earlier call left there.
static void poison(uint64_t *off, size_t n) {
  for (size_t i = 0; i < n; ++i) off[i] = UINT64_MAX - 7;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_reader_t r = {data, size, 0};
  uint8_t flags = fuzz_u8(&r);
  uint32_t positions = 1 + (flags & 0x80 ? fuzz_below(&r, 4096) : fuzz_u8(&r));
  uint64_t align = (uint64_t)1 << (flags & 7);  // 1 .. 128
  bool broken_ok = flags & 0x40;                // may decode a broken lifetime
  bool failing = (flags & 0x30) == 0x30;
  uint32_t fail_budget = fuzz_u8(&r);
  uint32_t block_bytes = 64 + 16 * (uint32_t)fuzz_u8(&r);

  static met_buffer_t b[MAX_BUFFERS];
  static uint64_t off[MAX_BUFFERS], off2[MAX_BUFFERS];
  size_t n = 0;
  bool broken = false, aligned_sum_overflow = false;
  u128 sum = 0;
  while (!fuzz_done(&r) && n < MAX_BUFFERS) {
    uint64_t bytes = fuzz_size(&r);
    uint64_t rounded = bytes;
    if (bytes % align) {
      if (bytes > UINT64_MAX - align) aligned_sum_overflow = true;
      else rounded = bytes + (align - bytes % align);
    }
    if (aligned_sum_overflow) break;
    int32_t first = (int32_t)fuzz_below(&r, positions);
    int32_t last = first + (int32_t)fuzz_below(&r, positions - (uint32_t)first);
    uint8_t how = fuzz_u8(&r);
    if (broken_ok && how == 0xff) { last = first - 1; broken = true; }
    if (broken_ok && how == 0xfe) { last = (int32_t)positions; broken = true; }
    if (broken_ok && how == 0xfd) { first = -1; broken = true; }
    b[n++] = (met_buffer_t){rounded, first, last};
    sum += rounded;
  }

  met_arena_t arena;
  met_arena_initialize(met_allocator_system(), &arena);
  uint64_t peak = 0, arena_bytes = 0;
  met_status_t st = met_planner_peak_live(b, n, positions, &arena, &peak);
  if (broken) {
    FUZZ_CHECK(st == MET_EINVAL || st == MET_EOVERFLOW);
    for (int s = 0; s <= 2; ++s)
      FUZZ_CHECK(met_planner_plan(b, n, positions, (met_plan_strategy_t)s, &arena, off,
                                  &arena_bytes) == MET_EINVAL);
    st = met_planner_plan(b, n, positions, MET_PLAN_BEST, &arena, off, &arena_bytes);
    FUZZ_CHECK(st == MET_EINVAL || st == MET_EOVERFLOW);
    FUZZ_CHECK(met_planner_plan_bounded(b, n, positions, MET_PLAN_BEST, 0, &arena, off,
                                        &arena_bytes) == MET_EINVAL);
    met_arena_deinitialize(&arena);
    return 0;
  }
  u128 true_peak = oracle_peak(b, n);
  bool peak_overflows = true_peak > UINT64_MAX;
  if (peak_overflows) {
    FUZZ_CHECK(st == MET_EOVERFLOW);
  } else {
    FUZZ_CHECK(st == MET_OK);
    FUZZ_CHECK((u128)peak == true_peak);
  }

  // Each single strategy, then BEST, then BEST bounded by the peak and by nothing.
  static const met_plan_strategy_t singles[] = {
      MET_PLAN_GREEDY_SIZE_FIRST_FIT,      MET_PLAN_GREEDY_SIZE_BEST_FIT,
      MET_PLAN_GREEDY_AREA_BEST_FIT,       MET_PLAN_GREEDY_SIZE_LATE_FIRST_FIT,
      MET_PLAN_GREEDY_SIZE_LATE_BEST_FIT,  MET_PLAN_GREEDY_BREADTH_FIRST_FIT,
      MET_PLAN_GREEDY_BREADTH_BEST_FIT};
  enum { NS = sizeof singles / sizeof singles[0] };
  uint64_t arenas[8] = {0};
  bool ok[8] = {false};
  bool any_ok = false;
  for (int k = 0; k < NS; ++k) {
    met_plan_strategy_t s = singles[k];
    poison(off, n);
    st = met_planner_plan(b, n, positions, s, &arena, off, &arena_bytes);
    if (peak_overflows) { FUZZ_CHECK(st == MET_EOVERFLOW); continue; }
    if (sum <= UINT64_MAX) FUZZ_CHECK(st == MET_OK);
    else FUZZ_CHECK(st == MET_OK || st == MET_EOVERFLOW);
    if (st) continue;
    ok[s] = any_ok = true;
    arenas[s] = check_plan(b, n, off, arena_bytes, align, true_peak);
    if (n == 0) FUZZ_CHECK_EQ(arena_bytes, 0);
  }
  poison(off, n);
  st = met_planner_plan(b, n, positions, MET_PLAN_BEST, &arena, off, &arena_bytes);
  if (peak_overflows) {
    FUZZ_CHECK(st == MET_EOVERFLOW);
  } else if (!any_ok) {
    FUZZ_CHECK(st == MET_EOVERFLOW);
  } else {
    // The smallest plan of every strategy that gives one (when it stops early, at the
    // bound, which none beats).
    FUZZ_CHECK(st == MET_OK);
    check_plan(b, n, off, arena_bytes, align, true_peak);
    uint64_t least = UINT64_MAX;
    for (int k = 0; k < NS; ++k)
      if (ok[singles[k]] && arenas[singles[k]] < least) least = arenas[singles[k]];
    FUZZ_CHECK_EQ(arena_bytes, least);
    if (ok[MET_PLAN_GREEDY_SIZE_FIRST_FIT])
      FUZZ_CHECK(arena_bytes <= arenas[MET_PLAN_GREEDY_SIZE_FIRST_FIT]);
    uint64_t bounded = 0;
    poison(off2, n);
    FUZZ_CHECK(met_planner_plan_bounded(b, n, positions, MET_PLAN_BEST, peak, &arena, off2,
                                        &bounded) == MET_OK);
    FUZZ_CHECK_EQ(bounded, arena_bytes);
    FUZZ_CHECK(memcmp(off, off2, n * sizeof(uint64_t)) == 0);
    poison(off2, n);
    FUZZ_CHECK(met_planner_plan_bounded(b, n, positions, MET_PLAN_BEST, 0, &arena, off2,
                                        &bounded) == MET_OK);
    FUZZ_CHECK_EQ(bounded, least);
    // The exact search (a small node budget, so a run is quick and the same each time):
    // a plan that holds, never worse than any single greedy order (both tie rules), its
    // proven bound between the sum-of-live bound and the arena, its proof consistent.
    met_plan_limits_t lim = {512, 0, NULL, NULL, NULL};
    met_plan_outcome_t po;
    poison(off2, n);
    st = met_planner_solve(b, n, positions, MET_PLAN_BEST, 0, &lim, &arena, off2, &po);
    FUZZ_CHECK(st == MET_OK);
    if (!st) {
      check_plan(b, n, off2, po.arena_bytes, align, true_peak);
      FUZZ_CHECK(po.arena_bytes <= least);
      FUZZ_CHECK(po.lower_bound >= peak && po.lower_bound <= po.arena_bytes);
      FUZZ_CHECK(po.nodes <= 512);
      if (po.proof == MET_PLAN_AT_BOUND) FUZZ_CHECK_EQ(po.arena_bytes, peak);
      if (po.proof == MET_PLAN_OPTIMAL) FUZZ_CHECK_EQ(po.lower_bound, po.arena_bytes);
      if (po.proof == MET_PLAN_BEST_FOUND) FUZZ_CHECK(po.lower_bound < po.arena_bytes);
    }
    // The oracle itself must catch an overlap: put a live pair at one offset.
    for (size_t i = 0; i + 1 < n; ++i) {
      if (!b[i].bytes || !b[i + 1].bytes) continue;
      if (b[i].last < b[i + 1].first || b[i + 1].last < b[i].first) continue;
      if (off[i] > UINT64_MAX - b[i + 1].bytes) continue;  // keep the plan in 64 bits
      memcpy(off2, off, n * sizeof(uint64_t));
      off2[i + 1] = off2[i];
      size_t x = 0, y = 0;
      FUZZ_CHECK(met_planner_verify(b, n, off2, &x, &y) == MET_EINVAL);
      FUZZ_CHECK(x < y && y < n);
      break;
    }
  }
  met_status_t sys_st = st;
  uint64_t sys_arena = arena_bytes;
  met_arena_deinitialize(&arena);

  // The same BEST plan from an arena whose allocator fails after |fail_budget| calls.
  if (failing) {
    fuzz_failing_t f = {0, fail_budget};
    met_arena_t fa;
    fuzz_failing_arena(&f, block_bytes, &fa);
    uint64_t fpeak = 0;
    st = met_planner_peak_live(b, n, positions, &fa, &fpeak);
    FUZZ_CHECK(st == MET_ENOMEM || (st == MET_OK && fpeak == peak) ||
               (st == MET_EOVERFLOW && peak_overflows));
    poison(off2, n);
    st = met_planner_plan(b, n, positions, MET_PLAN_BEST, &fa, off2, &arena_bytes);
    FUZZ_CHECK(st == MET_ENOMEM || st == sys_st);
    if (st == MET_OK) {
      FUZZ_CHECK_EQ(arena_bytes, sys_arena);
      FUZZ_CHECK(memcmp(off, off2, n * sizeof(uint64_t)) == 0);
    }
    met_arena_deinitialize(&fa);
  }
  return 0;
}
