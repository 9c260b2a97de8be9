// lowering.c: what upstream MLIR's lowering does to an op, as facts on its node
// (metrale/graph.h: MET_NODE_F_GENERIC, MET_NODE_F_DPS_INIT, met_node_extra_t's
// lowering_kernels and lowering_buffer_bytes), and transpose pairs that cancel.
//
// The facts come from reading what tosa-to-linalg-named, tosa-to-linalg,
// convert-elementwise-to-linalg and one-shot-bufferize of MLIR 22 emit (checked op by op
// against `metrale run`, test/Run/fusion-mlir*.test):
//   tosa.conv2d/conv3d/depthwise_conv2d/transpose_conv2d: the bias broadcast into the
//     accumulator (a linalg.generic) before the convolution: 1 kernel;
//   tosa.max_pool2d/avg_pool2d: the accumulator's linalg.fill: 1 kernel, and a buffer of
//     the window's shape (linalg.pooling_* takes one; bufferization allocates it);
//   tosa.matmul and tosa.reduce_*: the accumulator's linalg.fill: 1 kernel;
//   a nonzero `pad` on a convolution or pooling: tensor.pad, bufferized as a fresh buffer
//     of the padded input, a linalg.map that fills it and a memref.copy of the input into
//     it: 2 kernels and one buffer, live while the op runs;
//   tosa.pad: the same fill and copy (its own kernel plus 1);
//   tosa.concat of k inputs: tensor.insert_slice, one memref.copy per input (k - 1 more).
//   linalg.softmax: `metrale run` decomposes it first (see softmax_lowering).
// Elementwise and reduction TOSA ops and tensor arith/math become linalg.generic; the
// other TOSA ops and the named linalg ops stay named ops (linalg.transpose, linalg.matmul,
// linalg.fill, linalg.broadcast, linalg.map, ...), which linalg-fuse-elementwise-ops does
// not fuse.
#include <string.h>

#include "adapter/state.h"
#include "ir/ir.h"
#include "ir/mlir_hooks.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

bool met_adapter_lowers_to_generic(MlirStringRef name, const met_opinfo_t *info) {
  if (met_ir_str_eq(name, "linalg.generic")) return true;
  bool ew = info->op_class == MET_CLASS_ELEMENTWISE;
  if (met_ir_str_has_prefix(name, "tosa."))  // tosa.transpose becomes a named linalg.transpose
    return (ew || info->op_class == MET_CLASS_REDUCTION) && !met_ir_str_eq(name, "tosa.transpose");
  return ew && (met_ir_str_has_prefix(name, "arith.") || met_ir_str_has_prefix(name, "math."));
}

// The storage bytes of one element of |t|'s element type, as upstream lowering lays it
// out (sub-byte integers a byte each); 0 when not an integer or float.
static uint64_t elem_bytes(MlirType t) {
  if (mlirTypeIsAInteger(t)) return (mlirIntegerTypeGetWidth(t) + 7) / 8;
  if (mlirTypeIsAFloat(t)) return (mlirFloatTypeGetWidth(t) + 7) / 8;
  return 0;
}

