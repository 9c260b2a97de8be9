// IREE's dispatch-creation modes as DLTI entries (metrale/target.h met_iree_modes_t;
// budget.h, IREE's modes), each off by default as in IREE, set on the h100 base here.
// Checked as written (prefix ON) and with every mode set false, IREE's default, by sed
// (prefix OFF).
// RUN: metrale-opt %s --split-input-file --metrale-budget="op-remarks=false" 2>/dev/null | FileCheck %s --check-prefix=ON
// RUN: sed -e 's/= true>>/= false>>/' %s | metrale-opt --split-input-file --metrale-budget="op-remarks=false" 2>/dev/null | FileCheck %s --check-prefix=OFF
// The modes show in the report's target:
// RUN: metrale budget %S/Inputs/iree_modes_pad.mlir --json - | FileCheck %s --check-prefix=JSON
// JSON: "fast_path": [{{.*}}], "iree": {"aggressive_fusion": false, "fuse_pad": true, "horizontal_fusion": false, "split_reduction": false}}
//
// Entries that are not taken say why, at the module:
// RUN: sed -e 's/"iree.horizontal_fusion" = true/"iree.horizontal_fusion" = 1 : i64/' %s | not metrale-opt --split-input-file --metrale-budget -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTBOOL
// NOTBOOL: error: dlti.target_device_spec entry "iree.horizontal_fusion" must be a bool
// RUN: sed -e 's/"iree.fuse_pad" = true/"iree.split_reduction" = true/' %s | not metrale-opt --split-input-file --metrale-budget -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT
// SPLIT: error: dlti.target_device_spec entry "iree.split_reduction" is IREE's split of matmul reductions, which metrale does not model: only false (or 1, IREE's default: no split) is taken
// RUN: sed -e 's/"iree.fuse_pad" = true/"iree.split_reduction" = false/' %s | metrale-opt --split-input-file --metrale-budget="op-remarks=false" 2>/dev/null | FileCheck %s --check-prefix=SPLITOFF
// SPLITOFF-LABEL: func.func @conv_pad(
// SPLITOFF-SAME: {{[[:<:]]}}dispatches = 2 : i64
// RUN: sed -e 's/"iree.fuse_pad" = true/"iree.fuse_pads" = true/' %s | not metrale-opt --split-input-file --metrale-budget -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: dlti.target_device_spec entry "iree.fuse_pads" is no IREE mode metrale models (iree.aggressive_fusion, iree.fuse_pad, iree.horizontal_fusion, iree.split_reduction)
// RUN: sed -e 's/"metrale.target" = "h100", "iree.fuse_pad"/"metrale.target" = "mobile-gpu-f32", "iree.fuse_pad"/' %s | not metrale-opt --split-input-file --metrale-budget -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTIREE
// RUN: sed -e 's/"metrale.target" = "h100", "iree.fuse_pad" = true/"metrale.target" = "mobile-gpu-f32", "iree.split_reduction" = false/' %s | not metrale-opt --split-input-file --metrale-budget -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLITNOTIREE
// SPLITNOTIREE: error: dlti.target_device_spec entry "iree.split_reduction" sets a mode of IREE's dispatch formation, and target "mobile-gpu-f32" models tfjs-webgl, not IREE
// RUN: sed -e 's/"iree.fuse_pad" = true/"iree." = true/' %s | not metrale-opt --split-input-file --metrale-budget -o /dev/null 2>&1 | FileCheck %s --check-prefix=BARE
// BARE: error: dlti.target_device_spec entry "iree." is no IREE mode metrale models
// NOTIREE: error: dlti.target_device_spec entry "iree.fuse_pad" sets a mode of IREE's dispatch formation, and target "mobile-gpu-f32" models tfjs-webgl, not IREE

