// fuzz_mlir.c: libFuzzer harness of the whole path from MLIR text: parse in-process
// through the MLIR C API, then run the Budget (met_budget_run) and the memory model
// (met_memory_run) with a few option sets and targets, as `metrale budget/memory` and the
// passes do.
//
// A parse error is a fine answer (the diagnostics are swallowed); a crash or a sanitizer
// report in metrale's code is not. After the runs, the module (now carrying the
// metrale.* attributes the runs set) must still verify.
//
// The context (every upstream dialect registered and loaded, as tools/cli.c's
// `cli_load` does) is made once and reused: creating one costs ~100x a small parse. Since a
// context keeps every type and attribute it ever uniqued, it is recreated every
// kRecycle inputs to bound memory. Single-threaded context: the inputs are small, and
// the threaded path is ThreadSanitizer's job (test/tsan).
//
// Sanitizers: this file, passes/ and lib/ are built with ASan+UBSan and coverage; libMLIR,
// libLLVM and the C API archives are Debian's uninstrumented builds, so a fault inside
// them shows as a plain crash, and their memory is not checked.
//
// Upstream parser crashes. Debian's libMLIR is a release build without assertions, and
// several dialects' custom parsers crash on malformed text (first seen: linalg.transpose
// with a mangled `permutation`, SEGV in mlir::Attribute::getContext under
// TransposeOp::parse). That is MLIR's bug, not metrale's, and it would stop every run
// within seconds. So a fatal signal raised *while mlirModuleCreateParse runs* (nothing of
// metrale's is on the stack then) is caught: the input is rejected (not kept in the
// corpus), written to $METRALE_FUZZ_UPSTREAM_DIR when that is set, the context it
// damaged is abandoned (kept reachable, never destroyed) and a fresh one is made. A
// signal anywhere else -- in the passes, in metrale's calls into the C API, in the
// verifier afterwards -- goes to the sanitizer's / libFuzzer's handler as usual: a crash.
//
// Upstream parser slowness. llvm::StringRef::getAsInteger multiplies an APInt once per
// digit, so an integer literal of n digits parses in O(n^2) (20,000 digits: 15 s in stock
// mlir-opt), and libFuzzer grows such literals readily: inputs with a run of more than
// kMaxDigits digits are skipped before parsing. metrale's code runs unbounded (libFuzzer's
// -timeout still applies to the whole input).
#define _XOPEN_SOURCE 700  // SA_ONSTACK (the build asks only for POSIX 2008)
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sanitizer/lsan_interface.h>

#include "fuzz_common.h"
#include "runners.h"
#include "metrale/report.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"


enum { kRecycle = 2000, kMaxDigits = 2000 };

static MlirLogicalResult swallow(MlirDiagnostic d, void *user) {
  (void)d;
  (void)user;
  return mlirLogicalResultSuccess();
}

static void no_diag(void *user, MlirLocation loc, met_diag_severity_t sev, const char *msg) {
  (void)loc;
  (void)sev;
  // Touch the message: a dangling or unterminated one shows up under ASan here.
  *(size_t *)user += strlen(msg);
}

static MlirContext g_ctx;       // the harness's one context (single-threaded harness)
static unsigned g_uses;
enum { kMaxAbandoned = 4096 };
static MlirContext g_abandoned[kMaxAbandoned];  // damaged by a parser crash; reachable
static unsigned g_abandoned_count;
static uint64_t g_upstream_crashes;

static MlirContext context(bool abandon) {
  if (abandon && !mlirContextIsNull(g_ctx)) {
    if (g_abandoned_count < kMaxAbandoned) g_abandoned[g_abandoned_count++] = g_ctx;
    g_ctx = (MlirContext){NULL};
  }
  if (!mlirContextIsNull(g_ctx) && g_uses++ < kRecycle) return g_ctx;
  if (!mlirContextIsNull(g_ctx)) mlirContextDestroy(g_ctx);
  g_uses = 1;
  g_ctx = mlirContextCreate();
  MlirDialectRegistry reg = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(reg);
  mlirContextAppendDialectRegistry(g_ctx, reg);
  mlirDialectRegistryDestroy(reg);
  mlirContextLoadAllAvailableDialects(g_ctx);
  mlirContextEnableMultithreading(g_ctx, false);
  mlirContextAttachDiagnosticHandler(g_ctx, swallow, NULL, NULL);
  return g_ctx;
}

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

// The parse guard (see the file comment).
static const int kSignals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
enum { kNumSignals = sizeof(kSignals) / sizeof(kSignals[0]) };
static struct sigaction g_prev[kNumSignals];
static sigjmp_buf g_parse_jmp;
static volatile sig_atomic_t g_in_parse;

static void on_fatal(int sig, siginfo_t *info, void *uctx) {
  if (g_in_parse) {
    g_in_parse = 0;
    siglongjmp(g_parse_jmp, sig);
  }
  for (int i = 0; i < kNumSignals; ++i) {
    if (kSignals[i] != sig) continue;
    // Not the parser: hand the signal to whoever handled it before (the sanitizer or
    // libFuzzer), which reports the crash and saves the input.
    sigaction(sig, &g_prev[i], NULL);
    if (g_prev[i].sa_flags & SA_SIGINFO) g_prev[i].sa_sigaction(sig, info, uctx);
    else if (g_prev[i].sa_handler != SIG_IGN && g_prev[i].sa_handler != SIG_DFL) g_prev[i].sa_handler(sig);
    else raise(sig);
    return;
  }
}

static void install_guard(void) {
  static bool installed;
  if (installed) return;
  installed = true;
  for (int i = 0; i < kNumSignals; ++i) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(kSignals[i], &sa, &g_prev[i]);
  }
}

