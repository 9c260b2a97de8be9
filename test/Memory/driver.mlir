// Driver terms by class of device (lib/target.c: each with its source). A CPU has no
// device runtime: no context and no reserved fraction of memory, only the slack of 4 KiB
// pages (host-cpu's reserve was 5 % of 256 GiB: 12.8 GiB "needed" by any model). An NPU
// keeps a firmware context and a reserve.
// RUN: metrale-opt %s --metrale-memory="target=host-cpu rows=0" 2>/dev/null | FileCheck %s --check-prefix=CPU
// RUN: metrale-opt %s --metrale-memory="target=npu rows=0" 2>/dev/null | FileCheck %s --check-prefix=NPU
//
// weights_stored: %w, 1000 x f32 = 4000 B; activations: the returned 4000 B slot aligned
// to 64 = 4032 on host-cpu. Chunk slack: 4000 -> 4096 (96) and 4032 -> 4096 (64): the
// driver term is 160, device 4000 + 4032 + 160 = 8192. Budget: 256 GiB x 0.8 =
// 219902325555.2, floored.
// CPU: metrale.memory = {
// CPU-SAME: budget_bytes = 219902325555 : i64
// CPU-SAME: {{[[:<:]]}}device = 8192 : i64
// CPU-SAME: driver = 160 : i64
// npu: 32 MiB of context (33554432) + 2 % of 16 GiB (343597383.68, floored: 343597383)
// + the slack of 1 MiB chunks over the device terms: 4000 (weights) and 4032 (the slot
// aligned to 64) each round up to 1048576: 1044576 + 1044544 = 2089120. Sum 379240935.
// NPU: metrale.memory = {
// NPU-SAME: driver = 379240935 : i64
func.func @f(%x: tensor<1000xf32>, %w: tensor<1000xf32> {metrale.param}) -> tensor<1000xf32> {
  %0 = arith.addf %x, %w : tensor<1000xf32>
  return %0 : tensor<1000xf32>
}
