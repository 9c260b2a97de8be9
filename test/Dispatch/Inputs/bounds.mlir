func.func @d(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %r = arith.addf %x, %x : tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
func.func @loop(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %x) -> tensor<8xf32> {
    %n = arith.addf %a, %a : tensor<8xf32>
    scf.yield %n : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
