// tools/cmd_run.c: `metrale run MODEL`: each public function's prediction on a target
// (mlir-cpu by default) beside a measured run on this CPU (tools/run/: lowering with
// upstream MLIR, the JIT, the hooks that count), field by field, as a table or JSON.
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ir/ir.h"
#include "metrale/budget.h"
#include "metrale/dispatch.h"
#include "metrale/parse.h"
#include "runners.h"
#include "metrale/report.h"
#include "metrale/target.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/IR.h"
#include "run/exec_run.h"
#include "cli.h"

// Each public function: the prediction (met_dispatch_run, on the original module) and a
// measured run (tools/run/exec_run.c, on a clone), side by side.

// --timeout S bounds the whole command: reading the model, the prediction (on mlir-cpu
// upstream MLIR's pipeline runs in this process), each function's lowering and JIT, and
// its invocations. Passes in this process cannot be interrupted, so a watchdog thread
// ends the process when the time is up: a message naming what was running, then exit
// status 124 (as timeout(1) has it). The invocations' child process dies with it
// (PR_SET_PDEATHSIG, tools/run/exec_run.c).
typedef struct watchdog_t {
  struct timespec deadline;     // CLOCK_MONOTONIC
  unsigned limit_s;
  _Atomic(const char *) phase;  // what the command is doing, for the message
  char what[300];               // the phase's text when it names a function
} watchdog_t;

static void *watchdog_main(void *user) {
  watchdog_t *w = user;
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &w->deadline, NULL) == EINTR) {}
  fprintf(stderr, "metrale run: did not finish within %u s (--timeout): stopped while %s\n",
          w->limit_s, atomic_load(&w->phase));
  fflush(stderr);
  _exit(124);
  return NULL;
}

// Seconds left before the watchdog's deadline, at least 1.
static unsigned watchdog_left(const watchdog_t *w) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  long long left = (long long)(w->deadline.tv_sec - now.tv_sec);
  return left < 1 ? 1u : (unsigned)left;
}

typedef struct run_cli_t {
  watchdog_t *watchdog;       // NULL without --timeout
  MlirContext ctx;
  MlirModule m;
  const char *function;       // NULL: every public function
  const char *target;
  met_exec_options_t eo;
  met_strbuf_t text, json;
  size_t done, failed;
  met_strbuf_t trace;         // --trace: the prediction's track and the run's, per function
  met_trace_t tr;             // (tr.sb NULL until the first function is traced)
  bool tracing;               // --trace was given
} run_cli_t;


// The measured stats of one run, by the definitions of metrale/dispatch.h on this CPU:
// the host is the device (readback = the results, one sync per invocation); latency is
// the median of the warm runs (the first when there is one run); kernel launches are the
// markers' count per invocation; resident rows and handles are counted in the lowered
// program the run executes (the buffers its kernels bind).
static void measured_stats(const met_exec_result_t *r, met_dispatch_stats_t *m) {
  memset(m, 0, sizeof(*m));
  m->input_bytes = r->input_bytes;
  m->output_bytes = r->output_bytes;
  m->readback_bytes = r->output_bytes;
  m->bytes_moved = r->input_bytes + r->output_bytes;
  m->device_allocation_bytes = r->alloc_bytes;
  m->device_allocation_events = r->alloc_events;
  m->device_allocation_peak_bytes = r->live_high_water_bytes;
  m->latency_ns = r->runs > 1 ? r->median_ns : r->first_ns;
  m->output_buffers = r->output_buffers;
  m->resident_resource_rows = r->resident_rows;
  m->resident_resource_handles = r->resident_handles;
  uint64_t launches = 0;
  for (size_t k = 0; k < r->n_kernels; ++k) launches += r->kernels[k].launches;
  m->kernel_launches = r->runs ? launches / r->runs : 0;
  m->sync_points = r->runs ? 1 : 0;
  m->recovered_after_device_loss = r->recovered_after_device_loss;
  (void)met_dispatch_rates(m, NULL);
}

// What `metrale run` reports of a run beside the dispatch stats (run/run_fields.def).
typedef struct met_run_summary_t {
#define MET_RUN_FIELD(f, meaning) uint64_t f;
#define MET_RUN_BUDGET(f)
#define MET_RUN_KERNEL_TEXT(f)
#define MET_RUN_KERNEL_FIELD(f)
#include "run/run_fields.def"
#undef MET_RUN_FIELD
#undef MET_RUN_BUDGET
#undef MET_RUN_KERNEL_TEXT
#undef MET_RUN_KERNEL_FIELD
} met_run_summary_t;

