// IREE's default dispatch-formation rules for widenings, mmt4d, pack/unpack and returned
// fills (budget.h, MET_FUSION_IREE), each worked by hand on host-cpu (64-byte alignment)
// and checked on h100 too (the same dispatches and DRAM; its arena rounds to 256 B).
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false" 2>/dev/null | FileCheck %s --check-prefixes=CHECK,ARENA
// RUN: metrale-opt %s --metrale-budget="target=h100 op-remarks=false" 2>/dev/null | FileCheck %s
#id = affine_map<(d0, d1) -> (d0, d1)>

// A widening after a matmul is no consumer of the matmul (isFusableWithConsumer's first
// rule): IREE clones it into its readers, and its one reader is the return, so it is a
// dispatch of its own. x 8x64xf16 = 1024 B, w 64x32xf16 = 4096 B, the product 8x32xf16 =
// 512 B, widened 8x32xf32 = 1024 B. The matmul reads 5120 and writes 512; the widening
// reads 512 and writes 1024: 2 dispatches, 7168 B. Arena: both results live at the
// widening, 512 + 1024 = 1536.
// CHECK-LABEL: func.func @widen_returned(
// ARENA-SAME: {{[[:<:]]}}arena_bytes = 1536 : i64
// CHECK-SAME: {{[[:<:]]}}dispatches = 2 : i64, dram_bytes = 7168 : i64
func.func @widen_returned(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>) -> tensor<8x32xf32> {
  %c0 = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8x32xf16>
  %z = linalg.fill ins(%c0 : f16) outs(%e : tensor<8x32xf16>) -> tensor<8x32xf16>
  %m = linalg.matmul ins(%x, %w : tensor<8x64xf16>, tensor<64x32xf16>) outs(%z : tensor<8x32xf16>) -> tensor<8x32xf16>
  %f = arith.extf %m : tensor<8x32xf16> to tensor<8x32xf32>
  return %f : tensor<8x32xf32>
}

// The widening read by an add: it is cloned into the add's dispatch, which reads the
// narrow product (512) and b (1024) and writes 1024: 5632 + 2560 = 8192, 2 dispatches;
// arena: the product and the sum, 1536.
// CHECK-LABEL: func.func @widen_add(
// ARENA-SAME: {{[[:<:]]}}arena_bytes = 1536 : i64
// CHECK-SAME: {{[[:<:]]}}dispatches = 2 : i64, dram_bytes = 8192 : i64
func.func @widen_add(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>, %b: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %c0 = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8x32xf16>
  %z = linalg.fill ins(%c0 : f16) outs(%e : tensor<8x32xf16>) -> tensor<8x32xf16>
  %m = linalg.matmul ins(%x, %w : tensor<8x64xf16>, tensor<64x32xf16>) outs(%z : tensor<8x32xf16>) -> tensor<8x32xf16>
  %f = arith.extf %m : tensor<8x32xf16> to tensor<8x32xf32>
  %a = arith.addf %f, %b : tensor<8x32xf32>
  return %a : tensor<8x32xf32>
}

// The widening read by another matmul: cloned into that root's dispatch, the widened
// tensor is never in memory. The first matmul 5632; the second reads the narrow product
// (512) and w2 32x16xf32 (2048), writes 8x16xf32 (512): 3072. 8704, arena 512 + 512.
// CHECK-LABEL: func.func @widen_matmul(
// ARENA-SAME: {{[[:<:]]}}arena_bytes = 1024 : i64
// CHECK-SAME: {{[[:<:]]}}dispatches = 2 : i64, dram_bytes = 8704 : i64
func.func @widen_matmul(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %c0 = arith.constant 0.0 : f16
  %c1 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf16>
  %z = linalg.fill ins(%c0 : f16) outs(%e : tensor<8x32xf16>) -> tensor<8x32xf16>
  %m = linalg.matmul ins(%x, %w : tensor<8x64xf16>, tensor<64x32xf16>) outs(%z : tensor<8x32xf16>) -> tensor<8x32xf16>
  %f = arith.extf %m : tensor<8x32xf16> to tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %z2 = linalg.fill ins(%c1 : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m2 = linalg.matmul ins(%f, %w2 : tensor<8x32xf32>, tensor<32x16xf32>) outs(%z2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %m2 : tensor<8x16xf32>
}

// An mmt4d takes no consumer (FormDispatchRegions, #16025): the relu is a dispatch of its
// own. a 4x16x8x1xf32 = 2048 B, b 4x16x4x1xf32 = 1024 B, the result 4x4x8x4xf32 = 2048 B:
// the mmt4d reads 3072 and writes 2048, the relu reads 2048 (the fill is cloned: no read)
// and writes 2048: 9216; arena 2048 + 2048.
// CHECK-LABEL: func.func @mmt4d_relu(
// ARENA-SAME: {{[[:<:]]}}arena_bytes = 4096 : i64
// CHECK-SAME: {{[[:<:]]}}dispatches = 2 : i64, dram_bytes = 9216 : i64
func.func @mmt4d_relu(%a: tensor<4x16x8x1xf32>, %b: tensor<4x16x4x1xf32>) -> tensor<4x4x8x4xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4x8x4xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x4x8x4xf32>) -> tensor<4x4x8x4xf32>
  %m = linalg.mmt4d ins(%a, %b : tensor<4x16x8x1xf32>, tensor<4x16x4x1xf32>) outs(%z : tensor<4x4x8x4xf32>) -> tensor<4x4x8x4xf32>
  %r = arith.maximumf %m, %z : tensor<4x4x8x4xf32>
  return %r : tensor<4x4x8x4xf32>
}

