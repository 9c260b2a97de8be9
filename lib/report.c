// report.c: the JSON and text renderers. One pass over the results; no I/O.
#include "metrale/report.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const char *met_report_role_name(int role) {
  switch (role) {
    case MET_ROLE_ACTIVATION: return "activation";
    case MET_ROLE_INPUT: return "input";
    case MET_ROLE_PARAM: return "parameter";
    case MET_ROLE_CONST: return "constant";
    case MET_ROLE_GLOBAL: return "global";
    case MET_ROLE_EMPTY: return "empty";
    case MET_ROLE_ALLOC: return "alloc";
    case MET_ROLE_STATE: return "state";
    case MET_ROLE_SPLAT: return "splat";
    default: return "other";
  }
}

void met_report_bytes(met_strbuf_t *sb, uint64_t bytes) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) { met_strbuf_printf(sb, "%" PRIu64 " B", bytes); return; }
  double v = (double)bytes;
  int u = 0;
  while (v >= 1024.0 && u < 6) { v /= 1024.0; ++u; }
  met_strbuf_printf(sb, "%.1f %s", v, units[u]);
}

void met_report_json_target(met_strbuf_t *sb, const met_target_t *t) {
  MET_STRBUF_LIT(sb, "{\"name\": ");
  met_strbuf_json_string(sb, t->name);
  MET_STRBUF_LIT(sb, ", \"description\": ");
  met_strbuf_json_string(sb, t->description);
  met_strbuf_printf(sb,
                    ", \"width_policy\": \"%s\", \"alignment\": %" PRIu64
                    ", \"index_bits\": %u, \"epilogue_fusion\": %s, \"attention_fusion\": %s"
                    ", \"memory_bytes\": %" PRIu64
                    ", \"bandwidth_bytes_per_s\": %" PRIu64 ", \"compute_units\": %u, ",
                    met_width_policy_name(t->width_policy), t->alignment, t->index_bits,
                    t->epilogue_fusion ? "true" : "false",
                    t->attention_fusion ? "true" : "false", t->memory_bytes,
                    t->bandwidth_bytes_per_s, t->compute_units);
  met_strbuf_printf(sb,
                    "\"default_util_ppm\": %u, \"driver_context_bytes\": %" PRIu64
                    ", \"driver_reserved_ppm\": %u, \"driver_chunk_bytes\": %" PRIu64
                    ", \"workspace_matmul_per_unit_bytes\": %" PRIu64
                    ", \"workspace_conv_stages_operand\": %s"
                    ", \"workspace_softmax_per_unit_bytes\": %" PRIu64
                    ", \"workspace_reduction_per_unit_bytes\": %" PRIu64
                    ", \"hoists_parameters\": %s, \"residency\": \"%s\", \"fusion\": \"%s\", ",
                    t->default_util_ppm, t->driver.context_bytes, t->driver.reserved_ppm,
                    t->driver.chunk_bytes, t->workspace.matmul_per_unit_bytes,
                    t->workspace.conv_stages_operand ? "true" : "false",
                    t->workspace.softmax_per_unit_bytes, t->workspace.reduction_per_unit_bytes,
                    t->hoists_parameters ? "true" : "false", met_residency_name(t->residency),
                    met_fusion_model_name(t->fusion));
  const met_dispatch_params_t *d = &t->dispatch;
  met_strbuf_printf(sb,
                    "\"execution_model\": \"%s\", \"allocation_model\": \"%s\", "
                    "\"results_in_place\": %s, \"offload\": %s, \"host_link_bytes_per_s\": %"
                    PRIu64 ", \"launch_floor_ns\": %" PRIu64 ", \"peak_flops_f32\": %" PRIu64
                    ", \"peak_flops_f16\": %" PRIu64 ", \"peak_flops_int\": %" PRIu64
                    ", \"control_bytes_per_buffer\": %u, \"allocation_padding_bytes\": %u, ",
                    met_exec_model_name(d->execution_model),
                    met_alloc_model_name(d->allocation_model),
                    d->results_in_place ? "true" : "false", d->offload ? "true" : "false",
                    d->host_link_bytes_per_s, d->launch_floor_ns, d->peak_flops_f32,
                    d->peak_flops_f16, d->peak_flops_int, d->control_bytes_per_buffer,
                    d->allocation_padding_bytes);
  MET_STRBUF_LIT(sb, "\"fast_path\": [");
  for (const char *const *p = t->fast_path; p && *p; ++p) {
    if (p != t->fast_path) MET_STRBUF_LIT(sb, ", ");
    met_strbuf_json_string(sb, *p);
  }
  MET_STRBUF_LIT(sb, "]");
  // IREE's dispatch-creation modes (met_iree_modes_t), on the targets that model IREE.
  if (t->fusion == MET_FUSION_IREE)
    met_strbuf_printf(sb, ", \"iree\": {\"aggressive_fusion\": %s, \"fuse_pad\": %s, "
                      "\"horizontal_fusion\": %s, \"split_reduction\": false}",
                      t->iree.aggressive_fusion ? "true" : "false",
                      t->iree.fuse_pad ? "true" : "false",
                      t->iree.horizontal_fusion ? "true" : "false");
  MET_STRBUF_LIT(sb, "}");
}

static void json_budget(met_strbuf_t *sb, const met_budget_t *b) {
  size_t n;
  const met_budget_field_t *fields = met_budget_fields(&n);
  MET_STRBUF_LIT(sb, "{");
  for (size_t i = 0; i < n; ++i) {
    const met_budget_field_t *f = &fields[i];
    met_strbuf_printf(sb, "%s\"%s\": ", i ? ", " : "", f->name);
    const char *text = met_budget_field_text(b, f);
    if (text)
      met_strbuf_printf(sb, "\"%s\"", text);
    else
      met_strbuf_printf(sb, "%" PRIu64, met_budget_field_u64(b, f));
  }
  MET_STRBUF_LIT(sb, "}");
}

