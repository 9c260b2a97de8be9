// A dead op and a dynamic argument: what the adapter says is the same on every target.
func.func @f(%x: tensor<8x8xf32>, %d: tensor<?x8xf32>) -> tensor<8x8xf32> {
  %a = arith.addf %x, %x : tensor<8x8xf32>
  %dead = arith.mulf %x, %x : tensor<8x8xf32>
  return %a : tensor<8x8xf32>
}
