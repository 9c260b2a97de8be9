// passes/adapter/state.h: the one internal header of the adapter: the state
// one function's build shares (adapter_shared_t, builder_t, the cache entries) and what
// each helper file offers the walk. Calls go one way: walk.c (the walk) calls the
// helpers; a helper may call state.c (the state's services) and passes/ir/,
// never walk.c. Internal to the adapter.
#ifndef METRALE_PASSES_ADAPTER_STATE_H
#define METRALE_PASSES_ADAPTER_STATE_H

#include "adapter/adapter.h"
#include "metrale/opclass.h"
#include "metrale/region.h"
#include "metrale/ptrmap.h"
#include "metrale/strbuf.h"
#include "ir/types.h"

// What the adapter knows of an op name (cached per name: names are uniqued).
typedef struct op_entry_t {
  const char *name;     // interned in the cache's arena
  size_t len;
  met_opinfo_t info;
  bool registered, is_generic, is_call, is_call_indirect, is_linalg, is_copy;
  bool walk_regions;    // its regions may use values defined outside it
  bool dealloc;         // frees its operands
  bool metadata;        // reads only its operands' pointer, sizes or strides
  bool is_if;           // scf.if: a conditional deallocation when its regions only free
  bool generic;         // is or lowers to one linalg.generic (MET_NODE_F_GENERIC)
  bool is_transpose, is_tosa;
  bool gather;          // tosa.gather, tensor.gather (MET_NODE_F_GATHER)
  uint8_t folded;       // met_adapter_folded_operands
} op_entry_t;

// What the adapter knows of a type (cached per type: types are uniqued).
typedef struct type_entry_t {
  met_type_size_t size;
  met_size_status_t status;
  bool shaped;
  uint8_t rank;         // 0 for scalars and unranked types, at most 255
  uint8_t nonunit;      // dims that are not 1 (a dynamic one counts), at most 255
  bool elems_known;     // ranked, no unbound dynamic dim, the count below 2^64
  uint64_t elems;       // elements, a dynamic dim counting dynamic_size (when > 0)
} type_entry_t;

// What every graph of one function's analysis shares: the function's own and those of
// its regions (regions.c). Touched by one thread.
typedef struct adapter_shared_t {
  const met_adapter_options_t *opt;
  met_graph_facts_t facts;    // what the graph records for opt->target (metrale/target.h)
  met_arena_t *arena;         // what the graph keeps: nodes, values, names, diagnostics
  met_arena_t tmp;            // what only the build needs: caches, value maps, regions'
                              // graphs; released when the build returns
  met_diag_list_t *diags;
  MlirOperation func;         // the function being built
  MlirContext ctx;
  MlirAsmState names;         // when recording names
  met_strbuf_t scratch;       // value names are printed here first
  bool failed;                // an error diagnostic was added
  // Op names and types are uniqued in the context, so their pointers are keys: the cache
  // turns name lookups, registration checks and type sizing into one probe.
  met_adapter_cache_t *cache;
  size_t flops_cap;           // entries of the function graph's flops array
  const char **keys; size_t nkeys, capkeys;  // interned computations (generic.c)
  met_ptrmap_t dead;          // ops erased as dead (met_scan_body), not inside one another
  size_t ndead;
  bool each_dead;             // a remark per dead op; else counted here, one summary after
  size_t ndead_said;          // dead ops that would have counted (the summary's number)
  MlirOperation first_dead;   // the first of them
  bool each_splat;            // a remark per splat fold; else counted, one summary after
  size_t nsplat;              // splat folds of the function's own body
  MlirOperation first_splat;
  met_status_t dead_status;   // a failure while recording them
} adapter_shared_t;

// One graph being built: the function's, or a region's (|parent| the enclosing one).
typedef struct builder_t {
  adapter_shared_t *sh;
  met_graph_t *g;
  met_ptrmap_t map;           // MlirValue -> graph value id
  uint32_t *stamp;            // per value: last node that took it as an operand
  size_t stamp_cap;
  const struct builder_t *parent;
  int depth;                  // region nesting (0: the function)
} builder_t;

// Whether |op| itself is a dead root (met_scan_body reports no op inside another): enough
// where the walk stops at a dead op and never looks inside it.
static inline bool met_adapter_dead_root(const adapter_shared_t *sh, MlirOperation op) {
  return sh->ndead && met_ptrmap_get(&sh->dead, op.ptr) != UINT32_MAX;
}

// --- state.c: the services of the shared state (calls no other adapter file) ---
// The cached facts of type |t| (sized for the options' target and dynamic_size).
met_status_t met_adapter_type_entry(adapter_shared_t *sh, MlirType t, const type_entry_t **out);
// Records |v|'s printable name as graph value |id| when the options record names.
met_status_t met_adapter_name_value(builder_t *b, MlirValue v, uint32_t id);
// Sizes one shaped value; records what makes it incomplete. |kind| ("result",
// "argument") and |index| name it in diagnostics. *|overflow| when its size overflows
// (an error was added).
met_status_t met_adapter_size_value(builder_t *b, MlirValue v, MlirLocation loc, const char *kind,
                                    intptr_t index, met_value_t *out, bool *overflow);
