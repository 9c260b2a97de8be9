// dlti.c: interpret the module's DLTI device spec as a metrale target (see dlti.h).
// Three walks over the (few) entries: choose the device, apply its "metrale.target"
// base, then apply its overrides, so an override wins whatever the entry order.
#include "ir/dlti.h"

#include <stdio.h>
#include <stdbool.h>
#include <string.h>

#include "ir/attrs.h"
#include "ir/diag.h"
#include "ir/mlir_hooks.h"
#include "ir/ir.h"
#include "mlir-c/BuiltinAttributes.h"

typedef enum { CHOOSE, BASE, OVERRIDE } phase_t;

typedef struct walk_t {
  phase_t phase;
  MlirStringRef device;       // first device with "metrale.target", else the first one
  bool have_device, chosen_by_key;
  MlirStringRef last_device;   // counting devices: entries come device by device
  size_t devices;
  met_target_t *t;
  met_error_t *err;  // the first malformed entry (code MET_OK while none)
} walk_t;

static void fail(walk_t *w, MlirStringRef key, const char *what) {
  if (w->err->code != MET_OK) return;
  met_error_set(w->err, MET_EINVAL, "dlti.target_device_spec entry \"%.*s\" %s",
                (int)key.length, key.data, what);
}

// "host-cpu, h100, ..." from the built-in table, into |buf|.
static const char *target_list(char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < met_target_builtin_count(); ++i) {
    int n = snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", met_target_builtin(i)->name);
    if (n < 0 || (size_t)n >= cap - len) break;
    len += (size_t)n;
  }
  return buf;
}

static void apply_base(walk_t *w, MlirStringRef key, MlirAttribute v) {
  if (!mlirAttributeIsAString(v)) { fail(w, key, "must be a string"); return; }
  MlirStringRef n = mlirStringAttrGetValue(v);
  const met_target_t *base;
  if (met_target_find(n.data, n.length, &base)) {
    char names[256], what[512];
    snprintf(what, sizeof what, "names no built-in target: \"%.*s\" (the built-in targets are %s)",
             (int)(n.length > 64 ? 64 : n.length), n.data, target_list(names, sizeof names));
    fail(w, key, what);
    return;
  }
  *w->t = *base;
  w->t->description = "built-in target overridden by the module's dlti.target_device_spec";
}

// An "iree.*" entry: one of IREE's dispatch-creation modes (metrale/target.h,
// met_iree_modes_t), a bool, on a target that models IREE (its base applied first). An
// entry of IREE's it does not model is refused by name, not ignored: it would change what
// IREE forms.
static void apply_iree_mode(walk_t *w, MlirStringRef key, MlirAttribute v) {
  met_target_t *t = w->t;
  bool *mode = met_ir_str_eq(key, "iree.aggressive_fusion")   ? &t->iree.aggressive_fusion
               : met_ir_str_eq(key, "iree.fuse_pad")          ? &t->iree.fuse_pad
               : met_ir_str_eq(key, "iree.horizontal_fusion") ? &t->iree.horizontal_fusion
                                                              : NULL;
  bool split = met_ir_str_eq(key, "iree.split_reduction");
  if (!mode && !split) {
    fail(w, key, "is no IREE mode metrale models (iree.aggressive_fusion, iree.fuse_pad, "
                 "iree.horizontal_fusion, iree.split_reduction)");
    return;
  }
  if (t->fusion != MET_FUSION_IREE) {
    char what[160];
    snprintf(what, sizeof what, "sets a mode of IREE's dispatch formation, and target \"%s\" "
             "models %s, not IREE", t->name, met_fusion_model_name(t->fusion));
    fail(w, key, what);
    return;
  }
  if (split) {
    // IREE's split of a matmul's reduction takes a ratio
    // (--iree-dispatch-creation-split-matmul-reduction=N, default 1: none).
    bool off = (mlirAttributeIsABool(v) && !mlirBoolAttrGetValue(v)) ||
               (mlirAttributeIsAInteger(v) && mlirIntegerAttrGetValueInt(v) == 1);
    if (!off)
      fail(w, key, "is IREE's split of matmul reductions, which metrale does not model: only "
                   "false (or 1, IREE's default: no split) is taken");
    return;
  }
  if (!mlirAttributeIsABool(v)) { fail(w, key, "must be a bool"); return; }
  *mode = mlirBoolAttrGetValue(v);
}

