// exec_values.c: the values of `metrale run` (exec_internal.h): element sizes and names
// of types, the inputs' fills, static buffer extents, available memory, and elements read
// back as numbers for the results' checksum.
#define _GNU_SOURCE 1 // sysconf(_SC_AVPHYS_PAGES)
#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>

#include "run/exec_internal.h"
#include "ir/diag.h"
#include "metrale/checked.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

// ---------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------

// Storage bytes of a scalar as the LLVM lowering lays it out in memory (0: unsupported).
uint64_t met_exec_elem_bytes(MlirType t) {
  if (mlirTypeIsAIndex(t)) return 8;
  unsigned bits = 0;
  if (mlirTypeIsAInteger(t)) bits = mlirIntegerTypeGetWidth(t);
  else if (mlirTypeIsAFloat(t)) bits = mlirFloatTypeGetWidth(t);
  else if (mlirTypeIsAComplex(t)) {
    uint64_t e = met_exec_elem_bytes(mlirComplexTypeGetElementType(t));
    return 2 * e;
  } else return 0;
  if (bits == 0 || bits > 128) return 0;
  uint64_t b = (bits + 7) / 8, p = 1;
  while (p < b) p <<= 1; // LLVM's alloc size: i24 -> 4, tf32 (19 bits) -> 4
  return p;
}

void met_exec_type_str(MlirType t, char *dst, size_t cap) {
  met_exec_sbuf_t b = {dst, cap, 0};
  dst[0] = 0;
  mlirTypePrint(t, met_exec_sbuf_cb, &b);
}

// ---------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------





static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static uint16_t f32_to_f16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  int32_t e = (int32_t)((x >> 23) & 0xff) - 127 + 15;
  uint32_t m = x & 0x7fffffu;
  if (e <= 0) return (uint16_t)sign; // flush tiny values to zero (inputs are in [0, 1))
  if (e >= 31) return (uint16_t)(sign | 0x7c00u);
  return (uint16_t)(sign | ((uint32_t)e << 10) | (m >> 13));
}

// Fills an argument: zeros, or values in [0, 1) for floats (non-negative: weights that
// feed sqrt/rsqrt/log, e.g. batch-norm variances, stay out of NaN) and [0, 4) for
// integers (small non-negative integers keep index-like inputs in bounds).
void met_exec_fill_arg(met_exec_arg_t *a, met_exec_inputs_t kind, uint64_t seed, size_t k) {
  if (!a->is_memref) return; // scalars are set once
  memset(a->data, 0, a->data_bytes);
  if (kind != MET_EXEC_INPUTS_RANDOM) return;
  uint64_t s = seed ^ (0x100000001b3ull * (k + 1));
  MlirType t = a->elem;
  unsigned char *p = a->data;
  uint64_t n = a->n_elems;
  if (mlirTypeIsAF32(t)) {
    float *q = (float *)p;
    for (uint64_t i = 0; i < n; i++) q[i] = (float)(splitmix(&s) >> 40) / (float)(1 << 24);
  } else if (mlirTypeIsAF64(t)) {
    double *q = (double *)p;
    for (uint64_t i = 0; i < n; i++) q[i] = (double)(splitmix(&s) >> 11) / (double)(1ull << 53);
  } else if (mlirTypeIsAF16(t) || mlirTypeIsABF16(t)) {
    uint16_t *q = (uint16_t *)p;
    bool bf = mlirTypeIsABF16(t);
    for (uint64_t i = 0; i < n; i++) {
      float f = (float)(splitmix(&s) >> 40) / (float)(1 << 24);
      uint32_t x;
      memcpy(&x, &f, 4);
      q[i] = bf ? (uint16_t)(x >> 16) : f32_to_f16(f);
    }
  } else if (mlirTypeIsAInteger(t) || mlirTypeIsAIndex(t)) {
    uint64_t eb = a->ebytes;
    for (uint64_t i = 0; i < n; i++) {
      uint64_t v = splitmix(&s) & 3u;
      if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 1) v &= 1u;
      memcpy(p + i * eb, &v, eb); // little-endian: low bytes
    }
  } // other element types (f8, complex, ...) stay zero
}

// Available memory: MemAvailable of /proc/meminfo (counts reclaimable cache), else
// sysconf's free pages.
uint64_t met_exec_avail_memory(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (f) {
    char line[256];
    unsigned long long kb;
    while (fgets(line, sizeof line, f))
      if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) { fclose(f); return (uint64_t)kb * 1024u; }
    fclose(f);
  }
  long pages = sysconf(_SC_AVPHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || psz <= 0) return UINT64_MAX;
  return (uint64_t)pages * (uint64_t)psz;
}

