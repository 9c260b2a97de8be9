// fusion.c: the producer-consumer walk that forms dispatches on MET_FUSION_TFJS and
// MET_FUSION_IREE targets (metrale/budget.h lists each rule and the backend behaviour it
// models): fills cloned into their readers, TF.js's fused ops, IREE's root, loop-count
// and multi-use rules; which nodes form an attention is lib/fusion_attention.c.
// lib/fusion_mlir.c is MET_FUSION_MLIR's; budget_analysis.c runs them.
#include <stddef.h>
#include <string.h>

#include "budget_ctx.h"

// The groups that produced the operands of the node the walk is at, read once per node:
// |raw| holds each operand's producer's group_of entry (which no later step changes), and
// each use finds its group now (met_budget_find_group: merges may have joined it since).
// Nodes with more operands than |raw| holds read them each time.
typedef struct node_groups_t {
  const met_budget_ctx_t *c;
  const uint32_t *group_of;
  const met_node_t *node;
  bool cached;
  uint32_t raw[32];
} node_groups_t;

static void node_groups_init(node_groups_t *ng, const met_budget_ctx_t *c,
                             const uint32_t *group_of, const met_node_t *node) {
  ng->c = c;
  ng->group_of = group_of;
  ng->node = node;
  ng->cached = node->operand_count <= sizeof(ng->raw) / sizeof(ng->raw[0]);
  for (uint32_t i = 0; ng->cached && i < node->operand_count; ++i) {
    int32_t p = c->g->values[c->root[c->g->operands[node->operand_begin + i]]].producer;
    ng->raw[i] = p < 0 || c->g->nodes[p].kind != MET_NODE_COMPUTE ? UINT32_MAX : group_of[p];
  }
}

// The group that produced operand |i| (met_budget_producer_group of its root).
static inline uint32_t operand_group(const node_groups_t *ng, uint32_t i) {
  if (!ng->cached)
    return met_budget_producer_group(ng->c, ng->group_of,
                                     ng->c->root[ng->c->g->operands[ng->node->operand_begin + i]]);
  return ng->raw[i] == UINT32_MAX ? UINT32_MAX : met_budget_find_group(ng->c, ng->raw[i]);
}

// Operand slots of the node whose value was produced by group |grp|.
static uint64_t slots_of(const node_groups_t *ng, uint32_t grp) {
  uint64_t k = 0;
  for (uint32_t j = 0; j < ng->node->operand_count; ++j) k += operand_group(ng, j) == grp;
  return k;
}

// Whether every value the node reads from group |grp| is read by elementwise nodes
// alone (|ew_only|): ElementwiseOpFusion merges them into one op, the root's one consumer.
static bool ew_read_only(const node_groups_t *ng, uint32_t grp, const uint8_t *ew_only) {
  const met_graph_t *g = ng->c->g;
  bool any = false;
  for (uint32_t j = 0; j < ng->node->operand_count; ++j) {
    if (operand_group(ng, j) != grp) continue;
    if (!ew_only[ng->c->root[g->operands[ng->node->operand_begin + j]]]) return false;
    any = true;
  }
  return any;
}

// Numbers the surviving groups densely in order of first appearance (gopen is free once
// a plan is made and holds the new number of each root group); groups are then final.
void met_fusion_number_groups(met_budget_ctx_t *c, uint32_t *group_of) {
  uint32_t next = 0;
  for (uint32_t k = 0; k < c->ngroups; ++k) c->gopen[k] = UINT64_MAX;
  for (size_t n = 0; n < c->g->node_count; ++n) {
    if (group_of[n] == UINT32_MAX) continue;
    uint32_t root = met_budget_find_group(c, group_of[n]);
    if (c->gopen[root] == UINT64_MAX) c->gopen[root] = next++;
    group_of[n] = (uint32_t)c->gopen[root];
  }
  for (uint32_t k = 0; k < next; ++k) c->parent[k] = k;
  c->ngroups = next;
}

