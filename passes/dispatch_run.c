// dispatch_run.c: met_dispatch_run: the Budget's jobs with per-dispatch traffic and FLOPs,
// then the dispatch stats of each function (lib/dispatch.c) on its job's thread; in
// function order on the calling thread: diagnostics, the `metrale.dispatch` attribute,
// the JSON and the table.
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ir/dict.h"
#include "ir/dlti.h"
#include "jobs.h"
#include "limit_check.h"
#include "report/output.h"
#include "run_setup.h"
#include "metrale/dispatch.h"
#include "metrale/options.h"
#include "runners.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

typedef struct after_ctx_t { bool per_dispatch; } after_ctx_t;

// "metrale.dispatch @f on T (kernels, arena): input_bytes=... complete=true".
static met_status_t summary_remark(met_fn_job_t *j, const met_target_t *t,
                                   const met_dispatch_report_t *d) {
  size_t n;
  const met_dispatch_field_t *f = met_dispatch_fields(&n);
  met_strbuf_t sb;
  met_strbuf_initialize(met_allocator_system(), &sb);
  MET_STRBUF_LIT(&sb, "metrale.dispatch @");
  met_strbuf_cstr(&sb, j->graph.name);
  MET_STRBUF_LIT(&sb, " on ");
  met_strbuf_cstr(&sb, t->name);
  MET_STRBUF_LIT(&sb, " (");
  met_strbuf_cstr(&sb, met_exec_model_name(t->dispatch.execution_model));
  MET_STRBUF_LIT(&sb, ", ");
  met_strbuf_cstr(&sb, met_alloc_model_name(t->dispatch.allocation_model));
  MET_STRBUF_LIT(&sb, "):");
  for (size_t k = 0; k < n; ++k) {
    MET_STRBUF_LIT(&sb, " ");
    met_strbuf_cstr(&sb, f[k].name);
    MET_STRBUF_LIT(&sb, "=");
    uint64_t v = met_dispatch_field_u64(&d->stats, &f[k]);
    if (f[k].kind == MET_DFIELD_BOOL) met_strbuf_cstr(&sb, v ? "true" : "false");
    else met_strbuf_u64(&sb, v);
  }
  met_strbuf_cstr(&sb, j->report.complete && d->flops_complete ? " complete=true"
                                                               : " complete=false");
  return met_fn_job_remark(j, &sb);
}

// One remark per dispatch at its first op: what it is, what it moves and computes, and
// what bounds it.
static met_status_t dispatch_remarks(met_fn_job_t *j, const met_dispatch_report_t *d) {
  for (size_t k = 0; k < d->row_count; ++k) {
    const met_dispatch_row_t *r = &d->rows[k];
    met_strbuf_t sb;
    met_strbuf_initialize(met_allocator_system(), &sb);
    met_strbuf_printf(&sb, "dispatch %zu of @%s: ", k, j->graph.name);
    met_dispatch_row_ops(&sb, &j->graph, &j->report, r);
    met_strbuf_printf(&sb, ": %" PRIu64 " bytes, %" PRIu64 "%s FLOPs, %" PRIu64 " ns, %s-bound",
                      r->bytes, r->flops, r->flops_complete ? "" : "+ (not all known)",
                      r->latency_ns, met_bound_name(r->bound));
    met_status_t st = sb.status;
    if (!st)
      st = met_diag_add_str(&j->arena, &j->diags, met_node_loc(&j->graph.nodes[r->first_node]),
                            MET_DIAG_REMARK, sb.data, sb.len);
    met_strbuf_deinitialize(&sb);
    if (st) return st;
  }
  return MET_OK;
}

