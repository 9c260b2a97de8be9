// walk.c: MLIR func.func -> met_graph_t (met_adapter_build): the walk over ops and region
// bodies. It calls its helpers, which never call it back: state.c (caches, value sizes
// and names, dead ops), args.c (the arguments), regions.c (counting a region's graph,
// calls), lowering.c, generic.c, loops.c, flops.c (facts of one op), folds.c (what a
// compiler folds to a splat or erases as dead), locs.c (names and locations); the state
// they share is state.h.
//
// One walk over the body's top-level ops in program order (positions count every
// top-level op, graph nodes are made only for ops that touch shaped values). Uses inside
// an op's regions of values defined outside it become that op's operands (deduplicated).
// Expected workload: up to ~10^6 ops per function; O(ops + operands) plus hashing.
#include "adapter/state.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrale/budget.h"
#include "metrale/checked.h"
#include "metrale/opclass.h"
#include "metrale/ptrmap.h"
#include "ir/mlir_hooks.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ir/attrs.h"
#include "ir/ir.h"


static met_status_t op_entry(builder_t *b, MlirOperation op, const op_entry_t **out) {
  met_adapter_cache_t *c = b->sh->cache;
  MlirIdentifier id = mlirOperationGetName(op);
  uint32_t k = met_ptrmap_get(&c->opcache, id.ptr);
  if (k != UINT32_MAX) { *out = &c->ops[k]; return MET_OK; }
  MET_RETURN_IF_ERROR(met_arena_reserve(&c->arena, (void **)&c->ops, &c->capops, c->nops,
                                        sizeof(op_entry_t)));
  op_entry_t *e = &c->ops[c->nops];
  MlirStringRef name = mlirIdentifierStr(id);
  e->name = met_arena_strndup(&c->arena, name.data, name.length);
  if (!e->name) return MET_ENOMEM;
  e->len = name.length;
  e->info = met_opclass_lookup(name.data, name.length);
  e->registered = mlirContextIsRegisteredOperation(b->sh->ctx, name);
  e->is_generic = met_ir_str_eq(name, "linalg.generic");
  e->is_call = met_ir_str_eq(name, "func.call");
  e->is_call_indirect = met_ir_str_eq(name, "func.call_indirect");
  e->is_linalg = met_ir_str_in_dialect(name, "linalg.");
  e->is_copy = met_ir_str_eq(name, "memref.copy");
  e->dealloc = met_adapter_dealloc_name(name);
  e->metadata = met_ir_str_eq(name, "memref.dim") || met_ir_str_eq(name, "tensor.dim") ||
                met_ir_str_eq(name, "memref.extract_aligned_pointer_as_index") ||
                met_ir_str_eq(name, "memref.extract_strided_metadata");
  e->is_if = met_ir_str_eq(name, "scf.if");
  e->gather = met_ir_str_eq(name, "tosa.gather") || met_ir_str_eq(name, "tensor.gather");
  // Named linalg ops (matmul, conv, fill, ...) build their bodies from the op definition,
  // over block arguments only; generic, map and reduce bodies are written by hand and may
  // capture outside values, like the regions of every other op.
  e->walk_regions = !e->is_linalg || e->is_generic || met_ir_str_eq(name, "linalg.map") ||
                    met_ir_str_eq(name, "linalg.reduce");
  e->generic = met_adapter_lowers_to_generic(name, &e->info);
  e->is_transpose = met_ir_str_eq(name, "tosa.transpose") || met_ir_str_eq(name, "linalg.transpose");
  e->is_tosa = met_ir_str_in_dialect(name, "tosa.");
  e->folded = met_adapter_folded_operands(name);
  MET_RETURN_IF_ERROR(met_ptrmap_put(&c->opcache, id.ptr, (uint32_t)c->nops));
  *out = &c->ops[c->nops++];
  return MET_OK;
}

static met_status_t take_operand(builder_t *b, uint32_t node, MlirValue v, bool dedupe) {
  uint32_t id = met_ptrmap_get(&b->map, v.ptr);
  if (id == UINT32_MAX) return MET_OK;
  if (dedupe && b->stamp[id] == node + 1) return MET_OK;
  b->stamp[id] = node + 1;
  return met_graph_add_operand(b->g, id);
}

