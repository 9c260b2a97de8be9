func.func @transpose_in(%x: tensor<64x16xf32>, %w: tensor<64x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %xt = linalg.transpose ins(%x : tensor<64x16xf32>) outs(%e : tensor<16x64xf32>) permutation = [1, 0]
  %o = tensor.empty() : tensor<16x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%o : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.matmul ins(%xt, %w : tensor<16x64xf32>, tensor<64x32xf32>) outs(%z : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
func.func @widen_in(%x: tensor<16x64xi8>, %w: tensor<64x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %xf = arith.sitofp %x : tensor<16x64xi8> to tensor<16x64xf32>
  %o = tensor.empty() : tensor<16x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%o : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.matmul ins(%xf, %w : tensor<16x64xf32>, tensor<64x32xf32>) outs(%z : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
func.func @into_reduction(%x: tensor<16x64xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %a = arith.addf %x, %x : tensor<16x64xf32>
  %b = math.exp %a : tensor<16x64xf32>
  %o = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%o : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.reduce ins(%b : tensor<16x64xf32>) outs(%z : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<16xf32>
}
func.func @fanout(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %a = arith.addf %x, %x : tensor<16x64xf32>
  %b = math.exp %a : tensor<16x64xf32>
  %c = math.tanh %a : tensor<16x64xf32>
  %d = arith.addf %b, %c : tensor<16x64xf32>
  return %d : tensor<16x64xf32>
}

// One zero fill is the accumulator of two matmuls.
func.func @shared_fill(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m2 = linalg.matmul ins(%b, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %m1, %m2 : tensor<64x64xf32>, tensor<64x64xf32>
}

// A row sum (two loops, 16 x 64) whose consumer broadcasts it to three (8 x 16 x 64).
func.func @bcast_after_reduction(%x: tensor<16x64xf32>) -> tensor<8x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%o : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.reduce ins(%x : tensor<16x64xf32>) outs(%z : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e = tensor.empty() : tensor<8x16x64xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%r : tensor<16xf32>) outs(%e : tensor<8x16x64xf32>) {
  ^bb0(%a: f32, %out: f32):
    %m = math.exp %a : f32
    linalg.yield %m : f32
  } -> tensor<8x16x64xf32>
  return %b : tensor<8x16x64xf32>
}

// RMSNorm's shape: a row sum (16 x 64 -> 16), an rsqrt of it (one loop), and a multiply
// that reads x and broadcasts the rsqrt back over the row (two loops).
func.func @rmsnorm(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%o : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.reduce ins(%x : tensor<16x64xf32>) outs(%z : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %r = math.rsqrt %s : tensor<16xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %r : tensor<16x64xf32>, tensor<16xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// A softmax over rows.
func.func @softmax(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %e = tensor.empty() : tensor<16x64xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %s : tensor<16x64xf32>
}

// A matmul whose result a residual adds to: the other operand is a run's own input.
func.func @residual(%x: tensor<16x32xf32>, %w: tensor<32x32xf32> {metrale.param}, %res: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %a = arith.addf %m, %res : tensor<16x32xf32>
  return %a : tensor<16x32xf32>
}

// A row sum, a slice of it (a view), and a consumer that broadcasts the slice to three loops.
func.func @slice_then_bcast(%x: tensor<16x64xf32>) -> tensor<4x8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%o : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.reduce ins(%x : tensor<16x64xf32>) outs(%z : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %sl = tensor.extract_slice %r[0] [8] [1] : tensor<16xf32> to tensor<8xf32>
  %e = tensor.empty() : tensor<4x8x64xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sl : tensor<8xf32>) outs(%e : tensor<4x8x64xf32>) {
  ^bb0(%a: f32, %out: f32):
    %m = math.exp %a : f32
    linalg.yield %m : f32
  } -> tensor<4x8x64xf32>
  return %b : tensor<4x8x64xf32>
}

// SiLU written x / (1 + exp(-x)) on a matmul's bias-added result: a diamond (the sum is
// read by the negation and by the division, which meet again).
func.func @silu(%x: tensor<16x32xf32>, %w: tensor<32x64xf32> {metrale.param}, %b: tensor<64xf32> {metrale.param}) -> tensor<16x64xf32> {
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  %eb = tensor.empty() : tensor<16x64xf32>
  %bb = linalg.broadcast ins(%b : tensor<64xf32>) outs(%eb : tensor<16x64xf32>) dimensions = [0]
  %a = arith.addf %m, %bb : tensor<16x64xf32>
  %n = arith.negf %a : tensor<16x64xf32>
  %ex = math.exp %n : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x64xf32>
  %ones = linalg.fill ins(%one : f32) outs(%e1 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %d = arith.addf %ex, %ones : tensor<16x64xf32>
  %s = arith.divf %a, %d : tensor<16x64xf32>
  return %s : tensor<16x64xf32>
}

// A matmul's result read by an exp and by a row sum: not a diamond of elementwise ops.
func.func @diamond_reduce(%x: tensor<16x32xf32>, %w: tensor<32x64xf32> {metrale.param}) -> (tensor<16x64xf32>, tensor<16xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  %ex = math.exp %m : tensor<16x64xf32>
  %o = tensor.empty() : tensor<16xf32>
  %zr = linalg.fill ins(%z : f32) outs(%o : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.reduce ins(%m : tensor<16x64xf32>) outs(%zr : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %ex, %r : tensor<16x64xf32>, tensor<16xf32>
}
