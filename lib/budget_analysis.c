// budget_analysis.c: the Budget analysis (met_budget_analyze): uses and lifetimes, the
// fusion model (lib/fusion.c, lib/fusion_mlir.c), materialization, slots, the planner,
// and the counters of met_budget_t (definitions in budget.h). It calls the counting of
// budget_counts.c, below it, which calls nothing of this file (budget_ctx.h is the state
// both read).
//
// Every pass over the graph is linear in nodes + operands + values; the planner dominates.
// All sums are checked: a graph whose byte counts pass 2^64 gets MET_EOVERFLOW.
#include "metrale/budget.h"

#include <stddef.h>
#include <string.h>

#include "budget_ctx.h"

static met_status_t compute_uses(met_budget_ctx_t *c, uint32_t *uses) {
  const met_graph_t *g = c->g;
  for (size_t v = 0; v < g->value_count; ++v) {
    int32_t a = g->values[v].alias;
    if (a >= (int32_t)v) return MET_EINVAL;
    c->root[v] = a >= 0 ? c->root[a] : (uint32_t)v;
    c->last_use[v] = -1;
  }
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind == MET_NODE_VIEW || (node->flags & (MET_NODE_F_DEALLOC | MET_NODE_F_METADATA)))
      continue;
    if ((size_t)node->operand_begin + node->operand_count > g->operand_count)
      return MET_EINVAL;
    for (uint32_t i = 0; i < node->operand_count; ++i) {
      uint32_t o = g->operands[node->operand_begin + i];
      if (o >= g->value_count) return MET_EINVAL;
      uint32_t r = c->root[o];
      uses[r]++;
      if (node->position > c->last_use[r]) c->last_use[r] = node->position;
      if (node->kind == MET_NODE_RETURN) c->returned[r] = 1;
    }
  }
  return MET_OK;
}

static void mark_materialized(met_budget_ctx_t *c, const uint32_t *group_of) {
  const met_graph_t *g = c->g;
  for (size_t v = 0; v < g->value_count; ++v)
    c->mat[v] = g->values[v].role == MET_ROLE_ALLOC && c->root[v] == v;
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind == MET_NODE_VIEW) continue;
    for (uint32_t i = 0; i < node->operand_count; ++i) {
      uint32_t r = c->root[g->operands[node->operand_begin + i]];
      uint32_t pg = met_budget_producer_group(c, group_of, r);
      if (pg == UINT32_MAX) continue;
      if (node->kind != MET_NODE_COMPUTE || group_of[n] != pg) c->mat[r] = 1;
    }
  }
}

