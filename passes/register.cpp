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

// The options of metrale/options.def, as members of a pass (MET_DECL_*) and copied into
// the C options (MET_COPY_*); MET_IN_<pass>_<list's pass> keeps the ones of that pass.
#define MET_DECL_TEXT(member, name, help) \
  Option<std::string> opt_##member{*this, name, llvm::cl::desc(help), llvm::cl::init("")};
#define MET_DECL_FLAG_ON(member, name, help) \
  Option<bool> opt_##member{*this, name, llvm::cl::desc(help), llvm::cl::init(true)};
#define MET_DECL_FLAG_OFF(member, name, help) \
  Option<bool> opt_##member{*this, name, llvm::cl::desc(help), llvm::cl::init(false)};
#define MET_COPY_TEXT(member) o.member = toRef(opt_##member);
#define MET_COPY_FLAG_ON(member) o.member = opt_##member;
#define MET_COPY_FLAG_OFF(member) o.member = opt_##member;
#define MET_IN_BUDGET_BUDGET(x) x
#define MET_IN_BUDGET_MEMORY(x)
#define MET_IN_BUDGET_BOTH(x) x
#define MET_IN_MEMORY_BUDGET(x)
#define MET_IN_MEMORY_MEMORY(x) x
#define MET_IN_MEMORY_BOTH(x) x

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
#define MET_OPTION(pass, name, member, kind, cli, help) \
  MET_IN_BUDGET_##pass(MET_DECL_##kind(member, name, help))
#include "metrale/options.def"
#undef MET_OPTION

  void runOnOperation() override {
    met_budget_run_options_t o{};
#define MET_OPTION(pass, name, member, kind, cli, help) MET_IN_BUDGET_##pass(MET_COPY_##kind(member))
#include "metrale/options.def"
#undef MET_OPTION
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
#define MET_OPTION(pass, name, member, kind, cli, help) \
  MET_IN_MEMORY_##pass(MET_DECL_##kind(member, name, help))
#include "metrale/options.def"
#undef MET_OPTION

  void runOnOperation() override {
    met_memory_run_options_t o{};
#define MET_OPTION(pass, name, member, kind, cli, help) MET_IN_MEMORY_##pass(MET_COPY_##kind(member))
#include "metrale/options.def"
#undef MET_OPTION
    o.set_attributes = true;
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
