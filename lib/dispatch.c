// dispatch.c: the dispatch stats (metrale/dispatch.h) from a function's graph, its Budget
// report (fusion groups, slots, per-group traffic) and the target's dispatch parameters.
#include "metrale/dispatch.h"

#include <stddef.h>
#include <string.h>

#include "metrale/checked.h"

static const met_dispatch_field_t kFields[] = {
#define MET_DISPATCH_FIELD(name, kind, meaning) \
  {#name, MET_DFIELD_##kind, meaning, offsetof(met_dispatch_stats_t, name)},
#include "metrale/dispatch_fields.def"
#undef MET_DISPATCH_FIELD
};

const met_dispatch_field_t *met_dispatch_fields(size_t *count) {
  *count = MET_DISPATCH_FIELD_COUNT;
  return kFields;
}

uint64_t met_dispatch_field_u64(const met_dispatch_stats_t *s, const met_dispatch_field_t *f) {
  if (f->kind == MET_DFIELD_BOOL) {
    bool b;
    memcpy(&b, (const char *)s + f->offset, sizeof(b));
    return b;
  }
  uint64_t v;
  memcpy(&v, (const char *)s + f->offset, sizeof(v));
  return v;
}

const char *met_bound_name(met_bound_t b) {
  switch (b) {
    case MET_BOUND_MEMORY: return "memory";
    case MET_BOUND_COMPUTE: return "compute";
    case MET_BOUND_LAUNCH: return "launch";
  }
  return "?";
}

// acc += v; on overflow the report names |field| (a token of dispatch_fields.def).
#define ADD(field, acc, v)                                          \
  do {                                                              \
    if (!met_add_u64((acc), (v), &(acc))) {                         \
      out->overflow_field = MET_DISPATCH_FIELD_NAME(field);         \
      return MET_EOVERFLOW;                                         \
    }                                                               \
  } while (0)

// ceil(a x 10^9 / b) for b > 0, exact; false when it passes 2^64.
static bool time_ns(uint64_t a, uint64_t per_second, uint64_t *out) {
  if (!per_second) { *out = 0; return true; }
  unsigned __int128 q = ((unsigned __int128)a * 1000000000u + per_second - 1) / per_second;
  if (q > UINT64_MAX) return false;
  *out = (uint64_t)q;
  return true;
}

met_status_t met_dispatch_rates(met_dispatch_stats_t *s, const char **overflow_field) {
  struct { uint64_t bytes, *rate; const char *name; } r[] = {
      {s->output_bytes, &s->output_bytes_per_second,
       MET_DISPATCH_FIELD_NAME(output_bytes_per_second)},
      {s->readback_bytes, &s->readback_bytes_per_second,
       MET_DISPATCH_FIELD_NAME(readback_bytes_per_second)},
      {s->bytes_moved, &s->bytes_moved_per_second, MET_DISPATCH_FIELD_NAME(bytes_moved_per_second)},
      {s->device_allocation_bytes, &s->device_allocation_bytes_per_second,
       MET_DISPATCH_FIELD_NAME(device_allocation_bytes_per_second)},
  };
  for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); ++i) {
    *r[i].rate = 0;
    if (!s->latency_ns) continue;
    unsigned __int128 q = (unsigned __int128)r[i].bytes * 1000000000u / s->latency_ns;
    if (q > UINT64_MAX) {
      if (overflow_field) *overflow_field = r[i].name;
      return MET_EOVERFLOW;
    }
    *r[i].rate = (uint64_t)q;
  }
  return MET_OK;
}

// The peak that applies to a dispatch: by the element type of its first op's first
// result (integers; floats narrower than 32 bits; the rest at f32).
static uint64_t peak_for(const met_graph_t *g, const met_node_t *n, const met_dispatch_params_t *p) {
  if (!n->result_count) return p->peak_flops_f32;
  const met_value_t *v = &g->values[n->result_begin];
  if (!(v->flags & MET_VALUE_F_FLOAT)) return p->peak_flops_int;
  return v->f32_bytes > v->bytes ? p->peak_flops_f16 : p->peak_flops_f32;
}

