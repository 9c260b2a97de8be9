// @f of limits.mlir alone, for the command: a fill, a matvec with a 256 x 256 f32 weight
// (a parameter), an exp and a log on 256 x f32.

// Line 5:
func.func @f(%x: tensor<256xf32>, %w: tensor<256x256xf32> {metrale.param}) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  // Line 10:
  %m = linalg.matvec ins(%w, %x : tensor<256x256xf32>, tensor<256xf32>) outs(%z : tensor<256xf32>) -> tensor<256xf32>
  %s = math.exp %m : tensor<256xf32>
  %r = math.log %s : tensor<256xf32>
  return %r : tensor<256xf32>
}
