// memory_decls.c: the module-level declarations the memory model reads: globals
// (immutable ones are weights, mutable ones states, with the loads that read them),
// the paged KV pool (metrale.kv_pool or the kv-pool= option), caches (metrale.caches),
// and the util option. Declarations are checked and a malformed one is an error at the
// module.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ir/attrs.h"
#include "ir/ir.h"
#include "memory_internal.h"
#include "metrale/checked.h"
#include "metrale/parse.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "ir/types.h"

static void note_read(MlirOperation op, gather_t *g) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  const char *attr = NULL;
  if (met_ir_str_eq(n, "memref.get_global")) attr = "name";
  else if (met_ir_str_has_prefix(n, "ml_program.global_load")) attr = "global";
  if (!attr) return;
  MlirAttribute a =
      mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString(attr));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsASymbolRef(a)) return;
  if (met_arena_reserve(&g->arena, (void **)&g->reads, &g->cap_reads, g->nreads,
                        sizeof(MlirStringRef)))
    return;
  g->reads[g->nreads++] = mlirSymbolRefAttrGetRootReference(a);
}

static MlirWalkResult walk_reads(MlirOperation op, void *user) {
  note_read(op, user);
  return MlirWalkResultAdvance;
}

static met_status_t gather_globals_in(gather_t *g, MlirOperation module, const char *prefix);

// Module-level globals: immutable ones are weights, mutable ones states; a nested module's
// are named after it ("@inner::@w"). A load is matched to a global by its root symbol
// name, so two nested modules' globals of one name share their loads (a count, not a byte).
// True when |module| or a module nested in it declares a global (a scan of module bodies,
// not of function bodies).
static bool has_globals(MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
    if (met_ir_str_eq(n, "ml_program.global") || met_ir_str_eq(n, "memref.global"))
      return true;
    if (met_ir_str_eq(n, "builtin.module") && has_globals(op)) return true;
  }
  return false;
}

met_status_t met_mem_gather_globals(gather_t *g) {
  // The loads are counted only when there are globals to count them for: a walk over
  // every op is most of this function's cost on a large graph.
  if (!has_globals(g->module)) return MET_OK;
  mlirOperationWalk(g->module, walk_reads, g, MlirWalkPreOrder);
  return gather_globals_in(g, g->module, "");
}

static met_status_t gather_globals_in(gather_t *g, MlirOperation module, const char *prefix) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
    if (met_ir_str_eq(n, "builtin.module")) {
      MlirStringRef mn = met_ir_sym_name(op);
      if (!mn.data) mn = mlirStringRefCreateFromCString("?");
      const char *inner = met_mem_afmt(g, "%s%.*s::@", prefix, (int)mn.length, mn.data);
      if (!inner) return met_mem_fail_oom(g);
      MET_RETURN_IF_ERROR(gather_globals_in(g, op, inner));
      continue;
    }
    bool ml = met_ir_str_eq(n, "ml_program.global");
    bool mr = met_ir_str_eq(n, "memref.global");
    if (!ml && !mr) continue;
    MlirAttribute sym = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
    MlirAttribute ty = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("type"));
    if (mlirAttributeIsNull(sym) || mlirAttributeIsNull(ty) || !mlirAttributeIsAType(ty)) continue;
    MlirStringRef s = mlirStringAttrGetValue(sym);
    bool is_mutable = ml ? !mlirAttributeIsNull(mlirOperationGetInherentAttributeByName(
                               op, mlirStringRefCreateFromCString("is_mutable")))
                         : mlirAttributeIsNull(mlirOperationGetInherentAttributeByName(
                               op, mlirStringRefCreateFromCString("constant")));
    met_type_size_t sz;
    met_size_status_t zs = met_type_size(mlirTypeAttrGetValue(ty), g->target, 0, &sz);
    if (zs != MET_SIZE_OK) {
      const char *tys = met_type_string(&g->arena, mlirTypeAttrGetValue(ty));
      met_diag_emit(g->diag, g->user, mlirOperationGetLocation(op), MET_DIAG_ERROR,
               "global @%.*s of type %s has no byte size: it %s", (int)s.length, s.data,
               tys ? tys : "?", met_size_status_why(zs));
      met_mem_fail(g, MET_EINVAL);
      continue;
    }
    if (sz.dynamic) {
      g->r.complete = false;
      met_diag_emit(g->diag, g->user, mlirOperationGetLocation(op), MET_DIAG_WARNING,
               "global @%.*s has dynamic dims, counted as 1 each: the report is a lower bound",
               (int)s.length, s.data);
    }
    uint32_t loads = 0;
    for (size_t i = 0; i < g->nreads; ++i)
      loads += mlirStringRefEqual(g->reads[i], s);
    const char *name = met_mem_afmt(g, "@%s%.*s", prefix, (int)s.length, s.data);
    const char *loc = met_adapter_loc_string(&g->arena, mlirOperationGetLocation(op));
    if (!name) return met_mem_fail_oom(g);
    met_status_t st;
    if (is_mutable) {
      st = met_memory_model_state(&g->model, name, sz.bytes, loc);
    } else {
      met_memory_weight_t w = {name, NULL, sz.bytes, 0, loads, loads == 0, false, 0};
      st = met_memory_model_weight(&g->model, &w, true);
    }
    if (st == MET_EINVAL) {  // a state argument already took this name with another size
      met_diag_emit(g->diag, g->user, mlirOperationGetLocation(op), MET_DIAG_ERROR,
                    "global %s is %" PRIu64 " bytes, and a %s of that name is %" PRIu64,
                    name, sz.bytes, is_mutable ? "state" : "weight", g->model.conflict_bytes);
      met_mem_fail(g, MET_EINVAL);
      continue;
    }
    MET_RETURN_IF_ERROR(met_mem_check(g, st));
  }
  return MET_OK;
}

