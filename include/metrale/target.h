// metrale/target.h: target architectures: width policy, alignment, fast-path op set,
// fusion rules, memory size and bandwidth.
//
// Built-in targets are constant data (met_target_builtin). A target can also be built from
// a module's DLTI spec by the pass layer, starting from a built-in and overriding fields.
// Thread-safe: constant data and pure functions.
#ifndef METRALE_TARGET_H
#define METRALE_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/memory.h"
#include "metrale/opclass.h"
#include "metrale/status.h"

typedef enum met_width_policy_e {
  // Each tensor stored at its element type.
  MET_WIDTH_NATIVE = 0,
  // Every floating-point tensor narrower than 32 bits stored as f32 (WebGL/GLES-class
  // GPUs whose textures and buffers hold only 32-bit floats).
  MET_WIDTH_F32_UNIFORM = 1,
  // Storage stays native; kernels widen f16/bf16 to f32 in registers for arithmetic. The
  // widening costs no memory, so for every byte count it behaves like native.
  MET_WIDTH_HYBRID = 2,
} met_width_policy_t;

// Workspace rules, one term per kernel family, evaluated over every run of a module (the
// widest run sets each term). Rules, not measurements:
// - matmul: compute_units x matmul_per_unit_bytes when any matmul runs (split-K partials
//   and library scratch, e.g. cuBLAS's workspace);
// - conv: when conv_stages_operand, the largest operand of any conv node (an im2col or
//   layout-repacked copy of one operand);
// - softmax (the ops lib/opclass.c marks: linalg.softmax, IREE attention): compute_units x softmax_per_unit_bytes;
// - reduction: compute_units x reduction_per_unit_bytes (per-unit partial results).
typedef struct met_workspace_rules_t {
  uint64_t matmul_per_unit_bytes;
  bool conv_stages_operand;
  uint64_t softmax_per_unit_bytes;
  uint64_t reduction_per_unit_bytes;
} met_workspace_rules_t;

// How a target runs one invocation (metrale/dispatch.h).
typedef enum met_exec_model_e {
  MET_EXEC_KERNELS = 0,     // one launch per dispatch of the fusion plan
  MET_EXEC_MEGAKERNEL = 1,  // one persistent kernel runs the whole graph
} met_exec_model_t;
typedef enum met_alloc_model_e {
  MET_ALLOC_ARENA = 0,       // one allocation of the planned arena per invocation
  MET_ALLOC_PER_BUFFER = 1,  // one allocation per materialized buffer (upstream MLIR's
                             // bufferization on the CPU)
} met_alloc_model_t;

// The dispatch stats' parameters of a target. Every number's source is beside it in
// lib/target.c.
typedef struct met_dispatch_params_t {
  met_exec_model_t execution_model;
  met_alloc_model_t allocation_model;
  bool results_in_place;            // arena model: results are written into buffers the
                                    // caller keeps resident (no fresh output allocation)
  bool offload;                     // the device is not the host: ops off the fast path
                                    // are host round trips, data crosses the host link
  uint64_t host_link_bytes_per_s;   // host <-> device (offload only)
  uint64_t launch_floor_ns;         // the fixed cost of one kernel launch
  uint64_t peak_flops_f32;          // per second, at f32 (also wider floats)
  uint64_t peak_flops_f16;          // per second, at 16-bit and narrower floats
  uint64_t peak_flops_int;          // per second (ops), at integer types
  uint32_t control_bytes_per_buffer;  // per shaped argument; 0: the CPU ABI's memref
                                      // descriptor, (3 + 2 x rank) x 8 bytes
  uint32_t allocation_padding_bytes;  // per-buffer model: bytes each allocation adds
} met_dispatch_params_t;

const char *met_exec_model_name(met_exec_model_t m);    // "kernels", "megakernel"
const char *met_alloc_model_name(met_alloc_model_t m);  // "arena", "per-buffer"

// The dispatch formation a target's backend does (rules in metrale/budget.h).
typedef enum met_fusion_model_e {
  MET_FUSION_TFJS = 0,     // TensorFlow.js's WebGL backend: a shader program per op, and
                           // the converter's fused matmul/conv with bias and activation
  MET_FUSION_IREE = 2,     // the producer-consumer model with IREE's dispatch-formation
                           // rules (budget.h): only cheap producers are cloned into a
                           // root, and elementwise producers fuse into reductions
  MET_FUSION_MLIR = 1,     // upstream MLIR's CPU pipeline: linalg-fuse-elementwise-ops,
                           // destination-passing bufferization, tosa-to-linalg's kernels
} met_fusion_model_t;

// Which weight bytes stay in device memory once parameter-only subgraphs ran at load time
// (metrale/memory.h: weights_replaced, weights_leaked).
typedef enum met_residency_e {
  MET_RESIDENCY_KEEP = 0,     // the sources stay beside what was derived from them
  MET_RESIDENCY_REPLACE = 1,  // a derived copy replaces the source bytes no run reads any
                              // more (a serving engine that pre-transposes at load time
                              // keeps one copy; IREE drops globals const-eval left dead)
} met_residency_t;
const char *met_residency_name(met_residency_t r);  // "keep", "replace"

const char *met_fusion_model_name(met_fusion_model_t f);  // "tfjs-webgl", "iree", "mlir"

