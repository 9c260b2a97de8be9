// flops.c: FLOPs of one op, for the dispatch stats' roofline (metrale/dispatch.h).
// One multiply-add is 2 FLOPs; every other arithmetic element operation is 1.
//  - linalg structured ops (named and generic): the static iteration domain times the
//    arith/math ops of the body (mlir_hooks.cpp), so a matmul is 2 x M x N x K and a
//    generic with three payload ops over N elements is 3 x N; fill, copy, transpose and
//    broadcast bodies compute nothing: 0.
//  - TOSA: tosa.matmul 2 x |out| x C (A is N x H x C); tosa.conv2d / conv3d 2 x |out| x
//    |weight| / OC (weight OC x KH x KW x IC); tosa.depthwise_conv2d 2 x |out| x KH x KW;
//    tosa.transpose_conv2d 2 x |in| x |weight| / IC; pooling |out| x the kernel window;
//    reductions and argmax |in|; other elementwise ops |out|.
//  - arith/math on tensors: |out|; linalg.softmax 5 x |out| (max, subtract, exp, sum,
//    divide).
//  - data movement (slices, reshapes, concat, pad, gather, ...): 0.
//  - dynamic dims count as dynamic-size=N when it is given.
//  - a resolved func.call: its callee's FLOPs (unknown when some of those are).
//  - anything else (loops, unresolved calls, unknown ops) and unbound dynamic shapes:
//    unknown, counted as 0 with MET_NODE_F_FLOPS_UNKNOWN set on the node.
#include "adapter/state.h"

#include <string.h>

#include "ir/ir.h"
#include "metrale/checked.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ir/mlir_hooks.h"

// Elements of a shaped value, a dynamic dim counting dynamic_size (when > 0), from the
// adapter's type cache; false when a dim is dynamic and unbound, the count overflows or
// the value is not shaped.
static bool elems_sh(adapter_shared_t *sh, MlirValue v, uint64_t *out) {
  MlirType t = mlirValueGetType(v);
  const type_entry_t *te;
  if (met_adapter_type_entry(sh, t, &te) != MET_OK) return false;
  if (te->shaped) {  // tensors and memrefs
    *out = te->elems;
    return te->elems_known;
  }
  if (!mlirTypeIsAVector(t)) return false;
  uint64_t n = 1;  // vectors: static dims only
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); ++d)
    if (!met_mul_u64(n, (uint64_t)mlirShapedTypeGetDimSize(t, d), &n)) return false;
  *out = n;
  return true;
}

static bool dim_dyn(MlirValue v, intptr_t d, int64_t dyn, uint64_t *out) {
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsAShaped(t) || !mlirShapedTypeHasRank(t)) return false;
  intptr_t r = mlirShapedTypeGetRank(t);
  if (d < 0) d += r;
  if (d < 0 || d >= r) return false;
  int64_t s = mlirShapedTypeGetDimSize(t, d);
  if (mlirShapedTypeIsDynamicSize(s)) s = dyn > 0 ? dyn : -1;
  if (s < 0) return false;
  *out = (uint64_t)s;
  return true;
}

// The rules below read |dyn| through these two (a file-local name for the option).
#define elems(v, out) elems_sh(sh, (v), (out))
#define dim(v, d, out) dim_dyn((v), (d), dyn, (out))

// a x b x c into |*out|: MET_FLOPS_OK, or MET_FLOPS_OVERFLOW.
static int mul3(uint64_t a, uint64_t b, uint64_t c, uint64_t *out) {
  return met_mul_u64(a, b, out) && met_mul_u64(*out, c, out) ? MET_FLOPS_OK : MET_FLOPS_OVERFLOW;
}

static bool is(MlirStringRef name, const char *s) { return met_ir_str_eq(name, s); }

