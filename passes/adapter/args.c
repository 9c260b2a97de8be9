// args.c: a function's arguments as graph values, each with its role: parameter
// or state (metrale.param / metrale.state, or the params= / states= selections of
// passes/ir/params.h), else host input; scalars passed by value count as host input bytes.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "adapter/state.h"
#include "ir/attrs.h"
#include "ir/ir.h"
#include "metrale/checked.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

// True when |p| names argument |index| in an index range (not by a class: all, float).
static bool spec_names(const met_param_sel_t *p, int64_t index) {
  if (!p) return false;
  for (size_t r = 0; r < p->range_count; ++r)
    if (index >= p->lo[r] && index <= p->hi[r]) return true;
  return false;
}

static bool spec_selects(const met_param_sel_t *p, int64_t index, bool is_float, bool weight) {
  if (!p) return false;
  if (p->all || (p->floats && is_float) || (p->autos && weight)) return true;
  for (size_t r = 0; r < p->range_count; ++r)
    if (index >= p->lo[r] && index <= p->hi[r]) return true;
  return false;
}

// params=auto (passes/ir/params.h): an argument no op writes that feeds the weight
// operand of a matmul, a conv or a gather, directly or through ops that only move or
// convert it. The weight operands: linalg.matvec's matrix (#0); #1 of the other linalg
// matmul, contraction, mmt4d and conv ops, of tosa.matmul, tosa.conv2d/conv3d,
// depthwise_conv2d, transpose_conv2d, fully_connected (#2, their bias, too),
// stablehlo.dot/dot_general/convolution; the table of tosa.gather, tensor.gather,
// stablehlo.gather (#0), and a tensor.extract inside a linalg.generic (the embedding form
// of torch-mlir and buddy-mlir exports). What moves or converts it: slices, reshapes,
// expand/collapse, casts (tosa.cast, stablehlo.convert, arith's on tensors), transposes,
// broadcasts, memref views, and a linalg.generic of one input whose body is a yield of it
// or one cast of it. At most 12 such steps.
static bool is_weight_operand(MlirOperation op, MlirStringRef n, intptr_t i) {
  if (met_ir_str_eq(n, "linalg.matvec")) return i == 0;
  if (met_ir_str_eq(n, "tosa.gather") || met_ir_str_eq(n, "tensor.gather") ||
      met_ir_str_eq(n, "stablehlo.gather"))
    return i == 0;
  if (met_ir_str_eq(n, "tensor.extract")) {
    MlirOperation parent = mlirOperationGetParentOperation(op);
    return i == 0 && !mlirOperationIsNull(parent) && met_ir_op_is(parent, "linalg.generic");
  }
  if (met_ir_str_eq(n, "tosa.conv2d") || met_ir_str_eq(n, "tosa.conv3d") ||
      met_ir_str_eq(n, "tosa.depthwise_conv2d") || met_ir_str_eq(n, "tosa.transpose_conv2d") ||
      met_ir_str_eq(n, "tosa.fully_connected"))
    return i == 1 || i == 2;
  if (met_ir_str_eq(n, "tosa.matmul") || met_ir_str_eq(n, "stablehlo.dot") ||
      met_ir_str_eq(n, "stablehlo.dot_general") || met_ir_str_eq(n, "stablehlo.convolution"))
    return i == 1;
  static const char *const linalg[] = {"linalg.matmul", "linalg.batch_matmul", "linalg.vecmat",
                                       "linalg.batch_vecmat", "linalg.batch_reduce_matmul",
                                       "linalg.contract", "linalg.mmt4d", "linalg.batch_mmt4d",
                                       "linalg.quantized_", "linalg.conv_", "linalg.depthwise_conv"};
  for (size_t k = 0; k < sizeof(linalg) / sizeof(linalg[0]); ++k)
    if (met_ir_str_has_prefix(n, linalg[k])) return i == 1;
  return false;
}

static bool is_cast_name(MlirStringRef n) {
  static const char *const c[] = {"arith.extf", "arith.truncf", "arith.sitofp", "arith.uitofp",
                                  "arith.fptosi", "arith.fptoui", "arith.extsi", "arith.extui",
                                  "arith.trunci", "arith.bitcast"};
  for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); ++k)
    if (met_ir_str_eq(n, c[k])) return true;
  return false;
}