// met_adapter_size_value of a value of type |t|, whose entry |te| is known.
met_status_t met_adapter_size_typed(builder_t *b, MlirType t, const type_entry_t *te,
                                    MlirLocation loc, const char *kind, intptr_t index,
                                    met_value_t *out, bool *overflow);
// Whether |op| is erased as dead, or lies inside an op that is (metrale/graph.h).
bool met_adapter_op_dead(const adapter_shared_t *sh, MlirOperation op);

// --- the helpers the walk calls ---------------------------------------------------------
// folds.c: a compiler's constant folding (metrale/graph.h, Splat folding): whether |op|
// (named |name|, of class |info|) computes only on splat constants and empty inits by a
// uniform computation on a target that folds (met_graph_facts_t.fold_splats): its result
// is then a splat, no dispatch, buffer or weight. The remark of one fold, and the
// function's summary of them (one remark unless each_splat).
bool met_adapter_folds_to_splat(builder_t *b, MlirOperation op, MlirStringRef name,
                                const met_opinfo_t *info);
met_status_t met_adapter_splat_remark(adapter_shared_t *sh, MlirOperation op);
met_status_t met_adapter_splat_summary(adapter_shared_t *sh, MlirOperation func);
// folds.c: dead ops (metrale/graph.h, Dead ops): met_scan_body's callback (|user| the
// shared state: the op joins the set the build skips, a remark when each_dead), and the
// function's summary of them.
void met_adapter_on_dead(void *user, MlirOperation op);
met_status_t met_adapter_dead_summary(adapter_shared_t *sh, MlirOperation func);
// flops.c: the FLOPs of |op| (rules in the file): MET_FLOPS_OK; MET_FLOPS_UNKNOWN (an op
// it has no rule for, a dynamic dim left unbound); MET_FLOPS_OVERFLOW (past 2^64).
enum { MET_FLOPS_OVERFLOW = -1, MET_FLOPS_UNKNOWN = 0, MET_FLOPS_OK = 1 };
int met_adapter_flops(adapter_shared_t *sh, MlirOperation op, MlirStringRef name,
                      met_op_class_t cls, uint64_t *out);
// loops.c: met_node_t.loops of compute op |op| of class |cls| (metrale/graph.h);
// |linalg|: a linalg op (its maps may be read), |result_nonunit|: the most non-unit dims
// of one of its results.
met_status_t met_adapter_node_loops(builder_t *b, MlirOperation op, met_op_class_t cls,
                                    bool linalg, uint32_t result_nonunit, uint8_t *out);
// axes.c: records node |node|'s axes or MET_NODE_F_SAME_INDEX (metrale/graph.h);
// |gmap[i]|: the index among the node's operands of op operand i (-1: not one), for
// i < MET_AXES_MAPS.
met_status_t met_adapter_node_axes(builder_t *b, MlirOperation op, MlirStringRef name,
                                   const op_entry_t *oe, uint32_t node, const int8_t *gmap);
// args.c: the function's arguments, each with its role (passes/ir/params.h).
met_status_t met_adapter_add_arguments(builder_t *b, MlirOperation func, MlirBlock entry);

// lowering.c: facts of upstream MLIR's lowering (metrale/graph.h).
// |name| is, or lowers to, one linalg.generic (MET_NODE_F_GENERIC).
bool met_adapter_lowers_to_generic(MlirStringRef name, const met_opinfo_t *info);
// Fills |x|'s lowering_kernels and lowering_buffer_bytes for a TOSA op whose lowering adds
// kernels; false when it adds none. *|overflow| when the padded input's size passes 2^64.
bool met_adapter_lowering(MlirOperation op, MlirStringRef name, met_node_extra_t *x,
                          bool *overflow);
// A linalg op with one result whose last operand is its init (MET_NODE_F_DPS_INIT).
bool met_adapter_has_dps_init(MlirOperation op, MlirStringRef name);
// How a bufferized op touches its operand |i| (met_access_t): a linalg op on buffers
// (no results) writes its outs, and reads one too when its payload reads the out's
// element (the entry block's argument for it has a use); memref.copy writes its target.
// MET_ACCESS_READ for any other operand and op.
met_access_t met_adapter_operand_access(MlirOperation op, MlirStringRef name, intptr_t i);
// A tensor.insert_slice that writes its whole destination (static offsets 0, sizes the
// destination's shape, strides 1; source and result of one type): MLIR's folder returns
// its source (InsertSliceOp::fold, an identity insertion), so it is a view of it.
bool met_adapter_identity_insert(MlirOperation op);
// A transpose that canonicalization folds away, as a view of *|src|: the outer one of a
// pair composing to the identity (a view of the inner one's input), and the inner one
// when the outer one is its only use (then dead; a view of its own input).
bool met_adapter_transpose_folds(const adapter_shared_t *sh, MlirOperation op, MlirValue *src);
// memref.dealloc or bufferization.dealloc (the op, or its name).
bool met_adapter_dealloc_name(MlirStringRef name);
bool met_adapter_is_dealloc(MlirOperation op);
// Every op in |op|'s regions is a deallocation or a terminator (scf.yield): the
// conditional deallocation ownership-based deallocation emits.
bool met_adapter_only_deallocates(MlirOperation op);
// A constant op (arith.constant, tosa.const) whose dense elements are all one value: a
// fill, not stored data (MET_ROLE_SPLAT).
bool met_adapter_is_splat_constant(MlirOperation op);
// The operands of an op named |name| that its lowering folds into a kernel's body when
// they are splat constants (bit i: operand i; cached per name in op_entry_t.folded): where
// TOSA requires a compile-time constant (a zero point, shift, multiplier or pad value), or
// a convolution's bias (its broadcast is a linalg.generic).
uint8_t met_adapter_folded_operands(MlirStringRef name);
// Operand |i| of |op|, whose name's mask is |folded|, is such a splat constant: then no
// data operand of the node.
bool met_adapter_operand_folds(MlirOperation op, uint8_t folded, intptr_t i);

