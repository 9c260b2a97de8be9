// IREE lit case mmt4d_dynamic_relu_unpack from compiler/src/iree/compiler/DispatchCreation/test/mmt4d_fusion.mlir @ 19b04e286f20
// RUN line runs: form-dispatch-regions{fuse-mmt4d=true} alone (default prefix CHECK; fuse-mmt4d has no metrale mode, run with modes off)
// expect: mmt4d_dynamic_relu_unpack=1
// cat: FDR alone fuse-mmt4d; dynamic outer dim, mmt4d + relu + unpack in one dispatch
// modes: (none)
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func public @mmt4d_dynamic_relu_unpack(%lhs: tensor<?x128x8x1xf32>, %rhs: tensor<8x128x8x1xf32>, %m: index) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.000000e+00 : f32
  %m1 = tensor.dim %lhs, %c0 : tensor<?x128x8x1xf32>
  %empty = tensor.empty(%m1) : tensor<?x8x8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x8x8x8xf32>) -> tensor<?x8x8x8xf32>
  %mmt4d = linalg.mmt4d ins(%lhs, %rhs : tensor<?x128x8x1xf32>, tensor<8x128x8x1xf32>) outs(%fill : tensor<?x8x8x8xf32>) -> tensor<?x8x8x8xf32>
  %relu = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%mmt4d : tensor<?x8x8x8xf32>) outs(%empty : tensor<?x8x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %max = arith.maximumf %in, %zero : f32
    linalg.yield %max : f32
  } -> tensor<?x8x8x8xf32>
  %dest = tensor.empty(%m) : tensor<?x64xf32>
  %unpack = linalg.unpack %relu outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %dest : tensor<?x8x8x8xf32> -> tensor<?x64xf32>
  return %unpack : tensor<?x64xf32>
}
