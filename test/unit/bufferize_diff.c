// bufferize_diff: the differential test of passes/ir/dealloc.h (issue 42). For each MLIR
// file given, the module is bufferized twice, by upstream's passes as listed
// (MET_BUFFERIZE_UPSTREAM, what `metrale run` runs) and by the analysis's mode
// (MET_BUFFERIZE_ANALYSIS, what the mlir-cpu target reads), and the two programs are
// printed with their locations and compared as text. One line per file:
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

static int by_name(const void *a, const void *b) {
  MlirStringRef x = mlirStringAttrGetValue(mlirOperationGetAttributeByName(
                    *(const MlirOperation *)a, mlirStringRefCreateFromCString("sym_name"))),
                y = mlirStringAttrGetValue(mlirOperationGetAttributeByName(
                    *(const MlirOperation *)b, mlirStringRefCreateFromCString("sym_name")));
  int c = memcmp(x.data, y.data, x.length < y.length ? x.length : y.length);
  return c ? c : (x.length > y.length) - (x.length < y.length);
}

// One-shot bufferization creates the memref.globals of constants in an order that changes
// from run to run (in either mode): they are put first, by name, before comparing.
static void sort_globals(MlirOperation m) {
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(m, 0));
  size_t n = 0, cap = 0;
  MlirOperation *gs = NULL;
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!met_ir_op_is(op, "memref.global")) continue;
    if (n == cap) {
      MlirOperation *p = realloc(gs, (cap = cap ? 2 * cap : 16) * sizeof *gs);
      if (!p) { free(gs); return; }
      gs = p;
    }
    gs[n++] = op;
  }
  if (n > 1) qsort(gs, n, sizeof *gs, by_name);
  for (size_t i = n; i-- > 0;) mlirOperationMoveBefore(gs[i], mlirBlockGetFirstOperation(top));
  free(gs);
}

// Bufferizes a clone of |m| in |mode|; its text (with locations) in |out|, or 1 when the
// pipeline refuses it.
static int lower(MlirContext ctx, MlirOperation m, met_bufferize_mode_t mode, text_t *out) {
  MlirOperation c = mlirOperationClone(m);
  met_error_t err;
  int refused = met_bufferize(ctx, c, mode, &err) != MET_OK;
  if (!refused) {
    sort_globals(c);
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