// Operands of ops nested in |op|'s regions that are defined outside |op|.
static met_status_t take_nested(builder_t *b, uint32_t node, MlirOperation op) {
  intptr_t nr = mlirOperationGetNumRegions(op);
  for (intptr_t r = 0; r < nr; ++r) {
    MlirRegion region = mlirOperationGetRegion(op, r);
    for (MlirBlock blk = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(blk);
         blk = mlirBlockGetNextInRegion(blk)) {
      for (MlirOperation in = mlirBlockGetFirstOperation(blk); !mlirOperationIsNull(in);
           in = mlirOperationGetNextInBlock(in)) {
        // Freeing a buffer is no use of its data; an op that is erased uses nothing.
        if (met_adapter_is_dealloc(in) || met_adapter_dead_root(b->sh, in)) continue;
        for (intptr_t i = 0; i < mlirOperationGetNumOperands(in); ++i)
          MET_RETURN_IF_ERROR(take_operand(b, node, mlirOperationGetOperand(in, i), true));
        if (mlirOperationGetNumRegions(in)) MET_RETURN_IF_ERROR(take_nested(b, node, in));
      }
    }
  }
  return MET_OK;
}


typedef struct attr_sink_t { bool reduction; } attr_sink_t;
static void scan_iterators(MlirStringRef s, void *user) {
  attr_sink_t *a = user;
  for (size_t i = 0; i + 9 <= s.length; ++i)
    if (!memcmp(s.data + i, "reduction", 9)) { a->reduction = true; return; }
}

// linalg.generic: a reduction iterator makes it a reduction; a body of one cast op
// (then linalg.yield) makes it a cast. The iterator list has no C accessor, so it is
// printed once per distinct (uniqued) attribute and the answer cached.
static met_status_t refine_generic(builder_t *b, MlirOperation op, met_opinfo_t *info) {
  MlirAttribute it = met_generic_iterator_types(op);
  if (!mlirAttributeIsNull(it)) {
    uint32_t known = met_ptrmap_get(&b->sh->cache->itercache, it.ptr);
    if (known == UINT32_MAX) {
      attr_sink_t sink = {false};
      mlirAttributePrint(it, scan_iterators, &sink);
      known = 1u + sink.reduction;
      MET_RETURN_IF_ERROR(met_ptrmap_put(&b->sh->cache->itercache, it.ptr, known));
    }
    if (known == 2) info->op_class = MET_CLASS_REDUCTION;
  }
  if (mlirOperationGetNumRegions(op) < 1) return MET_OK;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  if (mlirBlockIsNull(body)) return MET_OK;
  MlirOperation first = mlirBlockGetFirstOperation(body);
  if (mlirOperationIsNull(first)) return MET_OK;
  MlirOperation second = mlirOperationGetNextInBlock(first);
  if (mlirOperationIsNull(second) || !mlirOperationIsNull(mlirOperationGetNextInBlock(second)))
    return MET_OK;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(first));
  met_opinfo_t inner = met_opclass_lookup(n.data, n.length);
  if (inner.cast) info->cast = true;
  return MET_OK;
}

static met_status_t grow_stamps(builder_t *b) {
  while (b->stamp_cap < b->g->value_count + 64) {
    size_t ncap = b->stamp_cap ? b->stamp_cap * 2 : 64;  // region graphs are mostly small
    uint32_t *s;
    MET_RETURN_IF_ERROR(met_arena_calloc(&b->sh->tmp, ncap, sizeof(uint32_t), (void **)&s));
    if (b->stamp) memcpy(s, b->stamp, b->stamp_cap * sizeof(uint32_t));
    b->stamp = s;
    b->stamp_cap = ncap;
  }
  return MET_OK;
}

static met_status_t add_op(builder_t *b, MlirOperation op, int32_t pos);

// Appends nodes for every op of |region|'s blocks in order, from position |*pos| on.
static met_status_t add_blocks(builder_t *b, MlirRegion region, int32_t *pos, size_t *blocks) {
  for (MlirBlock blk = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(blk);
       blk = mlirBlockGetNextInRegion(blk)) {
    ++*blocks;
    for (MlirOperation op = mlirBlockGetFirstOperation(blk); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op))
      MET_RETURN_IF_ERROR(add_op(b, op, (*pos)++));
  }
  return MET_OK;
}

