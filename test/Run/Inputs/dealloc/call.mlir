// A call returning a buffer: the caller owns it, not modelled; upstream's passes run.
// @g's argument, read twice, keeps one argument: a call names @g.
func.func private @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %1 = arith.addf %x, %x : tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %1 = func.call @g(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = arith.mulf %1, %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}
