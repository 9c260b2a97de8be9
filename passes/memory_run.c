// memory_run.c: met_memory_run, the `metrale-memory` pass. Functions are analysed in
// parallel by the same adapter, fusion model and planner as the Budget (jobs.c);
// then, on the calling thread, the terms are gathered in function order, evaluated by the
// pure core (lib/memory.c) and reported: the `metrale.memory` module attribute, a remark
// table at the module, an error when the model does not fit, the JSON and the text.
//
// Module-level declarations it reads (passes/memory_decls.c):
//   metrale.kv_pool = {layers = 32 : i64, kv_heads = 32 : i64, head_dim = 128 : i64,
//                      block_size = 16 : i64, dtype = f16,
//                      draft = {layers = 2 : i64, kv_heads = 8 : i64, head_dim = 64 : i64,
//                               dtype = f16}}
//   metrale.caches = [{name = "prefix", units = 4 : i64, bytes = 1048576 : i64,
//                      where = "device"}]
// and on arguments: metrale.param, metrale.state, metrale.name = "layers.0.wq" (one weight
// or state under that name across functions), metrale.format = bf16 (the checkpoint's
// element type).
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/dlti.h"
#include "jobs.h"
#include "limit_check.h"
#include "report/output.h"
#include "run_setup.h"
#include "metrale/checked.h"
#include "metrale/memory.h"
#include "metrale/memory_graph.h"
#include "metrale/memory_model.h"
#include "metrale/memory_report.h"
#include "metrale/parse.h"
#include "metrale/options.h"
#include "runners.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ir/attrs.h"
#include "ir/ir.h"
#include "memory_internal.h"
#include "ir/types.h"

// |ctx|: the Budget's plan limits (met_plan_limits_t), for the run's re-plan.
static met_status_t after_memory(met_fn_job_t *j, const met_target_t *t, void *ctx) {
  met_function_memory_t *fm = met_arena_alloc(&j->arena, sizeof(*fm));
  if (!fm) return MET_ENOMEM;
  j->extra = fm;
  return met_memory_function(&j->graph, &j->report, t, ctx, &j->arena, fm);
}

