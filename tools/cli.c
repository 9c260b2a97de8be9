// tools/cli.c: what every command of `metrale` shares, and nothing a command alone needs:
// the usage text, diagnostics printed like the compiler's, standard output's exit status,
// option parsing from metrale/options.def and the value checks the passes use, and
// reading a model. It calls no command (tools/cmd_*.c call it; tools/metrale.c, main,
// calls them).
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ir/attrs.h"
#include "ir/ir.h"
#include "ir/types.h"
#include "metrale/limits.h"
#include "metrale/options.h"
#include "metrale/parse.h"
#include "runners.h"
#include "report/output.h"
#include "report/sarif.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"
#include "cli.h"

// Every command: its synopsis, what it does, and the flags it takes that are not in
// metrale/options.def (those are listed from the .def, with the passes' own help).
const cli_command_t cli_commands[] = {
    {"budget", MET_PASS_BUDGET,
     "metrale budget MODEL.mlir... [--target NAME|all] [--csv FILE|-] [--json FILE|-]\n"
     "                      [--sarif FILE|-] [--params SPEC] [--dynamic-size N] [--planner NAME]\n"
     "                      [--remarks] [--allow-unregistered-dialect]\n",
     "the Budget of one run of every function on a target, as a table\n",
     "  --csv FILE|-         one row per (model, function, target) with every field\n"
     "  --remarks            also print the remarks (dead ops: one per function)\n"
     "  --remarks=all        also print the remarks, a remark at every dead op\n"
     "  --allow-unregistered-dialect  parse ops of dialects MLIR does not know\n"},
    {"memory", MET_PASS_MEMORY,
     "metrale memory MODEL.mlir... [--target NAME|all] [--csv FILE|-] [--json FILE|-]\n"
     "                      [--sarif FILE|-] [--svg FILE] [--util F] [--sequences N] [--tokens N]\n"
     "                      [--kv-pool layers=N,kv_heads=N,head_dim=N,block_size=N] [--kv-dtype T]\n"
     "                      [--params SPEC] [--states SPEC] [--dynamic-size N] [--warn-over-budget]\n"
     "                      [--sweep-sequences N,N,... --sweep-tokens N,N,...] [--rows N]\n"
     "                      [--remarks] [--allow-unregistered-dialect]\n",
     "does the whole model fit the target's memory, what takes the room, and how\n"
     "         many sequences fit (--sequences/--tokens size the KV pool)\n",
     "  --csv FILE|-         one row per (model, target) with every field\n"
     "  --svg FILE           the memory picture of the model on the target\n"
     "  --remarks            also print the remarks (dead ops: one per function)\n"
     "  --remarks=all        also print the remarks, a remark at every dead op\n"
     "  --allow-unregistered-dialect  parse ops of dialects MLIR does not know\n"},
    {"dispatch", MET_PASS_DISPATCH,
     "metrale dispatch MODEL.mlir... [--target NAME|all] [--csv FILE|-] [--json FILE|-]\n"
     "                      [--sarif FILE|-] [--per-dispatch] [--trace FILE|-] [--params SPEC]\n"
     "                      [--states SPEC] [--dynamic-size N] [--planner NAME] [--remarks]\n"
     "                      [--allow-unregistered-dialect]\n",
     "what one invocation of every function moves, allocates, launches and waits on,\n"
     "         predicted for the target (--per-dispatch: the roofline of each dispatch)\n",
     "  --csv FILE|-         one row per (model, function, target) with every field\n"
     "  --remarks            also print the remarks (dead ops: one per function)\n"
     "  --remarks=all        also print the remarks, a remark at every dead op\n"
     "  --allow-unregistered-dialect  parse ops of dialects MLIR does not know\n"},
    {"run", 0,
     "metrale run MODEL.mlir [--function NAME] [--runs N] [--opt 0-3] [--inputs zeros|random]\n"
     "                      [--json FILE|-] [--inject-device-loss] [--target NAME] [--timeout S]\n"
     "                      [--params SPEC] [--states SPEC] [--dump-bufferized FILE]\n"
     "                      [--trace FILE|-]\n",
     "lower each public function with upstream MLIR, JIT-compile and run it on this\n"
     "         CPU, and print the measured dispatch stats beside the prediction (mlir-cpu\n"
     "         unless --target says otherwise), with the ratio per field\n",
     "  --function NAME      run only this function (default: every public one)\n"
     "  --runs N             invocations, each timed (default 5)\n"
     "  --opt 0-3            LLVM's optimization level for the JIT (default 2)\n"
     "  --inputs zeros|random  what the arguments hold (default zeros)\n"
     "  --json FILE|-        the measured and predicted stats as JSON\n"
     "  --trace FILE|-       the predicted dispatches and the kernels that ran as a timeline\n"
     "                       (Chrome's trace event format: Perfetto, chrome://tracing)\n"
     "  --inject-device-loss the first invocation fails as on a lost device: the engine is\n"
     "                       rebuilt and the run retried (the recovery path)\n"
     "  --target NAME        the target the prediction is for (default mlir-cpu)\n"
     "  --timeout S          stop the whole command after S seconds (exit status 124)\n"
     "  --params SPEC        arguments that are weights (as for budget)\n"
     "  --states SPEC        arguments that are state (as for memory)\n"
     "  --dump-bufferized FILE  the bufferized module the run lowers, as MLIR\n"
     "  --allow-unregistered-dialect  parse ops of dialects MLIR does not know\n"},
    {"plan", MET_PASS_BUDGET,
     "metrale plan MODEL.mlir --svg FILE|- | --buffers-out FILE.csv|- [--target NAME]\n"
     "                      [--function NAME] [--params SPEC] [--dynamic-size N] [--planner NAME]\n"
     "       metrale plan --buffers FILE.csv|- [--capacity SIZE] [--out FILE.csv|-]\n"
     "                      [--plan-effort N] [--plan-seconds N]\n",
     "the Budget's arena plan of one function as an SVG picture; with --buffers, the\n"
     "         planner on an allocation problem in MiniMalloc's CSV format (id,lower,upper,size;\n"
     "         upper exclusive): with --capacity, fit or no fit (exit status 0, 1; 3 when the\n"
     "         search's limits ran out), else the smallest arena it finds; --out adds offset\n",
     "  --svg FILE|-         where the picture goes\n"
     "  --buffers-out FILE.csv|-  the function's allocation problem in the CSV format\n"
     "                       --buffers reads (id,lower,upper,size: schedule positions, upper\n"
     "                       exclusive; sizes aligned), to compare with other allocators\n"
     "  --function NAME      the function drawn (default: the first with a plan)\n"
     "  --buffers FILE.csv|- an allocation problem (id,lower,upper,size; lower/upper also\n"
     "                       start/end, any column order) instead of a model\n"
     "  --capacity SIZE      with --buffers: decide whether it fits SIZE bytes (exit 0 yes,\n"
     "                       1 no: proven, 3 unknown: the limits ran out or the problem is\n"
     "                       past the exact search; 2 bad usage or input)\n"
     "  --out FILE.csv|-     with --buffers: the rows with an offset column\n"
     "  --allow-unregistered-dialect  parse ops of dialects MLIR does not know\n"},
    {"diff", 0,
     "metrale diff OLD.json NEW.json [--fail-on RULE,...] [--markdown] [--json FILE|-]\n"
     "                      [--all] [--force]\n",
     "two reports of `metrale budget|dispatch|memory --json` compared, field by field,\n"
     "         for CI: exit status 1 when a --fail-on rule is broken (and only then), 2 when\n"
     "         the reports cannot be read or compared, or the result not written\n",
     "  --fail-on RULE,...   a regression: FIELD>N, FIELD>N% (grew by more), FIELD<N,\n"
     "                       FIELD<N% (shrank by more); N a size on byte fields (1MiB);\n"
     "                       given again or separated by ','\n"
     "  --markdown           the comparison as Markdown, for a pull-request comment\n"
     "  --json FILE|-        every row as JSON\n"
     "  --all                every field, not only those that changed\n"
     "  --force              compare reports of different targets or inputs\n"},
    {"targets", 0, "metrale targets [--json]\n",
     "the built-in targets with every parameter\n",
     "  --json               the targets as JSON\n"},
};
const size_t cli_command_count = sizeof(cli_commands) / sizeof(cli_commands[0]);

