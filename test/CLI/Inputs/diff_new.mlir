// The model after: @f keeps %a live past a matvec that reads it (its slot can no longer be
// reused), and @h is added.
func.func @f(%x: tensor<256xf32>) -> tensor<256xf32> {
  %a = math.exp %x : tensor<256xf32>
  %b = math.log %a : tensor<256xf32>
  %c = arith.addf %b, %a : tensor<256xf32>
  return %c : tensor<256xf32>
}
func.func @h(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
