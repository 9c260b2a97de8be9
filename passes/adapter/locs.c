// locs.c: names and locations as the reports print them (adapter.h).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter/adapter.h"
#include "ir/ir.h"
#include "mlir-c/BuiltinAttributes.h"

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

bool met_adapter_loc_parts(MlirLocation loc, MlirStringRef *file, int *line, int *col) {
  MlirLocation f = find_file_loc(loc);
  if (mlirLocationIsNull(f)) return false;
  *file = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(f));
  *line = mlirLocationFileLineColRangeGetStartLine(f);
  *col = mlirLocationFileLineColRangeGetStartColumn(f);
  return true;
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
  MlirStringRef s = met_ir_sym_name(func);
  return s.data ? s : mlirStringRefCreateFromCString("?");
}

const char *met_adapter_qualified_name(met_arena_t *arena, MlirOperation func) {
  MlirStringRef fname = met_adapter_func_name(func);
  char *name = met_arena_strndup(arena, fname.data, fname.length);
  // Enclosing named modules, innermost first: "inner::@f", then "outer::@inner::@f".
  for (MlirOperation p = mlirOperationGetParentOperation(func); name && !mlirOperationIsNull(p);
       p = mlirOperationGetParentOperation(p)) {
    MlirStringRef m = met_ir_sym_name(p);
    if (!m.data) continue;
    name = met_arena_printf(arena, "%.*s::@%s", (int)m.length, m.data, name);
  }
  return name;
}
