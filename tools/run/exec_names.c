// exec_names.c: the module's symbols as `metrale run` needs them (exec_internal.h): a
// function's symbol name, a top-level function by name, and a set of names.
#include "run/exec_internal.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"

MlirStringRef met_exec_sym_name(MlirOperation op) {
  MlirAttribute a = mlirOperationGetInherentAttributeByName(op, S("sym_name"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a)) return (MlirStringRef){NULL, 0};
  return mlirStringAttrGetValue(a);
}

MlirOperation met_exec_find_func(MlirOperation module, const char *name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (met_ir_op_is(op, "func.func") && met_ir_str_eq(met_exec_sym_name(op), name)) return op;
  return (MlirOperation){NULL};
}

bool met_exec_names_has(const met_exec_names_t *ns, MlirStringRef s) {
  for (size_t i = 0; i < ns->n; i++)
    if (met_ir_str_eq(s, ns->names[i])) return true;
  return false;
}

void met_exec_names_add(met_exec_names_t *ns, MlirStringRef s) {
  if (met_exec_names_has(ns, s)) return;
  if (ns->n == ns->cap) {
    size_t cap = ns->cap ? 2 * ns->cap : 16;
    char **nn = realloc(ns->names, cap * sizeof *nn);
    if (!nn) return;
    ns->names = nn;
    ns->cap = cap;
  }
  char *c = malloc(s.length + 1);
  if (!c) return;
  memcpy(c, s.data, s.length);
  c[s.length] = 0;
  ns->names[ns->n++] = c;
}

void met_exec_names_free(met_exec_names_t *ns) {
  for (size_t i = 0; i < ns->n; i++) free(ns->names[i]);
  free(ns->names);
}

