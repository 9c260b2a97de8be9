// A buffer and a view of it both returned: not modelled, upstream's passes run.
func.func @f(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<2x2xf32>) {
  %1 = arith.addf %x, %x : tensor<4xf32>
  %e = tensor.expand_shape %1 [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  return %1, %e : tensor<4xf32>, tensor<2x2xf32>
}