static const char usage_notes[] =
    "--remarks also prints the remarks; --allow-unregistered-dialect parses unknown ops.\n"
    "Several models and --target all make a sweep: a table per (model, target), --csv writes one\n"
    "row per (model, function, target) with every field (a model that fails is a row with its\n"
    "error; the others still run; exit status 1 when any failed), with a progress line on a terminal.\n"
    "A diagnostic a model gives on every target (same op, same words, as often) is printed once,\n"
    "before the targets' own output; the rest is printed under the target that gave it.\n"
    "`metrale COMMAND --help` lists the options of one command; `metrale --version` says which\n"
    "metrale and MLIR this is.\n";

static const cli_command_t *find_command(const char *cmd) {
  for (size_t k = 0; k < cli_command_count; ++k)
    if (!strcmp(cli_commands[k].name, cmd)) return &cli_commands[k];
  return NULL;
}

void cli_print_usage(FILE *f) {
  for (size_t k = 0; k < cli_command_count; ++k)
    fprintf(f, "%s%s", k ? "       " : "usage: ", cli_commands[k].synopsis);
  fputc('\n', f);
  for (size_t k = 0; k < cli_command_count; ++k)
    fprintf(f, "%-8s %s", cli_commands[k].name, cli_commands[k].about);
  fputc('\n', f);
  fputs(usage_notes, f);
}