// A linalg.generic of one input whose body yields that input's element, or one cast of it.
static bool generic_moves(MlirOperation op) {
  if (!met_ir_op_is(op, "linalg.generic") || mlirOperationGetNumRegions(op) < 1 ||
      mlirOperationGetNumResults(op) != 1 || mlirOperationGetNumOperands(op) != 2)
    return false;
  MlirBlock blk = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  if (mlirBlockIsNull(blk) || mlirBlockGetNumArguments(blk) < 1) return false;
  MlirValue in = mlirBlockGetArgument(blk, 0);
  MlirOperation first = mlirBlockGetFirstOperation(blk);
  if (mlirOperationIsNull(first)) return false;
  MlirValue yielded = in;
  if (!met_ir_op_is(first, "linalg.yield")) {
    if (!is_cast_name(mlirIdentifierStr(mlirOperationGetName(first))) ||
        mlirOperationGetNumOperands(first) != 1 ||
        !mlirValueEqual(mlirOperationGetOperand(first, 0), in))
      return false;
    yielded = mlirOperationGetResult(first, 0);
    first = mlirOperationGetNextInBlock(first);
  }
  return !mlirOperationIsNull(first) && met_ir_op_is(first, "linalg.yield") &&
         mlirOperationGetNumOperands(first) == 1 &&
         mlirValueEqual(mlirOperationGetOperand(first, 0), yielded);
}

static bool moves_operand0(MlirStringRef n) {
  static const char *const m[] = {
      "tensor.extract_slice", "tensor.expand_shape", "tensor.collapse_shape", "tensor.cast",
      "tensor.reshape", "tensor.bitcast", "tosa.slice", "tosa.reshape", "tosa.transpose",
      "tosa.cast", "linalg.transpose", "linalg.broadcast", "stablehlo.reshape",
      "stablehlo.transpose", "stablehlo.slice", "stablehlo.convert", "stablehlo.broadcast_in_dim",
      "memref.subview", "memref.cast", "memref.expand_shape", "memref.collapse_shape",
      "memref.reinterpret_cast", "memref.view", "bufferization.to_tensor",
      "bufferization.to_buffer", "bufferization.to_memref"};
  for (size_t k = 0; k < sizeof(m) / sizeof(m[0]); ++k)
    if (met_ir_str_eq(n, m[k])) return true;
  return false;
}

// *|feeds|: |v| reaches a weight operand; *|written|: an op writes it (or a view of it).
static void weight_uses(MlirValue v, int depth, bool *feeds, bool *written) {
  if (depth > 12) return;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation op = mlirOpOperandGetOwner(u);
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
    intptr_t i = (intptr_t)mlirOpOperandGetOperandNumber(u);
    if ((met_ir_str_eq(n, "memref.store") && i == 1) ||
        met_adapter_operand_access(op, n, i) != MET_ACCESS_READ) {
      *written = true;
      return;
    }
    if (is_weight_operand(op, n, i)) *feeds = true;
    else if (i == 0 && mlirOperationGetNumResults(op) >= 1 &&
             (moves_operand0(n) || is_cast_name(n) || generic_moves(op)))
      weight_uses(mlirOperationGetResult(op, 0), depth + 1, feeds, written);
    if (*written) return;
  }
}

static bool feeds_weight(MlirValue a) {
  bool feeds = false, written = false;
  weight_uses(a, 0, &feeds, &written);
  return feeds && !written;
}

