// Counts that pin mlir-cpu's pipeline itself (passes/ir/bufferize.c), which the
// differential test cannot see (issue 38): prediction and run share the pipeline, so
// dropping a pass from it moves both together and they still agree. Here the three
// elementwise ops on tensors become one kernel only because linalg-fuse-elementwise-ops
// merges their generics: without it, 3 dispatches and two 256-B intermediates.
// RUN: metrale-opt %s --metrale-budget="target=mlir-cpu op-remarks=false" 2>/dev/null | FileCheck %s
// One kernel reads %x and %y (256 B each: 64 x f32) and writes the 256-B result: dram
// 768; the arena holds the result alone (256).
// CHECK-LABEL: func.func @chain
// CHECK-SAME: arena_bytes = 256 : i64
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 768 : i64
func.func @chain(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %a = arith.addf %x, %y : tensor<64xf32>
  %m = arith.mulf %a, %x : tensor<64xf32>
  %e = math.exp %m : tensor<64xf32>
  return %e : tensor<64xf32>
}
