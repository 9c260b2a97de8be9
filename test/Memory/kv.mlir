// The issue's hand-checked case: LLaMA-2-7B sizes (32 layers, 32 KV heads, head dim 128,
// f16 KV, 16-token blocks) on an 80 GiB H100 at util 0.9 with 13.5 GB of f16 weights
// (6750000000 x 2 B). KV per token: 32 x 32 x 128 x 2 (K, V) x 2 B = 524288 B = 512 KiB,
// so a 16-token block is 8 MiB.
// RUN: metrale-opt %s --metrale-memory="target=h100 sequences=29 tokens=4096 rows=1" 2>&1 | FileCheck %s --check-prefix=FITS
// RUN: metrale-opt %s --metrale-memory="target=h100 sequences=30 tokens=4096 rows=1" -verify-diagnostics -o /dev/null
// RUN: metrale-opt %s --metrale-memory="target=h100 sequences=30 tokens=4096 rows=0 over-budget-warning=true" 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: metrale-opt %s --metrale-memory="target=h100 sequences=29 tokens=4096 kv-dtype=f8E4M3FN rows=0" 2>&1 | FileCheck %s --check-prefix=FP8
// RUN: metrale-opt %s --metrale-memory="target=h100 rows=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING

// Budget: floor(80 GiB x 0.9) = floor(85899345920 x 0.9) = 77309411328.
// 29 sequences of 4096 tokens: 29 x (4096 / 16 + 1) + 1 = 7454 blocks x 8388608
// = 62528684032 B of KV.
// The run: one returned 4096xf16 tensor, 8192 B (a multiple of 256): activations 8192.
// Driver (h100): context 536870912 + chunk slack to 2 MiB: weights 13500000000 -> 6438
// chunks = 13501464576, slack 1464576; activations 8192 -> slack 2088960; KV is 29816
// chunks exactly: 0. Driver = 536870912 + 1464576 + 2088960 = 540424448.
// Device = 13500000000 + 8192 + 62528684032 + 540424448 = 76569116672; headroom
// 77309411328 - 76569116672 = 740294656.
// Inverse: what is not KV is 13500000000 + 8192 + 536870912 + 3553536 = 14040432640, which
// leaves 63268978688 B: 7542 blocks of 8 MiB. Sequences of 4096: 29 x 257 + 1 = 7454 <=
// 7542 < 7711 = 30 x 257 + 1: 29. Longest at 29 sequences: 29 x (t / 16 + 1) + 1 <= 7542
// => t / 16 <= 259 => t <= 4159.
// FITS: sequences of 4096 tokens that fit: 29{{[[:>:]]}}
// FITS: longest sequence at 29 sequences: 4159 tokens
// FITS: metrale.memory = {
// FITS-SAME: activations = 8192 : i64
// FITS-SAME: activations_planned = 8192 : i64
// FITS-SAME: budget_bytes = 77309411328 : i64
// FITS-SAME: caches_device = 0 : i64
// FITS-SAME: caches_host = 0 : i64
// FITS-SAME: {{[[:<:]]}}complete = true
// FITS-SAME: {{[[:<:]]}}device = 76569116672 : i64
// FITS-SAME: driver = 540424448 : i64
// FITS-SAME: fits = true
// FITS-SAME: headroom = 740294656 : i64
// FITS-SAME: kv = 62528684032 : i64
// FITS-SAME: states = 0 : i64
// FITS-SAME: target = "h100"
// FITS-SAME: weights_derived = 0 : i64
// FITS-SAME: weights_leaked = 0 : i64
// FITS-SAME: weights_outside = 0 : i64
// FITS-SAME: weights_stored = 13500000000 : i64
// FITS-SAME: workspace = 0 : i64

// 30 sequences: 7711 blocks x 8388608 = 64684556288; device 14040432640 + 64684556288 =
// 78724988928 (73.3 GiB), over 77309411328 (72.0 GiB) by 1415577600 (1.3 GiB). KV 60.2
// GiB, weights 12.6 GiB, driver 540424448 = 515.4 MiB.
// WARN: warning: the model does not fit h100: needs 73.3 GiB, budget 72.0 GiB, over by 1.3 GiB; largest terms: kv 60.2 GiB, weights 12.6 GiB, driver 515.4 MiB
// WARN: fits = false, headroom = -1415577600 : i64, kv = 64684556288 : i64

// An 8-bit KV cache halves the pool: 7454 blocks x 4 MiB = 31264342016 B.
// FP8: kv = 31264342016 : i64

// Without sequences and tokens the pool sizes nothing, and says why.
// MISSING: warning: the KV pool is declared but sizes nothing (counted as 0 bytes, so the report is a lower bound): missing sequences=, tokens=

// expected-remark @+2 {{memory on h100 (}}
// expected-error @below {{the model does not fit h100: needs 73.3 GiB, budget 72.0 GiB, over by 1.3 GiB; largest terms: kv 60.2 GiB, weights 12.6 GiB, driver 515.4 MiB}}
module attributes {metrale.kv_pool = {layers = 32 : i64, kv_heads = 32 : i64, head_dim = 128 : i64, block_size = 16 : i64, dtype = f16}} {
  func.func @decode(%w: tensor<6750000000xf16> {metrale.param}, %x: tensor<4096xf16>) -> tensor<4096xf16> {
    %s = tensor.extract_slice %w[0] [4096] [1] : tensor<6750000000xf16> to tensor<4096xf16>
    %0 = arith.addf %x, %s : tensor<4096xf16>
    return %0 : tensor<4096xf16>
  }
}
