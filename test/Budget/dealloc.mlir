// Bufferized code from ownership-based deallocation (Inputs/ownership-dealloc.mlir):
//   - `scf.if %c { memref.dealloc %x }` is a deallocation run by the host: no use of %x's
//     data, no dispatch (MET_NODE_F_DEALLOC), and where the memory model frees %x;
//   - memref.extract_strided_metadata is a view of its source, and
//     memref.extract_aligned_pointer_as_index and memref.dim read only metadata
//     (MET_NODE_F_METADATA): neither extends a lifetime;
//   - the small index and i1 buffers and the call of @dealloc_helper (two loops) are what
//     the code really allocates and runs, and are counted as such.
// RUN: metrale-opt %S/Inputs/ownership-dealloc.mlir --metrale-budget="target=host-cpu op-remarks=false" 2>/dev/null | FileCheck %s
// RUN: metrale-opt %S/Inputs/ownership-dealloc.mlir --metrale-memory="target=host-cpu rows=0" 2>/dev/null | FileCheck %s --check-prefix=MEM
//
// @f's 4096 B buffers (1024 x f32), by schedule position: %alloc (exp) [3, 6], last read
// by the scf.if that yields it; the scf.if's result %1 [6, 8], read by the tanh; the
// else-branch's buffer, scratch at 6; %alloc_0 (tanh) [7, 10]; %alloc_1 (sin, returned)
// [9, end]. At 6: %alloc + %1 + the scratch = 3 x 4096 = 12288, the peak (at 9-10 only
// %alloc_0 and %alloc_1 and 64 B index buffers are live). Counting the conditional
// deallocation and the metadata reads as uses gave 16384: %alloc and %1 then lived past 9.
// Dispatches: exp, the scf.if (its absf), tanh, sin, and the helper's two loops: 6 (the
// two deallocating scf.ifs were two more).
// CHECK-LABEL: func.func @f
// CHECK-SAME: arena_bytes = 12288 : i64
// CHECK-SAME: {{[[:<:]]}}dispatches = 6 : i64
// CHECK-SAME: peak_live_bytes = 12288 : i64
// The memory model charges @f's own allocations: the same peak, 12288.
// MEM: metrale.memory = {
// MEM-SAME: activations = 12288 : i64
