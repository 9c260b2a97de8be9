// IREE's DetachElementwiseFromNamedOps (budget.h, MET_FUSION_IREE; lib/fusion.c
// detached_init): a contraction or convolution whose init is the result of a linalg op
// other than a fill gets a zero init and an add of the old init after it;
// ElementwiseOpFusion folds the init's producer into that add when the add is its one
// reader, and the add joins the root's dispatch. So a bias broadcast into a matmul's or a
// conv's init is no dispatch and never in memory. Every precondition of the pattern has a
// case that keeps two dispatches. All f32: 64x256 = 65536 B, 256x128 = 131072 B,
// 64x128 = 32768 B, 128 = 512 B.
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false" 2>/dev/null | FileCheck %s
// RUN: metrale-opt %s --metrale-budget="target=h100 op-remarks=false" 2>/dev/null | FileCheck %s
// RUN: metrale-opt %s --metrale-budget="target=npu op-remarks=false" 2>/dev/null | FileCheck %s

#bias = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// The bias broadcast by a linalg.generic: one dispatch reading x, w and the bias, writing
// the result: 65536 + 131072 + 512 + 32768 = 229888.
// CHECK-LABEL: func.func @generic_bias(
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 229888 : i64
func.func @generic_bias(%x: tensor<64x256xf32>, %w: tensor<256x128xf32>, %b: tensor<128xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %bb = linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<128xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<64x128xf32>
  %r = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x128xf32>) outs(%bb : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// The same by linalg.broadcast: the same dispatch (spelling does not matter).
// CHECK-LABEL: func.func @named_bias(
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 229888 : i64
func.func @named_bias(%x: tensor<64x256xf32>, %w: tensor<256x128xf32>, %b: tensor<128xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %bb = linalg.broadcast ins(%b : tensor<128xf32>) outs(%e : tensor<64x128xf32>) dimensions = [0]
  %r = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x128xf32>) outs(%bb : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// A conv (ConvolutionOpInterface) with its bias as init: input 1x32x32x16 = 65536 B,
// filter 3x3x16x32 = 18432, bias 32 = 128, result 1x30x30x32 = 115200: 199296 in one
// dispatch; the arena holds only the result, 115200.
// CHECK-LABEL: func.func @conv_bias(
// CHECK-SAME: {{[[:<:]]}}arena_bytes = 115200 : i64
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 199296 : i64
func.func @conv_bias(%x: tensor<1x32x32x16xf32>, %w: tensor<3x3x16x32xf32>, %b: tensor<32xf32>) -> tensor<1x30x30x32xf32> {
  %e = tensor.empty() : tensor<1x30x30x32xf32>
  %bb = linalg.broadcast ins(%b : tensor<32xf32>) outs(%e : tensor<1x30x30x32xf32>) dimensions = [0, 1, 2]
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x32x32x16xf32>, tensor<3x3x16x32xf32>) outs(%bb : tensor<1x30x30x32xf32>) -> tensor<1x30x30x32xf32>
  return %r : tensor<1x30x30x32xf32>
}

// A residual accumulated into: the init is an elementwise add of two arguments. The add
// folds into the detached add: one dispatch reading x, w and both addends (32768 each),
// writing the result: 65536 + 131072 + 2 x 32768 + 32768 = 294912.
// CHECK-LABEL: func.func @residual_init(
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 294912 : i64
func.func @residual_init(%x: tensor<64x256xf32>, %w: tensor<256x128xf32>, %p: tensor<64x128xf32>, %q: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%p, %q : tensor<64x128xf32>, tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %t = arith.addf %a, %c : f32
    linalg.yield %t : f32
  } -> tensor<64x128xf32>
  %r = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x128xf32>) outs(%s : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// Not detached: the init is a reshape of the add's result (the pattern tests the init's
// defining op, a tensor.expand_shape): the add (two 8192xf32 = 32768 B read, 32768 written:
// 98304) and the matmul (65536 + 131072 + 32768 read, 32768 written: 262144) stay two
// dispatches: 360448.
// CHECK-LABEL: func.func @init_view(
// CHECK-SAME: {{[[:<:]]}}dispatches = 2 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 360448 : i64
func.func @init_view(%x: tensor<64x256xf32>, %w: tensor<256x128xf32>, %p: tensor<8192xf32>, %q: tensor<8192xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<8192xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%p, %q : tensor<8192xf32>, tensor<8192xf32>) outs(%e : tensor<8192xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %t = arith.addf %a, %c : f32
    linalg.yield %t : f32
  } -> tensor<8192xf32>
  %v = tensor.expand_shape %s [[0, 1]] output_shape [64, 128] : tensor<8192xf32> into tensor<64x128xf32>
  %r = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x128xf32>) outs(%v : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// Not merged: the broadcast is also returned (the detached add is not its one reader):
// the broadcast (512 read, 32768 written: 33280) and the matmul (65536 + 131072 + 32768
// read, 32768 written: 262144): 295424.
// CHECK-LABEL: func.func @init_returned(
// CHECK-SAME: {{[[:<:]]}}dispatches = 2 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 295424 : i64
func.func @init_returned(%x: tensor<64x256xf32>, %w: tensor<256x128xf32>, %b: tensor<128xf32>) -> (tensor<64x128xf32>, tensor<64x128xf32>) {
  %e = tensor.empty() : tensor<64x128xf32>
  %bb = linalg.broadcast ins(%b : tensor<128xf32>) outs(%e : tensor<64x128xf32>) dimensions = [0]
  %r = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x128xf32>) outs(%bb : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r, %bb : tensor<64x128xf32>, tensor<64x128xf32>
}

// Not merged: the init is another matmul's result (a root: the detached add reads it,
// and ElementwiseOpFusion merges elementwise producers only). The first matmul (65536 +
// 131072 read, 32768 written; its fill is cloned: 229376), the second (a 64x64 = 16384,
// c 64x128 = 32768 and the init 32768 read, 32768 written: 114688): 344064.
// CHECK-LABEL: func.func @init_from_matmul(
// CHECK-SAME: {{[[:<:]]}}dispatches = 2 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 344064 : i64
func.func @init_from_matmul(%x: tensor<64x256xf32>, %w: tensor<256x128xf32>, %a: tensor<64x64xf32>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %m = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x128xf32>) outs(%f : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.matmul ins(%a, %c : tensor<64x64xf32>, tensor<64x128xf32>) outs(%m : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// Not merged: the broadcast is also the matmul's left operand (the add would not be its
// one reader): two dispatches.
// CHECK-LABEL: func.func @init_also_lhs(
// CHECK-SAME: {{[[:<:]]}}dispatches = 2 : i64
func.func @init_also_lhs(%w: tensor<128x128xf32>, %b: tensor<128xf32>) -> tensor<128x128xf32> {
  %e = tensor.empty() : tensor<128x128xf32>
  %bb = linalg.broadcast ins(%b : tensor<128xf32>) outs(%e : tensor<128x128xf32>) dimensions = [0]
  %r = linalg.matmul ins(%bb, %w : tensor<128x128xf32>, tensor<128x128xf32>) outs(%bb : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// Nothing to detach: an argument as init is read by the matmul's one dispatch: 65536 +
// 131072 + 32768 read, 32768 written: 262144.
// CHECK-LABEL: func.func @init_argument(
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 262144 : i64
func.func @init_argument(%x: tensor<64x256xf32>, %w: tensor<256x128xf32>, %i: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %r = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x128xf32>) outs(%i : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
