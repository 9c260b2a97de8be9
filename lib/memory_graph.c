// memory_graph.c: the per-function facts of the memory model (definitions in
// metrale/memory_graph.h). Linear passes over nodes and operands.
#include "metrale/memory_graph.h"

#include <string.h>

#include "metrale/checked.h"
#include "metrale/planner.h"


const char *met_family_name(met_family_t f) {
  switch (f) {
    case MET_FAMILY_MATMUL: return "matmul";
    case MET_FAMILY_CONV: return "conv";
    case MET_FAMILY_SOFTMAX: return "softmax";
    case MET_FAMILY_REDUCTION: return "reduction";
    default: return "?";
  }
}

// Per weight root: the bytes only hoisted nodes read (met_function_memory_t.replaced_bytes).
// What a set of nodes reads of a root: all of it when one reads the root itself, else the
// distinct views they read, summed (overlapping slices count twice), at most the root.
static met_status_t replaced(const met_graph_t *g, met_arena_t *arena, met_function_memory_t *out) {
  uint64_t *all, *run;  // per root: bytes read by any node, by nodes that are not hoisted
  uint8_t *seen;        // per view value: bit 0 counted in all, bit 1 in run
  size_t nv = g->value_count ? g->value_count : 1;
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, nv, sizeof(uint64_t), (void **)&all));
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, nv, sizeof(uint64_t), (void **)&run));
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, nv, 1, (void **)&seen));
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, nv, sizeof(uint64_t), (void **)&out->replaced_bytes));
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind == MET_NODE_VIEW || (node->flags & (MET_NODE_F_DEALLOC | MET_NODE_F_METADATA)))
      continue;
    for (uint32_t i = 0; i < node->operand_count; ++i) {
      uint32_t o = g->operands[node->operand_begin + i], r = met_graph_root(g, o);
      if (!met_role_is_weight(g->values[r].role)) continue;
      for (int k = 0; k < 2; ++k) {
        if (k == 1 && out->hoisted[n]) break;
        if (seen[o] & (1u << k)) continue;
        seen[o] |= (uint8_t)(1u << k);
        met_graph_add_read(g, o, r, k ? &run[r] : &all[r]);
      }
    }
  }
  for (size_t v = 0; v < g->value_count; ++v) out->replaced_bytes[v] = all[v] - run[v];
  return MET_OK;
}

// The run's side of hoisting: the Budget decided which nodes are parameter-only
// (met_budget_report_t.hoisted); here, the uses by the rest and what crosses to it.
static met_status_t hoist(const met_graph_t *g, const met_budget_report_t *report,
                          met_arena_t *arena, met_function_memory_t *out) {
  if (report->hoisted) memcpy(out->hoisted, report->hoisted, g->node_count);
  // Uses by nodes that are not hoisted, and what crosses from hoisted to the rest.
  uint8_t *counted;
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, g->value_count, 1, (void **)&counted));
  MET_RETURN_IF_ERROR(replaced(g, arena, out));
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind == MET_NODE_VIEW || out->hoisted[n]) continue;
    for (uint32_t i = 0; i < node->operand_count; ++i) {
      uint32_t r = met_graph_root(g, g->operands[node->operand_begin + i]);
      out->param_uses[r]++;
      int32_t p = g->values[r].producer;
      if (p >= 0 && out->hoisted[p] && !counted[r]) {
        counted[r] = 1;
        if (!met_add_u64(out->derived_bytes, g->values[r].bytes, &out->derived_bytes))
          return MET_EOVERFLOW;
      }
    }
  }
  return MET_OK;
}

// The peak of bufferized allocations: each allocated buffer lives from its alloc to its
// first deallocation (the end of the schedule when none), through the planner's sweep.
static met_status_t alloc_peak(const met_graph_t *g, met_arena_t *arena,
                               met_function_memory_t *out) {
  int32_t *freed_at;
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, g->value_count ? g->value_count : 1,
                                       sizeof(int32_t), (void **)&freed_at));
  for (size_t v = 0; v < g->value_count; ++v) freed_at[v] = -1;
  size_t nallocs = 0;
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind == MET_NODE_ALLOC) nallocs += node->result_count;
    if (!(node->flags & MET_NODE_F_DEALLOC)) continue;
    for (uint32_t i = 0; i < node->operand_count; ++i) {
      uint32_t r = met_graph_root(g, g->operands[node->operand_begin + i]);
      if (g->values[r].role == MET_ROLE_ALLOC && freed_at[r] < 0) freed_at[r] = node->position;
    }
  }
  if (!nallocs || !g->position_count) return MET_OK;
  out->bufferized = true;
  met_buffer_t *bufs;
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, nallocs, sizeof(met_buffer_t), (void **)&bufs));
  size_t k = 0;
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind != MET_NODE_ALLOC) continue;
    for (uint32_t r = 0; r < node->result_count; ++r) {
      uint32_t v = node->result_begin + r;
      int32_t last = freed_at[v] >= node->position ? freed_at[v]
                                                    : (int32_t)g->position_count - 1;
      bufs[k++] = (met_buffer_t){g->values[v].bytes, node->position, last};
    }
  }
  return met_planner_peak_live(bufs, k, g->position_count, arena, &out->allocated_peak);
}

