// Class 6: tensors materialized inside region bodies (scf.for/while/if/execute_region)
// are counted: each region is planned like a function body on the same target, and its
// peak arena is scratch live at the op's own position (iterations reuse it). The body's
// own dispatches and traffic run again each time it runs: a loop of constant bounds
// counts them trip-count times, exactly; a loop whose bounds are known only when it runs
// counts one run, said in a warning, and complete = false (lower bounds). An scf.if on a
// value known only when it runs counts its larger branch: upper bounds, said in a
// warning (nothing is missing, so complete stays true).
// RUN: metrale-opt %s -split-input-file --metrale-budget="target=host-cpu op-remarks=false" 2>/dev/null | FileCheck %s
// RUN: metrale-opt %s -split-input-file --metrale-budget="target=host-cpu op-remarks=false" -verify-diagnostics -o /dev/null
// RUN: metrale-opt %s -split-input-file --metrale-memory="target=mobile-gpu-f32 rows=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MEM

// The body: %a = %acc + %acc (4096 B), %b = transpose(%a) (elementwise with a permuted
// map), %c = %b + %a, yielded. host-cpu forms dispatches as IREE does: %a has two uses,
// and its first reader (the transpose) takes it in (FuseMultiUseElementwiseProducer);
// the add then takes in the rest: 1 dispatch, only the yielded %c (4096 B) in memory:
// scratch of the scf.for 4096 (mobile-gpu-f32, below: a program per op, 3 dispatches).
// Function: positions 0, 1 the index constants, 2 the loop, 3 the return. %r (4096 B)
// lives [2, 3] with the scratch at 2: arena 4096 + 4096 = 8192, also the sum of slots.
// The bound %n is an argument: one run of the body is counted, 1 dispatch reading and
// writing 4096 B: dispatches 1, dram 8192, lower bounds.
// CHECK-LABEL: func.func @loop
// CHECK-SAME: arena_bytes = 8192 : i64
// CHECK-SAME: {{[[:<:]]}}complete = false
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 8192 : i64
// CHECK-SAME: materialized_bytes = 8192 : i64
// On mobile-gpu-f32 (TF.js's WebGL backend, a program per op): %a, %b and %c are 3
// dispatches; body positions addf 0, empty 1, transpose 2, addf 3, yield 4: %a [0, 3],
// %b [2, 3], %c [3, 4] are all live at 3: scratch 3 x 4096 = 12288.
// MEM: warning: the body of 'scf.for' runs 3 dispatch(es) of its own each time, and how often it runs is not known before it does
// expected-remark-re @below {{metrale.budget @loop on host-cpu (native): arena_bytes=8192{{[[:>:]]}}}}
func.func @loop(%x: tensor<1024xf32>, %n: index) -> tensor<1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-warning @below {{the body of 'scf.for' runs 1 dispatch(es) of its own each time, and how often it runs is not known before it does (its bounds are no constants): dispatches, allocations and dram_bytes count one run (lower bounds when it runs at least once)}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<1024xf32>) {
    %a = arith.addf %acc, %acc : tensor<1024xf32>
    %e = tensor.empty() : tensor<1024xf32>
    %b = linalg.transpose ins(%a : tensor<1024xf32>) outs(%e : tensor<1024xf32>) permutation = [0]
    %c = arith.addf %b, %a : tensor<1024xf32>
    scf.yield %c : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}

// -----