// The scratch of |op| (graph.h, Scratch): each of its regions that holds tensors or
// buffers is built here as a graph of its own (the walk recurses into it) and counted by
// regions.c, which sets the report incomplete, with a warning, where a region
// cannot be counted exactly.
static met_status_t region_scratch(builder_t *b, MlirOperation op, MlirLocation loc,
                                   const char *name, const met_region_plan_t *plan,
                                   met_node_extra_t *x, bool *out_host) {
  *out_host = false;
  met_region_tally_t tally;
  bool descend;
  MET_RETURN_IF_ERROR(met_adapter_region_begin(b, loc, name, &tally, &descend));
  if (!descend) return MET_OK;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
    MlirRegion region = mlirOperationGetRegion(op, r);
    if (mlirBlockIsNull(mlirRegionGetFirstBlock(region)) ||
        !met_adapter_region_touches_shaped(region))
      continue;
    met_graph_t sub;
    builder_t sb;
    MET_RETURN_IF_ERROR(met_adapter_region_builder(b, region, &sub, &sb));
    int32_t pos = 0;
    size_t blocks = 0;
    bool failed_before = b->sh->failed;
    MET_RETURN_IF_ERROR(add_blocks(&sb, region, &pos, &blocks));
    if (b->sh->failed != failed_before || !sub.node_count) continue;
    MET_RETURN_IF_ERROR(met_adapter_region_count(b, &sub, pos, blocks, r, &tally));
  }
  return met_adapter_region_end(b, loc, name, plan, &tally, x, out_host);
}

// What add_op knows of one op as it builds its node, phase by phase (the functions below,
// in their order).
enum { kKept = 4 };  // the first results' types and entries are kept
typedef struct op_build_t {
  MlirOperation op;
  op_entry_t entry;            // a copy: building a region may move the cache's entries
  MlirStringRef name;
  met_opinfo_t info;
  MlirLocation loc;
  uint64_t ext;                // the node's handle: its op (met_node_op)
  uint16_t flags;              // MET_NODE_F_*
  intptr_t nres, nshaped;
  uint32_t result_nonunit;     // the most non-unit dims of a result
  MlirType rtype[kKept];       // the first results' types and their entries (copies: a
  type_entry_t rte[kKept];     // lookup of a new type may move the cache's entries)
  bool conditional_dealloc;
  const char *computation;     // generic.c
  met_region_plan_t plan;      // how its regions run (a loop's trips, a branch's side)
  MlirValue view_src;          // what a view's result aliases
  bool splat_fold;
  uint32_t node;
  size_t before_ops, direct_end;  // its operands in the graph; the op's own end here
  int8_t gmap[MET_AXES_MAPS];  // op operand i -> its index among the node's operands
  bool operand_dynamic, operand_unranked, result_dynamic, result_unranked;
  met_node_extra_t x;
  bool has_x, has_cost, host_call, host_branch;
} op_build_t;

// The op's results' types, looked up once.
static met_status_t op_result_types(builder_t *b, op_build_t *o) {
  o->nres = mlirOperationGetNumResults(o->op);
  for (intptr_t r = 0; r < o->nres; ++r) {
    const type_entry_t *te;
    MlirType t = mlirValueGetType(mlirOperationGetResult(o->op, r));
    MET_RETURN_IF_ERROR(met_adapter_type_entry(b->sh, t, &te));
    if (r < kKept) {
      o->rtype[r] = t;
      o->rte[r] = *te;
    }
    o->nshaped += te->shaped;
    if (te->nonunit > o->result_nonunit) o->result_nonunit = te->nonunit;
  }
  return MET_OK;
}

