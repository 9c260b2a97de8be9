// functions.c: the machinery every metrale pass shares (see functions.h).
#include "functions.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlti.h"
#include "mlir-c/BuiltinAttributes.h"
#include "metrale/parse.h"
#include "memory.h"

MlirLocation met_module_loc(MlirOperation module) {
  MlirLocation loc = mlirOperationGetLocation(module);
  bool real = mlirLocationIsAFileLineColRange(loc) && mlirLocationFileLineColRangeGetStartLine(loc) > 0;
  if (real || mlirOperationGetNumRegions(module) < 1) return loc;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirOperation first = mlirBlockIsNull(body) ? (MlirOperation){NULL} : mlirBlockGetFirstOperation(body);
  return mlirOperationIsNull(first) ? loc : mlirOperationGetLocation(first);
}

bool met_fn_has_body(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if (n.length != 9 || memcmp(n.data, "func.func", 9)) return false;
  return !mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)));
}

typedef struct run_ctx_t {
  met_fn_jobs_t *jobs;
  const met_target_t *target;
  met_adapter_options_t aopt;   // with the callee resolver below
  const met_budget_options_t *bopt;
  met_fn_after_t after;
  void *ctx;
  uint8_t *state;               // per job: 0 waiting, 1 in this round, 2 done
  size_t *order;                // jobs of the current round
} run_ctx_t;

static void run_one(void *user, size_t k) {
  run_ctx_t *r = user;
  met_fn_job_t *j = &r->jobs->jobs[r->order[k]];
  j->status = met_adapter_build(j->func, &r->aopt, &j->arena, &j->graph, &j->diags, &j->failed);
  if (j->status || j->failed) return;
  j->status = met_budget_analyze(&j->graph, r->target, r->bopt, &j->arena, &j->report);
  if (!j->status && r->after) j->status = r->after(j, r->target, r->ctx);
}

static bool same_name(MlirOperation func, MlirStringRef name) {
  MlirStringRef n = met_adapter_func_name(func);
  return mlirStringRefEqual(n, name);
}

// The job of the function |name| in |caller|'s symbol table (its parent), or -1; and
// whether a declaration of that name exists there.
static ptrdiff_t find_callee(const met_fn_jobs_t *jobs, MlirOperation caller, MlirStringRef name,
                             bool *declared) {
  MlirOperation table = mlirOperationGetParentOperation(caller);
  *declared = false;
  for (size_t i = 0; i < jobs->count; ++i)
    if (same_name(jobs->jobs[i].func, name) &&
        mlirOperationEqual(mlirOperationGetParentOperation(jobs->jobs[i].func), table))
      return (ptrdiff_t)i;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(table, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
    if (n.length == 9 && !memcmp(n.data, "func.func", 9) && same_name(op, name)) *declared = true;
  }
  return -1;
}

// Runs on a worker thread while the callee's job is done (state 2) and no longer written.
static void resolve_callee(void *user, MlirOperation caller, MlirStringRef name,
                           met_callee_t *out) {
  run_ctx_t *r = user;
  bool declared;
  ptrdiff_t k = find_callee(r->jobs, caller, name, &declared);
  out->report = NULL;
  if (k < 0) { out->state = declared ? MET_CALLEE_NO_BODY : MET_CALLEE_UNKNOWN; return; }
  const met_fn_job_t *j = &r->jobs->jobs[k];
  if (r->state[k] != 2) { out->state = MET_CALLEE_PENDING; return; }
  if (j->status || j->failed) { out->state = MET_CALLEE_FAILED; return; }
  out->state = MET_CALLEE_DONE;
  out->report = &j->report;
}

typedef struct deps_t {
  run_ctx_t *r;
  size_t self;
  bool ready;
} deps_t;

