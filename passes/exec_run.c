// exec_run.c: see exec_run.h (the runner of `metrale run`; NOTES in the header).
//
// Flow of met_exec_run_function:
//   1. check the signature (static shapes only), size the inputs, refuse if they do not
//      fit in available memory;
//   2. clone the module, drop functions the target does not call, mark the target
//      llvm.emit_c_interface (only the target: see NOTES.md);
//   3. stage A (to bufferized memref), one pass manager per pass; count memref.copy;
//      bracket every top-level kernel with func.call @__metrale_kernel_begin/end(i64 id);
//   4. stage B (to the LLVM dialect); check that every external symbol resolves;
//   5. create the engine, register the hooks, initialise, look up the packed c-wrapper;
//   6. invoke `runs` times (inputs regenerated before each run, outside the timing;
//      resident arguments, parameters and states, once before the first).
#define _GNU_SOURCE 1 // dlsym(RTLD_DEFAULT), sysconf(_SC_AVPHYS_PAGES)
#include "exec_run.h"

#include <dlfcn.h>
#include <sys/wait.h>
#include <signal.h>
#include <poll.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"
#include "mlir-c/Support.h"

#define S(lit) mlirStringRefCreateFromCString(lit)

enum { ERR_ARGS = -1, ERR_LOWER = -2, ERR_JIT = -3, ERR_RUN = -4 };

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int fail(met_exec_result_t *out, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(met_exec_result_t *out, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(out->error, sizeof out->error, fmt, ap);
  va_end(ap);
  return code;
}

static bool sref_eq(MlirStringRef s, const char *c) {
  size_t n = strlen(c);
  return s.length == n && (n == 0 || memcmp(s.data, c, n) == 0);
}

static void sref_copy(char *dst, size_t cap, MlirStringRef s) {
  size_t n = s.length < cap - 1 ? s.length : cap - 1;
  if (n) memcpy(dst, s.data, n);
  dst[n] = 0;
}

// ---------------------------------------------------------------------------------------
// Host hooks called by the compiled code. All their state is thread-local: the compiled
// function runs on the thread that invokes it.
// ---------------------------------------------------------------------------------------

// Every block handed out by the allocation hooks carries this header just below the
// user pointer; live blocks form a circular list so that results can be recognised and
// leaks reclaimed.
typedef struct blk {
  struct blk *prev, *next;
  void *base;     // what malloc returned
  uint64_t size;  // bytes requested by the compiled code
  uint64_t magic;
  uint64_t pad;   // keeps sizeof == 48 (a multiple of 16)
} blk_t;
#define BLK_MAGIC 0x6d6574726c626c6bull
_Static_assert(sizeof(blk_t) % 16 == 0, "header keeps 16-byte alignment");

static _Thread_local blk_t tl_live;            // list sentinel
static _Thread_local uint64_t tl_alloc_events, tl_alloc_bytes, tl_free_events;
static _Thread_local uint64_t tl_live_bytes, tl_high_water;
static _Thread_local uint64_t tl_copy_calls;   // non-contiguous memref.copy via memrefCopy
static _Thread_local met_exec_kernel_t *tl_kernels;
static _Thread_local uint64_t *tl_kstart;
static _Thread_local size_t tl_nk;
static _Thread_local int tl_fail_fd = -1;       // the child's pipe: where a failed
                                                // allocation's size goes before it exits

// What the child sends back: its code and result, then the kernels' counters. A failed
// allocation sends rc WIRE_NO_MEMORY with the size in result.alloc_bytes.
typedef struct wire_t {
  int rc;
  met_exec_result_t result;
} wire_t;
enum { WIRE_NO_MEMORY = -97 };

static void live_init(void) {
  if (!tl_live.next) tl_live.next = tl_live.prev = &tl_live;
}

static void *hook_aligned_alloc(uint64_t alignment, uint64_t size) {
  live_init();
  if (alignment < 16) alignment = 16;
  if (alignment & (alignment - 1)) return NULL;
  if (size > UINT64_MAX - sizeof(blk_t) - alignment) return NULL;
  unsigned char *base = malloc(size + sizeof(blk_t) + alignment);
  if (!base) {
    // The compiled code does not check: it would write through a null pointer. In the
    // child that runs it, say what failed and stop.
    if (tl_fail_fd >= 0) {
      wire_t w;
      memset(&w, 0, sizeof w);
      w.rc = WIRE_NO_MEMORY;
      w.result.alloc_bytes = size;
      ssize_t k = write(tl_fail_fd, &w, sizeof w);
      (void)k;
      _exit(97);
    }
    return NULL;
  }
  uintptr_t user = ((uintptr_t)base + sizeof(blk_t) + alignment - 1) & ~(uintptr_t)(alignment - 1);
  blk_t *h = (blk_t *)(user - sizeof(blk_t));
  h->base = base;
  h->size = size;
  h->magic = BLK_MAGIC;
  h->pad = 0;
  h->next = tl_live.next;
  h->prev = &tl_live;
  tl_live.next->prev = h;
  tl_live.next = h;
  tl_alloc_events++;
  tl_alloc_bytes += size;
  tl_live_bytes += size;
  if (tl_live_bytes > tl_high_water) tl_high_water = tl_live_bytes;
  return (void *)user;
}

static void *hook_alloc(uint64_t size) { return hook_aligned_alloc(16, size); }

static blk_t *blk_of(void *p) {
  if (!p) return NULL;
  blk_t *h = (blk_t *)((uintptr_t)p - sizeof(blk_t));
  return h->magic == BLK_MAGIC ? h : NULL;
}

static void blk_release(blk_t *h) {
  h->prev->next = h->next;
  h->next->prev = h->prev;
  h->magic = 0;
  tl_live_bytes -= h->size;
  free(h->base);
}

static void hook_free(void *p) {
  if (!p) return;
  blk_t *h = blk_of(p);
  if (!h) return; // not ours: never free foreign memory
  tl_free_events++;
  blk_release(h);
}

// Is p the user pointer of a live block (safe test: walks the list, no header read)?
static blk_t *live_find(void *p) {
  live_init();
  for (blk_t *h = tl_live.next; h != &tl_live; h = h->next)
    if ((uintptr_t)h + sizeof(blk_t) == (uintptr_t)p) return h;
  return NULL;
}

static void hook_kernel_begin(int64_t id) {
  if (id >= 0 && (size_t)id < tl_nk) tl_kstart[id] = now_ns();
}

static void hook_kernel_end(int64_t id) {
  if (id >= 0 && (size_t)id < tl_nk) {
    uint64_t t = now_ns();
    tl_kernels[id].ns += t - tl_kstart[id];
    tl_kernels[id].launches++;
  }
}

// memrefCopy of MLIR's c_runner_utils (used for non-contiguous memref.copy): same ABI.
typedef struct { int64_t rank; void *desc; } unranked_t;
static void hook_memref_copy(int64_t elem, unranked_t *src, unranked_t *dst) {
  tl_copy_calls++;
  int64_t rank = src->rank;
  int64_t *sd = (int64_t *)src->desc, *dd = (int64_t *)dst->desc;
  char *sp = (char *)(uintptr_t)sd[1] + sd[2] * elem;
  char *dp = (char *)(uintptr_t)dd[1] + dd[2] * elem;
  if (rank == 0) { memcpy(dp, sp, (size_t)elem); return; }
  const int64_t *sizes = sd + 3, *ss = sd + 3 + rank, *ds = dd + 3 + rank;
  for (int64_t r = 0; r < rank; r++) if (sizes[r] == 0) return;
  int64_t idx[64] = {0};
  if (rank > 64) return;
  for (;;) {
    int64_t so = 0, dof = 0;
    for (int64_t r = 0; r < rank; r++) { so += idx[r] * ss[r]; dof += idx[r] * ds[r]; }
    memcpy(dp + dof * elem, sp + so * elem, (size_t)elem);
    int64_t r = rank - 1;
    while (r >= 0 && ++idx[r] == sizes[r]) idx[r--] = 0;
    if (r < 0) break;
  }
}

static void tl_reset_counters(void) {
  tl_alloc_events = tl_alloc_bytes = tl_free_events = 0;
  tl_high_water = tl_live_bytes;
  tl_copy_calls = 0;
}

// Frees every live block (after a failed run or to reclaim leaks); returns their bytes.
static uint64_t live_reclaim(void) {
  live_init();
  uint64_t bytes = 0;
  while (tl_live.next != &tl_live) {
    bytes += tl_live.next->size;
    blk_release(tl_live.next);
  }
  return bytes;
}

typedef struct { const char *name; void *fn; } hook_t;
#define FN(f) ((void *)(uintptr_t)(f))

static size_t hooks(hook_t *h) {
  size_t n = 0;
  h[n++] = (hook_t){"_mlir_memref_to_llvm_alloc", FN(hook_alloc)};
  h[n++] = (hook_t){"_mlir_memref_to_llvm_aligned_alloc", FN(hook_aligned_alloc)};
  h[n++] = (hook_t){"_mlir_memref_to_llvm_free", FN(hook_free)};
  h[n++] = (hook_t){"__metrale_kernel_begin", FN(hook_kernel_begin)};
  h[n++] = (hook_t){"__metrale_kernel_end", FN(hook_kernel_end)};
  h[n++] = (hook_t){"memrefCopy", FN(hook_memref_copy)};
  return n;
}
#define N_HOOKS 6

// ---------------------------------------------------------------------------------------
// Diagnostics and locations
// ---------------------------------------------------------------------------------------

typedef struct { char *buf; size_t cap, len; } sbuf_t;

static void sbuf_cb(MlirStringRef s, void *ud) {
  sbuf_t *b = ud;
  if (b->len + 1 >= b->cap) return;
  size_t n = s.length;
  if (n > b->cap - 1 - b->len) n = b->cap - 1 - b->len;
  memcpy(b->buf + b->len, s.data, n);
  b->len += n;
  b->buf[b->len] = 0;
}

// Finds a file:line:col inside loc (through Name, CallSite and Fused locations).
static bool loc_format(MlirLocation loc, char *dst, size_t cap, bool basename_only) {
  if (mlirLocationIsNull(loc)) return false;
  if (mlirLocationIsAFileLineColRange(loc)) {
    MlirStringRef f = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
    if (basename_only) {
      for (size_t i = f.length; i > 0; i--)
        if (f.data[i - 1] == '/') { f.data += i; f.length -= i; break; }
    }
    snprintf(dst, cap, "%.*s:%d:%d", (int)f.length, f.data,
             mlirLocationFileLineColRangeGetStartLine(loc),
             mlirLocationFileLineColRangeGetStartColumn(loc));
    return true;
  }
  if (mlirLocationIsAName(loc))
    return loc_format(mlirLocationNameGetChildLoc(loc), dst, cap, basename_only);
  if (mlirLocationIsACallSite(loc))
    return loc_format(mlirLocationCallSiteGetCallee(loc), dst, cap, basename_only) ||
           loc_format(mlirLocationCallSiteGetCaller(loc), dst, cap, basename_only);
  if (mlirLocationIsAFused(loc)) {
    intptr_t n = mlirLocationFusedGetNumLocations(loc);
    if (n <= 0 || n > 64) return false;
    MlirLocation locs[64];
    mlirLocationFusedGetLocations(loc, locs);
    for (intptr_t i = 0; i < n; i++)
      if (loc_format(locs[i], dst, cap, basename_only)) return true;
  }
  return false;
}

static void loc_short(MlirLocation loc, char *dst, size_t cap) {
  char tmp[1024];
  if (!loc_format(loc, tmp, sizeof tmp, false)) { snprintf(dst, cap, "?"); return; }
  if (strlen(tmp) < cap) { memcpy(dst, tmp, strlen(tmp) + 1); return; }
  if (!loc_format(loc, dst, cap, true)) snprintf(dst, cap, "?");
}

typedef struct {
  int errors;
  char msg[320];
  char loc[160];
} diag_t;

static MlirLogicalResult diag_handler(MlirDiagnostic d, void *ud) {
  diag_t *dg = ud;
  if (mlirDiagnosticGetSeverity(d) == MlirDiagnosticError) {
    if (dg->errors++ == 0) {
      sbuf_t b = {dg->msg, sizeof dg->msg, 0};
      dg->msg[0] = 0;
      mlirDiagnosticPrint(d, sbuf_cb, &b);
      loc_short(mlirDiagnosticGetLocation(d), dg->loc, sizeof dg->loc);
    }
  }
  return mlirLogicalResultSuccess(); // handled: nothing reaches stderr
}

// ---------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------

// Storage bytes of a scalar as the LLVM lowering lays it out in memory (0: unsupported).
static uint64_t elem_bytes(MlirType t) {
  if (mlirTypeIsAIndex(t)) return 8;
  unsigned bits = 0;
  if (mlirTypeIsAInteger(t)) bits = mlirIntegerTypeGetWidth(t);
  else if (mlirTypeIsAFloat(t)) bits = mlirFloatTypeGetWidth(t);
  else if (mlirTypeIsAComplex(t)) {
    uint64_t e = elem_bytes(mlirComplexTypeGetElementType(t));
    return 2 * e;
  } else return 0;
  if (bits == 0 || bits > 128) return 0;
  uint64_t b = (bits + 7) / 8, p = 1;
  while (p < b) p <<= 1; // LLVM's alloc size: i24 -> 4, tf32 (19 bits) -> 4
  return p;
}

static void type_str(MlirType t, char *dst, size_t cap) {
  sbuf_t b = {dst, cap, 0};
  dst[0] = 0;
  mlirTypePrint(t, sbuf_cb, &b);
}

// ---------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------

typedef struct {
  MlirType type, elem;
  bool is_memref;       // tensor or memref argument (descriptor)
  int64_t rank;
  int64_t *desc;        // (3 + 2*rank) words
  void *data;           // aligned buffer
  uint64_t data_bytes;  // buffer bytes
  uint64_t n_elems;     // elements written by the generator
  uint64_t ebytes;
  union { int64_t i; double d; float f; uint16_t h; unsigned char raw[16]; } scalar;
  void *argp;           // what args[k] points to (desc pointer or scalar)
  bool resident;        // a parameter or state: filled once, not host input of a run
  bool filled;
} arg_t;

typedef struct {
  MlirType type, elem;
  bool is_memref;
  int64_t rank;
  uint64_t offset, size; // in the result struct
  uint64_t bytes;        // buffer bytes (static)
} res_t;

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
static void fill_arg(arg_t *a, met_exec_inputs_t kind, uint64_t seed, size_t k) {
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
static uint64_t avail_memory(void) {
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

// Static buffer size (elements) of a shaped type; false if dynamic or not strided.
static bool shaped_extent(MlirType t, int64_t *rank, int64_t *sizes, int64_t *strides,
                          int64_t *offset, uint64_t *n_elems, uint64_t *span, char *why,
                          size_t whycap) {
  if (!mlirShapedTypeHasRank(t)) { snprintf(why, whycap, "unranked"); return false; }
  int64_t r = mlirShapedTypeGetRank(t);
  if (r > 32) { snprintf(why, whycap, "rank %" PRId64 " > 32", r); return false; }
  *rank = r;
  uint64_t n = 1;
  for (int64_t i = 0; i < r; i++) {
    if (mlirShapedTypeIsDynamicDim(t, i)) { snprintf(why, whycap, "dynamic dimension %" PRId64, i); return false; }
    sizes[i] = mlirShapedTypeGetDimSize(t, i);
    if (sizes[i] < 0 || (sizes[i] && __builtin_mul_overflow(n, (uint64_t)sizes[i], &n))) {
      snprintf(why, whycap, "size overflow");
      return false;
    }
    if (!sizes[i]) n = 0;
  }
  *offset = 0;
  if (mlirTypeIsAMemRef(t)) {
    if (mlirLogicalResultIsFailure(mlirMemRefTypeGetStridesAndOffset(t, strides, offset))) {
      snprintf(why, whycap, "non-strided layout");
      return false;
    }
    for (int64_t i = 0; i < r; i++)
      if (strides[i] == INT64_MIN || strides[i] < 0) { snprintf(why, whycap, "dynamic or negative stride"); return false; }
    if (*offset == INT64_MIN || *offset < 0) { snprintf(why, whycap, "dynamic offset"); return false; }
  } else {
    int64_t st = 1;
    for (int64_t i = r - 1; i >= 0; i--) { strides[i] = st; st *= sizes[i] ? sizes[i] : 1; }
  }
  uint64_t sp = n ? (uint64_t)*offset + 1 : 0;
  for (int64_t i = 0; i < r && n; i++) sp += (uint64_t)(sizes[i] - 1) * (uint64_t)strides[i];
  *n_elems = n;
  *span = sp;
  return true;
}

// ---------------------------------------------------------------------------------------
// Module preparation
// ---------------------------------------------------------------------------------------

static MlirStringRef sym_name(MlirOperation op) {
  MlirAttribute a = mlirOperationGetInherentAttributeByName(op, S("sym_name"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a)) return (MlirStringRef){NULL, 0};
  return mlirStringAttrGetValue(a);
}

static bool is_op(MlirOperation op, const char *name) {
  return sref_eq(mlirIdentifierStr(mlirOperationGetName(op)), name);
}

static MlirOperation find_func(MlirOperation module, const char *name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (is_op(op, "func.func") && sref_eq(sym_name(op), name)) return op;
  return (MlirOperation){NULL};
}

typedef struct { char **names; size_t n, cap; } names_t;

static bool names_has(const names_t *ns, MlirStringRef s) {
  for (size_t i = 0; i < ns->n; i++)
    if (sref_eq(s, ns->names[i])) return true;
  return false;
}

static void names_add(names_t *ns, MlirStringRef s) {
  if (names_has(ns, s)) return;
  if (ns->n == ns->cap) {
    size_t cap = ns->cap ? 2 * ns->cap : 16;
    char **nn = realloc(ns->names, cap * sizeof *nn);
    if (!nn) return;
    ns->names = nn;
    ns->cap = cap;
  }
  char *c = malloc(s.length + 1);
  if (!c) return;
  memcpy(c, s.data, s.length);
  c[s.length] = 0;
  ns->names[ns->n++] = c;
}

static void names_free(names_t *ns) {
  for (size_t i = 0; i < ns->n; i++) free(ns->names[i]);
  free(ns->names);
}

static MlirWalkResult collect_callees(MlirOperation op, void *ud) {
  MlirAttribute c = mlirOperationGetInherentAttributeByName(op, S("callee"));
  if (!mlirAttributeIsNull(c) && mlirAttributeIsAFlatSymbolRef(c))
    names_add(ud, mlirFlatSymbolRefAttrGetValue(c));
  return MlirWalkResultAdvance;
}

// Drops the func.func ops that the target does not (transitively) call.
static void prune_funcs(MlirOperation module, const char *target) {
  names_t keep = {0};
  names_add(&keep, mlirStringRefCreateFromCString(target));
  for (size_t i = 0; i < keep.n; i++) {
    MlirOperation f = find_func(module, keep.names[i]);
    if (!mlirOperationIsNull(f)) mlirOperationWalk(f, collect_callees, &keep, MlirWalkPreOrder);
  }
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirOperation op = mlirBlockGetFirstOperation(body);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    // Functions the target does not call go, and so do nested modules: a function at the
    // top cannot call into them, and their functions would not lower with the top's.
    if ((is_op(op, "func.func") && !names_has(&keep, sym_name(op))) ||
        is_op(op, "builtin.module"))
      mlirOperationDestroy(op);
    op = next;
  }
  names_free(&keep);
}

typedef struct { uint64_t n; } count_t;
typedef struct { MlirContext ctx; MlirOperation first; } unreg_t;
static MlirWalkResult find_unregistered(MlirOperation op, void *ud) {
  unreg_t *u = ud;
  if (!mlirContextIsRegisteredOperation(u->ctx, mlirIdentifierStr(mlirOperationGetName(op)))) {
    u->first = op;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static MlirWalkResult count_copies(MlirOperation op, void *ud) {
  if (is_op(op, "memref.copy")) ((count_t *)ud)->n++;
  return MlirWalkResultAdvance;
}

// memref.alloc ops in the bufferized function: what the allocation hook should see once
// per invocation in straight-line code.
static MlirWalkResult count_allocs(MlirOperation op, void *ud) {
  if (is_op(op, "memref.alloc")) ((count_t *)ud)->n++;
  return MlirWalkResultAdvance;
}

// Top-level ops of the target that get kernel markers.
static bool is_kernel(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if (n.length > 7 && !memcmp(n.data, "linalg.", 7)) return true;
  static const char *const k[] = {"memref.copy", "scf.for", "scf.parallel", "scf.forall",
                                  "scf.while", "affine.for", "affine.parallel", "func.call"};
  for (size_t i = 0; i < sizeof k / sizeof *k; i++)
    if (sref_eq(n, k[i])) return true;
  return false;
}

// The buffer a kernel operand is: through views to a global (its symbol) or a function
// argument; NULL for anything else (an allocation, a computed value).
static const void *resident_key(MlirValue v, MlirOperation func, const met_exec_options_t *opt) {
  for (int depth = 0; depth < 64; ++depth) {
    if (mlirValueIsABlockArgument(v)) {
      MlirBlock owner = mlirBlockArgumentGetOwner(v);
      MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
      if (!mlirBlockEqual(owner, entry)) return NULL;
      intptr_t k = mlirBlockArgumentGetArgNumber(v);
      return (size_t)k < opt->n_resident && opt->resident[k] ? v.ptr : NULL;
    }
    MlirOperation d = mlirOpResultGetOwner(v);
    if (is_op(d, "memref.get_global")) {
      MlirAttribute a = mlirOperationGetInherentAttributeByName(d, S("name"));
      return mlirAttributeIsNull(a) ? NULL : a.ptr;  // symbol refs are uniqued
    }
    static const char *const views[] = {"memref.subview", "memref.cast", "memref.reinterpret_cast",
                                        "memref.collapse_shape", "memref.expand_shape",
                                        "memref.view", "memref.transpose"};
    bool view = false;
    for (size_t i = 0; i < sizeof views / sizeof *views && !view; ++i) view = is_op(d, views[i]);
    if (!view || mlirOperationGetNumOperands(d) < 1) return NULL;
    v = mlirOperationGetOperand(d, 0);
  }
  return NULL;
}

// Resident rows and handles of the bufferized function: the distinct resident buffers
// its kernels bind, and per kernel the distinct ones it binds (its operands and what the
// ops of its body use: a loop nest captures its buffers instead of taking them as
// operands).
typedef struct resident_walk_t {
  MlirOperation func;
  const met_exec_options_t *opt;
  const void *mine[256];
  size_t nmine;
} resident_walk_t;

static MlirWalkResult collect_resident(MlirOperation op, void *user) {
  resident_walk_t *w = user;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    const void *k = resident_key(mlirOperationGetOperand(op, i), w->func, w->opt);
    if (!k) continue;
    bool seen = false;
    for (size_t j = 0; j < w->nmine && !seen; ++j) seen = w->mine[j] == k;
    if (!seen && w->nmine < 256) w->mine[w->nmine++] = k;
  }
  return MlirWalkResultAdvance;
}

static void count_resident(MlirOperation func, const met_exec_options_t *opt,
                           met_exec_result_t *out) {
  const void *rows[4096];
  size_t nrows = 0;
  MlirRegion body = mlirOperationGetRegion(func, 0);
  for (MlirBlock b = mlirRegionGetFirstBlock(body); !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      if (!is_kernel(op)) continue;
      resident_walk_t w;
      w.func = func;
      w.opt = opt;
      w.nmine = 0;
      mlirOperationWalk(op, collect_resident, &w, MlirWalkPreOrder);
      out->resident_handles += w.nmine;
      for (size_t i = 0; i < w.nmine; ++i) {
        bool seen = false;
        for (size_t j = 0; j < nrows && !seen; ++j) seen = rows[j] == w.mine[i];
        if (!seen && nrows < 4096) rows[nrows++] = w.mine[i];
      }
    }
  out->resident_rows = nrows;
}

static MlirOperation make_call(MlirContext ctx, MlirLocation loc, const char *callee, MlirValue arg) {
  MlirOperationState st = mlirOperationStateGet(S("func.call"), loc);
  mlirOperationStateAddOperands(&st, 1, &arg);
  MlirNamedAttribute a = mlirNamedAttributeGet(mlirIdentifierGet(ctx, S("callee")),
                                               mlirFlatSymbolRefAttrGet(ctx, S(callee)));
  mlirOperationStateAddAttributes(&st, 1, &a);
  return mlirOperationCreate(&st);
}

static int insert_markers(MlirContext ctx, MlirOperation module, MlirOperation func,
                          met_exec_result_t *out) {
  // Declarations first (private, no c-interface: plain C calls to the hooks).
  MlirBlock mbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  static const char *const decl[2] = {"func.func private @__metrale_kernel_begin(i64)",
                                      "func.func private @__metrale_kernel_end(i64)"};
  static const char *const dname[2] = {"__metrale_kernel_begin", "__metrale_kernel_end"};
  for (int i = 0; i < 2; i++) {
    if (!mlirOperationIsNull(find_func(module, dname[i]))) continue;
    MlirOperation d = mlirOperationCreateParse(ctx, S(decl[i]), S("metrale-markers"));
    if (mlirOperationIsNull(d)) return fail(out, ERR_LOWER, "cannot build the kernel marker declarations");
    mlirBlockInsertOwnedOperation(mbody, 0, d);
  }
  size_t cap = 0;
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirRegion body = mlirOperationGetRegion(func, 0);
  for (MlirBlock b = mlirRegionGetFirstBlock(body); !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b)) {
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      if (!is_kernel(op)) continue;
      if (is_op(op, "func.call")) {
        MlirAttribute c = mlirOperationGetInherentAttributeByName(op, S("callee"));
        if (!mlirAttributeIsNull(c) && mlirAttributeIsAFlatSymbolRef(c)) {
          MlirStringRef cn = mlirFlatSymbolRefAttrGetValue(c);
          if (sref_eq(cn, dname[0]) || sref_eq(cn, dname[1])) continue;
        }
      }
      if (out->n_kernels == cap) {
        cap = cap ? 2 * cap : 32;
        met_exec_kernel_t *nk = realloc(out->kernels, cap * sizeof *nk);
        if (!nk) return fail(out, ERR_RUN, "out of memory (kernel table)");
        out->kernels = nk;
      }
      size_t id = out->n_kernels++;
      met_exec_kernel_t *k = &out->kernels[id];
      memset(k, 0, sizeof *k);
      sref_copy(k->name, sizeof k->name, mlirIdentifierStr(mlirOperationGetName(op)));
      MlirLocation loc = mlirOperationGetLocation(op);
      loc_short(loc, k->loc, sizeof k->loc);
      MlirOperationState st = mlirOperationStateGet(S("arith.constant"), loc);
      mlirOperationStateAddResults(&st, 1, &i64);
      MlirNamedAttribute va = mlirNamedAttributeGet(mlirIdentifierGet(ctx, S("value")),
                                                    mlirIntegerAttrGet(i64, (int64_t)id));
      mlirOperationStateAddAttributes(&st, 1, &va);
      MlirOperation cst = mlirOperationCreate(&st);
      mlirBlockInsertOwnedOperationBefore(b, op, cst);
      MlirValue v = mlirOperationGetResult(cst, 0);
      mlirBlockInsertOwnedOperationBefore(b, op, make_call(ctx, loc, dname[0], v));
      MlirOperation end = make_call(ctx, loc, dname[1], v);
      mlirBlockInsertOwnedOperationAfter(b, op, end);
      op = end;
    }
  }
  return 0;
}

// ---------------------------------------------------------------------------------------
// Pass pipeline
// ---------------------------------------------------------------------------------------

static const char *const stage_a[] = {
    "func.func(tosa-to-linalg-named)",
    "func.func(tosa-to-linalg)",
    "func.func(tosa-to-arith)",
    "func.func(tosa-to-tensor)",
    "func.func(convert-elementwise-to-linalg)",
    "canonicalize",
    "func.func(linalg-fuse-elementwise-ops)",
    "eliminate-empty-tensors",
    "one-shot-bufferize{bufferize-function-boundaries=1 "
    "function-boundary-type-conversion=identity-layout-map}",
    "canonicalize",
    "buffer-deallocation-pipeline",
    "func.func(optimize-allocation-liveness)",
    "convert-bufferization-to-memref",
};

static const char *const stage_b[] = {
    "func.func(convert-linalg-to-loops)",
    "func.func(arith-expand{include-bf16=1})",
    "expand-strided-metadata",
    "lower-affine",
    "convert-scf-to-cf",
    "convert-vector-to-llvm",
    "finalize-memref-to-llvm{use-generic-functions=1}",
    "convert-math-to-llvm",
    "convert-math-to-libm",
    "convert-arith-to-llvm",
    "convert-cf-to-llvm",
    "convert-func-to-llvm",
    "convert-index-to-llvm",
    "convert-ub-to-llvm",
    "reconcile-unrealized-casts",
};

static int run_passes(MlirContext ctx, MlirOperation module, const char *const *passes,
                      size_t n, diag_t *dg, met_exec_result_t *out) {
  for (size_t i = 0; i < n; i++) {
    char pipe[512], perr[256] = {0};
    snprintf(pipe, sizeof pipe, "builtin.module(%s)", passes[i]);
    MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, S("builtin.module"));
    sbuf_t eb = {perr, sizeof perr, 0};
    if (mlirLogicalResultIsFailure(
            mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm), S(pipe), sbuf_cb, &eb))) {
      mlirPassManagerDestroy(pm);
      return fail(out, ERR_LOWER, "pass pipeline element '%s' does not parse: %s", passes[i], perr);
    }
    dg->errors = 0;
    dg->msg[0] = dg->loc[0] = 0;
    MlirLogicalResult r = mlirPassManagerRunOnOp(pm, module);
    mlirPassManagerDestroy(pm);
    if (mlirLogicalResultIsFailure(r))
      return fail(out, ERR_LOWER, "lowering failed in pass '%s' at %s: %s", passes[i],
                  dg->loc[0] ? dg->loc : "?", dg->msg[0] ? dg->msg : "(no diagnostic)");
  }
  return 0;
}

