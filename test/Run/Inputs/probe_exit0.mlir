func.func private @exit(i32)
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : i32
  func.call @exit(%c0) : (i32) -> ()
  return %x : tensor<4xf32>
}
