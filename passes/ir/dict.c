// dict.c: result dictionaries from keys made once (dict.h).
#include "ir/dict.h"

#include <string.h>

#include "ir/mlir_hooks.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

met_status_t met_dict_keys_init(met_dict_keys_t *k, MlirContext ctx, const char *const *names,
                                size_t n) {
  if (n > MET_DICT_MAX_KEYS) return MET_EINVAL;
  memset(k, 0, sizeof(*k));
  const char *sorted[MET_DICT_MAX_KEYS];
  for (size_t i = 0; i < n; ++i) {
    sorted[i] = names[i];
    k->from[i] = (uint8_t)i;
  }
  // Insertion sort by strcmp: StringRef's order on these ASCII keys, which a dictionary
  // keeps.
  for (size_t i = 1; i < n; ++i)
    for (size_t m = i; m > 0 && strcmp(sorted[m - 1], sorted[m]) > 0; --m) {
      const char *t = sorted[m]; sorted[m] = sorted[m - 1]; sorted[m - 1] = t;
      uint8_t f = k->from[m]; k->from[m] = k->from[m - 1]; k->from[m - 1] = f;
    }
  k->n = n;
  for (size_t i = 0; i < n; ++i)
    k->id[i] = mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(sorted[i]));
  k->i64 = mlirIntegerTypeGet(ctx, 64);
  k->yes = mlirBoolAttrGet(ctx, 1);
  k->no = mlirBoolAttrGet(ctx, 0);
  return MET_OK;
}

met_status_t met_dict_keys_init_report(met_dict_keys_t *k, MlirContext ctx,
                                       const char *const *fields, size_t n) {
  const char *names[MET_DICT_MAX_KEYS];
  if (n + 2 > MET_DICT_MAX_KEYS) return MET_EINVAL;
  for (size_t i = 0; i < n; ++i) names[i] = fields[i];
  names[n] = "complete";
  names[n + 1] = "target";
  return met_dict_keys_init(k, ctx, names, n + 2);
}

MlirAttribute met_dict_int(met_dict_keys_t *k, uint64_t v) {
  size_t h = (size_t)((v * 0x9E3779B97F4A7C15ull) >> 58);
  if (!mlirAttributeIsNull(k->ints[h].a) && k->ints[h].v == v) return k->ints[h].a;
  k->ints[h].v = v;
  k->ints[h].a = mlirIntegerAttrGet(k->i64, (int64_t)v);
  return k->ints[h].a;
}

MlirAttribute met_dict_bool(const met_dict_keys_t *k, bool v) { return v ? k->yes : k->no; }

MlirAttribute met_dict_build(const met_dict_keys_t *k, MlirContext ctx,
                             const MlirAttribute *values) {
  MlirNamedAttribute f[MET_DICT_MAX_KEYS];
  for (size_t i = 0; i < k->n; ++i) f[i] = mlirNamedAttributeGet(k->id[i], values[k->from[i]]);
  return met_dictionary_sorted(ctx, (intptr_t)k->n, f);
}
