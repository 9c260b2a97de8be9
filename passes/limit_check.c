// limit_check.c: see limit_check.h.
#include "limit_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter/adapter.h"
#include "ir/attrs.h"
#include "ir/diag.h"
#include "ir/ir.h"
#include "metrale/options.h"
#include "metrale/parse.h"
#include "metrale/report.h"
#include "metrale/strbuf.h"
#include "mlir-c/BuiltinAttributes.h"

static bool add(met_limits_t *l, const char *field, met_limit_family_t fam, bool is_min,
                uint64_t value, const char *source) {
  if (l->count == MET_LIMITS_MAX) return false;
  met_limit_t *x = &l->items[l->count++];
  x->field = field, x->family = fam, x->is_min = is_min, x->value = value;
  snprintf(x->source, sizeof(x->source), "%s", source);
  return true;
}

// The error when a run's limits (its options, limits= and every metrale.limits around a
// function) pass MET_LIMITS_MAX: none is dropped unsaid.
static met_status_t too_many(MlirLocation loc, met_diag_fn_t diag, void *user) {
  met_diag_emit(diag, user, loc, MET_DIAG_ERROR,
                "more than %d limits (options, limits= and metrale.limits together)",
                MET_LIMITS_MAX);
  return MET_EOVERFLOW;
}

// Every numeric field a limit may name, by report, into |sb|; the one nearest |key|, or
// NULL.
static const char *known_fields(met_strbuf_t *sb, const char *key, size_t len) {
  const char *fam_name[3] = {"the Budget's ", "; the dispatch stats' ", "; the memory model's "};
  for (int fam = 0; fam < 3; ++fam) {
    size_t n;
    const char *names[64];
    size_t count = 0;
    if (fam == 0) {
      const met_budget_field_t *f = met_budget_fields(&n);
      for (size_t i = 0; i < n && count < 64; ++i) names[count++] = f[i].name;
    } else if (fam == 1) {
      const met_dispatch_field_t *f = met_dispatch_fields(&n);
      for (size_t i = 0; i < n && count < 64; ++i) names[count++] = f[i].name;
    } else {
      const met_memory_field_t *f = met_memory_fields(&n);
      for (size_t i = 0; i < n && count < 64; ++i) names[count++] = f[i].name;
    }
    met_strbuf_cstr(sb, fam_name[fam]);
    bool first = true;
    for (size_t i = 0; i < count; ++i) {
      met_limit_family_t f;
      bool m;
      const char *c;
      if (!met_limit_field(names[i], strlen(names[i]), &f, &m, &c) || (int)f != fam) continue;
      met_strbuf_printf(sb, "%s%s", first ? "" : ", ", names[i]);
      first = false;
    }
  }
  return met_limit_nearest(key, len);
}

// The `metrale.limits` of |op| into |l| (|holder|: "the module", "@f"); false after an error.
static met_status_t from_attr(MlirOperation op, const char *holder, met_limits_t *l, met_diag_fn_t diag,
                      void *user) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("metrale.limits"));
  if (mlirAttributeIsNull(a)) return MET_OK;
  MlirLocation loc = met_ir_op_is(op, "builtin.module") ? met_diag_module_loc(op)
                                                         : mlirOperationGetLocation(op);
  if (!mlirAttributeIsADictionary(a)) {
    met_diag_emit(diag, user, loc, MET_DIAG_ERROR,
                  "metrale.limits must be a dictionary of report fields and whole numbers "
                  "({arena_bytes = 8388608, dispatches = 40, ...})");
    return MET_EINVAL;
  }
  for (intptr_t i = 0; i < mlirDictionaryAttrGetNumElements(a); ++i) {
    MlirNamedAttribute e = mlirDictionaryAttrGetElement(a, i);
    MlirStringRef key = mlirIdentifierStr(e.name);
    met_limit_family_t fam;
    bool is_min;
    const char *canon;
    if (!met_limit_field(key.data, key.length, &fam, &is_min, &canon)) {
      met_strbuf_t known;
      met_strbuf_initialize(met_allocator_system(), &known);
      const char *near = known_fields(&known, key.data, key.length);
      met_diag_emit(diag, user, loc, MET_DIAG_ERROR,
                    "metrale.limits key '%.*s' is no numeric field of the Budget, the dispatch "
                    "stats or the memory model%s%s%s; they are: %s", (int)key.length, key.data,
                    near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "",
                    known.data ? known.data : "");
      met_strbuf_deinitialize(&known);
      return MET_EINVAL;
    }
    uint64_t v;
    const char *why = NULL;
    if (mlirAttributeIsAString(e.attribute) && met_limit_field_is_bytes(canon, strlen(canon))) {
      // A size with its unit, as the options take it: {arena_bytes = "8MiB"}.
      MlirStringRef t = mlirStringAttrGetValue(e.attribute);
      if (met_parse_size(t.data, t.length, 0, is_min ? INT64_MAX : UINT64_MAX, &v))
        why = "must be a whole number or a size such as \"8MiB\" (" MET_SIZE_EXPECTED ")";
    } else {
      why = met_attr_u64(e.attribute, 0, is_min ? INT64_MAX : UINT64_MAX, &v);
    }
    if (why) {
      met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "metrale.limits entry '%s' %s", canon, why);
      return MET_EINVAL;
    }
    char src[96];
    snprintf(src, sizeof(src), "metrale.limits of %s", holder);
    if (!add(l, canon, fam, is_min, v, src)) return too_many(loc, diag, user);
  }
  return MET_OK;
}


