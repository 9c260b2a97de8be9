// metrale: the command for people (usage: `metrale --help`, README "The metrale command").
// This file: usage, options, diagnostics, `budget`, `memory`, `dispatch` and `targets`;
// tools/metrale_sweep.c: their runs per (model, target) and CSV rows; tools/metrale_exec.c:
// `plan` and `run`; tools/cli.h what they share.
// Parses the model with the MLIR C API and runs the same runners as the passes.
// Exit status: 0 done, 1 the model could not be read or evaluated, 2 bad usage.
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adapter/adapter.h"
#include "ir/attrs.h"
#include "report/sarif.h"
#include "ir/types.h"
#include "metrale/memory.h"
#include "metrale/options.h"
#include "metrale/parse.h"
#include "metrale/planner.h"
#include "metrale/plan_svg.h"
#include "metrale/passes.h"
#include "metrale/report.h"
#include "metrale/target.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"
#include "cli.h"

const char cli_usage[] =
    "usage: metrale budget MODEL.mlir... [--target NAME|all] [--csv FILE|-] [--json FILE|-]\n"
    "                      [--sarif FILE|-] [--params SPEC] [--dynamic-size N] [--planner NAME]\n"
    "                      [--remarks] [--allow-unregistered-dialect]\n"
    "       metrale memory MODEL.mlir... [--target NAME|all] [--csv FILE|-] [--json FILE|-]\n"
    "                      [--sarif FILE|-] [--svg FILE] [--util F] [--sequences N] [--tokens N]\n"
    "                      [--kv-pool layers=N,kv_heads=N,head_dim=N,block_size=N] [--kv-dtype T]\n"
    "                      [--params SPEC] [--states SPEC] [--dynamic-size N] [--warn-over-budget]\n"
    "                      [--rows N] [--remarks] [--allow-unregistered-dialect]\n"
    "       metrale dispatch MODEL.mlir... [--target NAME|all] [--csv FILE|-] [--json FILE|-]\n"
    "                      [--sarif FILE|-] [--per-dispatch] [--params SPEC] [--states SPEC]\n"
    "                      [--dynamic-size N] [--planner NAME] [--remarks]\n"
    "                      [--allow-unregistered-dialect]\n"
    "       metrale run MODEL.mlir [--function NAME] [--runs N] [--opt 0-3] [--inputs zeros|random]\n"
    "                      [--json FILE|-] [--inject-device-loss] [--target NAME] [--timeout S]\n"
    "                      [--params SPEC] [--states SPEC]\n"
    "       metrale plan MODEL.mlir --svg FILE|- [--target NAME] [--function NAME] [--params SPEC]\n"
    "                      [--dynamic-size N] [--planner NAME]\n"
    "       metrale targets [--json]\n"
    "\n"
    "budget   the Budget of one run of every function on a target, as a table\n"
    "memory   does the whole model fit the target's memory, what takes the room, and how\n"
    "         many sequences fit (--sequences/--tokens size the KV pool)\n"
    "dispatch what one invocation of every function moves, allocates, launches and waits on,\n"
    "         predicted for the target (--per-dispatch: the roofline of each dispatch)\n"
    "run      lower each public function with upstream MLIR, JIT-compile and run it on this\n"
    "         CPU, and print the measured dispatch stats beside the prediction (mlir-cpu\n"
    "         unless --target says otherwise), with the ratio per field\n"
    "plan     the Budget's arena plan of one function as an SVG picture\n"
    "targets  the built-in targets with every parameter\n"
    "\n"
    "--remarks also prints the remarks; --allow-unregistered-dialect parses unknown ops.\n"
    "Several models and --target all make a sweep: a table per (model, target), --csv writes one\n"
    "row per (model, function, target) with every field (a model that fails is a row with its\n"
    "error; the others still run; exit status 1 when any failed), with a progress line on a terminal.\n"
    "A diagnostic a model gives on every target (same op, same words, as often) is printed once,\n"
    "before the targets' own output; the rest is printed under the target that gave it.\n";

