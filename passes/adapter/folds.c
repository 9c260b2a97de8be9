// folds.c: what a compiler folds or erases before any kernel exists, as the build finds
// it (metrale/graph.h: Splat folding, Dead ops): whether an op computing only on splat
// constants folds to a splat, the dead ops met_scan_body reports, and the remarks that
// say so (one per function unless each is asked for).
#include "adapter/state.h"

#include <string.h>

#include "ir/ir.h"
#include "ir/mlir_hooks.h"
#include "ir/types.h"

// The remark of one splat fold, at the op.
met_status_t met_adapter_splat_remark(adapter_shared_t *sh, MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return met_diag_add(sh->arena, sh->diags, mlirOperationGetLocation(op), MET_DIAG_REMARK,
                      "'%.*s' reads only splat constants: a compiler folds it into a splat "
                      "(a fill), so metrale counts no dispatch, buffer or weight for it",
                      (int)n.length, n.data);
}

// One remark at the function for its splat folds (when not one each), as for dead ops.
met_status_t met_adapter_splat_summary(adapter_shared_t *sh, MlirOperation func) {
  if (sh->each_splat || !sh->nsplat) return MET_OK;
  if (sh->nsplat == 1) return met_adapter_splat_remark(sh, sh->first_splat);
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(sh->first_splat));
  const char *where = met_adapter_loc_string(sh->arena, mlirOperationGetLocation(sh->first_splat));
  return met_diag_add(sh->arena, sh->diags, mlirOperationGetLocation(func), MET_DIAG_REMARK,
                      "%zu ops read only splat constants: a compiler folds each into a splat "
                      "(a fill), so metrale counts no dispatch, buffer or weight for them; the "
                      "first is '%.*s' at %s (remarks-each, or the command's --remarks=all, "
                      "gives a remark at each)",
                      sh->nsplat, (int)n.length, n.data, where ? where : "an unknown location");
}

// Whether a value used inside |op|'s regions but defined outside them is a compile-time
// constant: a scalar arith.constant. A payload that reads a run-time value (a captured
// scalar), or the loop's position (linalg.index), makes no uniform result.
static MlirWalkResult runtime_in_body(MlirOperation in, void *user) {
  bool *found = user;
  if (met_ir_op_is(in, "linalg.index")) {
    *found = true;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

// Whether the payload of |op| reads a run-time value or the loop's position: a value
// used inside its regions but defined outside them that is no scalar arith.constant, or a
// linalg.index. What the IR says; whether the op then folds is lib/'s rule.
static bool body_reads_runtime(MlirOperation op) {
  bool found = false;
  mlirOperationWalk(op, runtime_in_body, &found, MlirWalkPreOrder);
  if (found) return true;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r)
    for (MlirBlock blk = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(blk); blk = mlirBlockGetNextInRegion(blk))
      for (MlirOperation in = mlirBlockGetFirstOperation(blk); !mlirOperationIsNull(in);
           in = mlirOperationGetNextInBlock(in))
        for (intptr_t i = 0; i < mlirOperationGetNumOperands(in); ++i) {
          MlirValue v = mlirOperationGetOperand(in, i);
          MlirRegion owner = mlirValueIsABlockArgument(v)
                                 ? mlirBlockGetParentRegion(mlirBlockArgumentGetOwner(v))
                                 : mlirBlockGetParentRegion(mlirOperationGetBlock(mlirOpResultGetOwner(v)));
          if (mlirRegionEqual(owner, mlirOperationGetRegion(op, r))) continue;
          if (mlirValueIsABlockArgument(v) || !met_ir_op_is(mlirOpResultGetOwner(v), "arith.constant"))
            return true;
        }
  return false;
}

// A compiler's constant folding (issue 25; the rule: met_fold_to_splat, metrale/target.h):
// the facts it needs read off the op: its data operands' roles (MET_ROLE_SPLAT through
// views, a tensor.empty init, or anything else: a scalar or untracked operand is a
// run-time value), its results, and whether its payload reads a run-time value or the
// position.
bool met_adapter_folds_to_splat(builder_t *b, MlirOperation op, MlirStringRef name,
                           const met_opinfo_t *info) {
  (void)name;
  if (!met_fold_candidate(&b->sh->facts, info)) return false;
  intptr_t n = mlirOperationGetNumOperands(op);
  size_t splats = 0, others = 0;
  for (intptr_t i = 0; i < n && !others; ++i) {
    uint32_t id = met_ptrmap_get(&b->map, mlirOperationGetOperand(op, i).ptr);
    uint16_t role = id == UINT32_MAX ? MET_ROLE_OTHER : b->g->values[met_graph_root(b->g, id)].role;
    if (role == MET_ROLE_SPLAT) ++splats;
    else if (role != MET_ROLE_EMPTY) ++others;
  }
  size_t results = (size_t)mlirOperationGetNumResults(op);
  if (!splats || others || !results) return false;  // no payload to read
  return met_fold_to_splat(&b->sh->facts, info, splats, others, results,
                           mlirOperationGetNumRegions(op) > 0 && body_reads_runtime(op));
}

// met_scan_body reports a dead op: it joins the set the build skips, with a remark when
// it would have counted (a tensor or buffer result, or a body); a dead scalar says nothing.
void met_adapter_on_dead(void *user, MlirOperation op) {
  adapter_shared_t *sh = user;
  if (sh->dead_status) return;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  sh->dead_status = met_ptrmap_put(&sh->dead, op.ptr, 1);
  intptr_t nres = mlirOperationGetNumResults(op);
  bool counted = false;
  for (intptr_t r = 0; r < nres && !counted; ++r)
    counted = met_type_is_shaped_value(mlirValueGetType(mlirOperationGetResult(op, r)));
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op) && !counted; ++r)
    counted = met_adapter_region_touches_shaped(mlirOperationGetRegion(op, r));
  if (counted && !sh->each_dead && !sh->ndead_said++) sh->first_dead = op;
  if (!sh->dead_status && counted && sh->each_dead)
    sh->dead_status = met_diag_add(sh->arena, sh->diags, mlirOperationGetLocation(op),
                                   MET_DIAG_REMARK,
                                   "'%.*s' is dead: %s, so a compiler erases it "
                                   "(canonicalization) and metrale counts nothing for it",
                                   (int)n.length, n.data,
                                   nres ? "nothing live uses its results"
                                        : "it has no results and no effects");
  ++sh->ndead;
}

