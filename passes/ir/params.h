// passes/ir/params.h: which arguments are parameters (or states): indices from an option
// ("0,2-5,7-", "all", "float", "auto", "none"), besides the `metrale.param` / `metrale.state`
// argument attributes. passes/ir/params.c parses them.
//
// The option is a list of items separated by ';'. An item without a function name
// applies to every entry function (a public one: no sym_visibility, or "public"); an
// item "@NAME:SELECTION" applies to the function @NAME alone, in place of the entry
// item. A function in a nested module is named by its symbol path from the top module,
// "@OUTER::@NAME:SELECTION" (as MLIR's nested symbol references): "@NAME" names only the
// top module's @NAME. Private functions (callees) take their arguments' roles from no item unless one
// names them: their arguments are what their callers pass, and naming one gets a warning.
#ifndef METRALE_PASSES_PARAMS_H
#define METRALE_PASSES_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/status.h"

// One selection of arguments.
typedef struct met_param_sel_t {
  bool all, floats;
  bool autos;  // "auto": the arguments no op writes that feed the weight operand of a matmul,
               // conv or gather (passes/adapter/args.c says which operands and paths)
  size_t range_count;
  int64_t lo[64], hi[64];  // inclusive ranges; hi = INT64_MAX for "7-"
} met_param_sel_t;

enum { MET_PARAM_MAX_FUNCTIONS = 16 };

typedef struct met_param_spec_t {
  met_param_sel_t entry;   // the item without a name: entry functions
  size_t fn_count;         // items naming a function
  const char *fn_name[MET_PARAM_MAX_FUNCTIONS];  // borrowed from the parsed text: the path
                                                 // without its first '@' ("f", "inner::@f")
  size_t fn_len[MET_PARAM_MAX_FUNCTIONS];
  met_param_sel_t fn_sel[MET_PARAM_MAX_FUNCTIONS];
} met_param_spec_t;

// Parses |len| bytes of |s| into |out| (names point into |s|). MET_EINVAL (MET_EOVERFLOW
// for an index past 2^63) with the reason in |err| when malformed: an empty item, a name
// without ':', two items for one function or two without a name, more than
// MET_PARAM_MAX_FUNCTIONS names.
met_status_t met_param_spec_parse(const char *s, size_t len, met_param_spec_t *out,
                                  met_error_t *err);

// Whether any item of |spec| is "auto" (params= only: states= refuses it).
bool met_param_spec_has_auto(const met_param_spec_t *spec);

#define MET_PARAM_AUTO_STATES_WHY \
  "'auto' selects weights (params=auto); states are named by index, by class, or metrale.state"

// Where the last name of path |name| ("inner::@f") starts: 0 for a plain name.
size_t met_param_path_last(const char *name, size_t len);

// The selection for the function whose symbol path is |name| (|len| bytes; "f", or
// "inner::@f" in a nested module: met_ir_symbol_path), public or not: its own
// item, else the entry item for an entry function, else NULL. *|named| is set when an
// item names the function.
const met_param_sel_t *met_param_spec_for(const met_param_spec_t *spec, const char *name,
                                          size_t len, bool entry, bool *named);

#endif
