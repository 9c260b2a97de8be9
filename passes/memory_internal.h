// passes/memory_internal.h: what the memory pass's files share: the report being
// gathered and its small helpers (memory_gather.c). memory_run.c calls memory_decls.c,
// both call memory_gather.c; nothing calls back. Internal to the memory pass.
#ifndef METRALE_PASSES_MEMORY_INTERNAL_H
#define METRALE_PASSES_MEMORY_INTERNAL_H

#include <stdbool.h>
#include <string.h>

#include "dlti.h"
#include "jobs.h"
#include "output.h"
#include "metrale/memory_report.h"

typedef struct gather_t {
  met_arena_t arena;            // the report's storage
  met_memory_report_t r;
  size_t cap_rows, cap_runs, cap_weights, cap_states, cap_caches;
  const met_target_t *target;
  MlirOperation module;
  met_diag_fn_t diag;
  void *user;
  bool ok;
  MlirStringRef *reads;         // symbols of globals some op loads
  size_t nreads, cap_reads;
} gather_t;

// Appends a zeroed element to g->r.ARR (count in g->r.COUNT, capacity g->CAP), pointing OUT
// at it; false when memory runs out.
#define PUSH(g, arr, count, cap, out)                                                     \
  (met_arena_reserve(&(g)->arena, (void **)&(g)->r.arr, &(g)->cap, (g)->r.count,          \
                     sizeof(*(g)->r.arr)) == MET_OK                                       \
       ? ((out) = &(g)->r.arr[(g)->r.count++], memset((out), 0, sizeof(*(out))), true)    \
       : false)


bool met_mem_fail_oom(gather_t *g);
// A formatted string in the report's arena.
#define met_mem_afmt(g, ...) ((const char *)met_arena_printf(&(g)->arena, __VA_ARGS__))
// *acc += v; on overflow an error naming |term| (the report's field) and false.
bool met_mem_add(gather_t *g, uint64_t *acc, uint64_t v, const char *term);
MlirAttribute met_mem_attr_of(MlirAttribute dict, const char *name);
bool met_mem_add_row(gather_t *g, const char *name, const char *kind, const char *loc,
                     uint64_t stored, uint64_t derived, uint64_t act, uint64_t ws, uint64_t state);

// Module-level declarations (memory_decls.c).
bool met_mem_gather_globals(gather_t *g);
bool met_mem_gather_kv_pool(gather_t *g, MlirStringRef kv_dtype, MlirStringRef kv_option);
bool met_mem_gather_caches(gather_t *g);

#endif
