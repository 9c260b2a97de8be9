// metrale/limits.h: limits that fail the build. A limit bounds one report field: a maximum
// for every field but those better higher, a minimum for those: the headroom (the memory
// model's budget minus its device bytes) and the dispatch stats' rates (bytes per second). The field names are the reports' own (metrale/budget_fields.def,
// dispatch_fields.def, memory_fields.def); the pass options of metrale/options.def
// (LIMIT_MAX, LIMIT_MIN) and the `metrale.limits` attribute name them. Pure functions,
// static data; no MLIR.
#ifndef METRALE_LIMITS_H
#define METRALE_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/budget.h"
#include "metrale/status.h"

typedef enum met_limit_family_e {
  MET_LIMIT_BUDGET = 0,    // a field of the Budget, per function
  MET_LIMIT_DISPATCH = 1,  // a field of the dispatch stats, per function
  MET_LIMIT_MEMORY = 2,    // a field of the memory model, per module
} met_limit_family_t;

// The family of the numeric field named |name| (|len| bytes) and whether a limit on it is
// a minimum (headroom) rather than a maximum; the field's static name in |*canon|. False
// for a name no report has, or a field that is no number (width_policy, fits, complete,
// recovered_after_device_loss).
bool met_limit_field(const char *name, size_t len, met_limit_family_t *family, bool *is_min,
                     const char **canon);

// Whether the numeric field named |name| counts bytes (a limit on it takes a size with a
// unit, metrale/parse.h's met_parse_size): the Budget's and the dispatch stats' byte
// fields, the memory model's byte terms and its headroom.
bool met_limit_field_is_bytes(const char *name, size_t len);

// The numeric field whose name is nearest |name| (at most a third of its letters off), or
// NULL: what a misspelt limit key probably meant.
const char *met_limit_nearest(const char *name, size_t len);

// One limit of the limits= text.
typedef struct met_limit_item_t {
  const char *field;            // the report field (static)
  met_limit_family_t family;
  bool is_min;
  uint64_t value;
  const char *text;             // the item as written, in the parsed text (not terminated)
  size_t text_len;
} met_limit_item_t;

// Parses the limits= option, "FIELD=VALUE,FIELD=VALUE,...": any numeric field of the
// Budget, the dispatch stats or the memory model, a maximum for each but the headroom's
// minimum; VALUE a size with a unit on a byte field (metrale/parse.h), a whole number on
// any other. At most |cap| items. MET_EINVAL with a one-line reason in |err|.
met_status_t met_limits_parse(const char *s, size_t len, met_limit_item_t *items, size_t cap,
                              size_t *n, met_error_t *err);

// "the Budget", "the dispatch stats", "the memory model"; and the pass and command that
// check a family's limits ("metrale-memory (metrale memory)"). Static text.
const char *met_limit_family_name(met_limit_family_t f);
const char *met_limit_family_checker(met_limit_family_t f);

// Whether |value| breaches a limit |limit|: above it for a maximum, below it for a minimum.
// |value| is signed (headroom may be negative).
static inline bool met_limit_breached(int64_t value, bool value_signed, uint64_t uvalue,
                                      bool is_min, uint64_t limit) {
  if (is_min) return value_signed ? (value < 0 || (uint64_t)value < limit) : uvalue < limit;
  return value_signed ? value > 0 && (uint64_t)value > limit : uvalue > limit;
}

// The indices of the |k| largest of |v[0..n)| into |out|, largest first (ties: the earlier
// index first), zeros left out; returns how many (at most |k|).
size_t met_limit_top(const uint64_t *v, size_t n, size_t k, size_t *out);

#endif
