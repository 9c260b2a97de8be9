// metrale-opt: mlir-opt with every upstream dialect and pass plus metrale's, registered
// before the flags are parsed so `metrale-opt --metrale-budget=...` works in flag form.
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include "register.h"

int main(int argc, char **argv) {
  // Diagnostics go to llvm::errs(), which is unbuffered: MLIR's SourceMgr handler writes a
  // remark in about 13 pieces, each a write(2), so 20,000 functions' summaries cost more
  // in system calls than the analysis. Buffer it, 64 KiB at a time, unless it is a
  // terminal. metrale's passes flush it when they end, so remarks still come before the
  // printed IR, and a crash flushes it and prints its stack trace unbuffered.
  if (!llvm::errs().is_displayed()) llvm::errs().SetBufferSize(64 * 1024);
  // On a crash: what is buffered goes out, and the stack trace LLVM's own handler prints
  // next (registered later, by MlirOptMain's InitLLVM) goes out unbuffered.
  llvm::sys::AddSignalHandler(
      [](void *) {
        llvm::errs().flush();
        llvm::errs().SetUnbuffered();
      },
      nullptr);
  mlir::registerAllPasses();
  met_register_passes();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "metrale: cost and memory checker for MLIR graphs\n",
                        registry));
}
