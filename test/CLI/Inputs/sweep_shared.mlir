// Five ops at one location: two dead ones (the same words at the same place, both said)
// and two unregistered ones (each names its target, so each target says them).
func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %a = arith.addf %x, %x : tensor<8x8xf32> loc("layer1")
  %d1 = arith.mulf %x, %x : tensor<8x8xf32> loc("layer1")
  %d2 = arith.subf %x, %x : tensor<8x8xf32> loc("layer1")
  %u1 = "foo.bar"(%a) : (tensor<8x8xf32>) -> tensor<8x8xf32> loc("layer1")
  %u2 = "foo.bar"(%u1) : (tensor<8x8xf32>) -> tensor<8x8xf32> loc("layer1")
  return %u2 : tensor<8x8xf32>
}