static met_status_t count_dram_in(met_budget_ctx_t *c, const uint32_t *group_of, met_arena_t *da,
                                  uint64_t *group_bytes, uint64_t *out) {
  const met_graph_t *g = c->g;
  met_width_policy_t pol = c->t->width_policy;
  uint32_t *start, *members, *mark;
  MET_RETURN_IF_ERROR(met_arena_calloc(da, (size_t)c->ngroups + 1, sizeof(uint32_t),
                                       (void **)&start));
  MET_RETURN_IF_ERROR(met_arena_calloc(da, g->node_count, sizeof(uint32_t), (void **)&members));
  MET_RETURN_IF_ERROR(met_arena_calloc(da, g->value_count, sizeof(uint32_t), (void **)&mark));
  for (size_t n = 0; n < g->node_count; ++n)
    if (group_of[n] != UINT32_MAX) start[group_of[n] + 1]++;
  for (uint32_t k = 0; k < c->ngroups; ++k) start[k + 1] += start[k];
  for (size_t n = 0; n < g->node_count; ++n) {
    if (group_of[n] != UINT32_MAX) members[start[group_of[n]]++] = (uint32_t)n;
  }
  for (uint32_t k = c->ngroups; k > 0; --k) start[k] = start[k - 1];
  start[0] = 0;
  for (size_t v = 0; v < g->value_count; ++v) mark[v] = UINT32_MAX;
  uint64_t dram = 0;
  for (uint32_t grp = 0; grp < c->ngroups; ++grp) {
    uint64_t before = dram;
    for (uint32_t m = start[grp]; m < start[grp + 1]; ++m) {
      const met_node_t *node = &g->nodes[members[m]];
      const met_node_extra_t *x = met_graph_extra(g, node);
      if (x && x->replaces_dispatch) {  // a call: the callee's own traffic
        ADD_FIELD(c, dram_bytes, dram, x->dram_bytes);
        continue;
      }
      for (uint32_t i = 0; i < node->operand_count; ++i) {
        // Read what the operand itself covers: through a slice view, only the slice.
        uint32_t o = g->operands[node->operand_begin + i];
        uint32_t r = c->root[o];
        met_access_t acc = met_graph_operand_access(g, node->operand_begin + i);
        if (acc != MET_ACCESS_READ)  // a buffer it writes: what the operand covers
          ADD_FIELD(c, dram_bytes, dram, met_budget_policy_bytes(&g->values[o], pol));
        if (acc == MET_ACCESS_WRITE) continue;
        if (g->values[r].role == MET_ROLE_EMPTY) continue;
        if (g->values[r].role == MET_ROLE_SPLAT && !met_budget_splat_read(c->t, node, i))
          continue;
        if (g->values[r].producer >= 0 && c->cloned[g->values[r].producer]) continue;  // filled here
        if (met_budget_producer_group(c, group_of, r) == grp || mark[o] == grp) continue;
        mark[o] = grp;
        uint64_t rd = met_budget_policy_bytes(&g->values[o], pol);
        uint64_t bound = met_graph_operand_bound(g, node->operand_begin + i);
        if (bound || (i == 0 && (node->flags & MET_NODE_F_GATHER) && node->result_count == 1)) {
          // The rows the indices select: the result's bytes (an upper bound, tight
          // unless indices repeat), or the loads of a generic (graph.h, operand_bound,
          // scaled as the table's bytes are under the width policy), never more than the
          // table.
          uint64_t rows = met_budget_policy_bytes(&g->values[node->result_begin], pol);
          uint64_t native = g->values[o].bytes;
          if (bound)
            rows = native ? (uint64_t)((unsigned __int128)bound * rd / native) : rd;
          if (rows < rd) rd = rows;
          mark[o] = UINT32_MAX;  // another read of the table is a read of its own
        }
        ADD_FIELD(c, dram_bytes, dram, rd);
      }
      if (c->tfjs && (node->flags & MET_NODE_F_SOFTMAX) && node->operand_count > 0) {
        // TF.js's five programs beyond one pass: x read again (sub), x - max written and
        // read (exp), its exp written and read twice (sum, div): 6 x the input's bytes.
        // The row vectors (max, sum) are left out.
        uint64_t x6, in = met_budget_policy_bytes(&g->values[g->operands[node->operand_begin]], pol);
        if (!met_mul_u64(in, 6, &x6)) {
          c->overflow_field = MET_BUDGET_FIELD_NAME(dram_bytes);
          return MET_EOVERFLOW;
        }
        ADD_FIELD(c, dram_bytes, dram, x6);
      }
      for (uint32_t i = 0; i < node->result_count; ++i) {
        uint32_t v = node->result_begin + i;
        if (c->mat[v] || (c->inplace && c->inplace[v]))
          ADD_FIELD(c, dram_bytes, dram, met_budget_policy_bytes(&g->values[v], pol));
      }
    }
    if (group_bytes) group_bytes[grp] = dram - before;
  }
  *out = dram;
  return MET_OK;
}

// count_dram_in with its member lists released from the scratch arena when it returns.
static met_status_t count_dram(met_budget_ctx_t *c, const uint32_t *group_of, met_budget_report_t *r) {
  r->group_count = c->ngroups;
  if (c->per_group)
    MET_RETURN_IF_ERROR(met_arena_calloc(c->arena, c->ngroups ? c->ngroups : 1, sizeof(uint64_t),
                                         (void **)&r->group_bytes));
  met_arena_mark_t m = met_arena_mark(&c->tmp);
  met_status_t st = count_dram_in(c, group_of, &c->tmp, r->group_bytes, &r->budget.dram_bytes);
  met_arena_release_to(&c->tmp, m);
  return st;
}