// Checks every `metrale.*` attribute of argument |index| by its rule (attrs.h) and reads
// the markers. A broken or unknown one is an error at the function.
static met_status_t read_arg_attrs(builder_t *b, MlirOperation func, intptr_t index,
                                   bool *param, bool *state, bool *named, bool *formatted) {
  *param = *state = *named = *formatted = false;
  MlirAttribute dict = met_ir_arg_dict(func, index);
  if (mlirAttributeIsNull(dict)) return MET_OK;
  for (intptr_t k = 0; k < mlirDictionaryAttrGetNumElements(dict); ++k) {
    MlirNamedAttribute na = mlirDictionaryAttrGetElement(dict, k);
    MlirStringRef key = mlirIdentifierStr(na.name);
    if (key.length < 8 || memcmp(key.data, "metrale.", 8)) continue;
    const char *why;
    MlirStringRef str;
    MlirType ty;
    if (met_ir_str_eq(key, "metrale.param")) why = met_attr_marker(na.attribute, param);
    else if (met_ir_str_eq(key, "metrale.state")) why = met_attr_marker(na.attribute, state);
    else if (met_ir_str_eq(key, "metrale.name")) {
      why = met_attr_string(na.attribute, &str);
      if (!why && !str.length) why = "must not be empty";
      if (!why && memchr(str.data, '\0', str.length)) why = "must not contain a NUL character";
      *named = !why;
    } else if (met_ir_str_eq(key, "metrale.format")) {
      why = met_attr_type(b->sh->ctx, na.attribute, &ty);
      *formatted = !why;
    }
    else why = "is not a metrale attribute (metrale.param, metrale.state, metrale.name, "
               "metrale.format)";
    if (!why) continue;
    b->sh->failed = true;
    MET_RETURN_IF_ERROR(met_diag_add(b->sh->arena, b->sh->diags, mlirOperationGetLocation(func),
                                     MET_DIAG_ERROR,
                     "argument #%" PRIdPTR ": attribute '%.*s' %s", index, (int)key.length,
                     key.data, why));
  }
  return MET_OK;
}

// The selections of params= and states= for |func| (passes/ir/params.h): its own item, else
// the entry item when it is public. An item naming a private function warns: its
// arguments are what its callers pass.
static met_status_t function_sels(builder_t *b, MlirOperation func, const met_param_sel_t **p,
                                  const met_param_sel_t **st) {
  // Named by its symbol path: @f in module @inner is "@inner::@f", not "@f".
  char path[1024];
  size_t plen = met_ir_symbol_path(func, path, sizeof(path));
  MlirStringRef name = mlirStringRefCreate(path, plen == SIZE_MAX ? 0 : plen);
  bool entry = met_ir_func_is_public(func);
  bool pn, sn;
  *p = met_param_spec_for(b->sh->opt->params, name.data, name.length, entry, &pn);
  *st = met_param_spec_for(b->sh->opt->states, name.data, name.length, entry, &sn);
  if ((pn || sn) && !entry)
    MET_RETURN_IF_ERROR(met_diag_add(b->sh->arena, b->sh->diags, mlirOperationGetLocation(func),
                                     MET_DIAG_WARNING,
                                     "%s= names @%.*s, which is not an entry function (it is "
                                     "not public): its arguments are what its callers pass, "
                                     "so the selection may contradict them",
                                     pn ? "params" : "states", (int)name.length, name.data));
  return MET_OK;
}

// A selection's index range that starts past the function's last argument selects nothing
// there: say so at the function (the other ranges and the classes still apply).
static met_status_t check_ranges(builder_t *b, MlirOperation func, const met_param_sel_t *sel,
                                 const char *option, intptr_t nargs) {
  if (!sel) return MET_OK;
  for (size_t r = 0; r < sel->range_count; ++r) {
    if (sel->lo[r] < nargs) continue;
    MlirStringRef name = met_adapter_func_name(func);
    char which[64];
    if (sel->hi[r] == sel->lo[r])
      snprintf(which, sizeof(which), "argument #%" PRId64, sel->lo[r]);
    else if (sel->hi[r] == INT64_MAX)
      snprintf(which, sizeof(which), "arguments #%" PRId64 " and later", sel->lo[r]);
    else
      snprintf(which, sizeof(which), "arguments #%" PRId64 " to #%" PRId64, sel->lo[r],
               sel->hi[r]);
    MET_RETURN_IF_ERROR(met_diag_add(
        b->sh->arena, b->sh->diags, mlirOperationGetLocation(func), MET_DIAG_WARNING,
        "%s= selects %s, but @%.*s has %" PRIdPTR " argument%s: that item selects nothing "
        "here", option, which, (int)name.length, name.data, nargs, nargs == 1 ? "" : "s"));
  }
  return MET_OK;
}