// Weights and states that are arguments of |j|'s function.
static met_status_t gather_arguments(gather_t *g, met_fn_job_t *j) {
  const met_graph_t *gr = &j->graph;
  const met_function_memory_t *fm = j->extra;
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(j->func, 0));
  for (uint32_t a = 0; a < gr->arg_count; ++a) {
    const met_value_t *v = &gr->values[a];
    if (v->role != MET_ROLE_PARAM && v->role != MET_ROLE_STATE) continue;
    MlirAttribute attrs = met_ir_arg_dict(j->func, v->arg_index);
    MlirAttribute nm = met_mem_attr_of(attrs, "metrale.name");
    const char *name = !mlirAttributeIsNull(nm) && mlirAttributeIsAString(nm)
                           ? met_arena_strndup(&g->arena, mlirStringAttrGetValue(nm).data,
                                               mlirStringAttrGetValue(nm).length)
                           : met_mem_afmt(g, "%%arg%d of @%s", v->arg_index, gr->name);
    if (!name) return met_mem_fail_oom(g);
    const char *loc = met_adapter_loc_string(&g->arena, mlirOperationGetLocation(j->func));
    if (v->role == MET_ROLE_STATE) {
      met_status_t st = met_memory_model_state(&g->model, name, v->bytes, loc);
      if (st == MET_EINVAL) {
        met_diag_emit(g->diag, g->user, mlirOperationGetLocation(j->func), MET_DIAG_ERROR,
                      "argument #%d: the state named \"%s\" is %" PRIu64 " bytes here and %"
                      PRIu64 " bytes elsewhere: one name is one state", v->arg_index, name,
                      v->bytes, g->model.conflict_bytes);
        met_mem_fail(g, MET_EINVAL);
        continue;
      }
      MET_RETURN_IF_ERROR(met_mem_check(g, st));
      continue;
    }
    // A parameter: stored at its declared format when one is given.
    uint64_t stored = v->bytes, served = 0;
    const char *format = NULL;
    MlirAttribute fa = met_mem_attr_of(attrs, "metrale.format");
    MlirType ftype;  // checked by the adapter (attrs.h): a type or a string naming one
    if (!mlirAttributeIsNull(fa) &&
        !met_attr_type(mlirOperationGetContext(g->module), fa, &ftype)) {
      MlirType ir = mlirValueGetType(mlirBlockGetArgument(entry, v->arg_index));
      met_type_size_t sz;
      met_size_status_t szst = met_type_size_as(ir, ftype, g->target, 0, &sz);
      if (szst == MET_SIZE_OVERFLOW) {
        met_diag_emit(g->diag, g->user, mlirOperationGetLocation(j->func), MET_DIAG_ERROR,
                 "argument #%d: its size at its metrale.format (elements x bits) overflows 64 bits",
                 v->arg_index);
        met_mem_fail(g, MET_EINVAL);
        continue;
      }
      if (szst != MET_SIZE_OK) {
        met_diag_emit(g->diag, g->user, mlirOperationGetLocation(j->func), MET_DIAG_ERROR,
                 "argument #%d: its metrale.format has no storage width", v->arg_index);
        met_mem_fail(g, MET_EINVAL);
        continue;
      }
      stored = sz.bytes;
      if (!mlirTypeEqual(ftype, mlirShapedTypeGetElementType(ir))) served = v->bytes;
      format = met_type_string(&g->arena, ftype);
    }
    met_memory_weight_t w = {name, format, stored, served, 0, false, false, 0};
    met_memory_model_weight_use(&j->report, fm, a, v->bytes, g->target->hoists_parameters, &w);
    met_status_t st = met_memory_model_weight(&g->model, &w, true);
    if (st == MET_EINVAL) {
      met_diag_emit(g->diag, g->user, mlirOperationGetLocation(j->func), MET_DIAG_ERROR,
                    "argument #%d: the weight named \"%s\" is stored as %" PRIu64 " bytes here "
                    "and %" PRIu64 " bytes elsewhere: one name is one weight", v->arg_index,
                    name, stored, g->model.conflict_bytes);
      met_mem_fail(g, MET_EINVAL);
      continue;
    }
    MET_RETURN_IF_ERROR(met_mem_check(g, st));
  }
  return MET_OK;
}

// Tensor constants of |j|'s function: each one a weight.
static met_status_t gather_constants(gather_t *g, met_fn_job_t *j) {
  const met_graph_t *gr = &j->graph;
  const met_function_memory_t *fm = j->extra;
  for (size_t v = gr->arg_count; v < gr->value_count; ++v) {
    const met_value_t *val = &gr->values[v];
    if (val->role != MET_ROLE_CONST) continue;
    const met_node_t *n = &gr->nodes[val->producer];
    const char *loc = met_adapter_loc_string(&g->arena, met_node_loc(n));
    const char *name = met_mem_afmt(g, "%s at %s in @%s", n->name, loc ? loc : "?", gr->name);
    if (!name) return met_mem_fail_oom(g);
    met_memory_weight_t w = {name, NULL, val->bytes, 0, 0, false, false, 0};
    met_memory_model_weight_use(&j->report, fm, (uint32_t)v, val->bytes,
                                g->target->hoists_parameters, &w);
    MET_RETURN_IF_ERROR(met_mem_check(g, met_memory_model_weight(&g->model, &w, false)));
  }
  return MET_OK;
}

// The planned slots live at the peak position of the charged run, one row each.
static met_status_t gather_activation_rows(gather_t *g, met_fn_job_t *j, const met_memory_run_t *run) {
  const met_function_memory_t *fm = j->extra;
  // Fully bufferized code is charged its own allocation peak: one row for it.
  if (run->bufferized) {
    return met_mem_add_row(g, met_mem_afmt(g, "allocations of @%s (bufferized code)", run->name),
                           "activation",
                   met_adapter_loc_string(&g->arena, mlirOperationGetLocation(j->func)), 0, 0,
                   run->charged, 0, 0);
  }
  uint64_t live = 0;
  for (size_t s = 0; s < j->report.slot_count && fm->peak_position >= 0; ++s) {
    const met_slot_t *slot = &j->report.slots[s];
    if (!fm->slot_kept[s]) continue;
    if (slot->first > fm->peak_position || slot->last < fm->peak_position) continue;
    const met_node_t *n = &j->graph.nodes[slot->node];
    live += slot->bytes;
    MET_RETURN_IF_ERROR(met_mem_add_row(g, n->name, "activation",
                                        met_adapter_loc_string(&g->arena, met_node_loc(n)), 0,
                                        0, slot->bytes, 0, 0));
  }
  if (run->charged > live)
    return met_mem_add_row(g, met_mem_afmt(g, "arena fragmentation of @%s", run->name),
                           "activation", NULL, 0,
                   0, run->charged - live, 0, 0);
  return MET_OK;
}