// MET_FUSION_IREE: an op IREE clones into each dispatch that uses it instead of giving it
// a dispatch (isClonableIntoDispatchOp): a fill, a widening cast, or a bit-extend generic
// (MET_NODE_F_BIT_EXTEND: the widening with its scales and zero points).
static bool cheap_clone(const met_graph_t *g, const met_node_t *node) {
  if (node->op_class == MET_CLASS_FILL || (node->flags & MET_NODE_F_BIT_EXTEND)) return true;
  if (!(node->flags & MET_NODE_F_CAST) || node->result_count != 1 || node->operand_count < 1)
    return false;
  return g->values[node->result_begin].bytes > g->values[g->operands[node->operand_begin]].bytes;
}

// MET_FUSION_IREE, MET_FUSION_TFJS: a linalg.fill is cloned into every dispatch that reads
// it (budget.h), however many there are, when each reader is a compute node on the fast
// path and the fill is not returned: it is no dispatch and never in memory.
met_status_t met_fusion_clone_fills(met_budget_ctx_t *c, const uint32_t *uses, const uint8_t *off) {
  const met_graph_t *g = c->g;
  met_arena_mark_t m = met_arena_mark(&c->tmp);
  uint32_t *reads;  // per node: reads of its result by compute nodes on the fast path
  MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, g->node_count ? g->node_count : 1,
                                       sizeof(uint32_t), (void **)&reads));
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind != MET_NODE_COMPUTE || off[n] || c->hoisted[n]) continue;
    for (uint32_t i = 0; i < node->operand_count; ++i) {
      int32_t p = g->values[c->root[g->operands[node->operand_begin + i]]].producer;
      if (p >= 0 && g->nodes[p].op_class == MET_CLASS_FILL) reads[p]++;
    }
  }
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind != MET_NODE_COMPUTE || node->op_class != MET_CLASS_FILL || off[n] ||
        node->result_count != 1 || c->hoisted[n])
      continue;
    uint32_t r = node->result_begin;
    c->cloned[n] = uses[r] > 0 && uses[r] == reads[n] && !c->returned[r];
  }
  met_arena_release_to(&c->tmp, m);
  return MET_OK;
}

// MET_FUSION_IREE's loop-count rules (budget.h) for |node| joining group |grp|. As a
// consumer of a root: no more loops than the root (isFusableWithConsumer; the rule that
// also compares with the op it reads meets the root itself, or an elementwise op that
// ElementwiseOpFusion has merged into this consumer before). As the first reader of a
// multi-use producer (|same|): as many loops as the member whose result it reads. Read
// through a reshape view, nothing is compared: IREE propagates the reshape into the
// group (BubbleUpExpandShapes), whose iteration space then has the consumer's shape.
static bool iree_loops_fit(const node_groups_t *ng, uint32_t grp, bool same) {
  const met_budget_ctx_t *c = ng->c;
  const met_graph_t *g = c->g;
  const met_node_t *node = ng->node;
  for (uint32_t i = 0; i < node->operand_count; ++i) {
    uint32_t o = g->operands[node->operand_begin + i], r = c->root[o];
    // A reshape keeps every byte of what it views (a slice does not).
    if (o != r && g->values[o].bytes == g->values[r].bytes && operand_group(ng, i) == grp)
      return true;
  }
  // iree.aggressive_fusion drops the consumer's rule (a larger iteration space joins).
  if (!same) return node->loops <= c->gloops[grp] || c->t->iree.aggressive_fusion;
  for (uint32_t i = 0; i < node->operand_count; ++i) {
    uint32_t r = c->root[g->operands[node->operand_begin + i]];
    if (operand_group(ng, i) != grp) continue;
    if (node->loops != g->nodes[g->values[r].producer].loops) return false;
  }
  return true;
}

// MET_FUSION_TFJS. What a node computes (its generalized computation, or its name).
static const char *node_what(const met_graph_t *g, const met_node_t *node) {
  const met_node_extra_t *x = met_graph_extra(g, node);
  return x && x->computation ? x->computation : node->name;
}

