// regions.c: what the adapter counts for an op's own regions and for a call
// (metrale/graph.h: Scratch, Calls): each region is built as a graph of its own by the
// walk (walk.c), with the values it uses from enclosing graphs as its inputs (here),
// and planned here on the same target. The walk recurses in the nesting depth (at most
// MAX_REGION_DEPTH); this file calls no walk back.
#include <inttypes.h>
#include <string.h>

#include "adapter/state.h"
#include "ir/ir.h"
#include "metrale/budget.h"
#include "mlir-c/BuiltinAttributes.h"

// Deeper region nesting than this is not descended into (the report says so).
enum { MAX_REGION_DEPTH = 48 };

// True when an op in |region| (at any depth) has a shaped operand or result: only such a
// region can hold tensors or buffers of its own.
bool met_adapter_region_touches_shaped(MlirRegion region) {
  for (MlirBlock blk = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(blk);
       blk = mlirBlockGetNextInRegion(blk))
    for (MlirOperation in = mlirBlockGetFirstOperation(blk); !mlirOperationIsNull(in);
         in = mlirOperationGetNextInBlock(in)) {
      for (intptr_t i = 0; i < mlirOperationGetNumOperands(in); ++i)
        if (met_type_is_shaped_value(mlirValueGetType(mlirOperationGetOperand(in, i)))) return true;
      for (intptr_t i = 0; i < mlirOperationGetNumResults(in); ++i)
        if (met_type_is_shaped_value(mlirValueGetType(mlirOperationGetResult(in, i)))) return true;
      // A call may allocate and dispatch in its callee whatever its operands are.
      MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(in));
      if (met_ir_str_eq(n, "func.call") || met_ir_str_eq(n, "func.call_indirect")) return true;
      for (intptr_t r = 0; r < mlirOperationGetNumRegions(in); ++r)
        if (met_adapter_region_touches_shaped(mlirOperationGetRegion(in, r))) return true;
    }
  return false;
}

// Adds |v| as an input of the region graph |sb| once (sized without diagnostics: the
// value was reported where it is defined).
static met_status_t add_region_input(builder_t *sb, MlirValue v) {
  if (met_ptrmap_get(&sb->map, v.ptr) != UINT32_MAX) return MET_OK;
  const type_entry_t *te;
  MET_RETURN_IF_ERROR(met_adapter_type_entry(sb->sh, mlirValueGetType(v), &te));
  if (!te->shaped) return MET_OK;
  met_value_t val;
  memset(&val, 0, sizeof(val));
  val.alias = val.arg_index = -1;
  val.role = MET_ROLE_INPUT;
  if (te->status == MET_SIZE_OK) {
    val.bytes = te->size.bytes;
    val.f32_bytes = te->size.f32_bytes;
    if (te->size.is_memref) val.flags |= MET_VALUE_F_MEMREF;
    if (te->size.is_float) val.flags |= MET_VALUE_F_FLOAT;
    // Its dynamic dims were reported where it is defined: not again in the body.
    if (te->size.dynamic)
      val.flags |= MET_VALUE_F_DYNAMIC | (sb->sh->opt->dynamic_size > 0 ? MET_VALUE_F_BOUND : 0);
  } else {
    val.flags |= MET_VALUE_F_UNRANKED;
  }
  uint32_t id;
  MET_RETURN_IF_ERROR(met_graph_add_argument(sb->g, &val, &id));
  return met_ptrmap_put(&sb->map, v.ptr, id);
}

// Values of enclosing graphs that ops in |region| use, at any depth (a use in a deeper
// region is a use by the op that holds it), become inputs of |sb|.
static met_status_t add_outer_uses(builder_t *sb, MlirRegion region) {
  for (MlirBlock blk = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(blk);
       blk = mlirBlockGetNextInRegion(blk))
    for (MlirOperation in = mlirBlockGetFirstOperation(blk); !mlirOperationIsNull(in);
         in = mlirOperationGetNextInBlock(in)) {
      if (met_adapter_dead_root(sb->sh, in)) continue;  // it uses nothing
      for (intptr_t i = 0; i < mlirOperationGetNumOperands(in); ++i) {
        MlirValue v = mlirOperationGetOperand(in, i);
        for (const builder_t *p = sb->parent; p; p = p->parent)
          if (met_ptrmap_get(&p->map, v.ptr) != UINT32_MAX) {
            MET_RETURN_IF_ERROR(add_region_input(sb, v));
            break;
          }
      }
      for (intptr_t r = 0; r < mlirOperationGetNumRegions(in); ++r)
        MET_RETURN_IF_ERROR(add_outer_uses(sb, mlirOperationGetRegion(in, r)));
    }
  return MET_OK;
}