// The `metrale.memory` attribute: the attr fields of metrale/memory_fields.def and the
// target's name.
static void set_memory_attr(gather_t *g) {
  MlirContext ctx = mlirOperationGetContext(g->module);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  size_t nf;
  const met_memory_field_t *fields = met_memory_fields(&nf);
  MlirNamedAttribute named[MET_MEMORY_FIELD_COUNT + 1];
  intptr_t n = 0;
  for (size_t i = 0; i < nf; ++i) {
    const met_memory_field_t *f = &fields[i];
    if (!f->attr) continue;
    MlirIdentifier id = mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(f->name));
    named[n++] = mlirNamedAttributeGet(
        id, f->kind == MET_MFIELD_BOOL ? mlirBoolAttrGet(ctx, (int)met_memory_field_u64(&g->r, f))
                                       : mlirIntegerAttrGet(i64, met_memory_field_i64(&g->r, f)));
  }
  named[n++] = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("target")),
      mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(g->target->name)));
  mlirOperationSetDiscardableAttributeByName(g->module,
                                             mlirStringRefCreateFromCString("metrale.memory"),
                                             mlirDictionaryAttrGet(ctx, n, named));
}

static met_status_t gather_runs(gather_t *g, met_fn_jobs_t *jobs) {
  for (size_t i = 0; i < jobs->visible; ++i) {
    met_fn_job_t *j = &jobs->jobs[i];
    // A failed callee fails the model too: its callers could not count it.
    if (met_fn_job_emit(j, "metrale-memory", g->diag, g->user)) {
      met_mem_fail(g, met_fn_job_status(j));
      continue;
    }
    const met_function_memory_t *fm = j->extra;
    if (!met_ir_func_is_public(j->func)) {
      // A private function is no run, but what it holds when called is the model's: its
      // constants, and the workspace its kernels need.
      met_memory_model_families(&g->model, fm);
      MET_RETURN_IF_ERROR(gather_constants(g, j));
      continue;
    }
    if (!j->report.complete) g->r.complete = false;
    if (fm->unsized_node >= 0) {
      const met_node_t *n = &j->graph.nodes[fm->unsized_node];
      met_diag_emit(g->diag, g->user, met_node_loc(n), MET_DIAG_ERROR,
               "the conv workspace rule of target '%s' needs the size of every operand of '%s', "
               "and one has dynamic dims or no size (bind them with dynamic-size=N)",
               g->target->name, n->name);
      met_mem_fail(g, MET_EUNSUPPORTED);
    }
    MET_RETURN_IF_ERROR(
        met_mem_check(g, met_memory_model_run(&g->model, j->graph.name, &j->report, fm, NULL)));
    MET_RETURN_IF_ERROR(gather_arguments(g, j));
    MET_RETURN_IF_ERROR(gather_constants(g, j));
  }
  // Rows of the run that sets the charge.
  for (size_t i = 0, k = 0; i < jobs->visible; ++i) {
    met_fn_job_t *j = &jobs->jobs[i];
    if (!met_ir_func_is_public(j->func) || j->status || j->failed) continue;
    met_memory_run_t *run = &g->r.runs[k++];
    if (run->name == g->r.peak_run) MET_RETURN_IF_ERROR(gather_activation_rows(g, j, run));
  }
  return MET_OK;
}

