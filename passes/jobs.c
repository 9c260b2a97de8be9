// jobs.c: the per-function analyses of a module (see jobs.h): the call graph, its levels,
// and one parallel round per level.
#include "jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter/adapter.h"
#include "ir/attrs.h"
#include "ir/bufferize.h"
#include "ir/diag.h"
#include "ir/ir.h"
#include "mlir-c/BuiltinAttributes.h"
#include "ir/mlir_hooks.h"
#include "ir/types.h"
#include "metrale/callgraph.h"
#include "metrale/strmap.h"
#include "page_alloc.h"


bool met_fn_has_body(MlirOperation op) {
  if (!met_ir_op_is(op, "func.func")) return false;
  return !mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)));
}

// Symbols of the module's functions (with or without a body), keyed by their symbol
// table (the parent op) and name (metrale/strmap.h): the job, or SYM_DECL for a
// declaration.
#define SYM_DECL (SIZE_MAX - 1)

typedef struct run_ctx_t {
  met_fn_jobs_t *jobs;
  const met_target_t *target;
  met_adapter_options_t aopt;   // with the callee resolver below
  const met_budget_options_t *bopt;
  met_fn_after_t after;
  void *ctx;
  met_strmap_t syms;
  uint8_t *state;               // per job: 0 waiting, 1 in this round, 2 done
  size_t *order;                // jobs of the current round
} run_ctx_t;

// cast_nodes keeps one definition on every target (metrale/budget_fields.def): the cast
// ops of the user's function. A lowered program (mlir-cpu) has them merged into other
// generics by upstream's pipeline (linalg-fuse-elementwise-ops), so they are counted on
// the function as written, built and analysed apart with the same options; its other
// numbers and its diagnostics are not kept. Callees of the lowered program are not
// resolved from it (their casts are not added), as for a function the pipeline refuses.
static met_status_t source_casts(run_ctx_t *r, met_adapter_cache_t *cache, met_fn_job_t *j) {
  met_arena_t a;
  met_arena_initialize(met_allocator_system(), &a);
  met_adapter_options_t o = r->aopt;
  o.record_names = false;
  o.count_flops = false;
  o.callee = NULL;
  met_graph_t g;
  met_diag_list_t d = {0};
  bool failed = false;
  met_budget_report_t rep;
  met_status_t st = met_adapter_build(j->source, &o, cache, &a, &g, &d, &failed);
  if (!st && !failed) st = met_budget_analyze(&g, r->target, r->bopt, &a, &rep);
  if (!st && !failed) j->report.budget.cast_nodes = rep.budget.cast_nodes;
  met_arena_deinitialize(&a);
  // What the function as written cannot be analysed for (an overflow) keeps the lowered
  // program's count; only running out of memory fails the job.
  return st == MET_ENOMEM ? st : MET_OK;
}

static void run_one(run_ctx_t *r, met_adapter_cache_t *cache, size_t k) {
  met_fn_job_t *j = &r->jobs->jobs[r->order[k]];
  // A lowered program's dead ops are gone before its build: said of the user's own.
  if (!mlirOperationIsNull(j->source) && j->source.ptr != j->func.ptr) {
    j->status = met_adapter_dead_remarks(j->source, r->aopt.dead_remarks || r->aopt.remarks_each,
                                         &j->arena, &j->diags);
    if (j->status) return;
  }
  j->status = met_adapter_build(j->func, &r->aopt, cache, &j->arena, &j->graph, &j->diags,
                                &j->failed);
  if (j->status || j->failed) return;
  j->status = met_budget_analyze(&j->graph, r->target, r->bopt, &j->arena, &j->report);
  if (!j->status && !mlirOperationIsNull(j->source) && j->source.ptr != j->func.ptr)
    j->status = source_casts(r, cache, j);
  if (!j->status && r->after) j->status = r->after(j, r->target, r->ctx);
}

// One chunk of a round, on one thread, with its slot's cache.
static void run_chunk(void *user, size_t slot, size_t begin, size_t end) {
  run_ctx_t *r = user;
  for (size_t k = begin; k < end; ++k) run_one(r, &r->jobs->caches[slot], k);
}

// The job of |name| in |caller|'s symbol table, SYM_DECL, or SIZE_MAX. O(1).
static size_t find_callee(const run_ctx_t *r, MlirOperation caller, MlirStringRef name) {
  return met_strmap_get(&r->syms, mlirOperationGetParentOperation(caller).ptr, name.data,
                        name.length);
}

