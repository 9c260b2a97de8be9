// A call taking a buffer and returning a scalar used later: upstream's view-flow analysis
// takes the scalar for an alias of the buffer (a hostile review's t33); upstream's passes run.
func.func private @sum(%t: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = tensor.extract %t[%c0] : tensor<4xf32>
  return %v : f32
}
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %1 = arith.addf %x, %x : tensor<4xf32>
  %s = func.call @sum(%1) : (tensor<4xf32>) -> f32
  %2 = arith.mulf %y, %y : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %b = linalg.fill ins(%s : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %3 = arith.addf %2, %b : tensor<4xf32>
  return %3 : tensor<4xf32>
}
