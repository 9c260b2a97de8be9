// plugin.cpp: the pass plugin for stock mlir-opt, in two ways:
//   mlir-opt --load-pass-plugin=build/lib/MetralePlugin.so
//            -p 'builtin.module(metrale-budget{target=h100})' model.mlir
//   LD_PRELOAD=build/lib/MetralePlugin.so mlir-opt --metrale-budget="target=h100" model.mlir
// Stock mlir-opt 22 builds its pass flags before --load-pass-plugin loads a plugin, so
// the flag form needs the passes registered before main: a preloaded library's
// constructor runs then. Loaded either way (or both), the passes are registered once.
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "register.h"

namespace {
// A function-local static: initialized exactly once, thread-safely (C++11), however many
// times the library is loaded or its entry point called.
void registerOnce() {
  static const bool done = (met_register_passes(), true);
  (void)done;
}

// Runs when the library is loaded: at process start under LD_PRELOAD (before mlir-opt
// parses its command line), or at --load-pass-plugin's dlopen.
__attribute__((constructor)) void registerAtLoad() { registerOnce(); }
}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MetralePlugin", "0.1", []() { registerOnce(); }};
}
