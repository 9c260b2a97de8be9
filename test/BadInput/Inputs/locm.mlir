module {
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
} loc("elsewhere.mlir":1:1)
