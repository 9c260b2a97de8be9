// Silent undercounts found by a review, each now counted (memory pass on h100, alignment
// 256; the attribute's fields in its sorted order).
// RUN: metrale-opt %s -split-input-file --metrale-memory="target=h100 rows=0" 2>/dev/null | FileCheck %s
// RUN: metrale-opt %s -split-input-file --metrale-budget="target=h100 op-remarks=false" 2>/dev/null | FileCheck %s --check-prefix=BUDGET

// A loop whose body only calls a function that allocates 4 MiB (1048576 x f32): the body
// touches no tensor itself, yet the call is looked into. @g is private (no run), its arena
// 4194304 is scratch at the loop in @f and at the call in @h: activations 4194304. The
// loop body runs @g's one dispatch (the fill, writing 4194304 B) each time, 4 times
// (constant bounds): dispatches 4, dram 4 x 4194304 = 16777216, exact, complete.
// CHECK: metrale.memory = {
// CHECK-SAME: activations = 4194304 : i64
// CHECK-SAME: {{[[:<:]]}}complete = true
// BUDGET-LABEL: func.func @f()
// BUDGET-SAME: arena_bytes = 4194304 : i64
// BUDGET-SAME: {{[[:<:]]}}complete = true
// BUDGET-SAME: {{[[:<:]]}}dispatches = 4 : i64
// BUDGET-SAME: {{[[:<:]]}}dram_bytes = 16777216 : i64
func.func private @g() {
  %a = memref.alloc() : memref<1048576xf32>
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%a : memref<1048576xf32>)
  memref.dealloc %a : memref<1048576xf32>
  return
}
func.func @f() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    func.call @g() : () -> ()
  }
  return
}
func.func @h() {
  func.call @g() : () -> ()
  return
}

// -----

// A private callee's constant (4 x f32 = 16 B, not a splat) is a weight of the model and a
// parameter its caller reads through the call.
// CHECK: metrale.memory = {
// CHECK-SAME: weights_stored = 16 : i64
// BUDGET-LABEL: func.func @f(
// BUDGET-SAME: param_bytes = 16 : i64
func.func private @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %m = arith.addf %a, %c : tensor<4xf32>
  return %m : tensor<4xf32>
}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = call @g(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Two constants whose printed names are alike (no location) are two weights: 2 x 16
// (4 x f32 each, not splats).
// CHECK: metrale.memory = {
// CHECK-SAME: weights_stored = 32 : i64
func.func @f() -> (tensor<4xf32>, tensor<4xf32>) {
  %a = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> loc(unknown)
  %b = arith.constant dense<[5.0, 6.0, 7.0, 8.0]> : tensor<4xf32> loc(unknown)
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// -----

// A nested module's global (1048576 x f32 = 4194304 B) is a weight too.
// CHECK: metrale.memory = {
// CHECK-SAME: weights_stored = 4194304 : i64
module {
  module @inner {
    memref.global "private" constant @w : memref<1048576xf32> = dense<1.0>
    func.func @f() -> memref<1048576xf32> {
      %0 = memref.get_global @w : memref<1048576xf32>
      return %0 : memref<1048576xf32>
    }
  }
}

// -----

// Bufferized code that calls an allocating function is charged its plan (the callee's
// 4 MiB as scratch at the call), not only its own top-level allocations (64 B -> 256).
// %a lives [0, 2] (its deallocation is no use), the call's scratch [3, 3]: 4194304.
// CHECK: metrale.memory = {
// CHECK-SAME: activations = 4194304 : i64
func.func private @g(%x: memref<1024xf32>) {
  %cst = arith.constant 0.0 : f32
  %big = memref.alloc() : memref<1048576xf32>
  linalg.fill ins(%cst : f32) outs(%big : memref<1048576xf32>)
  memref.copy %x, %x : memref<1024xf32> to memref<1024xf32>
  memref.dealloc %big : memref<1048576xf32>
  return
}
func.func @f(%x: memref<1024xf32>) {
  %a = memref.alloc() : memref<16xf32>
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%a : memref<16xf32>)
  call @g(%x) : (memref<1024xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  return
}
