// metrale/graph.h: the plain-C graph every analysis works on.
//
// One met_graph_t describes one function body: values (function arguments and op results
// of shaped type) and nodes (top-level ops in program order). The MLIR adapter builds it;
// the core never sees an MLIR type. All storage comes from the graph's arena.
// Thread-compatible: one graph per analysis run.
//
// Definitions (the contract of every report built on a graph):
// - Schedule: the function body's top-level ops in program order, positions 0..n-1. An op
//   nested in a region counts at its top-level ancestor's position: its uses of values
//   defined outside the ancestor are the ancestor's operands.
// - Tensor bytes: static element count x storage width, rounded up to whole bytes, where
//   the storage width of an element type is (applied by the adapter, passes/ir/types.c):
//     iN, N >= 8: N rounded up to whole bytes (i8: 8, i17: 24, i64: 64); on a target in
//     LLVM's layout (met_target_t.unpacked_sub_byte: upstream lowering) the alloc size
//     LLVM gives it, the next power of two up to 128 bits (i17, i24: 32), wider ones
//     whole 64-bit words;
//     i1: 8 bits, one byte per element (as LLVM and bufferized MLIR store booleans);
//     i2..i7 and sub-byte floats (f4E2M1FN: 4, f6E2M3FN/f6E3M2FN: 6): packed, N bits;
//     index: the target's index_bits; floats: their width (bf16/f16 16, f32 32, f64 64,
//     every f8 variant 8), except tf32 stored as 32 and f80 as 128;
//     complex<T>: twice T; vector<..xT> elements: lanes x T; !quant types: their storage.
//   Any other element type has no storage width: the value counts 0 bytes, is flagged
//   unsized and the report is incomplete. Dynamic dims count 1 each (a lower bound) unless
//   bound by the caller. Under f32-uniform, a float narrower than 32 bits counts 32.
// - Leaves (MET_NODE_LEAF): tensor constants, global loads, tensor.empty: no dispatch, no
//   arena slot. Function arguments are values without a producer node.
// - Views (MET_NODE_VIEW): the reshape family, tensor.cast, bitcasts, extract_slice and
//   memref views (the list is the table in lib/opclass.c): their result aliases operand 0,
//   takes no slot, and a use of it is a use of the viewed value (it extends that value's
//   lifetime). Two ops canonicalization folds are views too: a cast to its own type
//   (tosa.cast f32 -> f32) of its input, and a pair of transposes whose permutations
//   compose to the identity, T2(T1(x)), of x (the inner one, when T2 is its only use,
//   is then dead; passes/adapter/lowering.c, met_adapter_transpose_folds), and a
//   tensor.insert_slice that writes its whole destination (static offsets 0, sizes the
//   destination's shape, strides 1, source and result of one type: InsertSliceOp::fold)
//   of its source (met_adapter_identity_insert).
// - Scratch: bytes a node needs only while it runs, at its own position: the peak arena
//   of the op's own regions (an scf.for/while/if or execute_region body, planned like a
//   function body with the same target; iterations reuse it), or a callee's arena at a
//   func.call. The Budget gives each a slot of lifetime [position, position].
// - Region ops that run kernels (passes/adapter/regions.c): an op whose body runs
//   dispatches of its own counts them like a call (met_node_extra_t.replaces_dispatch):
//   an scf.for of constant bounds its body's dispatches, dram_bytes and allocations
//   times its trip count; scf.execute_region once; an scf.if the branch its condition
//   picks when that is known before the run (a constant, a loop-carried flag of the
//   ownership-based deallocation), else the larger branch per field, said in a warning
//   (upper bounds); a loop whose trip count is not known before it runs (dynamic bounds,
//   scf.while) one run of its body, said in a warning, and the report is incomplete
//   (lower bounds). A loop nest whose bodies run no dispatch (written by hand over
//   buffers) is one dispatch; a region op that touches no tensor or buffer counts
//   nothing.
// - Calls: a func.call to a function of the same module that was analysed first counts
//   the callee's dispatches, dram_bytes, off-fast-path ops and bytes, cast nodes and
//   param_bytes (its own constants; weights it gets as arguments are the caller's) in
//   place of its own one dispatch (met_node_extra_t.replaces_dispatch), and its arena as
//   scratch (an upper bound by the bytes of the callee's results, which the caller's own
//   slots also hold from the call on). A call to an external function that no tensor or
//   buffer passes through (a timer, a logger) is host work and counts nothing; any other
//   unresolved call (external with shaped values, recursive, indirect) leaves the report
//   incomplete with a warning at the call.
// - Splat folding: an op whose every data operand is a splat constant (MET_ROLE_SPLAT,
//   through views) or a tensor.empty init, one at least a splat, and that moves or
//   combines elements uniformly (elementwise ops, transposes, broadcasts, reductions,
//   matmuls, tiles, reversals, gathers; a payload that reads no run-time value and no
//   position) yields a splat: compilers fold it at compile time (MLIR's and TOSA's
//   folders, IREE's const-eval, TF.js's converter). It is a leaf whose results are
//   splats (no dispatch, no slot, no weight; a remark at the op), except on
//   MET_FUSION_MLIR targets, whose graph is the program upstream's pipeline makes.
//   Pads, concats, inserts, scatters and convolutions mix values: never folded. The rule
//   is met_fold_to_splat (metrale/target.h); the adapter reads the operands' roles and
//   the payload off the IR for it.
// - Dead ops: an op that canonicalization erases is not in the graph (its position stays
//   empty): one MLIR would erase once unused (wouldOpBeTriviallyDead: no memory effects
//   but allocating its own results, recursively through its regions; no terminator)
//   whose results only such ops use, or ops inside them, transitively (passes/
//   mlir_hooks.h, met_scan_body). Real pipelines erase them (canonicalization runs before
//   IREE's dispatch formation and in `metrale run`'s lowering), so no report counts them:
//   no dispatch, no slot, no traffic, no weight, no warning.
#ifndef METRALE_GRAPH_H
#define METRALE_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/arena.h"
#include "metrale/status.h"