static uint64_t control_bytes(const met_dispatch_params_t *p, const met_value_t *v) {
  if (p->control_bytes_per_buffer) return p->control_bytes_per_buffer;
  return (3 + 2 * (uint64_t)v->rank) * 8;  // allocated, aligned, offset, sizes, strides
}

// Host side: inputs, outputs, readback, round trips.
static met_status_t host_side(const met_graph_t *g, const met_budget_report_t *r,
                              const met_target_t *t, met_dispatch_report_t *out) {
  const met_dispatch_params_t *p = &t->dispatch;
  met_dispatch_stats_t *s = &out->stats;
  ADD(input_bytes, s->input_bytes, g->scalar_arg_bytes);
  ADD(input_bytes, s->input_bytes, g->input_gap_bytes);
  for (uint32_t a = 0; a < g->arg_count; ++a) {
    const met_value_t *v = &g->values[a];
    ADD(input_bytes, s->input_bytes, control_bytes(p, v));
    if (v->role == MET_ROLE_INPUT) ADD(input_bytes, s->input_bytes, v->bytes);
  }
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind == MET_NODE_RETURN) {
      for (uint32_t i = 0; i < node->operand_count; ++i) {
        ADD(output_bytes, s->output_bytes, g->values[g->operands[node->operand_begin + i]].bytes);
        ++s->output_buffers;
      }
      continue;
    }
    if (!p->offload || !r->off_fast_path[n]) continue;
    // A host round trip: the operands come up, the results go down again.
    ++s->sync_points;
    for (uint32_t i = 0; i < node->operand_count; ++i)
      ADD(readback_bytes, s->readback_bytes, g->values[g->operands[node->operand_begin + i]].bytes);
    for (uint32_t i = 0; i < node->result_count; ++i)
      ADD(input_bytes, s->input_bytes, g->values[node->result_begin + i].bytes);
  }
  ADD(readback_bytes, s->readback_bytes, s->output_bytes);
  ++s->sync_points;  // collecting the results
  ADD(bytes_moved, s->bytes_moved, s->input_bytes);
  ADD(bytes_moved, s->bytes_moved, s->readback_bytes);
  return MET_OK;
}

// ADD's form for met_dispatch_buffers, which has no report: the field goes to
// *overflow_field.
#define ADD_BUF(acc, v)                                                        \
  do {                                                                         \
    if (!met_add_u64((acc), (v), &(acc))) {                                    \
      if (overflow_field) *overflow_field = MET_DISPATCH_FIELD_NAME(device_allocation_bytes); \
      return MET_EOVERFLOW;                                                    \
    }                                                                          \
  } while (0)

met_status_t met_dispatch_buffers(const met_graph_t *g, const met_budget_report_t *r,
                                  const met_target_t *t, uint64_t *events, uint64_t *bytes,
                                  const char **overflow_field) {
  const met_dispatch_params_t *p = &t->dispatch;
  *events = *bytes = 0;
  for (size_t k = 0; k < r->slot_count; ++k) {
    const met_slot_t *slot = &r->slots[k];
    if (slot->value == MET_SLOT_SCRATCH) {
      const met_node_extra_t *x = met_graph_extra(g, &g->nodes[slot->node]);
      if (x && x->replaces_dispatch) {
        // A call or a region op: the buffers its callee or regions allocate, each an
        // allocation (a call's results are the call's results, slots of this graph; a
        // region op's results that its regions allocate are counted in it).
        ADD_BUF(*bytes, x->callee_buffer_bytes);  // its padding included
        *events += x->callee_buffers;
        continue;
      }
      // A region's scratch and a lowering's temporary: one allocation each.
      bool mlir = t->fusion == MET_FUSION_MLIR;
      uint64_t nbuf = x ? (x->scratch_bytes > 0) + (mlir ? x->lowering_buffers : 0) : 0;
      uint64_t b = x ? met_budget_temp_bytes(x, mlir, true) : 0;
      uint64_t pad;
      if (!met_mul_u64(nbuf, p->allocation_padding_bytes, &pad)) {
        if (overflow_field) *overflow_field = MET_DISPATCH_FIELD_NAME(device_allocation_bytes);
        return MET_EOVERFLOW;
      }
      ADD_BUF(*bytes, b);
      ADD_BUF(*bytes, pad);
      *events += nbuf;
      continue;
    }
    const met_value_t *v = &g->values[slot->value];
    if (v->flags & (MET_VALUE_F_INNER | MET_VALUE_F_STACK)) continue;  // allocated by its op's
                                                                    // regions, or on the stack
    ADD_BUF(*bytes, v->bytes);
    if (!(v->flags & MET_VALUE_F_NO_PAD)) ADD_BUF(*bytes, p->allocation_padding_bytes);
    ++*events;
  }
  return MET_OK;
}
#undef ADD_BUF

