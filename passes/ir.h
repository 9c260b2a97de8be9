// passes/ir.h: two name tests every file of the MLIR layer needs. Thread-safe.
#ifndef METRALE_PASSES_IR_H
#define METRALE_PASSES_IR_H

#include <stdbool.h>
#include <string.h>

#include "mlir-c/IR.h"

// |s| equals the NUL-terminated |lit|.
static inline bool met_ir_str_eq(MlirStringRef s, const char *lit) {
  return mlirStringRefEqual(s, mlirStringRefCreateFromCString(lit));
}

// |op| is named |name| ("func.call").
static inline bool met_ir_op_is(MlirOperation op, const char *name) {
  return met_ir_str_eq(mlirIdentifierStr(mlirOperationGetName(op)), name);
}

#endif
