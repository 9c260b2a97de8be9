// A review's probe: an i17 element takes 4 bytes in LLVM's layout (its alloc size: the
// next power of two), not 3: input 3 x 4 = 12 B plus its descriptor (3 + 2) x 8 = 40:
// 52; output 12.
func.func @f(%b: tensor<3xi17>) -> tensor<3xi17> {
  %1 = arith.addi %b, %b : tensor<3xi17>
  return %1 : tensor<3xi17>
}
