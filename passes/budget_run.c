// budget_run.c: met_budget_run: resolve options, analyse every function (in parallel, see
// jobs.c), then report in function order on the calling thread: diagnostics, the
// `metrale.budget` attribute, the JSON document and the text table. The analysis of one
// function touches only its own job, so there is no shared mutable state between threads.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/dlti.h"
#include "jobs.h"
#include "ir/mlir_hooks.h"
#include "limit_check.h"
#include "report/output.h"
#include "metrale/budget.h"
#include "metrale/checked.h"
#include "metrale/plan_svg.h"
#include "metrale/options.h"
#include "metrale/passes.h"
#include "metrale/report.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

// Why node |node| is off the fast path, as one of the kinds its remarks are summed up by.
enum { OFF_UNREGISTERED, OFF_UNRANKED, OFF_UNMODELLED, OFF_PLAIN, OFF_KINDS };
static int off_kind(const met_node_t *node) {
  if (node->flags & MET_NODE_F_UNREGISTERED) return OFF_UNREGISTERED;
  if (node->flags & MET_NODE_F_UNRANKED) return OFF_UNRANKED;
  if (node->op_class == MET_CLASS_UNKNOWN) return OFF_UNMODELLED;
  return OFF_PLAIN;
}

// The remarks at the ops off the target's fast path: one at each (|each|), else one per
// function and kind (why, and whether the bytes are results or buffers): how many, their
// bytes, the first with its location. A real model has hundreds (LLaMA on npu 613).
static met_status_t op_remarks(met_fn_job_t *j, const met_target_t *t, bool each) {
  static const char *const one[OFF_KINDS] = {
      "is not a registered op: counted conservatively as its own dispatch,",
      "touches an unranked or unsized value (counted as 0 bytes): its own dispatch,",
      "is not modelled by metrale: its own dispatch,", "is"};
  static const char *const many[OFF_KINDS] = {
      "are not registered ops: each counted conservatively as its own dispatch,",
      "touch unranked or unsized values (counted as 0 bytes): each its own dispatch,",
      "are not modelled by metrale: each its own dispatch,", "are"};
  const met_graph_t *g = &j->graph;
  size_t count[OFF_KINDS][2] = {{0}};
  uint64_t bytes_of[OFF_KINDS][2] = {{0}};
  size_t first[OFF_KINDS][2];
  for (size_t n = 0; n < g->node_count; ++n) {
    if (!j->report.off_fast_path[n]) continue;
    const met_node_t *node = &g->nodes[n];
    // What it counts in off_fast_path_bytes, said as what it is.
    uint64_t bytes = UINT64_MAX;
    bool of_buffers = false;
    (void)met_budget_off_path_bytes(g, node, &bytes, &of_buffers);
    int k = off_kind(node);
    if (each) {
      met_status_t st = met_diag_add(&j->arena, &j->diags, met_node_loc(node), MET_DIAG_REMARK,
                                     "'%s' %s off the fast path of target '%s' (%" PRIu64
                                     " bytes of %s)", node->name, one[k], t->name, bytes,
                                     of_buffers ? "the buffers it works on" : "results");
      if (st) return st;
      continue;
    }
    if (!count[k][of_buffers]++) first[k][of_buffers] = n;
    if (!met_add_u64(bytes_of[k][of_buffers], bytes, &bytes_of[k][of_buffers]))
      bytes_of[k][of_buffers] = UINT64_MAX;
  }
  for (int k = 0; k < OFF_KINDS; ++k)
    for (int b = 0; b < 2; ++b) {
      if (!count[k][b]) continue;
      const met_node_t *node = &g->nodes[first[k][b]];
      met_status_t st;
      if (count[k][b] == 1) {
        st = met_diag_add(&j->arena, &j->diags, met_node_loc(node), MET_DIAG_REMARK,
                          "'%s' %s off the fast path of target '%s' (%" PRIu64 " bytes of %s)",
                          node->name, one[k], t->name, bytes_of[k][b],
                          b ? "the buffers it works on" : "results");
      } else {
        const char *where = met_graph_node_loc(g, first[k][b]);
        char loc[512];
        if (!where) {
          met_diag_loc_short(met_node_loc(node), loc, sizeof(loc));
          where = loc;
        }
        st = met_diag_add(&j->arena, &j->diags, mlirOperationGetLocation(j->func),
                          MET_DIAG_REMARK,
                          "%zu ops %s off the fast path of target '%s' (%" PRIu64 " bytes of %s); "
                          "the first is '%s' at %s (remarks-each, or the command's "
                          "--remarks=all, gives a remark at each)",
                          count[k][b], many[k], t->name, bytes_of[k][b],
                          b ? "the buffers they work on" : "results", node->name, where);
      }
      if (st) return st;
    }
  return MET_OK;
}

