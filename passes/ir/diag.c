// diag.c: see diag.h. Messages of a list live in the run's arena.
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ir/diag.h"
#include "ir/clock.h"
#include "ir/attrs.h"
#include "mlir-c/BuiltinAttributes.h"
#include "ir/ir.h"

#include "metrale/options.h"
#include "metrale/parse.h"


met_status_t met_diag_add(met_arena_t *arena, met_diag_list_t *list, MlirLocation loc,
                          met_diag_severity_t sev, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char buf[2048];
  int n = vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  if (n < 0) return MET_EINVAL;
  return met_diag_add_str(arena, list, loc, sev, buf,
                          (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

met_status_t met_diag_add_str(met_arena_t *arena, met_diag_list_t *list, MlirLocation loc,
                              met_diag_severity_t sev, const char *msg, size_t len) {
  const char *copy = met_arena_strndup(arena, msg, len);
  if (!copy) return MET_ENOMEM;
  MET_RETURN_IF_ERROR(met_arena_reserve(arena, (void **)&list->items, &list->cap, list->count,
                        sizeof(met_diag_t)));
  list->items[list->count++] = (met_diag_t){loc, sev, copy};
  return MET_OK;
}

void met_diag_emit(met_diag_fn_t diag, void *user, MlirLocation loc, met_diag_severity_t sev,
                   const char *fmt, ...) {
  char buf[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  diag(user, loc, sev, buf);
}

MlirLocation met_diag_module_loc(MlirOperation module) {
  MlirLocation loc = mlirOperationGetLocation(module);
  bool real = mlirLocationIsAFileLineColRange(loc) && mlirLocationFileLineColRangeGetStartLine(loc) > 0;
  if (real || mlirOperationGetNumRegions(module) < 1) return loc;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirOperation first = mlirBlockIsNull(body) ? (MlirOperation){NULL} : mlirBlockGetFirstOperation(body);
  return mlirOperationIsNull(first) ? loc : mlirOperationGetLocation(first);
}

met_status_t met_diag_option_num(MlirLocation loc, int opt, MlirStringRef text, uint64_t absent,
                                 uint64_t *out, met_diag_fn_t diag, void *user) {
  if (!text.length) { *out = absent; return MET_OK; }
  const met_option_t *o = &met_options()[opt];
  met_error_t err;
  met_error_init(&err);
  met_status_t st = met_option_parse_num(opt, o->name, text.data, text.length, out, &err);
  if (st) met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "%s", met_error_message(&err));
  return st;
}

typedef struct fn_names_t {
  const met_param_spec_t *spec;
  uint32_t found;    // bit k: a func.func whose path is item k's
  uint32_t nested;   // bit k: a nested func.func whose last name is item k's (a hint)
  char hint[MET_PARAM_MAX_FUNCTIONS][256];  // that function's path
} fn_names_t;

static MlirWalkResult find_fn(MlirOperation op, void *user) {
  fn_names_t *f = user;
  if (!met_ir_str_eq(mlirIdentifierStr(mlirOperationGetName(op)), "func.func"))
    return MlirWalkResultAdvance;
  char path[1024];
  size_t n = met_ir_symbol_path(op, path, sizeof(path));
  if (n == SIZE_MAX) return MlirWalkResultSkip;
  size_t last = met_param_path_last(path, n);
  for (size_t k = 0; k < f->spec->fn_count; ++k) {
    const char *want = f->spec->fn_name[k];
    size_t wl = f->spec->fn_len[k];
    if (wl == n && !memcmp(want, path, n)) f->found |= 1u << k;
    else if (last && !met_param_path_last(want, wl) && wl == n - last &&
             !memcmp(want, path + last, wl) && !(f->nested >> k & 1)) {
      f->nested |= 1u << k;
      snprintf(f->hint[k], sizeof(f->hint[k]), "%.*s", (int)n, path);
    }
  }
  return MlirWalkResultSkip;  // no functions inside functions
}

met_status_t met_diag_option_spec(MlirOperation module, const char *name, MlirStringRef text,
                                  met_param_spec_t *out, met_diag_fn_t diag, void *user) {
  MlirLocation loc = met_diag_module_loc(module);
  met_error_t err;
  met_error_init(&err);
  if (met_param_spec_parse(text.data, text.length, out, &err) != MET_OK) {
    met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "invalid %s='%.*s': %s", name,
                  (int)text.length, text.data, met_error_message(&err));
    return err.code;
  }
  if (!strcmp(name, "states") && met_param_spec_has_auto(out)) {
    met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "invalid %s='%.*s': %s", name,
                  (int)text.length, text.data, MET_PARAM_AUTO_STATES_WHY);
    return MET_EINVAL;
  }
  if (!out->fn_count) return MET_OK;
  fn_names_t *f = calloc(1, sizeof(*f));
  if (!f) { met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "out of memory"); return MET_ENOMEM; }
  f->spec = out;
  mlirOperationWalk(module, find_fn, f, MlirWalkPreOrder);
  met_status_t st = MET_OK;
  for (size_t k = 0; k < out->fn_count && !st; ++k)
    if (!(f->found >> k & 1)) {
      if (f->nested >> k & 1)
        met_diag_emit(diag, user, loc, MET_DIAG_ERROR,
                      "invalid %s='%.*s': no function @%.*s in the top module; a nested "
                      "function is named by its path: @%s", name, (int)text.length, text.data,
                      (int)out->fn_len[k], out->fn_name[k], f->hint[k]);
      else
        met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "invalid %s='%.*s': no function @%.*s",
                      name, (int)text.length, text.data, (int)out->fn_len[k], out->fn_name[k]);
      st = MET_ENOTFOUND;
    }
  free(f);
  return st;
}

