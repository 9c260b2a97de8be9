// metrale-opt: mlir-opt with every upstream dialect and pass plus metrale's, registered
// before the flags are parsed so `metrale-opt --metrale-budget=...` works in flag form.
#include <sys/stat.h>

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
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "metrale: cost and memory checker for MLIR graphs\n", registry);
  // A character device or a socket is refused before it is read: /dev/zero would be read
  // forever (stock mlir-opt does), the buffer growing without bound. '-' is standard input.
  struct stat st;
  if (input != "-" && stat(input.c_str(), &st) == 0 && !S_ISREG(st.st_mode) &&
      !S_ISFIFO(st.st_mode)) {
    llvm::errs() << "metrale-opt: cannot read '" << input << "': it is "
                 << (S_ISDIR(st.st_mode)   ? "a directory"
                     : S_ISCHR(st.st_mode) ? "a character device"
                     : S_ISBLK(st.st_mode) ? "a block device"
                                           : "no regular file")
                 << ", not a file or a pipe\n";
    return 1;
  }
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, input, output, registry));
}