static met_status_t decl_error(gather_t *g, const char *fmt, const char *what, const char *key,
                       const char *why) {
  met_diag_emit(g->diag, g->user, met_diag_module_loc(g->module), MET_DIAG_ERROR, fmt, what, key,
                why);
  return met_mem_fail(g, MET_EINVAL);
}

// An integer entry of at least 1 (attrs.h's integer rule). Absent: stays 0 (reported as
// missing).
static met_status_t int_entry(gather_t *g, MlirAttribute dict, const char *key, const char *what,
                      uint64_t *out) {
  MlirAttribute a = met_mem_attr_of(dict, key);
  if (mlirAttributeIsNull(a)) return MET_OK;
  const char *why = met_attr_u64(a, 1, UINT64_MAX, out);
  if (why && !strcmp(why, "is out of range")) why = "must be at least 1";
  return why ? decl_error(g, "%s entry '%s' %s", what, key, why) : MET_OK;
}

// Every key of |dict| is one of |keys| (NULL-terminated): a misspelt key is an error.
static met_status_t known_keys(gather_t *g, MlirAttribute dict, const char *what,
                       const char *const *keys) {
  for (intptr_t i = 0; i < mlirDictionaryAttrGetNumElements(dict); ++i) {
    MlirStringRef k = mlirIdentifierStr(mlirDictionaryAttrGetElement(dict, i).name);
    bool found = false;
    for (const char *const *p = keys; *p && !found; ++p)
      found = met_ir_str_eq(k, *p);
    if (!found) {
      char key[64];
      snprintf(key, sizeof(key), "%.*s", (int)(k.length < 60 ? k.length : 60), k.data);
      return decl_error(g, "%s entry '%s' %s", what, key, "is not one of its keys");
    }
  }
  return MET_OK;
}

// A KV element type: an attribute (a type, or a string naming one) or an option's text.
// Its storage bits go to |*out|; nothing declared leaves it 0.
static met_status_t dtype_bits(gather_t *g, MlirAttribute a, MlirStringRef text, const char *what,
                       uint32_t *out) {
  MlirContext ctx = mlirOperationGetContext(g->module);
  MlirType t = {NULL};
  if (!mlirAttributeIsNull(a)) {
    const char *why = met_attr_type(ctx, a, &t);
    if (why) {
      met_diag_emit(g->diag, g->user, met_diag_module_loc(g->module), MET_DIAG_ERROR, "%s %s",
                    what, why);
      return met_mem_fail(g, MET_EINVAL);
    }
  } else if (text.length) {
    t = met_parse_type_quietly(ctx, text);
    if (mlirTypeIsNull(t)) {
      met_diag_emit(g->diag, g->user, met_diag_module_loc(g->module), MET_DIAG_ERROR,
               "invalid %s='%.*s': " MET_TYPE_EXPECTED, what,
               (int)text.length, text.data);
      return met_mem_fail(g, MET_EINVAL);
    }
  } else {
    return MET_OK;  // not declared
  }
  uint64_t bits, widened;
  bool is_float;
  if (!met_type_element_bits(t, g->target, &bits, &widened, &is_float) ||
      bits > UINT32_MAX) {
    met_diag_emit(g->diag, g->user, met_diag_module_loc(g->module), MET_DIAG_ERROR,
             "%s has no storage width", what);
    return met_mem_fail(g, MET_EINVAL);
  }
  *out = (uint32_t)bits;
  return MET_OK;
}

