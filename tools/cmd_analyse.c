// tools/cmd_analyse.c: `metrale budget`, `metrale memory` and `metrale dispatch`: the
// runners of the passes on one or more models and targets (a sweep), as tables, JSON,
// CSV, SARIF and the memory picture. Its runs per (model, target) and CSV rows are
// tools/sweep.c's; what a sweep holds of a model's output, tools/cli_once.c's.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runners.h"
#include "metrale/strbuf.h"
#include "metrale/target.h"
#include "mlir-c/IR.h"
#include "report/sarif.h"
#include "cli.h"

// What the command line asks that no run can give: an unknown target, two reports on
// standard output, an output that names an input, --json over several runs. MET_OK, or
// the status with |err| saying which (bad usage). The runner resolves the target itself
// (with the module's DLTI overrides); this lookup only refuses a name before any model
// is read.
static met_status_t request_check(const cli_opts_t *o, const char *one, bool all,
                                  met_error_t *err) {
  const met_target_t *known;
  if (one && !all && met_target_lookup(one, strlen(one), &known, err) != MET_OK) {
    size_t n = strlen(err->message);
    snprintf(err->message + n, sizeof err->message - n, " (or all)");
    return err->code;
  }
  // Standard output holds one report: two would run together and neither would parse.
  const char *outs[] = {o->text[MET_OPT_json], o->text[MET_OPT_sarif], o->csv, o->svg,
                        o->text[MET_OPT_trace]};
  const char *out_flags[] = {"--json", "--sarif", "--csv", "--svg", "--trace"};
  int first_stdout = -1;
  for (int k = 0; k < 5; ++k) {
    if (!outs[k] || strcmp(outs[k], "-")) continue;
    if (first_stdout >= 0)
      return met_error_set(err, MET_EINVAL, "%s - and %s - both write to standard output; "
                           "give one a file", out_flags[first_stdout], out_flags[k]);
    first_stdout = k;
  }
  MET_RETURN_IF_ERROR(cli_check_outputs(o, out_flags, outs, 5, err));
  if ((o->nmodels > 1 || all) && o->text[MET_OPT_json])
    return met_error_set(err, MET_EINVAL, "--json takes one model and one target; use --csv "
                         "for several");
  if (o->svg && (o->nmodels > 1 || all))
    return met_error_set(err, MET_EINVAL, "--svg takes one model and one target");
  if (o->text[MET_OPT_trace] && (o->nmodels > 1 || all))
    return met_error_set(err, MET_EINVAL, "--trace takes one model and one target");
  return MET_OK;
}

// A diagnostic sink that keeps the first error's message (a CSV row's error cell: what the
// run said, not only that it failed) and passes every diagnostic on.
typedef struct first_error_t {
  met_diag_fn_t next;
  void *next_user;
  char message[512];
} first_error_t;

static void keep_first_error(void *user, MlirLocation loc, met_diag_severity_t severity,
                             const char *message) {
  first_error_t *f = user;
  if (severity == MET_DIAG_ERROR && !f->message[0] && message)
    snprintf(f->message, sizeof f->message, "%s", message);
  f->next(f->next_user, loc, severity, message);
}

// The sweep's documents once every run is done: the CSV, the SARIF log and the SVG, each
// to its file or standard output. |rc| as the runs left it; 1 when one cannot be written.
static int write_documents(const cli_opts_t *o, met_strbuf_t *csv, met_sarif_t *sarif,
                           const char *sarif_path, met_strbuf_t *svg, int rc) {
  met_error_t err;
  met_error_init(&err);
  if (o->csv) {
    if (csv->status) {
      met_error_set(&err, csv->status, "cannot render the CSV: %s", met_status_str(csv->status));
      rc = 1;
    } else if (cli_write_output(o->csv, NULL, csv, &err) && strcmp(o->csv, "-")) {
      rc = 1;
    }
    cli_say("metrale", &err);
    met_error_init(&err);
  }
  if (sarif_path) {
    met_strbuf_t sb;
    met_strbuf_initialize(met_allocator_system(), &sb);
    met_sarif_render(sarif, &sb);
    if (sarif->status && !sb.status) sb.status = sarif->status;
    if (cli_write_output(sarif_path, "the SARIF log ", &sb, &err)) rc = 1;
    cli_say("metrale", &err);
    met_error_init(&err);
    met_strbuf_deinitialize(&sb);
  }
  if (o->svg) {
    if (!svg->len) met_error_set(&err, MET_EINVAL, "no picture: the memory model was not evaluated");
    else cli_write_output(o->svg, NULL, svg, &err);
    if (err.code) rc = 1;
    cli_say("metrale", &err);
  }
  return rc;
}