// linalg.softmax (an aggregate op) is not lowered by convert-linalg-to-loops, and no
// registered pass decomposes it: a transform script does (decompose_interface), run by
// the transform interpreter on the tensor IR, then removed.
static MlirWalkResult find_softmax(MlirOperation op, void *ud) {
  if (is_op(op, "linalg.softmax")) { *(bool *)ud = true; return MlirWalkResultInterrupt; }
  return MlirWalkResultAdvance;
}

static int decompose_aggregates(MlirContext ctx, MlirOperation module, diag_t *dg,
                                met_exec_result_t *out) {
  bool any = false;
  mlirOperationWalk(module, find_softmax, &any, MlirWalkPreOrder);
  if (!any) return 0;
  static const char *const seq =
      "module attributes {transform.with_named_sequence} {\n"
      "transform.named_sequence @__metrale_decompose(%root: !transform.any_op "
      "{transform.readonly}) {\n"
      "  %s = transform.structured.match ops{[\"linalg.softmax\"]} in %root"
      " : (!transform.any_op) -> !transform.any_op\n"
      "  %d = transform.structured.decompose_interface %s"
      " : (!transform.any_op) -> !transform.any_op\n"
      "  transform.yield\n}\n}";
  MlirOperation wrap = mlirOperationCreateParse(ctx, S(seq), S("metrale-decompose"));
  if (mlirOperationIsNull(wrap))
    return fail(out, ERR_LOWER, "cannot build the softmax decomposition script: %s", dg->msg);
  // The sequence verifies only under a parent carrying transform.with_named_sequence:
  // parse it inside a module, then move it into the clone.
  MlirOperation sq = mlirBlockGetFirstOperation(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(wrap, 0)));
  mlirOperationRemoveFromParent(sq);
  mlirOperationDestroy(wrap);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  mlirBlockAppendOwnedOperation(body, sq);
  bool had = !mlirAttributeIsNull(
      mlirOperationGetDiscardableAttributeByName(module, S("transform.with_named_sequence")));
  if (!had)
    mlirOperationSetDiscardableAttributeByName(module, S("transform.with_named_sequence"),
                                               mlirUnitAttrGet(ctx));
  static const char *const pass[] = {"transform-interpreter{entry-point=__metrale_decompose}"};
  int rc = run_passes(ctx, module, pass, 1, dg, out);
  mlirOperationDestroy(sq);
  if (!had) mlirOperationRemoveDiscardableAttributeByName(module, S("transform.with_named_sequence"));
  return rc;
}