// What the node is (o->info): the op's class, refined by what the IR says of this op.
// *|skip| when it is no node at all (a scalar constant).
static met_status_t op_classify(builder_t *b, op_build_t *o, bool *skip) {
  const op_entry_t *oe = &o->entry;
  MlirOperation op = o->op;
  *skip = false;
  if (!oe->registered) {
    o->info = (met_opinfo_t){MET_NODE_COMPUTE, MET_CLASS_UNKNOWN, MET_ROLE_OTHER, false, false, false, false};
    o->flags |= MET_NODE_F_UNREGISTERED;
  }
  if (o->info.kind == MET_NODE_LEAF && o->nshaped == 0) {  // scalar constant
    *skip = true;
    return MET_OK;
  }
  // `scf.if %c { memref.dealloc %x }`, as ownership-based deallocation emits it, frees
  // %x on the path that owns it: a deallocation, run by the host, not a kernel.
  o->conditional_dealloc = oe->is_if && oe->registered && o->nshaped == 0 &&
                           met_adapter_only_deallocates(op);
  if (o->conditional_dealloc)
    o->info = (met_opinfo_t){MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false};
  if (oe->is_generic) MET_RETURN_IF_ERROR(refine_generic(b, op, &o->info));
  if (oe->is_linalg && oe->registered && o->info.kind == MET_NODE_COMPUTE)
    MET_RETURN_IF_ERROR(met_adapter_computation(b->sh, op, o->name, &o->info, &o->computation));
  o->plan.trips = o->plan.branch = -1;
  if (oe->walk_regions && mlirOperationGetNumRegions(op)) met_adapter_region_plan(op, &o->plan);
  if (mlirOperationGetNumOperands(op) > 0) o->view_src = mlirOperationGetOperand(op, 0);
  if (oe->is_transpose && oe->registered && met_adapter_transpose_folds(b->sh, op, &o->view_src))
    o->info = (met_opinfo_t){MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false};
  // An insert_slice of a whole destination folds to its source (canonicalize).
  if (oe->registered && o->nres == 1 && met_adapter_identity_insert(op))
    o->info = (met_opinfo_t){MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false};
  // A cast to its own type (tosa.cast f32 -> f32) folds to its input (canonicalize).
  if (o->info.cast && oe->registered && o->nres == 1 && mlirOperationGetNumOperands(op) == 1 &&
      mlirTypeEqual(mlirValueGetType(o->view_src), mlirValueGetType(mlirOperationGetResult(op, 0))))
    o->info = (met_opinfo_t){MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false};
  o->splat_fold = oe->registered && met_adapter_folds_to_splat(b, op, o->name, &o->info);
  if (o->splat_fold) {
    o->info = (met_opinfo_t){MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_SPLAT, false, true, false, false};
    o->computation = NULL;
    if (b->depth == 0 && !b->sh->nsplat++) b->sh->first_splat = op;
    if (b->depth == 0 && b->sh->each_splat)
      MET_RETURN_IF_ERROR(met_adapter_splat_remark(b->sh, op));
  }
  if (o->info.kind == MET_NODE_VIEW) {
    bool src = !mlirValueIsNull(o->view_src) &&
               met_ptrmap_get(&b->map, o->view_src.ptr) != UINT32_MAX;
    if (!src || o->nshaped == 0)
      o->info = (met_opinfo_t){MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, false};
  }
  if (o->info.kind == MET_NODE_COMPUTE && o->nshaped == 0 && !oe->is_call &&
      o->info.op_class != MET_CLASS_LOOP && !(o->flags & MET_NODE_F_UNREGISTERED) &&
      !oe->is_linalg && !oe->is_copy)
    o->info.kind = MET_NODE_HOST;  // scalar arith/math and the like
  return MET_OK;
}

