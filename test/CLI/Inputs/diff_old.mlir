// The model before a change: exp then log of 256 f32 (1 KiB each), one function @f, and
// @g that the change removes.
func.func @f(%x: tensor<256xf32>) -> tensor<256xf32> {
  %a = math.exp %x : tensor<256xf32>
  %b = math.log %a : tensor<256xf32>
  return %b : tensor<256xf32>
}
func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = math.exp %x : tensor<4xf32>
  return %a : tensor<4xf32>
}
