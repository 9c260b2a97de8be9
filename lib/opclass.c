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
    {"affine.for", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true, false, false}},
    {"affine.if", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true, false, false}},
    {"affine.load", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"affine.parallel", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true, false, false}},
    {"affine.store", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"arith.bitcast", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"arith.constant", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_CONST, false, true, false, false}},
    {"arith.extf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false, false}},
    {"arith.extsi", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false, false}},
    {"arith.extui", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false, false}},
    {"arith.fptosi", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false, false}},
    {"arith.fptoui", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false, false}},
    {"arith.index_cast", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false, false}},
    {"arith.index_castui", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false, false}},
    {"arith.scaling_extf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false, false}},
    {"arith.scaling_truncf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false, false}},
    {"arith.sitofp", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false, false}},
    {"arith.truncf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false, false}},
    {"arith.trunci", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false, false}},
    {"arith.uitofp", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false, false}},
    {"bufferization.alloc_tensor", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_EMPTY, false, true, false, false}},
    {"bufferization.dealloc", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"bufferization.dealloc_tensor", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"bufferization.to_buffer", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"bufferization.to_memref", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"bufferization.to_tensor", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"func.call", {MET_NODE_COMPUTE, MET_CLASS_UNKNOWN, MET_ROLE_OTHER, false, true, false, false}},
    {"func.call_indirect", {MET_NODE_COMPUTE, MET_CLASS_UNKNOWN, MET_ROLE_OTHER, false, true, false, false}},
    {"func.constant", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"func.return", {MET_NODE_RETURN, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    // IREE's fused attention kernels (softmax workspace); unregistered upstream.
    {"iree_linalg_ext.attention", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, true, false}},
    {"iree_linalg_ext.online_attention", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, true, false}},
    {"linalg.abs", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.add", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.batch_matmul", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.batch_matmul_transpose_a", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.batch_matmul_transpose_b", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.batch_matvec", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.batch_mmt4d", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.batch_reduce_matmul", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.batch_vecmat", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.broadcast", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.ceil", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.contract", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.copy", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.div", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.div_unsigned", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.dot", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.elementwise", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.elemwise_binary", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.elemwise_unary", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.erf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.exp", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.fill", {MET_NODE_COMPUTE, MET_CLASS_FILL, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.fill_rng_2d", {MET_NODE_COMPUTE, MET_CLASS_FILL, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.floor", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.generic", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.log", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.map", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.matmul", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.matmul_transpose_a", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.matmul_transpose_b", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.matvec", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.max", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.min", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.mmt4d", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.mul", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.negf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.pack", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.powf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.quantized_batch_matmul", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.quantized_matmul", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.reciprocal", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.reduce", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.round", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.rsqrt", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.select", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.softmax", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, true, false}},
    {"linalg.sqrt", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.square", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.sub", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.tanh", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.transpose", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.unpack", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, false}},
    {"linalg.vecmat", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false, false}},
    {"llvm.mlir.addressof", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"llvm.mlir.global", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"memref.alloc", {MET_NODE_ALLOC, MET_CLASS_OTHER, MET_ROLE_ALLOC, false, true, false, false}},
    {"memref.alloca", {MET_NODE_ALLOC, MET_CLASS_OTHER, MET_ROLE_ALLOC, false, true, false, false}},
    {"memref.assume_alignment", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"memref.cast", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"memref.collapse_shape", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"memref.copy", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, false}},
    {"memref.dealloc", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"memref.dim", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"memref.expand_shape", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"memref.extract_aligned_pointer_as_index", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"memref.extract_strided_metadata", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"memref.get_global", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_GLOBAL, false, true, false, false}},
    {"memref.load", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"memref.memory_space_cast", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"memref.rank", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"memref.realloc", {MET_NODE_ALLOC, MET_CLASS_OTHER, MET_ROLE_ALLOC, false, true, false, false}},
    {"memref.reinterpret_cast", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"memref.store", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"memref.subview", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"memref.transpose", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"memref.view", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"ml_program.global_load", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_GLOBAL, false, true, false, false}},
    {"ml_program.global_load_const", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_GLOBAL, false, true, false, false}},
    {"ml_program.global_store", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"scf.execute_region", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true, false, false}},
    {"scf.for", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true, false, false}},
    {"scf.forall", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true, false, false}},
    {"scf.if", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true, false, false}},
    {"scf.parallel", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true, false, false}},
    {"scf.while", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true, false, false}},
    {"tensor.bitcast", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"tensor.cast", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"tensor.collapse_shape", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"tensor.concat", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, false}},
    {"tensor.dim", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"tensor.empty", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_EMPTY, false, true, false, false}},
    {"tensor.expand_shape", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"tensor.extract", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"tensor.extract_slice", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"tensor.from_elements", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, false}},
    {"tensor.gather", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, true}},
    {"tensor.generate", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, false}},
    {"tensor.insert", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, false}},
    {"tensor.insert_slice", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, false}},
    {"tensor.pad", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, false}},
    {"tensor.parallel_insert_slice", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, false}},
    {"tensor.rank", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"tensor.reshape", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"tensor.scatter", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, false}},
    {"tensor.splat", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.abs", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.add", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.argmax", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.arithmetic_right_shift", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.avg_pool2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.bitwise_and", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.bitwise_not", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.bitwise_or", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.bitwise_xor", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.cast", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true, false, false}},
    {"tosa.ceil", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.clamp", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.clz", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.concat", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.const", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_CONST, false, true, false, false}},
    {"tosa.const_shape", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.conv2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.conv3d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.cos", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.custom", {MET_NODE_COMPUTE, MET_CLASS_UNKNOWN, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.depthwise_conv2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.equal", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.erf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.exp", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.fft2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.floor", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.fully_connected", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.gather", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, true}},
    {"tosa.greater", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.greater_equal", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.identity", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.intdiv", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.log", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.logical_and", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.logical_left_shift", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.logical_not", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.logical_or", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.logical_right_shift", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.logical_xor", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.matmul", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.max_pool2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.maximum", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.minimum", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.mul", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.negate", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.pad", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.pow", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.reciprocal", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.reduce_all", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.reduce_any", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.reduce_max", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.reduce_min", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.reduce_product", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.reduce_sum", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.rescale", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.reshape", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.resize", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.reverse", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, true}},
    {"tosa.rfft2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.rsqrt", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.scatter", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.select", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.shape", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.sigmoid", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.sin", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.slice", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.sub", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.table", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.tanh", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.tile", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false, true}},
    {"tosa.transpose", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.transpose_conv2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true, false, false}},
    {"tosa.variable_read", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_GLOBAL, false, true, false, false}},
    {"tosa.variable_write", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true, false, false}},
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
  met_opinfo_t info = {MET_NODE_COMPUTE, MET_CLASS_UNKNOWN, MET_ROLE_OTHER, false, false, false, false};
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
