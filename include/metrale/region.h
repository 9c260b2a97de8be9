// metrale/region.h: what an op with regions (a loop, a branch, an execute_region, a
// linalg body that calls) costs, from the graphs of its regions (metrale/graph.h,
// Scratch). The adapter builds each region's graph from the IR; this decides, on the
// target, what one run of each region costs and what the op then is: scratch beside its
// inputs, or dispatches of its own times its runs. Pure: plain structs in and out.
// Thread-safe: all state is in the arguments.
#ifndef METRALE_REGION_H
#define METRALE_REGION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/arena.h"
#include "metrale/budget.h"
#include "metrale/graph.h"
#include "metrale/status.h"
#include "metrale/target.h"

#ifdef __cplusplus
extern "C" {
#endif

// What one run of one region of an op costs (its graph's Budget, and on a per-buffer
// target its allocations with their padding).
enum { MET_REGION_MAX = 4 };
typedef struct met_region_stats_t {
  bool present;             // the region holds tensors or buffers and was counted
  uint64_t arena, native;   // its planned arena (and at native widths)
  uint64_t dispatches, dram_bytes, off_fast_path_ops, off_fast_path_bytes, cast_nodes;
  uint64_t nests;           // of its dispatches, the loop nests that hold no kernel (part of
                            // the op's own nest when nothing else runs: one kernel)
  uint64_t param_bytes, flops;
  bool flops_known;
  uint64_t buffers, buffer_bytes;  // allocations (met_dispatch_buffers)
  uint64_t alloc_peak_bytes;       // met_budget_report_t.alloc_peak_bytes
  uint64_t yielded_bytes;          // the buffers it allocates and yields (padded)
} met_region_stats_t;

// What the regions of one op add up to, as they are counted one by one.
typedef struct met_region_tally_t {
  uint64_t bytes, native;   // the largest planned arena of a region (and at native widths)
  size_t max_blocks;        // the most blocks of a region
  bool incomplete;          // a region's report was
  met_region_stats_t region[MET_REGION_MAX];
} met_region_tally_t;

// How an op runs its regions, as the IR says before it runs.
typedef struct met_region_plan_t {
  bool is_loop;             // scf.for, and every op whose regions run a number of times
                            // not read from the IR (other loops, gpu.launch, a generic's body)
  int64_t trips;            // how often: an scf.for's runs when its bounds are constants,
                            // 1 for scf.execute_region, else -1 (not known before it runs)
  bool is_if;               // scf.if
  int branch;               // the region it takes (0 then, 1 else), -1: known only at run
} met_region_plan_t;

// Plans region graph |sub| (|blocks| blocks; region |region| of its op, counted in
// |t->region| when below MET_REGION_MAX) on |target| with |tmp|'s storage and adds it
// to |t| (zeroed before the first region).
met_status_t met_region_count(const met_graph_t *sub, const met_target_t *target,
                              met_arena_t *tmp, size_t blocks, intptr_t region,
                              met_region_tally_t *t);

// What the op is, from its tally: |x| gets its scratch (the largest region's arena; a
// branch known to take one region, that one's), and, when its regions run dispatches or
// allocate, their cost times the runs (replaces_dispatch): a loop's body |trips| times
// when known, a branch's taken region when its condition is known, else the larger one
// (an upper bound), any other op's regions once each. When nothing of its own runs in
// the regions but loop nests, a loop is one kernel (its nests part of it) and a branch
// the host's control flow (|host|).
typedef struct met_region_outcome_t {
  bool host;                // a branch with nothing of its own to run
  bool lower_bound;         // a region's report was incomplete, or has several blocks
  bool unknown_trips;       // dispatches count one run of a loop whose trips are unknown
  bool upper_bound;         // a branch on a run-time value: the larger branch counted
  uint64_t dispatches;      // one run's dispatches (for the message of unknown_trips)
} met_region_outcome_t;
void met_region_summarize(const met_region_plan_t *plan, const met_region_tally_t *t,
                          met_node_extra_t *x, met_region_outcome_t *out);

#ifdef __cplusplus
}
#endif

#endif
