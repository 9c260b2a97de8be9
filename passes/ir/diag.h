// passes/ir/diag.h: diagnostics of the MLIR layer: the list an analysis collects on its own
// thread (emitted later in a fixed order), emitting one through a met_diag_fn_t, where
// module-level ones go, and numeric options that fail as one located line.
// Thread-compatible: one list per analysis.
#ifndef METRALE_PASSES_DIAG_H
#define METRALE_PASSES_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/arena.h"
#include "metrale/planner.h"
#include "mlir-c/IR.h"
#include "ir/params.h"

// How every report of the MLIR layer leaves it: a diagnostic at a location (met_diag_fn_t)
// and, for MLIR's remark engine, a report's numbers (met_metrics_fn_t).
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

typedef struct met_diag_t {
  MlirLocation loc;
  met_diag_severity_t severity;
  const char *message;  // in the run's arena
} met_diag_t;

typedef struct met_diag_list_t {
  met_diag_t *items;
  size_t count, cap;
} met_diag_list_t;

// Appends a formatted diagnostic (message stored in |arena|). MET_ENOMEM on failure.
met_status_t met_diag_add(met_arena_t *arena, met_diag_list_t *list, MlirLocation loc,
                          met_diag_severity_t sev, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

// Appends a diagnostic whose message is |len| bytes of |msg| (copied into |arena|).
met_status_t met_diag_add_str(met_arena_t *arena, met_diag_list_t *list, MlirLocation loc,
                              met_diag_severity_t sev, const char *msg, size_t len);

// Formats and emits one diagnostic through |diag|.
void met_diag_emit(met_diag_fn_t diag, void *user, MlirLocation loc, met_diag_severity_t sev,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

// |loc| as "file:line:col" in |dst| (|cap| bytes), looking through name, call-site and
// fused locations; the file's base name alone when the whole does not fit, "?" when
// |loc| has none.
void met_diag_loc_short(MlirLocation loc, char *dst, size_t cap);
// The file |loc| names (looking through name, call-site and fused locations), into |dst|;
// false when it names none or the name does not fit.
bool met_diag_loc_file(MlirLocation loc, char *dst, size_t cap);

// Where module-level diagnostics go: the module's own location when it is a real one
// (an explicit `module` line), else (an implicit module, file:0:0) the location of its
// first op, so that editors and -verify-diagnostics see a real line.
MlirLocation met_diag_module_loc(MlirOperation module);

// Parses the numeric option |opt| (MET_OPT_*, a NUM of metrale/options.def: its name and
// range come from there) with metrale/parse.h's rule into |*out|; |absent| when |text| is
// empty. On error, one located line and its status (metrale/status.h: every function of
// the pass layer that can fail emits its message at the location it concerns and returns
// the status).
met_status_t met_diag_option_num(MlirLocation loc, int opt, MlirStringRef text,
                                 uint64_t absent, uint64_t *out, met_diag_fn_t diag,
                                 void *user);
// The exact planner's limits from the plan-effort and plan-seconds options (empty: the
// defaults, MET_PLAN_DEFAULT_NODES and MET_PLAN_DEFAULT_SECONDS); the wall-clock cap reads
// CLOCK_MONOTONIC. The status after an error at |loc|.
met_status_t met_diag_option_plan_limits(MlirLocation loc, MlirStringRef effort,
                                         MlirStringRef seconds, met_plan_limits_t *out,
                                         met_diag_fn_t diag, void *user);
// Parses the planner= option ("best" when empty, or a met_plan_strategy_name);
// MET_ENOTFOUND after an error at |loc| for another name.
met_status_t met_diag_option_planner(MlirLocation loc, MlirStringRef text,
                                     met_plan_strategy_t *out, met_diag_fn_t diag, void *user);
// Parses an argument spec option ("params", "states": passes/ir/params.h's grammar) into
// |*out|; every function an "@NAME:" item names must be a func.func of |module|. On error,
// one line at the module and its status (MET_ENOTFOUND: a function it names is not there).
met_status_t met_diag_option_spec(MlirOperation module, const char *name, MlirStringRef text,
                                  met_param_spec_t *out, met_diag_fn_t diag, void *user);

// Checks the `metrale.*` attributes of |module|, of the modules nested in it and of their
// func.func ops: an unknown one ("metrale.limitz") is an error at its holder naming the
// attributes metrale reads there (a module: metrale.kv_pool, metrale.caches,
// metrale.limits; a function: metrale.limits) and those it writes (metrale.budget,
// metrale.dispatch, metrale.memory). MET_EINVAL after the first. Visits the modules'
// top-level ops only, not the functions' bodies.
met_status_t met_diag_check_attr_names(MlirOperation module, met_diag_fn_t diag, void *user);

#endif