static MlirWalkResult check_call(MlirOperation op, void *user) {
  deps_t *d = user;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if (n.length != 9 || memcmp(n.data, "func.call", 9)) return MlirWalkResultAdvance;
  MlirAttribute a = mlirOperationGetInherentAttributeByName(op, mlirStringRefCreateFromCString("callee"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAFlatSymbolRef(a)) return MlirWalkResultAdvance;
  bool declared;
  ptrdiff_t k = find_callee(d->r->jobs, d->r->jobs->jobs[d->self].func,
                            mlirFlatSymbolRefAttrGetValue(a), &declared);
  if (k >= 0 && (size_t)k != d->self && d->r->state[k] != 2) {
    d->ready = false;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

// Every func.func with a body below |op|, nested modules included (not inside functions).
static MlirWalkResult count_funcs(MlirOperation op, void *user) {
  if (met_fn_has_body(op)) {
    met_fn_jobs_t *jobs = user;
    if (jobs->jobs) jobs->jobs[jobs->count].func = op;
    jobs->count++;
    return MlirWalkResultSkip;
  }
  return MlirWalkResultAdvance;
}

bool met_fn_jobs_run(MlirOperation module, const met_target_t *target,
                     const met_adapter_options_t *aopt, const met_budget_options_t *bopt,
                     met_fn_after_t after, void *ctx, met_fn_jobs_t *out) {
  out->jobs = NULL;
  out->count = 0;
  mlirOperationWalk(module, count_funcs, out, MlirWalkPreOrder);
  size_t n = out->count;
  out->count = 0;
  out->jobs = calloc(n ? n : 1, sizeof(met_fn_job_t));
  run_ctx_t r = {out, target, *aopt, bopt, after, ctx, calloc(n ? n : 1, 1),
                 calloc(n ? n : 1, sizeof(size_t))};
  if (!out->jobs || !r.state || !r.order) {
    free(r.state);
    free(r.order);
    return false;
  }
  mlirOperationWalk(module, count_funcs, out, MlirWalkPreOrder);
  for (size_t i = 0; i < n; ++i) met_arena_initialize(met_passes_allocator(), &out->jobs[i].arena);
  r.aopt.callee = resolve_callee;
  r.aopt.callee_user = &r;
  // Callees before callers, in rounds; each round runs in parallel. Functions left on a
  // cycle of calls run together last: their calls to each other are not resolved.
  size_t done = 0;
  while (done < n) {
    size_t m = 0;
    for (size_t i = 0; i < n; ++i) {
      if (r.state[i]) continue;
      deps_t d = {&r, i, true};
      mlirOperationWalk(out->jobs[i].func, check_call, &d, MlirWalkPreOrder);
      if (d.ready) r.order[m++] = i;
    }
    if (m == 0)
      for (size_t i = 0; i < n; ++i)
        if (!r.state[i]) r.order[m++] = i;
    for (size_t k = 0; k < m; ++k) r.state[r.order[k]] = 1;
    met_parallel_for(mlirOperationGetContext(module), m, run_one, &r);
    for (size_t k = 0; k < m; ++k) r.state[r.order[k]] = 2;
    done += m;
  }
  free(r.state);
  free(r.order);
  return true;
}

void met_fn_jobs_release(met_fn_jobs_t *jobs) {
  for (size_t i = 0; i < jobs->count; ++i) met_arena_deinitialize(&jobs->jobs[i].arena);
  free(jobs->jobs);
  jobs->jobs = NULL;
  jobs->count = 0;
}

void met_emit(met_diag_fn_t diag, void *user, MlirLocation loc, met_diag_severity_t sev,
              const char *fmt, ...) {
  char buf[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  diag(user, loc, sev, buf);
}

bool met_write_report(MlirLocation loc, MlirStringRef path, const met_strbuf_t *sb,
                      met_strbuf_t *out, met_diag_fn_t diag, void *user) {
  if (path.length == 1 && path.data[0] == '-') {
    if (out) { met_strbuf_append(out, sb->data, sb->len); return true; }
    fwrite(sb->data, 1, sb->len, stdout);
    fflush(stdout);
    return true;
  }
  char *p = malloc(path.length + 1);
  if (!p) { met_emit(diag, user, loc, MET_DIAG_ERROR, "out of memory"); return false; }
  memcpy(p, path.data, path.length);
  p[path.length] = '\0';
  FILE *f = fopen(p, "wb");
  bool ok = f && fwrite(sb->data, 1, sb->len, f) == sb->len;
  if (f && fclose(f) != 0) ok = false;
  if (!ok) met_emit(diag, user, loc, MET_DIAG_ERROR, "cannot write the JSON report to '%s': %s", p,
                    strerror(errno));
  free(p);
  return ok;
}

// "host-cpu, h100, ..." from the built-in table, into |buf|.
static const char *target_list(char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < met_target_builtin_count(); ++i) {
    int n = snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", met_target_builtin(i)->name);
    if (n < 0 || (size_t)n >= cap - len) break;
    len += (size_t)n;
  }
  return buf;
}

bool met_resolve_target(MlirOperation module, MlirStringRef name, met_target_t *storage,
                        const met_target_t **out, met_diag_fn_t diag, void *user) {
  MlirLocation mloc = met_module_loc(module);
  if (name.length) {
    if (met_target_find(name.data, name.length, out) == MET_OK) return true;
    char names[256];
    met_emit(diag, user, mloc, MET_DIAG_ERROR, "unknown target '%.*s'; the built-in targets are %s",
             (int)name.length, name.data, target_list(names, sizeof(names)));
    return false;
  }
  char why[256];
  int found = met_dlti_target(module, storage, why, sizeof(why));
  if (found < 0) {
    met_emit(diag, user, mloc, MET_DIAG_ERROR, "%s", why);
    return false;
  }
  if (found > 0) *out = storage;
  else met_target_find("host-cpu", 8, out);
  return true;
}

bool met_option_u64(MlirLocation loc, const char *name, MlirStringRef text, uint64_t min,
                    uint64_t max, uint64_t absent, uint64_t *out, met_diag_fn_t diag,
                    void *user) {
  if (!text.length) { *out = absent; return true; }
  char msg[256];
  if (met_parse_option_u64(name, text.data, text.length, min, max, out, msg, sizeof(msg)))
    return true;
  met_emit(diag, user, loc, MET_DIAG_ERROR, "%s", msg);
  return false;
}
