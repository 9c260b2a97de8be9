// exec_lower.c: the module preparation and pass pipeline of `metrale run`: diagnostics
// captured per step, pruning, kernel markers, what the bufferized function holds, the two
// pipeline stages and the checks before JIT compilation. See exec_internal.h.
#define _GNU_SOURCE 1 // dlsym(RTLD_DEFAULT)
#include <dlfcn.h>
#include <inttypes.h>
#include <stdlib.h>

#include "run/exec_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Pass.h"

// ---------------------------------------------------------------------------------------
// Diagnostics and locations
// ---------------------------------------------------------------------------------------

// Finds a file:line:col inside loc (through Name, CallSite and Fused locations).
static bool loc_format(MlirLocation loc, char *dst, size_t cap, bool basename_only) {
  if (mlirLocationIsNull(loc)) return false;
  if (mlirLocationIsAFileLineColRange(loc)) {
    MlirStringRef f = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
    if (basename_only) {
      for (size_t i = f.length; i > 0; i--)
        if (f.data[i - 1] == '/') { f.data += i; f.length -= i; break; }
    }
    snprintf(dst, cap, "%.*s:%d:%d", (int)f.length, f.data,
             mlirLocationFileLineColRangeGetStartLine(loc),
             mlirLocationFileLineColRangeGetStartColumn(loc));
    return true;
  }
  if (mlirLocationIsAName(loc))
    return loc_format(mlirLocationNameGetChildLoc(loc), dst, cap, basename_only);
  if (mlirLocationIsACallSite(loc))
    return loc_format(mlirLocationCallSiteGetCallee(loc), dst, cap, basename_only) ||
           loc_format(mlirLocationCallSiteGetCaller(loc), dst, cap, basename_only);
  if (mlirLocationIsAFused(loc)) {
    intptr_t n = mlirLocationFusedGetNumLocations(loc);
    if (n <= 0 || n > 64) return false;
    MlirLocation locs[64];
    mlirLocationFusedGetLocations(loc, locs);
    for (intptr_t i = 0; i < n; i++)
      if (loc_format(locs[i], dst, cap, basename_only)) return true;
  }
  return false;
}

static void loc_short(MlirLocation loc, char *dst, size_t cap) {
  char tmp[1024];
  if (!loc_format(loc, tmp, sizeof tmp, false)) { snprintf(dst, cap, "?"); return; }
  if (strlen(tmp) < cap) { memcpy(dst, tmp, strlen(tmp) + 1); return; }
  if (!loc_format(loc, dst, cap, true)) snprintf(dst, cap, "?");
}

MlirLogicalResult exec_diag_handler(MlirDiagnostic d, void *ud) {
  diag_t *dg = ud;
  if (mlirDiagnosticGetSeverity(d) == MlirDiagnosticError) {
    if (dg->errors++ == 0) {
      sbuf_t b = {dg->msg, sizeof dg->msg, 0};
      dg->msg[0] = 0;
      mlirDiagnosticPrint(d, sbuf_cb, &b);
      loc_short(mlirDiagnosticGetLocation(d), dg->loc, sizeof dg->loc);
    }
  }
  return mlirLogicalResultSuccess(); // handled: nothing reaches stderr
}

// ---------------------------------------------------------------------------------------
// Module preparation
// ---------------------------------------------------------------------------------------

static MlirStringRef sym_name(MlirOperation op) {
  MlirAttribute a = mlirOperationGetInherentAttributeByName(op, S("sym_name"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a)) return (MlirStringRef){NULL, 0};
  return mlirStringAttrGetValue(a);
}

static bool is_op(MlirOperation op, const char *name) {
  return sref_eq(mlirIdentifierStr(mlirOperationGetName(op)), name);
}

MlirOperation exec_find_func(MlirOperation module, const char *name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (is_op(op, "func.func") && sref_eq(sym_name(op), name)) return op;
  return (MlirOperation){NULL};
}

typedef struct { char **names; size_t n, cap; } names_t;

