// passes/jobs.h: analysing every function of a module (adapter + Budget), callees before
// callers, each round in parallel.
// Thread-compatible: one call per module at a time; each function's job is touched by
// one thread only.
#ifndef METRALE_PASSES_JOBS_H
#define METRALE_PASSES_JOBS_H

#include <stdbool.h>

#include "adapter/adapter.h"
#include "metrale/budget.h"
#include "ir/diag.h"
#include "metrale/report.h"
#include "metrale/strbuf.h"
#include "page_alloc.h"

typedef struct met_fn_job_t {
  MlirOperation func;         // the function analysed
  MlirOperation source;       // the user's function it stands for, where results go (its
                              // attribute): |func| itself, or, on a target that analyses
                              // upstream's bufferized program (met_fn_jobs_start), the
                              // function of the user's module of the same name
  met_arena_t arena;          // everything of this function's analysis
  met_page_cache_t pages;     // |arena|'s freed mappings, reused by its later stages
  met_graph_t graph;
  met_budget_report_t report;
  met_diag_list_t diags;      // emitted later, in function order
  met_status_t status;
  bool failed;                // an error diagnostic was added
  void *extra;                // the caller's per-function result (in |arena|)
} met_fn_job_t;

// The function type of |j|'s source function as MLIR prints it ("(tensor<4xf32>) ->
// tensor<4xf32>"), in the job's arena; NULL when it has none or memory runs out.
const char *met_fn_job_signature(met_fn_job_t *j);

// Runs on the job's thread after a successful Budget analysis.
typedef met_status_t (*met_fn_after_t)(met_fn_job_t *job, const met_target_t *target,
                                       void *ctx);

typedef struct met_fn_jobs_t {
  met_fn_job_t *jobs;
  size_t count;
  size_t visible;               // jobs[0, visible) are functions of the user's module, in
                                // its order; the rest are functions the pipeline added
                                // (bufferization's dealloc helpers): analysed for their
                                // callers' costs, never reported
  MlirOperation lowered;        // the bufferized clone the jobs analyse, or null: the
                                // user's module itself
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

// What the jobs do with each function: build its graph with |aopt| (whose target is the
// analysis's target), analyse it with |bopt|, then call |after| (optional) with |ctx| on
// the job's worker thread. |stream| (NULL: none) as above; |result_size| > 0: the run
// gives a zeroed array of one |result_size|-byte result per job in |*results|, allocated
// before any job runs.
typedef struct met_fn_jobs_spec_t {
  const met_adapter_options_t *aopt;
  const met_budget_options_t *bopt;
  met_fn_after_t after;
  void *ctx;
  const met_fn_stream_t *stream;
  size_t result_size;
} met_fn_jobs_spec_t;

// Builds and analyses every function with a body in |module| (in parallel when the
// context allows) as |spec| says. MET_ENOMEM only when the job table cannot be
// allocated; per-function failures are in each job. |results| may be NULL when spec->result_size
// is 0.
// |source| (null: |module| itself) is the user's module |module| was made from: each job's
// source function is the function of that name there, and jobs without one come last.
// The stream is called for the visible jobs only.
met_status_t met_fn_jobs_run(MlirOperation module, MlirOperation source,
                             const met_fn_jobs_spec_t *spec, met_fn_jobs_t *out,
                             void **results);
void met_fn_jobs_release(met_fn_jobs_t *jobs);

// On a target whose fusion model is MET_FUSION_MLIR: a clone of |module| run through
// upstream MLIR's pipeline to bufferized memrefs (passes/ir/bufferize.h), which the caller
// owns (met_fn_jobs_run's |module|, then met_fn_jobs_t.lowered); null on other targets,
// and when the pipeline refuses the module (a warning at |loc| says where and why).
MlirOperation met_fn_jobs_lower(MlirOperation module, const met_target_t *target,
                                MlirLocation loc, met_diag_fn_t diag, void *user);

// What every runner does first: runs the jobs (met_fn_jobs_run) as |spec| says, and
// warns at |loc| when the module has no function with a body. Its status, after an "out
// of memory" error at |loc|, when it cannot; the jobs are then released.
// On a target whose fusion model is MET_FUSION_MLIR (metrale/budget.h), the jobs analyse
// the program upstream MLIR's pipeline makes of |module| (met_fn_jobs_lower), on a clone
// that jobs->lowered keeps until met_fn_jobs_release; when the pipeline refuses the
// module, a warning at |loc| says where and why, and the jobs analyse |module| itself
// with the core's model of that pipeline.
met_status_t met_fn_jobs_start(MlirOperation module, const met_fn_jobs_spec_t *spec,
                               MlirLocation loc, met_diag_fn_t diag, void *user,
                               met_fn_jobs_t *jobs, void **results);

// Emits |j|'s collected diagnostics through |diag|, then, when its analysis failed, one
// error at the function saying why (named after |pass|, e.g. "metrale-budget"). Returns
// NULL when it succeeded, else the reason for the reports' error fields (static text or
// in the job's arena: "its arena_bytes overflows 64 bits").
const char *met_fn_job_emit(met_fn_job_t *j, const char *pass, met_diag_fn_t diag,
                            void *user);
// |j|'s analysis as a status: its own, or MET_EINVAL when only errors were reported at it.
static inline met_status_t met_fn_job_status(const met_fn_job_t *j) {
  return j->status ? j->status : j->failed ? MET_EINVAL : MET_OK;
}

// Adds |sb|'s text as a remark at |j|'s function (its summary remark), unless writing
// |sb| failed; releases |sb| either way. The status of the text, then of the add.
met_status_t met_fn_job_remark(met_fn_job_t *j, met_strbuf_t *sb);

#endif
