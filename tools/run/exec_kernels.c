// exec_kernels.c: what `metrale run` reads off the bufferized program before lowering it
// further (exec_internal.h): the kernels, bracketed by the markers the hooks count and
// time, and the resident buffers each kernel binds.
#include "run/exec_internal.h"
#include "ir/diag.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

// The kernels of the bufferized program (kernel_launches on mlir-cpu, metrale/dispatch.h
// and budget.h, MET_FUSION_MLIR): a linalg op, a memref.copy, or a loop that holds none
// of them and no call passing a buffer (a loop nest written by hand) and reads or writes
// a buffer, wherever it runs: in a function of the user's module, a branch, a loop body.
// A loop that holds kernels, a branch and a call are control flow; each time a kernel
// runs is one launch.
static bool is_copy_or_linalg(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if (met_ir_str_eq(n, "linalg.yield") || met_ir_str_eq(n, "linalg.index")) return false;
  return (n.length > 7 && !memcmp(n.data, "linalg.", 7)) || met_ir_str_eq(n, "memref.copy");
}

// A call that passes or returns a buffer: the callee's kernels run there (the loop
// around it is control flow). A call of scalars alone (a bit count helper) is part of
// the loop's own work.
static bool buffer_call(MlirOperation op) {
  if (!met_ir_op_is(op, "func.call")) return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    if (mlirTypeIsAMemRef(mlirValueGetType(mlirOperationGetOperand(op, i)))) return true;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
    if (mlirTypeIsAMemRef(mlirValueGetType(mlirOperationGetResult(op, i)))) return true;
  return false;
}

// A kernel, or a call that runs kernels.
static MlirWalkResult find_kernel(MlirOperation op, void *user) {
  if (!is_copy_or_linalg(op) && !buffer_call(op)) return MlirWalkResultAdvance;
  *(bool *)user = true;
  return MlirWalkResultInterrupt;
}

static bool is_loop(MlirOperation op) {
  static const char *const k[] = {"scf.for", "scf.parallel", "scf.forall", "scf.while",
                                  "affine.for", "affine.parallel"};
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  for (size_t i = 0; i < sizeof k / sizeof *k; i++)
    if (met_ir_str_eq(n, k[i])) return true;
  return false;
}

static MlirWalkResult find_buffer(MlirOperation op, void *user) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    if (mlirTypeIsAMemRef(mlirValueGetType(mlirOperationGetOperand(op, i)))) {
      *(bool *)user = true;
      return MlirWalkResultInterrupt;
    }
  return MlirWalkResultAdvance;
}

static bool is_kernel(MlirOperation op) {
  if (is_copy_or_linalg(op)) return true;
  if (!is_loop(op)) return false;
  // A loop over scalars alone (a helper's bit count) is host code: no buffer, no kernel.
  bool buffers = false;
  mlirOperationWalk(op, find_buffer, &buffers, MlirWalkPreOrder);
  if (!buffers) return false;
  bool holds = false;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op) && !holds; ++r)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(b) && !holds; b = mlirBlockGetNextInRegion(b))
      for (MlirOperation in = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(in) && !holds;
           in = mlirOperationGetNextInBlock(in))
        mlirOperationWalk(in, find_kernel, &holds, MlirWalkPreOrder);
  return !holds;
}

// The buffer a kernel operand is: through views to a global (its symbol) or a function
// argument; NULL for anything else (an allocation, a computed value).
static const void *resident_key(MlirValue v, MlirOperation func, const met_exec_options_t *opt) {
  for (int depth = 0; depth < 64; ++depth) {
    if (mlirValueIsABlockArgument(v)) {
      MlirBlock owner = mlirBlockArgumentGetOwner(v);
      MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
      if (!mlirBlockEqual(owner, entry)) return NULL;
      intptr_t k = mlirBlockArgumentGetArgNumber(v);
      return (size_t)k < opt->n_resident && opt->resident[k] ? v.ptr : NULL;
    }
    MlirOperation d = mlirOpResultGetOwner(v);
    if (met_ir_op_is(d, "memref.get_global")) {
      MlirAttribute a = mlirOperationGetInherentAttributeByName(d, S("name"));
      return mlirAttributeIsNull(a) ? NULL : a.ptr;  // symbol refs are uniqued
    }
    static const char *const views[] = {"memref.subview", "memref.cast", "memref.reinterpret_cast",
                                        "memref.collapse_shape", "memref.expand_shape",
                                        "memref.view", "memref.transpose"};
    bool view = false;
    for (size_t i = 0; i < sizeof views / sizeof *views && !view; ++i) view = met_ir_op_is(d, views[i]);
    if (!view || mlirOperationGetNumOperands(d) < 1) return NULL;
    v = mlirOperationGetOperand(d, 0);
  }
  return NULL;
}

// Resident rows and handles of the bufferized function: the distinct resident buffers
// its kernels bind, and per kernel the distinct ones it binds (its operands and what the
// ops of its body use: a loop nest captures its buffers instead of taking them as
// operands).
typedef struct resident_walk_t {
  MlirOperation func;
  const met_exec_options_t *opt;
  const void *mine[256];
  size_t nmine;
} resident_walk_t;

static MlirWalkResult collect_resident(MlirOperation op, void *user) {
  resident_walk_t *w = user;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    const void *k = resident_key(mlirOperationGetOperand(op, i), w->func, w->opt);
    if (!k) continue;
    bool seen = false;
    for (size_t j = 0; j < w->nmine && !seen; ++j) seen = w->mine[j] == k;
    if (!seen && w->nmine < 256) w->mine[w->nmine++] = k;
  }
  return MlirWalkResultAdvance;
}

typedef struct resident_count_t {
  MlirOperation func;
  const met_exec_options_t *opt;
  const void *rows[4096];
  size_t nrows;
  met_exec_result_t *out;
} resident_count_t;

