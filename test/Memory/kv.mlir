// The issue's hand-checked case: LLaMA-2-7B sizes (32 layers, 32 KV heads, head dim 128,
// f16 KV, 16-token blocks) on an 80 GiB H100 at util 0.9 with 13.5 GB of f16 weights
// (6750000000 x 2 B). KV per token: 32 x 32 x 128 x 2 (K, V) x 2 B = 524288 B = 512 KiB,
// so a 16-token block is 8 MiB.
// RUN: metrale-opt %s --metrale-memory="target=h100 sequences=29 tokens=4096 rows=1" 2>&1 | FileCheck %s --check-prefix=FITS
// RUN: metrale-opt %s --metrale-memory="target=h100 sequences=30 tokens=4096 rows=1" -verify-diagnostics -o /dev/null
// RUN: metrale-opt %s --metrale-memory="target=h100 sequences=30 tokens=4096 rows=0 over-budget-warning=true" 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: metrale-opt %s --metrale-memory="target=h100 sequences=29 tokens=4096 kv-dtype=f8E4M3FN rows=0" 2>&1 | FileCheck %s --check-prefix=FP8
// RUN: metrale-opt %s --metrale-memory="target=h100 rows=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// What fits as a table (issue 29): the model at 28, 29, 30 sequences x 4096, 4159, 4160
// tokens, in the JSON and as text.
// RUN: metrale-opt %s --metrale-memory="target=h100 sweep-sequences=28,29,30 sweep-tokens=4096,4159,4160 rows=0 json=-" -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=SWEEP
// RUN: metrale memory %s --target h100 --sweep-sequences 28,29,30 --sweep-tokens 4096,4159,4160 --rows 0 2>/dev/null | FileCheck %s --check-prefix=TABLE
// RUN: metrale memory %s --target h100 --sweep-sequences 28,29 --sweep-tokens 4096,4160 --csv - 2>/dev/null | FileCheck %s --check-prefix=CSV
// RUN: metrale-opt %s --metrale-memory="target=h100 sweep-sequences=30,31 sweep-tokens=4096 rows=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not metrale-opt %s --metrale-memory="target=h100 sweep-tokens=4096,4096" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADLIST
// RUN: not metrale memory %s --target h100 --sweep-sequences 1,x 2>&1 | FileCheck %s --check-prefix=BADCLI
// RUN: not metrale-opt %s --metrale-memory="target=h100 sweep-tokens=4096" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOAXIS
// RUN: not metrale-opt %S/terms.mlir --metrale-memory="target=h100 sweep-sequences=1,2 tokens=16" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPOOL

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

