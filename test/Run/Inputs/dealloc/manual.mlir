// An allocation freed by hand: upstream neither frees nor keeps it (review's m01).
func.func @f(%x: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() {bufferization.manual_deallocation} : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  %v = memref.load %a[%c0] : memref<4xf32>
  return %v : f32
}
