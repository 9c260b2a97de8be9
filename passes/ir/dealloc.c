// dealloc.c: upstream's deallocation placement on straight-line bufferized modules, in
// linear time (see dealloc.h). Expected workload: one call of each function per module on
// the mlir-cpu target; a function of a million ops is walked a few times.
#include "ir/dealloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "metrale/arena.h"
#include "metrale/checked.h"
#include "metrale/ptrmap.h"
#include "mlir-c/BuiltinTypes.h"

static bool is_memref(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsAMemRef(t) || mlirTypeIsAUnrankedMemRef(t);
}

static bool has_memref_result(MlirOperation op) {
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; ++i)
    if (is_memref(mlirOperationGetResult(op, i))) return true;
  return false;
}

// Ops whose memref results are views of their memref operand (ViewLikeOpInterface in
// upstream's memref dialect, and extract_strided_metadata's base buffer; not
// memref.transpose, which MLIR 22 does not declare a view: upstream frees around it by
// comparing pointers at run time).
static bool is_view(MlirOperation op) {
  static const char *const kViews[] = {
      "memref.subview", "memref.expand_shape", "memref.collapse_shape", "memref.cast",
      "memref.reinterpret_cast", "memref.view",
      "memref.extract_strided_metadata", "memref.memory_space_cast", "memref.assume_alignment"};
  for (size_t i = 0; i < sizeof(kViews) / sizeof(kViews[0]); ++i)
    if (met_ir_op_is(op, kViews[i])) return true;
  return false;
}

// Buffers no deallocation frees: a stack allocation, a global.
static bool is_unowned_source(MlirOperation op) {
  return met_ir_op_is(op, "memref.alloca") || met_ir_op_is(op, "memref.get_global");
}

static MlirWalkResult find_made_memref(MlirOperation op, void *user) {
  if (!has_memref_result(op)) return MlirWalkResultAdvance;
  *(bool *)user = true;
  return MlirWalkResultInterrupt;
}

// True when no op inside |op|'s regions makes a memref (uses of the block's buffers are
// uses by |op|, as optimize-allocation-liveness counts them; a buffer made inside would
// be ownership-based deallocation's to free there).
static bool regions_make_no_memref(MlirOperation op) {
  bool found = false;
  for (intptr_t r = 0, nr = mlirOperationGetNumRegions(op); r < nr && !found; ++r)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(b) && !found; b = mlirBlockGetNextInRegion(b)) {
      for (intptr_t a = 0, na = mlirBlockGetNumArguments(b); a < na && !found; ++a)
        found = is_memref(mlirBlockGetArgument(b, a));
      for (MlirOperation in = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(in) && !found;
           in = mlirOperationGetNextInBlock(in))
        mlirOperationWalk(in, find_made_memref, &found, MlirWalkPreOrder);
    }
  return !found;
}

// Ops that may take a memref operand in a function the placement handles: the views, linalg
// ops, and those whose effects on it are a read or a write (no free, no call: upstream's
// view-flow analysis takes every result of a call, a scalar too, as an alias of its memref
// operands; no op of unknown effects, which ownership-based deallocation refuses).
static bool reads_or_writes(MlirOperation op) {
  static const char *const kOps[] = {
      "memref.load", "memref.store", "memref.copy", "memref.dim", "memref.rank",
      "memref.extract_aligned_pointer_as_index", "bufferization.to_tensor", "func.return"};
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (is_view(op) || met_ir_str_in_dialect(name, "linalg.")) return true;
  for (size_t i = 0; i < sizeof(kOps) / sizeof(kOps[0]); ++i)
    if (met_ir_str_eq(name, kOps[i])) return true;
  return false;
}

static bool is_i1(MlirType t) {
  if (mlirTypeIsAShaped(t)) t = mlirShapedTypeGetElementType(t);
  return mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 1;
}

typedef struct scan_t { MlirOperation bad; const char *what; } scan_t;