// scf.if: the larger branch sets the scratch. Then: the loop body above (1 dispatch, one
// 4096 B tensor in memory). Else: %d = x * x (4096 B), a concat of it with itself (8192 B,
// a dispatch of its own: data movement), a slice of that (a view) plus x (4096 B); else
// positions mulf 0, concat 1, slice 2, addf 3, yield 4: %d [0,1], the concat [1,3], %f
// [3,4]; at 1 and at 3, 4096 + 8192 = 12288 live: the else branch's 12288 is the scratch
// at the if (position 0). %r (4096 B) lives [0, 1]: arena 12288 + 4096 = 16384. %p is an
// argument, so the larger branch counts: dispatches max(1, 3) = 3 (mulf, concat, addf);
// dram max(8192, 4096 + 4096 (mulf) + 4096 + 8192 (concat) + 2 x 4096 + 4096 (addf) =
// 32768) = 32768; upper bounds, complete (nothing is missing).
// CHECK-LABEL: func.func @branch
// CHECK-SAME: arena_bytes = 16384 : i64
// CHECK-SAME: {{[[:<:]]}}complete = true
// CHECK-SAME: {{[[:<:]]}}dispatches = 3 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 32768 : i64
// expected-remark-re @below {{metrale.budget @branch on host-cpu (native): arena_bytes=16384{{[[:>:]]}}}}
func.func @branch(%p: i1, %x: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-warning @below {{'scf.if' branches on a value known only when it runs: its dispatches, allocations and traffic are the larger branch's, so they are upper bounds}}
  %r = scf.if %p -> tensor<1024xf32> {
    %a = arith.addf %x, %x : tensor<1024xf32>
    %e = tensor.empty() : tensor<1024xf32>
    %b = linalg.transpose ins(%a : tensor<1024xf32>) outs(%e : tensor<1024xf32>) permutation = [0]
    %c = arith.addf %b, %a : tensor<1024xf32>
    scf.yield %c : tensor<1024xf32>
  } else {
    %d = arith.mulf %x, %x : tensor<1024xf32>
    %cc = tensor.concat dim(0) %d, %d : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<2048xf32>
    %s = tensor.extract_slice %cc[0] [1024] [1] : tensor<2048xf32> to tensor<1024xf32>
    %f = arith.addf %s, %x : tensor<1024xf32>
    scf.yield %f : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}

// -----

// A body that only reads and writes scalars materializes nothing: no scratch, no
// warning, complete.
// CHECK-LABEL: func.func @scalar_loop
// CHECK-SAME: arena_bytes = 0 : i64
// CHECK-SAME: {{[[:<:]]}}complete = true
// expected-remark-re @below {{metrale.budget @scalar_loop on host-cpu (native): arena_bytes=0{{[[:>:]]}}}}
func.func @scalar_loop(%n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %z) -> (f32) {
    %t = arith.addf %s, %s : f32
    scf.yield %t : f32
  }
  return %r : f32
}

// -----

// Nested: the inner loop's scratch (its %m, 4096 B) is a slot of the outer body at the
// inner loop's position 1, next to %a [0, 2] and the inner result %in [1, 2]: 12288 at
// position 1 (and %a + %in + %s at 2, also 12288). Function: %r [2, 3] + scratch 12288
// at 2: 16384. Each run of the outer body runs 3 dispatches: %a, one run of the inner
// loop (its %m; its own bounds are unknown, it warns for itself) and %s; one run of each
// is counted: dispatches 3, dram %a 8192 + %m 8192 + %s (2 reads, 1 write) 12288 = 28672.
// CHECK-LABEL: func.func @nested
// CHECK-SAME: arena_bytes = 16384 : i64
// CHECK-SAME: {{[[:<:]]}}complete = false
// CHECK-SAME: {{[[:<:]]}}dispatches = 3 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 28672 : i64
// expected-remark-re @below {{metrale.budget @nested on host-cpu (native): arena_bytes=16384{{[[:>:]]}}}}
func.func @nested(%x: tensor<1024xf32>, %n: index) -> tensor<1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-warning @below {{the body of 'scf.for' runs 3 dispatch(es) of its own each time, and how often it runs is not known}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<1024xf32>) {
    %a = arith.addf %acc, %acc : tensor<1024xf32>
    // expected-warning @below {{the body of 'scf.for' runs 1 dispatch(es) of its own each time, and how often it runs is not known}}
    %in = scf.for %j = %c0 to %n step %c1 iter_args(%b = %a) -> (tensor<1024xf32>) {
      %m = arith.mulf %b, %b : tensor<1024xf32>
      scf.yield %m : tensor<1024xf32>
    }
    %s = arith.addf %in, %a : tensor<1024xf32>
    scf.yield %s : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}

// -----

// The same nest with constant bounds, 3 outer and 2 inner iterations: each outer run is
// %a, the inner loop's 2 runs of %m, and %s: 4 dispatches, dram 8192 + 2 x 8192 + 12288
// = 36864; 3 runs: dispatches 12, dram 110592, exact: no warning, complete. The scratch
// is the same 12288 B (iterations reuse it): arena 16384.
// CHECK-LABEL: func.func @counted
// CHECK-SAME: arena_bytes = 16384 : i64
// CHECK-SAME: {{[[:<:]]}}complete = true
// CHECK-SAME: {{[[:<:]]}}dispatches = 12 : i64
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 110592 : i64
// expected-remark-re @below {{metrale.budget @counted on host-cpu (native): arena_bytes=16384{{[[:>:]]}}}}
func.func @counted(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<1024xf32>) {
    %a = arith.addf %acc, %acc : tensor<1024xf32>
    %in = scf.for %j = %c0 to %c2 step %c1 iter_args(%b = %a) -> (tensor<1024xf32>) {
      %m = arith.mulf %b, %b : tensor<1024xf32>
      scf.yield %m : tensor<1024xf32>
    }
    %s = arith.addf %in, %a : tensor<1024xf32>
    scf.yield %s : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}

// -----

// scf.execute_region runs once; its body's peak is its scratch: %a alone, 4096 B, at
// position 0, with the result %r [0, 1]: 8192. Its one dispatch counts once, exactly:
// no warning.
// CHECK-LABEL: func.func @region
// CHECK-SAME: arena_bytes = 8192 : i64
// CHECK-SAME: {{[[:<:]]}}complete = true
// CHECK-SAME: {{[[:<:]]}}dispatches = 1 : i64
// expected-remark-re @below {{metrale.budget @region on host-cpu (native): arena_bytes=8192{{[[:>:]]}}}}
func.func @region(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %r = scf.execute_region -> tensor<1024xf32> {
    %a = arith.addf %x, %x : tensor<1024xf32>
    scf.yield %a : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}
