// register.cpp: the top of the MLIR layer, in C++ because the MLIR 22 C API has no door
// for it: the metrale passes registered (with options) into MLIR's registry. Free of
// analysis logic: each pass fills the C options and calls its runner (met_budget_run,
// met_memory_run, met_dispatch_run), whose diagnostics and remarks leave through
// passes/report/mlir_emit.cpp.
#include <memory>
#include <string>

#include "runners.h"
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

// What the three passes share: anchored on builtin.module, each declares the options of
// metrale/options.def whose passes include its own (|Bit|, MET_PASS_*), in the list's
// order, copies their values into the runner's options (met_run_option_member,
// passes/runners.h) and calls its runner. An option given twice ("target=h100
// target=npu") is refused, as the command refuses a repeated flag (llvm::cl would keep
// the last without a word), and so is a text option given no value ("name=": its default
// would silently apply). The passes only add discardable metrale.* attributes: every
// analysis stays valid, and MLIR skips its post-pass verification of the module
// (mlir/lib/Pass/Pass.cpp).
// Whether |options| (a pass's option text, "a=1 b= c") gives |name| as "name=" with no
// value: the '=' then ends the text or is followed by a space or a closing brace.
static bool given_empty(llvm::StringRef options, llvm::StringRef name) {
  for (size_t at = options.find(name); at != llvm::StringRef::npos;
       at = options.find(name, at + 1)) {
    if (at && options[at - 1] != ' ' && options[at - 1] != '{') continue;
    size_t eq = at + name.size();
    if (eq >= options.size() || options[eq] != '=') continue;
    if (eq + 1 == options.size() || options[eq + 1] == ' ' || options[eq + 1] == '}')
      return true;
  }
  return false;
}

template <typename Derived, typename Options, unsigned Bit,
          met_status_t (*Run)(MlirOperation, const Options *, met_diag_fn_t, void *,
                              met_strbuf_t *, met_strbuf_t *)>
struct MetralePass : public mlir::PassWrapper<Derived, mlir::OperationPass<mlir::ModuleOp>> {
  using Base = mlir::PassWrapper<Derived, mlir::OperationPass<mlir::ModuleOp>>;
  template <typename T> using Opt = typename Base::template Option<T>;
  // The declared options, by MET_OPT_* (null: not this pass's, or the other kind).
  std::unique_ptr<Opt<std::string>> text[MET_OPT_COUNT];
  std::unique_ptr<Opt<bool>> flag[MET_OPT_COUNT];

