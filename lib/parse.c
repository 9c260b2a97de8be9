// parse.c: strict parsing of user-given numbers (rules in metrale/parse.h).
// Expected workload: a handful of short strings per run.
#include "metrale/parse.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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

met_status_t met_parse_option_u64(const char *name, const char *s, size_t len, uint64_t min,
                                  uint64_t max, uint64_t *out, met_error_t *err) {
  met_status_t st = met_parse_u64(s, len, min, max, out);
  if (st == MET_OK) return MET_OK;
  int shown = len > 64 ? 64 : (int)len;
  return met_error_set(err, st,
                       "invalid %s='%.*s%s': expected a whole number from %" PRIu64
                       " to %" PRIu64 " (digits only, no sign or spaces)",
                       name, shown, s ? s : "", len > 64 ? "..." : "", min, max);
}

met_status_t met_parse_option_u64_list(const char *name, const char *s, size_t len,
                                       uint64_t min, uint64_t max, size_t cap, uint64_t *out,
                                       size_t *count, met_error_t *err) {
  *count = 0;
  int shown = len > 64 ? 64 : (int)len;
  if (!s || !len)
    return met_error_set(err, MET_EINVAL, "invalid %s='': expected whole numbers separated by "
                         "',' (e.g. 1,8,32)", name);
  for (size_t i = 0; i <= len;) {
    size_t j = i;
    while (j < len && s[j] != ',') ++j;
    uint64_t v;
    if (met_parse_u64(s + i, j - i, min, max, &v) != MET_OK)
      return met_error_set(err, MET_EINVAL, "invalid %s='%.*s%s': item '%.*s' is not a whole "
                           "number from %" PRIu64 " to %" PRIu64, name, shown, s,
                           len > 64 ? "..." : "", (int)(j - i > 32 ? 32 : j - i), s + i, min, max);
    if (*count == cap)
      return met_error_set(err, MET_EINVAL, "invalid %s='%.*s%s': more than %zu items", name,
                           shown, s, len > 64 ? "..." : "", cap);
    if (*count && v <= out[*count - 1])
      return met_error_set(err, MET_EINVAL, "invalid %s='%.*s%s': the items must increase "
                           "(%" PRIu64 " after %" PRIu64 ")", name, shown, s,
                           len > 64 ? "..." : "", v, out[*count - 1]);
    out[(*count)++] = v;
    i = j + 1;
  }
  return MET_OK;
}

// The units of met_parse_size: |five| and |two| the powers of 5 and 2 of their factor.
static const struct { const char *name; unsigned five, two; } kUnits[] = {
    {"B", 0, 0},     {"kB", 3, 3},    {"KB", 3, 3},   {"MB", 6, 6},    {"GB", 9, 9},
    {"TB", 12, 12},  {"PB", 15, 15},  {"KiB", 0, 10}, {"MiB", 0, 20},  {"GiB", 0, 30},
    {"TiB", 0, 40},  {"PiB", 0, 50},
};

// |v| times 5^a times 2^b, false on overflow.
static bool scale_up(uint64_t v, unsigned a, unsigned b, uint64_t *out) {
  for (unsigned i = 0; i < a; ++i) {
    if (v > UINT64_MAX / 5) return false;
    v *= 5;
  }
  for (unsigned i = 0; i < b; ++i) {
    if (v > UINT64_MAX / 2) return false;
    v *= 2;
  }
  *out = v;
  return true;
}

met_status_t met_parse_size(const char *s, size_t len, uint64_t min, uint64_t max,
                            uint64_t *out) {
  if (!s || len == 0) return MET_EINVAL;
  size_t i = 0, whole_end, frac_begin = 0, frac_digits = 0;
  while (i < len && s[i] >= '0' && s[i] <= '9') ++i;
  whole_end = i;
  if (whole_end == 0) return MET_EINVAL;
  if (i < len && s[i] == '.') {
    frac_begin = ++i;
    while (i < len && s[i] >= '0' && s[i] <= '9') ++i;
    frac_digits = i - frac_begin;
    if (frac_digits == 0 || frac_digits > 18) return MET_EINVAL;
  }
  unsigned five = 0, two = 0;
  bool unit = false;
  if (i < len) {
    for (size_t k = 0; k < sizeof(kUnits) / sizeof(kUnits[0]) && !unit; ++k) {
      size_t ul = strlen(kUnits[k].name);
      if (ul == len - i && !memcmp(s + i, kUnits[k].name, ul)) {
        unit = true;
        five = kUnits[k].five;
        two = kUnits[k].two;
      }
    }
    if (!unit) return MET_EINVAL;
  }
  if (frac_digits && !unit) return MET_EINVAL;  // "1.5": a fraction of what?
  uint64_t whole;
  met_status_t st = met_parse_u64(s, whole_end, 0, UINT64_MAX, &whole);
  if (st) return st;
  uint64_t value;
  if (!scale_up(whole, five, two, &value)) return MET_EOVERFLOW;
  if (frac_digits) {
    // frac / 10^n x 5^five x 2^two, exactly: what 10^n = 5^n 2^n takes away must divide
    // frac, or the bytes are not whole.
    uint64_t frac = 0;
    for (size_t k = 0; k < frac_digits; ++k) frac = frac * 10 + (uint64_t)(s[frac_begin + k] - '0');
    unsigned n = (unsigned)frac_digits;
    for (unsigned k = five; k < n; ++k) {
      if (frac % 5) return MET_EINVAL;
      frac /= 5;
    }
    for (unsigned k = two; k < n; ++k) {
      if (frac % 2) return MET_EINVAL;
      frac /= 2;
    }
    uint64_t part;
    if (!scale_up(frac, five > n ? five - n : 0, two > n ? two - n : 0, &part) ||
        value > UINT64_MAX - part)
      return MET_EOVERFLOW;
    value += part;
  }
  if (value < min || value > max) return MET_EOVERFLOW;
  *out = value;
  return MET_OK;
}

met_status_t met_parse_option_size(const char *name, const char *s, size_t len, uint64_t min,
                                   uint64_t max, uint64_t *out, met_error_t *err) {
  met_status_t st = met_parse_size(s, len, min, max, out);
  if (st == MET_OK) return MET_OK;
  int shown = len > 64 ? 64 : (int)len;
  return met_error_set(err, st, "invalid %s='%.*s%s': %s %" PRIu64 " to %" PRIu64 " bytes%s", name,
           shown, s ? s : "", len > 64 ? "..." : "",
           st == MET_EOVERFLOW ? "out of range: a size from" : "expected a size from", min, max,
           st == MET_EOVERFLOW ? "" : " (digits with an optional unit: B, kB, MB, GB, TB, PB, "
                                      "KiB, MiB, GiB, TiB, PiB; a fraction must make whole "
                                      "bytes, such as 8MiB or 1.5GB)");
}