// What every function's summary remark shares, made once per run and only read by the
// threads: the remark's rows (metrale/budget_fields.def in table order) and their names'
// lengths, and whether op remarks are asked for.
typedef struct remark_ctx_t {
  bool op_remarks, each;
  size_t nrows;
  const met_budget_field_t *rows[MET_BUDGET_FIELD_COUNT];
  size_t name_len[MET_BUDGET_FIELD_COUNT];
} remark_ctx_t;

static size_t put(char *p, const char *s, size_t n) {
  memcpy(p, s, n);
  return n;
}

static size_t put_u64(char *p, uint64_t v) {
  char t[20];  // 2^64 - 1 has 20 digits
  size_t i = sizeof(t);
  do { t[--i] = (char)('0' + v % 10); v /= 10; } while (v);
  return put(p, t + i, sizeof(t) - i);
}

// "metrale.budget @f on T (policy): arena_bytes=... ... complete=true": the rows in table
// order. Written straight into one buffer, without printf: one remark per function, and
// a module may have 20,000.
static met_status_t summary_remark(met_fn_job_t *j, const met_target_t *t,
                                   const remark_ctx_t *c) {
  const met_budget_t *b = &j->report.budget;
  const char *fn = j->graph.name ? j->graph.name : "?";
  const char *policy = met_width_policy_name(b->width_policy);
  size_t lfn = strlen(fn), lt = strlen(t->name), lp = strlen(policy);
  size_t bound = 64 + lfn + lt + lp;  // the fixed words and " complete=false"
  for (size_t k = 0; k < c->nrows; ++k) bound += c->name_len[k] + 22;  // " name=" + 20 digits
  char stack[2048];
  char *buf = bound <= sizeof(stack) ? stack : malloc(bound);
  if (!buf) return MET_ENOMEM;
  size_t n = put(buf, "metrale.budget @", 16);
  n += put(buf + n, fn, lfn);
  n += put(buf + n, " on ", 4);
  n += put(buf + n, t->name, lt);
  n += put(buf + n, " (", 2);
  n += put(buf + n, policy, lp);
  n += put(buf + n, "):", 2);
  for (size_t k = 0; k < c->nrows; ++k) {
    buf[n++] = ' ';
    n += put(buf + n, c->rows[k]->name, c->name_len[k]);
    buf[n++] = '=';
    const char *text = c->rows[k]->kind == MET_FIELD_BYTES || c->rows[k]->kind == MET_FIELD_COUNT
                           ? NULL  // a number: no name to look up
                           : met_budget_field_text(b, c->rows[k]);  // under 20 chars
    if (text) n += put(buf + n, text, strlen(text));
    else n += put_u64(buf + n, met_budget_field_u64(b, c->rows[k]));
  }
  n += j->report.complete ? put(buf + n, " complete=true", 14) : put(buf + n, " complete=false", 15);
  met_status_t st = met_diag_add_str(&j->arena, &j->diags, mlirOperationGetLocation(j->func),
                                     MET_DIAG_REMARK, buf, n);
  if (buf != stack) free(buf);
  return st;
}

static met_status_t after_budget(met_fn_job_t *j, const met_target_t *t, void *ctx) {
  const remark_ctx_t *c = ctx;
  met_status_t st = c->op_remarks ? op_remarks(j, t, c->each) : MET_OK;
  // A plan the wall-clock cap cut short is this machine's: said where the function is.
  if (!st && j->report.plan_stopped)
    st = met_diag_add(&j->arena, &j->diags, mlirOperationGetLocation(j->func), MET_DIAG_WARNING,
                      "metrale.budget @%s on %s: the plan's search stopped at the plan-seconds "
                      "cap after %" PRIu64 " nodes: arena_bytes is the best found, and depends "
                      "on this machine's speed (plan-effort bounds the search the same on every "
                      "machine)", j->graph.name ? j->graph.name : "?", t->name,
                      j->report.plan_nodes);
  return st ? st : summary_remark(j, t, c);
}