static void report_missing_kv(gather_t *g) {
  uint32_t m = g->r.kv_missing & ~g->swept;  // a swept axis is given by the sweep
  if (!m) return;
  char what[256] = {0};
  size_t len = 0;
  static const char *const names[] = {"sequences=", "tokens=",
                                      "the pool's layers, kv_heads, head_dim or block_size",
                                      "a KV element type (dtype or kv-dtype=)",
                                      "the draft head's shape or dtype"};
  for (int b = 0; b < 5; ++b) {
    if (!(m & (1u << b))) continue;
    int n = snprintf(what + len, sizeof(what) - len, "%s%s", len ? ", " : "", names[b]);
    if (n > 0 && (size_t)n < sizeof(what) - len) len += (size_t)n;
  }
  g->r.complete = false;
  met_diag_emit(g->diag, g->user, met_diag_module_loc(g->module), MET_DIAG_WARNING,
           "the KV pool is declared but sizes nothing (counted as 0 bytes, so the report is a "
           "lower bound): missing %s", what);
}

// The model's totals once its terms are gathered: the KV pool for |sequences| x |tokens|,
// the device bytes against the budget, and what still fits (the most sequences at
// |tokens|, the most tokens at |sequences|). False after an error at the module.
static met_status_t evaluate_model(gather_t *g, uint64_t sequences, uint64_t tokens) {
  MlirLocation mloc = met_diag_module_loc(g->module);
  g->r.kv_missing = met_memory_kv_missing(&g->r.pool, sequences, tokens);
  report_missing_kv(g);
  uint64_t kv_blocks, kv_bytes;
  met_status_t st = met_memory_kv_bytes(&g->r.pool, sequences, tokens, &kv_blocks, &kv_bytes);
  if (st) {
    met_diag_emit(g->diag, g->user, mloc, MET_DIAG_ERROR,
             "the paged KV pool for %" PRIu64 " sequences x %" PRIu64 " tokens has no byte "
             "size: blocks x block_size x 2 x layers x kv_heads x head_dim x KV bytes "
             "overflows 64 bits", sequences, tokens);
    return met_mem_fail(g, st);
  }
  st = met_memory_evaluate(&g->r.terms, &g->r.pool, &g->target->driver,
                           g->target->memory_bytes, g->r.util_ppm, sequences, tokens,
                           &g->r.totals);
  uint32_t shape_missing = g->r.kv_missing & ~(MET_KV_MISSING_SEQUENCES | MET_KV_MISSING_TOKENS);
  if (!st && g->r.pool.present && !shape_missing && tokens) {
    g->r.asked_max_sequences = true;
    st = met_memory_max_sequences(&g->r.terms, &g->r.pool, &g->target->driver,
                                  g->target->memory_bytes, g->r.util_ppm, tokens,
                                  &g->r.max_sequences, &g->r.max_sequences_found);
  }
  if (!st && g->r.pool.present && !shape_missing && sequences) {
    g->r.asked_max_tokens = true;
    st = met_memory_max_tokens(&g->r.terms, &g->r.pool, &g->target->driver,
                               g->target->memory_bytes, g->r.util_ppm, sequences,
                               &g->r.max_tokens, &g->r.max_tokens_found);
  }
  if (st == MET_EOVERFLOW) {
    met_diag_emit(g->diag, g->user, mloc, MET_DIAG_ERROR,
             "the memory model has no size: adding its term '%s' overflows 64 bits (the sum "
             "passes 2^64 bytes)", g->r.totals.overflow_term ? g->r.totals.overflow_term : "?");
    return met_mem_fail(g, st);
  }
  if (st) {
    met_diag_emit(g->diag, g->user, mloc, MET_DIAG_ERROR, "the memory model cannot be evaluated: %s",
             met_status_str(st));
    return met_mem_fail(g, st);
  }
  if (g->r.totals.kv_bytes)
    return met_mem_add_row(g, "paged KV pool", MET_MEMORY_FIELD_NAME(kv), NULL, 0, 0, 0, 0,
                           g->r.totals.kv_bytes);
  return MET_OK;
}

