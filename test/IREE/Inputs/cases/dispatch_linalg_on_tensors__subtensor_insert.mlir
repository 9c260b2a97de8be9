// IREE lit case subtensor_insert from compiler/src/iree/compiler/DispatchCreation/test/dispatch_linalg_on_tensors.mlir @ 93e8e86ef689
// RUN line runs: canonicalize, form-dispatch-regions{aggressive-fusion=true}, clone-producers-into-dispatch-regions, convert-dispatch-regions-to-workgroups, convert-tensor-to-flow, canonicalize
// expect: subtensor_insert=1
// cat: tensor-to-flow; insert_slice with dynamic offsets/sizes becomes a copy dispatch
// modes: aggressive_fusion
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"metrale.target" = "host-cpu", "iree.aggressive_fusion" = true>>} {
func.func public @subtensor_insert(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>,
    %arg2 : index, %arg3 : index, %arg4 : index, %arg5 : index) -> tensor<?x?xf32> {
  %0 = tensor.insert_slice %arg0 into
      %arg1[%arg2, %arg3] [%arg4, %arg5] [1, 1] : tensor<?x?xf32> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
}
