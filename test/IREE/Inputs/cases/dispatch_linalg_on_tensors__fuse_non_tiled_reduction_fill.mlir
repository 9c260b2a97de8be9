// IREE lit case fuse_non_tiled_reduction_fill from compiler/src/iree/compiler/DispatchCreation/test/dispatch_linalg_on_tensors.mlir @ 93e8e86ef689
// RUN line runs: canonicalize, form-dispatch-regions{aggressive-fusion=true}, clone-producers-into-dispatch-regions, convert-dispatch-regions-to-workgroups, convert-tensor-to-flow, canonicalize
// expect: fuse_non_tiled_reduction_fill=1
// cat: FDR+clone+tensor-to-flow; full reduction to a 0-d tensor with fill
// modes: aggressive_fusion
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"metrale.target" = "host-cpu", "iree.aggressive_fusion" = true>>} {
func.func public @fuse_non_tiled_reduction_fill(%input1: tensor<1000xf32>, %input2: tensor<1000xf32>, %offset: tensor<f32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<f32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<f32>) -> tensor<f32>
  %reduce = linalg.generic {
              indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>],
              iterator_types = ["reduction"]}
            ins(%input1, %input2, %offset : tensor<1000xf32>, tensor<1000xf32>, tensor<f32>)
            outs(%fill : tensor<f32>) {
  ^bb0(%arg1: f32, %arg2: f32, %arg3: f32, %arg4: f32):
    %555 = arith.addf %arg1, %arg2 : f32
    %556 = arith.subf %555, %arg3 : f32
    %557 = math.exp %556 : f32
    %558 = arith.addf %557, %arg4 : f32
    linalg.yield %558 : f32
  } -> tensor<f32>
  return %reduce : tensor<f32>
}
}
