// IREE lit case clone_fill_ops from compiler/src/iree/compiler/DispatchCreation/test/dispatch_linalg_on_tensors.mlir @ 93e8e86ef689
// RUN line runs: canonicalize, form-dispatch-regions{aggressive-fusion=true}, clone-producers-into-dispatch-regions, convert-dispatch-regions-to-workgroups, convert-tensor-to-flow, canonicalize
// expect: clone_fill_ops=2
// cat: FDR+clone+tensor-to-flow; one fill shared by two matmuls, cloned into both
// modes: aggressive_fusion
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"metrale.target" = "host-cpu", "iree.aggressive_fusion" = true>>} {
func.func public @clone_fill_ops(%arg0 : tensor<128x256xf32>, %arg1 : tensor<256x512xf32>,
    %arg2 : tensor<128x256xf32>, %arg3 : tensor<256x512xf32>)
    -> (tensor<128x512xf32>, tensor<128x512xf32>) {
  %0 = tensor.empty() : tensor<128x512xf32>
  %cst = arith.constant 0.0 : f32
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<128x512xf32>) -> tensor<128x512xf32>
  %2 = linalg.matmul ins(%arg0, %arg1 : tensor<128x256xf32>, tensor<256x512xf32>)
      outs(%1 : tensor<128x512xf32>) -> tensor<128x512xf32>
  %3 = linalg.matmul ins(%arg2, %arg3 : tensor<128x256xf32>, tensor<256x512xf32>)
      outs(%1 : tensor<128x512xf32>) -> tensor<128x512xf32>
  return %2, %3 : tensor<128x512xf32>, tensor<128x512xf32>
}
}
