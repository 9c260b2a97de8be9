// IREE clones a dequantization-like generic into the dispatch that reads it
// (isDequantizationLikeOp, isClonableIntoDispatchOp; graph.h MET_NODE_F_DEQUANT, budget.h):
// int8 weights widened and scaled per column feed the matmul in one dispatch, and the f32
// weights are never in memory. x 16x256xf32 = 16384 B, w 256x128xi8 = 32768, scale
// 128xf32 = 512, result 16x128xf32 = 8192.
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false" 2>/dev/null | FileCheck %s
// RUN: metrale-opt %s --metrale-budget="target=h100 op-remarks=false" 2>/dev/null | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>

// One dispatch reading x, w and the scale, writing the result: 16384 + 32768 + 512 +
// 8192 = 57856; the arena holds the result alone (8192).
// CHECK-LABEL: func.func @scaled_int8(
// CHECK-SAME: {{[[:<:]]}}arena_bytes = 8192 : i64
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 57856 : i64
func.func @scaled_int8(%x: tensor<16x256xf32>, %w: tensor<256x128xi8>, %s: tensor<128xf32>) -> tensor<16x128xf32> {
  %e = tensor.empty() : tensor<256x128xf32>
  %d = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%w, %s : tensor<256x128xi8>, tensor<128xf32>) outs(%e : tensor<256x128xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %f = arith.sitofp %a : i8 to f32
    %m = arith.mulf %f, %b : f32
    linalg.yield %m : f32
  } -> tensor<256x128xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<16x128xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e2 : tensor<16x128xf32>) -> tensor<16x128xf32>
  %r = linalg.matmul ins(%x, %d : tensor<16x256xf32>, tensor<256x128xf32>) outs(%f0 : tensor<16x128xf32>) -> tensor<16x128xf32>
  return %r : tensor<16x128xf32>
}

// Not dequantization-like, each a dispatch of its own (the scaled f32 weights 256x128x4 =
// 131072 B written and read back):
// the input is no narrower than the result (an f32 weight scaled): 2 dispatches.
// CHECK-LABEL: func.func @scaled_f32(
// CHECK-SAME: {{[[:<:]]}}dispatches = 2 : i64
func.func @scaled_f32(%x: tensor<16x256xf32>, %w: tensor<256x128xf32>, %s: tensor<128xf32>) -> tensor<16x128xf32> {
  %e = tensor.empty() : tensor<256x128xf32>
  %d = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%w, %s : tensor<256x128xf32>, tensor<128xf32>) outs(%e : tensor<256x128xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<256x128xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<16x128xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e2 : tensor<16x128xf32>) -> tensor<16x128xf32>
  %r = linalg.matmul ins(%x, %d : tensor<16x256xf32>, tensor<256x128xf32>) outs(%f0 : tensor<16x128xf32>) -> tensor<16x128xf32>
  return %r : tensor<16x128xf32>
}

// a division in the body (only extensions, conversions, adds, subs and muls clone): the
// int8 weights' widening read (32768 + 512) and written (131072), the matmul reading x,
// the widened weights and writing: 164352 + 155648 = 320000.
// CHECK-LABEL: func.func @divided_int8(
// CHECK-SAME: {{[[:<:]]}}dispatches = 2 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 320000 : i64
func.func @divided_int8(%x: tensor<16x256xf32>, %w: tensor<256x128xi8>, %s: tensor<128xf32>) -> tensor<16x128xf32> {
  %e = tensor.empty() : tensor<256x128xf32>
  %d = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%w, %s : tensor<256x128xi8>, tensor<128xf32>) outs(%e : tensor<256x128xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %f = arith.sitofp %a : i8 to f32
    %m = arith.divf %f, %b : f32
    linalg.yield %m : f32
  } -> tensor<256x128xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<16x128xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e2 : tensor<16x128xf32>) -> tensor<16x128xf32>
  %r = linalg.matmul ins(%x, %d : tensor<16x256xf32>, tensor<256x128xf32>) outs(%f0 : tensor<16x128xf32>) -> tensor<16x128xf32>
  return %r : tensor<16x128xf32>
}

// two inputs by the identity (a zero point per element, not a broadcast): 2 dispatches.
// CHECK-LABEL: func.func @two_identity(
// CHECK-SAME: {{[[:<:]]}}dispatches = 2 : i64
func.func @two_identity(%x: tensor<16x256xf32>, %w: tensor<256x128xi8>, %zp: tensor<256x128xi8>) -> tensor<16x128xf32> {
  %e = tensor.empty() : tensor<256x128xf32>
  %d = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%w, %zp : tensor<256x128xi8>, tensor<256x128xi8>) outs(%e : tensor<256x128xf32>) {
  ^bb0(%a: i8, %b: i8, %o: f32):
    %q = arith.subi %a, %b : i8
    %f = arith.sitofp %q : i8 to f32
    linalg.yield %f : f32
  } -> tensor<256x128xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<16x128xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e2 : tensor<16x128xf32>) -> tensor<16x128xf32>
  %r = linalg.matmul ins(%x, %d : tensor<16x256xf32>, tensor<256x128xf32>) outs(%f0 : tensor<16x128xf32>) -> tensor<16x128xf32>
  return %r : tensor<16x128xf32>
}