// Static buffer size (elements) of a shaped type; MET_EUNSUPPORTED if dynamic or not
// strided, MET_EOVERFLOW past 64 bits (why in |err|).
met_status_t met_exec_shaped_extent(MlirType t, int64_t *rank, int64_t *sizes,
                                    int64_t *strides, int64_t *offset, uint64_t *n_elems,
                                    uint64_t *span, met_error_t *err) {
  if (!mlirShapedTypeHasRank(t)) return met_error_set(err, MET_EUNSUPPORTED, "unranked");
  int64_t r = mlirShapedTypeGetRank(t);
  if (r > 32) return met_error_set(err, MET_EUNSUPPORTED, "rank %" PRId64 " > 32", r);
  *rank = r;
  uint64_t n = 1;
  for (int64_t i = 0; i < r; i++) {
    if (mlirShapedTypeIsDynamicDim(t, i)) return met_error_set(err, MET_EUNSUPPORTED, "dynamic dimension %" PRId64, i);
    sizes[i] = mlirShapedTypeGetDimSize(t, i);
    if (sizes[i] < 0 || (sizes[i] && __builtin_mul_overflow(n, (uint64_t)sizes[i], &n))) return met_error_set(err, MET_EOVERFLOW,
                         "size overflow");
    if (!sizes[i]) n = 0;
  }
  *offset = 0;
  if (mlirTypeIsAMemRef(t)) {
    if (mlirLogicalResultIsFailure(mlirMemRefTypeGetStridesAndOffset(t, strides, offset))) return met_error_set(err, MET_EUNSUPPORTED,
                         "non-strided layout");
    for (int64_t i = 0; i < r; i++)
      if (strides[i] == INT64_MIN || strides[i] < 0) return met_error_set(err, MET_EUNSUPPORTED, "dynamic or negative stride");
    if (*offset == INT64_MIN || *offset < 0) return met_error_set(err, MET_EUNSUPPORTED, "dynamic offset");
  } else {
    // Row-major strides: each the product of the sizes inside it. Only a stride that is
    // stored is checked (the outermost dim's size multiplies nothing); an empty tensor
    // holds no element, so its strides matter to nothing and are not checked (they wrap).
    uint64_t st = 1;
    for (int64_t i = r - 1; i >= 0; i--) {
      if (st > INT64_MAX && n) return met_error_set(err, MET_EOVERFLOW,
                         "size overflow (a stride past 2^63 elements)");
      if (st > INT64_MAX) st = 0;  // an empty tensor: no stride reaches an element
      strides[i] = (int64_t)st;
      if (i > 0) {
        uint64_t d = sizes[i] ? (uint64_t)sizes[i] : 1;
        if (!met_mul_u64(st, d, &st)) st = n ? UINT64_MAX : 1;
      }
    }
  }
  // The elements from the buffer's start to its last: offset + 1 + sum (size - 1) x stride,
  // every step checked (a stride of 2^62 over 5 rows passes 2^64: a wrapped span would
  // allocate a few bytes for a buffer the kernel reads far past).
  uint64_t sp = 0, step;
  bool fits = !n || met_add_u64((uint64_t)*offset, 1, &sp);
  for (int64_t i = 0; i < r && n && fits; i++)
    fits = met_mul_u64((uint64_t)(sizes[i] - 1), (uint64_t)strides[i], &step) &&
           met_add_u64(sp, step, &sp);
  if (!fits) return met_error_set(err, MET_EOVERFLOW,
                         "size overflow (its strides reach past 2^64 elements)");
  *n_elems = n;
  *span = sp;
  return MET_OK;
}

static float f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, x;
  if (e == 0) {
    float f = (float)m / 16777216.0f; // subnormal: m * 2^-24
    return sign ? -f : f;
  }
  if (e == 31) x = sign | 0x7f800000u | (m << 13);
  else x = sign | ((e - 15 + 127) << 23) | (m << 13);
  float f;
  memcpy(&f, &x, 4);
  return f;
}

