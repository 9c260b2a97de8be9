// passes/ir/dealloc.h: where upstream MLIR frees the buffers of a straight-line bufferized
// module, placed in linear time (issue 42).
//
// After one-shot bufferization, upstream's CPU pipeline runs buffer-deallocation-pipeline
// (ownership-based deallocation, its simplification and lowering, CSE and canonicalize)
// and then optimize-allocation-liveness, which moves each deallocation after the last
// user of its buffer. On a function of one block those passes decide one thing: every
// memref.alloc that the function does not return is freed by one memref.dealloc right
// after the last op that uses the buffer or a view of it (several freed after one op: in
// the reverse order of their allocations). Their cost is not linear: on one function of
// 18k ops (2,000 transformer-MLP blocks) BufferDeallocationSimplificationPass takes 54 %
// and OptimizeAllocationLivenessPass 9 % of the pipeline's 30 s, each growing about 4x
// per doubling (`mlir-opt --mlir-timing`), because each dealloc's alias queries range over
// every buffer of the block and each dealloc moved renumbers the block.
//
// met_dealloc_linear_applies says whether a module is one where that decision is all the
// passes make; met_dealloc_insert and met_dealloc_place then make it, in O(ops x buffers
// an op's operands view) time: the insert puts the frees where ownership-based
// deallocation lowers them (before the return, at its location), the place moves them
// where optimize-allocation-liveness does (after the last user found through views, as
// BufferViewFlowAnalysis finds them). passes/ir/bufferize.c runs the canonicalize and CSE
// passes of the pipeline between the two. test/Run/dealloc-linear.test checks, on every
// test input, corpus model and generated graph, that the program made so is the text of
// the one upstream's passes make.
// Thread-compatible: one call per module at a time.
#ifndef METRALE_PASSES_IR_DEALLOC_H
#define METRALE_PASSES_IR_DEALLOC_H

#include <stdbool.h>
#include <stddef.h>

#include "metrale/status.h"
#include "mlir-c/IR.h"

// True when every function of |module| (a bufferized builtin.module) is one block whose
// buffers upstream's passes free as above: no region op but linalg ops whose bodies make
// no memref; registered ops only; every op that makes a memref an allocation
// (memref.alloc, not one marked bufferization.manual_deallocation; alloca; get_global) or
// a view of its memref operand (subview, expand_shape, collapse_shape, cast,
// reinterpret_cast, view, extract_strided_metadata, memory_space_cast, assume_alignment;
// not transpose, which MLIR 22 does not declare a view); every op anywhere that takes a
// memref one of those views, a linalg op, or one that only reads or writes it (load,
// store, copy, dim, rank, extract_aligned_pointer_as_index, to_tensor, return): no free,
// no call (upstream takes a call's every result, a scalar too, for an alias of its memref
// operands); no i1 constant (ownership-based deallocation's own true/false would merge
// with it and change its location); each returned memref an allocation of the function
// or a view of one (kept), or a buffer it does not own (cloned), no buffer returned twice
// but as the same value of an allocation. Otherwise false, with the first reason in |why|.
// Each rule comes from a module where upstream's program differed (a review's 99
// adversarial modules; test/Run/Inputs/dealloc/ keeps one of each).
bool met_dealloc_linear_applies(MlirOperation module, char *why, size_t why_size);

// Inserts a memref.dealloc of every memref.alloc a function does not return, before its
// return, in allocation order, at the return's location.
met_status_t met_dealloc_insert(MlirOperation module);

// Moves each buffer's single memref.dealloc in its block to right after the last op that
// uses the buffer or a value viewing it (an op nested in a region counts as its ancestor
// in the block); a buffer with no other user keeps its place.
met_status_t met_dealloc_place(MlirOperation module);

#endif
