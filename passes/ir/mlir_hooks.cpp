// mlir_hooks.cpp: the bottom of the MLIR layer: the two MLIR facilities the C API of MLIR
// 22 does not reach, as C functions (mlir_hooks.h): MLIR's thread pool and the entries of
// a DLTI target-device spec. Free of analysis logic.
#include "ir/mlir_hooks.h"

#include <algorithm>
#include <cstring>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Threading.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

// Items go to MLIR's pool in contiguous chunks, 8 per thread: each task MLIR schedules
// sets up its ordered-diagnostics state, which for 20,000 one-op functions cost more than
// analysing them; 8 chunks per thread still balance functions of unequal size.
extern "C" size_t met_parallel_slots(MlirContext ctx) {
  mlir::MLIRContext *c = unwrap(ctx);
  return c->isMultithreadingEnabled() ? std::max<size_t>(1, c->getNumThreads()) * 8 : 1;
}

extern "C" void met_parallel_chunks(MlirContext ctx, size_t n,
                                    void (*fn)(void *, size_t, size_t, size_t), void *user) {
  size_t chunks = std::min(n, met_parallel_slots(ctx));
  if (chunks <= 1) {
    if (n) fn(user, 0, 0, n);
    return;
  }
  mlir::parallelFor(unwrap(ctx), 0, chunks,
                    [&](size_t k) { fn(user, k, n * k / chunks, n * (k + 1) / chunks); });
}

// The loops' static ranges as LinalgOp::getStaticLoopRanges gives them: each loop takes
// the dim of the first operand result (operands in order) that is that loop alone, which
// is what inverting the concatenated indexing maps picks; read from the maps directly,
// without composing them (that costs thousands of instructions per op: 6,300 a matmul).
// A loop no operand indexes alone falls back to the interface.
static llvm::SmallVector<int64_t, 8> static_loop_ranges(mlir::linalg::LinalgOp lop) {
  unsigned loops = lop.getNumLoops();
  llvm::SmallVector<int64_t, 8> range(loops, 0);
  llvm::SmallVector<bool, 8> found(loops, false);
  unsigned left = loops;
  for (mlir::OpOperand &operand : lop->getOpOperands()) {
    if (!left) break;
    mlir::AffineMap map = lop.getMatchingIndexingMap(&operand);
    llvm::ArrayRef<int64_t> shape = lop.getShape(&operand);
    for (unsigned i = 0; i < map.getNumResults() && i < shape.size(); ++i)
      if (auto d = llvm::dyn_cast<mlir::AffineDimExpr>(map.getResult(i)))
        if (d.getPosition() < loops && !found[d.getPosition()]) {
          found[d.getPosition()] = true;
          range[d.getPosition()] = shape[i];
          --left;
        }
  }
  if (left) return lop.getStaticLoopRanges();
  return range;
}

extern "C" int met_linalg_flops(MlirOperation op, int64_t dynamic_size, uint64_t *out) {
  auto lop = llvm::dyn_cast<mlir::linalg::LinalgOp>(unwrap(op));
  if (!lop) return 0;
  uint64_t domain = 1;
  for (int64_t r : static_loop_ranges(lop)) {
    if (mlir::ShapedType::isDynamic(r)) r = dynamic_size > 0 ? dynamic_size : -1;
    if (r < 0) return 0;
    if (__builtin_mul_overflow(domain, (uint64_t)r, &domain)) return -1;
  }
  // The body's arith and math ops that run: a dead one (metrale/graph.h, Dead ops; here
  // within the body, last op first) is erased before any kernel has it.
  uint64_t body = 0;
  if (mlir::Block *b = lop.getBlock()) {
    llvm::SmallPtrSet<mlir::Operation *, 16> live;
    for (mlir::Operation &o : llvm::reverse(*b)) {
      bool l = &o == &b->back() && b->mightHaveTerminator();
      for (mlir::Operation *u : o.getUsers())
        if (mlir::Operation *a = b->findAncestorOpInBlock(*u); a && live.contains(a)) l = true;
      if (!l && !mlir::wouldOpBeTriviallyDead(&o)) l = true;
      if (!l) continue;
      live.insert(&o);
      llvm::StringRef d = o.getName().getDialectNamespace();
      if ((d == "arith" || d == "math") && !llvm::isa<mlir::arith::ConstantOp>(o)) ++body;
    }
  }
  return __builtin_mul_overflow(domain, body, out) ? -1 : 1;
}

