// passes/ir/mlir_hooks.h: what the C passes need from MLIR that only C++ reaches
// (passes/ir/mlir_hooks.cpp). Nothing here calls back into metrale.
#ifndef METRALE_PASSES_MLIR_HOOKS_H
#define METRALE_PASSES_MLIR_HOOKS_H

#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

// Runs [0, n) as contiguous chunks |fn(user, slot, begin, end)|, in parallel when |ctx|
// has multithreading enabled (MLIR's own thread pool), else as one chunk. Each chunk runs
// on one thread, in order, with a |slot| below met_parallel_slots(ctx) that no other
// chunk of the call has: state kept per slot (a cache) is touched by one thread at a time,
// across calls too, since a call returns only after all its chunks ran.
void met_parallel_chunks(MlirContext ctx, size_t n,
                         void (*fn)(void *user, size_t slot, size_t begin, size_t end),
                         void *user);
// How many slots met_parallel_chunks may use on |ctx| (at least 1).
size_t met_parallel_slots(MlirContext ctx);

// Receives one entry of one device spec, in order.
typedef void (*met_dlti_entry_fn_t)(void *user, MlirStringRef device, MlirStringRef key,
                                    MlirAttribute value);
// Calls |fn| for every string-keyed entry of every device spec in |module|'s
// dlti.target_system_spec. Returns 0 when the module has none.
int met_dlti_for_each_entry(MlirOperation module, met_dlti_entry_fn_t fn, void *user);

// FLOPs of a linalg structured op (named or generic, linalg::LinalgOp): its static
// iteration domain (the product of its loop ranges) times the arith/math ops of its
// body, one FLOP each (a matmul's mulf and addf: 2 x M x N x K). A dynamic loop range
// counts as |dynamic_size| when it is > 0. Returns 1 and sets |*out|, 0 when |op| is no
// LinalgOp or a loop range is dynamic and unbound, -1 when the product passes 2^64.
int met_linalg_flops(MlirOperation op, int64_t dynamic_size, uint64_t *out);

// A dictionary of |n| entries already sorted by name with no name twice (what
// mlirDictionaryAttrGet checks and sorts first: DictionaryAttr::getWithSorted).
MlirAttribute met_dictionary_sorted(MlirContext ctx, intptr_t n, const MlirNamedAttribute *entries);

// The loops of a linalg structured op (linalg::LinalgOp) whose static range is not 1 (a
// dynamic one counts) into |*out|: returns 1, or 0 when |op| is no LinalgOp.
int met_linalg_loops(MlirOperation op, uint32_t *out);

// What met_linalg_loops reads off a LinalgOp's indexing maps, per loop: the operand and the
// dim of the first operand that indexes the loop alone (operand 255: none). It depends on
// the maps alone, so the adapter caches it by their uniqued ArrayAttr.
enum { MET_LOOP_PATTERN_MAX = 16 };
typedef struct met_loop_pattern_t {
  uint8_t nmaps, nloops;
  uint8_t operand[MET_LOOP_PATTERN_MAX], dim[MET_LOOP_PATTERN_MAX];
} met_loop_pattern_t;
// The indexing maps (an ArrayAttr of AffineMapAttr) of |op| when it is a LinalgOp; else a
// null attribute.
MlirAttribute met_linalg_indexing_maps(MlirOperation op);
// What mlirOperationGetInherentAttributeByName(op, "iterator_types") gives, read from a
// linalg.generic's properties directly: the lookup by name asks the op's context through
// its location, a cache miss per op (5% of the Budget pass on a transformer, with the
// constants' below).
MlirAttribute met_generic_iterator_types(MlirOperation op);
// A constant's dense elements: arith.constant's `value`, tosa.const's `values` (from their
// properties, as above); another op's inherent `value`, else `values`. Null when neither
// is a DenseElementsAttr.
MlirAttribute met_constant_elements(MlirOperation op);
// 1 when |op|'s indexing maps are its op's defaults, which depend on the context alone (a
// linalg.matmul, batch_matmul or batch_reduce_matmul that states no indexing_maps: MLIR
// builds them anew, uniquing each map, on every met_linalg_indexing_maps): then the op's
// name is as good a key for them as the maps themselves. 0 otherwise.
int met_linalg_default_maps(MlirOperation op);
// The pattern of |maps|: 1, or 0 when they are no array of affine maps, have more than
// MET_LOOP_PATTERN_MAX loops or 255 maps, or disagree on their loops.
int met_linalg_loop_pattern(MlirAttribute maps, met_loop_pattern_t *out);
// The loops of |op| with pattern |p| whose range is not 1 into |*out|: 1, or 0 when |op|'s
// operands do not fit |p| (then met_linalg_loops decides).
int met_linalg_pattern_loops(MlirOperation op, const met_loop_pattern_t *p, uint32_t *out);

// What one walk of a function body counts to size the graph: the ops of its body's blocks
// (not nested ones), their results plus the entry block's arguments, their operands.
typedef struct met_body_scan_t {
  size_t ops, values, operands;
} met_body_scan_t;

// Walks |func|'s body once. Counts into |*out|, and calls |fn| for each op that
// canonicalization erases (metrale/graph.h, Dead ops) and that is not inside another, in
// pre-order: an op MLIR would erase once unused (wouldOpBeTriviallyDead: no memory effects
// but allocating its own results, recursively through its regions; no terminator) whose
// every result is used only by such ops, or inside them, transitively, whatever the order
// of blocks. O(ops + uses): each use is let go once when its user dies. |func| is
// isolated from above (a func.func), so every operand inside it is defined inside it.
void met_scan_body(MlirOperation func, met_body_scan_t *out,
                   void (*fn)(void *user, MlirOperation op), void *user);

#ifdef __cplusplus
}
#endif

#endif
