// metrale/dispatch.h: dispatch stats: what one logical dispatch (one invocation of one
// function on a target) moves, allocates, launches and waits on; predicted from the
// same graph, fusion plan and planner as the Budget (nothing is recomputed here).
//
// Definitions, in MLIR terms (met_dispatch_analyze computes exactly these):
//  - input_bytes: for every function argument the host passes, its control bytes (the
//    target's control_bytes_per_buffer, or on the CPU ABI a memref descriptor of
//    (3 + 2 x rank) x 8 bytes: allocated and aligned pointers, offset, sizes, strides),
//    plus the data of arguments that are not resident (role input). Parameters and
//    states are resident, as in the Budget: only their control bytes are passed. When
//    residency fails (a parameter is re-uploaded each run), its data is an input: mark
//    it so with params= / states=.
//  - output_bytes, output_buffers: the data and the number of shaped results.
//  - readback_bytes: output_bytes, plus on an offloading target (the device is not the
//    host) the operand data of every op off the fast path: it runs on the host, so its
//    operands are read back. (Its results go down again: they count in input_bytes.)
//  - bytes_moved: input_bytes + readback_bytes.
//  - device_allocation_bytes / events: allocation model `arena`: one allocation of the
//    Budget's arena_bytes (none when 0), plus one fresh buffer per result unless the
//    target returns results in place; `per-buffer`: one allocation per materialized slot
//    of the Budget (each value that gets its own buffer, and kernel scratch), of its
//    native bytes plus the target's allocation_padding_bytes (none for an allocation
//    that states no alignment, MET_VALUE_F_NO_PAD: the lowering pads only aligned
//    ones); a call allocates its
//    callee's own buffers (met_budget_report_t.inner_buffers: not its results, which are
//    the call's results here).
//  - device_allocation_peak_bytes: the most bytes the invocation holds allocated at
//    once. `arena`: the arena and the fresh result buffers, held together for the whole
//    invocation (device_allocation_bytes). `per-buffer`: met_budget_report_t's
//    alloc_peak_bytes: each allocation its native bytes plus the padding, live from the
//    op that makes it to the deallocation that frees it (to the end when none does).
//    What `metrale run` measures as its live high water (the hooks' running sum of the
//    bytes requested, the lowering's padding included).
//  - kernel_launches: the Budget's dispatches; 1 on a megakernel target (one persistent
//    kernel runs the graph), 0 for a graph with nothing to run.
//  - sync_points: 1 (collect the results), plus 1 per op off the fast path on an
//    offloading target (a host round trip each).
//  - resident_resource_rows: resident values the function reads (parameters, states,
//    constants, global loads, the results of load-time nodes (budget.h, Load time); views
//    resolved to what they view, each once). A splat
//    constant is a fill, no row, unless the fusion model reads it from memory
//    (met_budget_splat_read); an operand the lowering folds into a kernel's body (a TOSA
//    zero point, met_node_t operands) is no operand at all.
//    resident_resource_handles: over kernels, the distinct resident values each reads;
//    on a megakernel target the one kernel binds every row.
//  - latency_ns: per dispatch, max(bytes / bandwidth, flops / peak) + the launch floor
//    (on a megakernel, one floor for the whole graph), summed; plus bytes_moved over the
//    host link on an offloading target. bytes is the dispatch's share of the Budget's
//    dram_bytes; flops is met_graph_t.flops summed over its ops, at the peak of its
//    element type. An op whose FLOPs are not known counts 0 and makes latency a lower
//    bound (met_dispatch_report_t.flops_complete).
//  - recovered_after_device_loss: false (only a real run can recover).
//  - the rates: field x 10^9 / latency_ns, exact in 128-bit arithmetic, 0 when
//    latency_ns is 0; MET_EOVERFLOW when a rate passes 2^64.
#ifndef METRALE_DISPATCH_H
#define METRALE_DISPATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "metrale/arena.h"
#include "metrale/budget.h"
#include "metrale/graph.h"
#include "metrale/status.h"
#include "metrale/strbuf.h"
#include "metrale/target.h"

