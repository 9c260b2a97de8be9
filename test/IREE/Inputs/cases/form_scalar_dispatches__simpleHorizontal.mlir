// IREE lit case simpleHorizontal from compiler/src/iree/compiler/DispatchCreation/test/form_scalar_dispatches.mlir @ 13a75dc1a95d
// RUN line runs: form-scalar-dispatches alone (every op in these cases has <=1 element, so the pass alone forms all dispatches)
// expect: simpleHorizontal=1
// cat: FormScalarDispatches; two independent 0-d chains grouped horizontally into one scalar dispatch
// modes: (none)
#map = affine_map<() -> ()>
func.func public @simpleHorizontal(
    %arg0 : tensor<f32>, %arg1 : tensor<f32>, %arg2 : tensor<f32>, %arg3 : tensor<f32>)
    -> (tensor<f32>, tensor<f32>) {
  %0 = tensor.empty() : tensor<f32>
  %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = []}
      ins(%arg0, %arg1 : tensor<f32>, tensor<f32>) outs(%0 : tensor<f32>) {
    ^bb0(%b0: f32, %b1 : f32, %b2 : f32) :
      %2 = arith.addf %b0, %b1 : f32
      linalg.yield %2 : f32
    } -> tensor<f32>
  %3 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = []}
      ins(%1, %arg2 : tensor<f32>, tensor<f32>) outs(%0 : tensor<f32>) {
    ^bb0(%b0: f32, %b1 : f32, %b2 : f32) :
      %4 = arith.mulf %b0, %b1 : f32
      linalg.yield %4 : f32
    } -> tensor<f32>
  %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = []}
      ins(%arg3 : tensor<f32>) outs(%0 : tensor<f32>) {
    ^bb0(%b0: f32, %b1 : f32) :
      %6 = arith.addf %b0, %b0 : f32
      linalg.yield %6 : f32
    } -> tensor<f32>
  return %3, %5 : tensor<f32>, tensor<f32>
}