// The node and its operands: the op's own (a folded op reads nothing), then the values
// its regions capture.
static met_status_t op_operands(builder_t *b, op_build_t *o, int32_t pos) {
  const op_entry_t *oe = &o->entry;
  MlirOperation op = o->op;
  MET_RETURN_IF_ERROR(grow_stamps(b));
  o->before_ops = b->g->operand_count;
  MET_RETURN_IF_ERROR(met_graph_begin_node(b->g, o->name.data, o->name.length,
                                           (met_node_kind_t)o->info.kind,
                                           (met_op_class_t)o->info.op_class, pos, o->ext,
                                           &o->node));
  intptr_t nopers = mlirOperationGetNumOperands(op);
  bool writes = oe->registered && (oe->is_copy || (oe->is_linalg && o->nres == 0));
  memset(o->gmap, -1, sizeof(o->gmap));
  for (intptr_t i = 0; i < nopers && !o->splat_fold; ++i) {
    if (oe->folded && oe->registered && met_adapter_operand_folds(op, oe->folded, i)) continue;
    size_t gi = b->g->operand_count;
    MET_RETURN_IF_ERROR(take_operand(b, o->node, mlirOperationGetOperand(op, i), false));
    if (i < MET_AXES_MAPS && b->g->operand_count > gi) o->gmap[i] = (int8_t)(gi - o->before_ops);
    met_access_t acc = writes && b->g->operand_count > gi
                           ? met_adapter_operand_access(op, o->name, i) : MET_ACCESS_READ;
    if (acc != MET_ACCESS_READ) MET_RETURN_IF_ERROR(met_graph_set_operand_access(b->g, gi, acc));
  }
  o->direct_end = b->g->operand_count;
  if (oe->walk_regions && mlirOperationGetNumRegions(op) && !o->splat_fold) {
    MET_RETURN_IF_ERROR(take_nested(b, o->node, op));
    if (oe->is_linalg && oe->registered)
      MET_RETURN_IF_ERROR(met_adapter_gather_bounds(b, op, o->node, o->direct_end,
                                                    b->g->operand_count));
  }
  for (size_t i = o->before_ops; i < b->g->operand_count; ++i) {
    const met_value_t *ov = &b->g->values[b->g->operands[i]];
    o->operand_dynamic |= met_value_unbound(ov);
    o->operand_unranked |= (ov->flags & MET_VALUE_F_UNRANKED) != 0;
  }
  return MET_OK;
}

// The node's results: each shaped result a value, with its role, flags and what it views.
static met_status_t op_results(builder_t *b, op_build_t *o) {
  const op_entry_t *oe = &o->entry;
  MlirOperation op = o->op;
  const met_opinfo_t *info = &o->info;
  for (intptr_t r = 0; r < o->nres && o->nshaped; ++r) {
    MlirValue res = mlirOperationGetResult(op, r);
    MlirType t = r < kKept ? o->rtype[r] : mlirValueGetType(res);
    type_entry_t te;
    if (r < kKept) {
      te = o->rte[r];
    } else {
      const type_entry_t *e;
      MET_RETURN_IF_ERROR(met_adapter_type_entry(b->sh, t, &e));
      te = *e;
    }
    if (!te.shaped) continue;
    met_value_t v;
    bool overflow;
    MET_RETURN_IF_ERROR(met_adapter_size_typed(b, t, &te, o->loc, "result", r, &v, &overflow));
    if (overflow) o->flags |= MET_NODE_F_NO_SIZE;
    o->result_dynamic |= met_value_unbound(&v);
    o->result_unranked |= (v.flags & MET_VALUE_F_UNRANKED) != 0;
    v.role = info->kind == MET_NODE_COMPUTE ? MET_ROLE_ACTIVATION : info->role;
    if (v.role == MET_ROLE_CONST && oe->registered && met_adapter_is_splat_constant(op))
      v.role = MET_ROLE_SPLAT;
    if (info->kind == MET_NODE_ALLOC && oe->registered &&
        mlirAttributeIsNull(mlirOperationGetInherentAttributeByName(
            op, mlirStringRefCreateFromCString("alignment"))))
      v.flags |= MET_VALUE_F_NO_PAD;
    if (info->kind == MET_NODE_ALLOC && met_ir_str_eq(o->name, "memref.alloca"))
      v.flags |= MET_VALUE_F_STACK;
    if (info->kind == MET_NODE_VIEW) {
      v.alias = (int32_t)met_ptrmap_get(&b->map, o->view_src.ptr);
      v.role = MET_ROLE_OTHER;
    } else if ((o->plan.is_loop || o->plan.is_if) && (v.flags & MET_VALUE_F_MEMREF)) {
      // A bufferized loop's or branch's buffer result: a buffer from outside that the
      // region passes through (then this is a view of it), or one its region allocates.
      MlirValue src = met_adapter_region_result_alias(op, &o->plan, r);
      uint32_t sid = mlirValueIsNull(src) ? UINT32_MAX : met_ptrmap_get(&b->map, src.ptr);
      if (sid != UINT32_MAX) {
        v.alias = (int32_t)sid;
        v.role = MET_ROLE_OTHER;
      } else {
        v.flags |= MET_VALUE_F_INNER;
      }
    }
    uint32_t id;
    MET_RETURN_IF_ERROR(met_graph_add_result(b->g, &v, &id));
    MET_RETURN_IF_ERROR(met_adapter_name_value(b, res, id));
    MET_RETURN_IF_ERROR(met_ptrmap_put(&b->map, res.ptr, id));
  }
  return MET_OK;
}

