// exec_lower.c: the module preparation and pass pipeline of `metrale run`: diagnostics
// captured per step, pruning, kernel markers, what the bufferized function holds, the two
// pipeline stages and the checks before JIT compilation. See exec_internal.h.
#define _GNU_SOURCE 1 // dlsym(RTLD_DEFAULT)
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "run/exec_internal.h"
#include "ir/bufferize.h"
#include "ir/diag.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Pass.h"

// ---------------------------------------------------------------------------------------
// Diagnostics and locations
// ---------------------------------------------------------------------------------------

MlirLogicalResult met_exec_diag_handler(MlirDiagnostic d, void *ud) {
  met_exec_diag_t *dg = ud;
  if (mlirDiagnosticGetSeverity(d) == MlirDiagnosticError) {
    if (dg->errors++ == 0) {
      met_exec_sbuf_t b = {dg->msg, sizeof dg->msg, 0};
      dg->msg[0] = 0;
      mlirDiagnosticPrint(d, met_exec_sbuf_cb, &b);
      met_diag_loc_short(mlirDiagnosticGetLocation(d), dg->loc, sizeof dg->loc);
    }
  }
  return mlirLogicalResultSuccess(); // handled: nothing reaches stderr
}

// ---------------------------------------------------------------------------------------
// Module preparation
// ---------------------------------------------------------------------------------------

static MlirWalkResult collect_callees(MlirOperation op, void *ud) {
  MlirAttribute c = mlirOperationGetInherentAttributeByName(op, S("callee"));
  if (!mlirAttributeIsNull(c) && mlirAttributeIsAFlatSymbolRef(c))
    met_exec_names_add(ud, mlirFlatSymbolRefAttrGetValue(c));
  return MlirWalkResultAdvance;
}

// Drops the func.func ops that the function that runs, |entry|, does not (transitively)
// call. The module's functions are found by name once (|funcs|), so a chain of n calls
// costs O(n), not n scans of the module. Nothing is dropped when a set cannot grow.
static met_status_t prune_funcs(MlirOperation module, const char *entry) {
  met_exec_names_t funcs = {0}, keep = {0};
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  size_t nf = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    nf += met_ir_op_is(op, "func.func");
  MlirOperation *fops = calloc(nf ? nf : 1, sizeof *fops);
  met_status_t st = fops ? MET_OK : MET_ENOMEM;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !st && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!met_ir_op_is(op, "func.func")) continue;
    size_t before = funcs.n;
    st = met_exec_names_add(&funcs, met_ir_sym_name(op));
    if (!st && funcs.n > before) fops[before] = op;  // the first of a name, as the lookup's
  }
  if (!st) st = met_exec_names_add(&keep, mlirStringRefCreateFromCString(entry));
  for (size_t i = 0; !st && i < keep.n; i++) {
    size_t k = met_strmap_get(&funcs.map, NULL, keep.names[i], strlen(keep.names[i]));
    if (k != SIZE_MAX) mlirOperationWalk(fops[k], collect_callees, &keep, MlirWalkPreOrder);
    st = keep.status;
  }
  free(fops);
  met_exec_names_free(&funcs);
  if (st) {
    met_exec_names_free(&keep);
    return st;
  }
  MlirOperation op = mlirBlockGetFirstOperation(body);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    // Functions the entry does not call go, and so do nested modules: a function at the
    // top cannot call into them, and their functions would not lower with the top's.
    if ((met_ir_op_is(op, "func.func") && !met_exec_names_has(&keep, met_ir_sym_name(op))) ||
        met_ir_op_is(op, "builtin.module"))
      mlirOperationDestroy(op);
    op = next;
  }
  met_exec_names_free(&keep);
  return MET_OK;
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
  if (met_ir_op_is(op, "memref.copy")) ((count_t *)ud)->n++;
  return MlirWalkResultAdvance;
}

// memref.alloc ops in the bufferized function: what the allocation hook should see once
// per invocation in straight-line code.
static MlirWalkResult count_allocs(MlirOperation op, void *ud) {
  if (met_ir_op_is(op, "memref.alloc")) ((count_t *)ud)->n++;
  return MlirWalkResultAdvance;
}

