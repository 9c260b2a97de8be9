// fusion_attention.c: attention on MET_FUSION_IREE targets with attention_fusion
// (budget.h, attention): which nodes form one attention, followed by the dims the ops'
// indexing maps keep. fusion.c's walk joins them into one dispatch.
#include <stddef.h>
#include <string.h>

#include "budget_ctx.h"

static bool attention_candidate(const met_budget_ctx_t *c, uint32_t n, const uint8_t *off) {
  const met_node_t *node = &c->g->nodes[n];
  return node->kind == MET_NODE_COMPUTE && !c->hoisted[n] && !c->cloned[n] && !off[n] &&
         !(met_graph_extra(c->g, node) && met_graph_extra(c->g, node)->replaces_dispatch);
}

// Dim |axis| of value |u| at the value it views (its root), through each view between
// (their axes: a reshape keeps a dim that is alone in its group); MET_AXIS_NONE when one
// merges it or says nothing.
static int axis_to_root(const met_graph_t *g, uint32_t u, int axis) {
  for (int k = 0; k < 32 && axis != MET_AXIS_NONE; ++k) {
    if (g->values[u].alias < 0) return axis;
    int32_t p = g->values[u].producer;
    if (p < 0 || g->nodes[p].kind != MET_NODE_VIEW) return MET_AXIS_NONE;
    axis = met_graph_axis_through(g, (uint32_t)p, MET_AXES_RESULT, axis, 0);
    u = (uint32_t)g->values[u].alias;
  }
  return MET_AXIS_NONE;
}

// The other way: dim |axis| of |u|'s root at |u|.
static int axis_from_root(const met_graph_t *g, uint32_t u, int axis) {
  uint32_t views[32];
  int n = 0;
  while (g->values[u].alias >= 0) {
    int32_t p = g->values[u].producer;
    if (n == 32 || p < 0 || g->nodes[p].kind != MET_NODE_VIEW) return MET_AXIS_NONE;
    views[n++] = (uint32_t)p;
    u = (uint32_t)g->values[u].alias;
  }
  while (n-- > 0 && axis != MET_AXIS_NONE)
    axis = met_graph_axis_through(g, views[n], 0, axis, MET_AXES_RESULT);
  return axis;
}

// Whether loop |l| indexes a dim of operand |m| of node |n|.
static bool loop_indexes(const met_graph_t *g, uint32_t n, int m, int l) {
  for (int d = 0; d < MET_AXES_RANK; ++d)
    if (met_graph_axis_loop(g, n, m, d) == l) return true;
  return false;
}

// A reduction loop that indexes both inputs of node |n|: a contraction.
static bool contracts(const met_graph_t *g, uint32_t n) {
  const met_node_axes_t *ax = met_graph_node_axes(g, n);
  for (int l = 0; ax && l < ax->loops; ++l)
    if ((ax->reduction >> l & 1) && loop_indexes(g, n, 0, l) && loop_indexes(g, n, 1, l))
      return true;
  return false;
}

// Whether node |n| reads operand |m| element for element: every dim of it is one of its
// result's loops and every result loop indexes it (no broadcast, no row read twice: a
// map (i, j) -> (0, j) is not).
static bool full_read(const met_graph_t *g, uint32_t n, int m) {
  const met_node_t *node = &g->nodes[n];
  if ((uint32_t)m >= node->operand_count || !node->result_count) return false;
  int rr = g->values[node->result_begin].rank;
  if (g->values[g->operands[node->operand_begin + (uint32_t)m]].rank != rr) return false;
  const met_node_axes_t *ax = met_graph_node_axes(g, n);
  if (!ax) return (node->flags & MET_NODE_F_SAME_INDEX) != 0;
  for (int d = 0; d < rr; ++d) {
    int l = met_graph_axis_loop(g, n, m, d);
    if (l == MET_AXIS_NONE || !loop_indexes(g, n, MET_AXES_RESULT, l)) return false;
  }
  return true;
}

// The ops that may stand between the softmax and P.V: what changes the probabilities'
// type or layout, not their values (an online softmax normalizes once, at the end, so
// P + c, exp(P), a mask added to P and the like are no attention): casts, transposes and
// copies.
static bool keeps_values(const met_graph_t *g, const met_node_t *node) {
  if (node->flags & MET_NODE_F_CAST) return true;
  const met_node_extra_t *x = met_graph_extra(g, node);
  const char *what = x && x->computation ? x->computation : node->name;
  return !strcmp(what, "linalg.transpose") || !strcmp(what, "tosa.transpose") ||
         !strcmp(what, "linalg.copy") || !strcmp(what, "stablehlo.transpose");
}

enum { ATTN_CHAIN = 20 };
typedef struct attn_walk_t {
  met_budget_ctx_t *c;
  const uint8_t *off;
  const uint32_t *reader;
  uint32_t chain[ATTN_CHAIN];
  size_t len;
  uint32_t first;
} attn_walk_t;

