// passes/report/mlir_emit.h: a pass's diagnostics and reports emitted as MLIR's own
// (mlir_emit.cpp): the met_diag_fn_t and met_metrics_fn_t (passes/ir/diag.h) that
// passes/register.cpp hands every runner. |user| is unused.
#ifndef METRALE_PASSES_REPORT_MLIR_EMIT_H
#define METRALE_PASSES_REPORT_MLIR_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/diag.h"
#include "mlir-c/IR.h"

// |msg| at |loc| as an MLIR diagnostic of severity |sev| (a note is emitted as a remark).
void met_mlir_emit_diag(void *user, MlirLocation loc, met_diag_severity_t sev, const char *msg);
// One structured remark named |report| (category "metrale", function |function|) with
// the metrics |names| = |values| (signed where |is_signed|[i]); a "missed" remark when
// |missed|. Written only when the context has a remark engine (mlir-opt's --remarks-*
// flags); nothing otherwise.
void met_mlir_emit_metrics(void *user, MlirLocation loc, bool missed, const char *report,
                           const char *function, const char *const *names,
                           const uint64_t *values, const uint8_t *is_signed, size_t count);

#endif
