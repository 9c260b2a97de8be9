// metrale/json.h: a strict JSON reader (RFC 8259) for the reports metrale wrote, as
// `metrale diff` reads them back. Numbers keep their exact 64-bit integer value when they
// are integers (a report's byte counts reach 2^64 - 1; a double holds 2^53 exactly, which
// is why no double-based library such as cJSON is used), else their double. Strings are
// unescaped to UTF-8 (\uXXXX and surrogate pairs; a lone surrogate is an error). Nesting
// deeper than MET_JSON_MAX_DEPTH is an error, not a stack overflow. Everything lives in
// the caller's arena. Pure: no I/O, no globals.
#ifndef METRALE_JSON_H
#define METRALE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/arena.h"
#include "metrale/status.h"

enum { MET_JSON_MAX_DEPTH = 256 };

typedef enum met_json_kind_e {
  MET_JSON_NULL, MET_JSON_BOOL, MET_JSON_NUMBER, MET_JSON_STRING, MET_JSON_ARRAY,
  MET_JSON_OBJECT,
} met_json_kind_t;

typedef struct met_json_t {
  met_json_kind_t kind;
  bool boolean;                 // MET_JSON_BOOL
  // MET_JSON_NUMBER: |is_int| when it has no fraction or exponent and its magnitude fits 64
  // bits: then the value is -|u| when |negative|, else |u|; |d| is always its double.
  bool is_int, negative;
  uint64_t u;
  double d;
  const char *str;              // MET_JSON_STRING: unescaped (NUL-terminated; may hold NULs)
  size_t len;
  struct met_json_t *items;     // MET_JSON_ARRAY elements, MET_JSON_OBJECT values
  const char **keys;            // MET_JSON_OBJECT keys (unescaped, NUL-terminated)
  size_t *key_lens;
  size_t count;
} met_json_t;

// Parses |len| bytes of |s| into a tree in |arena|. MET_EINVAL for text that is no JSON
// (then |err| says what, with its byte .offset and .line), MET_ENOMEM when the arena fails.
met_status_t met_json_parse(met_arena_t *arena, const char *s, size_t len, met_json_t **out,
                            met_error_t *err);

// The value of key |key| in object |obj| (the first, if several), or NULL (also when |obj|
// is NULL or no object).
const met_json_t *met_json_get(const met_json_t *obj, const char *key);

#endif
