// limits.c: see metrale/limits.h.
#include "metrale/limits.h"

#include <stdio.h>
#include <string.h>

#include "metrale/parse.h"

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
      if (b[i].kind == MET_FIELD_POLICY || b[i].kind == MET_FIELD_PLAN) return false;  // names
      *family = MET_LIMIT_BUDGET, *is_min = false, *canon = b[i].name;
      return true;
    }
  const met_dispatch_field_t *d = met_dispatch_fields(&n);
  for (size_t i = 0; i < n; ++i)
    if (named(d[i].name, name, len)) {
      if (d[i].kind == MET_DFIELD_BOOL) return false;
      // A rate (bytes per second) is better higher: its limit is a minimum.
      *family = MET_LIMIT_DISPATCH, *is_min = d[i].kind == MET_DFIELD_RATE, *canon = d[i].name;
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

// Levenshtein distance of two short names (capped at 255 bytes each).
static size_t distance(const char *a, size_t la, const char *b, size_t lb) {
  if (la > 255) la = 255;
  if (lb > 255) lb = 255;
  size_t row[256];
  for (size_t j = 0; j <= lb; ++j) row[j] = j;
  for (size_t i = 1; i <= la; ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; ++j) {
      size_t up = row[j];
      size_t best = diag + (a[i - 1] != b[j - 1]);
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      if (up + 1 < best) best = up + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

const char *met_limit_nearest(const char *name, size_t len) {
  const char *near = NULL;
  size_t best = len / 3 + 1, n;
  met_limit_family_t f;
  bool m;
  const char *c;
  const met_budget_field_t *b = met_budget_fields(&n);
  for (size_t i = 0; i < n; ++i)
    if (met_limit_field(b[i].name, strlen(b[i].name), &f, &m, &c)) {
      size_t d = distance(name, len, b[i].name, strlen(b[i].name));
      if (d < best) { best = d; near = b[i].name; }
    }
  const met_dispatch_field_t *dd = met_dispatch_fields(&n);
  for (size_t i = 0; i < n; ++i)
    if (met_limit_field(dd[i].name, strlen(dd[i].name), &f, &m, &c)) {
      size_t d = distance(name, len, dd[i].name, strlen(dd[i].name));
      if (d < best) { best = d; near = dd[i].name; }
    }
  const met_memory_field_t *mm = met_memory_fields(&n);
  for (size_t i = 0; i < n; ++i)
    if (met_limit_field(mm[i].name, strlen(mm[i].name), &f, &m, &c)) {
      size_t d = distance(name, len, mm[i].name, strlen(mm[i].name));
      if (d < best) { best = d; near = mm[i].name; }
    }
  return near;
}

met_status_t met_limits_parse(const char *s, size_t len, met_limit_item_t *items, size_t cap,
                              size_t *n, met_error_t *err) {
  *n = 0;
  if (!len) return met_error_set(err, MET_EINVAL, "expected FIELD=VALUE,... (arena_bytes=8MiB,dispatches=40)");
  size_t i = 0;
  while (i <= len) {
    size_t e = i;
    while (e < len && s[e] != ',') ++e;
    const char *item = s + i;
    size_t il = e - i, eq = 0;
    while (eq < il && item[eq] != '=') ++eq;
    if (!il || eq == il || eq == 0 || eq + 1 == il) {
      return met_error_set(err, MET_EINVAL, "item '%.*s' is no FIELD=VALUE (arena_bytes=8MiB,dispatches=40)",
               (int)(il > 64 ? 64 : il), item);
    }
    met_limit_item_t it = {0};
    if (!met_limit_field(item, eq, &it.family, &it.is_min, &it.field)) {
      const char *near = met_limit_nearest(item, eq);
      return met_error_set(err, MET_EINVAL, "'%.*s' is no numeric field of the Budget, the dispatch stats or "
               "the memory model%s%s%s", (int)(eq > 64 ? 64 : eq), item,
               near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
    }
    for (size_t k = 0; k < *n; ++k)
      if (items[k].field == it.field) {
        return met_error_set(err, MET_EINVAL, "'%s' is given twice", it.field);
      }
    uint64_t max = it.is_min ? INT64_MAX : UINT64_MAX;
    const char *v = item + eq + 1;
    size_t vl = il - eq - 1;
    bool bytes = met_limit_field_is_bytes(it.field, strlen(it.field));
    met_status_t st = bytes ? met_parse_size(v, vl, 0, max, &it.value)
                            : met_parse_u64(v, vl, 0, max, &it.value);
    if (st) {
      return met_error_set(err, MET_EINVAL, "'%.*s' for %s: %s", (int)(vl > 64 ? 64 : vl), v, it.field,
               bytes ? (st == MET_EOVERFLOW ? "a size out of range" : MET_SIZE_EXPECTED)
                     : (st == MET_EOVERFLOW ? "a number out of range" : "expected a whole number"));
    }
    if (*n == cap) return met_error_set(err, MET_EINVAL, "more than %zu limits", cap);
    it.text = item;
    it.text_len = il;
    items[(*n)++] = it;
    if (e == len) break;
    i = e + 1;
    if (i == len) return met_error_set(err, MET_EINVAL, "a limit after each ','");
  }
  return MET_OK;
}

const char *met_limit_family_name(met_limit_family_t f) {
  return f == MET_LIMIT_BUDGET ? "the Budget" : f == MET_LIMIT_DISPATCH ? "the dispatch stats"
                                                                       : "the memory model";
}

const char *met_limit_family_checker(met_limit_family_t f) {
  return f == MET_LIMIT_BUDGET ? "metrale-budget (metrale budget)"
         : f == MET_LIMIT_DISPATCH ? "metrale-dispatch (metrale dispatch)"
                                   : "metrale-memory (metrale memory)";
}
