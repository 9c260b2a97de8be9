// IREE lit case permuted_consumer from compiler/src/iree/compiler/DispatchCreation/test/data_tiled_convolution_fusion.mlir @ be680833636f
// RUN line runs: form-dispatch-regions alone (DEFAULT prefix: default mode; FUSED: fuse-data-tiled-convolution=true; AGGRESSIVE); the CHECK prefix is shared by DEFAULT and FUSED
// expect: permuted_consumer=1
// cat: FDR alone default (CHECK prefix); data-tiled conv generic + consumer reading it through a permutation map: one dispatch
// modes: (none)
#input = affine_map<(n, oc, h, w, ic, kh, kw, o, i) -> (n, ic, h + kh, w + kw, i)>
#filter = affine_map<(n, oc, h, w, ic, kh, kw, o, i) -> (oc, ic, kh, kw, i, o)>
#output = affine_map<(n, oc, h, w, ic, kh, kw, o, i) -> (n, oc, h, w, o)>
#id = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#swap_hw = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d2, d4)>
func.func public @permuted_consumer(%input: tensor<2x1x16x16x8xf32>, %filter: tensor<2x1x3x3x8x8xf32>) -> tensor<2x2x14x14x8xf32> {
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
  %neg = linalg.generic {indexing_maps = [#swap_hw, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
    ins(%conv : tensor<2x2x14x14x8xf32>) outs(%empty : tensor<2x2x14x14x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x2x14x14x8xf32>
  return %neg : tensor<2x2x14x14x8xf32>
}