// A pack joins the dispatch of what it packs, that dispatch's one use: the add reads
// x and y (4096 each) and writes the packed 2x2x8x32xf32 (4096): 1 dispatch, 12288.
// CHECK-LABEL: func.func @add_pack(
// ARENA-SAME: {{[[:<:]]}}arena_bytes = 4096 : i64
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64, dram_bytes = 12288 : i64
func.func @add_pack(%x: tensor<16x64xf32>, %y: tensor<16x64xf32>) -> tensor<2x2x8x32xf32> {
  %s = arith.addf %x, %y : tensor<16x64xf32>
  %e = tensor.empty() : tensor<2x2x8x32xf32>
  %p = linalg.pack %s inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %e : tensor<16x64xf32> -> tensor<2x2x8x32xf32>
  return %p : tensor<2x2x8x32xf32>
}

// An unpack takes an elementwise consumer over its loops: reads x and y, writes the sum:
// 1 dispatch, 12288.
// CHECK-LABEL: func.func @unpack_add(
// ARENA-SAME: {{[[:<:]]}}arena_bytes = 4096 : i64
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64, dram_bytes = 12288 : i64
func.func @unpack_add(%x: tensor<2x2x8x32xf32>, %y: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %e = tensor.empty() : tensor<16x64xf32>
  %u = linalg.unpack %x inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %e : tensor<2x2x8x32xf32> -> tensor<16x64xf32>
  %s = arith.addf %u, %y : tensor<16x64xf32>
  return %s : tensor<16x64xf32>
}

// A returned fill of a tensor.empty is a flow.tensor.splat: a transfer that writes its
// 4096 B, no dispatch. The neg reads and writes 4096: 1 dispatch, 4096 + 8192 = 12288;
// arena: both results, 8192.
// CHECK-LABEL: func.func @fill_returned(
// ARENA-SAME: {{[[:<:]]}}arena_bytes = 8192 : i64
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64, dram_bytes = 12288 : i64
func.func @fill_returned(%x: tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %c = arith.constant 42.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %n = arith.negf %x : tensor<16x64xf32>
  return %f, %n : tensor<16x64xf32>, tensor<16x64xf32>
}

