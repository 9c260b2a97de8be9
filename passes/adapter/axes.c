// axes.c: how a node indexes its operands by its loops (met_node_axes_t and
// MET_NODE_F_SAME_INDEX, metrale/graph.h), read off the IR: a linalg op's indexing maps,
// linalg.softmax's dimension, tosa.matmul's and tosa.transpose's definitions, a reshape's
// shapes. What the IR says, no rule: lib/fusion.c decides what a target makes of it.
#include <string.h>

#include "adapter/state.h"
#include "ir/ir.h"
#include "ir/mlir_hooks.h"
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

// The static shape of |v| into |dims| (at most MET_AXES_RANK); its rank, or -1 when it
// is no ranked shaped type or has more dims.
static int shape_of(MlirValue v, int64_t *dims) {
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsAShaped(t) || !mlirShapedTypeHasRank(t)) return -1;
  intptr_t r = mlirShapedTypeGetRank(t);
  if (r > MET_AXES_RANK) return -1;
  for (intptr_t d = 0; d < r; ++d) dims[d] = mlirShapedTypeGetDimSize(t, d);
  return (int)r;
}

// A reshape (expand_shape, collapse_shape, tosa.reshape, tensor.reshape): the result's
// dims are the loops; a source dim names the result dim it becomes when the two are alone
// in their group (the products of the groups matched from the outside in, as MLIR's
// getReassociationIndicesForReshape does) but for dims of 1, which name none. A dynamic
// dim ends the matching: the dims after it name none.
static bool reshape_axes(MlirOperation op, met_node_axes_t *ax) {
  int64_t s[MET_AXES_RANK], r[MET_AXES_RANK];
  int ns = mlirOperationGetNumOperands(op) > 0 ? shape_of(mlirOperationGetOperand(op, 0), s) : -1;
  int nr = mlirOperationGetNumResults(op) == 1 ? shape_of(mlirOperationGetResult(op, 0), r) : -1;
  if (ns < 0 || nr < 0) return false;
  memset(ax, 0, sizeof(*ax));
  ax->loops = (uint8_t)nr;
  ax->maps = 2;
  ax->rank[0] = (uint8_t)ns;
  ax->rank[1] = (uint8_t)nr;
  ax->softmax_dim = MET_AXIS_NONE;
  for (int d = 0; d < ns; ++d) ax->loop[0][d] = MET_AXIS_NONE;
  for (int d = 0; d < nr; ++d) ax->loop[1][d] = (int8_t)d;
  int i = 0, j = 0;
  while (i < ns && j < nr) {
    if (s[i] == 1) { ++i; continue; }
    if (r[j] == 1) { ++j; continue; }
    if (s[i] < 0 || r[j] < 0) break;  // dynamic
    if (s[i] == r[j]) {
      ax->loop[0][i++] = (int8_t)j++;
      continue;
    }
    // A group that splits or merges dims: none of them is alone.
    uint64_t ps = (uint64_t)s[i++], pr = (uint64_t)r[j++];
    while (ps != pr) {
      if (ps < pr) {
        if (i == ns || s[i] < 0 || ps > UINT64_MAX / (uint64_t)(s[i] ? s[i] : 1)) return true;
        ps *= (uint64_t)s[i++];
      } else {
        if (j == nr || r[j] < 0 || pr > UINT64_MAX / (uint64_t)(r[j] ? r[j] : 1)) return true;
        pr *= (uint64_t)r[j++];
      }
    }
  }
  return true;
}

// What a linalg op's indexing maps say, per op operand (inputs, then inits), cached by
// the maps (uniqued; default maps by the op's name, as loops.c keys its patterns): they
// are read once per distinct list, not once per op (met_linalg_indexing_maps builds a
// named op's default maps anew on every call).
enum { MAPS_MAX = 8 };
typedef struct linalg_maps_t {
  bool usable;               // fits MAPS_MAX maps of MET_AXES_RANK dims and 32 loops
  bool identity;             // every map is the identity
  uint8_t nmaps, loops;
  uint32_t reduction;        // loops no init's map names
  uint8_t rank[MAPS_MAX];
  int8_t loop[MAPS_MAX][MET_AXES_RANK];
} linalg_maps_t;