// A location without a file part is printed as MLIR writes it, cut at 160 characters
// (a call-site or fused nest can print as megabytes).
typedef struct loc_sink_t { char buf[161]; size_t len; bool cut; } loc_sink_t;
static void print_loc_part(MlirStringRef s, void *user) {
  loc_sink_t *k = user;
  size_t room = sizeof(k->buf) - 1 - k->len, take = s.length < room ? s.length : room;
  if (take) memcpy(k->buf + k->len, s.data, take);
  k->len += take;
  k->buf[k->len] = '\0';
  k->cut |= take < s.length;
}

static const char *sev_name(met_diag_severity_t s) {
  switch (s) {
    case MET_DIAG_ERROR: return "error";
    case MET_DIAG_WARNING: return "warning";
    case MET_DIAG_REMARK: return "remark";
    default: return "note";
  }
}

// Prints "file:line:col: severity: message" like the compiler does.
void cli_print_diag(MlirLocation loc, const char *sev, const char *msg) {
  met_arena_t arena;
  met_arena_initialize(met_allocator_system(), &arena);
  const char *where = met_adapter_loc_string(&arena, loc);
  if (where) {
    fputs(where, stderr);
  } else {
    loc_sink_t k = {{0}, 0, false};
    mlirLocationPrint(loc, print_loc_part, &k);
    fprintf(stderr, "%s%s", k.buf, k.cut ? "..." : "");
  }
  fprintf(stderr, ": %s: %s\n", sev, msg);
  met_arena_deinitialize(&arena);
}

void cli_on_diag(void *user, MlirLocation loc, met_diag_severity_t sev, const char *msg) {
  cli_diag_t *d = user;
  if (sev == MET_DIAG_REMARK && !d->remarks) return;
  cli_print_diag(loc, sev_name(sev), msg);
}

typedef struct msg_sink_t { char buf[2048]; size_t len; } msg_sink_t;
static void collect(MlirStringRef s, void *user) {
  msg_sink_t *m = user;
  size_t room = sizeof(m->buf) - 1 - m->len;
  size_t take = s.length < room ? s.length : room;
  if (take) memcpy(m->buf + m->len, s.data, take);
  m->len += take;
  m->buf[m->len] = '\0';
}

// The parser's own diagnostics (syntax errors, verifier failures).
static MlirLogicalResult on_mlir_diag(MlirDiagnostic d, void *user) {
  (void)user;
  msg_sink_t m = {{0}, 0};
  mlirDiagnosticPrint(d, collect, &m);
  const char *sev = "error";
  switch (mlirDiagnosticGetSeverity(d)) {
    case MlirDiagnosticWarning: sev = "warning"; break;
    case MlirDiagnosticNote: sev = "note"; break;
    case MlirDiagnosticRemark: sev = "remark"; break;
    default: break;
  }
  cli_print_diag(mlirDiagnosticGetLocation(d), sev, m.buf);
  for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(d); ++i) on_mlir_diag(mlirDiagnosticGetNote(d, i), user);
  return mlirLogicalResultSuccess();
}

// Standard output may be a full disk or a closed pipe: a report that was not written is
// a failure (exit status 1), not a success.
int cli_finish_stdout(int rc) {
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "metrale: cannot write to standard output\n");
    return rc ? rc : 1;
  }
  return rc;
}

