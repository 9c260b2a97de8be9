// state.c: what the adapter's files ask of the state they share (one function's
// build, state.h): the caches of op names and types kept across functions, a
// type's size and shape facts, a value's size (with the diagnostics an unknown or
// overflowing size gets) and printed name, and whether an op was erased as dead. The walk
// (walk.c) and its helpers call these; these call no other file of the adapter.
// Each is a cache probe or O(1) but met_adapter_op_dead, O(nesting depth).
#include "adapter/state.h"

#include "metrale/checked.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "mlir-c/BuiltinTypes.h"
#include "ir/types.h"

void met_adapter_cache_initialize(met_adapter_cache_t *c) {
  memset(c, 0, sizeof(*c));
  met_arena_initialize(met_allocator_system(), &c->arena);
  met_ptrmap_initialize(&c->arena, &c->opcache);
  met_ptrmap_initialize(&c->arena, &c->typecache);
  met_ptrmap_initialize(&c->arena, &c->itercache);
  met_ptrmap_initialize(&c->arena, &c->loopcache);
  met_ptrmap_initialize(&c->arena, &c->axescache);
}

void met_adapter_cache_deinitialize(met_adapter_cache_t *c) {
  met_arena_deinitialize(&c->arena);
  memset(c, 0, sizeof(*c));
}

met_status_t met_adapter_type_entry(adapter_shared_t *sh, MlirType t, const type_entry_t **out) {
  met_adapter_cache_t *c = sh->cache;
  uint32_t k = met_ptrmap_get(&c->typecache, t.ptr);
  if (k != UINT32_MAX) { *out = &c->types[k]; return MET_OK; }
  MET_RETURN_IF_ERROR(met_arena_reserve(&c->arena, (void **)&c->types, &c->captypes, c->ntypes,
                                        sizeof(type_entry_t)));
  type_entry_t *e = &c->types[c->ntypes];
  memset(e, 0, sizeof(*e));
  e->shaped = met_type_is_shaped_value(t);
  if (e->shaped)
    e->status = met_type_size(t, sh->opt->target, sh->opt->dynamic_size, &e->size);
  if (e->shaped && mlirShapedTypeHasRank(t)) {
    intptr_t rank = mlirShapedTypeGetRank(t);
    e->rank = (uint8_t)(rank > 255 ? 255 : rank);
    uint64_t n = 1;
    bool known = true;
    for (intptr_t d = 0; d < rank; ++d) {
      int64_t s = mlirShapedTypeGetDimSize(t, d);
      if (e->nonunit < 255) e->nonunit += s != 1;
      if (mlirShapedTypeIsDynamicSize(s)) s = sh->opt->dynamic_size > 0 ? sh->opt->dynamic_size : -1;
      if (s < 0 || !met_mul_u64(n, (uint64_t)s, &n)) known = false;
    }
    e->elems_known = known;
    e->elems = known ? n : 0;
  }
  MET_RETURN_IF_ERROR(met_ptrmap_put(&c->typecache, t.ptr, (uint32_t)c->ntypes));
  *out = &c->types[c->ntypes++];
  return MET_OK;
}

met_status_t met_adapter_name_value(builder_t *b, MlirValue v, uint32_t id) {
  if (!b->sh->opt->record_names) return MET_OK;
  b->sh->scratch.len = 0;
  mlirValuePrintAsOperand(v, b->sh->names, met_mlir_append, &b->sh->scratch);
  if (b->sh->scratch.status || !b->sh->scratch.data) return MET_OK;  // no name, no harm
  const char *name = met_arena_strndup(b->sh->arena, b->sh->scratch.data, b->sh->scratch.len);
  if (!name) return MET_ENOMEM;
  return met_graph_set_value_name(b->g, id, name);
}

// Sizes one shaped value; records what makes it incomplete. |what| ("result",
// "argument") and |index| name it in diagnostics, formatted only when one is emitted.
// Sets |*overflow| when the size overflows (an error was added).
met_status_t met_adapter_size_value(builder_t *b, MlirValue v, MlirLocation loc, const char *kind,
                                     intptr_t index, met_value_t *out, bool *overflow) {
  MlirType t = mlirValueGetType(v);
  const type_entry_t *te;
  MET_RETURN_IF_ERROR(met_adapter_type_entry(b->sh, t, &te));
  return met_adapter_size_typed(b, t, te, loc, kind, index, out, overflow);
}

// met_adapter_size_value of a value of type |t|, whose entry |te| is known.
met_status_t met_adapter_size_typed(builder_t *b, MlirType t, const type_entry_t *te,
                                    MlirLocation loc, const char *kind, intptr_t index,
                                    met_value_t *out, bool *overflow) {
  met_type_size_t sz = te->size;
  met_size_status_t s = te->status;
  memset(out, 0, sizeof(*out));
  out->alias = -1;
  out->arg_index = -1;
  out->rank = te->rank;
  out->bytes = sz.bytes;
  out->f32_bytes = sz.f32_bytes;
  if (sz.is_float) out->flags |= MET_VALUE_F_FLOAT;
  if (sz.is_memref) out->flags |= MET_VALUE_F_MEMREF;
  if (sz.dynamic) out->flags |= MET_VALUE_F_DYNAMIC | (b->sh->opt->dynamic_size > 0 ? MET_VALUE_F_BOUND : 0);
  *overflow = false;
  if (s == MET_SIZE_OK) return MET_OK;
  char what[48];
  snprintf(what, sizeof(what), "%s #%" PRIdPTR, kind, index);
  const char *ty = met_type_string(b->sh->arena, t);
  if (!ty) return MET_ENOMEM;
  if (s == MET_SIZE_OVERFLOW) {
    *overflow = true;
    b->sh->failed = true;
    return met_diag_add(b->sh->arena, b->sh->diags, loc, MET_DIAG_ERROR,
                        "%s of type %s has no byte size: its element count times its storage "
                        "width overflows 64 bits", what, ty);
  }
  // One warning per value whose bytes are unknown: it counts 0 and the report is
  // incomplete (a lower bound).
  out->flags |= MET_VALUE_F_UNRANKED;
  out->bytes = out->f32_bytes = 0;
  return met_diag_add(b->sh->arena, b->sh->diags, loc, MET_DIAG_WARNING,
                      "%s of type %s %s: counted as 0 bytes, so the report is a lower bound",
                      what, ty, met_size_status_why(s));
}

bool met_adapter_op_dead(const adapter_shared_t *sh, MlirOperation op) {
  if (!sh->ndead) return false;
  for (MlirOperation p = op; !mlirOperationIsNull(p) && !mlirOperationEqual(p, sh->func);
       p = mlirOperationGetParentOperation(p))
    if (met_adapter_dead_root(sh, p)) return true;
  return false;
}
