// IREE lit case interleaving from compiler/src/iree/compiler/DispatchCreation/test/form_scalar_dispatches.mlir @ 13a75dc1a95d
// RUN line runs: form-scalar-dispatches alone (every op in these cases has <=1 element, so the pass alone forms all dispatches)
// expect: interleaving=2
// cat: FormScalarDispatches; 1-element and 0-d ops in two blocks (cf.br): one scalar dispatch per block
// modes: (none)
#map0 = affine_map<() -> ()>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d0)>
#map3 = affine_map<(d0) -> (d0)>
func.func public @interleaving(
      %arg0 : tensor<1x1xf32>, %arg1 : tensor<1xf32>, %arg2 : tensor<f32>, %arg3 : tensor<f32>)
      -> (tensor<f32>, tensor<1xf32>) {
    %cst = arith.constant 0.0 : f32
    %0 = tensor.empty() : tensor<1xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1xf32>) -> tensor<1xf32>
    %2 = linalg.generic {indexing_maps = [#map1, #map2, #map2], iterator_types = ["parallel", "reduction"]}
        ins(%arg0, %arg1 : tensor<1x1xf32>, tensor<1xf32>) outs(%1 : tensor<1xf32>) {
      ^bb0(%b0: f32, %b1 : f32, %b2 : f32) :
        %3 = arith.mulf %b0, %b1 : f32
        %4 = arith.addf %3, %b2 : f32
        linalg.yield %4 : f32
      } -> tensor<1xf32>
    %5 = tensor.empty() : tensor<f32>
    %6 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = []}
        ins(%arg2, %arg3 : tensor<f32>, tensor<f32>) outs(%5 : tensor<f32>) {
      ^bb0(%b0: f32, %b1 : f32, %b2 : f32) :
        %7 = arith.subf %b1, %b0 : f32
        linalg.yield %7 : f32
      } -> tensor<f32>
      cf.br ^b1
  ^b1:
    %7 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel"]}
        ins(%2, %arg1 : tensor<1xf32>, tensor<1xf32>) outs(%0 : tensor<1xf32>) {
      ^bb0(%b0: f32, %b1 : f32, %b2 : f32) :
        %8 = arith.mulf %b0, %b1 : f32
        linalg.yield %8 : f32
      } -> tensor<1xf32>
    %9 = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = []}
        ins(%6, %arg3 : tensor<f32>, tensor<f32>) outs(%5 : tensor<f32>) {
      ^bb0(%b0: f32, %b1 : f32, %b2 : f32) :
        %10 = arith.divf %b1, %b0 : f32
        linalg.yield %10 : f32
      } -> tensor<f32>
    return %9, %7 : tensor<f32>, tensor<1xf32>
}
