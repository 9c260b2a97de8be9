// Two functions with constants of one type: one-shot bufferization names their globals
// in an order that changes from run to run; bufferize_diff renames them (review's t45).
func.func @a(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %1 = linalg.copy ins(%c : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func @b(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<2.0> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %1 = linalg.copy ins(%c : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