// What every function's `metrale.budget` attribute shares, made once per run: the keys
// as identifiers in the order a dictionary keeps them (sorted by name, so building one
// is neither a lookup nor a sort), the attributes that do not depend on the function.
typedef struct attr_keys_t {
  size_t n;
  MlirIdentifier id[MET_BUDGET_FIELD_COUNT + 2];
  int field[MET_BUDGET_FIELD_COUNT + 2];  // into met_budget_fields(); -1 complete, -2 target
  MlirType i64;
  MlirAttribute target, policy, yes, no;
  MlirAttribute plan[3];  // by met_plan_proof_t
  MlirStringRef attr_name;
  // Integer attributes by value, direct-mapped: functions repeat their sizes (0 above
  // all), and a hit skips the context's uniquing lock and hash.
  struct { uint64_t v; MlirAttribute a; } ints[64];
} attr_keys_t;

static MlirAttribute int_attr(attr_keys_t *k, uint64_t v) {
  size_t h = (size_t)((v * 0x9E3779B97F4A7C15ull) >> 58);
  if (!mlirAttributeIsNull(k->ints[h].a) && k->ints[h].v == v) return k->ints[h].a;
  k->ints[h].v = v;
  k->ints[h].a = mlirIntegerAttrGet(k->i64, (int64_t)v);
  return k->ints[h].a;
}

static void attr_keys_init(MlirContext ctx, const met_target_t *t, attr_keys_t *k) {
  size_t n;
  const met_budget_field_t *fields = met_budget_fields(&n);
  const char *names[MET_BUDGET_FIELD_COUNT + 2];
  for (size_t i = 0; i < n; ++i) { names[i] = fields[i].name; k->field[i] = (int)i; }
  names[n] = "complete"; k->field[n] = -1;
  names[n + 1] = "target"; k->field[n + 1] = -2;
  k->n = n + 2;
  for (size_t i = 1; i < k->n; ++i)  // insertion sort: strcmp is StringRef's order here
    for (size_t m = i; m > 0 && strcmp(names[m - 1], names[m]) > 0; --m) {
      const char *tn = names[m]; names[m] = names[m - 1]; names[m - 1] = tn;
      int tf = k->field[m]; k->field[m] = k->field[m - 1]; k->field[m - 1] = tf;
    }
  for (size_t i = 0; i < k->n; ++i)
    k->id[i] = mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(names[i]));
  k->i64 = mlirIntegerTypeGet(ctx, 64);
  k->target = mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(t->name));
  k->policy = mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(
                                         met_width_policy_name(t->width_policy)));
  for (int p = 0; p < 3; ++p)
    k->plan[p] = mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(
                                            met_plan_proof_name((met_plan_proof_t)p)));
  k->yes = mlirBoolAttrGet(ctx, 1);
  k->no = mlirBoolAttrGet(ctx, 0);
  k->attr_name = mlirStringRefCreateFromCString("metrale.budget");
}

// The `metrale.budget` attribute: every field of metrale/budget_fields.def, complete and
// the target's name.
static void set_budget_attr(met_fn_job_t *j, attr_keys_t *k) {
  MlirContext ctx = mlirOperationGetContext(j->func);
  const met_budget_t *b = &j->report.budget;
  size_t n;
  const met_budget_field_t *fields = met_budget_fields(&n);
  MlirNamedAttribute f[MET_BUDGET_FIELD_COUNT + 2];
  for (size_t i = 0; i < k->n; ++i) {
    int fi = k->field[i];
    MlirAttribute v;
    if (fi == -1) v = j->report.complete ? k->yes : k->no;
    else if (fi == -2) v = k->target;
    else if (fields[fi].kind == MET_FIELD_POLICY) v = k->policy;
    else if (fields[fi].kind == MET_FIELD_PLAN) v = k->plan[b->plan <= MET_PLAN_BEST_FOUND ? b->plan : 0];
    else v = int_attr(k, met_budget_field_u64(b, &fields[fi]));
    f[i] = mlirNamedAttributeGet(k->id[i], v);
  }
  // The keys were sorted once (attr_keys_init): the dictionary is built as sorted.
  mlirOperationSetDiscardableAttributeByName(j->source, k->attr_name,
                                             met_dictionary_sorted(ctx, (intptr_t)k->n, f));
}

