// exec_run.c: see exec_run.h (the runner of `metrale run`; its contract in the header). The
// argument and result values' helpers are in exec_values.c.
//
// Flow of met_exec_run_function:
//   1. check the signature (static shapes only), size the inputs, refuse if they do not
//      fit in available memory;
//   2. clone the module, drop functions the entry (the function that runs) does not
//      call, mark the entry llvm.emit_c_interface (the ExecutionEngine invokes a
//      function through its `_mlir_ciface_` wrapper; only the entry is invoked, so only
//      it gets one);
//   3. stage A (to bufferized memref), one pass manager per pass; count memref.copy;
//      bracket every top-level kernel with func.call @__metrale_kernel_begin/end(i64 id);
//   4. stage B (to the LLVM dialect); check that every external symbol resolves;
//   5. create the engine, register the hooks, initialise, look up the packed c-wrapper;
//   6. invoke `runs` times (inputs regenerated before each run, outside the timing;
//      resident arguments, parameters and states, once before the first).
#define _GNU_SOURCE 1 // sysconf(_SC_AVPHYS_PAGES)
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/exec_internal.h"
#include "metrale/checked.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/RegisterEverything.h"

// ---------------------------------------------------------------------------------------
// Engine
// ---------------------------------------------------------------------------------------

typedef void (*packed_fn)(void **);

static met_status_t build_engine(MlirModule lowered, const met_exec_options_t *opt, const char *fname,
                        MlirExecutionEngine *jit, packed_fn *fn, met_exec_diag_t *dg, met_exec_result_t *out) {
  MlirStringRef libs[16];
  int nlibs = 0;
  for (size_t i = 0; i < opt->n_shared_libs && nlibs < 16; i++) libs[nlibs++] = S(opt->shared_libs[i]);
  dg->errors = 0;
  dg->msg[0] = dg->loc[0] = 0;
  *jit = mlirExecutionEngineCreate(lowered, opt->opt_level, nlibs, nlibs ? libs : NULL, false, false);
  if (mlirExecutionEngineIsNull(*jit)) {
    if (dg->errors)
      return met_exec_fail(out, MET_EEXTERNAL, "mlirExecutionEngineCreate failed: translation to LLVM IR: %s at %s",
                  dg->msg, dg->loc[0] ? dg->loc : "?");
    return met_exec_fail(out, MET_EEXTERNAL, "mlirExecutionEngineCreate failed (translation to LLVM IR or target setup; no diagnostic)");
  }
  met_exec_hook_t hk[EXEC_N_HOOKS];
  size_t nh = met_exec_hooks_table(hk);
  for (size_t i = 0; i < nh; i++) mlirExecutionEngineRegisterSymbol(*jit, S(hk[i].name), hk[i].fn);
  mlirExecutionEngineInitialize(*jit);
  char name[300];
  snprintf(name, sizeof name, "_mlir_ciface_%s", fname);
  *fn = (packed_fn)(uintptr_t)mlirExecutionEngineLookupPacked(*jit, S(name));
  if (!*fn) {
    mlirExecutionEngineDestroy(*jit);
    *jit = (MlirExecutionEngine){NULL};
    return met_exec_fail(out, MET_EEXTERNAL, "JIT lookup of the packed wrapper of '%s' failed (code generation or an unresolved symbol)", name);
  }
  return MET_OK;
}

typedef struct {
  met_exec_arg_t *args;
  size_t nargs;
  met_exec_res_t *res;
  size_t nres;
  unsigned char *res_buf; // result struct (or scalar return slot)
  void *res_ptr;          // args[0] points here when the wrapper takes an out-param
  bool out_param;
  void **packed;
  uint64_t *times;
  MlirModule clone;
  MlirExecutionEngine jit;
  uint64_t input_need;    // bytes the arguments' buffers take (resident ones included)
} run_state_t;