// One element as a double (0 for types it does not know).
double met_exec_elem_value(MlirType t, const unsigned char *p, uint64_t eb) {
  if (mlirTypeIsAF32(t)) { float f; memcpy(&f, p, 4); return f; }
  if (mlirTypeIsAF64(t)) { double d; memcpy(&d, p, 8); return d; }
  if (mlirTypeIsAF16(t)) { uint16_t h; memcpy(&h, p, 2); return f16_to_f32(h); }
  if (mlirTypeIsABF16(t)) { uint16_t h; memcpy(&h, p, 2); uint32_t x = (uint32_t)h << 16; float f; memcpy(&f, &x, 4); return f; }
  if (mlirTypeIsAIndex(t) || mlirTypeIsAInteger(t)) {
    unsigned w = mlirTypeIsAIndex(t) ? 64 : mlirIntegerTypeGetWidth(t);
    if (w > 64) return 0;
    uint64_t v = 0;
    memcpy(&v, p, eb < 8 ? eb : 8);
    if (w < 64) {
      v &= (UINT64_C(1) << w) - 1;
      if (w > 1 && (v >> (w - 1)) & 1) v |= ~((UINT64_C(1) << w) - 1); // sign-extend
    }
    return (double)(int64_t)v;
  }
  return 0;
}

// ---------------------------------------------------------------------------------------
// Elided constants
// ---------------------------------------------------------------------------------------

typedef struct { char buf[40]; size_t len; } head_t;
static void head_cb(MlirStringRef s, void *ud) {
  head_t *h = ud;
  size_t n = s.length < sizeof h->buf - 1 - h->len ? s.length : sizeof h->buf - 1 - h->len;
  memcpy(h->buf + h->len, s.data, n);
  h->len += n;
  h->buf[h->len] = 0;
}

// An elided blob (`dense_resource<__elided__>`, what exporters write for weights they
// leave out) has no data to run with: it prints as that, whatever its type.
static bool is_elided(MlirAttribute a) {
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseResourceElements(a)) return false;
  head_t h = {{0}, 0};
  mlirAttributePrint(a, head_cb, &h);
  return !strncmp(h.buf, "dense_resource<__elided__>", 26);
}

met_status_t met_exec_fill_elided(MlirContext ctx, MlirOperation module, const met_exec_options_t *opt,
                     met_exec_result_t *out) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirStringRef iv = S("initial_value");
  size_t k = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op), ++k) {
    if (!met_ir_str_eq(mlirIdentifierStr(mlirOperationGetName(op)), "memref.global")) continue;
    MlirAttribute init = mlirOperationGetInherentAttributeByName(op, iv);
    if (!is_elided(init)) continue;
    MlirType t = mlirAttributeGetType(init);
    MlirType elem = mlirShapedTypeGetElementType(t);
    MlirAttribute fill = {NULL};
    uint64_t eb = met_exec_elem_bytes(elem);
    int64_t n = 1;
    for (intptr_t d = 0; d < mlirShapedTypeGetRank(t) && n >= 0; ++d) {
      int64_t s = mlirShapedTypeGetDimSize(t, d);
      n = s < 0 || (s && n > INT64_MAX / s) ? -1 : n * s;
    }
    bool bit = mlirTypeIsAInteger(elem) && mlirIntegerTypeGetWidth(elem) == 1;
    if (opt->inputs == MET_EXEC_INPUTS_RANDOM && eb && n > 0 && !bit &&
        (uint64_t)n <= (UINT64_MAX / eb)) {
      // The --inputs rule of the arguments (met_exec_fill_arg), seeded by the global's place.
      met_exec_arg_t a;
      memset(&a, 0, sizeof a);
      a.is_memref = true;
      a.elem = elem;
      a.ebytes = eb;
      a.n_elems = (uint64_t)n;
      a.data_bytes = (uint64_t)n * eb;
      a.data = malloc(a.data_bytes ? a.data_bytes : 1);
      if (!a.data) return met_exec_fail(out, MET_ENOMEM, "out of memory (data for an elided constant)");
      met_exec_fill_arg(&a, opt->inputs, opt->seed ^ 0x6c6f6e67ull, k);
      fill = mlirDenseElementsAttrRawBufferGet(t, a.data_bytes, a.data);
      free(a.data);
    } else {
      MlirAttribute zero = mlirTypeIsAFloat(elem) ? mlirFloatAttrDoubleGet(ctx, elem, 0.0)
                                                  : mlirIntegerAttrGet(elem, 0);
      fill = mlirDenseElementsAttrSplatGet(t, zero);
    }
    if (mlirAttributeIsNull(fill))
      return met_exec_fail(out, MET_EEXTERNAL, "cannot make data for an elided constant of this type");
    mlirOperationSetInherentAttributeByName(op, iv, fill);
    if (out->synthetic_constants++ == 0)
      met_diag_loc_short(mlirOperationGetLocation(op), out->synthetic_loc, sizeof out->synthetic_loc);
  }
  return MET_OK;
}
