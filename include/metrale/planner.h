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
  // All of the above in that order, keeping the smallest arena (ties: the earlier
  // strategy); stops as soon as a plan meets the sum-of-live lower bound, which no plan
  // beats. Never worse than MET_PLAN_GREEDY_SIZE_FIRST_FIT by construction. The default.
  MET_PLAN_BEST = 3,
} met_plan_strategy_t;

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
