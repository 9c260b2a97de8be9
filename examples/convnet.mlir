// A small image classifier in linalg on tensors: two 3x3 conv + bias + ReLU + 2x2 max-pool
// stages, a GELU (erf form), a fully connected layer and a softmax. Input 1x3x32x32 f32.
// Weights are arguments marked `metrale.param`. On the `npu` target the erf and the
// softmax are off the fast path; `make demo` shows their remarks.
func.func @convnet(%x: tensor<1x3x32x32xf32>,
                   %w1: tensor<16x3x3x3xf32> {metrale.param}, %b1: tensor<16xf32> {metrale.param},
                   %w2: tensor<32x16x3x3xf32> {metrale.param}, %b2: tensor<32xf32> {metrale.param},
                   %wfc: tensor<1152x10xf32> {metrale.param}, %bfc: tensor<10xf32> {metrale.param})
    -> tensor<1x10xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -3.40282347E+38 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.70710678 : f32
  // stage 1: conv 3->16, bias, relu, pool -> 1x16x15x15
  %e1 = tensor.empty() : tensor<1x16x30x30xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x16x30x30xf32>) -> tensor<1x16x30x30xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w1 : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) outs(%z1 : tensor<1x16x30x30xf32>) -> tensor<1x16x30x30xf32>
  %e1b = tensor.empty() : tensor<1x16x30x30xf32>
  %bb1 = linalg.broadcast ins(%b1 : tensor<16xf32>) outs(%e1b : tensor<1x16x30x30xf32>) dimensions = [0, 2, 3]
  %a1 = arith.addf %c1, %bb1 : tensor<1x16x30x30xf32>
  %e1z = tensor.empty() : tensor<1x16x30x30xf32>
  %zz1 = linalg.fill ins(%zero : f32) outs(%e1z : tensor<1x16x30x30xf32>) -> tensor<1x16x30x30xf32>
  %r1 = arith.maximumf %a1, %zz1 : tensor<1x16x30x30xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %ep1 = tensor.empty() : tensor<1x16x15x15xf32>
  %mp1 = linalg.fill ins(%ninf : f32) outs(%ep1 : tensor<1x16x15x15xf32>) -> tensor<1x16x15x15xf32>
  %p1 = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%r1, %win : tensor<1x16x30x30xf32>, tensor<2x2xf32>) outs(%mp1 : tensor<1x16x15x15xf32>) -> tensor<1x16x15x15xf32>
  // stage 2: conv 16->32, bias, relu, pool -> 1x32x6x6
  %e2 = tensor.empty() : tensor<1x32x13x13xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x32x13x13xf32>) -> tensor<1x32x13x13xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p1, %w2 : tensor<1x16x15x15xf32>, tensor<32x16x3x3xf32>) outs(%z2 : tensor<1x32x13x13xf32>) -> tensor<1x32x13x13xf32>
  %e2b = tensor.empty() : tensor<1x32x13x13xf32>
  %bb2 = linalg.broadcast ins(%b2 : tensor<32xf32>) outs(%e2b : tensor<1x32x13x13xf32>) dimensions = [0, 2, 3]
  %a2 = arith.addf %c2, %bb2 : tensor<1x32x13x13xf32>
  %e2z = tensor.empty() : tensor<1x32x13x13xf32>
  %zz2 = linalg.fill ins(%zero : f32) outs(%e2z : tensor<1x32x13x13xf32>) -> tensor<1x32x13x13xf32>
  %r2 = arith.maximumf %a2, %zz2 : tensor<1x32x13x13xf32>
  %ep2 = tensor.empty() : tensor<1x32x6x6xf32>
  %mp2 = linalg.fill ins(%ninf : f32) outs(%ep2 : tensor<1x32x6x6xf32>) -> tensor<1x32x6x6xf32>
  %p2 = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%r2, %win : tensor<1x32x13x13xf32>, tensor<2x2xf32>) outs(%mp2 : tensor<1x32x6x6xf32>) -> tensor<1x32x6x6xf32>
  // GELU(x) = 0.5 x (1 + erf(x / sqrt 2)), then the classifier
  %flat = tensor.collapse_shape %p2 [[0], [1, 2, 3]] : tensor<1x32x6x6xf32> into tensor<1x1152xf32>
  %eg = tensor.empty() : tensor<1x1152xf32>
  %ks = linalg.fill ins(%rsqrt2 : f32) outs(%eg : tensor<1x1152xf32>) -> tensor<1x1152xf32>
  %xs = arith.mulf %flat, %ks : tensor<1x1152xf32>
  %erf = math.erf %xs : tensor<1x1152xf32>
  %eg1 = tensor.empty() : tensor<1x1152xf32>
  %ones = linalg.fill ins(%one : f32) outs(%eg1 : tensor<1x1152xf32>) -> tensor<1x1152xf32>
  %t1 = arith.addf %erf, %ones : tensor<1x1152xf32>
  %eg2 = tensor.empty() : tensor<1x1152xf32>
  %halves = linalg.fill ins(%half : f32) outs(%eg2 : tensor<1x1152xf32>) -> tensor<1x1152xf32>
  %t2 = arith.mulf %flat, %halves : tensor<1x1152xf32>
  %gelu = arith.mulf %t1, %t2 : tensor<1x1152xf32>
  %ef = tensor.empty() : tensor<1x10xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%ef : tensor<1x10xf32>) -> tensor<1x10xf32>
  %fc = linalg.matmul ins(%gelu, %wfc : tensor<1x1152xf32>, tensor<1152x10xf32>) outs(%zf : tensor<1x10xf32>) -> tensor<1x10xf32>
  %efb = tensor.empty() : tensor<1x10xf32>
  %bbf = linalg.broadcast ins(%bfc : tensor<10xf32>) outs(%efb : tensor<1x10xf32>) dimensions = [0]
  %logits = arith.addf %fc, %bbf : tensor<1x10xf32>
  %es = tensor.empty() : tensor<1x10xf32>
  %probs = linalg.softmax dimension(1) ins(%logits : tensor<1x10xf32>) outs(%es : tensor<1x10xf32>) -> tensor<1x10xf32>
  return %probs : tensor<1x10xf32>
}