met_status_t met_diag_option_plan_limits(MlirLocation loc, MlirStringRef effort,
                                         MlirStringRef seconds, met_plan_limits_t *out,
                                         met_diag_fn_t diag, void *user) {
  uint64_t nodes, secs;
  MET_RETURN_IF_ERROR(met_diag_option_num(loc, MET_OPT_plan_effort, effort,
                                          MET_PLAN_DEFAULT_NODES, &nodes, diag, user));
  MET_RETURN_IF_ERROR(met_diag_option_num(loc, MET_OPT_plan_seconds, seconds,
                                          MET_PLAN_DEFAULT_SECONDS, &secs, diag, user));
  // secs <= 86400 (options.def): the nanoseconds fit.
  *out = (met_plan_limits_t){nodes, secs * 1000000000u, secs ? met_clock_ns_cb : NULL, NULL, NULL};
  return MET_OK;
}

met_status_t met_diag_option_planner(MlirLocation loc, MlirStringRef text,
                                     met_plan_strategy_t *out, met_diag_fn_t diag, void *user) {
  *out = MET_PLAN_BEST;
  if (!text.length || met_plan_strategy_parse(text.data, text.length, out) == MET_OK)
    return MET_OK;
  met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "unknown planner '%.*s'; use " MET_PLAN_STRATEGY_NAMES,
                (int)text.length, text.data);
  return MET_ENOTFOUND;
}

// The first file:line:col location inside |loc| (through Name, CallSite: callee first,
// and Fused locations) that |take| accepts; false when none does.
static bool loc_find(MlirLocation loc, bool (*take)(MlirLocation, void *), void *ctx) {
  if (mlirLocationIsNull(loc)) return false;
  if (mlirLocationIsAFileLineColRange(loc)) return take(loc, ctx);
  if (mlirLocationIsAName(loc)) return loc_find(mlirLocationNameGetChildLoc(loc), take, ctx);
  if (mlirLocationIsACallSite(loc))
    return loc_find(mlirLocationCallSiteGetCallee(loc), take, ctx) ||
           loc_find(mlirLocationCallSiteGetCaller(loc), take, ctx);
  if (mlirLocationIsAFused(loc)) {
    intptr_t n = mlirLocationFusedGetNumLocations(loc);
    if (n <= 0 || n > 64) return false;
    MlirLocation locs[64];
    mlirLocationFusedGetLocations(loc, locs);
    for (intptr_t i = 0; i < n; i++)
      if (loc_find(locs[i], take, ctx)) return true;
  }
  return false;
}

typedef struct loc_text_t { char *dst; size_t cap; bool basename_only; } loc_text_t;

static bool take_text(MlirLocation loc, void *ctx) {
  const loc_text_t *t = ctx;
  MlirStringRef f = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
  if (t->basename_only) {
    for (size_t i = f.length; i > 0; i--)
      if (f.data[i - 1] == '/') { f.data += i; f.length -= i; break; }
  }
  snprintf(t->dst, t->cap, "%.*s:%d:%d", (int)f.length, f.data,
           mlirLocationFileLineColRangeGetStartLine(loc),
           mlirLocationFileLineColRangeGetStartColumn(loc));
  return true;
}

// Finds a file:line:col inside loc and writes it to |dst|.
static bool loc_format(MlirLocation loc, char *dst, size_t cap, bool basename_only) {
  loc_text_t t = {dst, cap, basename_only};
  return loc_find(loc, take_text, &t);
}

typedef struct loc_name_t { char *dst; size_t cap; } loc_name_t;

static bool take_file(MlirLocation loc, void *ctx) {  // a name that fits, not an empty one
  const loc_name_t *t = ctx;
  MlirStringRef f = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
  if (!f.length || f.length >= t->cap) return false;
  memcpy(t->dst, f.data, f.length);
  t->dst[f.length] = '\0';
  return true;
}

bool met_diag_loc_file(MlirLocation loc, char *dst, size_t cap) {
  if (!cap) return false;
  loc_name_t t = {dst, cap};
  return loc_find(loc, take_file, &t);
}

