// The dispatch parameters from upstream DLTI: the h100 made a megakernel with a 5 us
// floor, results in place. Same graph as @f of targets.mlir (h100: 1 dispatch, 1 ns of
// work, host link 7 ns): latency 1 + 5000 + 7 = 5008; in place: the 256 B arena only.
// RUN: metrale-opt %s --split-input-file --metrale-dispatch -o /dev/null -verify-diagnostics

module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "GPU" = #dlti.target_device_spec<"metrale.target" = "h100",
        "execution_model" = "megakernel", "launch_floor_ns" = 5000 : i64,
        "results_in_place" = true, "allocation_model" = "arena">>} {
  // expected-remark @+1 {{metrale.dispatch @f on h100 (megakernel, arena): input_bytes=144 output_bytes=256 readback_bytes=256 bytes_moved=400 device_allocation_bytes=256 device_allocation_events=1 device_allocation_peak_bytes=256 latency_ns=5008 output_buffers=1 resident_resource_rows=1 resident_resource_handles=1 kernel_launches=1 sync_points=1 recovered_after_device_loss=false output_bytes_per_second=51118210 readback_bytes_per_second=51118210 bytes_moved_per_second=79872204 device_allocation_bytes_per_second=51118210 complete=true}}
  func.func @f(%x: tensor<4x8xf32>, %w: tensor<8x16xf32> {metrale.param}) -> tensor<4x16xf32> {
    %e = tensor.empty() : tensor<4x16xf32>
    %c = arith.constant 0.0 : f32
    %z = linalg.fill ins(%c : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
    %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
    %r = arith.addf %m, %m : tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
}

// -----

// A misspelt model is an error naming the entry and what it accepts.
// expected-error @+1 {{dlti.target_device_spec entry "execution_model" must be "kernels" or "megakernel"}}
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "GPU" = #dlti.target_device_spec<"metrale.target" = "h100", "execution_model" = "mega">>} {
  func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{dlti.target_device_spec entry "peak_flops_f32" is out of range (1 to 18446744073709551615)}}
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "GPU" = #dlti.target_device_spec<"metrale.target" = "h100", "peak_flops_f32" = 0 : i64>>} {
  func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