// iree.horizontal_fusion (FuseHorizontalContractions, fusion limit 3): contractions that
// read one LHS value, each on a zero fill of a tensor.empty, of one op and type, none
// reading another, are one op: one dispatch. f32: x 8x64 = 2048 B, each w 64x32 = 8192 B,
// each result 8x32 = 1024 B.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "GPU" = #dlti.target_device_spec<"metrale.target" = "h100", "iree.horizontal_fusion" = true>>} {
  // Q, K, V: with the mode, one dispatch for the three (x read once: 2048 + 3 x 8192 read, 3 x 1024
  // written) and the add of Q's slice its own (reads 1024, writes 1024): 2 dispatches,
  // 2048 + 24576 + 3072 + 2048 = 31744. Q's slice lives as long as the fused tensor
  // (until K and V are returned): arena Q, K, V and the sum, 4 x 1024 = 4096.
  // Without, Q with the add as its epilogue, K, V: 3 dispatches, x read three times:
  // 3 x (2048 + 8192) + 3 x 1024 written = 33792, arena 3 x 1024 = 3072.
  // ON-LABEL: func.func @qkv(
  // ON-SAME: {{[[:<:]]}}arena_bytes = 4096 : i64
  // ON-SAME: {{[[:<:]]}}dispatches = 2 : i64, dram_bytes = 31744 : i64
  // OFF-LABEL: func.func @qkv(
  // OFF-SAME: {{[[:<:]]}}arena_bytes = 3072 : i64
  // OFF-SAME: {{[[:<:]]}}dispatches = 3 : i64, dram_bytes = 33792 : i64
  func.func @qkv(%x: tensor<8x64xf32>, %wq: tensor<64x32xf32>, %wk: tensor<64x32xf32>, %wv: tensor<64x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>) {
    %c0 = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<8x32xf32>
    %z0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %q = linalg.matmul ins(%x, %wq : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z0 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %e1 = tensor.empty() : tensor<8x32xf32>
    %z1 = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %k = linalg.matmul ins(%x, %wk : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z1 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %e2 = tensor.empty() : tensor<8x32xf32>
    %z2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %v = linalg.matmul ins(%x, %wv : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z2 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %qa = arith.addf %q, %q : tensor<8x32xf32>
    return %qa, %k, %v : tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>
  }
  // Four: the first three are one op (the limit), the fourth its own: With the mode 2 dispatches,
  // x read twice: 2 x 2048 + 4 x 8192 + 4 x 1024 = 40960; without, 4, x read four times: 45056.
  // ON-LABEL: func.func @four(
  // ON-SAME: {{[[:<:]]}}dispatches = 2 : i64, dram_bytes = 40960 : i64
  // OFF-LABEL: func.func @four(
  // OFF-SAME: {{[[:<:]]}}dispatches = 4 : i64, dram_bytes = 45056 : i64
  func.func @four(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %w2: tensor<64x32xf32>, %w3: tensor<64x32xf32>, %w4: tensor<64x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>) {
    %c0 = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x32xf32>
    %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
    %a = linalg.matmul ins(%x, %w : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
    %b = linalg.matmul ins(%x, %w2 : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
    %c = linalg.matmul ins(%x, %w3 : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
    %d = linalg.matmul ins(%x, %w4 : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
    return %a, %b, %c, %d : tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>
  }
  // An init filled with 1.0 is no zero fill: 2 dispatches either way,
  // 2 x (2048 + 8192 + 1024) = 22528.
  // ON-LABEL: func.func @ones(
  // ON-SAME: {{[[:<:]]}}dispatches = 2 : i64, dram_bytes = 22528 : i64
  func.func @ones(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %w2: tensor<64x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
    %c0 = arith.constant 0.0 : f32
    %c1 = arith.constant 1.0 : f32
    %e = tensor.empty() : tensor<8x32xf32>
    %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
    %o = linalg.fill ins(%c1 : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
    %a = linalg.matmul ins(%x, %w : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
    %b = linalg.matmul ins(%x, %w2 : tensor<8x64xf32>, tensor<64x32xf32>) outs(%o : tensor<8x32xf32>) -> tensor<8x32xf32>
    return %a, %b : tensor<8x32xf32>, tensor<8x32xf32>
  }
  // The second reads the first's result (as its RHS): not horizontal, 2 dispatches either
  // way. 32x32 f32 = 4096 B: (4096 x 2 + 4096) + (4096 x 2 + 4096) = 24576.
  // ON-LABEL: func.func @dependent(
  // ON-SAME: {{[[:<:]]}}dispatches = 2 : i64, dram_bytes = 24576 : i64
  func.func @dependent(%x: tensor<32x32xf32>, %w: tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<32x32xf32>) {
    %c0 = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<32x32xf32>
    %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
    %a = linalg.matmul ins(%x, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z : tensor<32x32xf32>) -> tensor<32x32xf32>
    %b = linalg.matmul ins(%x, %a : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z : tensor<32x32xf32>) -> tensor<32x32xf32>
    return %a, %b : tensor<32x32xf32>, tensor<32x32xf32>
  }
  // bf16 in, f32 accumulated, each truncated to bf16 (the quantized case the pass names):
  // the truncations are part of the op. x 8x64xbf16 = 1024 B, each w 4096 B, each output
  // 8x32xbf16 = 512 B. With the mode, 1 dispatch, 1024 + 8192 + 1024 = 10240. Without, each matmul with
  // its truncation as epilogue, 2 dispatches: 2 x (1024 + 4096 + 512) = 11264.
  // ON-LABEL: func.func @truncated(
  // ON-SAME: {{[[:<:]]}}dispatches = 1 : i64, dram_bytes = 10240 : i64
  // OFF-LABEL: func.func @truncated(
  // OFF-SAME: {{[[:<:]]}}dispatches = 2 : i64, dram_bytes = 11264 : i64
  func.func @truncated(%x: tensor<8x64xbf16>, %w: tensor<64x32xbf16>, %w2: tensor<64x32xbf16>) -> (tensor<8x32xbf16>, tensor<8x32xbf16>) {
    %c0 = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x32xf32>
    %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
    %a = linalg.matmul ins(%x, %w : tensor<8x64xbf16>, tensor<64x32xbf16>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
    %b = linalg.matmul ins(%x, %w2 : tensor<8x64xbf16>, tensor<64x32xbf16>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
    %ta = arith.truncf %a : tensor<8x32xf32> to tensor<8x32xbf16>
    %tb = arith.truncf %b : tensor<8x32xf32> to tensor<8x32xbf16>
    return %ta, %tb : tensor<8x32xbf16>, tensor<8x32xbf16>
  }
  // tosa.matmul: IREE's TOSA conversion gives it a zero-filled tensor.empty init.
  // With the mode 1 dispatch: 2048 + 2 x 8192 + 2 x 1024 = 20480; without, 2: 22528.
  // ON-LABEL: func.func @tosa(
  // ON-SAME: {{[[:<:]]}}dispatches = 1 : i64, dram_bytes = 20480 : i64
  // OFF-LABEL: func.func @tosa(
  // OFF-SAME: {{[[:<:]]}}dispatches = 2 : i64, dram_bytes = 22528 : i64
  func.func @tosa(%x: tensor<1x8x64xf32>, %w: tensor<1x64x32xf32>, %w2: tensor<1x64x32xf32>) -> (tensor<1x8x32xf32>, tensor<1x8x32xf32>) {
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %a = tosa.matmul %x, %w, %zp, %zp : (tensor<1x8x64xf32>, tensor<1x64x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x32xf32>
    %b = tosa.matmul %x, %w2, %zp, %zp : (tensor<1x8x64xf32>, tensor<1x64x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x32xf32>
    return %a, %b : tensor<1x8x32xf32>, tensor<1x8x32xf32>
  }
}

// -----

// iree.fuse_pad (fusePadWithConsumers): a tensor.pad read only by a convolution joins its
// dispatch. x 1x16x16x8 f32 = 8192 B, padded 1x18x18x8 = 10368 B (a 10496 B slot at
// h100's 256-byte alignment), w 3x3x8x16 = 4608 B, result 1x16x16x16 = 16384 B.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "GPU" = #dlti.target_device_spec<"metrale.target" = "h100", "iree.fuse_pad" = true>>} {
  // With the mode, 1 dispatch reading x and w, writing the result: 8192 + 4608 + 16384 = 29184; the
  // padded tensor never in memory (arena: the result, 16384). Without, the pad is a dispatch
  // (reads 8192, writes 10368) and the conv reads it: 49920; arena 10496 + 16384 = 26880.
  // ON-LABEL: func.func @conv_pad(
  // ON-SAME: {{[[:<:]]}}arena_bytes = 16384 : i64
  // ON-SAME: {{[[:<:]]}}dispatches = 1 : i64, dram_bytes = 29184 : i64
  // OFF-LABEL: func.func @conv_pad(
  // OFF-SAME: {{[[:<:]]}}arena_bytes = 26880 : i64
  // OFF-SAME: {{[[:<:]]}}dispatches = 2 : i64, dram_bytes = 49920 : i64
  func.func @conv_pad(%x: tensor<1x16x16x8xf32>, %w: tensor<3x3x8x16xf32>) -> tensor<1x16x16x16xf32> {
    %c0 = arith.constant 0.0 : f32
    %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%a: index, %b: index, %c: index, %d: index):
      tensor.yield %c0 : f32
    } : tensor<1x16x16x8xf32> to tensor<1x18x18x8xf32>
    %e = tensor.empty() : tensor<1x16x16x16xf32>
    %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
    %r = linalg.conv_2d_nhwc_hwcf ins(%p, %w : tensor<1x18x18x8xf32>, tensor<3x3x8x16xf32>) outs(%z : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
    return %r : tensor<1x16x16x16xf32>
  }
  // The padded tensor also returned: two uses, the pad stays its own dispatch either way
  // (it writes 10368 B that the conv reads back and the caller gets): 49920.
  // ON-LABEL: func.func @conv_pad_returned(
  // ON-SAME: {{[[:<:]]}}dispatches = 2 : i64, dram_bytes = 49920 : i64
  func.func @conv_pad_returned(%x: tensor<1x16x16x8xf32>, %w: tensor<3x3x8x16xf32>) -> (tensor<1x16x16x16xf32>, tensor<1x18x18x8xf32>) {
    %c0 = arith.constant 0.0 : f32
    %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%a: index, %b: index, %c: index, %d: index):
      tensor.yield %c0 : f32
    } : tensor<1x16x16x8xf32> to tensor<1x18x18x8xf32>
    %e = tensor.empty() : tensor<1x16x16x16xf32>
    %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
    %r = linalg.conv_2d_nhwc_hwcf ins(%p, %w : tensor<1x18x18x8xf32>, tensor<3x3x8x16xf32>) outs(%z : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
    return %r, %p : tensor<1x16x16x16xf32>, tensor<1x18x18x8xf32>
  }
  // A pad read by an elementwise op: no convolution, its own dispatch either way. The
  // pad reads 8192 and writes 10368, the exp reads 10368 and writes 10368: 39296.
  // ON-LABEL: func.func @pad_exp(
  // ON-SAME: {{[[:<:]]}}dispatches = 2 : i64, dram_bytes = 39296 : i64
  func.func @pad_exp(%x: tensor<1x16x16x8xf32>) -> tensor<1x18x18x8xf32> {
    %c0 = arith.constant 0.0 : f32
    %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%a: index, %b: index, %c: index, %d: index):
      tensor.yield %c0 : f32
    } : tensor<1x16x16x8xf32> to tensor<1x18x18x8xf32>
    %r = math.exp %p : tensor<1x18x18x8xf32>
    return %r : tensor<1x18x18x8xf32>
  }
}

// -----

// iree.aggressive_fusion (FormDispatchRegions' aggressiveFusion). f32: x 8x64 = 2048 B,
// w 64x32 = 8192 B, the matmul's result 8x32 = 1024 B.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "GPU" = #dlti.target_device_spec<"metrale.target" = "h100", "iree.aggressive_fusion" = true>>} {
  // A root whose result has two readers fuses with the first (getFusableUse takes the use
  // that dominates the others) and still writes its result for the return. With the mode, 1 dispatch,
  // 2048 + 8192 + 1024 (the sum) + 1024 (the product) = 12288. Without, the add is a dispatch of
  // its own reading the product back: 2 dispatches, 13312.
  // ON-LABEL: func.func @two_readers(
  // ON-SAME: {{[[:<:]]}}dispatches = 1 : i64, dram_bytes = 12288 : i64
  // OFF-LABEL: func.func @two_readers(
  // OFF-SAME: {{[[:<:]]}}dispatches = 2 : i64, dram_bytes = 13312 : i64
  func.func @two_readers(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
    %c0 = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x32xf32>
    %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
    %m = linalg.matmul ins(%x, %w : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
    %a = arith.addf %m, %m : tensor<8x32xf32>
    return %a, %m : tensor<8x32xf32>, tensor<8x32xf32>
  }
  // Two readers, neither the return: the add (the first) joins the root and becomes the
  // new root; the exp, a later reader of the product, stays apart and reads it back. With
  // the mode: the matmul and the add read 10240 and write the sum and the product (2048),
  // the exp reads the product and writes 1024: 2 dispatches, 12288 + 2048 = 14336.
  // (Without the mode IREE forms 3 dispatches; this model's epilogue rule takes both
  // readers in, as for a diamond: budget.h names the gap.)
  // ON-LABEL: func.func @two_compute_readers(
  // ON-SAME: {{[[:<:]]}}dispatches = 2 : i64, dram_bytes = 14336 : i64
  func.func @two_compute_readers(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
    %c0 = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x32xf32>
    %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
    %m = linalg.matmul ins(%x, %w : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
    %a = arith.addf %m, %m : tensor<8x32xf32>
    %b = math.exp %m : tensor<8x32xf32>
    return %a, %b : tensor<8x32xf32>, tensor<8x32xf32>
  }
  // A consumer with more loops than its root (4 against the matmul's 3): joins only in the
  // aggressive mode. The result 4x8x32x2 f32 = 8192 B. With the mode, 2048 + 8192 + 8192 = 18432,
  // arena 8192. Without, the product written and read back: 20480, arena 1024 + 8192 = 9216.
  // ON-LABEL: func.func @wider(
  // ON-SAME: {{[[:<:]]}}arena_bytes = 8192 : i64
  // ON-SAME: {{[[:<:]]}}dispatches = 1 : i64, dram_bytes = 18432 : i64
  // OFF-LABEL: func.func @wider(
  // OFF-SAME: {{[[:<:]]}}arena_bytes = 9216 : i64
  // OFF-SAME: {{[[:<:]]}}dispatches = 2 : i64, dram_bytes = 20480 : i64
  func.func @wider(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x8x32x2xf32> {
    %c0 = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x32xf32>
    %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
    %m = linalg.matmul ins(%x, %w : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
    %e4 = tensor.empty() : tensor<4x8x32x2xf32>
    %b = linalg.generic {indexing_maps = [affine_map<(a, i, j, c) -> (i, j)>, affine_map<(a, i, j, c) -> (a, i, j, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m : tensor<8x32xf32>) outs(%e4 : tensor<4x8x32x2xf32>) {
    ^bb0(%in: f32, %o: f32):
      %s = arith.mulf %in, %in : f32
      linalg.yield %s : f32
    } -> tensor<4x8x32x2xf32>
    return %b : tensor<4x8x32x2xf32>
  }
  // The first reader is another matmul (a root): nothing joins the first matmul, and the
  // add joins the second as its epilogue (reading the first's product back). The first:
  // 2048 + 8192 read, 1024 written; the second with the add: reads the product (1024)
  // and w2 (32x32 = 4096), writes 1024: 11264 + 6144 = 17408, 2 dispatches.
  // ON-LABEL: func.func @root_first(
  // ON-SAME: {{[[:<:]]}}dispatches = 2 : i64, dram_bytes = 17408 : i64
  func.func @root_first(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %w2: tensor<32x32xf32>) -> tensor<8x32xf32> {
    %c0 = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x32xf32>
    %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
    %m = linalg.matmul ins(%x, %w : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
    %m2 = linalg.matmul ins(%m, %w2 : tensor<8x32xf32>, tensor<32x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
    %a = arith.addf %m, %m2 : tensor<8x32xf32>
    return %a : tensor<8x32xf32>
  }
}
