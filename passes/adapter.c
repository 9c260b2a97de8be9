// adapter.c: MLIR func.func -> met_graph_t.
//
// One walk over the body's top-level ops in program order (positions count every
// top-level op, graph nodes are made only for ops that touch shaped values). Uses inside
// an op's regions of values defined outside it become that op's operands (deduplicated).
// Expected workload: up to ~10^6 ops per function; O(ops + operands) plus hashing.
#include "adapter.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrale/budget.h"
#include "metrale/opclass.h"
#include "metrale/ptrmap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "attrs.h"
#include "types.h"


static bool spec_selects(const met_param_spec_t *p, int64_t index, bool is_float) {
  if (!p) return false;
  if (p->all || (p->floats && is_float)) return true;
  for (size_t r = 0; r < p->range_count; ++r)
    if (index >= p->lo[r] && index <= p->hi[r]) return true;
  return false;
}

// The first file:line:col location inside |loc| in depth-first order, looking through
// names (their child), call sites (the callee) and fused locations (their parts in
// order). A location is a DAG that can fan out exponentially (fused[30 x name(fused[...])]
// nine deep is 30^9 paths in 4 KB of text), so the search visits at most kMaxVisits nodes
// and then gives up (no file location): never a hang, never a deep recursion.
enum { kMaxVisits = 4096 };

static MlirLocation find_file_loc(MlirLocation loc) {
  MlirLocation small[64];
  MlirLocation *stack = small;
  size_t cap = 64, sp = 0, visits = 0;
  MlirLocation found = {NULL};
  if (!mlirLocationIsNull(loc)) stack[sp++] = loc;
  while (sp && visits++ < kMaxVisits) {
    MlirLocation l = stack[--sp];
    if (mlirLocationIsAFileLineColRange(l)) { found = l; break; }
    intptr_t n = 0;
    if (mlirLocationIsAName(l) || mlirLocationIsACallSite(l)) n = 1;
    else if (mlirLocationIsAFused(l)) n = mlirLocationFusedGetNumLocations(l);
    if (n <= 0) continue;
    if (sp + (size_t)n > cap) {  // grow to fit: the C API writes every part at once
      size_t ncap = cap;
      while (sp + (size_t)n > ncap) ncap *= 2;
      MlirLocation *p = malloc(ncap * sizeof(MlirLocation));
      if (!p) break;
      memcpy(p, stack, sp * sizeof(MlirLocation));
      if (stack != small) free(stack);
      stack = p;
      cap = ncap;
    }
    if (mlirLocationIsAName(l)) {
      stack[sp++] = mlirLocationNameGetChildLoc(l);
    } else if (mlirLocationIsACallSite(l)) {
      stack[sp++] = mlirLocationCallSiteGetCallee(l);
    } else {
      // Parts go on the stack last first, so the first part is searched first.
      mlirLocationFusedGetLocations(l, stack + sp);
      for (intptr_t i = 0, j = n - 1; i < j; ++i, --j) {
        MlirLocation t = stack[sp + i];
        stack[sp + i] = stack[sp + j];
        stack[sp + j] = t;
      }
      sp += (size_t)n;
    }
  }
  if (stack != small) free(stack);
  return found;
}

const char *met_adapter_loc_string(met_arena_t *arena, MlirLocation loc) {
  MlirLocation f = find_file_loc(loc);
  if (mlirLocationIsNull(f)) return NULL;
  MlirStringRef file = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(f));
  char buf[64];
  int line = mlirLocationFileLineColRangeGetStartLine(f);
  // Line 0 is the file itself (the implicit top-level module): just its name.
  int n = line ? snprintf(buf, sizeof(buf), ":%d:%d", line,
                          mlirLocationFileLineColRangeGetStartColumn(f))
               : 0;
  buf[n > 0 ? n : 0] = '\0';
  if (n < 0) return NULL;
  char *out = met_arena_alloc(arena, file.length + (size_t)n + 1);
  if (!out) return NULL;
  if (file.length) memcpy(out, file.data, file.length);
  memcpy(out + file.length, buf, (size_t)n + 1);
  return out;
}

MlirStringRef met_adapter_func_name(MlirOperation func) {
  MlirAttribute a = mlirOperationGetInherentAttributeByName(func, mlirStringRefCreateFromCString("sym_name"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a)) return mlirStringRefCreateFromCString("?");
  return mlirStringAttrGetValue(a);
}

const char *met_adapter_qualified_name(met_arena_t *arena, MlirOperation func) {
  MlirStringRef fname = met_adapter_func_name(func);
  char *name = met_arena_strndup(arena, fname.data, fname.length);
  // Enclosing named modules, innermost first: "inner::@f", then "outer::@inner::@f".
  for (MlirOperation p = mlirOperationGetParentOperation(func); name && !mlirOperationIsNull(p);
       p = mlirOperationGetParentOperation(p)) {
    MlirAttribute a = mlirOperationGetInherentAttributeByName(
        p, mlirStringRefCreateFromCString("sym_name"));
    if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a)) continue;
    MlirStringRef m = mlirStringAttrGetValue(a);
    name = met_arena_printf(arena, "%.*s::@%s", (int)m.length, m.data, name);
  }
  return name;
}