static met_status_t allocations(const met_graph_t *g, const met_budget_report_t *r,
                                const met_target_t *t, met_dispatch_report_t *out) {
  const met_dispatch_params_t *p = &t->dispatch;
  met_dispatch_stats_t *s = &out->stats;
  if (p->allocation_model == MET_ALLOC_PER_BUFFER) {
    MET_RETURN_IF_ERROR(met_dispatch_buffers(g, r, t, &s->device_allocation_events,
                                             &s->device_allocation_bytes, &out->overflow_field));
    s->device_allocation_peak_bytes = r->alloc_peak_bytes;
    return MET_OK;
  }
  if (r->budget.arena_bytes) {
    s->device_allocation_bytes = r->budget.arena_bytes;
    s->device_allocation_events = 1;
  }
  if (!p->results_in_place) {
    ADD(device_allocation_bytes, s->device_allocation_bytes, s->output_bytes);
    s->device_allocation_events += s->output_buffers;
  }
  // The arena and the result buffers are held together, for the whole invocation.
  s->device_allocation_peak_bytes = s->device_allocation_bytes;
  return MET_OK;
}

// Resident rows and handles: each resident root once per function, and once per kernel.
static met_status_t resident(const met_graph_t *g, const met_budget_report_t *r,
                             const met_target_t *t, met_arena_t *arena,
                             met_dispatch_report_t *out) {
  met_dispatch_stats_t *s = &out->stats;
  uint32_t *seen;  // per value: 1 + the last group that bound it; UINT32_MAX: counted as a row
  uint8_t *row;
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, g->value_count ? g->value_count : 1,
                                       sizeof(uint32_t), (void **)&seen));
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, g->value_count ? g->value_count : 1, 1,
                                       (void **)&row));
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    uint32_t grp = r->group_of_node[n];
    if (grp == UINT32_MAX) continue;
    for (uint32_t i = 0; i < node->operand_count; ++i) {
      uint32_t v = met_graph_root(g, g->operands[node->operand_begin + i]);
      uint8_t role = g->values[v].role;
      bool splat_global = role == MET_ROLE_SPLAT && met_budget_splat_read(t, node, i);
      int32_t p = g->values[v].producer;
      bool derived = p >= 0 && r->hoisted && r->hoisted[p];  // a load-time result (NULL: none)
      if (!met_role_is_weight(role) && role != MET_ROLE_STATE && !splat_global && !derived)
        continue;
      if (!row[v]) { row[v] = 1; ++s->resident_resource_rows; }
      if (seen[v] != grp + 1) { seen[v] = grp + 1; ++s->resident_resource_handles; }
    }
  }
  if (t->dispatch.execution_model == MET_EXEC_MEGAKERNEL)
    s->resident_resource_handles = s->resident_resource_rows;
  return MET_OK;
}