#define MET_DISPATCH_CTYPE_BYTES uint64_t
#define MET_DISPATCH_CTYPE_COUNT uint64_t
#define MET_DISPATCH_CTYPE_NS uint64_t
#define MET_DISPATCH_CTYPE_RATE uint64_t
#define MET_DISPATCH_CTYPE_BOOL bool

typedef struct met_dispatch_stats_t {
#define MET_DISPATCH_FIELD(name, kind, meaning) MET_DISPATCH_CTYPE_##kind name;
#include "metrale/dispatch_fields.def"
#undef MET_DISPATCH_FIELD
} met_dispatch_stats_t;

enum {
#define MET_DISPATCH_FIELD(name, kind, meaning) MET_DISPATCH_FIELD_INDEX_##name,
#include "metrale/dispatch_fields.def"
#undef MET_DISPATCH_FIELD
  MET_DISPATCH_FIELD_COUNT
};

// The name of field |f| as every report spells it (MET_BUDGET_FIELD_NAME's rule): a name
// that is not in dispatch_fields.def does not build.
#define MET_DISPATCH_FIELD_NAME(f) (MET_DISPATCH_FIELD_INDEX_##f >= 0 ? #f : "")

typedef enum met_dfield_kind_e {
  MET_DFIELD_BYTES, MET_DFIELD_COUNT, MET_DFIELD_NS, MET_DFIELD_BOOL, MET_DFIELD_RATE,
} met_dfield_kind_t;

typedef struct met_dispatch_field_t {
  const char *name;        // one spelling in C, JSON, attributes, tables
  met_dfield_kind_t kind;
  const char *meaning;
  size_t offset;           // into met_dispatch_stats_t
} met_dispatch_field_t;

// The fields in the list's order; |*count| receives their number. Static data.
const met_dispatch_field_t *met_dispatch_fields(size_t *count);
// A field's value (a bool as 0 or 1).
uint64_t met_dispatch_field_u64(const met_dispatch_stats_t *s, const met_dispatch_field_t *f);

// The allocations of |g| (its Budget report |r|) under |t|'s per-buffer model, as
// device_allocation_events / bytes define them: for a caller that counts what a region
// allocates each time it runs. MET_EOVERFLOW, naming the field in |*overflow_field|
// (optional), when the bytes pass 2^64.
met_status_t met_dispatch_buffers(const met_graph_t *g, const met_budget_report_t *r,
                                  const met_target_t *t, uint64_t *events, uint64_t *bytes,
                                  const char **overflow_field);

// The name of a dispatch row's field |f| (metrale/dispatch_rows.def), checked against
// the struct at compile time.
#define MET_DISPATCH_ROW_NAME(f) ((void)sizeof(((met_dispatch_row_t *)0)->f), #f)

// What bounds one dispatch's roofline time.
typedef enum met_bound_e { MET_BOUND_MEMORY, MET_BOUND_COMPUTE, MET_BOUND_LAUNCH } met_bound_t;
const char *met_bound_name(met_bound_t b);  // "memory", "compute", "launch"

// One dispatch of the fusion plan (a group of met_budget_report_t.group_of_node); its
// fields as the reports show them: metrale/dispatch_rows.def.
typedef struct met_dispatch_row_t {
  uint32_t group;          // its group in the Budget report
  uint32_t first_node;     // its first op in schedule order (names it, locates it)
  uint32_t op_count;       // compute ops in it
  uint64_t launches;       // kernels it launches (met_budget_report_t.group_launches)
  uint64_t bytes;          // its share of dram_bytes
  uint64_t flops;
  uint64_t latency_ns;     // max(memory, compute) + launch floor (0 floor on a megakernel)
  met_bound_t bound;
  bool flops_complete;     // every op's FLOPs are known
} met_dispatch_row_t;

typedef struct met_dispatch_report_t {
  met_dispatch_stats_t stats;
  met_dispatch_row_t *rows; size_t row_count;  // in order of first op
  uint64_t flops;          // over the graph (a resolved call counts its callee's)
  bool flops_complete;     // latency_ns is exact by its definition, not a lower bound
  uint64_t flops_unknown;  // ops in dispatches whose FLOPs are not known
  int32_t first_unknown;   // the first of them (a node), -1 for none
  const char *overflow_field;  // set with MET_EOVERFLOW
} met_dispatch_report_t;