static bool what_in(const char *what, const char *const *list) {
  for (; *list; ++list)
    if (!strcmp(what, *list)) return true;
  return false;
}

// The converter's fused ops (tfjs-core's fused.conv2d, fused.depthwiseConv2d,
// fused.matMul, made from Grappler's _FusedConv2D / _FusedMatMul): the op, then a bias
// add, then one activation of 'relu', 'relu6', 'prelu', 'leakyrelu', 'elu', 'sigmoid'.
// The spellings those take here, named, TOSA and generalized (generic.c).
enum { TFJS_OPEN = 0, TFJS_BIAS = 1, TFJS_DONE = 2 };
static const char *const kTfjsBias[] = {"arith.addf", "arith.addi", "tosa.add", "linalg.add",
                                        NULL};
static const char *const kTfjsActivation[] = {
    // relu, relu6 (a max with 0, a clamp to [0, 6])
    "arith.maximumf", "arith.maxnumf", "tosa.maximum", "linalg.max", "tosa.clamp",
    "arith.maximumf+arith.minimumf", "arith.minimumf+arith.maximumf",
    "arith.maxnumf+arith.minnumf", "arith.minnumf+arith.maxnumf",
    // sigmoid (tosa-to-linalg's 1 / (1 + exp(-x)))
    "tosa.sigmoid", "arith.negf+math.exp+arith.addf+arith.divf",
    // leakyrelu, prelu (x < 0 ? a * x : x), elu (x < 0 ? exp(x) - 1 : x)
    "arith.cmpf+arith.mulf+arith.select", "arith.mulf+arith.cmpf+arith.select",
    "arith.cmpf+math.expm1+arith.select", "math.expm1+arith.cmpf+arith.select", NULL};

static bool tfjs_fusable_root(const met_node_t *node) {
  return node->op_class == MET_CLASS_MATMUL ||
         (node->op_class == MET_CLASS_CONV && !strstr(node->name, "pool"));
}

// MET_FUSION_TFJS: the stage |node| takes a fused op from |grp| to (whose result it reads
// through its only open use), or TFJS_OPEN when it does not join: it reads nothing else
// from another dispatch but generators it takes in with it (a bias broadcast).
static int tfjs_stage(const node_groups_t *ng, uint32_t grp) {
  const met_budget_ctx_t *c = ng->c;
  const met_graph_t *g = c->g;
  const met_node_t *node = ng->node;
  if (c->gstage[grp] == TFJS_DONE || node->result_count != 1 ||
      node->op_class != MET_CLASS_ELEMENTWISE)
    return TFJS_OPEN;
  for (uint32_t i = 0; i < node->operand_count; ++i) {
    uint32_t r = c->root[g->operands[node->operand_begin + i]];
    uint32_t pg = operand_group(ng, i);
    if (pg == grp) continue;
    if (pg != UINT32_MAX) {  // a broadcast it takes in, read only here
      if (c->gkind[pg] != G_GEN || c->gopen[pg] != slots_of(ng, pg))
        return TFJS_OPEN;
      continue;
    }
    // A leaf: the fused op's bias or alpha is a weight of the model (a constant, a
    // parameter, a load-time result) or a splat or fill; a run's own input (an activation
    // argument, a state) is not, so a residual add of one is a program of its own.
    int32_t p = g->values[r].producer;
    uint8_t role = g->values[r].role;
    bool weight = met_role_is_weight(role) || role == MET_ROLE_SPLAT || role == MET_ROLE_EMPTY ||
                  (p >= 0 && (c->cloned[p] || c->hoisted[p]));
    if (!weight) return TFJS_OPEN;
  }
  const char *what = node_what(g, node);
  if (c->gstage[grp] < TFJS_BIAS && what_in(what, kTfjsBias)) return TFJS_BIAS;
  return what_in(what, kTfjsActivation) ? TFJS_DONE : TFJS_OPEN;
}

