func.func @main(%w: tensor<256xf32>, %x: tensor<256xf32>) -> tensor<256xf32> {
  %0 = arith.addf %x, %w : tensor<256xf32>
  %1 = func.call @helper(%0) : (tensor<256xf32>) -> tensor<256xf32>
  return %1 : tensor<256xf32>
}
func.func private @helper(%a: tensor<256xf32>) -> tensor<256xf32> {
  %0 = math.exp %a : tensor<256xf32>
  return %0 : tensor<256xf32>
}
