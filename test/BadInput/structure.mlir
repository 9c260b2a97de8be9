// Module and body shapes: nested modules, empty and declaration-only modules, multi-block
// bodies, unregistered ops. Each is counted or said; none is skipped without a word.
// RUN: metrale-opt %s -split-input-file --allow-unregistered-dialect --metrale-budget="target=host-cpu op-remarks=false" -verify-diagnostics -o /dev/null
// RUN: metrale-opt %s -split-input-file --allow-unregistered-dialect --metrale-budget="target=host-cpu op-remarks=false" 2>/dev/null | FileCheck %s

// Functions in a nested module are analysed and named by their module. Its one slot, the
// returned 4xf32 (16 B), rounds up to host-cpu's 64-byte alignment: arena 64.
// CHECK-LABEL: module @outer
// CHECK: func.func @g
// CHECK-SAME: arena_bytes = 64 : i64
module @outer {
  module @inner {
    // expected-remark-re @below {{metrale.budget @outer::@inner::@g on host-cpu (native): arena_bytes=64{{[[:>:]]}}}}
    func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = arith.addf %x, %x : tensor<4xf32>
      return %0 : tensor<4xf32>
    }
  }
}

// -----

// expected-warning @+1 {{no func.func with a body in this module: there is nothing to analyse}}
module {
}

// -----

// Two blocks: scheduled in block order, block arguments not tracked: incomplete.
// expected-warning @below {{function has 2 blocks: ops are scheduled in block order and values passed through block arguments are not tracked, so the report is a lower bound}}
// expected-remark @below {{metrale.budget @blocks on host-cpu}}
func.func @blocks(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %x, %x : tensor<4xf32>
  cf.br ^bb1(%0 : tensor<4xf32>)
^bb1(%1: tensor<4xf32>):
  %2 = arith.mulf %1, %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// An unregistered op is its own dispatch, off the fast path (a remark with op-remarks).
// CHECK-LABEL: func.func @unregistered
// CHECK-SAME: off_fast_path_ops = 1 : i64
// expected-remark @below {{metrale.budget @unregistered on host-cpu}}
func.func @unregistered(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "foo.bar"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
