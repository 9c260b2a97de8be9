// metrale/status.h: status codes returned by every fallible function of the core.
//
// The core (lib/) never prints, aborts or exits: it returns a met_status_t and the
// pass layer turns it into a diagnostic at the op it concerns. MET_OK is 0.
// Thread-safe: pure functions and constant data.
#ifndef METRALE_STATUS_H
#define METRALE_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum met_status_e {
  MET_OK = 0,
  MET_ENOMEM = 1,      // an allocation failed (the allocator said no)
  MET_EOVERFLOW = 2,   // a size did not fit in 64 bits
  MET_EINVAL = 3,      // an argument broke the function's contract
  MET_ENOTFOUND = 4,   // a named thing (target, parameter) does not exist
} met_status_t;

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

#ifdef __cplusplus
}
#endif

#endif
