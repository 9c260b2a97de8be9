// tools/cli.h: what the files of the `metrale` command share. cli.c: the helpers every
// command uses (usage, diagnostics, options, reading a model; cli_files.c: reading a file
// whole, writing a document, standard output's failure); the commands, one file
// each: cmd_targets.c, cmd_analyse.c (budget, memory, dispatch; its runs and CSV rows in
// sweep.c, what a sweep holds of a model's output in cli_once.c), cmd_plan.c (with
// cmd_plan_csv.c for plan --buffers), cmd_diff.c, cmd_run.c (with run_compare.c);
// metrale.c is main. Calls go
// main -> commands; the commands call cli.c, and budget, memory and dispatch also sweep.c
// and cli_once.c, which call no command (plan hands --buffers to cmd_plan_buffers).
// Internal to the tool.
#ifndef METRALE_TOOLS_CLI_H
#define METRALE_TOOLS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "adapter/adapter.h"
#include "cli_once.h"
#include "metrale/arena.h"
#include "metrale/options.h"
#include "metrale/strbuf.h"
#include "metrale/target.h"
#include "mlir-c/IR.h"
#include "metrale/dispatch.h"
#include "run/exec_run.h"

// The commands (cli.c): each one's synopsis, what it does, and its flags that are not in
// metrale/options.def (|pass|: the MET_PASS_* whose .def options it takes; 0 none).
typedef struct cli_command_t {
  const char *name;
  unsigned pass;
  const char *synopsis, *about, *flags;
} cli_command_t;
extern const cli_command_t cli_commands[];
extern const size_t cli_command_count;
// `metrale --help`: every command's synopsis and what it does.
void cli_print_usage(FILE *f);
// One command's synopsis and where its options are listed (after a usage error).
void cli_print_synopsis(FILE *f, const char *cmd);
// `metrale CMD --help`: its synopsis, what it does, and every option it takes.
void cli_print_command_help(FILE *f, const char *cmd);
// Whether --help or -h is among the arguments.
bool cli_help_asked(int argc, char **argv);

typedef struct cli_diag_t { bool remarks; } cli_diag_t;

typedef struct cli_opts_t {
  const char *model;                // the first model (the only one for `run`)
  const char **models;              // every model given, in order
  size_t nmodels;
  const char *csv;                  // --csv FILE|-
  const char *svg, *function;       // metrale plan: --svg FILE, --function NAME
  const char *buffers_out;          // metrale plan: --buffers-out FILE (the problem as CSV)
  const char *text[MET_OPT_COUNT];  // TEXT and NUM options given (NULL: not given)
  bool flag[MET_OPT_COUNT];         // FLAG options given
  bool unregistered;
  cli_diag_t d;
  struct met_sarif_t *sarif;        // --sarif's log (NULL: none): a file that cannot be read
                                    // or parsed, or holds nothing, is a result there too
} cli_opts_t;

static inline MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

// Diagnostics printed like the compiler's: "file:line:col: severity: message".
void cli_print_diag(MlirLocation loc, const char *sev, const char *msg);
void cli_on_diag(void *user, MlirLocation loc, met_diag_severity_t sev, const char *msg);
// Exit status |rc|, or 1 when standard output could not be written.
int cli_finish_stdout(int rc);
// The tools' errors follow metrale/status.h: a helper returns a met_status_t (or, for a
// flag taker, whether the argument was its flag) and fills a met_error_t with what went
// wrong; the command says it, once, with cli_say, and chooses its exit status. A helper
// never prints, and nothing exits but main.
//
// "|prefix|: message" on standard error (|prefix|: "metrale", "metrale diff", ...), unless
// |e|'s message is empty (a failure already said, or one that must not be: standard error
// is an input or output of the command). Returns |e|'s code.
met_status_t cli_say(const char *prefix, const met_error_t *e);
// Whether argv[*i] is |flag| ("|flag| VALUE" or "|flag|=VALUE"); when it is, its value is
// in |*out| (and *i past it), or |err| says why it is refused: missing, empty, looking
// like an option, or given twice (bad usage). A parse loop runs while err->code is MET_OK.
bool cli_take_nonempty(int argc, char **argv, int *i, const char *flag, const char **out,
                       met_error_t *err);
// Options of command |pass| (MET_PASS_*) from metrale/options.def; 0 or the exit status.
int cli_parse_opts(int argc, char **argv, unsigned pass, const char *cmd, cli_opts_t *o);
// Every option value checked with the passes' own parsers: MET_OK, or MET_EINVAL with
// |err| saying which value and why (bad usage, exit status 2).
met_status_t cli_check_values(const cli_opts_t *o, unsigned pass, met_error_t *err);
// Every file a command writes (|paths[k]| of flag |flags[k]|, e.g. "--json"; NULL and "-"
// are none), checked before any work: not one of the models, not another of them,
// writable (met_output_paths_check). MET_OK, or the status with |err| saying why (its
// message empty when standard error is one of the models: not a word there).
met_status_t cli_check_outputs(const cli_opts_t *o, const char *const *flags,
                               const char *const *paths, size_t n, met_error_t *err);
