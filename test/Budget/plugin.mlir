// The same pass in stock mlir-opt, loaded as a plugin (pipeline form: stock mlir-opt 22
// builds its pass flags before it loads plugins).
// REQUIRES: plain-build
// RUN: %mlir_opt --load-pass-plugin=%plugin -p 'builtin.module(metrale-budget{target=h100 op-remarks=false})' %s 2>&1 | FileCheck %s
// A mutable ml_program.global on mlir-cpu: the plugin's in-process pipeline makes a
// memref.global of it, in a context where stock mlir-opt loaded no memref dialect.
// RUN: %mlir_opt --load-pass-plugin=%plugin -split-input-file -p 'builtin.module(metrale-budget{target=mlir-cpu op-remarks=false})' %S/../BadInput/mutable_global.mlir -o /dev/null 2>&1 | FileCheck %S/../BadInput/mutable_global.mlir

// 16x16xf32 = 1024 B. {addf, exp} fuse (exp joins the generator addf): 1 dispatch; the
// returned slot is 1024 B (a multiple of 256). DRAM: read %x 1024, write 1024.
// CHECK: remark: metrale.budget @p on h100 (native): arena_bytes=1024 plan=lower-bound arena_bound_bytes=1024 arena_gap_bytes=0 peak_live_bytes=1024 materialized_bytes=1024 reuse_saved_bytes=0 width_overhead_bytes=0 host_io_bytes=2048 param_bytes=0 dispatches=1 dram_bytes=2048{{[[:>:]]}}
// CHECK: func.func @p{{.*}}metrale.budget = {arena_bound_bytes = 1024 : i64, arena_bytes = 1024 : i64
func.func @p(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = arith.addf %x, %x : tensor<16x16xf32>
  %1 = math.exp %0 : tensor<16x16xf32>
  return %1 : tensor<16x16xf32>
}

// The memory pass through the plugin too: the one returned 16x16xf32 tensor (1024 B) is
// the only activation; no weights, states or KV; the driver is the h100's 536870912 B
// context plus the slack of 1024 B to a 2 MiB chunk (2096128): 538967040; device 538968064.
// RUN: %mlir_opt --load-pass-plugin=%plugin -p 'builtin.module(metrale-memory{target=h100 rows=0})' %s 2>&1 | FileCheck %s --check-prefix=MEM
// MEM: metrale.memory = {activations = 1024 : i64, {{.*}}device = 538968064 : i64, driver = 538967040 : i64, fits = true

// And the dispatch pass: @p on h100 is one dispatch of 2048 B (1 ns) and 512 FLOPs (addf
// 256 + exp 256: 1 ns), + 3000 floor; input 8 (pointer) + 1024, readback 1024, moved 2056:
// ceil(2056 / 64 GB/s) = 33 ns. Latency 3001 + 33 = 3034.
// RUN: %mlir_opt --load-pass-plugin=%plugin -p 'builtin.module(metrale-dispatch{target=h100})' %s 2>&1 | FileCheck %s --check-prefix=DISP
// DISP: remark: metrale.dispatch @p on h100 (kernels, arena): input_bytes=1032 output_bytes=1024 readback_bytes=1024 bytes_moved=2056{{[[:>:]]}}
// DISP-SAME: latency_ns=3034{{[[:>:]]}}
// DISP: func.func @p{{.*}}metrale.dispatch = {bytes_moved = 2056 : i64
