// run.c: met_budget_run: resolve options, analyse every function (in parallel), then
// report in function order on the calling thread: diagnostics, the `metrale.budget`
// attribute, the JSON document and the text table. The analysis of one function touches
// only its own job (arena, graph, report, diagnostics), so there is no shared mutable
// state between threads.
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter.h"
#include "dlti.h"
#include "memory.h"
#include "metrale/budget.h"
#include "metrale/passes.h"
#include "metrale/report.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

typedef struct job_t {
  MlirOperation func;
  met_arena_t arena;
  met_graph_t graph;
  met_budget_report_t report;
  met_diag_list_t diags;
  met_status_t status;
  bool failed;
} job_t;

typedef struct run_t {
  job_t *jobs;
  size_t count;
  const met_target_t *target;
  met_adapter_options_t aopt;
  met_budget_options_t bopt;
  bool op_remarks;
} run_t;

static MlirLocation node_loc(const met_node_t *n) {
  return (MlirLocation){(const void *)(uintptr_t)n->ext};
}

static met_status_t op_remarks(job_t *j, const met_target_t *t) {
  const met_graph_t *g = &j->graph;
  for (size_t n = 0; n < g->node_count; ++n) {
    if (!j->report.off_fast_path[n]) continue;
    const met_node_t *node = &g->nodes[n];
    uint64_t bytes = 0;
    for (uint32_t r = 0; r < node->result_count; ++r) bytes += g->values[node->result_begin + r].bytes;
    const char *why;
    if (node->flags & MET_NODE_F_UNREGISTERED)
      why = "is not a registered op: counted conservatively as its own dispatch,";
    else if (node->flags & MET_NODE_F_UNRANKED)
      why = "touches an unranked or unsized value (counted as 0 bytes): its own dispatch,";
    else if (node->op_class == MET_CLASS_UNKNOWN)
      why = "is not modelled by metrale: its own dispatch,";
    else
      why = "is";
    met_status_t st = met_diag_add(&j->arena, &j->diags, node_loc(node), MET_DIAG_REMARK,
                                   "'%s' %s off the fast path of target '%s' (%" PRIu64
                                   " bytes of results)", node->name, why, t->name, bytes);
    if (st) return st;
  }
  return MET_OK;
}

static met_status_t summary_remark(job_t *j, const met_target_t *t) {
  const met_budget_t *b = &j->report.budget;
  return met_diag_add(
      &j->arena, &j->diags, mlirOperationGetLocation(j->func), MET_DIAG_REMARK,
      "metrale.budget @%s on %s (%s): arena_bytes=%" PRIu64 " peak_live_bytes=%" PRIu64
      " materialized_bytes=%" PRIu64 " reuse_saved_bytes=%" PRIu64 " width_overhead_bytes=%" PRIu64
      " host_io_bytes=%" PRIu64 " param_bytes=%" PRIu64 " dispatches=%" PRIu64 " dram_bytes=%" PRIu64
      " off_fast_path_ops=%" PRIu64 " off_fast_path_bytes=%" PRIu64 " cast_nodes=%" PRIu64
      " complete=%s",
      j->graph.name, t->name, met_width_policy_name(b->width_policy), b->arena_bytes,
      b->peak_live_bytes, b->materialized_bytes, b->reuse_saved_bytes, b->width_overhead_bytes,
      b->host_io_bytes, b->param_bytes, b->dispatches, b->dram_bytes, b->off_fast_path_ops,
      b->off_fast_path_bytes, b->cast_nodes, j->report.complete ? "true" : "false");
}

static void run_job(void *user, size_t i) {
  run_t *r = user;
  job_t *j = &r->jobs[i];
  j->status = met_adapter_build(j->func, &r->aopt, &j->arena, &j->graph, &j->diags, &j->failed);
  if (j->status || j->failed) return;
  j->status = met_budget_analyze(&j->graph, r->target, &r->bopt, &j->arena, &j->report);
  if (!j->status && r->op_remarks) j->status = op_remarks(j, r->target);
  if (!j->status) j->status = summary_remark(j, r->target);
}

static MlirNamedAttribute named_i64(MlirContext ctx, const char *name, uint64_t v) {
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)),
                               mlirIntegerAttrGet(i64, (int64_t)v));
}

