#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d1)>
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>
func.func @transpose_named(%x: tensor<32x16xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %t = linalg.transpose ins(%x : tensor<32x16xf32>) outs(%e : tensor<16x32xf32>) permutation = [1, 0]
  %r = math.exp %t : tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
func.func @transpose_generic(%x: tensor<32x16xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %t = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<32x16xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<16x32xf32>
  %r = math.exp %t : tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
func.func @transpose_tosa(%x: tensor<32x16xf32>) -> tensor<16x32xf32> {
  %t = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<32x16xf32>) -> tensor<16x32xf32>
  %r = tosa.exp %t : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
func.func @broadcast_named(%x: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %bb = linalg.broadcast ins(%b : tensor<32xf32>) outs(%e : tensor<16x32xf32>) dimensions = [0]
  %r = arith.addf %x, %bb : tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
func.func @broadcast_generic(%x: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %bb = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<16x32xf32>
  %r = arith.addf %x, %bb : tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
func.func @broadcast_tosa(%x: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<16x32xf32> {
  %s = tosa.const_shape {values = dense<[1, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b2 = tosa.reshape %b, %s : (tensor<32xf32>, !tosa.shape<2>) -> tensor<1x32xf32>
  %r = tosa.add %x, %b2 : (tensor<16x32xf32>, tensor<1x32xf32>) -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
func.func @matmul_named(%a: tensor<16x32xf32>, %w: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = linalg.matmul ins(%a, %w : tensor<16x32xf32>, tensor<32x8xf32>) outs(%z : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}
func.func @matmul_generic(%a: tensor<16x32xf32>, %w: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %w : tensor<16x32xf32>, tensor<32x8xf32>) outs(%z : tensor<16x8xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}
func.func @matmul_tosa(%a: tensor<1x16x32xf32>, %w: tensor<1x32x8xf32>) -> tensor<1x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %r = tosa.matmul %a, %w, %zp, %zp : (tensor<1x16x32xf32>, tensor<1x32x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x8xf32>
  return %r : tensor<1x16x8xf32>
}
func.func @add_arith(%x: tensor<16x32xf32>, %y: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %r = arith.addf %x, %y : tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
func.func @add_named(%x: tensor<16x32xf32>, %y: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %r = linalg.add ins(%x, %y : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
func.func @add_generic(%x: tensor<16x32xf32>, %y: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
func.func @add_map(%x: tensor<16x32xf32>, %y: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %r = linalg.map { arith.addf } ins(%x, %y : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e : tensor<16x32xf32>)
  return %r : tensor<16x32xf32>
}
func.func @add_tosa(%x: tensor<16x32xf32>, %y: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %r = tosa.add %x, %y : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
func.func @neg_named(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %r = linalg.negf ins(%x : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
func.func @neg_generic(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%p: f32, %o: f32):
    %n = arith.negf %p : f32
    linalg.yield %n : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
func.func @neg_arith(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %r = arith.negf %x : tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
