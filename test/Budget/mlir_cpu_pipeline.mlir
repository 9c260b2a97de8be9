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

// cast_nodes has one definition on every target (issue 38: mlir-cpu reported 0 here, the
// other targets 3): the function's truncf, extf and tosa.cast, though upstream's pipeline
// fuses all three into one kernel.
// CHECK-LABEL: func.func @casts
// CHECK-SAME: {{[[:<:]]}}cast_nodes = 3 : i64
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
func.func @casts(%x: tensor<4xf32>) -> tensor<4xf16> {
  %0 = arith.truncf %x : tensor<4xf32> to tensor<4xbf16>
  %1 = arith.extf %0 : tensor<4xbf16> to tensor<4xf32>
  %2 = tosa.cast %1 : (tensor<4xf32>) -> tensor<4xf16>
  return %2 : tensor<4xf16>
}