// The bytes of operand 0 padded by the `pad` attribute (pairs of before/after amounts
// for the dims after the batch dim), or 0 when there is no nonzero pad or the input has
// no static shape. *|overflow| when the product passes 2^64.
static uint64_t padded_input_bytes(MlirOperation op, bool *overflow) {
  *overflow = false;
  MlirAttribute pad = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("pad"));
  if (mlirAttributeIsNull(pad) || !mlirAttributeIsADenseI64Array(pad)) return 0;
  intptr_t np = mlirDenseArrayGetNumElements(pad);
  bool any = false;
  for (intptr_t i = 0; i < np; ++i) any |= mlirDenseI64ArrayGetElement(pad, i) != 0;
  if (!any || mlirOperationGetNumOperands(op) < 1) return 0;
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t)) return 0;
  intptr_t rank = mlirShapedTypeGetRank(t);
  if (np % 2 || rank < 2 + np / 2) return 0;
  uint64_t bytes = elem_bytes(mlirShapedTypeGetElementType(t));
  for (intptr_t d = 0; d < rank && bytes; ++d) {
    int64_t dim = mlirShapedTypeGetDimSize(t, d);
    intptr_t k = d - 1;  // pads cover dims 1 .. np/2
    if (k >= 0 && k < np / 2) {
      int64_t lo = mlirDenseI64ArrayGetElement(pad, 2 * k), hi = mlirDenseI64ArrayGetElement(pad, 2 * k + 1);
      if (lo < 0 || hi < 0) return 0;
      if (__builtin_add_overflow(dim, lo, &dim) || __builtin_add_overflow(dim, hi, &dim)) {
        *overflow = true;
        return 0;
      }
    }
    if (dim < 0 || __builtin_mul_overflow(bytes, (uint64_t)dim, &bytes)) {
      *overflow = true;
      return 0;
    }
  }
  return bytes;
}

// A pooling op's window: linalg.pooling_* takes a tensor of the window's shape
// (tensor.empty), which bufferization allocates: kernel[0] x kernel[1] elements of the
// input's type. 0 for other ops.
static uint64_t pool_window_bytes(MlirOperation op, MlirStringRef name) {
  if (!met_ir_str_eq(name, "tosa.max_pool2d") && !met_ir_str_eq(name, "tosa.avg_pool2d")) return 0;
  MlirAttribute k = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("kernel"));
  if (mlirAttributeIsNull(k) || !mlirAttributeIsADenseI64Array(k) || mlirOperationGetNumOperands(op) < 1)
    return 0;
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
  if (!mlirTypeIsAShaped(t)) return 0;
  uint64_t bytes = elem_bytes(mlirShapedTypeGetElementType(t));
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(k); ++i) {
    int64_t d = mlirDenseI64ArrayGetElement(k, i);
    if (d <= 0 || __builtin_mul_overflow(bytes, (uint64_t)d, &bytes)) return 0;
  }
  return bytes;
}

// linalg.softmax as `metrale run` decomposes it (decompose_interface): a fill and a max
// reduction, the exp of the differences, a fill and a sum reduction, the division: five
// kernels besides its own count of one, and the reduced (dimension-dropped) buffer.
static bool softmax_lowering(MlirOperation op, met_node_extra_t *x, bool *overflow) {
  x->lowering_kernels = 5;
  MlirAttribute d = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("dimension"));
  if (mlirOperationGetNumResults(op) != 1 || mlirAttributeIsNull(d) || !mlirAttributeIsAInteger(d))
    return true;
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t)) return true;
  int64_t dim = mlirIntegerAttrGetValueInt(d);
  uint64_t bytes = elem_bytes(mlirShapedTypeGetElementType(t));
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); ++i) {
    if (i == dim) continue;
    if (__builtin_mul_overflow(bytes, (uint64_t)mlirShapedTypeGetDimSize(t, i), &bytes)) {
      *overflow = true;
      return true;
    }
  }
  x->lowering_buffers = 1;
  x->lowering_buffer_bytes = bytes;
  return true;
}