// generic.c: the computation a linalg op is (met_node_extra_t.computation), or
// NULL in *|out| when its name says it; a generic contraction becomes MET_CLASS_MATMUL.
met_status_t met_adapter_computation(adapter_shared_t *sh, MlirOperation op, MlirStringRef name,
                                     met_opinfo_t *info, const char **out);

// The gather bounds of |op|'s captured tables (metrale/graph.h, operand_bound): graph
// node |node|'s operands [first, end) are the values its regions capture. Each table the
// op's own block reads only by element loads (tensor.extract, memref.load) gets a bound
// of loads x iterations x its element's bytes, when the op is all-parallel and its last
// indexing map (its init's) a permutation, so that it runs once per element of its init.
met_status_t met_adapter_gather_bounds(builder_t *b, MlirOperation op, uint32_t node,
                                       size_t first, size_t end);

// Whether |op| is a bit-extend generic (metrale/graph.h, MET_NODE_F_BIT_EXTEND).
bool met_adapter_bit_extend(MlirOperation op);
// Whether |op| is a linalg.fill of a constant zero (metrale/graph.h, MET_NODE_F_ZERO_FILL):
// its value is an arith.constant 0 (an integer) or +-0.0 (a float).
bool met_adapter_zero_fill(MlirOperation op);

// --- regions.c (definitions in metrale/graph.h: Scratch, Calls) ---------------
// Whether an op in |region|, at any depth, touches a tensor or buffer (or is a call).
bool met_adapter_region_touches_shaped(MlirRegion region);
// Region ops: the types are the core's (metrale/region.h), the IR is read here.
void met_adapter_region_plan(MlirOperation op, met_region_plan_t *out);
// What result |k| of region op |op| is when the region that runs yields a value from
// outside the op (a branch passing a buffer through, a loop its unchanged init): that
// value; else null, a buffer its region allocates (MET_VALUE_F_INNER).
MlirValue met_adapter_region_result_alias(MlirOperation op, const met_region_plan_t *p,
                                          intptr_t k);
// Starts the tally of an op's regions; *|out_descend| false (after a warning at |loc|:
// the report is a lower bound) when the op is nested too deep to be looked into.
met_status_t met_adapter_region_begin(builder_t *b, MlirLocation loc, const char *name,
                                      met_region_tally_t *t, bool *out_descend);
// Initializes |sub| and its builder |sb| (sharing |b|'s caches, one level deeper) for
// |region|, with the region's inputs: its blocks' shaped arguments and the values of
// enclosing graphs its ops use. The walk then adds the region's ops to |sb|.
met_status_t met_adapter_region_builder(builder_t *b, MlirRegion region, met_graph_t *sub,
                                        builder_t *sb);
// Plans the region graph |sub| (|positions| schedule positions, |blocks| blocks), region
// |region| of its op, on the target and adds it to |t|.
met_status_t met_adapter_region_count(builder_t *b, met_graph_t *sub, int32_t positions,
                                      size_t blocks, intptr_t region, met_region_tally_t *t);
// The op's extra from |t| and |plan| (graph.h, Scratch): its scratch, and when its
// regions run dispatches or allocate, their cost times the runs (replaces_dispatch);
// |*out_host| when it is a branch with nothing of its own to run. Warnings at |loc|
// where the count is a bound.
met_status_t met_adapter_region_end(builder_t *b, MlirLocation loc, const char *name,
                                    const met_region_plan_t *plan, const met_region_tally_t *t,
                                    met_node_extra_t *x, bool *out_host);
// The cost of a func.call into |x| (|*has| set when it carries one); |*host| set when the
// callee is host bookkeeping the lowering pipeline added (MET_CALLEE_HOST): no dispatch.
met_status_t met_adapter_call_cost(builder_t *b, MlirOperation op, MlirLocation loc,
                                   met_node_extra_t *x, bool *has, bool *host);

#endif