// The Budget of |j| as one structured remark: every numeric field, and complete.
static void budget_metrics(const met_budget_run_options_t *o, const met_fn_job_t *j,
                           void *user) {
  size_t n, k = 0;
  const met_budget_field_t *f = met_budget_fields(&n);
  const char *names[MET_BUDGET_FIELD_COUNT + 1];
  uint64_t values[MET_BUDGET_FIELD_COUNT + 1];
  for (size_t i = 0; i < n; ++i) {
    if (f[i].kind != MET_FIELD_BYTES && f[i].kind != MET_FIELD_COUNT) continue;  // a name
    names[k] = f[i].name;
    values[k++] = met_budget_field_u64(&j->report.budget, &f[i]);
  }
  names[k] = "complete";
  values[k++] = j->report.complete;
  o->metrics(user, mlirOperationGetLocation(j->func), false, "budget", j->graph.name, names,
             values, NULL, k);
  // Each op off the fast path: a missed optimization, with what it costs.
  const met_graph_t *g = &j->graph;
  for (size_t n = 0; n < g->node_count; ++n) {
    if (!j->report.off_fast_path[n]) continue;
    const char *op_names[] = {MET_BUDGET_FIELD_NAME(off_fast_path_bytes)};
    uint64_t op_values[] = {UINT64_MAX};
    (void)met_budget_off_path_bytes(g, &g->nodes[n], &op_values[0], NULL);
    o->metrics(user, met_node_loc(&g->nodes[n]), true, "off-fast-path", j->graph.name, op_names,
               op_values, NULL, 1);
  }
}

// What reporting one function needs (met_fn_stream_t.done).
typedef struct emit_t {
  const met_budget_run_options_t *o;
  const met_target_t *target;
  MlirLocation mloc;
  met_diag_fn_t diag;
  void *user;
  attr_keys_t keys;
  bool ok;
  bool svg_done;
  const met_limits_t *limits;
} emit_t;

// Reports function |i|: its diagnostics, the callbacks, the attribute, the structured
// remarks, and (the first evaluated function's) the SVG. The result keeps pointers into
// the job only when the job is kept (met_fn_stream_t.release is false).
static void emit_function(void *user_, size_t i, met_fn_job_t *j, void *results_) {
  emit_t *e = user_;
  const met_budget_run_options_t *o = e->o;
  met_function_result_t *results = results_;
  results[i].name = j->graph.name ? j->graph.name : "?";
  results[i].signature = o->json.length ? met_fn_job_signature(j) : NULL;
  results[i].error = met_fn_job_emit(j, "metrale-budget", e->diag, e->user);
  if (o->on_function)
    o->on_function(o->on_function_user, e->target, results[i].name,
                   results[i].error ? NULL : &j->report.budget, j->report.complete,
                   results[i].error);
  if (results[i].error) {
    e->ok = false;
    return;
  }
  results[i].graph = &j->graph;
  results[i].report = &j->report;
  if (!met_limits_check_budget(e->limits, j->source, results[i].name, e->target, &j->graph,
                               &j->report, e->diag, e->user))
    e->ok = false;
  if (o->set_attributes) set_budget_attr(j, &e->keys);
  if (o->metrics) budget_metrics(o, j, e->user);
  if (o->on_plan) o->on_plan(o->on_plan_user, e->target, results[i].name, &j->graph, &j->report);
  if (o->svg.length && !e->svg_done) {
    // svg=FILE: the first evaluated function's plan.
    e->svg_done = true;
    met_strbuf_t sb;
    met_strbuf_initialize(met_allocator_system(), &sb);
    met_status_t st = met_plan_svg(&sb, results[i].name, e->target, &j->graph, &j->report);
    if (st) {
      met_diag_emit(e->diag, e->user, e->mloc, MET_DIAG_ERROR, "cannot draw the plan: %s",
                    met_status_str(st));
      e->ok = false;
    } else if (!met_output_write(e->mloc, o->svg, &sb, NULL, "plan picture", e->diag, e->user)) {
      e->ok = false;
    }
    met_strbuf_deinitialize(&sb);
  }
}