// One remark at the function for its dead ops (when not one each): how many, the first
// with its location, and how to list them all. A model's export can hold hundreds (the
// LLM graphs 227 to 385), each remark printed with its source line.
met_status_t met_adapter_dead_summary(adapter_shared_t *sh, MlirOperation func) {
  if (sh->dead_status || sh->each_dead || !sh->ndead_said) return sh->dead_status;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(sh->first_dead));
  const char *where = met_adapter_loc_string(sh->arena, mlirOperationGetLocation(sh->first_dead));
  if (sh->ndead_said == 1)
    return met_diag_add(sh->arena, sh->diags, mlirOperationGetLocation(sh->first_dead),
                        MET_DIAG_REMARK,
                        "'%.*s' is dead: nothing live uses its results, so a compiler erases "
                        "it (canonicalization) and metrale counts nothing for it",
                        (int)n.length, n.data);
  return met_diag_add(sh->arena, sh->diags, mlirOperationGetLocation(func), MET_DIAG_REMARK,
                      "%zu dead ops that canonicalization erases (nothing live uses their "
                      "results): metrale counts nothing for them; the first is '%.*s' at %s "
                      "(dead-remarks, or the command's --remarks=all, gives a remark at each)",
                      sh->ndead_said, (int)n.length, n.data, where ? where : "an unknown location");
}

met_status_t met_adapter_dead_remarks(MlirOperation func, bool each, met_arena_t *arena,
                                      met_diag_list_t *diags) {
  adapter_shared_t sh;
  memset(&sh, 0, sizeof sh);
  sh.arena = arena;
  sh.diags = diags;
  sh.each_dead = each;
  met_arena_initialize(met_allocator_system(), &sh.tmp);
  met_ptrmap_initialize(&sh.tmp, &sh.dead);
  met_body_scan_t scan;
  met_scan_body(func, &scan, met_adapter_on_dead, &sh);
  met_status_t st = met_adapter_dead_summary(&sh, func);
  met_arena_deinitialize(&sh.tmp);
  return st;
}