// The evaluated model reported: the module remark's table (|rows| largest nodes; not
// when the caller prints the table, |text_out|), the error (or warning) when it does not
// fit, the limits, the attribute, the callback, the structured remark, the JSON and the
// text. False when it does not fit (as an error), breaks a limit or cannot be written.
static met_status_t report_model(gather_t *g, const met_memory_run_options_t *o, uint64_t rows,
                         met_strbuf_t *text_out, met_strbuf_t *json_out) {
  MlirLocation mloc = met_diag_module_loc(g->module);
  met_status_t st = MET_OK;
  met_strbuf_t sb;
  met_strbuf_initialize(met_allocator_system(), &sb);
  // The module remark's table; not when the caller prints the table itself (text_out:
  // the command), whose rows are then the option's (default 15).
  if (rows && !text_out) {
    met_memory_report_text(&sb, g->target, &g->r, rows);
    if (sb.len && sb.data[sb.len - 1] == '\n') sb.data[--sb.len] = '\0';
    if (!sb.status) g->diag(g->user, mloc, MET_DIAG_REMARK, sb.data);
    sb.len = 0;
  }
  if (!g->r.totals.fits) {
    met_strbuf_printf(&sb, "the model does not fit %s: needs ", g->target->name);
    met_report_bytes(&sb, g->r.totals.device_bytes);
    MET_STRBUF_LIT(&sb, ", budget ");
    met_report_bytes(&sb, g->r.totals.budget_bytes);
    MET_STRBUF_LIT(&sb, ", over by ");
    met_report_bytes(&sb, g->r.totals.device_bytes - g->r.totals.budget_bytes);
    MET_STRBUF_LIT(&sb, "; largest terms: ");
    met_memory_report_largest(&sb, &g->r, 3);
    if (!sb.status)
      g->diag(g->user, mloc, o->run.over_budget_warning ? MET_DIAG_WARNING : MET_DIAG_ERROR, sb.data);
    if (!o->run.over_budget_warning) st = MET_ELIMIT;
  }
  MET_KEEP_FIRST(st, met_limits_check_memory(g->limits, g->module, g->target, &g->r, g->diag,
                                             g->user));
  if (o->run.set_attributes) set_memory_attr(g);
  if (o->on_report) o->on_report(o->on_report_user, g->target, &g->r);
  if (o->run.metrics) {
    size_t n;
    const met_memory_field_t *f = met_memory_fields(&n);
    const char *names[MET_MEMORY_FIELD_COUNT];
    uint64_t values[MET_MEMORY_FIELD_COUNT];
    uint8_t is_signed[MET_MEMORY_FIELD_COUNT];
    for (size_t k = 0; k < n; ++k) {
      names[k] = f[k].name;
      is_signed[k] = f[k].kind == MET_MFIELD_SIGNED;
      values[k] = is_signed[k] ? (uint64_t)met_memory_field_i64(&g->r, &f[k])
                               : met_memory_field_u64(&g->r, &f[k]);
    }
    o->run.metrics(g->user, mloc, false, "memory", "", names, values, is_signed, n);
  }
  if (o->run.json.length) {
    sb.len = 0;
    met_memory_report_json(&sb, g->target, &g->r);
    // met_output_rendered would release |sb|, which the table below still uses.
    if (sb.status)
      met_diag_emit(g->diag, g->user, mloc, MET_DIAG_ERROR, "cannot render the JSON report: %s",
                    met_status_str(sb.status));
    MET_KEEP_FIRST(st, sb.status ? sb.status
                                 : met_output_write(mloc, o->run.json, &sb, json_out,
                                                    "JSON report", g->diag, g->user));
  }
  if (text_out) met_memory_report_text(text_out, g->target, &g->r, o->run.remark_rows.length ? rows : 15);
  met_strbuf_deinitialize(&sb);
  return st;
}

// One axis of the grid: the list option |list| (named |name|), else the one value |one|
// of the scalar option (0: none).
static met_status_t grid_axis(const char *name, MlirStringRef list, uint64_t one, uint64_t *out,
                              size_t *n, met_error_t *err) {
  *n = 0;
  if (list.length)
    return met_parse_option_u64_list(name, list.data, list.length, 1, UINT64_MAX,
                                     MET_MEMORY_GRID_MAX, out, n, err);
  if (one) out[(*n)++] = one;
  return MET_OK;
}

