// Class 3: a scalar global is its element's bytes, a vector global its lanes' bytes; a
// global past 2^64 bytes is an error naming it.
// RUN: not metrale-opt %s -split-input-file --metrale-memory="target=h100 rows=0" 2>&1 >/dev/null | FileCheck %s --check-prefix=ERR
// RUN: not metrale-opt %s -split-input-file --metrale-memory="target=h100 rows=0" 2>/dev/null | FileCheck %s

// @s: i32 = 4 B; @v: vector<4xf32> = 16 B; @t: tensor<2305843009213693951xf64> =
// 2^61 - 1 elements x 8 B = 2^64 - 8 B, which fits in 64 bits although its bit count
// (2^67 - 64) does not. Stored: 4 + 16 + 18446744073709551608: that sum passes 2^64.
// ERR: error: the memory model's term 'weights_stored' overflows 64 bits
module {
  ml_program.global private @s(0 : i32) : i32
  ml_program.global private @v(dense<0.0> : vector<4xf32>) : vector<4xf32>
  ml_program.global private @t(dense<0.0> : tensor<2305843009213693951xf64>) : tensor<2305843009213693951xf64>
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
}

// -----

// Without @t: weights_stored = 4 + 16 = 20, all of it outside (no op loads them).
// CHECK-LABEL: metrale.memory
// CHECK-SAME: weights_outside = 20 : i64
// CHECK-SAME: weights_stored = 20 : i64
module {
  ml_program.global private @s(0 : i32) : i32
  ml_program.global private @v(dense<0.0> : vector<4xf32>) : vector<4xf32>
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
}

// -----

// 2^62 f64 elements are 2^65 bytes: no byte size, said at the global.
// ERR: globals.mlir:[[@LINE+2]]:3: error: global @huge of type tensor<4611686018427387904xf64> has no byte size: it has more bytes than 64 bits count
module {
  ml_program.global private @huge(dense<0.0> : tensor<4611686018427387904xf64>) : tensor<4611686018427387904xf64>
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
}
