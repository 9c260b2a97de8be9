// A bufferized run is charged what its code allocates; the planner's arena for the same
// buffers is reported beside it, so the saving is visible.
// RUN: metrale-opt %s --metrale-memory="target=h100 rows=0 json=-" -o /dev/null 2>/dev/null | FileCheck %s

// Three 256xf32 buffers (1024 B, a multiple of h100's 256 alignment). Positions:
// alloc %a 0, alloc %b 1, exp 2, exp 3, alloc %c 4, exp 5, copy 6, dealloc a/b/c 7-9.
// The code frees %a only at 7 although its last use is at 3: all three are allocated at
// once from 4 to 7: allocated peak 3 x 1024 = 3072.
// The planner ends %a at its last use (3): %a [0,3], %b [1,5], %c [4,6]; %a and %c share
// a slot: arena 2048. The run is charged 3072; activations_planned is 2048.
// CHECK: "activations": 3072, "activations_planned": 2048{{[[:>:]]}}
// CHECK: "runs": [{"name": "buf", "arena": 2048, "budget_arena": 2048, "materialized": 3072, "bufferized": true, "allocated_peak": 3072, "charged": 3072}]
func.func @buf(%in: memref<256xf32>, %out: memref<256xf32>) {
  %a = memref.alloc() : memref<256xf32>
  %b = memref.alloc() : memref<256xf32>
  linalg.exp ins(%in : memref<256xf32>) outs(%a : memref<256xf32>)
  linalg.exp ins(%a : memref<256xf32>) outs(%b : memref<256xf32>)
  %c = memref.alloc() : memref<256xf32>
  linalg.exp ins(%b : memref<256xf32>) outs(%c : memref<256xf32>)
  memref.copy %c, %out : memref<256xf32> to memref<256xf32>
  memref.dealloc %a : memref<256xf32>
  memref.dealloc %b : memref<256xf32>
  memref.dealloc %c : memref<256xf32>
  return
}