// What the op carries beside its operands (met_node_extra_t): tensors and buffers its own
// regions materialize (loop bodies, branches; named linalg ops build scalar bodies and are
// not looked into), a call's cost, a TOSA op's lowering, its computation. *|dropped| when
// the node touches nothing shaped after all: it is taken back (its position still counts).
static met_status_t op_extra(builder_t *b, op_build_t *o, bool *dropped) {
  const op_entry_t *oe = &o->entry;
  MlirOperation op = o->op;
  met_node_extra_t *x = &o->x;
  *dropped = false;
  if (oe->walk_regions && mlirOperationGetNumRegions(op))
    MET_RETURN_IF_ERROR(region_scratch(b, op, o->loc, oe->name, &o->plan, x, &o->host_branch));
  if (x->replaces_dispatch && o->info.kind != MET_NODE_COMPUTE) {
    // A host op (no tensor or buffer of its own: gpu.launch) keeps its scratch alone; what
    // its regions run is said by the warning above, not counted.
    met_node_extra_t keep = {0};
    keep.scratch_bytes = x->scratch_bytes;
    keep.scratch_native_bytes = x->scratch_native_bytes;
    *x = keep;
  }
  o->has_x = x->scratch_bytes > 0 || x->replaces_dispatch;
  if (oe->is_call) {
    MET_RETURN_IF_ERROR(met_adapter_call_cost(b, op, o->loc, x, &o->has_x, &o->host_call));
  } else if (oe->is_call_indirect) {
    b->g->incomplete = true;
    MET_RETURN_IF_ERROR(met_diag_add(b->sh->arena, b->sh->diags, o->loc, MET_DIAG_WARNING,
                     "'%s' calls a function not known before run time: its arena, dispatches "
                     "and traffic are not counted, so the report is a lower bound", oe->name));
  }
  o->has_cost = o->has_x;  // scratch or a call's cost: FLOPs then not known here
  if ((oe->is_tosa || oe->info.softmax) && o->info.kind == MET_NODE_COMPUTE && oe->registered) {
    bool lover;
    o->has_x |= met_adapter_lowering(op, o->name, x, &lover);
    if (lover) o->flags |= MET_NODE_F_NO_SIZE;
  }
  x->computation = o->computation;
  o->has_x |= o->computation != NULL;
  if (o->has_x) MET_RETURN_IF_ERROR(met_graph_set_extra(b->g, x));
  const met_node_t *n = &b->g->nodes[o->node];
  if (n->operand_count == 0 && n->result_count == 0 && o->info.kind != MET_NODE_RETURN &&
      !o->has_x) {
    b->g->node_count--;
    *dropped = true;
  }
  return MET_OK;
}

// The node's FLOPs (the function's own graph, when the dispatch stats count them).
static met_status_t op_flops(builder_t *b, op_build_t *o) {
  if (!b->sh->opt->count_flops || b->depth != 0) return MET_OK;
  while (o->node >= b->sh->flops_cap)
    MET_RETURN_IF_ERROR(met_arena_reserve(b->sh->arena, (void **)&b->g->flops,
                                          &b->sh->flops_cap, o->node, sizeof(uint64_t)));
  uint64_t *flops = &b->g->flops[o->node];
  *flops = 0;
  if (o->info.kind == MET_NODE_COMPUTE && o->x.replaces_dispatch) {
    // A resolved call: its callee's FLOPs, known when all of them are.
    *flops = o->x.callee_flops;
    if (!o->x.callee_flops_known) o->flags |= MET_NODE_F_FLOPS_UNKNOWN;
  } else if (o->info.kind == MET_NODE_COMPUTE) {
    int fk = met_adapter_flops(b->sh, o->op, o->name, (met_op_class_t)o->info.op_class, flops);
    if (fk != MET_FLOPS_OK || o->has_cost) {
      *flops = 0;  // loops, calls, unknown ops: a lower bound
      o->flags |= MET_NODE_F_FLOPS_UNKNOWN;
      if (fk == MET_FLOPS_OVERFLOW && !o->has_cost) o->flags |= MET_NODE_F_FLOPS_OVERFLOW;
    }
  }
  return MET_OK;
}

