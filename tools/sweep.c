// tools/sweep.c: the sweeps of `metrale budget|memory|dispatch` (cli.h): one run of
// a pass per (model, target) with the command's options, and its rows of CSV (RFC 4180),
// one per function with every field of the report.
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrale/options.h"
#include "metrale/plan_svg.h"
#include "runners.h"
#include "metrale/report.h"
#include "cli.h"

// One CSV cell (RFC 4180: quoted when it holds a comma, a quote or a line break).
static void csv_cell(met_strbuf_t *sb, const char *s, bool first) {
  if (!first) MET_STRBUF_LIT(sb, ",");
  if (!s) s = "";
  if (!strpbrk(s, ",\"\r\n")) { met_strbuf_cstr(sb, s); return; }
  MET_STRBUF_LIT(sb, "\"");
  for (const char *p = s; *p; ++p) {
    if (*p == '"') MET_STRBUF_LIT(sb, "\"");
    met_strbuf_append(sb, p, 1);
  }
  MET_STRBUF_LIT(sb, "\"");
}

static void csv_u64(met_strbuf_t *sb, uint64_t v) {
  MET_STRBUF_LIT(sb, ",");
  met_strbuf_u64(sb, v);
}

void cli_csv_header(met_strbuf_t *sb, unsigned pass, bool grid) {
  csv_cell(sb, "model", true);
  csv_cell(sb, "target", false);
  csv_cell(sb, "function", false);
  csv_cell(sb, "error", false);
  size_t n;
  if (pass == MET_PASS_BUDGET) {
    const met_budget_field_t *f = met_budget_fields(&n);
    for (size_t k = 0; k < n; ++k) csv_cell(sb, f[k].name, false);
  } else if (pass == MET_PASS_MEMORY) {
    const met_memory_field_t *f = met_memory_fields(&n);  // "complete" is one of them
    for (size_t k = 0; k < n; ++k) csv_cell(sb, f[k].name, false);
    if (grid) MET_STRBUF_LIT(sb, ",sequences,tokens");
    MET_STRBUF_LIT(sb, "\n");
    return;
  } else {
    const met_dispatch_field_t *f = met_dispatch_fields(&n);
    for (size_t k = 0; k < n; ++k) csv_cell(sb, f[k].name, false);
  }
  csv_cell(sb, "complete", false);
  MET_STRBUF_LIT(sb, "\n");
}

// |t|: the target the row was computed for (NULL: the one asked for, if any).
static void csv_start(sweep_t *w, const met_target_t *t, const char *function,
                      const char *error) {
  csv_cell(w->csv, w->model, true);
  csv_cell(w->csv, t ? t->name : w->target ? w->target : "", false);
  csv_cell(w->csv, function, false);
  csv_cell(w->csv, error, false);
  ++w->rows;
}

// A row with only an error: the model or the run failed before any function's row.
void cli_csv_error_row(sweep_t *w, unsigned pass, const char *error) {
  size_t n;
  if (pass == MET_PASS_BUDGET) met_budget_fields(&n);
  else if (pass == MET_PASS_MEMORY) met_memory_fields(&n);
  else met_dispatch_fields(&n);
  csv_start(w, NULL, "", error);
  // Every field empty, and the complete column (the memory model's is one of its fields).
  for (size_t k = 0; k < n + (pass != MET_PASS_MEMORY); ++k) MET_STRBUF_LIT(w->csv, ",");
  if (pass == MET_PASS_MEMORY && w->grid) MET_STRBUF_LIT(w->csv, ",,");
  MET_STRBUF_LIT(w->csv, "\n");
}

static void on_budget_row(void *user, const met_target_t *t, const char *name,
                          const met_budget_t *b, bool complete, const char *error) {
  sweep_t *w = user;
  if (!w->csv) return;
  size_t n;
  const met_budget_field_t *f = met_budget_fields(&n);
  csv_start(w, t, name, error);
  for (size_t k = 0; k < n; ++k) {
    if (!b) MET_STRBUF_LIT(w->csv, ",");
    else if (met_budget_field_text(b, &f[k])) csv_cell(w->csv, met_budget_field_text(b, &f[k]), false);
    else csv_u64(w->csv, met_budget_field_u64(b, &f[k]));
  }
  csv_cell(w->csv, b ? (complete ? "true" : "false") : "", false);
  MET_STRBUF_LIT(w->csv, "\n");
}

