// diag.c: the list of diagnostics an analysis collects on its own thread, to be emitted
// later in a fixed order (see passes/adapter.h). Messages live in the run's arena.
#include <stdarg.h>
#include <stdio.h>

#include "adapter.h"


met_status_t met_diag_add(met_arena_t *arena, met_diag_list_t *list, MlirLocation loc,
                          met_diag_severity_t sev, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const char *msg = met_arena_vprintf(arena, fmt, ap);
  va_end(ap);
  if (!msg) return MET_ENOMEM;
  MET_RETURN_IF_ERROR(met_arena_reserve(arena, (void **)&list->items, &list->cap, list->count,
                        sizeof(met_diag_t)));
  list->items[list->count++] = (met_diag_t){loc, sev, msg};
  return MET_OK;
}
