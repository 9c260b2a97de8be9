// IREE lit case multi_use_producer_fusion from compiler/src/iree/compiler/DispatchCreation/test/dispatch_linalg_on_tensors.mlir @ 93e8e86ef689
// RUN line runs: canonicalize, form-dispatch-regions{aggressive-fusion=true}, clone-producers-into-dispatch-regions, convert-dispatch-regions-to-workgroups, convert-tensor-to-flow, canonicalize
// expect: multi_use_producer_fusion=1
// cat: FDR+clone+tensor-to-flow (aggressive); matmul returned and read by a bias add: one dispatch, two results
// modes: aggressive_fusion
#map0 = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"metrale.target" = "host-cpu", "iree.aggressive_fusion" = true>>} {
func.func public @multi_use_producer_fusion(%arg0 : tensor<?x8xf32>, %arg1 : tensor<8x?xf32>,
    %arg2 : tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %d0 = tensor.dim %arg0, %c0 : tensor<?x8xf32>
  %d1 = tensor.dim %arg1, %c1 : tensor<8x?xf32>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  %matmul = linalg.matmul ins(%arg0, %arg1 : tensor<?x8xf32>, tensor<8x?xf32>)
      outs(%fill : tensor<?x?xf32>) -> tensor<?x?xf32>
  %generic = linalg.generic {
      indexing_maps = [#map0, #map1, #map0],
      iterator_types = ["parallel", "parallel"]}
      ins(%matmul, %arg2 : tensor<?x?xf32>, tensor<?xf32>) outs(%init : tensor<?x?xf32>) {
    ^bb0(%b0 : f32, %b1 : f32, %b2 : f32):
      %0 = arith.addf %b0, %b1 : f32
      linalg.yield %0 : f32
    } -> tensor<?x?xf32>
  return %matmul, %generic : tensor<?x?xf32>, tensor<?x?xf32>
}
}
