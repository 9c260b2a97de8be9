// metrale/budget.h: the Budget of one run of one graph on one target.
//
// met_budget_analyze runs the fusion model and the planner over a met_graph_t and fills a
// met_budget_report_t. Every report of metrale (attribute, remarks, JSON, CLI table) reads
// these numbers; nothing else computes them. Thread-safe: all state lives in the arguments.
//
// Fusion plan (the dispatch model). Compute nodes are visited in program order. A node
// joins the group of one of its producers when
//   (a) the kinds allow it: an elementwise node (casts included) joins an elementwise
//       group, or, on targets with epilogue_fusion, a group anchored by a matmul, conv or
//       reduction; any node joins a generator group; and
//   (b) the group has no other open use: every use of every result of every member is by
//       this node (so a group always has one exit, and the dispatch graph stays acyclic).
// The first producer (in operand order) that qualifies wins. Then every other generator
// group whose open uses are all by this node is merged into the node's group (a backend
// clones a fill or a bias broadcast into its consumer). A generator group is made of
// fills and of elementwise ops that read only leaves (arguments, constants,
// tensor.empty): it has no input from another dispatch, so merging it adds no cycle.
// Matmul, conv, reduction, data movement, loops, unknown ops and ops off the target's fast
// path start groups; off-fast-path and unknown ops never take another node in.
//
// Materialized value: a result of a compute node used by a node outside its group (a
// different dispatch, a host op) or returned, and every bufferized allocation. Values
// that live only inside one dispatch never reach memory and get no slot.
// Slot: one per materialized value, and one per node with scratch bytes (graph.h: a
// region's own peak or a callee's arena, live at the node's position only);
// lifetime [producer's position, last use's position]
// (uses through views count, a deallocation does not; a returned value is pinned to the
// last position); size =
// bytes under the width policy rounded up to the target's alignment.
#ifndef METRALE_BUDGET_H
#define METRALE_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/arena.h"
#include "metrale/graph.h"
#include "metrale/planner.h"
#include "metrale/status.h"
#include "metrale/target.h"

typedef struct met_budget_t {
  // Size of the planner's offset plan: max over slots of offset + size. Slots overlap in
  // memory only when their lifetimes are disjoint. Exact for this plan.
  uint64_t arena_bytes;
  // materialized_bytes - arena_bytes: what slot reuse saved. Exact.
  uint64_t reuse_saved_bytes;
  // arena_bytes - (arena of the same slots, same lifetimes and alignment, at native
  // widths). Non-zero only on f32-uniform targets and graphs with f16/bf16 (or narrower
  // float) activations. Not "arena minus the native target's arena": a native target may
  // differ in alignment and fusion too, and this isolates the width policy alone. The
  // planner is a heuristic, not monotone in sizes: a negative difference reads as 0.
  uint64_t width_overhead_bytes;
  met_width_policy_t width_policy;
  // Bytes of the arguments that are neither parameters nor states, plus the function's
  // results, at their declared types (a result counted once per returned operand). Exact.
  uint64_t host_io_bytes;
  // Compute nodes outside the target's fast path (unregistered and unknown ops always).
  uint64_t off_fast_path_ops;
  // Sum of those nodes' result bytes at native widths; for a node without shaped results
  // (a bufferized op) the bytes of its buffer operands, which it may write. Exact.
  uint64_t off_fast_path_bytes;
  // Compute nodes whose only product is another element type (arith.extf/truncf/sitofp/
  // ..., tosa.cast, a linalg.generic whose body is one cast). Exact.
  uint64_t cast_nodes;
  // Parameters the graph reads: tensor constants, global loads and arguments marked as
  // parameters that have at least one use, each counted once at its declared type. Exact.
  uint64_t param_bytes;
  // Number of fusion groups. A floor for a backend whose fusion is at least as strong as
  // these rules; a backend that fuses less launches more.
  uint64_t dispatches;
  // Per dispatch: bytes of the distinct operands it reads from outside itself (arguments,
  // parameters, other dispatches' results, each at the bytes of the operand as used: a
  // slice view reads only the slice; tensor.empty is never read) plus the bytes of its
  // results that leave it, summed over dispatches, at the policy's widths. A buffer
  // operand of a bufferized op is charged once, read or written. An upper bound: it
  // assumes nothing survives in cache between dispatches, and two views of one value
  // read by one dispatch are charged twice.
  uint64_t dram_bytes;
  // The largest sum of slot sizes live at one position: the lower bound no plan beats.
  uint64_t peak_live_bytes;
  // Sum of slot sizes. Exact.
  uint64_t materialized_bytes;
} met_budget_t;

// One planned slot, as the JSON report lists it.
#define MET_SLOT_SCRATCH UINT32_MAX  // met_slot_t.value of a node's scratch slot

typedef struct met_slot_t {
  uint32_t value;     // graph value id; MET_SLOT_SCRATCH for a node's scratch
  int32_t node;       // producing node
  uint64_t bytes;     // slot size under the policy, aligned
  int32_t first;      // schedule positions, inclusive
  int32_t last;
  uint64_t offset;    // offset in the arena
} met_slot_t;

typedef struct met_budget_options_t {
  met_plan_strategy_t strategy;  // MET_PLAN_BEST unless a benchmark wants another
} met_budget_options_t;

typedef struct met_budget_report_t {
  met_budget_t budget;
  // False when a byte count is a lower bound: unbound dynamic dims, unranked or unsized
  // values. Every field above is then a lower bound of the same definition.
  bool complete;
  met_slot_t *slots; size_t slot_count;      // values' slots in value order, then scratch
                                             // slots in node order
  uint32_t *group_of_node;                   // dispatch per node; UINT32_MAX for none
  uint8_t *off_fast_path;                    // per node: 1 when counted off the fast path
  uint32_t *use_count;                       // per value: uses, views resolved
  // With MET_EOVERFLOW: the met_budget_t field whose sum passed 2^64 ("host_io_bytes",
  // "arena_bytes", ...), static text; NULL otherwise.
  const char *overflow_field;
} met_budget_report_t;

// Analyses |graph| on |target|. All memory of |out| comes from |arena|.
// Errors: MET_ENOMEM; MET_EOVERFLOW when a sum of sizes passes 2^64; MET_EINVAL for a
// malformed graph (operand out of range, positions out of order).
// Complexity: O(nodes + operands + values) plus the planner's cost.
met_status_t met_budget_analyze(const met_graph_t *graph, const met_target_t *target,
                                const met_budget_options_t *options, met_arena_t *arena,
                                met_budget_report_t *out);

#endif
