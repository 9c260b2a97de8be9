// parse.c: strict parsing of user-given numbers (rules in metrale/parse.h).
// Expected workload: a handful of short strings per run.
#include "metrale/parse.h"

#include <inttypes.h>
#include <stdio.h>

met_status_t met_parse_u64(const char *s, size_t len, uint64_t min, uint64_t max,
                           uint64_t *out) {
  if (!s || len == 0) return MET_EINVAL;
  uint64_t v = 0;
  bool over = false;
  for (size_t i = 0; i < len; ++i) {
    if (s[i] < '0' || s[i] > '9') return MET_EINVAL;
    unsigned d = (unsigned)(s[i] - '0');
    if (v > (UINT64_MAX - d) / 10) over = true;  // keep scanning: junk is still EINVAL
    else v = v * 10 + d;
  }
  if (over || v < min || v > max) return MET_EOVERFLOW;
  *out = v;
  return MET_OK;
}

met_status_t met_parse_ppm(const char *s, size_t len, uint32_t *out) {
  if (!s || len == 0) return MET_EINVAL;
  size_t i = 0;
  uint64_t whole = 0, frac = 0, scale = 1000000;
  bool digits = false, beyond = false;  // beyond: a nonzero digit past 1 ppm
  for (; i < len && s[i] >= '0' && s[i] <= '9'; ++i) {
    digits = true;
    if (whole < 10) whole = whole * 10 + (uint64_t)(s[i] - '0');  // >= 10 is out anyway
  }
  if (i < len && s[i] == '.') {
    for (++i; i < len && s[i] >= '0' && s[i] <= '9'; ++i) {
      digits = true;
      if (scale > 1) { scale /= 10; frac += (uint64_t)(s[i] - '0') * scale; }
      else if (s[i] != '0') beyond = true;
    }
  }
  if (i != len || !digits) return MET_EINVAL;
  if (whole > 1 || (whole == 1 && (frac || beyond))) return MET_EOVERFLOW;
  uint64_t ppm = whole * 1000000 + frac;
  if (beyond) return ppm ? MET_EINVAL : MET_EOVERFLOW;  // 0.0000001: below the range too
  if (ppm == 0) return MET_EOVERFLOW;
  *out = (uint32_t)ppm;
  return MET_OK;
}

bool met_parse_option_u64(const char *name, const char *s, size_t len, uint64_t min,
                          uint64_t max, uint64_t *out, char *msg, size_t msg_len) {
  if (met_parse_u64(s, len, min, max, out) == MET_OK) return true;
  int shown = len > 64 ? 64 : (int)len;
  snprintf(msg, msg_len,
           "invalid %s='%.*s%s': expected a whole number from %" PRIu64 " to %" PRIu64
           " (digits only, no sign or spaces)",
           name, shown, s ? s : "", len > 64 ? "..." : "", min, max);
  return false;
}
