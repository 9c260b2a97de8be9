// passes/limit_check.h: limits that fail the build, as the runners check them. A limit comes
// from a pass option (metrale/options.def, kinds LIMIT_MAX and LIMIT_MIN: the command's
// flags are the same options) or from a `metrale.limits = {FIELD = N, ...}` dictionary on
// the module (every function, and the memory model) or on one func.func (that function).
// A breach is an error at the function (the module for the memory model) naming the
// field, its value, the limit and where it was set, and the three largest contributors
// with their locations: the slots for the arena fields, the dispatches for dispatches,
// DRAM bytes and the dispatch stats, the ops off the fast path, the memory model's terms.
// Thread-compatible: the runners call it on the calling thread.
#ifndef METRALE_PASSES_LIMIT_CHECK_H
#define METRALE_PASSES_LIMIT_CHECK_H

#include <stdbool.h>

#include "metrale/budget.h"
#include "metrale/dispatch.h"
#include "metrale/limits.h"
#include "metrale/memory_report.h"
#include "ir/diag.h"
#include "mlir-c/IR.h"

enum { MET_LIMITS_MAX = 64 };

typedef struct met_limit_t {
  const char *field;          // the report field (static)
  met_limit_family_t family;
  bool is_min;                // headroom: a minimum
  uint64_t value;
  char source[96];            // "max-arena=8388608", "metrale.limits of the module", ...
} met_limit_t;

typedef struct met_limits_t {
  met_limit_t items[MET_LIMITS_MAX];
  size_t count;
} met_limits_t;

// The limits of a run: its options |limits| (a run options' limits[], MET_OPT_COUNT of
// them), its limits= option |list| ("arena_bytes=8MiB,dispatches=40": any numeric field of
// the pass's report, |family|: another's is an error)
// and the module's `metrale.limits`, each number parsed strictly and each key
// checked (a name that is no numeric report field is an error at the module). The status
// after an error.
met_status_t met_limits_gather(MlirOperation module, const MlirStringRef *limits,
                               MlirStringRef list, met_limit_family_t family, met_limits_t *out,
                               met_diag_fn_t diag, void *user);
// Whether |l| holds a limit of |family| (or, with |field|, on that field).
bool met_limits_any(const met_limits_t *l, met_limit_family_t family, const char *field);

// Checks function |func|'s Budget against |l| and its own `metrale.limits`: an error per
// breach. MET_ELIMIT when one is breached, another status when its attribute is malformed.
met_status_t met_limits_check_budget(const met_limits_t *l, MlirOperation func,
                                     const char *name, const met_target_t *t,
                                     const met_graph_t *g, const met_budget_report_t *r,
                                     met_diag_fn_t diag, void *user);
// The same for its dispatch stats (|d|; |r| the Budget it comes from).
met_status_t met_limits_check_dispatch(const met_limits_t *l, MlirOperation func,
                                       const char *name, const met_target_t *t,
                                       const met_graph_t *g, const met_budget_report_t *r,
                                       const met_dispatch_report_t *d, met_diag_fn_t diag,
                                       void *user);
// The memory model's report |m| of |module| (its functions' `metrale.limits` on memory
// fields too, said at the function).
met_status_t met_limits_check_memory(const met_limits_t *l, MlirOperation module,
                                     const met_target_t *t, const met_memory_report_t *m,
                                     met_diag_fn_t diag, void *user);

#endif
