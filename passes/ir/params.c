// params.c: parsing the parameter-argument selection of the params= and states= options
// ("0,2-5,7-", "all", "float", "auto", "none", and "@fn:..." items). See passes/ir/params.h.
#include <stdint.h>
#include <string.h>

#include "ir/params.h"

static met_status_t parse_sel(const char *s, size_t len, met_param_sel_t *out,
                              met_error_t *err) {
  memset(out, 0, sizeof(*out));
  if (len == 0 || (len == 4 && !memcmp(s, "none", 4))) return MET_OK;
  if (len == 3 && !memcmp(s, "all", 3)) { out->all = true; return MET_OK; }
  if (len == 5 && !memcmp(s, "float", 5)) { out->floats = true; return MET_OK; }
  if (len == 4 && !memcmp(s, "auto", 4)) { out->autos = true; return MET_OK; }
  size_t i = 0;
  while (i < len) {
    int64_t lo = 0, hi;
    size_t start = i;
    while (i < len && s[i] >= '0' && s[i] <= '9') {
      if (lo > (INT64_MAX - 9) / 10) return met_error_set(err, MET_EOVERFLOW, "index too large");
      lo = lo * 10 + (s[i++] - '0');
    }
    if (i == start) return met_error_set(err, MET_EINVAL, "expected an argument index");
    hi = lo;
    if (i < len && s[i] == '-') {
      ++i;
      if (i == len || s[i] == ',') {
        hi = INT64_MAX;
      } else {
        size_t hs = i;
        hi = 0;
        while (i < len && s[i] >= '0' && s[i] <= '9') {
          if (hi > (INT64_MAX - 9) / 10) return met_error_set(err, MET_EOVERFLOW, "index too large");
          hi = hi * 10 + (s[i++] - '0');
        }
        if (i == hs) return met_error_set(err, MET_EINVAL, "expected the end of a range");
        if (hi < lo) return met_error_set(err, MET_EINVAL, "a range ends before it starts");
      }
    }
    if (out->range_count == 64) return met_error_set(err, MET_EINVAL, "more than 64 ranges");
    out->lo[out->range_count] = lo;
    out->hi[out->range_count++] = hi;
    if (i < len) {
      if (s[i] != ',') return met_error_set(err, MET_EINVAL, "expected ',' between indices");
      ++i;
      if (i == len) return met_error_set(err, MET_EINVAL, "trailing ','");
    }
  }
  return MET_OK;
}

met_status_t met_param_spec_parse(const char *s, size_t len, met_param_spec_t *out,
                                  met_error_t *err) {
  memset(out, 0, sizeof(*out));
  bool have_entry = false;
  for (size_t i = 0;;) {
    size_t end = i;
    while (end < len && s[end] != ';') ++end;
    const char *item = s + i;
    size_t n = end - i;
    if (n == 0 && len > 0) return met_error_set(err, MET_EINVAL, "an empty item between ';'");
    if (n > 0 && item[0] == '@') {
      // @NAME or a nested symbol's path @OUTER::@NAME, then ':' and the selection.
      const char *colon = NULL;
      for (size_t c = 1; c < n && !colon; ++c) {
        if (item[c] != ':') continue;
        if (c + 1 < n && item[c + 1] == ':') {
          if (c + 2 >= n || item[c + 2] != '@' || c == 1) {
            return met_error_set(err, MET_EINVAL, "a nested function is named by its path, @OUTER::@NAME");
          }
          c += 2;
          continue;
        }
        colon = item + c;
      }
      if (!colon) return met_error_set(err, MET_EINVAL, "expected ':' after the function name (@NAME:SELECTION)");
      size_t nl = (size_t)(colon - item) - 1;
      if (nl == 0 || item[nl] == '@') return met_error_set(err, MET_EINVAL, "an empty function name");
      for (size_t k = 0; k < out->fn_count; ++k)
        if (out->fn_len[k] == nl && !memcmp(out->fn_name[k], item + 1, nl)) {
          return met_error_set(err, MET_EINVAL, "two items name one function");
        }
      if (out->fn_count == MET_PARAM_MAX_FUNCTIONS) return met_error_set(err, MET_EINVAL, "more than 16 named functions");
      // An empty selection is a slip more often than "none" (which it would mean): the
      // item says it ("@NAME:none").
      if (n - nl - 2 == 0)
        return met_error_set(err, MET_EINVAL, "an empty selection after ':' ('@NAME:none' selects none)");
      size_t k = out->fn_count++;
      out->fn_name[k] = item + 1;
      out->fn_len[k] = nl;
      MET_RETURN_IF_ERROR(parse_sel(colon + 1, n - nl - 2, &out->fn_sel[k], err));
    } else {
      if (have_entry) return met_error_set(err, MET_EINVAL, "two items without a function name");
      have_entry = true;
      MET_RETURN_IF_ERROR(parse_sel(item, n, &out->entry, err));
    }
    if (end >= len) break;
    i = end + 1;
  }
  return MET_OK;
}

const met_param_sel_t *met_param_spec_for(const met_param_spec_t *spec, const char *name,
                                          size_t len, bool entry, bool *named) {
  *named = false;
  if (!spec) return NULL;
  for (size_t k = 0; k < spec->fn_count; ++k)
    if (spec->fn_len[k] == len && !memcmp(spec->fn_name[k], name, len)) {
      *named = true;
      return &spec->fn_sel[k];
    }
  return entry ? &spec->entry : NULL;
}

size_t met_param_path_last(const char *name, size_t len) {
  size_t start = 0;
  for (size_t i = 0; i + 2 < len; ++i)
    if (name[i] == ':' && name[i + 1] == ':' && name[i + 2] == '@') start = i + 3;
  return start;
}

bool met_param_spec_has_auto(const met_param_spec_t *spec) {
  if (spec->entry.autos) return true;
  for (size_t k = 0; k < spec->fn_count; ++k)
    if (spec->fn_sel[k].autos) return true;
  return false;
}
