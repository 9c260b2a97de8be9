// Bad declarations and options get a located error (or a remark for what is missing).
// RUN: not metrale-opt %s -split-input-file --metrale-memory="target=h100 sequences=8 tokens=1024 rows=0" -o /dev/null 2>&1 | FileCheck %s
// RUN: not metrale-opt %s -split-input-file --metrale-memory="util=1.5 rows=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UTIL
// RUN: not metrale-opt %s -split-input-file --metrale-memory="states=2-1 rows=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATES
// UTIL: error: invalid util='1.5': expected a fraction in (0, 1] exact to 6 decimals, such as 0.9{{$}}
// STATES: error: invalid states='2-1': a range ends before it starts

// CHECK: errors.mlir:[[@LINE+1]]:1: error: metrale.kv_pool entry 'layers' must be an integer
module attributes {metrale.kv_pool = {layers = "many", kv_heads = 8 : i64, head_dim = 64 : i64, block_size = 16 : i64, dtype = f16}} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
}

// -----

// A draft head without its KV type: nothing is defaulted, the pool sizes nothing.
// CHECK: errors.mlir:[[@LINE+1]]:1: warning: the KV pool is declared but sizes nothing (counted as 0 bytes, so the report is a lower bound): missing the draft head's shape or dtype
module attributes {metrale.kv_pool = {layers = 2 : i64, kv_heads = 8 : i64, head_dim = 64 : i64, block_size = 16 : i64, dtype = f16, draft = {layers = 1 : i64, kv_heads = 8 : i64, head_dim = 64 : i64}}} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
}

// -----

// CHECK: errors.mlir:[[@LINE+1]]:1: error: metrale.caches entry #0 needs a name (it needs name, units and bytes)
module attributes {metrale.caches = [{units = 2 : i64, bytes = 64 : i64}]} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
}

// -----

// The conv workspace rule needs the size of every operand; a dynamic input has none.
func.func @conv(%x: tensor<?x3x32x32xf32>, %w: tensor<8x3x3x3xf32> {metrale.param}) -> tensor<?x8x30x30xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x3x32x32xf32>
  %e = tensor.empty(%n) : tensor<?x8x30x30xf32>
  // CHECK: errors.mlir:[[@LINE+1]]:8: error: the conv workspace rule of target 'h100' needs the size of every operand of 'linalg.conv_2d_nchw_fchw', and one has dynamic dims or no size (bind them with dynamic-size=N)
  %y = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<?x3x32x32xf32>, tensor<8x3x3x3xf32>) outs(%e : tensor<?x8x30x30xf32>) -> tensor<?x8x30x30xf32>
  return %y : tensor<?x8x30x30xf32>
}

// -----

// 2^60 sequences: the pool's block count x block size x ... passes 2^64 bytes.
// RUN: not metrale-opt %s -split-input-file --metrale-memory="target=h100 sequences=1152921504606846976 tokens=4096 rows=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: the paged KV pool for 1152921504606846976 sequences x 4096 tokens has no byte size: blocks x block_size x 2 x layers x kv_heads x head_dim x KV bytes overflows 64 bits

// 2^64 - 1 tokens in blocks of 1 (issue 26: the blocks per sequence wrapped to 0, "kv = 4 B",
// "fits"): the command says the term overflows and exits 1.
// RUN: not metrale memory %S/../BadInput/Inputs/small.mlir --kv-pool layers=1,kv_heads=1,head_dim=1,block_size=1 --kv-dtype f16 --sequences 1 --tokens 18446744073709551615 2>&1 | FileCheck %s --check-prefix=WRAP --implicit-check-not=fits
// WRAP: error: the paged KV pool for 1 sequences x 18446744073709551615 tokens has no byte size: {{.*}}overflows 64 bits
module attributes {metrale.kv_pool = {layers = 32 : i64, kv_heads = 32 : i64, head_dim = 128 : i64, block_size = 16 : i64, dtype = f16}} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
}