static met_run_summary_t run_summary(const met_exec_result_t *r) {
  met_run_summary_t s;
  memset(&s, 0, sizeof(s));
  s.runs = r->runs;
  s.jit_ns = r->jit_ns;
  s.lower_ns = r->lower_ns;
  s.latency_ns_first = r->first_ns;
  s.latency_ns_min = r->min_ns;
  s.latency_ns_median = r->median_ns;
  s.live_high_water_bytes = r->live_high_water_bytes;
  s.bufferized_allocations = r->static_allocs;
  s.bufferized_copies = r->copies;
  s.synthetic_constants = r->synthetic_constants;
  return s;
}

static bool observed(const met_dispatch_field_t *f) {
  (void)f;
  return true;  // every field is measured (or counted in the program that runs)
}

// The table of one run: each field predicted and measured, their ratio, and what the run
// adds (live high water, latency, the bufferized IR's allocations and copies).
static void text_table(met_strbuf_t *t, const run_cli_t *r, const char *name, bool complete,
                       const met_exec_options_t *eo, const met_exec_result_t *res,
                       const met_dispatch_stats_t *pred, const met_dispatch_stats_t *meas,
                       const met_budget_t *budget) {
  size_t n;
  const met_dispatch_field_t *f = met_dispatch_fields(&n);
  met_strbuf_printf(t, "%s@%s: predicted on %s%s, measured on this CPU (%u run%s, -O%d, %s inputs)\n",
                    r->done > 1 ? "\n" : "", name, r->target, complete ? "" : " (a lower bound)",
                    res->runs, res->runs == 1 ? "" : "s", eo->opt_level,
                    eo->inputs == MET_EXEC_INPUTS_RANDOM ? "random" : "zero");
  met_strbuf_printf(t, "  %-36s %15s %15s %9s\n", "field", "predicted", "measured", "ratio");
  for (size_t k = 0; k < n; ++k) {
    uint64_t p = met_dispatch_field_u64(pred, &f[k]), m = met_dispatch_field_u64(meas, &f[k]);
    if (f[k].kind == MET_DFIELD_BOOL) {
      met_strbuf_printf(t, "  %-36s %15s %15s\n", f[k].name, p ? "true" : "false", m ? "true" : "false");
    } else if (!observed(&f[k])) {
      met_strbuf_printf(t, "  %-36s %15" PRIu64 " %15s %9s\n", f[k].name, p, "-", "-");
    } else if (!p) {
      met_strbuf_printf(t, "  %-36s %15" PRIu64 " %15" PRIu64 " %9s\n", f[k].name, p, m, m ? "-" : "1.000");
    } else {
      met_strbuf_printf(t, "  %-36s %15" PRIu64 " %15" PRIu64 " %9.3f\n", f[k].name, p, m,
                        (double)m / (double)p);
    }
  }
  met_strbuf_printf(t, "  live high water %" PRIu64 " B measured; predicted %s %" PRIu64
                    ", %s %" PRIu64 "\n", res->live_high_water_bytes,
                    MET_BUDGET_FIELD_NAME(peak_live_bytes), budget->peak_live_bytes,
                    MET_BUDGET_FIELD_NAME(arena_bytes), budget->arena_bytes);
  met_strbuf_printf(t, "  latency first %.3f ms, min %.3f ms, median %.3f ms; lowering %.3f s, JIT %.3f s\n",
                    res->first_ns / 1e6, res->min_ns / 1e6, res->median_ns / 1e6, res->lower_ns / 1e9,
                    res->jit_ns / 1e9);
  met_strbuf_printf(t, "  bufferized IR: %" PRIu64 " allocations, %" PRIu64 " copies; %zu kernels%s\n",
                    res->static_allocs, res->copies, res->n_kernels,
                    res->recovered_after_device_loss ? "; recovered after the injected device loss" : "");
}

