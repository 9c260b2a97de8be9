// shared_reads.c: one argument per reader of a read-only argument during the one-shot
// analysis, and back (see shared_reads.h). Expected workload: one split and one merge per
// module on the mlir-cpu target; each walks the module once, linear in ops and uses.
#include "ir/shared_reads.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "metrale/arena.h"
#include "metrale/checked.h"
#include "metrale/strmap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

struct met_split_fn_t {
  MlirStringRef name;  // the function's sym_name (MLIR's storage: lives with the context)
  intptr_t first;      // its first appended argument
  uint32_t *source;    // per appended argument: the original argument's index
  size_t count;
};

typedef struct refs_t { met_strmap_t names; met_status_t st; } refs_t;

// Every symbol an op's attributes name (a call's callee, a func.constant's value): the
// functions whose signature others rely on.
static MlirWalkResult collect_refs(MlirOperation op, void *user) {
  refs_t *r = user;
  for (intptr_t i = 0, n = mlirOperationGetNumAttributes(op); i < n && !r->st; ++i) {
    MlirAttribute a = mlirOperationGetAttribute(op, i).attribute;
    MlirStringRef s;
    if (mlirAttributeIsAFlatSymbolRef(a)) s = mlirFlatSymbolRefAttrGetValue(a);
    else if (mlirAttributeIsASymbolRef(a)) s = mlirSymbolRefAttrGetRootReference(a);
    else continue;
    r->st = met_strmap_put(&r->names, NULL, s.data, s.length, 0, NULL);
  }
  return r->st ? MlirWalkResultInterrupt : MlirWalkResultAdvance;
}

// True when every use of |arg| is an input operand of a linalg op with tensor results
// (operands before the last result-count ones: the ins, which the op only reads).
static bool only_linalg_inputs(MlirValue arg, size_t *uses) {
  *uses = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(arg); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(user));
    intptr_t nres = mlirOperationGetNumResults(user);
    intptr_t nins = mlirOperationGetNumOperands(user) - nres;
    // linalg.pack and unpack put their optional operands after the destination: no
    // plain ins/outs split (a review found it; MLIR 22 bufferizes neither anyway).
    if (!met_ir_str_in_dialect(name, "linalg.") || nres < 1 ||
        met_ir_str_eq(name, "linalg.pack") || met_ir_str_eq(name, "linalg.unpack") ||
        (intptr_t)mlirOpOperandGetOperandNumber(u) >= nins)
      return false;
    ++*uses;
  }
  return true;
}

// The function's type and argument attributes after |block| gained or lost arguments;
// the first |nattrs_before| argument attributes are kept, the others empty.
static met_status_t retype(MlirOperation f, MlirBlock block, intptr_t nattrs_before) {
  MlirContext ctx = mlirOperationGetContext(f);
  MlirStringRef ft = mlirStringRefCreateFromCString("function_type");
  MlirType old = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(f, ft));
  intptr_t nin = mlirBlockGetNumArguments(block), nres = mlirFunctionTypeGetNumResults(old);
  MlirType *ins = malloc((size_t)(nin + nres + 1) * sizeof(MlirType));
  if (!ins) return MET_ENOMEM;
  MlirType *res = ins + nin;
  for (intptr_t i = 0; i < nin; ++i) ins[i] = mlirValueGetType(mlirBlockGetArgument(block, i));
  for (intptr_t i = 0; i < nres; ++i) res[i] = mlirFunctionTypeGetResult(old, i);
  mlirOperationSetAttributeByName(f, ft, mlirTypeAttrGet(mlirFunctionTypeGet(ctx, nin, ins, nres, res)));
  free(ins);
  MlirStringRef aa = mlirStringRefCreateFromCString("arg_attrs");
  MlirAttribute attrs = mlirOperationGetAttributeByName(f, aa);
  if (mlirAttributeIsNull(attrs) || !mlirAttributeIsAArray(attrs)) return MET_OK;
  // As many entries as arguments: the kept ones' own, an empty dictionary for the others.
  MlirAttribute *el = malloc((size_t)(nin + 1) * sizeof(MlirAttribute));
  if (!el) return MET_ENOMEM;
  intptr_t have = mlirArrayAttrGetNumElements(attrs);
  for (intptr_t i = 0; i < nin; ++i)
    el[i] = i < have && i < nattrs_before ? mlirArrayAttrGetElement(attrs, i)
                                          : mlirDictionaryAttrGet(ctx, 0, NULL);
  mlirOperationSetAttributeByName(f, aa, mlirArrayAttrGet(ctx, nin, el));
  free(el);
  return MET_OK;
}