bool met_adapter_lowering(MlirOperation op, MlirStringRef name, met_node_extra_t *x,
                          bool *overflow) {
  *overflow = false;
  if (met_ir_str_eq(name, "linalg.softmax")) return softmax_lowering(op, x, overflow);
  if (!met_ir_str_has_prefix(name, "tosa.")) return false;
  static const char *const init_ops[] = {"tosa.conv2d", "tosa.conv3d", "tosa.depthwise_conv2d",
                                         "tosa.transpose_conv2d", "tosa.max_pool2d",
                                         "tosa.avg_pool2d", "tosa.matmul"};
  bool init = met_ir_str_has_prefix(name, "tosa.reduce_");
  for (size_t i = 0; i < sizeof init_ops / sizeof *init_ops && !init; ++i)
    init = met_ir_str_eq(name, init_ops[i]);
  if (init) {
    x->lowering_kernels = 1;
    uint64_t padded = padded_input_bytes(op, overflow);
    if (padded) {
      x->lowering_kernels += 2;
      x->lowering_buffers = 1;
      x->lowering_buffer_bytes = padded;
    }
    uint64_t window = pool_window_bytes(op, name);
    if (window) {
      x->lowering_buffers++;
      if (__builtin_add_overflow(x->lowering_buffer_bytes, window, &x->lowering_buffer_bytes))
        *overflow = true;
    }
    return true;
  }
  if (met_ir_str_eq(name, "tosa.pad")) {
    x->lowering_kernels = 1;
    return true;
  }
  if (met_ir_str_eq(name, "tosa.concat")) {
    intptr_t k = 0;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
      k += mlirTypeIsAShaped(mlirValueGetType(mlirOperationGetOperand(op, i)));
    if (k < 2) return false;
    x->lowering_kernels = (uint32_t)(k - 1 > UINT32_MAX ? UINT32_MAX : k - 1);
    return true;
  }
  return false;
}

bool met_adapter_has_dps_init(MlirOperation op, MlirStringRef name) {
  if (!met_ir_str_has_prefix(name, "linalg.") || mlirOperationGetNumResults(op) != 1) return false;
  intptr_t n = mlirOperationGetNumOperands(op);
  if (n < 1) return false;
  MlirValue last = mlirOperationGetOperand(op, n - 1);
  return mlirTypeEqual(mlirValueGetType(last), mlirValueGetType(mlirOperationGetResult(op, 0)));
}

// The first of a linalg op's outs (its DPS inits, the last operands): after the ins its
// operandSegmentSizes count, half of them with SameVariadicOperandSize (linalg.reduce),
// else the last operand (linalg.transpose, broadcast, map: one init).
static intptr_t linalg_outs_begin(MlirOperation op, MlirStringRef name) {
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirAttribute seg = mlirOperationGetInherentAttributeByName(
      op, mlirStringRefCreateFromCString("operandSegmentSizes"));
  if (!mlirAttributeIsNull(seg) && mlirAttributeIsADenseI32Array(seg) &&
      mlirDenseArrayGetNumElements(seg) >= 2) {
    int32_t ins = mlirDenseI32ArrayGetElement(seg, 0);
    return ins >= 0 && ins <= n ? ins : n;
  }
  if (met_ir_str_eq(name, "linalg.reduce")) return n / 2;
  return n > 0 ? n - 1 : 0;
}

met_access_t met_adapter_operand_access(MlirOperation op, MlirStringRef name, intptr_t i) {
  intptr_t n = mlirOperationGetNumOperands(op);
  if (i < 0 || i >= n || !mlirTypeIsAMemRef(mlirValueGetType(mlirOperationGetOperand(op, i))))
    return MET_ACCESS_READ;
  if (met_ir_str_eq(name, "memref.copy")) return i == 1 ? MET_ACCESS_WRITE : MET_ACCESS_READ;
  if (!met_ir_str_has_prefix(name, "linalg.") || mlirOperationGetNumResults(op) != 0) return MET_ACCESS_READ;
  if (i < linalg_outs_begin(op, name)) return MET_ACCESS_READ;
  // The payload's argument for operand i: a use is a read of the out's old element. A
  // body that is not one block of one argument per operand reads it, to be safe.
  if (mlirOperationGetNumRegions(op) < 1) return MET_ACCESS_UPDATE;
  MlirBlock blk = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  if (mlirBlockIsNull(blk) || mlirBlockGetNumArguments(blk) != n) return MET_ACCESS_UPDATE;
  MlirValue arg = mlirBlockGetArgument(blk, i);
  return mlirOpOperandIsNull(mlirValueGetFirstUse(arg)) ? MET_ACCESS_WRITE : MET_ACCESS_UPDATE;
}

