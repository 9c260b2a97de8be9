// The weights of a torchvision export as MLIR prints them without their data
// (dense_resource<__elided__>): a conv's filter and a linear layer's matrix.
func.func @f(%x: tensor<1x3x8x8xf32>) -> tensor<1x10xf32> {
  %w = arith.constant dense_resource<__elided__> : tensor<4x3x3x3xf32>
  %m = arith.constant dense_resource<__elided__> : tensor<144x10xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%f : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %r = tensor.collapse_shape %c [[0], [1, 2, 3]] : tensor<1x4x6x6xf32> into tensor<1x144xf32>
  %e2 = tensor.empty() : tensor<1x10xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<1x10xf32>) -> tensor<1x10xf32>
  %o = linalg.matmul ins(%r, %m : tensor<1x144xf32>, tensor<144x10xf32>) outs(%f2 : tensor<1x10xf32>) -> tensor<1x10xf32>
  return %o : tensor<1x10xf32>
}