// True when |data| holds a run of more than kMaxDigits decimal digits.
static bool has_huge_literal(const uint8_t *data, size_t size) {
  size_t run = 0;
  for (size_t i = 0; i < size; ++i) {
    run = data[i] >= '0' && data[i] <= '9' ? run + 1 : 0;
    if (run > kMaxDigits) return true;
  }
  return false;
}

static void save_upstream(const uint8_t *data, size_t size, int sig) {
  ++g_upstream_crashes;
  const char *dir = getenv("METRALE_FUZZ_UPSTREAM_DIR");
  if (g_upstream_crashes <= 3 || (g_upstream_crashes & (g_upstream_crashes - 1)) == 0)
    fprintf(stderr, "fuzz_mlir: MLIR's parser raised signal %d (upstream; input rejected, "
            "%llu so far)\n", sig, (unsigned long long)g_upstream_crashes);
  if (!dir) return;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ull;
  char path[4096];
  snprintf(path, sizeof(path), "%s/upstream-%016llx", dir, (unsigned long long)h);
  FILE *f = fopen(path, "wb");
  if (!f) return;
  fwrite(data, 1, size, f);
  fclose(f);
}

// Numbers as the options take them (text): valid ones, and ones the strict parser must
// refuse with a message (never wrap, never crash).
static const char *const kNumbers[] = {"",   "7",  "1",   "9223372036854775807",
                                       "-1", "0",  " 5",  "18446744073709551616",
                                       "12", "3x", "1e3", "99999999999999999999"};

// The option sets: the defaults (the module's DLTI, else host-cpu), then targets, params,
// dynamic sizes, planners and a KV pool that each reach other code. |which| < 4 picks
// valid values; larger ones mix in values the option parsers must refuse.
static bool run_budget(MlirOperation m, int which, size_t *sink) {
  static const char *const targets[] = {"", "h100", "mobile-gpu-f32", "npu"};
  static const char *const params[] = {"", "all", "float", "0,2-"};
  static const char *const planners[] = {"", "first-fit", "late-best-fit", "breadth-first-fit"};
  met_budget_run_options_t o;
  memset(&o, 0, sizeof(o));
  o.run.target = ref(targets[which & 3]);
  o.run.params = ref(params[which & 3]);
  o.run.planner = ref(planners[which & 3]);
  o.run.json = ref("-");  // into |json| below; never a file
  o.run.dynamic_size = ref(kNumbers[which % 12 < 4 ? (which & 1) : which % 12]);
  o.run.op_remarks = true;
  o.run.set_attributes = true;
  met_strbuf_t text, json;
  met_strbuf_initialize(met_allocator_system(), &text);
  met_strbuf_initialize(met_allocator_system(), &json);
  bool ok = met_budget_run(m, &o, no_diag, sink, &text, &json);
  *sink += text.len + json.len;
  met_strbuf_deinitialize(&text);
  met_strbuf_deinitialize(&json);
  return ok;
}

static bool run_memory(MlirOperation m, int which, size_t *sink) {
  met_memory_run_options_t o;
  memset(&o, 0, sizeof(o));
  o.run.json = ref("-");
  o.run.set_attributes = true;
  o.run.remark_rows = ref(which & 2 ? "3" : "");
  if (which & 1) {
    o.run.target = ref("mobile-gpu-f32");
    o.run.params = ref("float");
    o.run.states = ref("none");
    o.run.util = ref(which & 4 ? "1.0000001" : "0.9");
    o.run.kv_dtype = ref("f16");
    o.run.kv_pool = ref("layers=2,kv_heads=2,head_dim=8,block_size=16");
    o.run.sequences = ref(kNumbers[which % 12]);
    o.run.tokens = ref(which & 8 ? "100" : kNumbers[(which >> 2) % 12]);
    o.run.dynamic_size = ref("5");
    o.run.over_budget_warning = true;
  }
  met_strbuf_t text, json;
  met_strbuf_initialize(met_allocator_system(), &text);
  met_strbuf_initialize(met_allocator_system(), &json);
  bool ok = met_memory_run(m, &o, no_diag, sink, &text, &json);
  *sink += text.len + json.len;
  met_strbuf_deinitialize(&text);
  met_strbuf_deinitialize(&json);
  return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 256 * 1024) return 0;  // the parser's speed is not what we test
  if (has_huge_literal(data, size)) return -1;
  install_guard();
  MlirContext ctx = context(false);
  // The parser is handed a NUL-terminated copy (its lexer looks at the byte past the end).
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  // A cheap hash picks whether unregistered ops parse and which option sets run.
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 16777619u;
  mlirContextSetAllowUnregisteredDialects(ctx, h & 1);
  MlirModule module;
  int sig = sigsetjmp(g_parse_jmp, 1);
  if (sig) {
    __lsan_enable();
    save_upstream(data, size, sig);
    free(text);
    context(true);
    return -1;  // do not keep it in the corpus
  }
  // What the parser allocates is not checked for leaks: a crashed parse drops it on the
  // floor (libMLIR is not ours), and a parsed module is destroyed below.
  __lsan_disable();
  g_in_parse = 1;
  module = mlirModuleCreateParse(ctx, mlirStringRefCreate(text, size));
  g_in_parse = 0;
  __lsan_enable();
  if (!mlirModuleIsNull(module)) {
    MlirOperation m = mlirModuleGetOperation(module);
    size_t sink = 0;
    int a = (int)(h >> 1 & 15), b = (int)(h >> 5 & 15);
    run_budget(m, 0, &sink);
    run_budget(m, a ? a : 1, &sink);
    run_memory(m, 0, &sink);
    run_memory(m, 1 | b, &sink);
    FUZZ_CHECK(mlirOperationVerify(m));
    mlirModuleDestroy(module);
  }
  free(text);
  return 0;
}
