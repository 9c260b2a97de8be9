// IREE lit case basic_reduction from compiler/src/iree/compiler/DispatchCreation/test/pipeline_tests_split_reduction.mlir @ 4a570da0709e
// RUN line runs: iree-dispatch-creation-pipeline{split-reduction=true} (full pipeline)
// expect: basic_reduction=2
// cat: full pipeline with split-reduction=true: a 4096-element reduction split into a partial-reduction dispatch and a final linalg.reduce dispatch (metrale accepts only iree.split_reduction=false)
// modes: split_reduction
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"metrale.target" = "host-cpu", "iree.split_reduction" = true>>} {
func.func public @basic_reduction(%arg0: tensor<4096xf32>) -> tensor<f32> {
  %1 = arith.constant dense<0.0> : tensor<f32>
  %2 = linalg.generic {
      indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
      iterator_types = ["reduction"]
  } ins(%arg0 : tensor<4096xf32>) outs(%1 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %3 = arith.addf %in, %out : f32
    linalg.yield %3 : f32
  } -> tensor<f32>
  return %2 : tensor<f32>
}

}