static bool names_has(const names_t *ns, MlirStringRef s) {
  for (size_t i = 0; i < ns->n; i++)
    if (sref_eq(s, ns->names[i])) return true;
  return false;
}

static void names_add(names_t *ns, MlirStringRef s) {
  if (names_has(ns, s)) return;
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

static void names_free(names_t *ns) {
  for (size_t i = 0; i < ns->n; i++) free(ns->names[i]);
  free(ns->names);
}

static MlirWalkResult collect_callees(MlirOperation op, void *ud) {
  MlirAttribute c = mlirOperationGetInherentAttributeByName(op, S("callee"));
  if (!mlirAttributeIsNull(c) && mlirAttributeIsAFlatSymbolRef(c))
    names_add(ud, mlirFlatSymbolRefAttrGetValue(c));
  return MlirWalkResultAdvance;
}

// Drops the func.func ops that the target does not (transitively) call.
static void prune_funcs(MlirOperation module, const char *target) {
  names_t keep = {0};
  names_add(&keep, mlirStringRefCreateFromCString(target));
  for (size_t i = 0; i < keep.n; i++) {
    MlirOperation f = exec_find_func(module, keep.names[i]);
    if (!mlirOperationIsNull(f)) mlirOperationWalk(f, collect_callees, &keep, MlirWalkPreOrder);
  }
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirOperation op = mlirBlockGetFirstOperation(body);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    // Functions the target does not call go, and so do nested modules: a function at the
    // top cannot call into them, and their functions would not lower with the top's.
    if ((is_op(op, "func.func") && !names_has(&keep, sym_name(op))) ||
        is_op(op, "builtin.module"))
      mlirOperationDestroy(op);
    op = next;
  }
  names_free(&keep);
}

