// opclass.c: the table of ops metrale knows by name (generated once, kept sorted by name
// so lookups are a binary search; test/unit checks the order), plus the dialect rules for
// ops not in the table. Expected workload: one lookup per top-level op.
#include "metrale/opclass.h"

#include <string.h>

typedef struct row_t {
  const char *name;
  met_opinfo_t info;
} row_t;

static const row_t kRows[] = {
    {"affine.for", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true, false}},
    {"affine.if", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true, false}},
    {"affine.load", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"affine.parallel", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true, false}},
    {"affine.store", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"arith.bitcast", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"arith.constant", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_CONST, false, true, false}},
    {"arith.extf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false}},
    {"arith.extsi", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false}},
    {"arith.extui", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false}},
    {"arith.fptosi", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false}},
    {"arith.fptoui", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false}},
    {"arith.index_cast", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false}},
    {"arith.index_castui", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false}},
    {"arith.scaling_extf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false}},
    {"arith.scaling_truncf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false}},
    {"arith.sitofp", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false}},
    {"arith.truncf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false}},
    {"arith.trunci", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false}},
    {"arith.uitofp", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false}},
    {"bufferization.alloc_tensor", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_EMPTY, false, true, false}},
    {"bufferization.dealloc", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"bufferization.dealloc_tensor", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"bufferization.to_buffer", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"bufferization.to_memref", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"bufferization.to_tensor", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"func.call", {MET_NODE_COMPUTE, MET_CLASS_UNKNOWN, MET_ROLE_OTHER, false, true, false}},
    {"func.call_indirect", {MET_NODE_COMPUTE, MET_CLASS_UNKNOWN, MET_ROLE_OTHER, false, true, false}},
    {"func.constant", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"func.return", {MET_NODE_RETURN, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    // IREE's fused attention kernels (softmax workspace); unregistered upstream.
    {"iree_linalg_ext.attention", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, true}},
    {"iree_linalg_ext.online_attention", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, true}},
    {"linalg.abs", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.add", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.batch_matmul", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false}},
    {"linalg.batch_matmul_transpose_a", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false}},
    {"linalg.batch_matmul_transpose_b", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false}},
    {"linalg.batch_matvec", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false}},
    {"linalg.batch_mmt4d", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false}},
    {"linalg.batch_reduce_matmul", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false}},
    {"linalg.batch_vecmat", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false}},
    {"linalg.broadcast", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.ceil", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.contract", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false}},
    {"linalg.copy", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.div", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.div_unsigned", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.dot", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false}},
    {"linalg.elementwise", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.elemwise_binary", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.elemwise_unary", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.erf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.exp", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.fill", {MET_NODE_COMPUTE, MET_CLASS_FILL, MET_ROLE_OTHER, false, true, false}},
    {"linalg.fill_rng_2d", {MET_NODE_COMPUTE, MET_CLASS_FILL, MET_ROLE_OTHER, false, true, false}},
    {"linalg.floor", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.generic", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.log", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.map", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.matmul", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false}},
    {"linalg.matmul_transpose_a", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false}},
    {"linalg.matmul_transpose_b", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false}},
    {"linalg.matvec", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false}},
    {"linalg.max", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.min", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.mmt4d", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false}},
    {"linalg.mul", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.negf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.pack", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"linalg.powf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.quantized_batch_matmul", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false}},
    {"linalg.quantized_matmul", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false}},
    {"linalg.reciprocal", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.reduce", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, false}},
    {"linalg.round", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.rsqrt", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.select", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.softmax", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, true}},
    {"linalg.sqrt", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.square", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.sub", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.tanh", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.transpose", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"linalg.unpack", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"linalg.vecmat", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false}},
    {"llvm.mlir.addressof", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"llvm.mlir.global", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"memref.alloc", {MET_NODE_ALLOC, MET_CLASS_OTHER, MET_ROLE_ALLOC, false, true, false}},
    {"memref.alloca", {MET_NODE_ALLOC, MET_CLASS_OTHER, MET_ROLE_ALLOC, false, true, false}},
    {"memref.assume_alignment", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"memref.cast", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"memref.collapse_shape", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"memref.copy", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"memref.dealloc", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"memref.dim", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"memref.expand_shape", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"memref.extract_aligned_pointer_as_index", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"memref.extract_strided_metadata", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"memref.get_global", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_GLOBAL, false, true, false}},
    {"memref.load", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"memref.memory_space_cast", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"memref.rank", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"memref.realloc", {MET_NODE_ALLOC, MET_CLASS_OTHER, MET_ROLE_ALLOC, false, true, false}},
    {"memref.reinterpret_cast", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"memref.store", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"memref.subview", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"memref.transpose", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"memref.view", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"ml_program.global_load", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_GLOBAL, false, true, false}},
    {"ml_program.global_load_const", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_GLOBAL, false, true, false}},
    {"ml_program.global_store", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"scf.execute_region", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true, false}},
    {"scf.for", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true, false}},
    {"scf.forall", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true, false}},
    {"scf.if", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true, false}},
    {"scf.parallel", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true, false}},
    {"scf.while", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true, false}},
    {"tensor.bitcast", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"tensor.cast", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"tensor.collapse_shape", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"tensor.concat", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"tensor.dim", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"tensor.empty", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_EMPTY, false, true, false}},
    {"tensor.expand_shape", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"tensor.extract", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"tensor.extract_slice", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"tensor.from_elements", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"tensor.gather", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"tensor.generate", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"tensor.insert", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"tensor.insert_slice", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"tensor.pad", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"tensor.parallel_insert_slice", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"tensor.rank", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"tensor.reshape", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"tensor.scatter", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"tensor.splat", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"tosa.abs", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.add", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.argmax", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, false}},
    {"tosa.arithmetic_right_shift", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.avg_pool2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true, false}},
    {"tosa.bitwise_and", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.bitwise_not", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.bitwise_or", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.bitwise_xor", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.cast", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false}},
    {"tosa.ceil", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.clamp", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.clz", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.concat", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"tosa.const", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_CONST, false, true, false}},
    {"tosa.const_shape", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"tosa.conv2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true, false}},
    {"tosa.conv3d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true, false}},
    {"tosa.cos", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.custom", {MET_NODE_COMPUTE, MET_CLASS_UNKNOWN, MET_ROLE_OTHER, false, true, false}},
    {"tosa.depthwise_conv2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true, false}},
    {"tosa.equal", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.erf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.exp", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.fft2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true, false}},
    {"tosa.floor", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.fully_connected", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false}},
    {"tosa.gather", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"tosa.greater", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.greater_equal", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.identity", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"tosa.intdiv", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.log", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.logical_and", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.logical_left_shift", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.logical_not", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.logical_or", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.logical_right_shift", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.logical_xor", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.matmul", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false}},
    {"tosa.max_pool2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true, false}},
    {"tosa.maximum", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.minimum", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.mul", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.negate", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.pad", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"tosa.pow", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.reciprocal", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.reduce_all", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, false}},
    {"tosa.reduce_any", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, false}},
    {"tosa.reduce_max", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, false}},
    {"tosa.reduce_min", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, false}},
    {"tosa.reduce_product", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, false}},
    {"tosa.reduce_sum", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, false}},
    {"tosa.rescale", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.reshape", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"tosa.resize", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"tosa.reverse", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"tosa.rfft2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true, false}},
    {"tosa.rsqrt", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.scatter", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"tosa.select", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.shape", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"tosa.sigmoid", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.sin", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.slice", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
    {"tosa.sub", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.table", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.tanh", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.tile", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false}},
    {"tosa.transpose", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false}},
    {"tosa.transpose_conv2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true, false}},
    {"tosa.variable_read", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_GLOBAL, false, true, false}},
    {"tosa.variable_write", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false}},
};

