// attrs.c: the attribute rules of attrs.h.
#include "ir/attrs.h"
#include "ir/ir.h"

#include <stdint.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

const char *met_attr_u64(MlirAttribute a, uint64_t min, uint64_t max, uint64_t *out) {
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a) || mlirAttributeIsABool(a))
    return "must be an integer";
  MlirType t = mlirAttributeGetType(a);
  uint64_t v;
  if (mlirTypeIsAIndex(t)) {
    int64_t s = mlirIntegerAttrGetValueInt(a);
    if (s < 0) return "must not be negative";
    v = (uint64_t)s;
  } else if (mlirTypeIsAInteger(t)) {
    if (mlirIntegerTypeGetWidth(t) > 64) return "must be an integer of at most 64 bits";
    if (mlirIntegerTypeIsUnsigned(t)) {
      v = mlirIntegerAttrGetValueUInt(a);
    } else {
      int64_t s = mlirIntegerTypeIsSigned(t) ? mlirIntegerAttrGetValueSInt(a)
                                             : mlirIntegerAttrGetValueInt(a);
      // A signless i1..i63 value is sign-extended: -1 : i8 reads as -1, not 255. A
      // literal above 2^63 - 1 written as i64 reads as negative: MLIR wraps it.
      if (s < 0 && mlirIntegerTypeGetWidth(t) == 64 && !mlirIntegerTypeIsSigned(t))
        return "must not be negative (a literal above 9223372036854775807 written as i64 "
               "wraps to a negative value: write it as ': ui64', or a smaller value)";
      if (s < 0) return "must not be negative";
      v = (uint64_t)s;
    }
  } else {
    return "must be an integer";
  }
  if (v < min || v > max) return "is out of range";
  *out = v;
  return NULL;
}

const char *met_attr_marker(MlirAttribute a, bool *out) {
  if (mlirAttributeIsAUnit(a)) { *out = true; return NULL; }
  if (mlirAttributeIsABool(a)) { *out = mlirBoolAttrGetValue(a); return NULL; }
  return "must be a unit attribute or a bool";
}

const char *met_attr_string(MlirAttribute a, MlirStringRef *out) {
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a)) return "must be a string";
  *out = mlirStringAttrGetValue(a);
  return NULL;
}

typedef struct quiet_t { MlirStringRef text; } quiet_t;

// Swallows the diagnostics of our own parse: their location names the parsed text as
// its file. Everything else goes on to the other handlers.
static MlirLogicalResult swallow(MlirDiagnostic d, void *user) {
  quiet_t *q = user;
  MlirLocation loc = mlirDiagnosticGetLocation(d);
  if (mlirLocationIsAFileLineColRange(loc)) {
    MlirStringRef f = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
    if (mlirStringRefEqual(f, q->text)) return mlirLogicalResultSuccess();
  }
  return mlirLogicalResultFailure();
}

// True when |text| holds a comment ("//" outside a string literal): MLIR's lexer skips it,
// so "f16 // anything" would parse as f16 and the rest be silently ignored.
static bool has_comment(MlirStringRef text) {
  bool quoted = false;
  for (size_t i = 0; i < text.length; ++i) {
    char ch = text.data[i];
    if (quoted && ch == '\\') ++i;  // an escaped character
    else if (ch == '"') quoted = !quoted;
    else if (!quoted && ch == '/' && i + 1 < text.length && text.data[i + 1] == '/') return true;
  }
  return false;
}

MlirType met_parse_type_quietly(MlirContext ctx, MlirStringRef text) {
  if (!text.length || has_comment(text)) return (MlirType){NULL};
  // Spaces around the type are refused, as around every other value (MLIR's lexer would
  // skip them: "f16 " read as f16).
  char first = text.data[0], last = text.data[text.length - 1];
  if (first == ' ' || first == '\t' || first == '\n' || last == ' ' || last == '\t' ||
      last == '\n' || last == '\r')
    return (MlirType){NULL};
  quiet_t q = {text};
  MlirDiagnosticHandlerID id = mlirContextAttachDiagnosticHandler(ctx, swallow, &q, NULL);
  MlirType t = mlirTypeParseGet(ctx, text);
  mlirContextDetachDiagnosticHandler(ctx, id);
  return t;
}

const char *met_attr_type(MlirContext ctx, MlirAttribute a, MlirType *out) {
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAType(a)) {
    *out = mlirTypeAttrGetValue(a);
    return NULL;
  }
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAString(a)) {
    MlirType t = met_parse_type_quietly(ctx, mlirStringAttrGetValue(a));
    if (mlirTypeIsNull(t)) return "must name a type, and the string does not parse as one";
    *out = t;
    return NULL;
  }
  return "must be a type (bf16) or a string naming one (\"bf16\")";
}

void met_attrs_preload_func(MlirOperation func) {
  MlirAttribute arr = mlirOperationGetInherentAttributeByName(
      func, mlirStringRefCreateFromCString("arg_attrs"));
  if (mlirAttributeIsNull(arr) || !mlirAttributeIsAArray(arr)) return;
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(arr); ++i) {
    MlirAttribute d = mlirArrayAttrGetElement(arr, i);
    if (!mlirAttributeIsADictionary(d)) continue;
    MlirAttribute f = mlirDictionaryAttrGetElementByName(
        d, mlirStringRefCreateFromCString("metrale.format"));
    if (!mlirAttributeIsNull(f) && mlirAttributeIsAString(f))
      (void)met_parse_type_quietly(mlirOperationGetContext(func), mlirStringAttrGetValue(f));
  }
}

size_t met_ir_symbol_path(MlirOperation op, char *buf, size_t cap) {
  MlirStringRef names[32];
  size_t n = 0, len = 0;
  for (MlirOperation o = op; !mlirOperationIsNull(o);) {
    MlirOperation parent = mlirOperationGetParentOperation(o);
    if (mlirOperationIsNull(parent)) break;  // the top module: paths start below it
    MlirStringRef s = met_ir_sym_name(o);
    if (s.length) {
      if (n == 32) return SIZE_MAX;
      names[n++] = s;
    }
    o = parent;
  }
  for (size_t k = n; k-- > 0;) {
    size_t add = names[k].length + (k + 1 < n ? 3 : 0);
    if (len + add + 1 > cap) return SIZE_MAX;
    if (k + 1 < n) { memcpy(buf + len, "::@", 3); len += 3; }
    memcpy(buf + len, names[k].data, names[k].length);
    len += names[k].length;
  }
  if (cap) buf[len] = '\0';
  return len;
}
