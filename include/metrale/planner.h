// metrale/planner.h: the liveness-aware offset planner.
//
// The planner sees only {bytes, first, last} per buffer (TFLM micro_memory_planner,
// XLA's HeapAlgorithm): the graph walk that produces them lives elsewhere. It assigns each
// buffer an offset in one arena so that two buffers overlap in memory only when their
// lifetimes [first, last] (inclusive schedule positions) are disjoint.
// Thread-safe: no state outside the arguments; scratch memory comes from |scratch|.
#ifndef METRALE_PLANNER_H
#define METRALE_PLANNER_H

#include <stdbool.h>
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

// ---------------------------------------------------------------------------------------
// The exact planner (planner_exact.c): a search over canonical plans after MiniMalloc
// (M. Moffitt, ASPLOS 2023: canonical solutions, inference by sections, dominance,
// decomposition), in metrale's own implementation. Sizes and lifetimes only.
// Cost, measured (bench/RESULTS.md): a node of a partition under 1,024 buffers scans it
// (1-20 us on MiniMalloc's instances of 154-454 buffers); a larger partition keeps its
// children in trees, so a node costs O(log n) plus what its placement raises, and a dive
// to a plan with no turning back is O(n log n): 64,000 buffers of a chain of MLP blocks
// reach their bound in 64,001 nodes, 0.2 s. Memory O(n + overlaps + section entries),
// about 2.3 KB a buffer there, from the caller's scratch arena; no recursion on the
// machine's stack.

// What bounds a search: |max_nodes| search nodes in all (a count, so that a result is the
// same on every machine and every run; 0: no search), and optionally a wall-clock cap of
// |max_ns| nanoseconds read from |now_ns| (the caller's clock: the core reads none),
// asked every 64 nodes; a result that cap cuts short depends on the machine's speed
// (met_plan_outcome_t.stopped says so). Without limits (NULL) a search runs to its end.
// |lengths| (optional, NULL: last + 1 - first) gives each buffer's lifetime length in the
// caller's own time units, which the search's orders rank by (MiniMalloc's W and A keys):
// a caller that renumbered sparse times to positions keeps the original lengths there.
typedef struct met_plan_limits_t {
  uint64_t max_nodes;
  uint64_t max_ns;                  // 0: no wall-clock cap
  uint64_t (*now_ns)(void *user);   // NULL: no wall-clock cap
  void *now_user;
  const uint64_t *lengths;          // per buffer, or NULL
} met_plan_limits_t;

// Past these the exact search is not tried (met_planner_fit says MET_FIT_UNKNOWN after 0
// nodes, met_planner_solve keeps the greedy plan): buffers with bytes, and overlap entries
// (twice the pairs of buffers live together) or section entries (sum of lifetimes in
// sections).
#define MET_PLAN_MAX_EXACT_BUFFERS 65536u
#define MET_PLAN_MAX_EXACT_ENTRIES (1u << 25)

// The default node budget per function: a few seconds of search at most on this
// project's 2-core machine (bench/RESULTS.md has the rates), which a function whose
// greedy plans meet the bound never spends; and the default wall-clock cap, a safety net
// for functions whose nodes are slow (thousands of buffers).
#define MET_PLAN_DEFAULT_NODES 300000u
#define MET_PLAN_DEFAULT_SECONDS 10u

typedef enum met_fit_e {
  MET_FIT_UNKNOWN = 0,  // the limits stopped the search first (or the problem is past
                        // what the search takes: MET_PLAN_MAX_EXACT_*)
  MET_FIT_YES = 1,      // a plan within the capacity is in the offsets
  MET_FIT_NO = 2,       // proven: no plan fits
} met_fit_t;

// Whether |buffers| fit |capacity| bytes (every buffer's offset + bytes at most
// |capacity|): on MET_FIT_YES the offsets of a plan that does. |out_nodes| (may be NULL):
// the nodes searched. Errors as met_planner_plan.
met_status_t met_planner_fit(const met_buffer_t *buffers, size_t count, uint32_t positions,
                             uint64_t capacity, const met_plan_limits_t *limits,
                             met_arena_t *scratch, uint64_t *out_offsets, met_fit_t *out_fit,
                             uint64_t *out_nodes);

// How good a plan is known to be.
typedef enum met_plan_proof_e {
  MET_PLAN_AT_BOUND = 0,    // "lower-bound": the arena equals the sum-of-live bound
  MET_PLAN_OPTIMAL = 1,     // "optimal": above that bound, and the search proved that no
                            // smaller arena fits
  MET_PLAN_BEST_FOUND = 2,  // "best-found": the best plan found before the limits; the
                            // optimum lies in [lower_bound, arena_bytes]
} met_plan_proof_t;

// "lower-bound", "optimal", "best-found"; NULL outside the enum.
const char *met_plan_proof_name(met_plan_proof_t p);

typedef struct met_plan_outcome_t {
  uint64_t arena_bytes;   // the plan's arena
  uint64_t lower_bound;   // proven: no plan is smaller (the sum-of-live bound, or more
                          // where the search proved capacities below it do not fit)
  met_plan_proof_t proof;
  uint64_t nodes;         // search nodes spent
  bool stopped;           // the wall-clock cap cut the search short
} met_plan_outcome_t;

// The plan of met_planner_plan_bounded with |strategy| (|lower_bound| as there, 0: computed
// here); with MET_PLAN_BEST and a plan above the bound, then the exact search within
// |limits| for smaller arenas: the capacities between the bound and the best arena so far
// are bisected (each a met_planner_fit question; every plan is a sum of sizes, so only
// multiples of their greatest common divisor are asked). Never worse than the greedy plan.
met_status_t met_planner_solve(const met_buffer_t *buffers, size_t count, uint32_t positions,
                               met_plan_strategy_t strategy, uint64_t lower_bound,
                               const met_plan_limits_t *limits, met_arena_t *scratch,
                               uint64_t *out_offsets, met_plan_outcome_t *out);

#endif
