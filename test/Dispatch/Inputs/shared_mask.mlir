func.func @shared_mask(%q: tensor<64x32xf32>, %kt: tensor<32x64xf32>, %v: tensor<64x32xf32>, %bias: tensor<64x64xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %neg = arith.constant -1.0e4 : f32
  %e9 = tensor.empty() : tensor<64x64xf32>
  %f9 = linalg.fill ins(%neg : f32) outs(%e9 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mask = arith.mulf %bias, %f9 : tensor<64x64xf32>
  %e0 = tensor.empty() : tensor<64x64xf32>
  %f0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = arith.addf %s, %mask : tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %p = linalg.softmax dimension(1) ins(%m : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x32xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %o = linalg.matmul ins(%p, %v : tensor<64x64xf32>, tensor<64x32xf32>) outs(%f2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %s2 = linalg.matmul ins(%o, %kt : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m2 = arith.addf %s2, %mask : tensor<64x64xf32>
  %p2 = linalg.softmax dimension(1) ins(%m2 : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %o2 = linalg.matmul ins(%p2, %v : tensor<64x64xf32>, tensor<64x32xf32>) outs(%f2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %o2 : tensor<64x32xf32>
}