static void read_maps(MlirAttribute maps, intptr_t ninits, linalg_maps_t *out) {
  memset(out, 0, sizeof(*out));
  if (mlirAttributeIsNull(maps) || !mlirAttributeIsAArray(maps)) return;
  intptr_t n = mlirArrayAttrGetNumElements(maps);
  if (n < 1 || n > MAPS_MAX || ninits < 1 || ninits > n) return;
  out->nmaps = (uint8_t)n;
  out->identity = true;
  uint32_t used = 0;
  for (intptr_t m = 0; m < n; ++m) {
    MlirAttribute a = mlirArrayAttrGetElement(maps, m);
    if (!mlirAttributeIsAAffineMap(a)) return;
    MlirAffineMap am = mlirAffineMapAttrGetValue(a);
    intptr_t nr = mlirAffineMapGetNumResults(am), nd = mlirAffineMapGetNumDims(am);
    if (nr > MET_AXES_RANK || nd > 32 || (m && nd != out->loops)) return;
    out->loops = (uint8_t)nd;
    out->identity &= mlirAffineMapIsIdentity(am);
    out->rank[m] = (uint8_t)nr;
    for (intptr_t i = 0; i < nr; ++i) {
      MlirAffineExpr e = mlirAffineMapGetResult(am, i);
      bool dim = mlirAffineExprIsADim(e);
      out->loop[m][i] = dim ? (int8_t)mlirAffineDimExprGetPosition(e) : (int8_t)MET_AXIS_NONE;
      if (dim && m >= n - ninits) used |= 1u << mlirAffineDimExprGetPosition(e);
    }
  }
  out->reduction = (out->loops == 32 ? UINT32_MAX : ((1u << out->loops) - 1u)) & ~used;
  out->usable = true;
}

static met_status_t cached_maps(builder_t *b, MlirOperation op, intptr_t ninits,
                                const linalg_maps_t **out) {
  met_adapter_cache_t *c = b->sh->cache;
  MlirAttribute maps = {NULL};
  const void *key;
  if (met_linalg_default_maps(op)) {
    key = mlirOperationGetName(op).ptr;
  } else {
    maps = met_linalg_indexing_maps(op);
    if (mlirAttributeIsNull(maps)) { *out = NULL; return MET_OK; }
    key = maps.ptr;
  }
  uint32_t k = met_ptrmap_get(&c->axescache, key);
  if (k == UINT32_MAX) {
    if (mlirAttributeIsNull(maps)) maps = met_linalg_indexing_maps(op);
    MET_RETURN_IF_ERROR(met_arena_reserve(&c->arena, (void **)&c->maps, &c->capmaps, c->nmaps,
                                          sizeof(*c->maps)));
    read_maps(maps, ninits, &c->maps[c->nmaps]);
    k = (uint32_t)c->nmaps++;
    MET_RETURN_IF_ERROR(met_ptrmap_put(&c->axescache, key, k));
  }
  *out = &c->maps[k];
  return MET_OK;
}

// The axes of a linalg op from its indexing maps: graph operand k's map is that of the op
// operand gmap names; the result's is its first init's. *|same| when every map is the
// identity (then no axes are needed). *|have| false when they cannot be described.
static met_status_t linalg_axes(builder_t *b, MlirOperation op, const int8_t *gmap, int ngraph,
                                met_node_axes_t *ax, bool *have, bool *same) {
  *have = false;
  intptr_t nres = mlirOperationGetNumResults(op);
  if (nres < 1) return MET_OK;
  const linalg_maps_t *lm;
  MET_RETURN_IF_ERROR(cached_maps(b, op, nres, &lm));
  if (!lm || !lm->usable || lm->nmaps != mlirOperationGetNumOperands(op)) return MET_OK;
  if (lm->identity) { *same = true; return MET_OK; }
  if (ngraph + 1 > MET_AXES_MAPS) return MET_OK;
  memset(ax, 0, sizeof(*ax));
  ax->softmax_dim = MET_AXIS_NONE;
  ax->maps = (uint8_t)(ngraph + 1);
  ax->loops = lm->loops;
  ax->reduction = lm->reduction;
  // Graph operand k is op operand i where gmap[i] == k; one the op does not name (a value
  // its region captures) has no map: rank 0, so no dim passes through it.
  for (int i = 0; i < lm->nmaps && i < MET_AXES_MAPS; ++i) {
    if (gmap[i] < 0 || gmap[i] >= ngraph) continue;
    ax->rank[gmap[i]] = lm->rank[i];
    memcpy(ax->loop[gmap[i]], lm->loop[i], MET_AXES_RANK);
  }
  int r = lm->nmaps - (int)nres;
  ax->rank[ngraph] = lm->rank[r];
  memcpy(ax->loop[ngraph], lm->loop[r], MET_AXES_RANK);
  *have = true;
  return MET_OK;
}

// Every graph operand the identity of |rank| dims: an op whose operands are indexed like
// its result (linalg.softmax), or the map of |loops| given per dim.
static void identity_axes(met_node_axes_t *ax, int ngraph, int rank) {
  memset(ax, 0, sizeof(*ax));
  ax->softmax_dim = MET_AXIS_NONE;
  ax->loops = (uint8_t)rank;
  ax->maps = (uint8_t)(ngraph + 1);
  for (int m = 0; m <= ngraph; ++m) {
    ax->rank[m] = (uint8_t)rank;
    for (int d = 0; d < rank; ++d) ax->loop[m][d] = (int8_t)d;
  }
}