// The sweep, worked as above: what is not KV is 14040432640 B of the 77309411328 budget;
// a cell's KV is (sequences x (tokens / 16 + 1) + 1) blocks of 8388608 B (tokens / 16 in
// whole blocks: 4096 -> 256, 4159 -> 259, 4160 -> 260).
//   28 x 4096: 7197 blocks = 60372811776, headroom 77309411328 - 14040432640 - 60372811776
//              = 2896166912;  28 x 4159: 7281 = 61077454848, 2191523840;
//   28 x 4160: 7309 = 61312335872, 1956642816;  29 x 4096: 7454, 740294656 (above);
//   29 x 4159: 7541 = 63258492928, 10485760;  29 x 4160: 7570 = 63501762560, -232783872;
//   30 x 4096: 7711, -1415577600 (above);  30 x 4159: 7801 = 65439531008, -2170552320;
//   30 x 4160: 7831 = 65691189248, -2422210560.
// The largest pair that fits: 29 x 4159 = 120611 token slots (28 x 4160 = 116480).
// SWEEP: "grid": {"sequences": [28, 29, 30], "tokens": [4096, 4159, 4160], "cells": {{\[\[}}{"kv_bytes": 60372811776, "device_bytes": 74413244416, "headroom_bytes": 2896166912, "fits": true}, {"kv_bytes": 61077454848, "device_bytes": 75117887488, "headroom_bytes": 2191523840, "fits": true}, {"kv_bytes": 61312335872, "device_bytes": 75352768512, "headroom_bytes": 1956642816, "fits": true}], [{"kv_bytes": 62528684032, "device_bytes": 76569116672, "headroom_bytes": 740294656, "fits": true}, {"kv_bytes": 63258492928, "device_bytes": 77298925568, "headroom_bytes": 10485760, "fits": true}, {"kv_bytes": 63501762560, "device_bytes": 77542195200, "headroom_bytes": -232783872, "fits": false}], [{"kv_bytes": 64684556288, "device_bytes": 78724988928, "headroom_bytes": -1415577600, "fits": false}, {"kv_bytes": 65439531008, "device_bytes": 79479963648, "headroom_bytes": -2170552320, "fits": false}, {"kv_bytes": 65691189248, "device_bytes": 79731621888, "headroom_bytes": -2422210560, "fits": false}]], "largest": {"sequences": 29, "tokens": 4159}},
// The text shows each cell's headroom (the excess where it does not fit):
// TABLE: what fits: headroom by sequences x tokens (budget 72.0 GiB)
// TABLE-NEXT: {{^}}  sequences \ tokens           4096           4159           4160{{$}}
// TABLE-NEXT: {{^}}  28                          2.7 GiB        2.0 GiB        1.8 GiB{{$}}
// TABLE-NEXT: {{^}}  29                        706.0 MiB       10.0 MiB over 222.0 MiB{{$}}
// TABLE-NEXT: {{^}}  30                     over 1.3 GiB   over 2.0 GiB   over 2.3 GiB{{$}}
// TABLE-NEXT: {{^}}  largest that fits: 29 sequences x 4159 tokens{{$}}
// As comma-separated rows: one per cell, its totals (kv, kv_blocks, device, headroom, fits as above)
// and its sequences and tokens in two more columns, sequences first.
// CSV: {{^}}model,target,function,error,weights_stored,weights_outside,weights_replaced,weights_derived,weights_leaked,activations,activations_planned,workspace,states,kv,kv_blocks,caches_device,caches_host,driver,device,budget_bytes,headroom,fits,complete,sequences,tokens{{$}}
// CSV-NEXT: {{^}}{{.*}}kv.mlir,h100,,,13500000000,0,0,0,0,8192,8192,0,0,60372811776,7197,0,0,540424448,74413244416,77309411328,2896166912,true,true,28,4096{{$}}
// CSV-NEXT: {{^}}{{.*}}kv.mlir,h100,,,13500000000,0,0,0,0,8192,8192,0,0,61312335872,7309,0,0,540424448,75352768512,77309411328,1956642816,true,true,28,4160{{$}}
// CSV-NEXT: {{^}}{{.*}}kv.mlir,h100,,,13500000000,0,0,0,0,8192,8192,0,0,62528684032,7454,0,0,540424448,76569116672,77309411328,740294656,true,true,29,4096{{$}}
// CSV-NEXT: {{^}}{{.*}}kv.mlir,h100,,,13500000000,0,0,0,0,8192,8192,0,0,63501762560,7570,0,0,540424448,77542195200,77309411328,-232783872,false,true,29,4160{{$}}
// A sweep where nothing fits says so, with the smallest pair's excess (30 x 4096: over by
// 1415577600 B, 1.3 GiB, as above), and still reports the table.
// NONE: warning: no pair of the sweep fits h100: the smallest, 30 sequences x 4096 tokens, is over its budget by 1.3 GiB
// An axis must increase, be whole numbers, and have a partner; and a sweep needs a pool.
// BADLIST: error: invalid sweep-tokens='4096,4096': the items must increase (4096 after 4096)
// BADCLI: metrale: invalid --sweep-sequences='1,x': item 'x' is not a whole number from 1 to 18446744073709551615{{$}}
// NOAXIS: error: sweep-tokens= has no other axis: give sweep-sequences= or sequences=
// NOPOOL: error: sweep-sequences= and sweep-tokens= need a KV pool that sizes itself (metrale.kv_pool or kv-pool=, with its element type): without one every cell is the same

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
