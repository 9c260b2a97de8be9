// Splat folding (metrale/graph.h; issue 25): an op that reads only splat constants (and
// tensor.empty inits) and moves or combines elements uniformly yields a splat, which
// compilers fold at compile time: no dispatch, no buffer, no weight, and a remark at the
// op. mlir-cpu counts the program upstream's pipeline makes instead (it folds the arith
// and TOSA ops, not the linalg ones: test/Diff checks that against runs).
// RUN: metrale-opt %s -split-input-file --metrale-budget="target=host-cpu op-remarks=false" -verify-diagnostics -o /dev/null
// RUN: metrale-opt %s -split-input-file --metrale-budget="target=host-cpu op-remarks=false" 2>/dev/null | FileCheck %s
// RUN: metrale-opt %s -split-input-file --metrale-budget="target=npu op-remarks=false" 2>/dev/null | FileCheck %s --check-prefix=NPU
// RUN: metrale-opt %s -split-input-file --metrale-budget="target=host-cpu op-remarks=false remarks-each" 2>&1 >/dev/null | FileCheck %s --check-prefix=EACH
// RUN: metrale-opt %s -split-input-file --metrale-budget="target=host-cpu op-remarks=false" 2>&1 >/dev/null | FileCheck %s --check-prefix=SUM

// AlexNet's FC layer with splat weights (OptiPIM's export): the 1000x4096 weight's
// transpose reads only a splat, so it is a splat too, and the matmul reads it from no
// memory. Left: one dispatch (the matmul with its fill cloned in), reading %x 1x4096xf32
// = 16384 B and writing 1x1000xf32 = 4000 B: dram 20384; the arena is the 4000-B result
// (4032 aligned to host-cpu's 64 B); no parameter bytes. Materialized, the transpose
// would be a 16,384,000-B buffer.
// CHECK-LABEL: func.func @fc
// CHECK-SAME: arena_bytes = 4032 : i64
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 20384 : i64
// CHECK-SAME: {{[[:<:]]}}param_bytes = 0 : i64
// NPU-LABEL: func.func @fc
// NPU-SAME: {{[[:<:]]}}dram_bytes = 20384 : i64
// expected-remark-re @below {{metrale.budget @fc on host-cpu (native): arena_bytes=4032{{[[:>:]]}}}}
func.func @fc(%x: tensor<1x4096xf32>) -> tensor<1x1000xf32> {
  %w = arith.constant dense<1.0> : tensor<1000x4096xf32>
  %e = tensor.empty() : tensor<4096x1000xf32>
  // expected-remark @below {{'linalg.transpose' reads only splat constants: a compiler folds it into a splat (a fill), so metrale counts no dispatch, buffer or weight for it}}
  %t = linalg.transpose ins(%w : tensor<1000x4096xf32>) outs(%e : tensor<4096x1000xf32>) permutation = [1, 0]
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x1000xf32>
  %f = linalg.fill ins(%z : f32) outs(%e2 : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  %m = linalg.matmul ins(%x, %t : tensor<1x4096xf32>, tensor<4096x1000xf32>) outs(%f : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  return %m : tensor<1x1000xf32>
}

// -----

// A chain: the reciprocal of a splat, broadcast by a TOSA mul against a 1x1 splat, both
// fold; the add of the folded result to %x is the one dispatch (a splat operand is read
// from no memory): reads %x 4x8xf32 = 128 B, writes 128 B: dram 256.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 256 : i64
// The two folds are one remark at the function (issue 38: BERT printed 62), naming the
// first; remarks-each (the command's --remarks=all) gives one at each (EACH below).
// SUM: splat_fold.mlir:[[# @LINE + 3]]:1: remark: 2 ops read only splat constants: {{.*}}; the first is 'tosa.reciprocal' at {{.*}}splat_fold.mlir:[[# @LINE + 6]]:8 (remarks-each, or the command's --remarks=all, gives a remark at each){{$}}
// expected-remark-re @below {{metrale.budget @chain on host-cpu (native): arena_bytes={{[0-9]+}}{{[[:>:]]}}}}
// expected-remark @+1 {{ read only splat constants: a compiler folds each into a splat (a fill), so metrale counts no dispatch, buffer or weight for them; the first is 'tosa.reciprocal' at}}
func.func @chain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = "tosa.const"() <{values = dense<8.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  // EACH: splat_fold.mlir:[[# @LINE + 1]]:8: remark: 'tosa.reciprocal' reads only splat constants: a compiler folds it into a splat (a fill), so metrale counts no dispatch, buffer or weight for it
  %r = tosa.reciprocal %c : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %b = "tosa.const"() <{values = dense<2.0> : tensor<4x8xf32>}> : () -> tensor<4x8xf32>
  %s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // EACH: splat_fold.mlir:[[# @LINE + 1]]:8: remark: 'tosa.mul' reads only splat constants
  %m = tosa.mul %b, %r, %s : (tensor<4x8xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %a = tosa.add %x, %m : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %a : tensor<4x8xf32>
}

// -----

// Not folded: a generic that reads its position (an iota: linalg.index), a pad of a splat
// by another value (its result mixes two), and an add of a splat to an argument. Each is
// a dispatch of its own on the npu (no fusion across them: 3), writing 4x8xf32 = 128 B:
// the iota reads nothing, the pad reads nothing (its splat input), the add reads %x.
// NPU-LABEL: func.func @kept
// NPU-SAME: {{[[:<:]]}}dispatches = 3 : i64
// expected-remark-re @below {{metrale.budget @kept on host-cpu (native): arena_bytes={{[0-9]+}}{{[[:>:]]}}}}
func.func @kept(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<6x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %iota = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    linalg.yield %f : f32
  } -> tensor<4x8xf32>
  %c = arith.constant dense<1.0> : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %c low[1, 0] high[1, 0] {
  ^bb0(%a: index, %b: index):
    tensor.yield %zero : f32
  } : tensor<4x8xf32> to tensor<6x8xf32>
  %s = arith.addf %x, %c : tensor<4x8xf32>
  return %iota, %p, %s : tensor<4x8xf32>, tensor<6x8xf32>, tensor<4x8xf32>
}