typedef enum met_node_kind_e {
  MET_NODE_LEAF = 0,     // constant, global load, tensor.empty: no dispatch, no slot
  MET_NODE_VIEW = 1,     // result aliases operand 0
  MET_NODE_COMPUTE = 2,  // does work on tensors/buffers: grouped into dispatches
  MET_NODE_ALLOC = 3,    // a bufferized allocation (memref.alloc): a slot, no dispatch
  MET_NODE_HOST = 4,     // scalar, shape and bookkeeping ops (dealloc, extract): uses only
  MET_NODE_RETURN = 5,   // the terminator: its operands are the function's results
} met_node_kind_t;

typedef enum met_op_class_e {
  MET_CLASS_OTHER = 0,
  MET_CLASS_ELEMENTWISE = 1,    // arith/math on tensors, elementwise TOSA, parallel generics,
                                // transposes (a permuted map: compilers fuse them as such)
  MET_CLASS_FILL = 2,           // generators with no tensor input (linalg.fill)
  MET_CLASS_MATMUL = 3,
  MET_CLASS_CONV = 4,           // convolutions and pooling windows
  MET_CLASS_REDUCTION = 5,
  MET_CLASS_DATA_MOVEMENT = 6,  // gather, slice, concat, pad, tile, insert/extract
  MET_CLASS_LOOP = 7,           // scf/affine loop nests: one dispatch each
  MET_CLASS_UNKNOWN = 8,        // unregistered or not modelled: own dispatch, off fast path
} met_op_class_t;

