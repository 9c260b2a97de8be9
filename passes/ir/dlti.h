// passes/ir/dlti.h: a target described in the module with upstream DLTI.
//
//   module attributes {dlti.target_system_spec = #dlti.target_system_spec<
//     "NPU" = #dlti.target_device_spec<"metrale.target" = "npu", "alignment" = 128 : i64,
//                                      "memory_bytes" = 8589934592 : i64>>} { ... }
//
// The device spec used is the first one with a "metrale.target" entry, else the first
// one. "metrale.target" names the built-in it starts from (default host-cpu); the entries
// "width_policy" (string), "alignment", "index_bits", "memory_bytes",
// "bandwidth_bytes_per_s", "compute_units" (integers) and "epilogue_fusion" (bool)
// override that target's fields; another "metrale.*" key is an error, other keys are left
// to other tools. Several devices without a "metrale.target" entry: the first, with a
// warning.
// Precedence: the pass option target= wins; else this spec; else host-cpu.
#ifndef METRALE_PASSES_DLTI_H
#define METRALE_PASSES_DLTI_H

#include <stddef.h>

#include "ir/diag.h"
#include "metrale/target.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

// Builds |out| from |module|'s DLTI spec; |*found| says whether the module has one.
// MET_EINVAL, with the first malformed entry named in |err|, when the spec is malformed.
// |warn| receives a warning (or ""): several devices and none marked with "metrale.target".
met_status_t met_dlti_target(MlirOperation module, met_target_t *out, bool *found,
                             met_error_t *err, char *warn, size_t warn_len);

// The target: |name| when given (a built-in), else the module's DLTI spec, else host-cpu.
// |storage| holds a DLTI-built target. On error a diagnostic is emitted and the status
// returned (MET_ENOTFOUND: no such target; MET_EINVAL: a malformed spec). Warns at a
// nested module that has its own spec (not applied).
met_status_t met_dlti_resolve_target(MlirOperation module, MlirStringRef name,
                                     met_target_t *storage, const met_target_t **out,
                                     met_diag_fn_t diag, void *user);

#ifdef __cplusplus
}
#endif

#endif