// Anywhere in a function: an op taking a memref that is not a plain reader or writer, or
// an i1 constant (ownership-based deallocation's own true/false constants would be merged
// with it by canonicalize, which gives the survivor an unknown location).
static MlirWalkResult scan_nested(MlirOperation op, void *user) {
  scan_t *sc = user;
  for (intptr_t i = 0, k = mlirOperationGetNumOperands(op); i < k; ++i)
    if (is_memref(mlirOperationGetOperand(op, i)) && !reads_or_writes(op)) {
      sc->bad = op;
      sc->what = "takes a buffer, and is not an op that only reads or writes it";
      return MlirWalkResultInterrupt;
    }
  if (met_ir_op_is(op, "arith.constant") && mlirOperationGetNumResults(op) == 1 &&
      is_i1(mlirValueGetType(mlirOperationGetResult(op, 0)))) {
    sc->bad = op;
    sc->what = "is an i1 constant (upstream's ownership constants merge with it)";
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static bool refuse(char *why, size_t n, MlirOperation op, const char *what) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  snprintf(why, n, "'%.*s' %s", (int)(name.length < 80 ? name.length : 80), name.data, what);
  return false;
}

static MlirBlock body_of(MlirOperation func) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
}

// The buffer |v| views through single-source views: the value at the end of the chain
// (an allocation's result, an argument, a global or an alloca); NULL-valued when a view
// of several memrefs is on the way.
static MlirValue view_root(MlirValue v) {
  while (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (!is_view(def)) break;
    MlirValue src = {NULL};
    for (intptr_t i = 0, k = mlirOperationGetNumOperands(def); i < k; ++i) {
      MlirValue o = mlirOperationGetOperand(def, i);
      if (!is_memref(o)) continue;
      if (!mlirValueIsNull(src)) return (MlirValue){NULL};
      src = o;
    }
    if (mlirValueIsNull(src)) return (MlirValue){NULL};
    v = src;
  }
  return v;
}

// A returned buffer viewing a memref.alloc of the function is retained (not freed, not
// copied); any other (an argument, a global, an alloca, or a view of one) is cloned
// before the return, as ownership-based deallocation does for a buffer it does not own.
static bool owned_by(MlirValue root, MlirBlock body) {
  if (!mlirValueIsAOpResult(root)) return false;
  MlirOperation def = mlirOpResultGetOwner(root);
  return met_ir_op_is(def, "memref.alloc") && mlirBlockEqual(mlirOperationGetBlock(def), body);
}

static bool returns_modelled(MlirOperation ret, MlirBlock body, char *why, size_t n) {
  intptr_t k = mlirOperationGetNumOperands(ret);
  for (intptr_t i = 0; i < k; ++i) {
    MlirValue v = mlirOperationGetOperand(ret, i);
    if (!is_memref(v)) continue;
    MlirValue root = view_root(v);
    if (mlirValueIsNull(root)) return refuse(why, n, ret, "returns a view of several memrefs");
    bool owned = owned_by(root, body);
    for (intptr_t j = 0; j < i; ++j) {  // returns are few: quadratic in them only
      MlirValue w = mlirOperationGetOperand(ret, j);
      if (!is_memref(w)) continue;
      // One allocation returned twice as the same value stays one buffer (checked); two
      // views of it, or one unowned buffer twice, are not modelled.
      if (mlirValueEqual(w, v) ? !owned : mlirValueEqual(view_root(w), root))
        return refuse(why, n, ret, "returns one buffer twice");
    }
  }
  return true;
}

