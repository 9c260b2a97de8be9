// target.c: the built-in targets (constant tables) and the fast-path matcher.
// The numbers are public figures of each class of device (memory, bandwidth, units); the
// fast-path sets state what each class runs in its tuned kernels.
#include "metrale/target.h"

#include <string.h>
#include <stdio.h>

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

// A WebGL/mobile GPU (TensorFlow.js's WebGL backend): elementwise, matmul, conv, pooling,
// simple data movement, the common reductions, softmax and gather (its Softmax and
// GatherV2 kernels) as shader programs; scatters and loops fall back to the CPU.
static const char *const kMobileGpuFast[] = {
    "arith.*", "math.*", "linalg.generic", "linalg.map", "linalg.fill", "linalg.matmul",
    "linalg.batch_matmul", "linalg.conv_*", "linalg.pooling_*", "linalg.transpose",
    "linalg.broadcast", "linalg.reduce", "linalg.softmax", "tensor.*", "memref.*",
    "bufferization.*",
    "tosa.add", "tosa.sub", "tosa.mul", "tosa.maximum", "tosa.minimum", "tosa.exp",
    "tosa.rsqrt", "tosa.reciprocal", "tosa.tanh", "tosa.sigmoid", "tosa.clamp",
    "tosa.matmul", "tosa.conv2d", "tosa.depthwise_conv2d", "tosa.max_pool2d",
    "tosa.avg_pool2d", "tosa.transpose", "tosa.reduce_sum", "tosa.reduce_max",
    "tosa.cast", "tosa.slice", "tosa.concat", "tosa.pad", "tosa.identity", "tosa.negate",
    "tosa.abs", "tosa.pow", "tosa.select", "tosa.greater", "tosa.equal", "tosa.gather", NULL};

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

// The H100 class, shared by h100 and h100-megakernel, each number with its source.
#define H100_CLASS                                                                        \
  .width_policy = MET_WIDTH_NATIVE,                                                        \
  .alignment = 256,          /* cudaMalloc's alignment (CUDA C Programming Guide) */       \
  .index_bits = 64,                                                                        \
  .epilogue_fusion = true,   /* cuBLASLt / CUTLASS epilogues; IREE's GPU backend */        \
  /* IREE's GPU pipeline forms iree_linalg_ext.attention from matmul-softmax-matmul and     \
     tiles it with an online softmax (FlashAttention): the scores never reach DRAM */       \
  .attention_fusion = true,                                                                \
  .memory_bytes = 80 * GiB,  /* NVIDIA H100 SXM datasheet: 80 GB HBM3 */                  \
  .bandwidth_bytes_per_s = 3350 * GBps,  /* the same datasheet: 3.35 TB/s */               \
  .compute_units = 132,      /* SMs (the same datasheet) */                                \
  .fast_path = kH100Fast,                                                                  \
  .default_util_ppm = 900000,  /* vLLM's default gpu_memory_utilization, 0.9 */            \
  /* A CUDA context of ~512 MiB (nvidia-smi on an idle H100 process); no reserve; 2 MiB    \
     allocation granularity (cuMemGetAllocationGranularity on Hopper). */                  \
  .driver = {.context_bytes = 512 * MiB, .reserved_ppm = 0, .chunk_bytes = 2 * MiB},      \
  /* Split-K matmul partials per SM: 132 x 256 KiB = 33 MiB, the size of the cuBLAS        \
     workspace NVIDIA recommends for Hopper (cuBLAS docs, cublasSetWorkspace: 32 MiB);     \
     attention partials 64 KiB and reduction partials 4 KiB per SM (assumption). */        \
  .workspace = {.matmul_per_unit_bytes = 256 * KiB, .conv_stages_operand = true,          \
                .softmax_per_unit_bytes = 64 * KiB, .reduction_per_unit_bytes = 4 * KiB},  \
  .hoists_parameters = true,                                                               \
  .unpacked_sub_byte = false,                                                              \
  .fusion = MET_FUSION_IREE,  /* dispatch formation as IREE does it (metrale/budget.h) */  \
  .residency = MET_RESIDENCY_REPLACE  /* serving engines keep one copy of each weight */

