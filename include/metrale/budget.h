// metrale/budget.h: the Budget of one run of one graph on one target.
//
// met_budget_analyze runs the fusion model and the planner over a met_graph_t and fills a
// met_budget_report_t. Every report of metrale (attribute, remarks, JSON, CLI table) reads
// these numbers; nothing else computes them. Thread-safe: all state lives in the arguments.
//
// Fusion plan (the dispatch model). Each target names the backend whose dispatch
// formation it follows (met_fusion_model_t); each rule below names what it models.
//
// The walk of MET_FUSION_TFJS and MET_FUSION_IREE. Compute nodes are visited in program
// order. A node joins the group of one of its producers when
//   (a) the model's rules (below) allow it, and
//   (b) the group has no other open use: every use of every result of every member is by
//       this node (so a group always has one exit, and the dispatch graph stays acyclic).
// The first producer (in operand order) that qualifies wins. Then every generator group
// whose open uses are all by this node is merged into the node's group (a backend
// clones a bias broadcast into its consumer). A generator group is made of elementwise
// ops that read only leaves (arguments, constants, tensor.empty): it has no input from
// another dispatch, so merging it adds no cycle. Matmul, conv, reduction, data movement,
// loops, unknown ops and ops off the target's fast path start groups; off-fast-path and
// unknown ops never take another node in.
//
// MET_FUSION_TFJS (mobile-gpu-f32) is TensorFlow.js's WebGL backend (tfjs-backend-webgl):
// one shader program, a draw call, per op; nothing fuses when the model runs. What is one
// op is what the converter made one (tfjs-converter, through Grappler's remapper:
// _FusedConv2D, _FusedMatMul): tfjs-core's fused.conv2d, fused.depthwiseConv2d and
// fused.matMul take a bias add and one activation ('relu', 'relu6', 'prelu', 'leakyrelu',
// 'elu', 'sigmoid'). So:
//   - a linalg.fill is no program: a TF.js op allocates its result and has no accumulator
//     to initialize; it is cloned into every reader, as on MET_FUSION_IREE below;
//   - a generator is only a broadcast of leaves: its elementwise reader broadcasts the
//     operand itself (TF.js's binary ops broadcast implicitly), and takes it in;
//   - a matmul or a conv (not a pooling window) whose result has exactly one reader takes
//     in that reader when it is a bias add, then likewise one activation (the spellings
//     of lib/fusion.c's kTfjsActivation: max/clamp, the sigmoid's, select-based
//     leaky/elu), in that order, at most one of each, when the target's epilogue_fusion
//     is set. Its other operands must be the model's weights (constants, parameters,
//     load-time results, splats, fills), or a broadcast of leaves read only there: an add
//     of a run's own input (a residual argument) is a program of its own;
//   - every other compute node is a program of its own: elementwise chains, casts,
//     transposes and reductions do not fuse, so a fan-out splits nothing; a softmax is
//     five (the Softmax kernel's max, sub, exp, sum and div: group_launches), whose DRAM
//     is six times its input's bytes beyond one pass (x read again, x - max written and
//     read, its exp written and read twice), without the row vectors of max and sum.
//   Not modelled: the converter's other rewrites (batch-norm folded into conv weights),
//   and WebGL's packed textures (a layout, not a dispatch).
//
// MET_FUSION_IREE (host-cpu, h100, h100-megakernel, npu) is IREE's dispatch formation
// (FormDispatchRegions.cpp and the elementwise fusion before it, as read in
// docs/iree-dispatch-formation.md). On the walk:
//   - an elementwise node joins an elementwise group, or a group anchored by a matmul, conv
//     or reduction (fuseRootsWithConsumers) when the target's epilogue_fusion is set; any
//     node joins a generator group;
//   - a linalg.fill is cloned into every dispatch that reads it (isClonableIntoDispatchOp),
//     however many: it is no dispatch, its result is never in memory and reading it costs
//     nothing (the dispatch fills its own buffer), when every reader is a compute node on
//     the fast path and the fill is not returned;
//   - a root (matmul, conv) takes in a producer only when IREE would clone it into the
//     dispatch (isClonableIntoDispatchOp): fills, widening casts and bit-extend generics
//     (isBitExtendOp, metrale/graph.h MET_NODE_F_BIT_EXTEND: narrow weights widened with
//     their scales and zero points, so int8/int4 weights are read as stored and never
//     widened in memory). Such a widening is no consumer of a root either
//     (isFusableWithConsumer's first rule): it is cloned into each of its readers'
//     dispatches, which read the root's narrow result; here it joins an elementwise
//     reader's dispatch (the same thing), a root that reads it takes it in, and one read
//     by nothing that runs a kernel (the return) is a dispatch of its own. Any other producer of a root's input, a transpose or a broadcast
//     of an input for one, is a dispatch of its own (default mode fuses producers only
//     through the init: fills, and a detached init's elementwise ops, the next rule);
//   - a contraction or convolution (a matmul, batch_matmul, conv) whose init is the result
//     of an elementwise op - a bias's broadcast, a residual's add, a generic that yields a
//     constant - takes that op's group into its dispatch, on targets with epilogue_fusion:
//     DetachElementwiseFromNamedOps (GlobalOptimization) gives the root a zero-filled init
//     and adds the old init to its result after it, ElementwiseOpFusion then folds the
//     init's producer into that add, and the add, the root's one consumer, joins the root
//     (so the broadcast bias is read, never materialized). The pattern's preconditions
//     are kept: the init is that op's result itself (a reshape between is no linalg op:
//     not detached), of a group of elementwise ops alone (another root's result is a
//     dispatch of its own), whose one open use is this init (returned or read elsewhere,
//     or read by the root through another operand too, the add is not its one reader);
//     a fill is cloned as above. Only the ops' maps are not compared (named contractions
//     and convs write their result by a projected permutation, as the pattern requires);
//   - an elementwise group whose open uses are all by a reduction fuses into it (IREE's
//     ElementwiseOpFusion merges elementwise producers into reduction generics before
//     forming dispatches), and the reduction is then the group's root;
//   - consumer fusion is as above: single-use elementwise consumers join a root
//     (fuseRootsWithConsumers), and transposes fuse like elementwise ops (permutation
//     maps are allowed);
//   - an elementwise group with other uses fuses into the first elementwise node that
//     reads it, which dominates the others in a block (FuseMultiUseElementwiseProducer);
//     its result stays a result of the dispatch for the later readers;
//   - a diamond on a root's epilogue (GELU's or SiLU's: the bias-added matmul or conv
//     result read by two elementwise ops that meet again), on targets with
//     epilogue_fusion: ElementwiseOpFusion merges every single-use elementwise producer
//     into its consumer (areFusableAsElementwiseOps), so the diamond becomes one op that
//     is the root group's one consumer, and it joins the root's dispatch. The rule: an
//     elementwise node that reads a matmul's or conv's group (pooling counts as a conv)
//     joins it when every value it reads from the group is read by elementwise nodes
//     only and its one reader is not a reduction (that takes it in instead, the rule
//     above); the group's inner values then stay in the dispatch (no slot, no traffic).
//     Not checked: that the readers meet again. Two elementwise readers of a root's
//     result that never do (an add and an exp, each returned) join it here, where IREE
//     keeps all three apart (the root has two uses); requiring the meeting moved
//     ResNet-18's transposes and is left for a rule that follows them;
//   - an mmt4d (linalg.mmt4d, linalg.batch_mmt4d) takes no consumer (FormDispatchRegions,
//     #16025: its backends cannot configure a fused one);
//   - a pack (linalg.pack, tensor.pack) joins the dispatch of the value it packs when the
//     pack is that dispatch's one open use, and nothing joins after it; an unpack takes
//     elementwise consumers with as many loops as it has (the pack and unpack rules of
//     isFusableWithConsumer). Not compared: the packed producer's result map (IREE wants
//     it the identity: a transpose that writes permuted is packed apart), and the dims a
//     reduction after an unpack reduces (none joins here; IREE takes one that reduces no
//     packed dim);
//   - a tensor.insert_slice into a linalg.fill's result joins the dispatch that computed
//     its source when that is the source's one use (insert slices are fused with their
//     producers into a fill destination, a pad's generalization); the fill is cloned;
//   - a linalg.fill of a tensor.empty that no kernel reads (returned) is a
//     flow.tensor.splat (ConvertTensorToFlow): a transfer that writes its buffer (its
//     bytes are written, its slot kept), no dispatch;
//   - loop counts (met_node_t.loops: non-unit loops, as after FoldUnitExtentDims): a
//     consumer with more loops than its root (a broadcast to a higher rank) does not join
//     it (isFusableWithConsumer; its other rule, no more loops than the op it reads, meets
//     the root itself once ElementwiseOpFusion merged the elementwise ops between); the
//     first reader of a multi-use producer joins only with as many loops as it. A
//     consumer that reads the group through a reshape view (a view with every byte of
//     what it views; a slice is compared) is not: IREE propagates the reshape into the
//     group (BubbleUpExpandShapes).
//   - attention, on targets with attention_fusion (the h100 family: IREE's GPU pipeline
//     forms iree_linalg_ext.attention and tiles it with an online softmax,
//     FlashAttention-style): a matmul (Q.K^T), then ops each the one reader of the value
//     before it - elementwise ops (the scale, a mask add, casts), a linalg.softmax, ops
//     that change the probabilities' type or layout but not their values (casts,
//     transposes, copies: an online softmax normalizes once, at the end, so P + c, exp(P),
//     a mask or even a constant scale after the softmax are no attention) - and the
//     matmul that reads the probabilities (P.V) are one dispatch, when what an online
//     softmax computes is what the graph says. Each op of the chain reads the value before
//     it through one operand, element for element (S + S^T in one generic, or a row of S
//     broadcast by its map, is no attention). The dim each op reduces or keeps is followed through the ops' indexing maps
//     and the views between (met_node_axes_t, metrale/graph.h; a reshape keeps a dim that
//     is alone in its group, other views keep dims in place or say nothing): the softmax's
//     dim must be a loop of Q.K^T that indexes exactly one of its inputs (the keys' rows,
//     or the queries' with the roles swapped: never a batch or head dim both index), and
//     the loop P.V contracts with its other input. So a softmax over the query axis, P^T.V,
//     a transpose of P between, or a batch dim fail, and each stays its own dispatches;
//     a transpose between that P.V reads back transposed, a transposed V, reshapes that
//     keep the dims, a scale, casts and a mask pass (IREE folds transposes into the
//     attention op's indexing maps). Along the way to Q.K^T an elementwise op takes the
//     scores through the operand that leads back to it; its other operands are inputs of
//     the attention: an argument or a constant (a mask, a scale) is read by its dispatch,
//     and a mask the graph computes from those by elementwise ops read by nothing else
//     joins it too (ElementwiseOpFusion merges them into the mask add before the attention
//     forms), while one that another root makes, or that other ops also read (a causal
//     mask shared by the layers), is a dispatch of its own whose result the attention
//     reads (iree_linalg_ext.attention takes no producers; its mask is an operand). The
//     scores and probabilities never reach DRAM: no slot, no traffic (the tiles live in
//     on-chip memory; the memory model's softmax workspace term counts the per-unit
//     partials). A softmax spelled as its reductions and exps (TOSA), IREE's own attention
//     ops (already one op: their neighbours stay apart), and a matmul whose maps metrale
//     cannot read (more than 4 operands, 8 dims or 32 loops) are not recognized; CPU
//     targets (IREE's CPU backend materializes the scores) and TF.js, which has no fused
//     attention kernel, keep the rules above.
//   Not carried over: the conv rule (a consumer that changes a named conv's accumulator
//   type does not join: it tests ConvolutionOpInterface, which newer IREE never meets
//   because GeneralizeLinalgNamedOps generalizes convs first), slices as transfers or
//   copies by their geometry (the graph records no offsets: an extract_slice is a view,
//   never IREE's copy of a strided or scattered one, and an insert_slice a copy, never
//   IREE's flow.tensor.update of a contiguous one), and the limit of 32 operands on a
//   merged elementwise op. The conv rule and the operand limit make this model fuse more
//   than IREE where they apply; the slices count either way. Checked against IREE's own
//   dispatch-formation lit cases: test/IREE/dispatch_formation.test.
//   IREE's modes (metrale/target.h, met_iree_modes_t; "iree.*" entries of a module's DLTI
//   device spec), each off unless set, as in IREE (DispatchCreation/Passes.cpp):
//   - iree.fuse_pad (--iree-dispatch-creation-enable-fuse-padding-into-linalg-consumer-ops:
//     FormDispatchRegions' fusePadWithConsumers, and TensorPadToTensorInsertSlice leaves
//     such pads alone): a tensor.pad or tosa.pad whose result (not a view of it) has one
//     use, an operand of a convolution or pooling (ConvolutionOpInterface: MET_CLASS_CONV),
//     joins that op's dispatch: the padded tensor is never in memory, the dispatch reads
//     the pad's source. Off, a pad is a dispatch of its own (its copy into the fill IREE
//     makes of it). A TOSA convolution's own padding attribute is read inside the conv
//     either way (the graph has no node for it): there this model fuses as with the mode.
//   - iree.horizontal_fusion (--iree-dispatch-creation-enable-fuse-horizontal-contractions:
//     FuseHorizontalContractionsPass, fusion-limit 3): contractions (MET_CLASS_MATMUL) that
//     read one value as their first operand, each on a zero fill (MET_NODE_F_ZERO_FILL) of
//     a tensor.empty (or a tosa.matmul, which IREE gives such an init), of one op, with
//     operands 0 and 1 and the result of one type each (and for a generic one computation),
//     none reading another's result even through other ops (isHorizontalToGroup), the
//     first in program order with up to two later ones, are one op: one dispatch, the
//     shared operand read once. When the first's result has one reader, a narrowing
//     elementwise cast (isBitTruncateOp), a later one joins only with an equal truncation,
//     and the truncations are part of the op. Types are compared as the graph has them:
//     widths, rank and float-ness (bf16 and f16, both 2 bytes, compare equal). The op's results are slices of one tensor:
//     no consumer joins its dispatch, and each lives until the last of them is read.
//   - iree.aggressive_fusion (--iree-dispatch-creation-enable-aggressive-fusion:
//     FormDispatchRegions' aggressiveFusion): a consumer with more loops than its root
//     joins it (the rule above is dropped), and a root whose result has several readers
//     fuses with the first of them (getFusableUse: the use that dominates the others; an
//     elementwise op that no outside node read the group before), the result still
//     written for the others. Not modelled: its producer fusion through a root's inputs,
//     which IREE allows only where the input's map is the identity on the root's outer
//     parallel loops (never a contraction's or a convolution's inputs).
//   - iree.split_reduction: IREE's split of a matmul's reduction
//     (--iree-dispatch-creation-split-matmul-reduction=N) is not modelled: only its default
//     (false, or 1: no split) is taken, any other value is an error at the module.
//
// A target whose fusion is MET_FUSION_MLIR (mlir-cpu) is upstream MLIR's CPU pipeline as
// `metrale run` executes it. Its graph is the program that pipeline makes, not a model of
// it: the passes clone the module, run the pipeline's stage A on the clone in process
// (passes/ir/bufferize.h: ml_program globals to memref.global, softmax decomposed,
// elementwise ops to linalg, linalg-fuse-elementwise-ops, one-shot bufferization with
// ownership-based deallocation), and the adapter walks the bufferized functions of the
// user's module. Each kernel of that program is a dispatch: a linalg op, a memref.copy,
// a loop nest that holds neither and reads or writes a buffer; a branch, a call and a
// loop that holds kernels are control flow (metrale/graph.h: Scratch). Its buffers are
// the program's memref.alloc ops (no alignment attribute: no padding), its weights the
// memref.globals and arguments its kernels read, and a kernel's buffer operands count as
// it reads or writes them (met_access_t). test/Diff/differential.test checks the counts
// against runs of generated models; nothing is fitted. When the pipeline refuses a module
// (a pass fails: an op it cannot bufferize), a warning says so at the module and the
// rules below, metrale's model of that pipeline on the tensor graph, count it instead,
// rule by rule (test/Run/fusion-mlir*.test):
//   - Every compute node is a kernel, except a linalg.fill whose every use is an input of
//     a linalg.generic (FoldFillWithGenericOp folds it into their bodies: a scalar, so its
//     readers read no bytes of it).
//   - A node that is or lowers to a linalg.generic (MET_NODE_F_GENERIC) takes in each
//     all-parallel generic producer group whose every open use is one of its inputs, not
//     its init (linalg-fuse-elementwise-ops with its default control: the producer has one
//     use once canonicalize merged duplicate inputs). Named ops (matmul, conv, pooling,
//     fill, broadcast, transpose, map) neither join nor take in, except:
//   - reshape propagation: a matmul-class node that reads a collapse (a view with fewer
//     dims and the same bytes) of an elementwise group used only there, or that group's
//     result directly when the group read a collapse nothing else reads, becomes a generic
//     and takes the group in (FoldWithProducerReshapeOpByExpansion).
//   - The kernels the lowering adds (met_node_extra_t.lowering_kernels: accumulator fills
//     and bias broadcasts of TOSA ops, padded copies, concat copies, softmax's
//     decomposition) and one memref.copy per destination-passing node whose init is a
//     constant count as dispatches too; their temporary buffers join the node's scratch.
//   - Bufferization: a destination-passing node (MET_NODE_F_DPS_INIT) writes its result in
//     place into its init's buffer when another kernel computed the init for it alone (a
//     fill, a broadcast), or when the init is a tensor.empty that earlier nodes wrote into
//     and nothing in that buffer is used later. The result then has no slot of its own;
//     the buffer's slot lives from its first write to the last use of what it holds.
//   - A splat constant (MET_ROLE_SPLAT) read as a linalg.generic's input is folded into
//     its body as a scalar (FoldScalarOrSplatConstant): no bytes read. Read any other way
//     (a named op's operand, an init) it is a global, read like any constant (its bytes
//     count in param_bytes and DRAM, and a init is copied first).
//   - A tensor.empty read as an input, not an init (a pooling window written in linalg),
//     is allocated: one slot from the tensor.empty to its last use.
//
// Load time. A parameter-only node has every operand a weight, a splat, a tensor.empty or
// the result of another parameter-only node (at least one a weight or such a result), and
// results no larger than those operands (a broadcast or fill that expands a weight is
// recomputed where it is used: compilers that hoist constant expressions decline to
// expand data). On a target that hoists parameters (IREE's const-eval and global
// hoisting, a serving engine that pre-transposes at load time) they run once at load time:
// the run reads their results as weights (param_bytes, load_time_bytes), and they are no
// part of its dispatches, DRAM bytes or arena (met_budget_report_t.hoisted).
//
// Constants. A splat constant (MET_ROLE_SPLAT: every element one value) is a fill, not a
// weight: on MET_FUSION_TFJS and MET_FUSION_IREE targets it is read from no memory (a scalar in the
// consumer's body, or filled in place by the dispatch that reads it, as IREE clones
// splats into dispatches) and counts in no param_bytes.
//
// Materialized value: a result of a compute node used by a node outside its group (a
// different dispatch, a host op) or returned, and every bufferized allocation. Values
// that live only inside one dispatch never reach memory and get no slot.
// Slot: one per materialized value, and one per node with scratch bytes (graph.h: a
// region's own peak or a callee's arena, live at the node's position only);
// lifetime [when its producer runs, when its last reader runs], where a dispatch runs as
// one kernel at its last member's position (so what a fused dispatch reads and what it
// writes are live together, as on a real run: examples/convnet's peak now equals the
// measured one) and a node in no dispatch at its own position (uses through views count,
// a deallocation does not; a value written in place counts for the buffer that holds it;
// a returned value is pinned to the last position); size =
// bytes under the width policy rounded up to the target's alignment.
#ifndef METRALE_BUDGET_H
#define METRALE_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/arena.h"
#include "metrale/graph.h"
#include "metrale/planner.h"
#include "metrale/status.h"
#include "metrale/target.h"

