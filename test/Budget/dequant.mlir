// IREE clones a bit-extend generic into the dispatch that reads it (isBitExtendOp,
// isClonableIntoDispatchOp; graph.h MET_NODE_F_BIT_EXTEND, budget.h):
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

// Not a bit-extend, a dispatch of its own (the scaled f32 weights 256x128x4 = 131072 B
// written and read back): the input is no narrower than the result (an f32 weight
// scaled): 2 dispatches.
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

// Any arith op in the body clones (a division too): one dispatch, 57856 as above.
// CHECK-LABEL: func.func @divided_int8(
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 57856 : i64
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

// Two int8 inputs of the highest rank (a zero point per element): the widest is i8, still
// narrower than f32: cloned, one dispatch reading x, w, the zero points (32768) and
// writing the result: 16384 + 2 x 32768 + 8192 = 90112.
// CHECK-LABEL: func.func @two_identity(
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 90112 : i64
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

// A math op in the body (an exp: too costly to recompute in every reader) is no
// bit-extend: the widening is a dispatch of its own, 2 in all.
// CHECK-LABEL: func.func @math_in_body(
// CHECK-SAME: {{[[:<:]]}}dispatches = 2 : i64
func.func @math_in_body(%x: tensor<16x256xf32>, %w: tensor<256x128xi8>) -> tensor<16x128xf32> {
  %e = tensor.empty() : tensor<256x128xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<256x128xi8>) outs(%e : tensor<256x128xf32>) {
  ^bb0(%a: i8, %o: f32):
    %f = arith.sitofp %a : i8 to f32
    %x2 = math.exp %f : f32
    linalg.yield %x2 : f32
  } -> tensor<256x128xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<16x128xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e2 : tensor<16x128xf32>) -> tensor<16x128xf32>
  %r = linalg.matmul ins(%x, %d : tensor<16x256xf32>, tensor<256x128xf32>) outs(%f0 : tensor<16x128xf32>) -> tensor<16x128xf32>
  return %r : tensor<16x128xf32>
}
