// regions.c: what the adapter counts for an op's own regions and for a call
// (metrale/graph.h: Scratch, Calls): each region is built as a graph of its own by the
// walk (walk.c), with the values it uses from enclosing graphs as its inputs (here),
// and planned here on the same target. The walk recurses in the nesting depth (at most
// MAX_REGION_DEPTH); this file calls no walk back.
#include <inttypes.h>
#include <string.h>

#include "adapter/state.h"
#include "metrale/checked.h"
#include "metrale/dispatch.h"
#include "ir/ir.h"
#include "metrale/budget.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

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
                                      size_t blocks, intptr_t region, met_region_tally_t *t) {
  if (sub->position_count < (uint32_t)positions) sub->position_count = (uint32_t)positions;
  return met_region_count(sub, b->sh->opt->target, &b->sh->tmp, blocks, region, t);
}

met_status_t met_adapter_region_end(builder_t *b, MlirLocation loc, const char *name,
                                    const met_region_plan_t *plan, const met_region_tally_t *t,
                                    met_node_extra_t *x, bool *out_host) {
  met_region_outcome_t o;
  met_region_summarize(plan, t, x, &o);  // metrale/region.h: what the regions cost
  *out_host = o.host;
  if (o.lower_bound) b->g->incomplete = true;
  if (t->max_blocks > 1)
    MET_RETURN_IF_ERROR(met_diag_add(b->sh->arena, b->sh->diags, loc, MET_DIAG_WARNING,
                     "a region of '%s' has %zu blocks: its ops are scheduled in block order "
                     "and values passed through block arguments are not tracked, so the "
                     "report is a lower bound", name, t->max_blocks));
  if (o.unknown_trips) {
    b->g->incomplete = true;
    MET_RETURN_IF_ERROR(met_diag_add(b->sh->arena, b->sh->diags, loc, MET_DIAG_WARNING,
                     "the body of '%s' runs %" PRIu64 " dispatch(es) of its own each time, and "
                     "how often it runs is not known before it does%s: dispatches, "
                     "allocations and dram_bytes count one run (lower bounds when it runs "
                     "at least once)",
                     name, o.dispatches,
                     !strcmp(name, "scf.for") ? " (its bounds are no constants)" : ""));
  }
  if (o.upper_bound)
    MET_RETURN_IF_ERROR(met_diag_add(b->sh->arena, b->sh->diags, loc, MET_DIAG_WARNING,
                     "'%s' branches on a value known only when it runs: its dispatches, "
                     "allocations and traffic are the larger branch's, so they are upper "
                     "bounds", name));
  return MET_OK;
}

// --- what a region op does, read statically --------------------------------------------

// The integer value of |v| when an arith.constant (of an integer or index type) defines
// it; false otherwise.
static bool const_int(MlirValue v, int64_t *out) {
  if (!mlirValueIsAOpResult(v)) return false;
  MlirOperation d = mlirOpResultGetOwner(v);
  if (!met_ir_op_is(d, "arith.constant")) return false;
  MlirAttribute a = mlirOperationGetInherentAttributeByName(d, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(a)) return false;
  if (mlirAttributeIsABool(a)) { *out = mlirBoolAttrGetValue(a); return true; }
  if (!mlirAttributeIsAInteger(a)) return false;
  MlirType t = mlirAttributeGetType(a);
  *out = mlirTypeIsAIndex(t) || mlirIntegerTypeGetWidth(t) > 1 ? mlirIntegerAttrGetValueInt(a)
                                                               : (mlirIntegerAttrGetValueInt(a) & 1);
  return true;
}

static MlirOperation region_yield(MlirOperation op, intptr_t r) {
  if (r >= mlirOperationGetNumRegions(op)) return (MlirOperation){NULL};
  MlirBlock blk = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
  if (mlirBlockIsNull(blk)) return (MlirOperation){NULL};
  MlirOperation y = mlirBlockGetTerminator(blk);
  return !mlirOperationIsNull(y) && met_ir_op_is(y, "scf.yield") ? y : (MlirOperation){NULL};
}

static int64_t for_trips(MlirOperation op) {
  int64_t lb, ub, st;
  if (mlirOperationGetNumOperands(op) < 3 || !const_int(mlirOperationGetOperand(op, 0), &lb) ||
      !const_int(mlirOperationGetOperand(op, 1), &ub) || !const_int(mlirOperationGetOperand(op, 2), &st) ||
      st <= 0)
    return -1;
  return ub <= lb ? 0 : (ub - lb + st - 1) / st;
}

