// passes/report/output.h: writing a rendered report where the user asked for it.
#ifndef METRALE_PASSES_OUTPUT_H
#define METRALE_PASSES_OUTPUT_H

#include <stdbool.h>

#include "metrale/passes.h"
#include "metrale/strbuf.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

// Writes |sb|, the |what| ("JSON report", "plan picture", ...), to |path|: "-" appends to
// |out| when given, else stdout. On failure an error naming |what| is emitted at |loc|
// and false returned.
bool met_output_write(MlirLocation loc, MlirStringRef path, const met_strbuf_t *sb,
                      met_strbuf_t *out, const char *what, met_diag_fn_t diag, void *user);
// met_output_write of a rendered |sb| (|what|: "JSON report", ...), which fails with an
// error at |loc| when the rendering did; then releases |sb|.
bool met_output_rendered(MlirLocation loc, MlirStringRef path, met_strbuf_t *sb,
                         met_strbuf_t *out, const char *what, met_diag_fn_t diag, void *user);

#ifdef __cplusplus
}
#endif

#endif
