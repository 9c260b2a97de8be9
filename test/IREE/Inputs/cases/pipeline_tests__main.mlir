// IREE lit case main from compiler/src/iree/compiler/DispatchCreation/test/pipeline_tests.mlir @ e6d20a1b0f18
// RUN line runs: iree-preprocessing-attr-based-pipeline, fold-unit-extent-dims, iree-dispatch-creation-pipeline (full pipeline, default mode)
// expect: main=1
// cat: full pipeline default; two elementwise ops feeding a full (2-loop) reduction to a 0-d tensor: one dispatch (ElementwiseOpFusion merges them into the reduction)
// modes: (none)
#map = affine_map<(d0, d1) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> ()>
func.func public @main(%arg0: tensor<833xi32>, %arg1: tensor<833x833xf32>, %arg2: tensor<f32>) -> tensor<f32> {
  %cst = arith.constant 5.66893432E-4 : f32
  %0 = tensor.empty() : tensor<833x833xf32>
  %1 = linalg.generic {
      indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%arg1, %arg2 : tensor<833x833xf32>, tensor<f32>)
      outs(%0 : tensor<833x833xf32>) {
    ^bb0(%b0 : f32, %b1 : f32, %b2 : f32):
      %2 = arith.divf %b0, %b1 : f32
      linalg.yield %2 : f32
    } -> tensor<833x833xf32>
  %4 = linalg.generic {
      indexing_maps = [#map, #map1, #map2, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%arg0, %arg0, %1 : tensor<833xi32>, tensor<833xi32>, tensor<833x833xf32>)
      outs(%0 : tensor<833x833xf32>) {
    ^bb0(%b0 : i32, %b1 : i32, %b2 : f32, %b3 : f32):
      %5 = arith.cmpi eq, %b0, %b1 : i32
      %6 = arith.select %5, %b2, %cst : f32
      linalg.yield %6 : f32
    } -> tensor<833x833xf32>
  %7 = tensor.empty() : tensor<f32>
  %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<f32>) -> tensor<f32>
  %9 = linalg.generic {
      indexing_maps = [#map2, #map3], iterator_types = ["reduction", "reduction"]}
      ins(%4 : tensor<833x833xf32>) outs(%7 : tensor<f32>) {
    ^bb0(%b0 : f32, %b1 : f32):
      %10 = arith.addf %b1, %b0 : f32
      linalg.yield %10 : f32
    } -> tensor<f32>
  return %9 : tensor<f32>
}