met_status_t met_limits_gather(MlirOperation module, const MlirStringRef *limits, MlirStringRef list,
                       met_limit_family_t family, met_limits_t *out, met_diag_fn_t diag,
                       void *user) {
  memset(out, 0, sizeof(*out));
  MlirLocation mloc = met_diag_module_loc(module);
  if (list.length) {
    // limits=FIELD=VALUE,...: any numeric field (lib/limits.c parses it).
    met_limit_item_t items[MET_LIMITS_MAX];
    size_t n;
    met_error_t err;
    met_error_init(&err);
    if (met_limits_parse(list.data, list.length, items, MET_LIMITS_MAX, &n, &err) != MET_OK) {
      met_diag_emit(diag, user, mloc, MET_DIAG_ERROR, "invalid limits='%.*s': %s",
                    (int)(list.length > 200 ? 200 : list.length), list.data,
                    met_error_message(&err));
      return err.code;
    }
    for (size_t k = 0; k < n; ++k) {
      // A field of another report is checked by its own pass, not silently by none.
      if (items[k].family != family) {
        met_diag_emit(diag, user, mloc, MET_DIAG_ERROR,
                      "invalid limits='%.*s': %s is a field of %s, which %s checks, not this "
                      "pass (it checks %s)", (int)(list.length > 200 ? 200 : list.length),
                      list.data, items[k].field, met_limit_family_name(items[k].family),
                      met_limit_family_checker(items[k].family), met_limit_family_name(family));
        return MET_EINVAL;
      }
      char src[96];
      snprintf(src, sizeof(src), "limits: %.*s", (int)(items[k].text_len > 80 ? 80 : items[k].text_len),
               items[k].text);
      if (!add(out, items[k].field, items[k].family, items[k].is_min, items[k].value, src))
        return too_many(mloc, diag, user);
    }
  }
  const met_option_t *opts = met_options();
  for (int k = 0; k < MET_OPT_COUNT; ++k) {
    if (!met_option_takes_num(opts[k].kind) || opts[k].kind == MET_OPTION_NUM) continue;
    if (!limits[k].length) continue;
    uint64_t v;
    MET_RETURN_IF_ERROR(met_diag_option_num(mloc, k, limits[k], 0, &v, diag, user));
    // The option's field is its member's name: options.def's table gives it.
    met_limit_family_t fam;
    bool is_min;
    const char *canon;
    const char *field = opts[k].member;
    if (!met_limit_field(field, strlen(field), &fam, &is_min, &canon)) return MET_EINVAL;
    char src[96];
    // As the user wrote it ("max-arena=8MiB"); the value itself is said beside it.
    snprintf(src, sizeof(src), "%s=%.*s", opts[k].name, limits[k].length > 64 ? 64 : (int)limits[k].length,
             limits[k].data);
    if (!add(out, canon, fam, is_min, v, src)) return too_many(mloc, diag, user);
  }
  return from_attr(module, "the module", out, diag, user);
}

bool met_limits_any(const met_limits_t *l, met_limit_family_t family, const char *field) {
  for (size_t i = 0; i < l->count; ++i)
    if (l->items[i].family == family && (!field || !strcmp(field, l->items[i].field))) return true;
  return false;
}

