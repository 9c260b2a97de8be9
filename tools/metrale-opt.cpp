// metrale-opt: mlir-opt with every upstream dialect and pass plus metrale's, registered
// before the flags are parsed so `metrale-opt --metrale-budget=...` works in flag form.
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "../passes/register.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  met_register_passes();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "metrale: cost and memory checker for MLIR graphs\n",
                        registry));
}