static bool func_applies(MlirContext ctx, MlirOperation f, char *why, size_t n) {
  MlirBlock body = body_of(f);
  if (mlirBlockIsNull(body)) return true;  // a declaration
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(body)))
    return refuse(why, n, f, "has more than one block");
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
    if (!mlirContextIsRegisteredOperation(ctx, name))
      return refuse(why, n, op, "is not a registered op");
    if (mlirOperationGetNumRegions(op) > 0 &&
        (!met_ir_str_in_dialect(name, "linalg.") || !regions_make_no_memref(op)))
      return refuse(why, n, op, "has regions that are not a linalg op's body making no memref");
    if (met_ir_op_is(op, "memref.dealloc") || met_ir_op_is(op, "bufferization.dealloc"))
      return refuse(why, n, op, "deallocates already");
    if (has_memref_result(op) && !met_ir_op_is(op, "memref.alloc") && !is_unowned_source(op) &&
        !is_view(op))
      return refuse(why, n, op, "makes a memref that is neither an allocation nor a view");
    if (met_ir_op_is(op, "memref.alloc") &&
        !mlirAttributeIsNull(mlirOperationGetAttributeByName(
            op, mlirStringRefCreateFromCString("bufferization.manual_deallocation"))))
      return refuse(why, n, op, "is deallocated by hand (bufferization.manual_deallocation)");
    if (mlirOperationIsNull(mlirOperationGetNextInBlock(op))) {
      if (!met_ir_op_is(op, "func.return")) return refuse(why, n, op, "ends the function");
      if (!returns_modelled(op, body, why, n)) return false;
    }
  }
  scan_t sc = {{NULL}, NULL};
  mlirOperationWalk(f, scan_nested, &sc, MlirWalkPreOrder);
  if (!mlirOperationIsNull(sc.bad)) return refuse(why, n, sc.bad, sc.what);
  return true;
}

bool met_dealloc_linear_applies(MlirOperation module, char *why, size_t why_size) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (met_ir_op_is(op, "func.func")) {
      if (!func_applies(ctx, op, why, why_size)) return false;
    } else if (mlirOperationGetNumRegions(op) > 0 && !met_ir_op_is(op, "llvm.mlir.global")) {
      return refuse(why, why_size, op, "holds regions at the module's top level");
    }
  }
  return true;
}

// Whether |alloc|'s buffer is returned (viewed by a return operand).
static bool is_retained(MlirOperation ret, MlirValue alloc) {
  for (intptr_t i = 0, k = mlirOperationGetNumOperands(ret); i < k; ++i) {
    MlirValue v = mlirOperationGetOperand(ret, i);
    if (is_memref(v) && mlirValueEqual(view_root(v), alloc)) return true;
  }
  return false;
}

static met_status_t insert_func(MlirBlock body) {
  MlirOperation ret = mlirBlockGetTerminator(body);
  if (mlirOperationIsNull(ret)) return MET_EINVAL;
  // The clones of returned buffers the function does not own, in operand order, each at
  // its value's location; then the frees, in allocation order, at the return's.
  for (intptr_t i = 0, k = mlirOperationGetNumOperands(ret); i < k; ++i) {
    MlirValue v = mlirOperationGetOperand(ret, i);
    if (!is_memref(v) || owned_by(view_root(v), body)) continue;
    MlirOperationState s = mlirOperationStateGet(
        mlirStringRefCreateFromCString("bufferization.clone"), mlirValueGetLocation(v));
    MlirType t = mlirValueGetType(v);
    mlirOperationStateAddOperands(&s, 1, &v);
    mlirOperationStateAddResults(&s, 1, &t);
    MlirOperation c = mlirOperationCreate(&s);
    if (mlirOperationIsNull(c)) return MET_ENOMEM;
    mlirBlockInsertOwnedOperationBefore(body, ret, c);
    mlirOperationSetOperand(ret, i, mlirOperationGetResult(c, 0));
  }
  MlirLocation loc = mlirOperationGetLocation(ret);
  MlirStringRef dname = mlirStringRefCreateFromCString("memref.dealloc");
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationEqual(op, ret);
       op = mlirOperationGetNextInBlock(op)) {
    if (!met_ir_op_is(op, "memref.alloc")) continue;
    MlirValue v = mlirOperationGetResult(op, 0);
    if (is_retained(ret, v)) continue;
    MlirOperationState s = mlirOperationStateGet(dname, loc);
    mlirOperationStateAddOperands(&s, 1, &v);
    MlirOperation d = mlirOperationCreate(&s);
    if (mlirOperationIsNull(d)) return MET_ENOMEM;
    mlirBlockInsertOwnedOperationBefore(body, ret, d);
  }
  return MET_OK;
}