// The elements a static strided memref's buffer spans beyond its own (the offset, and
// the holes between rows its strides leave), times |ebytes|; 0 for any other type, a
// dynamic or empty one, and on overflow (then its elements alone count).
static uint64_t gap_bytes(MlirType t, uint64_t elems, uint64_t ebytes) {
  if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t) || !elems) return 0;
  intptr_t r = mlirShapedTypeGetRank(t);
  if (r > 32) return 0;
  int64_t strides[32], off;
  if (mlirLogicalResultIsFailure(mlirMemRefTypeGetStridesAndOffset(t, strides, &off)) ||
      off < 0)
    return 0;
  uint64_t span = (uint64_t)off + 1, x;
  for (intptr_t i = 0; i < r; ++i) {
    if (strides[i] < 0 || mlirShapedTypeIsDynamicStrideOrOffset(strides[i])) return 0;
    if (!met_mul_u64((uint64_t)(mlirShapedTypeGetDimSize(t, i) - 1), (uint64_t)strides[i], &x) ||
        !met_add_u64(span, x, &span))
      return 0;
  }
  return span > elems && met_mul_u64(span - elems, ebytes, &x) ? x : 0;
}

// Appends "lo" or "lo-hi" (a ',' first unless at the start) to |buf|; nothing for lo < 0,
// or when it would not fit (the text then ends where it stopped).
static void put_range(char *buf, size_t cap, size_t *len, int64_t lo, int64_t hi) {
  if (lo < 0 || *len + 1 >= cap) return;
  char item[48];
  int k = lo == hi ? snprintf(item, sizeof(item), "%s%" PRId64, *len ? "," : "", lo)
                   : snprintf(item, sizeof(item), "%s%" PRId64 "-%" PRId64, *len ? "," : "", lo, hi);
  if (k < 0 || *len + (size_t)k + 1 >= cap) { *len = cap - 1; return; }
  memcpy(buf + *len, item, (size_t)k + 1);
  *len += (size_t)k;
}

// Arguments gathered as a selection ("0,2-5"): their bytes, count and the spec naming them.
typedef struct arg_range_t {
  uint64_t bytes, count;
  int64_t lo, hi;
  char spec[256];
  size_t len;
} arg_range_t;

static void range_take(arg_range_t *r, intptr_t i, uint64_t bytes) {
  if (!met_add_u64(r->bytes, bytes, &r->bytes)) r->bytes = UINT64_MAX;
  if (r->count++ && r->hi == i - 1) {
    r->hi = i;
  } else {
    put_range(r->spec, sizeof(r->spec), &r->len, r->lo, r->hi);
    r->lo = r->hi = i;
  }
}

// What the arguments tell the notes after them.
typedef struct arg_tally_t {
  uint64_t look_bytes, look_count;  // unmarked float inputs
  int64_t first_look, last_look;
  arg_range_t w;                    // the unmarked arguments params=auto would select
  arg_range_t autos;                // what params=auto took (not named otherwise)
} arg_tally_t;

