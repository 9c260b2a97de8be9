// passes/report/output.h: writing a rendered report where the user asked for it.
#ifndef METRALE_PASSES_OUTPUT_H
#define METRALE_PASSES_OUTPUT_H

#include <stdbool.h>

#include "ir/diag.h"
#include "metrale/strbuf.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

// Writes |sb|, the |what| ("JSON report", "plan picture", ...), to |path|: "-" appends to
// |out| when given, else stdout. On failure an error naming |what| is emitted at |loc|
// and its status returned (MET_EEXTERNAL: the file system refused it).
met_status_t met_output_write(MlirLocation loc, MlirStringRef path, const met_strbuf_t *sb,
                              met_strbuf_t *out, const char *what, met_diag_fn_t diag,
                              void *user);
// The one writer of a file (the passes' outputs, the commands', `metrale run`'s dumps):
// |sb| into the file |path| (NUL-terminated; "-" is a file name here), created or
// truncated. MET_OK, or MET_EEXTERNAL with the system's reason in |*err_no| (EIO when it
// gave none); the caller says it, where it speaks.
met_status_t met_output_file(const char *path, const met_strbuf_t *sb, int *err_no);
// met_output_write of a rendered |sb| (|what|: "JSON report", ...), which fails with an
// error at |loc| when the rendering did; then releases |sb|.
met_status_t met_output_rendered(MlirLocation loc, MlirStringRef path, met_strbuf_t *sb,
                                 met_strbuf_t *out, const char *what, met_diag_fn_t diag,
                                 void *user);

// Checks, before any work, the files a run will write: |paths[k]| (given by option
// |flags[k]|, e.g. "--json" or "json="; NULL, "" and "-" are not files) must not be one of
// the |inputs| (the same file by device and inode, not by name: the model would be
// overwritten), nor the file of another of |paths| (only the last would stay), and must
// be writable: an existing file that is not a directory and may be written, or a new name
// in a directory that exists and may be written. Character devices (/dev/null) may be
// given more than once. MET_EINVAL, with the reason in |err|, when one is not.
met_status_t met_output_paths_check(const char *const *inputs, size_t ninputs,
                                    const char *const *flags, const char *const *paths, size_t n,
                                    met_error_t *err);
// Whether standard output and standard error (where a command's table and diagnostics go)
// are redirected to one of the |inputs| (the same file by device and inode: `metrale
// budget m.mlir >> m.mlir` appended the table to the model). MET_EINVAL with the reason
// in |err|, an empty message when standard error is the model (nothing may be said there).
met_status_t met_output_streams_check(const char *const *inputs, size_t ninputs,
                                      met_error_t *err);
// Whether the model at |path| nests its brackets ({, [, ( outside strings and comments)
// at most MET_INPUT_MAX_NESTING levels deep. MLIR's parser and walks recurse once per
// nested region, about 2 KiB of stack a level, and slow down quadratically with depth
// (10,000 levels parse in 2.4 s, 50,000 in minutes): the commands run on a 1 GiB stack
// and refuse deeper models before parsing them. MET_EUNSUPPORTED with the reason (and the
// line where the limit is passed, also in .line) in |err|; MET_OK when the file cannot be
// read (the parser says why).
enum { MET_INPUT_MAX_NESTING = 10000 };
met_status_t met_input_nesting_check(const char *path, met_error_t *err);
// met_output_paths_check for a pass: the input is the file |module| was read from (its
// location's), |paths| the pass's options; an error at the module, and its status, when
// one is refused.
met_status_t met_output_check_module(MlirOperation module, const char *const *flags,
                                     const MlirStringRef *paths, size_t n, met_diag_fn_t diag,
                                     void *user);

#ifdef __cplusplus
}
#endif

#endif
