// memref.transpose is no view in MLIR 22: upstream frees its source right after it
// (review's m14).
func.func @f(%x: memref<4x8xf32>, %y: memref<8x4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4x8xf32>
  memref.copy %x, %a : memref<4x8xf32> to memref<4x8xf32>
  %t = memref.transpose %a (i, j) -> (j, i) : memref<4x8xf32> to memref<8x4xf32, strided<[1, 8]>>
  %v0 = memref.load %y[%c0, %c0] : memref<8x4xf32>
  memref.copy %t, %y : memref<8x4xf32, strided<[1, 8]>> to memref<8x4xf32>
  %v = memref.load %y[%c0, %c0] : memref<8x4xf32>
  %s = arith.addf %v, %v0 : f32
  return %s : f32
}