// Argument |i| (|a|) of |func|: its role by the selections and its attributes, a graph
// value, or an error at the function when they clash.
static met_status_t add_argument(builder_t *b, MlirOperation func, MlirLocation floc,
                                 const met_param_sel_t *psel, const met_param_sel_t *ssel,
                                 intptr_t i, MlirValue a, arg_tally_t *t) {
  bool marked_param, marked_state, named, formatted;
  MET_RETURN_IF_ERROR(read_arg_attrs(b, func, i, &marked_param, &marked_state, &named,
                                     &formatted));
  // One role per argument, and the attributes that describe a role need it.
  const char *clash = marked_param && marked_state
                          ? "is marked both metrale.param and metrale.state"
                      : (marked_param || marked_state) &&
                              !met_type_is_shaped_value(mlirValueGetType(a))
                          ? "is marked a parameter or state but is not a tensor or memref"
                          : NULL;
  if (clash) {
    b->sh->failed = true;
    return met_diag_add(b->sh->arena, b->sh->diags, floc, MET_DIAG_ERROR,
                        "argument #%" PRIdPTR " %s", i, clash);
  }
  if (!met_type_is_shaped_value(mlirValueGetType(a))) {
    // Passed by value: its bytes are host input of every invocation (dispatch stats).
    met_type_size_t sz;
    if (met_type_size(mlirValueGetType(a), b->sh->opt->target, 0, &sz) == MET_SIZE_OK &&
        !met_add_u64(b->g->scalar_arg_bytes, sz.bytes, &b->g->scalar_arg_bytes))
      return MET_EOVERFLOW;
    return MET_OK;
  }
  met_value_t v;
  bool overflow;
  MET_RETURN_IF_ERROR(met_adapter_size_value(b, a, floc, "argument", i, &v, &overflow));
  v.arg_index = (int32_t)i;
  bool is_float = v.flags & MET_VALUE_F_FLOAT;
  // An argument named by index (or attribute) for both roles is an error; a class
  // (params=float, states=all) yields to a role named for the argument itself, and
  // between two classes the state wins.
  bool state_named = marked_state || spec_names(ssel, i);
  bool param_named = marked_param || spec_names(psel, i);
  bool weight = feeds_weight(a);
  bool as_state = state_named || (!param_named && spec_selects(ssel, i, is_float, false));
  bool as_param = !as_state && (param_named || spec_selects(psel, i, is_float, weight));
  if (state_named && param_named) {
    b->sh->failed = true;
    return met_diag_add(b->sh->arena, b->sh->diags, floc, MET_DIAG_ERROR,
                        "argument #%" PRIdPTR " is selected both as a parameter "
                        "(params= or metrale.param) and as a state (states= or "
                        "metrale.state)", i);
  }
  if (as_param && !param_named && weight && psel && psel->autos &&
      !spec_selects(psel, i, is_float, false))
    range_take(&t->autos, i, v.bytes);
  v.role = as_state ? MET_ROLE_STATE : as_param ? MET_ROLE_PARAM : MET_ROLE_INPUT;
  if ((formatted && v.role != MET_ROLE_PARAM) || (named && v.role == MET_ROLE_INPUT)) {
    b->sh->failed = true;
    MET_RETURN_IF_ERROR(met_diag_add(b->sh->arena, b->sh->diags, floc, MET_DIAG_ERROR,
                     "argument #%" PRIdPTR ": %s describes a %s, and the argument is not "
                     "one (mark it with metrale.param%s, or params=/states=)",
                     i, formatted && v.role != MET_ROLE_PARAM ? "metrale.format" : "metrale.name",
                     formatted && v.role != MET_ROLE_PARAM ? "parameter" : "parameter or state",
                     formatted && v.role != MET_ROLE_PARAM ? "" : " or metrale.state"));
  }
  if (met_value_unbound(&v))
    MET_RETURN_IF_ERROR(met_diag_add(b->sh->arena, b->sh->diags, floc, MET_DIAG_WARNING,
                     "argument #%" PRIdPTR " has dynamic dims, counted as 1 each: byte counts "
                     "are lower bounds (bind them with dynamic-size=N)", i));
  if (v.role == MET_ROLE_INPUT && v.rank && !(v.flags & (MET_VALUE_F_DYNAMIC | MET_VALUE_F_UNRANKED))) {
    MlirType at = mlirValueGetType(a);
    uint64_t elems = 1;
    bool fits = true;
    for (intptr_t d = 0; d < mlirShapedTypeGetRank(at) && fits; ++d)
      fits = met_mul_u64(elems, (uint64_t)mlirShapedTypeGetDimSize(at, d), &elems);
    uint64_t gap = fits && elems ? gap_bytes(at, elems, v.bytes / elems) : 0;
    if (!met_add_u64(b->g->input_gap_bytes, gap, &b->g->input_gap_bytes)) return MET_EOVERFLOW;
  }
  if (v.role == MET_ROLE_INPUT && weight) range_take(&t->w, i, v.bytes);
  if (v.role == MET_ROLE_INPUT && is_float) {
    t->look_count++;
    t->look_bytes += v.bytes;
    if (t->first_look < 0) t->first_look = i;
    t->last_look = i;
  }
  uint32_t id;
  MET_RETURN_IF_ERROR(met_graph_add_argument(b->g, &v, &id));
  MET_RETURN_IF_ERROR(met_adapter_name_value(b, a, id));
  return met_ptrmap_put(&b->map, a.ptr, id);
}

