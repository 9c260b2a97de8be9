// bufferize.c: upstream MLIR's CPU pipeline from tensors to bufferized memrefs (see
// bufferize.h). One pass manager per pass, so that a failure names its pass; the first
// error diagnostic of a step is kept, every diagnostic is consumed (the pipeline runs on
// the analysis's own clone: what it says is no diagnostic of the user's module).
// Expected workload: one call per module and pass run on the mlir-cpu target; the
// pipeline's own cost, not this file's. That cost is not linear in ops (measured on one
// function of n transformer-MLP blocks, `mlir-opt --mlir-timing`): the deallocation
// passes grow about 4x per doubling (dealloc.h says why), one-shot analysis and
// eliminate-empty-tensors too while weights are shared by every block (shared_reads.h);
// in MET_BUFFERIZE_ANALYSIS neither remains, and what is left grows 2.3-2.8x per doubling
// (upstream's canonicalize, CSE and the analysis themselves; bench/RESULTS.md (1c)).
#include "ir/bufferize.h"
#include "ir/clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ir/dealloc.h"
#include "ir/diag.h"
#include "ir/shared_reads.h"
#include "ir/ir.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Pass.h"

static const char *const kPasses[] = {
    "func.func(tosa-to-linalg-named)",
    "func.func(tosa-to-linalg)",
    "func.func(tosa-to-arith)",
    "func.func(tosa-to-tensor)",
    "func.func(convert-elementwise-to-linalg)",
    "canonicalize",
    "func.func(linalg-fuse-elementwise-ops)",
    "eliminate-empty-tensors",
    // One element, parenthesized so that clang's -Wstring-concatenation knows it is meant.
    // A loop may yield a new tensor each iteration (allow-return-allocs-from-loops):
    // without it a loop whose body computes its next value is refused.
    ("one-shot-bufferize{bufferize-function-boundaries=1 allow-return-allocs-from-loops=1 "
     "function-boundary-type-conversion=identity-layout-map}"),
    "canonicalize",
    "buffer-deallocation-pipeline",
    "func.func(optimize-allocation-liveness)",
    "convert-bufferization-to-memref",
};

const char *const *met_bufferize_passes(size_t *count) {
  *count = sizeof(kPasses) / sizeof(kPasses[0]);
  return kPasses;
}

typedef struct capture_t {
  int errors;
  char msg[768], loc[256];
} capture_t;

typedef struct text_t { char *buf; size_t cap, len; } text_t;
// Appends |s| to |t|, a line break as a space (a message of several lines is one line).
static void text_cb(MlirStringRef s, void *user) {
  text_t *t = user;
  size_t n = s.length < t->cap - 1 - t->len ? s.length : t->cap - 1 - t->len;
  for (size_t i = 0; i < n; ++i) t->buf[t->len + i] = s.data[i] == '\n' ? ' ' : s.data[i];
  t->len += n;
  t->buf[t->len] = 0;
}

static MlirLogicalResult capture(MlirDiagnostic d, void *user) {
  capture_t *c = user;
  if (mlirDiagnosticGetSeverity(d) == MlirDiagnosticError && c->errors++ == 0) {
    text_t t = {c->msg, sizeof c->msg, 0};
    c->msg[0] = 0;
    mlirDiagnosticPrint(d, text_cb, &t);
    met_diag_loc_short(mlirDiagnosticGetLocation(d), c->loc, sizeof c->loc);
  }
  return mlirLogicalResultSuccess();  // handled: nothing reaches the user's handlers
}

// The one message of a failure: "pass 'P' at LOC: MESSAGE".
static met_status_t fail_at(met_error_t *err, const char *pass, const char *loc,
                            const char *msg) {
  return met_error_set(err, MET_EEXTERNAL, "pass '%.159s' at %.255s: %.767s", pass, loc, msg);
}

static met_status_t fail(met_error_t *err, const char *pass, const capture_t *c,
                         const char *fallback) {
  return fail_at(err, pass, c->loc[0] ? c->loc : "?", c->msg[0] ? c->msg : fallback);
}

