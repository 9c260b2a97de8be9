// A gather reads of its table only the rows its indices select (MET_NODE_F_GATHER;
// budget_fields.def, dram_bytes): at most its result's bytes, an upper bound that is
// tight unless indices repeat. param_bytes, what the run reads of its weights, counts
// the same rows (never more than dram_bytes); the table stays a whole stored weight in
// the memory model (weights_stored).
// RUN: metrale-opt %s --metrale-budget="target=host-cpu op-remarks=false" 2>/dev/null | FileCheck %s

// An embedding lookup: table 1 x 1000 x 64 f32 = 256000 B (a parameter), 4 indices
// (16 B): the result is 1 x 4 x 64 f32 = 1024 B. One dispatch reads 1024 B of rows and
// the 16 B of indices and writes the returned 1024 B: 2064 (the whole table would be
// 256000 + 16 + 1024 = 257040). Of the parameter the run reads the 1024 B of rows.
// CHECK-LABEL: func.func @embed
// CHECK-SAME: dram_bytes = 2064 : i64
// CHECK-SAME: param_bytes = 1024 : i64
func.func @embed(%table: tensor<1x1000x64xf32> {metrale.param}, %ids: tensor<1x4xi32>) -> tensor<1x4x64xf32> {
  %0 = tosa.gather %table, %ids : (tensor<1x1000x64xf32>, tensor<1x4xi32>) -> tensor<1x4x64xf32>
  return %0 : tensor<1x4x64xf32>
}

// tensor.gather of 8 rows of a 100 x 16 f32 table (6400 B): the result 8 x 1 x 16 f32 is
// 512 B; indices 8 x 1 index = 64 B. DRAM 512 + 64 + 512 = 1088; parameter rows 512.
// CHECK-LABEL: func.func @rows
// CHECK-SAME: dram_bytes = 1088 : i64
// CHECK-SAME: param_bytes = 512 : i64
func.func @rows(%table: tensor<100x16xf32> {metrale.param}, %ids: tensor<8x1xindex>) -> tensor<8x1x16xf32> {
  %0 = tensor.gather %table[%ids] gather_dims([0]) : (tensor<100x16xf32>, tensor<8x1xindex>) -> tensor<8x1x16xf32>
  return %0 : tensor<8x1x16xf32>
}

// A gather whose result is larger than its table (indices repeat): the table's bytes.
// Table 1 x 2 x 4 f32 = 32 B; 16 indices (64 B); result 1 x 16 x 4 f32 = 256 B.
// DRAM 32 + 64 + 256 = 352; the parameter, read whole: 32.
// CHECK-LABEL: func.func @repeat
// CHECK-SAME: dram_bytes = 352 : i64
// CHECK-SAME: param_bytes = 32 : i64
func.func @repeat(%table: tensor<1x2x4xf32> {metrale.param}, %ids: tensor<1x16xi32>) -> tensor<1x16x4xf32> {
  %0 = tosa.gather %table, %ids : (tensor<1x2x4xf32>, tensor<1x16xi32>) -> tensor<1x16x4xf32>
  return %0 : tensor<1x16x4xf32>
}