// After stage B only LLVM dialect ops may remain; anything else would make the
// translation to LLVM IR fail without a message.
typedef struct { MlirOperation first; uint64_t n; } leftover_t;
static MlirWalkResult find_leftover(MlirOperation op, void *ud) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if ((n.length > 5 && !memcmp(n.data, "llvm.", 5)) || sref_eq(n, "builtin.module") ||
      sref_eq(n, "builtin.unrealized_conversion_cast"))
    return MlirWalkResultAdvance;
  leftover_t *l = ud;
  if (l->n++ == 0) l->first = op;
  return MlirWalkResultAdvance;
}

static int check_leftovers(MlirOperation module, met_exec_result_t *out) {
  leftover_t l = {{NULL}, 0};
  mlirOperationWalk(module, find_leftover, &l, MlirWalkPreOrder);
  if (!l.n) return 0;
  char name[96], loc[160];
  sref_copy(name, sizeof name, mlirIdentifierStr(mlirOperationGetName(l.first)));
  loc_short(mlirOperationGetLocation(l.first), loc, sizeof loc);
  return fail(out, ERR_LOWER, "%" PRIu64 " op(s) survived lowering to the LLVM dialect (no pass of "
              "the pipeline lowers them); first: '%s' at %s", l.n, name, loc);
}

