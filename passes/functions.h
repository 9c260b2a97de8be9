// passes/functions.h: what every metrale pass shares: resolving the target, analysing
// every function of a module (adapter + Budget) in parallel, and writing reports.
// Thread-compatible: one call per module at a time; each function's job is touched by
// one thread only.
#ifndef METRALE_PASSES_FUNCTIONS_H
#define METRALE_PASSES_FUNCTIONS_H

#include <stdbool.h>

#include "adapter.h"
#include "metrale/budget.h"
#include "metrale/passes.h"
#include "metrale/report.h"

typedef struct met_fn_job_t {
  MlirOperation func;
  met_arena_t arena;          // everything of this function's analysis
  met_graph_t graph;
  met_budget_report_t report;
  met_diag_list_t diags;      // emitted later, in function order
  met_status_t status;
  bool failed;                // an error diagnostic was added
  void *extra;                // the caller's per-function result (in |arena|)
} met_fn_job_t;

// Runs on the job's thread after a successful Budget analysis.
typedef met_status_t (*met_fn_after_t)(met_fn_job_t *job, const met_target_t *target,
                                       void *ctx);

typedef struct met_fn_jobs_t {
  met_fn_job_t *jobs;
  size_t count;
} met_fn_jobs_t;

// Where module-level diagnostics go: the module's own location when it is a real one
// (an explicit `module` line), else (an implicit module, file:0:0) the location of its
// first op, so that editors and -verify-diagnostics see a real line.
MlirLocation met_module_loc(MlirOperation module);

// True for a func.func with a body.
bool met_fn_has_body(MlirOperation op);

// Builds and analyses every function with a body in |module| (in parallel when the
// context allows), then calls |after| (optional) on each. False only when the job table
// cannot be allocated; per-function failures are in each job.
bool met_fn_jobs_run(MlirOperation module, const met_target_t *target,
                     const met_adapter_options_t *aopt, const met_budget_options_t *bopt,
                     met_fn_after_t after, void *ctx, met_fn_jobs_t *out);
void met_fn_jobs_release(met_fn_jobs_t *jobs);

// The target: |name| when given (a built-in), else the module's DLTI spec, else host-cpu.
// |storage| holds a DLTI-built target. On error a diagnostic is emitted and false returned.
bool met_resolve_target(MlirOperation module, MlirStringRef name, met_target_t *storage,
                        const met_target_t **out, met_diag_fn_t diag, void *user);

// Parses the numeric option |name| (metrale/parse.h's rule) into |*out|, in [min, max];
// |absent| when |text| is empty. On error, one located line and false.
bool met_option_u64(MlirLocation loc, const char *name, MlirStringRef text, uint64_t min,
                    uint64_t max, uint64_t absent, uint64_t *out, met_diag_fn_t diag,
                    void *user);

// Formats and emits one diagnostic through |diag|.
void met_emit(met_diag_fn_t diag, void *user, MlirLocation loc, met_diag_severity_t sev,
              const char *fmt, ...) __attribute__((format(printf, 5, 6)));

// Writes |sb| to |path|: "-" appends to |out| when given, else stdout. On failure an error
// is emitted at |loc| and false returned.
bool met_write_report(MlirLocation loc, MlirStringRef path, const met_strbuf_t *sb,
                      met_strbuf_t *out, met_diag_fn_t diag, void *user);

#endif