// " at file:line:col" of |loc|, when it has one.
static void put_loc(met_strbuf_t *sb, MlirLocation loc) {
  MlirStringRef file;
  int line, col;
  if (met_adapter_loc_parts(loc, &file, &line, &col) && file.length)
    met_strbuf_printf(sb, " at %.*s:%d:%d", (int)file.length, file.data, line, col);
}

static void put_amount(met_strbuf_t *sb, uint64_t v, bool bytes) {
  if (!bytes) { met_strbuf_u64(sb, v); return; }
  met_report_bytes(sb, v);
}

// The first words of a breach: "@f on h100: arena_bytes = 12582912 (12.0 MiB) breaches
// its limit 8388608 (8.0 MiB; max-arena=8388608)".
static void put_head(met_strbuf_t *sb, const char *report, const char *name, const met_target_t *t,
                     const met_limit_t *x, bool is_signed, int64_t sv, uint64_t uv, bool bytes) {
  met_strbuf_printf(sb, "%s%s%s on %s: %s = ", report, name ? " @" : "", name ? name : "",
                    t->name, x->field);
  if (is_signed) met_strbuf_printf(sb, "%" PRId64, sv); else met_strbuf_u64(sb, uv);
  if (bytes && !is_signed) { MET_STRBUF_LIT(sb, " ("); put_amount(sb, uv, true); MET_STRBUF_LIT(sb, ")"); }
  met_strbuf_printf(sb, " breaches its %s %" PRIu64, x->is_min ? "minimum" : "limit", x->value);
  MET_STRBUF_LIT(sb, " (");
  if (bytes) { put_amount(sb, x->value, true); MET_STRBUF_LIT(sb, "; "); }
  met_strbuf_printf(sb, "%s)", x->source);
}

static void emit(met_strbuf_t *sb, MlirLocation loc, met_diag_fn_t diag, void *user) {
  met_diag_emit(diag, user, loc, MET_DIAG_ERROR, "%s",
                sb->status ? "a limit is breached (out of memory for the message)" : sb->data);
}

// The dispatches of |r| (groups) ranked by |per_group|: "; the largest dispatches: 4.0 MiB
// linalg.matmul at f.mlir:3:8, ...".
static void put_groups(met_strbuf_t *sb, const met_graph_t *g, const met_budget_report_t *r,
                       const uint64_t *per_group, size_t ngroups, const char *what, bool bytes) {
  size_t top[3];
  size_t n = per_group ? met_limit_top(per_group, ngroups, 3, top) : 0;
  for (size_t k = 0; k < n; ++k) {
    met_strbuf_cstr(sb, k ? ", " : what);
    put_amount(sb, per_group[top[k]], bytes);
    for (size_t nd = 0; nd < g->node_count; ++nd)
      if (r->group_of_node[nd] == top[k]) {
        met_strbuf_printf(sb, " %s", g->nodes[nd].name);
        put_loc(sb, met_node_loc(&g->nodes[nd]));
        break;
      }
  }
}

// The `metrale.limits` of the modules nested in the top one that hold |func| (outermost
// first), then of |func| itself (named |name|), into |l|: a nested module's limits bound
// its functions as the top module's bound them all.
static met_status_t own_limits(MlirOperation func, const char *name, met_limits_t *l,
                       met_diag_fn_t diag, void *user) {
  char holder[300];
  snprintf(holder, sizeof(holder), "@%s", name);
  MlirOperation chain[32];
  size_t n = 0;
  for (MlirOperation p = mlirOperationGetParentOperation(func); !mlirOperationIsNull(p) && n < 32;
       p = mlirOperationGetParentOperation(p)) {
    if (mlirOperationIsNull(mlirOperationGetParentOperation(p))) break;  // the top module
    if (met_ir_op_is(p, "builtin.module")) chain[n++] = p;
  }
  while (n-- > 0) {
    char mholder[300];
    MlirStringRef mn = met_ir_sym_name(chain[n]);
    if (!mn.data) mn = mlirStringRefCreate("", 0);
    snprintf(mholder, sizeof(mholder), "module @%.*s", (int)(mn.length > 200 ? 200 : mn.length), mn.data);
    MET_RETURN_IF_ERROR(from_attr(chain[n], mn.length ? mholder : "a nested module", l, diag, user));
  }
  return from_attr(func, holder, l, diag, user);
}

