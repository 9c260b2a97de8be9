// Load time (metrale/budget.h): on a target that hoists parameters, parameter-only nodes
// run once when the model loads; a run reads their results as weights. h100 hoists;
// mlir-cpu (upstream MLIR) does not.
// RUN: metrale-opt %s --metrale-budget="target=h100 op-remarks=false" 2>/dev/null | FileCheck %s --check-prefix=H100
// RUN: metrale-opt %s --metrale-budget="target=mlir-cpu op-remarks=false" 2>/dev/null | FileCheck %s --check-prefix=CPU
// RUN: metrale-opt %s --metrale-memory="target=h100 rows=0" 2>/dev/null | FileCheck %s --check-prefix=MEM
//
// @two: the transpose of the weight %w (64x64xf32 = 16384 B, no larger than %w) reads
// only a parameter: hoisted. Two matmuls read its result (8x64xf32 inputs and results,
// 2048 B each). On h100: 2 dispatches (the matmuls), 1 load-time node of 16384 B; the
// arena holds only the two returned results, 2 x 2048 = 4096 (without hoisting the
// transposed weight would be a dispatch and a 16384 B slot read by both). param_bytes:
// the run reads the transposed copy, not %w: 16384. DRAM: each matmul reads its input
// 2048 and the copy 16384 and writes 2048: 2 x 20480 = 40960.
// H100-LABEL: func.func @two
// H100-SAME: arena_bytes = 4096 : i64
// H100-SAME: {{[[:<:]]}}dispatches = 2 : i64
// H100-SAME: dram_bytes = 40960 : i64
// H100-SAME: load_time_bytes = 16384 : i64
// H100-SAME: load_time_dispatches = 1 : i64
// H100-SAME: param_bytes = 16384 : i64
// mlir-cpu runs the transpose every time: the transpose, the 2 matmuls and their inits'
// 2 fills (a fill folds only into a generic) = 5 kernels; no load time.
// CPU-LABEL: func.func @two
// CPU-SAME: {{[[:<:]]}}dispatches = 5 : i64
// CPU-SAME: load_time_bytes = 0 : i64
// CPU-SAME: load_time_dispatches = 0 : i64
// CPU-SAME: param_bytes = 16384 : i64
// The memory model reads the same decision: the copy is a derived weight, and it replaces
// %w (h100 replaces sources).
// MEM: metrale.memory = {
// MEM-SAME: weights_derived = 16384 : i64
// MEM-SAME: weights_replaced = 16384 : i64
// MEM-SAME: weights_stored = 16384 : i64
func.func @two(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>, %w: tensor<64x64xf32> {metrale.param}) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %wt = linalg.transpose ins(%w : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) permutation = [1, 0]
  %o = tensor.empty() : tensor<8x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%o : tensor<8x64xf32>) -> tensor<8x64xf32>
  %a = linalg.matmul ins(%x, %wt : tensor<8x64xf32>, tensor<64x64xf32>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
  %o2 = tensor.empty() : tensor<8x64xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%o2 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %c = linalg.matmul ins(%y, %wt : tensor<8x64xf32>, tensor<64x64xf32>) outs(%z2 : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %a, %c : tensor<8x64xf32>, tensor<8x64xf32>
}