static int cmd_targets(int argc, char **argv) {
  bool json = false;
  for (int i = 0; i < argc; ++i) {
    if (!strcmp(argv[i], "--json")) json = true;
    else { fprintf(stderr, "metrale targets: unknown option '%s'\n%s", argv[i], cli_usage); return 2; }
  }
  met_strbuf_t sb;
  met_strbuf_initialize(met_allocator_system(), &sb);
  if (json) MET_STRBUF_LIT(&sb, "[");
  for (size_t i = 0; i < met_target_builtin_count(); ++i) {
    const met_target_t *t = met_target_builtin(i);
    if (json) {
      met_strbuf_append(&sb, i ? ",\n " : "", i ? 3 : 0);
      met_report_json_target(&sb, t);
      continue;
    }
    met_strbuf_printf(&sb, "%s%s: %s\n", i ? "\n" : "", t->name, t->description);
    met_strbuf_printf(&sb, "  width_policy           %s\n", met_width_policy_name(t->width_policy));
    met_strbuf_printf(&sb, "  alignment              %" PRIu64 " B\n", t->alignment);
    met_strbuf_printf(&sb, "  index_bits             %u\n", t->index_bits);
    met_strbuf_printf(&sb, "  fusion                 %s\n", met_fusion_model_name(t->fusion));
    met_strbuf_printf(&sb, "  epilogue_fusion        %s\n", t->epilogue_fusion ? "yes" : "no");
    met_strbuf_printf(&sb, "  memory_bytes           ");
    met_report_bytes(&sb, t->memory_bytes);
    met_strbuf_printf(&sb, "\n  bandwidth_bytes_per_s  %.0f GB/s\n",
                      (double)t->bandwidth_bytes_per_s / 1e9);
    met_strbuf_printf(&sb, "  compute_units          %u\n", t->compute_units);
    met_strbuf_printf(&sb, "  default util           %.2f\n", t->default_util_ppm / 1e6);
    met_strbuf_printf(&sb, "  driver                 context ");
    met_report_bytes(&sb, t->driver.context_bytes);
    met_strbuf_printf(&sb, ", reserved %.1f%%, chunk ", t->driver.reserved_ppm / 1e4);
    met_report_bytes(&sb, t->driver.chunk_bytes);
    met_strbuf_printf(&sb, "\n  workspace              matmul ");
    met_report_bytes(&sb, t->workspace.matmul_per_unit_bytes);
    met_strbuf_printf(&sb, "/unit, conv %s, softmax ",
                      t->workspace.conv_stages_operand ? "stages its largest operand" : "none");
    met_report_bytes(&sb, t->workspace.softmax_per_unit_bytes);
    met_strbuf_printf(&sb, "/unit, reduction ");
    met_report_bytes(&sb, t->workspace.reduction_per_unit_bytes);
    met_strbuf_printf(&sb, "/unit\n  hoists parameters      %s\n  residency              %s\n"
                      "  fast_path             ",
                      t->hoists_parameters ? "yes (load time)" : "no",
                      met_residency_name(t->residency));
    for (const char *const *p = t->fast_path; *p; ++p) met_strbuf_printf(&sb, " %s", *p);
    const met_dispatch_params_t *d = &t->dispatch;
    met_strbuf_printf(&sb, "\n  execution_model        %s\n  allocation_model       %s%s\n",
                      met_exec_model_name(d->execution_model),
                      met_alloc_model_name(d->allocation_model),
                      d->results_in_place ? ", results in place" : "");
    if (d->offload)
      met_strbuf_printf(&sb, "  host link              %.1f GB/s (offloading: host round trips)\n",
                        (double)d->host_link_bytes_per_s / 1e9);
    else
      met_strbuf_printf(&sb, "  host link              none (the device is the host)\n");
    met_strbuf_printf(&sb, "  launch floor           %" PRIu64 " ns\n", d->launch_floor_ns);
    met_strbuf_printf(&sb, "  peak                   %.1f TFLOPS f32, %.1f f16, %.1f TOPS int\n",
                      (double)d->peak_flops_f32 / 1e12, (double)d->peak_flops_f16 / 1e12,
                      (double)d->peak_flops_int / 1e12);
    if (d->control_bytes_per_buffer)
      met_strbuf_printf(&sb, "  control bytes          %u per buffer\n", d->control_bytes_per_buffer);
    else
      met_strbuf_printf(&sb, "  control bytes          memref descriptor, (3 + 2 x rank) x 8 per buffer\n");
    if (d->allocation_padding_bytes)
      met_strbuf_printf(&sb, "  allocation padding     %u B per allocation\n",
                        d->allocation_padding_bytes);
  }
  if (json) MET_STRBUF_LIT(&sb, "]\n");
  int rc = sb.status ? 1 : 0;
  if (!rc) fwrite(sb.data, 1, sb.len, stdout);
  met_strbuf_deinitialize(&sb);
  return cli_finish_stdout(rc);
}