// Each kernel of |region|'s blocks, at any depth (not inside a kernel).
static void count_resident_in(MlirRegion region, resident_count_t *c) {
  for (MlirBlock b = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      if (!is_kernel(op)) {
        for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r)
          count_resident_in(mlirOperationGetRegion(op, r), c);
        continue;
      }
      resident_walk_t w;
      w.func = c->func;
      w.opt = c->opt;
      w.nmine = 0;
      mlirOperationWalk(op, collect_resident, &w, MlirWalkPreOrder);
      c->out->resident_handles += w.nmine;
      for (size_t i = 0; i < w.nmine; ++i) {
        bool seen = false;
        for (size_t j = 0; j < c->nrows && !seen; ++j) seen = c->rows[j] == w.mine[i];
        if (!seen && c->nrows < 4096) c->rows[c->nrows++] = w.mine[i];
      }
    }
}

void met_exec_count_resident(MlirOperation func, const met_exec_options_t *opt,
                           met_exec_result_t *out) {
  resident_count_t *c = calloc(1, sizeof *c);
  if (!c) return;
  c->func = func;
  c->opt = opt;
  c->out = out;
  count_resident_in(mlirOperationGetRegion(func, 0), c);
  out->resident_rows = c->nrows;
  free(c);
}

static MlirOperation make_call(MlirContext ctx, MlirLocation loc, const char *callee, MlirValue arg) {
  MlirOperationState st = mlirOperationStateGet(S("func.call"), loc);
  mlirOperationStateAddOperands(&st, 1, &arg);
  MlirNamedAttribute a = mlirNamedAttributeGet(mlirIdentifierGet(ctx, S("callee")),
                                               mlirFlatSymbolRefAttrGet(ctx, S(callee)));
  mlirOperationStateAddAttributes(&st, 1, &a);
  return mlirOperationCreate(&st);
}

typedef struct marker_state_t {
  MlirContext ctx;
  MlirType i64;
  size_t cap;
  met_exec_result_t *out;
} marker_state_t;

static const char *const kMarker[2] = {"__metrale_kernel_begin", "__metrale_kernel_end"};

// Brackets each kernel of |region|'s blocks, at any depth (not inside a kernel), with
// __metrale_kernel_begin/end(id).
static met_status_t mark_region(MlirRegion region, marker_state_t *m) {
  for (MlirBlock b = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b)) {
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      if (!is_kernel(op)) {
        for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
          met_status_t rc = mark_region(mlirOperationGetRegion(op, r), m);
          if (rc) return rc;
        }
        continue;
      }
      met_exec_result_t *out = m->out;
      if (out->n_kernels == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 32;
        met_exec_kernel_t *nk = realloc(out->kernels, m->cap * sizeof *nk);
        if (!nk) return met_exec_fail(out, MET_ENOMEM, "out of memory (kernel table)");
        out->kernels = nk;
      }
      size_t id = out->n_kernels++;
      met_exec_kernel_t *k = &out->kernels[id];
      memset(k, 0, sizeof *k);
      sref_copy(k->name, sizeof k->name, mlirIdentifierStr(mlirOperationGetName(op)));
      MlirLocation loc = mlirOperationGetLocation(op);
      met_diag_loc_short(loc, k->loc, sizeof k->loc);
      MlirOperationState st = mlirOperationStateGet(S("arith.constant"), loc);
      mlirOperationStateAddResults(&st, 1, &m->i64);
      MlirNamedAttribute va = mlirNamedAttributeGet(mlirIdentifierGet(m->ctx, S("value")),
                                                    mlirIntegerAttrGet(m->i64, (int64_t)id));
      mlirOperationStateAddAttributes(&st, 1, &va);
      MlirOperation cst = mlirOperationCreate(&st);
      mlirBlockInsertOwnedOperationBefore(b, op, cst);
      MlirValue v = mlirOperationGetResult(cst, 0);
      mlirBlockInsertOwnedOperationBefore(b, op, make_call(m->ctx, loc, kMarker[0], v));
      MlirOperation end = make_call(m->ctx, loc, kMarker[1], v);
      mlirBlockInsertOwnedOperationAfter(b, op, end);
      op = end;
    }
  }
  return MET_OK;
}

// Marks the kernels of every function of |module| named in |users| (the user's functions:
// those the pipeline adds, bufferization's dealloc helpers, are host bookkeeping).
met_status_t met_exec_insert_markers(MlirContext ctx, MlirOperation module, const met_exec_names_t *users,
                          met_exec_result_t *out) {
  // Declarations first (private, no c-interface: plain C calls to the hooks).
  MlirBlock mbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  static const char *const decl[2] = {"func.func private @__metrale_kernel_begin(i64)",
                                      "func.func private @__metrale_kernel_end(i64)"};
  for (int i = 0; i < 2; i++) {
    if (!mlirOperationIsNull(met_exec_find_func(module, kMarker[i]))) continue;
    MlirOperation d = mlirOperationCreateParse(ctx, S(decl[i]), S("metrale-markers"));
    if (mlirOperationIsNull(d)) return met_exec_fail(out, MET_EEXTERNAL, "cannot build the kernel marker declarations");
    mlirBlockInsertOwnedOperation(mbody, 0, d);
  }
  marker_state_t m = {ctx, mlirIntegerTypeGet(ctx, 64), 0, out};
  for (MlirOperation op = mlirBlockGetFirstOperation(mbody); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!met_ir_op_is(op, "func.func") || !met_exec_names_has(users, met_ir_sym_name(op))) continue;
    met_status_t rc = mark_region(mlirOperationGetRegion(op, 0), &m);
    if (rc) return rc;
  }
  return MET_OK;
}

