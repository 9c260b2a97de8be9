// A review's probe: memref.alloca is stack memory: a slot of the arena but no allocation
// of a per-buffer allocator (graph.h, MET_VALUE_F_STACK): 0 events, 0 bytes; the copy
// into it is 1 launch.
func.func @f(%m: memref<16xf32>) -> f32 {
  %a = memref.alloca() : memref<16xf32>
  memref.copy %m, %a : memref<16xf32> to memref<16xf32>
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<16xf32>
  return %v : f32
}
