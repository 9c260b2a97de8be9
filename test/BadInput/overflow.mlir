// Class 5: a 64-bit overflow says overflow and names the field (never "out of memory").
// RUN: metrale-opt %s -split-input-file --metrale-budget=op-remarks=false -verify-diagnostics -o /dev/null
// RUN: not metrale-opt %s -split-input-file --metrale-memory=rows=0 -o /dev/null 2>&1 | FileCheck %s --check-prefix=MEM

// Two inputs of 2^60 f64 elements, 2^63 bytes each: host I/O 2^64 overflows.
// MEM: overflow.mlir:[[@LINE+2]]:1: error: metrale-memory could not evaluate @io: its host_io_bytes overflows 64 bits
// expected-error @below {{metrale-budget could not evaluate @io: its host_io_bytes overflows 64 bits}}
func.func @io(%a: tensor<1152921504606846976xf64>, %b: tensor<1152921504606846976xf64>) {
  return
}

// -----

// One element count whose bytes pass 2^64 (2^62 f64 = 2^65 B) has no size at all.
// expected-error @below {{argument #0 of type tensor<4611686018427387904xf64> has no byte size: its element count times its storage width overflows 64 bits}}
func.func @huge(%a: tensor<4611686018427387904xf64>) {
  return
}