typedef struct builder_t {
  const met_adapter_options_t *opt;
  met_arena_t *arena;
  met_graph_t *g;
  met_diag_list_t *diags;
  met_ptrmap_t map;           // MlirValue -> graph value id
  uint32_t *stamp;            // per value: last node that took it as an operand
  size_t stamp_cap;
  MlirAsmState names;         // when recording names
  MlirContext ctx;
  met_strbuf_t scratch;       // value names are printed here first
  bool failed;
  MlirOperation func;         // the function being built
  const struct builder_t *parent;  // the builder of the enclosing graph (regions)
  int depth;                  // region nesting of the graph being built (0: the function)
  // Per-run caches: op names and types are uniqued in the context, so their pointers are
  // keys. They turn name lookups, registration checks and type sizing into one probe.
  met_ptrmap_t opcache, typecache;
  met_ptrmap_t itercache;     // iterator_types attribute -> 1 + has a reduction
  struct op_entry_t *ops; size_t nops, capops;
  struct type_entry_t *types; size_t ntypes, captypes;
} builder_t;

typedef struct op_entry_t {
  const char *name;     // interned in the run's arena
  size_t len;
  met_opinfo_t info;
  bool registered, is_generic, is_call, is_call_indirect, is_linalg, is_copy;
  bool walk_regions;    // its regions may use values defined outside it
  bool dealloc;         // frees its operands
} op_entry_t;

typedef struct type_entry_t {
  met_type_size_t size;
  met_size_status_t status;
  bool shaped;
} type_entry_t;

static bool str_eq(MlirStringRef s, const char *lit) {
  size_t n = strlen(lit);
  return s.length == n && memcmp(s.data, lit, n) == 0;
}

static met_status_t op_entry(builder_t *b, MlirOperation op, const op_entry_t **out) {
  MlirIdentifier id = mlirOperationGetName(op);
  uint32_t k = met_ptrmap_get(&b->opcache, id.ptr);
  if (k != UINT32_MAX) { *out = &b->ops[k]; return MET_OK; }
  MET_RETURN_IF_ERROR(met_arena_reserve(b->arena, (void **)&b->ops, &b->capops, b->nops, sizeof(op_entry_t)));
  op_entry_t *e = &b->ops[b->nops];
  MlirStringRef name = mlirIdentifierStr(id);
  e->name = met_arena_strndup(b->arena, name.data, name.length);
  if (!e->name) return MET_ENOMEM;
  e->len = name.length;
  e->info = met_opclass_lookup(name.data, name.length);
  e->registered = mlirContextIsRegisteredOperation(b->ctx, name);
  e->is_generic = str_eq(name, "linalg.generic");
  e->is_call = str_eq(name, "func.call");
  e->is_call_indirect = str_eq(name, "func.call_indirect");
  e->is_linalg = name.length > 7 && !memcmp(name.data, "linalg.", 7);
  e->is_copy = str_eq(name, "memref.copy");
  e->dealloc = str_eq(name, "memref.dealloc") || str_eq(name, "bufferization.dealloc");
  // Named linalg ops (matmul, conv, fill, ...) build their bodies from the op definition,
  // over block arguments only; generic, map and reduce bodies are written by hand and may
  // capture outside values, like the regions of every other op.
  e->walk_regions = !e->is_linalg || e->is_generic || str_eq(name, "linalg.map") ||
                    str_eq(name, "linalg.reduce");
  MET_RETURN_IF_ERROR(met_ptrmap_put(&b->opcache, id.ptr, (uint32_t)b->nops));
  *out = &b->ops[b->nops++];
  return MET_OK;
}

static met_status_t type_entry(builder_t *b, MlirType t, const type_entry_t **out) {
  uint32_t k = met_ptrmap_get(&b->typecache, t.ptr);
  if (k != UINT32_MAX) { *out = &b->types[k]; return MET_OK; }
  MET_RETURN_IF_ERROR(met_arena_reserve(b->arena, (void **)&b->types, &b->captypes, b->ntypes,
                        sizeof(type_entry_t)));
  type_entry_t *e = &b->types[b->ntypes];
  memset(e, 0, sizeof(*e));
  e->shaped = met_type_is_shaped_value(t);
  if (e->shaped)
    e->status = met_type_size(t, b->opt->target->index_bits, b->opt->dynamic_size, &e->size);
  MET_RETURN_IF_ERROR(met_ptrmap_put(&b->typecache, t.ptr, (uint32_t)b->ntypes));
  *out = &b->types[b->ntypes++];
  return MET_OK;
}

static const char *value_name(builder_t *b, MlirValue v) {
  if (!b->opt->record_names) return NULL;
  b->scratch.len = 0;
  mlirValuePrintAsOperand(v, b->names, met_mlir_append, &b->scratch);
  if (b->scratch.status || !b->scratch.data) return NULL;
  return met_arena_strndup(b->arena, b->scratch.data, b->scratch.len);
}

// Sizes one shaped value; records what makes it incomplete. |what| ("result",
// "argument") and |index| name it in diagnostics, formatted only when one is emitted.
// Sets |*overflow| when the size overflows (an error was added).
static met_status_t size_value(builder_t *b, MlirValue v, MlirLocation loc, const char *kind,
                               intptr_t index, met_value_t *out, bool *overflow) {
  MlirType t = mlirValueGetType(v);
  const type_entry_t *te;
  MET_RETURN_IF_ERROR(type_entry(b, t, &te));
  met_type_size_t sz = te->size;
  met_size_status_t s = te->status;
  memset(out, 0, sizeof(*out));
  out->alias = -1;
  out->arg_index = -1;
  out->bytes = sz.bytes;
  out->f32_bytes = sz.f32_bytes;
  if (sz.is_float) out->flags |= MET_VALUE_F_FLOAT;
  if (sz.is_memref) out->flags |= MET_VALUE_F_MEMREF;
  if (sz.dynamic) out->flags |= MET_VALUE_F_DYNAMIC | (b->opt->dynamic_size > 0 ? MET_VALUE_F_BOUND : 0);
  out->name = value_name(b, v);
  *overflow = false;
  if (s == MET_SIZE_OK) return MET_OK;
  char what[48];
  snprintf(what, sizeof(what), "%s #%" PRIdPTR, kind, index);
  const char *ty = met_type_string(b->arena, t);
  if (!ty) return MET_ENOMEM;
  if (s == MET_SIZE_OVERFLOW) {
    *overflow = true;
    b->failed = true;
    return met_diag_add(b->arena, b->diags, loc, MET_DIAG_ERROR,
                        "%s of type %s has no byte size: its element count times its storage "
                        "width overflows 64 bits", what, ty);
  }
  // One warning per value whose bytes are unknown: it counts 0 and the report is
  // incomplete (a lower bound).
  out->flags |= MET_VALUE_F_UNRANKED;
  out->bytes = out->f32_bytes = 0;
  return met_diag_add(b->arena, b->diags, loc, MET_DIAG_WARNING,
                      "%s of type %s %s: counted as 0 bytes, so the report is a lower bound",
                      what, ty, met_size_status_why(s));
}