static void set_budget_attr(job_t *j, const met_target_t *t) {
  MlirContext ctx = mlirOperationGetContext(j->func);
  const met_budget_t *b = &j->report.budget;
  MlirNamedAttribute f[16];
  int n = 0;
  f[n++] = named_i64(ctx, "arena_bytes", b->arena_bytes);
  f[n++] = named_i64(ctx, "reuse_saved_bytes", b->reuse_saved_bytes);
  f[n++] = named_i64(ctx, "width_overhead_bytes", b->width_overhead_bytes);
  f[n++] = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("width_policy")),
      mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(met_width_policy_name(b->width_policy))));
  f[n++] = named_i64(ctx, "host_io_bytes", b->host_io_bytes);
  f[n++] = named_i64(ctx, "off_fast_path_ops", b->off_fast_path_ops);
  f[n++] = named_i64(ctx, "off_fast_path_bytes", b->off_fast_path_bytes);
  f[n++] = named_i64(ctx, "cast_nodes", b->cast_nodes);
  f[n++] = named_i64(ctx, "param_bytes", b->param_bytes);
  f[n++] = named_i64(ctx, "dispatches", b->dispatches);
  f[n++] = named_i64(ctx, "dram_bytes", b->dram_bytes);
  f[n++] = named_i64(ctx, "peak_live_bytes", b->peak_live_bytes);
  f[n++] = named_i64(ctx, "materialized_bytes", b->materialized_bytes);
  f[n++] = mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("complete")),
                                 mlirBoolAttrGet(ctx, j->report.complete));
  f[n++] = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("target")),
      mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(t->name)));
  mlirOperationSetDiscardableAttributeByName(j->func, mlirStringRefCreateFromCString("metrale.budget"),
                                             mlirDictionaryAttrGet(ctx, n, f));
}

static bool is_func_with_body(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if (n.length != 9 || memcmp(n.data, "func.func", 9)) return false;
  return !mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)));
}

static void emit(met_diag_fn_t diag, void *user, MlirLocation loc, met_diag_severity_t sev,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void emit(met_diag_fn_t diag, void *user, MlirLocation loc, met_diag_severity_t sev,
                 const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  diag(user, loc, sev, buf);
}

static bool write_json(MlirLocation mloc, MlirStringRef path, const met_strbuf_t *sb,
                       met_strbuf_t *json_out, met_diag_fn_t diag, void *user) {
  if (path.length == 1 && path.data[0] == '-') {
    if (json_out) { met_strbuf_append(json_out, sb->data, sb->len); return true; }
    fwrite(sb->data, 1, sb->len, stdout);
    fflush(stdout);
    return true;
  }
  char *p = malloc(path.length + 1);
  if (!p) { emit(diag, user, mloc, MET_DIAG_ERROR, "out of memory"); return false; }
  memcpy(p, path.data, path.length);
  p[path.length] = '\0';
  FILE *f = fopen(p, "wb");
  bool ok = f && fwrite(sb->data, 1, sb->len, f) == sb->len;
  if (f && fclose(f) != 0) ok = false;
  if (!ok) emit(diag, user, mloc, MET_DIAG_ERROR, "cannot write the JSON report to '%s': %s", p,
                strerror(errno));
  free(p);
  return ok;
}

// "host-cpu, h100, ..." from the built-in table, into |buf|.
static const char *target_list(char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < met_target_builtin_count(); ++i) {
    int n = snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", met_target_builtin(i)->name);
    if (n < 0 || (size_t)n >= cap - len) break;
    len += (size_t)n;
  }
  return buf;
}