// Runs on a worker thread. A callee in state 2 was finished in an earlier round, after
// which nothing writes its job.
static void resolve_callee(void *user, MlirOperation caller, MlirStringRef name,
                           met_callee_t *out) {
  run_ctx_t *r = user;
  size_t job = find_callee(r, caller, name);
  out->report = NULL;
  if (job == SIZE_MAX) { out->state = MET_CALLEE_UNKNOWN; return; }
  if (job == SYM_DECL) { out->state = MET_CALLEE_NO_BODY; return; }
  const met_fn_job_t *j = &r->jobs->jobs[job];
  if (job >= r->jobs->visible) { out->state = MET_CALLEE_HOST; return; }
  if (r->state[job] != 2) { out->state = MET_CALLEE_PENDING; return; }
  if (j->status || j->failed) { out->state = MET_CALLEE_FAILED; return; }
  out->state = MET_CALLEE_DONE;
  out->report = &j->report;
}

// The user's functions by qualified name ("inner::@f"), when the jobs analyse a
// program made from the user's module (metrale/strmap.h; the value is the op's pointer).
typedef struct sources_t {
  met_strmap_t map;
  met_arena_t arena;            // the names and the map
  bool oom;
} sources_t;
_Static_assert(sizeof(size_t) >= sizeof(void *), "an op's pointer as a map value");