extern "C" MlirAttribute met_dictionary_sorted(MlirContext ctx, intptr_t n,
                                               const MlirNamedAttribute *entries) {
  llvm::SmallVector<mlir::NamedAttribute, 24> attrs;
  attrs.reserve(n);
  for (intptr_t i = 0; i < n; ++i)
    attrs.push_back(mlir::NamedAttribute(llvm::cast<mlir::StringAttr>(unwrap(entries[i].name)),
                                         unwrap(entries[i].attribute)));
  return wrap(mlir::DictionaryAttr::getWithSorted(unwrap(ctx), attrs));
}

extern "C" int met_linalg_loops(MlirOperation op, uint32_t *out) {
  auto lop = llvm::dyn_cast<mlir::linalg::LinalgOp>(unwrap(op));
  if (!lop) return 0;
  // A loop's range is the dim of the first operand that indexes by it alone (what
  // getStaticLoopRanges finds, without composing the operands' maps: that costs
  // thousands of instructions per op), a 0 passed over. A loop no operand indexes alone
  // counts as non-unit.
  llvm::SmallVector<int64_t, 8> range(lop.getNumLoops(), 0);
  for (mlir::OpOperand &operand : lop->getOpOperands()) {
    mlir::AffineMap map = lop.getMatchingIndexingMap(&operand);
    llvm::ArrayRef<int64_t> shape = lop.getShape(&operand);
    for (unsigned i = 0; i < map.getNumResults() && i < shape.size(); ++i)
      if (auto d = llvm::dyn_cast<mlir::AffineDimExpr>(map.getResult(i)))
        if (d.getPosition() < range.size() && !range[d.getPosition()])
          range[d.getPosition()] = shape[i];
  }
  uint32_t n = 0;
  for (int64_t r : range) n += r != 1;
  *out = n;
  return 1;
}

extern "C" MlirAttribute met_linalg_indexing_maps(MlirOperation op_) {
  mlir::Operation *op = unwrap(op_);
  // An op with properties keeps its maps there (generic, matmul, contract: a read, no
  // interface lookup); without properties a user's discardable `indexing_maps` is no key.
  if (op->getPropertiesStorageSize())
    if (std::optional<mlir::Attribute> a = op->getInherentAttr("indexing_maps"))
      if (*a && llvm::isa<mlir::linalg::LinalgOp>(op)) return wrap(*a);
  auto lop = llvm::dyn_cast<mlir::linalg::LinalgOp>(op);
  if (!lop) return MlirAttribute{nullptr};
  return wrap(mlir::Attribute(lop.getIndexingMaps()));
}

extern "C" MlirAttribute met_generic_iterator_types(MlirOperation op_) {
  mlir::Operation *op = unwrap(op_);
  if (auto g = llvm::dyn_cast<mlir::linalg::GenericOp>(op))
    return wrap(mlir::Attribute(g.getProperties().iterator_types));
  std::optional<mlir::Attribute> a = op->getInherentAttr("iterator_types");
  return wrap(a ? *a : mlir::Attribute());
}

extern "C" MlirAttribute met_constant_elements(MlirOperation op_) {
  mlir::Operation *op = unwrap(op_);
  mlir::Attribute a;
  if (auto c = llvm::dyn_cast<mlir::arith::ConstantOp>(op)) {
    a = c.getProperties().value;
  } else if (auto c = llvm::dyn_cast<mlir::tosa::ConstOp>(op)) {
    a = c.getProperties().values;
  } else {
    for (llvm::StringRef name : {"value", "values"}) {
      std::optional<mlir::Attribute> x = op->getInherentAttr(name);
      if (x && llvm::isa_and_present<mlir::DenseElementsAttr>(*x)) return wrap(*x);
    }
  }
  return wrap(llvm::isa_and_present<mlir::DenseElementsAttr>(a) ? a : mlir::Attribute());
}

