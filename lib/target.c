// target.c: the built-in targets (constant tables) and the fast-path matcher.
// The numbers are public figures of each class of device (memory, bandwidth, units); the
// fast-path sets state what each class runs in its tuned kernels.
#include "metrale/target.h"

#include <string.h>

#define KiB 1024ull
#define MiB (1024ull * 1024ull)
#define GiB (1024ull * 1024ull * 1024ull)
#define GBps (1000ull * 1000ull * 1000ull)

static const char *const kHostCpuFast[] = {
    "tosa.*", "linalg.*", "arith.*", "math.*", "tensor.*", "memref.*",
    "bufferization.*", "scf.*", "affine.*", "ml_program.*", NULL};

// A data-center GPU: everything that lowers to kernels; host-style loop nests (scf/affine
// over scalar loads and stores) would run serially and are off the fast path.
static const char *const kH100Fast[] = {
    "tosa.*", "linalg.*", "arith.*", "math.*", "tensor.*", "memref.*",
    "bufferization.*", "ml_program.*", NULL};

// A WebGL/mobile GPU: elementwise, matmul, conv, pooling, simple data movement and the
// common reductions as shaders; gathers, scatters and loops fall back to the CPU.
static const char *const kMobileGpuFast[] = {
    "arith.*", "math.*", "linalg.generic", "linalg.map", "linalg.fill", "linalg.matmul",
    "linalg.batch_matmul", "linalg.conv_*", "linalg.pooling_*", "linalg.transpose",
    "linalg.broadcast", "linalg.reduce", "tensor.*", "memref.*", "bufferization.*",
    "tosa.add", "tosa.sub", "tosa.mul", "tosa.maximum", "tosa.minimum", "tosa.exp",
    "tosa.rsqrt", "tosa.reciprocal", "tosa.tanh", "tosa.sigmoid", "tosa.clamp",
    "tosa.matmul", "tosa.conv2d", "tosa.depthwise_conv2d", "tosa.max_pool2d",
    "tosa.avg_pool2d", "tosa.transpose", "tosa.reduce_sum", "tosa.reduce_max",
    "tosa.cast", "tosa.slice", "tosa.concat", "tosa.pad", "tosa.identity", "tosa.negate",
    "tosa.abs", "tosa.pow", "tosa.select", "tosa.greater", "tosa.equal", NULL};

// An NPU: MAC arrays for matmul/conv/pooling plus a vector unit for simple elementwise
// arithmetic. Transcendentals, reductions, gathers and transposes go to a fallback core.
static const char *const kNpuFast[] = {
    "tosa.conv2d", "tosa.depthwise_conv2d", "tosa.matmul", "tosa.add", "tosa.sub",
    "tosa.mul", "tosa.maximum", "tosa.minimum", "tosa.clamp", "tosa.max_pool2d",
    "tosa.avg_pool2d", "tosa.rescale", "tosa.cast", "tosa.identity", "tosa.pad",
    "linalg.matmul", "linalg.batch_matmul", "linalg.quantized_matmul", "linalg.conv_*",
    "linalg.pooling_*", "linalg.fill", "linalg.generic", "linalg.broadcast", "linalg.map",
    "linalg.copy", "arith.addf", "arith.addi",
    "arith.subf", "arith.subi", "arith.mulf", "arith.muli", "arith.maximumf",
    "arith.minimumf", "arith.extf", "arith.truncf", "arith.extsi", "arith.trunci",
    "arith.sitofp", "arith.fptosi", "arith.select", "arith.cmpf", "arith.cmpi",
    "tensor.*", "memref.*", "bufferization.*", NULL};

static const met_target_t kTargets[] = {
    // host-cpu: the OS keeps 5%; 4 KiB pages; GEMM packing buffers per core.
    {"host-cpu", "x86-64 server CPU, 64-byte cache lines, native widths",
     MET_WIDTH_NATIVE, 64, 64, true, 256 * GiB, 200 * GBps, 64, kHostCpuFast,
     800000, {0, 50000, 4 * KiB}, {256 * KiB, true, 0, 4 * KiB}, true},
    // h100: a CUDA context of ~512 MiB, 2 MiB allocation granularity, split-K matmul
    // partials per SM (132 x 256 KiB = 33 MiB, the size of cuBLAS's workspace).
    {"h100", "NVIDIA H100 SXM class GPU: 80 GiB HBM3, 132 SMs, native widths",
     MET_WIDTH_NATIVE, 256, 64, true, 80 * GiB, 3350 * GBps, 132, kH100Fast,
     900000, {512 * MiB, 0, 2 * MiB}, {256 * KiB, true, 64 * KiB, 4 * KiB}, true},
    // mobile-gpu-f32: a browser lets a page use a fraction of memory; textures are
    // allocated in 64 KiB tiles; no split-K.
    {"mobile-gpu-f32", "WebGL2/GLES-class GPU that stores every float as f32",
     MET_WIDTH_F32_UNIFORM, 16, 32, false, 4 * GiB, 50 * GBps, 8, kMobileGpuFast,
     500000, {64 * MiB, 0, 64 * KiB}, {0, true, 0, 0}, true},
    // npu: a firmware reserve, 1 MiB DMA granularity, native conv (no staging).
    {"npu", "NPU-class accelerator: MAC arrays + vector unit, restricted op set",
     MET_WIDTH_HYBRID, 64, 32, true, 16 * GiB, 200 * GBps, 16, kNpuFast,
     900000, {32 * MiB, 20000, 1 * MiB}, {64 * KiB, false, 16 * KiB, 4 * KiB}, true},
};

size_t met_target_builtin_count(void) { return sizeof(kTargets) / sizeof(kTargets[0]); }

const met_target_t *met_target_builtin(size_t i) {
  return i < met_target_builtin_count() ? &kTargets[i] : NULL;
}

met_status_t met_target_find(const char *name, size_t len, const met_target_t **out) {
  *out = NULL;
  for (size_t i = 0; i < met_target_builtin_count(); ++i) {
    if (strlen(kTargets[i].name) == len && memcmp(kTargets[i].name, name, len) == 0) {
      *out = &kTargets[i];
      return MET_OK;
    }
  }
  return MET_ENOTFOUND;
}

bool met_target_is_fast(const met_target_t *target, const char *op_name) {
  for (const char *const *p = target->fast_path; p && *p; ++p) {
    size_t n = strlen(*p);
    if (n && (*p)[n - 1] == '*') {
      if (strncmp(op_name, *p, n - 1) == 0) return true;
    } else if (strcmp(op_name, *p) == 0) {
      return true;
    }
  }
  return false;
}

const char *met_width_policy_name(met_width_policy_t p) {
  switch (p) {
    case MET_WIDTH_NATIVE: return "native";
    case MET_WIDTH_F32_UNIFORM: return "f32-uniform";
    case MET_WIDTH_HYBRID: return "hybrid";
  }
  return "unknown";
}

met_status_t met_width_policy_parse(const char *s, size_t len, met_width_policy_t *out) {
  for (int p = 0; p <= 2; ++p) {
    const char *n = met_width_policy_name((met_width_policy_t)p);
    if (strlen(n) == len && memcmp(n, s, len) == 0) {
      *out = (met_width_policy_t)p;
      return MET_OK;
    }
  }
  return MET_ENOTFOUND;
}
