// Issue 24's probe: a func.call counted the callee's dispatches predicted and 1 kernel
// measured. Upstream's program inlines nothing: each call runs @g's kernels, the addf's
// and the mulf's generics fused by linalg-fuse-elementwise-ops into one: 2 calls x 1 = 2
// launches; each call allocates its 4 x f32 result with 64 B alignment, 16 + 64: 2
// events, 160 bytes, both held at the end: peak 160.
func.func private @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = arith.addf %x, %x : tensor<4xf32>
  %b = arith.mulf %a, %x : tensor<4xf32>
  return %b : tensor<4xf32>
}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = func.call @g(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %z = func.call @g(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return %z : tensor<4xf32>
}