// sweep-sequences= and sweep-tokens= (metrale/memory.h, met_memory_grid): the model at each
// pair, into g->r.grid; an axis not swept is the one value of sequences= or tokens=.
// Nothing when neither is given. An error at the module when an axis is empty or the
// pool does not size itself (every cell would be the same).
static met_status_t grid_model(gather_t *g, const met_memory_run_options_t *o,
                               uint64_t sequences, uint64_t tokens) {
  if (!o->run.sweep_sequences.length && !o->run.sweep_tokens.length) return MET_OK;
  MlirLocation mloc = met_diag_module_loc(g->module);
  met_memory_grid_t *grid;
  if (met_arena_calloc(&g->arena, 1, sizeof(*grid), (void **)&grid)) return met_mem_fail_oom(g);
  met_error_t err;
  met_error_init(&err);
  met_status_t st = grid_axis("sweep-sequences", o->run.sweep_sequences, sequences,
                              grid->sequences, &grid->nseq, &err);
  if (!st) st = grid_axis("sweep-tokens", o->run.sweep_tokens, tokens, grid->tokens, &grid->ntok, &err);
  if (!st && (!grid->nseq || !grid->ntok))
    st = met_error_set(&err, MET_EINVAL, "%s has no other axis: give %s",
                       grid->nseq ? "sweep-sequences=" : "sweep-tokens=",
                       grid->nseq ? "sweep-tokens= or tokens=" : "sweep-sequences= or sequences=");
  uint32_t shape_missing = g->r.kv_missing & ~(MET_KV_MISSING_SEQUENCES | MET_KV_MISSING_TOKENS);
  if (!st && (!g->r.pool.present || shape_missing))
    st = met_error_set(&err, MET_EINVAL, "sweep-sequences= and sweep-tokens= need a KV pool that "
                       "sizes itself (metrale.kv_pool or kv-pool=, with its element type): "
                       "without one every cell is the same");
  const char *term = NULL;
  if (!st) st = met_memory_grid(&g->r.terms, &g->r.pool, &g->target->driver,
                                g->target->memory_bytes, g->r.util_ppm, grid, &term);
  if (st == MET_EOVERFLOW && !err.message[0])
    met_error_set(&err, st, "the memory model has no size in the sweep: adding its term '%s' "
                  "overflows 64 bits", term ? term : "?");
  if (st) {
    met_diag_emit(g->diag, g->user, mloc, MET_DIAG_ERROR, "%s", met_error_message(&err));
    return met_mem_fail(g, st);
  }
  g->r.grid = grid;
  if (!grid->found) {  // an answer, not an error: said as a warning with the nearest miss
    const met_memory_totals_t *c = &grid->cells[0][0].totals;  // the smallest pair
    met_strbuf_t over;
    met_strbuf_initialize(met_allocator_system(), &over);
    met_report_bytes(&over, (uint64_t)0 - (uint64_t)c->headroom_bytes);
    met_diag_emit(g->diag, g->user, mloc, MET_DIAG_WARNING,
                  "no pair of the sweep fits %s: the smallest, %" PRIu64 " sequences x %" PRIu64
                  " tokens, is over its budget by %s", g->target->name, grid->sequences[0],
                  grid->tokens[0], over.data ? over.data : "?");
    met_strbuf_deinitialize(&over);
  }
  return MET_OK;
}

