// status.c: the English names of met_status_t and the met_error_t helpers (metrale/status.h).
#include "metrale/status.h"

#include <stdarg.h>
#include <stdio.h>

const char *met_status_str(met_status_t s) {
  switch (s) {
    case MET_OK: return "ok";
    case MET_ENOMEM: return "out of memory";
    case MET_EOVERFLOW: return "size overflows 64 bits";
    case MET_EINVAL: return "invalid argument";
    case MET_ENOTFOUND: return "not found";
    case MET_EUNSUPPORTED: return "not supported";
    case MET_EEXTERNAL: return "an external step failed";
    case MET_ELIMIT: return "over a limit";
  }
  return "unknown status";
}

void met_error_init(met_error_t *e) {
  if (!e) return;
  e->code = MET_OK;
  e->node = e->line = e->offset = MET_NOWHERE;
  e->loc = NULL;
  e->message[0] = 0;
}

static met_status_t error_vset(met_error_t *e, met_status_t code, const char *fmt, va_list ap) {
  if (!e) return code;
  e->code = code;
  // vsnprintf truncates to the buffer and always terminates it (C11 7.21.6.12).
  if (vsnprintf(e->message, sizeof e->message, fmt, ap) < 0) e->message[0] = 0;
  return code;
}

met_status_t met_error_set(met_error_t *e, met_status_t code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  met_status_t s = error_vset(e, code, fmt, ap);
  va_end(ap);
  return s;
}

met_status_t met_error_at_line(met_error_t *e, met_status_t code, size_t line, size_t offset,
                               const char *fmt, ...) {
  if (e) {
    e->line = line;
    e->offset = offset;
  }
  va_list ap;
  va_start(ap, fmt);
  met_status_t s = error_vset(e, code, fmt, ap);
  va_end(ap);
  return s;
}

const char *met_error_message(const met_error_t *e) {
  if (!e) return met_status_str(MET_EINVAL);
  return e->message[0] ? e->message : met_status_str(e->code);
}
