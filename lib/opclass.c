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
    {"affine.for", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true}},
    {"affine.if", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true}},
    {"affine.load", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"affine.parallel", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true}},
    {"affine.store", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"arith.bitcast", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"arith.constant", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_CONST, false, true}},
    {"arith.extf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true}},
    {"arith.extsi", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true}},
    {"arith.extui", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true}},
    {"arith.fptosi", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true}},
    {"arith.fptoui", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true}},
    {"arith.index_cast", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true}},
    {"arith.index_castui", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true}},
    {"arith.scaling_extf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true}},
    {"arith.scaling_truncf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true}},
    {"arith.sitofp", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true}},
    {"arith.truncf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true}},
    {"arith.trunci", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true}},
    {"arith.uitofp", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true}},
    {"bufferization.alloc_tensor", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_EMPTY, false, true}},
    {"bufferization.dealloc", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"bufferization.dealloc_tensor", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"bufferization.to_buffer", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"bufferization.to_memref", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"bufferization.to_tensor", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"func.call", {MET_NODE_COMPUTE, MET_CLASS_UNKNOWN, MET_ROLE_OTHER, false, true}},
    {"func.call_indirect", {MET_NODE_COMPUTE, MET_CLASS_UNKNOWN, MET_ROLE_OTHER, false, true}},
    {"func.constant", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"func.return", {MET_NODE_RETURN, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"linalg.abs", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.add", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.batch_matmul", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true}},
    {"linalg.batch_matmul_transpose_a", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true}},
    {"linalg.batch_matmul_transpose_b", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true}},
    {"linalg.batch_matvec", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true}},
    {"linalg.batch_mmt4d", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true}},
    {"linalg.batch_reduce_matmul", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true}},
    {"linalg.batch_vecmat", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true}},
    {"linalg.broadcast", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.ceil", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.contract", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true}},
    {"linalg.copy", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.div", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.div_unsigned", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.dot", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true}},
    {"linalg.elementwise", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.elemwise_binary", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.elemwise_unary", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.erf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.exp", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.fill", {MET_NODE_COMPUTE, MET_CLASS_FILL, MET_ROLE_OTHER, false, true}},
    {"linalg.fill_rng_2d", {MET_NODE_COMPUTE, MET_CLASS_FILL, MET_ROLE_OTHER, false, true}},
    {"linalg.floor", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.generic", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.log", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.map", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.matmul", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true}},
    {"linalg.matmul_transpose_a", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true}},
    {"linalg.matmul_transpose_b", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true}},
    {"linalg.matvec", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true}},
    {"linalg.max", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.min", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.mmt4d", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true}},
    {"linalg.mul", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.negf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.pack", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"linalg.powf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.quantized_batch_matmul", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true}},
    {"linalg.quantized_matmul", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true}},
    {"linalg.reciprocal", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.reduce", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true}},
    {"linalg.round", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.rsqrt", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.select", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.softmax", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true}},
    {"linalg.sqrt", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.square", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.sub", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.tanh", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"linalg.transpose", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"linalg.unpack", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"linalg.vecmat", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true}},
    {"llvm.mlir.addressof", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"llvm.mlir.global", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"memref.alloc", {MET_NODE_ALLOC, MET_CLASS_OTHER, MET_ROLE_ALLOC, false, true}},
    {"memref.alloca", {MET_NODE_ALLOC, MET_CLASS_OTHER, MET_ROLE_ALLOC, false, true}},
    {"memref.assume_alignment", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"memref.cast", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"memref.collapse_shape", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"memref.copy", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"memref.dealloc", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"memref.dim", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"memref.expand_shape", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"memref.extract_aligned_pointer_as_index", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"memref.extract_strided_metadata", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"memref.get_global", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_GLOBAL, false, true}},
    {"memref.load", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"memref.memory_space_cast", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"memref.rank", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"memref.realloc", {MET_NODE_ALLOC, MET_CLASS_OTHER, MET_ROLE_ALLOC, false, true}},
    {"memref.reinterpret_cast", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"memref.store", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"memref.subview", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"memref.transpose", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"memref.view", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"ml_program.global_load", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_GLOBAL, false, true}},
    {"ml_program.global_load_const", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_GLOBAL, false, true}},
    {"ml_program.global_store", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"scf.execute_region", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true}},
    {"scf.for", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true}},
    {"scf.forall", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true}},
    {"scf.if", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true}},
    {"scf.parallel", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true}},
    {"scf.while", {MET_NODE_COMPUTE, MET_CLASS_LOOP, MET_ROLE_OTHER, false, true}},
    {"tensor.bitcast", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"tensor.cast", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"tensor.collapse_shape", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"tensor.concat", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"tensor.dim", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"tensor.empty", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_EMPTY, false, true}},
    {"tensor.expand_shape", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"tensor.extract", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"tensor.extract_slice", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"tensor.from_elements", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"tensor.gather", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"tensor.generate", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"tensor.insert", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"tensor.insert_slice", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"tensor.pad", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"tensor.parallel_insert_slice", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"tensor.rank", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"tensor.reshape", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"tensor.scatter", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"tensor.splat", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"tosa.abs", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.add", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.argmax", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true}},
    {"tosa.arithmetic_right_shift", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.avg_pool2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true}},
    {"tosa.bitwise_and", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.bitwise_not", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.bitwise_or", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.bitwise_xor", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.cast", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, true, true}},
    {"tosa.ceil", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.clamp", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.clz", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.concat", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"tosa.const", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_CONST, false, true}},
    {"tosa.const_shape", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"tosa.conv2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true}},
    {"tosa.conv3d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true}},
    {"tosa.cos", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.custom", {MET_NODE_COMPUTE, MET_CLASS_UNKNOWN, MET_ROLE_OTHER, false, true}},
    {"tosa.depthwise_conv2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true}},
    {"tosa.equal", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.erf", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.exp", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.fft2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true}},
    {"tosa.floor", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.fully_connected", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true}},
    {"tosa.gather", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"tosa.greater", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.greater_equal", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.identity", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"tosa.intdiv", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.log", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.logical_and", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.logical_left_shift", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.logical_not", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.logical_or", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.logical_right_shift", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.logical_xor", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.matmul", {MET_NODE_COMPUTE, MET_CLASS_MATMUL, MET_ROLE_OTHER, false, true}},
    {"tosa.max_pool2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true}},
    {"tosa.maximum", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.minimum", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.mul", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.negate", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.pad", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"tosa.pow", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.reciprocal", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.reduce_all", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true}},
    {"tosa.reduce_any", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true}},
    {"tosa.reduce_max", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true}},
    {"tosa.reduce_min", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true}},
    {"tosa.reduce_product", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true}},
    {"tosa.reduce_sum", {MET_NODE_COMPUTE, MET_CLASS_REDUCTION, MET_ROLE_OTHER, false, true}},
    {"tosa.rescale", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.reshape", {MET_NODE_VIEW, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"tosa.resize", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"tosa.reverse", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"tosa.rfft2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true}},
    {"tosa.rsqrt", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.scatter", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"tosa.select", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.shape", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
    {"tosa.sigmoid", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.sin", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.slice", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"tosa.sub", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.table", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.tanh", {MET_NODE_COMPUTE, MET_CLASS_ELEMENTWISE, MET_ROLE_OTHER, false, true}},
    {"tosa.tile", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"tosa.transpose", {MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true}},
    {"tosa.transpose_conv2d", {MET_NODE_COMPUTE, MET_CLASS_CONV, MET_ROLE_OTHER, false, true}},
    {"tosa.variable_read", {MET_NODE_LEAF, MET_CLASS_OTHER, MET_ROLE_GLOBAL, false, true}},
    {"tosa.variable_write", {MET_NODE_HOST, MET_CLASS_OTHER, MET_ROLE_OTHER, false, true}},
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
  met_opinfo_t info = {MET_NODE_COMPUTE, MET_CLASS_UNKNOWN, MET_ROLE_OTHER, false, false};
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
