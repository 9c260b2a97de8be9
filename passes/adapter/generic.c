// generic.c: what computation a linalg op is, whatever its spelling (named,
// linalg.generic, linalg.map), so that named, generic and TOSA forms of one computation
// land in one class and meet one fast path (metrale/graph.h, met_node_extra_t.computation).
//
// A compiler generalizes named linalg ops into linalg.generic before it forms dispatches
// (IREE's GeneralizeLinalgNamedOps, docs/iree-dispatch-formation.md), and a backend runs
// what the body computes. So the body decides:
//   - payload ops only (arith/math): elementwise, and the computation is the payload's
//     distinct op names joined by '+' ("math.exp", "arith.mulf+math.erf+arith.addf");
//     with a reduction iterator, "linalg.reduce+" that list;
//   - a reduction whose payload is a multiply and an add over two or more inputs: a
//     contraction, class MET_CLASS_MATMUL, computation "linalg.matmul";
//   - no payload (a yield of an input), one input and one output, the output map the
//     identity: "linalg.copy" (input map the identity), "linalg.transpose" (a permutation),
//     "linalg.broadcast" (fewer results than loops);
//   - otherwise (index ops, more than 8 distinct payload ops, several blocks): no
//     computation; the op's own name is matched.
// Named linalg ops whose names already say it (transpose, broadcast, copy, fill, matmul,
// conv, pooling, reduce) keep them.
#include <string.h>

#include "adapter/state.h"
#include "metrale/checked.h"
#include "ir/ir.h"
#include "mlir-c/AffineMap.h"
#include "ir/mlir_hooks.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

// Interns |s| (|n| bytes) among the function's computations: one pointer per string, so
// the fast-path cache keyed by pointer hits.
static met_status_t intern(adapter_shared_t *sh, const char *s, size_t n, const char **out) {
  for (size_t k = 0; k < sh->nkeys; ++k)  // strnlen reads at most n + 1 bytes of a key
    if (strnlen(sh->keys[k], n + 1) == n && !memcmp(sh->keys[k], s, n)) {
      *out = sh->keys[k];
      return MET_OK;
    }
  MET_RETURN_IF_ERROR(met_arena_reserve(&sh->tmp, (void **)&sh->keys, &sh->capkeys, sh->nkeys,
                                        sizeof(char *)));
  char *c = met_arena_strndup(sh->arena, s, n);
  if (!c) return MET_ENOMEM;
  sh->keys[sh->nkeys++] = c;
  *out = c;
  return MET_OK;
}

// The one input map's shape against the output map's: "linalg.copy", "linalg.transpose",
// "linalg.broadcast" or NULL.
static const char *movement(MlirOperation op) {
  MlirAttribute maps =
      mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("indexing_maps"));
  if (mlirAttributeIsNull(maps) || !mlirAttributeIsAArray(maps) ||
      mlirArrayAttrGetNumElements(maps) != 2)
    return NULL;
  MlirAttribute a = mlirArrayAttrGetElement(maps, 0), b = mlirArrayAttrGetElement(maps, 1);
  if (!mlirAttributeIsAAffineMap(a) || !mlirAttributeIsAAffineMap(b)) return NULL;
  MlirAffineMap in = mlirAffineMapAttrGetValue(a), out = mlirAffineMapAttrGetValue(b);
  if (!mlirAffineMapIsIdentity(out)) return NULL;
  if (mlirAffineMapIsIdentity(in)) return "linalg.copy";
  if (mlirAffineMapIsPermutation(in)) return "linalg.transpose";
  if (mlirAffineMapGetNumResults(in) < mlirAffineMapGetNumDims(in)) return "linalg.broadcast";
  return NULL;
}