// What the arguments' roles leave to say: what params=auto took, and unmarked float
// inputs that look like weights.
static met_status_t argument_notes(builder_t *b, MlirOperation func, MlirLocation floc,
                                   const met_param_sel_t *psel, arg_tally_t *t) {
  put_range(t->w.spec, sizeof(t->w.spec), &t->w.len, t->w.lo, t->w.hi);
  put_range(t->autos.spec, sizeof(t->autos.spec), &t->autos.len, t->autos.lo, t->autos.hi);
  // params=auto says what it took, always (a note: the command prints it without
  // --remarks), as the selection that names them.
  if (psel && psel->autos) {
    char path[1024];
    size_t plen = met_ir_symbol_path(func, path, sizeof(path));
    if (plen == SIZE_MAX) plen = 0;
    if (t->autos.count)
      MET_RETURN_IF_ERROR(met_diag_add(b->sh->arena, b->sh->diags, floc, MET_DIAG_NOTE,
                       "params=auto takes %" PRIu64 " argument(s) of @%.*s as weights (%" PRIu64
                       " bytes), those no op writes that feed the weight operand of a matmul, "
                       "conv or gather: @%.*s:%s%s",
                       t->autos.count, (int)plen, path, t->autos.bytes, (int)plen, path,
                       t->autos.spec, t->autos.len + 1 >= sizeof(t->autos.spec) ? "..." : ""));
    else
      MET_RETURN_IF_ERROR(met_diag_add(b->sh->arena, b->sh->diags, floc, MET_DIAG_NOTE,
                       "params=auto takes no argument of @%.*s as a weight: none feeds the "
                       "weight operand of a matmul, conv or gather unwritten",
                       (int)plen, path));
  }
  // Real exported graphs pass weights as arguments: say so when they are not marked, with
  // the selection that makes them weights. A warning when some feed weight operands (at
  // least 1 MiB of them: a toy graph's vectors are no weights worth a word).
  const char *more = t->w.len + 1 >= sizeof(t->w.spec) ? "..." : "";
  if (t->w.count && t->w.bytes >= 1024ull * 1024) {
    char path[1024];
    size_t plen = met_ir_symbol_path(func, path, sizeof(path));
    if (plen == SIZE_MAX) plen = 0;
    MET_RETURN_IF_ERROR(met_diag_add(b->sh->arena, b->sh->diags, floc, MET_DIAG_WARNING,
                     "%" PRIu64 " unmarked float argument(s) between #%" PRId64 " and #%" PRId64
                     " (%" PRIu64 " bytes) are counted as host inputs; %" PRIu64 " of them (%"
                     PRIu64 " bytes) feed the weight operand of a matmul, conv or gather and no op "
                     "writes them: params=@%.*s:%s%s (the command: --params '@%.*s:%s%s'), or "
                     "params=auto, makes them weights; or mark them with the `metrale.param` "
                     "argument attribute",
                     t->look_count, t->first_look, t->last_look, t->look_bytes, t->w.count,
                     t->w.bytes, (int)plen, path, t->w.spec, more, (int)plen, path, t->w.spec,
                     more));
  } else if ((t->look_count >= 2 && t->look_bytes >= 1024ull * 1024) ||
             t->look_bytes >= 16ull * 1024 * 1024) {
    MET_RETURN_IF_ERROR(met_diag_add(b->sh->arena, b->sh->diags, floc, MET_DIAG_REMARK,
                     "%" PRIu64 " unmarked float argument(s) between #%" PRId64 " and #%" PRId64
                     " (%" PRIu64 " bytes) are counted as host inputs; if they are weights, mark "
                     "them with the `metrale.param` argument attribute or params=...",
                     t->look_count, t->first_look, t->last_look, t->look_bytes));
  }
  return MET_OK;
}

met_status_t met_adapter_add_arguments(builder_t *b, MlirOperation func, MlirBlock entry) {
  MlirLocation floc = mlirOperationGetLocation(func);
  const met_param_sel_t *psel, *ssel;
  MET_RETURN_IF_ERROR(function_sels(b, func, &psel, &ssel));
  MET_RETURN_IF_ERROR(check_ranges(b, func, psel, "params", mlirBlockGetNumArguments(entry)));
  MET_RETURN_IF_ERROR(check_ranges(b, func, ssel, "states", mlirBlockGetNumArguments(entry)));
  arg_tally_t t;
  memset(&t, 0, sizeof t);
  t.first_look = t.last_look = -1;
  t.w.lo = t.w.hi = t.autos.lo = t.autos.hi = -1;
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); ++i)
    MET_RETURN_IF_ERROR(add_argument(b, func, floc, psel, ssel, i,
                                     mlirBlockGetArgument(entry, i), &t));
  return argument_notes(b, func, floc, psel, &t);
}

