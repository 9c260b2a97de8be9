// dispatch_report.c: the renderers of the dispatch stats (metrale/dispatch.h): JSON and
// the readable table. No I/O.
#include <inttypes.h>
#include <string.h>

#include "metrale/dispatch.h"
#include "metrale/report.h"

void met_dispatch_row_ops(met_strbuf_t *sb, const met_graph_t *g, const met_budget_report_t *b,
                          const met_dispatch_row_t *r) {
  uint32_t shown = 0, more = 0;
  for (size_t n = r->first_node; n < g->node_count; ++n) {
    if (b->group_of_node[n] != r->group) continue;
    if (shown == 4) { ++more; continue; }
    if (shown++) MET_STRBUF_LIT(sb, "+");
    met_strbuf_cstr(sb, g->nodes[n].name);
  }
  if (more) met_strbuf_printf(sb, "+%u more", more);
}

// The row's op names as a JSON string: names are the user's (an unregistered "a\"b.op").
static void json_ops(met_strbuf_t *sb, const met_dispatch_result_t *fr,
                     const met_dispatch_row_t *r) {
  met_strbuf_t ops;
  met_strbuf_initialize(sb->allocator, &ops);
  met_dispatch_row_ops(&ops, fr->graph, fr->budget, r);
  if (ops.status && !sb->status) sb->status = ops.status;
  met_strbuf_json_string(sb, ops.data ? ops.data : "");
  met_strbuf_deinitialize(&ops);
}

static void json_stats(met_strbuf_t *sb, const met_dispatch_stats_t *s) {
  size_t n;
  const met_dispatch_field_t *f = met_dispatch_fields(&n);
  MET_STRBUF_LIT(sb, "{");
  for (size_t i = 0; i < n; ++i) {
    met_strbuf_printf(sb, "%s\"%s\": ", i ? ", " : "", f[i].name);
    if (f[i].kind == MET_DFIELD_BOOL)
      met_strbuf_cstr(sb, met_dispatch_field_u64(s, &f[i]) ? "true" : "false");
    else
      met_strbuf_u64(sb, met_dispatch_field_u64(s, &f[i]));
  }
  MET_STRBUF_LIT(sb, "}");
}

