// Issue 24's probe: a function returning its argument twice predicted 0 kernels and 0
// allocations, measured 2 copies. Bufferization copies an argument that is returned
// (the caller owns what is returned): each result a fresh 4 x f32 buffer (no alignment
// attribute: 16 B each) and a memref.copy into it: 2 launches, 2 events, 32 bytes.
func.func @f(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %x, %x : tensor<4xf32>, tensor<4xf32>
}