// Plans |buf| (met_planner_solve: the greedy orders, then with MET_PLAN_BEST the exact
// search within the options' limits) with the planner's lists released from the scratch
// arena when it returns, so the next plan reuses the memory. |bound|: the sum-of-live
// lower bound when known, else 0 (computed there).
static met_status_t solve_scoped(met_budget_ctx_t *c, const met_buffer_t *buf, size_t n,
                                 const met_budget_options_t *opt, uint64_t bound, uint64_t *off,
                                 met_plan_outcome_t *out) {
  met_arena_mark_t m = met_arena_mark(&c->tmp);
  met_status_t st = met_planner_solve(buf, n, c->g->position_count, opt->strategy, bound,
                                      &opt->plan_limits, &c->tmp, off, out);
  met_arena_release_to(&c->tmp, m);
  return st;
}

// A dispatch runs as one kernel, once its inputs are ready: at its last member's
// position. What it writes is live from there, and what it reads until there. Per group
// (|*glast|), that position; per value (|*uselast|), the last position of the last
// dispatch that reads it (a read outside any group: its own position).
static met_status_t dispatch_times(met_budget_ctx_t *c, const uint32_t *group_of,
                                   int32_t **glast_out, int32_t **uselast_out) {
  const met_graph_t *g = c->g;
  int32_t *glast, *uselast;
  MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, c->ngroups ? c->ngroups : 1, sizeof(int32_t),
                                       (void **)&glast));
  MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, g->value_count ? g->value_count : 1,
                                       sizeof(int32_t), (void **)&uselast));
  for (uint32_t k = 0; k < c->ngroups; ++k) glast[k] = -1;
  for (size_t n = 0; n < g->node_count; ++n) {
    uint32_t k = group_of[n];
    if (k != UINT32_MAX && g->nodes[n].position > glast[k]) glast[k] = g->nodes[n].position;
  }
  for (size_t v = 0; v < g->value_count; ++v) uselast[v] = c->last_use[v];
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    uint32_t k = group_of[n];
    if (k == UINT32_MAX || node->kind == MET_NODE_VIEW) continue;
    for (uint32_t i = 0; i < node->operand_count; ++i) {
      uint32_t r = c->root[g->operands[node->operand_begin + i]];
      if (c->home) r = c->home[r];  // written in place: the buffer that holds it
      if (glast[k] > uselast[r]) uselast[r] = glast[k];
    }
  }
  *glast_out = glast;
  *uselast_out = uselast;
  return MET_OK;
}

// Which results (the first 64) the lowering leaves unpadded, and which are buffers a
// region allocated (met_budget_report_t.unpadded_results, inner_results).
static void result_flags(met_budget_ctx_t *c, met_budget_report_t *out) {
  const met_graph_t *g = c->g;
  out->unpadded_results = out->inner_results = 0;
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind != MET_NODE_RETURN) continue;
    for (uint32_t i = 0; i < node->operand_count && i < 64; ++i) {
      uint16_t f = g->values[c->root[g->operands[node->operand_begin + i]]].flags;
      if (f & MET_VALUE_F_NO_PAD) out->unpadded_results |= 1ull << i;
      if (f & MET_VALUE_F_INNER) out->inner_results |= 1ull << i;
    }
  }
}

