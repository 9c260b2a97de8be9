// Remarks, warnings and errors at the ops' own locations. Every diagnostic the pass emits
// here is expected (verify-diagnostics fails on an unexpected one).
// RUN: metrale-opt %s --metrale-budget="target=npu" -split-input-file -verify-diagnostics --allow-unregistered-dialect -o /dev/null

// math.exp is off the npu's fast path: 4xf32 = 16 bytes of results. The returned slot is
// 16 B aligned to 64: arena 64.
// expected-remark @below {{metrale.budget @offpath on npu (hybrid): arena_bytes=64 plan=lower-bound arena_bound_bytes=64 arena_gap_bytes=0 peak_live_bytes=64 materialized_bytes=64 reuse_saved_bytes=0 width_overhead_bytes=0 host_io_bytes=32 param_bytes=0 dispatches=1 dram_bytes=32 off_fast_path_ops=1 off_fast_path_bytes=16 cast_nodes=0 load_time_dispatches=0 load_time_bytes=0 complete=true}}
func.func @offpath(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark @below {{'math.exp' is off the fast path of target 'npu' (16 bytes of results)}}
  %0 = math.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A dynamic argument: one warning at the function, none at the ops it flows into (they
// are not where the dynamic dims come from); the report is incomplete.
// tensor.empty introduces dynamic dims itself: a warning there.
// expected-warning @below {{argument #0 has dynamic dims, counted as 1 each: byte counts are lower bounds (bind them with dynamic-size=N)}}
// expected-remark-re @below {{{{[[:<:]]}}complete=false}}
func.func @dyn(%x: tensor<?x4xf32>, %n: index) -> (tensor<?x4xf32>, tensor<?xf32>) {
  %0 = arith.addf %x, %x : tensor<?x4xf32>
  // expected-warning @below {{'tensor.empty' has a result with dynamic dims, counted as 1 each}}
  %e = tensor.empty(%n) : tensor<?xf32>
  return %0, %e : tensor<?x4xf32>, tensor<?xf32>
}

// -----

// Unranked values: bytes unknown (0), own dispatch, off the fast path, incomplete.
// expected-warning @below {{argument #0 of type tensor<*xf32> is unranked: counted as 0 bytes, so the report is a lower bound}}
// expected-remark-re @below {{metrale.budget @unranked on npu (hybrid): arena_bytes=0{{[[:>:]]}}}}
func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-warning @below {{result #0 of type tensor<*xf32> is unranked: counted as 0 bytes, so the report is a lower bound}}
  // expected-remark @below {{'arith.addf' touches an unranked or unsized value (counted as 0 bytes): its own dispatch, off the fast path of target 'npu'}}
  %0 = arith.addf %x, %x : tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// An unregistered op: its own dispatch, off the fast path; tosa.add after it cannot fuse
// into it, so 2 dispatches.
// expected-remark-re @below {{{{[[:<:]]}}dispatches=2 dram_bytes=}}
func.func @unregistered(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark @below {{'mydialect.frob' is not a registered op: counted conservatively as its own dispatch, off the fast path of target 'npu' (16 bytes of results)}}
  %0 = "mydialect.frob"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = tosa.add %0, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// 2^62 x 8 elements x 32 bits overflows 64 bits: an error, and the function is not
// evaluated (no summary remark, the pass fails).
func.func @huge(%x: tensor<4xf32>) -> tensor<4611686018427387904x8xf32> {
  // expected-error @below {{result #0 of type tensor<4611686018427387904x8xf32> has no byte size: its element count times its storage width overflows 64 bits}}
  %0 = tensor.empty() : tensor<4611686018427387904x8xf32>
  return %0 : tensor<4611686018427387904x8xf32>
}

// -----

// Several blocks: scheduled in block order, block arguments not tracked: a warning.
// expected-warning @below {{function has 2 blocks}}
// expected-remark-re @below {{{{[[:<:]]}}complete=false}}
func.func @blocks(%x: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^bb1
^bb1:
  return %x : tensor<4xf32>
}

// -----

// Two float arguments of 1 MiB each (512x512xf32) that nobody marked: they look like
// weights counted as inputs. Marking the second one leaves one: no remark then (below 16 MiB).
// expected-remark-re @below {{{{[[:<:]]}}2 unmarked float argument(s) between #0 and #1 (2097152 bytes) are counted as host inputs; if they are weights, mark them with the `metrale.param` argument attribute or params=...}}
// expected-remark-re @below {{host_io_bytes=3145728 param_bytes=0{{[[:>:]]}}}}
func.func @weights(%w0: tensor<512x512xf32>, %w1: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = arith.addf %w0, %w1 : tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

// expected-remark-re @below {{host_io_bytes=2097152 param_bytes=1048576{{[[:>:]]}}}}
func.func @marked(%w0: tensor<512x512xf32>, %w1: tensor<512x512xf32> {metrale.param}) -> tensor<512x512xf32> {
  %0 = arith.addf %w0, %w1 : tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

// A declaration has no body: nothing to analyse, and the pass says so once, at the
// module (here the split's first line).
// expected-warning @-4 {{no func.func with a body in this module: there is nothing to analyse}}
func.func private @decl(tensor<4xf32>) -> tensor<4xf32>

// -----

// A loop over a buffer is off the npu's fast path (no scf.*). It has no results: it
// counts in off_fast_path_bytes with the buffer it works on, 64 x f32 = 256 B, and its
// remark says so (it said "0 bytes of results").
// expected-remark-re @below {{off_fast_path_ops=1 off_fast_path_bytes=256{{[[:>:]]}}}}
func.func @loop(%buf: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  // expected-remark @below {{'scf.for' is off the fast path of target 'npu' (256 bytes of the buffers it works on)}}
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %one, %buf[%i] : memref<64xf32>
  }
  return
}
