// A target described in the module with upstream dlti attributes: the npu, 128-byte aligned.
// The option target= wins over it.
// RUN: metrale-opt %s --metrale-budget="op-remarks=false" 2>/dev/null | FileCheck %s --check-prefix=DLTI
// RUN: metrale-opt %s --metrale-budget="target=h100 op-remarks=false" 2>/dev/null | FileCheck %s --check-prefix=OPTION
// RUN: sed -e 's/"alignment" = 128 : i64/"alignment" = "wide"/' %s | not metrale-opt --metrale-budget -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// 4xf32 = 16 B returned: one slot, 128 B under the DLTI alignment, 256 on h100.
// DLTI: arena_bytes = 128 : i64
// DLTI-SAME: target = "npu", width_overhead_bytes = 0 : i64, width_policy = "hybrid"
// OPTION: arena_bytes = 256 : i64
// OPTION-SAME: target = "h100"
// BAD: error: dlti.target_device_spec entry "alignment" must be an integer
// A base that names no built-in target says which name, and the names there are:
// RUN: sed -e 's/"metrale.target" = "npu"/"metrale.target" = "nopu"/' %s | not metrale-opt --metrale-budget -o /dev/null 2>&1 | FileCheck %s --check-prefix=BASE
// BASE: error: dlti.target_device_spec entry "metrale.target" names no built-in target: "nopu" (the built-in targets are host-cpu, h100, mobile-gpu-f32, npu, h100-megakernel, mlir-cpu)
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "NPU" = #dlti.target_device_spec<"metrale.target" = "npu", "alignment" = 128 : i64>>} {
  func.func @k(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = tosa.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