// The model at |path| parsed, with something the command of |pass| analyses; else a null
// module, after the parser's located errors or "PREFIX: nothing to analyse..." (|*empty|).
static MlirModule load_model(cli_opts_t *o, unsigned pass, const char *prefix,
                             const char *path, MlirContext *ctx, bool *empty) {
  MlirModule m = cli_load_path(o, path, ctx);
  met_error_t err;
  met_error_init(&err);
  if (mlirModuleIsNull(m) || !cli_has_something(m, pass, path, o->sarif, &err)) return m;
  cli_say(prefix, &err);
  *empty = true;
  mlirModuleDestroy(m);
  mlirContextDestroy(*ctx);
  return (MlirModule){NULL};
}

// Whether a document takes standard output in place of the text: the JSON report or the
// timeline (never both: request_check refused that).
static bool doc_on_stdout(const cli_opts_t *o) {
  return (o->text[MET_OPT_json] && !strcmp(o->text[MET_OPT_json], "-")) ||
         (o->text[MET_OPT_trace] && !strcmp(o->text[MET_OPT_trace], "-"));
}

int cmd_analyse(int argc, char **argv, unsigned pass, const char *cmd) {
  cli_opts_t o;
  int rc = cli_parse_opts(argc, argv, pass, cmd, &o);
  if (rc) return rc;
  // The targets: the one given, every built-in for "all", or the module's own (NULL).
  const char *one = o.text[MET_OPT_target];
  bool all = one && !strcmp(one, "all");
  met_error_t err;
  met_error_init(&err);
  char prefix[32];  // "metrale CMD": a request the command refuses
  snprintf(prefix, sizeof prefix, "metrale %s", cmd);
  if (cli_check_values(&o, pass, &err) ? cli_say("metrale", &err)
                                       : request_check(&o, one, all, &err) ? cli_say(prefix, &err)
                                                                           : MET_OK) {
    free(o.models);
    return 2;
  }
  size_t ntargets = all ? met_target_builtin_count() : 1;
  bool json_stdout = doc_on_stdout(&o);
  bool csv_stdout = o.csv && !strcmp(o.csv, "-");
  met_strbuf_t text, jout, csv;
  met_strbuf_initialize(met_allocator_system(), &text);
  met_strbuf_initialize(met_allocator_system(), &jout);
  met_strbuf_initialize(met_allocator_system(), &csv);
  bool grid = pass == MET_PASS_MEMORY &&
              (o.text[MET_OPT_sweep_sequences] || o.text[MET_OPT_sweep_tokens]);
  if (o.csv) cli_csv_header(&csv, pass, grid);
  met_strbuf_t svg;
  met_strbuf_initialize(met_allocator_system(), &svg);
  sweep_t w = {o.svg ? &svg : NULL, o.csv ? &csv : NULL, NULL, NULL, 0, grid};
  // --sarif FILE: every diagnostic of the sweep also goes into one log.
  const char *sarif_path = o.text[MET_OPT_sarif];
  // A document on stdout (--csv -, --sarif -) is all stdout gets.
  bool doc_stdout = csv_stdout || (sarif_path && !strcmp(sarif_path, "-"));
  met_sarif_t sarif;
  met_sarif_initialize(&sarif, cli_on_diag, &o.d);
  if (sarif_path) o.sarif = &sarif;
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
    bool empty = false;
    MlirModule m = load_model(&o, pass, prefix, o.models[i], &ctx, &empty);
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
        if (w.csv)
          cli_csv_error_row(&w, pass, empty ? "nothing to analyse" : "the model could not be parsed");
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
      first_error_t fe = {hold ? cli_once_diag : sink, hold ? (void *)&once : sink_user, ""};
      if (cli_run_pass(&o, pass, m, target, &w, &text, &jout, json_stdout, keep_first_error, &fe)) {
        ++failed;
        if (w.csv && !w.rows) cli_csv_error_row(&w, pass, fe.message[0] ? fe.message : "not evaluated");
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
      if (cli_once_flush(&once, o.models[i], &err)) {
        cli_say("metrale", &err);
        ++failed;
      }
    }
    if (!mlirModuleIsNull(m)) {
      mlirModuleDestroy(m);
      mlirContextDestroy(ctx);
    }
  }
  cli_once_deinitialize(&once);
  if (progress) fprintf(stderr, "\r\033[K");
  if (json_stdout && jout.len) fwrite(jout.data, 1, jout.len, stdout);
  rc = write_documents(&o, &csv, &sarif, sarif_path, &svg, failed ? 1 : 0);
  met_sarif_deinitialize(&sarif);
  met_strbuf_deinitialize(&svg);
  met_strbuf_deinitialize(&text);
  met_strbuf_deinitialize(&jout);
  met_strbuf_deinitialize(&csv);
  free(o.models);
  return cli_finish_stdout(rc);
}

