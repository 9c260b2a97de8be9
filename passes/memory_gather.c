// memory_gather.c: the small helpers of the report the memory pass gathers
// (memory_internal.h), shared by memory_run.c and memory_decls.c so that neither calls
// the other back. The arithmetic itself is lib/memory_model.c.
#include "memory_internal.h"

#include "mlir-c/BuiltinAttributes.h"

met_status_t met_mem_fail(gather_t *g, met_status_t st) {
  MET_KEEP_FIRST(g->st, st);
  return st;
}

met_status_t met_mem_fail_oom(gather_t *g) {
  met_diag_emit(g->diag, g->user, met_diag_module_loc(g->module), MET_DIAG_ERROR,
                "metrale-memory: out of memory");
  return met_mem_fail(g, MET_ENOMEM);
}

met_status_t met_mem_check(gather_t *g, met_status_t st) {
  if (st == MET_OK) return MET_OK;
  if (st == MET_ENOMEM) return met_mem_fail_oom(g);
  if (st != MET_EOVERFLOW) {
    met_diag_emit(g->diag, g->user, met_diag_module_loc(g->module), MET_DIAG_ERROR,
                  "metrale-memory: %s", met_status_str(st));
    return met_mem_fail(g, st);
  }
  met_diag_emit(g->diag, g->user, met_diag_module_loc(g->module), MET_DIAG_ERROR,
                "the memory model's term '%s' overflows 64 bits (it passes 2^64 bytes)",
                g->model.overflow_term ? g->model.overflow_term : "?");
  return met_mem_fail(g, st);
}

MlirAttribute met_mem_attr_of(MlirAttribute dict, const char *name) {
  if (mlirAttributeIsNull(dict) || !mlirAttributeIsADictionary(dict)) return (MlirAttribute){NULL};
  return mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString(name));
}

met_status_t met_mem_add_row(gather_t *g, const char *name, const char *kind, const char *loc,
                             uint64_t stored, uint64_t derived, uint64_t act, uint64_t ws,
                             uint64_t state) {
  return met_mem_check(g, met_memory_model_row(&g->model, name, kind, loc, stored, derived, act,
                                               ws, state));
}
