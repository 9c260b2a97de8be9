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

// -----

// A matmul whose FLOPs pass 2^64: 2 x 2^20 x 2^20 x 2^24 = 2^65 (its operands' bytes fit:
// 2^46 each). The dispatch stats name the overflow (issue 38: "FLOPs not known").
// RUN: not metrale-opt %s -split-input-file --metrale-dispatch -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLOPS
// FLOPS: overflow.mlir:[[@LINE+6]]:8: warning: the FLOPs of 'linalg.matmul' overflow 64 bits (its iteration domain times the ops of its body, or its shape's product, passes 2^64): counted as 0, so latency_ns of @flops is a lower bound{{$}}
// expected-remark-re @below {{metrale.budget @flops on host-cpu (native): arena_bytes={{[0-9]+}}{{[[:>:]]}}}}
func.func @flops(%a: tensor<1048576x16777216xf32> {metrale.param}, %b: tensor<16777216x1048576xf32> {metrale.param}) -> tensor<1048576x1048576xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1048576x1048576xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<1048576x1048576xf32>) -> tensor<1048576x1048576xf32>
  %m = linalg.matmul ins(%a, %b : tensor<1048576x16777216xf32>, tensor<16777216x1048576xf32>) outs(%f : tensor<1048576x1048576xf32>) -> tensor<1048576x1048576xf32>
  return %m : tensor<1048576x1048576xf32>
}
