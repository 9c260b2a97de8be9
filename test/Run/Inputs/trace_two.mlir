// Two public functions for test/Run/trace.test: @ok runs; @dyn cannot (a dynamic dim).
func.func @ok(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = math.exp %x : tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @dyn(%x: tensor<?xf32>) -> tensor<?xf32> {
  %r = math.exp %x : tensor<?xf32>
  return %r : tensor<?xf32>
}