// Per root value, the one node that reads it (READ_NONE, or READ_MANY for several), and
// whether every reader is an elementwise compute node (|ew_only|, 1; a returned value
// has the return as a reader).
static met_status_t sole_readers(met_budget_ctx_t *c, uint32_t **out, uint8_t **ew_only) {
  const met_graph_t *g = c->g;
  uint32_t *reader;
  uint8_t *ew;
  size_t nv = g->value_count ? g->value_count : 1;
  MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, nv, sizeof(uint32_t), (void **)&reader));
  MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, nv, 1, (void **)&ew));
  for (size_t v = 0; v < g->value_count; ++v) {
    reader[v] = READ_NONE;
    ew[v] = 1;
  }
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    if (node->kind == MET_NODE_VIEW || (node->flags & (MET_NODE_F_DEALLOC | MET_NODE_F_METADATA)))
      continue;
    bool elementwise = node->kind == MET_NODE_COMPUTE && node->op_class == MET_CLASS_ELEMENTWISE;
    for (uint32_t i = 0; i < node->operand_count; ++i) {
      uint32_t r = c->root[g->operands[node->operand_begin + i]];
      reader[r] = reader[r] == READ_NONE || reader[r] == n ? (uint32_t)n : READ_MANY;
      if (!elementwise) ew[r] = 0;
    }
  }
  *out = reader;
  *ew_only = ew;
  return MET_OK;
}


// MET_FUSION_IREE with epilogue_fusion, DetachElementwiseFromNamedOps (IREE's global
// optimization, before dispatch formation): a contraction or convolution whose init is
// the result of a linalg op other than a fill is given a zero-filled init, and a generic
// adds the old init to its result. ElementwiseOpFusion then merges the init's producer
// into that add when the add is its one reader, and the add, the root's one consumer,
// joins the root's dispatch. So the group of |node|'s init (its last operand: the value
// itself, not a view of it, as the pattern tests the init's defining op) joins |node|'s
// dispatch when it is an elementwise group (a broadcast of a bias, an elementwise chain)
// whose one open use is that init, and it is not read through any other operand. Returns
// that group, or UINT32_MAX.
static uint32_t detached_init(const node_groups_t *ng, const met_node_t *node, uint32_t grp) {
  const met_budget_ctx_t *c = ng->c;
  const met_graph_t *g = c->g;
  if (!c->iree || !c->t->epilogue_fusion || !(node->flags & MET_NODE_F_DPS_INIT) ||
      (node->op_class != MET_CLASS_MATMUL && node->op_class != MET_CLASS_CONV) ||
      node->result_count != 1 || node->operand_count < 2)
    return UINT32_MAX;
  uint32_t last = node->operand_count - 1, init = g->operands[node->operand_begin + last];
  if (c->root[init] != init) return UINT32_MAX;  // a view: its defining op is no linalg op
  int32_t p = g->values[init].producer;
  uint32_t pg = operand_group(ng, last);
  if (p < 0 || pg == UINT32_MAX || pg == grp || c->gclone[pg] ||
      g->nodes[p].op_class != MET_CLASS_ELEMENTWISE || g->values[init].rank == 0 ||
      (c->gkind[pg] != G_GEN && c->gkind[pg] != G_ELEMENTWISE))
    return UINT32_MAX;
  // Its one open use is this init (no other reader, not returned), read through no other
  // operand (then the add would not be the producer's one reader).
  if (c->gopen[pg] != 1 || slots_of(ng, pg) != 1) return UINT32_MAX;
  return pg;
}

