// budget_run.c: met_budget_run: resolve options, analyse every function (in parallel, see
// jobs.c), then report in function order on the calling thread: diagnostics, the
// `metrale.budget` attribute, the JSON document and the text table. The analysis of one
// function touches only its own job, so there is no shared mutable state between threads.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/dict.h"
#include "ir/dlti.h"
#include "jobs.h"
#include "ir/mlir_hooks.h"
#include "limit_check.h"
#include "report/output.h"
#include "run_setup.h"
#include "metrale/budget.h"
#include "metrale/checked.h"
#include "metrale/plan_svg.h"
#include "metrale/options.h"
#include "runners.h"
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

// What every function's `metrale.budget` attribute shares, made once per run (ir/dict.h):
// the keys, every field of metrale/budget_fields.def then complete and target, and the
// attributes that do not depend on the function.
typedef struct attr_keys_t {
  met_dict_keys_t dict;
  MlirAttribute target, policy;
  MlirAttribute plan[3];  // by met_plan_proof_t
  MlirStringRef attr_name;
} attr_keys_t;

static void attr_keys_init(MlirContext ctx, const met_target_t *t, attr_keys_t *k) {
  size_t n;
  const met_budget_field_t *fields = met_budget_fields(&n);
  const char *names[MET_BUDGET_FIELD_COUNT];
  for (size_t i = 0; i < n; ++i) names[i] = fields[i].name;
  _Static_assert(MET_BUDGET_FIELD_COUNT + 2 <= MET_DICT_MAX_KEYS, "budget keys");
  // then complete, target; never too many (asserted above)
  (void)met_dict_keys_init_report(&k->dict, ctx, names, n);
  k->target = mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(t->name));
  k->policy = mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(
                                         met_width_policy_name(t->width_policy)));
  for (int p = 0; p < 3; ++p)
    k->plan[p] = mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(
                                            met_plan_proof_name((met_plan_proof_t)p)));
  k->attr_name = mlirStringRefCreateFromCString("metrale.budget");
}