// The inputs of a region graph: its blocks' shaped arguments (iter_args, the buffers a
// launch captures) and the values of enclosing graphs its ops use (a loop body that
// writes into a buffer defined outside it), so that buffer-only ops in the body are
// nodes with operands as they are at the top level.
static met_status_t add_region_inputs(builder_t *sb, MlirRegion region) {
  for (MlirBlock blk = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(blk);
       blk = mlirBlockGetNextInRegion(blk))
    for (intptr_t i = 0; i < mlirBlockGetNumArguments(blk); ++i)
      MET_RETURN_IF_ERROR(add_region_input(sb, mlirBlockGetArgument(blk, i)));
  return add_outer_uses(sb, region);
}

// The scratch of an op (graph.h): the largest planned arena of one of its regions, each
// built as a graph of its own by the walk (walk.c, region_scratch: values defined
// outside the op are not its slots, they are counted where they are defined) and
// analysed here on the same target, in three steps: met_adapter_region_begin,
// met_adapter_region_count per region built, met_adapter_region_end.
met_status_t met_adapter_region_begin(builder_t *b, MlirLocation loc, const char *name,
                                      met_region_tally_t *t, bool *out_descend) {
  memset(t, 0, sizeof(*t));
  *out_descend = b->depth < MAX_REGION_DEPTH;
  if (*out_descend) return MET_OK;
  b->g->incomplete = true;
  return met_diag_add(b->sh->arena, b->sh->diags, loc, MET_DIAG_WARNING,
                      "'%s' is nested more than %d regions deep: its body is not counted, so "
                      "the report is a lower bound", name, MAX_REGION_DEPTH);
}

met_status_t met_adapter_region_builder(builder_t *b, MlirRegion region, met_graph_t *sub,
                                        builder_t *sb) {
  met_graph_initialize(&b->sh->tmp, sub);
  sub->name = "region";
  *sb = (builder_t){b->sh, sub, {0}, NULL, 0, b, b->depth + 1};  // shares |b|'s caches
  met_ptrmap_initialize(&b->sh->tmp, &sb->map);
  return add_region_inputs(sb, region);
}

met_status_t met_adapter_region_count(builder_t *b, met_graph_t *sub, int32_t positions,
                                      size_t blocks, met_region_tally_t *t) {
  if (sub->position_count < (uint32_t)positions) sub->position_count = (uint32_t)positions;
  met_budget_report_t rep;
  MET_RETURN_IF_ERROR(met_budget_analyze(sub, b->sh->opt->target, NULL, &b->sh->tmp, &rep));
  const met_budget_t *bud = &rep.budget;
  if (bud->arena_bytes > t->bytes) t->bytes = bud->arena_bytes;
  uint64_t native = bud->arena_bytes - bud->width_overhead_bytes;
  if (native > t->native) t->native = native;
  // Dispatches the body launches each time it runs: its groups other than nested loop
  // nests, which belong to this op's own nest (a loop nest is one dispatch; a nested
  // loop's body warns for itself).
  uint8_t *seen;
  MET_RETURN_IF_ERROR(met_arena_calloc(&b->sh->tmp, sub->node_count ? sub->node_count : 1, 1,
                                       (void **)&seen));
  uint64_t own = 0;
  for (size_t n = 0; n < sub->node_count; ++n) {
    uint32_t grp = rep.group_of_node[n];
    if (grp == UINT32_MAX || grp >= sub->node_count || seen[grp] ||
        sub->nodes[n].op_class == MET_CLASS_LOOP)
      continue;
    seen[grp] = 1;
    ++own;
  }
  if (own > t->dispatches) t->dispatches = own;
  t->incomplete |= !rep.complete;
  if (blocks > t->max_blocks) t->max_blocks = blocks;
  return MET_OK;
}

