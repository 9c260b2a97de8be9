// Class 6: func.call. Callees are analysed before their callers; a call counts its
// callee's arena as scratch at the call, and the callee's dispatches and DRAM bytes in
// place of its own one dispatch. What cannot be resolved (an external function that
// tensors pass through, recursion, an indirect call) is a warning at the call and
// complete = false; an external host function that no tensor passes through (a timer)
// counts nothing and says nothing.
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false" -verify-diagnostics -o /dev/null
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false" 2>/dev/null | FileCheck %s
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false" --mlir-disable-threading 2>/dev/null | FileCheck %s

func.func private @clock() -> f64
func.func private @ext(tensor<4xf32>) -> tensor<4xf32>

// @callee: %0 = %x + %x (4096 B), %1 = transpose(%0) into %x's shape (elementwise with a
// permuted map; %0 has two uses, and its first reader takes it in, as IREE's
// FuseMultiUseElementwiseProducer does), %2 = %1 * %0 joins too, returned: 1 dispatch.
// Slots (64-byte alignment): %2 [2, 3]: arena 4096.
// DRAM: %x 4096 in (the transpose's init %x is the same operand), %2 4096 out: 8192.
// expected-remark @below {{metrale.budget @callee on host-cpu (native): arena_bytes=4096 plan=lower-bound arena_bound_bytes=4096 arena_gap_bytes=0 peak_live_bytes=4096 materialized_bytes=4096 reuse_saved_bytes=0 width_overhead_bytes=0 host_io_bytes=8192 param_bytes=0 dispatches=1 dram_bytes=8192 off_fast_path_ops=0 off_fast_path_bytes=0 cast_nodes=0 load_time_dispatches=0 load_time_bytes=0 complete=true}}
func.func private @callee(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = arith.addf %x, %x : tensor<1024xf32>
  %1 = linalg.transpose ins(%0 : tensor<1024xf32>) outs(%x : tensor<1024xf32>) permutation = [0]
  %2 = arith.mulf %1, %0 : tensor<1024xf32>
  return %2 : tensor<1024xf32>
}

// @main: the call at position 1 (after the timer) holds the callee's 4096 B while its
// result %0 (4096 B) starts there too: arena 8192, the sum of both slots. Dispatches
// and DRAM are the callee's: 1 and 8192. The timer call touches no tensor: nothing.
// CHECK-LABEL: func.func @main
// CHECK-SAME: arena_bytes = 8192 : i64
// CHECK-SAME: {{[[:<:]]}}complete = true
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: dram_bytes = 8192 : i64
// expected-remark @below {{metrale.budget @main on host-cpu (native): arena_bytes=8192 plan=lower-bound arena_bound_bytes=8192 arena_gap_bytes=0 peak_live_bytes=8192 materialized_bytes=8192 reuse_saved_bytes=0 width_overhead_bytes=0 host_io_bytes=8192 param_bytes=0 dispatches=1 dram_bytes=8192 off_fast_path_ops=0 off_fast_path_bytes=0 cast_nodes=0 load_time_dispatches=0 load_time_bytes=0 complete=true}}
func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %t = func.call @clock() : () -> f64
  %0 = func.call @callee(%x) : (tensor<1024xf32>) -> tensor<1024xf32>
  return %0 : tensor<1024xf32>
}

// CHECK-LABEL: func.func @external
// CHECK-SAME: {{[[:<:]]}}complete = false
// expected-remark @below {{metrale.budget @external on host-cpu}}
func.func @external(%y: tensor<4xf32>) -> tensor<4xf32> {
  // expected-warning @below {{'func.call' calls @ext which has no body in this module (an external function): the callee's arena, dispatches and traffic are not counted, so the report is a lower bound}}
  %0 = func.call @ext(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// A function that calls itself runs last; its call is not resolved.
// CHECK-LABEL: func.func @rec
// CHECK-SAME: {{[[:<:]]}}complete = false
// expected-remark @below {{metrale.budget @rec on host-cpu}}
func.func @rec(%y: tensor<4xf32>) -> tensor<4xf32> {
  // expected-warning @below {{'func.call' calls @rec recursively (it is on a cycle of calls): the callee's arena, dispatches and traffic are not counted, so the report is a lower bound}}
  %0 = func.call @rec(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Mutual recursion: both wait for each other, so both run in the last round.
// expected-remark @below {{metrale.budget @ping on host-cpu}}
func.func @ping(%y: tensor<4xf32>) -> tensor<4xf32> {
  // expected-warning @below {{'func.call' calls @pong recursively}}
  %0 = func.call @pong(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// expected-remark @below {{metrale.budget @pong on host-cpu}}
func.func @pong(%y: tensor<4xf32>) -> tensor<4xf32> {
  // expected-warning @below {{'func.call' calls @ping recursively}}
  %0 = func.call @ping(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// A caller of a cycle is not on it: it runs after the cycle and its call is resolved
// (no warning), inheriting the cycle's incompleteness.
// CHECK-LABEL: func.func @calls_ping
// CHECK-SAME: {{[[:<:]]}}complete = false
// expected-remark @below {{metrale.budget @calls_ping on host-cpu}}
func.func @calls_ping(%y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @ping(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// A caller of a recursive function is resolved, but inherits its incompleteness.
// CHECK-LABEL: func.func @calls_rec
// CHECK-SAME: {{[[:<:]]}}complete = false
// expected-remark @below {{metrale.budget @calls_rec on host-cpu}}
func.func @calls_rec(%y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @rec(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// expected-remark @below {{metrale.budget @indirect on host-cpu}}
func.func @indirect(%y: tensor<4xf32>) -> tensor<4xf32> {
  %f = func.constant @ext : (tensor<4xf32>) -> tensor<4xf32>
  // expected-warning @below {{'func.call_indirect' calls a function not known before run time: its arena, dispatches and traffic are not counted, so the report is a lower bound}}
  %0 = func.call_indirect %f(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