// One memory row: the report's fields (|r|, whose totals may be a grid cell's).
static void memory_row(sweep_t *w, const met_target_t *t, const met_memory_report_t *r) {
  size_t n;
  const met_memory_field_t *f = met_memory_fields(&n);
  csv_start(w, t, "", NULL);
  for (size_t k = 0; k < n; ++k) {
    if (f[k].kind == MET_MFIELD_BOOL) {
      csv_cell(w->csv, met_memory_field_u64(r, &f[k]) ? "true" : "false", false);
    } else if (f[k].kind == MET_MFIELD_SIGNED) {
      met_strbuf_printf(w->csv, ",%" PRId64, met_memory_field_i64(r, &f[k]));
    } else {
      csv_u64(w->csv, met_memory_field_u64(r, &f[k]));
    }
  }
}

// The memory model's rows: one, or with a sweep one per cell (its totals, its sequences
// and tokens), sequences first.
static void on_memory_row(void *user, const met_target_t *t, const met_memory_report_t *r) {
  sweep_t *w = user;
  if (w->svg && !w->svg->len && t) (void)met_memory_svg(w->svg, t, r);
  if (!w->csv) return;
  if (!w->grid || !r->grid) {
    memory_row(w, t, r);
    met_strbuf_printf(w->csv, "%s\n", w->grid ? ",," : "");
    return;
  }
  met_memory_report_t cell = *r;
  for (size_t i = 0; i < r->grid->nseq; ++i)
    for (size_t j = 0; j < r->grid->ntok; ++j) {
      cell.totals = r->grid->cells[i][j].totals;
      memory_row(w, t, &cell);
      met_strbuf_printf(w->csv, ",%" PRIu64 ",%" PRIu64 "\n", r->grid->sequences[i],
                        r->grid->tokens[j]);
    }
}

static void on_dispatch_row(void *user, const met_target_t *t, MlirOperation func,
                            const char *name,
                            const met_dispatch_stats_t *s, const met_budget_t *budget,
                            bool complete, const uint8_t *resident, size_t nargs,
                            const char *error, const met_dispatch_result_t *result) {
  (void)func, (void)budget, (void)resident, (void)nargs, (void)result;
  sweep_t *w = user;
  if (!w->csv) return;
  size_t n;
  const met_dispatch_field_t *f = met_dispatch_fields(&n);
  csv_start(w, t, name, error);
  for (size_t k = 0; k < n; ++k) {
    if (!s) MET_STRBUF_LIT(w->csv, ",");
    else if (f[k].kind == MET_DFIELD_BOOL) csv_cell(w->csv, met_dispatch_field_u64(s, &f[k]) ? "true" : "false", false);
    else csv_u64(w->csv, met_dispatch_field_u64(s, &f[k]));
  }
  csv_cell(w->csv, s ? (complete ? "true" : "false") : "", false);
  MET_STRBUF_LIT(w->csv, "\n");
}

// One (model, target): the runner of |pass| with the command's options; its status.
met_status_t cli_run_pass(cli_opts_t *o, unsigned pass, MlirModule m, const char *target,
                          sweep_t *w, met_strbuf_t *text, met_strbuf_t *jout, bool json_stdout,
                          met_diag_fn_t diag, void *duser) {
  const char *saved = o->text[MET_OPT_target];
  if (target) o->text[MET_OPT_target] = target;
  met_status_t st;
  // The command's options as the runners take them (one fill: each runner reads its own).
  met_run_options_t run;
  memset(&run, 0, sizeof(run));
  for (int i = 0; i < MET_OPT_COUNT; ++i) {
    met_run_member_t m = met_run_option_member(&run, i);
    if (m.text) *m.text = ref(o->text[i] ? o->text[i] : "");
    if (m.flag) *m.flag = o->flag[i];
  }
  if (pass == MET_PASS_MEMORY) {
    met_memory_run_options_t mo = {.run = run, .on_report = on_memory_row, .on_report_user = w};
    st = met_memory_run(mlirModuleGetOperation(m), &mo, diag, duser,
                        json_stdout ? NULL : text, jout);
  } else if (pass == MET_PASS_DISPATCH) {
    met_dispatch_run_options_t dop = {.run = run, .on_function = on_dispatch_row,
                                      .on_function_user = w};
    st = met_dispatch_run(mlirModuleGetOperation(m), &dop, diag, duser,
                          json_stdout ? NULL : text, jout);
  } else {
    met_budget_run_options_t bo = {.run = run, .on_function = on_budget_row,
                                   .on_function_user = w};
    // The command's --remarks (op-remarks has no flag here); a SARIF log holds every
    // finding the run made, whatever the terminal shows (cli_on_diag filters remarks).
    bo.run.op_remarks = o->d.remarks || o->text[MET_OPT_sarif];
    st = met_budget_run(mlirModuleGetOperation(m), &bo, diag, duser,
                        json_stdout ? NULL : text, jout);
  }
  o->text[MET_OPT_target] = saved;
  return st;
}
