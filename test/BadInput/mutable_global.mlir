// A mutable ml_program.global on mlir-cpu, through metrale-opt and the plugin for stock
// mlir-opt: the in-process pipeline makes a memref.global of it, which must be the
// registered op of a loaded dialect (mlir-opt loads only the dialects the module names:
// the memref dialect was not loaded, and the op, built unregistered, crashed the
// verifier). Each function is predicted and its remark said. The plugin's run of this
// file, whose CHECK lines it reads, is in test/Budget/plugin.mlir (a plain build: ASan's
// runtime cannot be loaded into stock mlir-opt).
// RUN: metrale-opt %s -split-input-file --metrale-budget="target=mlir-cpu op-remarks=false" -verify-diagnostics -o /dev/null

// A store of the argument into the global: one kernel, the copy (reads 4 B, writes 4 B:
// dram 8); the global is written, not read: no parameter bytes.
// CHECK: remark: metrale.budget @store on mlir-cpu (native): {{.*}} param_bytes=0 dispatches=1 dram_bytes=8{{[[:>:]]}}
ml_program.global private mutable @s(dense<0.0> : tensor<f32>) : tensor<f32>
// expected-remark-re @below {{metrale.budget @store on mlir-cpu (native): {{.*}} param_bytes=0 dispatches=1 dram_bytes=8{{[[:>:]]}}}}
func.func @store(%a: tensor<f32>) {
  ml_program.global_store @s = %a : tensor<f32>
  return
}

// -----

// A load of a mutable 8 x f32 global, returned: a copy into a fresh buffer (returned
// values are the caller's): one kernel reading the global's 32 B (param_bytes 32) and
// writing 32 B: dram 64.
// CHECK: remark: metrale.budget @load on mlir-cpu (native): {{.*}} param_bytes=32 dispatches=1 dram_bytes=64{{[[:>:]]}}
ml_program.global private mutable @w(dense<1.0> : tensor<8xf32>) : tensor<8xf32>
// expected-remark-re @below {{metrale.budget @load on mlir-cpu (native): {{.*}} param_bytes=32 dispatches=1 dram_bytes=64{{[[:>:]]}}}}
func.func @load() -> tensor<8xf32> {
  %0 = ml_program.global_load @w : tensor<8xf32>
  return %0 : tensor<8xf32>
}