static MlirWalkResult collect_sources(MlirOperation op, void *user) {
  sources_t *t = user;
  if (!met_ir_op_is(op, "func.func")) return MlirWalkResultAdvance;
  const char *name = met_adapter_qualified_name(&t->arena, op);
  // The first function of a name stays.
  if (!name || met_strmap_put(&t->map, NULL, name, strlen(name), (size_t)(uintptr_t)op.ptr, NULL)) {
    t->oom = true;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultSkip;
}

// The function of the user's module named as |func| is, or null.
static MlirOperation find_source(sources_t *t, MlirOperation func) {
  const char *name = met_adapter_qualified_name(&t->arena, func);
  if (!name) { t->oom = true; return (MlirOperation){NULL}; }
  size_t v = met_strmap_get(&t->map, NULL, name, strlen(name));
  return v == SIZE_MAX ? (MlirOperation){NULL} : (MlirOperation){(void *)(uintptr_t)v};
}

// Every func.func below |op| (nested modules included, not inside functions): counted,
// then (when |jobs->jobs| is set) the ones with a body become jobs and all enter |syms|.
// With |sources|, the walk runs twice: first the functions with a source (|hidden|
// false), then the others (|hidden| true), so that the visible jobs come first.
typedef struct collect_t {
  met_fn_jobs_t *jobs;
  met_strmap_t *syms;           // NULL while counting
  sources_t *sources;           // NULL: every job is its own source
  bool hidden;
  bool oom;
} collect_t;

static MlirWalkResult collect_funcs(MlirOperation op, void *user) {
  collect_t *c = user;
  if (!met_ir_op_is(op, "func.func")) return MlirWalkResultAdvance;
  bool body = met_fn_has_body(op);
  if (c->syms) {
    MlirOperation source = op;
    if (c->sources) {
      source = find_source(c->sources, op);
      if (mlirOperationIsNull(source) != c->hidden) return MlirWalkResultSkip;
    }
    met_attrs_preload_func(op);  // before any parallel round (attrs.h)
    size_t job = SIZE_MAX;
    if (body) {
      job = c->jobs->count++;
      c->jobs->jobs[job].func = op;
      c->jobs->jobs[job].source = source;
    }
    MlirStringRef name = met_adapter_func_name(op);  // the first of a name stays
    if (name.data && met_strmap_put(c->syms, mlirOperationGetParentOperation(op).ptr, name.data,
                                    name.length, job == SIZE_MAX ? SYM_DECL : job, NULL)) {
      c->oom = true;
      return MlirWalkResultInterrupt;
    }
  } else {
    c->jobs->count += body;
  }
  return MlirWalkResultSkip;
}

// The call graph as adjacency lists (CSR): callees of job i are edge[start[i], start[i+1]).
typedef struct graph_t {
  size_t *start, *edge, nedges, cap;
  run_ctx_t *r;
  size_t self;
  MlirIdentifier call;          // "func.call", uniqued: a pointer compare per op
  bool oom;
} graph_t;

static MlirWalkResult collect_calls(MlirOperation op, void *user) {
  graph_t *g = user;
  if (mlirOperationGetName(op).ptr != g->call.ptr) return MlirWalkResultAdvance;
  MlirAttribute a = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("callee"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAFlatSymbolRef(a)) return MlirWalkResultAdvance;
  size_t job = find_callee(g->r, g->r->jobs->jobs[g->self].func,
                           mlirFlatSymbolRefAttrGetValue(a));
  if (job == SIZE_MAX || job == SYM_DECL) return MlirWalkResultAdvance;
  if (g->nedges == g->cap) {
    size_t ncap = g->cap ? 2 * g->cap : 64;
    size_t *p = realloc(g->edge, ncap * sizeof(size_t));
    if (!p) { g->oom = true; return MlirWalkResultInterrupt; }
    g->edge = p;
    g->cap = ncap;
  }
  g->edge[g->nedges++] = job;
  return MlirWalkResultAdvance;
}

// Streaming (met_fn_stream_t): what is analysed and passed on, and what is released.
typedef struct stream_state_t {
  const met_fn_stream_t *s;
  met_fn_jobs_t *jobs;
  uint8_t *analysed;       // per job: its chunk ran (callers still see it as pending until
                           // its whole round ran: run_ctx_t.state)
  uint32_t *pending;       // per job: calls to it from functions not yet analysed
  size_t cursor;           // the first job not yet given to done (those before it were)
  void *results;
} stream_state_t;

// Everything of one job's analysis, back to the system.
static void release_job(met_fn_job_t *j) {
  met_arena_deinitialize(&j->arena);
  met_page_cache_drain(&j->pages);
}

static void maybe_release(stream_state_t *ss, size_t j) {
  if (ss->s->release && j < ss->cursor && !ss->pending[j]) release_job(&ss->jobs->jobs[j]);
}

// After a chunk of jobs |order[begin, end)| was analysed.
static void stream_chunk(stream_state_t *ss, const graph_t *g, const size_t *order, size_t begin,
                         size_t end) {
  for (size_t k = begin; k < end; ++k)
    for (size_t e = g->start[order[k]]; e < g->start[order[k] + 1]; ++e) {
      size_t callee = g->edge[e];
      ss->pending[callee]--;
      maybe_release(ss, callee);
    }
  for (size_t k = begin; k < end; ++k) ss->analysed[order[k]] = 1;
  while (ss->cursor < ss->jobs->count && ss->analysed[ss->cursor]) {
    size_t j = ss->cursor++;
    if (j < ss->jobs->visible) ss->s->done(ss->s->user, j, &ss->jobs->jobs[j], ss->results);
    maybe_release(ss, j);
  }
}

met_status_t met_fn_jobs_run(MlirOperation module, MlirOperation source,
                             const met_fn_jobs_spec_t *spec, met_fn_jobs_t *out,
                             void **results) {
  const met_fn_stream_t *stream = spec->stream;
  size_t size = spec->result_size;
  out->jobs = NULL;
  out->count = out->visible = 0;
  out->caches = NULL;
  out->ncaches = 0;
  if (results) *results = NULL;
  sources_t src;
  memset(&src, 0, sizeof src);
  bool have_sources = !mlirOperationIsNull(source);
  if (have_sources) {
    met_arena_initialize(met_allocator_system(), &src.arena);
    met_strmap_initialize(&src.arena, &src.map);
    mlirOperationWalk(source, collect_sources, &src, MlirWalkPreOrder);
  }
  collect_t c = {out, NULL, have_sources ? &src : NULL, false, false};
  mlirOperationWalk(module, collect_funcs, &c, MlirWalkPreOrder);
  size_t n = out->count;
  out->count = 0;
  out->jobs = calloc(n ? n : 1, sizeof(met_fn_job_t));
  met_arena_t syms_arena;  // the symbols' map
  met_arena_initialize(met_allocator_system(), &syms_arena);
  run_ctx_t r = {out, spec->aopt->target, *spec->aopt, spec->bopt, spec->after, spec->ctx, {0},
                 calloc(n ? n : 1, 1), calloc(n ? n : 1, sizeof(size_t))};
  met_strmap_initialize(&syms_arena, &r.syms);
  graph_t g = {calloc(n + 1, sizeof(size_t)), NULL, 0, 0, &r, 0,
               mlirIdentifierGet(mlirOperationGetContext(module),
                                 mlirStringRefCreateFromCString("func.call")),
               false};
  size_t *level = calloc(n ? n : 1, sizeof(size_t));
  size_t slots = met_parallel_slots(mlirOperationGetContext(module));
  out->caches = calloc(slots, sizeof(met_adapter_cache_t));
  if (out->caches) {
    out->ncaches = slots;
    for (size_t i = 0; i < slots; ++i) met_adapter_cache_initialize(&out->caches[i]);
  }
  // Every step below only allocates but the call graph's levels (|gst|, callgraph.h).
  met_status_t gst = MET_OK;
  bool ok = out->jobs && out->caches && r.state && r.order && g.start && level &&
            (!have_sources || !src.oom);
  if (ok && size && results) ok = (*results = calloc(n ? n : 1, size)) != NULL;
  stream_state_t ss = {stream, out, NULL, NULL, 0, results ? *results : NULL};
  if (ok && stream)
    ok = (ss.pending = calloc(n ? n : 1, sizeof(uint32_t))) != NULL &&
         (ss.analysed = calloc(n ? n : 1, 1)) != NULL;
  if (ok) {
    c.syms = &r.syms;
    mlirOperationWalk(module, collect_funcs, &c, MlirWalkPreOrder);
    out->visible = out->count;
    if (have_sources) {  // then the functions the pipeline added
      c.hidden = true;
      mlirOperationWalk(module, collect_funcs, &c, MlirWalkPreOrder);
      ok = !src.oom;
    }
    ok = ok && !c.oom;
    for (size_t i = 0; i < n; ++i)
      met_arena_initialize(met_page_allocator(&out->jobs[i].pages), &out->jobs[i].arena);
    // The call graph orders callees before callers; one function has nothing to order (a
    // call to itself is answered as pending, whatever the graph says), so a module of one
    // function is not walked a second time.
    for (size_t i = 0; n > 1 && ok && i < n; ++i) {
      g.self = i;
      g.start[i] = g.nedges;
      mlirOperationWalk(out->jobs[i].func, collect_calls, &g, MlirWalkPreOrder);
      ok = !g.oom;
    }
    g.start[n] = g.nedges;
    if (ok) ok = (gst = met_callgraph_levels(n, g.start, g.edge, level)) == MET_OK;
    for (size_t e = 0; ok && stream && e < g.nedges; ++e) ss.pending[g.edge[e]]++;
  }
  r.aopt.callee = resolve_callee;
  r.aopt.callee_user = &r;
  // Callees before callers, one round per level; each round runs in parallel. The jobs
  // are bucketed by level (a counting sort) so that a long chain costs O(n), not O(n^2).
  size_t *first = NULL, levels = 0;
  for (size_t i = 0; ok && i < n; ++i) if (level[i] + 1 > levels) levels = level[i] + 1;
  if (ok && !(first = calloc(levels + 1, sizeof(size_t)))) ok = false;
  for (size_t i = 0; ok && i < n; ++i) first[level[i] + 1]++;
  for (size_t lv = 0; ok && lv < levels; ++lv) first[lv + 1] += first[lv];
  for (size_t i = 0; ok && i < n; ++i) r.order[first[level[i]]++] = i;  // first[lv]: end of lv
  // Streaming, a round runs in chunks, each passed on before the next runs. A job's
  // callers see it done (state 2) only once its whole round ran: a member of a cycle of
  // calls is pending to the others wherever the chunks cut the round.
  size_t chunk = stream ? 512 : SIZE_MAX;
  for (size_t lv = 0, begin = 0; ok && lv < levels; ++lv) {
    size_t end = first[lv];
    for (size_t k = begin; k < end; ++k) r.state[r.order[k]] = 1;
    for (size_t from = begin; from < end;) {
      size_t to = end - from > chunk ? from + chunk : end;
      size_t *saved = r.order;
      r.order += from;
      met_parallel_chunks(mlirOperationGetContext(module), to - from, run_chunk, &r);
      r.order = saved;
      if (stream) stream_chunk(&ss, &g, r.order, from, to);
      from = to;
    }
    for (size_t k = begin; k < end; ++k) r.state[r.order[k]] = 2;
    begin = end;
  }
  if (have_sources) met_arena_deinitialize(&src.arena);
  free(ss.pending);
  free(ss.analysed);
  free(first);
  met_arena_deinitialize(&syms_arena);
  free(r.state);
  free(r.order);
  free(g.start);
  free(g.edge);
  free(level);
  if (!ok) {
    met_fn_jobs_release(out);
    if (results) { free(*results); *results = NULL; }
  }
  return ok ? MET_OK : gst != MET_OK ? gst : MET_ENOMEM;
}

void met_fn_jobs_release(met_fn_jobs_t *jobs) {
  for (size_t i = 0; i < jobs->count; ++i) release_job(&jobs->jobs[i]);
  if (!mlirOperationIsNull(jobs->lowered)) mlirOperationDestroy(jobs->lowered);
  jobs->lowered = (MlirOperation){NULL};
  for (size_t i = 0; i < jobs->ncaches; ++i) met_adapter_cache_deinitialize(&jobs->caches[i]);
  free(jobs->jobs);
  free(jobs->caches);
  jobs->jobs = NULL;
  jobs->count = 0;
  jobs->caches = NULL;
  jobs->ncaches = 0;
}

const char *met_fn_job_signature(met_fn_job_t *j) {
  MlirOperation f = mlirOperationIsNull(j->source) ? j->func : j->source;
  MlirAttribute t = mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("function_type"));
  if (mlirAttributeIsNull(t) || !mlirAttributeIsAType(t)) return NULL;
  met_strbuf_t sb;
  met_strbuf_initialize(met_allocator_system(), &sb);
  mlirTypePrint(mlirTypeAttrGetValue(t), met_mlir_append, &sb);
  const char *out = sb.status || !sb.data ? NULL : met_arena_strndup(&j->arena, sb.data, sb.len);
  met_strbuf_deinitialize(&sb);
  return out;
}