// Marks the graph incomplete, with a warning at |op|'s |loc|, when a region cannot be
// counted exactly; the tally's largest arena and dispatches are the op's.
met_status_t met_adapter_region_end(builder_t *b, MlirLocation loc, const char *name,
                                    const met_region_tally_t *t, uint64_t *out_bytes,
                                    uint64_t *out_native, uint64_t *out_dispatches) {
  *out_bytes = t->bytes;
  *out_native = t->native;
  *out_dispatches = t->dispatches;
  if (t->incomplete) b->g->incomplete = true;
  if (t->max_blocks > 1) {
    b->g->incomplete = true;
    MET_RETURN_IF_ERROR(met_diag_add(b->sh->arena, b->sh->diags, loc, MET_DIAG_WARNING,
                     "a region of '%s' has %zu blocks: its ops are scheduled in block order "
                     "and values passed through block arguments are not tracked, so the "
                     "report is a lower bound", name, t->max_blocks));
  }
  if (*out_dispatches) {
    // Each run of a body launches its dispatches again; how often a loop runs is not
    // known here.
    b->g->incomplete = true;
    MET_RETURN_IF_ERROR(met_diag_add(b->sh->arena, b->sh->diags, loc, MET_DIAG_WARNING,
                     "the body of '%s' runs %" PRIu64 " dispatch(es) of its own: its scratch "
                     "arena (%" PRIu64 " bytes) is counted at the op, but not how often the "
                     "body runs its dispatches and their DRAM traffic, so dispatches and "
                     "dram_bytes are lower bounds", name, *out_dispatches, *out_bytes));
  }
  return MET_OK;
}

// The cost of a func.call (graph.h, Calls): the callee's Budget when it was analysed
// first; otherwise a warning at the call and an incomplete report.
met_status_t met_adapter_call_cost(builder_t *b, MlirOperation op, MlirLocation loc,
                                   met_node_extra_t *x, bool *has) {
  MlirAttribute a = mlirOperationGetInherentAttributeByName(
      op, mlirStringRefCreateFromCString("callee"));
  met_callee_t c = {MET_CALLEE_UNKNOWN, NULL};
  MlirStringRef name = {"?", 1};
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAFlatSymbolRef(a)) {
    name = mlirFlatSymbolRefAttrGetValue(a);
    if (b->sh->opt->callee) b->sh->opt->callee(b->sh->opt->callee_user, b->sh->func, name, &c);
  }
  if (c.state == MET_CALLEE_DONE) {
    const met_budget_t *cb = &c.report->budget;
    if (cb->arena_bytes > x->scratch_bytes) x->scratch_bytes = cb->arena_bytes;
    uint64_t native = cb->arena_bytes - cb->width_overhead_bytes;
    if (native > x->scratch_native_bytes) x->scratch_native_bytes = native;
    x->replaces_dispatch = true;
    x->dispatches = cb->dispatches;
    x->dram_bytes = cb->dram_bytes;
    x->off_fast_path_ops = cb->off_fast_path_ops;
    x->off_fast_path_bytes = cb->off_fast_path_bytes;
    x->cast_nodes = cb->cast_nodes;
    x->param_bytes = cb->param_bytes;
    x->callee_buffers = c.report->inner_buffers;
    x->callee_buffer_bytes = c.report->inner_buffer_bytes;
    x->callee_flops = c.report->flops;
    x->callee_flops_known = c.report->flops_complete;
    *has = true;
    if (!c.report->complete) b->g->incomplete = true;  // the callee's warnings say why
    return MET_OK;
  }
  if (c.state == MET_CALLEE_NO_BODY) {
    // An external host function (a timer, a logger) that no tensor or buffer passes
    // through: not part of the graph's work.
    bool shaped = false;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op) && !shaped; ++i)
      shaped = met_type_is_shaped_value(mlirValueGetType(mlirOperationGetOperand(op, i)));
    for (intptr_t i = 0; i < mlirOperationGetNumResults(op) && !shaped; ++i)
      shaped = met_type_is_shaped_value(mlirValueGetType(mlirOperationGetResult(op, i)));
    if (!shaped) return MET_OK;
  }
  static const char *const why[] = {
      [MET_CALLEE_NO_BODY] = "which has no body in this module (an external function)",
      [MET_CALLEE_PENDING] = "recursively (it is on a cycle of calls)",
      [MET_CALLEE_FAILED] = "which could not be evaluated",
      [MET_CALLEE_UNKNOWN] = "which is not a function of this module"};
  b->g->incomplete = true;
  return met_diag_add(b->sh->arena, b->sh->diags, loc, MET_DIAG_WARNING,
                      "'func.call' calls @%.*s %s: the callee's arena, dispatches and traffic "
                      "are not counted, so the report is a lower bound",
                      (int)name.length, name.data, why[c.state]);
}
