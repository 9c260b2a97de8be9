// exec_hooks.c: the host functions the code `metrale run` compiles calls: allocation and
// free (counting events, bytes and the live high-water mark), the kernel markers
// (launches and time per kernel), memrefCopy, and the bf16 conversions LLVM calls where
// the CPU has no bf16 instructions. See exec_internal.h.
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/exec_internal.h"

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
      met_exec_wire_t w;
      memset(&w, 0, sizeof w);
      w.rc = MET_ENOMEM;
      w.out_of_memory = true;
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
  if (id >= 0 && (size_t)id < tl_nk) tl_kstart[id] = met_clock_ns();
}

static void hook_kernel_end(int64_t id) {
  if (id >= 0 && (size_t)id < tl_nk) {
    uint64_t t = met_clock_ns();
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

// f32 -> bf16 and f64 -> bf16, rounded to nearest even, as compiler-rt's __truncsfbf2 and
// __truncdfbf2 (LLVM's code generator calls them for arith.truncf to bf16 on a CPU without
// AVX512-BF16 or AVX-NE-CONVERT; GCC 12's libgcc has neither, so a bf16 graph did not link
// on such a host). A NaN stays a NaN (quieted, its sign kept). The x86-64 psABI returns a
// __bf16 in the low 16 bits of XMM0, as a float is returned; other targets return the bits.
#if defined(__x86_64__)
typedef float bf16_abi_t;
#else
typedef uint16_t bf16_abi_t;
#endif

uint16_t met_exec_bf16_from_f32(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof(u));
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u);  // carries into the exponent: up to the next, or inf
  return (uint16_t)(u >> 16);
}

// Through f32 rounded to odd: truncated toward zero, its last bit set when inexact. f32
// keeps 16 more bits than bf16, so rounding that to nearest even is the same as rounding
// |d| directly (round-to-odd needs 2 more bits; Boldo and Melquiond, 2008).
uint16_t met_exec_bf16_from_f64(double d) {
  if (isnan(d)) return met_exec_bf16_from_f32((float)d);
  float f = (float)d;
  if (isinf(f) && !isinf(d)) f = copysignf(3.40282347e38f, f);  // past FLT_MAX: its max
  else if (fabs((double)f) > fabs(d)) f = nextafterf(f, 0.0f);  // toward zero
  uint32_t u;
  memcpy(&u, &f, sizeof(u));
  if ((double)f != d) u |= 1u;
  memcpy(&f, &u, sizeof(f));
  return met_exec_bf16_from_f32(f);
}

static bf16_abi_t bf16_abi(uint16_t bits) {
  bf16_abi_t r = 0;
  memcpy(&r, &bits, sizeof(bits));  // the low bytes: little-endian x86-64, or the bits
  return r;
}

static bf16_abi_t hook_truncsfbf2(float f) { return bf16_abi(met_exec_bf16_from_f32(f)); }
static bf16_abi_t hook_truncdfbf2(double d) { return bf16_abi(met_exec_bf16_from_f64(d)); }

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

#define FN(f) ((void *)(uintptr_t)(f))

size_t met_exec_hooks_table(met_exec_hook_t *h) {
  size_t n = 0;
  h[n++] = (met_exec_hook_t){"_mlir_memref_to_llvm_alloc", FN(hook_alloc)};
  h[n++] = (met_exec_hook_t){"_mlir_memref_to_llvm_aligned_alloc", FN(hook_aligned_alloc)};
  h[n++] = (met_exec_hook_t){"_mlir_memref_to_llvm_free", FN(hook_free)};
  h[n++] = (met_exec_hook_t){"__metrale_kernel_begin", FN(hook_kernel_begin)};
  h[n++] = (met_exec_hook_t){"__metrale_kernel_end", FN(hook_kernel_end)};
  h[n++] = (met_exec_hook_t){"memrefCopy", FN(hook_memref_copy)};
  h[n++] = (met_exec_hook_t){"__truncsfbf2", FN(hook_truncsfbf2)};
  h[n++] = (met_exec_hook_t){"__truncdfbf2", FN(hook_truncdfbf2)};
  return n;
}

void met_exec_hooks_arm(met_exec_kernel_t *kernels, uint64_t *kstart, size_t n) {
  tl_kernels = kernels;
  tl_kstart = kstart;
  tl_nk = kernels ? n : 0;
  live_init();
}

void met_exec_hooks_reset(void) { tl_reset_counters(); }

void met_exec_hooks_counts(uint64_t *events, uint64_t *bytes, uint64_t *high_water,
                       uint64_t *frees) {
  *events = tl_alloc_events;
  *bytes = tl_alloc_bytes;
  *high_water = tl_high_water;
  *frees = tl_free_events;
}

void met_exec_hooks_release(void *ptr) {
  blk_t *b = live_find(ptr);
  if (b) blk_release(b);
}

uint64_t met_exec_hooks_reclaim(void) { return live_reclaim(); }

void met_exec_hooks_fail_to(int fd) { tl_fail_fd = fd; }
