// region.c: the cost of an op's regions from their graphs (metrale/region.h).
#include "metrale/region.h"

#include <string.h>

#include "metrale/checked.h"
#include "metrale/dispatch.h"

met_status_t met_region_count(const met_graph_t *sub, const met_target_t *target,
                              met_arena_t *tmp, size_t blocks, intptr_t region,
                              met_region_tally_t *t) {
  met_budget_report_t rep;
  MET_RETURN_IF_ERROR(met_budget_analyze(sub, target, NULL, tmp, &rep));
  const met_budget_t *bud = &rep.budget;
  if (bud->arena_bytes > t->bytes) t->bytes = bud->arena_bytes;
  uint64_t native = bud->arena_bytes - bud->width_overhead_bytes;
  if (native > t->native) t->native = native;
  t->incomplete |= !rep.complete;
  if (blocks > t->max_blocks) t->max_blocks = blocks;
  if (region < 0 || region >= MET_REGION_MAX) return MET_OK;
  // What one run of the region costs: the Budget of its graph, and on a per-buffer
  // target the allocations it makes.
  met_region_stats_t *r = &t->region[region];
  r->present = true;
  r->arena = bud->arena_bytes;
  r->native = native;
  r->dispatches = bud->dispatches;
  for (size_t n = 0; n < sub->node_count; ++n) {
    const met_node_t *node = &sub->nodes[n];
    const met_node_extra_t *nx = met_graph_extra(sub, node);
    if (node->kind == MET_NODE_COMPUTE && node->op_class == MET_CLASS_LOOP &&
        rep.group_of_node[n] != UINT32_MAX && !(nx && nx->replaces_dispatch))
      ++r->nests;
  }
  r->dram_bytes = bud->dram_bytes;
  r->off_fast_path_ops = bud->off_fast_path_ops;
  r->off_fast_path_bytes = bud->off_fast_path_bytes;
  r->cast_nodes = bud->cast_nodes;
  r->param_bytes = bud->param_bytes;
  r->flops = rep.flops;
  r->flops_known = rep.flops_complete;
  r->alloc_peak_bytes = rep.alloc_peak_bytes;
  if (target->dispatch.allocation_model == MET_ALLOC_PER_BUFFER)
    MET_RETURN_IF_ERROR(met_dispatch_buffers(sub, &rep, target, &r->buffers, &r->buffer_bytes, NULL));
  // The buffers the region yields that it allocates (values of the op's results when
  // the region runs; a loop carries them into its next run).
  for (size_t k = 0; k < rep.slot_count; ++k) {
    const met_slot_t *slot = &rep.slots[k];
    if (slot->value == MET_SLOT_SCRATCH || slot->last < (int32_t)sub->position_count - 1) continue;
    const met_value_t *v = &sub->values[slot->value];
    if (v->producer < 0 || !(v->flags & MET_VALUE_F_MEMREF)) continue;
    uint64_t pad = (v->flags & MET_VALUE_F_NO_PAD) ? 0 : target->dispatch.allocation_padding_bytes;
    r->yielded_bytes += v->bytes + pad;
  }
  return MET_OK;
}

// r * k, field by field, saturating (a count this large is no count).
static uint64_t times(uint64_t r, uint64_t k) {
  uint64_t out;
  return met_mul_u64(r, k, &out) ? out : UINT64_MAX;
}

void met_region_summarize(const met_region_plan_t *plan, const met_region_tally_t *t,
                          met_node_extra_t *x, met_region_outcome_t *out) {
  memset(out, 0, sizeof(*out));
  x->scratch_bytes = t->bytes;
  x->scratch_native_bytes = t->native;
  if (plan->is_if && plan->branch >= 0) {  // the region that runs, alone
    const met_region_stats_t *s = plan->branch < MET_REGION_MAX ? &t->region[plan->branch] : NULL;
    x->scratch_bytes = s && s->present ? s->arena : 0;
    x->scratch_native_bytes = s && s->present ? s->native : 0;
  }
  out->lower_bound = t->incomplete || t->max_blocks > 1;
  met_region_stats_t sum;
  memset(&sum, 0, sizeof sum);
  sum.flops_known = true;
  uint64_t runs = 1;
  bool unknown_trips = false, upper = false;
  for (int r = 0; r < MET_REGION_MAX; ++r) {
    const met_region_stats_t *s = &t->region[r];
    if (!s->present) continue;
    if (plan->is_if && plan->branch >= 0 && r != plan->branch) continue;
    if (plan->is_if && plan->branch < 0) {
      upper = true;
#define MAX_IN(f) if (s->f > sum.f) sum.f = s->f
      MAX_IN(dispatches); MAX_IN(dram_bytes); MAX_IN(off_fast_path_ops); MAX_IN(off_fast_path_bytes);
      MAX_IN(cast_nodes); MAX_IN(param_bytes); MAX_IN(flops); MAX_IN(buffers); MAX_IN(buffer_bytes);
      MAX_IN(alloc_peak_bytes); MAX_IN(yielded_bytes); MAX_IN(nests);
#undef MAX_IN
      sum.flops_known &= s->flops_known;
      continue;
    }
#define ADD_IN(f) sum.f = sum.f + s->f < sum.f ? UINT64_MAX : sum.f + s->f
    ADD_IN(dispatches); ADD_IN(dram_bytes); ADD_IN(off_fast_path_ops); ADD_IN(off_fast_path_bytes);
    ADD_IN(cast_nodes); ADD_IN(param_bytes); ADD_IN(flops); ADD_IN(buffers); ADD_IN(buffer_bytes);
    ADD_IN(yielded_bytes); ADD_IN(nests);
#undef ADD_IN
    if (s->alloc_peak_bytes > sum.alloc_peak_bytes) sum.alloc_peak_bytes = s->alloc_peak_bytes;
    sum.flops_known &= s->flops_known;
  }
  if (plan->is_loop) {
    if (plan->trips >= 0) runs = (uint64_t)plan->trips;
    else unknown_trips = true;
  }
  if (sum.dispatches <= sum.nests && !sum.buffers) {
    // Nothing of its own runs in the regions but loop nests: a loop is one kernel (a loop
    // nest written by hand, the nests in it part of it); a branch is the host's control
    // flow.
    out->host = plan->is_if;
    return;
  }
  x->replaces_dispatch = true;
  x->dispatches = times(sum.dispatches, runs);
  x->dram_bytes = times(sum.dram_bytes, runs);
  x->off_fast_path_ops = times(sum.off_fast_path_ops, runs);
  x->off_fast_path_bytes = times(sum.off_fast_path_bytes, runs);
  x->cast_nodes = times(sum.cast_nodes, runs);
  x->param_bytes = sum.param_bytes;  // the weights it reads, whatever the runs
  x->callee_buffers = times(sum.buffers, runs);
  x->callee_buffer_bytes = times(sum.buffer_bytes, runs);
  // One run at a time: the body's peak, with the buffers the previous run yielded (a
  // loop's carried values) held beside it from the second run on.
  x->callee_alloc_peak_bytes = sum.alloc_peak_bytes;
  if (plan->is_loop && runs >= 2) x->callee_alloc_peak_bytes += sum.yielded_bytes;
  x->callee_flops = times(sum.flops, runs);
  x->callee_flops_known = sum.flops_known && !unknown_trips;
  out->unknown_trips = unknown_trips;
  out->upper_bound = upper;
  out->dispatches = sum.dispatches;
}
