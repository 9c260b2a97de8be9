// Functions whose frees passes/ir/dealloc.c places (test/Run/dealloc-linear.test): each
// returned buffer the function does not own is cloned, one it allocates is kept, every
// other buffer is freed after its last user, seen through views and inside bodies.
func.func @returns_arg(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %1 = arith.addf %x, %x : tensor<4xf32>
  return %1, %x : tensor<4xf32>, tensor<4xf32>
}
func.func @returns_view_of_arg(%x: tensor<4xf32>) -> tensor<2x2xf32> {
  %e = tensor.expand_shape %x [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  return %e : tensor<2x2xf32>
}
func.func @returns_constant() -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  return %c : tensor<4xf32>
}
func.func @returns_view_of_alloc(%x: tensor<2x2xf32>) -> tensor<4xf32> {
  %1 = arith.addf %x, %x : tensor<2x2xf32>
  %c = tensor.collapse_shape %1 [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
  return %c : tensor<4xf32>
}
func.func @same_alloc_twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %1 = arith.addf %x, %x : tensor<4xf32>
  return %1, %1 : tensor<4xf32>, tensor<4xf32>
}
// Two temporaries last read by one matmul: freed after it, the later first.
func.func @two_frees_one_op(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %a = linalg.matmul ins(%x, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = linalg.matmul ins(%w, %x : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e3 = tensor.empty() : tensor<4x4xf32>
  %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %c = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f3 : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %c : tensor<4x4xf32>
}
// A table read inside a generic's body (a gather): the body's load is a use by the
// generic, so the table lives until the generic has run.
#id = affine_map<(d0) -> (d0)>
func.func @gather_in_body(%t: tensor<8xf32>, %i: tensor<4xindex>) -> tensor<4xf32> {
  %tt = arith.mulf %t, %t : tensor<8xf32>
  %e = tensor.empty() : tensor<4xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%i : tensor<4xindex>) outs(%e : tensor<4xf32>) {
  ^bb0(%k: index, %o: f32):
    %v = tensor.extract %tt[%k] : tensor<8xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %r = arith.addf %g, %g : tensor<4xf32>
  return %r : tensor<4xf32>
}
// A temporary read through a view only (the second matmul reads the first's buffer
// through a subview): freed after that matmul, not after the subview.
func.func @view_extends_life(%x: tensor<2x2xf32>) -> tensor<1x2xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %a = linalg.matmul ins(%x, %x : tensor<2x2xf32>, tensor<2x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  %v = tensor.extract_slice %a[0, 0] [1, 2] [1, 1] : tensor<2x2xf32> to tensor<1x2xf32>
  %e2 = tensor.empty() : tensor<1x2xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<1x2xf32>) -> tensor<1x2xf32>
  %b = linalg.matmul ins(%v, %x : tensor<1x2xf32>, tensor<2x2xf32>) outs(%f2 : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %b : tensor<1x2xf32>
}
// Weights read by several matmuls, one with argument attributes: each reader has its own
// argument while one-shot analysis runs (passes/ir/shared_reads.h), then the original
// again; %x is also written into (an outs operand), so it is never split (a called
// function keeps its signature throughout: call.mlir's @g).
func.func @shared_weights(%x: tensor<4x4xf32>, %w: tensor<4x4xf32> {metrale.param}, %v: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %a = linalg.matmul ins(%v, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = linalg.matmul ins(%a, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%x : tensor<4x4xf32>) -> tensor<4x4xf32>
  %c = linalg.matmul ins(%b, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %d = linalg.matmul ins(%c, %v : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %d : tensor<4x4xf32>
}