// kv-pool="layers=32,kv_heads=32,head_dim=128,block_size=16" (met_memory_kv_pool_parse).
static met_status_t parse_kv_option(gather_t *g, MlirStringRef s) {
  met_error_t err;
  met_error_init(&err);
  if (met_memory_kv_pool_parse(s.data, s.length, &g->r.pool, &err) == MET_OK) return MET_OK;
  met_diag_emit(g->diag, g->user, met_diag_module_loc(g->module), MET_DIAG_ERROR,
           "invalid kv-pool='%.*s': %s (" MET_KV_POOL_SYNTAX ")", (int)s.length, s.data,
           met_error_message(&err));
  return met_mem_fail(g, MET_EINVAL);
}

met_status_t met_mem_gather_kv_pool(gather_t *g, MlirStringRef kv_dtype, MlirStringRef kv_option) {
  MlirAttribute p = mlirOperationGetDiscardableAttributeByName(
      g->module, mlirStringRefCreateFromCString("metrale.kv_pool"));
  met_kv_pool_t *pool = &g->r.pool;
  if (kv_option.length) {
    MET_RETURN_IF_ERROR(parse_kv_option(g, kv_option));
    return kv_dtype.length ? dtype_bits(g, (MlirAttribute){NULL}, kv_dtype, "kv-dtype",
                                        &pool->kv_bits)
                           : MET_OK;
  }
  if (mlirAttributeIsNull(p)) {
    if (!kv_dtype.length) return MET_OK;
    uint32_t bits;  // checked all the same: a bad value is an error wherever it is given
    MET_RETURN_IF_ERROR(dtype_bits(g, (MlirAttribute){NULL}, kv_dtype, "kv-dtype", &bits));
    met_diag_emit(g->diag, g->user, met_diag_module_loc(g->module), MET_DIAG_WARNING,
                  "kv-dtype='%.*s' has no effect: the module declares no KV pool "
                  "(metrale.kv_pool, or kv-pool=)", (int)kv_dtype.length, kv_dtype.data);
    return MET_OK;
  }
  if (!mlirAttributeIsADictionary(p)) {
    met_diag_emit(g->diag, g->user, met_diag_module_loc(g->module), MET_DIAG_ERROR,
             "metrale.kv_pool must be a dictionary");
    return met_mem_fail(g, MET_EINVAL);
  }
  pool->present = true;
  const char *w = "metrale.kv_pool";
  static const char *const pool_keys[] = {"layers", "kv_heads", "head_dim", "block_size",
                                          "dtype", "draft", NULL};
  MET_RETURN_IF_ERROR(known_keys(g, p, w, pool_keys));
  MET_RETURN_IF_ERROR(int_entry(g, p, "layers", w, &pool->layers));
  MET_RETURN_IF_ERROR(int_entry(g, p, "kv_heads", w, &pool->kv_heads));
  MET_RETURN_IF_ERROR(int_entry(g, p, "head_dim", w, &pool->head_dim));
  MET_RETURN_IF_ERROR(int_entry(g, p, "block_size", w, &pool->block_size));
  // The option names the served KV type; else the module's declaration.
  if (kv_dtype.length)
    MET_RETURN_IF_ERROR(dtype_bits(g, (MlirAttribute){NULL}, kv_dtype, "kv-dtype", &pool->kv_bits));
  else
    MET_RETURN_IF_ERROR(dtype_bits(g, met_mem_attr_of(p, "dtype"), (MlirStringRef){NULL, 0},
                                   "metrale.kv_pool dtype", &pool->kv_bits));
  MlirAttribute d = met_mem_attr_of(p, "draft");
  if (!mlirAttributeIsNull(d)) {
    pool->has_draft = true;
    const char *dw = "metrale.kv_pool draft";
    static const char *const draft_keys[] = {"layers", "kv_heads", "head_dim", "dtype", NULL};
    if (!mlirAttributeIsADictionary(d))
      return decl_error(g, "%s entry '%s' %s", w, "draft", "must be a dictionary");
    MET_RETURN_IF_ERROR(known_keys(g, d, dw, draft_keys));
    MET_RETURN_IF_ERROR(int_entry(g, d, "layers", dw, &pool->draft_layers));
    MET_RETURN_IF_ERROR(int_entry(g, d, "kv_heads", dw, &pool->draft_kv_heads));
    MET_RETURN_IF_ERROR(int_entry(g, d, "head_dim", dw, &pool->draft_head_dim));
    MET_RETURN_IF_ERROR(dtype_bits(g, met_mem_attr_of(d, "dtype"), (MlirStringRef){NULL, 0},
                                   "metrale.kv_pool draft dtype", &pool->draft_kv_bits));
  }
  return MET_OK;
}