// The node's flags, kind, the facts the target asks (loops, axes) and its location; a
// warning when a result is dynamic where no operand was.
static met_status_t op_finish(builder_t *b, op_build_t *o) {
  const op_entry_t *oe = &o->entry;
  uint16_t flags = o->flags;
  if (o->info.cast) flags |= MET_NODE_F_CAST;
  if (o->info.kind == MET_NODE_COMPUTE && oe->registered) {
    if (oe->generic) flags |= MET_NODE_F_GENERIC;
    if (oe->is_linalg && o->info.op_class == MET_CLASS_ELEMENTWISE &&
        met_adapter_bit_extend(o->op))
      flags |= MET_NODE_F_BIT_EXTEND;
    if (o->info.op_class == MET_CLASS_FILL && met_adapter_zero_fill(o->op))
      flags |= MET_NODE_F_ZERO_FILL;
    // The init must be the graph's last operand: no captured values after it.
    if (oe->is_linalg && b->g->operand_count == o->direct_end && o->direct_end > o->before_ops &&
        met_adapter_has_dps_init(o->op, o->name))
      flags |= MET_NODE_F_DPS_INIT;
  }
  if (oe->info.softmax) flags |= MET_NODE_F_SOFTMAX;  // also when unregistered (IREE's)
  if (oe->dealloc || o->conditional_dealloc) flags |= MET_NODE_F_DEALLOC;
  if (oe->metadata) flags |= MET_NODE_F_METADATA;
  if (oe->gather && oe->registered && o->nshaped == 1) flags |= MET_NODE_F_GATHER;
  if (o->result_unranked || o->operand_unranked) flags |= MET_NODE_F_UNRANKED;
  if (o->result_dynamic) flags |= MET_NODE_F_DYNAMIC;
  met_node_t *n = &b->g->nodes[o->node];
  n->flags = flags;
  if (o->host_call || (o->host_branch && n->kind == MET_NODE_COMPUTE)) n->kind = MET_NODE_HOST;
  if (o->info.kind == MET_NODE_COMPUTE && b->sh->facts.loops)
    MET_RETURN_IF_ERROR(met_adapter_node_loops(b, o->op, (met_op_class_t)o->info.op_class,
                                               oe->is_linalg, o->result_nonunit, &n->loops));
  // The axes the attention rule follows (metrale/graph.h), on the targets that have it.
  if (b->sh->facts.axes && oe->registered &&
      (o->info.kind == MET_NODE_COMPUTE || o->info.kind == MET_NODE_VIEW))
    MET_RETURN_IF_ERROR(met_adapter_node_axes(b, o->op, o->name, oe, o->node, o->gmap));
  if (b->sh->opt->record_names && b->depth == 0)
    MET_RETURN_IF_ERROR(met_graph_set_node_loc(b->g, o->node,
                                               met_adapter_loc_string(b->sh->arena, o->loc)));
  if (o->result_dynamic && !o->operand_dynamic)
    MET_RETURN_IF_ERROR(met_diag_add(b->sh->arena, b->sh->diags, o->loc, MET_DIAG_WARNING,
                     "'%.*s' has a result with dynamic dims, counted as 1 each: byte counts "
                     "from here on are lower bounds (bind them with dynamic-size=N)",
                     (int)o->name.length, o->name.data));
  return MET_OK;
}

static met_status_t add_op(builder_t *b, MlirOperation op, int32_t pos) {
  if (met_adapter_dead_root(b->sh, op)) return MET_OK;
  const op_entry_t *cached;
  MET_RETURN_IF_ERROR(op_entry(b, op, &cached));
  op_build_t o;
  memset(&o, 0, sizeof o);
  o.op = op;
  o.entry = *cached;
  o.name = (MlirStringRef){o.entry.name, o.entry.len};
  o.info = o.entry.info;
  MET_RETURN_IF_ERROR(op_result_types(b, &o));
  o.loc = mlirOperationGetLocation(op);
  o.ext = (uint64_t)(uintptr_t)op.ptr;
  bool skip, dropped;
  MET_RETURN_IF_ERROR(op_classify(b, &o, &skip));
  if (skip) return MET_OK;
  MET_RETURN_IF_ERROR(op_operands(b, &o, pos));
  MET_RETURN_IF_ERROR(op_results(b, &o));
  MET_RETURN_IF_ERROR(op_extra(b, &o, &dropped));
  if (dropped) return MET_OK;
  MET_RETURN_IF_ERROR(op_flops(b, &o));
  return op_finish(b, &o);
}

