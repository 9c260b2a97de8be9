// passes/ir/ir.h: the name tests and function facts every file of the MLIR layer needs.
// Thread-safe.
#ifndef METRALE_PASSES_IR_H
#define METRALE_PASSES_IR_H

#include <stdbool.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/IR.h"

// |s| equals the NUL-terminated |lit|. What mlirStringRefEqual(s,
// mlirStringRefCreateFromCString(lit)) says, inline: with a literal |lit| the compiler
// folds the strlen and compares the length first, where the two C API calls (neither
// inlined across libMLIR's boundary) cost a strlen per test, and a memcmp where the
// lengths match. The adapter tests an op's name against a handful of literals per op
// (0.9 M of the Budget pass's 23.5 M instructions on the LLaMA bf16 corpus model, 4%).
static inline bool met_ir_str_eq(MlirStringRef s, const char *lit) {
  size_t n = strlen(lit);
  return s.length == n && (n == 0 || memcmp(s.data, lit, n) == 0);
}

// |s| is an op name of the dialect |prefix| names with its dot ("linalg."): longer than it.
static inline bool met_ir_str_in_dialect(MlirStringRef s, const char *prefix) {
  size_t n = strlen(prefix);
  return s.length > n && memcmp(s.data, prefix, n) == 0;
}

// |s| starts with |prefix| (or is it).
static inline bool met_ir_str_has_prefix(MlirStringRef s, const char *prefix) {
  size_t n = strlen(prefix);
  return s.length >= n && (n == 0 || memcmp(s.data, prefix, n) == 0);
}

// |op| is named |name| ("func.call").
static inline bool met_ir_op_is(MlirOperation op, const char *name) {
  return met_ir_str_eq(mlirIdentifierStr(mlirOperationGetName(op)), name);
}

// |func| is an entry function: public (no sym_visibility, or "public").
static inline bool met_ir_func_is_public(MlirOperation func) {
  MlirAttribute v = mlirOperationGetInherentAttributeByName(
      func, mlirStringRefCreateFromCString("sym_visibility"));
  return mlirAttributeIsNull(v) || !mlirAttributeIsAString(v) ||
         met_ir_str_eq(mlirStringAttrGetValue(v), "public");
}

// |op|'s symbol name (its sym_name string), or {NULL, 0} when it has none.
static inline MlirStringRef met_ir_sym_name(MlirOperation op) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
  return mlirAttributeIsNull(a) || !mlirAttributeIsAString(a) ? (MlirStringRef){NULL, 0}
                                                              : mlirStringAttrGetValue(a);
}

// The attribute dictionary of |func|'s argument |index|, or a null attribute.
static inline MlirAttribute met_ir_arg_dict(MlirOperation func, intptr_t index) {
  MlirAttribute arr = mlirOperationGetInherentAttributeByName(
      func, mlirStringRefCreateFromCString("arg_attrs"));
  if (mlirAttributeIsNull(arr) || !mlirAttributeIsAArray(arr) ||
      index >= mlirArrayAttrGetNumElements(arr))
    return (MlirAttribute){NULL};
  MlirAttribute dict = mlirArrayAttrGetElement(arr, index);
  return mlirAttributeIsADictionary(dict) ? dict : (MlirAttribute){NULL};
}

#endif