typedef struct { uint64_t n; } count_t;
typedef struct { MlirContext ctx; MlirOperation first; } unreg_t;
static MlirWalkResult find_unregistered(MlirOperation op, void *ud) {
  unreg_t *u = ud;
  if (!mlirContextIsRegisteredOperation(u->ctx, mlirIdentifierStr(mlirOperationGetName(op)))) {
    u->first = op;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static MlirWalkResult count_copies(MlirOperation op, void *ud) {
  if (is_op(op, "memref.copy")) ((count_t *)ud)->n++;
  return MlirWalkResultAdvance;
}

// memref.alloc ops in the bufferized function: what the allocation hook should see once
// per invocation in straight-line code.
static MlirWalkResult count_allocs(MlirOperation op, void *ud) {
  if (is_op(op, "memref.alloc")) ((count_t *)ud)->n++;
  return MlirWalkResultAdvance;
}

// Top-level ops of the target that get kernel markers.
static bool is_kernel(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if (n.length > 7 && !memcmp(n.data, "linalg.", 7)) return true;
  static const char *const k[] = {"memref.copy", "scf.for", "scf.parallel", "scf.forall",
                                  "scf.while", "affine.for", "affine.parallel", "func.call"};
  for (size_t i = 0; i < sizeof k / sizeof *k; i++)
    if (sref_eq(n, k[i])) return true;
  return false;
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
    if (is_op(d, "memref.get_global")) {
      MlirAttribute a = mlirOperationGetInherentAttributeByName(d, S("name"));
      return mlirAttributeIsNull(a) ? NULL : a.ptr;  // symbol refs are uniqued
    }
    static const char *const views[] = {"memref.subview", "memref.cast", "memref.reinterpret_cast",
                                        "memref.collapse_shape", "memref.expand_shape",
                                        "memref.view", "memref.transpose"};
    bool view = false;
    for (size_t i = 0; i < sizeof views / sizeof *views && !view; ++i) view = is_op(d, views[i]);
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

static void count_resident(MlirOperation func, const met_exec_options_t *opt,
                           met_exec_result_t *out) {
  const void *rows[4096];
  size_t nrows = 0;
  MlirRegion body = mlirOperationGetRegion(func, 0);
  for (MlirBlock b = mlirRegionGetFirstBlock(body); !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      if (!is_kernel(op)) continue;
      resident_walk_t w;
      w.func = func;
      w.opt = opt;
      w.nmine = 0;
      mlirOperationWalk(op, collect_resident, &w, MlirWalkPreOrder);
      out->resident_handles += w.nmine;
      for (size_t i = 0; i < w.nmine; ++i) {
        bool seen = false;
        for (size_t j = 0; j < nrows && !seen; ++j) seen = rows[j] == w.mine[i];
        if (!seen && nrows < 4096) rows[nrows++] = w.mine[i];
      }
    }
  out->resident_rows = nrows;
}

static MlirOperation make_call(MlirContext ctx, MlirLocation loc, const char *callee, MlirValue arg) {
  MlirOperationState st = mlirOperationStateGet(S("func.call"), loc);
  mlirOperationStateAddOperands(&st, 1, &arg);
  MlirNamedAttribute a = mlirNamedAttributeGet(mlirIdentifierGet(ctx, S("callee")),
                                               mlirFlatSymbolRefAttrGet(ctx, S(callee)));
  mlirOperationStateAddAttributes(&st, 1, &a);
  return mlirOperationCreate(&st);
}

static int insert_markers(MlirContext ctx, MlirOperation module, MlirOperation func,
                          met_exec_result_t *out) {
  // Declarations first (private, no c-interface: plain C calls to the hooks).
  MlirBlock mbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  static const char *const decl[2] = {"func.func private @__metrale_kernel_begin(i64)",
                                      "func.func private @__metrale_kernel_end(i64)"};
  static const char *const dname[2] = {"__metrale_kernel_begin", "__metrale_kernel_end"};
  for (int i = 0; i < 2; i++) {
    if (!mlirOperationIsNull(exec_find_func(module, dname[i]))) continue;
    MlirOperation d = mlirOperationCreateParse(ctx, S(decl[i]), S("metrale-markers"));
    if (mlirOperationIsNull(d)) return fail(out, ERR_LOWER, "cannot build the kernel marker declarations");
    mlirBlockInsertOwnedOperation(mbody, 0, d);
  }
  size_t cap = 0;
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirRegion body = mlirOperationGetRegion(func, 0);
  for (MlirBlock b = mlirRegionGetFirstBlock(body); !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b)) {
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      if (!is_kernel(op)) continue;
      if (is_op(op, "func.call")) {
        MlirAttribute c = mlirOperationGetInherentAttributeByName(op, S("callee"));
        if (!mlirAttributeIsNull(c) && mlirAttributeIsAFlatSymbolRef(c)) {
          MlirStringRef cn = mlirFlatSymbolRefAttrGetValue(c);
          if (sref_eq(cn, dname[0]) || sref_eq(cn, dname[1])) continue;
        }
      }
      if (out->n_kernels == cap) {
        cap = cap ? 2 * cap : 32;
        met_exec_kernel_t *nk = realloc(out->kernels, cap * sizeof *nk);
        if (!nk) return fail(out, ERR_RUN, "out of memory (kernel table)");
        out->kernels = nk;
      }
      size_t id = out->n_kernels++;
      met_exec_kernel_t *k = &out->kernels[id];
      memset(k, 0, sizeof *k);
      sref_copy(k->name, sizeof k->name, mlirIdentifierStr(mlirOperationGetName(op)));
      MlirLocation loc = mlirOperationGetLocation(op);
      loc_short(loc, k->loc, sizeof k->loc);
      MlirOperationState st = mlirOperationStateGet(S("arith.constant"), loc);
      mlirOperationStateAddResults(&st, 1, &i64);
      MlirNamedAttribute va = mlirNamedAttributeGet(mlirIdentifierGet(ctx, S("value")),
                                                    mlirIntegerAttrGet(i64, (int64_t)id));
      mlirOperationStateAddAttributes(&st, 1, &va);
      MlirOperation cst = mlirOperationCreate(&st);
      mlirBlockInsertOwnedOperationBefore(b, op, cst);
      MlirValue v = mlirOperationGetResult(cst, 0);
      mlirBlockInsertOwnedOperationBefore(b, op, make_call(ctx, loc, dname[0], v));
      MlirOperation end = make_call(ctx, loc, dname[1], v);
      mlirBlockInsertOwnedOperationAfter(b, op, end);
      op = end;
    }
  }
  return 0;
}

// ---------------------------------------------------------------------------------------
// Pass pipeline
// ---------------------------------------------------------------------------------------

static const char *const stage_a[] = {
    "func.func(tosa-to-linalg-named)",
    "func.func(tosa-to-linalg)",
    "func.func(tosa-to-arith)",
    "func.func(tosa-to-tensor)",
    "func.func(convert-elementwise-to-linalg)",
    "canonicalize",
    "func.func(linalg-fuse-elementwise-ops)",
    "eliminate-empty-tensors",
    // One element, parenthesized so that clang's -Wstring-concatenation knows it is meant.
    ("one-shot-bufferize{bufferize-function-boundaries=1 "
     "function-boundary-type-conversion=identity-layout-map}"),
    "canonicalize",
    "buffer-deallocation-pipeline",
    "func.func(optimize-allocation-liveness)",
    "convert-bufferization-to-memref",
};

static const char *const stage_b[] = {
    "func.func(convert-linalg-to-loops)",
    "func.func(arith-expand{include-bf16=1})",
    "expand-strided-metadata",
    "lower-affine",
    "convert-scf-to-cf",
    "convert-vector-to-llvm",
    "finalize-memref-to-llvm{use-generic-functions=1}",
    "convert-math-to-llvm",
    "convert-math-to-libm",
    "convert-arith-to-llvm",
    "convert-cf-to-llvm",
    "convert-func-to-llvm",
    "convert-index-to-llvm",
    "convert-ub-to-llvm",
    "reconcile-unrealized-casts",
};

static int run_passes(MlirContext ctx, MlirOperation module, const char *const *passes,
                      size_t n, diag_t *dg, met_exec_result_t *out) {
  for (size_t i = 0; i < n; i++) {
    char pipe[512], perr[256] = {0};
    snprintf(pipe, sizeof pipe, "builtin.module(%s)", passes[i]);
    MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, S("builtin.module"));
    sbuf_t eb = {perr, sizeof perr, 0};
    if (mlirLogicalResultIsFailure(
            mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm), S(pipe), sbuf_cb, &eb))) {
      mlirPassManagerDestroy(pm);
      return fail(out, ERR_LOWER, "pass pipeline element '%s' does not parse: %s", passes[i], perr);
    }
    dg->errors = 0;
    dg->msg[0] = dg->loc[0] = 0;
    MlirLogicalResult r = mlirPassManagerRunOnOp(pm, module);
    mlirPassManagerDestroy(pm);
    if (mlirLogicalResultIsFailure(r))
      return fail(out, ERR_LOWER, "lowering failed in pass '%s' at %s: %s", passes[i],
                  dg->loc[0] ? dg->loc : "?", dg->msg[0] ? dg->msg : "(no diagnostic)");
  }
  return 0;
}