static met_status_t plan_slots(met_budget_ctx_t *c, const met_budget_options_t *opt,
                               met_budget_report_t *out) {
  const met_graph_t *g = c->g;
  met_budget_t *b = &out->budget;
  uint64_t align = c->t->alignment ? c->t->alignment : 1;
  bool per_buffer = c->t->dispatch.allocation_model == MET_ALLOC_PER_BUFFER;
  uint64_t pad = c->t->dispatch.allocation_padding_bytes;
  size_t ns = 0;
  for (size_t v = 0; v < g->value_count; ++v) ns += c->mat[v];
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_extra_t *x = met_graph_extra(g, &g->nodes[n]);
    ns += x && !c->hoisted[n] && met_budget_temp_bytes(x, c->mlir, false) > 0;
  }
  met_buffer_t *buf;
  uint64_t *off, *native = NULL;  // native: aligned native bytes, when they differ
  MET_RETURN_IF_ERROR(met_arena_calloc(c->arena, ns, sizeof(met_slot_t), (void **)&out->slots));
  MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, ns, sizeof(met_buffer_t), (void **)&buf));
  MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, ns, sizeof(uint64_t), (void **)&off));
  uint32_t last_pos = g->position_count ? g->position_count - 1 : 0;
  size_t s = 0;
  const uint32_t *group_of = out->group_of_node;
  int32_t *glast, *uselast;
  MET_RETURN_IF_ERROR(dispatch_times(c, group_of, &glast, &uselast));
  for (size_t v = 0; v < g->value_count; ++v) {
    if (!c->mat[v]) continue;
    const met_value_t *val = &g->values[v];
    int32_t first = g->nodes[val->producer].position;
    uint32_t pk = group_of[val->producer];
    if (pk != UINT32_MAX) first = glast[pk];
    int32_t last = c->returned[v] ? (int32_t)last_pos : uselast[v];
    if (last < first) last = first;
    uint64_t pb, nb;
    if (!met_align_up_u64(met_budget_policy_bytes(val, c->t->width_policy), align, &pb) ||
        !met_align_up_u64(val->bytes, align, &nb)) {
      c->overflow_field = MET_BUDGET_FIELD_NAME(materialized_bytes);
      return MET_EOVERFLOW;
    }
    if (pb != nb && !native)
      MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, ns, sizeof(uint64_t), (void **)&native));
    if (native) native[s] = nb;
    if (!c->returned[v] && !(val->flags & (MET_VALUE_F_INNER | MET_VALUE_F_STACK))) {
      ++out->inner_buffers;
      uint64_t vpad = per_buffer && !(val->flags & MET_VALUE_F_NO_PAD) ? pad : 0;
      if (!met_add_u64(out->inner_buffer_bytes, val->bytes, &out->inner_buffer_bytes) ||
          !met_add_u64(out->inner_buffer_bytes, vpad, &out->inner_buffer_bytes)) {
        c->overflow_field = MET_BUDGET_FIELD_NAME(materialized_bytes);
        return MET_EOVERFLOW;
      }
    }
    buf[s] = (met_buffer_t){pb, first, last};
    out->slots[s] = (met_slot_t){(uint32_t)v, val->producer, pb, first, last, 0};
    ADD(b->materialized_bytes, pb);
    ++s;
  }
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    const met_node_extra_t *x = met_graph_extra(g, node);
    uint64_t tb = x && !c->hoisted[n] ? met_budget_temp_bytes(x, c->mlir, false) : 0;
    if (!tb) continue;
    uint64_t pb, nb;
    if (!met_align_up_u64(tb, align, &pb) ||
        !met_align_up_u64(met_budget_temp_bytes(x, c->mlir, true), align, &nb)) {
      c->overflow_field = MET_BUDGET_FIELD_NAME(materialized_bytes);
      return MET_EOVERFLOW;
    }
    if (pb != nb && !native)
      MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, ns, sizeof(uint64_t), (void **)&native));
    if (native) native[s] = nb;
    // A call's scratch is its callee's own buffers; a region's is one buffer, and so is
    // a lowering's temporary (they add up when an op has both).
    uint64_t nbuf = x->replaces_dispatch ? x->callee_buffers
                    : (uint64_t)(x->scratch_bytes > 0) + (c->mlir ? x->lowering_buffers : 0);
    uint64_t nbytes = x->replaces_dispatch ? x->callee_buffer_bytes  // padded already
                                           : met_budget_temp_bytes(x, c->mlir, true);
    uint64_t npad = 0;
    if (!x->replaces_dispatch && per_buffer && !met_mul_u64(nbuf, pad, &npad)) npad = UINT64_MAX;
    if (!met_add_u64(out->inner_buffers, nbuf, &out->inner_buffers) ||
        !met_add_u64(out->inner_buffer_bytes, nbytes, &out->inner_buffer_bytes) ||
        !met_add_u64(out->inner_buffer_bytes, npad, &out->inner_buffer_bytes)) {
      c->overflow_field = MET_BUDGET_FIELD_NAME(materialized_bytes);
      return MET_EOVERFLOW;
    }
    buf[s] = (met_buffer_t){pb, node->position, node->position};
    out->slots[s] = (met_slot_t){MET_SLOT_SCRATCH, (int32_t)n, pb, node->position, node->position, 0};
    ADD(b->materialized_bytes, pb);
    ++s;
  }
  out->slot_count = ns;
  c->overflow_field = MET_BUDGET_FIELD_NAME(peak_live_bytes);
  MET_RETURN_IF_ERROR(met_planner_peak_live(buf, ns, g->position_count, &c->tmp,
                                            &b->peak_live_bytes));
  c->overflow_field = MET_BUDGET_FIELD_NAME(arena_bytes);
  met_plan_outcome_t po;
  MET_RETURN_IF_ERROR(solve_scoped(c, buf, ns, opt, b->peak_live_bytes, off, &po));
  b->arena_bytes = po.arena_bytes;
  b->plan = po.proof;
  b->arena_bound_bytes = po.lower_bound;
  b->arena_gap_bytes = po.arena_bytes - po.lower_bound;
  out->plan_nodes = po.nodes;
  out->plan_stopped = po.stopped;
  for (s = 0; s < ns; ++s) out->slots[s].offset = off[s];
  b->reuse_saved_bytes = b->materialized_bytes - b->arena_bytes;
  MET_RETURN_IF_ERROR(met_budget_alloc_peak(c, out));
  result_flags(c, out);
  if (native) {
    // The same slots at native widths: slots before the first widened one kept their
    // policy bytes, which were their native bytes. The plan's offsets are in the slots.
    bool seen = false;
    for (s = 0; s < ns; ++s) {
      seen = seen || native[s] != 0;
      if (seen) buf[s].bytes = native[s];
    }
    MET_RETURN_IF_ERROR(solve_scoped(c, buf, ns, opt, 0, off, &po));
    uint64_t native_arena = po.arena_bytes;
    b->width_overhead_bytes = b->arena_bytes > native_arena ? b->arena_bytes - native_arena : 0;
  }
  return MET_OK;
}

