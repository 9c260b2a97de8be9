// passes/memory_internal.h: what the memory pass's files share: the report being
// gathered and its small helpers (memory_gather.c). memory_run.c calls memory_decls.c,
// both call memory_gather.c; nothing calls back. Internal to the memory pass.
#ifndef METRALE_PASSES_MEMORY_INTERNAL_H
#define METRALE_PASSES_MEMORY_INTERNAL_H

#include <stdbool.h>
#include <string.h>

#include "ir/dlti.h"
#include "jobs.h"
#include "report/output.h"
#include "limit_check.h"
#include "metrale/memory_model.h"
#include "metrale/memory_report.h"

typedef struct gather_t {
  met_arena_t arena;            // the report's storage
  met_memory_report_t r;
  met_memory_model_t model;     // assembles |r| (metrale/memory_model.h)
  const met_target_t *target;
  MlirOperation module;
  const met_limits_t *limits;   // the run's limits (passes/limit_check.h)
  met_diag_fn_t diag;
  void *user;
  met_status_t st;              // the first failure (an error was emitted for it)
  uint32_t swept;               // MET_KV_MISSING_SEQUENCES/TOKENS for an axis a sweep gives
                                // (sweep-sequences=, sweep-tokens=): not missing then
  MlirStringRef *reads;         // symbols of globals some op loads
  size_t nreads, cap_reads;
} gather_t;

// Keeps |st| as |g|'s failure (its first) and returns it; the caller emitted the error.
met_status_t met_mem_fail(gather_t *g, met_status_t st);
// "out of memory" at the module, and MET_ENOMEM.
met_status_t met_mem_fail_oom(gather_t *g);
// A formatted string in the report's arena.
#define met_mem_afmt(g, ...) ((const char *)met_arena_printf(&(g)->arena, __VA_ARGS__))
MlirAttribute met_mem_attr_of(MlirAttribute dict, const char *name);
// Turns a status of the memory model (memory_model.h) into an error at the module: an
// overflow names its term, anything else is out of memory. |st| itself, kept in |g|.
met_status_t met_mem_check(gather_t *g, met_status_t st);
// met_memory_model_row, checked.
met_status_t met_mem_add_row(gather_t *g, const char *name, const char *kind, const char *loc,
                             uint64_t stored, uint64_t derived, uint64_t act, uint64_t ws,
                             uint64_t state);

// Module-level declarations (memory_decls.c); each the status after its first error.
met_status_t met_mem_gather_globals(gather_t *g);
met_status_t met_mem_gather_kv_pool(gather_t *g, MlirStringRef kv_dtype,
                                    MlirStringRef kv_option);
met_status_t met_mem_gather_caches(gather_t *g);

#endif