static met_status_t take_operand(builder_t *b, uint32_t node, MlirValue v, bool dedupe) {
  uint32_t id = met_ptrmap_get(&b->map, v.ptr);
  if (id == UINT32_MAX) return MET_OK;
  if (dedupe && b->stamp[id] == node + 1) return MET_OK;
  b->stamp[id] = node + 1;
  return met_graph_add_operand(b->g, id);
}

// Operands of ops nested in |op|'s regions that are defined outside |op|.
static met_status_t take_nested(builder_t *b, uint32_t node, MlirOperation op) {
  intptr_t nr = mlirOperationGetNumRegions(op);
  for (intptr_t r = 0; r < nr; ++r) {
    MlirRegion region = mlirOperationGetRegion(op, r);
    for (MlirBlock blk = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(blk);
         blk = mlirBlockGetNextInRegion(blk)) {
      for (MlirOperation in = mlirBlockGetFirstOperation(blk); !mlirOperationIsNull(in);
           in = mlirOperationGetNextInBlock(in)) {
        for (intptr_t i = 0; i < mlirOperationGetNumOperands(in); ++i)
          MET_RETURN_IF_ERROR(take_operand(b, node, mlirOperationGetOperand(in, i), true));
        if (mlirOperationGetNumRegions(in)) MET_RETURN_IF_ERROR(take_nested(b, node, in));
      }
    }
  }
  return MET_OK;
}


typedef struct attr_sink_t { bool reduction; } attr_sink_t;
static void scan_iterators(MlirStringRef s, void *user) {
  attr_sink_t *a = user;
  for (size_t i = 0; i + 9 <= s.length; ++i)
    if (!memcmp(s.data + i, "reduction", 9)) { a->reduction = true; return; }
}

// linalg.generic: a reduction iterator makes it a reduction; a body of one cast op
// (then linalg.yield) makes it a cast. The iterator list has no C accessor, so it is
// printed once per distinct (uniqued) attribute and the answer cached.
static met_status_t refine_generic(builder_t *b, MlirOperation op, met_opinfo_t *info) {
  MlirAttribute it = mlirOperationGetInherentAttributeByName(
      op, mlirStringRefCreateFromCString("iterator_types"));
  if (!mlirAttributeIsNull(it)) {
    uint32_t known = met_ptrmap_get(&b->itercache, it.ptr);
    if (known == UINT32_MAX) {
      attr_sink_t sink = {false};
      mlirAttributePrint(it, scan_iterators, &sink);
      known = 1u + sink.reduction;
      MET_RETURN_IF_ERROR(met_ptrmap_put(&b->itercache, it.ptr, known));
    }
    if (known == 2) info->op_class = MET_CLASS_REDUCTION;
  }
  if (mlirOperationGetNumRegions(op) < 1) return MET_OK;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  if (mlirBlockIsNull(body)) return MET_OK;
  MlirOperation first = mlirBlockGetFirstOperation(body);
  if (mlirOperationIsNull(first)) return MET_OK;
  MlirOperation second = mlirOperationGetNextInBlock(first);
  if (mlirOperationIsNull(second) || !mlirOperationIsNull(mlirOperationGetNextInBlock(second)))
    return MET_OK;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(first));
  met_opinfo_t inner = met_opclass_lookup(n.data, n.length);
  if (inner.cast) info->cast = true;
  return MET_OK;
}

// The attribute dictionary of argument |index|, or a null attribute.
static MlirAttribute arg_dict(MlirOperation func, intptr_t index) {
  MlirAttribute arr = mlirOperationGetInherentAttributeByName(
      func, mlirStringRefCreateFromCString("arg_attrs"));
  if (mlirAttributeIsNull(arr) || !mlirAttributeIsAArray(arr) ||
      index >= mlirArrayAttrGetNumElements(arr))
    return (MlirAttribute){NULL};
  MlirAttribute dict = mlirArrayAttrGetElement(arr, index);
  return mlirAttributeIsADictionary(dict) ? dict : (MlirAttribute){NULL};
}