// The `metrale.budget` attribute: every field of metrale/budget_fields.def, complete and
// the target's name.
static void set_budget_attr(met_fn_job_t *j, attr_keys_t *k) {
  const met_budget_t *b = &j->report.budget;
  size_t n;
  const met_budget_field_t *fields = met_budget_fields(&n);
  MlirAttribute v[MET_BUDGET_FIELD_COUNT + 2];
  for (size_t i = 0; i < n; ++i) {
    if (fields[i].kind == MET_FIELD_POLICY) v[i] = k->policy;
    else if (fields[i].kind == MET_FIELD_PLAN) v[i] = k->plan[b->plan <= MET_PLAN_BEST_FOUND ? b->plan : 0];
    else v[i] = met_dict_int(&k->dict, met_budget_field_u64(b, &fields[i]));
  }
  v[n] = met_dict_bool(&k->dict, j->report.complete);
  v[n + 1] = k->target;
  mlirOperationSetDiscardableAttributeByName(
      j->source, k->attr_name, met_dict_build(&k->dict, mlirOperationGetContext(j->func), v));
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
  o->run.metrics(user, mlirOperationGetLocation(j->func), false, "budget", j->graph.name, names,
             values, NULL, k);
  // Each op off the fast path: a missed optimization, with what it costs.
  const met_graph_t *g = &j->graph;
  for (size_t n = 0; n < g->node_count; ++n) {
    if (!j->report.off_fast_path[n]) continue;
    const char *op_names[] = {MET_BUDGET_FIELD_NAME(off_fast_path_bytes)};
    uint64_t op_values[] = {UINT64_MAX};
    (void)met_budget_off_path_bytes(g, &g->nodes[n], &op_values[0], NULL);
    o->run.metrics(user, met_node_loc(&g->nodes[n]), true, "off-fast-path", j->graph.name, op_names,
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
  met_status_t st;  // the first failure
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
  results[i].signature = o->run.json.length ? met_fn_job_signature(j) : NULL;
  results[i].error = met_fn_job_emit(j, "metrale-budget", e->diag, e->user);
  if (o->on_function)
    o->on_function(o->on_function_user, e->target, results[i].name,
                   results[i].error ? NULL : &j->report.budget, j->report.complete,
                   results[i].error);
  if (results[i].error) {
    MET_KEEP_FIRST(e->st, met_fn_job_status(j));
    return;
  }
  results[i].graph = &j->graph;
  results[i].report = &j->report;
  MET_KEEP_FIRST(e->st, met_limits_check_budget(e->limits, j->source, results[i].name,
                                                 e->target, &j->graph, &j->report, e->diag,
                                                 e->user));
  if (o->run.set_attributes) set_budget_attr(j, &e->keys);
  if (o->run.metrics) budget_metrics(o, j, e->user);
  if (o->on_plan) o->on_plan(o->on_plan_user, e->target, results[i].name, &j->graph, &j->report);
  if (o->run.svg.length && !e->svg_done) {
    // svg=FILE: the first evaluated function's plan.
    e->svg_done = true;
    met_strbuf_t sb;
    met_strbuf_initialize(met_allocator_system(), &sb);
    met_status_t st = met_plan_svg(&sb, results[i].name, e->target, &j->graph, &j->report);
    if (st) {
      met_diag_emit(e->diag, e->user, e->mloc, MET_DIAG_ERROR, "cannot draw the plan: %s",
                    met_status_str(st));
    } else {
      st = met_output_write(e->mloc, o->run.svg, &sb, NULL, "plan picture", e->diag, e->user);
    }
    MET_KEEP_FIRST(e->st, st);
    met_strbuf_deinitialize(&sb);
  }
}

met_status_t met_budget_run(MlirOperation module, const met_budget_run_options_t *o,
                            met_diag_fn_t diag, void *user, met_strbuf_t *text_out,
                            met_strbuf_t *json_out) {
  met_run_setup_t su;
  MET_RETURN_IF_ERROR(met_run_setup(module, &o->run, MET_PASS_BUDGET, diag, user, &su));
  MlirLocation mloc = su.loc;
  const met_target_t *target = su.target;
  met_budget_options_t bopt = su.bopt;
  met_limits_t *limits = su.limits;
  // The dispatches that make a dispatch or DRAM limit's breach are named by their bytes.
  bopt.per_group = met_limits_any(limits, MET_LIMIT_BUDGET, "dispatches") ||
                   met_limits_any(limits, MET_LIMIT_BUDGET, "dram_bytes");
  met_adapter_options_t aopt = {target, (int64_t)su.dynamic_size, &su.params,
                                o->run.json.length > 0 || o->on_plan || o->run.svg.length ||
                                    met_limits_any(limits, MET_LIMIT_BUDGET, NULL), NULL,
                                NULL, NULL, false, o->run.dead_remarks, o->run.remarks_each};
  met_fn_jobs_t jobs;
  remark_ctx_t remarks;
  remarks.op_remarks = o->run.op_remarks;
  remarks.each = o->run.remarks_each;
  remarks.nrows = met_budget_rows(remarks.rows);
  for (size_t k = 0; k < remarks.nrows; ++k) remarks.name_len[k] = strlen(remarks.rows[k]->name);
  met_function_result_t *results;
  emit_t e = {.o = o, .target = target, .mloc = mloc, .diag = diag, .user = user,
              .st = MET_OK, .svg_done = false, .limits = limits};
  if (o->run.set_attributes) attr_keys_init(mlirOperationGetContext(module), target, &e.keys);
  // Each function is reported as soon as it and those before it are analysed; unless the
  // JSON or the text table needs every report at the end, its memory then goes.
  met_fn_stream_t stream = {emit_function, &e, !o->run.json.length && !text_out};
  met_fn_jobs_spec_t spec = {&aopt, &bopt, after_budget, &remarks, &stream, sizeof(*results)};
  met_status_t st = met_fn_jobs_start(module, &spec, mloc, diag, user, &jobs, (void **)&results);
  if (st) {
    met_run_setup_release(&su);
    return st;
  }
  st = e.st;
  if (o->run.json.length) {
    met_strbuf_t sb;
    met_strbuf_initialize(met_allocator_system(), &sb);
    met_report_json(&sb, target, results, jobs.visible);
    MET_KEEP_FIRST(st, met_output_rendered(mloc, o->run.json, &sb, json_out, "JSON report",
                                           diag, user));
  }
  if (text_out) met_report_text(text_out, target, results, jobs.visible);
  met_fn_jobs_release(&jobs);
  free(results);
  met_run_setup_release(&su);
  return st;
}
