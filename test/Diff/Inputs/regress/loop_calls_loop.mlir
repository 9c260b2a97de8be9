// A review's probe: a static loop (2) calling a callee with a static loop (3): 6
// launches, and the callee's result allocations counted once (6 events, not 8).
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
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%t = %a) -> tensor<16xf32> {
    %e = func.call @g(%t) : (tensor<16xf32>) -> tensor<16xf32>
    scf.yield %e : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}
