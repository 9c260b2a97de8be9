// register.cpp: the top of the MLIR layer, in C++ because the MLIR 22 C API has no door
// for it: the metrale passes registered (with options) into MLIR's registry, and the
// diagnostics they emit (remarks and warnings need C++). Free of analysis logic: each
// pass fills the C options and calls met_budget_run / met_memory_run.
#include <string>

#include "metrale/passes.h"
#include "register.h"
#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

namespace {

void emitDiag(void *, MlirLocation loc, met_diag_severity_t sev, const char *msg) {
  mlir::Location l = unwrap(loc);
  switch (sev) {
    case MET_DIAG_ERROR: mlir::emitError(l) << msg; break;
    case MET_DIAG_WARNING: mlir::emitWarning(l) << msg; break;
    case MET_DIAG_REMARK: mlir::emitRemark(l) << msg; break;
    case MET_DIAG_NOTE: mlir::emitRemark(l) << msg; break;
  }
}

MlirStringRef toRef(const std::string &s) { return MlirStringRef{s.data(), s.size()}; }

struct BudgetPass
    : public mlir::PassWrapper<BudgetPass, mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(BudgetPass)
  BudgetPass() = default;
  BudgetPass(const BudgetPass &other) : PassWrapper(other) {}
  llvm::StringRef getArgument() const final { return "metrale-budget"; }
  llvm::StringRef getDescription() const final {
    return "Compute the Budget of one run of every func.func on a target: arena, reuse, "
           "width overhead, host I/O, parameters, fast path, casts, dispatches, DRAM bytes";
  }
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("A built-in target (`metrale targets` lists them); "
                                            "default: the module's DLTI spec, else host-cpu"),
                             llvm::cl::init("")};
  Option<std::string> json{*this, "json",
                           llvm::cl::desc("Write the JSON report to this file ('-': stdout)"),
                           llvm::cl::init("")};
  Option<std::string> params{*this, "params",
                             llvm::cl::desc("Arguments that are parameters: '0,2-5,7-', 'all', "
                                            "'float' or 'none' (plus `metrale.param` attributes)"),
                             llvm::cl::init("")};
  Option<std::string> dynamicSize{*this, "dynamic-size",
                                  llvm::cl::desc("Bind every dynamic dim to this size (a whole "
                                                 "number >= 1; default: unbound)"),
                                  llvm::cl::init("")};
  Option<std::string> planner{*this, "planner",
                              llvm::cl::desc("Offset planner: best (default: the smallest of the "
                                             "three), first-fit (greedy by size, the baseline), "
                                             "best-fit, area"),
                              llvm::cl::init("best")};
  Option<bool> opRemarks{*this, "op-remarks",
                         llvm::cl::desc("Remark at every op off the target's fast path"),
                         llvm::cl::init(true)};

  void runOnOperation() override {
    met_budget_run_options_t o{};
    o.target = toRef(target);
    o.json = toRef(json);
    o.params = toRef(params);
    o.planner = toRef(planner);
    o.dynamic_size = toRef(dynamicSize);
    o.op_remarks = opRemarks;
    o.set_attributes = true;
    // The pass only adds discardable metrale.* attributes: every analysis stays valid,
    // and MLIR skips its post-pass verification of the module (mlir/lib/Pass/Pass.cpp).
    markAllAnalysesPreserved();
    if (!met_budget_run(wrap(getOperation().getOperation()), &o, emitDiag, nullptr, nullptr,
                        nullptr))
      signalPassFailure();
  }
};

struct MemoryPass
    : public mlir::PassWrapper<MemoryPass, mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MemoryPass)
  MemoryPass() = default;
  MemoryPass(const MemoryPass &other) : PassWrapper(other) {}
  llvm::StringRef getArgument() const final { return "metrale-memory"; }
  llvm::StringRef getDescription() const final {
    return "Whole-model memory model: stored and derived weights, the peak activation arena "
           "over every run, workspaces, states and the paged KV pool, caches and driver "
           "terms, against the device budget, with headroom and what still fits";
  }
  Option<std::string> target{*this, "target", llvm::cl::desc("Built-in target (as metrale-budget)"),
                             llvm::cl::init("")};
  Option<std::string> util{*this, "util",
                           llvm::cl::desc("Share of device memory to use, e.g. 0.9 (default: the "
                                          "target's)"),
                           llvm::cl::init("")};
  Option<std::string> sequences{*this, "sequences",
                                llvm::cl::desc("Sequences served at once (sizes the KV pool)"),
                                llvm::cl::init("")};
  Option<std::string> tokens{*this, "tokens",
                             llvm::cl::desc("Tokens per sequence (sizes the KV pool)"),
                             llvm::cl::init("")};
  Option<std::string> kvDtype{*this, "kv-dtype",
                              llvm::cl::desc("KV cache element type (f16, bf16, f8E4M3FN, i8, "
                                             "...); overrides the module's"),
                              llvm::cl::init("")};
  Option<std::string> kvPool{*this, "kv-pool",
                             llvm::cl::desc("Declare the paged KV pool: layers=N,kv_heads=N,"
                                            "head_dim=N,block_size=N (instead of the module's "
                                            "metrale.kv_pool)"),
                             llvm::cl::init("")};
  Option<std::string> json{*this, "json",
                           llvm::cl::desc("Write the JSON report to this file ('-': stdout)"),
                           llvm::cl::init("")};
  Option<std::string> params{*this, "params",
                             llvm::cl::desc("Parameter arguments: '0,2-5,7-', 'all', 'float', "
                                            "'none' (plus `metrale.param` attributes)"),
                             llvm::cl::init("")};
  Option<std::string> states{*this, "states",
                             llvm::cl::desc("State arguments, e.g. KV caches (plus "
                                            "`metrale.state` attributes)"),
                             llvm::cl::init("")};
  Option<std::string> dynamicSize{*this, "dynamic-size",
                                  llvm::cl::desc("Bind every dynamic dim to this size (a whole "
                                                 "number >= 1; default: unbound)"),
                                  llvm::cl::init("")};
  Option<bool> overBudgetWarning{*this, "over-budget-warning",
                                 llvm::cl::desc("Report a model that does not fit as a "
                                                "warning instead of an error"),
                                 llvm::cl::init(false)};
  Option<std::string> rows{*this, "rows",
                           llvm::cl::desc("Largest nodes listed in the module remark (0 to "
                                          "1000000; default 8)"),
                           llvm::cl::init("")};

  void runOnOperation() override {
    met_memory_run_options_t o{};
    o.target = toRef(target);
    o.util = toRef(util);
    o.sequences = toRef(sequences);
    o.tokens = toRef(tokens);
    o.kv_dtype = toRef(kvDtype);
    o.kv_pool = toRef(kvPool);
    o.json = toRef(json);
    o.params = toRef(params);
    o.states = toRef(states);
    o.dynamic_size = toRef(dynamicSize);
    o.over_budget_warning = overBudgetWarning;
    o.set_attributes = true;
    o.remark_rows = toRef(rows);
    markAllAnalysesPreserved();  // as the Budget pass: attributes only
    if (!met_memory_run(wrap(getOperation().getOperation()), &o, emitDiag, nullptr, nullptr,
                        nullptr))
      signalPassFailure();
  }
};

}  // namespace

extern "C" void met_register_passes(void) {
  mlir::PassRegistration<BudgetPass>();
  mlir::PassRegistration<MemoryPass>();
}