// linalg.softmax (an aggregate op) is not lowered by convert-linalg-to-loops, and no
// registered pass decomposes it: a transform script does (decompose_interface), run by
// the transform interpreter on the tensor IR, then removed.
static MlirWalkResult find_softmax(MlirOperation op, void *ud) {
  if (is_op(op, "linalg.softmax")) { *(bool *)ud = true; return MlirWalkResultInterrupt; }
  return MlirWalkResultAdvance;
}

static int decompose_aggregates(MlirContext ctx, MlirOperation module, diag_t *dg,
                                met_exec_result_t *out) {
  bool any = false;
  mlirOperationWalk(module, find_softmax, &any, MlirWalkPreOrder);
  if (!any) return 0;
  static const char *const seq =
      "module attributes {transform.with_named_sequence} {\n"
      "transform.named_sequence @__metrale_decompose(%root: !transform.any_op "
      "{transform.readonly}) {\n"
      "  %s = transform.structured.match ops{[\"linalg.softmax\"]} in %root"
      " : (!transform.any_op) -> !transform.any_op\n"
      "  %d = transform.structured.decompose_interface %s"
      " : (!transform.any_op) -> !transform.any_op\n"
      "  transform.yield\n}\n}";
  MlirOperation wrap = mlirOperationCreateParse(ctx, S(seq), S("metrale-decompose"));
  if (mlirOperationIsNull(wrap))
    return fail(out, ERR_LOWER, "cannot build the softmax decomposition script: %s", dg->msg);
  // The sequence verifies only under a parent carrying transform.with_named_sequence:
  // parse it inside a module, then move it into the clone.
  MlirOperation sq = mlirBlockGetFirstOperation(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(wrap, 0)));
  mlirOperationRemoveFromParent(sq);
  mlirOperationDestroy(wrap);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  mlirBlockAppendOwnedOperation(body, sq);
  bool had = !mlirAttributeIsNull(
      mlirOperationGetDiscardableAttributeByName(module, S("transform.with_named_sequence")));
  if (!had)
    mlirOperationSetDiscardableAttributeByName(module, S("transform.with_named_sequence"),
                                               mlirUnitAttrGet(ctx));
  static const char *const pass[] = {"transform-interpreter{entry-point=__metrale_decompose}"};
  int rc = run_passes(ctx, module, pass, 1, dg, out);
  mlirOperationDestroy(sq);
  if (!had) mlirOperationRemoveDiscardableAttributeByName(module, S("transform.with_named_sequence"));
  return rc;
}