// Whether |func|, or a module around it below the top one (whose limits |base| holds),
// has `metrale.limits`: without any, and without a limit of the family in |base|, there
// is nothing to check (and no 7 KiB copy of the limits per function).
static bool has_own_limits(MlirOperation func) {
  MlirStringRef key = mlirStringRefCreateFromCString("metrale.limits");
  if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(func, key))) return true;
  for (MlirOperation p = mlirOperationGetParentOperation(func); !mlirOperationIsNull(p);
       p = mlirOperationGetParentOperation(p)) {
    if (mlirOperationIsNull(mlirOperationGetParentOperation(p))) break;  // the top module
    if (met_ir_op_is(p, "builtin.module") &&
        !mlirAttributeIsNull(mlirOperationGetAttributeByName(p, key)))
      return true;
  }
  return false;
}

met_status_t met_limits_check_budget(const met_limits_t *base, MlirOperation func, const char *name,
                             const met_target_t *t, const met_graph_t *g,
                             const met_budget_report_t *r, met_diag_fn_t diag, void *user) {
  if (!met_limits_any(base, MET_LIMIT_BUDGET, NULL) && !has_own_limits(func)) return MET_OK;
  met_limits_t own = *base;
  MlirLocation loc = mlirOperationGetLocation(func);
  MET_RETURN_IF_ERROR(own_limits(func, name, &own, diag, user));
  met_status_t st = MET_OK;
  size_t nf;
  const met_budget_field_t *fields = met_budget_fields(&nf);
  for (size_t i = 0; i < own.count; ++i) {
    const met_limit_t *x = &own.items[i];
    if (x->family != MET_LIMIT_BUDGET) continue;
    const met_budget_field_t *f = NULL;
    for (size_t k = 0; k < nf && !f; ++k) if (!strcmp(fields[k].name, x->field)) f = &fields[k];
    uint64_t v = met_budget_field_u64(&r->budget, f);
    if (!met_limit_breached((int64_t)0, false, v, x->is_min, x->value)) continue;
    st = MET_ELIMIT;
    bool bytes = f->kind == MET_FIELD_BYTES;
    met_strbuf_t sb;
    met_strbuf_initialize(met_allocator_system(), &sb);
    put_head(&sb, "metrale.budget", name, t, x, false, 0, v, bytes);
    if (!strcmp(x->field, "dispatches") || !strcmp(x->field, "dram_bytes")) {
      put_groups(&sb, g, r, r->group_bytes, r->group_count, "; the largest dispatches: ", true);
    } else if (!strncmp(x->field, "off_fast_path", 13)) {
      uint64_t *per = calloc(g->node_count ? g->node_count : 1, sizeof(*per));
      for (size_t nd = 0; per && nd < g->node_count; ++nd)
        if (r->off_fast_path[nd] && !met_budget_off_path_bytes(g, &g->nodes[nd], &per[nd], NULL))
          per[nd] = 0;
      size_t top[3], n = per ? met_limit_top(per, g->node_count, 3, top) : 0;
      for (size_t k = 0; k < n; ++k) {
        met_strbuf_cstr(&sb, k ? ", " : "; the largest off the fast path: ");
        put_amount(&sb, per[top[k]], true);
        met_strbuf_printf(&sb, " %s", g->nodes[top[k]].name);
        put_loc(&sb, met_node_loc(&g->nodes[top[k]]));
      }
      free(per);
    } else if (!strcmp(x->field, "host_io_bytes") || !strcmp(x->field, "param_bytes")) {
      // Host I/O: the input arguments and the results; the weights: the parameter
      // arguments, constants and globals (at their bytes: a gather reads fewer).
      bool io = !strcmp(x->field, "host_io_bytes");
      size_t nv = g->value_count ? g->value_count : 1;
      uint64_t *per = calloc(nv, sizeof(*per));
      for (size_t vi = 0; per && vi < g->value_count; ++vi) {
        const met_value_t *val = &g->values[vi];
        bool take = io ? (val->role == MET_ROLE_INPUT && val->arg_index >= 0)
                       : met_role_is_weight(val->role);
        if (take) per[vi] = val->bytes;
      }
      for (size_t nd = 0; per && io && nd < g->node_count; ++nd)
        if (g->nodes[nd].kind == MET_NODE_RETURN)
          for (uint32_t k = 0; k < g->nodes[nd].operand_count; ++k) {
            uint32_t vi = g->operands[g->nodes[nd].operand_begin + k];
            per[vi] = g->values[vi].bytes;  // a result (an argument returned counts once)
          }
      size_t top[3], n = per ? met_limit_top(per, g->value_count, 3, top) : 0;
      for (size_t k = 0; k < n; ++k) {
        const met_value_t *val = &g->values[top[k]];
        met_strbuf_cstr(&sb, k ? ", " : io ? "; the largest inputs and results: "
                                           : "; the largest weights: ");
        put_amount(&sb, per[top[k]], true);
        const char *vn = met_graph_value_name(g, top[k]);
        if (val->arg_index >= 0)
          met_strbuf_printf(&sb, " argument #%d%s%s", val->arg_index, vn ? " " : "", vn ? vn : "");
        else if (val->producer >= 0)
          met_strbuf_printf(&sb, " %s%s%s", io ? "result " : "", vn ? vn : "",
                            vn ? "" : g->nodes[val->producer].name);
        if (val->producer >= 0) put_loc(&sb, met_node_loc(&g->nodes[val->producer]));
      }
      free(per);
    } else if (bytes && r->slot_count &&
               (!strcmp(x->field, "arena_bytes") || !strcmp(x->field, "peak_live_bytes") ||
                !strcmp(x->field, "materialized_bytes") || !strcmp(x->field, "reuse_saved_bytes"))) {
      // The arena's fields: its largest slots.
      uint64_t *per = malloc(r->slot_count * sizeof(*per));
      for (size_t s = 0; per && s < r->slot_count; ++s) per[s] = r->slots[s].bytes;
      size_t top[3], n = per ? met_limit_top(per, r->slot_count, 3, top) : 0;
      for (size_t k = 0; k < n; ++k) {
        const met_slot_t *s = &r->slots[top[k]];
        met_strbuf_cstr(&sb, k ? ", " : "; the largest slots: ");
        put_amount(&sb, s->bytes, true);
        if (s->node >= 0 && (size_t)s->node < g->node_count) {
          met_strbuf_printf(&sb, " %s%s", s->value == MET_SLOT_SCRATCH ? "scratch of " : "",
                            g->nodes[s->node].name);
          put_loc(&sb, met_node_loc(&g->nodes[s->node]));
        }
      }
      free(per);
    }
    emit(&sb, loc, diag, user);
    met_strbuf_deinitialize(&sb);
  }
  return st;
}