static bool take_value(int argc, char **argv, int *i, const char *flag, const char **out) {
  size_t n = strlen(flag);
  if (!strncmp(argv[*i], flag, n) && argv[*i][n] == '=') { *out = argv[*i] + n + 1; return true; }
  if (strcmp(argv[*i], flag)) return false;
  if (*i + 1 >= argc) { fprintf(stderr, "metrale: %s needs a value\n", flag); exit(2); }
  *out = argv[++*i];
  return true;
}

// take_value, refusing an empty value ("--json ''" would otherwise write nothing).
bool cli_take_nonempty(int argc, char **argv, int *i, const char *flag, const char **out) {
  const char *v;
  if (!take_value(argc, argv, i, flag, &v)) return false;
  if (!*v) { fprintf(stderr, "metrale: %s needs a value, not an empty one\n", flag); exit(2); }
  // Given twice, one of the two would be dropped without a word, unchecked.
  if (*out) { fprintf(stderr, "metrale: %s is given twice ('%s', '%s')\n", flag, *out, v); exit(2); }
  *out = v;
  return true;
}


// The usage text, then every option of metrale/options.def with its commands and help.
static void print_usage(FILE *f) {
  fputs(cli_usage, f);
  fputs("\noptions (b: budget, m: memory, d: dispatch; the same as the passes' options):\n", f);
  const met_option_t *opts = met_options();
  for (int k = 0; k < MET_OPT_COUNT; ++k) {
    const met_option_t *r = &opts[k];
    if (!r->cli[0]) continue;
    fprintf(f, "  %-20s %s%s%s  %s\n", r->cli, r->passes & MET_PASS_BUDGET ? "b" : " ",
            r->passes & MET_PASS_MEMORY ? "m" : " ", r->passes & MET_PASS_DISPATCH ? "d" : " ",
            r->help);
  }
}


// A context that knows every upstream dialect (what metrale-opt registers).
static MlirContext context_with_all_dialects(void) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry reg = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(reg);
  mlirContextAppendDialectRegistry(ctx, reg);
  mlirDialectRegistryDestroy(reg);
  mlirContextLoadAllAvailableDialects(ctx);
  return ctx;
}

