// A review's probe: a static scf.for whose body is a call passing a buffer is control
// flow, not a kernel of its own: the callee's exp runs 2 times, 2 launches (the run
// used to mark the loop as a kernel too: 3).
func.func private @g(%a: tensor<16xf32>) -> tensor<16xf32> {
  %e = tosa.exp %a : (tensor<16xf32>) -> tensor<16xf32>
  return %e : tensor<16xf32>
}
func.func @f(%a: tensor<16xf32>) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%t = %a) -> tensor<16xf32> {
    %e = func.call @g(%t) : (tensor<16xf32>) -> tensor<16xf32>
    scf.yield %e : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}