#define NROWS (sizeof(kRows) / sizeof(kRows[0]))

static int cmp_name(const char *a, size_t alen, const char *b) {
  size_t blen = strlen(b);
  int c = memcmp(a, b, alen < blen ? alen : blen);
  if (c) return c;
  return alen < blen ? -1 : (alen > blen);
}

static bool has_prefix(const char *s, size_t len, const char *p) {
  size_t n = strlen(p);
  return len >= n && memcmp(s, p, n) == 0;
}

met_opinfo_t met_opclass_lookup(const char *name, size_t len) {
  size_t lo = 0, hi = NROWS;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = cmp_name(name, len, kRows[mid].name);
    if (c == 0) return kRows[mid].info;
    if (c < 0) hi = mid; else lo = mid + 1;
  }
  met_opinfo_t info = {MET_NODE_COMPUTE, MET_CLASS_UNKNOWN, MET_ROLE_OTHER, false, false, false};
  if (has_prefix(name, len, "arith.") || has_prefix(name, len, "math.") ||
      has_prefix(name, len, "complex.")) {
    info.op_class = MET_CLASS_ELEMENTWISE;
    info.known = true;
  } else if (has_prefix(name, len, "linalg.conv_") ||
             has_prefix(name, len, "linalg.depthwise_conv_") ||
             has_prefix(name, len, "linalg.pooling_")) {
    info.op_class = MET_CLASS_CONV;
    info.known = true;
  }
  return info;
}

size_t met_opclass_table_size(void) { return NROWS; }

bool met_opclass_table_sorted(void) {
  for (size_t i = 1; i < NROWS; ++i)
    if (strcmp(kRows[i - 1].name, kRows[i].name) >= 0) return false;
  return true;
}
