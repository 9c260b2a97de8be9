// IREE lit case nhwc_unpack from compiler/src/iree/compiler/DispatchCreation/test/data_tiled_convolution_fusion.mlir @ be680833636f
// RUN line runs: form-dispatch-regions alone (DEFAULT prefix: default mode; FUSED: fuse-data-tiled-convolution=true; AGGRESSIVE); the CHECK prefix is shared by DEFAULT and FUSED
// expect: nhwc_unpack=2
// cat: FDR alone default (DEFAULT prefix); data-tiled conv generic + result unpack: unpack is its own dispatch
// modes: (none)
#input = affine_map<(n, oc, h, w, ic, kh, kw, o, i) -> (n, ic, h + kh, w + kw, i)>
#filter = affine_map<(n, oc, h, w, ic, kh, kw, o, i) -> (oc, ic, kh, kw, i, o)>
#output = affine_map<(n, oc, h, w, ic, kh, kw, o, i) -> (n, oc, h, w, o)>
func.func public @nhwc_unpack(%input: tensor<2x1x16x16x8xf32>, %filter: tensor<2x1x3x3x8x8xf32>) -> tensor<2x14x14x16xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x2x14x14x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x2x14x14x8xf32>) -> tensor<2x2x14x14x8xf32>
  %conv = linalg.generic {indexing_maps = [#input, #filter, #output],
    iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "reduction"]}
    ins(%input, %filter : tensor<2x1x16x16x8xf32>, tensor<2x1x3x3x8x8xf32>) outs(%init : tensor<2x2x14x14x8xf32>) {
  ^bb0(%lhs: f32, %rhs: f32, %acc: f32):
    %mul = arith.mulf %lhs, %rhs : f32
    %sum = arith.addf %mul, %acc : f32
    linalg.yield %sum : f32
  } -> tensor<2x2x14x14x8xf32>
  %dest = tensor.empty() : tensor<2x14x14x16xf32>
  %unpack = linalg.unpack %conv outer_dims_perm = [0, 3, 1, 2] inner_dims_pos = [3] inner_tiles = [8] into %dest : tensor<2x2x14x14x8xf32> -> tensor<2x14x14x16xf32>
  return %unpack : tensor<2x14x14x16xf32>
}
