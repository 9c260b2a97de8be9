// The JSON report: target parameters, budget fields, arguments and planned buffers.
// RUN: metrale-opt %s --metrale-budget="target=h100 json=-" -o /dev/null 2>/dev/null | FileCheck %s
// RUN: metrale-opt %s --metrale-budget="target=h100 json=%t.json" -o /dev/null 2>/dev/null
// RUN: FileCheck %s < %t.json

// CHECK: {"target": {"name": "h100", "description": "{{.*}}", "width_policy": "native", "alignment": 256, "index_bits": 64, "epilogue_fusion": true, "attention_fusion": true, "memory_bytes": 85899345920, "bandwidth_bytes_per_s": 3350000000000, "compute_units": 132, "default_util_ppm": 900000, "driver_context_bytes": 536870912, "driver_reserved_ppm": 0, "driver_chunk_bytes": 2097152, "workspace_matmul_per_unit_bytes": 262144, "workspace_conv_stages_operand": true, "workspace_softmax_per_unit_bytes": 65536, "workspace_reduction_per_unit_bytes": 4096, "hoists_parameters": true, "residency": "replace", "fusion": "iree", "execution_model": "kernels", "allocation_model": "arena", "results_in_place": false, "offload": true, "host_link_bytes_per_s": 64000000000, "launch_floor_ns": 3000, "peak_flops_f32": 67000000000000, "peak_flops_f16": 989000000000000, "peak_flops_int": 1979000000000000, "control_bytes_per_buffer": 8, "allocation_padding_bytes": 0, "fast_path": ["tosa.*",
// CHECK: "functions": [
// Positions: empty 0, matmul 1, empty 2, transpose 3, return 4. 8x8xf32 = 256 B. The
// matmul's result is returned too, so the transpose (elementwise, with a permuted map)
// cannot join its group (an open use besides it): 2 dispatches.
// Slot %0 [1,4] (returned) and slot %1 [3,4] (returned) overlap at 3: arena 512. Equal
// sizes: greedy by size places the earlier start first, %0 at 0 and %1 at 256. DRAM: matmul reads %x once (256), writes %0 (256); transpose reads %0, writes
// %1: 1024. Host I/O: %x 256 + the two results 512 = 768. The signature is the function
// type as MLIR prints it (what `metrale diff` compares inputs by).
// CHECK: {"name": "g", "signature": "(tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)", "complete": true, "budget": {"arena_bytes": 512, "plan": "lower-bound", "arena_bound_bytes": 512, "arena_gap_bytes": 0, "reuse_saved_bytes": 0, "width_overhead_bytes": 0, "width_policy": "native", "host_io_bytes": 768, "off_fast_path_ops": 0, "off_fast_path_bytes": 0, "cast_nodes": 0, "param_bytes": 0, "dispatches": 2, "dram_bytes": 1024, "peak_live_bytes": 512, "materialized_bytes": 512, "load_time_dispatches": 0, "load_time_bytes": 0},
// CHECK-SAME: "arguments": [{"index": 0, "bytes": 256, "role": "input", "uses": 2, "complete": true}],
// CHECK-SAME: "buffers": [{"value": "%1", "op": "linalg.matmul", "loc": "{{.*}}json.mlir:21:8", "bytes": 256, "first": 1, "last": 4, "offset": 0, "dispatch": 0},
// CHECK-SAME: {"value": "%transposed", "op": "linalg.transpose", "loc": "{{.*}}json.mlir:23:8", "bytes": 256, "first": 3, "last": 4, "offset": 256, "dispatch": 1}]}
func.func @g(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %e0 = tensor.empty() : tensor<8x8xf32>
  %0 = linalg.matmul ins(%x, %x : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %1 = linalg.transpose ins(%0 : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) permutation = [1, 0]
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}
