// A free by another dialect (upstream refuses; so does the comparison) (review's m03).
func.func @f(%x: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  %v = memref.load %a[%c0] : memref<4xf32>
  gpu.dealloc %a : memref<4xf32>
  return %v : f32
}
