// budget_counts.c: the Budget's counters that are no part of fusion or planning: which
// nodes run at load time (budget.h, Load time), and host I/O, parameters, casts, the fast
// path and completeness (budget_fields.def). Internal to lib/ (budget_ctx.h); called by
// budget_analysis.c, and calls nothing of it.
#include "budget_ctx.h"

// Parameter-only nodes (budget.h, Load time): every operand a weight, a splat, a
// tensor.empty or the result of such a node, at least one a weight or such a result, and
// results no larger than the operands. On a target that hoists parameters they run once,
// at load time.
met_status_t met_budget_mark_hoisted(met_budget_ctx_t *c, uint8_t *hoisted) {
  const met_graph_t *g = c->g;
  uint8_t *param_value;  // per value (root): a weight or produced by a hoisted node
  MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, g->value_count ? g->value_count : 1, 1,
                                       (void **)&param_value));
  for (size_t v = 0; v < g->value_count; ++v) {
    uint8_t role = g->values[v].role;
    param_value[v] = met_role_is_weight(role) || role == MET_ROLE_EMPTY || role == MET_ROLE_SPLAT;
  }
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    const met_node_extra_t *x = met_graph_extra(g, node);
    if (node->kind != MET_NODE_COMPUTE || node->result_count == 0 ||
        (x && x->replaces_dispatch))
      continue;
    bool all = node->operand_count > 0, any_param = false;
    uint64_t in = 0, out_bytes = 0;
    for (uint32_t i = 0; i < node->operand_count && all; ++i) {
      uint32_t o = g->operands[node->operand_begin + i], r = c->root[o];
      all = param_value[r];
      if (g->values[r].role == MET_ROLE_EMPTY || g->values[r].role == MET_ROLE_SPLAT) continue;
      any_param = true;
      if (!met_add_u64(in, g->values[o].bytes, &in)) in = UINT64_MAX;
    }
    if (!all || !any_param) continue;
    for (uint32_t r = 0; r < node->result_count; ++r)
      if (!met_add_u64(out_bytes, g->values[node->result_begin + r].bytes, &out_bytes))
        out_bytes = UINT64_MAX;
    if (out_bytes > in) continue;  // expands: recomputed where it is used
    hoisted[n] = 1;
    for (uint32_t r = 0; r < node->result_count; ++r) param_value[node->result_begin + r] = 1;
  }
  return MET_OK;
}

met_status_t met_budget_count_simple(met_budget_ctx_t *c, const uint8_t *off,
                                     met_budget_report_t *out) {
  const met_graph_t *g = c->g;
  met_budget_t *b = &out->budget;
  uint8_t *splat_counted = NULL;  // per value: a splat global counted in param_bytes
  if (c->mlir)
    MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, g->value_count ? g->value_count : 1, 1,
                                         (void **)&splat_counted));
  // What a run reads as weights: weights, and load-time results, that an op of the run uses
  // (the uses compute_uses counts, less those of hoisted nodes).
  // Of a root, the run reads all of it when an op reads it whole, else the distinct views
  // it reads, summed, at most the root (|read| per root, |seen| per view).
  uint64_t *read;
  uint8_t *seen;
  size_t nv = g->value_count ? g->value_count : 1;
  MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, nv, sizeof(uint64_t), (void **)&read));
  MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, c->any_weight ? nv : 1, 1, (void **)&seen));
  for (size_t n = 0; c->any_weight && n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind == MET_NODE_VIEW || c->hoisted[n] ||
        (node->flags & (MET_NODE_F_DEALLOC | MET_NODE_F_METADATA)))
      continue;
    for (uint32_t i = 0; i < node->operand_count; ++i) {
      uint32_t o = g->operands[node->operand_begin + i], r = c->root[o];
      if (seen[o]) continue;
      seen[o] = 1;
      met_graph_add_read(g, o, r, &read[r]);
    }
  }
  for (size_t n = 0; n < g->node_count; ++n) b->load_time_dispatches += c->hoisted[n];
  for (size_t v = 0; v < g->value_count; ++v) {
    const met_value_t *val = &g->values[v];
    if (val->role == MET_ROLE_INPUT) ADD(b->host_io_bytes, val->bytes);
    bool derived = val->producer >= 0 && c->hoisted[val->producer];
    if ((met_role_is_weight(val->role) || derived) && c->root[v] == v)
      ADD(b->param_bytes, read[v]);
    if (derived && c->root[v] == v && read[v]) ADD(b->load_time_bytes, val->bytes);
    if (met_value_unbound(val)) out->complete = false;
    if (val->flags & MET_VALUE_F_UNRANKED) out->complete = false;
  }
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->flags & (MET_NODE_F_UNRANKED | MET_NODE_F_DYNAMIC | MET_NODE_F_NO_SIZE))
      out->complete = false;
    // A splat stored as a global (met_budget_splat_read) is stored data once.
    for (uint32_t i = 0; c->mlir && node->kind == MET_NODE_COMPUTE && i < node->operand_count;
         ++i) {
      uint32_t r = c->root[g->operands[node->operand_begin + i]];
      if (g->values[r].role != MET_ROLE_SPLAT || splat_counted[r] ||
          !met_budget_splat_read(c->t, node, i))
        continue;
      splat_counted[r] = 1;
      ADD(b->param_bytes, g->values[r].bytes);
    }
    if (node->kind == MET_NODE_RETURN)
      for (uint32_t i = 0; i < node->operand_count; ++i)
        ADD(b->host_io_bytes, g->values[g->operands[node->operand_begin + i]].bytes);
    if (node->kind != MET_NODE_COMPUTE) continue;
    const met_node_extra_t *x = met_graph_extra(g, node);
    if (x && x->replaces_dispatch) {
      ADD(b->cast_nodes, x->cast_nodes);
      ADD(b->param_bytes, x->param_bytes);
      ADD(b->off_fast_path_ops, x->off_fast_path_ops);
      ADD(b->off_fast_path_bytes, x->off_fast_path_bytes);
      continue;
    }
    if (c->hoisted[n]) continue;  // load time
    if (node->flags & MET_NODE_F_CAST) b->cast_nodes++;
    if (!off[n]) continue;
    b->off_fast_path_ops++;
    uint64_t bytes;
    if (!met_budget_off_path_bytes(g, node, &bytes, NULL)) {
      c->overflow_field = MET_BUDGET_FIELD_NAME(off_fast_path_bytes);
      return MET_EOVERFLOW;
    }
    ADD(b->off_fast_path_bytes, bytes);
  }
  return MET_OK;
}

bool met_budget_off_path_bytes(const met_graph_t *g, const met_node_t *node, uint64_t *out,
                               bool *of_buffers) {
  uint64_t sum = 0;
  for (uint32_t i = 0; i < node->result_count; ++i)
    if (!met_add_u64(sum, g->values[node->result_begin + i].bytes, &sum)) return false;
  if (of_buffers) *of_buffers = node->result_count == 0;
  if (node->result_count == 0)
    for (uint32_t i = 0; i < node->operand_count; ++i) {
      const met_value_t *val = &g->values[g->operands[node->operand_begin + i]];
      if ((val->flags & MET_VALUE_F_MEMREF) && !met_add_u64(sum, val->bytes, &sum)) return false;
    }
  *out = sum;
  return true;
}