// |fn| on the body of every func.func of |module| that has one, in module order.
static met_status_t each_body(MlirOperation module, met_status_t (*fn)(MlirBlock)) {
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    if (!met_ir_op_is(f, "func.func")) continue;
    MlirBlock body = body_of(f);
    if (!mlirBlockIsNull(body)) MET_RETURN_IF_ERROR(fn(body));
  }
  return MET_OK;
}

met_status_t met_dealloc_insert(MlirOperation module) { return each_body(module, insert_func); }

// Room for |need| elements of |elem| bytes in |*items| (realloc'd, doubling).
static met_status_t grow(void **items, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return MET_OK;
  size_t ncap = *cap ? *cap : 16, bytes;
  while (ncap < need)
    if (!met_mul_size(ncap, 2, &ncap)) return MET_EOVERFLOW;
  if (!met_mul_size(ncap, elem, &bytes)) return MET_EOVERFLOW;
  void *p = realloc(*items, bytes);
  if (!p) return MET_ENOMEM;
  *items = p;
  *cap = ncap;
  return MET_OK;
}

// The allocations a memref value of the block views, as a run of ids in one pool: a view
// shares its operand's run, an op viewing several memrefs gets the union.
typedef struct views_t {
  met_arena_t arena;  // the map's
  met_ptrmap_t runs;  // value -> run index
  uint32_t *start, *len;  // per run
  size_t nruns, cap_start, cap_len;
  uint32_t *pool, *scratch;
  size_t npool, cap_pool, cap_scratch;
} views_t;

static met_status_t add_run(views_t *w, const uint32_t *ids, size_t n, uint32_t *out) {
  if (w->nruns >= UINT32_MAX || n > UINT32_MAX - w->npool) return MET_EOVERFLOW;
  MET_RETURN_IF_ERROR(grow((void **)&w->start, &w->cap_start, w->nruns + 1, sizeof *w->start));
  MET_RETURN_IF_ERROR(grow((void **)&w->len, &w->cap_len, w->nruns + 1, sizeof *w->len));
  MET_RETURN_IF_ERROR(grow((void **)&w->pool, &w->cap_pool, w->npool + n, sizeof *w->pool));
  memcpy(w->pool + w->npool, ids, n * sizeof *ids);
  w->start[w->nruns] = (uint32_t)w->npool;
  w->len[w->nruns] = (uint32_t)n;
  w->npool += n;
  *out = (uint32_t)w->nruns++;
  return MET_OK;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

// The run of |op|'s memref results: the union of its memref operands' runs (UINT32_MAX:
// it views no allocation).
static met_status_t view_run(views_t *w, MlirOperation op, uint32_t *out) {
  *out = UINT32_MAX;
  size_t n = 0;
  uint32_t only = UINT32_MAX, nsrc = 0;
  for (intptr_t i = 0, k = mlirOperationGetNumOperands(op); i < k; ++i) {
    uint32_t r = met_ptrmap_get(&w->runs, mlirOperationGetOperand(op, i).ptr);
    if (r == UINT32_MAX || r == only) continue;
    only = r;
    ++nsrc;
    MET_RETURN_IF_ERROR(grow((void **)&w->scratch, &w->cap_scratch, n + w->len[r], sizeof *w->scratch));
    memcpy(w->scratch + n, w->pool + w->start[r], w->len[r] * sizeof *w->scratch);
    n += w->len[r];
  }
  if (nsrc == 1) {
    *out = only;  // a view of one buffer (the common case) shares its run
    return MET_OK;
  }
  if (!nsrc) return MET_OK;
  qsort(w->scratch, n, sizeof *w->scratch, cmp_u32);
  size_t u = 0;
  for (size_t i = 0; i < n; ++i)
    if (!u || w->scratch[u - 1] != w->scratch[i]) w->scratch[u++] = w->scratch[i];
  return add_run(w, w->scratch, u, out);
}

typedef struct block_t {
  MlirOperation *ops, *allocs;
  int64_t *last;  // per allocation: the position of its last user, -1 for none
  size_t nops, cap_ops, nallocs, cap_allocs, cap_last;
} block_t;

typedef struct use_t { const views_t *w; block_t *b; } use_t;

// Every buffer |op| uses (through a view too) is used at the block's current position.
static MlirWalkResult mark_uses(MlirOperation op, void *user) {
  use_t *u = user;
  for (intptr_t i = 0, k = mlirOperationGetNumOperands(op); i < k; ++i) {
    uint32_t r = met_ptrmap_get(&u->w->runs, mlirOperationGetOperand(op, i).ptr);
    if (r == UINT32_MAX) continue;
    for (uint32_t j = 0; j < u->w->len[r]; ++j)
      u->b->last[u->w->pool[u->w->start[r] + j]] = (int64_t)u->b->nops;
  }
  return MlirWalkResultAdvance;
}

// One pass in block order: number the ops, give each allocation its id and each view its
// run, and record for every allocation the last op (not a deallocation) that uses it.
static met_status_t scan_block(MlirBlock body, views_t *w, block_t *b) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MET_RETURN_IF_ERROR(grow((void **)&b->ops, &b->cap_ops, b->nops + 1, sizeof *b->ops));
    b->ops[b->nops] = op;
    bool dealloc = met_ir_op_is(op, "memref.dealloc");
    if (!dealloc) {
      use_t u = {w, b};
      if (mlirOperationGetNumRegions(op) > 0) mlirOperationWalk(op, mark_uses, &u, MlirWalkPreOrder);
      else mark_uses(op, &u);
    }
    uint32_t run = UINT32_MAX;
    if (met_ir_op_is(op, "memref.alloc")) {
      if (b->nallocs >= UINT32_MAX) return MET_EOVERFLOW;
      uint32_t id = (uint32_t)b->nallocs;
      MET_RETURN_IF_ERROR(grow((void **)&b->allocs, &b->cap_allocs, b->nallocs + 1, sizeof *b->allocs));
      MET_RETURN_IF_ERROR(grow((void **)&b->last, &b->cap_last, b->nallocs + 1, sizeof *b->last));
      MET_RETURN_IF_ERROR(add_run(w, &id, 1, &run));
      b->allocs[b->nallocs] = op;
      b->last[b->nallocs++] = -1;
    } else if (!dealloc && has_memref_result(op)) {
      MET_RETURN_IF_ERROR(view_run(w, op, &run));
    }
    for (intptr_t i = 0, k = mlirOperationGetNumResults(op); run != UINT32_MAX && i < k; ++i)
      if (is_memref(mlirOperationGetResult(op, i)))
        MET_RETURN_IF_ERROR(met_ptrmap_put(&w->runs, mlirOperationGetResult(op, i).ptr, run));
    ++b->nops;
  }
  return MET_OK;
}

