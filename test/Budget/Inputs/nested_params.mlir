// A top-level @f and a @f in module @inner, each with a 1 KiB weight-like argument %w
// (256 x f32 = 1024 B) and an input %x of the same size.
module {
  func.func @f(%w: tensor<256xf32>, %x: tensor<256xf32>) -> tensor<256xf32> {
    %0 = arith.addf %w, %x : tensor<256xf32>
    return %0 : tensor<256xf32>
  }
  module @inner {
    func.func @f(%w: tensor<256xf32>, %x: tensor<256xf32>) -> tensor<256xf32> {
      %0 = arith.mulf %w, %x : tensor<256xf32>
      return %0 : tensor<256xf32>
    }
  }
}
