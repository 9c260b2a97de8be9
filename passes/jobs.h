// passes/jobs.h: analysing every function of a module (adapter + Budget), callees before
// callers, each round in parallel.
// Thread-compatible: one call per module at a time; each function's job is touched by
// one thread only.
#ifndef METRALE_PASSES_JOBS_H
#define METRALE_PASSES_JOBS_H

#include <stdbool.h>

#include "adapter/adapter.h"
#include "metrale/budget.h"
#include "metrale/passes.h"
#include "metrale/report.h"
#include "metrale/strbuf.h"
#include "page_alloc.h"

typedef struct met_fn_job_t {
  MlirOperation func;
  met_arena_t arena;          // everything of this function's analysis
  met_page_cache_t pages;     // |arena|'s freed mappings, reused by its later stages
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
  met_adapter_cache_t *caches;  // one per parallel slot (met_parallel_slots); the jobs'
  size_t ncaches;               // graphs point into them, so they go last
} met_fn_jobs_t;

// Streaming (optional): |done| is called on the calling thread for each job in function
// order, as soon as it and every job before it are analysed (the jobs of a round run in
// parallel chunks of at most 512, with |done| between chunks), with the results array
// the run allocated (NULL without one). With |release|, a job's arena is released once it
// was passed to |done| and every function calling it was analysed: |done| must then keep
// nothing of the job. So a module of 20,000 functions holds a chunk of them, not all.
typedef struct met_fn_stream_t {
  void (*done)(void *user, size_t index, met_fn_job_t *job, void *results);
  void *user;
  bool release;
} met_fn_stream_t;

// True for a func.func with a body.
bool met_fn_has_body(MlirOperation op);

// Builds and analyses every function with a body in |module| (in parallel when the
// context allows), then calls |after| (optional) on each. False only when the job table
// cannot be allocated; per-function failures are in each job.
// |stream| (NULL: none) as above; |size| > 0: |*results| gets a zeroed array of one
// |size|-byte result per job, allocated before any job runs.
bool met_fn_jobs_run(MlirOperation module, const met_target_t *target,
                     const met_adapter_options_t *aopt, const met_budget_options_t *bopt,
                     met_fn_after_t after, void *ctx, const met_fn_stream_t *stream,
                     size_t size, void **results, met_fn_jobs_t *out);
void met_fn_jobs_release(met_fn_jobs_t *jobs);

// What every runner does first: runs the jobs (met_fn_jobs_run, |stream| optional),
// with |count| zeroed results of |size| bytes in |*results|, and warns at |loc| when the
// module has no function with a body. False, after an "out of memory" error at |loc|,
// when it cannot; the jobs are then released.
bool met_fn_jobs_start(MlirOperation module, const met_target_t *target,
                       const met_adapter_options_t *aopt, const met_budget_options_t *bopt,
                       met_fn_after_t after, void *ctx, const met_fn_stream_t *stream,
                       MlirLocation loc, met_diag_fn_t diag, void *user, size_t size,
                       met_fn_jobs_t *jobs, void **results);

// Emits |j|'s collected diagnostics through |diag|, then, when its analysis failed, one
// error at the function saying why (named after |pass|, e.g. "metrale-budget"). Returns
// NULL when it succeeded, else the reason for the reports' error fields (static text or
// in the job's arena: "its arena_bytes overflows 64 bits").
const char *met_fn_job_emit(met_fn_job_t *j, const char *pass, met_diag_fn_t diag,
                            void *user);

// Adds |sb|'s text as a remark at |j|'s function (its summary remark), unless writing
// |sb| failed; releases |sb| either way. The status of the text, then of the add.
met_status_t met_fn_job_remark(met_fn_job_t *j, met_strbuf_t *sb);

#endif
