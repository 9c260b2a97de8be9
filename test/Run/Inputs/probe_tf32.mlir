func.func @f(%x: tensor<4xtf32>) -> tensor<4xtf32> {
  %y = arith.addf %x, %x : tensor<4xtf32>
  return %y : tensor<4xtf32>
}