// Checks every `metrale.*` attribute of argument |index| by its rule (attrs.h) and reads
// the markers. A broken or unknown one is an error at the function.
static met_status_t read_arg_attrs(builder_t *b, MlirOperation func, intptr_t index,
                                   bool *param, bool *state, bool *named, bool *formatted) {
  *param = *state = *named = *formatted = false;
  MlirAttribute dict = arg_dict(func, index);
  if (mlirAttributeIsNull(dict)) return MET_OK;
  for (intptr_t k = 0; k < mlirDictionaryAttrGetNumElements(dict); ++k) {
    MlirNamedAttribute na = mlirDictionaryAttrGetElement(dict, k);
    MlirStringRef key = mlirIdentifierStr(na.name);
    if (key.length < 8 || memcmp(key.data, "metrale.", 8)) continue;
    const char *why;
    MlirStringRef str;
    MlirType ty;
    if (str_eq(key, "metrale.param")) why = met_attr_marker(na.attribute, param);
    else if (str_eq(key, "metrale.state")) why = met_attr_marker(na.attribute, state);
    else if (str_eq(key, "metrale.name")) {
      why = met_attr_string(na.attribute, &str);
      if (!why && !str.length) why = "must not be empty";
      if (!why && memchr(str.data, '\0', str.length)) why = "must not contain a NUL character";
      *named = !why;
    } else if (str_eq(key, "metrale.format")) {
      why = met_attr_type(b->ctx, na.attribute, &ty);
      *formatted = !why;
    }
    else why = "is not a metrale attribute (metrale.param, metrale.state, metrale.name, "
               "metrale.format)";
    if (!why) continue;
    b->failed = true;
    MET_RETURN_IF_ERROR(met_diag_add(b->arena, b->diags, mlirOperationGetLocation(func), MET_DIAG_ERROR,
                     "argument #%" PRIdPTR ": attribute '%.*s' %s", index, (int)key.length,
                     key.data, why));
  }
  return MET_OK;
}

static met_status_t grow_stamps(builder_t *b) {
  while (b->stamp_cap < b->g->value_count + 64) {
    size_t ncap = b->stamp_cap ? b->stamp_cap * 2 : 64;  // region graphs are mostly small
    uint32_t *s;
    MET_RETURN_IF_ERROR(met_arena_calloc(b->arena, ncap, sizeof(uint32_t), (void **)&s));
    if (b->stamp) memcpy(s, b->stamp, b->stamp_cap * sizeof(uint32_t));
    b->stamp = s;
    b->stamp_cap = ncap;
  }
  return MET_OK;
}

static met_status_t add_arguments(builder_t *b, MlirOperation func, MlirBlock entry) {
  MlirLocation floc = mlirOperationGetLocation(func);
  uint64_t look_bytes = 0, look_count = 0;
  int64_t first_look = -1, last_look = -1;
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); ++i) {
    MlirValue a = mlirBlockGetArgument(entry, i);
    bool marked_param, marked_state, named, formatted;
    MET_RETURN_IF_ERROR(read_arg_attrs(b, func, i, &marked_param, &marked_state, &named, &formatted));
    // One role per argument, and the attributes that describe a role need it.
    const char *clash = marked_param && marked_state
                            ? "is marked both metrale.param and metrale.state"
                        : (marked_param || marked_state) &&
                                !met_type_is_shaped_value(mlirValueGetType(a))
                            ? "is marked a parameter or state but is not a tensor or memref"
                            : NULL;
    if (clash) {
      b->failed = true;
      MET_RETURN_IF_ERROR(met_diag_add(b->arena, b->diags, floc, MET_DIAG_ERROR, "argument #%" PRIdPTR " %s",
                       i, clash));
      continue;
    }
    if (!met_type_is_shaped_value(mlirValueGetType(a))) continue;
    met_value_t v;
    bool overflow;
    MET_RETURN_IF_ERROR(size_value(b, a, floc, "argument", i, &v, &overflow));
    v.arg_index = (int32_t)i;
    bool is_float = v.flags & MET_VALUE_F_FLOAT;
    if (marked_state || spec_selects(b->opt->states, i, is_float))
      v.role = MET_ROLE_STATE;
    else if (marked_param || spec_selects(b->opt->params, i, is_float))
      v.role = MET_ROLE_PARAM;
    else
      v.role = MET_ROLE_INPUT;
    if ((formatted && v.role != MET_ROLE_PARAM) || (named && v.role == MET_ROLE_INPUT)) {
      b->failed = true;
      MET_RETURN_IF_ERROR(met_diag_add(b->arena, b->diags, floc, MET_DIAG_ERROR,
                       "argument #%" PRIdPTR ": %s describes a %s, and the argument is not "
                       "one (mark it with metrale.param%s, or params=/states=)",
                       i, formatted && v.role != MET_ROLE_PARAM ? "metrale.format" : "metrale.name",
                       formatted && v.role != MET_ROLE_PARAM ? "parameter" : "parameter or state",
                       formatted && v.role != MET_ROLE_PARAM ? "" : " or metrale.state"));
    }
    if ((v.flags & MET_VALUE_F_DYNAMIC) && !(v.flags & MET_VALUE_F_BOUND))
      MET_RETURN_IF_ERROR(met_diag_add(b->arena, b->diags, floc, MET_DIAG_WARNING,
                       "argument #%" PRIdPTR " has dynamic dims, counted as 1 each: byte counts "
                       "are lower bounds (bind them with dynamic-size=N)", i));
    if (v.role == MET_ROLE_INPUT && is_float) {
      look_count++;
      look_bytes += v.bytes;
      if (first_look < 0) first_look = i;
      last_look = i;
    }
    uint32_t id;
    MET_RETURN_IF_ERROR(met_graph_add_argument(b->g, &v, &id));
    MET_RETURN_IF_ERROR(met_ptrmap_put(&b->map, a.ptr, id));
  }
  // Real exported graphs pass weights as arguments: say so when they are not marked.
  if ((look_count >= 2 && look_bytes >= 1024ull * 1024) || look_bytes >= 16ull * 1024 * 1024) {
    MET_RETURN_IF_ERROR(met_diag_add(b->arena, b->diags, floc, MET_DIAG_REMARK,
                     "%" PRIu64 " unmarked float argument(s) between #%" PRId64 " and #%" PRId64
                     " (%" PRIu64 " bytes) are counted as host inputs; if they are weights, mark "
                     "them with the `metrale.param` argument attribute or params=...",
                     look_count, first_look, last_look, look_bytes));
  }
  return MET_OK;
}