enum {
  MET_NODE_F_CAST = 1u << 0,          // its only product is another element type
  MET_NODE_F_UNREGISTERED = 1u << 1,  // op of an unregistered dialect
  MET_NODE_F_UNRANKED = 1u << 2,      // touches an unranked or unsized shaped value
  MET_NODE_F_DYNAMIC = 1u << 3,       // a result has dynamic dims left unbound
  MET_NODE_F_NO_SIZE = 1u << 4,       // a result's byte size overflows 64 bits
  MET_NODE_F_SOFTMAX = 1u << 6,       // its kernel workspace is the softmax family
                                      // (lib/opclass.c marks softmax and attention ops)
  MET_NODE_F_FLOPS_UNKNOWN = 1u << 7, // graph->flops counts it as 0, not knowing better:
                                      // dispatch latency is then a lower bound
  MET_NODE_F_DEALLOC = 1u << 5,       // frees its operands (memref.dealloc, or an scf.if
                                      // whose regions only free, as ownership-based
                                      // deallocation emits): not a use of their data, so it
                                      // does not extend a lifetime
  // Facts of upstream MLIR's lowering (tosa-to-linalg, convert-elementwise-to-linalg), read
  // by the fusion model that describes it (met_fusion_model_t MET_FUSION_MLIR):
  MET_NODE_F_GENERIC = 1u << 8,       // it is, or lowers to, one linalg.generic: what
                                      // linalg-fuse-elementwise-ops fuses (named ops such as
                                      // linalg.matmul, linalg.fill, linalg.transpose are not)
  MET_NODE_F_METADATA = 1u << 10,     // reads only its operands' pointer, sizes or strides
                                      // (memref.dim, extract_aligned_pointer_as_index,
                                      // extract_strided_metadata): not a use of their data
  MET_NODE_F_GATHER = 1u << 11,       // reads from its first operand only the rows its
                                      // indices select (tosa.gather, tensor.gather): at most
                                      // its result's bytes, not the whole table
  MET_NODE_F_DPS_INIT = 1u << 9,      // its last operand is the init its one result is
                                      // written into (destination passing: linalg ops)
  MET_NODE_F_FLOPS_OVERFLOW = 1u << 13,  // with MET_NODE_F_FLOPS_UNKNOWN: its FLOPs pass
                                      // 2^64 (not an op without a rule)
  MET_NODE_F_SAME_INDEX = 1u << 12,   // reads each operand of its result's rank at its
                                      // result's indices (met_node_axes_t: no axes needed)
  MET_NODE_F_BIT_EXTEND = 1u << 14,   // a bit-extend (dequantization) generic: a
                                      // linalg.generic with one init, every loop parallel,
                                      // the widest element of its inputs of the highest rank
                                      // (counting the dims that are not 1, as IREE asks after
                                      // FoldUnitExtentDims) narrower than its result's, and
                                      // no math-dialect op
                                      // in its body (IREE's isBitExtendOp: int8/int4 weights
                                      // widened with their scales and zero points)
  MET_NODE_F_ZERO_FILL = 1u << 15,    // a linalg.fill of a constant zero (0, 0.0 or -0.0):
                                      // the init IREE's horizontal fusion asks of each
                                      // contraction it joins (m_Zero, m_AnyZeroFloat)
};

typedef enum met_value_role_e {
  MET_ROLE_ACTIVATION = 0,  // produced by a compute node
  MET_ROLE_INPUT = 1,       // a function argument not marked as parameter
  MET_ROLE_PARAM = 2,       // a function argument marked as parameter
  MET_ROLE_CONST = 3,       // a tensor constant (arith.constant, tosa.const, ...)
  MET_ROLE_GLOBAL = 4,      // a global load (memref.get_global, ml_program.global_load)
  MET_ROLE_EMPTY = 5,       // tensor.empty: shape only, no data is read from it
  MET_ROLE_ALLOC = 6,       // memref.alloc / alloca result
  MET_ROLE_OTHER = 7,       // a view result or a value of a host op
  MET_ROLE_STATE = 8,       // a function argument marked as state (a KV cache, ...):
                            // device-resident across runs, not host I/O
  MET_ROLE_SPLAT = 9,       // a tensor constant whose elements are all one value: a fill,
                            // not stored data. No weight, and no bytes are read from memory
                            // (a scalar in the reading kernel's body, or filled in place),
                            // except where a target's fusion model says otherwise
                            // (budget.h, MET_FUSION_MLIR)
} met_value_role_t;

