// A review's probe: a callee whose result a static loop allocates (3 iterations, one
// 16 x f32 buffer with 64 B of padding each: 3 events, 3 x 128 = 384 B, 3 launches): the
// call's result is the last of those buffers (budget.h, inner_results), not a fourth
// allocation.
func.func private @g(%a: tensor<16xf32>) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %a) -> tensor<16xf32> {
    %e = tosa.exp %t : (tensor<16xf32>) -> tensor<16xf32>
    scf.yield %e : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}
func.func @f(%a: tensor<16xf32>) -> tensor<16xf32> {
  %e = func.call @g(%a) : (tensor<16xf32>) -> tensor<16xf32>
  return %e : tensor<16xf32>
}