// Back from operand |i| of node |cur|, whose dim |axis| is the softmax's, to the matmul
// that makes the scores (budget.h, attention): each op the one reader of the value before
// it; an elementwise op takes the scores through the operand that leads back to that
// matmul, and its other operands (a scale, a mask computed in the graph) are inputs of the
// attention. The softmax's axis must be a loop of that matmul indexing exactly one of its
// two inputs (the keys' rows; the queries' when the roles are swapped), never a batch dim
// both index, and the matmul must contract a loop both index.
static bool attn_back(attn_walk_t *w, uint32_t cur, uint32_t i, int axis, int depth) {
  const met_graph_t *g = w->c->g;
  const met_node_t *cn = &g->nodes[cur];
  uint32_t u = g->operands[cn->operand_begin + i], v = w->c->root[u];
  // The scores come in through this one operand, read element for element (S + S^T in
  // one generic, or a row of S broadcast, is no attention).
  for (uint32_t k = 0; k < cn->operand_count; ++k)
    if (k != i && w->c->root[g->operands[cn->operand_begin + k]] == v) return false;
  if (!full_read(g, cur, (int)i)) return false;
  axis = axis_to_root(g, u, axis);
  int32_t p = g->values[v].producer;
  if (axis == MET_AXIS_NONE || p < 0 || w->reader[v] != cur || depth > 10 ||
      w->len >= ATTN_CHAIN || !attention_candidate(w->c, (uint32_t)p, w->off))
    return false;
  const met_node_t *pn = &g->nodes[p];
  if (pn->result_count != 1) return false;
  if (pn->op_class == MET_CLASS_MATMUL) {
    int l = met_graph_axis_loop(g, (uint32_t)p, MET_AXES_RESULT, axis);
    if (l == MET_AXIS_NONE || pn->operand_count < 2 ||
        loop_indexes(g, (uint32_t)p, 0, l) == loop_indexes(g, (uint32_t)p, 1, l) ||
        !contracts(g, (uint32_t)p))
      return false;
    w->first = (uint32_t)p;
    return true;
  }
  if (pn->op_class != MET_CLASS_ELEMENTWISE) return false;
  size_t save = w->len;
  w->chain[w->len++] = (uint32_t)p;
  for (uint32_t k = 0; k < pn->operand_count; ++k) {
    int a = met_graph_axis_through(g, (uint32_t)p, MET_AXES_RESULT, axis, (int)k);
    if (a == MET_AXIS_NONE) continue;
    if (attn_back(w, (uint32_t)p, k, a, depth + 1)) return true;
    w->len = save + 1;
  }
  w->len = save;
  return false;
}

// On from the softmax |s| to the matmul that reads the probabilities (P.V): each op the
// one reader of the value before it, elementwise ops (casts, a transpose) between, and the
// softmax's axis must reach the loop that matmul contracts with its other input.
static bool attn_forward(attn_walk_t *w, uint32_t s, int axis, uint32_t *last) {
  const met_graph_t *g = w->c->g;
  uint32_t v = g->nodes[s].result_begin;
  while (w->len < ATTN_CHAIN) {
    uint32_t q = w->reader[v];
    if (q >= READ_MANY || !attention_candidate(w->c, q, w->off)) return false;
    const met_node_t *qn = &g->nodes[q];
    int at = -1;
    for (uint32_t k = 0; k < qn->operand_count; ++k)
      if (w->c->root[g->operands[qn->operand_begin + k]] == v) {
        if (at >= 0) return false;  // it reads the probabilities twice
        at = (int)k;
      }
    if (at < 0) return false;
    int a = axis_from_root(g, g->operands[qn->operand_begin + (uint32_t)at], axis);
    if (a == MET_AXIS_NONE) return false;
    if (qn->op_class == MET_CLASS_MATMUL) {
      const met_node_axes_t *ax = met_graph_node_axes(g, q);
      int l = met_graph_axis_loop(g, q, at, a);
      if (at > 1 || !ax || l == MET_AXIS_NONE || !(ax->reduction >> l & 1) ||
          !loop_indexes(g, q, 1 - at, l))
        return false;
      *last = q;
      return true;
    }
    if (qn->op_class != MET_CLASS_ELEMENTWISE || qn->result_count != 1 ||
        !keeps_values(g, qn) || !full_read(g, q, at))
      return false;
    axis = met_graph_axis_through(g, q, at, a, MET_AXES_RESULT);
    if (axis == MET_AXIS_NONE) return false;
    w->chain[w->len++] = q;
    v = qn->result_begin;
  }
  return false;
}

met_status_t met_fusion_attention_members(met_budget_ctx_t *c, const uint8_t *off,
                                          const uint32_t *reader, uint32_t **out) {
  const met_graph_t *g = c->g;
  uint32_t *attn;
  MET_RETURN_IF_ERROR(met_arena_calloc(&c->tmp, g->node_count ? g->node_count : 1,
                                       sizeof(uint32_t), (void **)&attn));
  for (size_t n = 0; n < g->node_count; ++n) attn[n] = UINT32_MAX;
  for (uint32_t s = 0; s < g->node_count; ++s) {
    const met_node_t *sm = &g->nodes[s];
    const met_node_axes_t *ax = met_graph_node_axes(g, s);
    if (!(sm->flags & MET_NODE_F_SOFTMAX) || !ax || ax->softmax_dim == MET_AXIS_NONE ||
        sm->result_count != 1 || sm->operand_count < 1 || !attention_candidate(c, s, off))
      continue;
    attn_walk_t w = {c, off, reader, {0}, 0, UINT32_MAX};
    w.chain[w.len++] = s;
    int in = met_graph_axis_through(g, s, MET_AXES_RESULT, ax->softmax_dim, 0);
    uint32_t last = UINT32_MAX;
    if (in == MET_AXIS_NONE || !attn_back(&w, s, 0, in, 0) ||
        !attn_forward(&w, s, ax->softmax_dim, &last))
      continue;
    attn[w.first] = w.first;
    attn[last] = w.first;
    for (size_t k = 0; k < w.len; ++k) attn[w.chain[k]] = w.first;
  }
  *out = attn;
  return MET_OK;
}
