// Attention's preconditions (issue 38; budget.h, attention): on h100 a matmul -> softmax
// -> matmul chain is one dispatch only when the softmax reduces the axis the second matmul
// contracts and that axis comes from one input of the first. Every look-alike below was
// one dispatch before (scores "never reaching DRAM"); each real form stays one. 64x32 f32
// values are 8192 B, the 64x64 scores 16384 B.
// RUN: metrale-opt %s --allow-unregistered-dialect --metrale-budget="target=h100 op-remarks=false" 2>/dev/null | FileCheck %s
// RUN: metrale dispatch %s --allow-unregistered-dialect --target h100 --per-dispatch 2>/dev/null | FileCheck %s --check-prefix=ROWS
// The shared mask of two attentions (Inputs/shared_mask.mlir) is a dispatch of its own
// whose 16384-B result both read: 3 dispatches (7 before: neither attention formed).
// RUN: metrale dispatch %S/Inputs/shared_mask.mlir --target h100 --per-dispatch 2>/dev/null | FileCheck %s --check-prefix=SHARED
// SHARED: {{^}}  3 dispatches, 3 kernel launches
// SHARED-NEXT: #
// SHARED-NEXT: {{^}} 0 32768 {{.*}} arith.mulf at
// SHARED-NEXT: {{^}} 1 49152 {{.*}} linalg.matmul+arith.addf+linalg.softmax+linalg.matmul at
// SHARED-NEXT: {{^}} 2 49152 {{.*}} linalg.matmul+arith.addf+linalg.softmax+linalg.matmul at
// The mask dispatch reads the 16384-B bias and writes the 16384-B mask; each attention
// reads Q or the previous context (8192), K^T, V and the mask (16384): 49152.
// ROWS-LABEL: @mask_computed
// ROWS: {{^}} 0 49152 {{.*}} linalg.matmul+arith.mulf+arith.addf+linalg.softmax+1 more at
// The bare pattern: Q.K^T, a softmax over the keys (dim 1), P.V. One dispatch reading Q,
// K^T and V (8192 B each: 64x32 f32) and writing the 8192-B context: 32768.
// CHECK-LABEL: func.func @bare(
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 32768 : i64
func.func @bare(%q: tensor<64x32xf32>, %kt: tensor<32x64xf32>, %v: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %o = linalg.matmul ins(%p, %v : tensor<64x64xf32>, tensor<64x32xf32>) outs(%f2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}

// With a scale (a splat: no bytes) and a mask argument added (64x64 f32, 16384 B, read by
// the attention): 32768 + 16384 = 49152.
// CHECK-LABEL: func.func @scaled_masked(
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 49152 : i64
func.func @scaled_masked(%q: tensor<64x32xf32>, %kt: tensor<32x64xf32>, %v: tensor<64x32xf32>, %mask: tensor<64x64xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %sc = arith.constant dense<0.125> : tensor<64x64xf32>
  %m1 = arith.mulf %s, %sc : tensor<64x64xf32>
  %m2 = arith.addf %m1, %mask : tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %p = linalg.softmax dimension(1) ins(%m2 : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %o = linalg.matmul ins(%p, %v : tensor<64x64xf32>, tensor<64x32xf32>) outs(%f2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}

// A mask the graph computes from an argument and a fill (issue 38: 3 dispatches before):
// its one reader is the mask add, so it merges into the attention, which reads the
// argument: 32768 + 16384 = 49152 (budget.h).
// CHECK-LABEL: func.func @mask_computed(
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 49152 : i64
func.func @mask_computed(%q: tensor<64x32xf32>, %kt: tensor<32x64xf32>, %v: tensor<64x32xf32>, %bias: tensor<64x64xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e9 = tensor.empty() : tensor<64x64xf32>
  %neg = arith.constant -1.0e4 : f32
  %f9 = linalg.fill ins(%neg : f32) outs(%e9 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mask = arith.mulf %bias, %f9 : tensor<64x64xf32>
  %m2 = arith.addf %s, %mask : tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %p = linalg.softmax dimension(1) ins(%m2 : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %o = linalg.matmul ins(%p, %v : tensor<64x64xf32>, tensor<64x32xf32>) outs(%f2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}

// V given transposed, P.V reading it through its maps (n, k): still attention.
// CHECK-LABEL: func.func @v_transposed(
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 32768 : i64
func.func @v_transposed(%q: tensor<64x32xf32>, %kt: tensor<32x64xf32>, %vt: tensor<32x64xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p, %vt : tensor<64x64xf32>, tensor<32x64xf32>) outs(%f2 : tensor<64x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %pr = arith.mulf %x, %y : f32
    %sm = arith.addf %acc, %pr : f32
    linalg.yield %sm : f32
  } -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}

// Look-alike: the softmax over the query axis (dim 0). An online softmax reduces the axis
// P.V contracts; this one does not: Q.K^T (reads 16384, writes the 16384-B scores), the
// softmax (16384 in, 16384 out), P.V (16384 + 8192 in, 8192 out): 3 dispatches, 98304.
// CHECK-LABEL: func.func @softmax_query_axis(
// CHECK-SAME: {{[[:<:]]}}dispatches = 3 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 98304 : i64
func.func @softmax_query_axis(%q: tensor<64x32xf32>, %kt: tensor<32x64xf32>, %v: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %p = linalg.softmax dimension(0) ins(%s : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %o = linalg.matmul ins(%p, %v : tensor<64x64xf32>, tensor<64x32xf32>) outs(%f2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}

// Look-alike: P^T.V (the second matmul contracts P's dim 0, the softmax reduced dim 1).
// CHECK-LABEL: func.func @pt_v(
// CHECK-SAME: {{[[:<:]]}}dispatches = 3 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 98304 : i64
func.func @pt_v(%q: tensor<64x32xf32>, %kt: tensor<32x64xf32>, %v: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p, %v : tensor<64x64xf32>, tensor<64x32xf32>) outs(%f2 : tensor<64x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %pr = arith.mulf %x, %y : f32
    %sm = arith.addf %acc, %pr : f32
    linalg.yield %sm : f32
  } -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}

// Look-alike: a transpose of P between, read straight by P.V (it joins the softmax's
// dispatch as its epilogue: 3 dispatches, 98304).
// CHECK-LABEL: func.func @transpose_between(
// CHECK-SAME: {{[[:<:]]}}dispatches = 3 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 98304 : i64
func.func @transpose_between(%q: tensor<64x32xf32>, %kt: tensor<32x64xf32>, %v: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e5 = tensor.empty() : tensor<64x64xf32>
  %pt = linalg.transpose ins(%p : tensor<64x64xf32>) outs(%e5 : tensor<64x64xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %o = linalg.matmul ins(%pt, %v : tensor<64x64xf32>, tensor<64x32xf32>) outs(%f2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}

// Both at once: the softmax over dim 0 and P^T.V contracting dim 0 is attention with the
// queries' and keys' roles swapped (dim 0 comes from Q alone): one dispatch.
// CHECK-LABEL: func.func @swapped_roles(
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 32768 : i64
func.func @swapped_roles(%q: tensor<64x32xf32>, %kt: tensor<32x64xf32>, %v: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %p = linalg.softmax dimension(0) ins(%s : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p, %v : tensor<64x64xf32>, tensor<64x32xf32>) outs(%f2 : tensor<64x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %pr = arith.mulf %x, %y : f32
    %sm = arith.addf %acc, %pr : f32
    linalg.yield %sm : f32
  } -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}

// A transpose of P that P.V reads back transposed: P.V contracts the softmax's dim.
// CHECK-LABEL: func.func @transpose_undone(
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 32768 : i64
func.func @transpose_undone(%q: tensor<64x32xf32>, %kt: tensor<32x64xf32>, %v: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e5 = tensor.empty() : tensor<64x64xf32>
  %pt = linalg.transpose ins(%p : tensor<64x64xf32>) outs(%e5 : tensor<64x64xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%pt, %v : tensor<64x64xf32>, tensor<64x32xf32>) outs(%f2 : tensor<64x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %pr = arith.mulf %x, %y : f32
    %sm = arith.addf %acc, %pr : f32
    linalg.yield %sm : f32
  } -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}

// Batched (4 heads): 4 x 32768.
// CHECK-LABEL: func.func @b_bare(
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 131072 : i64
func.func @b_bare(%q: tensor<4x64x32xf32>, %kt: tensor<4x32x64xf32>, %v: tensor<4x64x32xf32>) -> tensor<4x64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x64x32xf32>, tensor<4x32x64xf32>) outs(%f0 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %e1 = tensor.empty() : tensor<4x64x64xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x64x64xf32>) outs(%e1 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %e2 = tensor.empty() : tensor<4x64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x64x64xf32>, tensor<4x64x32xf32>) outs(%f2 : tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
  return %o : tensor<4x64x32xf32>
}

// Batched look-alikes, each 4 x 98304: the softmax over the query axis (dim 1) ...
// CHECK-LABEL: func.func @b_query_axis(
// CHECK-SAME: {{[[:<:]]}}dispatches = 3 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 393216 : i64
func.func @b_query_axis(%q: tensor<4x64x32xf32>, %kt: tensor<4x32x64xf32>, %v: tensor<4x64x32xf32>) -> tensor<4x64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x64x32xf32>, tensor<4x32x64xf32>) outs(%f0 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %e1 = tensor.empty() : tensor<4x64x64xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<4x64x64xf32>) outs(%e1 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %e2 = tensor.empty() : tensor<4x64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x64x64xf32>, tensor<4x64x32xf32>) outs(%f2 : tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
  return %o : tensor<4x64x32xf32>
}

// ... over the head dim (dim 0, indexed by both inputs of Q.K^T) ...
// CHECK-LABEL: func.func @b_batch_axis(
// CHECK-SAME: {{[[:<:]]}}dispatches = 3 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 393216 : i64
func.func @b_batch_axis(%q: tensor<4x64x32xf32>, %kt: tensor<4x32x64xf32>, %v: tensor<4x64x32xf32>) -> tensor<4x64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x64x32xf32>, tensor<4x32x64xf32>) outs(%f0 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %e1 = tensor.empty() : tensor<4x64x64xf32>
  %p = linalg.softmax dimension(0) ins(%s : tensor<4x64x64xf32>) outs(%e1 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %e2 = tensor.empty() : tensor<4x64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x64x64xf32>, tensor<4x64x32xf32>) outs(%f2 : tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
  return %o : tensor<4x64x32xf32>
}

// ... P^T.V ...
// CHECK-LABEL: func.func @b_pt_v(
// CHECK-SAME: {{[[:<:]]}}dispatches = 3 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 393216 : i64
func.func @b_pt_v(%q: tensor<4x64x32xf32>, %kt: tensor<4x32x64xf32>, %v: tensor<4x64x32xf32>) -> tensor<4x64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x64x32xf32>, tensor<4x32x64xf32>) outs(%f0 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %e1 = tensor.empty() : tensor<4x64x64xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x64x64xf32>) outs(%e1 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %e2 = tensor.empty() : tensor<4x64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<4x64x64xf32>, tensor<4x64x32xf32>) outs(%f2 : tensor<4x64x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %pr = arith.mulf %x, %y : f32
    %sm = arith.addf %acc, %pr : f32
    linalg.yield %sm : f32
  } -> tensor<4x64x32xf32>
  return %o : tensor<4x64x32xf32>
}

// ... and a transpose of P between.
// CHECK-LABEL: func.func @b_transpose_between(
// CHECK-SAME: {{[[:<:]]}}dispatches = 3 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 393216 : i64
func.func @b_transpose_between(%q: tensor<4x64x32xf32>, %kt: tensor<4x32x64xf32>, %v: tensor<4x64x32xf32>) -> tensor<4x64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x64x32xf32>, tensor<4x32x64xf32>) outs(%f0 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %e1 = tensor.empty() : tensor<4x64x64xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x64x64xf32>) outs(%e1 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %e5 = tensor.empty() : tensor<4x64x64xf32>
  %pt = linalg.transpose ins(%p : tensor<4x64x64xf32>) outs(%e5 : tensor<4x64x64xf32>) permutation = [0, 2, 1]
  %e2 = tensor.empty() : tensor<4x64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
  %o = linalg.batch_matmul ins(%pt, %v : tensor<4x64x64xf32>, tensor<4x64x32xf32>) outs(%f2 : tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
  return %o : tensor<4x64x32xf32>
}

// Reshapes between that keep the keys' dim alone (4x64x64 -> 1x4x64x64, softmax over
// dim 3, and back): attention, 4 x 32768.
// CHECK-LABEL: func.func @b_reshaped(
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 131072 : i64
func.func @b_reshaped(%q: tensor<4x64x32xf32>, %kt: tensor<4x32x64xf32>, %v: tensor<4x64x32xf32>) -> tensor<4x64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x64x32xf32>, tensor<4x32x64xf32>) outs(%f0 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 4, 64, 64] : tensor<4x64x64xf32> into tensor<1x4x64x64xf32>
  %e1 = tensor.empty() : tensor<1x4x64x64xf32>
  %p4 = linalg.softmax dimension(3) ins(%s4 : tensor<1x4x64x64xf32>) outs(%e1 : tensor<1x4x64x64xf32>) -> tensor<1x4x64x64xf32>
  %p = tensor.collapse_shape %p4 [[0, 1], [2], [3]] : tensor<1x4x64x64xf32> into tensor<4x64x64xf32>
  %e2 = tensor.empty() : tensor<4x64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x64x64xf32>, tensor<4x64x32xf32>) outs(%f2 : tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
  return %o : tensor<4x64x32xf32>
}

// A reshape that merges the keys' dim with the queries' (4x64x64 -> 4x4096): the softmax
// then normalizes over both, which no online softmax computes.
// CHECK-LABEL: func.func @b_merged_axis(
// CHECK-SAME: {{[[:<:]]}}dispatches = 3 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 393216 : i64
func.func @b_merged_axis(%q: tensor<4x64x32xf32>, %kt: tensor<4x32x64xf32>, %v: tensor<4x64x32xf32>) -> tensor<4x64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x64x32xf32>, tensor<4x32x64xf32>) outs(%f0 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %s2 = tensor.collapse_shape %s [[0], [1, 2]] : tensor<4x64x64xf32> into tensor<4x4096xf32>
  %e1 = tensor.empty() : tensor<4x4096xf32>
  %p2 = linalg.softmax dimension(1) ins(%s2 : tensor<4x4096xf32>) outs(%e1 : tensor<4x4096xf32>) -> tensor<4x4096xf32>
  %p = tensor.expand_shape %p2 [[0], [1, 2]] output_shape [4, 64, 64] : tensor<4x4096xf32> into tensor<4x64x64xf32>
  %e2 = tensor.empty() : tensor<4x64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x64x64xf32>, tensor<4x64x32xf32>) outs(%f2 : tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
  return %o : tensor<4x64x32xf32>
}

// IREE's own attention op between two matmuls (the Q projection, the output projection):
// already one op, it fuses with neither (before: the three were one dispatch). 64x32 f32
// values are 8192 B, 32x32 weights 4096: Q-proj reads 8192 + 4096 and writes 8192; the
// attention reads Q, K, V (24576) and writes 8192; the output projection reads 8192 + 4096
// and writes 8192: 20480 + 32768 + 20480 = 73728.
// CHECK-LABEL: func.func @iree_attention_between_matmuls(
// CHECK-SAME: {{[[:<:]]}}dispatches = 3 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 73728 : i64
func.func @iree_attention_between_matmuls(%x: tensor<64x32xf32>, %wq: tensor<32x32xf32>, %k: tensor<64x32xf32>, %v: tensor<64x32xf32>, %wo: tensor<32x32xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x32xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<64x32xf32>, tensor<32x32xf32>) outs(%f0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %a = "iree_linalg_ext.attention"(%q, %k, %v, %e0) : (tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  %o = linalg.matmul ins(%a, %wo : tensor<64x32xf32>, tensor<32x32xf32>) outs(%f0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}


// An op after the softmax that changes P's values (issue 38, a hostile review's F6): an
// online softmax normalizes once, at the end, so exp(P).V is no attention. Only casts,
// transposes and copies may stand there: 3 dispatches, 98304 as the look-alikes above.
// CHECK-LABEL: func.func @post_exp(
// CHECK-SAME: {{[[:<:]]}}dispatches = 3 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 98304 : i64
func.func @post_exp(%q: tensor<64x32xf32>, %kt: tensor<32x64xf32>, %v: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %pt = math.exp %p : tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %o = linalg.matmul ins(%pt, %v : tensor<64x64xf32>, tensor<64x32xf32>) outs(%f2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}

// A mask added after the softmax: P.V + M.V. The mask argument (16384 B) is read too:
// 98304 + 16384 = 114688.
// CHECK-LABEL: func.func @post_mask_arg(
// CHECK-SAME: {{[[:<:]]}}dispatches = 3 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 114688 : i64
func.func @post_mask_arg(%q: tensor<64x32xf32>, %kt: tensor<32x64xf32>, %v: tensor<64x32xf32>, %m: tensor<64x64xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %pt = arith.addf %p, %m : tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %o = linalg.matmul ins(%pt, %v : tensor<64x64xf32>, tensor<64x32xf32>) outs(%f2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}

// Even a constant scale after the softmax: not what IREE's attention op computes.
// CHECK-LABEL: func.func @post_scale_const(
// CHECK-SAME: {{[[:<:]]}}dispatches = 3 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 98304 : i64
func.func @post_scale_const(%q: tensor<64x32xf32>, %kt: tensor<32x64xf32>, %v: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %cst = arith.constant dense<0.5> : tensor<64x64xf32>
  %pt = arith.mulf %p, %cst : tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %o = linalg.matmul ins(%pt, %v : tensor<64x64xf32>, tensor<64x32xf32>) outs(%f2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}

// S + S^T in one generic before the softmax (F7): the generic reads the scores twice, the
// key axis comes from both Q and K. 3 dispatches (it joins Q.K^T's as its epilogue).
// CHECK-LABEL: func.func @ew_s_plus_st(
// CHECK-SAME: {{[[:<:]]}}dispatches = 3 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 98304 : i64
func.func @ew_s_plus_st(%q: tensor<64x32xf32>, %kt: tensor<32x64xf32>, %v: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e7 = tensor.empty() : tensor<64x64xf32>
  %st = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i,j)>, affine_map<(i, j) -> (j,i)>, affine_map<(i, j) -> (i,j)>], iterator_types = ["parallel","parallel"]} ins(%s, %s : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e7 : tensor<64x64xf32>) {
  ^bb0(%a: f32, %a2: f32, %b: f32):
    %m = arith.addf %a, %a2 : f32
    linalg.yield %m : f32
  } -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %p = linalg.softmax dimension(1) ins(%st : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %o = linalg.matmul ins(%p, %v : tensor<64x64xf32>, tensor<64x32xf32>) outs(%f2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}

// A row of S broadcast by the generic's map (i, j) -> (0, j): not read element for element.
// CHECK-LABEL: func.func @ew_broadcast_map_pre(
// CHECK-SAME: {{[[:<:]]}}dispatches = 3 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 98304 : i64
func.func @ew_broadcast_map_pre(%q: tensor<64x32xf32>, %kt: tensor<32x64xf32>, %v: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e7 = tensor.empty() : tensor<64x64xf32>
  %st = linalg.generic {indexing_maps = [affine_map<(i, j) -> (0,j)>, affine_map<(i, j) -> (i,j)>], iterator_types = ["parallel","parallel"]} ins(%s : tensor<64x64xf32>) outs(%e7 : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %p = linalg.softmax dimension(1) ins(%st : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %o = linalg.matmul ins(%p, %v : tensor<64x64xf32>, tensor<64x32xf32>) outs(%f2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}

