// tools/run_compare.c: what `metrale run` shows of the prediction beside the run (cli.h):
// each predicted dispatch paired with the kernel that ran it (the JSON's dispatches[] and
// the table's error line), and the timeline of both (--trace).
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int by_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

// Each predicted dispatch's kernel in the run (|match|: an index into res->kernels, or
// SIZE_MAX): the next kernel, in the order they ran, that is its first op at its location
// (on mlir-cpu each dispatch is a kernel of the program that runs, one for one).
static void match_dispatches(const met_dispatch_result_t *fr, const met_exec_result_t *res,
                             size_t *match) {
  size_t cursor = 0;
  for (size_t k = 0; k < fr->report->row_count; ++k) {
    const met_dispatch_row_t *row = &fr->report->rows[k];
    const char *name = fr->graph->nodes[row->first_node].name;
    const char *loc = met_graph_node_loc(fr->graph, row->first_node);
    match[k] = SIZE_MAX;
    for (size_t q = cursor; q < res->n_kernels; ++q)
      if (!strcmp(res->kernels[q].name, name) && loc && !strcmp(res->kernels[q].loc, loc)) {
        match[k] = q;
        cursor = q + 1;
        break;
      }
  }
}

// Each dispatch predicted and measured (the JSON's "dispatches": its ops and location,
// predicted_ns, and measured_ns: its kernel's time over every invocation divided by the
// invocations, null when no kernel matched), and the text's summary of the errors.
void cli_run_per_dispatch(met_strbuf_t *j, met_strbuf_t *t, const met_dispatch_result_t *fr,
                          const met_exec_result_t *res) {
  if (!fr || !fr->report) return;
  size_t n = fr->report->row_count, matched = 0;
  size_t *match = calloc(n ? n : 1, sizeof(size_t));
  double *err = calloc(n ? n : 1, sizeof(double));
  if (!match || !err) {
    free(match);
    free(err);
    return;
  }
  match_dispatches(fr, res, match);
  uint64_t runs = res->runs ? res->runs : 1;
  MET_STRBUF_LIT(j, ", \"dispatches\": [");
  for (size_t k = 0; k < n; ++k) {
    const met_dispatch_row_t *row = &fr->report->rows[k];
    met_strbuf_t ops;
    met_strbuf_initialize(met_allocator_system(), &ops);
    met_dispatch_row_ops(&ops, fr->graph, fr->budget, row);
    const char *loc = met_graph_node_loc(fr->graph, row->first_node);
    met_strbuf_cstr(j, k ? ", {\"ops\": " : "{\"ops\": ");
    met_strbuf_json_string(j, ops.data ? ops.data : "");
    MET_STRBUF_LIT(j, ", \"loc\": ");
    met_strbuf_json_string(j, loc ? loc : "");
    met_strbuf_printf(j, ", \"predicted_ns\": %" PRIu64 ", \"measured_ns\": ", row->latency_ns);
    met_strbuf_deinitialize(&ops);
    if (match[k] == SIZE_MAX) {
      MET_STRBUF_LIT(j, "null}");
      continue;
    }
    uint64_t m = res->kernels[match[k]].ns / runs;
    met_strbuf_printf(j, "%" PRIu64 "}", m);
    if (m) err[matched++] = fabs((double)row->latency_ns - (double)m) / (double)m;
  }
  MET_STRBUF_LIT(j, "]");
  if (matched) {
    qsort(err, matched, sizeof(double), by_double);
    met_strbuf_printf(t, "  per dispatch: %zu of %zu matched to a kernel; |predicted - measured| / "
                      "measured: median %.1f%%, worst %.1f%%\n", matched, n,
                      100.0 * err[matched / 2], 100.0 * err[matched - 1]);
  } else {
    met_strbuf_printf(t, "  per dispatch: none of %zu matched to a kernel\n", n);
  }
  free(match);
  free(err);
}


// --trace: the function's predicted dispatches (process 1) and the kernels that ran
// (process 2; none for a function that could not run) on a track each, the kernels in the order they ran, each as long as its
// mean time per invocation (the markers' time over every invocation, cold and warm,
// divided by the invocations), with its location and launches per invocation.
void cli_run_trace(met_trace_t *tr, met_strbuf_t *sb, const met_exec_options_t *eo,
                   unsigned tid, const met_target_t *target, const char *name,
                   const met_dispatch_result_t *result, const met_exec_result_t *res) {
  if (!tr->sb) {
    met_trace_begin(tr, sb, "predicted and measured");
    met_strbuf_t label;
    met_strbuf_initialize(met_allocator_system(), &label);
    met_strbuf_printf(&label, "predicted on %s", target->name);
    met_trace_name(tr, 1, 0, label.data ? label.data : "");
    label.len = 0;
    met_strbuf_printf(&label, "measured on this CPU (%u runs, -O%d)", eo->runs, eo->opt_level);
    met_trace_name(tr, 2, 0, label.data ? label.data : "");
    met_strbuf_deinitialize(&label);
  }
  char label[300];
  snprintf(label, sizeof label, "@%s", name);
  met_trace_name(tr, 1, tid, label);
  met_trace_name(tr, 2, tid, label);
  if (result) met_trace_dispatches(tr, 1, tid, target, result);
  uint64_t at = 0, runs = res->runs ? res->runs : 1;
  for (size_t k = 0; k < res->n_kernels; ++k) {
    const met_exec_kernel_t *kk = &res->kernels[k];
    met_strbuf_t args;
    met_strbuf_initialize(met_allocator_system(), &args);
    met_strbuf_printf(&args, "{\"kernel\": %zu, \"loc\": ", k);
    met_strbuf_json_string(&args, kk->loc);
    met_strbuf_printf(&args, ", \"launches_per_run\": %" PRIu64 ", \"ns_total\": %" PRIu64
                      ", \"runs\": %" PRIu64 "}", kk->launches / runs, kk->ns, runs);
    met_trace_slice(tr, 2, tid, kk->name, "kernel", at, kk->ns / runs,
                    args.data ? args.data : "{}");
    if (args.status) sb->status = args.status;
    met_strbuf_deinitialize(&args);
    at += kk->ns / runs;
  }
}
