// test_planner_exact.c: the exact planner (met_planner_fit, met_planner_solve) against
// brute force: on instances small enough to enumerate, the smallest arena over every
// order of stacking (each buffer on the highest top of the buffers before it that live
// with it: every plan pushed down is one such order) is the optimum it must reach, and
// prove. Also its limits, and MiniMalloc's CSV format (metrale/planner_csv.h).
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

// test_planner_exact_tiny.c builds this file again with the search's stacks too small,
// test_planner_exact_trees.c with every partition's children in trees.
#ifndef TEST_NAME
#define TEST_NAME "test_planner_exact"
#endif
#include "check.h"
#include "metrale/planner.h"
#include "metrale/planner_csv.h"

enum { kMaxN = 10 };

typedef struct oracle_t {
  const met_buffer_t *b;
  int n;
  uint64_t top[kMaxN];
  bool used[kMaxN];
  int order[kMaxN];
  uint64_t best;
} oracle_t;

static bool live_together(const met_buffer_t *a, const met_buffer_t *b) {
  return !(a->last < b->first || b->last < a->first);
}

// Every order, each buffer stacked on the buffers before it; a branch whose arena is
// already at the best so far is cut (it cannot do better).
static void stack(oracle_t *o, int k, uint64_t arena) {
  if (arena >= o->best) return;
  if (k == o->n) { o->best = arena; return; }
  for (int x = 0; x < o->n; ++x) {
    if (o->used[x]) continue;
    uint64_t at = 0;
    for (int j = 0; j < k; ++j) {
      int y = o->order[j];
      if (live_together(&o->b[x], &o->b[y]) && o->top[y] > at) at = o->top[y];
    }
    o->used[x] = true;
    o->order[k] = x;
    o->top[x] = at + o->b[x].bytes;
    stack(o, k + 1, arena > o->top[x] ? arena : o->top[x]);
    o->used[x] = false;
  }
}

static uint64_t optimum(const met_buffer_t *b, int n) {
  oracle_t o;
  memset(&o, 0, sizeof(o));
  o.b = b;
  o.n = n;
  o.best = UINT64_MAX;
  stack(&o, 0, 0);
  return o.best;
}

static uint64_t arena_of(const met_buffer_t *b, size_t n, const uint64_t *off) {
  uint64_t a = 0;
  for (size_t i = 0; i < n; ++i)
    if (off[i] + b[i].bytes > a) a = off[i] + b[i].bytes;
  return a;
}

// One instance: solve reaches the optimum and says how it knows; fit says yes at the
// optimum (with a plan that holds) and no one byte below.
static void check_instance(const met_buffer_t *b, int n, uint32_t positions, bool *gap) {
  met_arena_t arena;
  met_arena_initialize(met_allocator_system(), &arena);
  uint64_t best = optimum(b, n), peak, off[kMaxN];
  size_t x, y;
  CHECK(met_planner_peak_live(b, (size_t)n, positions, &arena, &peak) == MET_OK);
  met_plan_limits_t lim = {MET_PLAN_DEFAULT_NODES, 0, NULL, NULL, NULL};
  met_plan_outcome_t o;
  CHECK(met_planner_solve(b, (size_t)n, positions, MET_PLAN_BEST, 0, &lim, &arena, off, &o) == MET_OK);
  CHECK(met_planner_verify(b, (size_t)n, off, &x, &y) == MET_OK);
  CHECK_EQ_U64(o.arena_bytes, best);
  CHECK_EQ_U64(arena_of(b, (size_t)n, off), best);
  CHECK(o.proof == (best == peak ? MET_PLAN_AT_BOUND : MET_PLAN_OPTIMAL));
  CHECK_EQ_U64(o.lower_bound, best);
  // Never worse than any single greedy order (both tie rules, every strategy).
  for (int s = 0; s < MET_PLAN_BEST; ++s) {
    uint64_t g;
    CHECK(met_planner_plan(b, (size_t)n, positions, (met_plan_strategy_t)s, &arena, off, &g) == MET_OK);
    CHECK(o.arena_bytes <= g);
  }
  met_fit_t fit;
  uint64_t nodes;
  CHECK(met_planner_fit(b, (size_t)n, positions, best, &lim, &arena, off, &fit, &nodes) == MET_OK);
  CHECK(fit == MET_FIT_YES);
  CHECK(met_planner_verify(b, (size_t)n, off, &x, &y) == MET_OK);
  CHECK(arena_of(b, (size_t)n, off) <= best);
  CHECK(met_planner_fit(b, (size_t)n, positions, best - 1, &lim, &arena, off, &fit, &nodes) == MET_OK);
  CHECK(fit == MET_FIT_NO);
  if (best > peak) *gap = true;
  met_arena_deinitialize(&arena);
}

