// passes/ir/attrs.h: the one reader of every attribute a user writes for metrale (the
// `metrale.*` argument and module attributes, the DLTI target entries, type strings of
// options). Each kind of value has one rule, and a value that breaks it is an error that
// names the attribute; nothing mistyped is ignored.
//
// The rules:
// - integer: an IntegerAttr of at most 64 bits (signless, signed or unsigned) or of
//   type index, whose value lies in the documented range. i128 and wider are refused
//   (their value would be cut to the low 64 bits).
// - marker (metrale.param, metrale.state): a unit attribute or a bool.
// - string (metrale.name, where, width_policy, metrale.target): a StringAttr.
// - element type (metrale.format, dtype, kv-dtype=): a TypeAttr (`bf16`) or a string that
//   parses as a type ("bf16"); parse errors are not printed as if the text were a file.
// Thread-safe as long as the context is: all state is in the arguments.
#ifndef METRALE_PASSES_ATTRS_H
#define METRALE_PASSES_ATTRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"

// Each returns NULL when |a| follows the rule (and sets |*out|), else the rule it breaks
// as a phrase ("must be an integer of at most 64 bits"), static text.
const char *met_attr_u64(MlirAttribute a, uint64_t min, uint64_t max, uint64_t *out);
const char *met_attr_marker(MlirAttribute a, bool *out);
const char *met_attr_string(MlirAttribute a, MlirStringRef *out);
const char *met_attr_type(MlirContext ctx, MlirAttribute a, MlirType *out);

// Parses every `metrale.format` string of |func|'s arguments once, on the calling thread,
// before functions are analysed in parallel (jobs.c does it while it collects them):
// parsing a type may load its dialect, which MLIR does not allow on several threads at
// once. Later parses of the same strings only look up loaded dialects.
void met_attrs_preload_func(MlirOperation func);

// Parses |text| as a type without emitting the parser's diagnostics; null on failure.
MlirType met_parse_type_quietly(MlirContext ctx, MlirStringRef text);
// Why a type option's text was refused when it is no type (the pass and the command).
#define MET_TYPE_EXPECTED "not a type (f16, bf16, f8E4M3FN, i8, ...)"

// The symbol path of |op| from the top module, as nested symbol references spell it
// without the first '@': "f" for the top module's @f, "inner::@f" for @f in module
// @inner (unnamed modules between add nothing). Written NUL-terminated to |buf|; its
// length, or SIZE_MAX when it does not fit |cap| bytes (or nests past 32 symbols).
size_t met_ir_symbol_path(MlirOperation op, char *buf, size_t cap);

#endif