extern "C" int met_linalg_default_maps(MlirOperation op_) {
  mlir::Operation *op = unwrap(op_);
  if (auto m = llvm::dyn_cast<mlir::linalg::MatmulOp>(op)) return !m.getIndexingMapsAttr();
  if (auto m = llvm::dyn_cast<mlir::linalg::BatchMatmulOp>(op)) return !m.getIndexingMapsAttr();
  if (auto m = llvm::dyn_cast<mlir::linalg::BatchReduceMatmulOp>(op))
    return !m.getIndexingMapsAttr();
  return 0;
}

extern "C" int met_linalg_loop_pattern(MlirAttribute maps_attr, met_loop_pattern_t *out) {
  auto maps = llvm::dyn_cast_if_present<mlir::ArrayAttr>(unwrap(maps_attr));
  if (!maps || maps.size() >= 255) return 0;
  std::memset(out, 0xff, sizeof(*out));
  out->nmaps = static_cast<uint8_t>(maps.size());
  unsigned nloops = 0;
  for (unsigned k = 0; k < maps.size(); ++k) {
    auto ma = llvm::dyn_cast<mlir::AffineMapAttr>(maps[k]);
    if (!ma) return 0;
    mlir::AffineMap map = ma.getValue();
    if (k == 0) nloops = map.getNumDims();
    // A result index must fit its byte (met_linalg_loops reads every result).
    if (map.getNumDims() != nloops || nloops > MET_LOOP_PATTERN_MAX || map.getNumResults() > 255)
      return 0;
    for (unsigned i = 0; i < map.getNumResults(); ++i)
      if (auto d = llvm::dyn_cast<mlir::AffineDimExpr>(map.getResult(i)))
        if (d.getPosition() < nloops && out->operand[d.getPosition()] == 0xff) {
          out->operand[d.getPosition()] = static_cast<uint8_t>(k);
          out->dim[d.getPosition()] = static_cast<uint8_t>(i);
        }
  }
  out->nloops = static_cast<uint8_t>(nloops);
  return 1;
}

extern "C" int met_linalg_pattern_loops(MlirOperation op_, const met_loop_pattern_t *p,
                                        uint32_t *out) {
  mlir::Operation *op = unwrap(op_);
  if (op->getNumOperands() != p->nmaps) return 0;
  // A loop no operand indexes alone counts as non-unit. Builtin tensors and memrefs are
  // read by their concrete classes (no ShapedType interface lookup per dim).
  uint32_t n = 0;
  unsigned last = 0xff;
  llvm::ArrayRef<int64_t> shape;
  for (unsigned l = 0; l < p->nloops; ++l) {
    if (p->operand[l] == 0xff) { ++n; continue; }
    if (p->operand[l] != last) {
      last = p->operand[l];
      mlir::Type t = op->getOperand(last).getType();
      if (auto r = llvm::dyn_cast<mlir::RankedTensorType>(t)) shape = r.getShape();
      else if (auto m = llvm::dyn_cast<mlir::MemRefType>(t)) shape = m.getShape();
      else if (auto s = llvm::dyn_cast<mlir::ShapedType>(t); s && s.hasRank()) shape = s.getShape();
      else return 0;
    }
    // A dim of 0 is no range to met_linalg_loops (it reads the next operand's): it decides.
    if (p->dim[l] >= shape.size() || shape[p->dim[l]] == 0) return 0;
    n += shape[p->dim[l]] != 1;
  }
  *out = n;
  return 1;
}