static met_status_t add_op(builder_t *b, MlirOperation op, int32_t pos);

// Appends nodes for every op of |region|'s blocks in order, from position |*pos| on.
static met_status_t add_blocks(builder_t *b, MlirRegion region, int32_t *pos, size_t *blocks) {
  for (MlirBlock blk = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(blk);
       blk = mlirBlockGetNextInRegion(blk)) {
    ++*blocks;
    for (MlirOperation op = mlirBlockGetFirstOperation(blk); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op))
      MET_RETURN_IF_ERROR(add_op(b, op, (*pos)++));
  }
  return MET_OK;
}

// Deeper region nesting than this is not descended into (the report says so).
enum { MAX_REGION_DEPTH = 48 };

// True when an op in |region| (at any depth) has a shaped operand or result: only such a
// region can hold tensors or buffers of its own.
static bool region_touches_shaped(MlirRegion region) {
  for (MlirBlock blk = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(blk);
       blk = mlirBlockGetNextInRegion(blk))
    for (MlirOperation in = mlirBlockGetFirstOperation(blk); !mlirOperationIsNull(in);
         in = mlirOperationGetNextInBlock(in)) {
      for (intptr_t i = 0; i < mlirOperationGetNumOperands(in); ++i)
        if (met_type_is_shaped_value(mlirValueGetType(mlirOperationGetOperand(in, i)))) return true;
      for (intptr_t i = 0; i < mlirOperationGetNumResults(in); ++i)
        if (met_type_is_shaped_value(mlirValueGetType(mlirOperationGetResult(in, i)))) return true;
      // A call may allocate and dispatch in its callee whatever its operands are.
      MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(in));
      if (str_eq(n, "func.call") || str_eq(n, "func.call_indirect")) return true;
      for (intptr_t r = 0; r < mlirOperationGetNumRegions(in); ++r)
        if (region_touches_shaped(mlirOperationGetRegion(in, r))) return true;
    }
  return false;
}

// Adds |v| as an input of the region graph |sb| once (sized without diagnostics: the
// value was reported where it is defined).
static met_status_t add_region_input(builder_t *sb, MlirValue v) {
  if (met_ptrmap_get(&sb->map, v.ptr) != UINT32_MAX) return MET_OK;
  const type_entry_t *te;
  MET_RETURN_IF_ERROR(type_entry(sb, mlirValueGetType(v), &te));
  if (!te->shaped) return MET_OK;
  met_value_t val;
  memset(&val, 0, sizeof(val));
  val.alias = val.arg_index = -1;
  val.role = MET_ROLE_INPUT;
  if (te->status == MET_SIZE_OK) {
    val.bytes = te->size.bytes;
    val.f32_bytes = te->size.f32_bytes;
    if (te->size.is_memref) val.flags |= MET_VALUE_F_MEMREF;
    if (te->size.is_float) val.flags |= MET_VALUE_F_FLOAT;
    // Its dynamic dims were reported where it is defined: not again in the body.
    if (te->size.dynamic)
      val.flags |= MET_VALUE_F_DYNAMIC | (sb->opt->dynamic_size > 0 ? MET_VALUE_F_BOUND : 0);
  } else {
    val.flags |= MET_VALUE_F_UNRANKED;
  }
  uint32_t id;
  MET_RETURN_IF_ERROR(met_graph_add_argument(sb->g, &val, &id));
  return met_ptrmap_put(&sb->map, v.ptr, id);
}

// Values of enclosing graphs that ops in |region| use, at any depth (a use in a deeper
// region is a use by the op that holds it), become inputs of |sb|.
static met_status_t add_outer_uses(builder_t *sb, MlirRegion region) {
  for (MlirBlock blk = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(blk);
       blk = mlirBlockGetNextInRegion(blk))
    for (MlirOperation in = mlirBlockGetFirstOperation(blk); !mlirOperationIsNull(in);
         in = mlirOperationGetNextInBlock(in)) {
      for (intptr_t i = 0; i < mlirOperationGetNumOperands(in); ++i) {
        MlirValue v = mlirOperationGetOperand(in, i);
        for (const builder_t *p = sb->parent; p; p = p->parent)
          if (met_ptrmap_get(&p->map, v.ptr) != UINT32_MAX) {
            MET_RETURN_IF_ERROR(add_region_input(sb, v));
            break;
          }
      }
      for (intptr_t r = 0; r < mlirOperationGetNumRegions(in); ++r)
        MET_RETURN_IF_ERROR(add_outer_uses(sb, mlirOperationGetRegion(in, r)));
    }
  return MET_OK;
}

// The inputs of a region graph: its blocks' shaped arguments (iter_args, the buffers a
// launch captures) and the values of enclosing graphs its ops use (a loop body that
// writes into a buffer defined outside it), so that buffer-only ops in the body are
// nodes with operands as they are at the top level.
static met_status_t add_region_inputs(builder_t *sb, MlirRegion region) {
  for (MlirBlock blk = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(blk);
       blk = mlirBlockGetNextInRegion(blk))
    for (intptr_t i = 0; i < mlirBlockGetNumArguments(blk); ++i)
      MET_RETURN_IF_ERROR(add_region_input(sb, mlirBlockGetArgument(blk, i)));
  return add_outer_uses(sb, region);
}