// Whether |node| may join the dispatch |grp| of one of its operands by the target's
// model (the producer-consumer rules; met_fusion_plan then checks that it takes every
// slot of it). |*stage|: the TF.js epilogue stage it would take.
static bool may_join(const node_groups_t *ng, const met_node_t *node, uint32_t grp, int *stage) {
  const met_budget_ctx_t *c = ng->c;
  int k = c->gkind[grp];
  if (c->gsealed[grp]) return false;  // (a horizontal fusion's slices, an mmt4d, a pack)
  bool ew = node->op_class == MET_CLASS_ELEMENTWISE;
  if (c->iree) {
    // Elementwise producers fuse into an elementwise or reduction consumer (IREE's
    // elementwise fusion before dispatch formation); a root (matmul, conv) takes in
    // only what IREE clones.
    // A widening (a bit-extend generic or a widening cast) is no consumer of a root
    // (isFusableWithConsumer's first rule): IREE clones it into its readers' dispatches.
    bool red = node->op_class == MET_CLASS_REDUCTION;
    bool widening = cheap_clone(c->g, node) && node->op_class != MET_CLASS_FILL;
    // An unpack takes an elementwise consumer over its result's loops (FormDispatchRegions'
    // unpack rule; a reduction's packed dims are not known here: no reduction joins).
    if (c->gunpack[grp]) return ew && !widening && node->loops == c->gloops[grp];
    return (k == G_GEN && (ew || red || c->gclone[grp])) ||
           ((ew || red) && k == G_ELEMENTWISE) ||
           (ew && k == G_ANCHOR && c->t->epilogue_fusion && !widening &&
            iree_loops_fit(ng, grp, false));
  }
  // MET_FUSION_TFJS: a program per op; a fused matmul/conv takes its bias add and
  // activation when its result has no other reader (Grappler's remapper fuses a single
  // consumer).
  return k == G_ANCHOR && c->gopen[grp] == 1 && c->t->epilogue_fusion &&
         (*stage = tfjs_stage(ng, grp)) != TFJS_OPEN;
}

// IREE: a tensor.insert_slice whose destination is a linalg.fill's result joins the
// dispatch that computed its source, when the source (itself, not a view) has no other
// use (isFusableWithConsumer: insert slices are fused with their producers, into a fill
// destination: a pad's generalization). The fill becomes a splat. The group it joins, or
// UINT32_MAX; |*joined_k|: the operand slots it reads from that group.
static uint32_t insert_join(const node_groups_t *ng, const uint32_t *uses, uint64_t *joined_k) {
  const met_budget_ctx_t *c = ng->c;
  const met_graph_t *g = c->g;
  const met_node_t *node = ng->node;
  if (strcmp(node->name, "tensor.insert_slice") || node->operand_count < 2) return UINT32_MAX;
  uint32_t src = g->operands[node->operand_begin], dst = g->operands[node->operand_begin + 1];
  int32_t dp = g->values[dst].producer;
  uint32_t pg = operand_group(ng, 0);
  if (dp < 0 || strcmp(g->nodes[dp].name, "linalg.fill") || pg == UINT32_MAX ||
      c->gsealed[pg] || c->root[src] != src || uses[src] != 1 || c->returned[src] ||
      c->gopen[pg] != slots_of(ng, pg))
    return UINT32_MAX;
  *joined_k = slots_of(ng, pg);
  return pg;
}

// Whether |node| is a linalg or tensor |op| ("pack", "unpack").
static bool is_pack(const met_node_t *node, const char *op) {
  const char *dot = strchr(node->name, '.');
  return dot && !strcmp(dot + 1, op) &&
         (!strncmp(node->name, "linalg.", 7) || !strncmp(node->name, "tensor.", 7));
}

// iree.fuse_pad (FormDispatchRegions' fusePadWithConsumers): a tensor.pad (or a tosa.pad,
// which IREE converts to one) whose one use is an operand of a convolution or pooling
// (ConvolutionOpInterface: MET_CLASS_CONV) joins that op's dispatch |grp|: the padded
// tensor is never in memory, the dispatch reads the pad's source. Read through a view,
// or by more than one op, it stays a dispatch of its own.
static void fuse_pads(const node_groups_t *ng, const uint8_t *off, const uint32_t *uses,
                      uint32_t grp) {
  met_budget_ctx_t *c = (met_budget_ctx_t *)ng->c;
  const met_graph_t *g = c->g;
  const met_node_t *node = ng->node;
  if (node->op_class != MET_CLASS_CONV) return;
  for (uint32_t i = 0; i < node->operand_count; ++i) {
    uint32_t o = g->operands[node->operand_begin + i];
    int32_t p = g->values[o].producer;
    if (p < 0 || off[p] || c->root[o] != o || uses[o] != 1 || c->returned[o]) continue;
    const char *name = g->nodes[p].name;
    if (strcmp(name, "tensor.pad") && strcmp(name, "tosa.pad")) continue;
    uint32_t pg = operand_group(ng, i);
    if (pg == UINT32_MAX || pg == grp || c->gopen[pg] != 1) continue;
    c->parent[pg] = grp;
    c->gopen[pg] = 0;
  }
}