met_status_t met_adapter_computation(adapter_shared_t *sh, MlirOperation op, MlirStringRef name,
                                     met_opinfo_t *info, const char **out) {
  *out = NULL;
  bool generic = met_ir_str_eq(name, "linalg.generic"), map = met_ir_str_eq(name, "linalg.map");
  if (!generic && !map && info->op_class != MET_CLASS_ELEMENTWISE) return MET_OK;
  if (met_ir_str_eq(name, "linalg.transpose") || met_ir_str_eq(name, "linalg.broadcast") ||
      met_ir_str_eq(name, "linalg.copy"))
    return MET_OK;
  if (mlirOperationGetNumRegions(op) != 1) return MET_OK;
  MlirRegion body = mlirOperationGetRegion(op, 0);
  MlirBlock blk = mlirRegionGetFirstBlock(body);
  if (mlirBlockIsNull(blk) || !mlirBlockIsNull(mlirBlockGetNextInRegion(blk))) return MET_OK;
  MlirStringRef ops[8];
  size_t n = 0;
  bool mul = false, add = false;
  for (MlirOperation in = mlirBlockGetFirstOperation(blk); !mlirOperationIsNull(in);
       in = mlirOperationGetNextInBlock(in)) {
    MlirStringRef k = mlirIdentifierStr(mlirOperationGetName(in));
    if (met_ir_str_eq(k, "linalg.yield") || met_adapter_dead_root(sh, in)) continue;
    if (!met_ir_str_has_prefix(k, "arith.") && !met_ir_str_has_prefix(k, "math.")) return MET_OK;  // index, ...
    mul |= met_ir_str_eq(k, "arith.mulf") || met_ir_str_eq(k, "arith.muli");
    add |= met_ir_str_eq(k, "arith.addf") || met_ir_str_eq(k, "arith.addi");
    bool seen = false;
    for (size_t j = 0; j < n && !seen; ++j)
      seen = ops[j].length == k.length && !memcmp(ops[j].data, k.data, k.length);
    if (seen) continue;
    if (n == 8) return MET_OK;
    ops[n++] = k;
  }
  bool reduction = info->op_class == MET_CLASS_REDUCTION;
  if (n == 0) {
    const char *m = generic && !reduction ? movement(op) : NULL;
    return m ? intern(sh, m, strlen(m), out) : MET_OK;
  }
  if (reduction && n == 2 && mul && add && mlirOperationGetNumOperands(op) >= 3) {
    info->op_class = MET_CLASS_MATMUL;
    return intern(sh, "linalg.matmul", 13, out);
  }
  char buf[512];
  size_t len = 0;
  if (reduction) {
    memcpy(buf, "linalg.reduce", 13);
    len = 13;
  }
  for (size_t j = 0; j < n; ++j) {
    if (len + 1 + ops[j].length >= sizeof buf) return MET_OK;
    if (len) buf[len++] = '+';
    memcpy(buf + len, ops[j].data, ops[j].length);
    len += ops[j].length;
  }
  return intern(sh, buf, len, out);
}

// Whether |in| is |op| or nested in it.
static bool inside(MlirOperation in, MlirOperation op) {
  for (MlirOperation p = in; !mlirOperationIsNull(p); p = mlirOperationGetParentOperation(p))
    if (mlirOperationEqual(p, op)) return true;
  return false;
}

// A load of one element of its operand 0: tensor.extract, memref.load.
static bool element_load(MlirOperation in) {
  return met_ir_op_is(in, "tensor.extract") || met_ir_op_is(in, "memref.load");
}

// The static element count of shaped |t|; 0 when it has a dynamic dim or is unranked.
static uint64_t static_elements(MlirType t) {
  if (!mlirTypeIsAShaped(t) || !mlirShapedTypeHasRank(t)) return 0;
  uint64_t n = 1;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); ++d) {
    int64_t s = mlirShapedTypeGetDimSize(t, d);
    if (s < 0 || !met_mul_u64(n, (uint64_t)s, &n)) return 0;
  }
  return n;
}

// The loads of |table| in |op|: every use of it inside |op| is operand 0 of an element
// load in |body| (the op's own block, run once per iteration). Returns their number, or
// 0 when it has another use inside (an op of a nested region, a slice, a call).
static uint64_t loads_of(MlirValue table, MlirOperation op, MlirBlock body) {
  uint64_t k = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(table); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation owner = mlirOpOperandGetOwner(u);
    if (!inside(owner, op)) continue;
    if (!element_load(owner) || mlirOpOperandGetOperandNumber(u) != 0 ||
        !mlirBlockEqual(mlirOperationGetBlock(owner), body))
      return 0;
    ++k;
  }
  return k;
}

met_status_t met_adapter_gather_bounds(builder_t *b, MlirOperation op, uint32_t node,
                                       size_t first, size_t end) {
  met_graph_t *g = b->g;
  if (first >= end || mlirOperationGetNumRegions(op) != 1 ||
      g->nodes[node].op_class != MET_CLASS_ELEMENTWISE)
    return MET_OK;
  // The iterations: an all-parallel op whose init (its last operand) the last indexing map
  // indexes by a permutation of the loops runs once per element of it.
  intptr_t nops = mlirOperationGetNumOperands(op);
  MlirAttribute maps = met_linalg_indexing_maps(op);
  if (nops < 1 || mlirAttributeIsNull(maps) || mlirArrayAttrGetNumElements(maps) < 1) return MET_OK;
  MlirAttribute last = mlirArrayAttrGetElement(maps, mlirArrayAttrGetNumElements(maps) - 1);
  if (!mlirAttributeIsAAffineMap(last) || !mlirAffineMapIsPermutation(mlirAffineMapAttrGetValue(last)))
    return MET_OK;
  uint64_t iterations = static_elements(mlirValueGetType(mlirOperationGetOperand(op, nops - 1)));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  if (!iterations || mlirBlockIsNull(body)) return MET_OK;
  for (MlirOperation in = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(in);
       in = mlirOperationGetNextInBlock(in)) {
    if (!element_load(in) || mlirOperationGetNumOperands(in) < 1) continue;
    MlirValue t = mlirOperationGetOperand(in, 0);
    uint32_t id = met_ptrmap_get(&b->map, t.ptr);
    if (id == UINT32_MAX) continue;  // defined inside, or untracked
    uint64_t elems = static_elements(mlirValueGetType(t)), k = loads_of(t, op, body), bound;
    if (!elems || !k || !met_mul_u64(k, iterations, &bound)) continue;
    // Native bytes per element: the value's, as sized (an i1 or i4 table rounds as it does).
    uint64_t bytes = g->values[id].bytes, per = bytes / elems + (bytes % elems != 0);
    if (!met_mul_u64(bound, per, &bound) || bound >= bytes) continue;
    for (size_t i = first; i < end; ++i)
      if (g->operands[i] == id) MET_RETURN_IF_ERROR(met_graph_set_operand_bound(g, i, bound));
  }
  return MET_OK;
}