// Every external llvm.func must resolve: to a hook or to a symbol of this process.
static int check_externals(MlirOperation module, const met_exec_options_t *opt, met_exec_result_t *out) {
  void *libh[16];
  size_t nl = 0;
  for (size_t i = 0; i < opt->n_shared_libs && nl < 16; i++) {
    void *h = dlopen(opt->shared_libs[i], RTLD_LAZY | RTLD_LOCAL);
    if (!h) return fail(out, ERR_JIT, "cannot load shared library %.300s: %.150s", opt->shared_libs[i], dlerror());
    libh[nl++] = h;
  }
  hook_t hk[N_HOOKS];
  size_t nh = hooks(hk);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  char missing[256] = {0};
  size_t nm = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!is_op(op, "llvm.func")) continue;
    if (!mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)))) continue;
    char name[256];
    sref_copy(name, sizeof name, sym_name(op));
    bool ok = false;
    for (size_t i = 0; i < nh && !ok; i++) ok = !strcmp(name, hk[i].name);
    if (!ok) ok = dlsym(RTLD_DEFAULT, name) != NULL;
    for (size_t i = 0; i < nl && !ok; i++) ok = dlsym(libh[i], name) != NULL;
    if (!ok) {
      if (nm++ < 4) {
        size_t l = strlen(missing);
        if (l < sizeof missing - 1)
          snprintf(missing + l, sizeof missing - l, "%s%.60s", l ? ", " : "", name);
      }
    }
  }
  for (size_t i = 0; i < nl; i++) dlclose(libh[i]);
  if (nm)
    return fail(out, ERR_JIT, "%zu external symbol(s) do not resolve in this process: %s%s", nm,
                missing, nm > 4 ? ", ..." : "");
  return 0;
}