// The Budget: one member per line of metrale/budget_fields.def, where each is defined.
#define MET_BUDGET_CTYPE_BYTES uint64_t
#define MET_BUDGET_CTYPE_COUNT uint64_t
#define MET_BUDGET_CTYPE_POLICY met_width_policy_t
#define MET_BUDGET_CTYPE_PLAN met_plan_proof_t
typedef struct met_budget_t {
#define MET_BUDGET_FIELD(name, kind, rank, note) MET_BUDGET_CTYPE_##kind name;
#include "metrale/budget_fields.def"
#undef MET_BUDGET_FIELD
} met_budget_t;

typedef enum met_field_kind_e {
  MET_FIELD_BYTES = 0,
  MET_FIELD_COUNT = 1,
  MET_FIELD_POLICY = 2,
  MET_FIELD_PLAN = 3,
} met_field_kind_t;

// The number of fields (lines of the list).
enum {
#define MET_BUDGET_FIELD(name, kind, rank, note) MET_BUDGET_FIELD_INDEX_##name,
#include "metrale/budget_fields.def"
#undef MET_BUDGET_FIELD
  MET_BUDGET_FIELD_COUNT
};

// The name of field |f| as every report spells it, for code that names one field (an
// overflow, a line of prose): a name that is not in budget_fields.def does not build.
// A constant expression (static tables may hold it).
#define MET_BUDGET_FIELD_NAME(f) (MET_BUDGET_FIELD_INDEX_##f >= 0 ? #f : "")