enum {
  MET_VALUE_F_DYNAMIC = 1u << 0,   // dynamic dims counted as 1 (bytes is a lower bound)
  MET_VALUE_F_UNRANKED = 1u << 1,  // unranked or unsized: bytes is 0, a lower bound
  MET_VALUE_F_FLOAT = 1u << 2,     // floating-point elements
  MET_VALUE_F_MEMREF = 1u << 3,    // a buffer (memref) rather than a tensor
  MET_VALUE_F_BOUND = 1u << 4,     // had dynamic dims, bound by the caller's option
  MET_VALUE_F_NO_PAD = 1u << 5,    // an allocation that states no alignment (memref.alloc
                                   // without one): the lowering asks for its bytes alone,
                                   // no target allocation_padding_bytes (metrale/dispatch.h)
  MET_VALUE_F_INNER = 1u << 6,     // a buffer the regions of its producer allocate (a loop's
                                   // or a branch's result in a bufferized program): the
                                   // producer's extra counts its allocations, each time the
                                   // region runs; the value is held from the next op on
  MET_VALUE_F_STACK = 1u << 7,     // a stack allocation (memref.alloca): a slot of the
                                   // arena, but no allocation of a per-buffer allocator
                                   // (no event, no bytes, not in its peak)
};

typedef struct met_value_t {
  uint64_t bytes;       // native storage bytes (Tensor bytes above)
  uint64_t f32_bytes;   // bytes with every float narrower than 32 bits stored as f32
  int32_t producer;     // producing node, -1 for a function argument
  int32_t arg_index;    // argument position, -1 otherwise
  int32_t alias;        // for a view's result: the value it views; -1 otherwise
  uint8_t role;         // met_value_role_t
  uint8_t rank;         // shape rank: 0 for scalars and unranked values (at most 255)
  uint16_t flags;       // MET_VALUE_F_*
} met_value_t;

typedef struct met_node_t {
  const char *name;        // op name, e.g. "tosa.add"; borrowed from the graph's arena
  uint8_t kind;            // met_node_kind_t
  uint8_t op_class;        // met_op_class_t
  uint16_t flags;          // MET_NODE_F_*
  int32_t position;        // schedule position
  uint32_t operand_begin;  // operands are graph->operands[operand_begin, +operand_count)
  uint32_t operand_count;
  uint32_t result_begin;   // results are values [result_begin, +result_count)
  uint32_t result_count;
  uint64_t ext;            // the adapter's own handle (the MLIR op, passes/adapter/adapter.h)
  uint32_t extra;          // 1 + index into graph->extras; 0: none
  // Loops of its iteration domain that are not unit (a dynamic one counts), as a compiler
  // that folded unit dims away sees them (IREE's FoldUnitExtentDims runs before dispatch
  // formation): a matmul, conv or reduction in linalg by its static loop ranges (each
  // loop's range read off the first operand indexed by it alone); otherwise, by class,
  // the non-unit dims of its result (elementwise, data movement: all-parallel ops iterate
  // over their result), of its first operand (a reduction), of its result plus one (a
  // matmul's contraction) or plus its filter's dims after the first (a conv's window and
  // channels). At most 255; 0 when not known. Only MET_FUSION_IREE
  // reads it (budget.h: the loop-count rule).
  uint8_t loops;
} met_node_t;

