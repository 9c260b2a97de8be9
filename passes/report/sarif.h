// passes/report/sarif.h: the run's diagnostics as a SARIF 2.1.0 log (OASIS Static Analysis
// Results Interchange Format), for editors (VS Code's SARIF viewer) and code-scanning CI.
// A met_sarif_t is a met_diag_fn_t sink placed in front of the real one: it records every
// diagnostic (file, line, column, level, message, its rule) and passes it on.
// Thread-compatible: the runners emit diagnostics on the calling thread.
#ifndef METRALE_PASSES_SARIF_H
#define METRALE_PASSES_SARIF_H

#include <stdbool.h>
#include <stddef.h>

#include "metrale/arena.h"
#include "ir/diag.h"
#include "metrale/strbuf.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct met_sarif_result_t {
  int rule;                 // index into the rule table (sarif.c)
  met_diag_severity_t severity;
  const char *message;      // in the sink's arena
  const char *file;         // NULL: no location
  int line, col;
  const char *field;        // a breached limit's field: the rule "metrale.limit.FIELD"
} met_sarif_result_t;

typedef struct met_sarif_t {
  met_arena_t arena;
  met_sarif_result_t *items;
  size_t count, cap;
  met_diag_fn_t next;       // where diagnostics go on to (may be NULL)
  void *next_user;
  met_status_t status;      // the first failure to record one
} met_sarif_t;

void met_sarif_initialize(met_sarif_t *s, met_diag_fn_t next, void *next_user);
void met_sarif_deinitialize(met_sarif_t *s);
// A met_diag_fn_t: |user| is a met_sarif_t.
void met_sarif_diag(void *user, MlirLocation loc, met_diag_severity_t severity,
                    const char *message);
// Records one result without passing it on (what the caller has already said, without a
// context: a file that cannot be read, the parser's errors): rule |rule| by its id
// ("metrale.parse-error"; NULL: by the message's phrase, as met_sarif_diag), |file| NULL or
// "" for none, |line| 0 for none.
void met_sarif_add(met_sarif_t *s, const char *rule, met_diag_severity_t severity,
                   const char *file, int line, int col, const char *message);
// The log: one run of the tool "metrale", the rules that occurred (id, short description,
// help URI into the README), one result per diagnostic with its level, message, physical
// location and, for the reports' summaries, every "name=value" number of the message in
// properties.metrics.
void met_sarif_render(const met_sarif_t *s, met_strbuf_t *sb);

#ifdef __cplusplus
}
#endif

#endif