// Checks every option value given with the passes' own parsers, from metrale/options.def,
// before any model is read: a bad value is bad usage (exit status 2), said once, not once
// per model at each module. What only a module can tell (a @fn:SEL naming no function) is
// still the pass's to say.
bool cli_check_values(const cli_opts_t *o) {
  const met_option_t *opts = met_options();
  for (int k = 0; k < MET_OPT_COUNT; ++k) {
    const char *s = o->text[k];
    if (!s || opts[k].kind != MET_OPTION_NUM) continue;
    char msg[256];
    uint64_t v;
    if (!met_parse_option_u64(opts[k].cli, s, strlen(s), opts[k].lo, opts[k].hi, &v, msg,
                              sizeof(msg))) {
      fprintf(stderr, "metrale: %s\n", msg);
      return false;
    }
  }
  const char *why = NULL;
  int bad = -1;
  met_param_spec_t spec;
  met_plan_strategy_t strategy;
  uint32_t ppm;
  met_kv_pool_t pool;
  memset(&pool, 0, sizeof(pool));
  const int specs[] = {MET_OPT_params, MET_OPT_states};
  for (size_t i = 0; i < 2 && bad < 0; ++i)
    if (o->text[specs[i]] &&
        !met_param_spec_parse(o->text[specs[i]], strlen(o->text[specs[i]]), &spec, &why))
      bad = specs[i];
  if (bad < 0 && o->text[MET_OPT_planner] &&
      met_plan_strategy_parse(o->text[MET_OPT_planner], strlen(o->text[MET_OPT_planner]),
                              &strategy) != MET_OK) {
    fprintf(stderr, "metrale: unknown planner '%s'; use " MET_PLAN_STRATEGY_NAMES "\n",
            o->text[MET_OPT_planner]);
    return false;
  }
  if (bad < 0 && o->text[MET_OPT_util] &&
      met_parse_ppm(o->text[MET_OPT_util], strlen(o->text[MET_OPT_util]), &ppm) != MET_OK) {
    bad = MET_OPT_util;
    why = MET_PPM_EXPECTED;
  }
  if (bad < 0 && o->text[MET_OPT_kv_pool] &&
      (why = met_memory_kv_pool_parse(o->text[MET_OPT_kv_pool], strlen(o->text[MET_OPT_kv_pool]),
                                      &pool)) != NULL)
    bad = MET_OPT_kv_pool;
  if (bad < 0 && o->text[MET_OPT_kv_dtype]) {
    MlirContext ctx = context_with_all_dialects();
    MlirType t = met_parse_type_quietly(ctx, ref(o->text[MET_OPT_kv_dtype]));
    uint64_t bits, widened;
    bool is_float;
    if (mlirTypeIsNull(t)) {
      bad = MET_OPT_kv_dtype;
      why = MET_TYPE_EXPECTED;
    } else if (!met_type_element_bits(t, met_target_builtin(0), &bits, &widened, &is_float)) {
      bad = MET_OPT_kv_dtype;  // a width does not depend on the target (index has one on each)
      why = "a type without a storage width (an element type such as f16, bf16, i8)";
    }
    mlirContextDestroy(ctx);
  }
  if (bad < 0) return true;
  fprintf(stderr, "metrale: invalid %s='%s': %s%s\n", opts[bad].cli, o->text[bad], why,
          bad == MET_OPT_kv_pool ? " (" MET_KV_POOL_SYNTAX ")" : "");
  return false;
}

// Parses the options of command |pass| (MET_PASS_*) from metrale/options.def, plus the
// command's own --remarks and --allow-unregistered-dialect.
int cli_parse_opts(int argc, char **argv, unsigned pass, const char *cmd, cli_opts_t *o) {
  memset(o, 0, sizeof(*o));
  const met_option_t *opts = met_options();
  for (int i = 0; i < argc; ++i) {
    bool taken = false;
    for (int k = 0; k < MET_OPT_COUNT && !taken; ++k) {
      const met_option_t *r = &opts[k];
      if (!r->cli[0] || !(r->passes & pass)) continue;
      if (r->kind == MET_OPTION_TEXT || r->kind == MET_OPTION_NUM)
        taken = cli_take_nonempty(argc, argv, &i, r->cli, &o->text[k]);
      else if (!strcmp(argv[i], r->cli))
        taken = o->flag[k] = true;
    }
    if (taken) continue;
    if (!strcmp(argv[i], "--remarks")) o->d.remarks = true;
    else if (!strcmp(argv[i], "--allow-unregistered-dialect")) o->unregistered = true;
    else if (cli_take_nonempty(argc, argv, &i, "--csv", &o->csv)) continue;
    else if ((!strcmp(cmd, "plan") || !strcmp(cmd, "memory")) &&
             cli_take_nonempty(argc, argv, &i, "--svg", &o->svg))
      continue;
    else if (!strcmp(cmd, "plan") && cli_take_nonempty(argc, argv, &i, "--function", &o->function))
      continue;
    else if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "metrale %s: unknown option '%s'\n%s", cmd, argv[i], cli_usage);
      return 2;
    } else {
      if (!o->models && !(o->models = calloc((size_t)argc, sizeof(char *)))) {
        fprintf(stderr, "metrale: out of memory\n");
        return 1;
      }
      o->models[o->nmodels++] = argv[i];
      if (!o->model) o->model = argv[i];
    }
  }
  if (!o->model) { fprintf(stderr, "metrale %s: no model given\n%s", cmd, cli_usage); return 2; }
  return 0;
}

