// Dead ops (metrale/graph.h, Dead ops): an op whose results nothing live uses, and that
// MLIR would erase once unused (wouldOpBeTriviallyDead), is what canonicalization erases
// before any backend sees it, so no report counts it; a remark says so at the op (not at
// a dead scalar, which counts nothing anyway). Every number below is also what the same
// file gives after `mlir-opt --canonicalize` (the last RUN line checks it so).
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false dead-remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false" 2>/dev/null | FileCheck %s --check-prefixes=CHECK,ONLY
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
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
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
// that is freed is used, and kept: canonicalization's SimplifyDeadAlloc pattern erases it
// as well, which metrale does not model, so no number is checked here.
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
// addf) per iteration, 4 iterations (constant bounds 0..4 step 1): dispatches = 4, each
// reading 4096 B and writing 4096 B: dram = 4 x 8192 = 32768. Its scratch is the addf's
// 1024 x 4 = 4096 B result beside the loop's own 4096 B result: arena 8192. The trip
// count is known, so nothing is a bound and no warning is said.
// DIAG: dead.mlir:[[# @LINE + 11]]:13: remark: 'arith.mulf' is dead
// DIAG-NOT: warning: the body of 'scf.for'
// CHECK-LABEL: func.func @loop
// CHECK-SAME: {{[[:<:]]}}arena_bytes = 8192 : i64
// CHECK-SAME: {{[[:<:]]}}dispatches = 4 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 32768 : i64
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
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
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

// A use inside a loop body by an op that is dead is no use: %b is read only by the
// body's dead addf, so it is dead too. Left: the loop (one dispatch per iteration, the
// body's subf, 1024 x 4 = 4096 B, 4 iterations) reading %t and %x (2 x 4096 B) and
// writing 4096 B each time: arena 4096 + 4096 (the iteration's scratch beside the
// result), dispatches 4, dram 4 x 12288 = 49152.
// DIAG: dead.mlir:[[# @LINE + 10]]:8: remark: 'arith.mulf' is dead
// DIAG: dead.mlir:[[# @LINE + 11]]:13: remark: 'arith.addf' is dead
// CHECK-LABEL: func.func @capture
// CHECK-SAME: arena_bytes = 8192 : i64
// CHECK-SAME: {{[[:<:]]}}dispatches = 4 : i64
// CHECK-SAME: dram_bytes = 49152 : i64
func.func @capture(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %b = arith.mulf %x, %x : tensor<1024xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %x) -> tensor<1024xf32> {
    %dead = arith.addf %b, %t : tensor<1024xf32>
    %n = arith.subf %t, %x : tensor<1024xf32>
    scf.yield %n : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}

// A dead loop goes whole, with nothing said about its body and the report complete;
// so does a dead scalar chain that reads a loop's index result, and the unused
// tensor.extract of a mulf takes the mulf with it: nothing is left to count.
// DIAG: dead.mlir:[[# @LINE + 12]]:10: remark: 'scf.for' is dead
// DIAG-NOT: the body of 'scf.for'
// DIAG: dead.mlir:[[# @LINE + 16]]:8: remark: 'arith.mulf' is dead
// DIAG-NOT: tensor.extract' is dead
// CHECK-LABEL: func.func @whole_loop
// CHECK-SAME: arena_bytes = 0 : i64
// CHECK-SAME: {{[[:<:]]}}complete = true
// CHECK-SAME: {{[[:<:]]}}dispatches = 0 : i64
func.func @whole_loop(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %x, %n = %c0) -> (tensor<1024xf32>, index) {
    %m = arith.mulf %t, %t : tensor<1024xf32>
    %n1 = arith.addi %n, %c1 : index
    scf.yield %m, %n1 : tensor<1024xf32>, index
  }
  %e = tensor.empty(%r#1) : tensor<?xf32>
  %a = arith.mulf %x, %x : tensor<1024xf32>
  %s = tensor.extract %a[%c0] : tensor<1024xf32>
  return %x : tensor<1024xf32>
}

// A dead value whose size overflows 64 bits is erased before it is sized: no error.
// DIAG-NOT: error
// CHECK-LABEL: func.func @overflow
// CHECK-SAME: {{[[:<:]]}}complete = true
func.func @overflow(%y: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<9999999999x9999999999xf32>
  return %y : tensor<4xf32>
}

// An op whose only user is a dead op is no reason to keep anything: a transpose that
// an inverse transpose undoes folds into a view whatever dead op also reads it, so the
// numbers are those without the dead tosa.abs: one dispatch (the last abs, reading %x
// 512 B and writing 512 B: dram 1024).
// DIAG: dead.mlir:[[# @LINE + 6]]:8: remark: 'tosa.abs' is dead
// CHECK-LABEL: func.func @transposes
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: dram_bytes = 1024 : i64
func.func @transposes(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %t1 = "tosa.transpose"(%x) <{perms = array<i32: 1, 0>}> : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %d = "tosa.abs"(%t1) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %t2 = "tosa.transpose"(%t1) <{perms = array<i32: 1, 0>}> : (tensor<16x8xf32>) -> tensor<8x16xf32>
  %r = "tosa.abs"(%t2) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// Uses count whatever the order of blocks: ^bb1 reads %a, defined in ^bb2 further down,
// so the mulf stays, its own dispatch beside the addf's (checked without
// canonicalization, which merges the blocks, and then the two fuse).
// DIAG-NOT: is dead
// ONLY-LABEL: func.func @blocks
// ONLY-SAME: {{[[:<:]]}}dispatches = 2 : i64
func.func @blocks(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  cf.br ^bb2
^bb1:
  %u = arith.addf %a, %a : tensor<1024xf32>
  return %u : tensor<1024xf32>
^bb2:
  %a = arith.mulf %x, %x : tensor<1024xf32>
  cf.br ^bb1
}

// A value with a live use and dead ones is kept: the dead subfs go, the mulf stays (one
// dispatch with the addf that returns: reads %x 4096, writes 4096: dram 8192). Each use is
// let go once, so a value with 10^4 dead users costs 10^4 steps, not 10^8.
// DIAG: dead.mlir:[[# @LINE + 8]]:9: remark: 'arith.subf' is dead
// DIAG: dead.mlir:[[# @LINE + 8]]:9: remark: 'arith.subf' is dead
// CHECK-LABEL: func.func @shared
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: dram_bytes = 8192 : i64
func.func @shared(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %m = arith.mulf %x, %x : tensor<1024xf32>
  %r = arith.addf %m, %m : tensor<1024xf32>
  %d1 = arith.subf %m, %x : tensor<1024xf32>
  %d2 = arith.subf %m, %x : tensor<1024xf32>
  return %r : tensor<1024xf32>
}