// The scratch of |op| (graph.h): the largest planned arena of one of its regions, each
// built as a graph of its own (values defined outside the op are not its slots: they are
// counted where they are defined) and analysed on the same target. Sets |*out_dispatches|
// to the most dispatches one region runs; marks the graph incomplete, with a warning at
// |op|, when a region cannot be counted exactly.
static met_status_t region_scratch(builder_t *b, MlirOperation op, MlirLocation loc,
                                   const char *name, uint64_t *out_bytes, uint64_t *out_native,
                                   uint64_t *out_dispatches) {
  *out_bytes = *out_native = *out_dispatches = 0;
  if (b->depth >= MAX_REGION_DEPTH) {
    b->g->incomplete = true;
    return met_diag_add(b->arena, b->diags, loc, MET_DIAG_WARNING,
                        "'%s' is nested more than %d regions deep: its body is not counted, so "
                        "the report is a lower bound", name, MAX_REGION_DEPTH);
  }
  bool incomplete = false;
  size_t max_blocks = 0;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
    MlirRegion region = mlirOperationGetRegion(op, r);
    if (mlirBlockIsNull(mlirRegionGetFirstBlock(region)) || !region_touches_shaped(region))
      continue;
    met_graph_t sub;
    met_graph_initialize(b->arena, &sub);
    sub.name = "region";
    builder_t sb = *b;  // shares the caches; handed back below
    sb.g = &sub;
    sb.depth = b->depth + 1;
    sb.stamp = NULL;
    sb.stamp_cap = 0;
    sb.parent = b;
    met_ptrmap_initialize(b->arena, &sb.map);
    int32_t pos = 0;
    size_t blocks = 0;
    met_status_t st = add_region_inputs(&sb, region);
    if (!st) st = add_blocks(&sb, region, &pos, &blocks);
    b->opcache = sb.opcache; b->typecache = sb.typecache; b->itercache = sb.itercache;
    b->ops = sb.ops; b->nops = sb.nops; b->capops = sb.capops;
    b->types = sb.types; b->ntypes = sb.ntypes; b->captypes = sb.captypes;
    b->scratch = sb.scratch;
    b->failed |= sb.failed;
    MET_RETURN_IF_ERROR(st);
    if (sb.failed || !sub.node_count) continue;
    if (sub.position_count < (uint32_t)pos) sub.position_count = (uint32_t)pos;
    met_budget_report_t rep;
    MET_RETURN_IF_ERROR(met_budget_analyze(&sub, b->opt->target, NULL, b->arena, &rep));
    const met_budget_t *bud = &rep.budget;
    if (bud->arena_bytes > *out_bytes) *out_bytes = bud->arena_bytes;
    uint64_t native = bud->arena_bytes - bud->width_overhead_bytes;
    if (native > *out_native) *out_native = native;
    // Dispatches the body launches each time it runs: its groups other than nested loop
    // nests, which belong to this op's own nest (a loop nest is one dispatch; a nested
    // loop's body warns for itself).
    uint8_t *seen;
    MET_RETURN_IF_ERROR(met_arena_calloc(b->arena, sub.node_count ? sub.node_count : 1, 1, (void **)&seen));
    uint64_t own = 0;
    for (size_t n = 0; n < sub.node_count; ++n) {
      uint32_t grp = rep.group_of_node[n];
      if (grp == UINT32_MAX || grp >= sub.node_count || seen[grp] ||
          sub.nodes[n].op_class == MET_CLASS_LOOP)
        continue;
      seen[grp] = 1;
      ++own;
    }
    if (own > *out_dispatches) *out_dispatches = own;
    incomplete |= !rep.complete;
    if (blocks > max_blocks) max_blocks = blocks;
  }
  if (incomplete) b->g->incomplete = true;
  if (max_blocks > 1) {
    b->g->incomplete = true;
    MET_RETURN_IF_ERROR(met_diag_add(b->arena, b->diags, loc, MET_DIAG_WARNING,
                     "a region of '%s' has %zu blocks: its ops are scheduled in block order "
                     "and values passed through block arguments are not tracked, so the "
                     "report is a lower bound", name, max_blocks));
  }
  if (*out_dispatches) {
    // Each run of a body launches its dispatches again; how often a loop runs is not
    // known here.
    b->g->incomplete = true;
    MET_RETURN_IF_ERROR(met_diag_add(b->arena, b->diags, loc, MET_DIAG_WARNING,
                     "the body of '%s' runs %" PRIu64 " dispatch(es) of its own: its scratch "
                     "arena (%" PRIu64 " bytes) is counted at the op, but not how often the "
                     "body runs its dispatches and their DRAM traffic, so dispatches and "
                     "dram_bytes are lower bounds", name, *out_dispatches, *out_bytes));
  }
  return MET_OK;
}