// ---------------------------------------------------------------------------------------
// Pass pipeline
// ---------------------------------------------------------------------------------------

// Stage A, from tensors to bufferized memrefs, is passes/ir/bufferize.c's (the same
// program the mlir-cpu target's passes analyse); stage B, from there to the LLVM dialect:
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

static met_status_t run_passes(MlirContext ctx, MlirOperation module, const char *const *passes,
                      size_t n, met_exec_diag_t *dg, met_exec_result_t *out) {
  for (size_t i = 0; i < n; i++) {
    char pipe[512], perr[256] = {0};
    snprintf(pipe, sizeof pipe, "builtin.module(%s)", passes[i]);
    MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, S("builtin.module"));
    met_exec_sbuf_t eb = {perr, sizeof perr, 0};
    if (mlirLogicalResultIsFailure(
            mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm), S(pipe), met_exec_sbuf_cb, &eb))) {
      mlirPassManagerDestroy(pm);
      return met_exec_fail(out, MET_EEXTERNAL, "pass pipeline element '%s' does not parse: %s", passes[i], perr);
    }
    dg->errors = 0;
    dg->msg[0] = dg->loc[0] = 0;
    MlirLogicalResult r = mlirPassManagerRunOnOp(pm, module);
    mlirPassManagerDestroy(pm);
    if (mlirLogicalResultIsFailure(r))
      return met_exec_fail(out, MET_EEXTERNAL, "lowering failed in pass '%s' at %s: %s", passes[i],
                  dg->loc[0] ? dg->loc : "?", dg->msg[0] ? dg->msg : "(no diagnostic)");
  }
  return MET_OK;
}

// After stage B only LLVM dialect ops may remain; anything else would make the
// translation to LLVM IR fail without a message.
typedef struct { MlirOperation first; uint64_t n; } leftover_t;
static MlirWalkResult find_leftover(MlirOperation op, void *ud) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if ((n.length > 5 && !memcmp(n.data, "llvm.", 5)) || met_ir_str_eq(n, "builtin.module") ||
      met_ir_str_eq(n, "builtin.unrealized_conversion_cast"))
    return MlirWalkResultAdvance;
  leftover_t *l = ud;
  if (l->n++ == 0) l->first = op;
  return MlirWalkResultAdvance;
}

// An element type LLVM has no form for (tf32, the f8/f6/f4 families, f8E8M0): the type
// converter leaves every op that touches it. Integers, index and f16/bf16/f32/f64 have
// one (the C API names no f80 or f128: they count as having none).
static bool no_llvm_form(MlirType t) {
  if (mlirTypeIsAShaped(t)) t = mlirShapedTypeGetElementType(t);
  if (mlirTypeIsAComplex(t)) t = mlirComplexTypeGetElementType(t);
  if (!mlirTypeIsAFloat(t)) return false;
  return !(mlirTypeIsAF16(t) || mlirTypeIsABF16(t) || mlirTypeIsAF32(t) || mlirTypeIsAF64(t));
}

// The first type of |op| (a result, an operand, a function's argument or result, a block
// argument of its regions' entry blocks) with no LLVM form; a null type when none.
static MlirType odd_type(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, i));
    if (no_llvm_form(t)) return t;
  }
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, i));
    if (no_llvm_form(t)) return t;
  }
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
    for (intptr_t i = 0; !mlirBlockIsNull(b) && i < mlirBlockGetNumArguments(b); ++i) {
      MlirType t = mlirValueGetType(mlirBlockGetArgument(b, i));
      if (no_llvm_form(t)) return t;
    }
  }
  return (MlirType){NULL};
}

static met_status_t check_leftovers(MlirOperation module, met_exec_result_t *out) {
  leftover_t l = {{NULL}, 0};
  mlirOperationWalk(module, find_leftover, &l, MlirWalkPreOrder);
  if (!l.n) return MET_OK;
  char name[96], loc[160], why[160] = "";
  sref_copy(name, sizeof name, mlirIdentifierStr(mlirOperationGetName(l.first)));
  met_diag_loc_short(mlirOperationGetLocation(l.first), loc, sizeof loc);
  MlirType odd = odd_type(l.first);
  if (!mlirTypeIsNull(odd)) {
    char ts[96];
    met_exec_type_str(odd, ts, sizeof ts);
    snprintf(why, sizeof why, ": it holds %s, whose element type has no LLVM form", ts);
  }
  return met_exec_fail(out, MET_EEXTERNAL, "%" PRIu64 " op(s) survived lowering to the LLVM dialect (no pass of "
              "the pipeline lowers them); first: '%s' at %s%s", l.n, name, loc, why);
}

