// passes/adapter/adapter.h: the one place that walks MLIR. It turns a func.func into a
// met_graph_t (see metrale/graph.h for the definitions it implements) and collects the
// diagnostics it finds on the way, to be emitted later in a fixed order.
// Thread-compatible: one call per function; functions may be built on several threads.
#ifndef METRALE_PASSES_ADAPTER_H
#define METRALE_PASSES_ADAPTER_H

#include <stdbool.h>
#include <stdint.h>

#include "metrale/arena.h"
#include "metrale/budget.h"
#include "metrale/graph.h"
#include "ir/diag.h"
#include "metrale/ptrmap.h"
#include "metrale/target.h"
#include "ir/diag.h"
#include "ir/params.h"
#include "mlir-c/IR.h"


// What a func.call's callee is, as the caller's builder asks for it.
typedef enum met_callee_state_e {
  MET_CALLEE_DONE = 0,     // analysed: |report| holds its Budget
  MET_CALLEE_NO_BODY = 1,  // a declaration (external function): nothing to count
  MET_CALLEE_PENDING = 2,  // not analysed before the caller: a recursive call
  MET_CALLEE_FAILED = 3,   // its analysis failed (an error was reported there)
  MET_CALLEE_UNKNOWN = 4,  // no function of that name in the caller's symbol table
  MET_CALLEE_HOST = 5,     // a function the lowering pipeline added to the program being
                           // analysed (bufferization's dealloc helper): host bookkeeping,
                           // no kernel, no buffer of its own
} met_callee_state_t;

typedef struct met_callee_t {
  met_callee_state_t state;
  const met_budget_report_t *report;  // when MET_CALLEE_DONE; borrowed
} met_callee_t;

// Looks up |callee| (a flat symbol) as seen from |caller|. Must be thread-safe.
typedef void (*met_callee_fn_t)(void *user, MlirOperation caller, MlirStringRef callee,
                                met_callee_t *out);

typedef struct met_adapter_options_t {
  const met_target_t *target;   // the types' storage (index bits, packing) and which facts
                                // the graph records (met_target_graph_facts)
  int64_t dynamic_size;         // > 0 binds every dynamic dim to this size
  const met_param_spec_t *params;
  bool record_names;            // value names and op locations, for the JSON report
  const met_param_spec_t *states;  // arguments that are states (memory model); NULL none
  met_callee_fn_t callee;       // resolves func.call callees; NULL: none are resolved
  void *callee_user;
  bool count_flops;             // fill graph->flops (the dispatch stats' roofline)
  bool dead_remarks;            // a remark at every dead op; false: one per function, with
                                // how many and the first (the LLM graphs have hundreds)
  bool remarks_each;            // the same for every kind the adapter sums up (dead ops,
                                // splat folds: BERT has 62)
} met_adapter_options_t;

// The MLIR op a node of a graph built here stands for (met_node_t.ext), and its location.
static inline MlirOperation met_node_op(const met_node_t *n) {
  return (MlirOperation){(void *)(uintptr_t)n->ext};
}
static inline MlirLocation met_node_loc(const met_node_t *n) {
  return mlirOperationGetLocation(met_node_op(n));
}

// What the adapter learns of op names and types, kept across the functions one thread
// builds in turn: names and types are uniqued in the context, so each is looked at once
// per cache instead of once per function (a module of 20,000 one-op functions has two op
// names and one type). The graphs built with a cache point at the op names it holds, so
// it must outlive them. One thread at a time; the entries of types depend on the options'
// target and dynamic_size, and are dropped when a build brings others.
struct op_entry_t;
struct type_entry_t;
typedef struct met_adapter_cache_t {
  met_arena_t arena;          // everything below, and the interned op names
  met_ptrmap_t opcache, typecache;  // op name / type -> entry index
  met_ptrmap_t itercache;     // iterator_types attribute -> 1 + has a reduction
  met_ptrmap_t loopcache;     // indexing maps, or the name of an op with default maps
                              // (met_linalg_default_maps) -> 1 + index into |patterns| (0: none)
  struct met_loop_pattern_t *patterns; size_t npatterns, cappatterns;
  met_ptrmap_t axescache;     // the same keys -> 1 + index into |maps| (axes.c)
  struct linalg_maps_t *maps; size_t nmaps, capmaps;
  struct op_entry_t *ops; size_t nops, capops;
  struct type_entry_t *types; size_t ntypes, captypes;
  const met_target_t *target; // what |types| were sized for
  int64_t dynamic_size;
} met_adapter_cache_t;

void met_adapter_cache_initialize(met_adapter_cache_t *cache);
void met_adapter_cache_deinitialize(met_adapter_cache_t *cache);

// The remarks met_adapter_build gives |func|'s dead ops (metrale/graph.h, Dead ops), and
// nothing else: for a function whose graph is built from the program a pipeline made of
// it (passes/jobs.h: mlir-cpu's lowering erased those ops before the build sees them).
// |each|: a remark per dead op (met_adapter_options_t.dead_remarks), else one summary.
met_status_t met_adapter_dead_remarks(MlirOperation func, bool each, met_arena_t *arena,
                                      met_diag_list_t *diags);

// Builds |graph| (storage in |arena|) from |func|, a func.func with a body, with |cache|
// (above). Diagnostics go to |diags|. |*out_failed| is set when an error diagnostic was
// added (a size that overflows): the function cannot be evaluated.
met_status_t met_adapter_build(MlirOperation func, const met_adapter_options_t *options,
                               met_adapter_cache_t *cache, met_arena_t *arena,
                               met_graph_t *graph, met_diag_list_t *diags, bool *out_failed);

// The file, line and column |loc| points at (through names, call sites and fusions, as
// met_adapter_loc_string). False when it has none.
bool met_adapter_loc_parts(MlirLocation loc, MlirStringRef *file, int *line, int *col);
// "file:line:col" of |loc|, looking through name, call-site and fused locations; NULL if
// none is found. Stored in |arena|.
const char *met_adapter_loc_string(met_arena_t *arena, MlirLocation loc);

// The function's name as the reports print it after '@': its symbol, qualified by the
// named modules around it ("inner::@f" for @f in module @inner). In |arena|; NULL on OOM.
const char *met_adapter_qualified_name(met_arena_t *arena, MlirOperation func);

// The function's symbol name (borrowed from the context).
MlirStringRef met_adapter_func_name(MlirOperation func);

#endif