void met_dispatch_json(met_strbuf_t *sb, const met_target_t *target,
                       const met_dispatch_result_t *fns, size_t count) {
  MET_STRBUF_LIT(sb, "{\"target\": ");
  met_report_json_target(sb, target);
  MET_STRBUF_LIT(sb, ",\n \"functions\": [");
  for (size_t i = 0; i < count; ++i) {
    const met_dispatch_result_t *fr = &fns[i];
    met_strbuf_cstr(sb, i ? ",\n  {\"name\": " : "\n  {\"name\": ");
    met_strbuf_json_string(sb, fr->name);
    if (fr->signature) {
      MET_STRBUF_LIT(sb, ", \"signature\": ");
      met_strbuf_json_string(sb, fr->signature);
    }
    if (!fr->report) {
      MET_STRBUF_LIT(sb, ", \"error\": ");
      met_strbuf_json_string(sb, fr->error ? fr->error : "not analysed");
      MET_STRBUF_LIT(sb, "}");
      continue;
    }
    met_strbuf_printf(sb, ", \"complete\": %s, \"flops\": %" PRIu64 ", \"dispatch_stats\": ",
                      fr->complete ? "true" : "false", fr->report->flops);
    json_stats(sb, &fr->report->stats);
    MET_STRBUF_LIT(sb, ",\n   \"dispatches\": [");
    for (size_t k = 0; k < fr->report->row_count; ++k) {
      const met_dispatch_row_t *r = &fr->report->rows[k];
      met_strbuf_cstr(sb, k ? ",\n    {" : "\n    {");
      const char *loc = met_graph_node_loc(fr->graph, r->first_node);
      const char *sep = "";
#define MET_DISPATCH_ROW(name, kind) \
      met_strbuf_printf(sb, "%s\"" #name "\": ", sep); \
      sep = ", ";                                   \
      ROW_##kind(name);
#define ROW_OPS(name) json_ops(sb, fr, r);
#define ROW_LOC(name) met_strbuf_json_string(sb, loc ? loc : "");
#define ROW_U64(name) met_strbuf_u64(sb, r->name);
#define ROW_BOOL(name) met_strbuf_cstr(sb, r->name ? "true" : "false");
#define ROW_BOUND(name) met_strbuf_printf(sb, "\"%s\"", met_bound_name(r->name));
#include "metrale/dispatch_rows.def"
#undef MET_DISPATCH_ROW
#undef ROW_OPS
#undef ROW_LOC
#undef ROW_U64
#undef ROW_BOOL
#undef ROW_BOUND
      MET_STRBUF_LIT(sb, "}");
    }
    MET_STRBUF_LIT(sb, "]}");
  }
  MET_STRBUF_LIT(sb, "]}\n");
}

void met_dispatch_text(met_strbuf_t *sb, const met_target_t *target,
                       const met_dispatch_result_t *fns, size_t count, bool per_dispatch) {
  size_t n;
  const met_dispatch_field_t *f = met_dispatch_fields(&n);
  for (size_t i = 0; i < count; ++i) {
    const met_dispatch_result_t *fr = &fns[i];
    met_strbuf_printf(sb, "%s@%s on %s (%s, %s allocation)\n", i ? "\n" : "", fr->name,
                      target->name, met_exec_model_name(target->dispatch.execution_model),
                      met_alloc_model_name(target->dispatch.allocation_model));
    if (!fr->report) {
      met_strbuf_printf(sb, "  not analysed: %s\n", fr->error ? fr->error : "?");
      continue;
    }
    for (size_t k = 0; k < n; ++k) {
      uint64_t v = met_dispatch_field_u64(&fr->report->stats, &f[k]);
      met_strbuf_printf(sb, "  %-36s ", f[k].name);
      if (f[k].kind == MET_DFIELD_BOOL) {
        met_strbuf_cstr(sb, v ? "true" : "false");
      } else {
        met_strbuf_printf(sb, "%15" PRIu64, v);
        if (f[k].kind == MET_DFIELD_BYTES) {
          MET_STRBUF_LIT(sb, "  ");
          met_report_bytes(sb, v);
        } else if (f[k].kind == MET_DFIELD_NS) {
          met_strbuf_printf(sb, "  %.3f ms", (double)v / 1e6);
        } else if (f[k].kind == MET_DFIELD_RATE) {
          met_strbuf_printf(sb, "  %.2f GB/s", (double)v / 1e9);
        }
      }
      MET_STRBUF_LIT(sb, "\n");
    }
    if (!fr->complete)
      met_strbuf_printf(sb, "  (a lower bound: %s; see the warnings)\n",
                        fr->report->flops_complete
                            ? "some byte counts are not known"
                            : "the FLOPs of some ops are not known, so latency_ns is too");
    if (!per_dispatch) continue;
    // Rows are dispatches; a dispatch may launch several kernels (its column), and on a
    // megakernel target one persistent kernel runs them all (kernel_launches above).
    bool mega = target->dispatch.execution_model == MET_EXEC_MEGAKERNEL;
    met_strbuf_printf(sb, "  %zu dispatches, %s%" PRIu64 " kernel launch%s (%" PRIu64
                      " FLOPs in all):\n", fr->report->row_count,
                      mega ? "run by " : "", fr->report->stats.kernel_launches,
                      fr->report->stats.kernel_launches == 1 ? "" : "es", fr->report->flops);
    met_strbuf_printf(sb, "  %5s %14s %16s %8s %12s %-8s  %s\n", "#", "bytes", "flops",
                      "kernels", "ns", "bound", "ops at location");
    for (size_t k = 0; k < fr->report->row_count; ++k) {
      const met_dispatch_row_t *r = &fr->report->rows[k];
      const char *loc = met_graph_node_loc(fr->graph, r->first_node);
      met_strbuf_printf(sb, "  %5zu %14" PRIu64 " %15" PRIu64 "%s %8" PRIu64 " %12" PRIu64
                        " %-8s  ", k, r->bytes, r->flops, r->flops_complete ? " " : "+",
                        r->launches, r->latency_ns, met_bound_name(r->bound));
      met_dispatch_row_ops(sb, fr->graph, fr->budget, r);
      if (loc) {
        MET_STRBUF_LIT(sb, " at ");
        met_strbuf_cstr(sb, loc);
      }
      MET_STRBUF_LIT(sb, "\n");
    }
  }
}

// ns as the trace format's microseconds, exact: "1234.567".
static void trace_us(met_strbuf_t *sb, uint64_t ns) {
  met_strbuf_printf(sb, "%" PRIu64 ".%03u", ns / 1000u, (unsigned)(ns % 1000u));
}

static void trace_next(met_trace_t *t) {
  met_strbuf_cstr(t->sb, t->any ? ",\n  " : "\n  ");
  t->any = true;
}

void met_trace_begin(met_trace_t *t, met_strbuf_t *sb, const char *timeline) {
  t->sb = sb;
  t->any = false;
  MET_STRBUF_LIT(sb, "{\"displayTimeUnit\": \"ns\", \"otherData\": {\"timeline\": ");
  met_strbuf_json_string(sb, timeline);
  MET_STRBUF_LIT(sb, "},\n \"traceEvents\": [");
}

void met_trace_name(met_trace_t *t, unsigned pid, unsigned tid, const char *name) {
  trace_next(t);
  met_strbuf_printf(t->sb, "{\"name\": \"%s\", \"ph\": \"M\", \"pid\": %u, \"tid\": %u, "
                    "\"args\": {\"name\": ", tid ? "thread_name" : "process_name", pid, tid);
  met_strbuf_json_string(t->sb, name);
  MET_STRBUF_LIT(t->sb, "}}");
}

void met_trace_slice(met_trace_t *t, unsigned pid, unsigned tid, const char *name,
                     const char *cat, uint64_t ts_ns, uint64_t dur_ns, const char *args) {
  trace_next(t);
  MET_STRBUF_LIT(t->sb, "{\"name\": ");
  met_strbuf_json_string(t->sb, name);
  MET_STRBUF_LIT(t->sb, ", \"cat\": ");
  met_strbuf_json_string(t->sb, cat);
  met_strbuf_printf(t->sb, ", \"ph\": \"X\", \"pid\": %u, \"tid\": %u, \"ts\": ", pid, tid);
  trace_us(t->sb, ts_ns);
  MET_STRBUF_LIT(t->sb, ", \"dur\": ");
  trace_us(t->sb, dur_ns);
  met_strbuf_printf(t->sb, ", \"args\": %s}", args && *args ? args : "{}");
}

uint64_t met_trace_dispatches(met_trace_t *t, unsigned pid, unsigned tid,
                              const met_target_t *target, const met_dispatch_result_t *fr) {
  uint64_t at = 0;
  if (!fr->report) return 0;
  met_strbuf_t ops, args;
  met_strbuf_initialize(met_allocator_system(), &ops);
  met_strbuf_initialize(met_allocator_system(), &args);
  for (size_t k = 0; k < fr->report->row_count; ++k) {
    const met_dispatch_row_t *r = &fr->report->rows[k];
    ops.len = args.len = 0;
    met_dispatch_row_ops(&ops, fr->graph, fr->budget, r);
    const char *loc = met_graph_node_loc(fr->graph, r->first_node);
    met_strbuf_printf(&args, "{\"dispatch\": %zu, \"loc\": ", k);
    met_strbuf_json_string(&args, loc ? loc : "");
    met_strbuf_printf(&args, ", \"bytes\": %" PRIu64 ", \"flops\": %" PRIu64
                      ", \"launches\": %" PRIu64 ", \"latency_ns\": %" PRIu64
                      ", \"bound\": \"%s\"}", r->bytes, r->flops, r->launches, r->latency_ns,
                      met_bound_name(r->bound));
    met_strbuf_cstr(&ops, "");  // a string even when empty
    met_strbuf_cstr(&args, "");
    met_trace_slice(t, pid, tid, ops.data ? ops.data : "", "dispatch", at, r->latency_ns,
                    args.data);
    at += r->latency_ns;
  }
  if (ops.status || args.status) t->sb->status = ops.status ? ops.status : args.status;
  met_strbuf_deinitialize(&ops);
  met_strbuf_deinitialize(&args);
  // What latency_ns holds beyond the dispatches (dispatch.h): an offloading target's
  // transfers over the host link, a megakernel's one launch floor.
  if (fr->report->stats.latency_ns > at) {
    const char *what = target->dispatch.execution_model != MET_EXEC_MEGAKERNEL
                           ? "host link transfers"
                       : target->dispatch.offload ? "the megakernel's launch and host link transfers"
                                                  : "the megakernel's launch";
    met_trace_slice(t, pid, tid, what, "transfer", at, fr->report->stats.latency_ns - at, NULL);
    at = fr->report->stats.latency_ns;
  }
  return at;
}

void met_trace_end(met_trace_t *t) { MET_STRBUF_LIT(t->sb, "\n ]}\n"); }

void met_dispatch_trace(met_strbuf_t *sb, const met_target_t *target,
                        const met_dispatch_result_t *fns, size_t count) {
  met_trace_t t;
  met_trace_begin(&t, sb, "predicted");
  met_strbuf_t label;
  met_strbuf_initialize(met_allocator_system(), &label);
  MET_STRBUF_LIT(&label, "predicted on ");
  met_strbuf_cstr(&label, target->name);
  met_trace_name(&t, 1, 0, label.data ? label.data : "");
  for (size_t i = 0; i < count; ++i) {
    if (!fns[i].report) continue;
    label.len = 0;
    MET_STRBUF_LIT(&label, "@");
    met_strbuf_cstr(&label, fns[i].name);
    met_trace_name(&t, 1, (unsigned)i + 1, label.data ? label.data : "");
    met_trace_dispatches(&t, 1, (unsigned)i + 1, target, &fns[i]);
  }
  if (label.status) sb->status = label.status;
  met_strbuf_deinitialize(&label);
  met_trace_end(&t);
}
