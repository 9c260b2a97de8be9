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
// standard output, an output that names an input, --json over several runs. False after
// saying which.
static bool request_ok(const cli_opts_t *o, const char *cmd, const char *one, bool all) {
  const met_target_t *known;
  if (one && !all && met_target_find(one, strlen(one), &known) != MET_OK) {
    fprintf(stderr, "metrale %s: unknown target '%s'; the built-in targets are", cmd, one);
    for (size_t t = 0; t < met_target_builtin_count(); ++t)
      fprintf(stderr, "%s %s", t ? "," : "", met_target_builtin(t)->name);
    fprintf(stderr, " (or all)\n");
    return false;
  }
  // Standard output holds one report: two would run together and neither would parse.
  const char *outs[] = {o->text[MET_OPT_json], o->text[MET_OPT_sarif], o->csv, o->svg};
  const char *out_flags[] = {"--json", "--sarif", "--csv", "--svg"};
  int first_stdout = -1;
  for (int k = 0; k < 4; ++k) {
    if (!outs[k] || strcmp(outs[k], "-")) continue;
    if (first_stdout >= 0) {
      fprintf(stderr, "metrale %s: %s - and %s - both write to standard output; give one a file\n",
              cmd, out_flags[first_stdout], out_flags[k]);
      return false;
    }
    first_stdout = k;
  }
  if (!cli_check_outputs(cmd, o, out_flags, outs, 4)) return false;
  if ((o->nmodels > 1 || all) && o->text[MET_OPT_json]) {
    fprintf(stderr, "metrale %s: --json takes one model and one target; use --csv for several\n", cmd);
    return false;
  }
  if (o->svg && (o->nmodels > 1 || all)) {
    fprintf(stderr, "metrale %s: --svg takes one model and one target\n", cmd);
    return false;
  }
  return true;
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
  if (o->csv) {
    if (csv->status) {
      fprintf(stderr, "metrale: cannot render the CSV: %s\n", met_status_str(csv->status));
      rc = 1;
    } else if (cli_write_output("metrale", o->csv, NULL, csv) && strcmp(o->csv, "-")) {
      rc = 1;
    }
  }
  if (sarif_path) {
    met_strbuf_t sb;
    met_strbuf_initialize(met_allocator_system(), &sb);
    met_sarif_render(sarif, &sb);
    if (sarif->status && !sb.status) sb.status = sarif->status;
    if (cli_write_output("metrale", sarif_path, "the SARIF log ", &sb)) rc = 1;
    met_strbuf_deinitialize(&sb);
  }
  if (o->svg) {
    if (!svg->len) {
      fprintf(stderr, "metrale: no picture: the memory model was not evaluated\n");
      rc = 1;
    } else if (cli_write_output("metrale", o->svg, NULL, svg)) {
      rc = 1;
    }
  }
  return rc;
}

int cmd_analyse(int argc, char **argv, unsigned pass, const char *cmd) {
  cli_opts_t o;
  int rc = cli_parse_opts(argc, argv, pass, cmd, &o);
  if (rc) return rc;
  if (!cli_check_values(&o, pass)) { free(o.models); return 2; }
  // The targets: the one given, every built-in for "all", or the module's own (NULL).
  const char *one = o.text[MET_OPT_target];
  bool all = one && !strcmp(one, "all");
  if (!request_ok(&o, cmd, one, all)) {
    free(o.models);
    return 2;
  }
  size_t ntargets = all ? met_target_builtin_count() : 1;
  bool json_stdout = o.text[MET_OPT_json] && !strcmp(o.text[MET_OPT_json], "-");
  bool csv_stdout = o.csv && !strcmp(o.csv, "-");
  met_strbuf_t text, jout, csv;
  met_strbuf_initialize(met_allocator_system(), &text);
  met_strbuf_initialize(met_allocator_system(), &jout);
  met_strbuf_initialize(met_allocator_system(), &csv);
  if (o.csv) cli_csv_header(&csv, pass);
  met_strbuf_t svg;
  met_strbuf_initialize(met_allocator_system(), &svg);
  sweep_t w = {o.svg ? &svg : NULL, o.csv ? &csv : NULL, NULL, NULL, 0};
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
    MlirModule m = cli_load_path(&o, o.models[i], &ctx);
    bool empty = false;
    if (!mlirModuleIsNull(m) && !cli_has_something(m, pass, cmd, o.models[i], o.sarif)) {
      empty = true;
      mlirModuleDestroy(m);
      mlirContextDestroy(ctx);
      m = (MlirModule){NULL};
    }
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
      if (!cli_run_pass(&o, pass, m, target, &w, &text, &jout, json_stdout, keep_first_error, &fe)) {
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
  rc = write_documents(&o, &csv, &sarif, sarif_path, &svg, failed ? 1 : 0);
  met_sarif_deinitialize(&sarif);
  met_strbuf_deinitialize(&svg);
  met_strbuf_deinitialize(&text);
  met_strbuf_deinitialize(&jout);
  met_strbuf_deinitialize(&csv);
  free(o.models);
  return cli_finish_stdout(rc);
}

