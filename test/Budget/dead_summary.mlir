// Dead ops said once per function by default (issue 26: the LLM exports have 227 to 385,
// each remark printed with its source line): how many would have counted, and the first
// with its location; dead-remarks gives one at each (test/Budget/dead.mlir checks those).
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false" -o /dev/null 2>&1 | FileCheck %s
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false dead-remarks" -o /dev/null 2>&1 | grep -c 'is dead' | FileCheck %s --check-prefix=EACH
// RUN: metrale budget %s 2>&1 >/dev/null | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: metrale budget %s --remarks 2>&1 >/dev/null | grep -cE 'is dead|dead ops' | FileCheck %s --check-prefix=CLI
// RUN: metrale budget %s --remarks=all 2>&1 >/dev/null | grep -c 'is dead' | FileCheck %s --check-prefix=EACH

// @three: the mulf, the exp that reads it and the tensor.empty are dead (3; the scalar
// constant counts nothing and is not one of them). The remark is at the function.
// CHECK: dead_summary.mlir:[[# @LINE + 1]]:1: remark: 3 dead ops that canonicalization erases (nothing live uses their results): metrale counts nothing for them; the first is 'arith.mulf' at {{.*}}dead_summary.mlir:[[# @LINE + 3]]:8 (dead-remarks, or the command's --remarks=all, gives a remark at each)
func.func @three(%t: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant 1.0 : f32
  %m = arith.mulf %t, %t : tensor<4xf32>
  %e = math.exp %m : tensor<4xf32>
  %x = tensor.empty() : tensor<8xf32>
  %a = arith.addf %t, %t : tensor<4xf32>
  return %a : tensor<4xf32>
}

// @one: a single dead op is said at the op itself, as dead-remarks says it.
// CHECK: dead_summary.mlir:[[# @LINE + 2]]:8: remark: 'arith.subf' is dead: nothing live uses its results, so a compiler erases it (canonicalization) and metrale counts nothing for it
func.func @one(%t: tensor<4xf32>) -> tensor<4xf32> {
  %s = arith.subf %t, %t : tensor<4xf32>
  return %t : tensor<4xf32>
}

// @none: nothing dead, nothing said.
// CHECK-NOT: {{is dead|dead ops}}
func.func @none(%t: tensor<4xf32>) -> tensor<4xf32> {
  return %t : tensor<4xf32>
}
// Per op: 3 + 1.
// EACH: {{^}}4{{$}}
// The command shows remarks only with --remarks: then the two lines above.
// QUIET-NOT: {{is dead|dead ops}}
// CLI: {{^}}2{{$}}
