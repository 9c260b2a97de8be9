// Issue 24's probe: a 0x4 tensor op predicted 1 kernel, 0 measured. Upstream folds the
// empty loop nest away: 0 launches; the result is still allocated, 0 B + 64 B of
// alignment padding: 1 event, 64 bytes.
func.func @f(%x: tensor<0x4xf32>) -> tensor<0x4xf32> {
  %y = arith.addf %x, %x : tensor<0x4xf32>
  return %y : tensor<0x4xf32>
}
