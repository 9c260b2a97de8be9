// metrale/planner.h: the liveness-aware offset planner.
//
// The planner sees only {bytes, first, last} per buffer (TFLM micro_memory_planner,
// XLA's HeapAlgorithm): the graph walk that produces them lives elsewhere. It assigns each
// buffer an offset in one arena so that two buffers overlap in memory only when their
// lifetimes [first, last] (inclusive schedule positions) are disjoint.
// Thread-safe: no state outside the arguments; scratch memory comes from |scratch|.
#ifndef METRALE_PLANNER_H
#define METRALE_PLANNER_H

#include <stddef.h>
#include <stdint.h>

#include "metrale/arena.h"
#include "metrale/status.h"

typedef struct met_buffer_t {
  uint64_t bytes;   // slot size, already rounded to the target's alignment by the caller
  int32_t first;    // first schedule position the buffer is live at (its producer)
  int32_t last;     // last schedule position it is live at (its last use); last >= first
} met_buffer_t;

typedef enum met_plan_strategy_e {
  // Decreasing size, each buffer at the lowest offset where it fits (TFLM
  // GreedyMemoryPlanner): the baseline the benchmark compares against.
  MET_PLAN_GREEDY_SIZE_FIRST_FIT = 0,
  // Decreasing size, each buffer in the smallest gap that holds it (XLA best-fit).
  MET_PLAN_GREEDY_SIZE_BEST_FIT = 1,
  // Decreasing bytes x lifetime length, best fit.
  MET_PLAN_GREEDY_AREA_BEST_FIT = 2,
  // Every strategy, in the order of this list's values (0, 1, 2, 4, 5, 6, 7), keeping the
  // smallest arena (ties: the earlier strategy); stops as soon as a plan meets the
  // sum-of-live lower bound, which no plan beats. Never worse than any single strategy
  // that it reaches, and so than MET_PLAN_GREEDY_SIZE_FIRST_FIT. A strategy whose plan
  // passes 2^64 bytes is skipped (MET_EOVERFLOW only when every one does). The default.
  MET_PLAN_BEST = 3,
  // Decreasing size, ties broken by later start, then longer lifetime; first fit or best
  // fit. Packs the tail of a schedule first among equal sizes (metrale's own addition: it
  // reaches the bound where earlier-start ties leave a gap).
  MET_PLAN_GREEDY_SIZE_LATE_FIRST_FIT = 4,
  MET_PLAN_GREEDY_SIZE_LATE_BEST_FIT = 5,
  // TFLite's greedy-by-breadth, for offsets: buffers by decreasing breadth of the busiest
  // position they are live at (the sum of live bytes there), then by decreasing size, so
  // the positions that set the arena are packed first; first fit or best fit.
  MET_PLAN_GREEDY_BREADTH_FIRST_FIT = 6,
  MET_PLAN_GREEDY_BREADTH_BEST_FIT = 7,
} met_plan_strategy_t;

// The strategy's option name ("first-fit", "best-fit", "area", "best", "late-first-fit",
// "late-best-fit", "breadth-first-fit", "breadth-best-fit"); NULL for a value outside the
// enum. met_plan_strategy_parse is its inverse (|len| bytes of |name|): MET_ENOTFOUND.
const char *met_plan_strategy_name(met_plan_strategy_t s);
met_status_t met_plan_strategy_parse(const char *name, size_t len, met_plan_strategy_t *out);
// The names of every strategy, comma-separated, "best" first (for help and errors).
#define MET_PLAN_STRATEGY_NAMES                                                         \
  "best, first-fit, best-fit, area, late-first-fit, late-best-fit, breadth-first-fit, " \
  "breadth-best-fit"

// Plans |count| buffers on a schedule of |positions| positions (every first/last lies in
// [0, positions)). Writes each buffer's offset to |out_offsets[i]| and the arena size
// (max over buffers of offset + bytes, 0 for no buffers) to |*out_arena_bytes|.
// Offsets are sums of buffer sizes, so they keep any alignment the sizes have.
// Errors: MET_EINVAL for a lifetime outside the schedule or last < first, MET_ENOMEM,
// MET_EOVERFLOW when an offset passes 2^64.
// Complexity: O(n log n + sum over buffers of (lifetime length + overlapping buffers)
// x log), i.e. near-linear on the short lifetimes of real graphs.
met_status_t met_planner_plan(const met_buffer_t *buffers, size_t count, uint32_t positions,
                              met_plan_strategy_t strategy, met_arena_t *scratch,
                              uint64_t *out_offsets, uint64_t *out_arena_bytes);

// met_planner_plan for a caller that already knows the sum-of-live lower bound of these
// buffers (met_planner_peak_live): MET_PLAN_BEST stops at |lower_bound| without computing
// it again.
met_status_t met_planner_plan_bounded(const met_buffer_t *buffers, size_t count,
                                      uint32_t positions, met_plan_strategy_t strategy,
                                      uint64_t lower_bound, met_arena_t *scratch,
                                      uint64_t *out_offsets, uint64_t *out_arena_bytes);

// The largest sum of |bytes| of buffers live at one position: the lower bound no offset
// plan beats. O(n + positions).
met_status_t met_planner_peak_live(const met_buffer_t *buffers, size_t count,
                                   uint32_t positions, met_arena_t *scratch,
                                   uint64_t *out_peak);
// The same sweep (the one live-profile sweep of metrale: the Budget's bound, the memory
// model's allocation peak and its run's peak position) also giving the first position
// where the peak is reached in |*out_position| (0 when nothing is live; -1 for an empty
// schedule). |out_position| may be NULL.
met_status_t met_planner_peak_live_at(const met_buffer_t *buffers, size_t count,
                                      uint32_t positions, met_arena_t *scratch,
                                      uint64_t *out_peak, int32_t *out_position);

// Checks that no two buffers with overlapping lifetimes overlap in memory. Returns MET_OK
// or MET_EINVAL and the first offending pair in |*out_a|, |*out_b|. O(n^2): the oracle for
// tests, not for production paths.
met_status_t met_planner_verify(const met_buffer_t *buffers, size_t count,
                                const uint64_t *offsets, size_t *out_a, size_t *out_b);

#endif
