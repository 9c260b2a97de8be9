// status.c: the English names of met_status_t (metrale/status.h).
#include "metrale/status.h"

const char *met_status_str(met_status_t s) {
  switch (s) {
    case MET_OK: return "ok";
    case MET_ENOMEM: return "out of memory";
    case MET_EOVERFLOW: return "size overflows 64 bits";
    case MET_EINVAL: return "invalid argument";
    case MET_ENOTFOUND: return "not found";
  }
  return "unknown status";
}