void cli_print_synopsis(FILE *f, const char *cmd) {
  const cli_command_t *c = find_command(cmd);
  if (!c) return;
  fprintf(f, "usage: %s(`metrale %s --help` lists its options)\n", c->synopsis, cmd);
}

void cli_print_command_help(FILE *f, const char *cmd) {
  const cli_command_t *c = find_command(cmd);
  if (!c) return;
  fprintf(f, "usage: %s\n%s %s\noptions:\n", c->synopsis, c->name, c->about);
  const met_option_t *opts = met_options();
  for (int k = 0; k < MET_OPT_COUNT; ++k) {
    const met_option_t *r = &opts[k];
    if (!r->cli[0] || !(r->passes & c->pass)) continue;
    // plan draws the SVG: the budget's report options are not taken there.
    if (!strcmp(cmd, "plan") && (k == MET_OPT_json || k == MET_OPT_sarif)) continue;
    const char *value = met_option_takes_num(r->kind) ? " N" : r->kind == MET_OPTION_TEXT ? " VALUE" : "";
    char head[40];
    snprintf(head, sizeof(head), "%s%s", r->cli, value);
    fprintf(f, "  %-20s %s\n", head, r->help);
  }
  fputs(c->flags, f);
  fputs("  --help, -h           this text\n", f);
}

