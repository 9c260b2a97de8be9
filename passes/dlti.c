// dlti.c: interpret the module's DLTI device spec as a metrale target (see dlti.h).
#include "dlti.h"

#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"

typedef struct collect_t {
  MlirStringRef device;     // the chosen device (first with metrale.target, else first)
  bool have_device, chosen_by_key;
  int pass;                 // 0: choose the device; 1: apply its entries
  met_target_t *t;
  char *why; size_t why_len;
  bool bad;
} collect_t;

static bool key_is(MlirStringRef k, const char *s) {
  return k.length == strlen(s) && memcmp(k.data, s, k.length) == 0;
}

static bool same(MlirStringRef a, MlirStringRef b) {
  return a.length == b.length && memcmp(a.data, b.data, a.length) == 0;
}

static void fail(collect_t *c, MlirStringRef key, const char *what) {
  if (c->bad) return;
  c->bad = true;
  snprintf(c->why, c->why_len, "dlti.target_device_spec entry \"%.*s\" %s", (int)key.length,
           key.data, what);
}

static void on_entry(void *user, MlirStringRef device, MlirStringRef key, MlirAttribute v) {
  collect_t *c = user;
  if (c->pass == 0) {
    if (!c->have_device) { c->device = device; c->have_device = true; }
    if (key_is(key, "metrale.target") && !c->chosen_by_key) {
      c->device = device;
      c->chosen_by_key = true;
    }
    return;
  }
  if (!same(device, c->device)) return;
  met_target_t *t = c->t;
  if (key_is(key, "metrale.target")) {
    if (!mlirAttributeIsAString(v)) { fail(c, key, "must be a string"); return; }
    MlirStringRef n = mlirStringAttrGetValue(v);
    const met_target_t *base;
    if (met_target_find(n.data, n.length, &base)) { fail(c, key, "names no built-in target"); return; }
    // The base's fields, keeping overrides already applied is not needed: the base entry
    // is applied first (pass 1 visits it first, see met_dlti_target).
    *t = *base;
    t->description = "built-in target overridden by the module's dlti.target_device_spec";
    return;
  }
  uint64_t *u64 = NULL;
  uint32_t *u32 = NULL;
  if (key_is(key, "alignment")) u64 = &t->alignment;
  else if (key_is(key, "memory_bytes")) u64 = &t->memory_bytes;
  else if (key_is(key, "bandwidth_bytes_per_s")) u64 = &t->bandwidth_bytes_per_s;
  else if (key_is(key, "index_bits")) u32 = &t->index_bits;
  else if (key_is(key, "compute_units")) u32 = &t->compute_units;
  if (u64 || u32) {
    if (!mlirAttributeIsAInteger(v)) { fail(c, key, "must be an integer"); return; }
    int64_t x = mlirIntegerAttrGetValueInt(v);
    if (x <= 0 || (u32 && x > UINT32_MAX)) { fail(c, key, "must be a positive integer"); return; }
    if (u64) *u64 = (uint64_t)x; else *u32 = (uint32_t)x;
  } else if (key_is(key, "width_policy")) {
    if (!mlirAttributeIsAString(v)) { fail(c, key, "must be a string"); return; }
    MlirStringRef s = mlirStringAttrGetValue(v);
    if (met_width_policy_parse(s.data, s.length, &t->width_policy))
      fail(c, key, "must be \"native\", \"f32-uniform\" or \"hybrid\"");
  } else if (key_is(key, "epilogue_fusion")) {
    if (!mlirAttributeIsABool(v)) { fail(c, key, "must be a bool"); return; }
    t->epilogue_fusion = mlirBoolAttrGetValue(v);
  }
}

// Applies the metrale.target entry before the others so overrides win over the base.
typedef struct base_t { collect_t *c; } base_t;
static void on_base(void *user, MlirStringRef device, MlirStringRef key, MlirAttribute v) {
  collect_t *c = ((base_t *)user)->c;
  if (same(device, c->device) && key_is(key, "metrale.target")) on_entry(c, device, key, v);
}
static void on_rest(void *user, MlirStringRef device, MlirStringRef key, MlirAttribute v) {
  if (key_is(key, "metrale.target")) return;
  on_entry(user, device, key, v);
}

int met_dlti_target(MlirOperation module, met_target_t *out, char *why, size_t why_len) {
  collect_t c;
  memset(&c, 0, sizeof(c));
  c.t = out;
  c.why = why;
  c.why_len = why_len;
  if (!met_dlti_for_each_entry(module, on_entry, &c) || !c.have_device) return 0;
  const met_target_t *host;
  met_target_find("host-cpu", 8, &host);
  *out = *host;
  out->description = "host-cpu overridden by the module's dlti.target_device_spec";
  c.pass = 1;
  base_t b = {&c};
  met_dlti_for_each_entry(module, on_base, &b);
  met_dlti_for_each_entry(module, on_rest, &c);
  return c.bad ? -1 : 1;
}
