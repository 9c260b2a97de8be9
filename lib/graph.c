// graph.c: building met_graph_t. Appends only; arrays grow by doubling in the arena.
// Expected workload: one call per value, operand and node of a function (up to ~10^6).
#include "metrale/graph.h"

#include "metrale/checked.h"

#include <string.h>

void met_graph_initialize(met_arena_t *arena, met_graph_t *graph) {
  memset(graph, 0, sizeof(*graph));
  graph->arena = arena;
}

static met_status_t push_value(met_graph_t *g, const met_value_t *v, uint32_t *out) {
  if (g->value_count >= UINT32_MAX - 1) return MET_EOVERFLOW;
  met_status_t st = met_arena_reserve(g->arena, (void **)&g->values, &g->value_cap,
                                      g->value_count, sizeof(met_value_t));
  if (st) return st;
  g->values[g->value_count] = *v;
  *out = (uint32_t)g->value_count++;
  return MET_OK;
}

met_status_t met_graph_add_argument(met_graph_t *graph, const met_value_t *value,
                                    uint32_t *out_value) {
  if (graph->node_count) return MET_EINVAL;
  met_value_t v = *value;
  v.producer = -1;
  met_status_t st = push_value(graph, &v, out_value);
  if (!st) graph->arg_count++;
  return st;
}

met_status_t met_graph_begin_node(met_graph_t *graph, const char *name, size_t name_len,
                                  met_node_kind_t kind, met_op_class_t op_class,
                                  int32_t position, uint64_t ext, uint32_t *out_node) {
  if (graph->node_count >= INT32_MAX) return MET_EOVERFLOW;
  if (position < 0) position = (int32_t)graph->position_count;
  if ((uint32_t)position + 1 < graph->position_count) return MET_EINVAL;
  met_status_t st = met_arena_reserve(graph->arena, (void **)&graph->nodes, &graph->node_cap,
                                      graph->node_count, sizeof(met_node_t));
  if (st) return st;
  met_node_t *n = &graph->nodes[graph->node_count];
  memset(n, 0, sizeof(*n));
  (void)name_len;
  n->name = name;
  n->kind = (uint8_t)kind;
  n->op_class = (uint8_t)op_class;
  n->position = position;
  n->operand_begin = (uint32_t)graph->operand_count;
  n->result_begin = (uint32_t)graph->value_count;
  n->ext = ext;
  if ((uint32_t)position + 1 > graph->position_count) graph->position_count = (uint32_t)position + 1;
  *out_node = (uint32_t)graph->node_count++;
  return MET_OK;
}

met_status_t met_graph_add_operand(met_graph_t *graph, uint32_t value) {
  if (!graph->node_count || value >= graph->value_count) return MET_EINVAL;
  if (graph->operand_count >= UINT32_MAX) return MET_EOVERFLOW;
  met_status_t st = met_arena_reserve(graph->arena, (void **)&graph->operands,
                                      &graph->operand_cap, graph->operand_count,
                                      sizeof(uint32_t));
  if (st) return st;
  graph->operands[graph->operand_count++] = value;
  graph->nodes[graph->node_count - 1].operand_count++;
  return MET_OK;
}

met_status_t met_graph_set_extra(met_graph_t *graph, const met_node_extra_t *extra) {
  if (!graph->node_count || graph->extra_count >= UINT32_MAX - 1) return MET_EINVAL;
  met_status_t st = met_arena_reserve(graph->arena, (void **)&graph->extras, &graph->extra_cap,
                                      graph->extra_count, sizeof(met_node_extra_t));
  if (st) return st;
  graph->extras[graph->extra_count++] = *extra;
  graph->nodes[graph->node_count - 1].extra = (uint32_t)graph->extra_count;
  return MET_OK;
}

met_status_t met_graph_add_result(met_graph_t *graph, const met_value_t *value,
                                  uint32_t *out_value) {
  if (!graph->node_count) return MET_EINVAL;
  met_node_t *n = &graph->nodes[graph->node_count - 1];
  if (n->result_begin + n->result_count != graph->value_count) return MET_EINVAL;
  met_value_t v = *value;
  v.producer = (int32_t)(graph->node_count - 1);
  v.arg_index = -1;
  met_status_t st = push_value(graph, &v, out_value);
  if (!st) n->result_count++;
  return st;
}