// The bit width of |t|'s element (an integer or a float), 0 for any other.
static unsigned element_width(MlirType t) {
  MlirType e = mlirTypeIsAShaped(t) ? mlirShapedTypeGetElementType(t) : t;
  if (mlirTypeIsAInteger(e)) return mlirIntegerTypeGetWidth(e);
  if (mlirTypeIsAFloat(e)) return mlirFloatTypeGetWidth(e);
  return 0;
}

bool met_adapter_zero_fill(MlirOperation op) {
  if (!met_ir_op_is(op, "linalg.fill") || mlirOperationGetNumOperands(op) < 1) return false;
  MlirValue v = mlirOperationGetOperand(op, 0);
  if (!mlirValueIsAOpResult(v)) return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!met_ir_op_is(def, "arith.constant")) return false;
  MlirAttribute a = mlirOperationGetInherentAttributeByName(def, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(a)) return false;
  if (mlirAttributeIsAFloat(a)) return mlirFloatAttrGetValueDouble(a) == 0.0;  // -0.0 too
  if (mlirAttributeIsAInteger(a)) {  // (getValueInt asserts past 64 bits)
    MlirType t = mlirAttributeGetType(a);
    return mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) <= 64 &&
           mlirIntegerAttrGetValueInt(a) == 0;
  }
  return false;
}

// The dims of ranked tensor |t| that are not 1 (a dynamic dim is not 1).
static intptr_t folded_rank(MlirType t) {
  intptr_t n = 0;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); ++d) n += mlirShapedTypeGetDimSize(t, d) != 1;
  return n;
}

bool met_adapter_bit_extend(MlirOperation op) {
  if (!met_ir_op_is(op, "linalg.generic") || mlirOperationGetNumResults(op) != 1 ||
      mlirOperationGetNumRegions(op) != 1)
    return false;
  MlirAttribute maps = met_linalg_indexing_maps(op);
  intptr_t nops = mlirOperationGetNumOperands(op);
  if (mlirAttributeIsNull(maps) || mlirArrayAttrGetNumElements(maps) != nops || nops < 2)
    return false;
  // One init (the last operand; one result) and every loop parallel: no loop the init's
  // map leaves out (a reduction's).
  MlirAffineMap out = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, nops - 1));
  if (!mlirAffineMapIsProjectedPermutation(out) ||
      mlirAffineMapGetNumResults(out) != mlirAffineMapGetNumDims(out))
    return false;
  // The widest element among the inputs of the highest rank is narrower than the result's.
  // Ranks count the dims that are not 1: IREE folds unit dims (FoldUnitExtentDims) before
  // it asks, so a 4096x32x1 scale is of rank 2 beside a 4096x32x128 weight.
  intptr_t top = 0;
  unsigned widest = 0;
  for (intptr_t i = 0; i + 1 < nops; ++i) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, i));
    if (mlirTypeIsARankedTensor(t) && folded_rank(t) > top) top = folded_rank(t);
  }
  for (intptr_t i = 0; top && i + 1 < nops; ++i) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, i));
    if (!mlirTypeIsARankedTensor(t) || folded_rank(t) != top) continue;
    unsigned w = element_width(t);
    if (!w) return false;  // a complex or index element: no bit width to compare
    if (w > widest) widest = w;
  }
  unsigned res = element_width(mlirValueGetType(mlirOperationGetResult(op, 0)));
  if (!top || !widest || !res || widest >= res) return false;
  // Cloned into every reader: no expensive (math dialect) op in the body.
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  if (mlirBlockIsNull(body)) return false;
  for (MlirOperation b = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(b);
       b = mlirOperationGetNextInBlock(b)) {
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(b));
    if (n.length > 5 && !memcmp(n.data, "math.", 5)) return false;
  }
  return true;
}
