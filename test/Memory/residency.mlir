// Weights counted once (metrale/memory.h, weights_replaced; target.h, met_residency_t).
// A packed weight argument (1024 x f32 = 4096 B) holds a 16 x 16 matrix at 0 that only a
// transpose reads (parameter-only: hoisted to load time) and a 16-float bias at 256 that
// every run reads (its broadcast expands it, so it stays in the run); the other 752
// floats no op reads.
// RUN: metrale-opt %s --metrale-memory="target=h100 rows=0" 2>/dev/null | FileCheck %s --check-prefix=H100
// RUN: metrale-opt %s --metrale-memory="target=mobile-gpu-f32 rows=0" 2>/dev/null | FileCheck %s --check-prefix=KEEP
// RUN: metrale targets --json | FileCheck %s --check-prefix=TARGETS
//
// h100 replaces: of the 4096 B, the 1024 B matrix slice is read only at load time, and its
// transposed copy (16 x 16 x 4 = 1024 B, weights_derived) replaces it: weights_replaced =
// 4096 x 1024 / 4096 = 1024. What stays: the bias the runs read and the bytes nothing
// reads (kept, as unread parameters are): 3072 B, so the model holds 3072 + 1024 = 4096 B
// of weights, not 4096 + 1024.
// H100: metrale.memory = {
// H100-SAME: weights_derived = 1024 : i64
// H100-SAME: weights_leaked = 0 : i64
// H100-SAME: weights_replaced = 1024 : i64
// H100-SAME: weights_stored = 4096 : i64
// The mobile GPU keeps its sources: nothing is replaced (and the weight is not leaked:
// a run reads its bias).
// KEEP: metrale.memory = {
// KEEP-SAME: weights_derived = 1024 : i64
// KEEP-SAME: weights_leaked = 0 : i64
// KEEP-SAME: weights_replaced = 0 : i64
// KEEP-SAME: weights_stored = 4096 : i64
// The two targets run above and the rule each follows.
// TARGETS: "name": "h100"{{.*}}"residency": "replace"
// TARGETS: "name": "mobile-gpu-f32"{{.*}}"residency": "keep"
func.func @f(%w: tensor<1024xf32> {metrale.param}, %x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %a = tensor.extract_slice %w[0] [256] [1] : tensor<1024xf32> to tensor<256xf32>
  %m = tensor.expand_shape %a [[0, 1]] output_shape [16, 16] : tensor<256xf32> into tensor<16x16xf32>
  %e = tensor.empty() : tensor<16x16xf32>
  %mt = linalg.transpose ins(%m : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) permutation = [1, 0]
  %b = tensor.extract_slice %w[256] [16] [1] : tensor<1024xf32> to tensor<16xf32>
  %z = tensor.empty() : tensor<4x16xf32>
  %y = linalg.matmul ins(%x, %mt : tensor<4x16xf32>, tensor<16x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %eb = tensor.empty() : tensor<4x16xf32>
  %bb = linalg.broadcast ins(%b : tensor<16xf32>) outs(%eb : tensor<4x16xf32>) dimensions = [0]
  %r = arith.addf %y, %bb : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