// What a few nodes carry beyond their values: scratch and call costs (definitions above).
typedef struct met_node_extra_t {
  uint64_t scratch_bytes;         // under the target's width policy; 0: none
  uint64_t scratch_native_bytes;  // the same at native widths (for width_overhead_bytes)
  bool replaces_dispatch;         // a resolved call: the counts below replace its dispatch
  uint64_t dispatches, dram_bytes, off_fast_path_ops, off_fast_path_bytes, cast_nodes;
  uint64_t param_bytes;           // the parameters the callee reads (an argument it marks
                                  // as a parameter is counted by its caller too)
  // The callee's own buffers, for a per-buffer allocation model (metrale/dispatch.h): its
  // slots that do not live to its end (those that do hold its results, which are the
  // caller's own slots), their number and native bytes with each one's padding; for a
  // region op (a loop, a branch), what its regions allocate each time they run, times
  // the runs.
  uint64_t callee_buffers, callee_buffer_bytes;
  // The most bytes the callee holds allocated at once under a per-buffer model
  // (met_budget_report_t.alloc_peak_bytes): a call adds it while it runs.
  uint64_t callee_alloc_peak_bytes;
  uint64_t callee_flops;          // the callee's FLOPs (met_budget_report_t.flops)
  bool callee_flops_known;        // and whether all of them are known
  // What upstream MLIR's lowering of the op adds around its own kernel (tosa-to-linalg
  // and one-shot bufferization; only the MET_FUSION_MLIR model reads it): kernels (the
  // accumulator's fill or bias broadcast, a padded copy's fill and copy, one copy per
  // concatenated input after the first) and temporary buffers (the padded input, a pooling
  // window's shape tensor), |lowering_buffers| of them with |lowering_buffer_bytes| in
  // all, live while the op runs.
  uint32_t lowering_kernels, lowering_buffers;
  uint64_t lowering_buffer_bytes;
  // What a backend sees once it generalized the op (passes/adapter/generic.c): payload op
  // names joined by '+' ("math.exp", "linalg.reduce+arith.addf"), or "linalg.transpose",
  // "linalg.broadcast", "linalg.copy", "linalg.matmul" for a linalg.generic that is one.
  // Matched against the target's fast path in place of the op's name (every part must
  // match); NULL: the name is.
  const char *computation;
} met_node_extra_t;

// How a node touches one of its operands' data.
typedef enum met_access_e {
  MET_ACCESS_READ = 0,    // reads it (every tensor operand; a buffer's inputs)
  MET_ACCESS_WRITE = 1,   // writes it whole without reading it first (memref.copy's
                          // target, a linalg op's out on a buffer whose payload does not
                          // read the out's element: a fill, an elementwise generic)
  MET_ACCESS_UPDATE = 2,  // reads it and writes it (a linalg out the payload reads: an
                          // accumulating matmul, a reduction into its init)
} met_access_t;

// How a node's operands and results index its loops, for the rules that follow one dim
// of a value from op to op (attention, budget.h): one map per operand described (the
// first |maps - 1| operands, in order) and one for the node's first result, last; each
// dim of a map names the loop that indexes it, or MET_AXIS_NONE (an expression, a
// constant, a dim merged with others). The adapter records it (met_graph_set_node_axes)
// where a target's rules read them (IREE's fusion with attention_fusion) for the nodes
// whose maps are not the identity: linalg ops with indexing maps that are
// not all identities (contractions, transposes, broadcasts), tosa.matmul and
// tosa.transpose, linalg.softmax (its |softmax_dim|), and the reshape views
// (expand_shape, collapse_shape: a result dim is a loop, and a source dim names it when
// it is the one dim of its group that is not 1). A node with no axes indexes each operand
// of its result's rank by the same dims as its result when it has MET_NODE_F_SAME_INDEX
// (arith and math on tensors, elementwise TOSA, linalg ops whose maps are identities,
// views that keep every dim in place); for any other node nothing is known.
enum { MET_AXES_MAPS = 5, MET_AXES_RANK = 8, MET_AXIS_NONE = -1 };
typedef struct met_node_axes_t {
  uint8_t loops;                               // loops of the iteration space
  uint8_t maps;                                // maps described, the result's last
  uint8_t rank[MET_AXES_MAPS];                 // dims of each map
  int8_t loop[MET_AXES_MAPS][MET_AXES_RANK];   // per dim: its loop, or MET_AXIS_NONE
  uint32_t reduction;                          // bit l: loop l indexes no result dim
  int8_t softmax_dim;                          // linalg.softmax's dimension, else NONE
} met_node_axes_t;

