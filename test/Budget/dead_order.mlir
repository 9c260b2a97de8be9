func.func @f(%c: i1, %t: tensor<4xf32>) -> tensor<4xf32> {
  %a = tensor.empty() : tensor<4xf32>
  %p = arith.addf %t, %t : tensor<4xf32>
  %r = scf.if %c -> tensor<4xf32> {
    %x = tensor.empty() : tensor<8xf32>
    scf.yield %t : tensor<4xf32>
  } else {
    %y = tensor.empty() : tensor<9xf32>
    %z = scf.if %c -> tensor<4xf32> {
      %w = tensor.empty() : tensor<3xf32>
      %q = arith.mulf %p, %p : tensor<4xf32>
      scf.yield %t : tensor<4xf32>
    } else {
      scf.yield %t : tensor<4xf32>
    }
    scf.yield %z : tensor<4xf32>
  }
  %s = arith.subf %t, %t : tensor<4xf32>
  cf.br ^bb1(%s : tensor<4xf32>)
^bb1(%u: tensor<4xf32>):
  %b = tensor.empty() : tensor<5xf32>
  %v = arith.mulf %s, %s : tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @g(%c: i1, %t: tensor<4xf32>) {
  %d = scf.if %c -> tensor<4xf32> {
    %e = arith.addf %t, %t : tensor<4xf32>
    scf.yield %e : tensor<4xf32>
  } else {
    scf.yield %t : tensor<4xf32>
  }
  %k = tensor.empty() : tensor<2xf32>
  return
}
func.func @square(%t: tensor<4xf32>) -> tensor<4xf32> {
  %s = arith.subf %t, %t : tensor<4xf32>
  %v = arith.mulf %s, %s : tensor<4xf32>
  return %s : tensor<4xf32>
}
// Dead ops are reported in pre-order, none inside another, whatever order the
// propagation found them in: seeds first (tensor.empty at 2, 5, 8, 10, 21, 32; the mulf
// at 11 and 22; the scf.if at 26), then what they alone used (the addf at 3, used only
// by the mulf at 11, twice, two regions down). The addf at 27 is inside the dead scf.if:
// not reported. The subf at 18 is not dead: the branch to ^bb1 uses it (metrale does not
// drop a block argument nothing uses; the function warns that it has 2 blocks).
// @square: the dead mulf at 37 reads %s twice, and %s is returned: only the mulf is dead
// (letting go of the mulf's second use of %s took the return's off too, and called the
// subf dead and its dispatch gone: 0 dispatches). The subf is 1 dispatch.
// The checks are at the end so that the lines above stay where the numbers say.
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false dead-remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false" 2>/dev/null | FileCheck %s
// The 11 dead ops below and no other (a stray remark between two of them would pass the
// ordered list): 2, 3, 5, 8, 10, 11, 21, 22, 26, 32, 37.
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false dead-remarks" -o /dev/null 2>&1 | grep -c 'is dead' | FileCheck %s --check-prefix=NDEAD
// NDEAD: {{^}}11{{$}}
// DIAG: dead_order.mlir:2:8: remark: 'tensor.empty' is dead
// DIAG: dead_order.mlir:3:8: remark: 'arith.addf' is dead
// DIAG: dead_order.mlir:5:10: remark: 'tensor.empty' is dead
// DIAG: dead_order.mlir:8:10: remark: 'tensor.empty' is dead
// DIAG: dead_order.mlir:10:12: remark: 'tensor.empty' is dead
// DIAG: dead_order.mlir:11:12: remark: 'arith.mulf' is dead
// DIAG-NOT: dead_order.mlir:18:{{.*}} is dead
// DIAG: dead_order.mlir:21:8: remark: 'tensor.empty' is dead
// DIAG: dead_order.mlir:22:8: remark: 'arith.mulf' is dead
// DIAG: dead_order.mlir:26:8: remark: 'scf.if' is dead
// DIAG: dead_order.mlir:32:8: remark: 'tensor.empty' is dead
// DIAG-NOT: dead_order.mlir:36:{{.*}} is dead
// DIAG: dead_order.mlir:37:8: remark: 'arith.mulf' is dead
// DIAG-NOT: is dead
// CHECK-LABEL: func.func @square
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