static void file_cb(MlirStringRef s, void *ud) { fwrite(s.data, 1, s.length, (FILE *)ud); }

// ---------------------------------------------------------------------------------------
// Engine
// ---------------------------------------------------------------------------------------

typedef void (*packed_fn)(void **);

static int build_engine(MlirModule lowered, const met_exec_options_t *opt, const char *fname,
                        MlirExecutionEngine *jit, packed_fn *fn, diag_t *dg, met_exec_result_t *out) {
  MlirStringRef libs[16];
  int nlibs = 0;
  for (size_t i = 0; i < opt->n_shared_libs && nlibs < 16; i++) libs[nlibs++] = S(opt->shared_libs[i]);
  dg->errors = 0;
  dg->msg[0] = dg->loc[0] = 0;
  *jit = mlirExecutionEngineCreate(lowered, opt->opt_level, nlibs, nlibs ? libs : NULL, false, false);
  if (mlirExecutionEngineIsNull(*jit)) {
    if (dg->errors)
      return fail(out, ERR_JIT, "mlirExecutionEngineCreate failed: translation to LLVM IR: %s at %s",
                  dg->msg, dg->loc[0] ? dg->loc : "?");
    return fail(out, ERR_JIT, "mlirExecutionEngineCreate failed (translation to LLVM IR or target setup; no diagnostic)");
  }
  hook_t hk[N_HOOKS];
  size_t nh = hooks(hk);
  for (size_t i = 0; i < nh; i++) mlirExecutionEngineRegisterSymbol(*jit, S(hk[i].name), hk[i].fn);
  mlirExecutionEngineInitialize(*jit);
  char name[300];
  snprintf(name, sizeof name, "_mlir_ciface_%s", fname);
  *fn = (packed_fn)(uintptr_t)mlirExecutionEngineLookupPacked(*jit, S(name));
  if (!*fn) {
    mlirExecutionEngineDestroy(*jit);
    *jit = (MlirExecutionEngine){NULL};
    return fail(out, ERR_JIT, "JIT lookup of the packed wrapper of '%s' failed (code generation or an unresolved symbol)", name);
  }
  return 0;
}