// The cost of a func.call (graph.h, Calls): the callee's Budget when it was analysed
// first; otherwise a warning at the call and an incomplete report.
static met_status_t call_cost(builder_t *b, MlirOperation op, MlirLocation loc,
                              met_node_extra_t *x, bool *has) {
  MlirAttribute a = mlirOperationGetInherentAttributeByName(
      op, mlirStringRefCreateFromCString("callee"));
  met_callee_t c = {MET_CALLEE_UNKNOWN, NULL};
  MlirStringRef name = {"?", 1};
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAFlatSymbolRef(a)) {
    name = mlirFlatSymbolRefAttrGetValue(a);
    if (b->opt->callee) b->opt->callee(b->opt->callee_user, b->func, name, &c);
  }
  if (c.state == MET_CALLEE_DONE) {
    const met_budget_t *cb = &c.report->budget;
    if (cb->arena_bytes > x->scratch_bytes) x->scratch_bytes = cb->arena_bytes;
    uint64_t native = cb->arena_bytes - cb->width_overhead_bytes;
    if (native > x->scratch_native_bytes) x->scratch_native_bytes = native;
    x->replaces_dispatch = true;
    x->dispatches = cb->dispatches;
    x->dram_bytes = cb->dram_bytes;
    x->off_fast_path_ops = cb->off_fast_path_ops;
    x->off_fast_path_bytes = cb->off_fast_path_bytes;
    x->cast_nodes = cb->cast_nodes;
    x->param_bytes = cb->param_bytes;
    *has = true;
    if (!c.report->complete) b->g->incomplete = true;  // the callee's warnings say why
    return MET_OK;
  }
  if (c.state == MET_CALLEE_NO_BODY) {
    // An external host function (a timer, a logger) that no tensor or buffer passes
    // through: not part of the graph's work.
    bool shaped = false;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op) && !shaped; ++i)
      shaped = met_type_is_shaped_value(mlirValueGetType(mlirOperationGetOperand(op, i)));
    for (intptr_t i = 0; i < mlirOperationGetNumResults(op) && !shaped; ++i)
      shaped = met_type_is_shaped_value(mlirValueGetType(mlirOperationGetResult(op, i)));
    if (!shaped) return MET_OK;
  }
  static const char *const why[] = {
      [MET_CALLEE_NO_BODY] = "which has no body in this module (an external function)",
      [MET_CALLEE_PENDING] = "recursively (it is on a cycle of calls)",
      [MET_CALLEE_FAILED] = "which could not be evaluated",
      [MET_CALLEE_UNKNOWN] = "which is not a function of this module"};
  b->g->incomplete = true;
  return met_diag_add(b->arena, b->diags, loc, MET_DIAG_WARNING,
                      "'func.call' calls @%.*s %s: the callee's arena, dispatches and traffic "
                      "are not counted, so the report is a lower bound",
                      (int)name.length, name.data, why[c.state]);
}

static met_status_t add_op(builder_t *b, MlirOperation op, int32_t pos) {
  const op_entry_t *oe;
  MET_RETURN_IF_ERROR(op_entry(b, op, &oe));
  MlirStringRef name = {oe->name, oe->len};
  met_opinfo_t info = oe->info;
  intptr_t nres = mlirOperationGetNumResults(op);
  intptr_t nshaped = 0;
  for (intptr_t r = 0; r < nres; ++r) {
    const type_entry_t *te;
    MET_RETURN_IF_ERROR(type_entry(b, mlirValueGetType(mlirOperationGetResult(op, r)), &te));
    nshaped += te->shaped;
  }
  MlirLocation loc = mlirOperationGetLocation(op);
  uint64_t ext = (uint64_t)(uintptr_t)loc.ptr;  // the node's handle: its location
  uint16_t flags = 0;
  if (!oe->registered) {
    info = (met_opinfo_t){MET_NODE_COMPUTE, MET_CLASS_UNKNOWN, MET_ROLE_OTHER, false, false, false};
    flags |= MET_NODE_F_UNREGISTERED;
  }
  if (info.kind == MET_NODE_LEAF && nshaped == 0) return MET_OK;  // scalar constant
  if (oe->is_generic) MET_RETURN_IF_ERROR(refine_generic(b, op, &info));
  if (info.kind == MET_NODE_VIEW) {
    bool src = mlirOperationGetNumOperands(op) > 0 &&
               met_ptrmap_get(&b->map, mlirOperationGetOperand(op, 0).ptr) != UINT32_MAX;
    if (!src || nshaped == 0)
      info = (met_opinfo_t){MET_NODE_COMPUTE, MET_CLASS_DATA_MOVEMENT, MET_ROLE_OTHER, false, true, false};
  }
  if (info.kind == MET_NODE_COMPUTE && nshaped == 0 && !oe->is_call &&
      info.op_class != MET_CLASS_LOOP && !(flags & MET_NODE_F_UNREGISTERED) &&
      !oe->is_linalg && !oe->is_copy)
    info.kind = MET_NODE_HOST;  // scalar arith/math and the like

  MET_RETURN_IF_ERROR(grow_stamps(b));
  uint32_t node;
  size_t before_ops = b->g->operand_count;
  MET_RETURN_IF_ERROR(met_graph_begin_node(b->g, name.data, name.length, (met_node_kind_t)info.kind,
                           (met_op_class_t)info.op_class, pos, ext, &node));
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    MET_RETURN_IF_ERROR(take_operand(b, node, mlirOperationGetOperand(op, i), false));
  if (oe->walk_regions && mlirOperationGetNumRegions(op)) MET_RETURN_IF_ERROR(take_nested(b, node, op));
  bool operand_dynamic = false, operand_unranked = false;
  for (size_t i = before_ops; i < b->g->operand_count; ++i) {
    uint16_t vf = b->g->values[b->g->operands[i]].flags;
    operand_dynamic |= (vf & MET_VALUE_F_DYNAMIC) && !(vf & MET_VALUE_F_BOUND);
    operand_unranked |= (vf & MET_VALUE_F_UNRANKED) != 0;
  }
  bool result_dynamic = false, result_unranked = false;
  for (intptr_t r = 0; r < nres && nshaped; ++r) {
    MlirValue res = mlirOperationGetResult(op, r);
    const type_entry_t *te;
    MET_RETURN_IF_ERROR(type_entry(b, mlirValueGetType(res), &te));
    if (!te->shaped) continue;
    met_value_t v;
    bool overflow;
    MET_RETURN_IF_ERROR(size_value(b, res, loc, "result", r, &v, &overflow));
    if (overflow) flags |= MET_NODE_F_NO_SIZE;
    result_dynamic |= (v.flags & MET_VALUE_F_DYNAMIC) && !(v.flags & MET_VALUE_F_BOUND);
    result_unranked |= (v.flags & MET_VALUE_F_UNRANKED) != 0;
    v.role = info.kind == MET_NODE_COMPUTE ? MET_ROLE_ACTIVATION : info.role;
    if (info.kind == MET_NODE_VIEW) {
      v.alias = (int32_t)met_ptrmap_get(&b->map, mlirOperationGetOperand(op, 0).ptr);
      v.role = MET_ROLE_OTHER;
    }
    uint32_t id;
    MET_RETURN_IF_ERROR(met_graph_add_result(b->g, &v, &id));
    MET_RETURN_IF_ERROR(met_ptrmap_put(&b->map, res.ptr, id));
  }
  // Tensors and buffers materialized inside the op's own regions (loop bodies, branches;
  // named linalg ops build scalar bodies and are not looked into).
  uint64_t scratch = 0, scratch_native = 0, body_dispatches = 0;
  if (oe->walk_regions && mlirOperationGetNumRegions(op))
    MET_RETURN_IF_ERROR(region_scratch(b, op, loc, oe->name, &scratch, &scratch_native, &body_dispatches));
  met_node_extra_t x = {0};
  x.scratch_bytes = scratch;
  x.scratch_native_bytes = scratch_native;
  bool has_x = scratch > 0;
  if (oe->is_call) MET_RETURN_IF_ERROR(call_cost(b, op, loc, &x, &has_x));
  else if (oe->is_call_indirect) {
    b->g->incomplete = true;
    MET_RETURN_IF_ERROR(met_diag_add(b->arena, b->diags, loc, MET_DIAG_WARNING,
                     "'%s' calls a function not known before run time: its arena, dispatches "
                     "and traffic are not counted, so the report is a lower bound", oe->name));
  }
  if (has_x) MET_RETURN_IF_ERROR(met_graph_set_extra(b->g, &x));
  met_node_t *n = &b->g->nodes[node];
  if (n->operand_count == 0 && n->result_count == 0 && info.kind != MET_NODE_RETURN && !has_x) {
    // Touches nothing shaped: drop the node again (its position still counts).
    b->g->node_count--;
    return MET_OK;
  }
  if (info.cast) flags |= MET_NODE_F_CAST;
  if (oe->info.softmax) flags |= MET_NODE_F_SOFTMAX;  // also when unregistered (IREE's)
  if (oe->dealloc) flags |= MET_NODE_F_DEALLOC;
  if (result_unranked || operand_unranked) flags |= MET_NODE_F_UNRANKED;
  if (result_dynamic) flags |= MET_NODE_F_DYNAMIC;
  n->flags = flags;
  if (b->opt->record_names) n->loc = met_adapter_loc_string(b->arena, loc);
  if (result_dynamic && !operand_dynamic)
    MET_RETURN_IF_ERROR(met_diag_add(b->arena, b->diags, loc, MET_DIAG_WARNING,
                     "'%.*s' has a result with dynamic dims, counted as 1 each: byte counts "
                     "from here on are lower bounds (bind them with dynamic-size=N)",
                     (int)name.length, name.data));
  return MET_OK;
}