static bool name_is(MlirStringRef n, const char *s) { return met_ir_str_eq(n, s); }

met_status_t met_adapter_node_axes(builder_t *b, MlirOperation op, MlirStringRef name,
                                   const op_entry_t *oe, uint32_t node, const int8_t *gmap) {
  met_node_t *n = &b->g->nodes[node];
  int ngraph = (int)n->operand_count;
  met_node_axes_t ax;
  bool have = false, same = false;
  // Ranks as the graph holds them (a scalar or unranked value: 0).
  int rank = n->result_count ? b->g->values[n->result_begin].rank : -1;
  if (rank > MET_AXES_RANK) rank = -1;
  if (n->kind == MET_NODE_VIEW) {
    if (name_is(name, "tensor.expand_shape") || name_is(name, "tensor.collapse_shape") ||
        name_is(name, "memref.expand_shape") || name_is(name, "memref.collapse_shape") ||
        name_is(name, "tosa.reshape") || name_is(name, "tensor.reshape")) {
      have = reshape_axes(op, &ax);
    } else if (name_is(name, "tensor.extract_slice") || name_is(name, "memref.subview") ||
               name_is(name, "tensor.cast") || name_is(name, "memref.cast") ||
               name_is(name, "tosa.slice") || name_is(name, "bufferization.to_tensor") ||
               name_is(name, "bufferization.to_buffer")) {
      // Dims stay where they are, unless the view drops some (a rank-reducing slice).
      same = ngraph > 0 && rank > 0 &&
             b->g->values[b->g->operands[n->operand_begin]].rank == rank;
    }
  } else if (n->kind == MET_NODE_COMPUTE) {
    if (oe->info.softmax && name_is(name, "linalg.softmax") && rank > 0 && ngraph + 1 <= MET_AXES_MAPS) {
      MlirAttribute d = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("dimension"));
      if (!mlirAttributeIsNull(d) && mlirAttributeIsAInteger(d)) {
        int64_t dim = mlirIntegerAttrGetValueInt(d);
        if (dim >= 0 && dim < rank) {
          identity_axes(&ax, ngraph, rank);
          ax.softmax_dim = (int8_t)dim;
          have = true;
        }
      }
    } else if (oe->is_linalg) {
      MET_RETURN_IF_ERROR(linalg_axes(b, op, gmap, ngraph, &ax, &have, &same));
    } else if (name_is(name, "tosa.matmul") && rank == 3 && ngraph >= 2 && ngraph + 1 <= MET_AXES_MAPS) {
      // [N,H,C] x [N,C,W] -> [N,H,W]: loops n h w c; its zero points (if tensors) no dims.
      memset(&ax, 0, sizeof(ax));
      ax.softmax_dim = MET_AXIS_NONE;
      ax.loops = 4;
      ax.maps = (uint8_t)(ngraph + 1);
      static const int8_t a[3] = {0, 1, 3}, bm[3] = {0, 3, 2}, c[3] = {0, 1, 2};
      ax.rank[0] = ax.rank[1] = ax.rank[ngraph] = 3;
      memcpy(ax.loop[0], a, 3);
      memcpy(ax.loop[1], bm, 3);
      memcpy(ax.loop[ngraph], c, 3);
      ax.reduction = 1u << 3;
      have = true;
    } else if (name_is(name, "tosa.transpose") && rank > 0 && ngraph == 1) {
      // result[i] = input[perms[i]].
      MlirAttribute p = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("perms"));
      if (!mlirAttributeIsNull(p) && mlirAttributeIsADenseI32Array(p) &&
          mlirDenseArrayGetNumElements(p) == rank) {
        identity_axes(&ax, 1, rank);
        bool ok = true;
        for (int i = 0; i < rank && ok; ++i) {
          int32_t src = mlirDenseI32ArrayGetElement(p, i);
          ok = src >= 0 && src < rank;
          if (ok) ax.loop[0][src] = (int8_t)i;
        }
        have = ok;
      }
    } else if (oe->info.op_class == MET_CLASS_ELEMENTWISE && !oe->is_transpose &&
               (oe->is_tosa ? !name_is(name, "tosa.table")
                            : met_ir_str_in_dialect(name, "arith.") ||
                                  met_ir_str_in_dialect(name, "math."))) {
      // Elementwise ops (TOSA's broadcast keeps each dim in place: a dim of 1 is read at 0).
      same = true;
    }
  }
  if (same) n->flags |= MET_NODE_F_SAME_INDEX;
  else if (have) MET_RETURN_IF_ERROR(met_graph_set_node_axes(b->g, node, &ax));
  return MET_OK;
}