// IREE's splats (above): each group whose every member is a linalg.fill of a tensor.empty
// that no compute node reads (returned, or read through a view only) launches 0.
static met_status_t iree_splat_groups(met_budget_ctx_t *c, met_arena_t *tmp,
                                      const uint32_t *group_of, uint64_t *launches) {
  const met_graph_t *g = c->g;
  uint8_t *other, *computed;  // per group: a member that is no such fill; per value: read
  MET_RETURN_IF_ERROR(met_arena_calloc(tmp, c->ngroups ? c->ngroups : 1, 1, (void **)&other));
  MET_RETURN_IF_ERROR(met_arena_calloc(tmp, g->value_count ? g->value_count : 1, 1,
                                       (void **)&computed));
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind != MET_NODE_COMPUTE) continue;
    for (uint32_t i = 0; i < node->operand_count; ++i)
      computed[c->root[g->operands[node->operand_begin + i]]] = 1;
  }
  for (size_t n = 0; n < g->node_count; ++n) {
    uint32_t grp = group_of[n];
    if (grp == UINT32_MAX) continue;
    const met_node_t *node = &g->nodes[n];
    const met_node_extra_t *x = met_graph_extra(g, node);
    bool splat = !strcmp(node->name, "linalg.fill") && !(x && x->replaces_dispatch) &&
                 node->operand_count > 0 &&
                 node->result_count == 1 && !computed[node->result_begin] &&
                 g->values[c->root[g->operands[node->operand_begin + node->operand_count - 1]]].role ==
                     MET_ROLE_EMPTY;
    if (!splat) other[grp] = 1;
  }
  for (uint32_t k = 0; k < c->ngroups; ++k)
    if (!other[k]) launches[k] = 0;
  return MET_OK;
}

static met_status_t fuse(met_budget_ctx_t *c, met_arena_t *fa, met_budget_report_t *out);