typedef struct met_graph_t {
  met_arena_t *arena;           // borrowed; owns everything below
  const char *name;             // function name
  met_node_t *nodes; size_t node_count, node_cap;
  met_value_t *values; size_t value_count, value_cap;
  uint32_t *operands; size_t operand_count, operand_cap;
  // Per operand, how its node touches the data (met_access_t), parallel to |operands|;
  // NULL, or entries at |operand_access_cap| and past it, read MET_ACCESS_READ (a tensor op
  // reads its operands and writes its results). A bufferized op writes buffers it takes as
  // operands: the builder marks them (met_graph_set_operand_access).
  uint8_t *operand_access; size_t operand_access_cap;
  // Per operand, the most native bytes of it its node reads (0: no bound, the whole value),
  // parallel to |operands| as |operand_access| is (NULL, or past its cap: 0). A gather's
  // read: an all-parallel linalg op whose body reads a table it captures only through
  // tensor.extract or memref.load in its own block reads at most one element per load per
  // iteration: loads x iterations x the element's bytes, never more than the table (the
  // embedding lookup of a decoder, spelled as a generic, reads its tokens' rows). Under a
  // width policy the bound scales as the value's bytes do (met_budget_policy_bytes).
  uint64_t *operand_bound; size_t operand_bound_cap;
  met_node_extra_t *extras; size_t extra_count, extra_cap;
  uint64_t *flops;              // per node: its FLOPs (metrale/dispatch.h), NULL when not
                                // counted (the adapter counts them on request)
  // Bytes a strided buffer argument that is a host input spans beyond its elements (its
  // layout's offset and the holes its strides leave): the caller's buffer holds them, so
  // they travel with the input (dispatch stats' input_bytes), and no op reads them.
  uint64_t input_gap_bytes;
  uint64_t scalar_arg_bytes;    // arguments that are no tensor or buffer (index, i32,
                                // f32, ...): not values of the graph, passed by value
  // Printable names, only where a builder records them (reports that show them): per
  // value its name in the IR ("%3", "%arg0"), per node its "file:line:col". NULL arrays,
  // or NULL entries, when not recorded (met_graph_value_name, met_graph_node_loc).
  const char **value_names; size_t value_names_cap;
  const char **node_locs; size_t node_locs_cap;
  // Per node, its axes (met_node_axes_t), where the builder recorded them; NULL otherwise.
  const met_node_axes_t **node_axes; size_t node_axes_cap;
  uint32_t position_count;      // schedule length
  uint32_t arg_count;           // values [0, arg_count) are the function arguments
  bool incomplete;              // the builder could not track everything (multi-block,
                                // region bodies it could not count, recursive calls)
} met_graph_t;

// Initializes an empty graph whose storage comes from |arena| (borrowed).
void met_graph_initialize(met_arena_t *arena, met_graph_t *graph);

// Reserves room for |nodes| nodes, |values| values and |operands| operands, so that a
// builder that knows the sizes up front appends without regrowing. Optional.
met_status_t met_graph_reserve(met_graph_t *graph, size_t nodes, size_t values,
                               size_t operands);
// Appends a function argument value; arguments must be added before any node.
met_status_t met_graph_add_argument(met_graph_t *graph, const met_value_t *value,
                                    uint32_t *out_value);
// Starts a node at the next free schedule position (or |position| when >= 0, which must
// not decrease). |name| (|name_len| bytes, NUL-terminated) is borrowed and must outlive
// the graph: intern it in the graph's arena or pass a literal. Operands and results added
// next belong to it.
met_status_t met_graph_begin_node(met_graph_t *graph, const char *name, size_t name_len,
                                  met_node_kind_t kind, met_op_class_t op_class,
                                  int32_t position, uint64_t ext, uint32_t *out_node);
// Appends an operand (an existing value id) to the node begun last.
met_status_t met_graph_add_operand(met_graph_t *graph, uint32_t value);
// Attaches |extra| (copied) to the node begun last.
met_status_t met_graph_set_extra(met_graph_t *graph, const met_node_extra_t *extra);
// The extra of |node|, or NULL.
static inline const met_node_extra_t *met_graph_extra(const met_graph_t *graph,
                                                      const met_node_t *node) {
  return node->extra ? &graph->extras[node->extra - 1] : 0;
}
// Appends a result value to the node begun last; |value->producer| is set for you.
// True when |v|'s byte count is a lower bound because dynamic dims were left unbound
// (counted as 1). The one test every report uses.
static inline bool met_value_unbound(const met_value_t *v) {
  return (v->flags & MET_VALUE_F_DYNAMIC) && !(v->flags & MET_VALUE_F_BOUND);
}

