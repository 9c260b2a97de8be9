// passes/ir/bufferize.h: upstream MLIR's CPU pipeline from tensors to bufferized memrefs
// (stage A of `metrale run`), the one place that lists it. The mlir-cpu target's passes
// analyse the program this pipeline makes (metrale/budget.h, MET_FUSION_MLIR), and
// tools/run lowers and runs the same program, so the two count one program.
// Thread-compatible: one call per module at a time; diagnostics of the pipeline are
// captured while it runs (a handler on the context), never emitted.
#ifndef METRALE_PASSES_IR_BUFFERIZE_H
#define METRALE_PASSES_IR_BUFFERIZE_H

#include <stdbool.h>
#include <stddef.h>

#include "metrale/status.h"
#include "mlir-c/IR.h"

// The passes of the pipeline, in order (static text); |*count| receives their number.
// Before them, ml_program globals become memref.global and arith.constant forms (no
// upstream pass bufferizes ml_program; bufferize.c says how), and aggregate ops no pass
// lowers (linalg.softmax) are decomposed by the transform interpreter
// (decompose_interface).
const char *const *met_bufferize_passes(size_t *count);

// Runs the pipeline on |module| (a builtin.module, changed in place: run it on a clone
// to keep the original). Every pass must be registered in the process (mlir-opt and
// metrale-opt register all; the `metrale` command calls mlirRegisterAllPasses). On
// failure its status (MET_EEXTERNAL: a pass does not parse or fails; MET_EUNSUPPORTED:
// an ml_program global it cannot convert) with |err|'s message "pass 'P' at LOC: MESSAGE"
// (the pass's pipeline text, the first error's "file:line:col" or "?", its message).
//
// MET_BUFFERIZE_UPSTREAM runs every pass as listed (`metrale run`: the program it runs is
// upstream's). MET_BUFFERIZE_ANALYSIS (the mlir-cpu target's passes) makes the same
// program, but where ir/dealloc.h says a module's deallocation passes only place frees,
// it places them in linear time instead of running those two passes, and it gives the
// one-shot analysis one argument per reader of a read-only argument (ir/shared_reads.h);
// test/Run/dealloc-linear.test checks that the program is the same text. On issue 42's
// transformer-MLP graph of 1,000 blocks (9k ops, one function) the Budget pass on
// mlir-cpu took 12.8 s with upstream's passes, 1.3 s so (without the exact planner's
// search: plan-effort=0); bench/RESULTS.md (1c) has the scaling rows.
// MET_BUFFERIZE_UNTIL_DEALLOCATION stops before buffer-deallocation-pipeline (the module
// the placement is asked of; the differential test's).
typedef enum met_bufferize_mode_t {
  MET_BUFFERIZE_UPSTREAM,
  MET_BUFFERIZE_ANALYSIS,
  MET_BUFFERIZE_UNTIL_DEALLOCATION,
} met_bufferize_mode_t;
met_status_t met_bufferize(MlirContext ctx, MlirOperation module, met_bufferize_mode_t mode,
                           met_error_t *err);

#endif