// Parses the model; NULL (after the parser's located errors) when it cannot.
static MlirModule load_path(const cli_opts_t *o, const char *path, MlirContext *out_ctx) {
  MlirContext ctx = context_with_all_dialects();
  mlirContextSetAllowUnregisteredDialects(ctx, o->unregistered);
  mlirContextAttachDiagnosticHandler(ctx, on_mlir_diag, NULL, NULL);
  MlirModule m = mlirModuleCreateParseFromFile(ctx, mlirStringRefCreateFromCString(path));
  if (mlirModuleIsNull(m)) {
    fprintf(stderr, "metrale: could not parse '%s'\n", path);
    mlirContextDestroy(ctx);
    return m;
  }
  *out_ctx = ctx;
  return m;
}

MlirModule cli_load(const cli_opts_t *o, MlirContext *out_ctx) {
  return load_path(o, o->model, out_ctx);
}


static int cmd_run(int argc, char **argv, unsigned pass, const char *cmd) {
  cli_opts_t o;
  int rc = cli_parse_opts(argc, argv, pass, cmd, &o);
  if (rc) return rc;
  if (!cli_check_values(&o)) { free(o.models); return 2; }
  // The targets: the one given, every built-in for "all", or the module's own (NULL).
  const char *one = o.text[MET_OPT_target];
  bool all = one && !strcmp(one, "all");
  const met_target_t *known;
  if (one && !all && met_target_find(one, strlen(one), &known) != MET_OK) {
    fprintf(stderr, "metrale %s: unknown target '%s'; the built-in targets are", cmd, one);
    for (size_t t = 0; t < met_target_builtin_count(); ++t)
      fprintf(stderr, "%s %s", t ? "," : "", met_target_builtin(t)->name);
    fprintf(stderr, " (or all)\n");
    free(o.models);
    return 2;
  }
  // Standard output holds one report: two would run together and neither would parse.
  const char *outs[] = {o.text[MET_OPT_json], o.text[MET_OPT_sarif], o.csv, o.svg};
  const char *out_flags[] = {"--json", "--sarif", "--csv", "--svg"};
  int first_stdout = -1;
  for (int k = 0; k < 4; ++k) {
    if (!outs[k] || strcmp(outs[k], "-")) continue;
    if (first_stdout >= 0) {
      fprintf(stderr, "metrale %s: %s - and %s - both write to standard output; give one a file\n",
              cmd, out_flags[first_stdout], out_flags[k]);
      free(o.models);
      return 2;
    }
    first_stdout = k;
  }
  size_t ntargets = all ? met_target_builtin_count() : 1;
  if ((o.nmodels > 1 || all) && o.text[MET_OPT_json]) {
    fprintf(stderr, "metrale %s: --json takes one model and one target; use --csv for several\n", cmd);
    free(o.models);
    return 2;
  }
  // The command prints the memory table itself: no remark table unless --rows asks.
  if (pass == MET_PASS_MEMORY && !o.text[MET_OPT_remark_rows]) o.text[MET_OPT_remark_rows] = "0";
  bool json_stdout = o.text[MET_OPT_json] && !strcmp(o.text[MET_OPT_json], "-");
  bool csv_stdout = o.csv && !strcmp(o.csv, "-");
  met_strbuf_t text, jout, csv;
  met_strbuf_initialize(met_allocator_system(), &text);
  met_strbuf_initialize(met_allocator_system(), &jout);
  met_strbuf_initialize(met_allocator_system(), &csv);
  if (o.csv) cli_csv_header(&csv, pass);
  met_strbuf_t svg;
  met_strbuf_initialize(met_allocator_system(), &svg);
  sweep_t w = {o.svg ? &svg : NULL, NULL, o.csv ? &csv : NULL, NULL, NULL, 0};
  if (o.svg && (o.nmodels > 1 || all)) {
    fprintf(stderr, "metrale %s: --svg takes one model and one target\n", cmd);
    free(o.models);
    return 2;
  }
  if (o.svg) {
    const char *tn = one ? one : "host-cpu";
    (void)met_target_find(tn, strlen(tn), &w.svg_target);
  }
  // --sarif FILE: every diagnostic of the sweep also goes into one log.
  const char *sarif_path = o.text[MET_OPT_sarif];
  // A document on stdout (--csv -, --sarif -) is all stdout gets.
  bool doc_stdout = csv_stdout || (sarif_path && !strcmp(sarif_path, "-"));
  met_sarif_t sarif;
  met_sarif_initialize(&sarif, cli_on_diag, &o.d);
  met_diag_fn_t sink = sarif_path ? met_sarif_diag : cli_on_diag;
  void *sink_user = sarif_path ? (void *)&sarif : (void *)&o.d;
  // Over two or more targets, each model's runs are held until its last target has run,
  // and a diagnostic every target gave is written once (cli_once_t).
  bool hold = ntargets > 1;
  cli_once_t once;
  cli_once_initialize(&once, sink, sink_user, sarif_path || o.d.remarks, stdout, 0, NULL);
  bool write_text = !doc_stdout && !json_stdout;
  bool progress = isatty(2) && o.nmodels * ntargets > 1;
  size_t failed = 0, step = 0;
  bool headed = false;  // a heading was written: the next is parted from it by a blank line
  for (size_t i = 0; i < o.nmodels; ++i) {
    w.model = o.models[i];
    MlirContext ctx;
    if (progress) fprintf(stderr, "\r\033[K");  // a parse error is not under the progress line
    MlirModule m = load_path(&o, o.models[i], &ctx);
    for (size_t t = 0; t < ntargets; ++t) {
      const char *target = all ? met_target_builtin(t)->name : one;
      w.target = target ? target : "";
      w.rows = 0;
      ++step;
      if (progress)
        fprintf(stderr, "\r[%zu/%zu] %s on %s\033[K", step, o.nmodels * ntargets, o.models[i],
                target ? target : "its own target");
      if (mlirModuleIsNull(m)) {
        ++failed;
        if (w.csv) cli_csv_error_row(&w, pass, "the model could not be parsed");
        continue;
      }
      if (!doc_stdout && (o.nmodels > 1 || all)) {
        met_strbuf_printf(&text, "%s== %s%s%s ==\n", headed ? "\n" : "", o.models[i],
                          target ? " on " : "", target ? target : "");
        headed = true;
      }
      // The heading comes before the run's diagnostics on the terminal.
      size_t head_len = text.len;
      if (!hold && write_text && text.len) {
        if (progress) fprintf(stderr, "\r\033[K");  // not under the progress line
        fwrite(text.data, 1, text.len, stdout);
        fflush(stdout);
        text.len = 0;
      }
      bool ok = cli_run_pass(&o, pass, m, target, &w, &text, &jout, json_stdout,
                             hold ? cli_once_diag : sink, hold ? (void *)&once : sink_user);
      if (!ok) {
        ++failed;
        if (w.csv && !w.rows) cli_csv_error_row(&w, pass, "not evaluated (see the diagnostics)");
      }
      if (hold) {
        if (!write_text) text.len = head_len = 0;
        cli_once_end_run(&once, &text, head_len);
      } else if (write_text && text.len) {
        fwrite(text.data, 1, text.len, stdout);
        text.len = 0;
      }
    }
    if (hold) {
      if (progress) fprintf(stderr, "\r\033[K");
      if (!cli_once_flush(&once, o.models[i])) ++failed;
    }
    if (!mlirModuleIsNull(m)) {
      mlirModuleDestroy(m);
      mlirContextDestroy(ctx);
    }
  }
  cli_once_deinitialize(&once);
  if (progress) fprintf(stderr, "\r\033[K");
  if (json_stdout && jout.len) fwrite(jout.data, 1, jout.len, stdout);
  rc = failed ? 1 : 0;
  if (o.csv) {
    if (csv.status) {
      fprintf(stderr, "metrale: cannot render the CSV: %s\n", met_status_str(csv.status));
      rc = 1;
    } else if (csv_stdout) {
      fwrite(csv.data, 1, csv.len, stdout);
    } else {
      FILE *f = fopen(o.csv, "w");
      if (!f || fwrite(csv.data, 1, csv.len, f) != csv.len || fclose(f)) {
        fprintf(stderr, "metrale: cannot write '%s': %s\n", o.csv, strerror(errno));
        rc = 1;
      }
    }
  }
  if (sarif_path) {
    met_strbuf_t sb;
    met_strbuf_initialize(met_allocator_system(), &sb);
    met_sarif_render(&sarif, &sb);
    FILE *f = strcmp(sarif_path, "-") ? fopen(sarif_path, "w") : stdout;
    if (sarif.status || sb.status || !f || fwrite(sb.data, 1, sb.len, f) != sb.len ||
        (f != stdout && fclose(f))) {
      fprintf(stderr, "metrale: cannot write the SARIF log '%s'%s%s\n", sarif_path,
                      errno ? ": " : "", errno ? strerror(errno) : "");
      rc = 1;
    }
    met_strbuf_deinitialize(&sb);
  }
  met_sarif_deinitialize(&sarif);
  if (o.svg) {
    FILE *f = svg.len ? fopen(o.svg, "w") : NULL;
    if (!svg.len) {
      fprintf(stderr, "metrale: no picture: the memory model was not evaluated\n");
      rc = 1;
    } else if (svg.status || !f || fwrite(svg.data, 1, svg.len, f) != svg.len || fclose(f)) {
      fprintf(stderr, "metrale: cannot write '%s': %s\n", o.svg, strerror(errno));
      rc = 1;
    }
  }
  met_strbuf_deinitialize(&svg);
  met_strbuf_deinitialize(&text);
  met_strbuf_deinitialize(&jout);
  met_strbuf_deinitialize(&csv);
  free(o.models);
  return cli_finish_stdout(rc);
}

int main(int argc, char **argv) {
  // A file-size limit (ulimit -f) makes a write fail with EFBIG, which is said like any
  // failed write, instead of killing the command (a sweep's held output goes to a file).
  signal(SIGXFSZ, SIG_IGN);
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    print_usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (!strcmp(argv[1], "budget")) return cmd_run(argc - 2, argv + 2, MET_PASS_BUDGET, "budget");
  if (!strcmp(argv[1], "memory")) return cmd_run(argc - 2, argv + 2, MET_PASS_MEMORY, "memory");
  if (!strcmp(argv[1], "dispatch"))
    return cmd_run(argc - 2, argv + 2, MET_PASS_DISPATCH, "dispatch");
  if (!strcmp(argv[1], "targets")) return cmd_targets(argc - 2, argv + 2);
  if (!strcmp(argv[1], "run")) return cmd_exec(argc - 2, argv + 2);
  if (!strcmp(argv[1], "plan")) return cmd_plan(argc - 2, argv + 2);
  fprintf(stderr, "metrale: unknown command '%s'\n%s", argv[1], cli_usage);
  return 2;
}