bool cli_help_asked(int argc, char **argv) {
  for (int i = 0; i < argc; ++i)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return true;
  return false;
}

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
// MLIR's diagnostics, printed; while a model is parsed with --sarif (|user|: the log), also
// recorded there as parse errors.
static MlirLogicalResult on_mlir_diag(MlirDiagnostic d, void *user) {
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
  if (user) {
    MlirStringRef file = {NULL, 0};
    int line = 0, col = 0;
    char path[4096] = "";
    if (met_adapter_loc_parts(mlirDiagnosticGetLocation(d), &file, &line, &col) && file.length)
      snprintf(path, sizeof(path), "%.*s", (int)file.length, file.data);
    met_diag_severity_t s = mlirDiagnosticGetSeverity(d) == MlirDiagnosticError ? MET_DIAG_ERROR
                          : mlirDiagnosticGetSeverity(d) == MlirDiagnosticWarning ? MET_DIAG_WARNING
                          : MET_DIAG_REMARK;
    met_sarif_add(user, "metrale.parse-error", s, path, line, col, m.buf);
  }
  for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(d); ++i) on_mlir_diag(mlirDiagnosticGetNote(d, i), user);
  return mlirLogicalResultSuccess();
}

// The value of |flag| at argv[*i] into |*v| (NULL, with |err| set, when it is refused);
// false when argv[*i] is not |flag|.
static bool take_value(int argc, char **argv, int *i, const char *flag, const char **v,
                       met_error_t *err) {
  size_t n = strlen(flag);
  *v = NULL;
  if (!strncmp(argv[*i], flag, n) && argv[*i][n] == '=') { *v = argv[*i] + n + 1; return true; }
  if (strcmp(argv[*i], flag)) return false;
  if (*i + 1 >= argc) {
    met_error_set(err, MET_EINVAL, "%s needs a value", flag);
    return true;
  }
  // "--json --remarks" would write a file named --remarks and drop the flag: a value that
  // looks like an option is refused (--json=--remarks names such a file).
  if (!strncmp(argv[*i + 1], "--", 2)) {
    met_error_set(err, MET_EINVAL, "%s needs a value, and '%s' is an option (write %s=%s for "
                  "a value that starts with --)", flag, argv[*i + 1], flag, argv[*i + 1]);
    return true;
  }
  *v = argv[++*i];
  return true;
}

// take_value, refusing an empty value ("--json ''" would otherwise write nothing).
bool cli_take_nonempty(int argc, char **argv, int *i, const char *flag, const char **out,
                       met_error_t *err) {
  const char *v;
  if (!take_value(argc, argv, i, flag, &v, err)) return false;
  if (!v) return true;
  if (!*v) met_error_set(err, MET_EINVAL, "%s needs a value, not an empty one", flag);
  // Given twice, one of the two would be dropped without a word, unchecked.
  else if (*out) met_error_set(err, MET_EINVAL, "%s is given twice ('%s', '%s')", flag, *out, v);
  else *out = v;
  return true;
}


// A context that knows every upstream dialect (what metrale-opt registers).
static MlirContext context_with_all_dialects(void) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry reg = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(reg);
  // The mlir-cpu target analyses the program upstream's pipeline makes: its passes must
  // be registered, as mlir-opt registers them (passes/ir/bufferize.h).
  mlirRegisterAllPasses();
  mlirContextAppendDialectRegistry(ctx, reg);
  mlirDialectRegistryDestroy(reg);
  mlirContextLoadAllAvailableDialects(ctx);
  return ctx;
}

// Checks every option value given with the passes' own parsers, from metrale/options.def,
// before any model is read: a bad value is bad usage (exit status 2), said once, not once
// per model at each module. What only a module can tell (a @fn:SEL naming no function) is
// still the pass's to say.
met_status_t cli_check_outputs(const cli_opts_t *o, const char *const *flags,
                               const char *const *paths, size_t n, met_error_t *err) {
  MET_RETURN_IF_ERROR(met_output_paths_check(o->models, o->nmodels, flags, paths, n, err));
  return met_output_streams_check(o->models, o->nmodels, err);
}