static met_status_t run_one(MlirContext ctx, MlirOperation module, const char *pass,
                            capture_t *c, met_error_t *err) {
  char pipe[512], perr[256] = {0};
  snprintf(pipe, sizeof pipe, "builtin.module(%s)", pass);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, mlirStringRefCreateFromCString("builtin.module"));
  text_t eb = {perr, sizeof perr, 0};
  if (mlirLogicalResultIsFailure(mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
                                                       mlirStringRefCreateFromCString(pipe),
                                                       text_cb, &eb))) {
    mlirPassManagerDestroy(pm);
    capture_t none = {0, {0}, {0}};
    snprintf(none.msg, sizeof none.msg, "it does not parse (is it registered?): %s", perr);
    return fail(err, pass, &none, "");
  }
  c->errors = 0;
  c->msg[0] = c->loc[0] = 0;
  MlirLogicalResult r = mlirPassManagerRunOnOp(pm, module);
  mlirPassManagerDestroy(pm);
  if (mlirLogicalResultIsFailure(r)) return fail(err, pass, c, "(no diagnostic)");
  return MET_OK;
}

// linalg.softmax (an aggregate op) is not lowered by convert-linalg-to-loops, and no
// registered pass decomposes it: a transform script does (decompose_interface), run by
// the transform interpreter on the tensor IR, then removed.
static MlirWalkResult find_softmax(MlirOperation op, void *user) {
  if (met_ir_op_is(op, "linalg.softmax")) {
    *(bool *)user = true;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static met_status_t decompose_aggregates(MlirContext ctx, MlirOperation module, capture_t *c,
                                         met_error_t *err) {
  bool any = false;
  mlirOperationWalk(module, find_softmax, &any, MlirWalkPreOrder);
  if (!any) return MET_OK;
  static const char *const seq =
      "module attributes {transform.with_named_sequence} {\n"
      "transform.named_sequence @__metrale_decompose(%root: !transform.any_op "
      "{transform.readonly}) {\n"
      "  %s = transform.structured.match ops{[\"linalg.softmax\"]} in %root"
      " : (!transform.any_op) -> !transform.any_op\n"
      "  %d = transform.structured.decompose_interface %s"
      " : (!transform.any_op) -> !transform.any_op\n"
      "  transform.yield\n}\n}";
  MlirStringRef attr = mlirStringRefCreateFromCString("transform.with_named_sequence");
  MlirOperation wrap = mlirOperationCreateParse(ctx, mlirStringRefCreateFromCString(seq),
                                                mlirStringRefCreateFromCString("metrale-decompose"));
  if (mlirOperationIsNull(wrap))
    return fail(err, "transform-interpreter", c, "cannot build the softmax decomposition script");
  // The sequence verifies only under a parent carrying transform.with_named_sequence:
  // parse it inside a module, then move it into |module|.
  MlirOperation sq = mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(wrap, 0)));
  mlirOperationRemoveFromParent(sq);
  mlirOperationDestroy(wrap);
  mlirBlockAppendOwnedOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)), sq);
  bool had = !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(module, attr));
  if (!had) mlirOperationSetDiscardableAttributeByName(module, attr, mlirUnitAttrGet(ctx));
  met_status_t st =
      run_one(ctx, module, "transform-interpreter{entry-point=__metrale_decompose}", c, err);
  mlirOperationDestroy(sq);
  if (!had) mlirOperationRemoveDiscardableAttributeByName(module, attr);
  return st;
}

// --- ml_program globals ---------------------------------------------------------------
// No upstream pass bufferizes ml_program: its globals become the forms bufferization
// takes. An immutable global's loads are constants of its value (arith.constant, which
// bufferization makes a memref.global); a mutable one is a memref.global, its loads
// memref.get_global then bufferization.to_tensor (restrict) or, for a scalar,
// memref.load of the rank-0 memref, its stores bufferization.materialize_in_destination
// (restrict writable) or memref.store. The ml_program globals then go (nothing loads an
// unused one; a global with no value that something loads is refused).

typedef struct mlp_global_t {
  MlirOperation op;
  MlirStringRef name;
  MlirType type;              // its tensor or scalar type
  MlirAttribute value;        // null: none (defined elsewhere)
  bool is_mutable;
  MlirOperation memref;       // the memref.global made for a mutable one
} mlp_global_t;

typedef struct mlp_state_t {
  MlirContext ctx;
  mlp_global_t *g;
  size_t n;
  MlirOperation uses[4096];   // loads and stores, in walk order
  size_t nuses;
  bool overflow;
} mlp_state_t;

static MlirStringRef str_attr(MlirOperation op, const char *name) {
  MlirAttribute a = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(a)) a = mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name));
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAString(a)) return mlirStringAttrGetValue(a);
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAFlatSymbolRef(a)) return mlirFlatSymbolRefAttrGetValue(a);
  return (MlirStringRef){NULL, 0};
}