// True for the roles whose data is resident model data rather than per-run data:
// parameters, constants, globals (what the Budget's param_bytes reads and the memory
// model's weights hold).
static inline bool met_role_is_weight(uint16_t role) {
  return role == MET_ROLE_PARAM || role == MET_ROLE_CONST || role == MET_ROLE_GLOBAL;
}

// Adds to |*read|, the bytes read so far of root value |r| (at most its bytes), a read of
// value |o| whose root is |r|: all of |r| when |o| is |r| itself, else |o|'s bytes (a view,
// such as a slice), saturating at |r|'s bytes. Callers count each view once.
static inline void met_graph_add_read(const met_graph_t *g, uint32_t o, uint32_t r,
                                      uint64_t *read) {
  uint64_t whole = g->values[r].bytes, part = o == r ? whole : g->values[o].bytes;
  *read = part >= whole - (*read < whole ? *read : whole) ? whole : *read + part;
}

// The value |v| ultimately views: itself when it is no view (alias < 0).
static inline uint32_t met_graph_root(const met_graph_t *g, uint32_t v) {
  while (g->values[v].alias >= 0) v = (uint32_t)g->values[v].alias;
  return v;
}

met_status_t met_graph_add_result(met_graph_t *graph, const met_value_t *value,
                                  uint32_t *out_value);

// Records the printable name of value |v| / the location of node |n| (borrowed: it must
// outlive the graph). Optional; storage is made on the first call.
met_status_t met_graph_set_value_name(met_graph_t *graph, uint32_t v, const char *name);
met_status_t met_graph_set_node_loc(met_graph_t *graph, uint32_t n, const char *loc);
// Records the axes of node |n| (copied into the graph's arena).
met_status_t met_graph_set_node_axes(met_graph_t *graph, uint32_t n, const met_node_axes_t *axes);
// Records how operand |i| (an index into graph->operands) is touched.
met_status_t met_graph_set_operand_access(met_graph_t *graph, size_t i, met_access_t access);
// Records that the node of operand |i| reads at most |bytes| of it (graph->operand_bound).
met_status_t met_graph_set_operand_bound(met_graph_t *graph, size_t i, uint64_t bytes);
// The bound of operand |i|, 0 when there is none.
static inline uint64_t met_graph_operand_bound(const met_graph_t *g, size_t i) {
  return g->operand_bound && i < g->operand_bound_cap ? g->operand_bound[i] : 0;
}
// How operand |i| is touched: MET_ACCESS_READ unless recorded otherwise.
static inline met_access_t met_graph_operand_access(const met_graph_t *g, size_t i) {
  return g->operand_access && i < g->operand_access_cap ? (met_access_t)g->operand_access[i]
                                                        : MET_ACCESS_READ;
}
static inline const char *met_graph_value_name(const met_graph_t *g, size_t v) {
  return v < g->value_names_cap && g->value_names ? g->value_names[v] : 0;
}
static inline const char *met_graph_node_loc(const met_graph_t *g, size_t n) {
  return n < g->node_locs_cap && g->node_locs ? g->node_locs[n] : 0;
}
static inline const met_node_axes_t *met_graph_node_axes(const met_graph_t *g, size_t n) {
  return n < g->node_axes_cap && g->node_axes ? g->node_axes[n] : 0;
}
// Where dim |d| of node |n|'s operand |from| (MET_AXES_RESULT: its first result) is in its
// operand |to| (or result): the one dim indexed by the same loop (metrale/graph.h,
// met_node_axes_t; an operand of the result's rank of a MET_NODE_F_SAME_INDEX node: |d|
// itself). MET_AXIS_NONE when no dim or several are, or nothing is known.
enum { MET_AXES_RESULT = -2 };
int met_graph_axis_through(const met_graph_t *g, uint32_t n, int from, int d, int to);
// The loop that indexes dim |d| of node |n|'s operand |m| (MET_AXES_RESULT: its result), or
// MET_AXIS_NONE; nodes with recorded axes only.
int met_graph_axis_loop(const met_graph_t *g, uint32_t n, int m, int d);

#endif
