// metrale/options.h: the options of metrale/options.def as C: their indices, which passes
// take each, and the numeric ranges the runners and the CLI check with the one parser.
// Static data; no MLIR.
#ifndef METRALE_OPTIONS_H
#define METRALE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/status.h"

enum { MET_PASS_BUDGET = 1, MET_PASS_MEMORY = 2, MET_PASS_DISPATCH = 4 };
#define MET_PASSES_ALL (MET_PASS_BUDGET | MET_PASS_MEMORY | MET_PASS_DISPATCH)
#define MET_PASSES_BUDGET MET_PASS_BUDGET
#define MET_PASSES_MEMORY MET_PASS_MEMORY
#define MET_PASSES_DISPATCH MET_PASS_DISPATCH
#define MET_PASSES_BUDGET_DISPATCH (MET_PASS_BUDGET | MET_PASS_DISPATCH)
#define MET_PASSES_MEMORY_DISPATCH (MET_PASS_MEMORY | MET_PASS_DISPATCH)

// MET_OPTION_IF(PASS, passes, ...): the rest when the list's |passes| include PASS (BUDGET,
// MEMORY, DISPATCH), else nothing: declares a pass's options at compile time.
#define MET_OPTION_IF(pass, passes, ...) MET_OPTION_IF_##pass##_##passes(__VA_ARGS__)
#define MET_OPTION_IF_BUDGET_ALL(...) __VA_ARGS__
#define MET_OPTION_IF_BUDGET_BUDGET(...) __VA_ARGS__
#define MET_OPTION_IF_BUDGET_MEMORY(...)
#define MET_OPTION_IF_BUDGET_DISPATCH(...)
#define MET_OPTION_IF_BUDGET_BUDGET_DISPATCH(...) __VA_ARGS__
#define MET_OPTION_IF_BUDGET_MEMORY_DISPATCH(...)
#define MET_OPTION_IF_MEMORY_ALL(...) __VA_ARGS__
#define MET_OPTION_IF_MEMORY_BUDGET(...)
#define MET_OPTION_IF_MEMORY_MEMORY(...) __VA_ARGS__
#define MET_OPTION_IF_MEMORY_DISPATCH(...)
#define MET_OPTION_IF_MEMORY_BUDGET_DISPATCH(...)
#define MET_OPTION_IF_MEMORY_MEMORY_DISPATCH(...) __VA_ARGS__
#define MET_OPTION_IF_DISPATCH_ALL(...) __VA_ARGS__
#define MET_OPTION_IF_DISPATCH_BUDGET(...)
#define MET_OPTION_IF_DISPATCH_MEMORY(...)
#define MET_OPTION_IF_DISPATCH_DISPATCH(...) __VA_ARGS__
#define MET_OPTION_IF_DISPATCH_BUDGET_DISPATCH(...) __VA_ARGS__
#define MET_OPTION_IF_DISPATCH_MEMORY_DISPATCH(...) __VA_ARGS__

enum {
#define MET_OPTION(passes, name, member, kind, cli, lo, hi, help) MET_OPT_##member,
#include "metrale/options.def"
#undef MET_OPTION
  MET_OPT_COUNT
};

typedef enum met_option_kind_e {
  MET_OPTION_TEXT, MET_OPTION_NUM, MET_OPTION_FLAG_ON, MET_OPTION_FLAG_OFF,
  MET_OPTION_LIMIT_MAX, MET_OPTION_LIMIT_MIN,
} met_option_kind_t;

// Whether options of |kind| take a number (NUM and the limits).
static inline bool met_option_takes_num(met_option_kind_t kind) {
  return kind == MET_OPTION_NUM || kind == MET_OPTION_LIMIT_MAX || kind == MET_OPTION_LIMIT_MIN;
}

typedef struct met_option_t {
  const char *name;     // the pass option
  const char *cli;      // the command's flag, "" for none
  const char *help;
  unsigned passes;      // MET_PASS_* bits
  met_option_kind_t kind;
  uint64_t lo, hi;      // MET_OPTION_NUM's range
  const char *member;   // its field in the run options; for a limit, the report field
} met_option_t;

// The options in the list's order (MET_OPT_COUNT of them, indexed by MET_OPT_*).
const met_option_t *met_options(void);

// Parses the value |s| (|len| bytes) of option |opt| (MET_OPT_*, one that takes a number)
// by its rule (metrale/parse.h): a limit on a byte field takes a size with a unit
// ("8MiB"), every other a whole number; in the option's [lo, hi]. On failure its status,
// with a one-line message naming the option as |shown| ("max-arena" or "--max-arena")
// in |err|.
met_status_t met_option_parse_num(int opt, const char *shown, const char *s, size_t len,
                                  uint64_t *out, met_error_t *err);

#endif
