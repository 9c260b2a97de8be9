func.func @f(%x: memref<5x1xf32, strided<[4611686018427387904, 1]>>) -> f32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %v = memref.load %x[%c2, %c0] : memref<5x1xf32, strided<[4611686018427387904, 1]>>
  return %v : f32
}