const char *met_fn_job_emit(met_fn_job_t *j, const char *pass, met_diag_fn_t diag,
                            void *user) {
  for (size_t d = 0; d < j->diags.count; ++d)
    diag(user, j->diags.items[d].loc, j->diags.items[d].severity, j->diags.items[d].message);
  if (!j->status && !j->failed) return NULL;
  const char *name = j->graph.name ? j->graph.name : "?";
  MlirLocation loc = mlirOperationGetLocation(j->func);
  if (j->status == MET_EOVERFLOW && j->report.overflow_field) {
    met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "%s could not evaluate @%s: its %s overflows 64 bits",
                  pass, name, j->report.overflow_field);
    const char *why = met_arena_printf(&j->arena, "its %s overflows 64 bits",
                                       j->report.overflow_field);
    if (why) return why;
  } else if (j->status)
    met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "%s could not evaluate @%s: %s", pass, name,
                  met_status_str(j->status));
  return j->failed ? "errors were reported at the function" : met_status_str(j->status);
}

MlirOperation met_fn_jobs_lower(MlirOperation module, const met_target_t *target,
                                MlirLocation loc, met_diag_fn_t diag, void *user) {
  if (target->fusion != MET_FUSION_MLIR) return (MlirOperation){NULL};
  // The program upstream MLIR's pipeline makes, on a clone (passes/ir/bufferize.h).
  MlirOperation lowered = mlirOperationClone(module);
  met_error_t be;
  if (met_bufferize(mlirOperationGetContext(module), lowered, MET_BUFFERIZE_ANALYSIS, &be) == MET_OK) return lowered;
  mlirOperationDestroy(lowered);
  met_diag_emit(diag, user, loc, MET_DIAG_WARNING,
                "upstream MLIR's pipeline does not bufferize this module (%s): "
                "target '%s' counts it with metrale's model of that pipeline (MET_FUSION_MLIR's "
                "rules, metrale/budget.h), not from the program it makes",
                be.message, target->name);
  return (MlirOperation){NULL};
}