// Every external llvm.func must resolve: to a hook or to a symbol of this process.
static met_status_t check_externals(MlirOperation module, const met_exec_options_t *opt, met_exec_result_t *out) {
  void *libh[16];
  size_t nl = 0;
  for (size_t i = 0; i < opt->n_shared_libs && nl < 16; i++) {
    void *h = dlopen(opt->shared_libs[i], RTLD_LAZY | RTLD_LOCAL);
    if (!h) return met_exec_fail(out, MET_EEXTERNAL, "cannot load shared library %.300s: %.150s", opt->shared_libs[i], dlerror());
    libh[nl++] = h;
  }
  met_exec_hook_t hk[EXEC_N_HOOKS];
  size_t nh = met_exec_hooks_table(hk);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  char missing[256] = {0};
  size_t nm = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!met_ir_op_is(op, "llvm.func")) continue;
    if (!mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)))) continue;
    char name[256];
    sref_copy(name, sizeof name, met_ir_sym_name(op));
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
    return met_exec_fail(out, MET_EEXTERNAL, "%zu external symbol(s) do not resolve in this process: %s%s", nm,
                missing, nm > 4 ? ", ..." : "");
  return MET_OK;
}


// A tensor with an encoding (#sparse_tensor.encoding): the runner passes dense buffers,
// so the program would read data the encoding does not describe.
static bool encoded(MlirType t) {
  return mlirTypeIsARankedTensor(t) && !mlirAttributeIsNull(mlirRankedTensorTypeGetEncoding(t));
}

static MlirWalkResult find_encoded(MlirOperation op, void *ud) {
  MlirType *hit = ud;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op) && mlirTypeIsNull(*hit); ++i)
    if (encoded(mlirValueGetType(mlirOperationGetResult(op, i))))
      *hit = mlirValueGetType(mlirOperationGetResult(op, i));
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op) && mlirTypeIsNull(*hit); ++r) {
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
    for (intptr_t i = 0; !mlirBlockIsNull(b) && i < mlirBlockGetNumArguments(b); ++i)
      if (encoded(mlirValueGetType(mlirBlockGetArgument(b, i)))) {
        *hit = mlirValueGetType(mlirBlockGetArgument(b, i));
        break;
      }
  }
  return mlirTypeIsNull(*hit) ? MlirWalkResultAdvance : MlirWalkResultInterrupt;
}

met_status_t met_exec_refuse_unregistered(MlirContext ctx, MlirOperation func, const char *name,
                             met_exec_result_t *out) {
  MlirType enc = {NULL};
  mlirOperationWalk(func, find_encoded, &enc, MlirWalkPreOrder);
  if (!mlirTypeIsNull(enc)) {
    char ts[200];
    met_exec_type_str(enc, ts, sizeof ts);
    return met_exec_fail(out, MET_EUNSUPPORTED, "@%s holds %s: a tensor with an encoding (a sparse format) is "
                "not run, as the runner passes dense buffers and cannot run it faithfully "
                "(refused before lowering)", name, ts);
  }
  unreg_t u = {ctx, {NULL}};
  mlirOperationWalk(func, find_unregistered, &u, MlirWalkPreOrder);
  if (mlirOperationIsNull(u.first)) return MET_OK;
  char where[160];
  met_diag_loc_short(mlirOperationGetLocation(u.first), where, sizeof where);
  MlirStringRef nm = mlirIdentifierStr(mlirOperationGetName(u.first));
  return met_exec_fail(out, MET_EUNSUPPORTED, "'%.*s' at %s is not a registered op: nothing lowers it, so @%s "
              "cannot run (refused before lowering)", (int)nm.length, nm.data, where, name);
}

static void file_cb(MlirStringRef s, void *ud) { fwrite(s.data, 1, s.length, (FILE *)ud); }

