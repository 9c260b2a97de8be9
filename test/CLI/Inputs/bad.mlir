func.func @bad(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %x, %x : tensor<4xf32>
  %1 = arith.frobnicate %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