bool met_budget_run(MlirOperation module, const met_budget_run_options_t *o,
                    met_diag_fn_t diag, void *user, met_strbuf_t *text_out,
                    met_strbuf_t *json_out) {
  MlirLocation mloc = mlirOperationGetLocation(module);
  // Target: the option, else the module's DLTI spec, else host-cpu.
  met_target_t dlti_target;
  const met_target_t *target = NULL;
  if (o->target.length) {
    if (met_target_find(o->target.data, o->target.length, &target)) {
      char names[256];
      emit(diag, user, mloc, MET_DIAG_ERROR, "unknown target '%.*s'; the built-in targets are %s",
           (int)o->target.length, o->target.data, target_list(names, sizeof(names)));
      return false;
    }
  } else {
    char why[256];
    int found = met_dlti_target(module, &dlti_target, why, sizeof(why));
    if (found < 0) {
      emit(diag, user, mloc, MET_DIAG_ERROR, "%s", why);
      return false;
    }
    if (found > 0) target = &dlti_target;
    else met_target_find("host-cpu", 8, &target);
  }
  static const char *const kPlanners[] = {"first-fit", "best-fit", "area", "best"};
  met_budget_options_t bopt = {MET_PLAN_BEST};
  if (o->planner.length) {
    int found = -1;
    for (int k = 0; k < 4; ++k)
      if (strlen(kPlanners[k]) == o->planner.length &&
          !memcmp(kPlanners[k], o->planner.data, o->planner.length))
        found = k;
    if (found < 0) {
      emit(diag, user, mloc, MET_DIAG_ERROR,
           "unknown planner '%.*s'; use best, first-fit, best-fit or area",
           (int)o->planner.length, o->planner.data);
      return false;
    }
    bopt.strategy = (met_plan_strategy_t)found;
  }
  met_param_spec_t params;
  const char *why;
  if (!met_param_spec_parse(o->params.data, o->params.length, &params, &why)) {
    emit(diag, user, mloc, MET_DIAG_ERROR, "invalid params='%.*s': %s", (int)o->params.length,
         o->params.data, why);
    return false;
  }
  run_t r;
  memset(&r, 0, sizeof(r));
  r.target = target;
  r.aopt.target = target;
  r.aopt.dynamic_size = o->dynamic_size;
  r.aopt.params = &params;
  r.aopt.record_names = o->json.length > 0;
  r.op_remarks = o->op_remarks;
  r.bopt = bopt;
  MlirBlock mbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(mbody); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    r.count += is_func_with_body(op);
  r.jobs = calloc(r.count ? r.count : 1, sizeof(job_t));
  met_function_result_t *results = calloc(r.count ? r.count : 1, sizeof(met_function_result_t));
  if (!r.jobs || !results) {
    free(r.jobs);
    free(results);
    emit(diag, user, mloc, MET_DIAG_ERROR, "out of memory");
    return false;
  }
  size_t k = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(mbody); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!is_func_with_body(op)) continue;
    r.jobs[k].func = op;
    met_arena_initialize(met_passes_allocator(), &r.jobs[k].arena);
    ++k;
  }
  met_parallel_for(mlirOperationGetContext(module), r.count, run_job, &r);

  bool ok = true;
  for (size_t i = 0; i < r.count; ++i) {
    job_t *j = &r.jobs[i];
    for (size_t d = 0; d < j->diags.count; ++d)
      diag(user, j->diags.items[d].loc, j->diags.items[d].severity, j->diags.items[d].message);
    results[i].name = j->graph.name ? j->graph.name : "?";
    if (j->status || j->failed) {
      ok = false;
      results[i].error = j->failed ? "a value has no byte size" : met_status_str(j->status);
      if (j->status)
        emit(diag, user, mlirOperationGetLocation(j->func), MET_DIAG_ERROR,
             "metrale-budget could not evaluate @%s: %s", results[i].name,
             met_status_str(j->status));
      continue;
    }
    results[i].graph = &j->graph;
    results[i].report = &j->report;
    if (o->set_attributes) set_budget_attr(j, target);
  }
  if (o->json.length) {
    met_strbuf_t sb;
    met_strbuf_initialize(met_allocator_system(), &sb);
    met_report_json(&sb, target, results, r.count);
    if (sb.status) {
      emit(diag, user, mloc, MET_DIAG_ERROR, "cannot render the JSON report: %s",
           met_status_str(sb.status));
      ok = false;
    } else if (!write_json(mloc, o->json, &sb, json_out, diag, user)) {
      ok = false;
    }
    met_strbuf_deinitialize(&sb);
  }
  if (text_out) met_report_text(text_out, target, results, r.count);
  for (size_t i = 0; i < r.count; ++i) met_arena_deinitialize(&r.jobs[i].arena);
  free(r.jobs);
  free(results);
  return ok;
}
