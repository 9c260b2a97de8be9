// types.c: the storage-width rule (see types.h) over the MLIR C API's type queries.
#include "ir/types.h"

#include <string.h>

#include "metrale/checked.h"
#include "metrale/report.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Quant.h"

bool met_type_is_shaped_value(MlirType t) {
  return mlirTypeIsATensor(t) || mlirTypeIsAMemRef(t) || mlirTypeIsAUnrankedMemRef(t);
}

// Storage bits of one element; |*widened| the f32-uniform bits.
static met_size_status_t element_bits(MlirType t, const met_target_t *tg, uint64_t *bits,
                                      uint64_t *widened, bool *is_float) {
  uint32_t index_bits = tg->index_bits;
  if (mlirTypeIsAInteger(t)) {
    uint64_t w = mlirIntegerTypeGetWidth(t);
    if (w == 1 || (w < 8 && tg->unpacked_sub_byte)) {
      w = 8;
    } else if (tg->unpacked_sub_byte && w > 8) {
      // LLVM's layout: an array element takes its type's alloc size, a power of two of
      // bytes up to i128 (i17 and i24 take 4), wider ones whole 64-bit words.
      uint64_t p = 16;
      while (p < w && p < 128) p *= 2;
      w = w <= 128 ? p : (w + 63) / 64 * 64;
    } else if (w > 8 && w % 8) {
      w = (w + 7) / 8 * 8;
    }
    *bits = *widened = w;
    return w > 0 ? MET_SIZE_OK : MET_SIZE_UNSIZED;
  }
  if (mlirTypeIsAIndex(t)) { *bits = *widened = index_bits; return MET_SIZE_OK; }
  if (mlirTypeIsAFloat(t)) {
    uint64_t w = mlirFloatTypeGetWidth(t);
    if (w == 19) w = 32;        // tf32
    else if (w == 80) w = 128;  // x86 fp80
    *bits = w;
    *widened = w < 32 ? 32 : w;
    *is_float = true;
    return w > 0 ? MET_SIZE_OK : MET_SIZE_UNSIZED;
  }
  if (mlirTypeIsAComplex(t)) {
    uint64_t b, wb;
    met_size_status_t s = element_bits(mlirComplexTypeGetElementType(t), tg, &b, &wb,
                                       is_float);
    if (s) return s;
    if (!met_mul_u64(b, 2, bits) || !met_mul_u64(wb, 2, widened)) return MET_SIZE_OVERFLOW;
    return MET_SIZE_OK;
  }
  if (mlirTypeIsAVector(t)) {
    // A scalable vector's lane count is vscale x N, unknown before run time.
    if (mlirVectorTypeIsScalable(t)) return MET_SIZE_LAYOUT;
    uint64_t b, wb, lanes = 1;
    met_size_status_t s = element_bits(mlirShapedTypeGetElementType(t), tg, &b, &wb,
                                       is_float);
    if (s) return s;
    for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); ++d) {
      int64_t n = mlirShapedTypeGetDimSize(t, d);
      if (n < 0) return MET_SIZE_UNSIZED;
      if (!met_mul_u64(lanes, (uint64_t)n, &lanes)) return MET_SIZE_OVERFLOW;
    }
    return met_mul_u64(lanes, b, bits) && met_mul_u64(lanes, wb, widened) ? MET_SIZE_OK
                                                                          : MET_SIZE_OVERFLOW;
  }
  if (mlirTypeIsAQuantizedType(t))
    return element_bits(mlirQuantizedTypeGetStorageType(t), tg, bits, widened,
                        is_float);
  return MET_SIZE_UNSIZED;
}

bool met_type_element_bits(MlirType element, const met_target_t *target, uint64_t *bits,
                           uint64_t *widened, bool *is_float) {
  *is_float = false;
  return element_bits(element, target, bits, widened, is_float) == MET_SIZE_OK;
}

