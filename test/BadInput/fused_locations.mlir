// Class 1: fused locations with more parts than any fixed buffer (here 12, as CSE and
// canonicalization make them). The C API writes every part into the caller's array, so
// the array is sized from mlirLocationFusedGetNumLocations; the first part with a file
// location is where the diagnostic goes (deep.mlir:7:9, the 12th part).
// RUN: metrale-opt %s --allow-unregistered-dialect --metrale-budget -o /dev/null 2>&1 | FileCheck %s
// RUN: metrale-opt %s --allow-unregistered-dialect --metrale-memory=rows=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=MEM
// RUN: metrale budget %s --allow-unregistered-dialect --remarks --json - 2>&1 | FileCheck %s --check-prefix=CLI

// CHECK: deep.mlir:7:9: remark: 'test.unknown' is not a registered op: counted conservatively as its own dispatch, off the fast path of target 'host-cpu' (16 bytes of results)
// CHECK: remark: metrale.budget @f on host-cpu (native): {{.*}} complete=true
// The arena: %0 and %1 (16 B each, aligned to 64) are live together: 128 B.
// MEM: remark: memory on host-cpu
// MEM: activations{{ +}}128{{[[:>:]]}}
// CLI: "op": "arith.addf", "loc": "deep.mlir:7:9"
// CLI: "op": "test.unknown", "loc": "deep.mlir:7:9"
// A fused location whose parts have none, then a call site: the callee's location.
// CLI: "op": "arith.mulf", "loc": "callee.mlir:3:1"
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %x, %x : tensor<4xf32> loc(fused["part0", "part1", "part2", "part3", "part4", "part5", "part6", "part7", "part8", "part9", "part10", "deep.mlir":7:9])
  %1 = "test.unknown"(%0) : (tensor<4xf32>) -> tensor<4xf32> loc(fused["part0", "part1", "part2", "part3", "part4", "part5", "part6", "part7", "part8", "part9", "part10", "deep.mlir":7:9])
  %2 = arith.mulf %1, %1 : tensor<4xf32> loc(fused[fused["a", "b", "c", "d", "e", "f", "g", "h", "i"], callsite("callee.mlir":3:1 at "caller.mlir":5:2)])
  return %2 : tensor<4xf32>
}