// Instances whose optimum is above the sum-of-live bound (rare among small random ones:
// these came from a search of 800,000): the "no" below the optimum is then a real proof
// of the search, not the bound's. Lifetimes [lower, upper) as in the CSV format.
static void test_gaps(void) {
  static const int kGaps[3][10][3] = {
      {{1, 4, 3}, {2, 4, 1}, {2, 5, 8}, {0, 3, 13}, {3, 4, 8}, {5, 7, 5}, {3, 6, 8}, {1, 2, 13},
       {4, 6, 13}},
      {{0, 3, 13}, {3, 5, 8}, {2, 4, 3}, {0, 3, 1}, {5, 8, 13}, {3, 5, 3}, {2, 5, 5}, {4, 7, 5},
       {0, 2, 8}},
      {{4, 6, 2}, {4, 5, 5}, {3, 5, 5}, {3, 6, 2}, {2, 4, 8}, {5, 7, 13}, {2, 5, 1}, {4, 5, 2},
       {4, 6, 5}, {2, 3, 13}},
  };
  static const int kCount[3] = {9, 9, 10};
  for (int t = 0; t < 3; ++t) {
    met_buffer_t b[kMaxN];
    for (int i = 0; i < kCount[t]; ++i)
      b[i] = (met_buffer_t){(uint64_t)kGaps[t][i][2], kGaps[t][i][0], kGaps[t][i][1] - 1};
    bool gap = false;
    check_instance(b, kCount[t], 8, &gap);
    CHECK(gap);  // each is above its bound: the proof is the search's
  }
}

static uint64_t rs = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs; }

static void test_random_small(void) {
  static const uint64_t kSizes[] = {1, 2, 3, 5, 8, 13, 64, 96};
  for (int t = 0; t < 400; ++t) {
    int n = 3 + (int)(rnd() % 6);  // 3 to 8
    met_buffer_t b[kMaxN];
    for (int i = 0; i < n; ++i) {
      int lo = (int)(rnd() % 6);
      b[i] = (met_buffer_t){kSizes[rnd() % 8], lo, lo + (int)(rnd() % 3)};
    }
    bool gap = false;
    check_instance(b, n, 8, &gap);
  }
}

// A fake clock: each reading 1 ms later than the last.
static uint64_t tick(void *user) {
  uint64_t *t = user;
  return *t += 1000000;
}

static void test_limits(void) {
  met_arena_t arena;
  met_arena_initialize(met_allocator_system(), &arena);
  // The first gap instance above: its optimum (brute force) is above its bound.
  static const int g[9][3] = {{1, 4, 3}, {2, 4, 1}, {2, 5, 8}, {0, 3, 13}, {3, 4, 8},
                              {5, 7, 5}, {3, 6, 8}, {1, 2, 13}, {4, 6, 13}};
  met_buffer_t b[9];
  for (int i = 0; i < 9; ++i) b[i] = (met_buffer_t){(uint64_t)g[i][2], g[i][0], g[i][1] - 1};
  uint64_t off[9], best = optimum(b, 9), peak;
  CHECK(met_planner_peak_live(b, 9, 8, &arena, &peak) == MET_OK);
  CHECK(best > peak);
  // No search: the greedy plan, above the bound, unproven.
  met_plan_limits_t none = {0, 0, NULL, NULL, NULL};
  met_plan_outcome_t o;
  CHECK(met_planner_solve(b, 9, 8, MET_PLAN_BEST, 0, &none, &arena, off, &o) == MET_OK);
  CHECK(o.proof == MET_PLAN_BEST_FOUND && o.nodes == 0 && o.lower_bound == peak);
  CHECK(o.arena_bytes >= best);
  // A single greedy order is never searched, whatever the limits.
  met_plan_limits_t lots = {MET_PLAN_DEFAULT_NODES, 0, NULL, NULL, NULL};
  CHECK(met_planner_solve(b, 9, 8, MET_PLAN_GREEDY_SIZE_FIRST_FIT, 0, &lots, &arena, off, &o) == MET_OK);
  CHECK(o.nodes == 0);
  // A clock that moves 1 ms a reading: a cap of 1 ns stops the search at its first check
  // (node 64; this instance needs more), said so, the plan still whole; a cap of an hour
  // lets it finish: optimal.
  uint64_t t0 = 0;
  met_plan_limits_t clock = {MET_PLAN_DEFAULT_NODES, 1, tick, &t0, NULL};
  CHECK(met_planner_solve(b, 9, 8, MET_PLAN_BEST, 0, &clock, &arena, off, &o) == MET_OK);
  CHECK(o.stopped && o.proof == MET_PLAN_BEST_FOUND && o.arena_bytes >= best);
  CHECK(o.nodes <= 64);
  size_t cx, cy;
  CHECK(met_planner_verify(b, 9, off, &cx, &cy) == MET_OK);
  met_plan_limits_t hour = {MET_PLAN_DEFAULT_NODES, 3600000000000ull, tick, &t0, NULL};
  CHECK(met_planner_solve(b, 9, 8, MET_PLAN_BEST, 0, &hour, &arena, off, &o) == MET_OK);
  CHECK_EQ_U64(o.arena_bytes, best);
  CHECK(o.proof == MET_PLAN_OPTIMAL && !o.stopped);
  // A node budget too small to finish: an answer that says so, never a wrong one.
  for (uint64_t k = 1; k < 64; ++k) {
    met_plan_limits_t few = {k, 0, NULL, NULL, NULL};
    met_fit_t fit;
    uint64_t nodes;
    CHECK(met_planner_fit(b, 9, 8, best - 1, &few, &arena, off, &fit, &nodes) == MET_OK);
    CHECK(fit != MET_FIT_YES);
    CHECK(nodes <= k);
    CHECK(met_planner_solve(b, 9, 8, MET_PLAN_BEST, 0, &few, &arena, off, &o) == MET_OK);
    CHECK(o.arena_bytes >= best && o.lower_bound <= best && o.nodes <= k);
    size_t x, y;
    CHECK(met_planner_verify(b, 9, off, &x, &y) == MET_OK);
  }
  // Bad lifetimes are refused as by met_planner_plan.
  met_buffer_t bad[1] = {{8, 3, 1}};
  met_fit_t fit;
  CHECK(met_planner_fit(bad, 1, 4, 8, &lots, &arena, off, &fit, NULL) == MET_EINVAL);
  // Nothing to place fits anything; a buffer larger than the capacity fits nothing.
  CHECK(met_planner_fit(NULL, 0, 1, 1, &lots, &arena, off, &fit, NULL) == MET_OK);
  CHECK(fit == MET_FIT_YES);
  met_buffer_t big[1] = {{9, 0, 0}};
  CHECK(met_planner_fit(big, 1, 1, 8, &lots, &arena, off, &fit, NULL) == MET_OK);
  CHECK(fit == MET_FIT_NO);
  met_arena_deinitialize(&arena);
}