met_status_t cli_check_values(const cli_opts_t *o, unsigned pass, met_error_t *err) {
  const met_option_t *opts = met_options();
  for (int k = 0; k < MET_OPT_COUNT; ++k) {
    const char *s = o->text[k];
    if (!s || !met_option_takes_num(opts[k].kind)) continue;
    uint64_t v;
    if (met_option_parse_num(k, opts[k].cli, s, strlen(s), &v, err) != MET_OK) {
      if (!err->message[0]) met_error_set(err, err->code, "%s", met_error_message(err));
      return err->code;
    }
  }
  const char *why = NULL;
  int bad = -1;
  met_param_spec_t spec;
  met_plan_strategy_t strategy;
  uint32_t ppm;
  met_kv_pool_t pool;
  memset(&pool, 0, sizeof(pool));
  met_error_t verr;  // the reason of the value refused (|why| points into it or is static)
  met_error_init(&verr);
  const int specs[] = {MET_OPT_params, MET_OPT_states};
  for (size_t i = 0; i < 2 && bad < 0; ++i) {
    if (!o->text[specs[i]]) continue;
    if (met_param_spec_parse(o->text[specs[i]], strlen(o->text[specs[i]]), &spec, &verr)) {
      bad = specs[i];
      why = met_error_message(&verr);
    } else if (specs[i] == MET_OPT_states && met_param_spec_has_auto(&spec)) {
      bad = specs[i];
      why = MET_PARAM_AUTO_STATES_WHY;
    }
  }
  if (bad < 0 && o->text[MET_OPT_planner] &&
      met_plan_strategy_parse(o->text[MET_OPT_planner], strlen(o->text[MET_OPT_planner]),
                              &strategy) != MET_OK) {
    return met_error_set(err, MET_EINVAL, "unknown planner '%s'; use " MET_PLAN_STRATEGY_NAMES,
                         o->text[MET_OPT_planner]);
  }
  if (bad < 0 && o->text[MET_OPT_util] &&
      met_parse_ppm(o->text[MET_OPT_util], strlen(o->text[MET_OPT_util]), &ppm) != MET_OK) {
    bad = MET_OPT_util;
    why = MET_PPM_EXPECTED;
  }
  if (bad < 0 && o->text[MET_OPT_kv_pool] &&
      met_memory_kv_pool_parse(o->text[MET_OPT_kv_pool], strlen(o->text[MET_OPT_kv_pool]),
                               &pool, &verr) != MET_OK) {
    bad = MET_OPT_kv_pool;
    why = met_error_message(&verr);
  }
  const int lists[] = {MET_OPT_sweep_sequences, MET_OPT_sweep_tokens};
  for (size_t i = 0; i < 2 && bad < 0; ++i) {
    const char *t = o->text[lists[i]];
    uint64_t axis[MET_MEMORY_GRID_MAX];
    size_t n;
    if (t && met_parse_option_u64_list(opts[lists[i]].cli, t, strlen(t), 1, UINT64_MAX,
                                       MET_MEMORY_GRID_MAX, axis, &n, err) != MET_OK)
      return err->code;
  }
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
  if (bad < 0 && o->text[MET_OPT_limit_list]) {
    met_limit_item_t items[64];
    size_t n = 0;
    if (met_limits_parse(o->text[MET_OPT_limit_list], strlen(o->text[MET_OPT_limit_list]),
                         items, 64, &n, &verr) != MET_OK) {
      bad = MET_OPT_limit_list;
      why = met_error_message(&verr);
    }
    // A field of another report is checked by another command: said now, once, as bad
    // usage (the pass says it at each module).
    met_limit_family_t fam = pass == MET_PASS_MEMORY     ? MET_LIMIT_MEMORY
                             : pass == MET_PASS_DISPATCH ? MET_LIMIT_DISPATCH
                                                         : MET_LIMIT_BUDGET;
    for (size_t k = 0; bad < 0 && k < n; ++k)
      if (items[k].family != fam) {
        met_error_set(&verr, MET_EINVAL, "%s is a field of %s, which %s checks, not this "
                      "command (it checks %s)", items[k].field,
                      met_limit_family_name(items[k].family),
                      met_limit_family_checker(items[k].family), met_limit_family_name(fam));
        bad = MET_OPT_limit_list;
        why = verr.message;
      }
  }
  if (bad < 0) return MET_OK;
  return met_error_set(err, MET_EINVAL, "invalid %s='%s': %s%s", opts[bad].cli, o->text[bad],
                       why, bad == MET_OPT_kv_pool ? " (" MET_KV_POOL_SYNTAX ")" : "");
}