// The runs of an scf.forall's body when its bounds are static (staticLowerBound,
// staticUpperBound, staticStep; a dynamic entry is ShapedType's dynamic marker) or of an
// scf.parallel's whose bounds are constants: the product over its dims; -1 when a run
// knows it.
static int64_t dim_trips(int64_t lb, int64_t ub, int64_t st) {
  return st <= 0 ? -1 : ub <= lb ? 0 : (ub - lb + st - 1) / st;
}

static int64_t forall_trips(MlirOperation op) {
  MlirAttribute a[3];
  static const char *const names[] = {"staticLowerBound", "staticUpperBound", "staticStep"};
  for (int i = 0; i < 3; ++i) {
    a[i] = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString(names[i]));
    if (mlirAttributeIsNull(a[i]) || !mlirAttributeIsADenseI64Array(a[i])) return -1;
  }
  intptr_t n = mlirDenseArrayGetNumElements(a[1]);
  if (mlirDenseArrayGetNumElements(a[0]) != n || mlirDenseArrayGetNumElements(a[2]) != n) return -1;
  int64_t trips = 1;
  for (intptr_t d = 0; d < n; ++d) {
    int64_t lb = mlirDenseI64ArrayGetElement(a[0], d), ub = mlirDenseI64ArrayGetElement(a[1], d),
            st = mlirDenseI64ArrayGetElement(a[2], d);
    if (mlirShapedTypeIsDynamicStrideOrOffset(lb) || mlirShapedTypeIsDynamicStrideOrOffset(ub) ||
        mlirShapedTypeIsDynamicStrideOrOffset(st))
      return -1;
    int64_t t = dim_trips(lb, ub, st);
    if (t < 0 || (t && trips > INT64_MAX / t)) return -1;
    trips *= t;
  }
  return trips;
}

static int64_t parallel_trips(MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);  // lbs, ubs, steps, then inits
  MlirAttribute seg = mlirOperationGetInherentAttributeByName(
      op, mlirStringRefCreateFromCString("operandSegmentSizes"));
  if (mlirAttributeIsNull(seg) || !mlirAttributeIsADenseI32Array(seg) ||
      mlirDenseArrayGetNumElements(seg) < 3)
    return -1;
  int32_t k = mlirDenseI32ArrayGetElement(seg, 0);
  if (k <= 0 || mlirDenseI32ArrayGetElement(seg, 1) != k ||
      mlirDenseI32ArrayGetElement(seg, 2) != k || 3 * (intptr_t)k > n)
    return -1;
  int64_t trips = 1;
  for (int32_t d = 0; d < k; ++d) {
    int64_t lb, ub, st;
    if (!const_int(mlirOperationGetOperand(op, d), &lb) ||
        !const_int(mlirOperationGetOperand(op, k + d), &ub) ||
        !const_int(mlirOperationGetOperand(op, 2 * k + d), &st))
      return -1;
    int64_t t = dim_trips(lb, ub, st);
    if (t < 0 || (t && trips > INT64_MAX / t)) return -1;
    trips *= t;
  }
  return trips;
}

// The value of i1 |v| before it runs: 0, 1, or -1 when only a run knows it. Constants,
// and/or/xor of known values, and what a loop with constant bounds carries out when its
// body yields a constant (the ownership flags of bufferization's deallocation).
static int eval_i1(MlirValue v, int depth) {
  if (depth > 8) return -1;
  int64_t c;
  if (const_int(v, &c)) return c != 0;
  if (!mlirValueIsAOpResult(v)) return -1;
  MlirOperation d = mlirOpResultGetOwner(v);
  if (met_ir_op_is(d, "arith.andi") || met_ir_op_is(d, "arith.ori") || met_ir_op_is(d, "arith.xori")) {
    int a = eval_i1(mlirOperationGetOperand(d, 0), depth + 1);
    int b = eval_i1(mlirOperationGetOperand(d, 1), depth + 1);
    if (met_ir_op_is(d, "arith.andi")) return a == 0 || b == 0 ? 0 : (a == 1 && b == 1 ? 1 : -1);
    if (met_ir_op_is(d, "arith.ori")) return a == 1 || b == 1 ? 1 : (a == 0 && b == 0 ? 0 : -1);
    return a < 0 || b < 0 ? -1 : a ^ b;
  }
  if (met_ir_op_is(d, "scf.for")) {
    intptr_t k = mlirOpResultGetResultNumber(v);
    int64_t trips = for_trips(d);
    if (trips < 0 || 3 + k >= mlirOperationGetNumOperands(d)) return -1;
    if (trips == 0) return eval_i1(mlirOperationGetOperand(d, 3 + k), depth + 1);
    MlirOperation y = region_yield(d, 0);
    if (mlirOperationIsNull(y) || k >= mlirOperationGetNumOperands(y)) return -1;
    MlirValue yv = mlirOperationGetOperand(y, k);
    // Only a value the body yields whatever its run (a constant, or a known value from
    // outside the body) is known after the last run.
    if (mlirValueIsAOpResult(yv) && !mlirOperationEqual(mlirOperationGetParentOperation(mlirOpResultGetOwner(yv)), d))
      return eval_i1(yv, depth + 1);
    return const_int(yv, &c) ? c != 0 : -1;
  }
  return -1;
}