static met_status_t after_dispatch(met_fn_job_t *j, const met_target_t *t, void *ctx) {
  const after_ctx_t *a = ctx;
  met_dispatch_report_t *d = met_arena_alloc(&j->arena, sizeof(*d));
  if (!d) return MET_ENOMEM;
  j->extra = d;
  met_status_t st = met_dispatch_analyze(&j->graph, &j->report, t, &j->arena, d);
  if (st == MET_EOVERFLOW && d->overflow_field) j->report.overflow_field = d->overflow_field;
  if (!st && a->per_dispatch) st = dispatch_remarks(j, d);
  if (!st && d->flops_unknown && j->graph.flops) {
    const met_node_t *n = &j->graph.nodes[d->first_unknown];
    if (n->flags & MET_NODE_F_FLOPS_OVERFLOW)
      st = met_diag_add(&j->arena, &j->diags, met_node_loc(n), MET_DIAG_WARNING,
                        "the FLOPs of '%s' overflow 64 bits (its iteration domain times the "
                        "ops of its body, or its shape's product, passes 2^64): counted as 0, "
                        "so latency_ns of @%s is a lower bound%s",
                        n->name, j->graph.name,
                        d->flops_unknown > 1 ? " (other ops' FLOPs are not known either)" : "");
    else
      st = met_diag_add(&j->arena, &j->diags, met_node_loc(n), MET_DIAG_WARNING,
                        "the FLOPs of '%s'%s are not known (a call, a loop, an op metrale does "
                        "not model, or dynamic dims left unbound): latency_ns of @%s is a "
                        "lower bound",
                        n->name, d->flops_unknown > 1 ? " and of the other ops like it" : "",
                        j->graph.name);
  }
  return st ? st : summary_remark(j, t, d);
}

// The `metrale.dispatch` attribute: every field of metrale/dispatch_fields.def, complete
// and the target's name, on keys made once per run (ir/dict.h).
typedef struct attr_keys_t {
  met_dict_keys_t dict;
  MlirAttribute target;
  MlirStringRef attr_name;
} attr_keys_t;

static void attr_keys_init(MlirContext ctx, const met_target_t *t, attr_keys_t *k) {
  size_t n;
  const met_dispatch_field_t *f = met_dispatch_fields(&n);
  const char *names[MET_DISPATCH_FIELD_COUNT];
  for (size_t i = 0; i < n; ++i) names[i] = f[i].name;
  _Static_assert(MET_DISPATCH_FIELD_COUNT + 2 <= MET_DICT_MAX_KEYS, "dispatch keys");
  // then complete, target; never too many (asserted above)
  (void)met_dict_keys_init_report(&k->dict, ctx, names, n);
  k->target = mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(t->name));
  k->attr_name = mlirStringRefCreateFromCString("metrale.dispatch");
}

static void set_dispatch_attr(met_fn_job_t *j, attr_keys_t *k, const met_dispatch_report_t *d) {
  size_t n;
  const met_dispatch_field_t *f = met_dispatch_fields(&n);
  MlirAttribute v[MET_DISPATCH_FIELD_COUNT + 2];
  for (size_t i = 0; i < n; ++i) {
    uint64_t x = met_dispatch_field_u64(&d->stats, &f[i]);
    v[i] = f[i].kind == MET_DFIELD_BOOL ? met_dict_bool(&k->dict, x) : met_dict_int(&k->dict, x);
  }
  v[n] = met_dict_bool(&k->dict, j->report.complete && d->flops_complete);
  v[n + 1] = k->target;
  mlirOperationSetDiscardableAttributeByName(
      j->source, k->attr_name, met_dict_build(&k->dict, mlirOperationGetContext(j->func), v));
}

// Hands |j|'s prediction to the caller, with the arguments that are resident.
static met_status_t report_prediction(const met_dispatch_run_options_t *o,
                                      const met_target_t *t, met_fn_job_t *j,
                                      const met_dispatch_report_t *d,
                                      const met_dispatch_result_t *result) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(j->func, 0));
  size_t n = (size_t)mlirBlockGetNumArguments(entry);
  uint8_t *resident = calloc(n ? n : 1, 1);
  if (!resident) return MET_ENOMEM;
  for (uint32_t a = 0; a < j->graph.arg_count; ++a) {
    const met_value_t *v = &j->graph.values[a];
    if ((v->role == MET_ROLE_PARAM || v->role == MET_ROLE_STATE) && v->arg_index >= 0 &&
        (size_t)v->arg_index < n)
      resident[v->arg_index] = 1;
  }
  o->on_function(o->on_function_user, t, j->source, j->graph.name, &d->stats, &j->report.budget,
                 j->report.complete && d->flops_complete, resident, n, NULL, result);
  free(resident);
  return MET_OK;
}

