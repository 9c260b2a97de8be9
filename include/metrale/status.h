// metrale/status.h: the one error idiom of metrale (lib/, passes/, tools/, tools/run/).
//
// Every fallible function returns a met_status_t (MET_OK is 0) and callers propagate it with
// MET_RETURN_IF_ERROR. Where the failing function knows more than a code (what was wrong,
// where: a graph node, a line or byte of a text it parsed, an IR location), it fills a
// caller-given met_error_t (IREE's iree_status_t carries the same: code, message, place),
// and the layer that owns the output renders it: the passes as a diagnostic at the op or
// the error's location, the commands on stderr. A function of the pass layer that holds
// a diagnostic sink emits its message there, at the op's location, and returns the status
// (MLIR's emitError + failure()).
//
// The core (lib/) never prints, aborts or exits. Thread-safe: pure functions and constant
// data; a met_error_t belongs to its caller.
#ifndef METRALE_STATUS_H
#define METRALE_STATUS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum met_status_e {
  MET_OK = 0,
  MET_ENOMEM = 1,      // an allocation failed (the allocator said no)
  MET_EOVERFLOW = 2,   // a size did not fit in 64 bits
  MET_EINVAL = 3,      // an argument broke the function's contract
  MET_ENOTFOUND = 4,   // a named thing (target, parameter) does not exist
  MET_EUNSUPPORTED = 5,  // the input is valid but uses what this analysis or run does not handle
  MET_EEXTERNAL = 6,   // a part outside metrale failed: an MLIR pass pipeline, the JIT,
                       // the compiled code, the operating system (files, processes)
  MET_ELIMIT = 7,      // a report is over a limit the user set (limits=, metrale.limits):
                       // the analysis succeeded, the model breaks its budget
} met_status_t;

// The room of met_error_t.message: two file paths of 2 KiB and the words around them.
#define MET_ERROR_MESSAGE_MAX 4352

// No place known (met_error_t.node, .line, .offset).
#define MET_NOWHERE ((size_t)-1)

// What failed, and where. Zero-initialised is not enough: start with met_error_init.
typedef struct met_error_s {
  met_status_t code;   // MET_OK until a failure is recorded
  size_t node;         // the graph node at fault (met_graph_t.nodes index), or MET_NOWHERE
  size_t line;         // the 1-based line of a parsed text at fault, or MET_NOWHERE
  size_t offset;       // the 0-based byte of a parsed text at fault, or MET_NOWHERE
  const void *loc;     // an IR location from the layer above (an MlirLocation's ptr), or NULL
  char message[MET_ERROR_MESSAGE_MAX];  // one line, NUL-terminated, truncated to fit; ""
                                       // while code is MET_OK
} met_error_t;

// |e| as "nothing failed". NULL is allowed (and ignored) by every met_error_* function.
void met_error_init(met_error_t *e);

// Records |code| with the printf-style message in |e| (its place fields untouched) and
// returns |code|, so a failure is one statement: return met_error_set(e, MET_EINVAL, ...).
met_status_t met_error_set(met_error_t *e, met_status_t code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

// As met_error_set, with the 1-based |line| (and, when not MET_NOWHERE, byte |offset|).
met_status_t met_error_at_line(met_error_t *e, met_status_t code, size_t line, size_t offset,
                               const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

// The message of |e|: its text, or met_status_str(code) when it has none. Never NULL.
const char *met_error_message(const met_error_t *e);

// Returns a static, NUL-terminated English name for |s| ("ok", "out of memory", ...).
// (lib/status.c)
const char *met_status_str(met_status_t s);

// Evaluates |expr| (a met_status_t) once and returns it from the calling function when it
// is not MET_OK (IREE's IREE_RETURN_IF_ERROR). The one early-return idiom of metrale.
#define MET_RETURN_IF_ERROR(expr)          \
  do {                                     \
    met_status_t met_status_ = (expr);     \
    if (met_status_ != MET_OK) return met_status_; \
  } while (0)

// Evaluates |expr| (a met_status_t) and keeps it in |st| while |st| is still MET_OK: for
// loops that report every failure (each function's, each limit's) and fail with the first.
#define MET_KEEP_FIRST(st, expr)                     \
  do {                                               \
    met_status_t met_kept_ = (expr);                 \
    if ((st) == MET_OK) (st) = met_kept_;            \
  } while (0)

#ifdef __cplusplus
}
#endif

#endif
