// IREE lit case no_fuse_init_epilogue from compiler/src/iree/compiler/DispatchCreation/test/mmt4d_fusion.mlir @ 19b04e286f20
// RUN line runs: form-dispatch-regions{fuse-mmt4d=true} alone (default prefix CHECK; fuse-mmt4d has no metrale mode, run with modes off)
// expect: no_fuse_init_epilogue=2
// cat: FDR alone fuse-mmt4d; epilogue reading the mmt4d result as its init stays apart
// modes: (none)
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func public @no_fuse_init_epilogue(%lhs: tensor<8x128x8x1xf32>, %rhs: tensor<8x128x8x1xf32>, %other: tensor<8x8x8x8xf32>) -> tensor<8x8x8x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %empty = tensor.empty() : tensor<8x8x8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x8x8x8xf32>) -> tensor<8x8x8x8xf32>
  %mmt4d = linalg.mmt4d ins(%lhs, %rhs : tensor<8x128x8x1xf32>, tensor<8x128x8x1xf32>) outs(%fill : tensor<8x8x8x8xf32>) -> tensor<8x8x8x8xf32>
  %add = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%other : tensor<8x8x8x8xf32>) outs(%mmt4d : tensor<8x8x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sum = arith.addf %in, %out : f32
    linalg.yield %sum : f32
  } -> tensor<8x8x8x8xf32>
  return %add : tensor<8x8x8x8xf32>
}
