// functions.c: the machinery every metrale pass shares (see functions.h).
#include "functions.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlti.h"
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
  const met_adapter_options_t *aopt;
  const met_budget_options_t *bopt;
  met_fn_after_t after;
  void *ctx;
} run_ctx_t;

static void run_one(void *user, size_t i) {
  run_ctx_t *r = user;
  met_fn_job_t *j = &r->jobs->jobs[i];
  j->status = met_adapter_build(j->func, r->aopt, &j->arena, &j->graph, &j->diags, &j->failed);
  if (j->status || j->failed) return;
  j->status = met_budget_analyze(&j->graph, r->target, r->bopt, &j->arena, &j->report);
  if (!j->status && r->after) j->status = r->after(j, r->target, r->ctx);
}

bool met_fn_jobs_run(MlirOperation module, const met_target_t *target,
                     const met_adapter_options_t *aopt, const met_budget_options_t *bopt,
                     met_fn_after_t after, void *ctx, met_fn_jobs_t *out) {
  out->jobs = NULL;
  out->count = 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  size_t n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    n += met_fn_has_body(op);
  out->jobs = calloc(n ? n : 1, sizeof(met_fn_job_t));
  if (!out->jobs) return false;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!met_fn_has_body(op)) continue;
    met_fn_job_t *j = &out->jobs[out->count++];
    j->func = op;
    met_arena_initialize(met_passes_allocator(), &j->arena);
  }
  run_ctx_t r = {out, target, aopt, bopt, after, ctx};
  met_parallel_for(mlirOperationGetContext(module), out->count, run_one, &r);
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
