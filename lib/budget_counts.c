// budget_counts.c: the Budget's counters that are no part of fusion or planning: which
// nodes run at load time (budget.h, Load time), host I/O, parameters, casts, the fast
// path and completeness (budget_fields.def), a node's temporary bytes, and the peak of a
// per-buffer allocator (met_budget_alloc_peak). Internal to lib/ (budget_ctx.h); called by
// budget_analysis.c, and calls nothing of it.
#include "budget_ctx.h"

#include <stdlib.h>

uint64_t met_budget_temp_bytes(const met_node_extra_t *x, bool mlir, bool native) {
  uint64_t s = native ? x->scratch_native_bytes : x->scratch_bytes;
  uint64_t t = mlir ? x->lowering_buffer_bytes : 0;
  return s + t < s ? UINT64_MAX : s + t;
}

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
      // A buffer the op only writes (a mutable global it stores into) is no weight read.
      if (met_graph_operand_access(g, node->operand_begin + i) == MET_ACCESS_WRITE) continue;
      uint64_t bound = met_graph_operand_bound(g, node->operand_begin + i);
      if (bound || (i == 0 && (node->flags & MET_NODE_F_GATHER) && node->result_count == 1)) {
        // A gather reads of its table the rows its indices select: its result's bytes
        // (an upper bound, tight unless indices repeat), or a generic's loads the bound
        // graph.h gives (operand_bound), never more than the table, as dram_bytes counts
        // it. Another op's read of the table is a read of its own.
        uint64_t rows = bound ? bound : g->values[node->result_begin].bytes;
        uint64_t whole = g->values[r].bytes;
        if (rows > g->values[o].bytes) rows = g->values[o].bytes;
        read[r] = rows >= whole - (read[r] < whole ? read[r] : whole) ? whole : read[r] + rows;
        continue;
      }
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

// One change of the live allocation bytes at a schedule position. At one position frees
// come first (the free's op runs before the allocating one: an op cannot do both), then
// allocations, then the frees of buffers freed where they are allocated (a region op's
// result its body allocates and a deallocation right after frees): they count at that
// position, never before their own allocation.
enum { EV_FREE = 0, EV_ALLOC = 1, EV_FREE_AFTER = 2 };
typedef struct alloc_event_t { int32_t pos; int32_t kind; uint64_t bytes; } alloc_event_t;

static int cmp_event(const void *a, const void *b) {
  const alloc_event_t *x = a, *y = b;
  if (x->pos != y->pos) return x->pos < y->pos ? -1 : 1;
  return x->kind - y->kind;
}

// The per-buffer allocation peak (budget.h, alloc_peak_bytes): a sweep over the slots'
// allocation and free positions. O(slots log slots).
met_status_t met_budget_alloc_peak(met_budget_ctx_t *c, met_budget_report_t *out) {
  const met_graph_t *g = c->g;
  const met_target_t *t = c->t;
  out->alloc_peak_bytes = 0;
  if (t->dispatch.allocation_model != MET_ALLOC_PER_BUFFER || !out->slot_count) return MET_OK;
  uint64_t pad = t->dispatch.allocation_padding_bytes;
  // Where each root is freed: the last deallocation that takes it (a conditional one
  // too); INT32_MAX when none does.
  int32_t *freed;
  MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, g->value_count ? g->value_count : 1,
                                       sizeof(int32_t), (void **)&freed));
  for (size_t v = 0; v < g->value_count; ++v) freed[v] = INT32_MAX;
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (!(node->flags & MET_NODE_F_DEALLOC)) continue;
    for (uint32_t i = 0; i < node->operand_count; ++i) {
      uint32_t r = c->root[g->operands[node->operand_begin + i]];
      if (freed[r] == INT32_MAX || node->position > freed[r]) freed[r] = node->position;
    }
  }
  alloc_event_t *ev;
  MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, 2 * out->slot_count, sizeof(alloc_event_t),
                                       (void **)&ev));
  size_t ne = 0;
  for (size_t s = 0; s < out->slot_count; ++s) {
    const met_slot_t *slot = &out->slots[s];
    uint64_t bytes;
    int32_t start = slot->first, end;
    if (slot->value == MET_SLOT_SCRATCH) {
      const met_node_extra_t *x = met_graph_extra(g, &g->nodes[slot->node]);
      if (!x) continue;
      if (x->replaces_dispatch) {
        bytes = x->callee_alloc_peak_bytes;
      } else {
        uint64_t nbuf = (uint64_t)(x->scratch_bytes > 0) + (c->mlir ? x->lowering_buffers : 0);
        uint64_t p;
        if (!met_mul_u64(nbuf, pad, &p) || !met_add_u64(met_budget_temp_bytes(x, c->mlir, true), p, &bytes)) {
          c->overflow_field = MET_BUDGET_REPORT_NAME(alloc_peak_bytes);
          return MET_EOVERFLOW;
        }
      }
      end = slot->first + 1;
    } else {
      if (g->values[slot->value].flags & MET_VALUE_F_STACK) continue;  // no allocator's
      uint64_t vpad = (g->values[slot->value].flags & MET_VALUE_F_NO_PAD) ? 0 : pad;
      if (!met_add_u64(g->values[slot->value].bytes, vpad, &bytes)) {
        c->overflow_field = MET_BUDGET_REPORT_NAME(alloc_peak_bytes);
        return MET_EOVERFLOW;
      }
      end = freed[slot->value];
      // A resolved call's result is its callee's allocation, and a region op's result a
      // buffer its regions allocate (MET_VALUE_F_INNER), in the op's peak while it runs:
      // the caller holds it from the next position on.
      const met_node_t *prod = &g->nodes[slot->node];
      const met_node_extra_t *px = met_graph_extra(g, prod);
      if (((px && px->replaces_dispatch) || (g->values[slot->value].flags & MET_VALUE_F_INNER)) &&
          start == prod->position)
        start = prod->position + 1;
    }
    ev[ne++] = (alloc_event_t){start, EV_ALLOC, bytes};
    if (end != INT32_MAX)
      ev[ne++] = end > start ? (alloc_event_t){end, EV_FREE, bytes}
                             : (alloc_event_t){start, EV_FREE_AFTER, bytes};
  }
  qsort(ev, ne, sizeof *ev, cmp_event);
  uint64_t live = 0;
  for (size_t e = 0; e < ne; ++e) {
    if (ev[e].kind != EV_ALLOC) {
      live -= ev[e].bytes;  // its allocation came first: no wrap
      continue;
    }
    if (!met_add_u64(live, ev[e].bytes, &live)) {
      c->overflow_field = MET_BUDGET_REPORT_NAME(alloc_peak_bytes);
      return MET_EOVERFLOW;
    }
    if (live > out->alloc_peak_bytes) out->alloc_peak_bytes = live;
  }
  return MET_OK;
}
