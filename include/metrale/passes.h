// metrale/passes.h: the MLIR side of metrale, as a C API: run the Budget over a module.
//
// met_budget_run is what the `metrale-budget` pass (metrale-opt, the plugin) and the
// `metrale budget` command call. It analyses every func.func with a body, on several
// threads when the context allows, then, in function order on the calling thread: emits
// the diagnostics through |diag|, sets the `metrale.budget` attribute on each function,
// and renders the JSON and the text table. Output is identical single- or multi-threaded.
// Thread-compatible: one call per module at a time.
#ifndef METRALE_PASSES_H
#define METRALE_PASSES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/dispatch.h"
#include "metrale/memory_report.h"
#include "metrale/options.h"
#include "metrale/report.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum met_diag_severity_e {
  MET_DIAG_ERROR = 0,
  MET_DIAG_WARNING = 1,
  MET_DIAG_REMARK = 2,
  MET_DIAG_NOTE = 3,
} met_diag_severity_t;

// Receives one diagnostic. |message| is NUL-terminated and valid during the call.
typedef void (*met_diag_fn_t)(void *user, MlirLocation loc, met_diag_severity_t severity,
                              const char *message);

// Receives a report's numbers as one structured remark, for MLIR's remark engine (remark
// files in LLVM's YAML or bitstream format: `--remarks-filter=metrale
// --remark-format=yaml --remarks-output-file=F`): category "metrale", name |report|
// ("budget", "memory", "dispatch": Analysis remarks; "off-fast-path" for an op off the
// target's fast path: a Missed remark, |missed| set), |function| ("" for the module), one
// argument per field. |is_signed| (NULL: none) marks values to read as int64_t.
typedef void (*met_metrics_fn_t)(void *user, MlirLocation loc, bool missed, const char *report,
                                 const char *function, const char *const *names,
                                 const uint64_t *values, const uint8_t *is_signed,
                                 size_t count);

typedef struct met_budget_run_options_t {
  MlirStringRef target;     // built-in target name; empty: the module's DLTI, else host-cpu
  MlirStringRef json;       // JSON output path; "-" for |json_out|; empty for none
  MlirStringRef sarif;      // SARIF log path (passes/report/sarif.h): the callers write it
  MlirStringRef limits[MET_OPT_COUNT];  // LIMIT_* options by MET_OPT_<field> (options.def):
                            // empty: not given; passes/limit_check.c checks them
  MlirStringRef limit_list; // limits=FIELD=VALUE,...: any numeric field
  MlirStringRef svg;        // the first evaluated function's plan as SVG (metrale/plan_svg.h)
  MlirStringRef params;     // parameter arguments: "0,2-5,7-", "all", "float", "none"
  // Numbers are given as text, parsed by the one strict parser (metrale/parse.h): the
  // pass options and the CLI flags share its rule and its messages. Empty: not given.
  MlirStringRef dynamic_size;  // 1 to 2^63-1: every dynamic dim counts as this size
  MlirStringRef plan_effort;   // the exact planner's node budget per function; empty: the default
  MlirStringRef plan_seconds;  // its wall-clock cap in seconds; empty: the default
  bool op_remarks;          // remarks at ops (off fast path, unranked, unregistered)
  bool dead_remarks;        // a remark at every dead op (false: one summary per function)
  bool remarks_each;        // a remark at every op of each summed-up kind (dead ops, splat
                            // folds, ops off the fast path); false: one per function and kind
  bool set_attributes;      // attach `metrale.budget` to each function
  MlirStringRef planner;    // "best" (default, also when empty) or a met_plan_strategy_name
                            // (metrale/planner.h)
  // Optional: called in function order with each function's Budget (NULL and |error| set
  // when it could not be evaluated) and the target it was computed for (the option's, the
  // module's DLTI one or the default): the command's --csv rows.
  void (*on_function)(void *user, const met_target_t *target, const char *name,
                      const met_budget_t *budget, bool complete, const char *error);
  void *on_function_user;
  met_metrics_fn_t metrics;  // optional; called with |diag_user|
  // Optional: each evaluated function's graph (names and locations recorded) and plan,
  // valid during the call (`metrale plan --svg`).
  // |target| as for on_function (valid during the call).
  void (*on_plan)(void *user, const met_target_t *target, const char *name,
                  const met_graph_t *graph,
                  const met_budget_report_t *report);
  void *on_plan_user;
} met_budget_run_options_t;

// Runs the Budget on |module|. |text_out| (optional) receives the human-readable tables,
// |json_out| (optional) the JSON when |options->json| is "-".
// Returns false when any function could not be evaluated or an option was invalid; an
// error diagnostic has then been reported.
bool met_budget_run(MlirOperation module, const met_budget_run_options_t *options,
                    met_diag_fn_t diag, void *diag_user, met_strbuf_t *text_out,
                    met_strbuf_t *json_out);