met_status_t met_limits_check_dispatch(const met_limits_t *base, MlirOperation func, const char *name,
                               const met_target_t *t, const met_graph_t *g,
                               const met_budget_report_t *r, const met_dispatch_report_t *d,
                               met_diag_fn_t diag, void *user) {
  if (!met_limits_any(base, MET_LIMIT_DISPATCH, NULL) && !has_own_limits(func)) return MET_OK;
  met_limits_t own = *base;
  MlirLocation loc = mlirOperationGetLocation(func);
  MET_RETURN_IF_ERROR(own_limits(func, name, &own, diag, user));
  met_status_t st = MET_OK;
  size_t nf;
  const met_dispatch_field_t *fields = met_dispatch_fields(&nf);
  for (size_t i = 0; i < own.count; ++i) {
    const met_limit_t *x = &own.items[i];
    if (x->family != MET_LIMIT_DISPATCH) continue;
    const met_dispatch_field_t *f = NULL;
    for (size_t k = 0; k < nf && !f; ++k) if (!strcmp(fields[k].name, x->field)) f = &fields[k];
    uint64_t v = met_dispatch_field_u64(&d->stats, f);
    if (!met_limit_breached(0, false, v, x->is_min, x->value)) continue;
    st = MET_ELIMIT;
    bool bytes = f->kind == MET_DFIELD_BYTES;
    met_strbuf_t sb;
    met_strbuf_initialize(met_allocator_system(), &sb);
    put_head(&sb, "metrale.dispatch", name, t, x, false, 0, v, bytes);
    // The dispatches, ranked by what the field counts.
    bool lat = !strcmp(x->field, "latency_ns"), launches = !strcmp(x->field, "kernel_launches");
    uint64_t *per = calloc(d->row_count ? d->row_count : 1, sizeof(*per));
    for (size_t k = 0; per && k < d->row_count; ++k)
      per[k] = lat ? d->rows[k].latency_ns : launches ? d->rows[k].launches : d->rows[k].bytes;
    size_t top[3], n = per ? met_limit_top(per, d->row_count, 3, top) : 0;
    for (size_t k = 0; k < n; ++k) {
      const met_dispatch_row_t *row = &d->rows[top[k]];
      met_strbuf_cstr(&sb, k ? ", " : "; the largest dispatches: ");
      if (lat) met_strbuf_printf(&sb, "%" PRIu64 " ns", row->latency_ns);
      else put_amount(&sb, per[top[k]], !launches);
      if (row->first_node < g->node_count) {
        met_strbuf_printf(&sb, " %s", g->nodes[row->first_node].name);
        put_loc(&sb, met_node_loc(&g->nodes[row->first_node]));
      }
    }
    free(per);
    (void)r;
    emit(&sb, loc, diag, user);
    met_strbuf_deinitialize(&sb);
  }
  return st;
}