// One field of met_budget_t, as the renderers walk it.
typedef struct met_budget_field_t {
  const char *name;        // "arena_bytes": one spelling in C, JSON, attributes, tables
  met_field_kind_t kind;
  int rank;                // row in the table and the remark; 0: not a row
  const char *note;        // the table's note, or NULL
  size_t offset;           // offsetof(met_budget_t, name)
} met_budget_field_t;

// The fields in the list's (JSON) order; |*count| receives their number. Static data.
const met_budget_field_t *met_budget_fields(size_t *count);
// The value of a BYTES or COUNT field of |b|.
uint64_t met_budget_field_u64(const met_budget_t *b, const met_budget_field_t *f);
// The value of a POLICY or PLAN field of |b| by name ("f32", "optimal", ...); NULL for a
// BYTES or COUNT field, whose value is a number.
const char *met_budget_field_text(const met_budget_t *b, const met_budget_field_t *f);
// The fields with a rank, in rank order, into |out| (MET_BUDGET_FIELD_COUNT entries);
// returns how many.
size_t met_budget_rows(const met_budget_field_t **out);

// One planned slot, as the JSON report lists it.
#define MET_SLOT_SCRATCH UINT32_MAX  // met_slot_t.value of a node's scratch slot

typedef struct met_slot_t {
  uint32_t value;     // graph value id; MET_SLOT_SCRATCH for a node's scratch
  int32_t node;       // producing node
  uint64_t bytes;     // slot size under the policy, aligned
  int32_t first;      // schedule positions, inclusive
  int32_t last;
  uint64_t offset;    // offset in the arena
} met_slot_t;