static met_status_t analyze(met_budget_ctx_t *c, const met_budget_options_t *options,
                            met_budget_report_t *out) {
  const met_graph_t *graph = c->g;
  met_arena_t *arena = c->arena, *tmp = &c->tmp;
  size_t nv = graph->value_count, nn = graph->node_count;
  MET_RETURN_IF_ERROR(met_arena_calloc(tmp, nv, sizeof(uint32_t), (void **)&c->root));
  MET_RETURN_IF_ERROR(met_arena_calloc(tmp, nv, sizeof(int32_t), (void **)&c->last_use));
  MET_RETURN_IF_ERROR(met_arena_calloc(tmp, nv, 1, (void **)&c->returned));
  MET_RETURN_IF_ERROR(met_arena_calloc(tmp, nv, 1, (void **)&c->mat));
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, nv, sizeof(uint32_t), (void **)&out->use_count));
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, nn, sizeof(uint32_t), (void **)&out->group_of_node));
  MET_RETURN_IF_ERROR(met_arena_calloc(arena, nn, 1, (void **)&out->off_fast_path));
  MET_RETURN_IF_ERROR(met_arena_calloc(tmp, nn, sizeof(uint32_t), (void **)&c->parent));
  MET_RETURN_IF_ERROR(compute_uses(c, out->use_count));
  // The analysis reads |hoisted| for every node; the report keeps it only when a node is
  // hoisted (most functions have none: NULL, which costs a small function nothing).
  uint8_t *hoisted;
  MET_RETURN_IF_ERROR(met_arena_calloc(tmp, nn ? nn : 1, 1, (void **)&hoisted));
  for (size_t v = 0; v < nv && !c->any_weight; ++v)
    c->any_weight = met_role_is_weight(graph->values[v].role);
  // Without a weight nothing is parameter-only, and a run reads no weight.
  if (c->t->hoists_parameters && c->any_weight) MET_RETURN_IF_ERROR(met_budget_mark_hoisted(c, hoisted));
  c->hoisted = hoisted;
  for (size_t n = 0; n < nn && !out->hoisted; ++n)
    if (hoisted[n]) {
      MET_RETURN_IF_ERROR(met_arena_calloc(arena, nn, 1, (void **)&out->hoisted));
      memcpy(out->hoisted, hoisted, nn);
    }
  MET_RETURN_IF_ERROR(met_arena_calloc(tmp, nn ? nn : 1, 1, (void **)&c->cloned));
  // Fusion's own arrays are released before the planner runs: the analysis' peak is its
  // smallest when what is dead is gone.
  met_arena_mark_t fm = met_arena_mark(tmp);
  met_status_t st = fuse(c, tmp, out);
  met_arena_release_to(tmp, fm);
  c->gkind = NULL;
  c->gclone = NULL;
  c->gread = NULL;
  c->gstage = NULL;
  c->gloops = NULL;
  c->groot = NULL;
  c->gsealed = NULL;
  c->gunpack = NULL;
  c->gopen = NULL;
  MET_RETURN_IF_ERROR(st);
  mark_materialized(c, out->group_of_node);
  // The kernels each dispatch launches: 1, or a resolved call's callee dispatches; on
  // MET_FUSION_MLIR also the lowering's own kernels (met_node_extra_t.lowering_kernels)
  // and the copies of read-only inits. Their sum is the Budget's dispatches.
  // The report keeps them only when one is not 1 (NULL: every group launches 1).
  uint64_t *launches;
  MET_RETURN_IF_ERROR(met_arena_calloc(tmp, c->ngroups ? c->ngroups : 1, sizeof(uint64_t),
                                       (void **)&launches));
  for (uint32_t k = 0; k < c->ngroups; ++k) launches[k] = 1;
  // IREE: a fill of a tensor.empty that no kernel reads (returned) is a flow.tensor.splat
  // (ConvertTensorToFlow): a transfer that writes its buffer, no kernel. Its group
  // launches nothing.
  if (c->iree) MET_RETURN_IF_ERROR(iree_splat_groups(c, tmp, out->group_of_node, launches));
  for (size_t n = 0; n < nn; ++n) {
    const met_node_extra_t *x = met_graph_extra(graph, &graph->nodes[n]);
    uint32_t grp = out->group_of_node[n];
    // TF.js's Softmax kernel runs five programs: max, sub, exp, sum, div.
    if (c->tfjs && grp != UINT32_MAX && (graph->nodes[n].flags & MET_NODE_F_SOFTMAX))
      launches[grp] = 5;
    if (!x || grp == UINT32_MAX || graph->nodes[n].kind != MET_NODE_COMPUTE) continue;
    uint64_t *l = &launches[grp];
    if (x->replaces_dispatch) *l = x->dispatches;
    else if (c->mlir) ADD_FIELD(c, dispatches, *l, x->lowering_kernels);
  }
  if (c->mlir)
    MET_RETURN_IF_ERROR(met_fusion_mlir_bufferize(c, out->use_count, out->group_of_node,
                                                  launches));
  bool all_one = true;
  for (uint32_t k = 0; k < c->ngroups; ++k) {
    ADD_FIELD(c, dispatches, out->budget.dispatches, launches[k]);
    all_one &= launches[k] == 1;
  }
  if (!all_one) {
    MET_RETURN_IF_ERROR(met_arena_calloc(arena, c->ngroups, sizeof(uint64_t),
                                         (void **)&out->group_launches));
    memcpy(out->group_launches, launches, c->ngroups * sizeof(uint64_t));
  }
  out->flops_complete = graph->flops != NULL;
  for (size_t n = 0; graph->flops && n < nn; ++n) {
    if (graph->nodes[n].kind != MET_NODE_COMPUTE || c->hoisted[n]) continue;
    if (graph->nodes[n].flags & MET_NODE_F_FLOPS_UNKNOWN) out->flops_complete = false;
    if (!met_add_u64(out->flops, graph->flops[n], &out->flops)) {
      out->overflow_field = MET_BUDGET_REPORT_NAME(flops);
      return MET_EOVERFLOW;
    }
  }
  st = met_budget_count_simple(c, out->off_fast_path, out);
  if (!st) st = count_dram(c, out->group_of_node, out);
  if (!st) st = plan_slots(c, options, out);
  if (st == MET_EOVERFLOW) out->overflow_field = c->overflow_field;
  return st;
}