// The options of the run, its functions' jobs (into |jobs|, which the caller releases)
// and the module's declarations gathered into |g|, the model evaluated and reported
// (report_model). The first failure's status, after its error.
static met_status_t gather_model(gather_t *g, const met_memory_run_options_t *o,
                                 const met_run_setup_t *su, met_fn_jobs_t *jobs,
                                 met_strbuf_t *text_out, met_strbuf_t *json_out) {
  MlirLocation mloc = su->loc;
  met_diag_fn_t diag = g->diag;
  void *user = g->user;
  uint64_t sequences = 0, tokens = 0, rows = 0;
  MET_RETURN_IF_ERROR(met_diag_option_num(mloc, MET_OPT_sequences, o->run.sequences, 0,
                                          &sequences, diag, user));
  MET_RETURN_IF_ERROR(met_diag_option_num(mloc, MET_OPT_tokens, o->run.tokens, 0, &tokens,
                                          diag, user));
  MET_RETURN_IF_ERROR(met_diag_option_num(mloc, MET_OPT_remark_rows, o->run.remark_rows, 8,
                                          &rows, diag, user));
  g->r.util_ppm = g->target->default_util_ppm;
  if (o->run.util.length) {
    met_status_t st = met_parse_ppm(o->run.util.data, o->run.util.length, &g->r.util_ppm);
    if (st) {
      met_diag_emit(diag, user, mloc, MET_DIAG_ERROR, "invalid util='%.*s': " MET_PPM_EXPECTED,
                    (int)o->run.util.length, o->run.util.data);
      return st;
    }
  }
  met_adapter_options_t aopt = {g->target, (int64_t)su->dynamic_size, &su->params, false,
                                &su->states, NULL, NULL, false, o->run.dead_remarks,
                                o->run.remarks_each};
  met_budget_options_t bopt = su->bopt;
  MlirOperation lowered = met_fn_jobs_lower(g->module, g->target, mloc, diag, user);
  met_fn_jobs_spec_t spec = {&aopt, &bopt, after_memory, &bopt.plan_limits, NULL, 0};
  if (met_fn_jobs_run(mlirOperationIsNull(lowered) ? g->module : lowered,
                      mlirOperationIsNull(lowered) ? lowered : g->module, &spec, jobs, NULL)) {
    if (!mlirOperationIsNull(lowered)) mlirOperationDestroy(lowered);
    return met_mem_fail_oom(g);
  }
  jobs->lowered = lowered;
  if (!jobs->count)
    met_diag_emit(diag, user, mloc, MET_DIAG_WARNING,
             "no func.func with a body in this module: no run is counted (activations 0)");
  g->r.sequences = sequences;
  g->r.tokens = tokens;
  g->model.replace_sources = g->target->residency == MET_RESIDENCY_REPLACE;
  MET_RETURN_IF_ERROR(gather_runs(g, jobs));
  MET_RETURN_IF_ERROR(met_mem_gather_globals(g));
  MET_RETURN_IF_ERROR(met_mem_check(g, met_memory_model_finish(&g->model)));
  MET_RETURN_IF_ERROR(met_mem_gather_kv_pool(g, o->run.kv_dtype, o->run.kv_pool));
  MET_RETURN_IF_ERROR(met_mem_gather_caches(g));
  MET_RETURN_IF_ERROR(g->st);  // an error that let the gathering go on to say more
  if (!g->r.pool.present && (sequences || tokens))
    met_diag_emit(diag, user, mloc, MET_DIAG_WARNING,
                  "%s%s%s %s no effect: the module declares no KV pool (metrale.kv_pool, or "
                  "kv-pool=)", sequences ? "sequences=" : "", sequences && tokens ? " and " : "",
                  tokens ? "tokens=" : "", sequences && tokens ? "have" : "has");
  g->swept = (o->run.sweep_sequences.length ? MET_KV_MISSING_SEQUENCES : 0u) |
              (o->run.sweep_tokens.length ? MET_KV_MISSING_TOKENS : 0u);
  MET_RETURN_IF_ERROR(evaluate_model(g, sequences, tokens));
  MET_RETURN_IF_ERROR(grid_model(g, o, sequences, tokens));
  return report_model(g, o, rows, text_out, json_out);
}

met_status_t met_memory_run(MlirOperation module, const met_memory_run_options_t *o,
                            met_diag_fn_t diag, void *user, met_strbuf_t *text_out,
                            met_strbuf_t *json_out) {
  met_run_setup_t su;
  MET_RETURN_IF_ERROR(met_run_setup(module, &o->run, MET_PASS_MEMORY, diag, user, &su));
  MlirLocation mloc = su.loc;
  gather_t *g = calloc(1, sizeof(gather_t));
  if (!g) {
    met_diag_emit(diag, user, mloc, MET_DIAG_ERROR, "metrale-memory: out of memory");
    met_run_setup_release(&su);
    return MET_ENOMEM;
  }
  g->module = module;
  g->diag = diag;
  g->user = user;
  g->st = MET_OK;
  g->target = su.target;
  g->limits = su.limits;
  met_arena_initialize(met_allocator_system(), &g->arena);
  met_memory_model_initialize(&g->arena, &g->r, &g->model);
  met_fn_jobs_t jobs = {0};
  met_status_t st = gather_model(g, o, &su, &jobs, text_out, json_out);
  met_fn_jobs_release(&jobs);
  met_arena_deinitialize(&g->arena);
  free(g);
  met_run_setup_release(&su);
  return st;
}
