// IREE lit case no_fuse_multi_use_result_aggressive from compiler/src/iree/compiler/DispatchCreation/test/mmt4d_fusion.mlir @ 19b04e286f20
// RUN line runs: form-dispatch-regions{fuse-mmt4d=true} alone (default prefix CHECK; fuse-mmt4d has no metrale mode, run with modes off)
// expect: no_fuse_multi_use_result=2
// cat: FDR alone fuse-mmt4d, AGGRESSIVE prefix (aggressive-fusion=true): mmt4d+relu+unpack one dispatch with two results, neg apart
// modes: aggressive_fusion
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"metrale.target" = "host-cpu", "iree.aggressive_fusion" = true>>} {
func.func public @no_fuse_multi_use_result(%lhs: tensor<8x128x8x1xf32>, %rhs: tensor<8x128x8x1xf32>) -> (tensor<64x64xf32>, tensor<8x8x8x8xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %empty = tensor.empty() : tensor<8x8x8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x8x8x8xf32>) -> tensor<8x8x8x8xf32>
  %mmt4d = linalg.mmt4d ins(%lhs, %rhs : tensor<8x128x8x1xf32>, tensor<8x128x8x1xf32>) outs(%fill : tensor<8x8x8x8xf32>) -> tensor<8x8x8x8xf32>
  %relu = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%mmt4d : tensor<8x8x8x8xf32>) outs(%empty : tensor<8x8x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %max = arith.maximumf %in, %zero : f32
    linalg.yield %max : f32
  } -> tensor<8x8x8x8xf32>
  %dest = tensor.empty() : tensor<64x64xf32>
  %unpack = linalg.unpack %relu outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %dest : tensor<8x8x8x8xf32> -> tensor<64x64xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%unpack : tensor<64x64xf32>) outs(%dest : tensor<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  } -> tensor<64x64xf32>
  return %neg, %mmt4d : tensor<64x64xf32>, tensor<8x8x8x8xf32>
}
}
