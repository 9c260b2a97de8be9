func.func @f(%x: tensor<0x4611686018427387904x4xf32>) -> index {
  %c1 = arith.constant 1 : index
  %d = tensor.dim %x, %c1 : tensor<0x4611686018427387904x4xf32>
  return %d : index
}
