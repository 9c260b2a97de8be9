// A review's probe: a callee returns a copy of a global, which bufferization allocates
// with no alignment attribute (memref.alloc: 16 B, no padding). Each call's result is
// that allocation (budget.h, unpadded_results): 2 events, 2 x 16 = 32 bytes (was 160:
// 64 B of padding charged per call).
ml_program.global private @c(dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>) : tensor<4xf32>
func.func private @g() -> tensor<4xf32> {
  %0 = ml_program.global_load_const @c : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @f() -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = call @g() : () -> tensor<4xf32>
  %1 = call @g() : () -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