static met_status_t split_func(MlirOperation f, met_split_fn_t *out) {
  memset(out, 0, sizeof *out);
  MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
  if (mlirBlockIsNull(block)) return MET_OK;
  intptr_t n0 = mlirBlockGetNumArguments(block);
  size_t cap = 0;
  for (intptr_t a = 0; a < n0; ++a) {
    MlirValue arg = mlirBlockGetArgument(block, a);
    size_t uses;
    if (!mlirTypeIsARankedTensor(mlirValueGetType(arg)) || !only_linalg_inputs(arg, &uses) ||
        uses < 2)
      continue;
    // The first use keeps the argument; each later one gets its own (collected first:
    // setting an operand changes the use list being walked).
    MlirOpOperand first = mlirValueGetFirstUse(arg);
    for (MlirOpOperand u = mlirOpOperandGetNextUse(first); !mlirOpOperandIsNull(u);) {
      MlirOpOperand next = mlirOpOperandGetNextUse(u);
      if (out->count == cap) {
        size_t ncap = cap ? 2 * cap : 16;
        uint32_t *p = realloc(out->source, ncap * sizeof *p);
        if (!p) return MET_ENOMEM;
        out->source = p;
        cap = ncap;
      }
      MlirValue fresh = mlirBlockAddArgument(block, mlirValueGetType(arg), mlirValueGetLocation(arg));
      mlirOperationSetOperand(mlirOpOperandGetOwner(u), (intptr_t)mlirOpOperandGetOperandNumber(u), fresh);
      out->source[out->count++] = (uint32_t)a;
      u = next;
    }
  }
  if (!out->count) return MET_OK;
  out->name = met_ir_sym_name(f);
  out->first = n0;
  MlirAttribute attrs = mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("arg_attrs"));
  return retype(f, block, mlirAttributeIsNull(attrs) ? 0 : n0);
}

met_status_t met_shared_reads_split(MlirOperation module, met_shared_reads_t *out) {
  memset(out, 0, sizeof *out);
  met_arena_t arena;
  met_arena_initialize(met_allocator_system(), &arena);
  refs_t r;
  r.st = MET_OK;
  met_strmap_initialize(&arena, &r.names);
  mlirOperationWalk(module, collect_refs, &r, MlirWalkPreOrder);
  met_status_t st = r.st;
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  size_t cap = 0;
  for (MlirOperation f = mlirBlockGetFirstOperation(top); !st && !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    MlirStringRef name = met_ir_sym_name(f);
    if (!met_ir_op_is(f, "func.func") || !name.data ||
        met_strmap_get(&r.names, NULL, name.data, name.length) != SIZE_MAX)
      continue;
    if (out->count == cap) {
      size_t ncap = cap ? 2 * cap : 8;
      met_split_fn_t *p = realloc(out->fns, ncap * sizeof *p);
      if (!p) { st = MET_ENOMEM; break; }
      out->fns = p;
      cap = ncap;
    }
    st = split_func(f, &out->fns[out->count]);
    if (out->fns[out->count].count) ++out->count;
    else free(out->fns[out->count].source);
  }
  met_arena_deinitialize(&arena);
  return st;
}

met_status_t met_shared_reads_merge(MlirOperation module, met_shared_reads_t *split) {
  if (!split->count) return MET_OK;
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  size_t next = 0;  // the functions come back in module order
  for (MlirOperation f = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(f) && next < split->count;
       f = mlirOperationGetNextInBlock(f)) {
    const met_split_fn_t *s = &split->fns[next];
    if (!met_ir_op_is(f, "func.func") || !mlirStringRefEqual(met_ir_sym_name(f), s->name)) continue;
    ++next;
    MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
    if (mlirBlockIsNull(block) || mlirBlockGetNumArguments(block) != s->first + (intptr_t)s->count)
      return MET_EINVAL;
    for (size_t k = s->count; k-- > 0;) {
      MlirValue fresh = mlirBlockGetArgument(block, s->first + (intptr_t)k);
      mlirValueReplaceAllUsesOfWith(fresh, mlirBlockGetArgument(block, s->source[k]));
      mlirBlockEraseArgument(block, (unsigned)(s->first + (intptr_t)k));
    }
    MET_RETURN_IF_ERROR(retype(f, block, s->first));
  }
  return next == split->count ? MET_OK : MET_EINVAL;
}

void met_shared_reads_release(met_shared_reads_t *split) {
  for (size_t i = 0; i < split->count; ++i) free(split->fns[i].source);
  free(split->fns);
  split->fns = NULL;
  split->count = 0;
}
