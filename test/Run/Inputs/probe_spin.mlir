func.func @f(%x: tensor<4xf32>, %n: index) -> (tensor<4xf32>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.while (%i = %n) : (index) -> index {
    %go = arith.cmpi sge, %i, %c0 : index
    scf.condition(%go) %i : index
  } do {
  ^bb0(%j: index):
    %k = arith.addi %j, %c1 : index
    %m = arith.andi %k, %c1 : index
    scf.yield %m : index
  }
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y, %r : tensor<4xf32>, index
}