// Grows a names array to hold index |i| (new entries NULL), at least doubling.
static met_status_t grow_names(met_arena_t *arena, const char ***items, size_t *cap, size_t i,
                               size_t hint) {
  if (i < *cap) return MET_OK;
  size_t want = *cap * 2 > hint ? *cap * 2 : hint;
  if (want <= i) want = i + 1;
  const char **p;
  met_status_t st = met_arena_calloc(arena, want, sizeof(*p), (void **)&p);
  if (st) return st;
  if (*items && *cap) memcpy(p, *items, *cap * sizeof(*p));
  *items = p;
  *cap = want;
  return MET_OK;
}

met_status_t met_graph_set_value_name(met_graph_t *g, uint32_t v, const char *name) {
  if (v >= g->value_count) return MET_EINVAL;
  MET_RETURN_IF_ERROR(grow_names(g->arena, &g->value_names, &g->value_names_cap, v, g->value_cap));
  g->value_names[v] = name;
  return MET_OK;
}

met_status_t met_graph_set_node_loc(met_graph_t *g, uint32_t n, const char *loc) {
  if (n >= g->node_count) return MET_EINVAL;
  MET_RETURN_IF_ERROR(grow_names(g->arena, &g->node_locs, &g->node_locs_cap, n, g->node_cap));
  g->node_locs[n] = loc;
  return MET_OK;
}

met_status_t met_graph_set_node_axes(met_graph_t *g, uint32_t n, const met_node_axes_t *axes) {
  if (n >= g->node_count || !axes || axes->maps == 0 || axes->maps > MET_AXES_MAPS ||
      axes->loops > 32)
    return MET_EINVAL;
  for (uint8_t m = 0; m < axes->maps; ++m) {
    if (axes->rank[m] > MET_AXES_RANK) return MET_EINVAL;
    for (uint8_t d = 0; d < axes->rank[m]; ++d)
      if (axes->loop[m][d] < MET_AXIS_NONE || axes->loop[m][d] >= (int)axes->loops)
        return MET_EINVAL;
  }
  if (n >= g->node_axes_cap) {
    size_t want = g->node_axes_cap * 2 > g->node_cap ? g->node_axes_cap * 2 : g->node_cap;
    if (want <= n) want = (size_t)n + 1;
    const met_node_axes_t **p;
    MET_RETURN_IF_ERROR(met_arena_calloc(g->arena, want, sizeof(*p), (void **)&p));
    if (g->node_axes && g->node_axes_cap) memcpy(p, g->node_axes, g->node_axes_cap * sizeof(*p));
    g->node_axes = p;
    g->node_axes_cap = want;
  }
  met_node_axes_t *copy;
  MET_RETURN_IF_ERROR(met_arena_calloc(g->arena, 1, sizeof(*copy), (void **)&copy));
  *copy = *axes;
  g->node_axes[n] = copy;
  return MET_OK;
}

met_status_t met_graph_set_operand_access(met_graph_t *g, size_t i, met_access_t access) {
  if (i >= g->operand_count || access > MET_ACCESS_UPDATE) return MET_EINVAL;
  if (i >= g->operand_access_cap) {
    size_t want = g->operand_access_cap * 2 > g->operand_cap ? g->operand_access_cap * 2
                                                              : g->operand_cap;
    if (want <= i) want = i + 1;
    uint8_t *p;
    MET_RETURN_IF_ERROR(met_arena_calloc(g->arena, want, 1, (void **)&p));
    if (g->operand_access && g->operand_access_cap) memcpy(p, g->operand_access, g->operand_access_cap);
    g->operand_access = p;
    g->operand_access_cap = want;
  }
  g->operand_access[i] = (uint8_t)access;
  return MET_OK;
}

