// Two arguments of which a slice each is read, and a 64-B result: host I/O is the
// arguments whole (16 KiB and 8 KiB) and the result.
func.func @h(%a: tensor<4096xf32>, %b: tensor<2048xf32>) -> tensor<16xf32> {
  %s = tensor.extract_slice %a[0][16][1] : tensor<4096xf32> to tensor<16xf32>
  %t = tensor.extract_slice %b[0][16][1] : tensor<2048xf32> to tensor<16xf32>
  %y = arith.addf %s, %t : tensor<16xf32>
  return %y : tensor<16xf32>
}
