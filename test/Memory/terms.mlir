// Every term of the memory model on one small module, on h100 (alignment 256, 132 SMs,
// 512 MiB context, 2 MiB chunks, util 0.9).
// RUN: metrale-opt %s --metrale-memory="target=h100 rows=20 json=%t.json" 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json

// Weights:
// - "w" is an argument of both runs (one weight by its name), 64x64xf32 in the IR = 16384
//   B, declared as bf16 in the checkpoint: stored 64x64x2 = 8192; the served f32 copy
//   (16384) is derived.
// - @table (256xf32 = 1024) is loaded: stored. @unused (64xf32 = 256) is never loaded:
//   stored and outside.
//   weights_stored = 8192 + 1024 + 256 = 9472; weights_outside = 256.
// - Both runs transpose "w" from parameters only: hoisted to load time, each leaving a
//   64x64xf32 = 16384 B result the matmul reads: derived 2 x 16384 = 32768 (counted per
//   run). After hoisting no run reads "w" itself: h100's residency is "replace", so the
//   transposed copies replace it: weights_replaced = 8192, and its served f32 copy, read
//   only at load time, goes with it. weights_derived = 32768; nothing is leaked.
// States: "kv" (2x64xf32 = 512, the same name in both runs: once) + mutable @step
// (4xi64 = 32): 544.
// Caches: "prefix" 4 x 1048576 = 4194304 on the device; "swap" 2 x 1073741824 on the host
// (not charged).
// Workspace: the matmul family on h100: 132 SMs x 262144 B = 34603008.
// Runs: with the transposes hoisted, @prefill keeps only its 8x64xf32 result (2048 B)
// and @decode its 1x64xf32 (256 B): activations = activations_planned = 2048 (@prefill).
// Driver: 536870912 + chunk slack to 2 MiB (2097152): resident weights 9472 - 8192 = 1280
// -> 2095872, derived 32768 -> 2064384, activations 2048 -> 2095104, workspace 34603008
// (16.5 chunks) -> 1048576, states 544 -> 2096608, caches 4194304 -> 0: slack 9400544,
// driver 546271456.
// Device = 1280 + 32768 + 2048 + 34603008 + 544 + 4194304 + 546271456 = 585105408 (24576
// fewer weight bytes, "w" 8192 and its served copy 16384, and 24576 more chunk slack
// than when they stayed resident: the same total).
// Budget 77309411328; headroom 77309411328 - 585105408 = 76724305920.
// CHECK: metrale.memory = {
// CHECK-SAME: activations = 2048 : i64
// CHECK-SAME: activations_planned = 2048 : i64
// CHECK-SAME: budget_bytes = 77309411328 : i64
// CHECK-SAME: caches_device = 4194304 : i64
// CHECK-SAME: caches_host = 2147483648 : i64
// CHECK-SAME: {{[[:<:]]}}complete = true
// CHECK-SAME: {{[[:<:]]}}device = 585105408 : i64
// CHECK-SAME: driver = 546271456 : i64
// CHECK-SAME: fits = true
// CHECK-SAME: headroom = 76724305920 : i64
// CHECK-SAME: kv = 0 : i64
// CHECK-SAME: states = 544 : i64
// CHECK-SAME: target = "h100"
// CHECK-SAME: weights_derived = 32768 : i64
// CHECK-SAME: weights_leaked = 0 : i64
// CHECK-SAME: weights_outside = 256 : i64
// CHECK-SAME: weights_replaced = 8192 : i64
// CHECK-SAME: weights_stored = 9472 : i64
// CHECK-SAME: workspace = 34603008 : i64

// The Budget plan of @prefill (before hoisting) does not hold the transposed weight
// either: the transpose (elementwise, with a permuted map) reads only a parameter, a
// generator the matmul's dispatch takes in, so only the result has a slot: 2048; @decode
// 256.
// JSON: "runs": [{"name": "prefill", "arena": 2048, "budget_arena": 2048, "materialized": 2048, "bufferized": false, "allocated_peak": 0, "charged": 2048}, {"name": "decode", "arena": 256, "budget_arena": 256, "materialized": 256, "bufferized": false, "allocated_peak": 0, "charged": 256}],
// JSON: "workspaces": {"matmul": 34603008, "conv": 0, "softmax": 0, "reduction": 0},
// JSON: "weights": [{"name": "w", "format": "bf16", "stored": 8192, "served": 16384, "uses": 0, "outside": false, "leaked": true, "replaced": 8192}, {"name": "@table", "format": null, "stored": 1024, "served": 0, "uses": 1, "outside": false, "leaked": false, "replaced": 0}, {"name": "@unused", "format": null, "stored": 256, "served": 0, "uses": 0, "outside": true, "leaked": false, "replaced": 0}],
// JSON: "states": [{"name": "kv", "bytes": 512}, {"name": "@step", "bytes": 32}],
// JSON: "caches": [{"name": "prefix", "units": 4, "unit_bytes": 1048576, "bytes": 4194304, "where": "device"}, {"name": "swap", "units": 2, "unit_bytes": 1073741824, "bytes": 2147483648, "where": "host"}],
module attributes {metrale.caches = [{name = "prefix", units = 4 : i64, bytes = 1048576 : i64, where = "device"},
                                     {name = "swap", units = 2 : i64, bytes = 1073741824 : i64, where = "host"}]} {
  ml_program.global private mutable @step(dense<0> : tensor<4xi64>) : tensor<4xi64>
  ml_program.global private @table(dense<1.0> : tensor<256xf32>) : tensor<256xf32>
  ml_program.global private @unused(dense<1.0> : tensor<64xf32>) : tensor<64xf32>

  func.func @prefill(%w: tensor<64x64xf32> {metrale.param, metrale.name = "w", metrale.format = bf16},
                     %kv: tensor<2x64xf32> {metrale.state, metrale.name = "kv"},
                     %x: tensor<8x64xf32>) -> tensor<8x64xf32> {
    %t = ml_program.global_load_const @table : tensor<256xf32>
    %e = tensor.empty() : tensor<64x64xf32>
    %wt = linalg.transpose ins(%w : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) permutation = [1, 0]
    %z = tensor.empty() : tensor<8x64xf32>
    %m = linalg.matmul ins(%x, %wt : tensor<8x64xf32>, tensor<64x64xf32>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
    return %m : tensor<8x64xf32>
  }

  func.func @decode(%w: tensor<64x64xf32> {metrale.param, metrale.name = "w", metrale.format = bf16},
                    %kv: tensor<2x64xf32> {metrale.state, metrale.name = "kv"},
                    %x: tensor<1x64xf32>) -> tensor<1x64xf32> {
    %e = tensor.empty() : tensor<64x64xf32>
    %wt = linalg.transpose ins(%w : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) permutation = [1, 0]
    %z = tensor.empty() : tensor<1x64xf32>
    %m = linalg.matmul ins(%x, %wt : tensor<1x64xf32>, tensor<64x64xf32>) outs(%z : tensor<1x64xf32>) -> tensor<1x64xf32>
    return %m : tensor<1x64xf32>
  }
}
