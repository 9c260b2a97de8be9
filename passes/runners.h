// passes/runners.h: the MLIR side of metrale, as a C API: the three runners over a
// module, what the passes (passes/register.cpp) and the `metrale` command call.
//
// met_budget_run is what the `metrale-budget` pass (metrale-opt, the plugin) and the
// `metrale budget` command call. It analyses every func.func with a body, on several
// threads when the context allows, then, in function order on the calling thread: emits
// the diagnostics through |diag|, sets the `metrale.budget` attribute on each function,
// and renders the JSON and the text table. Output is identical single- or multi-threaded.
// Thread-compatible: one call per module at a time.
#ifndef METRALE_PASSES_RUNNERS_H
#define METRALE_PASSES_RUNNERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {  // the core's headers and ir/diag.h carry no C++ guards of their own
#endif

#include "ir/diag.h"
#include "metrale/dispatch.h"
#include "metrale/memory_report.h"
#include "metrale/options.h"
#include "metrale/report.h"

// What every runner takes: each option of metrale/options.def (all passes'; a runner reads
// its own), as its member: TEXT and NUM as text (an MlirStringRef, empty when not given;
// numbers are parsed by the one strict parser, metrale/parse.h, so the pass options and
// the command's flags share its rule and its messages), FLAG_ON / FLAG_OFF as a bool, and
// the LIMIT_* options in |limits| by MET_OPT_<field>. Adding an option is its line in the
// list and its use in the runner.
#define MET_RUN_MEMBER_TEXT(member) MlirStringRef member;
#define MET_RUN_MEMBER_NUM(member) MlirStringRef member;
#define MET_RUN_MEMBER_FLAG_ON(member) bool member;
#define MET_RUN_MEMBER_FLAG_OFF(member) bool member;
#define MET_RUN_MEMBER_LIMIT_MAX(member)
#define MET_RUN_MEMBER_LIMIT_MIN(member)
typedef struct met_run_options_t {
#define MET_OPTION(passes, name, member, kind, cli, lo, hi, help) MET_RUN_MEMBER_##kind(member)
#include "metrale/options.def"
#undef MET_OPTION
  MlirStringRef limits[MET_OPT_COUNT];  // LIMIT_* options by MET_OPT_<field>: empty: not
                                        // given; passes/limit_check.c checks them
  bool set_attributes;       // attach the report's attribute (metrale.budget on each
                             // function, metrale.memory on the module, metrale.dispatch)
  met_metrics_fn_t metrics;  // optional; called with the runner's |diag_user|
} met_run_options_t;

// The member of |o| that holds option |opt| (MET_OPT_*): |text| for TEXT, NUM and the
// LIMIT_* kinds, |flag| for the flags (the other NULL).
typedef struct met_run_member_t {
  MlirStringRef *text;
  bool *flag;
} met_run_member_t;

static inline met_run_member_t met_run_option_member(met_run_options_t *o, int opt) {
  met_run_member_t m = {NULL, NULL};
  switch (opt) {
#define MET_RUN_AT_TEXT(member) case MET_OPT_##member: m.text = &o->member; break;
#define MET_RUN_AT_NUM MET_RUN_AT_TEXT
#define MET_RUN_AT_LIMIT_MAX(member) \
  case MET_OPT_##member: m.text = &o->limits[MET_OPT_##member]; break;
#define MET_RUN_AT_LIMIT_MIN MET_RUN_AT_LIMIT_MAX
#define MET_RUN_AT_FLAG_ON(member) case MET_OPT_##member: m.flag = &o->member; break;
#define MET_RUN_AT_FLAG_OFF MET_RUN_AT_FLAG_ON
#define MET_OPTION(passes, name, member, kind, cli, lo, hi, help) MET_RUN_AT_##kind(member)
#include "metrale/options.def"
#undef MET_OPTION
    default: break;
  }
  return m;
}

typedef struct met_budget_run_options_t {
  met_run_options_t run;
  // Optional: called in function order with each function's Budget (NULL and |error| set
  // when it could not be evaluated) and the target it was computed for (the option's, the
  // module's DLTI one or the default): the command's --csv rows.
  void (*on_function)(void *user, const met_target_t *target, const char *name,
                      const met_budget_t *budget, bool complete, const char *error);
  void *on_function_user;
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
// Returns MET_OK, or (after its error diagnostic) the status of the first failure: an
// invalid option, a function that could not be evaluated (its status), MET_ELIMIT for a
// breached limit, MET_EEXTERNAL for a file that cannot be written.
met_status_t met_budget_run(MlirOperation module, const met_budget_run_options_t *options,
                            met_diag_fn_t diag, void *diag_user, met_strbuf_t *text_out,
                            met_strbuf_t *json_out);

typedef struct met_memory_run_options_t {
  met_run_options_t run;
  // Optional: called with the evaluated model (not when it could not be evaluated) and the
  // target it was evaluated for.
  void (*on_report)(void *user, const met_target_t *target, const met_memory_report_t *report);
  void *on_report_user;
} met_memory_run_options_t;

// Runs the memory model on |module|: every public function with a body is a run planned
// by the Budget planner; weights, workspaces, states, the KV pool, caches and driver
// terms are summed against the device budget (definitions in metrale/memory.h and
// metrale/memory_graph.h). Emits a remark table at the module, an error when the model
// does not fit, and the JSON. Returns the first failure's status after its error
// (MET_ELIMIT: it does not fit, or breaks a limit), as met_budget_run.
met_status_t met_memory_run(MlirOperation module, const met_memory_run_options_t *options,
                            met_diag_fn_t diag, void *diag_user, met_strbuf_t *text_out,
                            met_strbuf_t *json_out);

typedef struct met_dispatch_run_options_t {
  met_run_options_t run;
  // Optional: called in function order with each analysed function's prediction and
  // which of its arguments are resident (parameters, states): `metrale run` compares
  // them with a real run.
  // |stats| and |budget| are NULL, and |error| says why, when the function could not be
  // evaluated.
  // |target|: what the prediction was made for (the option's, the module's DLTI one or the
  // default). |result|: the function's dispatches as the renderers take them (its rows:
  // `metrale run --trace`), NULL with |error|; valid during the call.
  void (*on_function)(void *user, const met_target_t *target, MlirOperation func,
                      const char *name, const met_dispatch_stats_t *stats,
                      const met_budget_t *budget,
                      bool complete, const uint8_t *resident_args, size_t num_args,
                      const char *error, const met_dispatch_result_t *result);
  void *on_function_user;
} met_dispatch_run_options_t;

// Runs the dispatch stats (metrale/dispatch.h) on every func.func with a body: the Budget
// analysis with per-dispatch traffic and the ops' FLOPs, then the stats of one invocation
// on the target. Emits one summary remark per function, the `metrale.dispatch`
// attribute, the JSON and (|text_out|) the table. Returns the first failure's status after
// its error, as met_budget_run.
met_status_t met_dispatch_run(MlirOperation module, const met_dispatch_run_options_t *options,
                              met_diag_fn_t diag, void *diag_user, met_strbuf_t *text_out,
                              met_strbuf_t *json_out);

#ifdef __cplusplus
}
#endif

#endif