  MetralePass() { declare(); }
  // The copy declares the same options in the same order; MLIR then copies their values
  // (Pass::copyOptionValuesFrom).
  MetralePass(const MetralePass &other) : Base(other) { declare(); }
  void declare() {
    const met_option_t *all = met_options();
    for (int i = 0; i < MET_OPT_COUNT; ++i) {
      const met_option_t &m = all[i];
      if (!(m.passes & Bit)) continue;
      if (m.kind == MET_OPTION_FLAG_ON || m.kind == MET_OPTION_FLAG_OFF)
        flag[i] = std::make_unique<Opt<bool>>(*this, m.name, llvm::cl::desc(m.help),
                                              llvm::cl::init(m.kind == MET_OPTION_FLAG_ON));
      else
        text[i] = std::make_unique<Opt<std::string>>(*this, m.name, llvm::cl::desc(m.help),
                                                     llvm::cl::init(""));
    }
  }
  mlir::LogicalResult initializeOptions(
      llvm::StringRef options,
      llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> errorHandler) override {
    if (mlir::failed(mlir::Pass::initializeOptions(options, errorHandler))) return mlir::failure();
    const met_option_t *all = met_options();
    for (int i = 0; i < MET_OPT_COUNT; ++i) {
      unsigned n = text[i] ? text[i]->getNumOccurrences() : flag[i] ? flag[i]->getNumOccurrences() : 0;
      if (n > 1)
        return errorHandler(llvm::Twine("option '") + all[i].name + "' of " +
                            this->getArgument() + " is given " + llvm::Twine(n) +
                            " times: give it once");
      if (n && text[i] && text[i]->getValue().empty())
        return errorHandler(llvm::Twine("option '") + all[i].name + "' of " +
                            this->getArgument() +
                            " is given no value: give one, or leave the option out for its "
                            "default");
      // llvm::cl reads "name=" as true: an empty script variable would turn a failing
      // over-budget check into a warning. The text is looked at for "name=" with nothing
      // after it.
      if (n && flag[i] && given_empty(options, all[i].name))
        return errorHandler(llvm::Twine("option '") + all[i].name + "' of " +
                            this->getArgument() +
                            " is given no value: give true or false, or leave the option "
                            "out for its default");
    }
    return mlir::success();
  }
  void runOnOperation() override {
    Options opts{};
    met_run_options_t &o = opts.run;
    for (int i = 0; i < MET_OPT_COUNT; ++i) {
      met_run_member_t m = met_run_option_member(&o, i);
      if (text[i] && m.text) *m.text = toRef(text[i]->getValue());
      if (flag[i] && m.flag) *m.flag = flag[i]->getValue();
    }
    o.set_attributes = true;
    o.metrics = met_mlir_emit_metrics;
    this->markAllAnalysesPreserved();
    MlirOperation module = wrap(this->getOperation().getOperation());
    // The files it writes are checked first: the SARIF log below is written even when the
    // run fails, and must never overwrite the model.
    const char *flags[] = {"json=", "sarif=", "svg="};
    MlirStringRef paths[] = {o.json, o.sarif, o.svg};
    if (met_output_check_module(module, flags, paths, 3, met_mlir_emit_diag, nullptr) != MET_OK) {
      this->signalPassFailure();
      llvm::errs().flush();
      return;
    }
    if (!o.sarif.length) {
      if (Run(module, &opts, met_mlir_emit_diag, nullptr, nullptr, nullptr) != MET_OK)
        this->signalPassFailure();
      llvm::errs().flush();  // a buffered stderr (metrale-opt's): before the printed IR
      return;
    }
    // sarif=FILE: every diagnostic also goes into the log, written when the run ends.
    met_sarif_t sarif;
    met_sarif_initialize(&sarif, met_mlir_emit_diag, nullptr);
    bool ok = Run(module, &opts, met_sarif_diag, &sarif, nullptr, nullptr) == MET_OK;
    met_strbuf_t sb;
    met_strbuf_initialize(met_allocator_system(), &sb);
    met_sarif_render(&sarif, &sb);
    if (sarif.status || sb.status ||
        met_output_write(met_diag_module_loc(module), o.sarif, &sb, nullptr, "SARIF log",
                         met_mlir_emit_diag, nullptr) != MET_OK)
      ok = false;
    met_strbuf_deinitialize(&sb);
    met_sarif_deinitialize(&sarif);
    if (!ok) this->signalPassFailure();
    llvm::errs().flush();
  }
};

// One pass: its class (MLIR identifies a pass by its type), argument and description.
#define MET_DEFINE_PASS(Name, Bit, Options, run, argument, description)                   \
  struct Name : public MetralePass<Name, Options, Bit, run> {                              \
    MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(Name)                                     \
    llvm::StringRef getArgument() const final { return argument; }                         \
    llvm::StringRef getDescription() const final { return description; }                   \
  };

MET_DEFINE_PASS(BudgetPass, MET_PASS_BUDGET, met_budget_run_options_t, met_budget_run,
                "metrale-budget",
                "Compute the Budget of one run of every func.func on a target: arena, reuse, "
                "width overhead, host I/O, parameters, fast path, casts, dispatches, DRAM bytes")
MET_DEFINE_PASS(MemoryPass, MET_PASS_MEMORY, met_memory_run_options_t, met_memory_run,
                "metrale-memory",
                "Whole-model memory model: stored and derived weights, the peak activation "
                "arena over every run, workspaces, states and the paged KV pool, caches and "
                "driver terms, against the device budget, with headroom and what still fits")
MET_DEFINE_PASS(DispatchPass, MET_PASS_DISPATCH, met_dispatch_run_options_t, met_dispatch_run,
                "metrale-dispatch",
                "Dispatch stats of one invocation of every func.func on a target: bytes in, "
                "out and read back, allocations, kernel launches, sync points, roofline latency")
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
