// IREE lit case batchnorm_training from compiler/src/iree/compiler/DispatchCreation/test/dispatch_linalg_on_tensors.mlir @ 93e8e86ef689
// RUN line runs: canonicalize, form-dispatch-regions{aggressive-fusion=true}, clone-producers-into-dispatch-regions, convert-dispatch-regions-to-workgroups, convert-tensor-to-flow, canonicalize
// expect: batchnorm_training=1
// cat: FDR+clone+tensor-to-flow (aggressive); 5-d reduction + 1-d three-result elementwise consumer
// modes: aggressive_fusion
#map0 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3, d4, d0)>
#map1 = affine_map<(d0, d1, d2, d3, d4) -> (d0)>
#map2 = affine_map<(d0) -> (d0)>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"metrale.target" = "host-cpu", "iree.aggressive_fusion" = true>>} {
func.func public @batchnorm_training(%arg0: tensor<12xf32>, %arg1: tensor<12x12x12x12x12xf32>, %arg2: tensor<12xf32>) -> (tensor<12xf32>, tensor<12xf32>, tensor<12xf32>) {
  %cst = arith.constant 1.420000e+00 : f32
  %cst_0 = arith.constant 1.450000e+00 : f32
  %cst_1 = arith.constant 1.300000e+00 : f32
  %cst_2 = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<12xf32>
  %1 = linalg.fill ins(%cst_2 : f32) outs(%0 : tensor<12xf32>) -> tensor<12xf32>
  %2 = linalg.generic {indexing_maps = [#map0, #map1, #map1], iterator_types = ["parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%arg1, %arg2 : tensor<12x12x12x12x12xf32>, tensor<12xf32>) outs(%1 : tensor<12xf32>) {
  ^bb0(%arg3: f32, %arg4: f32, %arg5: f32):
    %4 = arith.subf %arg3, %arg4 : f32
    %5 = arith.mulf %4, %4 : f32
    %6 = arith.addf %arg5, %5 : f32
    linalg.yield %6 : f32
  } -> tensor<12xf32>
  %3:3 = linalg.generic {indexing_maps = [#map2, #map2, #map2, #map2, #map2], iterator_types = ["parallel"]} ins(%arg0, %2 : tensor<12xf32>, tensor<12xf32>) outs(%0, %0, %0 : tensor<12xf32>, tensor<12xf32>, tensor<12xf32>) {
  ^bb0(%arg3: f32, %arg4: f32, %arg5: f32, %arg6: f32, %arg7: f32):
    %4 = arith.divf %arg4, %cst_0 : f32
    %5 = arith.addf %4, %cst_1 : f32
    %6 = math.sqrt %5 : f32
    %7 = arith.subf %arg3, %6 : f32
    %8 = arith.mulf %7, %cst : f32
    %9 = arith.subf %arg3, %8 : f32
    linalg.yield %5, %6, %9 : f32, f32, f32
  } -> (tensor<12xf32>, tensor<12xf32>, tensor<12xf32>)
  return %3#0, %3#1, %3#2 : tensor<12xf32>, tensor<12xf32>, tensor<12xf32>
}
}
