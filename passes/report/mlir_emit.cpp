// mlir_emit.cpp: where a pass's diagnostics and reports leave as MLIR's own: remarks,
// warnings, errors and notes at their locations (the C API of MLIR 22 can emit only
// errors), and a report as one structured remark (mlir/IR/Remarks.h) for remark files.
// The met_diag_fn_t and met_metrics_fn_t of every pass registered by passes/register.cpp.
// Thread-safe as MLIR's diagnostic engine is; no state of its own.
extern "C" {
#include "report/mlir_emit.h"
}
#include "mlir/CAPI/IR.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Remarks.h"

void met_mlir_emit_diag(void *, MlirLocation loc, met_diag_severity_t sev, const char *msg) {
  mlir::Location l = unwrap(loc);
  switch (sev) {
    case MET_DIAG_ERROR: mlir::emitError(l) << msg; break;
    case MET_DIAG_WARNING: mlir::emitWarning(l) << msg; break;
    case MET_DIAG_REMARK: mlir::emitRemark(l) << msg; break;
    case MET_DIAG_NOTE: mlir::emitRemark(l) << msg; break;
  }
}

// A report as one structured remark (mlir/IR/Remarks.h): written to a remark file when
// the context has a remark engine (mlir-opt's --remarks-* flags), nothing otherwise.
void met_mlir_emit_metrics(void *, MlirLocation loc, bool missed, const char *report,
                           const char *function, const char *const *names, const uint64_t *values,
                           const uint8_t *is_signed, size_t count) {
  auto opts = mlir::remark::RemarkOpts::name(report).category("metrale").function(function);
  auto r = missed ? mlir::remark::missed(unwrap(loc), opts)
                  : mlir::remark::analysis(unwrap(loc), opts);
  if (!r) return;  // no remark engine, or its filters leave out "metrale": build no metric
  for (size_t i = 0; i < count; ++i) {
    if (is_signed && is_signed[i])
      r << mlir::remark::metric(names[i], static_cast<int64_t>(values[i]));
    else
      r << mlir::remark::metric(names[i], values[i]);
  }
}