typedef struct fn_limits_t {
  met_limits_t *l;
  met_diag_fn_t diag;
  void *user;
  met_status_t st;  // the first failure of a holder's metrale.limits
  MlirOperation where[MET_LIMITS_MAX];  // per limit: the function that set it (null: the run)
} fn_limits_t;

static MlirWalkResult gather_fn(MlirOperation op, void *u) {
  fn_limits_t *f = u;
  if (met_ir_op_is(op, "builtin.module") &&
      !mlirOperationIsNull(mlirOperationGetParentOperation(op))) {
    // A nested module's limits bound the memory model too, said at the module.
    size_t before = f->l->count;
    met_status_t st = from_attr(op, "a nested module", f->l, f->diag, f->user);
    if (!f->st) f->st = st;
    for (size_t i = before; i < f->l->count; ++i) f->where[i] = op;
    return MlirWalkResultAdvance;
  }
  if (!met_ir_op_is(op, "func.func")) return MlirWalkResultAdvance;
  char path[1024], holder[1030];
  size_t n = met_ir_symbol_path(op, path, sizeof(path));
  snprintf(holder, sizeof(holder), "@%s", n == SIZE_MAX ? "?" : path);
  size_t before = f->l->count;
  met_status_t st = from_attr(op, holder, f->l, f->diag, f->user);
  if (!f->st) f->st = st;
  for (size_t i = before; i < f->l->count; ++i) f->where[i] = op;
  return MlirWalkResultSkip;
}

met_status_t met_limits_check_memory(const met_limits_t *base, MlirOperation module, const met_target_t *t,
                             const met_memory_report_t *m, met_diag_fn_t diag, void *user) {
  met_limits_t own = *base;
  fn_limits_t f = {&own, diag, user, MET_OK, {{0}}};
  mlirOperationWalk(module, gather_fn, &f, MlirWalkPreOrder);
  MET_RETURN_IF_ERROR(f.st);
  met_status_t st = MET_OK;
  size_t nf;
  const met_memory_field_t *fields = met_memory_fields(&nf);
  for (size_t i = 0; i < own.count; ++i) {
    const met_limit_t *x = &own.items[i];
    if (x->family != MET_LIMIT_MEMORY) continue;
    const met_memory_field_t *fd = NULL;
    for (size_t k = 0; k < nf && !fd; ++k) if (!strcmp(fields[k].name, x->field)) fd = &fields[k];
    bool sgn = fd->kind == MET_MFIELD_SIGNED;
    int64_t sv = met_memory_field_i64(m, fd);
    uint64_t uv = met_memory_field_u64(m, fd);
    if (!met_limit_breached(sv, sgn, uv, x->is_min, x->value)) continue;
    st = MET_ELIMIT;
    met_strbuf_t sb;
    met_strbuf_initialize(met_allocator_system(), &sb);
    put_head(&sb, "memory", NULL, t, x, sgn, sv, uv, fd->kind == MET_MFIELD_BYTES || sgn);
    MET_STRBUF_LIT(&sb, "; the largest terms: ");
    met_memory_report_largest(&sb, m, 3);
    MlirOperation w = f.where[i];
    emit(&sb, mlirOperationIsNull(w) ? met_diag_module_loc(module) : mlirOperationGetLocation(w),
         diag, user);
    met_strbuf_deinitialize(&sb);
  }
  return st;
}