met_status_t met_fn_jobs_start(MlirOperation module, const met_fn_jobs_spec_t *spec,
                               MlirLocation loc, met_diag_fn_t diag, void *user,
                               met_fn_jobs_t *jobs, void **results) {
  MlirOperation lowered = met_fn_jobs_lower(module, spec->aopt->target, loc, diag, user);
  MlirOperation analysed = mlirOperationIsNull(lowered) ? module : lowered;
  met_status_t st = met_fn_jobs_run(analysed, mlirOperationIsNull(lowered) ? lowered : module,
                                    spec, jobs, results);
  if (st) {
    if (!mlirOperationIsNull(lowered)) mlirOperationDestroy(lowered);
    met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "%s", met_status_str(st));
    return st;
  }
  jobs->lowered = lowered;
  if (!jobs->count)
    met_diag_emit(diag, user, loc, MET_DIAG_WARNING,
                  "no func.func with a body in this module: there is nothing to analyse");
  return MET_OK;
}

met_status_t met_fn_job_remark(met_fn_job_t *j, met_strbuf_t *sb) {
  met_status_t st = sb->status;
  if (!st)
    st = met_diag_add_str(&j->arena, &j->diags, mlirOperationGetLocation(j->func),
                          MET_DIAG_REMARK, sb->data, sb->len);
  met_strbuf_deinitialize(sb);
  return st;
}
