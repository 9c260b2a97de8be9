// A tensor.insert_slice that writes its whole destination (offsets 0, sizes the
// destination's shape, strides 1, source and result of one type) is its source: MLIR's
// folder (InsertSliceOp::fold) returns it, so no compiler runs it: a view, no dispatch,
// no bytes. Each other insert copies: a dispatch reading the source and writing it into
// the destination. 4x8xf32 = 128 B.
// RUN: metrale-opt %s --metrale-budget="target=h100 op-remarks=false" 2>/dev/null | FileCheck %s
// RUN: metrale-opt %s --metrale-budget="target=npu op-remarks=false" 2>/dev/null | FileCheck %s

// The whole destination: the result is %x itself: no dispatch, no DRAM.
// CHECK-LABEL: func.func @whole(
// CHECK-SAME: {{[[:<:]]}}dispatches = 0 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 0 : i64
func.func @whole(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = tensor.insert_slice %x into %e[0, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// Half of a larger destination (4x8 into 8x8 at row 4): a copy, one dispatch reading
// 128 B and writing them.
// CHECK-LABEL: func.func @part(
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
func.func @part(%x: tensor<4x8xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = tensor.insert_slice %x into %d[4, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// A rank-reducing insert (4x8 into 1x4x8: the types differ): not folded, one dispatch.
// CHECK-LABEL: func.func @rank_reducing(
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
func.func @rank_reducing(%x: tensor<4x8xf32>) -> tensor<1x4x8xf32> {
  %e = tensor.empty() : tensor<1x4x8xf32>
  %r = tensor.insert_slice %x into %e[0, 0, 0] [1, 4, 8] [1, 1, 1] : tensor<4x8xf32> into tensor<1x4x8xf32>
  return %r : tensor<1x4x8xf32>
}

// Dynamic offsets (even if zero at run time) are not folded: one dispatch.
// CHECK-LABEL: func.func @dynamic_offset(
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
func.func @dynamic_offset(%x: tensor<4x8xf32>, %i: index) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = tensor.insert_slice %x into %e[%i, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