// After stage B only LLVM dialect ops may remain; anything else would make the
// translation to LLVM IR fail without a message.
typedef struct { MlirOperation first; uint64_t n; } leftover_t;
static MlirWalkResult find_leftover(MlirOperation op, void *ud) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if ((n.length > 5 && !memcmp(n.data, "llvm.", 5)) || sref_eq(n, "builtin.module") ||
      sref_eq(n, "builtin.unrealized_conversion_cast"))
    return MlirWalkResultAdvance;
  leftover_t *l = ud;
  if (l->n++ == 0) l->first = op;
  return MlirWalkResultAdvance;
}

static int check_leftovers(MlirOperation module, met_exec_result_t *out) {
  leftover_t l = {{NULL}, 0};
  mlirOperationWalk(module, find_leftover, &l, MlirWalkPreOrder);
  if (!l.n) return 0;
  char name[96], loc[160];
  sref_copy(name, sizeof name, mlirIdentifierStr(mlirOperationGetName(l.first)));
  loc_short(mlirOperationGetLocation(l.first), loc, sizeof loc);
  return fail(out, ERR_LOWER, "%" PRIu64 " op(s) survived lowering to the LLVM dialect (no pass of "
              "the pipeline lowers them); first: '%s' at %s", l.n, name, loc);
}

// Every external llvm.func must resolve: to a hook or to a symbol of this process.
static int check_externals(MlirOperation module, const met_exec_options_t *opt, met_exec_result_t *out) {
  void *libh[16];
  size_t nl = 0;
  for (size_t i = 0; i < opt->n_shared_libs && nl < 16; i++) {
    void *h = dlopen(opt->shared_libs[i], RTLD_LAZY | RTLD_LOCAL);
    if (!h) return fail(out, ERR_JIT, "cannot load shared library %.300s: %.150s", opt->shared_libs[i], dlerror());
    libh[nl++] = h;
  }
  exec_hook_t hk[EXEC_N_HOOKS];
  size_t nh = exec_hooks_table(hk);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  char missing[256] = {0};
  size_t nm = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!is_op(op, "llvm.func")) continue;
    if (!mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)))) continue;
    char name[256];
    sref_copy(name, sizeof name, sym_name(op));
    bool ok = false;
    for (size_t i = 0; i < nh && !ok; i++) ok = !strcmp(name, hk[i].name);
    if (!ok) ok = dlsym(RTLD_DEFAULT, name) != NULL;
    for (size_t i = 0; i < nl && !ok; i++) ok = dlsym(libh[i], name) != NULL;
    if (!ok) {
      if (nm++ < 4) {
        size_t l = strlen(missing);
        if (l < sizeof missing - 1)
          snprintf(missing + l, sizeof missing - l, "%s%.60s", l ? ", " : "", name);
      }
    }
  }
  for (size_t i = 0; i < nl; i++) dlclose(libh[i]);
  if (nm)
    return fail(out, ERR_JIT, "%zu external symbol(s) do not resolve in this process: %s%s", nm,
                missing, nm > 4 ? ", ..." : "");
  return 0;
}

