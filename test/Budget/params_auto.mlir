// params=auto (issue 39): the arguments no op writes that feed the weight operand of a
// matmul, conv or gather (passes/adapter/args.c says which operands, and what moves a
// value on the way: transposes, reshapes, casts), said in a note the command prints
// without --remarks, as the selection that names them.
// RUN: metrale budget %s --params auto 2>&1 | FileCheck %s
// @f: %w feeds a matmul's B (#1); %wt does through a transpose (#2); %table is a gather's
// table (#3); %x is a matmul's A and %ids the gather's indices: not weights. 8x16xf32 =
// 512 B, 16x8xf32 = 512 B, 100x8xf32 = 3200 B: 4224 B.
// CHECK: params_auto.mlir:[[# @LINE + 8]]:1: note: params=auto takes 3 argument(s) of @f as weights (4224 bytes), those no op writes that feed the weight operand of a matmul, conv or gather: @f:1-3{{$}}
// @g: %w feeds a matmul on buffers (#0); %w2 does too, but memref.copy writes it: no weight.
// CHECK: params_auto.mlir:[[# @LINE + 19]]:1: note: params=auto takes 1 argument(s) of @g as weights (512 bytes), {{.*}}: @g:0{{$}}
// CHECK: params_auto.mlir:[[# @LINE + 26]]:1: note: params=auto takes no argument of @h as a weight: none feeds the weight operand of a matmul, conv or gather unwritten{{$}}
// The weights the runs read: @f 512 + 512 + the 4 gathered rows of 8 x f32 (128 B) =
// 1152; @g 512.
// CHECK: @f on host-cpu
// CHECK: {{^}}  param_bytes {{ *}}1152{{ }}
func.func @f(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %wt: tensor<16x8xf32>, %table: tensor<100x8xf32>, %ids: tensor<4x1xi32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x1x8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %et = tensor.empty() : tensor<8x16xf32>
  %t = linalg.transpose ins(%wt : tensor<16x8xf32>) outs(%et : tensor<8x16xf32>) permutation = [1, 0]
  %m2 = linalg.matmul ins(%x, %t : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %g = tensor.gather %table[%ids] gather_dims([0]) : (tensor<100x8xf32>, tensor<4x1xi32>) -> tensor<4x1x8xf32>
  return %m, %m2, %g : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x1x8xf32>
// CHECK: @g on host-cpu
// CHECK: {{^}}  param_bytes {{ *}}512{{ }}
}
func.func @g(%w: memref<8x16xf32>, %b: memref<4x8xf32>, %c: memref<4x16xf32>, %src: memref<8x16xf32>, %w2: memref<8x16xf32>) {
  linalg.matmul ins(%b, %w : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  memref.copy %src, %w2 : memref<8x16xf32> to memref<8x16xf32>
  linalg.matmul ins(%b, %w2 : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// A function with no weight: the note says that too (checked above, with the notes).
func.func @h(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = math.exp %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