// Parses the options of command |pass| (MET_PASS_*) from metrale/options.def, plus the
// command's own --remarks and --allow-unregistered-dialect.
int cli_parse_opts(int argc, char **argv, unsigned pass, const char *cmd, cli_opts_t *o) {
  memset(o, 0, sizeof(*o));
  const met_option_t *opts = met_options();
  bool operands = false;  // after "--": every argument is a model, "-foo.mlir" too
  met_error_t err;  // a flag's value refused
  met_error_init(&err);
  for (int i = 0; i < argc && err.code == MET_OK; ++i) {
    bool taken = false;
    if (!operands && !strcmp(argv[i], "--")) { operands = true; continue; }
    for (int k = 0; k < MET_OPT_COUNT && !taken && !operands; ++k) {
      const met_option_t *r = &opts[k];
      if (!r->cli[0] || !(r->passes & pass)) continue;
      if (r->kind == MET_OPTION_TEXT || met_option_takes_num(r->kind))
        taken = cli_take_nonempty(argc, argv, &i, r->cli, &o->text[k], &err);
      else if (!strcmp(argv[i], r->cli))
        taken = o->flag[k] = true;
    }
    if (taken) continue;
    if (operands) goto model;
    if (!strcmp(argv[i], "--remarks")) o->d.remarks = true;
    else if (!strcmp(argv[i], "--remarks=all"))
      o->d.remarks = o->flag[MET_OPT_dead_remarks] = o->flag[MET_OPT_remarks_each] = true;
    else if (!strcmp(argv[i], "--allow-unregistered-dialect")) o->unregistered = true;
    else if (cli_take_nonempty(argc, argv, &i, "--csv", &o->csv, &err)) continue;
    else if ((!strcmp(cmd, "plan") || !strcmp(cmd, "memory")) &&
             cli_take_nonempty(argc, argv, &i, "--svg", &o->svg, &err))
      continue;
    else if (!strcmp(cmd, "plan") && cli_take_nonempty(argc, argv, &i, "--function", &o->function, &err))
      continue;
    else if (!strcmp(cmd, "plan") &&
             cli_take_nonempty(argc, argv, &i, "--buffers-out", &o->buffers_out, &err))
      continue;
    else if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "metrale %s: unknown option '%s'\n", cmd, argv[i]);
      cli_print_synopsis(stderr, cmd);
      free(o->models);
      o->models = NULL;
      return 2;
    } else {
    model:
      if (!o->models && !(o->models = calloc((size_t)argc, sizeof(char *)))) {
        fprintf(stderr, "metrale: out of memory\n");
        return 1;
      }
      o->models[o->nmodels++] = argv[i];
      if (!o->model) o->model = argv[i];
    }
  }
  if (err.code) {
    cli_say("metrale", &err);
    free(o->models);
    o->models = NULL;
    return 2;
  }
  // A function is named with or without its '@' (`--function @f` or `--function f`).
  if (o->function && o->function[0] == '@') o->function++;
  if (!o->model) {
    fprintf(stderr, "metrale %s: no model given\n", cmd);
    cli_print_synopsis(stderr, cmd);
    return 2;
  }
  return 0;
}

