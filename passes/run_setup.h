// passes/run_setup.h: what every runner (budget_run.c, memory_run.c, dispatch_run.c) does
// first with its options, once: the files it writes checked (json=, sarif=, and svg= of
// the Budget: never the model, never twice), the `metrale.*` attribute names of the
// module checked, then, in this order, the target (the option's, the module's DLTI spec,
// else host-cpu), planner=, plan-effort= and plan-seconds=, params=, states=,
// dynamic-size= and the limits of the pass's report family (options and metrale.limits);
// each only when the pass has that option (metrale/options.def). The first that fails is
// an error at the module and the run stops. One order for the three passes: a run given
// two bad options names the same one whichever pass it is (the memory pass used to check
// its limits second and its plan limits last). A pass's own options (the memory model's
// sequences=, tokens=, rows=, util=) come after these.
#ifndef METRALE_PASSES_RUN_SETUP_H
#define METRALE_PASSES_RUN_SETUP_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/diag.h"
#include "ir/params.h"
#include "limit_check.h"
#include "metrale/budget.h"
#include "metrale/target.h"
#include "runners.h"

typedef struct met_run_setup_t {
  MlirLocation loc;            // the module's
  met_target_t dlti_target;    // holds a target built from the module's DLTI spec
  const met_target_t *target;
  met_param_spec_t params, states;  // states: none unless the pass has states=
  uint64_t dynamic_size;       // 0: not given
  met_budget_options_t bopt;   // the planner (best unless planner=) and the plan's limits
  met_limits_t *limits;        // of the pass's family (malloc'd)
} met_run_setup_t;

// |pass|: MET_PASS_BUDGET, _MEMORY or _DISPATCH. The status after an error (emitted at
// the module; nothing to release); else met_run_setup_release frees |s|.
met_status_t met_run_setup(MlirOperation module, const met_run_options_t *o, unsigned pass,
                           met_diag_fn_t diag, void *user, met_run_setup_t *s);
void met_run_setup_release(met_run_setup_t *s);

#endif