static MlirAttribute any_attr(MlirOperation op, const char *name) {
  MlirAttribute a = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString(name));
  return mlirAttributeIsNull(a) ? mlirOperationGetDiscardableAttributeByName(op, mlirStringRefCreateFromCString(name)) : a;
}

static MlirWalkResult find_global_uses(MlirOperation op, void *user) {
  mlp_state_t *st = user;
  if (met_ir_op_is(op, "ml_program.global_load_const") || met_ir_op_is(op, "ml_program.global_load") ||
      met_ir_op_is(op, "ml_program.global_store")) {
    if (st->nuses == sizeof st->uses / sizeof st->uses[0]) { st->overflow = true; return MlirWalkResultInterrupt; }
    st->uses[st->nuses++] = op;
  }
  return MlirWalkResultAdvance;
}

static MlirOperation create(MlirContext ctx, const char *name, MlirLocation loc, intptr_t nres,
                            MlirType *res, intptr_t nops, MlirValue *ops, intptr_t nattrs,
                            MlirNamedAttribute *attrs) {
  MlirOperationState s = mlirOperationStateGet(mlirStringRefCreateFromCString(name), loc);
  if (nres) mlirOperationStateAddResults(&s, nres, res);
  if (nops) mlirOperationStateAddOperands(&s, nops, ops);
  if (nattrs) mlirOperationStateAddAttributes(&s, nattrs, attrs);
  (void)ctx;
  return mlirOperationCreate(&s);
}

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

// The memref.global of mutable global |g|, made once, before |g|'s op.
static MlirOperation memref_global(mlp_state_t *st, mlp_global_t *g) {
  if (!mlirOperationIsNull(g->memref)) return g->memref;
  MlirContext ctx = st->ctx;
  bool shaped = mlirTypeIsAShaped(g->type);
  int64_t dims[16];
  intptr_t rank = shaped ? mlirShapedTypeGetRank(g->type) : 0;
  if (rank > 16) return (MlirOperation){NULL};
  for (intptr_t d = 0; d < rank; ++d) dims[d] = mlirShapedTypeGetDimSize(g->type, d);
  MlirType mt = mlirMemRefTypeContiguousGet(shaped ? mlirShapedTypeGetElementType(g->type) : g->type,
                                            rank, dims, mlirAttributeGetNull());
  MlirAttribute init = g->value;
  if (!mlirAttributeIsNull(init) && !shaped) {
    // A scalar's initial value as the rank-0 tensor memref.global takes.
    MlirType t0 = mlirRankedTensorTypeGet(0, NULL, g->type, mlirAttributeGetNull());
    init = mlirDenseElementsAttrGet(t0, 1, &g->value);
  }
  MlirNamedAttribute attrs[4];
  intptr_t na = 0;
  attrs[na++] = named(ctx, "sym_name", mlirStringAttrGet(ctx, g->name));
  attrs[na++] = named(ctx, "sym_visibility", mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("private")));
  attrs[na++] = named(ctx, "type", mlirTypeAttrGet(mt));
  if (!mlirAttributeIsNull(init)) attrs[na++] = named(ctx, "initial_value", init);
  MlirOperation mg = create(ctx, "memref.global", mlirOperationGetLocation(g->op), 0, NULL, 0, NULL, na, attrs);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(g->op), g->op, mg);
  g->memref = mg;
  return mg;
}

// |code| with |why| at |op|: the step before the passes refuses the module.
static met_status_t refuse(met_error_t *err, met_status_t code, MlirOperation op,
                           const char *why) {
  char loc[256];
  met_diag_loc_short(mlirOperationGetLocation(op), loc, sizeof loc);
  fail_at(err, "ml_program globals to memref", loc, why);
  err->code = code;
  err->loc = mlirOperationGetLocation(op).ptr;
  return code;
}