extern "C" int met_dlti_for_each_entry(MlirOperation module, met_dlti_entry_fn_t fn,
                                       void *user) {
  mlir::Operation *op = unwrap(module);
  auto spec = op->getAttrOfType<mlir::TargetSystemSpecInterface>(
      mlir::DLTIDialect::kTargetSystemDescAttrName);
  if (!spec) return 0;
  for (mlir::DataLayoutEntryInterface dev : spec.getEntries()) {
    auto idAttr = llvm::dyn_cast_if_present<mlir::StringAttr>(
        llvm::dyn_cast_if_present<mlir::StringAttr>(dev.getKey()));
    auto device = llvm::dyn_cast_if_present<mlir::TargetDeviceSpecInterface>(dev.getValue());
    if (!idAttr || !device) continue;
    llvm::StringRef id = idAttr.getValue();
    for (mlir::DataLayoutEntryInterface e : device.getEntries()) {
      auto key = llvm::dyn_cast_if_present<mlir::StringAttr>(e.getKey());
      if (!key) continue;
      fn(user, MlirStringRef{id.data(), id.size()},
         MlirStringRef{key.getValue().data(), key.getValue().size()}, wrap(e.getValue()));
    }
  }
  return 1;
}

// Gives |fn| the ops of |dead| that lie inside no other of them (what is inside goes with
// it), in pre-order within function |f|.
static void report_roots(mlir::Operation *f, const llvm::DenseSet<mlir::Operation *> &dead,
                         void (*fn)(void *user, MlirOperation op), void *user) {
  // The roots sorted, in pre-order: the
  // few roots sorted, not a walk of the whole body asking the set at every op (which
  // took a sixth of the Budget pass on a model with a dozen dead constants).
  llvm::SmallVector<mlir::Operation *, 16> roots;
  for (mlir::Operation *op : dead) {
    bool inner = false;
    for (mlir::Operation *p = op->getParentOp(); p && p != f && !inner; p = p->getParentOp())
      inner = dead.contains(p);
    if (!inner) roots.push_back(op);
  }
  auto depth = [&](mlir::Operation *o) {
    unsigned d = 0;
    for (; o && o != f; o = o->getParentOp()) ++d;
    return d;
  };
  // Pre-order: lift the deeper op to the other's depth (an ancestor comes first), then
  // both until they share a parent op; siblings compare by region, block, then place.
  auto before = [&](mlir::Operation *a, mlir::Operation *b) {
    unsigned da = depth(a), db = depth(b);
    mlir::Operation *x = a, *y = b;
    for (; da > db; --da) x = x->getParentOp();
    for (; db > da; --db) y = y->getParentOp();
    if (x == y) return depth(a) < depth(b);
    while (x->getParentOp() != y->getParentOp()) {
      x = x->getParentOp();
      y = y->getParentOp();
    }
    mlir::Region *rx = x->getParentRegion(), *ry = y->getParentRegion();
    if (rx != ry) return rx->getRegionNumber() < ry->getRegionNumber();
    mlir::Block *bx = x->getBlock(), *by = y->getBlock();
    if (bx != by)
      for (mlir::Block &blk : *rx) {
        if (&blk == bx) return true;
        if (&blk == by) return false;
      }
    return x->isBeforeInBlock(y);
  };
  llvm::sort(roots, before);
  for (mlir::Operation *op : roots) fn(user, wrap(op));
}