// The roofline of every dispatch and the latency.
static met_status_t roofline(const met_graph_t *g, const met_budget_report_t *r,
                             const met_target_t *t, met_arena_t *arena,
                             met_dispatch_report_t *out) {
  const met_dispatch_params_t *p = &t->dispatch;
  bool mega = p->execution_model == MET_EXEC_MEGAKERNEL;
  out->row_count = r->group_count;
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, r->group_count ? r->group_count : 1,
                                       sizeof(met_dispatch_row_t), (void **)&out->rows));
  uint32_t *row_of;  // group -> row, rows in order of their first op
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, r->group_count ? r->group_count : 1,
                                       sizeof(uint32_t), (void **)&row_of));
  for (uint32_t k = 0; k < r->group_count; ++k) row_of[k] = UINT32_MAX;
  uint32_t next = 0;
  out->flops_complete = true;
  out->first_unknown = -1;
  for (size_t n = 0; n < g->node_count; ++n) {
    uint32_t grp = r->group_of_node[n];
    if (grp == UINT32_MAX || grp >= r->group_count) continue;
    if (row_of[grp] == UINT32_MAX) {
      row_of[grp] = next;
      met_dispatch_row_t *row = &out->rows[next++];
      row->group = grp;
      row->first_node = (uint32_t)n;
      row->bytes = r->group_bytes[grp];
      row->flops_complete = true;
    }
    met_dispatch_row_t *row = &out->rows[row_of[grp]];
    ++row->op_count;
    uint64_t f = g->flops ? g->flops[n] : 0;
    if (!g->flops || (g->nodes[n].flags & MET_NODE_F_FLOPS_UNKNOWN)) {
      row->flops_complete = false;
      out->flops_complete = false;
      ++out->flops_unknown;
      if (out->first_unknown < 0) out->first_unknown = (int32_t)n;
    }
    ADD(latency_ns, row->flops, f);
    ADD(latency_ns, out->flops, f);
  }
  out->row_count = next;
  met_dispatch_stats_t *s = &out->stats;
  for (size_t k = 0; k < out->row_count; ++k) {
    met_dispatch_row_t *row = &out->rows[k];
    uint64_t mem_ns, flop_ns;
    if (!time_ns(row->bytes, t->bandwidth_bytes_per_s, &mem_ns) ||
        !time_ns(row->flops, peak_for(g, &g->nodes[row->first_node], p), &flop_ns)) {
      out->overflow_field = MET_DISPATCH_FIELD_NAME(latency_ns);
      return MET_EOVERFLOW;
    }
    // Each kernel the dispatch launches pays the floor (a resolved call launches its
    // callee's dispatches; met_budget_report_t.group_launches).
    uint64_t floor = 0;
    row->launches = r->group_launches ? r->group_launches[row->group] : 1;
    if (!mega && !met_mul_u64(p->launch_floor_ns, row->launches, &floor)) {
      out->overflow_field = MET_DISPATCH_FIELD_NAME(latency_ns);
      return MET_EOVERFLOW;
    }
    uint64_t work = mem_ns > flop_ns ? mem_ns : flop_ns;
    row->bound = floor > work ? MET_BOUND_LAUNCH
                 : flop_ns > mem_ns ? MET_BOUND_COMPUTE : MET_BOUND_MEMORY;
    row->latency_ns = work;
    ADD(latency_ns, row->latency_ns, floor);
    ADD(latency_ns, s->latency_ns, row->latency_ns);
  }
  if (mega && out->row_count) ADD(latency_ns, s->latency_ns, p->launch_floor_ns);
  if (p->offload) {
    uint64_t link_ns;
    if (!time_ns(s->bytes_moved, p->host_link_bytes_per_s, &link_ns)) {
      out->overflow_field = MET_DISPATCH_FIELD_NAME(latency_ns);
      return MET_EOVERFLOW;
    }
    ADD(latency_ns, s->latency_ns, link_ns);
  }
  return MET_OK;
}

met_status_t met_dispatch_analyze(const met_graph_t *graph, const met_budget_report_t *report,
                                  const met_target_t *target, met_arena_t *arena,
                                  met_dispatch_report_t *out) {
  memset(out, 0, sizeof(*out));
  if (!report->group_bytes || !report->group_of_node || !report->off_fast_path)
    return MET_EINVAL;
  met_dispatch_stats_t *s = &out->stats;
  MET_RETURN_IF_ERROR(host_side(graph, report, target, out));
  MET_RETURN_IF_ERROR(allocations(graph, report, target, out));
  MET_RETURN_IF_ERROR(resident(graph, report, target, arena, out));
  s->kernel_launches = target->dispatch.execution_model == MET_EXEC_MEGAKERNEL
                           ? (report->budget.dispatches ? 1 : 0)
                           : report->budget.dispatches;
  MET_RETURN_IF_ERROR(roofline(graph, report, target, arena, out));
  s->recovered_after_device_loss = false;
  return met_dispatch_rates(s, &out->overflow_field);
}