static met_status_t prepare_globals(MlirContext ctx, MlirOperation module, met_error_t *err) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  size_t n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    n += met_ir_op_is(op, "ml_program.global");
  if (!n) return MET_OK;
  mlp_state_t *st = calloc(1, sizeof *st);
  mlp_global_t *gs = calloc(n, sizeof *gs);
  if (!st || !gs) {
    free(st);
    free(gs);
    return refuse(err, MET_ENOMEM, module, "out of memory");
  }
  st->ctx = ctx;
  st->g = gs;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!met_ir_op_is(op, "ml_program.global")) continue;
    mlp_global_t *g = &gs[st->n++];
    g->op = op;
    g->name = str_attr(op, "sym_name");
    MlirAttribute ty = any_attr(op, "type");
    g->type = !mlirAttributeIsNull(ty) && mlirAttributeIsAType(ty) ? mlirTypeAttrGetValue(ty) : (MlirType){NULL};
    g->value = any_attr(op, "value");
    g->is_mutable = !mlirAttributeIsNull(any_attr(op, "is_mutable"));
  }
  mlirOperationWalk(module, find_global_uses, st, MlirWalkPreOrder);
  met_status_t res = st->overflow
                        ? refuse(err, MET_EUNSUPPORTED, module, "more than 4096 loads and stores of ml_program globals")
                        : MET_OK;
  for (size_t u = 0; !res && u < st->nuses; ++u) {
    MlirOperation op = st->uses[u];
    MlirStringRef name = str_attr(op, "global");
    mlp_global_t *g = NULL;
    for (size_t k = 0; k < st->n && !g; ++k)
      if (mlirStringRefEqual(gs[k].name, name)) g = &gs[k];
    if (!g || mlirTypeIsNull(g->type)) { res = refuse(err, MET_EUNSUPPORTED, op, "it loads or stores a global this module does not define"); break; }
    MlirLocation loc = mlirOperationGetLocation(op);
    bool store = met_ir_op_is(op, "ml_program.global_store");
    MlirOperation repl = {NULL}, extra = {NULL};
    if (!store && !g->is_mutable) {
      if (mlirAttributeIsNull(g->value)) { res = refuse(err, MET_EUNSUPPORTED, op, "it loads an immutable global with no value (defined elsewhere)"); break; }
      MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
      MlirNamedAttribute va = named(ctx, "value", g->value);
      repl = create(ctx, "arith.constant", loc, 1, &rt, 0, NULL, 1, &va);
    } else {
      MlirOperation mg = memref_global(st, g);
      if (mlirOperationIsNull(mg)) { res = refuse(err, MET_EUNSUPPORTED, op, "a global of more than 16 dims"); break; }
      MlirAttribute mt = any_attr(mg, "type");
      MlirType mty = mlirTypeAttrGetValue(mt);
      MlirNamedAttribute nm = named(ctx, "name", mlirFlatSymbolRefAttrGet(ctx, g->name));
      MlirOperation get = create(ctx, "memref.get_global", loc, 1, &mty, 0, NULL, 1, &nm);
      mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(op), op, get);
      MlirValue m = mlirOperationGetResult(get, 0);
      bool shaped = mlirTypeIsAShaped(g->type);
      if (!store) {
        MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
        if (shaped) {
          MlirNamedAttribute ra = named(ctx, "restrict", mlirUnitAttrGet(ctx));
          repl = create(ctx, "bufferization.to_tensor", loc, 1, &rt, 1, &m, 1, &ra);
        } else {
          repl = create(ctx, "memref.load", loc, 1, &rt, 1, &m, 0, NULL);
        }
      } else {
        MlirValue v = mlirOperationGetOperand(op, 0);
        if (shaped) {
          MlirValue ops[2] = {v, m};
          MlirNamedAttribute ra[2] = {named(ctx, "restrict", mlirUnitAttrGet(ctx)),
                                      named(ctx, "writable", mlirUnitAttrGet(ctx))};
          extra = create(ctx, "bufferization.materialize_in_destination", loc, 0, NULL, 2, ops, 2, ra);
        } else {
          MlirValue ops[2] = {v, m};
          extra = create(ctx, "memref.store", loc, 0, NULL, 2, ops, 0, NULL);
        }
      }
    }
    if (!mlirOperationIsNull(repl)) {
      mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(op), op, repl);
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), mlirOperationGetResult(repl, 0));
    }
    if (!mlirOperationIsNull(extra)) mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(op), op, extra);
    mlirOperationDestroy(op);
  }
  if (!res)
    for (size_t k = 0; k < st->n; ++k) mlirOperationDestroy(gs[k].op);
  free(gs);
  free(st);
  return res;
}

// What buffer-deallocation-pipeline and optimize-allocation-liveness make of a module
// met_dealloc_linear_applies accepts: the pipeline's canonicalize and CSE passes around
// the frees ownership-based deallocation inserts before each return, then the frees moved
// after their buffers' last users.
static met_status_t linear_deallocation(MlirContext ctx, MlirOperation module, capture_t *c,
                                        met_error_t *err) {
  static const char *const kAround[] = {"canonicalize", "canonicalize", "cse", "canonicalize"};
  MET_RETURN_IF_ERROR(run_one(ctx, module, kAround[0], c, err));
  met_status_t st = met_dealloc_insert(module);
  if (st) return fail_at(err, "buffer-deallocation-pipeline", "?", met_status_str(st));
  for (size_t k = 1; k < sizeof(kAround) / sizeof(kAround[0]); ++k)
    MET_RETURN_IF_ERROR(run_one(ctx, module, kAround[k], c, err));
  st = met_dealloc_place(module);
  if (st) return fail_at(err, "func.func(optimize-allocation-liveness)", "?", met_status_str(st));
  return MET_OK;
}

