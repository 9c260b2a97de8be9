// A convolution on a padded input, with IREE's fuse_pad mode on (test/Budget/iree_modes.mlir).
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU" = #dlti.target_device_spec<"metrale.target" = "h100", "iree.fuse_pad" = true>>} {
func.func @f(%x: tensor<1x16x16x8xf32>, %w: tensor<3x3x8x16xf32>) -> tensor<1x16x16x16xf32> {
  %c0 = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %c0 : f32
  } : tensor<1x16x16x8xf32> to tensor<1x18x18x8xf32>
  %e = tensor.empty() : tensor<1x16x16x16xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %r = linalg.conv_2d_nhwc_hwcf ins(%p, %w : tensor<1x18x18x8xf32>, tensor<3x3x8x16xf32>) outs(%z : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  return %r : tensor<1x16x16x16xf32>
}
}