void met_diag_loc_short(MlirLocation loc, char *dst, size_t cap) {
  char tmp[1024];
  if (!loc_format(loc, tmp, sizeof tmp, false)) { snprintf(dst, cap, "?"); return; }
  if (strlen(tmp) < cap) { memcpy(dst, tmp, strlen(tmp) + 1); return; }
  if (!loc_format(loc, dst, cap, true)) snprintf(dst, cap, "?");
}

// The metrale attributes a module or a function may hold: read by metrale (the first
// |nread|), or written by its passes (a module run through them again holds them).
static const char *const kModuleAttrs[] = {"metrale.kv_pool", "metrale.caches",
                                           "metrale.limits", "metrale.memory"};
static const char *const kFuncAttrs[] = {"metrale.limits", "metrale.budget",
                                         "metrale.dispatch"};

static met_status_t attr_names_ok(MlirOperation op, bool is_module, MlirLocation loc,
                          met_diag_fn_t diag, void *user) {
  const char *const *known = is_module ? kModuleAttrs : kFuncAttrs;
  size_t nknown = is_module ? 4 : 3, nread = is_module ? 3 : 1;
  intptr_t n = mlirOperationGetNumDiscardableAttributes(op);
  for (intptr_t i = 0; i < n; ++i) {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetDiscardableAttribute(op, i).name);
    if (!met_ir_str_has_prefix(name, "metrale.")) continue;
    bool found = false;
    for (size_t k = 0; k < nknown && !found; ++k) found = met_ir_str_eq(name, known[k]);
    if (found) continue;
    char list[160] = "";
    for (size_t k = 0; k < nread; ++k)
      snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", k ? ", " : "", known[k]);
    met_diag_emit(diag, user, loc, MET_DIAG_ERROR,
                  "unknown attribute '%.*s' on %s: metrale reads %s there (and writes %s)",
                  (int)name.length, name.data, is_module ? "a module" : "a function", list,
                  is_module ? "metrale.memory" : "metrale.budget, metrale.dispatch");
    return MET_EINVAL;
  }
  return MET_OK;
}

// A function's result attributes: metrale reads none there, so a `metrale.*` one (a
// metrale.param meant for an argument) is an error, not ignored.
static met_status_t result_attrs_ok(MlirOperation func, met_diag_fn_t diag, void *user) {
  MlirAttribute res = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("res_attrs"));
  if (mlirAttributeIsNull(res) || !mlirAttributeIsAArray(res)) return MET_OK;
  for (intptr_t r = 0; r < mlirArrayAttrGetNumElements(res); ++r) {
    MlirAttribute d = mlirArrayAttrGetElement(res, r);
    if (!mlirAttributeIsADictionary(d)) continue;
    for (intptr_t i = 0; i < mlirDictionaryAttrGetNumElements(d); ++i) {
      MlirStringRef name = mlirIdentifierStr(mlirDictionaryAttrGetElement(d, i).name);
      if (!met_ir_str_has_prefix(name, "metrale.")) continue;
      met_diag_emit(diag, user, mlirOperationGetLocation(func), MET_DIAG_ERROR,
                    "result #%" PRIdPTR ": attribute '%.*s' is unknown there: metrale reads "
                    "no attribute on a result (metrale.param, metrale.state, metrale.name and "
                    "metrale.format go on arguments)", r, (int)name.length, name.data);
      return MET_EINVAL;
    }
  }
  return MET_OK;
}

static met_status_t check_module_attrs(MlirOperation module, MlirLocation loc, int depth,
                               met_diag_fn_t diag, void *user) {
  MET_RETURN_IF_ERROR(attr_names_ok(module, true, loc, diag, user));
  if (depth > 64 || mlirOperationGetNumRegions(module) < 1) return MET_OK;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  if (mlirBlockIsNull(body)) return MET_OK;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
    if (met_ir_str_eq(n, "func.func")) {
      MET_RETURN_IF_ERROR(attr_names_ok(op, false, mlirOperationGetLocation(op), diag, user));
      MET_RETURN_IF_ERROR(result_attrs_ok(op, diag, user));
      // A declaration has no report to limit: its limits would be checked by nothing.
      MlirRegion body = mlirOperationGetRegion(op, 0);
      if (mlirBlockIsNull(mlirRegionGetFirstBlock(body)) &&
          !mlirAttributeIsNull(mlirOperationGetAttributeByName(
              op, mlirStringRefCreateFromCString("metrale.limits")))) {
        met_diag_emit(diag, user, mlirOperationGetLocation(op), MET_DIAG_ERROR,
                      "metrale.limits on a function without a body: there is no report of it "
                      "to limit (put the limits on the function that has the body, or on a "
                      "module)");
        return MET_EINVAL;
      }
    } else if (met_ir_str_eq(n, "builtin.module")) {
      MET_RETURN_IF_ERROR(check_module_attrs(op, mlirOperationGetLocation(op), depth + 1, diag, user));
    }
  }
  return MET_OK;
}

met_status_t met_diag_check_attr_names(MlirOperation module, met_diag_fn_t diag, void *user) {
  return check_module_attrs(module, met_diag_module_loc(module), 0, diag, user);
}
