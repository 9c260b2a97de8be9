// Pass options: parameter selection, dynamic-dim binding, and bad values.
// RUN: metrale-opt %s --metrale-budget="op-remarks=false dynamic-size=8 params=float" 2>/dev/null | FileCheck %s --check-prefix=FLOAT
// RUN: metrale-opt %s --metrale-budget="op-remarks=false dynamic-size=8 params=2-" 2>/dev/null | FileCheck %s --check-prefix=RANGE
// RUN: metrale-opt %s --metrale-budget="op-remarks=false" 2>/dev/null | FileCheck %s --check-prefix=UNBOUND
// RUN: not metrale-opt %s --metrale-budget="target=tpu9" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not metrale-opt %s --metrale-budget="params=1-x" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARAMS
// RUN: not metrale-opt %s --metrale-budget="params=3-1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BACKWARDS
// RUN: not metrale-opt %s --metrale-budget="dynamic-size=-3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DYN
// RUN: not metrale-opt %s --metrale-budget="json=%t.missing/out.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=JSONERR
// RUN: not metrale-opt %s --metrale-budget="svg=%t.missing/plan.svg" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SVGERR

// With dynamic-size=8, %x is 8x4xf32 = 128 B; %w 4x4xf32 = 64 B; %i 4xi32 = 16 B.
// params=float: %x and %w are parameters (192 B); host I/O = %i 16 + results
// 128 + 64 + 16 = 224. The dims are bound, so the report is complete.
// FLOAT: {{[[:<:]]}}complete = true
// FLOAT-SAME: host_io_bytes = 224 : i64
// FLOAT-SAME: param_bytes = 192 : i64
// params=2-: only %i: 16 B; host I/O = 128 + 64 + 208 = 400.
// RANGE: host_io_bytes = 400 : i64
// RANGE-SAME: param_bytes = 16 : i64
// Unbound, the dynamic dim counts as 1: %x is 16 B; host I/O = 16 + 64 + 16 + (16 + 64 +
// 16) = 192, a lower bound.
// UNBOUND: {{[[:<:]]}}complete = false
// UNBOUND-SAME: host_io_bytes = 192 : i64
// TARGET: error: unknown target 'tpu9'; the built-in targets are host-cpu, h100, mobile-gpu-f32, npu
// PARAMS: error: invalid params='1-x': expected the end of a range
// BACKWARDS: error: invalid params='3-1': a range ends before it starts
// An unwritable file is said before any work, with the option that names it.
// SVGERR: error: 'svg={{.*}}.missing/plan.svg' cannot be written: '{{.*}}.missing' does not exist
// DYN: options.mlir:[[@LINE+2]]:1: error: invalid dynamic-size='-3': expected a whole number from 1 to 9223372036854775807 (digits only, no sign or spaces)
// JSONERR: error: 'json={{.*}}.missing/out.json' cannot be written: '{{.*}}.missing' does not exist
func.func @f(%x: tensor<?x4xf32>, %w: tensor<4x4xf32>, %i: tensor<4xi32>)
    -> (tensor<?x4xf32>, tensor<4x4xf32>, tensor<4xi32>) {
  %0 = arith.addf %x, %x : tensor<?x4xf32>
  %1 = arith.mulf %w, %w : tensor<4x4xf32>
  %2 = arith.addi %i, %i : tensor<4xi32>
  return %0, %1, %2 : tensor<?x4xf32>, tensor<4x4xf32>, tensor<4xi32>
}