extern "C" void met_scan_body(MlirOperation func, met_body_scan_t *out,
                              void (*fn)(void *user, MlirOperation op), void *user) {
  mlir::Operation *f = unwrap(func);
  *out = met_body_scan_t{0, 0, 0};
  llvm::DenseSet<mlir::Operation *> dead;
  llvm::SmallVector<mlir::Operation *, 16> work;
  auto kill = [&](mlir::Operation *op) {
    dead.insert(op);
    work.push_back(op);
  };
  // Seeds: ops nothing uses (a terminator never is dead). hasTrait<IsTerminator> would
  // compare a trait TypeID made here with libMLIR's (templates get one per shared
  // object), so the block, inside libMLIR, is asked instead.
  // The answer depends on the op's name only, so it is asked once per name (of the first
  // eight names; a body has few kinds of terminator).
  const void *term_name[8];
  bool term[8];
  unsigned nterm = 0;
  auto is_terminator = [&](mlir::Operation *op, mlir::Block *b) {
    const void *name = op->getName().getAsOpaquePointer();
    for (unsigned i = 0; i < nterm; ++i)
      if (term_name[i] == name) return term[i];
    bool t = b->mightHaveTerminator();
    if (nterm < 8) { term_name[nterm] = name; term[nterm++] = t; }
    return t;
  };
  auto seed = [&](mlir::Operation *op) {
    // Operation::use_empty() goes through a ResultRange and find_if (~60 instructions for
    // one result, not inlined); each result's own use list is one load.
    for (unsigned i = 0, e = op->getNumResults(); i < e; ++i)
      if (!op->getResult(i).use_empty()) return;
    mlir::Block *b = op->getBlock();
    if (b && &b->back() == op && is_terminator(op, b)) return;
    if (mlir::wouldOpBeTriviallyDead(op)) kill(op);
  };
  // The ops in |op|'s regions, at any depth (a loop without walk()'s callbacks).
  auto seed_inside = [&](auto &self, mlir::Operation &op) -> void {
    for (mlir::Region &r : op.getRegions())
      for (mlir::Block &b : r)
        for (mlir::Operation &in : b) {
          seed(&in);
          if (in.getNumRegions()) self(self, in);
        }
  };
  mlir::Region &body = f->getRegion(0);
  if (!body.empty()) out->values = body.front().getNumArguments();
  // A chase of list pointers through ops the parser made long ago, one cache miss each;
  // the parser made them one after another, so the op eight ahead is most often eight
  // strides ahead, and fetching that early halves the walk (0.11 -> 0.055 s at 1M ops).
  // A wrong guess only fetches a line for nothing: a prefetch never faults.
  for (mlir::Block &b : body) {
    mlir::Operation *prev = nullptr;
    for (mlir::Operation &op : b) {
      if (prev) {
        intptr_t d = reinterpret_cast<const char *>(&op) - reinterpret_cast<const char *>(prev);
        __builtin_prefetch(reinterpret_cast<const char *>(&op) + 8 * d);
        __builtin_prefetch(reinterpret_cast<const char *>(&op) + 8 * d + 64);
      }
      prev = &op;
      ++out->ops;
      out->values += op.getNumResults();
      out->operands += op.getNumOperands();
      seed(&op);
      if (op.getNumRegions()) seed_inside(seed_inside, op);
    }
  }
  if (dead.empty()) return;
  // Erasing an op (with everything inside it) may leave what it read unused. Each op the
  // propagation reaches gets its live uses counted once, then one less for each use whose
  // user dies: O(uses) in all (rescanning a use list per dead user was quadratic). A count
  // taken while an op is let go already leaves out every use inside that op (its owner is
  // done), so the op's further uses of the same value (`arith.mulf %s, %s`) take nothing
  // off it: each count remembers the round it was taken in.
  llvm::DenseSet<mlir::Operation *> done;  // dead ops whose uses were let go
  struct count_t {
    unsigned live, round;
  };
  llvm::DenseMap<mlir::Operation *, count_t> live_uses;
  unsigned round = 0;
  auto in_done = [&](mlir::Operation *op) {
    for (mlir::Operation *p = op; p && p != f; p = p->getParentOp())
      if (done.contains(p)) return true;
    return false;
  };
  while (!work.empty()) {
    mlir::Operation *op = work.pop_back_val();
    if (in_done(op)) continue;  // let go with an op around it
    done.insert(op);
    ++round;
    op->walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *in) {
      if (in != op && done.contains(in)) return mlir::WalkResult::skip();
      for (mlir::Value v : in->getOperands()) {
        mlir::Operation *d = v.getDefiningOp();
        if (!d || op->isAncestor(d) || dead.contains(d)) continue;
        auto [it, fresh] = live_uses.try_emplace(d, count_t{0u, round});
        if (fresh) {
          for (mlir::OpOperand &u : d->getUses())
            if (!in_done(u.getOwner())) ++it->second.live;
        } else if (it->second.round != round) {
          --it->second.live;  // a use counted live in an earlier round: its user dies now
        }
        if (it->second.live == 0 && mlir::wouldOpBeTriviallyDead(d)) kill(d);
      }
      return mlir::WalkResult::advance();
    });
  }
  report_roots(f, dead, fn, user);
}