met_status_t met_adapter_build(MlirOperation func, const met_adapter_options_t *options,
                               met_adapter_cache_t *cache, met_arena_t *arena,
                               met_graph_t *graph, met_diag_list_t *diags, bool *out_failed) {
  adapter_shared_t sh;
  memset(&sh, 0, sizeof(sh));
  sh.opt = options;
  sh.facts = met_target_graph_facts(options->target);
  sh.cache = cache;
  if (cache->target != options->target || cache->dynamic_size != options->dynamic_size) {
    // Sizes for other options: forget them (the map's old arrays stay in the arena).
    met_ptrmap_initialize(&cache->arena, &cache->typecache);
    cache->ntypes = 0;
    cache->target = options->target;
    cache->dynamic_size = options->dynamic_size;
  }
  sh.arena = arena;
  sh.diags = diags;
  sh.ctx = mlirOperationGetContext(func);
  sh.func = func;
  *out_failed = false;
  MlirRegion body = mlirOperationGetRegion(func, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(body);
  if (mlirBlockIsNull(entry)) return MET_EINVAL;
  met_graph_initialize(arena, graph);
  graph->name = met_adapter_qualified_name(arena, func);
  if (!graph->name) return MET_ENOMEM;
  // A one-op function's build takes about 2.5 KiB of scratch: on the stack, it costs no
  // allocation (met_adapter_build is never nested; region graphs are built in |sh.tmp|).
  _Alignas(16) unsigned char first[8192];
  met_arena_initialize_buffer(arena->allocator, first, sizeof(first), &sh.tmp);
  met_ptrmap_initialize(&sh.tmp, &sh.dead);
  builder_t b = {&sh, graph, {0}, NULL, 0, NULL, 0};
  met_ptrmap_initialize(&sh.tmp, &b.map);
  met_strbuf_initialize(met_allocator_system(), &sh.scratch);
  if (options->record_names) {
    MlirOpPrintingFlags pf = mlirOpPrintingFlagsCreate();
    sh.names = mlirAsmStateCreateForOperation(func, pf);
    mlirOpPrintingFlagsDestroy(pf);
  }
  // One walk sizes every array once and finds what canonicalization erases (graph.h, Dead
  // ops): that is never built.
  met_body_scan_t scan;
  sh.each_dead = options->dead_remarks || options->remarks_each;
  sh.each_splat = options->remarks_each;
  met_scan_body(func, &scan, met_adapter_on_dead, &sh);
  size_t nops = scan.ops, nvals = scan.values, nopers = scan.operands;
  met_status_t st = met_adapter_dead_summary(&sh, func);
  if (!st) st = met_graph_reserve(graph, nops, nvals, nopers + nops);
  if (!st) st = met_ptrmap_reserve(&b.map, nvals);
  if (!st) st = met_arena_calloc(&sh.tmp, nvals + 64, sizeof(uint32_t), (void **)&b.stamp);
  if (!st) b.stamp_cap = nvals + 64;
  if (!st) st = met_adapter_add_arguments(&b, func, entry);
  int32_t pos = 0;
  size_t blocks = 0;
  if (!st) st = add_blocks(&b, body, &pos, &blocks);
  if (!st) st = met_adapter_splat_summary(&sh, func);
  if (!st && blocks > 1) {
    graph->incomplete = true;
    st = met_diag_add(arena, diags, mlirOperationGetLocation(func), MET_DIAG_WARNING,
                      "function has %zu blocks: ops are scheduled in block order and values "
                      "passed through block arguments are not tracked, so the report is a "
                      "lower bound", blocks);
  }
  if (!st && graph->position_count < (uint32_t)pos) graph->position_count = (uint32_t)pos;
  if (options->record_names) mlirAsmStateDestroy(sh.names);
  met_strbuf_deinitialize(&sh.scratch);
  met_arena_deinitialize(&sh.tmp);
  *out_failed = sh.failed;
  return st;
}