static int tosa_flops(adapter_shared_t *sh, MlirOperation op, MlirStringRef name,
                      met_op_class_t cls, uint64_t *out) {
  int64_t dyn = sh->opt->dynamic_size;
  intptr_t nops = mlirOperationGetNumOperands(op);
  if (mlirOperationGetNumResults(op) < 1) return MET_FLOPS_UNKNOWN;
  uint64_t res, a, b;
  if (!elems(mlirOperationGetResult(op, 0), &res)) return MET_FLOPS_UNKNOWN;
  if (is(name, "tosa.transpose")) return MET_FLOPS_OK;  // elementwise class, moves data: 0
  if (is(name, "tosa.matmul"))
    return nops >= 2 && dim(mlirOperationGetOperand(op, 0), -1, &a) ? mul3(2, res, a, out)
                                                                    : MET_FLOPS_UNKNOWN;
  if (is(name, "tosa.conv2d") || is(name, "tosa.conv3d")) {
    uint64_t w, oc;
    return nops >= 2 && elems(mlirOperationGetOperand(op, 1), &w) &&
                   dim(mlirOperationGetOperand(op, 1), 0, &oc) && oc
               ? mul3(2, res, w / oc, out) : MET_FLOPS_UNKNOWN;
  }
  if (is(name, "tosa.depthwise_conv2d")) {
    if (nops < 2 || !dim(mlirOperationGetOperand(op, 1), 0, &a) ||
        !dim(mlirOperationGetOperand(op, 1), 1, &b))
      return MET_FLOPS_UNKNOWN;
    return met_mul_u64(a, b, &a) ? mul3(2, res, a, out) : MET_FLOPS_OVERFLOW;
  }
  if (is(name, "tosa.transpose_conv2d")) {
    uint64_t in, w, ic;
    return nops >= 2 && elems(mlirOperationGetOperand(op, 0), &in) &&
                   elems(mlirOperationGetOperand(op, 1), &w) &&
                   dim(mlirOperationGetOperand(op, 1), -1, &ic) && ic
               ? mul3(2, in, w / ic, out) : MET_FLOPS_UNKNOWN;
  }
  if (is(name, "tosa.max_pool2d") || is(name, "tosa.avg_pool2d")) {
    MlirAttribute k =
        mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("kernel"));
    if (mlirAttributeIsNull(k) || !mlirAttributeIsADenseI64Array(k)) return MET_FLOPS_UNKNOWN;
    uint64_t window = 1;
    for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(k); ++i) {
      int64_t e = mlirDenseI64ArrayGetElement(k, i);
      if (e < 0) return MET_FLOPS_UNKNOWN;
      if (!met_mul_u64(window, (uint64_t)e, &window)) return MET_FLOPS_OVERFLOW;
    }
    return met_mul_u64(res, window, out) ? MET_FLOPS_OK : MET_FLOPS_OVERFLOW;
  }
  if (cls == MET_CLASS_REDUCTION)
    return nops >= 1 && elems(mlirOperationGetOperand(op, 0), out) ? MET_FLOPS_OK
                                                                   : MET_FLOPS_UNKNOWN;
  if (cls == MET_CLASS_ELEMENTWISE) { *out = res; return MET_FLOPS_OK; }
  if (cls == MET_CLASS_DATA_MOVEMENT || cls == MET_CLASS_FILL) { *out = 0; return MET_FLOPS_OK; }
  return MET_FLOPS_UNKNOWN;
}

int met_adapter_flops(adapter_shared_t *sh, MlirOperation op, MlirStringRef name,
                      met_op_class_t cls, uint64_t *out) {
  *out = 0;
  // Only linalg's ops are structured ops (the interface lookup costs every other op).
  if (met_ir_str_in_dialect(name, "linalg.")) {
    int l = met_linalg_flops(op, sh->opt->dynamic_size, out);
    if (l) return l > 0 ? MET_FLOPS_OK : MET_FLOPS_OVERFLOW;
  }
  if (met_ir_str_in_dialect(name, "tosa."))
    return tosa_flops(sh, op, name, cls, out);
  uint64_t res;
  if (mlirOperationGetNumResults(op) < 1 || !elems(mlirOperationGetResult(op, 0), &res))
    return cls == MET_CLASS_DATA_MOVEMENT ? MET_FLOPS_OK : MET_FLOPS_UNKNOWN;  // nothing shaped
  if (is(name, "linalg.softmax")) return met_mul_u64(res, 5, out) ? MET_FLOPS_OK : MET_FLOPS_OVERFLOW;
  if (cls == MET_CLASS_ELEMENTWISE) { *out = res; return MET_FLOPS_OK; }
  if (cls == MET_CLASS_DATA_MOVEMENT || cls == MET_CLASS_FILL) return MET_FLOPS_OK;
  return MET_FLOPS_UNKNOWN;
}
