func.func @f(%a: tensor<8x8xf32>, %e: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %1 = linalg.transpose ins(%a : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) permutation = [18xf32>
  return %1 : tensor<8x8xf32>
}
