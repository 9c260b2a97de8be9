// IREE lit case batch_mmt4d_relu_unpack from compiler/src/iree/compiler/DispatchCreation/test/mmt4d_fusion.mlir @ 19b04e286f20
// RUN line runs: form-dispatch-regions{fuse-mmt4d=true} alone (default prefix CHECK; fuse-mmt4d has no metrale mode, run with modes off)
// expect: batch_mmt4d_relu_unpack=1
// cat: FDR alone fuse-mmt4d; batch_mmt4d + relu + unpack in one dispatch
// modes: (none)
#map = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func public @batch_mmt4d_relu_unpack(%lhs: tensor<2x8x128x8x1xf32>, %rhs: tensor<2x8x128x8x1xf32>) -> tensor<2x64x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %empty = tensor.empty() : tensor<2x8x8x8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x8x8x8x8xf32>) -> tensor<2x8x8x8x8xf32>
  %mmt4d = linalg.batch_mmt4d ins(%lhs, %rhs : tensor<2x8x128x8x1xf32>, tensor<2x8x128x8x1xf32>) outs(%fill : tensor<2x8x8x8x8xf32>) -> tensor<2x8x8x8x8xf32>
  %relu = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%mmt4d : tensor<2x8x8x8x8xf32>) outs(%empty : tensor<2x8x8x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %max = arith.maximumf %in, %zero : f32
    linalg.yield %max : f32
  } -> tensor<2x8x8x8x8xf32>
  %dest = tensor.empty() : tensor<2x64x64xf32>
  %unpack = linalg.unpack %relu outer_dims_perm = [0, 1, 2] inner_dims_pos = [1, 2] inner_tiles = [8, 8] into %dest : tensor<2x8x8x8x8xf32> -> tensor<2x64x64xf32>
  return %unpack : tensor<2x64x64xf32>
}