static void apply_override(walk_t *w, MlirStringRef key, MlirAttribute v) {
  met_target_t *t = w->t;
  uint64_t *u64 = NULL;
  uint32_t *u32 = NULL;
  if (met_ir_str_eq(key, "alignment")) u64 = &t->alignment;
  else if (met_ir_str_eq(key, "memory_bytes")) u64 = &t->memory_bytes;
  else if (met_ir_str_eq(key, "bandwidth_bytes_per_s")) u64 = &t->bandwidth_bytes_per_s;
  else if (met_ir_str_eq(key, "index_bits")) u32 = &t->index_bits;
  else if (met_ir_str_eq(key, "compute_units")) u32 = &t->compute_units;
  else if (met_ir_str_eq(key, "host_link_bytes_per_s")) u64 = &t->dispatch.host_link_bytes_per_s;
  else if (met_ir_str_eq(key, "launch_floor_ns")) u64 = &t->dispatch.launch_floor_ns;
  else if (met_ir_str_eq(key, "peak_flops_f32")) u64 = &t->dispatch.peak_flops_f32;
  else if (met_ir_str_eq(key, "peak_flops_f16")) u64 = &t->dispatch.peak_flops_f16;
  else if (met_ir_str_eq(key, "peak_flops_int")) u64 = &t->dispatch.peak_flops_int;
  else if (met_ir_str_eq(key, "control_bytes_per_buffer")) u32 = &t->dispatch.control_bytes_per_buffer;
  else if (met_ir_str_eq(key, "allocation_padding_bytes")) u32 = &t->dispatch.allocation_padding_bytes;
  if (u64 || u32) {
    // Ranges: alignment a power of two up to 1 GiB (a page, a huge page, a cache line:
    // real allocators align to far less); index_bits 1 to 64; compute_units up to 2^20;
    // memory and bandwidth any positive 64-bit count.
    // Dispatch parameters: a launch floor, control bytes or padding may be 0; byte and
    // FLOP rates at least 1; 32-bit fields up to 2^32 - 1.
    uint64_t max = met_ir_str_eq(key, "alignment") ? (1ull << 30)
                   : met_ir_str_eq(key, "index_bits") ? 64
                   : met_ir_str_eq(key, "compute_units") ? (1u << 20)
                   : u32 ? UINT32_MAX
                   : UINT64_MAX;
    uint64_t min = met_ir_str_eq(key, "launch_floor_ns") || met_ir_str_eq(key, "control_bytes_per_buffer") ||
                           met_ir_str_eq(key, "allocation_padding_bytes")
                       ? 0 : 1;
    uint64_t x;
    const char *why = met_attr_u64(v, min, max, &x);
    if (why) {
      char buf[512];
      snprintf(buf, sizeof(buf), "%s (%llu to %llu)", why, (unsigned long long)min,
               (unsigned long long)max);
      fail(w, key, buf);
      return;
    }
    if (met_ir_str_eq(key, "alignment") && (x & (x - 1))) {
      fail(w, key, "must be a power of two (1 to 1073741824)");
      return;
    }
    if (u64) *u64 = x; else *u32 = (uint32_t)x;
  } else if (met_ir_str_eq(key, "width_policy")) {
    if (!mlirAttributeIsAString(v)) { fail(w, key, "must be a string"); return; }
    MlirStringRef s = mlirStringAttrGetValue(v);
    if (met_width_policy_parse(s.data, s.length, &t->width_policy))
      fail(w, key, "must be \"native\", \"f32-uniform\" or \"hybrid\"");
  } else if (met_ir_str_eq(key, "epilogue_fusion") || met_ir_str_eq(key, "offload") ||
             met_ir_str_eq(key, "results_in_place") || met_ir_str_eq(key, "attention_fusion")) {
    if (!mlirAttributeIsABool(v)) { fail(w, key, "must be a bool"); return; }
    bool b = mlirBoolAttrGetValue(v);
    if (met_ir_str_eq(key, "epilogue_fusion")) t->epilogue_fusion = b;
    else if (met_ir_str_eq(key, "attention_fusion")) t->attention_fusion = b;
    else if (met_ir_str_eq(key, "offload")) t->dispatch.offload = b;
    else t->dispatch.results_in_place = b;
  } else if (met_ir_str_eq(key, "execution_model") || met_ir_str_eq(key, "allocation_model")) {
    if (!mlirAttributeIsAString(v)) { fail(w, key, "must be a string"); return; }
    MlirStringRef s = mlirStringAttrGetValue(v);
    bool exec = met_ir_str_eq(key, "execution_model");
    const char *a = exec ? "kernels" : "arena", *b = exec ? "megakernel" : "per-buffer";
    if (met_ir_str_eq(s, a)) {
      if (exec) t->dispatch.execution_model = MET_EXEC_KERNELS;
      else t->dispatch.allocation_model = MET_ALLOC_ARENA;
    } else if (met_ir_str_eq(s, b)) {
      if (exec) t->dispatch.execution_model = MET_EXEC_MEGAKERNEL;
      else t->dispatch.allocation_model = MET_ALLOC_PER_BUFFER;
    } else {
      fail(w, key, exec ? "must be \"kernels\" or \"megakernel\""
                        : "must be \"arena\" or \"per-buffer\"");
    }
  } else if (met_ir_str_has_prefix(key, "iree.")) {
    apply_iree_mode(w, key, v);
  } else if (met_ir_str_in_dialect(key, "metrale.")) {
    fail(w, key, "is not a metrale entry (metrale.target; the fields are unprefixed)");
  }  // other keys belong to other tools
}