// A horizontal fusion computes one tensor that its members' results are slices of: each
// of its outputs (a member's result that no other member reads: a contraction's, or its
// truncation's) lives as long as the last of them is read (budget.h, IREE's modes).
static met_status_t horizontal_lifetimes(met_budget_ctx_t *c, const uint32_t *horiz,
                                         const uint32_t *reader) {
  const met_graph_t *g = c->g;
  int32_t *last;
  MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, g->node_count ? g->node_count : 1,
                                       sizeof(int32_t), (void **)&last));
  for (int pass = 0; pass < 2; ++pass)
    for (size_t n = 0; n < g->node_count; ++n) {
      uint32_t s = horiz[n];
      if (s == UINT32_MAX || g->nodes[n].result_count != 1) continue;
      uint32_t r = g->nodes[n].result_begin, t = reader[r];
      if (t < READ_MANY && horiz[t] == s) continue;  // its truncation is the output
      if (pass == 0 && c->last_use[r] > last[s]) last[s] = c->last_use[r];
      if (pass == 1) c->last_use[r] = last[s];
    }
  return MET_OK;
}

// The dispatch of one of its operands that |ng|'s node joins by the producer-consumer
// rules (with |*joined_k|, how many of its operand slots that group produced), or
// UINT32_MAX. |reader|, |ew_only|: sole_readers'; |*stage|: the TF.js stage it takes.
static uint32_t operand_join(const node_groups_t *ng, const uint32_t *reader,
                             const uint8_t *ew_only, int *stage, uint64_t *joined_k) {
  const met_budget_ctx_t *c = ng->c;
  const met_graph_t *g = c->g;
  const met_node_t *node = ng->node;
  for (uint32_t i = 0; i < node->operand_count; ++i) {
    uint32_t grp = operand_group(ng, i);
    if (grp == UINT32_MAX) continue;
    if (!may_join(ng, node, grp, stage)) continue;
    int k = c->gkind[grp];
    bool ew = node->op_class == MET_CLASS_ELEMENTWISE;
    uint64_t kcount = slots_of(ng, grp);
    if (c->gopen[grp] == kcount) { *joined_k = kcount; return grp; }
    // iree.aggressive_fusion: a root whose result has other readers fuses with the first
    // one (getFusableUse takes the use that dominates the others); the result stays a
    // result of the dispatch for the later readers.
    if (c->iree && c->t->iree.aggressive_fusion && k == G_ANCHOR && !c->gread[grp]) {
      c->gread[grp] = 1;  // the later readers stay apart: the new root is this consumer
      *joined_k = kcount;
      return grp;
    }
    // IREE's FuseMultiUseElementwiseProducer: an elementwise producer with other uses
    // fuses into the first elementwise op that reads it (which dominates the others);
    // its result stays a result of the dispatch for the later readers. A matmul's or
    // conv's epilogue is such a producer too (ElementwiseOpFusion merges a bias add with
    // the diamond that reads it, GELU's or SiLU's, before dispatches form; the merged
    // op is then the root's one consumer): the diamond joins the root's dispatch.
    // Not a node whose one reader is a reduction: that takes it in instead (the square
    // of an RMSNorm, the rule above).
    bool to_reduction = node->result_count == 1 && reader[node->result_begin] < READ_MANY &&
                        g->nodes[reader[node->result_begin]].op_class == MET_CLASS_REDUCTION;
    bool epilogue_value = k == G_ANCHOR && c->t->epilogue_fusion && !to_reduction &&
                          (c->groot[grp] == MET_CLASS_MATMUL || c->groot[grp] == MET_CLASS_CONV) &&
                          ew_read_only(ng, grp, ew_only);
    if (c->iree && ew && (k == G_ELEMENTWISE || k == G_GEN || epilogue_value) &&
        !c->gread[grp] && !c->gclone[grp] && !cheap_clone(g, node) &&
        iree_loops_fit(ng, grp, k != G_ANCHOR)) {  // (a diamond: a consumer of the root)
      *joined_k = kcount;
      return grp;
    }
  }
  return UINT32_MAX;
}