// Which nodes are off the fast path, which neither join nor take in (those off it, and
// resolved calls: a call is a group of its own whose callee's dispatches replace its
// one), then the fusion plan. Its arrays come from |fa|.
static met_status_t fuse(met_budget_ctx_t *c, met_arena_t *fa, met_budget_report_t *out) {
  const met_graph_t *graph = c->g;
  const met_target_t *target = c->t;
  size_t nn = graph->node_count;
  MET_RETURN_IF_ERROR(met_arena_calloc(fa, nn, 1, (void **)&c->gkind));
  MET_RETURN_IF_ERROR(met_arena_calloc(fa, nn ? nn : 1, 1, (void **)&c->gclone));
  MET_RETURN_IF_ERROR(met_arena_calloc(fa, nn ? nn : 1, 1, (void **)&c->gread));
  MET_RETURN_IF_ERROR(met_arena_calloc(fa, nn ? nn : 1, 1, (void **)&c->gstage));
  MET_RETURN_IF_ERROR(met_arena_calloc(fa, nn ? nn : 1, 1, (void **)&c->gloops));
  MET_RETURN_IF_ERROR(met_arena_calloc(fa, nn ? nn : 1, 1, (void **)&c->groot));
  MET_RETURN_IF_ERROR(met_arena_calloc(fa, nn ? nn : 1, 1, (void **)&c->gsealed));
  MET_RETURN_IF_ERROR(met_arena_calloc(fa, nn ? nn : 1, 1, (void **)&c->gunpack));
  MET_RETURN_IF_ERROR(met_arena_calloc(fa, nn, sizeof(uint64_t), (void **)&c->gopen));
  uint8_t *alone;
  MET_RETURN_IF_ERROR(met_arena_calloc(fa, nn, 1, (void **)&alone));
  // Nodes of one op share its interned name: the fast-path match is made once per name
  // (a direct-mapped cache; the matcher compares strings against every pattern).
  struct { const char *name; bool fast; } seen[32];
  memset(seen, 0, sizeof(seen));
  for (size_t n = 0; n < nn; ++n) {
    const met_node_t *node = &graph->nodes[n];
    const met_node_extra_t *x = met_graph_extra(graph, node);
    bool call = x && x->replaces_dispatch;
    if (call && node->kind != MET_NODE_COMPUTE) return MET_EINVAL;
    if (node->kind != MET_NODE_COMPUTE || c->hoisted[n]) continue;  // load time: no part of a run
    if (call) {
      alone[n] = 1;
      continue;
    }
    // What the backend runs: the op, or the computation it is (met_node_extra_t).
    const char *what = x && x->computation ? x->computation : node->name;
    size_t h = ((uintptr_t)what >> 4) & 31;
    if (seen[h].name != what) {
      seen[h].name = what;
      seen[h].fast = met_target_is_fast(target, what);
    }
    out->off_fast_path[n] = node->op_class == MET_CLASS_UNKNOWN ||
                            (node->flags & (MET_NODE_F_UNREGISTERED | MET_NODE_F_UNRANKED)) ||
                            !seen[h].fast;
    alone[n] = out->off_fast_path[n];
  }
  if (c->mlir) {
    uint8_t *folded = c->cloned;  // a folded fill is its scalar in each generic's body
    MET_RETURN_IF_ERROR(met_fusion_mlir_fold_fills(c, out->use_count, alone, folded));
    uint32_t *col_root, *col_count;
    MET_RETURN_IF_ERROR(met_arena_calloc(fa, nn ? nn : 1, sizeof(uint32_t), (void **)&col_root));
    MET_RETURN_IF_ERROR(met_arena_calloc(fa, nn ? nn : 1, sizeof(uint32_t), (void **)&col_count));
    met_fusion_mlir_plan(c, out->use_count, alone, folded, col_root, col_count, out->group_of_node);
    met_fusion_number_groups(c, out->group_of_node);
  } else {
    if (c->iree || c->tfjs) MET_RETURN_IF_ERROR(met_fusion_clone_fills(c, out->use_count, alone));
    MET_RETURN_IF_ERROR(met_fusion_plan(c, out->use_count, alone, out->group_of_node));
  }
  return MET_OK;
}

