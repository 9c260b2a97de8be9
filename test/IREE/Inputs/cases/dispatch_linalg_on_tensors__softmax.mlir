// IREE lit case softmax from compiler/src/iree/compiler/DispatchCreation/test/dispatch_linalg_on_tensors.mlir @ 93e8e86ef689
// RUN line runs: canonicalize, form-dispatch-regions{aggressive-fusion=true}, clone-producers-into-dispatch-regions, convert-dispatch-regions-to-workgroups, convert-tensor-to-flow, canonicalize
// expect: softmax=1
// cat: FDR+clone+tensor-to-flow (aggressive); softmax as max-reduction, exp+sum two-result reduction, broadcast divide
// modes: aggressive_fusion
#map0 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"metrale.target" = "host-cpu", "iree.aggressive_fusion" = true>>} {
func.func public @softmax(%arg0: tensor<12x128x128xf32>) -> tensor<12x128x128xf32> {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant -3.40282347E+38 : f32
  %0 = tensor.empty() : tensor<12x128xf32>
  %1 = linalg.fill ins(%cst_1 : f32) outs(%0 : tensor<12x128xf32>) -> tensor<12x128xf32>
  %2 = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<12x128x128xf32>) outs(%1 : tensor<12x128xf32>) {
  ^bb0(%arg1: f32, %arg2: f32):
    %7 = arith.maximumf %arg1, %arg2 : f32
    linalg.yield %7 : f32
  } -> tensor<12x128xf32>
  %3 = tensor.empty() : tensor<12x128x128xf32>
  %4 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<12x128xf32>) -> tensor<12x128xf32>
  %5:2 = linalg.generic {indexing_maps = [#map0, #map1, #map0, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %2 : tensor<12x128x128xf32>, tensor<12x128xf32>) outs(%3, %4 : tensor<12x128x128xf32>, tensor<12x128xf32>) {
  ^bb0(%arg1: f32, %arg2: f32, %arg3: f32, %arg4: f32):
    %7 = arith.subf %arg1, %arg2 : f32
    %8 = math.exp %7 : f32
    %9 = arith.addf %8, %arg4 : f32
    linalg.yield %8, %9 : f32, f32
  } -> (tensor<12x128x128xf32>, tensor<12x128xf32>)
  %6 = linalg.generic {indexing_maps = [#map0, #map1, #map0], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5#0, %5#1 : tensor<12x128x128xf32>, tensor<12x128xf32>) outs(%3 : tensor<12x128x128xf32>) {
  ^bb0(%arg1: f32, %arg2: f32, %arg3: f32):
    %7 = arith.divf %cst, %arg2 : f32
    %8 = arith.mulf %arg1, %7 : f32
    linalg.yield %8 : f32
  } -> tensor<12x128x128xf32>
  return %6 : tensor<12x128x128xf32>
}
}
