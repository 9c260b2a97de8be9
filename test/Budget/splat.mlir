// A splat constant (every element one value) is a fill, not a weight (metrale/graph.h,
// MET_ROLE_SPLAT; metrale/budget.h, Constants). On host-cpu (metrale's fusion model) it
// is read from no memory and counts in no param_bytes. On mlir-cpu (upstream MLIR) it is
// folded into a linalg.generic's body as a scalar when a generic reads it as an input,
// and is a global otherwise (read, copied when it is an init, a resident row).
// test/Run/splat.test runs these functions and checks the mlir-cpu numbers against a run.
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false" 2>/dev/null | FileCheck %s --check-prefix=CPU
// RUN: metrale-opt %s --metrale-budget="target=mlir-cpu op-remarks=false" 2>/dev/null | FileCheck %s --check-prefix=MLIR
// RUN: metrale-opt %s --metrale-dispatch="target=mlir-cpu" 2>/dev/null | FileCheck %s --check-prefix=DISP
// RUN: metrale-opt %s --metrale-memory="target=host-cpu rows=0" 2>/dev/null | FileCheck %s --check-prefix=MEM

// The model's stored weights: @dense's constant 4 x 4 B = 16 and @conv's parameter %w
// 3 x 3 x 4 B = 36: 52. No splat counts.
// MEM: metrale.memory = {
// MEM-SAME: weights_stored = 52 : i64

// A splat read by an elementwise op: DRAM reads %x 16 and writes the result 16 = 32;
// no parameter bytes, no resident row, on either target.
// CPU-LABEL: func.func @splat
// CPU-SAME: dram_bytes = 32 : i64
// CPU-SAME: param_bytes = 0 : i64
// MLIR-LABEL: func.func @splat
// MLIR-SAME: dram_bytes = 32 : i64
// MLIR-SAME: param_bytes = 0 : i64
// DISP-LABEL: func.func @splat
// DISP-SAME: resident_resource_rows = 0 : i64
func.func @splat(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<2.0> : tensor<4xf32>
  %0 = arith.mulf %x, %c : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// The same with a constant that is not a splat: it is read (16 B more DRAM: 48), stored
// (param_bytes 16) and bound (1 resident row).
// CPU-LABEL: func.func @dense
// CPU-SAME: dram_bytes = 48 : i64
// CPU-SAME: param_bytes = 16 : i64
// MLIR-LABEL: func.func @dense
// MLIR-SAME: dram_bytes = 48 : i64
// MLIR-SAME: param_bytes = 16 : i64
// DISP-LABEL: func.func @dense
// DISP-SAME: resident_resource_rows = 1 : i64
func.func @dense(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = arith.mulf %x, %c : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// A splat as a matmul's init (4x4xf32 = 64 B). host-cpu: filled in place by the matmul's
// dispatch: 1 dispatch, DRAM %a 64 + %b 64 + result 64 = 192, no parameter bytes.
// mlir-cpu: a global (param_bytes 64) copied into a fresh buffer first: 2 kernels (copy,
// matmul), 1 resident row. DRAM: the copy reads the global 64 and writes the buffer 64;
// the matmul reads %a 64 and %b 64 and accumulates into the buffer, reading it 64 and
// writing it 64: 128 + 256 = 384.
// CPU-LABEL: func.func @init
// CPU-SAME: {{[[:<:]]}}dispatches = 1 : i64
// CPU-SAME: dram_bytes = 192 : i64
// CPU-SAME: param_bytes = 0 : i64
// MLIR-LABEL: func.func @init
// MLIR-SAME: {{[[:<:]]}}dispatches = 2 : i64
// MLIR-SAME: dram_bytes = 384 : i64
// MLIR-SAME: param_bytes = 64 : i64
// DISP-LABEL: func.func @init
// DISP-SAME: kernel_launches = 2 : i64
// DISP-SAME: resident_resource_rows = 1 : i64
func.func @init(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %z = arith.constant dense<0.0> : tensor<4x4xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// TOSA: the zero points are compile-time operands (read as attributes) and the splat
// bias is taken into the lowering's bias broadcast as a scalar: neither is a data operand.
// DRAM %x 4x4x4 = 64 + %w 36 + result 2x2x4 = 16: 116; param_bytes only %w's 36.
// mlir-cpu: the bias broadcast and the convolution: 2 kernels; one row (%w). The
// broadcast of the splat bias writes the result's buffer (16, reading nothing: the
// scalar is in its body) and the convolution accumulates into it (reads 16, writes 16):
// DRAM 16 + %x 64 + %w 36 + 16 + 16 = 148.
// CPU-LABEL: func.func @conv
// CPU-SAME: dram_bytes = 116 : i64
// CPU-SAME: param_bytes = 36 : i64
// MLIR-LABEL: func.func @conv
// MLIR-SAME: {{[[:<:]]}}dispatches = 2 : i64
// MLIR-SAME: dram_bytes = 148 : i64
// MLIR-SAME: param_bytes = 36 : i64
// DISP-LABEL: func.func @conv
// DISP-SAME: resident_resource_rows = 1 : i64
func.func @conv(%x: tensor<1x4x4x1xf32>, %w: tensor<1x3x3x1xf32> {metrale.param}) -> tensor<1x2x2x1xf32> {
  %bias = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x1xf32>, tensor<1x3x3x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32>
  return %0 : tensor<1x2x2x1xf32>
}