static void on_entry(void *user, MlirStringRef device, MlirStringRef key, MlirAttribute v) {
  walk_t *w = user;
  bool is_base = met_ir_str_eq(key, "metrale.target");
  switch (w->phase) {
    case CHOOSE:
      if (!w->devices || !mlirStringRefEqual(device, w->last_device)) { w->devices++; w->last_device = device; }
      if (!w->have_device) { w->device = device; w->have_device = true; }
      if (is_base && !w->chosen_by_key) { w->device = device; w->chosen_by_key = true; }
      break;
    case BASE:
      if (is_base && mlirStringRefEqual(device, w->device)) apply_base(w, key, v);
      break;
    case OVERRIDE:
      if (!is_base && mlirStringRefEqual(device, w->device)) apply_override(w, key, v);
      break;
  }
}

met_status_t met_dlti_target(MlirOperation module, met_target_t *out, bool *found,
                             met_error_t *err, char *warn, size_t warn_len) {
  if (warn_len) warn[0] = '\0';
  *found = false;
  met_error_t scratch;
  walk_t w;
  memset(&w, 0, sizeof(w));
  w.t = out;
  w.err = err ? err : &scratch;
  met_error_init(w.err);
  if (!met_dlti_for_each_entry(module, on_entry, &w) || !w.have_device) return MET_OK;
  *found = true;
  const met_target_t *host;
  met_target_find("host-cpu", 8, &host);
  *out = *host;
  out->description = "host-cpu overridden by the module's dlti.target_device_spec";
  w.phase = BASE;
  met_dlti_for_each_entry(module, on_entry, &w);
  w.phase = OVERRIDE;
  met_dlti_for_each_entry(module, on_entry, &w);
  if (w.devices > 1 && !w.chosen_by_key && warn_len)
    snprintf(warn, warn_len,
             "dlti.target_system_spec has %zu devices and none has a \"metrale.target\" entry: "
             "metrale uses the first, \"%.*s\"", w.devices, (int)w.device.length, w.device.data);
  return w.err->code;
}



typedef struct nested_dlti_t {
  MlirOperation top;
  met_diag_fn_t diag;
  void *user;
  int count;
} nested_dlti_t;

// A nested module's own DLTI target is not applied: say so at it.
static MlirWalkResult warn_nested_dlti(MlirOperation op, void *user) {
  nested_dlti_t *n = user;
  if (met_ir_op_is(op, "func.func")) return MlirWalkResultSkip;  // no module inside a body
  if (mlirOperationEqual(op, n->top) || !met_ir_op_is(op, "builtin.module"))
    return MlirWalkResultAdvance;
  MlirAttribute a = mlirOperationGetDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString("dlti.target_system_spec"));
  if (!mlirAttributeIsNull(a) && n->count++ < 8)
    met_diag_emit(n->diag, n->user, mlirOperationGetLocation(op), MET_DIAG_WARNING,
             "this nested module's own dlti.target_system_spec is not applied: its functions "
             "are analysed on the outermost module's target");
  return MlirWalkResultAdvance;
}

met_status_t met_dlti_resolve_target(MlirOperation module, MlirStringRef name,
                                     met_target_t *storage, const met_target_t **out,
                                     met_diag_fn_t diag, void *user) {
  MlirLocation mloc = met_diag_module_loc(module);
  nested_dlti_t nd = {module, diag, user, 0};
  mlirOperationWalk(module, warn_nested_dlti, &nd, MlirWalkPreOrder);
  if (name.length) {
    met_error_t err;
    met_error_init(&err);
    if (met_target_lookup(name.data, name.length, out, &err) == MET_OK) return MET_OK;
    met_diag_emit(diag, user, mloc, MET_DIAG_ERROR, "%s", err.message);
    return err.code;
  }
  char warn[256];
  met_error_t err;
  bool found;
  if (met_dlti_target(module, storage, &found, &err, warn, sizeof(warn)) != MET_OK) {
    met_diag_emit(diag, user, mloc, MET_DIAG_ERROR, "%s", met_error_message(&err));
    return err.code;
  }
  if (warn[0]) met_diag_emit(diag, user, mloc, MET_DIAG_WARNING, "%s", warn);
  if (found) *out = storage;
  else met_target_find("host-cpu", 8, out);
  return MET_OK;
}
