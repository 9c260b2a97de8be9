// The three reports as MLIR 22 structured remarks (category "metrale", one argument per
// field), written by mlir-opt's own remark flags and read back with llvm-remarkutil. The
// diagnostic remarks stay as they are (-verify-diagnostics reads them).
// RUN: metrale-opt %s -o /dev/null --metrale-budget="target=h100 op-remarks=false" --metrale-dispatch="target=h100" --metrale-memory="target=h100 rows=0" --remarks-filter=metrale --remark-format=yaml --remarks-output-file=%t.yaml 2>/dev/null
// RUN: FileCheck %s < %t.yaml
// RUN: %llvm_remarkutil count --parser=yaml %t.yaml | FileCheck %s --check-prefix=COUNT
// RUN: metrale-opt %s -o /dev/null --metrale-budget="target=h100 op-remarks=false" --remarks-filter=metrale --remark-format=bitstream --remarks-output-file=%t.bin 2>/dev/null
// RUN: %llvm_remarkutil bitstream2yaml %t.bin -o - | FileCheck %s --check-prefix=BITS
// A filter that is not metrale's writes none of them.
// RUN: metrale-opt %s -o /dev/null --metrale-budget="target=h100 op-remarks=false" --remarks-filter=other --remark-format=yaml --remarks-output-file=%t.none.yaml 2>/dev/null
// RUN: FileCheck %s --check-prefix=NONE --allow-empty < %t.none.yaml

// The numbers are test/Dispatch/targets.mlir's @f on h100.
// CHECK: --- !Analysis
// CHECK-NEXT: Pass: metrale
// CHECK-NEXT: Name: budget
// The YAML writer wraps a long path onto a second line, so File and Line are checked apart.
// CHECK-NEXT: DebugLoc: { File: '{{.*}}remarks.mlir',
// CHECK: Line: [[#@LINE+24]],
// CHECK: Function: f
// CHECK-NEXT: Args:
// CHECK-NEXT: - arena_bytes: '256'
// CHECK: - dispatches: '1'
// CHECK-NEXT: - dram_bytes: '896'
// CHECK: - complete: '1'
// CHECK: --- !Analysis
// CHECK-NEXT: Pass: metrale
// CHECK-NEXT: Name: dispatch
// CHECK: - input_bytes: '144'
// CHECK: - latency_ns: '3008'
// CHECK: - device_allocation_bytes_per_second: '170212765'
// CHECK-NEXT: - complete: '1'
// CHECK: --- !Analysis
// CHECK-NEXT: Pass: metrale
// CHECK-NEXT: Name: memory
// CHECK: - weights_stored: '512'
// CHECK: - fits: '1'
// COUNT: Source,Count
// COUNT-NEXT: {{.*}}remarks.mlir,3{{[[:>:]]}}
// BITS: Name: budget
// BITS: - arena_bytes: '256'
// NONE-NOT: Pass: metrale
func.func @f(%x: tensor<4x8xf32>, %w: tensor<8x16xf32> {metrale.param}) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %c = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = arith.addf %m, %m : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// Per-op findings: each op off the target's fast path is a Missed remark at the op, with
// the bytes of its results (the convnet on the npu: two ops, lines 51 and 66).
// RUN: metrale-opt %S/../../examples/convnet.mlir -o /dev/null --metrale-budget="target=npu op-remarks=false" --remarks-filter=metrale --remark-format=yaml --remarks-output-file=%t.ops.yaml 2>/dev/null
// RUN: FileCheck %s --check-prefix=MISSED < %t.ops.yaml
// MISSED: --- !Analysis
// MISSED-NEXT: Pass: metrale
// MISSED-NEXT: Name: budget
// MISSED: --- !Missed
// MISSED-NEXT: Pass: metrale
// MISSED-NEXT: Name: off-fast-path
// MISSED-NEXT: DebugLoc: { File: '{{.*}}convnet.mlir',
// MISSED: Line: 51,
// MISSED: - off_fast_path_bytes: '4608'
// MISSED: --- !Missed
// MISSED: Line: 66,