// One function's JSON record after its name (the keys): predicted and measured
// fields, the run's summary and its kernels.
static void json_record(met_strbuf_t *j, bool complete, const met_dispatch_stats_t *pred,
                        const met_dispatch_stats_t *meas, const met_exec_result_t *res,
                        const met_budget_t *budget) {
  size_t n;
  const met_dispatch_field_t *f = met_dispatch_fields(&n);
  // JSON: the keys.
  MET_STRBUF_LIT(j, ", \"complete\": ");
  met_strbuf_cstr(j, complete ? "true" : "false");
  MET_STRBUF_LIT(j, ", \"predicted\": {");
  for (size_t k = 0; k < n; ++k) {
    met_strbuf_printf(j, "%s\"%s\": ", k ? ", " : "", f[k].name);
    uint64_t v = met_dispatch_field_u64(pred, &f[k]);
    if (f[k].kind == MET_DFIELD_BOOL) met_strbuf_cstr(j, v ? "true" : "false");
    else met_strbuf_u64(j, v);
  }
  MET_STRBUF_LIT(j, "}, \"measured\": {");
  for (size_t k = 0; k < n; ++k) {
    met_strbuf_printf(j, "%s\"%s\": ", k ? ", " : "", f[k].name);
    uint64_t v = met_dispatch_field_u64(meas, &f[k]);
    if (!observed(&f[k])) MET_STRBUF_LIT(j, "null");
    else if (f[k].kind == MET_DFIELD_BOOL) met_strbuf_cstr(j, v ? "true" : "false");
    else met_strbuf_u64(j, v);
  }
  met_run_summary_t sum = run_summary(res);
  MET_STRBUF_LIT(j, "}");
#define MET_RUN_FIELD(f, meaning) met_strbuf_printf(j, ", \"" #f "\": %" PRIu64, sum.f);
#define MET_RUN_BUDGET(f) \
  met_strbuf_printf(j, ", \"predicted_%s\": %" PRIu64, MET_BUDGET_FIELD_NAME(f), budget->f);
#define MET_RUN_KERNEL_TEXT(f)
#define MET_RUN_KERNEL_FIELD(f)
#include "run/run_fields.def"
#undef MET_RUN_FIELD
#undef MET_RUN_BUDGET
#undef MET_RUN_KERNEL_TEXT
#undef MET_RUN_KERNEL_FIELD
  MET_STRBUF_LIT(j, ", \"kernels\": [");
  for (size_t k = 0; k < res->n_kernels; ++k) {
    const met_exec_kernel_t *kk = &res->kernels[k];
    bool first = true;
    MET_STRBUF_LIT(j, "{");
#define MET_RUN_FIELD(f, meaning)
#define MET_RUN_BUDGET(f)
#define MET_RUN_KERNEL_TEXT(f)                              \
    met_strbuf_cstr(j, first ? "\"" #f "\": " : ", \"" #f "\": "); \
    met_strbuf_json_string(j, kk->f);                        \
    first = false;
#define MET_RUN_KERNEL_FIELD(f)                                          \
    met_strbuf_printf(j, "%s\"" #f "\": %" PRIu64, first ? "" : ", ", kk->f); \
    first = false;
#include "run/run_fields.def"
#undef MET_RUN_FIELD
#undef MET_RUN_BUDGET
#undef MET_RUN_KERNEL_TEXT
#undef MET_RUN_KERNEL_FIELD
    MET_STRBUF_LIT(j, "}");
    if (k + 1 < res->n_kernels) MET_STRBUF_LIT(j, ", ");
  }
}

static void run_one(void *user, const met_target_t *target, MlirOperation func,
                    const char *name,
                    const met_dispatch_stats_t *pred, const met_budget_t *budget, bool complete,
                    const uint8_t *resident, size_t nargs, const char *error,
                    const met_dispatch_result_t *result) {
  run_cli_t *r = user;
  if (error) return;  // the prediction failed: its error is reported already
  MlirStringRef sn = met_ir_sym_name(func);
  if (!sn.data) return;
  char fname[256];
  snprintf(fname, sizeof(fname), "%.*s", (int)sn.length, sn.data);
  if (r->function ? strcmp(fname, r->function) != 0 : !met_ir_func_is_public(func)) return;
  bool top = mlirOperationEqual(mlirOperationGetParentOperation(func),
                                mlirModuleGetOperation(r->m));
  met_exec_options_t eo = r->eo;
  if (r->watchdog) {
    snprintf(r->watchdog->what, sizeof r->watchdog->what,
             "lowering, compiling or running @%s", fname);
    atomic_store(&r->watchdog->phase, (const char *)r->watchdog->what);
    // The watchdog alone ends a command that runs out of time: the invocations' own limit
    // lies a day past its deadline. Two limits at one instant raced, and which message came
    // (the watchdog's or "the invocation did not finish") depended on the machine's load.
    eo.timeout_s = watchdog_left(r->watchdog) + 86400u;
  }
  eo.resident = resident;
  eo.n_resident = nargs;
  eo.predicted_peak_bytes = pred->device_allocation_peak_bytes;
  met_exec_result_t res;
  met_status_t rc;
  if (top) {
    rc = met_exec_run_function(r->ctx, r->m, fname, &eo, &res);
  } else {
    memset(&res, 0, sizeof(res));
    met_error_init(&res.error);
    rc = met_error_set(&res.error, MET_EUNSUPPORTED,
                       "@%s is in a nested module: only the top module's functions run", name);
  }
  const char *why = met_error_message(&res.error);
  met_strbuf_t *t = &r->text, *j = &r->json;
  met_strbuf_cstr(j, r->done ? ",\n  {\"name\": " : "\n  {\"name\": ");
  met_strbuf_json_string(j, name);
  ++r->done;
  if (rc) {
    ++r->failed;
    cli_print_diag(mlirOperationGetLocation(func), "error", why);
    met_strbuf_printf(t, "%s@%s: not run: %s\n", r->done > 1 ? "\n" : "", name, why);
    MET_STRBUF_LIT(j, ", \"error\": ");
    met_strbuf_json_string(j, why);
    MET_STRBUF_LIT(j, "}");
    // Not run: its prediction's track alone (its measured track stays empty).
    if (r->tracing)
      cli_run_trace(&r->tr, &r->trace, &r->eo, (unsigned)r->done, target, name, result, &res);
    met_exec_result_free(&res);
    return;
  }
  if (res.synthetic_constants)
    fprintf(stderr, "%s: warning: %" PRIu64 " constant(s) of @%s hold elided data "
            "(dense_resource<__elided__>): the run fills them with %s (--inputs), so their "
            "values and the results are synthetic; counts, bytes and times are not\n",
            res.synthetic_loc, res.synthetic_constants, name,
            eo.inputs == MET_EXEC_INPUTS_RANDOM ? "random values" : "zeros");
  met_dispatch_stats_t meas;
  measured_stats(&res, &meas);
  text_table(t, r, name, complete, &eo, &res, pred, &meas, budget);
  json_record(j, complete, pred, &meas, &res, budget);
  MET_STRBUF_LIT(j, "]");  // the kernels
  cli_run_per_dispatch(j, t, result, &res);
  if (r->tracing)
    cli_run_trace(&r->tr, &r->trace, &r->eo, (unsigned)r->done, target, name, result, &res);
  MET_STRBUF_LIT(j, "}");
  met_exec_result_free(&res);
}

// The --timeout watchdog, started: a detached thread that ends the command at
// |limit_s| seconds from now, saying in which phase, in |*out|. MET_OK, or the status with
// |err| saying why it cannot.
static met_status_t start_watchdog(unsigned limit_s, watchdog_t **out, met_error_t *err) {
  // Lives as long as its thread, until the process ends: never freed.
  watchdog_t *wd = calloc(1, sizeof *wd);
  pthread_t th;
  pthread_attr_t at;
  if (!wd) return met_error_set(err, MET_ENOMEM, "out of memory");
  clock_gettime(CLOCK_MONOTONIC, &wd->deadline);
  wd->deadline.tv_sec += (time_t)limit_s;
  wd->limit_s = limit_s;
  atomic_store(&wd->phase, "reading the model");
  if (pthread_attr_init(&at) || pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED) ||
      pthread_create(&th, &at, watchdog_main, wd)) {
    free(wd);
    return met_error_set(err, MET_EEXTERNAL, "cannot start the --timeout watchdog");
  }
  pthread_attr_destroy(&at);
  *out = wd;
  return MET_OK;
}

// The command's output: the JSON document (to |json|, '-' standard output) and, unless
// that took standard output, the text. MET_OK, or the status with |err| saying why the
// JSON cannot be written to its file (standard output's failure is said at the end).
static met_status_t write_output(const run_cli_t *r, const char *json, met_error_t *err) {
  met_status_t st = MET_OK;
  met_strbuf_t doc;
  met_strbuf_initialize(met_allocator_system(), &doc);
  // The target as `metrale targets --json` and the dispatch JSON show it.
  const met_target_t *tt = NULL;
  MET_STRBUF_LIT(&doc, "{\"target\": ");
  if (met_target_find(r->target, strlen(r->target), &tt) == MET_OK) met_report_json_target(&doc, tt);
  else met_strbuf_json_string(&doc, r->target);
  MET_STRBUF_LIT(&doc, ", \"functions\": [");
  met_strbuf_append(&doc, r->json.data ? r->json.data : "", r->json.len);
  MET_STRBUF_LIT(&doc, "]}\n");
  if (json && cli_write_output(json, NULL, &doc, err) && strcmp(json, "-")) st = err->code;
  if ((!json || strcmp(json, "-")) && r->text.len) fwrite(r->text.data, 1, r->text.len, stdout);
  met_strbuf_deinitialize(&doc);
  return st;
}

// The flags of `metrale run` that are not the options of the dispatch stats.
typedef struct run_flags_t {
  const char *json, *runs, *timeout, *opt, *inputs, *trace;
} run_flags_t;

// argv into |r|, |o| and |f|, every value checked before the model is read. MET_OK, or the
// status with |err| saying what is bad usage, |*prefix| the words before it ("metrale run"
// for what only this command refuses) and |*synopsis| whether the synopsis helps.
static met_status_t run_args(int argc, char **argv, run_cli_t *r, cli_opts_t *o,
                             run_flags_t *f, const char **prefix, bool *synopsis,
                             met_error_t *err) {
  const char **params = &o->text[MET_OPT_params], **states = &o->text[MET_OPT_states];
  bool operands = false;  // after "--": the model, whatever it is named
  *prefix = "metrale";
  *synopsis = false;
  struct { const char *flag; const char **out; } takes[] = {
      {"--function", &r->function}, {"--target", &r->target}, {"--json", &f->json},
      {"--params", params}, {"--states", states}, {"--runs", &f->runs},
      {"--timeout", &f->timeout}, {"--opt", &f->opt}, {"--inputs", &f->inputs},
      {"--dump-bufferized", &r->eo.dump_bufferized}, {"--trace", &f->trace}};
  for (int i = 0; i < argc && err->code == MET_OK; ++i) {
    if (!operands && !strcmp(argv[i], "--")) { operands = true; continue; }
    bool taken = false;
    for (size_t k = 0; !operands && !taken && k < sizeof takes / sizeof *takes; ++k)
      taken = cli_take_nonempty(argc, argv, &i, takes[k].flag, takes[k].out, err);
    if (taken) continue;
    *prefix = "metrale run";
    if (operands || argv[i][0] != '-' || !argv[i][1]) {
      if (o->model) return met_error_set(err, MET_EINVAL, "one model at a time");
      o->model = argv[i];
    } else if (!strcmp(argv[i], "--inject-device-loss")) {
      r->eo.inject_device_loss = true;
    } else if (!strcmp(argv[i], "--allow-unregistered-dialect")) {
      o->unregistered = true;
    } else {
      *synopsis = true;
      return met_error_set(err, MET_EINVAL, "unknown option '%s'", argv[i]);
    }
    *prefix = "metrale";
  }
  if (err->code) return err->code;
  // A function is named with or without its '@'.
  if (r->function && r->function[0] == '@') r->function++;
  static const struct { const char *flag; uint64_t lo, hi; } nums[] = {
      {"--runs", 1, 1000000}, {"--timeout", 1, 86400}, {"--opt", 0, 3}};
  const char *num_text[] = {f->runs, f->timeout, f->opt};
  uint64_t num[3] = {r->eo.runs, r->eo.timeout_s, (uint64_t)r->eo.opt_level};
  for (size_t k = 0; k < 3; ++k)
    if (num_text[k])
      MET_RETURN_IF_ERROR(met_parse_option_u64(nums[k].flag, num_text[k], strlen(num_text[k]),
                                               nums[k].lo, nums[k].hi, &num[k], err));
  r->eo.runs = (unsigned)num[0];
  r->eo.timeout_s = (unsigned)num[1];
  r->eo.opt_level = (int)num[2];
  if (f->inputs && !strcmp(f->inputs, "zeros")) r->eo.inputs = MET_EXEC_INPUTS_ZEROS;
  else if (f->inputs && !strcmp(f->inputs, "random")) r->eo.inputs = MET_EXEC_INPUTS_RANDOM;
  else if (f->inputs)
    return met_error_set(err, MET_EINVAL, "--inputs is zeros or random, not '%s'", f->inputs);
  if (!r->target) r->target = "mlir-cpu";
  const met_target_t *known;
  *prefix = "metrale run";
  if (met_target_find(r->target, strlen(r->target), &known) != MET_OK)
    return met_error_set(err, MET_ENOTFOUND, "unknown target '%s' (metrale targets lists them)",
                         r->target);
  *prefix = "metrale";
  MET_RETURN_IF_ERROR(cli_check_values(o, MET_PASS_DISPATCH, err));
  *prefix = "metrale run";
  if (!o->model) {
    *synopsis = true;
    return met_error_set(err, MET_EINVAL, "no model given");
  }
  // The files it writes are checked now, not after the whole run: not the model, not one
  // file twice, in a directory that exists.
  const char *out_flags[] = {"--json", "--dump-bufferized", "--trace"};
  const char *out_paths[] = {f->json, r->eo.dump_bufferized, f->trace};
  if (f->json && f->trace && !strcmp(f->json, "-") && !strcmp(f->trace, "-"))
    return met_error_set(err, MET_EINVAL, "--json - and --trace - both write to standard "
                         "output; give one a file");
  const char *model[] = {o->model};
  o->models = model;
  o->nmodels = 1;
  met_status_t st = cli_check_outputs(o, out_flags, out_paths, 3, err);
  o->models = NULL;
  o->nmodels = 0;
  return st;
}

int cmd_run(int argc, char **argv) {
  run_cli_t r;
  memset(&r, 0, sizeof(r));
  met_exec_options_default(&r.eo);
  cli_opts_t o;
  memset(&o, 0, sizeof(o));
  run_flags_t f = {NULL, NULL, NULL, NULL, NULL, NULL};
  const char *prefix;
  bool synopsis;
  met_error_t err;
  met_error_init(&err);
  if (run_args(argc, argv, &r, &o, &f, &prefix, &synopsis, &err)) {
    cli_say(prefix, &err);
    if (synopsis) cli_print_synopsis(stderr, "run");
    return 2;
  }
  const char *json = f.json, *timeout = f.timeout;
  const char **params = &o.text[MET_OPT_params], **states = &o.text[MET_OPT_states];
  if (timeout && start_watchdog(r.eo.timeout_s, &r.watchdog, &err)) {
    cli_say("metrale run", &err);
    return 1;
  }
  MlirModule m = cli_load(&o, &r.ctx);
  if (mlirModuleIsNull(m)) return 1;
  r.m = m;
  met_strbuf_initialize(met_allocator_system(), &r.text);
  met_strbuf_initialize(met_allocator_system(), &r.json);
  met_strbuf_initialize(met_allocator_system(), &r.trace);
  r.tracing = f.trace != NULL;
  met_dispatch_run_options_t dop;
  memset(&dop, 0, sizeof(dop));
  dop.run.target = ref(r.target);
  dop.run.params = ref(*params ? *params : "");
  dop.run.states = ref(*states ? *states : "");
  dop.on_function = run_one;
  dop.on_function_user = &r;
  cli_diag_t d = {false};
  if (r.watchdog)
    atomic_store(&r.watchdog->phase, "predicting (the prediction lowers the model on mlir-cpu)");
  bool ok = met_dispatch_run(mlirModuleGetOperation(m), &dop, cli_on_diag, &d, NULL, NULL) ==
            MET_OK;
  if (!r.done && ok) {
    if (r.function)
      fprintf(stderr, "metrale run: no function @%s with a body in the module\n", r.function);
    else
      fprintf(stderr, "metrale run: no public function with a body to run\n");
    ok = false;
  }
  int rc = ok && !r.failed ? 0 : 1;
  if (write_output(&r, json, &err)) {
    cli_say("metrale", &err);
    rc = 1;
  }
  if (r.tracing) {  // the timeline, empty when nothing ran
    if (!r.tr.sb) met_trace_begin(&r.tr, &r.trace, "predicted and measured");
    met_trace_end(&r.tr);
    met_error_init(&err);
    if (cli_write_output(f.trace, NULL, &r.trace, &err) && strcmp(f.trace, "-")) rc = 1;
    cli_say("metrale", &err);
  }
  met_strbuf_deinitialize(&r.trace);
  met_strbuf_deinitialize(&r.text);
  met_strbuf_deinitialize(&r.json);
  mlirModuleDestroy(m);
  mlirContextDestroy(r.ctx);
  return cli_finish_stdout(rc);
}

