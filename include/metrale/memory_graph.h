// metrale/memory_graph.h: what the memory model reads off one analysed function (a
// met_graph_t and its Budget report). Pure functions; all memory from the caller's arena.
// Thread-safe.
//
// Definitions:
// - Parameter-only node: a compute node every operand of which is a parameter (argument
//   marked as one, tensor constant, global load), a tensor.empty, or the result of a
//   hoisted node, and whose results are no larger than those operands (a broadcast or
//   fill that expands a weight is recomputed inside its consumer's dispatch, as compilers
//   that hoist constant expressions decline to expand data). On a target that hoists
//   parameters these run once at load time: they are the hoisted nodes.
// - Derived bytes: the results of parameter-only nodes that a node outside that set reads
//   (what the load-time subgraph leaves in memory), at their declared types.
// - Leaked source: a parameter read only by parameter-only nodes: after hoisting no run
//   reads it, yet it stays resident beside what was derived from it (on a target whose
//   residency is MET_RESIDENCY_KEEP).
// - Replaced bytes: of a weight, the bytes that only parameter-only nodes read (the whole
//   weight, or the slices of it only they read): on a MET_RESIDENCY_REPLACE target their
//   load-time results replace them.
// - Allocation peak (bufferized code): positions run in order; a top-level memref.alloc or
//   memref.alloca adds its bytes at its position, a memref.dealloc of it removes them after
//   its position; what is never deallocated lives to the end. The peak is the largest sum.
// - Run arena: the Budget plan's slots less those produced by hoisted nodes (they run at
//   load time and are counted as derived weights), planned again by the same planner.
// - Peak attribution: the position where those slots' live sum is largest; each live slot
//   is charged to its producing node.
#ifndef METRALE_MEMORY_GRAPH_H
#define METRALE_MEMORY_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "metrale/arena.h"
#include "metrale/budget.h"
#include "metrale/graph.h"
#include "metrale/target.h"

typedef enum met_family_e {
  MET_FAMILY_MATMUL = 0,
  MET_FAMILY_CONV = 1,
  MET_FAMILY_SOFTMAX = 2,
  MET_FAMILY_REDUCTION = 3,
  MET_FAMILY_COUNT = 4,
} met_family_t;

typedef struct met_function_memory_t {
  uint8_t *hoisted;            // per node: parameter-only (only when the target hoists)
  uint64_t derived_bytes;      // sum of derived values
  uint32_t *param_uses;        // per value: uses by nodes that are not hoisted
  uint64_t *replaced_bytes;    // per weight (root value): bytes that only hoisted nodes read
                               // (what a run reads: the whole weight when an op reads it
                               // directly, else its distinct views summed, an upper bound
                               // when views overlap, at most the weight); NULL when the
                               // target does not hoist
  bool bufferized;             // fully bufferized: every planned slot is an allocation
                               // (partly bufferized code is charged its plan, which
                               // covers its allocations too)
  uint64_t allocated_peak;     // allocation peak (0 unless bufferized)
  uint64_t run_arena;          // the run's arena after hoisting (see above)
  uint8_t *slot_kept;          // per Budget slot: 1 when it stays in the run
  int32_t peak_position;       // position of the planned peak (-1: no slots)
  uint64_t family_bytes[MET_FAMILY_COUNT];   // workspace term of each family
  int32_t family_node[MET_FAMILY_COUNT];     // the node that sets it (-1: none)
  int32_t unsized_node;        // a conv node whose staged operand has no size (-1: none)
} met_function_memory_t;

// Fills |out| for |graph| analysed as |report| on |target|; the run's re-plan (when
// hoisting takes slots out) searches within |limits|, the Budget's (NULL: no limits).
met_status_t met_memory_function(const met_graph_t *graph, const met_budget_report_t *report,
                                 const met_target_t *target, const met_plan_limits_t *limits,
                                 met_arena_t *arena, met_function_memory_t *out);

// The family name ("matmul", "conv", "softmax", "reduction").
const char *met_family_name(met_family_t f);

#endif