typedef struct met_budget_options_t {
  met_plan_strategy_t strategy;  // MET_PLAN_BEST unless a benchmark wants another
  bool per_group;                // also fill group_bytes (the dispatch stats need it)
  // The exact search's limits per plan (MET_PLAN_BEST only; max_nodes 0: the greedy
  // orders alone, the plan "best-found" when above the bound).
  met_plan_limits_t plan_limits;
} met_budget_options_t;

typedef struct met_budget_report_t {
  met_budget_t budget;
  // False when a byte count is a lower bound: unbound dynamic dims, unranked or unsized
  // values. Every field above is then a lower bound of the same definition.
  bool complete;
  met_slot_t *slots; size_t slot_count;      // values' slots in value order, then scratch
                                             // slots in node order
  uint32_t *group_of_node;                   // dispatch per node; UINT32_MAX for none
  uint8_t *off_fast_path;                    // per node: 1 when counted off the fast path
  uint32_t *use_count;                       // per value: uses, views resolved
  uint32_t group_count;                      // dispatches of the fusion plan (groups)
  uint8_t *hoisted;                          // per node: parameter-only, run at load time;
                                             // NULL when no node is
  uint64_t *group_launches;                  // per group: the kernels it launches (1; a
                                             // resolved call's callee dispatches; on
                                             // MET_FUSION_MLIR plus its members' lowering
                                             // kernels and init copies; on MET_FUSION_TFJS
                                             // 5 for a softmax); they sum to
                                             // budget.dispatches. NULL when all are 1
  // Slots that are not the function's results (those live to its end): their number
  // and native bytes (not aligned) plus, on a per-buffer target, each one's
  // allocation_padding_bytes (none for MET_VALUE_F_NO_PAD), what a caller's per-buffer
  // model counts for a call.
  uint64_t inner_buffers, inner_buffer_bytes;
  // The exact search of the plan (budget.plan): its nodes, and whether the wall-clock cap
  // cut it short (the plan then depends on the machine's speed; the node budget does not).
  uint64_t plan_nodes;
  bool plan_stopped;
  // On a target with a per-buffer allocation model (metrale/target.h): the most bytes the
  // function holds allocated at once, each allocation its native bytes plus the target's
  // allocation_padding_bytes, live from the op that makes it to the deallocation that
  // frees it (to the end when none does: a result, a leak); a region's scratch and a
  // lowering's temporaries while their op runs, a call's callee peak while it runs (its
  // results are the callee's allocations: the caller holds them from the next op on).
  // What metrale/dispatch.h's device_allocation_peak_bytes reads. 0 on arena targets.
  uint64_t alloc_peak_bytes;
  // Bit i (results 0 to 63): the function's result i is a buffer it allocates without
  // padding (MET_VALUE_F_NO_PAD: a memref.alloc with no alignment attribute), so a
  // caller's per-buffer model adds none for the call's result either.
  uint64_t unpadded_results;
  // Bit i: result i is a buffer the function's own region ops allocate (a loop's or a
  // branch's result: MET_VALUE_F_INNER), counted in inner_buffers with them: a caller
  // counts no allocation of its own for the call's result.
  uint64_t inner_results;
  // The FLOPs of the function's compute ops (graph->flops summed; 0 when not counted),
  // and whether every one is known: what a caller's call counts (metrale/dispatch.h).
  uint64_t flops;
  bool flops_complete;
  uint64_t *group_bytes;                     // per group: its share of dram_bytes; NULL
                                             // unless options->per_group
  // With MET_EOVERFLOW: the met_budget_t field whose sum passed 2^64 ("host_io_bytes",
  // "arena_bytes", ...), static text; NULL otherwise.
  const char *overflow_field;
} met_budget_report_t;