met_status_t met_budget_analyze(const met_graph_t *graph, const met_target_t *target,
                                const met_budget_options_t *options, met_arena_t *arena,
                                met_budget_report_t *out) {
  memset(out, 0, sizeof(*out));
  out->complete = !graph->incomplete;
  out->budget.width_policy = target->width_policy;
  met_budget_options_t defaults = {MET_PLAN_BEST, false, {MET_PLAN_DEFAULT_NODES, 0, NULL, NULL, NULL}};
  met_budget_ctx_t c;
  memset(&c, 0, sizeof(c));
  c.g = graph;
  c.t = target;
  c.arena = arena;
  if (!options) options = &defaults;
  c.per_group = options->per_group;
  c.mlir = target->fusion == MET_FUSION_MLIR;
  c.iree = target->fusion == MET_FUSION_IREE;
  c.tfjs = target->fusion == MET_FUSION_TFJS;
  // The scratch of a small graph fits on the stack (a one-op function's takes under 1 KiB):
  // a module of 20,000 tiny functions then asks the allocator for nothing here. No analysis
  // runs inside another: the adapter analyses a region's graph from inside its build (its
  // own 8 KiB buffer is below) once the region is built, so the stack holds one of these.
  _Alignas(16) unsigned char first[4096];
  met_arena_initialize_buffer(arena->allocator, first, sizeof(first), &c.tmp);
  met_status_t st = analyze(&c, options, out);
  met_arena_deinitialize(&c.tmp);
  return st;
}

static const met_budget_field_t kFields[] = {
#define MET_BUDGET_FIELD(name, kind, rank, note) \
  {#name, MET_FIELD_##kind, rank, note, offsetof(met_budget_t, name)},
#include "metrale/budget_fields.def"
#undef MET_BUDGET_FIELD
};
enum { kFieldCount = MET_BUDGET_FIELD_COUNT };

const met_budget_field_t *met_budget_fields(size_t *count) {
  *count = kFieldCount;
  return kFields;
}

uint64_t met_budget_field_u64(const met_budget_t *b, const met_budget_field_t *f) {
  uint64_t v;
  memcpy(&v, (const char *)b + f->offset, sizeof(v));
  return v;
}

const char *met_budget_field_text(const met_budget_t *b, const met_budget_field_t *f) {
  if (f->kind == MET_FIELD_POLICY) {
    met_width_policy_t v;
    memcpy(&v, (const char *)b + f->offset, sizeof(v));
    return met_width_policy_name(v);
  }
  if (f->kind == MET_FIELD_PLAN) {
    met_plan_proof_t v;
    memcpy(&v, (const char *)b + f->offset, sizeof(v));
    return met_plan_proof_name(v);
  }
  return NULL;
}

size_t met_budget_rows(const met_budget_field_t **out) {
  // Ranks are distinct (a unit test checks): each row goes straight to its place. O(n).
  const met_budget_field_t *by_rank[kFieldCount + 1] = {0};
  for (size_t i = 0; i < kFieldCount; ++i)
    if (kFields[i].rank > 0 && kFields[i].rank <= kFieldCount) by_rank[kFields[i].rank] = &kFields[i];
  size_t n = 0;
  for (int r = 1; r <= kFieldCount; ++r)
    if (by_rank[r]) out[n++] = by_rank[r];
  return n;
}
