// Every Budget field on small graphs, on a target with epilogue fusion (host-cpu,
// alignment 64) and on one without it that stores floats as f32 (mobile-gpu-f32,
// alignment 16).
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false" -split-input-file 2>/dev/null | FileCheck %s --check-prefix=CPU
// RUN: metrale-opt %s --metrale-budget="target=mobile-gpu-f32 op-remarks=false" -split-input-file 2>/dev/null | FileCheck %s --check-prefix=GPU

// Every tensor is 16x16xf32 = 1024 B. Positions: addf 0, mulf 1, empty 2, matmul 3, exp 4,
// return 5.
// On host-cpu: groups {addf, mulf} (addf reads only %x: a generator, mulf joins) and
// {matmul, exp} (epilogue): 2 dispatches. A dispatch runs as one kernel at its last
// member's position: {matmul, exp} at 4 reads %1 while it writes %2. Slots %1 [1,4] and
// %2 [4,5] overlap at 4: materialized 2048, arena 2048, reuse 0, peak 2048.
// DRAM: {addf,mulf} reads %x 1024, writes %1 1024; {matmul,exp} reads %1 1024 and %w 1024
// (tensor.empty is not read), writes %2 1024: 2048 + 3072 = 5120.
// host I/O: %x 1024 + result 1024 = 2048; params: %w 1024.
// CPU-LABEL: func.func @chain
// CPU-SAME: metrale.budget = {
// CPU-SAME: arena_bytes = 2048 : i64
// CPU-SAME: cast_nodes = 0 : i64
// CPU-SAME: {{[[:<:]]}}complete = true
// CPU-SAME: {{[[:<:]]}}dispatches = 2 : i64
// CPU-SAME: dram_bytes = 5120 : i64
// CPU-SAME: host_io_bytes = 2048 : i64
// CPU-SAME: materialized_bytes = 2048 : i64
// CPU-SAME: off_fast_path_bytes = 0 : i64
// CPU-SAME: off_fast_path_ops = 0 : i64
// CPU-SAME: param_bytes = 1024 : i64
// CPU-SAME: peak_live_bytes = 2048 : i64
// CPU-SAME: reuse_saved_bytes = 0 : i64
// CPU-SAME: target = "host-cpu"
// CPU-SAME: width_overhead_bytes = 0 : i64
// CPU-SAME: width_policy = "native"
// On mobile-gpu-f32 (TF.js's WebGL backend: a program per op; the fused matMul takes a
// bias add or an activation, and exp is neither): 4 dispatches. Slots %0 [0,1], %1 [1,3],
// %m [3,4], %2 [4,5]: no three overlap: arena 2048, materialized 4096, peak 2048. DRAM:
// addf %x once + %0 (2048), mulf %0 + %x + %1 (3072), matmul %1 + %w + %m (3072), exp
// %m + %2 (2048): 10240. f32 tensors are not widened: width overhead 0.
// GPU-LABEL: func.func @chain
// GPU-SAME: metrale.budget = {
// GPU-SAME: arena_bytes = 2048 : i64
// GPU-SAME: cast_nodes = 0 : i64
// GPU-SAME: {{[[:<:]]}}complete = true
// GPU-SAME: {{[[:<:]]}}dispatches = 4 : i64
// GPU-SAME: dram_bytes = 10240 : i64
// GPU-SAME: host_io_bytes = 2048 : i64
// GPU-SAME: materialized_bytes = 4096 : i64
// GPU-SAME: off_fast_path_bytes = 0 : i64
// GPU-SAME: off_fast_path_ops = 0 : i64
// GPU-SAME: param_bytes = 1024 : i64
// GPU-SAME: peak_live_bytes = 2048 : i64
// GPU-SAME: reuse_saved_bytes = 2048 : i64
// GPU-SAME: target = "mobile-gpu-f32"
// GPU-SAME: width_overhead_bytes = 0 : i64
// GPU-SAME: width_policy = "f32-uniform"
func.func @chain(%x: tensor<16x16xf32>, %w: tensor<16x16xf32> {metrale.param}) -> tensor<16x16xf32> {
  %0 = arith.addf %x, %x : tensor<16x16xf32>
  %1 = arith.mulf %0, %x : tensor<16x16xf32>
  %e = tensor.empty() : tensor<16x16xf32>
  %m = linalg.matmul ins(%1, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %2 = math.exp %m : tensor<16x16xf32>
  return %2 : tensor<16x16xf32>
}

// -----

// f16 tensors: 32x32x2 = 2048 B native, 4096 B stored as f32. Positions: exp 0, tanh 1,
// empty 2, transpose 3, addf 4, return 5.
// A transpose is elementwise with a permuted map (compilers fuse it so).
// On host-cpu (IREE's rules): {exp, tanh} is one dispatch; %1 has two uses, and its first
// reader, the transpose, takes the group in (FuseMultiUseElementwiseProducer); the addf
// joins too: 1 dispatch, only the returned %3 in memory: arena = materialized = peak =
// 2048. DRAM: %x 2048 in, %3 2048 out: 4096.
// CPU-LABEL: func.func @half
// CPU-SAME: arena_bound_bytes = 2048 : i64, arena_bytes = 2048 : i64, arena_gap_bytes = 0 : i64, cast_nodes = 0 : i64, complete = true, dispatches = 1 : i64, dram_bytes = 4096 : i64, host_io_bytes = 4096 : i64, load_time_bytes = 0 : i64, load_time_dispatches = 0 : i64, materialized_bytes = 2048 : i64
// CPU-SAME: peak_live_bytes = 2048 : i64, plan = "lower-bound", reuse_saved_bytes = 0 : i64, target = "host-cpu", width_overhead_bytes = 0 : i64
// On mobile-gpu-f32 (TF.js: a program per op): exp, tanh, transpose, addf: 4 dispatches.
// Slots %0 [0,1], %1 [1,4], %2 [3,4], %3 [4,5], each 4096 B stored as f32: materialized
// 16384; at 4, %1, %2 and %3: peak = arena 12288 (native 3 x 2048 = 6144: overhead
// 6144). DRAM at f32: exp 8192, tanh 8192, transpose 8192, addf 2 x 4096 in + 4096 out:
// 36864; host I/O stays at declared types (2048 + 2048).
// GPU-LABEL: func.func @half
// GPU-SAME: arena_bound_bytes = 12288 : i64, arena_bytes = 12288 : i64, arena_gap_bytes = 0 : i64, cast_nodes = 0 : i64, complete = true, dispatches = 4 : i64, dram_bytes = 36864 : i64, host_io_bytes = 4096 : i64, load_time_bytes = 0 : i64, load_time_dispatches = 0 : i64, materialized_bytes = 16384 : i64
// GPU-SAME: peak_live_bytes = 12288 : i64, plan = "lower-bound", reuse_saved_bytes = 4096 : i64, target = "mobile-gpu-f32", width_overhead_bytes = 6144 : i64, width_policy = "f32-uniform"
func.func @half(%x: tensor<32x32xf16>) -> tensor<32x32xf16> {
  %0 = math.exp %x : tensor<32x32xf16>
  %1 = math.tanh %0 : tensor<32x32xf16>
  %e = tensor.empty() : tensor<32x32xf16>
  %2 = linalg.transpose ins(%1 : tensor<32x32xf16>) outs(%e : tensor<32x32xf16>) permutation = [1, 0]
  %3 = arith.addf %2, %1 : tensor<32x32xf16>
  return %3 : tensor<32x32xf16>
}

// -----

// A constant, a cast and a view. %c is 8x8xf32 = 256 B of parameters (not a splat: a
// splat is a fill, test/Budget/splat.mlir). Positions: constant 0, addf 1, truncf 2,
// collapse 3, return 4. {addf, truncf}: 1 dispatch, 1 cast node.
// The result is returned through the view, so the slot is %1 (8x8xbf16 = 128 B,
// aligned to 64 on host-cpu, 16 on mobile-gpu-f32: 128 either way), pinned [2,4].
// DRAM: reads %x 256 + %c 256, writes %1 128 = 640. host I/O: %x 256 + result 64x2 =
// 128: 384. On mobile-gpu-f32 (TF.js) the addf and the cast are 2 programs: slots %0
// [1,2] and %1 [2,4] (256 B each, bf16 stored as f32) overlap at 2: arena 512, native 256
// + 128: overhead 128; DRAM %x + %c + %0 (768), %0 + %1 (512): 1280.
// CPU-LABEL: func.func @casts
// CPU-SAME: arena_bound_bytes = 128 : i64, arena_bytes = 128 : i64, arena_gap_bytes = 0 : i64, cast_nodes = 1 : i64, complete = true, dispatches = 1 : i64, dram_bytes = 640 : i64, host_io_bytes = 384 : i64, load_time_bytes = 0 : i64, load_time_dispatches = 0 : i64, materialized_bytes = 128 : i64, off_fast_path_bytes = 0 : i64, off_fast_path_ops = 0 : i64, param_bytes = 256 : i64
// GPU-LABEL: func.func @casts
// GPU-SAME: arena_bound_bytes = 512 : i64, arena_bytes = 512 : i64, arena_gap_bytes = 0 : i64, cast_nodes = 1 : i64, complete = true, dispatches = 2 : i64, dram_bytes = 1280 : i64, host_io_bytes = 384 : i64
// GPU-SAME: width_overhead_bytes = 128 : i64
func.func @casts(%x: tensor<8x8xf32>) -> tensor<64xbf16> {
  %c = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0], [24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0], [32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0], [40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0], [48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0], [56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0]]> : tensor<8x8xf32>
  %0 = arith.addf %x, %c : tensor<8x8xf32>
  %1 = arith.truncf %0 : tensor<8x8xf32> to tensor<8x8xbf16>
  %2 = tensor.collapse_shape %1 [[0, 1]] : tensor<8x8xbf16> into tensor<64xbf16>
  return %2 : tensor<64xbf16>
}

// -----

// Bufferized code: the allocation is a slot for its whole life [0,3] (alloc, exp, copy,
// dealloc), 16xf32 = 64 B. Each op on buffers is its own dispatch: 2. Each buffer operand
// is charged once: exp %in 64 + %a 64, copy %a 64 + %out 64: DRAM 256.
// host I/O: the two buffer arguments, 128. No results.
// CPU-LABEL: func.func @buffers
// CPU-SAME: arena_bound_bytes = 64 : i64, arena_bytes = 64 : i64, arena_gap_bytes = 0 : i64, cast_nodes = 0 : i64, complete = true, dispatches = 2 : i64, dram_bytes = 256 : i64, host_io_bytes = 128 : i64, load_time_bytes = 0 : i64, load_time_dispatches = 0 : i64, materialized_bytes = 64 : i64
func.func @buffers(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  linalg.exp ins(%in : memref<16xf32>) outs(%a : memref<16xf32>)
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  return
}
