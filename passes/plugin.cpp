// plugin.cpp: the pass plugin for stock mlir-opt:
//   mlir-opt --load-pass-plugin=build/lib/MetralePlugin.so
//            -p 'builtin.module(metrale-budget{target=h100})' model.mlir
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "register.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MetralePlugin", "0.1", []() { met_register_passes(); }};
}
