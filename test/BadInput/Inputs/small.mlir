// A small graph the bad-option tests run on: its first op is on line 3, where module-level
// diagnostics of this implicit module go.
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
