// IREE lit case no_fuse_dynamic_tile_unpack from compiler/src/iree/compiler/DispatchCreation/test/mmt4d_fusion.mlir @ 19b04e286f20
// RUN line runs: form-dispatch-regions{fuse-mmt4d=true} alone (default prefix CHECK; fuse-mmt4d has no metrale mode, run with modes off)
// expect: no_fuse_dynamic_tile_unpack=2
// cat: FDR alone fuse-mmt4d; unpack with a dynamic inner tile stays apart
// modes: (none)
func.func public @no_fuse_dynamic_tile_unpack(%lhs: tensor<8x128x?x1xf32>, %rhs: tensor<8x128x8x1xf32>, %tile: index) -> tensor<64x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %empty = tensor.empty(%tile) : tensor<8x8x?x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x8x?x8xf32>) -> tensor<8x8x?x8xf32>
  %mmt4d = linalg.mmt4d ins(%lhs, %rhs : tensor<8x128x?x1xf32>, tensor<8x128x8x1xf32>) outs(%fill : tensor<8x8x?x8xf32>) -> tensor<8x8x?x8xf32>
  %dest = tensor.empty() : tensor<64x64xf32>
  %unpack = linalg.unpack %mmt4d inner_dims_pos = [0, 1] inner_tiles = [%tile, 8] into %dest : tensor<8x8x?x8xf32> -> tensor<64x64xf32>
  return %unpack : tensor<64x64xf32>
}
