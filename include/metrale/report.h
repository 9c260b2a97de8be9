// metrale/report.h: renderers that turn Budget results into text: the JSON report and the
// human-readable table. They write into a met_strbuf_t and do no I/O.
// Thread-compatible: one buffer per caller.
#ifndef METRALE_REPORT_H
#define METRALE_REPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "metrale/budget.h"
#include "metrale/graph.h"
#include "metrale/status.h"
#include "metrale/strbuf.h"
#include "metrale/target.h"

// One analysed function, as the renderers take it.
typedef struct met_function_result_t {
  const char *name;
  const char *signature;              // its function type as MLIR prints it, or NULL
  const met_graph_t *graph;           // NULL when the analysis failed
  const met_budget_report_t *report;  // NULL when the analysis failed
  const char *error;                  // set when the analysis failed
} met_function_result_t;

// The whole JSON document: {"target": {...}, "functions": [...]}, each function with its
// "signature" where known (what `metrale diff` compares its inputs by). Field names are the
// met_budget_t field names. Arguments list each function argument's bytes and role;
// buffers list every planned slot.
void met_report_json(met_strbuf_t *sb, const met_target_t *target,
                     const met_function_result_t *fns, size_t count);
// The JSON object of one target (used by `metrale targets --json` too).
void met_report_json_target(met_strbuf_t *sb, const met_target_t *target);
// A table per function: one line per Budget field, bytes in units a person reads.
void met_report_text(met_strbuf_t *sb, const met_target_t *target,
                     const met_function_result_t *fns, size_t count);
// "12.0 MiB", "512 B": |bytes| in binary units with one decimal.
void met_report_bytes(met_strbuf_t *sb, uint64_t bytes);
// The name of a value role ("input", "parameter", ...).
const char *met_report_role_name(int role);

#endif