static double seconds_now(void) { return (double)met_clock_ns() * 1e-9; }

// Progress on a terminal once the pipeline has run 2 s (issue 42: a long function's
// pipeline takes minutes): the step it is at, as `metrale`'s own progress line, erased
// when done. Nothing when standard error is no terminal (lit, files, pipes).
typedef struct progress_t { bool tty, shown; double start; } progress_t;

static void progress_step(progress_t *p, size_t step, size_t steps, const char *pass) {
  if (!p->tty) return;
  double t = seconds_now() - p->start;
  if (t < 2.0) return;
  fprintf(stderr, "\rmetrale: upstream's CPU pipeline for mlir-cpu, %.0f s: step %zu of %zu, %.60s\033[K",
          t, step + 1, steps, pass);
  p->shown = true;
}

met_status_t met_bufferize(MlirContext ctx, MlirOperation module, met_bufferize_mode_t mode,
                           met_error_t *err) {
  met_error_init(err);
  capture_t c;
  memset(&c, 0, sizeof c);
  MlirDiagnosticHandlerID hid = mlirContextAttachDiagnosticHandler(ctx, capture, &c, NULL);
  // The ops made below must be the registered ops of loaded dialects: an op of a dialect
  // not yet loaded is built unregistered, without its properties (mlir-opt loads dialects
  // only as the parsed module names them).
  static const char *const kMade[] = {"memref", "arith", "bufferization", "tensor", "linalg",
                                      "transform"};
  for (size_t i = 0; i < sizeof(kMade) / sizeof(kMade[0]); ++i)
    mlirContextGetOrLoadDialect(ctx, mlirStringRefCreateFromCString(kMade[i]));
  progress_t prog = {isatty(STDERR_FILENO) != 0, false, seconds_now()};
  char why[256];  // why the linear placement does not apply (bufferize_diff says it)
  met_shared_reads_t split = {NULL, 0};
  bool split_active = false;
  met_status_t st = prepare_globals(ctx, module, err);
  if (!st) st = decompose_aggregates(ctx, module, &c, err);
  for (size_t i = 0; !st && i < sizeof(kPasses) / sizeof(kPasses[0]); ++i) {
    // buffer-deallocation-pipeline and optimize-allocation-liveness, on a module where
    // their one decision is where each buffer is freed, in linear time (ir/dealloc.h).
    if (mode == MET_BUFFERIZE_UNTIL_DEALLOCATION &&
        !strcmp(kPasses[i], "buffer-deallocation-pipeline"))
      break;
    if (mode == MET_BUFFERIZE_ANALYSIS && !strcmp(kPasses[i], "buffer-deallocation-pipeline") &&
        i + 1 < sizeof(kPasses) / sizeof(kPasses[0]) &&
        !strcmp(kPasses[i + 1], "func.func(optimize-allocation-liveness)") &&
        met_dealloc_linear_applies(module, why, sizeof why)) {
      st = linear_deallocation(ctx, module, &c, err);
      ++i;
      continue;
    }
    // One-shot analysis visits every use of an alias per operand: weights read by every
    // block are given one argument per reader while it runs (ir/shared_reads.h).
    bool split_here = mode == MET_BUFFERIZE_ANALYSIS && !strcmp(kPasses[i], "eliminate-empty-tensors");
    if (split_here) {
      st = met_shared_reads_split(module, &split);
      if (st) st = fail_at(err, kPasses[i], "?", met_status_str(st));
      split_active = !st;
    }
    progress_step(&prog, i, sizeof(kPasses) / sizeof(kPasses[0]), kPasses[i]);
    if (!st) st = run_one(ctx, module, kPasses[i], &c, err);
    if (!st && split_active && !strncmp(kPasses[i], "one-shot-bufferize", 18)) {
      st = met_shared_reads_merge(module, &split);
      if (st) st = fail_at(err, kPasses[i], "?", met_status_str(st));
      split_active = false;
    }
  }
  met_shared_reads_release(&split);
  if (prog.shown) fprintf(stderr, "\r\033[K");
  mlirContextDetachDiagnosticHandler(ctx, hid);
  return st;
}