void met_adapter_region_plan(MlirOperation op, met_region_plan_t *out) {
  memset(out, 0, sizeof *out);
  out->branch = -1;
  out->trips = -1;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if (met_ir_str_eq(n, "scf.if") && mlirOperationGetNumOperands(op) >= 1) {
    out->is_if = true;
    int c = eval_i1(mlirOperationGetOperand(op, 0), 0);
    out->branch = c < 0 ? -1 : (c ? 0 : 1);
    return;
  }
  out->is_loop = true;
  if (met_ir_str_eq(n, "scf.for")) out->trips = for_trips(op);
  else if (met_ir_str_eq(n, "scf.forall")) out->trips = forall_trips(op);
  else if (met_ir_str_eq(n, "scf.parallel")) out->trips = parallel_trips(op);
  else if (met_ir_str_eq(n, "scf.execute_region")) out->trips = 1;
}

MlirValue met_adapter_region_result_alias(MlirOperation op, const met_region_plan_t *p, intptr_t k) {
  MlirValue none = {NULL};
  MlirOperation y = {NULL};
  if (p->is_if && p->branch >= 0) y = region_yield(op, p->branch);
  else if (p->is_loop && (met_ir_op_is(op, "scf.for") || met_ir_op_is(op, "scf.execute_region")))
    y = region_yield(op, 0);  // its entry block's yield (one that branches on has none)
  if (mlirOperationIsNull(y) || k >= mlirOperationGetNumOperands(y)) return none;
  MlirValue v = mlirOperationGetOperand(y, k);
  // Through the casts a branch adds to make its types agree.
  for (int i = 0; i < 8 && mlirValueIsAOpResult(v); ++i) {
    MlirOperation d = mlirOpResultGetOwner(v);
    if (!met_ir_op_is(d, "memref.cast")) break;
    v = mlirOperationGetOperand(d, 0);
  }
  if (p->is_loop) {
    // A loop's result is outside it when its body yields what it was given (its iter_arg
    // unchanged: the init) or a value from outside the loop.
    if (mlirValueIsABlockArgument(v)) {
      MlirBlock owner = mlirBlockArgumentGetOwner(v);
      if (mlirOperationEqual(mlirBlockGetParentOperation(owner), op)) {
        intptr_t a = mlirBlockArgumentGetArgNumber(v);  // 0: the induction variable
        if (a >= 1 && a == k + 1 && 3 + k < mlirOperationGetNumOperands(op))
          return mlirOperationGetOperand(op, 3 + k);
      }
    }
  }
  // Defined outside |op|: what the op's result is.
  MlirOperation def = mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v)
                                              : mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
  for (MlirOperation p2 = def; !mlirOperationIsNull(p2); p2 = mlirOperationGetParentOperation(p2))
    if (mlirOperationEqual(p2, op)) return none;  // made inside
  return v;
}

// The cost of a func.call (graph.h, Calls): the callee's Budget when it was analysed
// first; otherwise a warning at the call and an incomplete report.
met_status_t met_adapter_call_cost(builder_t *b, MlirOperation op, MlirLocation loc,
                                   met_node_extra_t *x, bool *has, bool *host) {
  *host = false;
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
    x->callee_alloc_peak_bytes = c.report->alloc_peak_bytes;
    x->callee_flops = c.report->flops;
    x->callee_flops_known = c.report->flops_complete;
    // A result the callee allocates without padding is one here too (the node begun
    // last is this call; its results are the callee's shaped results, in order).
    const met_node_t *call = &b->g->nodes[b->g->node_count - 1];
    for (uint32_t i = 0; i < call->result_count && i < 64; ++i) {
      if (c.report->unpadded_results >> i & 1)
        b->g->values[call->result_begin + i].flags |= MET_VALUE_F_NO_PAD;
      if (c.report->inner_results >> i & 1)  // allocated in the callee's regions
        b->g->values[call->result_begin + i].flags |= MET_VALUE_F_INNER;
    }
    *has = true;
    if (!c.report->complete) b->g->incomplete = true;  // the callee's warnings say why
    return MET_OK;
  }
  if (c.state == MET_CALLEE_HOST) {
    *host = true;  // the pipeline's own bookkeeping: a host call, no dispatch
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
