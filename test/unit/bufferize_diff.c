// bufferize_diff: the differential test of passes/ir/dealloc.h (issue 42). For each MLIR
// file given, the module is bufferized twice, by upstream's passes as listed
// (MET_BUFFERIZE_UPSTREAM, what `metrale run` runs) and by the analysis's mode
// (MET_BUFFERIZE_ANALYSIS, what the mlir-cpu target reads), and the two programs are
// printed with their locations and compared as text (the memref.globals of constants,
// which one-shot bufferization names and orders differently from run to run in either
// mode, renamed by type and value first). One line per file:
//   same linear FILE          the linear placement applied and made the same program
//   same upstream FILE: WHY   it did not apply (WHY), both ran upstream's passes
//   unbufferized FILE         upstream's pipeline refuses the module (both modes agree)
//   unparsed FILE             not a module (an input meant to fail parsing)
//   DIFFERS FILE              the programs differ (the first differing line follows)
// then "total: N files, S same (L linear), D differ"; exit 1 when any differs.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/bufferize.h"
#include "ir/dealloc.h"
#include "ir/ir.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"

typedef struct text_t { char *data; size_t len, cap; int oom; } text_t;

static void append(MlirStringRef s, void *user) {
  text_t *t = user;
  if (t->oom) return;
  if (t->len + s.length + 1 > t->cap) {
    size_t cap = (t->len + s.length + 1) * 2;
    char *p = realloc(t->data, cap);
    if (!p) { t->oom = 1; return; }
    t->data = p;
    t->cap = cap;
  }
  memcpy(t->data + t->len, s.data, s.length);
  t->len += s.length;
  t->data[t->len] = 0;
}

static MlirLogicalResult quiet(MlirDiagnostic d, void *user) {
  (void)d;
  (void)user;
  return mlirLogicalResultSuccess();
}

typedef struct global_t { MlirOperation op; char *key; MlirStringRef old; char name[32]; } global_t;

static int by_key(const void *a, const void *b) {
  const global_t *x = a, *y = b;
  return strcmp(x->key, y->key);
}

typedef struct rename_t { global_t *gs; size_t n; MlirContext ctx; } rename_t;

static MlirWalkResult rename_uses(MlirOperation op, void *user) {
  rename_t *r = user;
  if (!met_ir_op_is(op, "memref.get_global")) return MlirWalkResultAdvance;
  MlirStringRef nm = mlirStringRefCreateFromCString("name");
  MlirStringRef cur = mlirFlatSymbolRefAttrGetValue(mlirOperationGetAttributeByName(op, nm));
  for (size_t i = 0; i < r->n; ++i)
    if (mlirStringRefEqual(cur, r->gs[i].old)) {
      mlirOperationSetAttributeByName(op, nm, mlirFlatSymbolRefAttrGet(r->ctx, mlirStringRefCreateFromCString(r->gs[i].name)));
      break;
    }
  return MlirWalkResultAdvance;
}

// One-shot bufferization names the memref.globals of constants (@__constant_4xf32,
// @__constant_4xf32_0, ...) and orders them differently from run to run, in either mode:
// before comparing, they are ordered by their type and value and renamed @g0, @g1, ...
static void canonical_globals(MlirOperation m) {
  MlirContext ctx = mlirOperationGetContext(m);
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(m, 0));
  size_t n = 0, cap = 0;
  global_t *gs = NULL;
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!met_ir_op_is(op, "memref.global")) continue;
    if (n == cap) {
      global_t *p = realloc(gs, (cap = cap ? 2 * cap : 16) * sizeof *gs);
      if (!p) { free(gs); return; }
      gs = p;
    }
    text_t k = {0};
    MlirAttribute t = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("type"));
    MlirAttribute v = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("initial_value"));
    if (!mlirAttributeIsNull(t)) mlirAttributePrint(t, append, &k);
    if (!mlirAttributeIsNull(v)) mlirAttributePrint(v, append, &k);
    gs[n].op = op;
    gs[n].key = k.data ? k.data : calloc(1, 1);
    gs[n].old = mlirStringAttrGetValue(mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name")));
    ++n;
  }
  if (n > 1) qsort(gs, n, sizeof *gs, by_key);
  // The new names first (the old ones stay readable: attributes live in the context).
  for (size_t i = 0; i < n; ++i) snprintf(gs[i].name, sizeof gs[i].name, "g%zu", i);
  rename_t r = {gs, n, ctx};
  mlirOperationWalk(m, rename_uses, &r, MlirWalkPreOrder);
  for (size_t i = n; i-- > 0;) {
    mlirOperationSetAttributeByName(gs[i].op, mlirStringRefCreateFromCString("sym_name"),
                                    mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(gs[i].name)));
    mlirOperationMoveBefore(gs[i].op, mlirBlockGetFirstOperation(top));
  }
  for (size_t i = 0; i < n; ++i) free(gs[i].key);
  free(gs);
}