// IREE's dispatch-creation modes, on a target whose fusion is MET_FUSION_IREE: each is
// IREE's own default (all off) unless a module's DLTI device spec sets its "iree.*" entry
// (passes/ir/dlti.h). What each changes is in metrale/budget.h (IREE's modes).
typedef struct met_iree_modes_t {
  bool aggressive_fusion;  // "iree.aggressive_fusion": --iree-dispatch-creation-enable-
                           // aggressive-fusion (FormDispatchRegions' aggressiveFusion)
  bool fuse_pad;           // "iree.fuse_pad": --iree-dispatch-creation-enable-fuse-padding-
                           // into-linalg-consumer-ops
  bool horizontal_fusion;  // "iree.horizontal_fusion": --iree-dispatch-creation-enable-fuse-
                           // horizontal-contractions (FuseHorizontalContractionsPass)
} met_iree_modes_t;

typedef struct met_target_t {
  const char *name;
  const char *description;
  met_width_policy_t width_policy;
  uint64_t alignment;            // slot sizes are rounded up to this many bytes
  uint32_t index_bits;           // storage width of `index` elements
  bool epilogue_fusion;          // elementwise consumers fuse into matmul/conv/reduction
  bool attention_fusion;         // matmul -> softmax -> matmul is one dispatch whose scores
                                 // stay on chip (FlashAttention-style: metrale/budget.h)
  uint64_t memory_bytes;         // device memory
  uint64_t bandwidth_bytes_per_s;// DRAM bandwidth
  uint32_t compute_units;        // SMs / cores / tiles
  // NULL-terminated op-name patterns of the fast path: "tosa.add" matches exactly,
  // "linalg.conv_*" or "tosa.*" match a prefix, "*" matches every registered op.
  // Unregistered and unknown-class ops are never on the fast path.
  const char *const *fast_path;
  // Memory model parameters (metrale/memory.h).
  uint32_t default_util_ppm;     // share of device memory a deployment may use, ppm
  met_driver_terms_t driver;     // runtime context, reserved fraction, allocation chunk
  met_workspace_rules_t workspace;
  bool hoists_parameters;        // parameter-only subgraphs run once, at load time
  met_dispatch_params_t dispatch;
  bool unpacked_sub_byte;        // integers in LLVM's in-memory layout (upstream lowering):
                                 // narrower than 8 bits a byte each, not packed bits, and
                                 // wider ones at their alloc size (graph.h, Tensor bytes)
  met_fusion_model_t fusion;     // which backend's dispatch formation (metrale/budget.h)
  met_residency_t residency;     // what stays resident once parameter-only work is hoisted
  met_iree_modes_t iree;         // MET_FUSION_IREE: IREE's modes (all off in every built-in)
} met_target_t;

// The number of built-in targets, and the |i|-th (NULL past the end).
size_t met_target_builtin_count(void);
const met_target_t *met_target_builtin(size_t i);
// Finds a built-in target by name (|len| bytes of |name|). MET_ENOTFOUND if none.
met_status_t met_target_find(const char *name, size_t len, const met_target_t **out);
// met_target_find, with |err| saying "unknown target 'NAME'; the built-in targets are A,
// B, ..." when there is none (the words every command and pass give).
met_status_t met_target_lookup(const char *name, size_t len, const met_target_t **out,
                               met_error_t *err);
// True when |op_name| matches one of |target|'s fast-path patterns; a computation joined by
// '+' (met_node_extra_t.computation) when every part does.
bool met_target_is_fast(const met_target_t *target, const char *op_name);

// What a graph built for |t| must record of the IR (metrale/graph.h), by its fusion
// model: the adapter builds what this asks and decides nothing of a target itself, so a
// new target or fusion model is a change to lib/ alone.
typedef struct met_graph_facts_t {
  bool fold_splats;   // an op computing only on splat constants is a splat (Splat
                      // folding, graph.h): every model but MET_FUSION_MLIR, whose program
                      // is upstream's pipeline's own (it folds only some of these)
  bool loops;         // met_node_t.loops of compute ops: IREE's rule that no consumer
                      // with more loops than its root joins it (metrale/budget.h)
  bool axes;          // the axes the attention rule follows (met_node_axes_t): IREE
                      // targets with attention_fusion
} met_graph_facts_t;
met_graph_facts_t met_target_graph_facts(const met_target_t *t);

// Splat folding (metrale/graph.h), the rule as a target's compiler applies it: whether an
// op of |info| folds into a splat, given |splat_operands| data operands that are splat
// constants, |other_operands| that are neither a splat nor a tensor.empty init (a scalar
// or a run-time tensor: any one stops it), |results| and |body_runtime| (its payload reads
// a run-time value or the loop position). Folded: compute ops of the elementwise,
// reduction and matmul classes and uniform data movement (met_opinfo_t.uniform) with one
// splat operand at least, when |facts| fold splats. met_fold_candidate is the part that
// needs no operand (the adapter looks at operands only then).
bool met_fold_candidate(const met_graph_facts_t *facts, const met_opinfo_t *info);
bool met_fold_to_splat(const met_graph_facts_t *facts, const met_opinfo_t *info,
                       size_t splat_operands, size_t other_operands, size_t results,
                       bool body_runtime);

// "native", "f32-uniform", "hybrid".
const char *met_width_policy_name(met_width_policy_t p);
met_status_t met_width_policy_parse(const char *s, size_t len, met_width_policy_t *out);

#endif