// A dequantization whose scales have a unit dim (16x4x1 beside the 16x4x8 weight): after
// FoldUnitExtentDims the weight alone has the highest rank, so it is a bit-extend and IREE
// clones it into the reduction that reads it. One dispatch reading the i8 weight (512 B),
// the scales and zero points (256 B each) and x 1x1x4x8xf32 (128 B), writing 1x1x16xf32
// (64 B): 1216; the widened 16x4x8xf32 is never in memory (arena: the result, 64).
// CHECK-LABEL: func.func @grouped_dequant(
// ARENA-SAME: {{[[:<:]]}}arena_bytes = 64 : i64
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64, dram_bytes = 1216 : i64
func.func @grouped_dequant(%w: tensor<16x4x8xi8>, %x: tensor<1x1x4x8xf32>, %s: tensor<16x4x1xf32>, %zp: tensor<16x4x1xf32>) -> tensor<1x1x16xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x16xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<1x1x16xf32>) -> tensor<1x1x16xf32>
  %e2 = tensor.empty() : tensor<16x4x8xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w, %s, %zp : tensor<16x4x8xi8>, tensor<16x4x1xf32>, tensor<16x4x1xf32>) outs(%e2 : tensor<16x4x8xf32>) {
  ^bb0(%in: i8, %sc: f32, %zz: f32, %out: f32):
    %0 = arith.extsi %in : i8 to i32
    %1 = arith.sitofp %0 : i32 to f32
    %2 = arith.subf %1, %zz : f32
    %3 = arith.mulf %2, %sc : f32
    linalg.yield %3 : f32
  } -> tensor<16x4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %d : tensor<1x1x4x8xf32>, tensor<16x4x8xf32>) outs(%z : tensor<1x1x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %0, %o : f32
    linalg.yield %1 : f32
  } -> tensor<1x1x16xf32>
  return %r : tensor<1x1x16xf32>
}

// An insert_slice into a fill joins the dispatch that computed its source (its one use):
// the fill is cloned into it. x 2x3xf32 = 24 B in, the 4x5xf32 result (80 B) out: 1
// dispatch, 104 B; arena the result, 80 B in a 128-byte slot.
// CHECK-LABEL: func.func @insert_into_fill(
// ARENA-SAME: {{[[:<:]]}}arena_bytes = 128 : i64
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64, dram_bytes = 104 : i64
func.func @insert_into_fill(%x: tensor<2x3xf32>) -> tensor<4x5xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x2xf32>
  %e2 = tensor.empty() : tensor<4x5xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%e2 : tensor<4x5xf32>) -> tensor<4x5xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<3x2xf32>
  %r = tensor.insert_slice %t into %fill[1, 2] [3, 2] [1, 1] : tensor<3x2xf32> into tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

// Into an argument instead: the insert is a dispatch of its own (a copy), reading the
// source (24 B) back and the destination (80 B), writing 80: 24 + 24 + 184 = 232; arena
// the source 24 B (a 64-byte slot) and the result 128.
// CHECK-LABEL: func.func @insert_into_arg(
// ARENA-SAME: {{[[:<:]]}}arena_bytes = 192 : i64
// CHECK-SAME: {{[[:<:]]}}dispatches = 2 : i64, dram_bytes = 232 : i64
func.func @insert_into_arg(%x: tensor<2x3xf32>, %d: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<3x2xf32>
  %r = tensor.insert_slice %t into %d[1, 2] [3, 2] [1, 1] : tensor<3x2xf32> into tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

// A diamond straight on a matmul's result (no bias between): exp reads the product, the
// multiply reads the exp and the product again. ElementwiseOpFusion merges the exp into
// the multiply, which is then the matmul's one consumer and joins it: 1 dispatch reading
// x 8x64xf32 (2048) and w 64x32xf32 (8192), writing the 8x32xf32 result (1024): 11264.
// CHECK-LABEL: func.func @diamond_on_root(
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64, dram_bytes = 11264 : i64
func.func @diamond_on_root(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>) -> tensor<8x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%x, %w : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
  %x1 = math.exp %m : tensor<8x32xf32>
  %r = arith.mulf %x1, %m : tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// The near miss of the pack rule: the added value is also returned, so the pack is not
// its one use and packs it in a dispatch of its own. The add reads x and y (8192) and
// writes the sum (4096); the pack reads it back and writes 4096: 2 dispatches, 20480;
// arena the sum and the packed tensor, 8192.
// CHECK-LABEL: func.func @add_pack_returned(
// ARENA-SAME: {{[[:<:]]}}arena_bytes = 8192 : i64
// CHECK-SAME: {{[[:<:]]}}dispatches = 2 : i64, dram_bytes = 20480 : i64
func.func @add_pack_returned(%x: tensor<16x64xf32>, %y: tensor<16x64xf32>) -> (tensor<2x2x8x32xf32>, tensor<16x64xf32>) {
  %s = arith.addf %x, %y : tensor<16x64xf32>
  %e = tensor.empty() : tensor<2x2x8x32xf32>
  %p = linalg.pack %s inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %e : tensor<16x64xf32> -> tensor<2x2x8x32xf32>
  return %p, %s : tensor<2x2x8x32xf32>, tensor<16x64xf32>
}
