// run_setup.c: the runners' one start-up (run_setup.h).
#include "run_setup.h"

#include <stdlib.h>
#include <string.h>

#include "ir/dlti.h"
#include "report/output.h"

static bool has(unsigned pass, int opt) { return (met_options()[opt].passes & pass) != 0; }

met_status_t met_run_setup(MlirOperation module, const met_run_options_t *o, unsigned pass,
                           met_diag_fn_t diag, void *user, met_run_setup_t *s) {
  memset(s, 0, sizeof(*s));
  s->loc = met_diag_module_loc(module);
  s->bopt.strategy = MET_PLAN_BEST;
  // Every file it writes is checked before any work (not the model, not twice).
  const char *out_flags[4] = {"json=", "sarif="};
  MlirStringRef outs[4] = {o->json, o->sarif};
  size_t nouts = 2;
  if (has(pass, MET_OPT_svg)) { out_flags[nouts] = "svg="; outs[nouts++] = o->svg; }
  if (has(pass, MET_OPT_trace)) { out_flags[nouts] = "trace="; outs[nouts++] = o->trace; }
  MET_RETURN_IF_ERROR(met_output_check_module(module, out_flags, outs, nouts, diag, user));
  MET_RETURN_IF_ERROR(met_diag_check_attr_names(module, diag, user));
  MET_RETURN_IF_ERROR(
      met_dlti_resolve_target(module, o->target, &s->dlti_target, &s->target, diag, user));
  met_limit_family_t family = pass == MET_PASS_MEMORY     ? MET_LIMIT_MEMORY
                              : pass == MET_PASS_DISPATCH ? MET_LIMIT_DISPATCH
                                                          : MET_LIMIT_BUDGET;
  if (has(pass, MET_OPT_planner))
    MET_RETURN_IF_ERROR(
        met_diag_option_planner(s->loc, o->planner, &s->bopt.strategy, diag, user));
  MET_RETURN_IF_ERROR(met_diag_option_plan_limits(s->loc, o->plan_effort, o->plan_seconds,
                                                  &s->bopt.plan_limits, diag, user));
  MET_RETURN_IF_ERROR(met_diag_option_spec(module, "params", o->params, &s->params, diag, user));
  if (has(pass, MET_OPT_states))
    MET_RETURN_IF_ERROR(met_diag_option_spec(module, "states", o->states, &s->states, diag, user));
  MET_RETURN_IF_ERROR(met_diag_option_num(s->loc, MET_OPT_dynamic_size, o->dynamic_size, 0,
                                          &s->dynamic_size, diag, user));
  s->limits = malloc(sizeof(*s->limits));
  if (!s->limits) {
    met_diag_emit(diag, user, s->loc, MET_DIAG_ERROR, "out of memory");
    return MET_ENOMEM;
  }
  met_status_t st = met_limits_gather(module, o->limits, o->limit_list, family, s->limits,
                                      diag, user);
  if (st) met_run_setup_release(s);
  return st;
}

void met_run_setup_release(met_run_setup_t *s) {
  free(s->limits);
  s->limits = NULL;
}