typedef struct {
  arg_t *args;
  size_t nargs;
  res_t *res;
  size_t nres;
  unsigned char *res_buf; // result struct (or scalar return slot)
  void *res_ptr;          // args[0] points here when the wrapper takes an out-param
  bool out_param;
  void **packed;
  uint64_t *times;
  MlirModule clone;
  MlirExecutionEngine jit;
} run_state_t;

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
static double elem_value(MlirType t, const unsigned char *p, uint64_t eb) {
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

// Sum of the elements of the results (memref results through their descriptors).
static double results_checksum(const run_state_t *s) {
  double sum = 0;
  for (size_t i = 0; i < s->nres; i++) {
    const res_t *r = &s->res[i];
    const unsigned char *slot = s->res_buf + r->offset;
    if (!r->is_memref) {
      sum += elem_value(r->elem, slot, r->size);
      continue;
    }
    uint64_t eb = elem_bytes(r->elem);
    int64_t d[3 + 64];
    memcpy(d, slot, (size_t)(3 + 2 * r->rank) * 8u);
    const unsigned char *base = (const unsigned char *)(uintptr_t)d[1];
    if (!base) continue;
    int64_t rank = r->rank, idx[32] = {0};
    bool empty = false;
    for (int64_t k = 0; k < rank; k++) empty |= d[3 + k] == 0;
    if (empty) continue;
    for (;;) {
      int64_t o = d[2];
      for (int64_t k = 0; k < rank; k++) o += idx[k] * d[3 + rank + k];
      sum += elem_value(r->elem, base + (uint64_t)o * eb, eb);
      int64_t k = rank - 1;
      while (k >= 0 && ++idx[k] == d[3 + k]) idx[k--] = 0;
      if (k < 0) break;
    }
  }
  return sum;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

// ---------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------

void met_exec_options_default(met_exec_options_t *opt) {
  memset(opt, 0, sizeof *opt);
  opt->runs = 5;
  opt->opt_level = 2;
  opt->inputs = MET_EXEC_INPUTS_ZEROS;
  opt->seed = 0x5eed;
}

void met_exec_run_register(MlirContext ctx) {
  MlirDialectRegistry reg = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(reg);
  mlirContextAppendDialectRegistry(ctx, reg);
  mlirDialectRegistryDestroy(reg);
  mlirRegisterAllLLVMTranslations(ctx);
  mlirRegisterAllPasses();
}

void met_exec_result_free(met_exec_result_t *out) {
  if (!out) return;
  free(out->kernels);
  out->kernels = NULL;
  out->n_kernels = 0;
}


static void state_free(run_state_t *s) {
  if (!mlirExecutionEngineIsNull(s->jit)) mlirExecutionEngineDestroy(s->jit);
  if (!mlirModuleIsNull(s->clone)) mlirModuleDestroy(s->clone);
  for (size_t i = 0; i < s->nargs; i++) {
    free(s->args[i].desc);
    free(s->args[i].data);
  }
  free(s->args);
  free(s->res);
  free(s->res_buf);
  free(s->packed);
  free(s->times);
}

// Sets up args/results from the function type; sizes inputs. 0 or an error code.
static int plan_signature(MlirOperation func, const met_exec_options_t *opt, run_state_t *s,
                          met_exec_result_t *out) {
  MlirAttribute fta = mlirOperationGetInherentAttributeByName(func, S("function_type"));
  if (mlirAttributeIsNull(fta) || !mlirAttributeIsAType(fta))
    return fail(out, ERR_ARGS, "function has no function_type");
  MlirType ft = mlirTypeAttrGetValue(fta);
  s->nargs = (size_t)mlirFunctionTypeGetNumInputs(ft);
  s->nres = (size_t)mlirFunctionTypeGetNumResults(ft);
  s->args = calloc(s->nargs ? s->nargs : 1, sizeof *s->args);
  s->res = calloc(s->nres ? s->nres : 1, sizeof *s->res);
  if (!s->args || !s->res) return fail(out, ERR_RUN, "out of memory");
  char ts[128];
  uint64_t total = 0, need = 0;
  for (size_t i = 0; i < s->nargs; i++) {
    arg_t *a = &s->args[i];
    a->type = mlirFunctionTypeGetInput(ft, (intptr_t)i);
    type_str(a->type, ts, sizeof ts);
    if (mlirTypeIsARankedTensor(a->type) || mlirTypeIsAMemRef(a->type)) {
      a->is_memref = true;
      a->elem = mlirShapedTypeGetElementType(a->type);
      a->ebytes = elem_bytes(a->elem);
      if (!a->ebytes) return fail(out, ERR_ARGS, "argument %zu: unsupported element type in %s", i, ts);
      int64_t sizes[32], strides[32], off;
      uint64_t n, span;
      char why[64];
      if (!shaped_extent(a->type, &a->rank, sizes, strides, &off, &n, &span, why, sizeof why))
        return fail(out, ERR_ARGS, "argument %zu (%s): %s; the runner takes static shapes of rank up to 32, in identity or strided layouts", i, ts, why);
      a->n_elems = span; // fill the whole buffer, holes included
      if (__builtin_mul_overflow(span, a->ebytes, &a->data_bytes))
        return fail(out, ERR_ARGS, "argument %zu (%s): size overflow", i, ts);
      a->desc = calloc((size_t)(3 + 2 * a->rank), sizeof(int64_t));
      if (!a->desc) return fail(out, ERR_RUN, "out of memory");
      a->desc[2] = off;
      for (int64_t r = 0; r < a->rank; r++) {
        a->desc[3 + r] = sizes[r];
        a->desc[3 + a->rank + r] = strides[r];
      }
      a->resident = i < opt->n_resident && opt->resident[i];
      if (__builtin_add_overflow(total, (uint64_t)(3 + 2 * a->rank) * 8u, &total) ||
          (!a->resident && __builtin_add_overflow(total, a->data_bytes, &total)) ||
          __builtin_add_overflow(need, a->data_bytes, &need))
        return fail(out, ERR_ARGS, "the arguments' sizes add up to more than 2^64 bytes; not "
                    "allocating");
    } else if (mlirTypeIsAInteger(a->type) || mlirTypeIsAIndex(a->type) || mlirTypeIsAF32(a->type) ||
               mlirTypeIsAF64(a->type) || mlirTypeIsAF16(a->type) || mlirTypeIsABF16(a->type)) {
      a->ebytes = elem_bytes(a->type);
      if (!a->ebytes || a->ebytes > 8) return fail(out, ERR_ARGS, "argument %zu: unsupported scalar type %s", i, ts);
      memset(&a->scalar, 0, sizeof a->scalar);
      if (opt->inputs == MET_EXEC_INPUTS_RANDOM) {
        if (mlirTypeIsAF32(a->type)) a->scalar.f = 0.5f;
        else if (mlirTypeIsAF64(a->type)) a->scalar.d = 0.5;
        else if (mlirTypeIsAF16(a->type)) a->scalar.h = 0x3800;   // 0.5
        else if (mlirTypeIsABF16(a->type)) a->scalar.h = 0x3f00;  // 0.5
        else a->scalar.i = 1;
      }
      a->argp = &a->scalar;
      if (__builtin_add_overflow(total, a->ebytes, &total))
        return fail(out, ERR_ARGS, "the arguments' sizes add up to more than 2^64 bytes");
    } else {
      return fail(out, ERR_ARGS, "argument %zu: unsupported type %s (unranked, tuple, ...)", i, ts);
    }
  }
  out->input_bytes = total;
  uint64_t avail = avail_memory();
  if (need > avail)
    return fail(out, ERR_ARGS, "inputs need %" PRIu64 " bytes but only %" PRIu64 " bytes of memory are available; not allocating",
                need, avail);
  // Results: layout of the c-wrapper's result struct (natural alignment, like LLVM's).
  uint64_t off = 0, maxal = 1;
  for (size_t i = 0; i < s->nres; i++) {
    res_t *r = &s->res[i];
    r->type = mlirFunctionTypeGetResult(ft, (intptr_t)i);
    type_str(r->type, ts, sizeof ts);
    uint64_t size, al;
    if (mlirTypeIsARankedTensor(r->type) || mlirTypeIsAMemRef(r->type)) {
      int64_t sizes[32], strides[32], o;
      uint64_t n, span;
      char why[64];
      if (!shaped_extent(r->type, &r->rank, sizes, strides, &o, &n, &span, why, sizeof why))
        return fail(out, ERR_ARGS, "result %zu (%s): %s; the runner takes static shapes of rank up to 32, in identity or strided layouts", i, ts, why);
      uint64_t eb = elem_bytes(mlirShapedTypeGetElementType(r->type));
      if (!eb) return fail(out, ERR_ARGS, "result %zu: unsupported element type in %s", i, ts);
      r->is_memref = true;
      r->elem = mlirShapedTypeGetElementType(r->type);
      r->bytes = span * eb;
      size = (uint64_t)(3 + 2 * r->rank) * 8u;
      al = 8;
    } else {
      size = elem_bytes(r->type);
      if (!size || size > 8 || mlirTypeIsAComplex(r->type))
        return fail(out, ERR_ARGS, "result %zu: unsupported type %s", i, ts);
      al = size;
      r->elem = r->type;
    }
    off = (off + al - 1) / al * al;
    r->offset = off;
    r->size = size;
    off += size;
    if (al > maxal) maxal = al;
  }
  // A single scalar result is returned by value (the packed wrapper stores it after the
  // arguments); a memref result or several results come back through an out-param
  // pointer passed first.
  s->out_param = s->nres > 1 || (s->nres == 1 && s->res[0].is_memref);
  s->res_buf = calloc(1, off + 16);
  s->packed = calloc(s->nargs + 2, sizeof(void *));
  if (!s->res_buf || !s->packed) return fail(out, ERR_RUN, "out of memory");
  size_t k = 0;
  if (s->out_param) {
    s->res_ptr = s->res_buf;
    s->packed[k++] = &s->res_ptr;
  }
  for (size_t i = 0; i < s->nargs; i++) {
    arg_t *a = &s->args[i];
    s->packed[k++] = a->is_memref ? (void *)&a->argp : a->argp;
  }
  if (!s->out_param && s->nres == 1) s->packed[k++] = s->res_buf;
  return 0;
}

static int alloc_inputs(run_state_t *s, met_exec_result_t *out) {
  for (size_t i = 0; i < s->nargs; i++) {
    arg_t *a = &s->args[i];
    if (!a->is_memref) continue;
    size_t bytes = (size_t)((a->data_bytes + 63) / 64 * 64);
    a->data = aligned_alloc(64, bytes ? bytes : 64);
    if (!a->data) return fail(out, ERR_RUN, "out of memory allocating argument %zu (%" PRIu64 " bytes)", i, a->data_bytes);
    a->desc[0] = (int64_t)(uintptr_t)a->data;
    a->desc[1] = (int64_t)(uintptr_t)a->data;
    a->argp = a->desc;
  }
  return 0;
}

// The invocations, on the process that runs them (a child of the caller: see
// run_isolated). 0 or an error code.
static int run_invocations(run_state_t *s, const met_exec_options_t *opt, packed_fn fn,
                           diag_t *dg, const char *func_name, met_exec_result_t *out) {
  int rc = 0;
  if ((rc = alloc_inputs(s, out))) return rc;
  s->times = calloc(opt->runs, sizeof *s->times);
  uint64_t *kstart = calloc(out->n_kernels + 1, sizeof *kstart);
  if (!s->times || !kstart) { free(kstart); return fail(out, ERR_RUN, "out of memory"); }
  tl_kernels = out->kernels;
  tl_kstart = kstart;
  tl_nk = out->n_kernels;
  live_init();
  bool lost = opt->inject_device_loss;
  for (unsigned run = 0; run < opt->runs;) {
    for (size_t i = 0; i < s->nargs; i++)
      if (!s->args[i].resident || !s->args[i].filled) {
        fill_arg(&s->args[i], opt->inputs, opt->seed, i);
        s->args[i].filled = true;
      }
    memset(s->res_buf, 0, 16);
    if (lost) {
      // Simulated device loss: the invocation is reported failed before it starts; the
      // engine (the "device" state) is destroyed and rebuilt, and the run retried.
      lost = false;
      uint64_t r0 = now_ns();
      mlirExecutionEngineDestroy(s->jit);
      s->jit = (MlirExecutionEngine){NULL};
      live_reclaim();
      if ((rc = build_engine(s->clone, opt, func_name, &s->jit, &fn, dg, out))) {
        char e[512];
        snprintf(e, sizeof e, "%s", out->error);
        rc = fail(out, ERR_RUN, "device loss injected; recovery failed: %.400s", e);
        break;
      }
      out->recovery_ns = now_ns() - r0;
      out->recovered_after_device_loss = true; // confirmed below by a completed run
      continue;
    }
    tl_reset_counters();
    uint64_t a = now_ns();
    fn(s->packed);
    uint64_t dt = now_ns() - a;
    s->times[run] = dt;
    uint64_t ev = tl_alloc_events, by = tl_alloc_bytes, hw = tl_high_water, fe = tl_free_events;
    double ck = run == 0 ? results_checksum(s) : 0;
    // results: sizes from the static types; buffers freed if they came from the hooks
    uint64_t ob = 0, nb = 0;
    for (size_t i = 0; i < s->nres; i++) {
      res_t *r = &s->res[i];
      if (!r->is_memref) continue;
      ob += r->bytes;
      nb++;
      int64_t *d = (int64_t *)(s->res_buf + r->offset);
      blk_t *h = live_find((void *)(uintptr_t)d[0]);
      if (h) blk_release(h);
    }
    uint64_t leaked = live_reclaim();
    if (run == 0) {
      out->output_checksum = ck;
      out->alloc_events = ev;
      out->alloc_bytes = by;
      out->live_high_water_bytes = hw;
      out->free_events = fe;
      out->output_bytes = ob;
      out->output_buffers = nb;
      out->leaked_bytes = leaked;
    }
    run++;
    out->runs = run;
  }
  tl_kernels = NULL;
  tl_kstart = NULL;
  tl_nk = 0;
  free(kstart);
  if (out->runs) {
    out->first_ns = s->times[0];
    if (out->runs > 1) {
      size_t nw = out->runs - 1;
      qsort(s->times + 1, nw, sizeof *s->times, cmp_u64);
      out->min_ns = s->times[1];
      out->median_ns = nw % 2 ? s->times[1 + nw / 2] : (s->times[nw / 2] + s->times[1 + nw / 2]) / 2;
    } else {
      out->min_ns = out->median_ns = s->times[0];
    }
  }
  if (out->runs == 0) out->recovered_after_device_loss = false;

  return rc;
}

static bool write_all(int fd, const void *p, size_t n) {
  const char *c = p;
  while (n) {
    ssize_t k = write(fd, c, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    c += k;
    n -= (size_t)k;
  }
  return true;
}

// Reads |n| bytes from |fd| before |deadline| (CLOCK_MONOTONIC ns). 1 done, 0 end of
// data, -1 timed out.
static int read_all(int fd, void *p, size_t n, uint64_t deadline) {
  char *c = p;
  while (n) {
    uint64_t now = now_ns();
    if (now >= deadline) return -1;
    struct pollfd pf = {fd, POLLIN, 0};
    uint64_t left_ms = (deadline - now) / 1000000 + 1;
    int r = poll(&pf, 1, left_ms > INT32_MAX ? INT32_MAX : (int)left_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) return -1;
    ssize_t k = read(fd, c, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return 0;
    c += k;
    n -= (size_t)k;
  }
  return 1;
}

// Runs the invocations in a child process, so that what the compiled code does (a
// division by zero, a null buffer, an endless loop) ends that process, not the caller:
// the child is killed after |opt->timeout_s| seconds, and a signal or a failed allocation
// becomes an error of this function.
static int run_isolated(run_state_t *s, const met_exec_options_t *opt, packed_fn fn,
                        diag_t *dg, const char *func_name, met_exec_result_t *out) {
  int fds[2];
  if (pipe(fds)) return fail(out, ERR_RUN, "cannot create a pipe: %s", strerror(errno));
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return fail(out, ERR_RUN, "cannot fork: %s", strerror(errno));
  }
  if (pid == 0) {
    close(fds[0]);
    tl_fail_fd = fds[1];
    wire_t w;
    w.rc = run_invocations(s, opt, fn, dg, func_name, out);
    w.result = *out;
    bool ok = write_all(fds[1], &w, sizeof w) &&
              (!out->n_kernels ||
               write_all(fds[1], out->kernels, out->n_kernels * sizeof *out->kernels));
    _exit(ok ? 0 : 1);
  }
  close(fds[1]);
  uint64_t limit = opt->timeout_s ? opt->timeout_s : 300;
  uint64_t deadline = now_ns() + limit * 1000000000ull;
  wire_t w;
  int got = read_all(fds[0], &w, sizeof w, deadline);
  bool alloc_failed = got == 1 && w.rc == WIRE_NO_MEMORY;
  uint64_t failed_size = alloc_failed ? w.result.alloc_bytes : 0;
  if (got == 1 && !alloc_failed && out->n_kernels) {
    met_exec_kernel_t *mine = out->kernels;
    size_t nk = out->n_kernels;
    met_exec_kernel_t *theirs = calloc(nk, sizeof *theirs);
    got = theirs ? read_all(fds[0], theirs, nk * sizeof *theirs, deadline) : 0;
    if (got == 1) memcpy(mine, theirs, nk * sizeof *theirs);
    free(theirs);
  }
  if (got == -1) kill(pid, SIGKILL);
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (got == -1)
    return fail(out, ERR_RUN, "the invocation did not finish within %" PRIu64 " s: it was stopped "
                "(an endless loop in the compiled code, or raise --timeout)", limit);
  if (got == 1 && !alloc_failed && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    met_exec_kernel_t *k = out->kernels;
    *out = w.result;
    out->kernels = k;
    return w.rc;
  }
  if (alloc_failed)
    return fail(out, ERR_RUN, "the compiled code could not allocate %" PRIu64 " bytes: the "
                "function needs more memory than this machine has", failed_size);
  if (WIFSIGNALED(status))
    return fail(out, ERR_RUN, "the invocation crashed with signal %d (%s): the compiled code "
                "did something its inputs do not allow (generated inputs are %s)",
                WTERMSIG(status), strsignal(WTERMSIG(status)),
                opt->inputs == MET_EXEC_INPUTS_RANDOM ? "random" : "zeros");
  return fail(out, ERR_RUN, "the process that ran the invocation failed (exit status %d)",
              WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

int met_exec_run_function(MlirContext ctx, MlirModule module, const char *func_name,
                      const met_exec_options_t *opt_in, met_exec_result_t *out) {
  if (!out) return ERR_ARGS;
  memset(out, 0, sizeof *out);
  met_exec_options_t opt;
  if (opt_in) opt = *opt_in; else met_exec_options_default(&opt);
  if (!func_name || mlirModuleIsNull(module) || mlirContextIsNull(ctx))
    return fail(out, ERR_ARGS, "null context, module or function name");
  if (opt.runs == 0) opt.runs = 1;
  if (opt.opt_level < 0 || opt.opt_level > 3) return fail(out, ERR_ARGS, "opt level must be 0..3");
  if (strlen(func_name) > 200)
    return fail(out, ERR_ARGS, "function name longer than 200 characters: not supported by the runner");

  met_exec_run_register(ctx);
  diag_t dg = {0};
  MlirDiagnosticHandlerID hid = mlirContextAttachDiagnosticHandler(ctx, diag_handler, &dg, NULL);
  run_state_t s = {0};
  int rc = 0;

  MlirOperation orig = find_func(mlirModuleGetOperation(module), func_name);
  if (mlirOperationIsNull(orig)) { rc = fail(out, ERR_ARGS, "no func.func @%s in the module", func_name); goto done; }
  if (mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(orig, 0)))) {
    rc = fail(out, ERR_ARGS, "@%s is a declaration (no body)", func_name);
    goto done;
  }
  if ((rc = plan_signature(orig, &opt, &s, out))) goto done;
  {
    // Nothing lowers an op of an unregistered dialect: refuse it before lowering.
    unreg_t u = {ctx, {NULL}};
    mlirOperationWalk(orig, find_unregistered, &u, MlirWalkPreOrder);
    if (!mlirOperationIsNull(u.first)) {
      char where[160];
      loc_short(mlirOperationGetLocation(u.first), where, sizeof where);
      MlirStringRef nm = mlirIdentifierStr(mlirOperationGetName(u.first));
      rc = fail(out, ERR_ARGS, "'%.*s' at %s is not a registered op: nothing lowers it, so @%s "
                "cannot run (refused before lowering)", (int)nm.length, nm.data, where, func_name);
      goto done;
    }
  }

  // 2. clone and prepare
  uint64_t t0 = now_ns();
  MlirOperation cl = mlirOperationClone(mlirModuleGetOperation(module));
  s.clone = mlirModuleFromOperation(cl);
  if (mlirModuleIsNull(s.clone)) { mlirOperationDestroy(cl); rc = fail(out, ERR_ARGS, "cannot clone the module"); goto done; }
  MlirOperation mop = mlirModuleGetOperation(s.clone);
  if (!opt.keep_other_funcs) prune_funcs(mop, func_name);
  MlirOperation f = find_func(mop, func_name);
  mlirOperationSetDiscardableAttributeByName(f, S("llvm.emit_c_interface"), mlirUnitAttrGet(ctx));
  mlirOperationSetInherentAttributeByName(f, S("sym_visibility"), mlirStringAttrGet(ctx, S("public")));
  dg.errors = 0;
  if (!mlirOperationVerify(mop)) {
    rc = fail(out, ERR_LOWER, "the module does not verify at %s: %s", dg.loc[0] ? dg.loc : "?", dg.msg);
    goto done;
  }

  // 3. stage A, copies, markers
  if ((rc = decompose_aggregates(ctx, mop, &dg, out))) goto done;
  if ((rc = run_passes(ctx, mop, stage_a, sizeof stage_a / sizeof *stage_a, &dg, out))) goto done;
  f = find_func(mop, func_name);
  if (mlirOperationIsNull(f)) { rc = fail(out, ERR_LOWER, "@%s disappeared during lowering", func_name); goto done; }
  count_t cc = {0};
  mlirOperationWalk(f, count_copies, &cc, MlirWalkPreOrder);
  out->copies = cc.n;
  count_t ca = {0};
  mlirOperationWalk(f, count_allocs, &ca, MlirWalkPreOrder);
  out->static_allocs = ca.n;
  count_resident(f, &opt, out);
  if ((rc = insert_markers(ctx, mop, f, out))) goto done;
  dg.errors = 0;
  if (!mlirOperationVerify(mop)) {
    rc = fail(out, ERR_LOWER, "IR with kernel markers does not verify at %s: %s", dg.loc, dg.msg);
    goto done;
  }
  // 4. stage B
  if ((rc = run_passes(ctx, mop, stage_b, sizeof stage_b / sizeof *stage_b, &dg, out))) goto done;
  out->lower_ns = now_ns() - t0;
  if (opt.dump_lowered) {
    FILE *df = fopen(opt.dump_lowered, "w");
    if (df) { mlirOperationPrint(mop, file_cb, df); fclose(df); }
  }
  if ((rc = check_leftovers(mop, out))) goto done;
  if ((rc = check_externals(mop, &opt, out))) goto done;

  // 5. engine
  packed_fn fn = NULL;
  t0 = now_ns();
  if ((rc = build_engine(s.clone, &opt, func_name, &s.jit, &fn, &dg, out))) goto done;
  out->jit_ns = now_ns() - t0;

  // 6. runs, in a child process
  rc = run_isolated(&s, &opt, fn, &dg, func_name, out);

done:
  mlirContextDetachDiagnosticHandler(ctx, hid);
  state_free(&s);
  return rc;
}