static void file_cb(MlirStringRef s, void *ud) { fwrite(s.data, 1, s.length, (FILE *)ud); }

int exec_refuse_unregistered(MlirContext ctx, MlirOperation func, const char *name,
                             met_exec_result_t *out) {
  unreg_t u = {ctx, {NULL}};
  mlirOperationWalk(func, find_unregistered, &u, MlirWalkPreOrder);
  if (mlirOperationIsNull(u.first)) return 0;
  char where[160];
  loc_short(mlirOperationGetLocation(u.first), where, sizeof where);
  MlirStringRef nm = mlirIdentifierStr(mlirOperationGetName(u.first));
  return fail(out, ERR_ARGS, "'%.*s' at %s is not a registered op: nothing lowers it, so @%s "
              "cannot run (refused before lowering)", (int)nm.length, nm.data, where, name);
}

int exec_lower(MlirContext ctx, MlirOperation mop, const char *func_name,
               const met_exec_options_t *opt, diag_t *dg, met_exec_result_t *out) {
  int rc;
  if (!opt->keep_other_funcs) prune_funcs(mop, func_name);
  MlirOperation f = exec_find_func(mop, func_name);
  mlirOperationSetDiscardableAttributeByName(f, S("llvm.emit_c_interface"), mlirUnitAttrGet(ctx));
  mlirOperationSetInherentAttributeByName(f, S("sym_visibility"), mlirStringAttrGet(ctx, S("public")));
  dg->errors = 0;
  if (!mlirOperationVerify(mop))
    return fail(out, ERR_LOWER, "the module does not verify at %s: %s", dg->loc[0] ? dg->loc : "?",
                dg->msg);
  // Stage A (to bufferized memrefs), what the bufferized function holds, the markers.
  if ((rc = decompose_aggregates(ctx, mop, dg, out))) return rc;
  if ((rc = run_passes(ctx, mop, stage_a, sizeof stage_a / sizeof *stage_a, dg, out))) return rc;
  f = exec_find_func(mop, func_name);
  if (mlirOperationIsNull(f)) return fail(out, ERR_LOWER, "@%s disappeared during lowering", func_name);
  count_t cc = {0};
  mlirOperationWalk(f, count_copies, &cc, MlirWalkPreOrder);
  out->copies = cc.n;
  count_t ca = {0};
  mlirOperationWalk(f, count_allocs, &ca, MlirWalkPreOrder);
  out->static_allocs = ca.n;
  count_resident(f, opt, out);
  if ((rc = insert_markers(ctx, mop, f, out))) return rc;
  dg->errors = 0;
  if (!mlirOperationVerify(mop))
    return fail(out, ERR_LOWER, "IR with kernel markers does not verify at %s: %s", dg->loc, dg->msg);
  // Stage B (to the LLVM dialect), then what must hold before the engine is built.
  if ((rc = run_passes(ctx, mop, stage_b, sizeof stage_b / sizeof *stage_b, dg, out))) return rc;
  if (opt->dump_lowered) {
    FILE *df = fopen(opt->dump_lowered, "w");
    if (df) { mlirOperationPrint(mop, file_cb, df); fclose(df); }
  }
  if ((rc = check_leftovers(mop, out))) return rc;
  return check_externals(mop, opt, out);
}
