// A GPT-2-small transformer block (seq 128, d_model 768, 12 heads of 64, MLP 3072),
// f16 weights and activations with the softmax computed in f32, written in linalg
// on tensors. Weights are arguments marked `metrale.param`, as exported graphs pass them.
// Used by `make demo` and the Budget tests (test/Budget/examples.mlir).
func.func @gpt2_block(
    %x: tensor<128x768xf16>,
    %ln1_g: tensor<768xf16> {metrale.param},
    %ln1_b: tensor<768xf16> {metrale.param},
    %w_qkv: tensor<768x2304xf16> {metrale.param},
    %b_qkv: tensor<2304xf16> {metrale.param},
    %w_o: tensor<768x768xf16> {metrale.param},
    %b_o: tensor<768xf16> {metrale.param},
    %ln2_g: tensor<768xf16> {metrale.param},
    %ln2_b: tensor<768xf16> {metrale.param},
    %w_fc: tensor<768x3072xf16> {metrale.param},
    %b_fc: tensor<3072xf16> {metrale.param},
    %w_proj: tensor<3072x768xf16> {metrale.param},
    %b_proj: tensor<768xf16> {metrale.param}) -> tensor<128x768xf16> {
  %c0 = arith.constant 0.0 : f16
  %inv_d = arith.constant 1.302e-03 : f16
  %eps = arith.constant 1.0e-05 : f16
  %scale = arith.constant 0.125 : f16
  %half = arith.constant 0.5 : f16
  %one = arith.constant 1.0 : f16
  %k0 = arith.constant 0.7978845 : f16
  %k1 = arith.constant 0.044715 : f16
  // ---- attention: ln1, qkv projection, heads
  %e1 = tensor.empty() : tensor<128xf16>
  %f2 = linalg.fill ins(%c0 : f16) outs(%e1 : tensor<128xf16>) -> tensor<128xf16>
  %r3 = linalg.reduce ins(%x : tensor<128x768xf16>) outs(%f2 : tensor<128xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %s = arith.addf %in, %acc : f16
      linalg.yield %s : f16
    }
  %e4 = tensor.empty() : tensor<128x768xf16>
  %b5 = linalg.broadcast ins(%r3 : tensor<128xf16>) outs(%e4 : tensor<128x768xf16>) dimensions = [1]
  %e6 = tensor.empty() : tensor<128x768xf16>
  %f7 = linalg.fill ins(%inv_d : f16) outs(%e6 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %v8 = arith.mulf %b5, %f7 : tensor<128x768xf16>
  %v9 = arith.subf %x, %v8 : tensor<128x768xf16>
  %v10 = arith.mulf %v9, %v9 : tensor<128x768xf16>
  %e11 = tensor.empty() : tensor<128xf16>
  %f12 = linalg.fill ins(%c0 : f16) outs(%e11 : tensor<128xf16>) -> tensor<128xf16>
  %r13 = linalg.reduce ins(%v10 : tensor<128x768xf16>) outs(%f12 : tensor<128xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %s = arith.addf %in, %acc : f16
      linalg.yield %s : f16
    }
  %e14 = tensor.empty() : tensor<128x768xf16>
  %b15 = linalg.broadcast ins(%r13 : tensor<128xf16>) outs(%e14 : tensor<128x768xf16>) dimensions = [1]
  %e16 = tensor.empty() : tensor<128x768xf16>
  %f17 = linalg.fill ins(%inv_d : f16) outs(%e16 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %v18 = arith.mulf %b15, %f17 : tensor<128x768xf16>
  %e19 = tensor.empty() : tensor<128x768xf16>
  %f20 = linalg.fill ins(%eps : f16) outs(%e19 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %v21 = arith.addf %v18, %f20 : tensor<128x768xf16>
  %v22 = math.rsqrt %v21 : tensor<128x768xf16>
  %v23 = arith.mulf %v9, %v22 : tensor<128x768xf16>
  %e24 = tensor.empty() : tensor<128x768xf16>
  %b25 = linalg.broadcast ins(%ln1_g : tensor<768xf16>) outs(%e24 : tensor<128x768xf16>) dimensions = [0]
  %v26 = arith.mulf %v23, %b25 : tensor<128x768xf16>
  %e27 = tensor.empty() : tensor<128x768xf16>
  %b28 = linalg.broadcast ins(%ln1_b : tensor<768xf16>) outs(%e27 : tensor<128x768xf16>) dimensions = [0]
  %v29 = arith.addf %v26, %b28 : tensor<128x768xf16>
  %e30 = tensor.empty() : tensor<128x2304xf16>
  %f31 = linalg.fill ins(%c0 : f16) outs(%e30 : tensor<128x2304xf16>) -> tensor<128x2304xf16>
  %mm32 = linalg.matmul ins(%v29, %w_qkv : tensor<128x768xf16>, tensor<768x2304xf16>) outs(%f31 : tensor<128x2304xf16>) -> tensor<128x2304xf16>
  %e33 = tensor.empty() : tensor<128x2304xf16>
  %b34 = linalg.broadcast ins(%b_qkv : tensor<2304xf16>) outs(%e33 : tensor<128x2304xf16>) dimensions = [0]
  %v35 = arith.addf %mm32, %b34 : tensor<128x2304xf16>
  %heads36 = tensor.expand_shape %v35 [[0], [1, 2, 3]] output_shape [128, 3, 12, 64] : tensor<128x2304xf16> into tensor<128x3x12x64xf16>
  %e37 = tensor.empty() : tensor<3x12x128x64xf16>
  %t38 = linalg.transpose ins(%heads36 : tensor<128x3x12x64xf16>) outs(%e37 : tensor<3x12x128x64xf16>) permutation = [1, 2, 0, 3]
  %qkv39 = tensor.extract_slice %t38[0, 0, 0, 0] [1, 12, 128, 64] [1, 1, 1, 1] : tensor<3x12x128x64xf16> to tensor<12x128x64xf16>
  %qkv40 = tensor.extract_slice %t38[1, 0, 0, 0] [1, 12, 128, 64] [1, 1, 1, 1] : tensor<3x12x128x64xf16> to tensor<12x128x64xf16>
  %qkv41 = tensor.extract_slice %t38[2, 0, 0, 0] [1, 12, 128, 64] [1, 1, 1, 1] : tensor<3x12x128x64xf16> to tensor<12x128x64xf16>
  %e42 = tensor.empty() : tensor<12x64x128xf16>
  %kt43 = linalg.transpose ins(%qkv40 : tensor<12x128x64xf16>) outs(%e42 : tensor<12x64x128xf16>) permutation = [0, 2, 1]
  // ---- scores, softmax in f32, context
  %e44 = tensor.empty() : tensor<12x128x128xf16>
  %f45 = linalg.fill ins(%c0 : f16) outs(%e44 : tensor<12x128x128xf16>) -> tensor<12x128x128xf16>
  %scores46 = linalg.batch_matmul ins(%qkv39, %kt43 : tensor<12x128x64xf16>, tensor<12x64x128xf16>) outs(%f45 : tensor<12x128x128xf16>) -> tensor<12x128x128xf16>
  %e47 = tensor.empty() : tensor<12x128x128xf16>
  %f48 = linalg.fill ins(%scale : f16) outs(%e47 : tensor<12x128x128xf16>) -> tensor<12x128x128xf16>
  %v49 = arith.mulf %scores46, %f48 : tensor<12x128x128xf16>
  %s3250 = arith.extf %v49 : tensor<12x128x128xf16> to tensor<12x128x128xf32>
  %e51 = tensor.empty() : tensor<12x128x128xf32>
  %probs3252 = linalg.softmax dimension(2) ins(%s3250 : tensor<12x128x128xf32>) outs(%e51 : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  %probs53 = arith.truncf %probs3252 : tensor<12x128x128xf32> to tensor<12x128x128xf16>
  %e54 = tensor.empty() : tensor<12x128x64xf16>
  %f55 = linalg.fill ins(%c0 : f16) outs(%e54 : tensor<12x128x64xf16>) -> tensor<12x128x64xf16>
  %ctx56 = linalg.batch_matmul ins(%probs53, %qkv41 : tensor<12x128x128xf16>, tensor<12x128x64xf16>) outs(%f55 : tensor<12x128x64xf16>) -> tensor<12x128x64xf16>
  %e57 = tensor.empty() : tensor<128x12x64xf16>
  %t58 = linalg.transpose ins(%ctx56 : tensor<12x128x64xf16>) outs(%e57 : tensor<128x12x64xf16>) permutation = [1, 0, 2]
  %merged59 = tensor.collapse_shape %t58 [[0], [1, 2]] : tensor<128x12x64xf16> into tensor<128x768xf16>
  %e60 = tensor.empty() : tensor<128x768xf16>
  %f61 = linalg.fill ins(%c0 : f16) outs(%e60 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %mm62 = linalg.matmul ins(%merged59, %w_o : tensor<128x768xf16>, tensor<768x768xf16>) outs(%f61 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %e63 = tensor.empty() : tensor<128x768xf16>
  %b64 = linalg.broadcast ins(%b_o : tensor<768xf16>) outs(%e63 : tensor<128x768xf16>) dimensions = [0]
  %v65 = arith.addf %mm62, %b64 : tensor<128x768xf16>
  %v66 = arith.addf %x, %v65 : tensor<128x768xf16>
  // ---- MLP with tanh-GELU
  %e67 = tensor.empty() : tensor<128xf16>
  %f68 = linalg.fill ins(%c0 : f16) outs(%e67 : tensor<128xf16>) -> tensor<128xf16>
  %r69 = linalg.reduce ins(%v66 : tensor<128x768xf16>) outs(%f68 : tensor<128xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %s = arith.addf %in, %acc : f16
      linalg.yield %s : f16
    }
  %e70 = tensor.empty() : tensor<128x768xf16>
  %b71 = linalg.broadcast ins(%r69 : tensor<128xf16>) outs(%e70 : tensor<128x768xf16>) dimensions = [1]
  %e72 = tensor.empty() : tensor<128x768xf16>
  %f73 = linalg.fill ins(%inv_d : f16) outs(%e72 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %v74 = arith.mulf %b71, %f73 : tensor<128x768xf16>
  %v75 = arith.subf %v66, %v74 : tensor<128x768xf16>
  %v76 = arith.mulf %v75, %v75 : tensor<128x768xf16>
  %e77 = tensor.empty() : tensor<128xf16>
  %f78 = linalg.fill ins(%c0 : f16) outs(%e77 : tensor<128xf16>) -> tensor<128xf16>
  %r79 = linalg.reduce ins(%v76 : tensor<128x768xf16>) outs(%f78 : tensor<128xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %s = arith.addf %in, %acc : f16
      linalg.yield %s : f16
    }
  %e80 = tensor.empty() : tensor<128x768xf16>
  %b81 = linalg.broadcast ins(%r79 : tensor<128xf16>) outs(%e80 : tensor<128x768xf16>) dimensions = [1]
  %e82 = tensor.empty() : tensor<128x768xf16>
  %f83 = linalg.fill ins(%inv_d : f16) outs(%e82 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %v84 = arith.mulf %b81, %f83 : tensor<128x768xf16>
  %e85 = tensor.empty() : tensor<128x768xf16>
  %f86 = linalg.fill ins(%eps : f16) outs(%e85 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %v87 = arith.addf %v84, %f86 : tensor<128x768xf16>
  %v88 = math.rsqrt %v87 : tensor<128x768xf16>
  %v89 = arith.mulf %v75, %v88 : tensor<128x768xf16>
  %e90 = tensor.empty() : tensor<128x768xf16>
  %b91 = linalg.broadcast ins(%ln2_g : tensor<768xf16>) outs(%e90 : tensor<128x768xf16>) dimensions = [0]
  %v92 = arith.mulf %v89, %b91 : tensor<128x768xf16>
  %e93 = tensor.empty() : tensor<128x768xf16>
  %b94 = linalg.broadcast ins(%ln2_b : tensor<768xf16>) outs(%e93 : tensor<128x768xf16>) dimensions = [0]
  %v95 = arith.addf %v92, %b94 : tensor<128x768xf16>
  %e96 = tensor.empty() : tensor<128x3072xf16>
  %f97 = linalg.fill ins(%c0 : f16) outs(%e96 : tensor<128x3072xf16>) -> tensor<128x3072xf16>
  %mm98 = linalg.matmul ins(%v95, %w_fc : tensor<128x768xf16>, tensor<768x3072xf16>) outs(%f97 : tensor<128x3072xf16>) -> tensor<128x3072xf16>
  %e99 = tensor.empty() : tensor<128x3072xf16>
  %b100 = linalg.broadcast ins(%b_fc : tensor<3072xf16>) outs(%e99 : tensor<128x3072xf16>) dimensions = [0]
  %v101 = arith.addf %mm98, %b100 : tensor<128x3072xf16>
  %v102 = arith.mulf %v101, %v101 : tensor<128x3072xf16>
  %v103 = arith.mulf %v102, %v101 : tensor<128x3072xf16>
  %e104 = tensor.empty() : tensor<128x3072xf16>
  %f105 = linalg.fill ins(%k1 : f16) outs(%e104 : tensor<128x3072xf16>) -> tensor<128x3072xf16>
  %v106 = arith.mulf %v103, %f105 : tensor<128x3072xf16>
  %v107 = arith.addf %v101, %v106 : tensor<128x3072xf16>
  %e109 = tensor.empty() : tensor<128x3072xf16>
  %f110 = linalg.fill ins(%k0 : f16) outs(%e109 : tensor<128x3072xf16>) -> tensor<128x3072xf16>
  %v111 = arith.mulf %v107, %f110 : tensor<128x3072xf16>
  %v108 = math.tanh %v111 : tensor<128x3072xf16>
  %e112 = tensor.empty() : tensor<128x3072xf16>
  %f113 = linalg.fill ins(%half : f16) outs(%e112 : tensor<128x3072xf16>) -> tensor<128x3072xf16>
  %v114 = arith.mulf %v101, %f113 : tensor<128x3072xf16>
  %e115 = tensor.empty() : tensor<128x3072xf16>
  %f116 = linalg.fill ins(%one : f16) outs(%e115 : tensor<128x3072xf16>) -> tensor<128x3072xf16>
  %v117 = arith.addf %v108, %f116 : tensor<128x3072xf16>
  %v118 = arith.mulf %v114, %v117 : tensor<128x3072xf16>
  %e119 = tensor.empty() : tensor<128x768xf16>
  %f120 = linalg.fill ins(%c0 : f16) outs(%e119 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %mm121 = linalg.matmul ins(%v118, %w_proj : tensor<128x3072xf16>, tensor<3072x768xf16>) outs(%f120 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %e122 = tensor.empty() : tensor<128x768xf16>
  %b123 = linalg.broadcast ins(%b_proj : tensor<768xf16>) outs(%e122 : tensor<128x768xf16>) dimensions = [0]
  %v124 = arith.addf %mm121, %b123 : tensor<128x768xf16>
  %v125 = arith.addf %v66, %v124 : tensor<128x768xf16>
  return %v125 : tensor<128x768xf16>
}
