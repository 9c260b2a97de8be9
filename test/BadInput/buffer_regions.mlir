// Class 6, bufferized: a region body that only writes into buffers defined outside it
// (a loop of linalg ops on memrefs, a gpu.launch body) has nodes with those buffers as
// operands, as at the top level; its dispatches run each time the body runs: times the
// trips of an scf.for with constant bounds (exact), else a warning (complete = false). A
// loop nested in a body with nothing else is part of the same loop nest, not a dispatch
// of the body. Found by a hostile-user review.
// RUN: metrale-opt %s -split-input-file --allow-unregistered-dialect --metrale-budget="target=host-cpu op-remarks=false" -verify-diagnostics -o /dev/null
// RUN: metrale-opt %s -split-input-file --allow-unregistered-dialect --metrale-budget="target=host-cpu op-remarks=false" 2>/dev/null | FileCheck %s

// Two dispatches per iteration: the matmul and the add, each a bufferized op with no
// results to fuse through; the bounds are constants, 1000 iterations: 2 x 1000 = 2000
// dispatches, exact.
// CHECK-LABEL: func.func @matmul_loop
// CHECK-SAME: {{[[:<:]]}}complete = true
// CHECK-SAME: {{[[:<:]]}}dispatches = 2000 : i64
// expected-remark @below {{metrale.budget @matmul_loop on host-cpu}}
func.func @matmul_loop(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000 : index
  scf.for %i = %c0 to %n step %c1 {
    linalg.matmul ins(%a, %b : memref<256x256xf32>, memref<256x256xf32>) outs(%c : memref<256x256xf32>)
    linalg.add ins(%c, %a : memref<256x256xf32>, memref<256x256xf32>) outs(%c : memref<256x256xf32>)
  }
  return
}

// -----

// A launch body's allocation (4194304 x 4 B = 16 MiB) is its scratch; the copy is a
// dispatch of the body.
// CHECK-LABEL: func.func @launch
// CHECK-SAME: arena_bytes = 16777216 : i64
// expected-remark-re @below {{metrale.budget @launch on host-cpu (native): arena_bytes=16777216{{[[:>:]]}}}}
func.func @launch(%xm: memref<1024xf32>) {
  %c1 = arith.constant 1 : index
  // expected-warning @below {{the body of 'gpu.launch' runs 1 dispatch(es) of its own each time, and how often it runs is not known before it does: dispatches, allocations and dram_bytes count one run (lower bounds when it runs at least once)}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %big = memref.alloc() : memref<4194304xf32>
    memref.copy %xm, %xm : memref<1024xf32> to memref<1024xf32>
    memref.dealloc %big : memref<4194304xf32>
    gpu.terminator
  }
  return
}

// -----

// A loop nest of scalar loads and stores is one dispatch: nothing to warn about.
// CHECK-LABEL: func.func @scalar_nest
// CHECK-SAME: {{[[:<:]]}}complete = true
// expected-remark @below {{metrale.budget @scalar_nest on host-cpu}}
func.func @scalar_nest(%m: memref<4x4xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 4 {
      %v = affine.load %m[%i, %j] : memref<4x4xf32>
      affine.store %v, %m[%j, %i] : memref<4x4xf32>
    }
  }
  return
}

// -----

// A tensor made inside a linalg.generic body (4096 x 4 = 16384 B) is counted too.
// Function: scratch 16384 at the generic (position 0) plus its result (1024 x 4 = 4096 B,
// [0, 1]): 20480.
// CHECK-LABEL: func.func @generic_body
// CHECK-SAME: arena_bytes = 20480 : i64
#id = affine_map<(d0) -> (d0)>
// expected-remark-re @below {{metrale.budget @generic_body on host-cpu (native): arena_bytes=20480{{[[:>:]]}}}}
func.func @generic_body(%x: tensor<1024xf32>, %y: tensor<4096xf32>) -> tensor<1024xf32> {
  // expected-warning @below {{the body of 'linalg.generic' runs 1 dispatch(es) of its own each time, and how often it runs is not known before it does}}
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<1024xf32>) outs(%x : tensor<1024xf32>) {
  ^bb0(%a: f32, %b: f32):
    %big = arith.addf %y, %y : tensor<4096xf32>
    %i = linalg.index 0 : index
    %e = tensor.extract %big[%i] : tensor<4096xf32>
    linalg.yield %e : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// -----

// A bufferized loop or region whose body yields a buffer from outside it (here the
// function's argument) passes that buffer through: its result is a view of %a, no slot.
// Before, an scf.for yielding %a (not its iter_arg) and an scf.execute_region yielding %a
// each made a 64 B slot (16 B padded to the 64 B alignment): arena 0 now.
// CHECK-LABEL: func.func @pass_through
// CHECK-SAME: arena_bytes = 0 : i64
// expected-remark-re @below {{metrale.budget @pass_through on host-cpu (native): arena_bytes=0{{[[:>:]]}}}}
func.func @pass_through(%a: memref<4xf32>, %b: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %b) -> memref<4xf32> {
    scf.yield %a : memref<4xf32>
  }
  %s = scf.execute_region -> memref<4xf32> {
    scf.yield %a : memref<4xf32>
  }
  return %r, %s : memref<4xf32>, memref<4xf32>
}
