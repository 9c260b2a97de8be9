// loops.c: met_node_t.loops of a compute op (metrale/graph.h), for the IREE
// fusion model's loop-count rule: a linalg root's loops read off its indexing maps, through
// a pattern cached per maps list (met_adapter_cache_t.loopcache), else counted by class from
// its result's and operands' dims.
#include "adapter/state.h"

#include "ir/mlir_hooks.h"

// The loops of linalg op |op| whose range is not 1, as met_linalg_loops counts them, with
// the pattern of its indexing maps cached by the maps (uniqued; default maps by the op's
// name): the maps are read once per distinct list, and each op then reads only its
// operands' dims. *|found| false when |op| has no pattern (no LinalgOp, or maps the
// pattern cannot hold): met_linalg_loops decides.
static met_status_t cached_loops(builder_t *b, MlirOperation op, bool *found, uint32_t *out) {
  *found = false;
  met_adapter_cache_t *c = b->sh->cache;
  // The key: the maps (uniqued), or the op's name when its maps are its defaults (which
  // MLIR would build anew): a name is a StringAttr, never one of the maps' ArrayAttrs.
  MlirAttribute maps = {NULL};
  const void *key = NULL;
  if (met_linalg_default_maps(op)) {
    key = mlirOperationGetName(op).ptr;
  } else {
    maps = met_linalg_indexing_maps(op);
    if (mlirAttributeIsNull(maps)) return MET_OK;
    key = maps.ptr;
  }
  uint32_t k = met_ptrmap_get(&c->loopcache, key);
  if (k == UINT32_MAX) {
    met_loop_pattern_t p;
    k = 0;
    if (mlirAttributeIsNull(maps)) maps = met_linalg_indexing_maps(op);
    if (!mlirAttributeIsNull(maps) && met_linalg_loop_pattern(maps, &p)) {
      MET_RETURN_IF_ERROR(met_arena_reserve(&c->arena, (void **)&c->patterns, &c->cappatterns,
                                            c->npatterns, sizeof(*c->patterns)));
      c->patterns[c->npatterns++] = p;
      k = (uint32_t)c->npatterns;
    }
    MET_RETURN_IF_ERROR(met_ptrmap_put(&c->loopcache, key, k));
  }
  if (!k) return MET_OK;
  *found = met_linalg_pattern_loops(op, &c->patterns[k - 1], out);
  return MET_OK;
}

met_status_t met_adapter_node_loops(builder_t *b, MlirOperation op, met_op_class_t cls,
                                    bool linalg, uint32_t result_nonunit, uint8_t *out) {
  uint32_t n;
  *out = 0;
  // An all-parallel op's loops are its result's dims; a root's (a contraction, a window, a
  // reduction) are read off its operands' indexing maps (LinalgOp, mlir_hooks.cpp).
  bool root = cls == MET_CLASS_MATMUL || cls == MET_CLASS_CONV || cls == MET_CLASS_REDUCTION;
  bool found = false;
  if (root && linalg) MET_RETURN_IF_ERROR(cached_loops(b, op, &found, &n));
  if (root && (found || met_linalg_loops(op, &n))) {
    *out = (uint8_t)(n > 255 ? 255 : n);
    return MET_OK;
  }
  const type_entry_t *te;
  intptr_t nops = mlirOperationGetNumOperands(op);
  uint32_t loops = 0;
  if (cls == MET_CLASS_REDUCTION && nops > 0) {
    MET_RETURN_IF_ERROR(met_adapter_type_entry(b->sh, mlirValueGetType(mlirOperationGetOperand(op, 0)), &te));
    loops = te->nonunit;
  } else {
    loops = result_nonunit;
    if (cls == MET_CLASS_MATMUL) loops += 1;
    if (cls == MET_CLASS_CONV && nops > 1) {
      MET_RETURN_IF_ERROR(met_adapter_type_entry(b->sh, mlirValueGetType(mlirOperationGetOperand(op, 1)), &te));
      loops += te->nonunit > 0 ? te->nonunit - 1u : 0u;
    }
  }
  *out = (uint8_t)(loops > 255 ? 255 : loops);
  return MET_OK;
}