// Bufferizes a clone of |m| in |mode|; its text (with locations) in |out|, or 1 when the
// pipeline refuses it.
static int lower(MlirContext ctx, MlirOperation m, met_bufferize_mode_t mode, text_t *out) {
  MlirOperation c = mlirOperationClone(m);
  met_error_t err;
  int refused = met_bufferize(ctx, c, mode, &err) != MET_OK;
  if (!refused) {
    canonical_globals(c);
    MlirOpPrintingFlags f = mlirOpPrintingFlagsCreate();
    mlirOpPrintingFlagsEnableDebugInfo(f, true, false);
    mlirOperationPrintWithFlags(c, f, append, out);
    mlirOpPrintingFlagsDestroy(f);
  }
  mlirOperationDestroy(c);
  return refused;
}

static void first_difference(const char *a, const char *b) {
  size_t line = 1, start = 0, i = 0;
  for (; a[i] && a[i] == b[i]; ++i)
    if (a[i] == '\n') { ++line; start = i + 1; }
  const char *ea = strchr(a + start, '\n'), *eb = strchr(b + start, '\n');
  int la = ea ? (int)(ea - a - start) : (int)strlen(a + start);
  int lb = eb ? (int)(eb - b - start) : (int)strlen(b + start);
  printf("  line %zu upstream: %.*s\n  line %zu linear:   %.*s\n", line, la < 300 ? la : 300,
         a + start, line, lb < 300 ? lb : 300, b + start);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bufferize_diff FILE.mlir...\n");
    return 2;
  }
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry reg = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(reg);
  mlirRegisterAllPasses();
  mlirContextAppendDialectRegistry(ctx, reg);
  mlirDialectRegistryDestroy(reg);
  mlirContextLoadAllAvailableDialects(ctx);
  mlirContextAttachDiagnosticHandler(ctx, quiet, NULL, NULL);
  int same = 0, linear = 0, differ = 0;
  for (int a = 1; a < argc; ++a) {
    MlirModule mod = mlirModuleCreateParseFromFile(ctx, mlirStringRefCreateFromCString(argv[a]));
    if (mlirModuleIsNull(mod)) {
      printf("unparsed %s\n", argv[a]);
      continue;
    }
    MlirOperation m = mlirModuleGetOperation(mod);
    text_t up = {0}, lin = {0};
    int rup = lower(ctx, m, MET_BUFFERIZE_UPSTREAM, &up);
    int rlin = lower(ctx, m, MET_BUFFERIZE_ANALYSIS, &lin);
    // Whether the linear placement applied: asked of the module bufferized up to it.
    char why[256] = "";
    if (!rup) {
      MlirOperation c = mlirOperationClone(m);
      met_error_t err;
      if (met_bufferize(ctx, c, MET_BUFFERIZE_UNTIL_DEALLOCATION, &err)) snprintf(why, sizeof why, "?");
      else if (!met_dealloc_linear_applies(c, why, sizeof why) && !why[0]) snprintf(why, sizeof why, "?");
      mlirOperationDestroy(c);
    }
    if (up.oom || lin.oom) {
      fprintf(stderr, "bufferize_diff: out of memory on %s\n", argv[a]);
      return 2;
    }
    if (rup && rlin) {
      printf("unbufferized %s\n", argv[a]);
    } else if (rup != rlin || strcmp(up.data, lin.data)) {
      ++differ;
      printf("DIFFERS %s\n", argv[a]);
      if (!rup && !rlin) first_difference(up.data, lin.data);
      else printf("  upstream %s, linear %s\n", rup ? "refused" : "bufferized", rlin ? "refused" : "bufferized");
    } else {
      ++same;
      if (why[0]) printf("same upstream %s: %s\n", argv[a], why);
      else { ++linear; printf("same linear %s\n", argv[a]); }
    }
    fflush(stdout);
    free(up.data);
    free(lin.data);
    mlirModuleDestroy(mod);
  }
  printf("total: %d files, %d same (%d linear), %d differ\n", argc - 1, same, linear, differ);
  mlirContextDestroy(ctx);
  return differ ? 1 : 0;
}