typedef struct met_memory_run_options_t {
  MlirStringRef target;     // as for the Budget
  MlirStringRef json;       // JSON output path; "-" for |json_out|; empty for none
  MlirStringRef sarif;      // as for the Budget
  MlirStringRef limits[MET_OPT_COUNT];  // LIMIT_* options by MET_OPT_<field> (options.def):
                            // empty: not given; passes/limit_check.c checks them
  MlirStringRef limit_list; // limits=FIELD=VALUE,...: any numeric field
  MlirStringRef params;     // parameter arguments (as for the Budget)
  MlirStringRef states;     // state arguments: "0,2-5,7-", "all", "float", "none"
  MlirStringRef util;       // share of device memory to use, "0.9"; empty: the target's
  MlirStringRef kv_dtype;   // KV element type ("f16", "bf16", "f8E4M3FN", "i8", ...)
  MlirStringRef kv_pool;    // "layers=32,kv_heads=32,head_dim=128,block_size=16": declares
                            // the pool instead of the module's metrale.kv_pool
  // Numbers as text (see the Budget's options); empty: not given.
  MlirStringRef sequences;  // runtime parameters of the KV pool: 1 to 2^64-1
  MlirStringRef tokens;
  MlirStringRef dynamic_size;
  MlirStringRef plan_effort;   // the exact planner's node budget per function; empty: the default
  MlirStringRef plan_seconds;  // its wall-clock cap in seconds; empty: the default
  bool over_budget_warning; // "does not fit" as a warning (the pass then succeeds)
  bool dead_remarks;        // as for the Budget
  bool remarks_each;        // as for the Budget
  bool set_attributes;      // attach `metrale.memory` to the module
  MlirStringRef remark_rows;  // largest nodes listed in the module remark, 0 to 10^6
                             // (0: no remark table; empty: 8)
  // Optional: called with the evaluated model (not when it could not be evaluated) and the
  // target it was evaluated for.
  void (*on_report)(void *user, const met_target_t *target, const met_memory_report_t *report);
  void *on_report_user;
  met_metrics_fn_t metrics;  // optional; called with |diag_user|
} met_memory_run_options_t;

// Runs the memory model on |module|: every public function with a body is a run planned
// by the Budget planner; weights, workspaces, states, the KV pool, caches and driver
// terms are summed against the device budget (definitions in metrale/memory.h and
// metrale/memory_graph.h). Emits a remark table at the module, an error when the model
// does not fit, and the JSON. Returns false on an error.
bool met_memory_run(MlirOperation module, const met_memory_run_options_t *options,
                    met_diag_fn_t diag, void *diag_user, met_strbuf_t *text_out,
                    met_strbuf_t *json_out);

typedef struct met_dispatch_run_options_t {
  MlirStringRef target;     // as for the Budget
  MlirStringRef json;       // JSON output path; "-" for |json_out|; empty for none
  MlirStringRef sarif;      // as for the Budget
  MlirStringRef limits[MET_OPT_COUNT];  // LIMIT_* options by MET_OPT_<field> (options.def):
                            // empty: not given; passes/limit_check.c checks them
  MlirStringRef limit_list; // limits=FIELD=VALUE,...: any numeric field
  MlirStringRef params;     // parameter arguments (as for the Budget)
  MlirStringRef states;     // state arguments (as for the memory model)
  MlirStringRef dynamic_size;
  MlirStringRef plan_effort;   // the exact planner's node budget per function; empty: the default
  MlirStringRef plan_seconds;  // its wall-clock cap in seconds; empty: the default
  MlirStringRef planner;    // as for the Budget: the arena the arena model allocates
  bool per_dispatch;        // a remark per dispatch; the text table lists them
  bool dead_remarks;        // as for the Budget
  bool remarks_each;        // as for the Budget
  bool set_attributes;      // attach `metrale.dispatch` to each function
  // Optional: called in function order with each analysed function's prediction and
  // which of its arguments are resident (parameters, states): `metrale run` compares
  // them with a real run.
  // |stats| and |budget| are NULL, and |error| says why, when the function could not be
  // evaluated.
  // |target|: what the prediction was made for (the option's, the module's DLTI one or the
  // default).
  void (*on_function)(void *user, const met_target_t *target, MlirOperation func,
                      const char *name, const met_dispatch_stats_t *stats,
                      const met_budget_t *budget,
                      bool complete, const uint8_t *resident_args, size_t num_args,
                      const char *error);
  void *on_function_user;
  met_metrics_fn_t metrics;  // optional; called with |diag_user|
} met_dispatch_run_options_t;

// Runs the dispatch stats (metrale/dispatch.h) on every func.func with a body: the Budget
// analysis with per-dispatch traffic and the ops' FLOPs, then the stats of one invocation
// on the target. Emits one summary remark per function, the `metrale.dispatch`
// attribute, the JSON and (|text_out|) the table. Returns false on an error.
bool met_dispatch_run(MlirOperation module, const met_dispatch_run_options_t *options,
                      met_diag_fn_t diag, void *diag_user, met_strbuf_t *text_out,
                      met_strbuf_t *json_out);

#ifdef __cplusplus
}
#endif

#endif