// Sum of the elements of the results (memref results through their descriptors).
static double results_checksum(const run_state_t *s) {
  double sum = 0;
  for (size_t i = 0; i < s->nres; i++) {
    const met_exec_res_t *r = &s->res[i];
    const unsigned char *slot = s->res_buf + r->offset;
    if (!r->is_memref) {
      sum += met_exec_elem_value(r->elem, slot, r->size);
      continue;
    }
    uint64_t eb = met_exec_elem_bytes(r->elem);
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
      sum += met_exec_elem_value(r->elem, base + (uint64_t)o * eb, eb);
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
// A shape the runner cannot hold (met_exec_shaped_extent's reason in out->error), said
// of |who| (argument or result) #|i| of type |ts|.
static met_status_t extent_refused(met_exec_result_t *out, const char *who, size_t i,
                                   const char *ts) {
  char why[256];
  snprintf(why, sizeof why, "%.255s", out->error.message);
  return met_exec_fail(out, out->error.code, "%s %zu (%s): %s; the runner takes static shapes "
                       "of rank up to 32, in identity or strided layouts", who, i, ts, why);
}

static met_status_t plan_signature(MlirOperation func, const met_exec_options_t *opt, run_state_t *s,
                          met_exec_result_t *out) {
  MlirAttribute fta = mlirOperationGetInherentAttributeByName(func, S("function_type"));
  if (mlirAttributeIsNull(fta) || !mlirAttributeIsAType(fta))
    return met_exec_fail(out, MET_EINVAL, "function has no function_type");
  MlirType ft = mlirTypeAttrGetValue(fta);
  s->nargs = (size_t)mlirFunctionTypeGetNumInputs(ft);
  s->nres = (size_t)mlirFunctionTypeGetNumResults(ft);
  s->args = calloc(s->nargs ? s->nargs : 1, sizeof *s->args);
  s->res = calloc(s->nres ? s->nres : 1, sizeof *s->res);
  if (!s->args || !s->res) return met_exec_fail(out, MET_ENOMEM, "out of memory");
  char ts[128];
  uint64_t total = 0, need = 0;
  for (size_t i = 0; i < s->nargs; i++) {
    met_exec_arg_t *a = &s->args[i];
    a->type = mlirFunctionTypeGetInput(ft, (intptr_t)i);
    met_exec_type_str(a->type, ts, sizeof ts);
    if (mlirTypeIsARankedTensor(a->type) || mlirTypeIsAMemRef(a->type)) {
      a->is_memref = true;
      a->elem = mlirShapedTypeGetElementType(a->type);
      a->ebytes = met_exec_elem_bytes(a->elem);
      if (!a->ebytes) return met_exec_fail(out, MET_EUNSUPPORTED, "argument %zu: unsupported element type in %s", i, ts);
      int64_t sizes[32], strides[32], off;
      uint64_t n, span;
      if (met_exec_shaped_extent(a->type, &a->rank, sizes, strides, &off, &n, &span,
                                 &out->error))
        return extent_refused(out, "argument", i, ts);
      a->n_elems = span; // fill the whole buffer, holes included
      if (__builtin_mul_overflow(span, a->ebytes, &a->data_bytes))
        return met_exec_fail(out, MET_EINVAL, "argument %zu (%s): size overflow", i, ts);
      a->desc = calloc((size_t)(3 + 2 * a->rank), sizeof(int64_t));
      if (!a->desc) return met_exec_fail(out, MET_ENOMEM, "out of memory");
      a->desc[2] = off;
      for (int64_t r = 0; r < a->rank; r++) {
        a->desc[3 + r] = sizes[r];
        a->desc[3 + a->rank + r] = strides[r];
      }
      a->resident = i < opt->n_resident && opt->resident[i];
      if (__builtin_add_overflow(total, (uint64_t)(3 + 2 * a->rank) * 8u, &total) ||
          (!a->resident && __builtin_add_overflow(total, a->data_bytes, &total)) ||
          __builtin_add_overflow(need, a->data_bytes, &need))
        return met_exec_fail(out, MET_EINVAL, "the arguments' sizes add up to more than 2^64 bytes; not "
                    "allocating");
    } else if (mlirTypeIsAInteger(a->type) || mlirTypeIsAIndex(a->type) || mlirTypeIsAF32(a->type) ||
               mlirTypeIsAF64(a->type) || mlirTypeIsAF16(a->type) || mlirTypeIsABF16(a->type)) {
      a->ebytes = met_exec_elem_bytes(a->type);
      if (!a->ebytes || a->ebytes > 8) return met_exec_fail(out, MET_EUNSUPPORTED, "argument %zu: unsupported scalar type %s", i, ts);
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
        return met_exec_fail(out, MET_EINVAL, "the arguments' sizes add up to more than 2^64 bytes");
    } else {
      return met_exec_fail(out, MET_EUNSUPPORTED, "argument %zu: unsupported type %s (unranked, tuple, ...)", i, ts);
    }
  }
  out->input_bytes = total;
  s->input_need = need;  // checked against memory once the program is known (check_memory)
  // Results: layout of the c-wrapper's result struct (natural alignment, like LLVM's).
  uint64_t off = 0, maxal = 1;
  for (size_t i = 0; i < s->nres; i++) {
    met_exec_res_t *r = &s->res[i];
    r->type = mlirFunctionTypeGetResult(ft, (intptr_t)i);
    met_exec_type_str(r->type, ts, sizeof ts);
    uint64_t size, al;
    if (mlirTypeIsARankedTensor(r->type) || mlirTypeIsAMemRef(r->type)) {
      int64_t sizes[32], strides[32], o;
      uint64_t n, span;
      if (met_exec_shaped_extent(r->type, &r->rank, sizes, strides, &o, &n, &span,
                                 &out->error))
        return extent_refused(out, "result", i, ts);
      uint64_t eb = met_exec_elem_bytes(mlirShapedTypeGetElementType(r->type));
      if (!eb) return met_exec_fail(out, MET_EUNSUPPORTED, "result %zu: unsupported element type in %s", i, ts);
      r->is_memref = true;
      r->elem = mlirShapedTypeGetElementType(r->type);
      if (!met_mul_u64(span, eb, &r->bytes))
        return met_exec_fail(out, MET_EINVAL, "result %zu (%s): size overflow", i, ts);
      size = (uint64_t)(3 + 2 * r->rank) * 8u;
      al = 8;
    } else {
      size = met_exec_elem_bytes(r->type);
      if (!size || size > 8 || mlirTypeIsAComplex(r->type))
        return met_exec_fail(out, MET_EUNSUPPORTED, "result %zu: unsupported type %s", i, ts);
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
  if (!s->res_buf || !s->packed) return met_exec_fail(out, MET_ENOMEM, "out of memory");
  size_t k = 0;
  if (s->out_param) {
    s->res_ptr = s->res_buf;
    s->packed[k++] = &s->res_ptr;
  }
  for (size_t i = 0; i < s->nargs; i++) {
    met_exec_arg_t *a = &s->args[i];
    s->packed[k++] = a->is_memref ? (void *)&a->argp : a->argp;
  }
  if (!s->out_param && s->nres == 1) s->packed[k++] = s->res_buf;
  return MET_OK;
}

// What a run holds at once, its arguments' buffers and the allocations the prediction
// says the program holds at its peak (device_allocation_peak_bytes), against the memory
// this machine has free: refused before anything is allocated, not killed by the OOM
// killer half way.
static met_status_t check_memory(const run_state_t *s, const met_exec_options_t *opt,
                        met_exec_result_t *out) {
  uint64_t need;
  if (__builtin_add_overflow(s->input_need, opt->predicted_peak_bytes, &need)) need = UINT64_MAX;
  uint64_t avail = met_exec_avail_memory();
  if (need <= avail) return MET_OK;
  return met_exec_fail(out, MET_EINVAL, "the run needs %" PRIu64 " bytes (its arguments %" PRIu64 " and "
              "the allocations the prediction holds at once, %" PRIu64 ") but only %" PRIu64
              " bytes of memory are available: not started", need, s->input_need,
              opt->predicted_peak_bytes, avail);
}

static met_status_t alloc_inputs(run_state_t *s, met_exec_result_t *out) {
  for (size_t i = 0; i < s->nargs; i++) {
    met_exec_arg_t *a = &s->args[i];
    if (!a->is_memref) continue;
    size_t bytes = (size_t)((a->data_bytes + 63) / 64 * 64);
    a->data = aligned_alloc(64, bytes ? bytes : 64);
    if (!a->data) return met_exec_fail(out, MET_ENOMEM, "out of memory allocating argument %zu (%" PRIu64 " bytes)", i, a->data_bytes);
    a->desc[0] = (int64_t)(uintptr_t)a->data;
    a->desc[1] = (int64_t)(uintptr_t)a->data;
    a->argp = a->desc;
  }
  return MET_OK;
}

// The invocations, on the process that runs them (a child of the caller: see
// run_isolated). 0 or an error code.
static met_status_t run_invocations(run_state_t *s, const met_exec_options_t *opt, packed_fn fn,
                           met_exec_diag_t *dg, const char *func_name, met_exec_result_t *out) {
  met_status_t rc = MET_OK;
  if ((rc = alloc_inputs(s, out))) return rc;
  s->times = calloc(opt->runs, sizeof *s->times);
  uint64_t *kstart = calloc(out->n_kernels + 1, sizeof *kstart);
  if (!s->times || !kstart) { free(kstart); return met_exec_fail(out, MET_ENOMEM, "out of memory"); }
  met_exec_hooks_arm(out->kernels, kstart, out->n_kernels);
  bool lost = opt->inject_device_loss;
  for (unsigned run = 0; run < opt->runs;) {
    for (size_t i = 0; i < s->nargs; i++)
      if (!s->args[i].resident || !s->args[i].filled) {
        met_exec_fill_arg(&s->args[i], opt->inputs, opt->seed, i);
        s->args[i].filled = true;
      }
    memset(s->res_buf, 0, 16);
    if (lost) {
      // Simulated device loss: the invocation is reported failed before it starts; the
      // engine (the "device" state) is destroyed and rebuilt, and the run retried.
      lost = false;
      uint64_t r0 = met_clock_ns();
      mlirExecutionEngineDestroy(s->jit);
      s->jit = (MlirExecutionEngine){NULL};
      met_exec_hooks_reclaim();
      if ((rc = build_engine(s->clone, opt, func_name, &s->jit, &fn, dg, out))) {
        char e[sizeof out->error.message];
        snprintf(e, sizeof e, "%s", met_error_message(&out->error));
        rc = met_exec_fail(out, MET_EEXTERNAL, "device loss injected; recovery failed: %.400s", e);
        break;
      }
      out->recovery_ns = met_clock_ns() - r0;
      out->recovered_after_device_loss = true; // confirmed below by a completed run
      continue;
    }
    met_exec_hooks_reset();
    uint64_t a = met_clock_ns();
    fn(s->packed);
    uint64_t dt = met_clock_ns() - a;
    s->times[run] = dt;
    uint64_t ev, by, hw, fe;
    met_exec_hooks_counts(&ev, &by, &hw, &fe);
    double ck = run == 0 ? results_checksum(s) : 0;
    // results: sizes from the static types; buffers freed if they came from the hooks
    uint64_t ob = 0, nb = 0;
    for (size_t i = 0; i < s->nres; i++) {
      met_exec_res_t *r = &s->res[i];
      if (!r->is_memref) continue;
      ob += r->bytes;
      nb++;
      int64_t *d = (int64_t *)(s->res_buf + r->offset);
      met_exec_hooks_release((void *)(uintptr_t)d[0]);
    }
    uint64_t leaked = met_exec_hooks_reclaim();
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
  met_exec_hooks_arm(NULL, NULL, 0);
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
    uint64_t now = met_clock_ns();
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
static met_status_t run_isolated(run_state_t *s, const met_exec_options_t *opt, packed_fn fn,
                        met_exec_diag_t *dg, const char *func_name, met_exec_result_t *out) {
  int fds[2];
  if (pipe(fds)) return met_exec_fail(out, MET_EEXTERNAL, "cannot create a pipe: %s", strerror(errno));
  fflush(NULL);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return met_exec_fail(out, MET_EEXTERNAL, "cannot fork: %s", strerror(errno));
  }
  if (pid == 0) {
    // The child dies with its parent: a killed `metrale run` leaves nothing spinning.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);  // the parent died before prctl took effect
    close(fds[0]);
    met_exec_hooks_fail_to(fds[1]);
    met_exec_wire_t w;
    memset(&w, 0, sizeof w);
    w.rc = run_invocations(s, opt, fn, dg, func_name, out);
    w.result = *out;
    bool ok = write_all(fds[1], &w, sizeof w) &&
              (!out->n_kernels ||
               write_all(fds[1], out->kernels, out->n_kernels * sizeof *out->kernels));
    _exit(ok ? 0 : 1);
  }
  close(fds[1]);
  uint64_t limit = opt->timeout_s ? opt->timeout_s : 300;
  uint64_t deadline = met_clock_ns() + limit * 1000000000ull;
  met_exec_wire_t w;
  int got = read_all(fds[0], &w, sizeof w, deadline);
  bool alloc_failed = got == 1 && w.out_of_memory;
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
    return met_exec_fail(out, MET_EEXTERNAL, "the invocation did not finish within %" PRIu64 " s: it was stopped "
                "(an endless loop in the compiled code, or raise --timeout)", limit);
  if (got == 1 && !alloc_failed && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    met_exec_kernel_t *k = out->kernels;
    *out = w.result;
    out->kernels = k;
    return w.rc;
  }
  if (alloc_failed)
    return met_exec_fail(out, MET_ENOMEM, "the compiled code could not allocate %" PRIu64 " bytes: the "
                "function needs more memory than this machine has", failed_size);
  if (WIFSIGNALED(status))
    return met_exec_fail(out, MET_EEXTERNAL, "the invocation crashed with signal %d (%s): the compiled code "
                "did something its inputs do not allow (generated inputs are %s)",
                WTERMSIG(status), strsignal(WTERMSIG(status)),
                opt->inputs == MET_EXEC_INPUTS_RANDOM ? "random" : "zeros");
  if (WIFEXITED(status) && got != 1)
    return met_exec_fail(out, MET_EEXTERNAL, "the compiled code ended the process that ran the invocation "
                "(exit status %d) before the invocation returned: it calls exit() or the like, "
                "so nothing was measured", WEXITSTATUS(status));
  return met_exec_fail(out, MET_EEXTERNAL, "the process that ran the invocation failed (exit status %d)",
              WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

met_status_t met_exec_run_function(MlirContext ctx, MlirModule module, const char *func_name,
                      const met_exec_options_t *opt_in, met_exec_result_t *out) {
  if (!out) return MET_EINVAL;
  memset(out, 0, sizeof *out);
  met_error_init(&out->error);
  met_exec_options_t opt;
  if (opt_in) opt = *opt_in; else met_exec_options_default(&opt);
  if (!func_name || mlirModuleIsNull(module) || mlirContextIsNull(ctx))
    return met_exec_fail(out, MET_EINVAL, "null context, module or function name");
  if (opt.runs == 0) opt.runs = 1;
  if (opt.opt_level < 0 || opt.opt_level > 3) return met_exec_fail(out, MET_EINVAL, "opt level must be 0..3");
  if (strlen(func_name) > 200)
    return met_exec_fail(out, MET_EUNSUPPORTED, "function name longer than 200 characters: not supported by the runner");

  met_exec_run_register(ctx);
  met_exec_diag_t dg = {0};
  MlirDiagnosticHandlerID hid = mlirContextAttachDiagnosticHandler(ctx, met_exec_diag_handler, &dg, NULL);
  run_state_t s = {0};
  met_status_t rc = MET_OK;

  MlirOperation orig = met_exec_find_func(mlirModuleGetOperation(module), func_name);
  if (mlirOperationIsNull(orig)) { rc = met_exec_fail(out, MET_EINVAL, "no func.func @%s in the module", func_name); goto done; }
  if (mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(orig, 0)))) {
    rc = met_exec_fail(out, MET_EINVAL, "@%s is a declaration (no body)", func_name);
    goto done;
  }
  if ((rc = plan_signature(orig, &opt, &s, out))) goto done;
  // Nothing lowers an op of an unregistered dialect: refuse it before lowering.
  if ((rc = met_exec_refuse_unregistered(ctx, orig, func_name, out))) goto done;

  // Lowering, on a clone
  uint64_t t0 = met_clock_ns();
  MlirOperation cl = mlirOperationClone(mlirModuleGetOperation(module));
  s.clone = mlirModuleFromOperation(cl);
  if (mlirModuleIsNull(s.clone)) { mlirOperationDestroy(cl); rc = met_exec_fail(out, MET_EINVAL, "cannot clone the module"); goto done; }
  if ((rc = met_exec_lower(ctx, mlirModuleGetOperation(s.clone), func_name, &opt, &dg, out)))
    goto done;
  out->lower_ns = met_clock_ns() - t0;
  if ((rc = check_memory(&s, &opt, out))) goto done;

  // 5. engine
  packed_fn fn = NULL;
  t0 = met_clock_ns();
  if ((rc = build_engine(s.clone, &opt, func_name, &s.jit, &fn, &dg, out))) goto done;
  out->jit_ns = met_clock_ns() - t0;

  // 6. runs, in a child process
  rc = run_isolated(&s, &opt, fn, &dg, func_name, out);

done:
  mlirContextDetachDiagnosticHandler(ctx, hid);
  state_free(&s);
  return rc;
}
