#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @f(%x: tensor<8x8xf32, #CSR>) -> tensor<8x8xf32, #CSR> {
  return %x : tensor<8x8xf32, #CSR>
}
