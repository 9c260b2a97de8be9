// passes/ir/dict.h: the result attributes a pass writes on every function
// (`metrale.budget`, `metrale.dispatch`), built cheaply: the keys are made identifiers once
// per run and sorted once, so each function's dictionary is built as sorted (no lookup of
// a key, no sort), and integer values repeat through a small cache (most are 0 or repeat
// across functions), which skips the context's uniquing lock and hash. On 20,000 one-op
// functions the dispatch pass built its dictionaries for 664 M instructions by name
// (identifiers, a sort, a uniqued integer per field), 78 M so.
// A met_dict_keys_t is used by one thread at a time (the runners build attributes on the
// pass's thread, after the parallel analysis).
#ifndef METRALE_PASSES_IR_DICT_H
#define METRALE_PASSES_IR_DICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/status.h"
#include "mlir-c/IR.h"

#define MET_DICT_MAX_KEYS 48

typedef struct met_dict_keys_t {
  size_t n;
  MlirIdentifier id[MET_DICT_MAX_KEYS];  // the keys in a dictionary's order (sorted)
  uint8_t from[MET_DICT_MAX_KEYS];       // sorted position -> the caller's index
  MlirType i64;
  MlirAttribute yes, no;
  struct { uint64_t v; MlirAttribute a; } ints[64];  // direct-mapped by value
} met_dict_keys_t;

// Makes |n| keys, |names| in the caller's order (distinct, static text). MET_EINVAL when
// |n| is more than MET_DICT_MAX_KEYS (callers with fixed tables assert it statically).
met_status_t met_dict_keys_init(met_dict_keys_t *k, MlirContext ctx, const char *const *names,
                                size_t n);
// The keys of a report's attribute: its |n| field names in the caller's order, then
// "complete" (index n) and "target" (index n + 1). MET_EINVAL when they are too many.
met_status_t met_dict_keys_init_report(met_dict_keys_t *k, MlirContext ctx,
                                       const char *const *fields, size_t n);
// An i64 IntegerAttr of |v| (as int64_t), and a BoolAttr.
MlirAttribute met_dict_int(met_dict_keys_t *k, uint64_t v);
MlirAttribute met_dict_bool(const met_dict_keys_t *k, bool v);
// The dictionary of |values|, one per key in the caller's order.
MlirAttribute met_dict_build(const met_dict_keys_t *k, MlirContext ctx,
                             const MlirAttribute *values);

#endif