// The H100 class's host link, launch floor and peaks (the dispatch parameters after the
// execution and allocation models).
#define H100_DISPATCH                                                                     \
  .offload = true, .host_link_bytes_per_s = 64 * GBps,  /* PCIe Gen5 x16, per direction */ \
  .launch_floor_ns = 3000,  /* ~3 us from the host: CUDA launch overhead (nvbench-style    \
                               measurements) */                                            \
  /* the datasheet, dense: FP32 67 TFLOPS, BF16/FP16 tensor core 989, INT8 1979 TOPS */    \
  .peak_flops_f32 = 67 * TFLOPS, .peak_flops_f16 = 989 * TFLOPS,                           \
  .peak_flops_int = 1979 * TFLOPS,                                                         \
  .control_bytes_per_buffer = 8,  /* a device pointer per kernel argument */               \
  .allocation_padding_bytes = 0

// Every parameter with its source: a vendor document, a public measurement, or, where the
// class of device has no one figure, the assumption stated as one (override it with a DLTI
// entry, `README.md`, Targets).
static const met_target_t kTargets[] = {
    {
        .name = "host-cpu",
        .description = "x86-64 server CPU, 64-byte cache lines, native widths",
        .width_policy = MET_WIDTH_NATIVE,
        .alignment = 64,             // a cache line (Intel and AMD optimization manuals)
        .index_bits = 64,            // `index` is 64-bit on x86-64 (MLIR's data layout)
        .epilogue_fusion = true,     // IREE's CPU backend fuses elementwise consumers into
                                     // the matmul or conv dispatch that feeds them
        .memory_bytes = 256 * GiB,   // assumption: a one-socket server, 8 x 32 GiB DDR5
        .bandwidth_bytes_per_s = 200 * GBps,  // 8 channels of DDR5-4800, 8 x 38.4 =
                                              // 307 GB/s peak, ~65 % sustained (STREAM)
        .compute_units = 64,         // cores (Xeon Scalable / EPYC Genoa class)
        .fast_path = kHostCpuFast,
        .default_util_ppm = 800000,  // assumption: the serving process may use 80 % of RAM;
                                     // the OS and page cache keep the rest (util=)
        // No device runtime: no context in device memory and no driver reserve (what the OS
        // keeps is what util leaves out); allocations in 4 KiB pages.
        .driver = {.context_bytes = 0, .reserved_ppm = 0, .chunk_bytes = 4 * KiB},
        // GEMM packing buffers of an L2's size per core (BLIS's packed blocks, IREE's
        // mmt4d), an im2col copy of a conv operand, 4 KiB of reduction partials per core.
        .workspace = {.matmul_per_unit_bytes = 256 * KiB, .conv_stages_operand = true,
                      .softmax_per_unit_bytes = 0, .reduction_per_unit_bytes = 4 * KiB},
        .hoists_parameters = true,   // IREE's const-eval and global hoisting
        // A compiled CPU runtime (IREE's local-task class) runs each dispatch on a worker
        // pool, with a transient arena per invocation and fresh result buffers.
        .dispatch = {.execution_model = MET_EXEC_KERNELS, .allocation_model = MET_ALLOC_ARENA,
                     .results_in_place = false, .offload = false, .host_link_bytes_per_s = 0,
                     // a task-system dispatch, a few microseconds (IREE's local-task
                     // benchmarks)
                     .launch_floor_ns = 2000,
                     // 64 cores x 2.5 GHz x 2 AVX-512 FMA units x 16 f32 x 2 = 10.24
                     // TFLOPS; AVX512-BF16 doubles it, VNNI int8 quadruples it (Intel Xeon
                     // Scalable and AMD EPYC Genoa product briefs)
                     .peak_flops_f32 = 10240 * GFLOPS, .peak_flops_f16 = 20480 * GFLOPS,
                     .peak_flops_int = 40960 * GFLOPS,
                     .control_bytes_per_buffer = 0,  // the CPU ABI's memref descriptor
                     .allocation_padding_bytes = 0},
        .unpacked_sub_byte = false,
        .fusion = MET_FUSION_IREE,     // dispatch formation as IREE does it (metrale/budget.h)
        .residency = MET_RESIDENCY_REPLACE,  // IREE drops the globals const-eval leaves dead
    },
    {
        .name = "h100",
        .description = "NVIDIA H100 SXM class GPU: 80 GiB HBM3, 132 SMs, native widths",
        H100_CLASS,
        // One CUDA kernel per dispatch, one transient arena, results copied out.
        .dispatch = {.execution_model = MET_EXEC_KERNELS, .allocation_model = MET_ALLOC_ARENA,
                     .results_in_place = false, H100_DISPATCH},
    },
    {
        .name = "mobile-gpu-f32",
        .description = "WebGL2-class GPU running TensorFlow.js (WebGL backend), floats as f32",
        .width_policy = MET_WIDTH_F32_UNIFORM,  // float textures hold 32-bit floats only
        .alignment = 16,             // an RGBA32F texel
        .index_bits = 32,            // GLSL ES integers are 32-bit
        .epilogue_fusion = true,     // the converter's fused conv2d / depthwiseConv2d / matMul
                                     // take a bias add and an activation (tfjs-core fused_ops)
        .memory_bytes = 4 * GiB,     // assumption: the share of a phone's LPDDR a GPU gets
        .bandwidth_bytes_per_s = 50 * GBps,  // LPDDR5-6400 x64: 51.2 GB/s (Snapdragon 8
                                             // Gen 2 class)
        .compute_units = 8,          // shader cores (Adreno 7xx / Mali-G7xx class)
        .fast_path = kMobileGpuFast,
        .default_util_ppm = 500000,  // assumption: a browser grants a page about half
        // The GL context and compositor surfaces (~64 MiB, assumption); textures in
        // 64 KiB tiles.
        .driver = {.context_bytes = 64 * MiB, .reserved_ppm = 0, .chunk_bytes = 64 * KiB},
        .workspace = {.matmul_per_unit_bytes = 0, .conv_stages_operand = true,
                      .softmax_per_unit_bytes = 0, .reduction_per_unit_bytes = 0},
        .hoists_parameters = true,
        // A texture per tensor and a draw call per op; results read back with readPixels.
        .dispatch = {.execution_model = MET_EXEC_KERNELS,
                     .allocation_model = MET_ALLOC_PER_BUFFER, .results_in_place = false,
                     .offload = true,
                     .host_link_bytes_per_s = 4 * GBps,  // readPixels, a few GB/s
                     .launch_floor_ns = 20000,  // a draw call with its state changes
                     // Adreno 740 class, ~2 TFLOPS f32; every float is f32 and there is no
                     // integer path, so all three peaks are the f32 one
                     .peak_flops_f32 = 2 * TFLOPS, .peak_flops_f16 = 2 * TFLOPS,
                     .peak_flops_int = 2 * TFLOPS,
                     .control_bytes_per_buffer = 8,  // a texture handle per input
                     .allocation_padding_bytes = 0},
        .unpacked_sub_byte = false,
        .fusion = MET_FUSION_TFJS,  // a shader program per op (tfjs-backend-webgl)
        .residency = MET_RESIDENCY_KEEP,  // a WebGL runtime keeps the model's weight textures
    },
    {
        .name = "npu",
        .description = "NPU-class accelerator: MAC arrays + vector unit, restricted op set",
        .width_policy = MET_WIDTH_HYBRID,
        .alignment = 64,             // the DMA engine's burst
        .index_bits = 32,
        .epilogue_fusion = true,     // the MAC array's output stage applies bias and
                                     // activation
        .memory_bytes = 16 * GiB,    // assumption: the shared LPDDR of a laptop/phone SoC
        .bandwidth_bytes_per_s = 200 * GBps,  // assumption: the NPU's share of the SoC's
                                              // fabric (Apple M-series class)
        .compute_units = 16,         // Apple Neural Engine: 16 cores
        .fast_path = kNpuFast,
        .default_util_ppm = 900000,
        // A firmware reserve of 32 MiB and 2 % of memory the driver keeps for its
        // command queues (assumption); 1 MiB DMA granularity.
        .driver = {.context_bytes = 32 * MiB, .reserved_ppm = 20000, .chunk_bytes = 1 * MiB},
        .workspace = {.matmul_per_unit_bytes = 64 * KiB, .conv_stages_operand = false,
                      .softmax_per_unit_bytes = 16 * KiB, .reduction_per_unit_bytes = 4 * KiB},
        .hoists_parameters = true,
        // Jobs submitted to the NPU's command queue, one arena per inference, inputs and
        // outputs over DMA from shared LPDDR.
        .dispatch = {.execution_model = MET_EXEC_KERNELS, .allocation_model = MET_ALLOC_ARENA,
                     .results_in_place = false, .offload = true,
                     .host_link_bytes_per_s = 25600 * GBps / 1000,  // LPDDR5 x64 DMA path
                     .launch_floor_ns = 50000,  // a job submission, ~50 us
                     // Qualcomm Hexagon / Apple Neural Engine class, ~26-35 int8 TOPS: 26
                     // TOPS int8, half at f16, f32 emulated at 1 TFLOPS
                     .peak_flops_f32 = 1 * TFLOPS, .peak_flops_f16 = 13 * TFLOPS,
                     .peak_flops_int = 26 * TFLOPS,
                     .control_bytes_per_buffer = 8,  // a buffer handle per job argument
                     .allocation_padding_bytes = 0},
        .unpacked_sub_byte = false,
        .fusion = MET_FUSION_IREE,     // dispatch formation as IREE does it (metrale/budget.h)
        .residency = MET_RESIDENCY_REPLACE,  // the compiled blob holds the transformed weights only
    },
    {
        // The H100 class running the whole graph as one persistent kernel (the megakernel
        // designs of Hazy Research's "no bubbles" Llama kernel and Mirage's MPK): one
        // launch, every weight bound once, results written in place into buffers the host
        // keeps. Memory, fusion and peaks as h100.
        .name = "h100-megakernel",
        .description = "H100-class GPU running each graph as one persistent megakernel",
        H100_CLASS,
        .dispatch = {.execution_model = MET_EXEC_MEGAKERNEL,
                     .allocation_model = MET_ALLOC_ARENA, .results_in_place = true,
                     H100_DISPATCH},
    },
    {
        // Exactly what `metrale run` executes: upstream MLIR's CPU pipeline (rules in
        // metrale/budget.h, MET_FUSION_MLIR) on this machine's class of CPU.
        .name = "mlir-cpu",
        .description =
            "upstream MLIR's CPU pipeline as `metrale run` executes it: scalar loop nests, "
            "one thread",
        .width_policy = MET_WIDTH_NATIVE,
        .alignment = 64,             // the alignment the lowering's allocations ask for
        .index_bits = 64,
        .epilogue_fusion = false,    // linalg-fuse-elementwise-ops never fuses into named ops
        .memory_bytes = 256 * GiB,   // as host-cpu (assumption; DLTI overrides it)
        .bandwidth_bytes_per_s = 10 * GBps,  // what one core streams, ~10 GB/s
        .compute_units = 1,          // convert-linalg-to-loops: one thread
        .fast_path = kMlirCpuFast,
        .default_util_ppm = 800000,  // as host-cpu
        .driver = {.context_bytes = 0, .reserved_ppm = 0, .chunk_bytes = 4 * KiB},  // as host-cpu
        .workspace = {.matmul_per_unit_bytes = 256 * KiB, .conv_stages_operand = true,
                      .softmax_per_unit_bytes = 0, .reduction_per_unit_bytes = 4 * KiB},
        .hoists_parameters = false,  // upstream MLIR hoists no parameter-only work
        .dispatch = {.execution_model = MET_EXEC_KERNELS,
                     .allocation_model = MET_ALLOC_PER_BUFFER,  // one-shot bufferization
                     .results_in_place = false, .offload = false, .host_link_bytes_per_s = 0,
                     .launch_floor_ns = 0,   // a loop nest is a call
                     // scalar loops on one core, ~1 flop per cycle at ~3 GHz
                     .peak_flops_f32 = 3 * GFLOPS, .peak_flops_f16 = 3 * GFLOPS,
                     .peak_flops_int = 3 * GFLOPS, .control_bytes_per_buffer = 0,
                     // _mlir_memref_to_llvm_alloc requests are padded by the 64 B the
                     // lowering aligns by hand (measured: a 16 B tensor asks for 80 B)
                     .allocation_padding_bytes = 64},
        .unpacked_sub_byte = true,   // LLVM stores i1..i7 a byte each
        .fusion = MET_FUSION_MLIR,
        .residency = MET_RESIDENCY_KEEP,  // nothing is hoisted
    },
};

