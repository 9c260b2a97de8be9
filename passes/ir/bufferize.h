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
met_status_t met_bufferize(MlirContext ctx, MlirOperation module, met_error_t *err);

#endif