met_status_t met_fusion_plan(met_budget_ctx_t *c, const uint32_t *uses, const uint8_t *off,
                             uint32_t *group_of) {
  const met_graph_t *g = c->g;
  uint32_t *attn = NULL, *reader = NULL;
  uint8_t *ew_only = NULL;
  if (c->iree) MET_RETURN_IF_ERROR(sole_readers(c, &reader, &ew_only));
  if (c->iree && c->t->attention_fusion)
    MET_RETURN_IF_ERROR(met_fusion_attention_members(c, off, reader, &attn));
  uint32_t *horiz = NULL;  // per node: the seed of its horizontal fusion, or UINT32_MAX
  if (c->iree && c->t->iree.horizontal_fusion)
    MET_RETURN_IF_ERROR(met_fusion_horizontal_members(c, off, reader, attn, &horiz));
  for (size_t n = 0; n < g->node_count; ++n) {
    const met_node_t *node = &g->nodes[n];
    group_of[n] = UINT32_MAX;
    if (node->kind != MET_NODE_COMPUTE || c->hoisted[n] || c->cloned[n]) continue;
    node_groups_t ng;
    node_groups_init(&ng, c, group_of, node);
    int own = off[n] ? G_SOLO : met_budget_group_kind_for(node->op_class);
    // An elementwise node that reads only leaves is a generator too.
    bool reads_dispatch = false;
    for (uint32_t i = 0; i < node->operand_count; ++i)
      reads_dispatch |= operand_group(&ng, i) != UINT32_MAX;
    // (On MET_FUSION_TFJS only a broadcast: its reader broadcasts implicitly; any other
    // op is a program of its own.)
    if (own == G_ELEMENTWISE && !reads_dispatch &&
        (!c->tfjs || !strcmp(node_what(g, node), "linalg.broadcast")))
      own = G_GEN;
    int stage = TFJS_OPEN;
    uint32_t joined = UINT32_MAX;
    uint64_t joined_k = 0;
    if (attn && attn[n] != UINT32_MAX && attn[n] != n && group_of[attn[n]] != UINT32_MAX) {
      // A member of an attention joins the dispatch of its first matmul.
      joined = met_budget_find_group(c, group_of[attn[n]]);
      joined_k = slots_of(&ng, joined);
    } else if (horiz && horiz[n] != UINT32_MAX && horiz[n] != n &&
               group_of[horiz[n]] != UINT32_MAX) {
      // A member of a horizontal fusion joins its seed's dispatch (one op once fused).
      joined = met_budget_find_group(c, group_of[horiz[n]]);
      joined_k = slots_of(&ng, joined);
    }
    // IREE: a pack joins the dispatch whose result it packs, its one use (the pack rule of
    // isFusableWithConsumer: a linalg root's result, or a pad, packed as it is written).
    if (joined == UINT32_MAX && !off[n] && c->iree && is_pack(node, "pack") &&
        node->operand_count > 0) {
      uint32_t pg = operand_group(&ng, 0);
      if (pg != UINT32_MAX && !c->gsealed[pg] && !c->gunpack[pg] &&
          c->gopen[pg] == slots_of(&ng, pg)) {
        joined = pg;
        joined_k = slots_of(&ng, pg);
      }
    }
    if (joined == UINT32_MAX && !off[n] && c->iree) joined = insert_join(&ng, uses, &joined_k);
    if (joined == UINT32_MAX && !off[n]) joined = operand_join(&ng, reader, ew_only, &stage, &joined_k);
    uint32_t grp = joined;
    if (grp != UINT32_MAX) {
      c->gopen[grp] -= joined_k;
      // A generator group that takes in a node stops being one: the node reads a result
      // of the group, not only leaves (so |own| is never G_GEN here).
      if (c->gkind[grp] == G_GEN || (own == G_ANCHOR && c->gkind[grp] == G_ELEMENTWISE)) {
        c->gkind[grp] = (uint8_t)own;  // (a reduction that took in an elementwise group)
        c->gloops[grp] = node->loops;  // and is its root
        c->groot[grp] = node->op_class;
      }
      c->gclone[grp] &= cheap_clone(g, node);
      c->gstage[grp] = (uint8_t)stage;
    } else {
      grp = c->ngroups++;
      c->gkind[grp] = (uint8_t)own;
      c->gclone[grp] = cheap_clone(g, node);
      c->gstage[grp] = c->tfjs && !tfjs_fusable_root(node) ? TFJS_DONE : TFJS_OPEN;
      c->gloops[grp] = node->loops;
      c->groot[grp] = node->op_class;
      c->gopen[grp] = 0;
      c->parent[grp] = grp;
    }
    group_of[n] = grp;
    // A horizontal fusion's results leave through slices; an mmt4d takes no consumer
    // (FormDispatchRegions: its backends cannot configure one, #16025).
    if ((horiz && horiz[n] != UINT32_MAX) ||
        (c->iree && (!strcmp(node->name, "linalg.mmt4d") || !strcmp(node->name, "linalg.batch_mmt4d"))))
      c->gsealed[grp] = 1;
    if (c->iree && (is_pack(node, "pack") || !strcmp(node->name, "tensor.insert_slice")))
      c->gsealed[grp] = 1;
    if (c->iree && joined == UINT32_MAX && is_pack(node, "unpack")) c->gunpack[grp] = 1;
    // A detached init's producers join the root (detached_init).
    uint32_t dg = off[n] ? UINT32_MAX : detached_init(&ng, node, grp);
    if (dg != UINT32_MAX) {
      c->parent[dg] = grp;
      c->gopen[dg] = 0;
    }
    // Generators whose every open use is by this node are cloned into its dispatch; on
    // IREE also a group of widenings alone (cheap to clone) that read another dispatch.
    for (uint32_t i = 0; i < node->operand_count && !off[n]; ++i) {
      uint32_t pg = operand_group(&ng, i);
      if (pg == UINT32_MAX || pg == grp ||
          (c->gkind[pg] != G_GEN && !(c->iree && c->gkind[pg] == G_ELEMENTWISE && c->gclone[pg])))
        continue;
      if (c->iree && !c->gclone[pg] && node->op_class != MET_CLASS_ELEMENTWISE &&
          node->op_class != MET_CLASS_REDUCTION)
        continue;  // IREE: only cheap ops are cloned into a root
      if (c->tfjs && node->op_class != MET_CLASS_ELEMENTWISE)
        continue;  // TF.js: only an elementwise op broadcasts an operand
      if (c->gopen[pg] != slots_of(&ng, pg)) continue;
      c->parent[pg] = grp;
      c->gopen[pg] = 0;
    }
    if (c->iree && c->t->iree.fuse_pad && !off[n]) fuse_pads(&ng, off, uses, grp);
    for (uint32_t r = 0; r < node->result_count; ++r) c->gopen[grp] += uses[node->result_begin + r];
    // Groups this node reads from outside: no later node is their first reader.
    for (uint32_t i = 0; c->iree && i < node->operand_count; ++i) {
      uint32_t pg = operand_group(&ng, i);
      if (pg != UINT32_MAX && pg != met_budget_find_group(c, grp)) c->gread[pg] = 1;
    }
  }
  if (horiz) MET_RETURN_IF_ERROR(horizontal_lifetimes(c, horiz, reader));
  met_fusion_number_groups(c, group_of);
  return MET_OK;
}