// In allocation order, each single deallocation moves right after the last user:
// optimize-allocation-liveness's walk, so that frees after one op end up in the reverse
// order of their allocations, as upstream leaves them.
static void move_frees(MlirBlock body, const block_t *b) {
  for (size_t a = 0; a < b->nallocs; ++a) {
    if (b->last[a] < 0) continue;
    MlirOperation free_op = {NULL};
    int frees = 0;
    MlirValue v = mlirOperationGetResult(b->allocs[a], 0);
    for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      if (met_ir_op_is(user, "memref.dealloc")) { free_op = user; ++frees; }
    }
    if (frees != 1 || !mlirBlockEqual(mlirOperationGetBlock(free_op), body)) continue;
    mlirOperationMoveAfter(free_op, b->ops[b->last[a]]);
  }
}

static met_status_t place_func(MlirBlock body) {
  views_t w;
  block_t b;
  memset(&w, 0, sizeof w);
  memset(&b, 0, sizeof b);
  met_arena_initialize(met_allocator_system(), &w.arena);
  met_ptrmap_initialize(&w.arena, &w.runs);
  met_status_t st = scan_block(body, &w, &b);
  if (!st) move_frees(body, &b);
  met_arena_deinitialize(&w.arena);
  free(w.start);
  free(w.len);
  free(w.pool);
  free(w.scratch);
  free(b.ops);
  free(b.allocs);
  free(b.last);
  return st;
}

met_status_t met_dealloc_place(MlirOperation module) { return each_body(module, place_func); }