met_status_t met_mem_gather_caches(gather_t *g) {
  MlirAttribute c = mlirOperationGetDiscardableAttributeByName(
      g->module, mlirStringRefCreateFromCString("metrale.caches"));
  if (mlirAttributeIsNull(c)) return MET_OK;
  MlirLocation mloc = met_diag_module_loc(g->module);
  if (!mlirAttributeIsAArray(c)) {
    met_diag_emit(g->diag, g->user, mloc, MET_DIAG_ERROR,
                  "metrale.caches must be an array of dictionaries");
    return met_mem_fail(g, MET_EINVAL);
  }
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(c); ++i) {
    MlirAttribute e = mlirArrayAttrGetElement(c, i);
    if (!mlirAttributeIsADictionary(e)) {
      met_diag_emit(g->diag, g->user, mloc, MET_DIAG_ERROR,
               "metrale.caches entry #%" PRIdPTR " must be a dictionary", i);
      return met_mem_fail(g, MET_EINVAL);
    }
    static const char *const cache_keys[] = {"name", "units", "bytes", "where", NULL};
    MET_RETURN_IF_ERROR(known_keys(g, e, "metrale.caches", cache_keys));
    MlirAttribute nm = met_mem_attr_of(e, "name"), where = met_mem_attr_of(e, "where");
    met_memory_cache_t cache = {0};
    MET_RETURN_IF_ERROR(int_entry(g, e, "units", "metrale.caches", &cache.units));
    MET_RETURN_IF_ERROR(int_entry(g, e, "bytes", "metrale.caches", &cache.unit_bytes));
    MlirStringRef name, w = {"device", 6};
    const char *why = mlirAttributeIsNull(nm) ? "needs a name" : met_attr_string(nm, &name);
    if (!why && !name.length) why = "has an empty name";
    if (!why && !cache.units) why = "needs units";
    if (!why && !cache.unit_bytes) why = "needs bytes";
    if (!why && !mlirAttributeIsNull(where) &&
        (met_attr_string(where, &w) ||
         !(met_ir_str_eq(w, "host") || met_ir_str_eq(w, "device"))))
      why = "has a 'where' that is not \"host\" or \"device\"";
    if (why) {
      met_diag_emit(g->diag, g->user, mloc, MET_DIAG_ERROR,
               "metrale.caches entry #%" PRIdPTR " %s (it needs name, units and bytes)", i, why);
      return met_mem_fail(g, MET_EINVAL);
    }
    cache.name = met_arena_strndup(&g->arena, name.data, name.length);
    cache.host = w.length == 4;
    met_status_t st = met_memory_model_cache(&g->model, &cache);
    if (st == MET_EOVERFLOW && !strcmp(g->model.overflow_term, MET_MEMORY_CACHE_PRODUCT)) {
      met_diag_emit(g->diag, g->user, mloc, MET_DIAG_ERROR,
               "metrale.caches entry #%" PRIdPTR ": units x bytes overflows 64 bits", i);
      return met_mem_fail(g, MET_EINVAL);
    }
    MET_RETURN_IF_ERROR(met_mem_check(g, st));
  }
  return MET_OK;
}
