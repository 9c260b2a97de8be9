// A gather spelled as a linalg.generic (an embedding lookup as torch-mlir and buddy-mlir
// emit it): the body reads the captured table by tensor.extract once per iteration, so
// the op reads at most one element per iteration of it, not the whole table (graph.h,
// operand_bound). Table 1000x64xf32 = 256000 B, marked a parameter; ids 1x8xi64 = 64 B;
// the result 1x8x64xf32 = 2048 B.
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false params=0" 2>/dev/null | FileCheck %s
// RUN: metrale-opt %s --metrale-budget="target=mlir-cpu op-remarks=false params=0" 2>/dev/null | FileCheck %s --check-prefix=CPU

#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// 8 tokens x 64 columns = 512 loads of 4 B: 2048 B of the table read (param_bytes), and
// the dispatch reads 2048 + the ids 64 and writes 2048: dram 4160.
// CHECK-LABEL: func.func @lookup(
// CHECK-SAME: {{[[:<:]]}}dram_bytes = 4160 : i64
// CHECK-SAME: {{[[:<:]]}}param_bytes = 2048 : i64
// On mlir-cpu the generic runs over buffers and loads by memref.load: the same rows.
// CPU-LABEL: func.func @lookup(
// CPU-SAME: {{[[:<:]]}}param_bytes = 2048 : i64
func.func @lookup(%table: tensor<1000x64xf32>, %ids: tensor<1x8xi64>) -> tensor<1x8x64xf32> {
  %e = tensor.empty() : tensor<1x8x64xf32>
  %r = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<1x8xi64>) outs(%e : tensor<1x8x64xf32>) {
  ^bb0(%in: i64, %o: f32):
    %i = arith.index_cast %in : i64 to index
    %j = linalg.index 2 : index
    %v = tensor.extract %table[%i, %j] : tensor<1000x64xf32>
    linalg.yield %v : f32
  } -> tensor<1x8x64xf32>
  return %r : tensor<1x8x64xf32>
}

// Two loads per iteration (two rows summed): 2 x 512 x 4 = 4096 B of the table.
// CHECK-LABEL: func.func @two_loads(
// CHECK-SAME: {{[[:<:]]}}param_bytes = 4096 : i64
func.func @two_loads(%table: tensor<1000x64xf32>, %ids: tensor<1x8xi64>) -> tensor<1x8x64xf32> {
  %e = tensor.empty() : tensor<1x8x64xf32>
  %c1 = arith.constant 1 : index
  %r = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<1x8xi64>) outs(%e : tensor<1x8x64xf32>) {
  ^bb0(%in: i64, %o: f32):
    %i = arith.index_cast %in : i64 to index
    %i1 = arith.addi %i, %c1 : index
    %j = linalg.index 2 : index
    %v = tensor.extract %table[%i, %j] : tensor<1000x64xf32>
    %w = tensor.extract %table[%i1, %j] : tensor<1000x64xf32>
    %s = arith.addf %v, %w : f32
    linalg.yield %s : f32
  } -> tensor<1x8x64xf32>
  return %r : tensor<1x8x64xf32>
}

// A load inside a loop of the body runs more than once an iteration: no bound, the whole
// table (256000 B).
// CHECK-LABEL: func.func @load_in_loop(
// CHECK-SAME: {{[[:<:]]}}param_bytes = 256000 : i64
func.func @load_in_loop(%table: tensor<1000x64xf32>, %ids: tensor<1x8xi64>) -> tensor<1x8x64xf32> {
  %e = tensor.empty() : tensor<1x8x64xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<1x8xi64>) outs(%e : tensor<1x8x64xf32>) {
  ^bb0(%in: i64, %o: f32):
    %i = arith.index_cast %in : i64 to index
    %j = linalg.index 2 : index
    %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %z) -> f32 {
      %ik = arith.addi %i, %k : index
      %v = tensor.extract %table[%ik, %j] : tensor<1000x64xf32>
      %n = arith.addf %a, %v : f32
      scf.yield %n : f32
    }
    linalg.yield %acc : f32
  } -> tensor<1x8x64xf32>
  return %r : tensor<1x8x64xf32>
}

// A reduction (a loop that is not parallel) runs more iterations than its init has
// elements: no bound, the whole table.
// CHECK-LABEL: func.func @reduction(
// CHECK-SAME: {{[[:<:]]}}param_bytes = 256000 : i64
func.func @reduction(%table: tensor<1000x64xf32>, %ids: tensor<8x4xi64>) -> tensor<8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%ids : tensor<8x4xi64>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: i64, %o: f32):
    %i = arith.index_cast %in : i64 to index
    %c0 = arith.constant 0 : index
    %v = tensor.extract %table[%i, %c0] : tensor<1000x64xf32>
    %s = arith.addf %o, %v : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
