func.func @f(%x: tensor<f32>) -> tensor<1xf32> {
  %e = tensor.empty() : tensor<1099511627776xf32>
  %b = linalg.broadcast ins(%x : tensor<f32>) outs(%e : tensor<1099511627776xf32>) dimensions = [0]
  %s = tensor.extract_slice %b[0] [1] [1] : tensor<1099511627776xf32> to tensor<1xf32>
  return %s : tensor<1xf32>
}