met_status_t met_graph_set_operand_bound(met_graph_t *g, size_t i, uint64_t bytes) {
  if (i >= g->operand_count) return MET_EINVAL;
  if (i >= g->operand_bound_cap) {
    size_t want = g->operand_bound_cap * 2 > g->operand_cap ? g->operand_bound_cap * 2
                                                            : g->operand_cap;
    if (want <= i) want = i + 1;
    uint64_t *p;
    MET_RETURN_IF_ERROR(met_arena_calloc(g->arena, want, sizeof(uint64_t), (void **)&p));
    if (g->operand_bound && g->operand_bound_cap)
      memcpy(p, g->operand_bound, g->operand_bound_cap * sizeof(uint64_t));
    g->operand_bound = p;
    g->operand_bound_cap = want;
  }
  g->operand_bound[i] = bytes;
  return MET_OK;
}

static met_status_t reserve_exact(met_arena_t *arena, void **items, size_t *cap, size_t count,
                                  size_t want, size_t elem) {
  if (want <= *cap) return MET_OK;
  // Not zeroed: every entry is written whole when it is added (a 1M-op graph's arrays are
  // ~90 MB that a memset would touch once more).
  size_t bytes;
  if (!met_mul_size(want, elem, &bytes)) return MET_EOVERFLOW;
  void *p = met_arena_alloc(arena, bytes);
  if (!p) return MET_ENOMEM;
  if (*items && count) memcpy(p, *items, count * elem);
  *items = p;
  *cap = want;
  return MET_OK;
}

met_status_t met_graph_reserve(met_graph_t *graph, size_t nodes, size_t values,
                               size_t operands) {
  met_status_t st = reserve_exact(graph->arena, (void **)&graph->nodes, &graph->node_cap,
                                  graph->node_count, nodes, sizeof(met_node_t));
  if (!st) st = reserve_exact(graph->arena, (void **)&graph->values, &graph->value_cap,
                              graph->value_count, values, sizeof(met_value_t));
  if (!st) st = reserve_exact(graph->arena, (void **)&graph->operands, &graph->operand_cap,
                              graph->operand_count, operands, sizeof(uint32_t));
  return st;
}

// The map index of operand |m| (or the result) of a node with axes |ax| and |count|
// operands; -1 when it has none.
static int axes_slot(const met_node_axes_t *ax, uint32_t count, int m) {
  if (m == MET_AXES_RESULT) return ax->maps - 1;
  return m >= 0 && (uint32_t)m < count && m < ax->maps - 1 ? m : -1;
}

// The rank of operand |m| of |node| (or of its first result).
static int operand_rank(const met_graph_t *g, const met_node_t *node, int m) {
  if (m == MET_AXES_RESULT) return node->result_count ? g->values[node->result_begin].rank : -1;
  if (m < 0 || (uint32_t)m >= node->operand_count) return -1;
  return g->values[g->operands[node->operand_begin + (uint32_t)m]].rank;
}

int met_graph_axis_loop(const met_graph_t *g, uint32_t n, int m, int d) {
  const met_node_axes_t *ax = met_graph_node_axes(g, n);
  if (!ax || d < 0) return MET_AXIS_NONE;
  int s = axes_slot(ax, g->nodes[n].operand_count, m);
  return s < 0 || d >= ax->rank[s] ? MET_AXIS_NONE : ax->loop[s][d];
}

int met_graph_axis_through(const met_graph_t *g, uint32_t n, int from, int d, int to) {
  if (n >= g->node_count || d < 0) return MET_AXIS_NONE;
  const met_node_t *node = &g->nodes[n];
  const met_node_axes_t *ax = met_graph_node_axes(g, n);
  if (!ax) {
    if (!(node->flags & MET_NODE_F_SAME_INDEX)) return MET_AXIS_NONE;
    int rf = operand_rank(g, node, from), rt = operand_rank(g, node, to);
    int rr = operand_rank(g, node, MET_AXES_RESULT);
    return rf == rr && rt == rr && d < rr ? d : MET_AXIS_NONE;
  }
  int l = met_graph_axis_loop(g, n, from, d);
  int t = axes_slot(ax, node->operand_count, to);
  if (l == MET_AXIS_NONE || t < 0) return MET_AXIS_NONE;
  int found = MET_AXIS_NONE;
  for (int e = 0; e < ax->rank[t]; ++e)
    if (ax->loop[t][e] == l) {
      if (found != MET_AXIS_NONE) return MET_AXIS_NONE;
      found = e;
    }
  return found;
}