static void test_csv(void) {
  met_arena_t arena;
  met_arena_initialize(met_allocator_system(), &arena);
  met_csv_problem_t p;
  met_error_t err;
  // CRLF, a blank line, ids as text; [0,2) and [2,4) touch. Times are replaced by their
  // rank among 0, 2, 4: x [0,1) -> positions 0..0, y [1,2) -> 1..1; the lengths stay 2.
  const char *ok = "id,lower,upper,size\r\nx,0,2,8\r\n\r\ny7,2,4,16\r\n";
  CHECK(met_csv_problem_parse(ok, strlen(ok), &arena, &p, &err) == MET_OK);
  CHECK(p.count == 2 && p.positions == 2);
  CHECK(!strcmp(p.ids[0], "x") && !strcmp(p.ids[1], "y7"));
  CHECK(p.buffers[0].first == 0 && p.buffers[0].last == 0 && p.buffers[0].bytes == 8);
  CHECK(p.buffers[1].first == 1 && p.buffers[1].last == 1 && p.buffers[1].bytes == 16);
  CHECK(p.lengths[0] == 2 && p.lengths[1] == 2 && p.upper[1] == 4);
  // MiniMalloc's other spellings, in another order, after a byte order mark.
  const char *alias = "\xef\xbb\xbfsize,end,start,buffer\n8,5,1,a\n";
  CHECK(met_csv_problem_parse(alias, strlen(alias), &arena, &p, &err) == MET_OK);
  CHECK(p.count == 1 && !strcmp(p.ids[0], "a") && p.lower[0] == 1 && p.upper[0] == 5);
  CHECK(p.buffers[0].bytes == 8 && p.lengths[0] == 4);
  // Bad rows, each at its line.
  static const struct { const char *text; size_t line; const char *why; } kBad[] = {
      {"", 1, "empty"},
      {"id,lower,upper\n0,1,2\n", 1, "header"},
      {"id,lower,upper,size\n0,1,2\n", 2, "4 cells"},
      {"id,lower,upper,size\n0,1,2,3\n1,1,2,3,4\n", 3, "4 cells"},
      {"id,lower,upper,size\n0,1,2,-3\n", 2, "size '-3'"},
      {"id,lower,upper,size\n0,1,2,3x\n", 2, "size '3x'"},
      {"id,lower,upper,size\n0,5,5,3\n", 2, "not above lower"},
      {"id,lower,upper,size\n,1,2,3\n", 2, "empty id"},
      {"id,lower,upper,size\n\"a\",1,2,3\n", 2, "quote"},
      {"id,lower,upper,size\n0,1,2,18446744073709551616\n", 2, "below 2^64"},
      {"id,lower,upper,size\n0,9223372036854775807,9223372036854775808,1\n", 2, "below 2^63"},
      {"id,lower,upper,offset\n0,1,2,3\n", 1, "column 'offset' is not taken"},
      {"id,lower,lower,size\n0,1,2,3\n", 1, "header"},
      {"id,lower,upper,size\na,1,2,3\nb,1,2,3\na,2,3,4\n", 4, "id 'a' is used twice (first at line 2)"},
      {"id,lower,upper,size\na\tb,1,2,3\n", 2, "control character"},
  };
  for (size_t k = 0; k < sizeof(kBad) / sizeof(kBad[0]); ++k) {
    met_status_t st = met_csv_problem_parse(kBad[k].text, strlen(kBad[k].text), &arena, &p, &err);
    CHECK(st == MET_EINVAL || st == MET_EOVERFLOW);
    CHECK(err.code == st && err.line == kBad[k].line);
    CHECK(strstr(err.message, kBad[k].why) != NULL);
  }
  // Times far apart are ranked, their order kept: [0, 2^40) and [2^40, 2^41) touch
  // (apart), [2^40 - 1, 2^40 + 1) overlaps both. Distinct times 0, 2^40-1, 2^40, 2^40+1,
  // 2^41: ranks 0..4.
  const char *far = "id,lower,upper,size\na,0,1099511627776,4\nb,1099511627776,2199023255552,4\n"
                    "c,1099511627775,1099511627777,4\n";
  CHECK(met_csv_problem_parse(far, strlen(far), &arena, &p, &err) == MET_OK);
  CHECK(p.positions == 4);
  CHECK(p.buffers[0].first == 0 && p.buffers[0].last == 1);
  CHECK(p.buffers[1].first == 2 && p.buffers[1].last == 3);
  CHECK(p.buffers[2].first == 1 && p.buffers[2].last == 2);
  CHECK(p.upper[1] == 2199023255552ull && p.lengths[0] == 1099511627776ull);
  met_arena_deinitialize(&arena);
}

