// passes/params.h: which arguments are parameters (or states): indices from an option
// ("0,2-5,7-", "all", "float", "none"), besides the `metrale.param` / `metrale.state`
// argument attributes. passes/params.c parses them.
#ifndef METRALE_PASSES_PARAMS_H
#define METRALE_PASSES_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct met_param_spec_t {
  bool all, floats;
  size_t range_count;
  int64_t lo[64], hi[64];  // inclusive ranges; hi = INT64_MAX for "7-"
} met_param_spec_t;

// Parses |len| bytes of |s| into |out|. False with a reason in |why| when malformed.
bool met_param_spec_parse(const char *s, size_t len, met_param_spec_t *out,
                          const char **why);

#endif
