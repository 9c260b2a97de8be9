// Issue 24's probe: a strided memref argument had 120 input bytes predicted, 192
// measured. The caller's buffer spans its layout: rows of 8 elements, 3 rows of 5 read:
// (2 x 8 + 5) x 4 = 84 B, holes included (graph.h: input_gap_bytes), plus the output
// buffer 3 x 5 x 4 = 60 and the two descriptors (3 + 2 x 2) x 8 = 56 each: 256. One
// kernel, the copy; no allocation.
func.func @f(%x: memref<3x5xf32, strided<[8, 1]>>, %o: memref<3x5xf32>) {
  linalg.copy ins(%x : memref<3x5xf32, strided<[8, 1]>>) outs(%o : memref<3x5xf32>)
  return
}