// The permutation of a transpose (tosa.transpose `perms`, linalg.transpose `permutation`)
// into |p| (at most 16 dims); its length, or -1 when |op| is no transpose.
static intptr_t transpose_perm(MlirOperation op, int64_t p[16]) {
  MlirAttribute a;
  bool tosa = met_ir_op_is(op, "tosa.transpose");
  if (tosa) a = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("perms"));
  else if (met_ir_op_is(op, "linalg.transpose"))
    a = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("permutation"));
  else return -1;
  if (mlirAttributeIsNull(a)) return -1;
  if (tosa ? !mlirAttributeIsADenseI32Array(a) : !mlirAttributeIsADenseI64Array(a)) return -1;
  intptr_t n = mlirDenseArrayGetNumElements(a);
  if (n > 16) return -1;
  for (intptr_t i = 0; i < n; ++i)
    p[i] = tosa ? mlirDenseI32ArrayGetElement(a, i) : mlirDenseI64ArrayGetElement(a, i);
  return n;
}

// |v|'s one use by an op that is not erased as dead, or a null operand when it has none
// or several.
static MlirOpOperand one_live_use(const adapter_shared_t *sh, MlirValue v) {
  MlirOpOperand one = {NULL};
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    if (met_adapter_op_dead(sh, mlirOpOperandGetOwner(u))) continue;
    if (!mlirOpOperandIsNull(one)) return (MlirOpOperand){NULL};
    one = u;
  }
  return one;
}

// |outer| = transpose(|inner|'s result) composes with |inner| to the identity.
static bool pair_cancels(MlirOperation inner, MlirOperation outer) {
  int64_t p1[16], p2[16];
  intptr_t n1 = transpose_perm(inner, p1), n2 = transpose_perm(outer, p2);
  if (n1 < 0 || n1 != n2 || mlirOperationGetNumResults(inner) != 1 ||
      mlirOperationGetNumOperands(inner) < 1)
    return false;
  for (intptr_t j = 0; j < n2; ++j)
    if (p2[j] < 0 || p2[j] >= n1 || p1[p2[j]] != j) return false;
  return true;
}

// |op| undoes the transpose its input comes from, and that one does not itself undo an
// earlier one (T3(T2(T1(x))) with T2 undoing T1 leaves T3 a transpose of x). Chains
// longer than 64 transposes are not followed (no fold is assumed).
static bool cancels_as_outer(MlirOperation op, int depth) {
  if (depth > 64 || mlirOperationGetNumOperands(op) < 1) return false;
  MlirValue in = mlirOperationGetOperand(op, 0);
  if (!mlirValueIsAOpResult(in)) return false;
  MlirOperation inner = mlirOpResultGetOwner(in);
  return pair_cancels(inner, op) && !cancels_as_outer(inner, depth + 1);
}

bool met_adapter_transpose_folds(const adapter_shared_t *sh, MlirOperation op, MlirValue *src) {
  if (mlirOperationGetNumResults(op) != 1 || mlirOperationGetNumOperands(op) < 1) return false;
  if (cancels_as_outer(op, 0)) {
    // T2(T1(x)) is x, whatever else reads T1.
    *src = mlirOperationGetOperand(mlirOpResultGetOwner(mlirOperationGetOperand(op, 0)), 0);
    return true;
  }
  // T1 whose only (live) use is a T2 that undoes it is dead once T2 folds.
  MlirOpOperand u = one_live_use(sh, mlirOperationGetResult(op, 0));
  if (mlirOpOperandIsNull(u) || mlirOpOperandGetOperandNumber(u) != 0 ||
      !cancels_as_outer(mlirOpOperandGetOwner(u), 0))
    return false;
  *src = mlirOperationGetOperand(op, 0);
  return true;
}

bool met_adapter_is_splat_constant(MlirOperation op) {
  MlirAttribute a = met_constant_elements(op);
  return !mlirAttributeIsNull(a) && mlirDenseElementsAttrIsSplat(a);
}

