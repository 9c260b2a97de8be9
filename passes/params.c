// params.c: parsing the parameter-argument selection of the params= option
// ("0,2-5,7-", "all", "float", "none"). See passes/params.h.
#include <stdint.h>
#include <string.h>

#include "params.h"

bool met_param_spec_parse(const char *s, size_t len, met_param_spec_t *out,
                          const char **why) {
  memset(out, 0, sizeof(*out));
  *why = NULL;
  if (len == 0 || (len == 4 && !memcmp(s, "none", 4))) return true;
  if (len == 3 && !memcmp(s, "all", 3)) { out->all = true; return true; }
  if (len == 5 && !memcmp(s, "float", 5)) { out->floats = true; return true; }
  size_t i = 0;
  while (i < len) {
    int64_t lo = 0, hi;
    size_t start = i;
    while (i < len && s[i] >= '0' && s[i] <= '9') {
      if (lo > (INT64_MAX - 9) / 10) { *why = "index too large"; return false; }
      lo = lo * 10 + (s[i++] - '0');
    }
    if (i == start) { *why = "expected an argument index"; return false; }
    hi = lo;
    if (i < len && s[i] == '-') {
      ++i;
      if (i == len || s[i] == ',') {
        hi = INT64_MAX;
      } else {
        size_t hs = i;
        hi = 0;
        while (i < len && s[i] >= '0' && s[i] <= '9') {
          if (hi > (INT64_MAX - 9) / 10) { *why = "index too large"; return false; }
          hi = hi * 10 + (s[i++] - '0');
        }
        if (i == hs) { *why = "expected the end of a range"; return false; }
        if (hi < lo) { *why = "a range ends before it starts"; return false; }
      }
    }
    if (out->range_count == 64) { *why = "more than 64 ranges"; return false; }
    out->lo[out->range_count] = lo;
    out->hi[out->range_count++] = hi;
    if (i < len) {
      if (s[i] != ',') { *why = "expected ',' between indices"; return false; }
      ++i;
      if (i == len) { *why = "trailing ','"; return false; }
    }
  }
  return true;
}
