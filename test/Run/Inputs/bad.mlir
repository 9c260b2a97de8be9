// One function that runs; one with a dynamic dim; one with an unregistered op.
func.func @ok(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.addf %x, %x : tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @dyn(%x: tensor<?xf32>) -> tensor<?xf32> {
  %r = arith.addf %x, %x : tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @alien(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = "alien.op"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