static void json_function(met_strbuf_t *sb, const met_function_result_t *f) {
  MET_STRBUF_LIT(sb, "{\"name\": ");
  met_strbuf_json_string(sb, f->name);
  if (f->signature) {
    MET_STRBUF_LIT(sb, ", \"signature\": ");
    met_strbuf_json_string(sb, f->signature);
  }
  if (!f->report) {
    MET_STRBUF_LIT(sb, ", \"complete\": false, \"error\": ");
    met_strbuf_json_string(sb, f->error ? f->error : "analysis failed");
    MET_STRBUF_LIT(sb, "}");
    return;
  }
  const met_graph_t *g = f->graph;
  const met_budget_report_t *r = f->report;
  met_strbuf_printf(sb, ", \"complete\": %s, \"budget\": ", r->complete ? "true" : "false");
  json_budget(sb, &r->budget);
  MET_STRBUF_LIT(sb, ", \"arguments\": [");
  for (uint32_t a = 0; a < g->arg_count; ++a) {
    const met_value_t *v = &g->values[a];
    met_strbuf_printf(sb, "%s{\"index\": %d, \"bytes\": %" PRIu64 ", \"role\": \"%s\", "
                      "\"uses\": %u, \"complete\": %s}",
                      a ? ", " : "", v->arg_index, v->bytes, met_report_role_name(v->role),
                      r->use_count[a],
                      (v->flags & MET_VALUE_F_UNRANKED) || met_value_unbound(v) ? "false"
                                                                                 : "true");
  }
  MET_STRBUF_LIT(sb, "], \"buffers\": [");
  for (size_t s = 0; s < r->slot_count; ++s) {
    const met_slot_t *slot = &r->slots[s];
    const met_node_t *n = &g->nodes[slot->node];
    if (s) MET_STRBUF_LIT(sb, ", ");
    MET_STRBUF_LIT(sb, "{\"value\": ");
    const char *vname = slot->value == MET_SLOT_SCRATCH ? "(scratch)"
                                                         : met_graph_value_name(g, slot->value);
    if (!vname) vname = "";
    met_strbuf_json_string(sb, vname);
    MET_STRBUF_LIT(sb, ", \"op\": ");
    met_strbuf_json_string(sb, n->name);
    MET_STRBUF_LIT(sb, ", \"loc\": ");
    const char *loc = met_graph_node_loc(g, slot->node);
    met_strbuf_json_string(sb, loc ? loc : "");
    met_strbuf_printf(sb, ", \"bytes\": %" PRIu64 ", \"first\": %d, \"last\": %d, \"offset\": %" PRIu64
                      ", \"dispatch\": %u}",
                      slot->bytes, slot->first, slot->last, slot->offset,
                      r->group_of_node[slot->node]);
  }
  MET_STRBUF_LIT(sb, "]}");
}

void met_report_json(met_strbuf_t *sb, const met_target_t *target,
                     const met_function_result_t *fns, size_t count) {
  MET_STRBUF_LIT(sb, "{\"target\": ");
  met_report_json_target(sb, target);
  MET_STRBUF_LIT(sb, ",\n \"functions\": [");
  for (size_t i = 0; i < count; ++i) {
    if (i) MET_STRBUF_LIT(sb, ",");
    MET_STRBUF_LIT(sb, "\n  ");
    json_function(sb, &fns[i]);
  }
  MET_STRBUF_LIT(sb, "]}\n");
}

static void text_row(met_strbuf_t *sb, const char *label, uint64_t v, bool bytes,
                     const char *note) {
  met_strbuf_printf(sb, "  %-22s %16" PRIu64, label, v);
  if (bytes) {
    MET_STRBUF_LIT(sb, "  ");
    size_t before = sb->len;
    met_report_bytes(sb, v);
    size_t w = sb->len - before;
    for (; w < 10; ++w) MET_STRBUF_LIT(sb, " ");
  } else {
    MET_STRBUF_LIT(sb, "            ");
  }
  if (note) met_strbuf_printf(sb, "  %s", note);
  MET_STRBUF_LIT(sb, "\n");
}

void met_report_text(met_strbuf_t *sb, const met_target_t *target,
                     const met_function_result_t *fns, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const met_function_result_t *f = &fns[i];
    met_strbuf_printf(sb, "%s@%s on %s (%s widths)\n", i ? "\n" : "", f->name, target->name,
                      met_width_policy_name(target->width_policy));
    if (!f->report) {
      met_strbuf_printf(sb, "  error: %s\n", f->error ? f->error : "analysis failed");
      continue;
    }
    const met_budget_t *b = &f->report->budget;
    if (!f->report->complete)
      MET_STRBUF_LIT(sb, "  (incomplete: byte counts are lower bounds)\n");
    const met_budget_field_t *rows[MET_BUDGET_FIELD_COUNT];
    size_t nr = met_budget_rows(rows);
    for (size_t k = 0; k < nr; ++k) {
      const char *text = met_budget_field_text(b, rows[k]);
      if (text)
        met_strbuf_printf(sb, "  %-22s %16s\n", rows[k]->name, text);
      else
        text_row(sb, rows[k]->name, met_budget_field_u64(b, rows[k]),
                 rows[k]->kind == MET_FIELD_BYTES, rows[k]->note);
    }
  }
}