// Parses the model; NULL (after the parser's located errors) when it cannot.
MlirModule cli_load_path(const cli_opts_t *o, const char *path, MlirContext *out_ctx) {
  // Why a file cannot be read is said before the parser is asked (it says only that it
  // could not open it).
  struct stat st;
  FILE *probe = NULL;
  char why[4352];
  // '-' is standard input (MLIR's parser reads it). A character device or a socket is
  // refused: /dev/zero would be read forever, the buffer growing without bound.
  if (!strcmp(path, "-")) {
    why[0] = '\0';
  } else if (stat(path, &st) != 0 ||
             (S_ISFIFO(st.st_mode) ? access(path, R_OK) != 0  // opened once: by the parser
                                   : !S_ISDIR(st.st_mode) && !(probe = fopen(path, "r")))) {
    snprintf(why, sizeof(why), "cannot read '%s': %s", path, strerror(errno));
  } else if (S_ISDIR(st.st_mode)) {
    snprintf(why, sizeof(why), "cannot read '%s': it is a directory (give the .mlir files in it)",
             path);
  } else if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
    snprintf(why, sizeof(why), "cannot read '%s': it is %s, not a file or a pipe", path,
             S_ISCHR(st.st_mode) ? "a character device" : S_ISBLK(st.st_mode) ? "a block device"
             : S_ISSOCK(st.st_mode) ? "a socket" : "no regular file");
  } else {
    why[0] = '\0';
  }
  if (probe) fclose(probe);
  met_error_t nest;
  met_error_init(&nest);
  if (!why[0] && strcmp(path, "-") && S_ISREG(st.st_mode) &&
      met_input_nesting_check(path, &nest) != MET_OK)
    snprintf(why, sizeof(why), "%s", nest.message);
  if (why[0]) {
    fprintf(stderr, "metrale: %s\n", why);
    if (o->sarif) met_sarif_add(o->sarif, "metrale.input", MET_DIAG_ERROR, path, 0, 0, why);
    return (MlirModule){NULL};
  }
  MlirContext ctx = context_with_all_dialects();
  mlirContextSetAllowUnregisteredDialects(ctx, o->unregistered);
  MlirDiagnosticHandlerID parsing = mlirContextAttachDiagnosticHandler(ctx, on_mlir_diag, o->sarif, NULL);
  MlirModule m = mlirModuleCreateParseFromFile(ctx, mlirStringRefCreateFromCString(path));
  mlirContextDetachDiagnosticHandler(ctx, parsing);
  mlirContextAttachDiagnosticHandler(ctx, on_mlir_diag, NULL, NULL);
  if (mlirModuleIsNull(m)) {
    fprintf(stderr, "metrale: could not parse '%s'\n", path);
    mlirContextDestroy(ctx);
    return m;
  }
  *out_ctx = ctx;
  return m;
}

MlirModule cli_load(const cli_opts_t *o, MlirContext *out_ctx) {
  return cli_load_path(o, o->model, out_ctx);
}



static MlirWalkResult count_fn(MlirOperation op, void *user) {
  size_t *n = user;
  if (met_ir_op_is(op, "func.func")) {
    if (!mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)))) ++n[0];
    return MlirWalkResultSkip;
  }
  if (met_ir_op_is(op, "ml_program.global") || met_ir_op_is(op, "memref.global")) ++n[1];
  return MlirWalkResultAdvance;
}

met_status_t cli_has_something(MlirModule m, unsigned pass, const char *path,
                               met_sarif_t *sarif, met_error_t *err) {
  size_t n[2] = {0, 0};
  mlirOperationWalk(mlirModuleGetOperation(m), count_fn, n, MlirWalkPreOrder);
  // The memory model also counts a module's globals (its weights) without a function.
  if (n[0] || (pass == MET_PASS_MEMORY && n[1])) return MET_OK;
  met_error_set(err, MET_EUNSUPPORTED, "nothing to analyse in '%s': it has no func.func with "
                "a body%s", path, pass == MET_PASS_MEMORY ? " and no global" : "");
  if (sarif) met_sarif_add(sarif, "metrale.input", MET_DIAG_ERROR, path, 0, 0, err->message);
  return err->code;
}
