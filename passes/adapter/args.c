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

static bool spec_selects(const met_param_sel_t *p, int64_t index, bool is_float) {
  if (!p) return false;
  if (p->all || (p->floats && is_float)) return true;
  for (size_t r = 0; r < p->range_count; ++r)
    if (index >= p->lo[r] && index <= p->hi[r]) return true;
  return false;
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
  MlirAttribute nm = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name"));
  MlirStringRef name = mlirAttributeIsNull(nm) || !mlirAttributeIsAString(nm)
                           ? mlirStringRefCreate("", 0)
                           : mlirStringAttrGetValue(nm);
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

met_status_t met_adapter_add_arguments(builder_t *b, MlirOperation func, MlirBlock entry) {
  MlirLocation floc = mlirOperationGetLocation(func);
  const met_param_sel_t *psel, *ssel;
  MET_RETURN_IF_ERROR(function_sels(b, func, &psel, &ssel));
  MET_RETURN_IF_ERROR(check_ranges(b, func, psel, "params", mlirBlockGetNumArguments(entry)));
  MET_RETURN_IF_ERROR(check_ranges(b, func, ssel, "states", mlirBlockGetNumArguments(entry)));
  uint64_t look_bytes = 0, look_count = 0;
  int64_t first_look = -1, last_look = -1;
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); ++i) {
    MlirValue a = mlirBlockGetArgument(entry, i);
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
      MET_RETURN_IF_ERROR(met_diag_add(b->sh->arena, b->sh->diags, floc, MET_DIAG_ERROR,
                                       "argument #%" PRIdPTR " %s",
                       i, clash));
      continue;
    }
    if (!met_type_is_shaped_value(mlirValueGetType(a))) {
      // Passed by value: its bytes are host input of every invocation (dispatch stats).
      met_type_size_t sz;
      if (met_type_size(mlirValueGetType(a), b->sh->opt->target, 0, &sz) ==
              MET_SIZE_OK &&
          !met_add_u64(b->g->scalar_arg_bytes, sz.bytes, &b->g->scalar_arg_bytes))
        return MET_EOVERFLOW;
      continue;
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
    bool as_state = state_named || (!param_named && spec_selects(ssel, i, is_float));
    bool as_param = !as_state && (param_named || spec_selects(psel, i, is_float));
    if (state_named && param_named) {
      b->sh->failed = true;
      MET_RETURN_IF_ERROR(met_diag_add(b->sh->arena, b->sh->diags, floc, MET_DIAG_ERROR,
                                       "argument #%" PRIdPTR " is selected both as a parameter "
                                       "(params= or metrale.param) and as a state (states= or "
                                       "metrale.state)", i));
      continue;
    }
    if (as_state)
      v.role = MET_ROLE_STATE;
    else if (as_param)
      v.role = MET_ROLE_PARAM;
    else
      v.role = MET_ROLE_INPUT;
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
    if (v.role == MET_ROLE_INPUT && is_float) {
      look_count++;
      look_bytes += v.bytes;
      if (first_look < 0) first_look = i;
      last_look = i;
    }
    uint32_t id;
    MET_RETURN_IF_ERROR(met_graph_add_argument(b->g, &v, &id));
    MET_RETURN_IF_ERROR(met_adapter_name_value(b, a, id));
    MET_RETURN_IF_ERROR(met_ptrmap_put(&b->map, a.ptr, id));
  }
  // Real exported graphs pass weights as arguments: say so when they are not marked.
  if ((look_count >= 2 && look_bytes >= 1024ull * 1024) || look_bytes >= 16ull * 1024 * 1024) {
    MET_RETURN_IF_ERROR(met_diag_add(b->sh->arena, b->sh->diags, floc, MET_DIAG_REMARK,
                     "%" PRIu64 " unmarked float argument(s) between #%" PRId64 " and #%" PRId64
                     " (%" PRIu64 " bytes) are counted as host inputs; if they are weights, mark "
                     "them with the `metrale.param` argument attribute or params=...",
                     look_count, first_look, last_look, look_bytes));
  }
  return MET_OK;
}