met_size_status_t met_type_size(MlirType type, const met_target_t *target, int64_t dynamic_size,
                                met_type_size_t *out) {
  if (!mlirTypeIsAShaped(type) || mlirTypeIsAVector(type)) {
    // A scalar or a vector value (a scalar global, a vector constant): one element.
    memset(out, 0, sizeof(*out));
    uint64_t bits, widened;
    met_size_status_t s = element_bits(type, target, &bits, &widened, &out->is_float);
    if (s) return s;
    out->bytes = bits / 8 + (bits % 8 != 0);
    out->f32_bytes = widened / 8 + (widened % 8 != 0);
    return MET_SIZE_OK;
  }
  if (!mlirShapedTypeHasRank(type)) {
    memset(out, 0, sizeof(*out));
    out->is_memref = mlirTypeIsAMemRef(type) || mlirTypeIsAUnrankedMemRef(type);
    return MET_SIZE_UNRANKED;
  }
  return met_type_size_as(type, mlirShapedTypeGetElementType(type), target, dynamic_size,
                          out);
}

// count x bits / 8 rounded up, without forming count x bits (which passes 2^64 for a
// tensor of 2^61 f64 elements, 2^64 - 8 bytes).
static bool bits_to_bytes(uint64_t count, uint64_t bits, uint64_t *out) {
  uint64_t whole, rest;
  return met_mul_u64(count % 8, bits, &rest) && met_mul_u64(count / 8, bits, &whole) &&
         met_add_u64(whole, rest / 8 + (rest % 8 != 0), out);
}

met_size_status_t met_type_size_as(MlirType type, MlirType element, const met_target_t *target,
                                   int64_t dynamic_size, met_type_size_t *out) {
  memset(out, 0, sizeof(*out));
  out->is_memref = mlirTypeIsAMemRef(type) || mlirTypeIsAUnrankedMemRef(type);
  if (!mlirShapedTypeHasRank(type)) return MET_SIZE_UNRANKED;
  // A tensor with an encoding (#sparse_tensor.encoding, ...) is not stored as its dense
  // element count.
  if (mlirTypeIsARankedTensor(type) && !mlirAttributeIsNull(mlirRankedTensorTypeGetEncoding(type)))
    return MET_SIZE_LAYOUT;
  uint64_t bits, widened;
  met_size_status_t s = element_bits(element, target, &bits, &widened, &out->is_float);
  if (s) return s;
  uint64_t count = 1;
  // One interface call per dim (each ShapedType query looks the interface up).
  intptr_t rank = mlirShapedTypeGetRank(type);
  int64_t dyn = mlirShapedTypeGetDynamicSize();
  for (intptr_t d = 0; d < rank; ++d) {
    int64_t size = mlirShapedTypeGetDimSize(type, d);
    uint64_t n;
    if (size == dyn) {
      out->dynamic = true;
      n = dynamic_size > 0 ? (uint64_t)dynamic_size : 1;
    } else {
      n = (uint64_t)size;
    }
    if (!met_mul_u64(count, n, &count)) return MET_SIZE_OVERFLOW;
  }
  if (!bits_to_bytes(count, bits, &out->bytes) || !bits_to_bytes(count, widened, &out->f32_bytes))
    return MET_SIZE_OVERFLOW;
  return MET_SIZE_OK;
}

const char *met_size_status_why(met_size_status_t s) {
  switch (s) {
    case MET_SIZE_OK: return "has a byte size";
    case MET_SIZE_UNRANKED: return "is unranked";
    case MET_SIZE_UNSIZED: return "has an element type without a storage width";
    case MET_SIZE_OVERFLOW: return "has more bytes than 64 bits count";
    case MET_SIZE_LAYOUT:
      return "is not stored as its dense element count (a tensor encoding such as "
             "#sparse_tensor.encoding, or a scalable vector)";
  }
  return "has no byte size";
}

void met_mlir_append(MlirStringRef s, void *user) { met_strbuf_append(user, s.data, s.length); }

const char *met_type_string(met_arena_t *arena, MlirType t) {
  met_strbuf_t sb;
  met_strbuf_initialize(met_allocator_system(), &sb);
  mlirTypePrint(t, met_mlir_append, &sb);
  const char *out = sb.status || !sb.data ? NULL : met_arena_strndup(arena, sb.data, sb.len);
  met_strbuf_deinitialize(&sb);
  return out;
}