// Parses o->model; NULL (after the parser's located errors) when it cannot.
MlirModule cli_load(const cli_opts_t *o, MlirContext *out_ctx);
// Parses the model at |path| with |o|'s parser options, as cli_load.
MlirModule cli_load_path(const cli_opts_t *o, const char *path, MlirContext *out_ctx);

// Whether the module at |path| holds something the command of |pass| analyses (a
// func.func with a body; for memory also a global): MET_OK, or MET_EUNSUPPORTED with
// |err| saying so, also recorded in |sarif| (NULL: none). The command then exits 1 (the
// pass, in a pipeline, only warns).
met_status_t cli_has_something(MlirModule m, unsigned pass, const char *path,
                               struct met_sarif_t *sarif, met_error_t *err);

// sweep.c: the state of a sweep over models and targets.
typedef struct sweep_t {
  met_strbuf_t *svg;        // memory --svg: the picture of the (first) model, on the
                            // target its run resolved (the option's, the DLTI spec's)
  met_strbuf_t *csv;        // NULL: no CSV
  const char *model, *target;
  size_t rows;              // rows written for the current (model, target)
  bool grid;                // memory with a sweep: a row per cell, with its sequences
                            // and tokens in two more columns
} sweep_t;
// The CSV header of command |pass|'s rows (|grid|: the memory sweep's two more columns).
void cli_csv_header(met_strbuf_t *sb, unsigned pass, bool grid);
// A row with only an error: the model or the run failed before any function's row.
void cli_csv_error_row(sweep_t *w, unsigned pass, const char *error);
// One (model, target): the runner of |pass| with the command's options (|target| NULL:
// the options' own), its rows into |w|. The runner's status (its errors are diagnostics,
// said through |diag|).
met_status_t cli_run_pass(cli_opts_t *o, unsigned pass, MlirModule m, const char *target,
                          sweep_t *w, met_strbuf_t *text, met_strbuf_t *jout, bool json_stdout,
                  met_diag_fn_t diag, void *duser);

// run_compare.c: `metrale run`'s view of the prediction beside the run. Each predicted
// dispatch of |fr| (NULL: none) with the time of the kernel that ran it, matched by op and
// location in the order they ran: the JSON's ", \"dispatches\": [...]" into |j|, the
// error line (median, worst) into the table |t|.
void cli_run_per_dispatch(met_strbuf_t *j, met_strbuf_t *t, const met_dispatch_result_t *fr,
                          const met_exec_result_t *res);
// --trace: function |name|'s predicted dispatches (process 1) and the kernels that ran
// (process 2; none when it could not run) on track |tid| of the trace |tr| writes into
// |sb| (begun, with its process names, at the first call).
void cli_run_trace(met_trace_t *tr, met_strbuf_t *sb, const met_exec_options_t *eo,
                   unsigned tid, const met_target_t *target, const char *name,
                   const met_dispatch_result_t *result, const met_exec_result_t *res);

// The commands, called by main (metrale.c); each returns the exit status.
int cmd_targets(int argc, char **argv);                                   // cmd_targets.c
int cmd_analyse(int argc, char **argv, unsigned pass, const char *cmd);   // cmd_analyse.c
// Writes |sb| to |path| ('-': standard output), the one way every command writes a
// document (its CSV, JSON, SARIF, SVG, plan). MET_OK; else its status, with |err| saying
// "cannot write WHAT'PATH': why" (|what| may be NULL, or "the SARIF log ") for a file, and
// nothing for standard output (its failure is said once, when the command ends).
met_status_t cli_write_output(const char *path, const char *what, const met_strbuf_t *sb,
                              met_error_t *err);

// The whole of |path| ('-': standard input; a regular file or a pipe) into |*out|
// (malloc'ed, NUL-terminated), read to its end (a /proc file says size 0). MET_OK, or the
// status with |err| saying "cannot read 'PATH': why". At most |max_bytes| (a power of
// two); past it the message says |why_max|.
met_status_t cli_read_file(const char *path, size_t max_bytes, const char *why_max,
                           char **out, size_t *len, met_error_t *err);
int cmd_plan(int argc, char **argv);
// `metrale plan --buffers ...` (cmd_plan_csv.c): whether |argv| asks for it, and the command.
bool cli_plan_wants_buffers(int argc, char **argv);
int cmd_plan_buffers(int argc, char **argv);                                      // cmd_plan.c
int cmd_diff(int argc, char **argv);                                      // cmd_diff.c
int cmd_run(int argc, char **argv);                                       // cmd_run.c

#endif
