// IREE lit case mixed_conv_and_softmax from compiler/src/iree/compiler/DispatchCreation/test/dispatch_linalg_on_tensors_default.mlir @ 588e956add16
// RUN line runs: form-dispatch-regions (default mode), clone-producers-into-dispatch-regions, convert-dispatch-regions-to-workgroups
// expect: mixed_conv=2 softmax=1
// cat: FDR+clone default mode; mixed_conv: named conv f32 acc -> truncf consumer not fused (conv type rule); softmax: linalg.softmax + truncf consumer fused (one split holds both functions)
// modes: (none)
func.func @mixed_conv(%arg0 : tensor<2x130x130x16xf16>, %arg1 : tensor<3x3x16x320xf16>) -> tensor<2x128x128x320xf16> {
  %empty = tensor.empty() : tensor<2x128x128x320xf32>
  %cst = arith.constant 0.0 : f32
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<2x128x128x320xf32>) -> tensor<2x128x128x320xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {
      dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%arg0, %arg1 : tensor<2x130x130x16xf16>, tensor<3x3x16x320xf16>)
      outs(%fill : tensor<2x128x128x320xf32>) -> tensor<2x128x128x320xf32>
  %empty1 = tensor.empty() : tensor<2x128x128x320xf16>
  %truncf = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                       affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv : tensor<2x128x128x320xf32>) outs(%empty1 : tensor<2x128x128x320xf16>) {
    ^bb0(%b0 : f32, %b1 :f16):
      %0 = arith.truncf %b0 : f32 to f16
      linalg.yield %0 : f16
  } -> tensor<2x128x128x320xf16>
  return %truncf : tensor<2x128x128x320xf16>
}
func.func @softmax(%arg0: tensor<2x16x32xf32>) -> tensor<2x16x32xf16> {
  %empty0 = tensor.empty() : tensor<2x16x32xf32>
  %empty1 = tensor.empty() : tensor<2x16x32xf16>
  %1 = linalg.softmax dimension(2) ins(%arg0 : tensor<2x16x32xf32>) outs(%empty0 : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  %2 = linalg.generic {
    indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
    iterator_types = ["parallel", "parallel", "parallel"]}
    ins(%1 : tensor<2x16x32xf32>) outs(%empty1 : tensor<2x16x32xf16>){
    ^bb0(%in : f32, %out : f16):
      %3 = arith.truncf %in : f32 to f16
      linalg.yield %3 : f16
    } -> tensor<2x16x32xf16>
    return %2 : tensor<2x16x32xf16>
}
