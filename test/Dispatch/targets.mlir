// Dispatch stats predicted on every kind of target, every field by hand.
// RUN: metrale-opt %s --split-input-file --metrale-dispatch="target=h100" -o /dev/null 2>&1 | FileCheck %s --check-prefix=H100
// RUN: metrale-opt %s --split-input-file --metrale-dispatch="target=mlir-cpu" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: metrale-opt %s --split-input-file --metrale-dispatch="target=h100-megakernel" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MEGA
// RUN: metrale-opt %s --split-input-file --metrale-dispatch="target=mobile-gpu-f32 per-dispatch=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MOB
// RUN: metrale-opt %s --split-input-file --metrale-dispatch="target=host-cpu" -o /dev/null 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: metrale-opt %s --split-input-file --metrale-dispatch="target=npu" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NPU

// @f: x 4x8xf32 = 128 B (input), w 8x16xf32 = 512 B (parameter), result 4x16xf32 = 256 B.
// FLOPs: fill 0, matmul 2 x 4 x 16 x 8 = 1024, addf 64: 1088.
//
// h100 (epilogue fusion, arena, 8-byte pointers, offload over 64 GB/s, floor 3000 ns):
// input = 2 x 8 (control) + 128 (x) = 144; readback = the result, 256; moved 400.
// One dispatch (fill + matmul + addf). Arena: %r, 256 B (aligned to 256), plus a fresh
// result buffer of 256: 512 B in 2 allocations. Resident: w, once, in one kernel.
// Traffic of the dispatch: x 128 + w 512 + r 256 = 896 B: ceil(896 / 3350 GB/s) = 1 ns;
// ceil(1088 / 67 TFLOPS) = 1 ns; + 3000 floor = 3001; + ceil(400 / 64 GB/s) = 7: 3008.
// Rates: 256e9 / 3008 = 85106382; 400e9 / 3008 = 132978723; 512e9 / 3008 = 170212765.
// H100: metrale.dispatch @f on h100 (kernels, arena):
// H100-SAME: input_bytes=144{{[[:>:]]}}
// H100-SAME: output_bytes=256{{[[:>:]]}}
// H100-SAME: readback_bytes=256{{[[:>:]]}}
// H100-SAME: bytes_moved=400{{[[:>:]]}}
// H100-SAME: device_allocation_bytes=512{{[[:>:]]}}
// H100-SAME: device_allocation_events=2{{[[:>:]]}}
// H100-SAME: latency_ns=3008{{[[:>:]]}}
// H100-SAME: output_buffers=1{{[[:>:]]}}
// H100-SAME: resident_resource_rows=1{{[[:>:]]}}
// H100-SAME: resident_resource_handles=1{{[[:>:]]}}
// H100-SAME: kernel_launches=1{{[[:>:]]}}
// H100-SAME: sync_points=1{{[[:>:]]}}
// H100-SAME: recovered_after_device_loss=false
// H100-SAME: output_bytes_per_second=85106382{{[[:>:]]}}
// H100-SAME: readback_bytes_per_second=85106382{{[[:>:]]}}
// H100-SAME: bytes_moved_per_second=132978723{{[[:>:]]}}
// H100-SAME: device_allocation_bytes_per_second=170212765{{[[:>:]]}}
// H100-SAME: {{[[:<:]]}}complete=true
//
// mlir-cpu (upstream's fusion model, per-buffer with 64 B padding, memref descriptors,
// one core: 10 GB/s, 3 GFLOPS, no floor, no host link):
// input = 2 x (3 + 2 x 2) x 8 = 112 + 128 = 240; moved 240 + 256 = 496.
// Three kernels, as upstream's pipeline runs them: the fill, the matmul (named: it takes
// nothing in, and writes in place into the fill's buffer), and the addf (a generic).
// Buffers: %z (holding %m too) and %r: 2 x (256 + 64) = 640 B. Fill: writes 256 B: 26 ns.
// Matmul: x 128 + w 512 + %z 256 read + %m 256 written = 1152 B: 116 ns; 1024 FLOPs:
// ceil(341.3) = 342 ns (compute). Addf: reads %m 256, writes %r 256: 52 ns; 64 FLOPs:
// 22 ns. 26 + 342 + 52 = 420 ns.
// CPU: metrale.dispatch @f on mlir-cpu (kernels, per-buffer):
// CPU-SAME: input_bytes=240{{[[:>:]]}}
// CPU-SAME: bytes_moved=496{{[[:>:]]}}
// CPU-SAME: device_allocation_bytes=640{{[[:>:]]}}
// CPU-SAME: device_allocation_events=2{{[[:>:]]}}
// CPU-SAME: latency_ns=420{{[[:>:]]}}
// CPU-SAME: kernel_launches=3{{[[:>:]]}}
// CPU-SAME: sync_points=1{{[[:>:]]}}
//
// h100-megakernel: one launch, one floor; results in place: only the 256 B arena.
// Latency 1 (the one dispatch's work) + 3000 + 7 = 3008.
// MEGA: metrale.dispatch @f on h100-megakernel (megakernel, arena):
// MEGA-SAME: device_allocation_bytes=256{{[[:>:]]}}
// MEGA-SAME: device_allocation_events=1{{[[:>:]]}}
// MEGA-SAME: latency_ns=3008{{[[:>:]]}}
// MEGA-SAME: resident_resource_handles=1{{[[:>:]]}}
// MEGA-SAME: kernel_launches=1{{[[:>:]]}}
//
// npu (fill, matmul, addf all on its fast path; offload over 25.6 GB/s DMA, 50 us job
// floor, f32 at 1 TFLOPS): one dispatch, 896 B at 200 GB/s: 5 ns; 1088 FLOPs: 2 ns;
// + 50000 = 50005; + ceil(400 / 25.6 GB/s) = 16 ns: 50021.
// NPU: metrale.dispatch @f on npu (kernels, arena):
// NPU-SAME: input_bytes=144{{[[:>:]]}}
// NPU-SAME: device_allocation_bytes=512{{[[:>:]]}}
// NPU-SAME: latency_ns=50021{{[[:>:]]}}
// NPU-SAME: kernel_launches=1{{[[:>:]]}}
// NPU-SAME: sync_points=1{{[[:>:]]}}
func.func @f(%x: tensor<4x8xf32>, %w: tensor<8x16xf32> {metrale.param}) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %c = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = arith.addf %m, %m : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// @g: v 1x16x4xf32 = 256 B, idx 1x3xi32 = 12 B, %n an index passed by value; the gather
// and the add each 1x3x4xf32 = 48 B.
//
// mobile-gpu-f32: TF.js runs the gather as a shader (its GatherV2 kernel). Input = 2 x 8
// (control) + 4 (index: 32-bit) + 256 + 12 = 288; readback the result, 48; moved 336;
// one sync. Per-buffer: the gather's and the add's results, 48 + 48 = 96 B. Dispatch 0
// (gather): the 3 rows it selects, 48 B (not the whole 256 B table), + 12 + 48 = 108 B at
// 50 GB/s: 3 ns, 0 FLOPs, + 20000 floor: 20003 (launch-bound). Dispatch 1 (add): 48 +
// 48 = 96 B: 2 ns; 12 FLOPs at 2 TFLOPS: 1 ns; 20002. Host link: ceil(336 / 4 GB/s) =
// 84 ns. Latency 20003 + 20002 + 84 = 40089.
// MOB: remark: dispatch 0 of @g: tosa.gather: 108 bytes, 0 FLOPs, 20003 ns, launch-bound
// MOB: remark: dispatch 1 of @g: tosa.add: 96 bytes, 12 FLOPs, 20002 ns, launch-bound
// MOB: metrale.dispatch @g on mobile-gpu-f32 (kernels, per-buffer):
// MOB-SAME: input_bytes=288{{[[:>:]]}}
// MOB-SAME: output_bytes=48{{[[:>:]]}}
// MOB-SAME: readback_bytes=48{{[[:>:]]}}
// MOB-SAME: bytes_moved=336{{[[:>:]]}}
// MOB-SAME: device_allocation_bytes=96{{[[:>:]]}}
// MOB-SAME: device_allocation_events=2{{[[:>:]]}}
// MOB-SAME: latency_ns=40089{{[[:>:]]}}
// MOB-SAME: resident_resource_rows=0{{[[:>:]]}}
// MOB-SAME: kernel_launches=2{{[[:>:]]}}
// MOB-SAME: sync_points=1{{[[:>:]]}}
//
// host-cpu: the host runs the gather in place, no round trip. Input = descriptors
// (3 + 6) x 8 + (3 + 4) x 8 = 128, the index 8 B (64-bit), data 268: 404. Arena: the two
// 48 B results aligned to 64 overlap at the add: 128, plus a fresh 48 B result: 176 B in
// 2 allocations. Latency: the gather's 108 B at 200 GB/s, 1 ns (ceil), + 2000; the add's
// 96 B, 1 ns, + 2000: 4002.
// HOST: metrale.dispatch @g on host-cpu (kernels, arena):
// HOST-SAME: input_bytes=404{{[[:>:]]}}
// HOST-SAME: readback_bytes=48{{[[:>:]]}}
// HOST-SAME: device_allocation_bytes=176{{[[:>:]]}}
// HOST-SAME: device_allocation_events=2{{[[:>:]]}}
// HOST-SAME: latency_ns=4002{{[[:>:]]}}
// HOST-SAME: sync_points=1{{[[:>:]]}}
func.func @g(%v: tensor<1x16x4xf32>, %idx: tensor<1x3xi32>, %n: index) -> tensor<1x3x4xf32> {
  %g = tosa.gather %v, %idx : (tensor<1x16x4xf32>, tensor<1x3xi32>) -> tensor<1x3x4xf32>
  %r = tosa.add %g, %g : (tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  return %r : tensor<1x3x4xf32>
}

// -----

// An op off the target's fast path on an offloading target is a host round trip.
// @h: v 1x16x4xf32 = 256 B; the argmax and the add each 1x16xi32 = 64 B.
// mobile-gpu-f32: tosa.argmax is off its fast path (TF.js's WebGL backend has no such
// shader here). Input = 8 (control) + 256 + the argmax's result going down, 64 = 328.
// Readback = its operand 256 + the result 64 = 320. Moved 648. Syncs 1 + 1 = 2.
// Per-buffer: 64 + 64 = 128 B in 2. Dispatch 0 (argmax): 256 + 64 = 320 B at 50 GB/s:
// 7 ns (ceil), 64 compares at 2 TOPS: 1 ns; + 20000: 20007. Dispatch 1 (add): reads %a
// once, 64, writes 64: 128 B, 3 ns; 16 ops: 1 ns; 20003. Host link: ceil(648 / 4 GB/s) =
// 162 ns. Latency 20007 + 20003 + 162 = 40172.
// MOB: remark: dispatch 0 of @h: tosa.argmax: 320 bytes, 64 FLOPs, 20007 ns, launch-bound
// MOB: remark: dispatch 1 of @h: tosa.add: 128 bytes, 16 FLOPs, 20003 ns, launch-bound
// MOB: metrale.dispatch @h on mobile-gpu-f32 (kernels, per-buffer):
// MOB-SAME: input_bytes=328{{[[:>:]]}}
// MOB-SAME: output_bytes=64{{[[:>:]]}}
// MOB-SAME: readback_bytes=320{{[[:>:]]}}
// MOB-SAME: bytes_moved=648{{[[:>:]]}}
// MOB-SAME: device_allocation_bytes=128{{[[:>:]]}}
// MOB-SAME: device_allocation_events=2{{[[:>:]]}}
// MOB-SAME: latency_ns=40172{{[[:>:]]}}
// MOB-SAME: kernel_launches=2{{[[:>:]]}}
// MOB-SAME: sync_points=2{{[[:>:]]}}
func.func @h(%v: tensor<1x16x4xf32>) -> tensor<1x16xi32> {
  %a = tosa.argmax %v {axis = 2 : i32} : (tensor<1x16x4xf32>) -> tensor<1x16xi32>
  %b = tosa.add %a, %a : (tensor<1x16xi32>, tensor<1x16xi32>) -> tensor<1x16xi32>
  return %b : tensor<1x16xi32>
}

// -----

// Sub-byte integers: packed on the built-in device targets (8 x i4 = 4 B), a byte each
// on mlir-cpu, as LLVM lays them out and `metrale run` measures (8 B). Input on host-cpu:
// descriptor (3 + 2) x 8 = 40 + 4 = 44; on mlir-cpu 40 + 8 = 48.
// HOST: metrale.dispatch @q on host-cpu
// HOST-SAME: input_bytes=44{{[[:>:]]}}
// HOST-SAME: output_bytes=4{{[[:>:]]}}
// CPU: metrale.dispatch @q on mlir-cpu
// CPU-SAME: input_bytes=48{{[[:>:]]}}
// CPU-SAME: output_bytes=8{{[[:>:]]}}
func.func @q(%x: tensor<8xi4>) -> tensor<8xi4> {
  %r = arith.addi %x, %x : tensor<8xi4>
  return %r : tensor<8xi4>
}

// -----

// Calls on mlir-cpu (per-buffer): @helper's one buffer is its result; in @caller each
// call's result is a buffer of its own (16 x 4 = 64 B + 64 B padding), and the calls add
// none of the helper's (it has no buffer that dies inside it): 2 allocations, 256 B, as
// `metrale run` measures. Before, the call's scratch counted the helper's result twice.
// CPU: metrale.dispatch @helper on mlir-cpu
// CPU-SAME: device_allocation_bytes=128{{[[:>:]]}}
// CPU-SAME: device_allocation_events=1{{[[:>:]]}}
// Each call counts its callee's 16 FLOPs (mulf on 16 elements), so the latency is exact:
// per call 128 B at 10 GB/s = 13 ns (16 FLOPs: 6 ns), 26 ns in all, complete.
// CPU: metrale.dispatch @caller on mlir-cpu
// CPU-SAME: device_allocation_bytes=256{{[[:>:]]}}
// CPU-SAME: device_allocation_events=2{{[[:>:]]}}
// CPU-SAME: latency_ns=26{{[[:>:]]}}
// CPU-SAME: {{[[:<:]]}}complete=true
func.func private @helper(%x: tensor<16xf32>) -> tensor<16xf32> {
  %r = arith.mulf %x, %x : tensor<16xf32>
  return %r : tensor<16xf32>
}
func.func @caller(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %a = func.call @helper(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %b = func.call @helper(%a) : (tensor<16xf32>) -> tensor<16xf32>
  return %a, %b : tensor<16xf32>, tensor<16xf32>
}
