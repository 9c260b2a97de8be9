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
// The same two in the generic form with no indexing_maps (as torch-mlir and buddy-mlir
// print them): the maps are the op's defaults, cached by its name.
func.func @nonzero_default(%a: tensor<4x?xf32>, %b: tensor<?x8xf32>, %c: tensor<4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = "linalg.matmul"(%a, %b, %c) <{operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }) : (tensor<4x?xf32>, tensor<?x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<2x4x8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%0 : tensor<4x8xf32>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<2x4x8xf32>
  return %1 : tensor<2x4x8xf32>
}
func.func @zero_dim_default(%a: tensor<0x?xf32>, %b: tensor<?x8xf32>, %c: tensor<1x8xf32>) -> tensor<2x3x8xf32> {
  %0 = "linalg.matmul"(%a, %b, %c) <{operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }) : (tensor<0x?xf32>, tensor<?x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  %e = tensor.empty() : tensor<2x3x8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, d2)>, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%0 : tensor<1x8xf32>) outs(%e : tensor<2x3x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<2x3x8xf32>
  return %1 : tensor<2x3x8xf32>
}
// A batch_matmul with default maps after a matmul with them, in one function (one
// cache): the names key them apart. The matmul is 1 dispatch. The batch_matmul: batch 2,
// m 4, n 8, k ?: 4 loops; its broadcast to 3x2x4x8 has 4 too: fused, 1 dispatch. 2 in
// all. (The batch_matmul read with the matmul's pattern counts 3 loops, m off dim 0 of
// its first operand, n off dim 1 of its second, k off dim 1 of its first, and keeps the
// broadcast apart: 3.)
func.func @batch_default(%a: tensor<2x4x?xf32>, %b: tensor<2x?x8xf32>, %c: tensor<2x4x8xf32>, %ma: tensor<4x?xf32>, %mb: tensor<?x8xf32>, %mc: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<3x2x4x8xf32>) {
  %mm = "linalg.matmul"(%ma, %mb, %mc) <{operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }) : (tensor<4x?xf32>, tensor<?x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = "linalg.batch_matmul"(%a, %b, %c) <{operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }) : (tensor<2x4x?xf32>, tensor<2x?x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %e = tensor.empty() : tensor<3x2x4x8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%0 : tensor<2x4x8xf32>) outs(%e : tensor<3x2x4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<3x2x4x8xf32>
  return %mm, %1 : tensor<4x8xf32>, tensor<3x2x4x8xf32>
}
// A matmul with default maps and one with its own (B transposed), in both orders in one
// function: only the one without maps is keyed by name.
// @mixed_default_first: the default matmul is 1 dispatch; the transposed one, 4x8 by
// 1x8 into 4x1, has 2 non-unit loops (m 4, n 1, k 8), its broadcast to 3x4x5 has 3:
// apart, 2. In all 3. (Read with the default pattern, n comes off dim 1 of its 1x8: 8,
// 3 loops, fused: 2.)
func.func @mixed_default_first(%ma: tensor<4x?xf32>, %mb: tensor<?x8xf32>, %mc: tensor<4x8xf32>, %a: tensor<4x8xf32>, %b: tensor<1x8xf32>, %c: tensor<4x1xf32>) -> (tensor<4x8xf32>, tensor<3x4x5xf32>) {
  %mm = "linalg.matmul"(%ma, %mb, %mc) <{operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }) : (tensor<4x?xf32>, tensor<?x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<4x8xf32>, tensor<1x8xf32>) outs(%c : tensor<4x1xf32>) -> tensor<4x1xf32>
  %e = tensor.empty() : tensor<3x4x5xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, 0)>, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t : tensor<4x1xf32>) outs(%e : tensor<3x4x5xf32>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<3x4x5xf32>
  return %mm, %1 : tensor<4x8xf32>, tensor<3x4x5xf32>
}
// @mixed_explicit_first: the transposed matmul is 1 dispatch; the default one, 4x8 by 8x1
// into 4x1, has 2 non-unit loops (m 4, n 1, k 8), its broadcast 3: apart, 2. In all 3.
// (Read with the transposed pattern, n comes off dim 0 of its 8x1: 8, 3 loops, fused: 2.)
func.func @mixed_explicit_first(%a: tensor<4x8xf32>, %b: tensor<1x8xf32>, %c: tensor<4x1xf32>, %da: tensor<4x8xf32>, %db: tensor<8x1xf32>) -> (tensor<4x1xf32>, tensor<3x4x5xf32>) {
  %t = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<4x8xf32>, tensor<1x8xf32>) outs(%c : tensor<4x1xf32>) -> tensor<4x1xf32>
  %d = "linalg.matmul"(%da, %db, %c) <{operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }) : (tensor<4x8xf32>, tensor<8x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %e = tensor.empty() : tensor<3x4x5xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, 0)>, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d : tensor<4x1xf32>) outs(%e : tensor<3x4x5xf32>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<3x4x5xf32>
  return %t, %1 : tensor<4x1xf32>, tensor<3x4x5xf32>
}
