// exec_names.c: the module's symbols as `metrale run` needs them (exec_internal.h): a
// top-level function by name, and a set of names.
#include "run/exec_internal.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"

MlirOperation met_exec_find_func(MlirOperation module, const char *name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (met_ir_op_is(op, "func.func") && met_ir_str_eq(met_ir_sym_name(op), name)) return op;
  return (MlirOperation){NULL};
}

bool met_exec_names_has(const met_exec_names_t *ns, MlirStringRef s) {
  return ns->ready && s.data && met_strmap_get(&ns->map, NULL, s.data, s.length) != SIZE_MAX;
}

met_status_t met_exec_names_add(met_exec_names_t *ns, MlirStringRef s) {
  if (!ns->ready) {
    met_arena_initialize(met_allocator_system(), &ns->arena);
    met_strmap_initialize(&ns->arena, &ns->map);
    ns->ready = true;
  }
  if (met_exec_names_has(ns, s)) return MET_OK;
  met_status_t st = MET_OK;
  if (ns->n == ns->cap) {
    size_t cap = ns->cap ? 2 * ns->cap : 16;
    const char **nn = NULL;
    st = met_arena_calloc(&ns->arena, cap, sizeof *nn, (void **)&nn);
    if (!st) {
      if (ns->n) memcpy(nn, ns->names, ns->n * sizeof *nn);
      ns->names = nn;
      ns->cap = cap;
    }
  }
  const char *c = st ? NULL : met_arena_strndup(&ns->arena, s.data ? s.data : "", s.length);
  if (!st && !c) st = MET_ENOMEM;
  if (!st) st = met_strmap_put(&ns->map, NULL, c, s.length, ns->n, NULL);
  if (st) {
    MET_KEEP_FIRST(ns->status, st);
    return st;
  }
  ns->names[ns->n++] = c;
  return MET_OK;
}

void met_exec_names_free(met_exec_names_t *ns) {
  if (ns->ready) met_arena_deinitialize(&ns->arena);
  memset(ns, 0, sizeof *ns);
}
