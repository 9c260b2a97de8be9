// `mlir-opt --metrale-budget` with stock mlir-opt: preloading the plugin registers the
// passes before mlir-opt builds its flags (LD_PRELOAD affects only the mlir-opt process it
// is set for: nothing else loads the library). Loaded both ways at once, the passes are
// registered once (a second registration would be a fatal error in MLIR).
// REQUIRES: plain-build
// RUN: env LD_PRELOAD=%plugin %mlir_opt %s --metrale-budget="target=h100 op-remarks=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: env LD_PRELOAD=%plugin %mlir_opt %s --metrale-memory="target=h100 rows=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MEM
// RUN: env LD_PRELOAD=%plugin %mlir_opt --load-pass-plugin=%plugin %s --metrale-dispatch="target=h100" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: env LD_PRELOAD=%plugin %mlir_opt --load-pass-plugin=%plugin %s -p 'builtin.module(metrale-budget{target=h100 op-remarks=false})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET

// 16x16xf32 = 1024 B; {addf, exp} one dispatch (see plugin.mlir).
// BUDGET: remark: metrale.budget @p on h100 (native): arena_bytes=1024{{[[:>:]]}}
// MEM: remark: memory on h100 (
// BOTH: remark: metrale.dispatch @p on h100 (kernels, arena): input_bytes=1032{{[[:>:]]}}
func.func @p(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = arith.addf %x, %x : tensor<16x16xf32>
  %1 = math.exp %0 : tensor<16x16xf32>
  return %1 : tensor<16x16xf32>
}