const char *met_exec_model_name(met_exec_model_t m) {
  return m == MET_EXEC_MEGAKERNEL ? "megakernel" : "kernels";
}

const char *met_fusion_model_name(met_fusion_model_t f) {
  return f == MET_FUSION_MLIR ? "mlir" : f == MET_FUSION_IREE ? "iree" : "tfjs-webgl";
}

const char *met_residency_name(met_residency_t r) {
  return r == MET_RESIDENCY_REPLACE ? "replace" : "keep";
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

met_status_t met_target_lookup(const char *name, size_t len, const met_target_t **out,
                               met_error_t *err) {
  if (met_target_find(name, len, out) == MET_OK) return MET_OK;
  char names[256];
  size_t used = 0;
  names[0] = '\0';
  for (size_t i = 0; i < met_target_builtin_count(); ++i) {
    int n = snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", kTargets[i].name);
    if (n < 0 || (size_t)n >= sizeof names - used) break;
    used += (size_t)n;
  }
  return met_error_set(err, MET_ENOTFOUND, "unknown target '%.*s'; the built-in targets are %s",
                       (int)(len > 1024 ? 1024 : len), name, names);
}

// One name (|len| bytes of |name|) against the patterns.
static bool fast_one(const met_target_t *target, const char *name, size_t len) {
  for (const char *const *p = target->fast_path; p && *p; ++p) {
    size_t n = strlen(*p);
    if (n && (*p)[n - 1] == '*') {
      if (len >= n - 1 && strncmp(name, *p, n - 1) == 0) return true;
    } else if (n == len && strncmp(name, *p, n) == 0) {
      return true;
    }
  }
  return false;
}

bool met_target_is_fast(const met_target_t *target, const char *op_name) {
  // A computation "a+b+c" (met_node_extra_t.computation) is fast when every part is.
  for (const char *s = op_name;;) {
    const char *e = strchr(s, '+');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    if (!fast_one(target, s, len)) return false;
    if (!e) return true;
    s = e + 1;
  }
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

met_graph_facts_t met_target_graph_facts(const met_target_t *t) {
  met_graph_facts_t f;
  f.fold_splats = t->fusion != MET_FUSION_MLIR;
  f.loops = t->fusion == MET_FUSION_IREE;
  f.axes = t->fusion == MET_FUSION_IREE && t->attention_fusion;
  return f;
}

bool met_fold_candidate(const met_graph_facts_t *facts, const met_opinfo_t *info) {
  if (!facts->fold_splats || info->kind != MET_NODE_COMPUTE) return false;
  switch ((met_op_class_t)info->op_class) {
    case MET_CLASS_ELEMENTWISE: case MET_CLASS_REDUCTION: case MET_CLASS_MATMUL: return true;
    case MET_CLASS_DATA_MOVEMENT: return info->uniform;
    default: return false;  // pads, concats, inserts, scatters, convolutions mix values
  }
}

bool met_fold_to_splat(const met_graph_facts_t *facts, const met_opinfo_t *info,
                       size_t splat_operands, size_t other_operands, size_t results,
                       bool body_runtime) {
  return met_fold_candidate(facts, info) && splat_operands > 0 && other_operands == 0 &&
         results > 0 && !body_runtime;
}
