// limits.c: see metrale/limits.h.
#include "metrale/limits.h"

#include <string.h>

#include "metrale/dispatch.h"
#include "metrale/memory_report.h"

static bool named(const char *a, const char *name, size_t len) {
  return strlen(a) == len && !memcmp(a, name, len);
}

bool met_limit_field(const char *name, size_t len, met_limit_family_t *family, bool *is_min,
                     const char **canon) {
  size_t n;
  const met_budget_field_t *b = met_budget_fields(&n);
  for (size_t i = 0; i < n; ++i)
    if (named(b[i].name, name, len)) {
      if (b[i].kind == MET_FIELD_POLICY) return false;
      *family = MET_LIMIT_BUDGET, *is_min = false, *canon = b[i].name;
      return true;
    }
  const met_dispatch_field_t *d = met_dispatch_fields(&n);
  for (size_t i = 0; i < n; ++i)
    if (named(d[i].name, name, len)) {
      if (d[i].kind == MET_DFIELD_BOOL) return false;
      *family = MET_LIMIT_DISPATCH, *is_min = false, *canon = d[i].name;
      return true;
    }
  const met_memory_field_t *m = met_memory_fields(&n);
  for (size_t i = 0; i < n; ++i)
    if (named(m[i].name, name, len)) {
      if (m[i].kind == MET_MFIELD_BOOL) return false;
      *family = MET_LIMIT_MEMORY, *canon = m[i].name;
      *is_min = m[i].kind == MET_MFIELD_SIGNED;  // headroom: more is better
      return true;
    }
  return false;
}

bool met_limit_field_is_bytes(const char *name, size_t len) {
  size_t n;
  const met_budget_field_t *b = met_budget_fields(&n);
  for (size_t i = 0; i < n; ++i)
    if (named(b[i].name, name, len)) return b[i].kind == MET_FIELD_BYTES;
  const met_dispatch_field_t *d = met_dispatch_fields(&n);
  for (size_t i = 0; i < n; ++i)
    if (named(d[i].name, name, len)) return d[i].kind == MET_DFIELD_BYTES;
  const met_memory_field_t *m = met_memory_fields(&n);
  for (size_t i = 0; i < n; ++i)
    if (named(m[i].name, name, len))
      return m[i].kind == MET_MFIELD_BYTES || m[i].kind == MET_MFIELD_SIGNED;
  return false;
}

size_t met_limit_top(const uint64_t *v, size_t n, size_t k, size_t *out) {
  size_t got = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!v[i]) continue;
    // Insert i into out[0..got), kept largest first; an equal value stays behind.
    size_t at = got;
    while (at > 0 && v[out[at - 1]] < v[i]) --at;
    if (at >= k) continue;
    size_t end = got < k ? got : k - 1;
    memmove(out + at + 1, out + at, (end - at) * sizeof(*out));
    out[at] = i;
    if (got < k) ++got;
  }
  return got;
}
