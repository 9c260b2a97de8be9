// Attention as IREE's GPU pipeline forms it (budget.h, MET_FUSION_IREE: attention): on a
// target with attention_fusion (h100) Q.K^T, its scale, the widening to f32, the softmax,
// the narrowing and P.V are one dispatch, and the scores never reach DRAM; host-cpu
// (IREE's CPU backend) keeps them in memory.
// RUN: metrale-opt %s --metrale-budget="target=h100 op-remarks=false" 2>/dev/null | FileCheck %s --check-prefix=GPU
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false" 2>/dev/null | FileCheck %s --check-prefix=CPU
// RUN: metrale dispatch %s --target h100 --per-dispatch 2>/dev/null | FileCheck %s --check-prefix=ROWS

// 4 heads, 64 tokens, head dim 32, f16. Q, K^T and V are arguments: 4x64x32x2 = 16384 B
// each. h100: one dispatch reading Q, K^T and V (the scale's fill is cloned: no bytes)
// and writing the 16384-B context: dram 65536; the arena holds the context alone
// (16384, a multiple of 256). host-cpu: the scores matmul with its scale and widening
// (epilogue) writes 4x64x64xf32 = 65536 B, the softmax reads them and writes 65536 B,
// the narrowing and P.V read those and write the context: 3 dispatches.
// GPU-LABEL: func.func @attention
// GPU-SAME: arena_bytes = 16384 : i64
// GPU-SAME: {{[[:<:]]}}dispatches = 1 : i64
// GPU-SAME: {{[[:<:]]}}dram_bytes = 65536 : i64
// CPU-LABEL: func.func @attention
// CPU-SAME: {{[[:<:]]}}dispatches = 3 : i64
// ROWS: {{^}} 0 65536 {{[0-9]+}} 1 {{[0-9]+}} {{[a-z]+}} linalg.batch_matmul+arith.mulf+arith.extf+linalg.softmax+2 more at {{.*}}attention.mlir:[[# @LINE + 6]]:8{{$}}
func.func @attention(%q: tensor<4x64x32xf16>, %kt: tensor<4x32x64xf16>, %v: tensor<4x64x32xf16>) -> tensor<4x64x32xf16> {
  %c0 = arith.constant 0.0 : f16
  %scale = arith.constant 0.1767 : f16
  %e0 = tensor.empty() : tensor<4x64x64xf16>
  %f0 = linalg.fill ins(%c0 : f16) outs(%e0 : tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x64x32xf16>, tensor<4x32x64xf16>) outs(%f0 : tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  %e1 = tensor.empty() : tensor<4x64x64xf16>
  %f1 = linalg.fill ins(%scale : f16) outs(%e1 : tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  %m = arith.mulf %s, %f1 : tensor<4x64x64xf16>
  %w = arith.extf %m : tensor<4x64x64xf16> to tensor<4x64x64xf32>
  %e2 = tensor.empty() : tensor<4x64x64xf32>
  %p = linalg.softmax dimension(2) ins(%w : tensor<4x64x64xf32>) outs(%e2 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %n = arith.truncf %p : tensor<4x64x64xf32> to tensor<4x64x64xf16>
  %e3 = tensor.empty() : tensor<4x64x32xf16>
  %f3 = linalg.fill ins(%c0 : f16) outs(%e3 : tensor<4x64x32xf16>) -> tensor<4x64x32xf16>
  %o = linalg.batch_matmul ins(%n, %v : tensor<4x64x64xf16>, tensor<4x64x32xf16>) outs(%f3 : tensor<4x64x32xf16>) -> tensor<4x64x32xf16>
  return %o : tensor<4x64x32xf16>
}

// The scores read twice (returned too): no single reader, so no attention: h100 keeps
// the matmuls apart (2 dispatches at least).
// GPU-LABEL: func.func @scores_kept
// GPU-NOT: {{[[:<:]]}}dispatches = 1 : i64
func.func @scores_kept(%q: tensor<4x64x32xf32>, %kt: tensor<4x32x64xf32>, %v: tensor<4x64x32xf32>) -> (tensor<4x64x32xf32>, tensor<4x64x64xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x64x32xf32>, tensor<4x32x64xf32>) outs(%f0 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %e2 = tensor.empty() : tensor<4x64x64xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x64x64xf32>) outs(%e2 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %e3 = tensor.empty() : tensor<4x64x32xf32>
  %f3 = linalg.fill ins(%c0 : f32) outs(%e3 : tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x64x64xf32>, tensor<4x64x32xf32>) outs(%f3 : tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
  return %o, %s : tensor<4x64x32xf32>, tensor<4x64x64xf32>
}