// TOSA operands the specification requires to be compile-time constants, by position:
// zero points, the shift of tosa.mul, the multiplier and shift of tosa.rescale, the pad
// value of tosa.pad. tosa-to-linalg reads them as constants into the kernel's body. And
// a convolution's bias: the lowering broadcasts it into the accumulator with a
// linalg.generic, whose body takes a splat bias in as a scalar (FoldScalarOrSplatConstant).
static const struct {
  const char *op;
  uint8_t mask;  // bit i: operand i
} kTosaFoldedOperands[] = {
    {"tosa.avg_pool2d", 0x6},     // input_zp, output_zp
    {"tosa.conv2d", 0x1c},        // bias, input_zp, weight_zp
    {"tosa.conv3d", 0x1c},
    {"tosa.depthwise_conv2d", 0x1c},
    {"tosa.transpose_conv2d", 0x1c},
    {"tosa.matmul", 0xc},         // a_zp, b_zp
    {"tosa.mul", 0x4},            // shift
    {"tosa.negate", 0x6},         // input1_zp, output_zp
    {"tosa.pad", 0x4},            // pad_const
    {"tosa.rescale", 0x1e},       // multiplier, shift, input_zp, output_zp
};

uint8_t met_adapter_folded_operands(MlirStringRef name) {
  if (!met_ir_str_has_prefix(name, "tosa.")) return 0;
  for (size_t k = 0; k < sizeof kTosaFoldedOperands / sizeof *kTosaFoldedOperands; ++k)
    if (met_ir_str_eq(name, kTosaFoldedOperands[k].op)) return kTosaFoldedOperands[k].mask;
  return 0;
}

bool met_adapter_operand_folds(MlirOperation op, uint8_t folded, intptr_t i) {
  if (i < 0 || i >= 8 || !(folded >> i & 1)) return false;
  MlirValue v = mlirOperationGetOperand(op, i);
  if (!mlirValueIsAOpResult(v)) return false;
  return met_adapter_is_splat_constant(mlirOpResultGetOwner(v));
}

bool met_adapter_dealloc_name(MlirStringRef n) {
  return met_ir_str_eq(n, "memref.dealloc") || met_ir_str_eq(n, "bufferization.dealloc");
}

bool met_adapter_is_dealloc(MlirOperation op) {
  return met_adapter_dealloc_name(mlirIdentifierStr(mlirOperationGetName(op)));
}

bool met_adapter_only_deallocates(MlirOperation op) {
  bool any = false;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
    MlirRegion region = mlirOperationGetRegion(op, r);
    for (MlirBlock b = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      for (MlirOperation in = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(in);
           in = mlirOperationGetNextInBlock(in)) {
        if (met_adapter_is_dealloc(in)) {
          any = true;
          continue;
        }
        MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(in));
        if (!met_ir_str_eq(n, "scf.yield") || mlirOperationGetNumOperands(in) != 0) return false;
      }
  }
  return any;
}

// Whether the static array |name| of |op| is |n| entries all equal to |v|, or (|v| < 0)
// equal to |shape|'s dims.
static bool static_array_is(MlirOperation op, const char *name, intptr_t n, int64_t v,
                            MlirType shape) {
  MlirAttribute a = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a) ||
      mlirDenseArrayGetNumElements(a) != n)
    return false;
  for (intptr_t i = 0; i < n; ++i) {
    int64_t want = v >= 0 ? v : mlirShapedTypeGetDimSize(shape, i);
    if (mlirDenseI64ArrayGetElement(a, i) != want) return false;
  }
  return true;
}

bool met_adapter_identity_insert(MlirOperation op) {
  if (!met_ir_op_is(op, "tensor.insert_slice") || mlirOperationGetNumOperands(op) != 2 ||
      mlirOperationGetNumResults(op) != 1)
    return false;
  MlirType src = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType res = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeEqual(src, res) || !mlirTypeIsARankedTensor(res) || !mlirShapedTypeHasStaticShape(res))
    return false;
  intptr_t rank = mlirShapedTypeGetRank(res);
  return static_array_is(op, "static_offsets", rank, 0, res) &&
         static_array_is(op, "static_sizes", rank, -1, res) &&
         static_array_is(op, "static_strides", rank, 1, res);
}