// The module printed into |path| ('-': standard output, as --json - writes there) as it
// streams out of the printer (a large model's text is not held); |what| names it in the
// error ("--dump-bufferized").
static met_status_t dump_module(MlirOperation mop, const char *path, const char *what,
                                met_exec_result_t *out) {
  bool out_std = !strcmp(path, "-");
  errno = 0;
  FILE *df = out_std ? stdout : fopen(path, "w");
  bool ok = df != NULL;
  if (df) mlirOperationPrint(mop, file_cb, df);
  if (df) ok = (out_std ? fflush(df) == 0 : fclose(df) == 0) && ok;
  if (ok) return MET_OK;
  return met_exec_fail(out, MET_EINVAL, "cannot write %s '%.200s': %s", what, path,
                       strerror(errno ? errno : EIO));
}

met_status_t met_exec_lower(MlirContext ctx, MlirOperation mop, const char *func_name,
               const met_exec_options_t *opt, met_exec_diag_t *dg, met_exec_result_t *out) {
  met_status_t rc;
  if (!opt->keep_other_funcs && (rc = prune_funcs(mop, func_name)))
    return met_exec_fail(out, rc, "cannot list the functions @%s calls: %s", func_name,
                         met_status_str(rc));
  MlirOperation f = met_exec_find_func(mop, func_name);
  mlirOperationSetDiscardableAttributeByName(f, S("llvm.emit_c_interface"), mlirUnitAttrGet(ctx));
  mlirOperationSetInherentAttributeByName(f, S("sym_visibility"), mlirStringAttrGet(ctx, S("public")));
  dg->errors = 0;
  if (!mlirOperationVerify(mop))
    return met_exec_fail(out, MET_EEXTERNAL, "the module does not verify at %s: %s", dg->loc[0] ? dg->loc : "?",
                dg->msg);
  // Stage A (to bufferized memrefs), what the bufferized function holds, the markers.
  // The user's functions (the pipeline adds helpers of its own).
  met_exec_names_t users = {0};
  MlirBlock mbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(mop, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(mbody); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (met_ir_op_is(op, "func.func") && (rc = met_exec_names_add(&users, met_ir_sym_name(op)))) {
      met_exec_names_free(&users);
      return met_exec_fail(out, rc, "out of memory (the module's function names)");
    }
  met_error_t be;
  if (met_bufferize(ctx, mop, MET_BUFFERIZE_UPSTREAM, &be)) {
    met_exec_names_free(&users);
    return met_exec_fail(out, be.code, "lowering failed in %s", be.message);
  }
  f = met_exec_find_func(mop, func_name);
  if (mlirOperationIsNull(f)) return met_exec_fail(out, MET_EEXTERNAL, "@%s disappeared during lowering", func_name);
  count_t cc = {0};
  mlirOperationWalk(f, count_copies, &cc, MlirWalkPreOrder);
  out->copies = cc.n;
  count_t ca = {0};
  mlirOperationWalk(f, count_allocs, &ca, MlirWalkPreOrder);
  out->static_allocs = ca.n;
  met_exec_count_resident(f, opt, out);
  rc = met_exec_insert_markers(ctx, mop, &users, out);
  met_exec_names_free(&users);
  if (rc) return rc;
  // Elided weights get data only now: the program is the one the prediction analyses.
  if ((rc = met_exec_fill_elided(ctx, mop, opt, out))) return rc;
  dg->errors = 0;
  if (!mlirOperationVerify(mop))
    return met_exec_fail(out, MET_EEXTERNAL, "IR with kernel markers does not verify at %s: %s", dg->loc, dg->msg);
  if (opt->dump_bufferized) {
    if ((rc = dump_module(mop, opt->dump_bufferized, "--dump-bufferized", out))) return rc;
  }
  // Stage B (to the LLVM dialect), then what must hold before the engine is built.
  if ((rc = run_passes(ctx, mop, stage_b, sizeof stage_b / sizeof *stage_b, dg, out))) return rc;
  if (opt->dump_lowered &&
      (rc = dump_module(mop, opt->dump_lowered, "the lowered module to", out)))
    return rc;
  if ((rc = check_leftovers(mop, out))) return rc;
  return check_externals(mop, opt, out);
}