bool met_budget_run(MlirOperation module, const met_budget_run_options_t *o,
                    met_diag_fn_t diag, void *user, met_strbuf_t *text_out,
                    met_strbuf_t *json_out) {
  MlirLocation mloc = met_diag_module_loc(module);
  // Every file it writes is checked before any work (not the model, not twice).
  static const char *const out_flags[] = {"json=", "sarif=", "svg="};
  const MlirStringRef outs[] = {o->json, o->sarif, o->svg};
  if (!met_output_check_module(module, out_flags, outs, 3, diag, user)) return false;
  if (!met_diag_check_attr_names(module, diag, user)) return false;
  met_target_t dlti_target;
  const met_target_t *target;
  if (!met_dlti_resolve_target(module, o->target, &dlti_target, &target, diag, user)) return false;
  met_budget_options_t bopt = {MET_PLAN_BEST, false, {0, 0, NULL, NULL, NULL}};
  met_param_spec_t params;
  uint64_t dynamic_size;
  if (!met_diag_option_planner(mloc, o->planner, &bopt.strategy, diag, user) ||
      !met_diag_option_plan_limits(mloc, o->plan_effort, o->plan_seconds, &bopt.plan_limits,
                                   diag, user) ||
      !met_diag_option_spec(module, "params", o->params, &params, diag, user) ||
      !met_diag_option_num(mloc, MET_OPT_dynamic_size, o->dynamic_size, 0, &dynamic_size, diag,
                           user))
    return false;
  met_limits_t *limits = malloc(sizeof(*limits));
  if (!limits) { met_diag_emit(diag, user, mloc, MET_DIAG_ERROR, "out of memory"); return false; }
  if (!met_limits_gather(module, o->limits, o->limit_list, MET_LIMIT_BUDGET, limits, diag, user)) { free(limits); return false; }
  // The dispatches that make a dispatch or DRAM limit's breach are named by their bytes.
  bopt.per_group = met_limits_any(limits, MET_LIMIT_BUDGET, "dispatches") ||
                   met_limits_any(limits, MET_LIMIT_BUDGET, "dram_bytes");
  met_adapter_options_t aopt = {target, (int64_t)dynamic_size, &params,
                                o->json.length > 0 || o->on_plan || o->svg.length ||
                                    met_limits_any(limits, MET_LIMIT_BUDGET, NULL), NULL,
                                NULL, NULL, false, o->dead_remarks, o->remarks_each};
  met_fn_jobs_t jobs;
  remark_ctx_t remarks;
  remarks.op_remarks = o->op_remarks;
  remarks.each = o->remarks_each;
  remarks.nrows = met_budget_rows(remarks.rows);
  for (size_t k = 0; k < remarks.nrows; ++k) remarks.name_len[k] = strlen(remarks.rows[k]->name);
  met_function_result_t *results;
  emit_t e = {o, target, mloc, diag, user, {0}, true, false, limits};
  if (o->set_attributes) attr_keys_init(mlirOperationGetContext(module), target, &e.keys);
  // Each function is reported as soon as it and those before it are analysed; unless the
  // JSON or the text table needs every report at the end, its memory then goes.
  met_fn_stream_t stream = {emit_function, &e, !o->json.length && !text_out};
  if (!met_fn_jobs_start(module, target, &aopt, &bopt, after_budget, &remarks, &stream, mloc,
                         diag, user, sizeof(*results), &jobs, (void **)&results)) {
    free(limits);
    return false;
  }
  bool ok = e.ok;
  if (o->json.length) {
    met_strbuf_t sb;
    met_strbuf_initialize(met_allocator_system(), &sb);
    met_report_json(&sb, target, results, jobs.visible);
    if (!met_output_rendered(mloc, o->json, &sb, json_out, "JSON report", diag, user)) ok = false;
  }
  if (text_out) met_report_text(text_out, target, results, jobs.visible);
  met_fn_jobs_release(&jobs);
  free(results);
  free(limits);
  return ok;
}