met_status_t met_adapter_build(MlirOperation func, const met_adapter_options_t *options,
                               met_arena_t *arena, met_graph_t *graph,
                               met_diag_list_t *diags, bool *out_failed) {
  builder_t b;
  memset(&b, 0, sizeof(b));
  b.opt = options;
  b.arena = arena;
  b.g = graph;
  b.diags = diags;
  b.ctx = mlirOperationGetContext(func);
  b.func = func;
  met_graph_initialize(arena, graph);
  met_ptrmap_initialize(arena, &b.map);
  met_ptrmap_initialize(arena, &b.opcache);
  met_ptrmap_initialize(arena, &b.typecache);
  met_ptrmap_initialize(arena, &b.itercache);
  graph->name = met_adapter_qualified_name(arena, func);
  if (!graph->name) return MET_ENOMEM;
  *out_failed = false;
  MlirRegion body = mlirOperationGetRegion(func, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(body);
  if (mlirBlockIsNull(entry)) return MET_EINVAL;
  met_strbuf_initialize(met_allocator_system(), &b.scratch);
  if (options->record_names) {
    MlirOpPrintingFlags pf = mlirOpPrintingFlagsCreate();
    b.names = mlirAsmStateCreateForOperation(func, pf);
    mlirOpPrintingFlagsDestroy(pf);
  }
  // A counting walk (cheap: no allocation) sizes every array once.
  size_t nops = 0, nvals = mlirBlockGetNumArguments(entry), nopers = 0;
  for (MlirBlock blk = entry; !mlirBlockIsNull(blk); blk = mlirBlockGetNextInRegion(blk))
    for (MlirOperation op = mlirBlockGetFirstOperation(blk); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      ++nops;
      nvals += mlirOperationGetNumResults(op);
      nopers += mlirOperationGetNumOperands(op);
    }
  met_status_t st = met_graph_reserve(graph, nops, nvals, nopers + nops);
  if (!st) st = met_ptrmap_reserve(&b.map, nvals);
  if (!st) st = met_arena_calloc(arena, nvals + 64, sizeof(uint32_t), (void **)&b.stamp);
  if (!st) b.stamp_cap = nvals + 64;
  if (!st) st = add_arguments(&b, func, entry);
  int32_t pos = 0;
  size_t blocks = 0;
  if (!st) st = add_blocks(&b, body, &pos, &blocks);
  if (!st && blocks > 1) {
    graph->incomplete = true;
    st = met_diag_add(arena, diags, mlirOperationGetLocation(func), MET_DIAG_WARNING,
                      "function has %zu blocks: ops are scheduled in block order and values "
                      "passed through block arguments are not tracked, so the report is a "
                      "lower bound", blocks);
  }
  if (!st && graph->position_count < (uint32_t)pos) graph->position_count = (uint32_t)pos;
  if (options->record_names) mlirAsmStateDestroy(b.names);
  met_strbuf_deinitialize(&b.scratch);
  *out_failed = b.failed;
  return st;
}
