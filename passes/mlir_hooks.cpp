// mlir_hooks.cpp: the bottom of the MLIR layer: the two MLIR facilities the C API of MLIR
// 22 does not reach, as C functions (mlir_hooks.h): MLIR's thread pool and the entries of
// a DLTI target-device spec. Free of analysis logic.
#include "mlir_hooks.h"

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Threading.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

extern "C" void met_parallel_for(MlirContext ctx, size_t n, void (*fn)(void *, size_t),
                                 void *user) {
  mlir::parallelFor(unwrap(ctx), 0, n, [&](size_t i) { fn(user, i); });
}

extern "C" int met_dlti_for_each_entry(MlirOperation module, met_dlti_entry_fn_t fn,
                                       void *user) {
  mlir::Operation *op = unwrap(module);
  auto spec = op->getAttrOfType<mlir::TargetSystemSpecInterface>(
      mlir::DLTIDialect::kTargetSystemDescAttrName);
  if (!spec) return 0;
  for (mlir::DataLayoutEntryInterface dev : spec.getEntries()) {
    auto idAttr = llvm::dyn_cast_if_present<mlir::StringAttr>(
        llvm::dyn_cast_if_present<mlir::StringAttr>(dev.getKey()));
    auto device = llvm::dyn_cast_if_present<mlir::TargetDeviceSpecInterface>(dev.getValue());
    if (!idAttr || !device) continue;
    llvm::StringRef id = idAttr.getValue();
    for (mlir::DataLayoutEntryInterface e : device.getEntries()) {
      auto key = llvm::dyn_cast_if_present<mlir::StringAttr>(e.getKey());
      if (!key) continue;
      fn(user, MlirStringRef{id.data(), id.size()},
         MlirStringRef{key.getValue().data(), key.getValue().size()}, wrap(e.getValue()));
    }
  }
  return 1;
}