static met_status_t workspace(const met_graph_t *g, const met_target_t *t,
                              met_function_memory_t *out) {
  const met_workspace_rules_t *w = &t->workspace;
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind != MET_NODE_COMPUTE || out->hoisted[n]) continue;
    met_family_t f;
    uint64_t bytes = 0;
    if (node->op_class == MET_CLASS_MATMUL) {
      f = MET_FAMILY_MATMUL;
      if (!met_mul_u64(t->compute_units, w->matmul_per_unit_bytes, &bytes)) return MET_EOVERFLOW;
    } else if (node->op_class == MET_CLASS_CONV) {
      f = MET_FAMILY_CONV;
      if (!w->conv_stages_operand) continue;
      for (uint32_t i = 0; i < node->operand_count; ++i) {
        const met_value_t *v = &g->values[g->operands[node->operand_begin + i]];
        if (v->role == MET_ROLE_EMPTY) continue;
        if ((v->flags & MET_VALUE_F_UNRANKED) ||
            met_value_unbound(v)) {
          if (out->unsized_node < 0) out->unsized_node = (int32_t)n;
          continue;
        }
        if (v->bytes > bytes) bytes = v->bytes;
      }
    } else if (node->flags & MET_NODE_F_SOFTMAX) {
      f = MET_FAMILY_SOFTMAX;
      if (!met_mul_u64(t->compute_units, w->softmax_per_unit_bytes, &bytes)) return MET_EOVERFLOW;
    } else if (node->op_class == MET_CLASS_REDUCTION) {
      f = MET_FAMILY_REDUCTION;
      if (!met_mul_u64(t->compute_units, w->reduction_per_unit_bytes, &bytes)) return MET_EOVERFLOW;
    } else {
      continue;
    }
    if (out->family_node[f] < 0 || bytes > out->family_bytes[f]) {
      out->family_bytes[f] = bytes;
      out->family_node[f] = (int32_t)n;
    }
  }
  return MET_OK;
}

// Re-plans the slots that stay in the run and finds the position of their peak.
static met_status_t run_plan(const met_graph_t *g, const met_budget_report_t *r,
                             const met_plan_limits_t *limits, met_arena_t *arena,
                             met_function_memory_t *out) {
  out->peak_position = -1;
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, r->slot_count ? r->slot_count : 1, 1,
                                       (void **)&out->slot_kept));
  met_buffer_t *bufs;
  uint64_t *offsets;
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, r->slot_count ? r->slot_count : 1,
                                       sizeof(met_buffer_t), (void **)&bufs));
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, r->slot_count ? r->slot_count : 1, sizeof(uint64_t),
                                       (void **)&offsets));
  size_t n = 0;
  for (size_t s = 0; s < r->slot_count; ++s) {
    if (out->hoisted[r->slots[s].node]) continue;
    out->slot_kept[s] = 1;
    bufs[n++] = (met_buffer_t){r->slots[s].bytes, r->slots[s].first, r->slots[s].last};
  }
  if (!n) return MET_OK;
  // Nothing hoisted: the run plans exactly the Budget's slots, as the Budget did (same
  // buffers in the same order, the best strategy, the same limits): its arena is the
  // Budget's.
  if (n == r->slot_count) {
    out->run_arena = r->budget.arena_bytes;
  } else {
    met_plan_outcome_t po;
    MET_RETURN_IF_ERROR(met_planner_solve(bufs, n, g->position_count, MET_PLAN_BEST, 0, limits,
                                          arena, offsets, &po));
    out->run_arena = po.arena_bytes;
  }
  uint64_t peak;
  return met_planner_peak_live_at(bufs, n, g->position_count, arena, &peak, &out->peak_position);
}

met_status_t met_memory_function(const met_graph_t *graph, const met_budget_report_t *report,
                                 const met_target_t *target, const met_plan_limits_t *limits,
                                 met_arena_t *arena, met_function_memory_t *out) {
  memset(out, 0, sizeof(*out));
  out->unsized_node = -1;
  for (int f = 0; f < MET_FAMILY_COUNT; ++f) out->family_node[f] = -1;
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, graph->node_count, 1, (void **)&out->hoisted));
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, graph->value_count, sizeof(uint32_t),
                                       (void **)&out->param_uses));
  if (target->hoists_parameters) MET_RETURN_IF_ERROR(hoist(graph, report, arena, out));
  else
    for (size_t v = 0; v < graph->value_count; ++v) out->param_uses[v] = report->use_count[v];
  MET_RETURN_IF_ERROR(alloc_peak(graph, arena, out));
  MET_RETURN_IF_ERROR(workspace(graph, target, out));
  MET_RETURN_IF_ERROR(run_plan(graph, report, limits, arena, out));
  // Fully bufferized when it allocates and every slot is one of its allocations.
  for (size_t k = 0; k < report->slot_count && out->bufferized; ++k)
    // Scratch (a loop body's or a callee's allocations) is not in the allocation peak,
    // which counts top-level allocations: such a run is charged its plan.
    if (report->slots[k].value == MET_SLOT_SCRATCH ||
        graph->values[report->slots[k].value].role != MET_ROLE_ALLOC)
      out->bufferized = false;
  return MET_OK;
}
