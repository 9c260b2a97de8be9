// tools/cmd_plan.c: `metrale plan MODEL --svg FILE`: the Budget's arena plan of one
// function as an SVG picture (lib/plan_svg.c draws it); `--buffers-out FILE.csv` the same
// function's allocation problem in MiniMalloc's CSV format (what `--buffers` reads).
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "runners.h"
#include "metrale/plan_svg.h"
#include "metrale/target.h"
#include "mlir-c/IR.h"
#include "cli.h"

typedef struct plan_cli_t {
  const char *want;          // --function, or NULL: the first function with a plan
  met_strbuf_t svg;
  met_strbuf_t csv;          // --buffers-out: id,lower,upper,size
  met_strbuf_t names;        // "@a, @b": every function with a plan (for a --function typo)
  size_t count;
  bool done;
  bool svg_wanted, csv_wanted;
} plan_cli_t;

// |t|: the target the Budget resolved (the option's, the module's DLTI one or host-cpu).
static void on_plan(void *user, const met_target_t *t, const char *name, const met_graph_t *g,
                    const met_budget_report_t *r) {
  plan_cli_t *p = user;
  if (p->count++ < 20) met_strbuf_printf(&p->names, "%s@%s", p->count > 1 ? ", " : "", name);
  else if (p->count == 21) MET_STRBUF_LIT(&p->names, ", ...");
  if (p->done || (p->want && strcmp(p->want, name))) return;
  p->done = true;
  if (p->svg_wanted) (void)met_plan_svg(&p->svg, name, t, g, r);
  if (!p->csv_wanted) return;
  // The rows `metrale plan --buffers` reads back: a value's slot "v<value id>", a node's
  // scratch "s<node index>", positions as the schedule's (upper exclusive).
  MET_STRBUF_LIT(&p->csv, "id,lower,upper,size\n");
  for (size_t k = 0; k < r->slot_count; ++k) {
    const met_slot_t *sl = &r->slots[k];
    bool scratch = sl->value == MET_SLOT_SCRATCH;
    met_strbuf_printf(&p->csv, "%c%" PRIu32 ",%" PRId32 ",%" PRId64 ",%" PRIu64 "\n",
                      scratch ? 's' : 'v', scratch ? (uint32_t)sl->node : sl->value, sl->first,
                      (int64_t)sl->last + 1, sl->bytes);
  }
}

// What the command line asks that plan cannot give: a report flag, no output or several
// models, an output that names the model, an unknown target. MET_OK, or the status with
// |err| saying which (bad usage) and |*synopsis| whether the synopsis helps.
static met_status_t plan_request_check(const cli_opts_t *o, const char *tname, bool *synopsis,
                                       met_error_t *err) {
  // The budget's report flags are parsed with the budget's options: plan writes none.
  const char *other = o->text[MET_OPT_json] ? "--json" : o->text[MET_OPT_sarif] ? "--sarif"
                    : o->csv ? "--csv" : NULL;
  *synopsis = true;
  if (other)
    return met_error_set(err, MET_EINVAL, "%s is not taken (plan draws the SVG; metrale budget "
                         "writes the reports)", other);
  if ((!o->svg && !o->buffers_out) || o->nmodels != 1)
    return met_error_set(err, MET_EINVAL, "one model and --svg FILE or --buffers-out FILE are "
                         "needed");
  *synopsis = false;
  const char *out_flags[2], *out_paths[2];
  size_t nout = 0;
  if (o->svg) { out_flags[nout] = "--svg"; out_paths[nout++] = o->svg; }
  if (o->buffers_out) { out_flags[nout] = "--buffers-out"; out_paths[nout++] = o->buffers_out; }
  MET_RETURN_IF_ERROR(cli_check_outputs(o, out_flags, out_paths, nout, err));
  const met_target_t *known;
  if (*tname && met_target_find(tname, strlen(tname), &known) != MET_OK)
    return met_error_set(err, MET_ENOTFOUND, "unknown target '%s' (metrale targets lists them)",
                         tname);
  return MET_OK;
}

int cmd_plan(int argc, char **argv) {
  if (cli_plan_wants_buffers(argc, argv)) return cmd_plan_buffers(argc, argv);
  cli_opts_t o;
  int rc = cli_parse_opts(argc, argv, MET_PASS_BUDGET, "plan", &o);
  if (rc) return rc;
  // No --target: the module's DLTI target, else host-cpu, as the Budget resolves it.
  const char *tname = o.text[MET_OPT_target] ? o.text[MET_OPT_target] : "";
  met_error_t err;
  met_error_init(&err);
  bool synopsis = false;
  if (cli_check_values(&o, MET_PASS_BUDGET, &err) ? cli_say("metrale", &err)
      : plan_request_check(&o, tname, &synopsis, &err) ? cli_say("metrale plan", &err)
                                                         : MET_OK) {
    if (synopsis) cli_print_synopsis(stderr, "plan");
    free(o.models);
    return 2;
  }
  plan_cli_t p;
  memset(&p, 0, sizeof(p));
  p.want = o.function;
  p.svg_wanted = o.svg != NULL;
  p.csv_wanted = o.buffers_out != NULL;
  MlirContext ctx;
  MlirModule m = cli_load(&o, &ctx);
  if (mlirModuleIsNull(m)) { free(o.models); return 1; }
  if (cli_has_something(m, MET_PASS_BUDGET, o.model, NULL, &err)) {
    cli_say("metrale plan", &err);
    mlirModuleDestroy(m);
    mlirContextDestroy(ctx);
    free(o.models);
    return 1;
  }
  met_strbuf_initialize(met_allocator_system(), &p.svg);
  met_strbuf_initialize(met_allocator_system(), &p.csv);
  met_strbuf_initialize(met_allocator_system(), &p.names);
  met_budget_run_options_t bo;
  memset(&bo, 0, sizeof(bo));
  // Every option the command took reaches the run, as in the other commands (limits too:
  // a breach is an error and exit status 1, the picture still drawn).
  for (int i = 0; i < MET_OPT_COUNT; ++i) {
    met_run_member_t mm = met_run_option_member(&bo.run, i);
    if (mm.text) *mm.text = ref(o.text[i] ? o.text[i] : "");
    if (mm.flag) *mm.flag = o.flag[i];
  }
  bo.run.target = ref(tname);
  bo.on_plan = on_plan;
  bo.on_plan_user = &p;
  bool ok = met_budget_run(mlirModuleGetOperation(m), &bo, cli_on_diag, &o.d, NULL, NULL) ==
            MET_OK;
  rc = ok ? 0 : 1;
  if (!p.done) {
    if (o.function && p.count)
      fprintf(stderr, "metrale plan: no evaluated function named '%s'; the functions with a "
                      "plan are %.*s\n", o.function, (int)p.names.len, p.names.data ? p.names.data : "");
    else
      fprintf(stderr, "metrale plan: %s\n", o.function ? "no evaluated function of that name"
                                                        : "no function was evaluated");
    rc = 1;
  } else {
    if (o.svg && cli_write_output(o.svg, NULL, &p.svg, &err)) rc = 1;
    cli_say("metrale", &err);
    met_error_init(&err);
    if (o.buffers_out && cli_write_output(o.buffers_out, NULL, &p.csv, &err)) rc = 1;
    cli_say("metrale", &err);
  }
  met_strbuf_deinitialize(&p.svg);
  met_strbuf_deinitialize(&p.csv);
  met_strbuf_deinitialize(&p.names);
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
  free(o.models);
  return cli_finish_stdout(rc);
}

