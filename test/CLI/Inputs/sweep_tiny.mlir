// One 1-element add: its dispatch row is the same words on some targets, not all.
func.func @f(%x: tensor<1xf32>) -> tensor<1xf32> {
  %a = arith.addf %x, %x : tensor<1xf32>
  return %a : tensor<1xf32>
}
