// Dead ops (metrale/graph.h, Dead ops): an op whose results nothing live uses, and that
// MLIR would erase once unused (wouldOpBeTriviallyDead), is what canonicalization erases
// before any backend sees it, so no report counts it; a remark says so at the op. Every
// number below is also what the same file gives after `mlir-opt --canonicalize`.
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false" 2>/dev/null | FileCheck %s
// RUN: metrale-opt %s --metrale-memory="target=host-cpu rows=0" 2>/dev/null | FileCheck %s --check-prefix=MEM
// RUN: metrale-opt %s --canonicalize | metrale-opt --metrale-budget="target=host-cpu op-remarks=false" 2>/dev/null | FileCheck %s

// The stored weights: @weight's %k, 4 x 4 B = 16. Its dead %w (16 B more) is not one,
// nor is @folded's shift (a splat).
// MEM: metrale.memory = {
// MEM-SAME: weights_stored = 16 : i64

// mulf is read only by exp, which nothing reads: both dead (exp first, then mulf), and so
// is the unused tensor.empty. Left: one addf, reading %x 4096 B and writing 4096 B:
// dram 8192, one dispatch, its result's 4096 B slot.
// DIAG: dead.mlir:[[# @LINE + 9]]:8: remark: 'arith.mulf' is dead: nothing live uses its results, so a compiler erases it (canonicalization) and metrale counts nothing for it
// DIAG: dead.mlir:[[# @LINE + 9]]:8: remark: 'math.exp' is dead
// DIAG: dead.mlir:[[# @LINE + 9]]:12: remark: 'tensor.empty' is dead
// CHECK-LABEL: func.func @chain
// CHECK-SAME: arena_bytes = 4096 : i64
// CHECK-SAME: dispatches = 1 : i64
// CHECK-SAME: dram_bytes = 8192 : i64
func.func @chain(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = arith.addf %x, %x : tensor<1024xf32>
  %d = arith.mulf %x, %x : tensor<1024xf32>
  %e = math.exp %d : tensor<1024xf32>
  %empty = tensor.empty() : tensor<4096xf32>
  return %a : tensor<1024xf32>
}

// A dead constant is no weight: param_bytes counts only %k's 16 B; dram reads %x 16 and
// %k 16 and writes 16 = 48.
// DIAG: dead.mlir:[[# @LINE + 5]]:8: remark: 'arith.constant' is dead
// CHECK-LABEL: func.func @weight
// CHECK-SAME: dram_bytes = 48 : i64
// CHECK-SAME: param_bytes = 16 : i64
func.func @weight(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %k = arith.constant dense<[5.0, 6.0, 7.0, 8.0]> : tensor<4xf32>
  %0 = arith.addf %x, %k : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// An allocation nothing uses is dead (MLIR allows an op to allocate its own result). One
// that is freed is used, and kept (canonicalization's SimplifyDeadAlloc pattern would
// erase it too; metrale does not model that pattern): its 512 x 4 = 2048 B slot.
// DIAG: dead.mlir:[[# @LINE + 4]]:8: remark: 'memref.alloc' is dead
// DIAG-NOT: dead.mlir:[[# @LINE + 4]]:{{.*}} is dead
// CHECK-LABEL: func.func @alloc
func.func @alloc() {
  %m = memref.alloc() : memref<256xf32>
  %n = memref.alloc() : memref<512xf32>
  memref.dealloc %n : memref<512xf32>
  return
}

// In a loop body too: the body's dead mulf is erased, so the body runs one dispatch (the
// addf) and its scratch is the addf's 1024 x 4 = 4096 B result.
// DIAG: dead.mlir:[[# @LINE + 7]]:13: remark: 'arith.mulf' is dead
// DIAG: warning: the body of 'scf.for' runs 1 dispatch(es) of its own: its scratch arena (4096 bytes)
func.func @loop(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %x) -> tensor<1024xf32> {
    %dead = arith.mulf %t, %t : tensor<1024xf32>
    %n = arith.addf %t, %t : tensor<1024xf32>
    scf.yield %n : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}

// A call is kept although its result is unused: MLIR cannot know the callee has no
// effects. So is a tosa.mul's shift, which the graph does not list as an operand (a
// folded splat) but the op reads.
// DIAG-NOT: is dead
// CHECK-LABEL: func.func @call
// CHECK-SAME: dispatches = 1 : i64
func.func private @callee(%x: tensor<4xf32>) -> tensor<4xf32>
func.func @call(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %x : tensor<4xf32>
}
func.func @folded(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = "tosa.mul"(%x, %x, %s) : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
