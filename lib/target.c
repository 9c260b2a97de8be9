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

// Every built-in target runs what upstream MLIR lowers for the CPU: the pipeline of
// `metrale run` (convert-linalg-to-loops and the LLVM dialect) accepts these dialects.
static const char *const kMlirCpuFast[] = {
    "tosa.*", "linalg.*", "arith.*", "math.*", "tensor.*", "memref.*",
    "bufferization.*", "scf.*", "affine.*", NULL};

#define TFLOPS (1000ull * 1000ull * 1000ull * 1000ull)
#define GFLOPS (1000ull * 1000ull * 1000ull)

static const met_target_t kTargets[] = {
    // host-cpu: the OS keeps 5%; 4 KiB pages; GEMM packing buffers per core.
    // Dispatch: a compiled CPU runtime (IREE's local-task class) runs each dispatch on a
    // worker pool, with a transient arena per invocation and fresh result buffers.
    // Peaks: 64 cores x 2.5 GHz x 2 AVX-512 FMA units (2 x 16 f32 x 2 flops = 64/cycle)
    // = 10.24 TFLOPS f32; AVX512-BF16 doubles it, VNNI int8 quadruples it (Intel Xeon
    // Scalable / AMD EPYC Genoa product briefs). Launch floor: a task-system dispatch of
    // a few microseconds (IREE's local-task benchmarks); 2 us.
    {"host-cpu", "x86-64 server CPU, 64-byte cache lines, native widths",
     MET_WIDTH_NATIVE, 64, 64, true, 256 * GiB, 200 * GBps, 64, kHostCpuFast,
     800000, {0, 50000, 4 * KiB}, {256 * KiB, true, 0, 4 * KiB}, true,
     {MET_EXEC_KERNELS, MET_ALLOC_ARENA, false, false, 0, 2000,
      10240 * GFLOPS, 20480 * GFLOPS, 40960 * GFLOPS, 0, 0}, false, MET_FUSION_METRALE},
    // h100: a CUDA context of ~512 MiB, 2 MiB allocation granularity, split-K matmul
    // partials per SM (132 x 256 KiB = 33 MiB, the size of cuBLAS's workspace).
    // Dispatch: one CUDA kernel per dispatch, one transient arena, results copied out.
    // Peaks (NVIDIA H100 SXM datasheet, dense): FP32 67 TFLOPS, FP16/BF16 tensor core
    // 989 TFLOPS, INT8 tensor core 1979 TOPS. Host link: PCIe Gen5 x16, 64 GB/s per
    // direction. Launch floor: ~3 us from the host (CUDA launch overhead, as measured
    // by NVIDIA's nvbench-style microbenchmarks). Kernel arguments: an 8-byte device
    // pointer per buffer.
    {"h100", "NVIDIA H100 SXM class GPU: 80 GiB HBM3, 132 SMs, native widths",
     MET_WIDTH_NATIVE, 256, 64, true, 80 * GiB, 3350 * GBps, 132, kH100Fast,
     900000, {512 * MiB, 0, 2 * MiB}, {256 * KiB, true, 64 * KiB, 4 * KiB}, true,
     {MET_EXEC_KERNELS, MET_ALLOC_ARENA, false, true, 64 * GBps, 3000,
      67 * TFLOPS, 989 * TFLOPS, 1979 * TFLOPS, 8, 0}, false, MET_FUSION_METRALE},
    // mobile-gpu-f32: a browser lets a page use a fraction of memory; textures are
    // allocated in 64 KiB tiles; no split-K.
    // Dispatch: a WebGL backend (TensorFlow.js class) makes a texture per tensor and a
    // draw call per op; results are read back with readPixels. Peaks: a flagship mobile
    // GPU (Adreno 740 class) ~2 TFLOPS f32; every float is f32 and there is no int
    // path, so all three peaks are the f32 one. Host link: readPixels throughput of a
    // few GB/s; 4 GB/s. Launch floor: a draw call with its state changes, ~20 us.
    {"mobile-gpu-f32", "WebGL2/GLES-class GPU that stores every float as f32",
     MET_WIDTH_F32_UNIFORM, 16, 32, false, 4 * GiB, 50 * GBps, 8, kMobileGpuFast,
     500000, {64 * MiB, 0, 64 * KiB}, {0, true, 0, 0}, true,
     {MET_EXEC_KERNELS, MET_ALLOC_PER_BUFFER, false, true, 4 * GBps, 20000,
      2 * TFLOPS, 2 * TFLOPS, 2 * TFLOPS, 8, 0}, false, MET_FUSION_METRALE},
    // npu: a firmware reserve, 1 MiB DMA granularity, native conv (no staging).
    // Dispatch: jobs submitted to the NPU's command queue, one arena per inference,
    // inputs and outputs over DMA from shared LPDDR. Peaks: a phone/laptop NPU class
    // (Qualcomm Hexagon / Apple Neural Engine, ~26-35 int8 TOPS): 26 TOPS int8, half at
    // f16, f32 emulated at 1 TFLOPS. Host link: the DMA path, 25.6 GB/s (LPDDR5 x64).
    // Launch floor: a job submission, ~50 us.
    {"npu", "NPU-class accelerator: MAC arrays + vector unit, restricted op set",
     MET_WIDTH_HYBRID, 64, 32, true, 16 * GiB, 200 * GBps, 16, kNpuFast,
     900000, {32 * MiB, 20000, 1 * MiB}, {64 * KiB, false, 16 * KiB, 4 * KiB}, true,
     {MET_EXEC_KERNELS, MET_ALLOC_ARENA, false, true, 25600 * GBps / 1000, 50000,
      1 * TFLOPS, 13 * TFLOPS, 26 * TFLOPS, 8, 0}, false, MET_FUSION_METRALE},
    // h100-megakernel: the H100 class running the whole graph as one persistent kernel
    // (the megakernel designs of Hazy Research's "no bubbles" Llama kernel and Mirage's
    // MPK): one launch, every weight bound once, results written in place into buffers
    // the host keeps. Memory and fusion as h100.
    {"h100-megakernel", "H100-class GPU running each graph as one persistent megakernel",
     MET_WIDTH_NATIVE, 256, 64, true, 80 * GiB, 3350 * GBps, 132, kH100Fast,
     900000, {512 * MiB, 0, 2 * MiB}, {256 * KiB, true, 64 * KiB, 4 * KiB}, true,
     {MET_EXEC_MEGAKERNEL, MET_ALLOC_ARENA, true, true, 64 * GBps, 3000,
      67 * TFLOPS, 989 * TFLOPS, 1979 * TFLOPS, 8, 0}, false, MET_FUSION_METRALE},
    // mlir-cpu: exactly what `metrale run` executes: upstream MLIR's CPU pipeline
    // (tosa-to-linalg, linalg-fuse-elementwise-ops: elementwise producers fuse into
    // their consumers, never into named ops such as matmul, so no epilogue fusion;
    // one-shot bufferization: a buffer per materialized tensor; convert-linalg-to-loops:
    // scalar loop nests on one thread) on this machine's class of CPU.
    // Allocation: per buffer through _mlir_memref_to_llvm_alloc, each request padded by
    // the 64-byte alignment the lowering aligns by hand (measured: a 16-byte tensor asks
    // for 80 bytes). Peaks: scalar loops on one core, ~1 flop per cycle at ~3 GHz;
    // bandwidth one core streams, ~10 GB/s. Launch floor: a loop nest is a call, 0.
    // Memory model as host-cpu, except that upstream MLIR does not hoist parameter-only
    // work to load time.
    {"mlir-cpu", "upstream MLIR's CPU pipeline as `metrale run` executes it: scalar loop nests, one thread",
     MET_WIDTH_NATIVE, 64, 64, false, 256 * GiB, 10 * GBps, 1, kMlirCpuFast,
     800000, {0, 50000, 4 * KiB}, {256 * KiB, true, 0, 4 * KiB}, false,
     {MET_EXEC_KERNELS, MET_ALLOC_PER_BUFFER, false, false, 0, 0,
      3 * GFLOPS, 3 * GFLOPS, 3 * GFLOPS, 0, 64}, true, MET_FUSION_MLIR},
};

const char *met_exec_model_name(met_exec_model_t m) {
  return m == MET_EXEC_MEGAKERNEL ? "megakernel" : "kernels";
}

const char *met_alloc_model_name(met_alloc_model_t m) {
  return m == MET_ALLOC_PER_BUFFER ? "per-buffer" : "arena";
}

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