// The dispatch stats of |graph| on |target| from its Budget |report| (made with
// met_budget_options_t.per_group set, so that report->group_bytes exists) and the
// graph's FLOP counts (graph->flops; all 0 and incomplete when NULL). Allocates rows in
// |arena|. MET_EOVERFLOW (overflow_field names the field), MET_ENOMEM, MET_EINVAL when
// the report lacks group_bytes.
met_status_t met_dispatch_analyze(const met_graph_t *graph, const met_budget_report_t *report,
                                  const met_target_t *target, met_arena_t *arena,
                                  met_dispatch_report_t *out);

// Sets the four rates of |s| from its byte fields and latency_ns.
met_status_t met_dispatch_rates(met_dispatch_stats_t *s, const char **overflow_field);

// One analysed function, as the renderers take it.
typedef struct met_dispatch_result_t {
  const char *name;
  const char *signature;                // its function type as MLIR prints it, or NULL
  const met_graph_t *graph;             // NULL when the analysis failed
  const met_dispatch_report_t *report;  // NULL when the analysis failed
  const met_budget_report_t *budget;    // the fusion plan the rows come from
  bool complete;                        // every count exact (Budget complete, FLOPs known)
  const char *error;                    // set when the analysis failed
} met_dispatch_result_t;

// The JSON document: {"target": {...}, "functions": [{"name", "complete",
// "dispatch_stats": {the fields}, "dispatches": [{"ops", "loc", "bytes", "flops",
// "latency_ns", "bound"}]}]}. "loc" is the node's recorded location ("" when none).
void met_dispatch_json(met_strbuf_t *sb, const met_target_t *target,
                       const met_dispatch_result_t *fns, size_t count);
// The predicted timeline in Chrome's trace event format (the JSON object form, which
// Perfetto and chrome://tracing open): one process, the target; one track (thread) per
// analysed function, named "@name"; each dispatch a complete event ("ph": "X") that starts
// where the one before ended and lasts its latency_ns, named by its ops, with its index,
// loc, bytes, FLOPs, launches, latency_ns and bound as args; what the function's latency_ns
// holds beyond its dispatches (an offloading target's host transfers, a megakernel's one
// launch) one more event after them. Times in microseconds, as the format has them, with
// three decimals (nanoseconds exact). The tracks' ends are the functions' latency_ns.
void met_dispatch_trace(met_strbuf_t *sb, const met_target_t *target,
                        const met_dispatch_result_t *fns, size_t count);
// The same written event by event, for a trace with more tracks (`metrale run --trace`:
// the prediction beside what ran). met_trace_begin starts the document (|timeline| in its
// otherData), met_trace_name names process |pid| (|tid| 0) or one of its threads,
// met_trace_slice adds a complete event from |ts_ns| lasting |dur_ns| (|args|: a JSON
// object, or NULL), met_trace_dispatches a function's predicted dispatches as above
// (returns where its track ends: its latency_ns), met_trace_end closes it.
typedef struct met_trace_t {
  met_strbuf_t *sb;
  bool any;  // an event was written (the next one needs a comma)
} met_trace_t;
void met_trace_begin(met_trace_t *t, met_strbuf_t *sb, const char *timeline);
void met_trace_name(met_trace_t *t, unsigned pid, unsigned tid, const char *name);
void met_trace_slice(met_trace_t *t, unsigned pid, unsigned tid, const char *name,
                     const char *cat, uint64_t ts_ns, uint64_t dur_ns, const char *args);
uint64_t met_trace_dispatches(met_trace_t *t, unsigned pid, unsigned tid,
                              const met_target_t *target, const met_dispatch_result_t *fr);
void met_trace_end(met_trace_t *t);
// The readable table: one block per function, a row per field; with |per_dispatch| a
// row per dispatch after it.
void met_dispatch_text(met_strbuf_t *sb, const met_target_t *target,
                       const met_dispatch_result_t *fns, size_t count, bool per_dispatch);
// "linalg.matmul+arith.addf" (the first 4 ops, then "+N more") of row |r| into |sb|.
void met_dispatch_row_ops(met_strbuf_t *sb, const met_graph_t *g, const met_budget_report_t *b,
                          const met_dispatch_row_t *r);

#endif
