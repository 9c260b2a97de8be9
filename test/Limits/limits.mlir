// Limits that fail the build (issue 26): pass options (options.def's LIMIT_MAX/LIMIT_MIN
// rows) and `metrale.limits` on the module or a function. A breach is an error at the
// function naming the field, its value, the limit, where the limit was set and the three
// largest contributors with their locations; the pass fails.
// RUN: metrale-opt %s -split-input-file -verify-diagnostics --metrale-budget="target=npu op-remarks=false max-dispatches=3" -o /dev/null
// RUN: not metrale-opt %s -split-input-file --metrale-budget="target=npu op-remarks=false max-dispatches=3" -o /dev/null 2>/dev/null
//
// @f on npu: four dispatches (the fill, the matvec, the exp, the log: npu fuses none of
// them); every tensor<256xf32> is 1024 B, the weight 256 x 256 x 4 = 262144 B. DRAM: the
// matvec reads 262144 + 1024 + 1024 (its init) and writes 1024 = 265216 B (259.0 KiB),
// exp and log 2048 each, the fill writes 1024: 270336 B. Arena: two 1 KiB slots live at
// once = 2048 B.

// expected-error @below {{metrale.budget @f on npu: dispatches = 4 breaches its limit 3 (max-dispatches=3); the largest dispatches: 259.0 KiB linalg.matvec at}}
// expected-error @below {{metrale.budget @f on npu: arena_bytes = 2048 (2.0 KiB) breaches its limit 1024 (1.0 KiB; metrale.limits of @f); the largest slots: 1.0 KiB linalg.fill at}}
// expected-remark @below {{metrale.budget @f on npu}}
func.func @f(%x: tensor<256xf32>, %w: tensor<256x256xf32> {metrale.param}) -> tensor<256xf32>
    attributes {metrale.limits = {arena_bytes = 1024, dram_bytes = 270336}} {
  %e = tensor.empty() : tensor<256xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %m = linalg.matvec ins(%w, %x : tensor<256x256xf32>, tensor<256xf32>) outs(%z : tensor<256xf32>) -> tensor<256xf32>
  %s = math.exp %m : tensor<256xf32>
  %r = math.log %s : tensor<256xf32>
  return %r : tensor<256xf32>
}

// -----

// A limit exactly met is no breach (dram_bytes = 270336 above; here dispatches = 3 of 3
// with max-dispatches=3: the fill, the matvec, the exp). The module's limit applies to
// every function: dram_bytes 265216 + 2048 + 1024 = 268288 B breaches 268287.
module attributes {metrale.limits = {dram_bytes = 268287}} {
  // expected-error @below {{metrale.budget @g on npu: dram_bytes = 268288 (262.0 KiB) breaches its limit 268287 (262.0 KiB; metrale.limits of the module); the largest dispatches: 259.0 KiB linalg.matvec}}
  // expected-remark @below {{metrale.budget @g on npu}}
  func.func @g(%x: tensor<256xf32>, %w: tensor<256x256xf32> {metrale.param}) -> tensor<256xf32> {
    %e = tensor.empty() : tensor<256xf32>
    %c0 = arith.constant 0.0 : f32
    %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
    %m = linalg.matvec ins(%w, %x : tensor<256x256xf32>, tensor<256xf32>) outs(%z : tensor<256xf32>) -> tensor<256xf32>
    %s = math.exp %m : tensor<256xf32>
    return %s : tensor<256xf32>
  }
}

// -----

// A key that is no numeric report field, and a value that is no whole number: errors at
// the holder.
// expected-error @below {{metrale.limits key 'arena' is no numeric field of the Budget, the dispatch stats or the memory model; they are: the Budget's arena_bytes, arena_bound_bytes, arena_gap_bytes, reuse_saved_bytes}}
// expected-remark @below {{metrale.budget @bad on npu}}
func.func @bad(%x: tensor<4xf32>) -> tensor<4xf32> attributes {metrale.limits = {arena = 1}} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @below {{metrale.limits entry 'dispatches' must be an integer}}
// expected-remark @below {{metrale.budget @bad2 on npu}}
func.func @bad2(%x: tensor<4xf32>) -> tensor<4xf32> attributes {metrale.limits = {dispatches = "40"}} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @below {{metrale.limits must be a dictionary of report fields and whole numbers}}
// expected-remark @below {{metrale.budget @bad3 on npu}}
func.func @bad3(%x: tensor<4xf32>) -> tensor<4xf32> attributes {metrale.limits = [1]} {
  return %x : tensor<4xf32>
}

// -----

// A misspelt key is named with the field it is nearest to.
// expected-error @below {{metrale.limits key 'dram_byte' is no numeric field of the Budget, the dispatch stats or the memory model (did you mean 'dram_bytes'?)}}
// expected-remark @below {{metrale.budget @typo on npu}}
func.func @typo(%x: tensor<4xf32>) -> tensor<4xf32> attributes {metrale.limits = {dram_byte = 1}} {
  return %x : tensor<4xf32>
}

// -----

// A byte field's limit may be a size with its unit, as the options take it: 16 B of
// arena (tensor<4xf32>, one slot) is within "1KiB"; its 32 B of DRAM pass "16B".
// expected-error @below {{metrale.budget @sizes on npu: dram_bytes = 32 (32 B) breaches its limit 16 (16 B; metrale.limits of @sizes)}}
// expected-remark @below {{metrale.budget @sizes on npu}}
func.func @sizes(%x: tensor<4xf32>) -> tensor<4xf32> attributes {metrale.limits = {arena_bytes = "1KiB", dram_bytes = "16B"}} {
  %y = math.exp %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// A size that is not one: an error naming the rule.
// expected-error @below {{metrale.limits entry 'arena_bytes' must be a whole number or a size such as "8MiB"}}
// expected-remark @below {{metrale.budget @badsize on npu}}
func.func @badsize(%x: tensor<4xf32>) -> tensor<4xf32> attributes {metrale.limits = {arena_bytes = "8 MiB"}} {
  return %x : tensor<4xf32>
}
