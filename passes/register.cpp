// register.cpp: the top of the MLIR layer, in C++ because the MLIR 22 C API has no door
// for it: the metrale passes registered (with options) into MLIR's registry. Free of
// analysis logic: each pass fills the C options and calls its runner (met_budget_run,
// met_memory_run, met_dispatch_run), whose diagnostics and remarks leave through
// passes/report/mlir_emit.cpp.
#include <string>

#include "metrale/options.h"
#include "metrale/passes.h"
#include "register.h"
// metrale's C headers (the core's carry no C++ guards of their own).
extern "C" {
#include "ir/diag.h"
#include "report/mlir_emit.h"
#include "report/output.h"
#include "report/sarif.h"
}
#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

namespace {

MlirStringRef toRef(const std::string &s) { return MlirStringRef{s.data(), s.size()}; }

// The options of metrale/options.def, as members of a pass (MET_DECL_*) and copied into
// the C options (MET_COPY_*); MET_OPTION_IF keeps the ones of that pass.
#define MET_DECL_TEXT(member, name, help) \
  Option<std::string> opt_##member{*this, name, llvm::cl::desc(help), llvm::cl::init("")};
#define MET_DECL_NUM MET_DECL_TEXT
#define MET_DECL_LIMIT_MAX MET_DECL_TEXT
#define MET_DECL_LIMIT_MIN MET_DECL_TEXT
#define MET_DECL_FLAG_ON(member, name, help) \
  Option<bool> opt_##member{*this, name, llvm::cl::desc(help), llvm::cl::init(true)};
#define MET_DECL_FLAG_OFF(member, name, help) \
  Option<bool> opt_##member{*this, name, llvm::cl::desc(help), llvm::cl::init(false)};
#define MET_COPY_TEXT(member) o.member = toRef(opt_##member);
#define MET_COPY_NUM MET_COPY_TEXT
#define MET_COPY_LIMIT_MAX(member) o.limits[MET_OPT_##member] = toRef(opt_##member);
#define MET_COPY_LIMIT_MIN MET_COPY_LIMIT_MAX
#define MET_COPY_FLAG_ON(member) o.member = opt_##member;
#define MET_COPY_FLAG_OFF(member) o.member = opt_##member;
// An option given twice ("target=h100 target=npu") is refused, as the command refuses a
// repeated flag: llvm::cl would keep the last without a word.
#define MET_ONCE(member, name)                                                             \
  if (opt_##member.getNumOccurrences() > 1)                                                \
    return errorHandler(llvm::Twine("option '") + name + "' of " + getArgument() +          \
                        " is given " + llvm::Twine(opt_##member.getNumOccurrences()) +     \
                        " times: give it once");                                           \
  if (opt_##member.getNumOccurrences() && met_option_is_empty(opt_##member))               \
    return errorHandler(llvm::Twine("option '") + name + "' of " + getArgument() +          \
                        " is given no value: give one, or leave the option out for its "   \
                        "default");
// A text option given as "name=" (its default would silently apply); a flag has a value.
static bool met_option_is_empty(const std::string &v) { return v.empty(); }
static bool met_option_is_empty(bool) { return false; }

// What the three passes share: anchored on builtin.module, they fill their C options
// from their pass options (Derived::copy) and call their runner. They only add
// discardable metrale.* attributes: every analysis stays valid, and MLIR skips its
// post-pass verification of the module (mlir/lib/Pass/Pass.cpp).
template <typename Derived, typename Options,
          bool (*Run)(MlirOperation, const Options *, met_diag_fn_t, void *, met_strbuf_t *,
                      met_strbuf_t *)>
struct MetralePass : public mlir::PassWrapper<Derived, mlir::OperationPass<mlir::ModuleOp>> {
  mlir::LogicalResult initializeOptions(
      llvm::StringRef options,
      llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> errorHandler) override {
    if (mlir::failed(mlir::Pass::initializeOptions(options, errorHandler))) return mlir::failure();
    return static_cast<Derived *>(this)->once(errorHandler);
  }
  void runOnOperation() override {
    Options o{};
    static_cast<Derived *>(this)->copy(o);
    o.set_attributes = true;
    o.metrics = met_mlir_emit_metrics;
    this->markAllAnalysesPreserved();
    MlirOperation module = wrap(this->getOperation().getOperation());
    // The files it writes are checked first: the SARIF log below is written even when the
    // run fails, and must never overwrite the model.
    const char *flags[] = {"json=", "sarif=", "svg="};
    MlirStringRef paths[] = {o.json, o.sarif, static_cast<Derived *>(this)->svg(o)};
    if (!met_output_check_module(module, flags, paths, 3, met_mlir_emit_diag, nullptr)) {
      this->signalPassFailure();
      llvm::errs().flush();
      return;
    }
    if (!o.sarif.length) {
      if (!Run(module, &o, met_mlir_emit_diag, nullptr, nullptr, nullptr)) this->signalPassFailure();
      llvm::errs().flush();  // a buffered stderr (metrale-opt's): before the printed IR
      return;
    }
    // sarif=FILE: every diagnostic also goes into the log, written when the run ends.
    met_sarif_t sarif;
    met_sarif_initialize(&sarif, met_mlir_emit_diag, nullptr);
    bool ok = Run(module, &o, met_sarif_diag, &sarif, nullptr, nullptr);
    met_strbuf_t sb;
    met_strbuf_initialize(met_allocator_system(), &sb);
    met_sarif_render(&sarif, &sb);
    if (sarif.status || sb.status ||
        !met_output_write(met_diag_module_loc(module), o.sarif, &sb, nullptr, "SARIF log",
                          met_mlir_emit_diag, nullptr))
      ok = false;
    met_strbuf_deinitialize(&sb);
    met_sarif_deinitialize(&sarif);
    if (!ok) this->signalPassFailure();
    llvm::errs().flush();
  }
};

struct BudgetPass : public MetralePass<BudgetPass, met_budget_run_options_t, met_budget_run> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(BudgetPass)
  BudgetPass() = default;
  BudgetPass(const BudgetPass &other) : MetralePass(other) {}
  llvm::StringRef getArgument() const final { return "metrale-budget"; }
  llvm::StringRef getDescription() const final {
    return "Compute the Budget of one run of every func.func on a target: arena, reuse, "
           "width overhead, host I/O, parameters, fast path, casts, dispatches, DRAM bytes";
  }
#define MET_OPTION(passes, name, member, kind, cli, lo, hi, help) \
  MET_OPTION_IF(BUDGET, passes, MET_DECL_##kind(member, name, help))
#include "metrale/options.def"
#undef MET_OPTION
  static MlirStringRef svg(const met_budget_run_options_t &o) { return o.svg; }
  void copy(met_budget_run_options_t &o) {
#define MET_OPTION(passes, name, member, kind, cli, lo, hi, help) \
  MET_OPTION_IF(BUDGET, passes, MET_COPY_##kind(member))
#include "metrale/options.def"
#undef MET_OPTION
  }
  mlir::LogicalResult once(llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> errorHandler) {
#define MET_OPTION(passes, name, member, kind, cli, lo, hi, help) \
  MET_OPTION_IF(BUDGET, passes, MET_ONCE(member, name))
#include "metrale/options.def"
#undef MET_OPTION
    return mlir::success();
  }
};

struct MemoryPass : public MetralePass<MemoryPass, met_memory_run_options_t, met_memory_run> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MemoryPass)
  MemoryPass() = default;
  MemoryPass(const MemoryPass &other) : MetralePass(other) {}
  llvm::StringRef getArgument() const final { return "metrale-memory"; }
  llvm::StringRef getDescription() const final {
    return "Whole-model memory model: stored and derived weights, the peak activation arena "
           "over every run, workspaces, states and the paged KV pool, caches and driver "
           "terms, against the device budget, with headroom and what still fits";
  }
#define MET_OPTION(passes, name, member, kind, cli, lo, hi, help) \
  MET_OPTION_IF(MEMORY, passes, MET_DECL_##kind(member, name, help))
#include "metrale/options.def"
#undef MET_OPTION
  static MlirStringRef svg(const met_memory_run_options_t &) { return MlirStringRef{nullptr, 0}; }
  void copy(met_memory_run_options_t &o) {
#define MET_OPTION(passes, name, member, kind, cli, lo, hi, help) \
  MET_OPTION_IF(MEMORY, passes, MET_COPY_##kind(member))
#include "metrale/options.def"
#undef MET_OPTION
  }
  mlir::LogicalResult once(llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> errorHandler) {
#define MET_OPTION(passes, name, member, kind, cli, lo, hi, help) \
  MET_OPTION_IF(MEMORY, passes, MET_ONCE(member, name))
#include "metrale/options.def"
#undef MET_OPTION
    return mlir::success();
  }
};

struct DispatchPass
    : public MetralePass<DispatchPass, met_dispatch_run_options_t, met_dispatch_run> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DispatchPass)
  DispatchPass() = default;
  DispatchPass(const DispatchPass &other) : MetralePass(other) {}
  llvm::StringRef getArgument() const final { return "metrale-dispatch"; }
  llvm::StringRef getDescription() const final {
    return "Dispatch stats of one invocation of every func.func on a target: bytes in, out "
           "and read back, allocations, kernel launches, sync points, roofline latency";
  }
#define MET_OPTION(passes, name, member, kind, cli, lo, hi, help) \
  MET_OPTION_IF(DISPATCH, passes, MET_DECL_##kind(member, name, help))
#include "metrale/options.def"
#undef MET_OPTION
  static MlirStringRef svg(const met_dispatch_run_options_t &) { return MlirStringRef{nullptr, 0}; }
  void copy(met_dispatch_run_options_t &o) {
#define MET_OPTION(passes, name, member, kind, cli, lo, hi, help) \
  MET_OPTION_IF(DISPATCH, passes, MET_COPY_##kind(member))
#include "metrale/options.def"
#undef MET_OPTION
  }
  mlir::LogicalResult once(llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> errorHandler) {
#define MET_OPTION(passes, name, member, kind, cli, lo, hi, help) \
  MET_OPTION_IF(DISPATCH, passes, MET_ONCE(member, name))
#include "metrale/options.def"
#undef MET_OPTION
    return mlir::success();
  }
};

}  // namespace

// Registered once per process, however many copies of this code it holds: metrale-opt
// with the plugin also loaded (--load-pass-plugin, LD_PRELOAD) has two, each with its own
// statics, and MLIR's one registry aborts on a second allocator for a name. The registry
// itself says what is there.
template <typename P> static void registerIfNew(llvm::StringRef name) {
  if (!mlir::PassInfo::lookup(name)) mlir::PassRegistration<P>();
}

extern "C" void met_register_passes(void) {
  registerIfNew<BudgetPass>("metrale-budget");
  registerIfNew<MemoryPass>("metrale-memory");
  registerIfNew<DispatchPass>("metrale-dispatch");
}
