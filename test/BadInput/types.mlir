// The type matrix: every kind of value gets its storage-width bytes (passes/ir/types.h) or
// is flagged with a warning at its op and makes the report incomplete. Each function
// returns nothing, so host_io_bytes is the sum of its arguments' bytes.
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false" 2>/dev/null | FileCheck %s
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false" -verify-diagnostics -o /dev/null
// RUN: metrale-opt %s --metrale-memory="target=host-cpu rows=0" 2>&1 | FileCheck %s --check-prefix=MEM
// RUN: metrale budget %s --target host-cpu 2>&1 | FileCheck %s --check-prefix=CLI
// CLI: types.mlir:[[@LINE+50]]:1: warning: argument #0 of type tensor<*xf32> is unranked: counted as 0 bytes, so the report is a lower bound
// CLI: @unsized on host-cpu (native widths)
// CLI-NEXT: (incomplete: byte counts are lower bounds)

// 0-d: one element (4); zero-size: 0; i1: one byte each (3); i4: packed (8 x 4 bits = 4);
// i17: 24 bits each (2 x 3 = 6); index on host-cpu: 64 bits (2 x 8 = 16).
// 4 + 0 + 3 + 4 + 6 + 16 = 33.
// CHECK-LABEL: func.func @ints
// CHECK-SAME: {{[[:<:]]}}complete = true
// CHECK-SAME: host_io_bytes = 33 : i64
// expected-remark-re @below {{host_io_bytes=33{{[[:>:]]}}}}
func.func @ints(%a: tensor<f32>, %b: tensor<0x7xf32>, %c: tensor<3xi1>, %d: tensor<8xi4>,
                %e: tensor<2xi17>, %f: tensor<2xindex>) {
  return
}

// complex<f32>: 8 per element (2 x 8 = 16); f8E4M3FN: 1 (4); f6E2M3FN: 6 bits (4 x 6 =
// 24 bits = 3); f4E2M1FN: 4 bits (3 x 4 = 12 bits, rounded up to 2); bf16: 2 (2); tf32:
// stored as 32 bits (4); f80: 16 bytes (16). 16 + 4 + 3 + 2 + 2 + 4 + 16 = 47.
// CHECK-LABEL: func.func @floats
// CHECK-SAME: host_io_bytes = 47 : i64
// expected-remark-re @below {{host_io_bytes=47{{[[:>:]]}}}}
func.func @floats(%a: tensor<2xcomplex<f32>>, %b: tensor<4xf8E4M3FN>, %c: tensor<4xf6E2M3FN>,
                  %d: tensor<3xf4E2M1FN>, %e: tensor<1xbf16>, %f: tensor<1xtf32>,
                  %g: tensor<1xf80>) {
  return
}

// Quantized: its storage type (i8: 4 x 1 = 4); a memref like a tensor (4 x 4 = 16); a
// tensor of vectors: lanes x width (2 x vector<4xf32> = 2 x 16 = 32). 4 + 16 + 32 = 52.
// CHECK-LABEL: func.func @mixed
// CHECK-SAME: host_io_bytes = 52 : i64
// expected-remark-re @below {{host_io_bytes=52{{[[:>:]]}}}}
func.func @mixed(%a: tensor<4x!quant.uniform<i8:f32, 0.5>>, %b: memref<4xf32>,
                 %c: tensor<2xvector<4xf32>>) {
  return
}

// Unranked, sparse and scalable values have no dense byte size: 0 bytes each, a warning
// each, complete = false.
// CHECK-LABEL: func.func @unsized
// CHECK-SAME: {{[[:<:]]}}complete = false
// CHECK-SAME: host_io_bytes = 0 : i64
// MEM: warning: argument #1 of type tensor<8x8xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> is not stored as its dense element count
// MEM: metrale.memory = {{.*}}complete = false
// expected-warning @below {{argument #0 of type tensor<*xf32> is unranked: counted as 0 bytes, so the report is a lower bound}}
// expected-warning @below {{argument #1 of type tensor<8x8xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> is not stored as its dense element count (a tensor encoding such as #sparse_tensor.encoding, or a scalable vector): counted as 0 bytes, so the report is a lower bound}}
// expected-warning @below {{argument #2 of type tensor<2xvector<[4]xf32>> is not stored as its dense element count}}
// expected-warning @below {{argument #3 of type tensor<2x!llvm.ptr> has an element type without a storage width: counted as 0 bytes, so the report is a lower bound}}
// expected-remark-re @below {{host_io_bytes=0{{[[:>:]]}}}}
func.func @unsized(%a: tensor<*xf32>,
                   %b: tensor<8x8xf32, #sparse_tensor.encoding<{map = (d0, d1) -> (d0 : dense, d1 : compressed)}>>,
                   %c: tensor<2xvector<[4]xf32>>, %d: tensor<2x!llvm.ptr>) {
  return
}

// A value returned twice counts twice in host I/O (two results leave the function):
// 16 in + 2 x 16 out = 48; it has one slot.
// CHECK-LABEL: func.func @twice
// CHECK-SAME: host_io_bytes = 48 : i64
// expected-remark-re @below {{host_io_bytes=48{{[[:>:]]}}}}
func.func @twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = arith.addf %x, %x : tensor<4xf32>
  return %0, %0 : tensor<4xf32>, tensor<4xf32>
}

// An elided dense_resource has a shape: its bytes are known (4 x 4 = 16 read).
// CHECK-LABEL: func.func @elided
// CHECK-SAME: param_bytes = 16 : i64
// expected-remark-re @below {{param_bytes=16{{[[:>:]]}}}}
func.func @elided(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = arith.constant dense_resource<__elided__> : tensor<4xf32>
  %0 = arith.addf %x, %w : tensor<4xf32>
  return %0 : tensor<4xf32>
}
