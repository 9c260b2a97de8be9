#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @nonzero(%a: tensor<4x?xf32>, %b: tensor<?x8xf32>, %c: tensor<4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x?xf32>, tensor<?x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<2x4x8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%0 : tensor<4x8xf32>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<2x4x8xf32>
  return %1 : tensor<2x4x8xf32>
}
func.func @zero_dim(%a: tensor<0x?xf32>, %b: tensor<?x8xf32>, %c: tensor<1x8xf32>) -> tensor<2x3x8xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<0x?xf32>, tensor<?x8xf32>) outs(%c : tensor<1x8xf32>) -> tensor<1x8xf32>
  %e = tensor.empty() : tensor<2x3x8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, d2)>, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%0 : tensor<1x8xf32>) outs(%e : tensor<2x3x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<2x3x8xf32>
  return %1 : tensor<2x3x8xf32>
}
