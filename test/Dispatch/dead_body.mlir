// A dead scalar op in a linalg body (metrale/graph.h, Dead ops) runs in no kernel: it
// adds no FLOPs, and the body's computation is what is left. The numbers are also those
// after `mlir-opt --canonicalize` (second RUN line).
// RUN: metrale-opt %s "--metrale-dispatch=target=npu per-dispatch=true" -o /dev/null 2>&1 | FileCheck %s
// RUN: mlir-opt %s --canonicalize | metrale-opt "--metrale-dispatch=target=npu per-dispatch=true" -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: is dead

#map = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
// A 256 x 256 reduction whose body adds (one FLOP each) beside a dead mulf: 65536 FLOPs
// (131072 when the mulf was counted, and a mul+add body read as a matmul).
// CHECK: remark: dispatch 0 of @red: linalg.generic: {{[0-9]+}} bytes, 65536 FLOPs
func.func @red(%x: tensor<256x256xf32>, %init: tensor<256xf32>) -> tensor<256xf32> {
  %r = linalg.generic {indexing_maps = [#map, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<256x256xf32>) outs(%init : tensor<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %dead = arith.mulf %in, %in : f32
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}

// Elementwise over 256 x 256: exp, log and tanh feed nothing (tanh is unused, so log and
// exp are dead after it); the addf is the one FLOP per element: 65536.
// CHECK: remark: dispatch 0 of @ew: linalg.generic: {{[0-9]+}} bytes, 65536 FLOPs
func.func @ew(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %e = tensor.empty() : tensor<256x256xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d1 = math.exp %in : f32
    %d2 = math.log %d1 : f32
    %d3 = math.tanh %d2 : f32
    %a = arith.addf %in, %in : f32
    linalg.yield %a : f32
  } -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