met_status_t met_dispatch_run(MlirOperation module, const met_dispatch_run_options_t *o,
                              met_diag_fn_t diag, void *user, met_strbuf_t *text_out,
                              met_strbuf_t *json_out) {
  met_run_setup_t su;
  MET_RETURN_IF_ERROR(met_run_setup(module, &o->run, MET_PASS_DISPATCH, diag, user, &su));
  MlirLocation mloc = su.loc;
  const met_target_t *target = su.target;
  met_budget_options_t bopt = su.bopt;
  bopt.per_group = true;  // the dispatch stats read each dispatch's bytes
  met_limits_t *limits = su.limits;
  // Locations and names for the JSON's and the table's rows, and a limit's breach.
  bool names = o->run.json.length > 0 || o->run.trace.length > 0 || o->on_function ||
               (text_out && o->run.per_dispatch) ||
               met_limits_any(limits, MET_LIMIT_DISPATCH, NULL);
  met_adapter_options_t aopt = {target, (int64_t)su.dynamic_size, &su.params, names, &su.states,
                                NULL, NULL, true, o->run.dead_remarks, o->run.remarks_each};
  after_ctx_t actx = {o->run.per_dispatch};
  met_fn_jobs_t jobs;
  met_dispatch_result_t *results;
  met_fn_jobs_spec_t spec = {&aopt, &bopt, after_dispatch, &actx, NULL, sizeof(*results)};
  met_status_t st = met_fn_jobs_start(module, &spec, mloc, diag, user, &jobs, (void **)&results);
  if (st) {
    met_run_setup_release(&su);
    return st;
  }
  attr_keys_t keys;
  if (o->run.set_attributes) attr_keys_init(mlirOperationGetContext(module), target, &keys);
  for (size_t i = 0; i < jobs.visible; ++i) {
    met_fn_job_t *j = &jobs.jobs[i];
    results[i].name = j->graph.name ? j->graph.name : "?";
    results[i].signature = o->run.json.length ? met_fn_job_signature(j) : NULL;
    results[i].error = met_fn_job_emit(j, "metrale-dispatch", diag, user);
    if (results[i].error) {
      MET_KEEP_FIRST(st, met_fn_job_status(j));
      if (o->on_function)
        o->on_function(o->on_function_user, target, j->source, results[i].name, NULL, NULL, false, NULL,
                       0, results[i].error, NULL);
      continue;
    }
    const met_dispatch_report_t *d = j->extra;
    results[i].graph = &j->graph;
    results[i].report = d;
    results[i].budget = &j->report;
    results[i].complete = j->report.complete && d->flops_complete;
    MET_KEEP_FIRST(st, met_limits_check_dispatch(limits, j->source, results[i].name, target,
                                                 &j->graph, &j->report, d, diag, user));
    if (o->run.set_attributes) set_dispatch_attr(j, &keys, d);
    if (o->run.metrics) {
      size_t n;
      const met_dispatch_field_t *f = met_dispatch_fields(&n);
      const char *names[MET_DISPATCH_FIELD_COUNT + 1];
      uint64_t values[MET_DISPATCH_FIELD_COUNT + 1];
      for (size_t k = 0; k < n; ++k) {
        names[k] = f[k].name;
        values[k] = met_dispatch_field_u64(&d->stats, &f[k]);
      }
      names[n] = "complete";
      values[n] = results[i].complete;
      o->run.metrics(user, mlirOperationGetLocation(j->func), false, "dispatch", results[i].name, names,
                 values, NULL, n + 1);
    }
    met_status_t told = o->on_function ? report_prediction(o, target, j, d, &results[i]) : MET_OK;
    if (told) met_diag_emit(diag, user, mloc, MET_DIAG_ERROR, "%s", met_status_str(told));
    MET_KEEP_FIRST(st, told);
  }
  // The documents asked for: the JSON report and the timeline, each rendered whole and
  // written to its file (or standard output's buffer).
  static void (*const render[2])(met_strbuf_t *, const met_target_t *,
                                 const met_dispatch_result_t *, size_t) = {met_dispatch_json,
                                                                           met_dispatch_trace};
  const MlirStringRef paths[2] = {o->run.json, o->run.trace};
  static const char *const what[2] = {"JSON report", "trace"};
  for (int k = 0; k < 2; ++k) {
    if (!paths[k].length) continue;
    met_strbuf_t sb;
    met_strbuf_initialize(met_allocator_system(), &sb);
    render[k](&sb, target, results, jobs.visible);
    MET_KEEP_FIRST(st, met_output_rendered(mloc, paths[k], &sb, json_out, what[k], diag, user));
  }
  if (text_out) met_dispatch_text(text_out, target, results, jobs.visible, o->run.per_dispatch);
  met_fn_jobs_release(&jobs);
  free(results);
  met_run_setup_release(&su);
  return st;
}