// The allocation problem of a chain of transformer-MLP blocks on mlir-cpu
// (`gen_graph --mlp N`, `metrale plan --buffers-out`): block k's buffers live over
// [14k, 14k+5) and [14k+3, 14k+9) (2,048 B each), [14k+6, 14k+12) and [14k+10, 14k+26)
// (1,024 B; the last reaches into the next block). At 14k+4 the previous block's last,
// both 2,048 B buffers are live: 1,024 + 2 x 2,048 = 5,120 B, the sum-of-live bound (at
// 14k+7 it is 1,024 + 2,048 + 1,024, at 14k+11 three of 1,024). Every greedy order misses
// it, so the search runs, over one partition of 8,000 buffers (trees in a normal build):
// it must reach the bound in its first dive (2n + 1 nodes at most), a plan that holds.
static void test_chain(void) {
  enum { kBlocks = 2000, kN = 4 * kBlocks };
  static met_buffer_t b[kN];
  static uint64_t off[kN];
  static const int kShape[4][3] = {{0, 5, 2048}, {3, 9, 2048}, {6, 12, 1024}, {10, 26, 1024}};
  for (int k = 0; k < kBlocks; ++k)
    for (int j = 0; j < 4; ++j)
      b[4 * k + j] = (met_buffer_t){(uint64_t)kShape[j][2], 14 * k + kShape[j][0],
                                    14 * k + kShape[j][1] - 1};
  uint32_t positions = 14 * kBlocks + 26;
  met_arena_t arena;
  met_arena_initialize(met_allocator_system(), &arena);
  uint64_t peak, greedy;
  CHECK(met_planner_peak_live(b, kN, positions, &arena, &peak) == MET_OK);
  CHECK_EQ_U64(peak, 5120);
  CHECK(met_planner_plan(b, kN, positions, MET_PLAN_BEST, &arena, off, &greedy) == MET_OK);
  CHECK(greedy > 5120);  // the greedy orders' best (6,144 B today)
  met_plan_limits_t lim = {MET_PLAN_DEFAULT_NODES, 0, NULL, NULL, NULL};
  met_plan_outcome_t o;
  CHECK(met_planner_solve(b, kN, positions, MET_PLAN_BEST, 0, &lim, &arena, off, &o) == MET_OK);
  size_t x, y;
  CHECK(met_planner_verify(b, kN, off, &x, &y) == MET_OK);
  CHECK_EQ_U64(o.arena_bytes, 5120);
  CHECK_EQ_U64(arena_of(b, kN, off), 5120);
  CHECK(o.proof == MET_PLAN_AT_BOUND);
  CHECK(o.nodes >= kN && o.nodes <= 2 * kN + 1);
  met_arena_deinitialize(&arena);
}

int main(void) {
  test_gaps();
  test_chain();
  test_random_small();
  test_limits();
  test_csv();
  return check_finish(TEST_NAME);
}