// The name of a report member |f| the reports show beside the fields (flops), checked
// against met_budget_report_t at compile time.
#define MET_BUDGET_REPORT_NAME(f) ((void)sizeof(((met_budget_report_t *)0)->f), #f)

// The bytes of a node's scratch slot: its scratch (policy or |native| widths) plus, under
// MET_FUSION_MLIR (|mlir|), its lowering's temporary buffer; UINT64_MAX when the sum
// passes 2^64 (the slot then overflows when aligned).
uint64_t met_budget_temp_bytes(const met_node_extra_t *x, bool mlir, bool native);

// True when |node| reads its operand |i| (0-based), a MET_ROLE_SPLAT value, from memory:
// only on a MET_FUSION_MLIR target, unless it is an input (not the init) of a node that is
// or lowers to a linalg.generic.
static inline bool met_budget_splat_read(const met_target_t *t, const met_node_t *node,
                                         uint32_t i) {
  if (t->fusion != MET_FUSION_MLIR) return false;
  bool init = (node->flags & MET_NODE_F_DPS_INIT) && i + 1 == node->operand_count;
  return !(node->flags & MET_NODE_F_GENERIC) || init;
}

// What an op off the fast path contributes to off_fast_path_bytes: its results' bytes,
// or, for an op without results (a loop over buffers, a bufferized op), the bytes of its
// buffer operands (*|of_buffers| then true when non-NULL). False when the sum passes 2^64.
bool met_budget_off_path_bytes(const met_graph_t *graph, const met_node_t *node, uint64_t *out,
                               bool *of_buffers);

// Analyses |graph| on |target|. All memory of |out| comes from |arena|.
// Errors: MET_ENOMEM; MET_EOVERFLOW when a sum of sizes passes 2^64; MET_EINVAL for a
// malformed graph (operand out of range, positions out of order).
// Complexity: O(nodes + operands + values) plus the planner's cost.
met_status_t met_budget_analyze(const met_graph_t *graph, const met_target_t *target,
                                const met_budget_options_t *options, met_arena_t *arena,
                                met_budget_report_t *out);

#endif
