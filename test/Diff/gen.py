#!/usr/bin/env python3
"""gen.py: random well-formed models in the dialects metrale reads, deterministic from a
seed, for the differential test (diff.py). Built from the motifs of real models:

  cnn          conv (+bias, +activation), depthwise conv, pooling, residual adds,
               squeeze-excitation, a classifier head
  transformer  layer / RMS norm, matmul + bias, attention (scores, softmax, context),
               GELU and SiLU diamonds, an embedding gather, quantize/dequantize casts
  tensor       reshape (expand/collapse), extract/insert_slice, pad, concat, transpose
  control      scf.for with iter_args, scf.if on an argument, func.call of a helper
  globals      ml_program globals (tensor and scalar) and memref.global-style constants

in f32, f16, bf16 and i8 (quantized matmuls), each op spelled at random as linalg (named
or linalg.generic), TOSA, or arith/math on tensors; weights as metrale.param arguments,
dense constants, splats or elided dense_resource blobs; shapes from a few bytes to tens
of MB (within a FLOP cap, so a -O0 run takes a second at most).

A model is a list of op units (the lines of one op, the value it defines, the values it
uses), so that a mismatch can be minimized over ops (diff.py): dropping a unit turns its
value into an argument of the function.

  python3 gen.py SEED [--out FILE] [--meta FILE]     one model (and its motifs, as JSON)
"""
import argparse
import json
import random

FLOAT_TYPES = ["f32", "f16", "bf16"]
ELEM_BYTES = {"f32": 4, "f16": 2, "bf16": 2, "i8": 1, "i32": 4, "i64": 8, "i1": 1, "index": 8}


def ttype(shape, dt):
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), dt)


def nbytes(shape, dt):
    n = 1
    for d in shape:
        n *= d
    return n * ELEM_BYTES[dt]


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


class Val:
    def __init__(self, name, shape, dt):
        self.name, self.shape, self.dt = name, tuple(shape), dt

    @property
    def ty(self):
        return ttype(self.shape, self.dt)


class Unit:
    """The lines of one op (or a few that belong together, such as a constant and its
    use), the value it defines and the values it uses."""

    def __init__(self, lines, defines, uses, motif, dialect):
        self.lines, self.defines, self.uses = lines, defines, uses
        self.motif, self.dialect = motif, dialect


def flit(x):
    """A float literal MLIR reads (a mantissa with a point and an exponent)."""
    return "%.6e" % float(x)


def fconst(dt, x):
    if dt in ("i8", "i32", "i64"):
        return "%d : %s" % (int(x), dt)
    return "%s : %s" % (flit(x), dt)


class Gen:
    def __init__(self, seed, max_flops=4e7, max_bytes=48 << 20):
        self.rng = random.Random(seed)
        self.seed = seed
        self.n = 0
        self.units = []
        self.args = []           # (Val, attrs text)
        self.module = []         # module-level lines (globals, helper functions)
        self.helpers = 0
        self.flops = 0
        self.max_flops = max_flops
        self.max_bytes = max_bytes
        self.motifs = []
        self.elided = 0
        self.resources = []

    # --- values and units --------------------------------------------------------------
    def fresh(self, base="v"):
        self.n += 1
        return "%%%s%d" % (base, self.n)

    def unit(self, lines, defines, uses, motif, dialect):
        self.units.append(Unit(lines, defines, [u for u in uses if u is not None], motif, dialect))
        return defines

    def arg(self, shape, dt, attrs=""):
        v = Val("%%arg%d" % len(self.args), shape, dt)
        self.args.append((v, attrs))
        return v

    def pick(self, xs):
        return self.rng.choice(xs)

    def chance(self, p):
        return self.rng.random() < p

    # --- constants and weights ---------------------------------------------------------
    def splat(self, shape, dt, x, motif):
        v = Val(self.fresh("c"), shape, dt)
        if dt.startswith("i"):
            lit = "dense<%d>" % int(x)
        else:
            lit = "dense<%s>" % flit(x)
        self.unit(["%s = arith.constant %s : %s" % (v.name, lit, v.ty)], v, [], motif, "arith")
        return v

    def weight(self, shape, dt, motif, dialect="linalg"):
        """A weight: a metrale.param argument, a dense constant, a splat or an elided
        dense_resource (large ones are never inline dense data)."""
        n = numel(shape)
        modes = ["param", "param", "splat", "resource"]
        if n <= 64:
            modes.append("dense")
        mode = self.pick(modes)
        if mode == "param":
            return self.arg(shape, dt, "{metrale.param}")
        v = Val(self.fresh("w"), shape, dt)
        if mode == "splat":
            lit = "dense<%s>" % ("1" if dt.startswith("i") else "0.5")
        elif mode == "dense":
            vals = [self.rng.randint(-3, 3) if dt.startswith("i") else round(self.rng.uniform(-1, 1), 3)
                    for _ in range(n)]
            lit = "dense<[%s]>" % ", ".join(str(x) for x in vals)
            if len(shape) != 1:
                lit = "dense<%s>" % nest(vals, shape)
        else:
            self.elided += 1
            lit = "dense_resource<__elided__>"
        if dialect == "tosa":
            line = '%s = "tosa.const"() <{values = %s : %s}> : () -> %s' % (v.name, lit, v.ty, v.ty)
        else:
            line = "%s = arith.constant %s : %s" % (v.name, lit, v.ty)
        self.unit([line], v, [], motif, dialect if dialect == "tosa" else "arith")
        return v

    # --- linalg building blocks ---------------------------------------------------------
    def empty(self, shape, dt, motif):
        v = Val(self.fresh("e"), shape, dt)
        self.unit(["%s = tensor.empty() : %s" % (v.name, v.ty)], v, [], motif, "tensor")
        return v

    def fill(self, shape, dt, x, motif):
        e = self.empty(shape, dt, motif)
        v = Val(self.fresh("f"), shape, dt)
        self.unit(["%s = arith.constant %s" % (v.name + "s", fconst(dt, x)),
                   "%s = linalg.fill ins(%ss : %s) outs(%s : %s) -> %s" % (
                       v.name, v.name, dt, e.name, e.ty, v.ty)], v, [e], motif, "linalg")
        return v

    def generic(self, ins, out_shape, out_dt, body, motif, maps=None, iters=None, init=None):
        """A linalg.generic over |ins| into a fresh (or |init|) tensor. |body| gets the block
        arguments' names and returns (lines, result name). Default maps: identity for
        operands of the output's rank, broadcast over leading dims otherwise."""
        rank = len(out_shape)
        dims = ["d%d" % i for i in range(rank)]
        if maps is None:
            maps = []
            for x in ins:
                k = len(x.shape)
                maps.append("affine_map<(%s) -> (%s)>" % (", ".join(dims), ", ".join(dims[rank - k:])))
        out_map = "affine_map<(%s) -> (%s)>" % (", ".join(dims), ", ".join(dims))
        if iters is None:
            iters = ["parallel"] * rank
        if init is None:
            init = self.empty(out_shape, out_dt, motif)
        v = Val(self.fresh("g"), out_shape, out_dt)
        args = ["%%in%d" % i for i in range(len(ins))]
        blines, res = body(args, "%out")
        head = "%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]} ins(%s : %s) outs(%s : %s) {" % (
            v.name, ", ".join(maps + [out_map]), ", ".join('"%s"' % i for i in iters),
            ", ".join(x.name for x in ins), ", ".join(x.ty for x in ins), init.name, init.ty)
        bargs = ", ".join("%s: %s" % (a, x.dt) for a, x in zip(args, ins)) + (", " if ins else "") + "%%out: %s" % out_dt
        lines = [head, "^bb0(%s):" % bargs] + ["  " + l for l in blines] + [
            "  linalg.yield %s : %s" % (res, out_dt), "} -> %s" % v.ty]
        self.unit(lines, v, list(ins) + [init], motif, "linalg")
        self.flops += numel(out_shape) * max(1, len(blines))
        return v

    def ew_unary(self, x, op, motif, spelling=None):
        """An elementwise unary op in one of three spellings."""
        spelling = spelling or self.pick(["generic", "tensor", "tosa"] if x.dt in FLOAT_TYPES else ["generic"])
        fl = x.dt in FLOAT_TYPES
        if spelling == "tosa" and op in ("exp", "sigmoid", "tanh", "neg", "abs", "relu"):
            v = Val(self.fresh("t"), x.shape, x.dt)
            if op == "relu":
                line = '%s = "tosa.clamp"(%s) <{min_val = 0.0 : %s, max_val = 3.0e+38 : %s}> : (%s) -> %s' % (
                    v.name, x.name, x.dt, x.dt, x.ty, v.ty) if x.dt == "f32" else None
                if line is None:
                    return self.ew_unary(x, op, motif, "generic")
            elif op == "neg":
                return self.ew_unary(x, op, motif, "generic")
            else:
                line = '%s = "tosa.%s"(%s) : (%s) -> %s' % (v.name, op, x.name, x.ty, v.ty)
            self.unit([line], v, [x], motif, "tosa")
            self.flops += numel(x.shape)
            return v
        if spelling == "tensor" and fl and op in ("exp", "tanh", "neg", "abs"):
            v = Val(self.fresh("a"), x.shape, x.dt)
            mop = {"exp": "math.exp", "tanh": "math.tanh", "neg": "arith.negf", "abs": "math.absf"}[op]
            self.unit(["%s = %s %s : %s" % (v.name, mop, x.name, x.ty)], v, [x], motif, "arith")
            self.flops += numel(x.shape)
            return v

        def body(a, out):
            t = "%t" + str(self.n)
            if op == "relu":
                z = fconst(x.dt, 0) if fl else "0 : %s" % x.dt
                return ["%sz = arith.constant %s" % (t, z),
                        "%s = %s %s, %sz : %s" % (t, "arith.maximumf" if fl else "arith.maxsi", a[0], t, x.dt)], t
            if op == "exp":
                return ["%s = math.exp %s : %s" % (t, a[0], x.dt)], t
            if op == "tanh":
                return ["%s = math.tanh %s : %s" % (t, a[0], x.dt)], t
            if op == "neg":
                return ["%s = arith.negf %s : %s" % (t, a[0], x.dt)], t
            if op == "abs":
                return ["%s = math.absf %s : %s" % (t, a[0], x.dt)], t
            if op == "sigmoid":
                return ["%sn = arith.negf %s : %s" % (t, a[0], x.dt), "%se = math.exp %sn : %s" % (t, t, x.dt),
                        "%so = arith.constant %s" % (t, fconst(x.dt, 1)),
                        "%sd = arith.addf %se, %so : %s" % (t, t, t, x.dt),
                        "%s = arith.divf %so, %sd : %s" % (t, t, t, x.dt)], t
            raise ValueError(op)
        if not fl and op not in ("relu",):
            op = "relu"
        return self.generic([x], x.shape, x.dt, body, motif)

    def ew_binary(self, a, b, op, motif, spelling=None):
        """a op b, b of a's shape or broadcast over a's leading dims (then generic)."""
        fl = a.dt in FLOAT_TYPES
        same = a.shape == b.shape
        spelling = spelling or self.pick(["generic", "tensor", "tosa"] if same else ["generic", "tosa"])
        names = {"add": ("arith.addf", "arith.addi", "tosa.add"), "mul": ("arith.mulf", "arith.muli", "tosa.mul"),
                 "sub": ("arith.subf", "arith.subi", "tosa.sub")}[op]
        aop = names[0] if fl else names[1]
        if spelling == "tensor" and same:
            v = Val(self.fresh("a"), a.shape, a.dt)
            self.unit(["%s = %s %s, %s : %s" % (v.name, aop, a.name, b.name, a.ty)], v, [a, b], motif, "arith")
            self.flops += numel(a.shape)
            return v
        if spelling == "tosa" and (fl or op != "mul"):
            bb = b
            if len(b.shape) != len(a.shape):
                bb = self.tosa_reshape(b, (1,) * (len(a.shape) - len(b.shape)) + b.shape, motif)
            v = Val(self.fresh("t"), a.shape, a.dt)
            if op == "mul":
                sh = Val(self.fresh("sh"), (1,), "i8")
                lines = ['%s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>' % sh.name,
                         '%s = "tosa.mul"(%s, %s, %s) : (%s, %s, tensor<1xi8>) -> %s' % (
                             v.name, a.name, bb.name, sh.name, a.ty, bb.ty, v.ty)]
            else:
                lines = ['%s = "%s"(%s, %s) : (%s, %s) -> %s' % (v.name, names[2], a.name, bb.name, a.ty, bb.ty, v.ty)]
            self.unit(lines, v, [a, bb], motif, "tosa")
            self.flops += numel(a.shape)
            return v

        def body(x, out):
            t = "%t" + str(self.n)
            return ["%s = %s %s, %s : %s" % (t, aop, x[0], x[1], a.dt)], t
        return self.generic([a, b], a.shape, a.dt, body, motif)

    def tosa_reshape(self, x, shape, motif):
        v = Val(self.fresh("r"), shape, x.dt)
        s = Val(self.fresh("s"), (len(shape),), "index")
        self.unit(['%s = "tosa.const_shape"() <{values = dense<[%s]> : tensor<%dxindex>}> : () -> !tosa.shape<%d>' % (
                       s.name, ", ".join(str(d) for d in shape), len(shape), len(shape)),
                   '%s = "tosa.reshape"(%s, %s) : (%s, !tosa.shape<%d>) -> %s' % (
                       v.name, x.name, s.name, x.ty, len(shape), v.ty)], v, [x], motif, "tosa")
        return v

    def matmul(self, x, n_out, motif, bias=True):
        """x [..., K] @ W [K, N] (+ bias): linalg.matmul on the 2-D view, or tosa.matmul."""
        k = x.shape[-1]
        rows = numel(x.shape[:-1])
        self.flops += 2 * rows * k * n_out
        spell = self.pick(["linalg", "linalg", "generic", "tosa"])
        if x.dt == "i8":
            spell = "linalg"
        x2 = x if len(x.shape) == 2 else self.collapse(x, [list(range(len(x.shape) - 1)), [len(x.shape) - 1]], motif)
        if spell == "tosa" and x.dt in ("f32", "f16", "bf16"):
            x3 = self.tosa_reshape(x2, (1,) + x2.shape, motif)
            w = self.weight((1, k, n_out), x.dt, motif, "tosa")
            v = Val(self.fresh("m"), (1, rows, n_out), x.dt)
            z1, z2 = self.fresh("zp"), self.fresh("zp")
            self.unit(['%s = "tosa.const"() <{values = dense<0.0> : tensor<1x%s>}> : () -> tensor<1x%s>' % (z1, x.dt, x.dt),
                       '%s = "tosa.const"() <{values = dense<0.0> : tensor<1x%s>}> : () -> tensor<1x%s>' % (z2, x.dt, x.dt),
                       '%s = "tosa.matmul"(%s, %s, %s, %s) : (%s, %s, tensor<1x%s>, tensor<1x%s>) -> %s' % (
                           v.name, x3.name, w.name, z1, z2, x3.ty, w.ty, x.dt, x.dt, v.ty)], v, [x3, w], motif, "tosa")
            y = self.tosa_reshape(v, (rows, n_out), motif)
        else:
            acc = "i32" if x.dt == "i8" else x.dt
            w = self.weight((k, n_out), x.dt, motif)
            f = self.fill((rows, n_out), acc, 0, motif)
            v = Val(self.fresh("m"), (rows, n_out), acc)
            if spell == "generic":
                maps = ["affine_map<(d0, d1, d2) -> (d0, d2)>", "affine_map<(d0, d1, d2) -> (d2, d1)>",
                        "affine_map<(d0, d1, d2) -> (d0, d1)>"]
                t = "%t" + str(self.n)
                lines = ["%s = linalg.generic {indexing_maps = [%s], iterator_types = [\"parallel\", \"parallel\", \"reduction\"]} ins(%s, %s : %s, %s) outs(%s : %s) {" % (
                    v.name, ", ".join(maps), x2.name, w.name, x2.ty, w.ty, f.name, f.ty),
                    "^bb0(%%a: %s, %%b: %s, %%c: %s):" % (x.dt, x.dt, acc),
                    "  %sm = arith.mulf %%a, %%b : %s" % (t, acc), "  %s = arith.addf %%c, %sm : %s" % (t, t, acc),
                    "  linalg.yield %s : %s" % (t, acc), "} -> %s" % v.ty]
                self.unit(lines, v, [x2, w, f], motif, "linalg")
            else:
                self.unit(["%s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
                    v.name, x2.name, w.name, x2.ty, w.ty, f.name, f.ty, v.ty)], v, [x2, w, f], motif, "linalg")
            y = v
            if acc == "i32":
                y = self.cast(v, "f32", motif)
        if bias:
            b = self.weight((n_out,), y.dt, motif)
            y = self.ew_binary(y, b, "add", motif, spelling=self.pick(["generic", "tosa"]))
        if len(x.shape) != 2:
            y = self.expand(y, x.shape[:-1] + (n_out,), motif)
        return y

    def cast(self, x, dt, motif):
        def body(a, out):
            t = "%t" + str(self.n)
            if x.dt in FLOAT_TYPES and dt in FLOAT_TYPES:
                op = "arith.extf" if ELEM_BYTES[dt] > ELEM_BYTES[x.dt] or (x.dt == "bf16" and dt == "f32") else "arith.truncf"
                if x.dt in ("f16", "bf16") and dt in ("f16", "bf16"):
                    return ["%se = arith.extf %s : %s to f32" % (t, a[0], x.dt), "%s = arith.truncf %se : f32 to %s" % (t, t, dt)], t
                return ["%s = %s %s : %s to %s" % (t, op, a[0], x.dt, dt)], t
            if x.dt in FLOAT_TYPES:
                return ["%s = arith.fptosi %s : %s to %s" % (t, a[0], x.dt, dt)], t
            if dt in FLOAT_TYPES:
                return ["%s = arith.sitofp %s : %s to %s" % (t, a[0], x.dt, dt)], t
            return ["%s = arith.%s %s : %s to %s" % (t, "extsi" if ELEM_BYTES[dt] > ELEM_BYTES[x.dt] else "trunci", a[0], x.dt, dt)], t
        if x.dt == dt:
            return x
        if self.chance(0.3) and not (x.dt == "i32" and dt in FLOAT_TYPES and False):
            v = Val(self.fresh("t"), x.shape, dt)
            self.unit(['%s = "tosa.cast"(%s) : (%s) -> %s' % (v.name, x.name, x.ty, v.ty)], v, [x], motif, "tosa")
            return v
        return self.generic([x], x.shape, dt, body, motif)

    def collapse(self, x, groups, motif):
        shape = tuple(numel([x.shape[i] for i in g]) for g in groups)
        v = Val(self.fresh("cl"), shape, x.dt)
        self.unit(["%s = tensor.collapse_shape %s [%s] : %s into %s" % (
            v.name, x.name, ", ".join("[%s]" % ", ".join(str(i) for i in g) for g in groups), x.ty, v.ty)],
            v, [x], "reshape", "tensor")
        return v

    def expand(self, x, shape, motif, groups=None):
        """x [r, n] -> shape (by default the leading dims of shape multiply to r)."""
        if groups is None:
            groups = [list(range(len(shape) - 1)), [len(shape) - 1]]
        v = Val(self.fresh("ex"), shape, x.dt)
        self.unit(["%s = tensor.expand_shape %s [%s] output_shape [%s] : %s into %s" % (
            v.name, x.name, ", ".join("[%s]" % ", ".join(str(i) for i in g) for g in groups),
            ", ".join(str(d) for d in shape), x.ty, v.ty)], v, [x], "reshape", "tensor")
        return v

    def transpose(self, x, perm, motif):
        shape = tuple(x.shape[p] for p in perm)
        if self.chance(0.5):
            e = self.empty(shape, x.dt, motif)
            v = Val(self.fresh("tp"), shape, x.dt)
            self.unit(["%s = linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [%s]" % (
                v.name, x.name, x.ty, e.name, e.ty, ", ".join(str(p) for p in perm))], v, [x, e], motif, "linalg")
        else:
            v = Val(self.fresh("tp"), shape, x.dt)
            self.unit(['%s = "tosa.transpose"(%s) <{perms = array<i32: %s>}> : (%s) -> %s' % (
                v.name, x.name, ", ".join(str(p) for p in perm), x.ty, v.ty)], v, [x], motif, "tosa")
        return v

    def reduce_last(self, x, kind, motif):
        """Sum or max over the last dim (linalg.reduce, or tosa.reduce_* keeping it as 1 and
        a collapse dropping it): x.shape[:-1]."""
        out_shape = x.shape[:-1]
        r = len(x.shape)
        if r >= 2 and self.chance(0.4) and x.dt in FLOAT_TYPES:
            v = Val(self.fresh("rd"), x.shape[:-1] + (1,), x.dt)
            self.unit(['%s = "tosa.reduce_%s"(%s) <{axis = %d : i32}> : (%s) -> %s' % (
                v.name, kind, x.name, r - 1, x.ty, v.ty)], v, [x], motif, "tosa")
            self.flops += numel(x.shape)
            return self.collapse(v, [[i] for i in range(r - 2)] + [[r - 2, r - 1]], motif)
        init = self.fill(out_shape, x.dt, 0 if kind == "sum" else -1e30, motif)
        v = Val(self.fresh("rd"), out_shape, x.dt)
        op = "arith.addf" if kind == "sum" else "arith.maximumf"
        self.unit(["%s = linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [%d]" % (
            v.name, x.name, x.ty, init.name, init.ty, r - 1),
            "  (%%ri: %s, %%ra: %s) {" % (x.dt, x.dt),
            "    %%rs = %s %%ri, %%ra : %s" % (op, x.dt), "    linalg.yield %rs : " + x.dt, "  }"],
            v, [x, init], motif, "linalg")
        self.flops += numel(x.shape)
        return v

    def expand_1d(self, x, motif):
        """x [c] -> [1, c]."""
        v = Val(self.fresh("ex"), (1,) + x.shape, x.dt)
        self.unit(["%s = tensor.expand_shape %s [[0, 1]] output_shape [1, %d] : %s into %s" % (
            v.name, x.name, x.shape[0], x.ty, v.ty)], v, [x], "reshape", "tensor")
        return v

    def broadcast_last(self, r, shape, motif):
        """r of shape[:-1] broadcast back to shape."""
        e = self.empty(shape, r.dt, motif)
        v = Val(self.fresh("bc"), shape, r.dt)
        self.unit(["%s = linalg.broadcast ins(%s : %s) outs(%s : %s) dimensions = [%d]" % (
            v.name, r.name, r.ty, e.name, e.ty, len(shape) - 1)], v, [r, e], motif, "linalg")
        return v

    # --- motifs ---------------------------------------------------------------------------
    def conv(self, x, cout, k, stride, act, motif="conv"):
        n, h, w, c = x.shape
        pad = k // 2 if self.chance(0.6) else 0
        if (h + 2 * pad - k) % stride or (w + 2 * pad - k) % stride:
            stride = 1
        ho, wo = (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1
        if ho < 1 or wo < 1:
            return x
        self.flops += 2 * n * ho * wo * cout * k * k * c
        spell = self.pick(["linalg", "tosa"]) if x.dt in ("f32", "f16", "bf16") else "linalg"
        if spell == "tosa":
            wt = self.weight((cout, k, k, c), x.dt, motif, "tosa")
            b = self.weight((cout,), x.dt, motif, "tosa")
            v = Val(self.fresh("cv"), (n, ho, wo, cout), x.dt)
            z1, z2 = self.fresh("zp"), self.fresh("zp")
            self.unit(['%s = "tosa.const"() <{values = dense<0.0> : tensor<1x%s>}> : () -> tensor<1x%s>' % (z1, x.dt, x.dt),
                       '%s = "tosa.const"() <{values = dense<0.0> : tensor<1x%s>}> : () -> tensor<1x%s>' % (z2, x.dt, x.dt),
                       '%s = "tosa.conv2d"(%s, %s, %s, %s, %s) <{dilation = array<i64: 1, 1>, pad = array<i64: %d, %d, %d, %d>, stride = array<i64: %d, %d>, acc_type = %s}> : (%s, %s, %s, tensor<1x%s>, tensor<1x%s>) -> %s' % (
                           v.name, x.name, wt.name, b.name, z1, z2, pad, pad, pad, pad, stride, stride,
                           "f32", x.ty, wt.ty, b.ty, x.dt, x.dt, v.ty)],
                      v, [x, wt, b], motif, "tosa")
            y = v
        else:
            xp = x
            if pad:
                xp = Val(self.fresh("pd"), (n, h + 2 * pad, w + 2 * pad, c), x.dt)
                z = self.fresh("z")
                self.unit(["%s = arith.constant %s" % (z, fconst(x.dt, 0)),
                           "%s = tensor.pad %s low[0, %d, %d, 0] high[0, %d, %d, 0] {" % (xp.name, x.name, pad, pad, pad, pad),
                           "^bb0(%p0: index, %p1: index, %p2: index, %p3: index):",
                           "  tensor.yield %s : %s" % (z, x.dt), "} : %s to %s" % (x.ty, xp.ty)], xp, [x], motif, "tensor")
            wt = self.weight((k, k, c, cout), x.dt, motif)
            f = self.fill((n, ho, wo, cout), x.dt, 0, motif)
            v = Val(self.fresh("cv"), (n, ho, wo, cout), x.dt)
            self.unit(["%s = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<%d> : tensor<2xi64>} ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
                v.name, stride, xp.name, wt.name, xp.ty, wt.ty, f.name, f.ty, v.ty)], v, [xp, wt, f], motif, "linalg")
            y = v
            if self.chance(0.7):
                b = self.weight((cout,), x.dt, motif)
                y = self.ew_binary(y, b, "add", motif, spelling="generic")
        if act:
            y = self.ew_unary(y, self.pick(["relu", "relu", "sigmoid"]), motif)
        return y

    def depthwise(self, x, motif="depthwise"):
        n, h, w, c = x.shape
        k = 3
        xp = Val(self.fresh("pd"), (n, h + 2, w + 2, c), x.dt)
        z = self.fresh("z")
        self.unit(["%s = arith.constant %s" % (z, fconst(x.dt, 0)),
                   "%s = tensor.pad %s low[0, 1, 1, 0] high[0, 1, 1, 0] {" % (xp.name, x.name),
                   "^bb0(%p0: index, %p1: index, %p2: index, %p3: index):",
                   "  tensor.yield %s : %s" % (z, x.dt), "} : %s to %s" % (x.ty, xp.ty)], xp, [x], motif, "tensor")
        wt = self.weight((k, k, c), x.dt, motif)
        f = self.fill(x.shape, x.dt, 0, motif)
        v = Val(self.fresh("dw"), x.shape, x.dt)
        self.unit(["%s = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
            v.name, xp.name, wt.name, xp.ty, wt.ty, f.name, f.ty, v.ty)], v, [xp, wt, f], motif, "linalg")
        self.flops += 2 * numel(x.shape) * 9
        return self.ew_unary(v, "relu", motif)

    def pool(self, x, motif="pool"):
        n, h, w, c = x.shape
        if h < 2 or w < 2:
            return x
        ho, wo = h // 2, w // 2
        if self.chance(0.5) and x.dt == "f32" and h % 2 == 0 and w % 2 == 0:
            v = Val(self.fresh("pl"), (n, ho, wo, c), x.dt)
            self.unit(['%s = "tosa.max_pool2d"(%s) <{kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}> : (%s) -> %s' % (
                v.name, x.name, x.ty, v.ty)], v, [x], motif, "tosa")
            return v
        win = self.empty((2, 2), x.dt, motif)
        f = self.fill((n, ho, wo, c), x.dt, -1e30 if x.dt == "f32" else -60000.0 if x.dt == "f16" else -1e30, motif)
        v = Val(self.fresh("pl"), (n, ho, wo, c), x.dt)
        self.unit(["%s = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
            v.name, x.name, win.name, x.ty, win.ty, f.name, f.ty, v.ty)], v, [x, win, f], motif, "linalg")
        self.flops += numel(x.shape)
        return v

    def residual(self, x):
        self.motifs.append("residual")
        y = self.conv(x, x.shape[3], 3, 1, True, "residual") if self.chance(0.5) else self.ew_unary(x, "relu", "residual")
        if y.shape != x.shape:
            return y
        return self.ew_binary(x, y, "add", "residual")

    def squeeze_excite(self, x):
        self.motifs.append("squeeze_excite")
        n, h, w, c = x.shape
        x2 = self.collapse(x, [[0, 1, 2], [3]], "squeeze_excite")  # [n*h*w, c]
        xt = self.transpose(x2, [1, 0], "squeeze_excite")           # [c, n*h*w]
        s = self.reduce_last(xt, "sum", "squeeze_excite")            # [c]
        s2 = self.expand_1d(s, "squeeze_excite")                     # [1, c]
        hidden = max(1, c // 4)
        z = self.matmul(s2, hidden, "squeeze_excite")
        z = self.ew_unary(z, "relu", "squeeze_excite")
        z = self.matmul(z, c, "squeeze_excite")
        z = self.ew_unary(z, "sigmoid", "squeeze_excite", spelling="generic")  # [1, c]
        zc = self.collapse(z, [[0, 1]], "squeeze_excite")                     # [c]
        return self.generic([x, zc], x.shape, x.dt, lambda a, o: (["%%q%d = arith.mulf %s, %s : %s" % (self.n, a[0], a[1], x.dt)], "%%q%d" % self.n),
                            "squeeze_excite")

    def norm(self, x):
        motif = self.pick(["layer_norm", "rms_norm"])
        self.motifs.append(motif)
        d = x.shape[-1]
        if motif == "rms_norm":
            sq = self.ew_binary(x, x, "mul", motif)
        else:
            s = self.reduce_last(x, "sum", motif)
            m = self.broadcast_last(s, x.shape, motif)
            inv = self.splat(x.shape, x.dt, 1.0 / d, motif)
            mean = self.ew_binary(m, inv, "mul", motif, spelling="tensor")
            xc = self.ew_binary(x, mean, "sub", motif)
            sq = self.ew_binary(xc, xc, "mul", motif)
            x = xc
        var = self.reduce_last(sq, "sum", motif)

        def body(a, out):
            t = "%t" + str(self.n)
            return ["%sk = arith.constant %s" % (t, fconst(x.dt, 1.0 / d)), "%sm = arith.mulf %s, %sk : %s" % (t, a[0], t, x.dt),
                    "%se = arith.constant %s" % (t, fconst(x.dt, 1e-5)), "%sa = arith.addf %sm, %se : %s" % (t, t, t, x.dt),
                    "%s = math.rsqrt %sa : %s" % (t, t, x.dt)], t
        r = self.generic([var], var.shape, x.dt, body, motif)
        rb = self.broadcast_last(r, x.shape, motif)
        y = self.ew_binary(x, rb, "mul", motif)
        g = self.weight((d,), x.dt, motif)
        return self.ew_binary(y, g, "mul", motif, spelling="generic")

    def attention(self, x):
        self.motifs.append("attention")
        s, d = x.shape
        heads = self.pick([h for h in (1, 2, 4) if d % h == 0])
        dh = d // heads
        q = self.matmul(x, d, "attention", bias=self.chance(0.5))
        k = self.matmul(x, d, "attention", bias=False)
        v = self.matmul(x, d, "attention", bias=False)

        def heads_of(t):
            e = self.expand(t, (s, heads, dh), "attention", groups=[[0], [1, 2]])
            return self.transpose(e, [1, 0, 2], "attention")     # [h, s, dh]
        qh, kh, vh = heads_of(q), heads_of(k), heads_of(v)
        kt = self.transpose(kh, [0, 2, 1], "attention")           # [h, dh, s]
        f = self.fill((heads, s, s), x.dt, 0, "attention")
        sc = Val(self.fresh("sc"), (heads, s, s), x.dt)
        self.unit(["%s = linalg.batch_matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
            sc.name, qh.name, kt.name, qh.ty, kt.ty, f.name, f.ty, sc.ty)], sc, [qh, kt, f], "attention", "linalg")
        self.flops += 2 * heads * s * s * dh
        scale = self.splat((heads, s, s), x.dt, 1.0 / (dh ** 0.5), "attention")
        sc = self.ew_binary(sc, scale, "mul", "attention", spelling=self.pick(["tensor", "generic"]))
        e = self.empty((heads, s, s), x.dt, "attention")
        p = Val(self.fresh("sm"), (heads, s, s), x.dt)
        self.unit(["%s = linalg.softmax dimension(2) ins(%s : %s) outs(%s : %s) -> %s" % (
            p.name, sc.name, sc.ty, e.name, e.ty, p.ty)], p, [sc, e], "attention", "linalg")
        self.flops += 5 * heads * s * s
        f2 = self.fill((heads, s, dh), x.dt, 0, "attention")
        ctx = Val(self.fresh("cx"), (heads, s, dh), x.dt)
        self.unit(["%s = linalg.batch_matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
            ctx.name, p.name, vh.name, p.ty, vh.ty, f2.name, f2.ty, ctx.ty)], ctx, [p, vh, f2], "attention", "linalg")
        self.flops += 2 * heads * s * s * dh
        ct = self.transpose(ctx, [1, 0, 2], "attention")
        merged = self.collapse(ct, [[0], [1, 2]], "attention")
        o = self.matmul(merged, d, "attention")
        return self.ew_binary(x, o, "add", "attention")

    def mlp(self, x):
        act = self.pick(["gelu", "silu"])
        self.motifs.append(act)
        s, d = x.shape
        h = self.matmul(x, min(4 * d, 512), act)
        if act == "silu":
            g = self.ew_unary(h, "sigmoid", act)
            y = self.ew_binary(h, g, "mul", act)
        else:
            # 0.5 x (1 + tanh(0.79788 (x + 0.044715 x^3))), a diamond over h
            c = self.splat(h.shape, h.dt, 0.044715, act)
            x2 = self.ew_binary(h, h, "mul", act)
            x3 = self.ew_binary(x2, h, "mul", act)
            t = self.ew_binary(x3, c, "mul", act)
            u = self.ew_binary(h, t, "add", act)
            th = self.ew_unary(u, "tanh", act)
            one = self.splat(h.shape, h.dt, 1.0, act)
            p = self.ew_binary(th, one, "add", act)
            half = self.splat(h.shape, h.dt, 0.5, act)
            hh = self.ew_binary(h, half, "mul", act)
            y = self.ew_binary(hh, p, "mul", act)
        o = self.matmul(y, d, act)
        return self.ew_binary(x, o, "add", act)

    def quant(self, x):
        self.motifs.append("quant")
        if x.dt != "f32":
            return x
        q = self.cast(x, "i8", "quant")
        if self.chance(0.5) and len(x.shape) == 2:
            y = self.matmul(q, x.shape[-1], "quant", bias=False)   # i8 x i8 -> i32 -> f32
            return y
        return self.cast(q, "f32", "quant")

    def gather(self, s, d, dt):
        self.motifs.append("gather")
        vocab = self.pick([16, 100, 1000])
        ids = self.arg((s,), "i32")
        table = self.weight((vocab, d), dt, "gather")
        if self.chance(0.5) and dt == "f32":
            t3 = self.tosa_reshape(table, (1, vocab, d), "gather")
            i2 = self.tosa_reshape(ids, (1, s), "gather")
            v = Val(self.fresh("ga"), (1, s, d), dt)
            self.unit(['%s = "tosa.gather"(%s, %s) : (%s, %s) -> %s' % (v.name, t3.name, i2.name, t3.ty, i2.ty, v.ty)],
                      v, [t3, i2], "gather", "tosa")
            return self.collapse(v, [[0, 1], [2]], "gather")
        e = self.empty((s, d), dt, "gather")
        v = Val(self.fresh("ga"), (s, d), dt)
        self.unit(["%s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = [\"parallel\", \"parallel\"]} ins(%s : %s) outs(%s : %s) {" % (
            v.name, ids.name, ids.ty, e.name, e.ty),
            "^bb0(%%gi: i32, %%go: %s):" % dt,
            "  %gr = arith.index_cast %gi : i32 to index",
            "  %gc = linalg.index 1 : index",
            "  %%gv = tensor.extract %s[%%gr, %%gc] : %s" % (table.name, table.ty),
            "  linalg.yield %%gv : %s" % dt, "} -> %s" % v.ty], v, [ids, table, e], "gather", "linalg")
        return v

    def tensor_motif(self, x):
        kind = self.pick(["slice", "pad", "concat", "reshape", "transpose"])
        self.motifs.append("tensor_" + kind)
        m = "tensor_" + kind
        r = len(x.shape)
        if kind == "slice" and x.shape[-1] >= 2:
            half = x.shape[-1] // 2
            sl = Val(self.fresh("sl"), x.shape[:-1] + (half,), x.dt)
            self.unit(["%s = tensor.extract_slice %s[%s] [%s] [%s] : %s to %s" % (
                sl.name, x.name, ", ".join(["0"] * r), ", ".join(str(d) for d in sl.shape), ", ".join(["1"] * r), x.ty, sl.ty)],
                sl, [x], m, "tensor")
            y = self.ew_unary(sl, "relu", m)
            z = self.fill(x.shape, x.dt, 0, m)
            ins = Val(self.fresh("is"), x.shape, x.dt)
            off = ["0"] * (r - 1) + [str(x.shape[-1] - half)]
            self.unit(["%s = tensor.insert_slice %s into %s[%s] [%s] [%s] : %s into %s" % (
                ins.name, y.name, z.name, ", ".join(off), ", ".join(str(d) for d in sl.shape), ", ".join(["1"] * r), y.ty, x.ty)],
                ins, [y, z], m, "tensor")
            return ins
        if kind == "pad":
            pv = Val(self.fresh("pd"), x.shape[:-1] + (x.shape[-1] + 2,), x.dt)
            z = self.fresh("z")
            self.unit(["%s = arith.constant %s" % (z, fconst(x.dt, 0)),
                       "%s = tensor.pad %s low[%s] high[%s] {" % (pv.name, x.name, ", ".join(["0"] * (r - 1) + ["1"]), ", ".join(["0"] * (r - 1) + ["1"])),
                       "^bb0(%s):" % ", ".join("%%q%d: index" % i for i in range(r)),
                       "  tensor.yield %s : %s" % (z, x.dt), "} : %s to %s" % (x.ty, pv.ty)], pv, [x], m, "tensor")
            sl = Val(self.fresh("sl"), x.shape, x.dt)
            self.unit(["%s = tensor.extract_slice %s[%s] [%s] [%s] : %s to %s" % (
                sl.name, pv.name, ", ".join(["0"] * (r - 1) + ["2"]), ", ".join(str(d) for d in x.shape), ", ".join(["1"] * r), pv.ty, sl.ty)],
                sl, [pv], m, "tensor")
            return sl
        if kind == "concat":
            y = self.ew_unary(x, "relu", m)
            cv = Val(self.fresh("cc"), x.shape[:-1] + (2 * x.shape[-1],), x.dt)
            self.unit(["%s = tensor.concat dim(%d) %s, %s : (%s, %s) -> %s" % (cv.name, r - 1, x.name, y.name, x.ty, y.ty, cv.ty)],
                      cv, [x, y], m, "tensor")
            sl = Val(self.fresh("sl"), x.shape, x.dt)
            self.unit(["%s = tensor.extract_slice %s[%s] [%s] [%s] : %s to %s" % (
                sl.name, cv.name, ", ".join(["0"] * (r - 1) + [str(x.shape[-1] // 2)]), ", ".join(str(d) for d in x.shape), ", ".join(["1"] * r), cv.ty, sl.ty)],
                sl, [cv], m, "tensor")
            return sl
        if kind == "reshape" and r >= 2:
            c = self.collapse(x, [list(range(r - 1)), [r - 1]], m)
            y = self.ew_unary(c, "relu", m)
            return self.expand(y, x.shape, m)
        if r >= 2:
            perm = list(range(r))
            perm[-1], perm[-2] = perm[-2], perm[-1]
            t = self.transpose(x, perm, m)
            t = self.ew_unary(t, self.pick(["relu", "exp"]), m)
            return self.transpose(t, perm, m)
        return x

    def loop(self, x):
        self.motifs.append("scf_for")
        trips = self.rng.randint(1, 3)
        lb, ub, st = self.fresh("lb"), self.fresh("ub"), self.fresh("st")
        v = Val(self.fresh("lp"), x.shape, x.dt)
        it = self.fresh("it")
        body = self.fresh("bd")
        fl = x.dt in FLOAT_TYPES
        lines = ["%s = arith.constant 0 : index" % lb, "%s = arith.constant %d : index" % (ub, trips),
                 "%s = arith.constant 1 : index" % st,
                 "%s = scf.for %%i%d = %s to %s step %s iter_args(%s = %s) -> (%s) {" % (v.name, self.n, lb, ub, st, it, x.name, x.ty),
                 "  %s = %s %s, %s : %s" % (body, "arith.addf" if fl else "arith.addi", it, it, x.ty),
                 "  scf.yield %s : %s" % (body, x.ty), "}"]
        self.unit(lines, v, [x], "scf_for", "scf")
        self.flops += trips * numel(x.shape)
        return v

    def branch(self, x):
        self.motifs.append("scf_if")
        c = self.arg((), "i1")
        c.name_scalar = True
        v = Val(self.fresh("if"), x.shape, x.dt)
        t = self.fresh("th")
        fl = x.dt in FLOAT_TYPES
        lines = ["%s = scf.if %s -> (%s) {" % (v.name, c.name, x.ty),
                 "  %s = %s %s, %s : %s" % (t, "arith.mulf" if fl else "arith.muli", x.name, x.name, x.ty),
                 "  scf.yield %s : %s" % (t, x.ty), "} else {", "  scf.yield %s : %s" % (x.name, x.ty), "}"]
        self.unit(lines, v, [x, c], "scf_if", "scf")
        return v

    def call(self, x):
        self.motifs.append("func_call")
        self.helpers += 1
        name = "@helper%d" % self.helpers
        fl = x.dt in FLOAT_TYPES
        self.module.append("func.func private %s(%%h: %s) -> %s {" % (name, x.ty, x.ty))
        self.module.append("  %%h1 = %s %%h, %%h : %s" % ("arith.mulf" if fl else "arith.muli", x.ty))
        self.module.append("  %%h2 = %s %%h1, %%h : %s" % ("arith.addf" if fl else "arith.addi", x.ty))
        self.module.append("  return %%h2 : %s" % x.ty)
        self.module.append("}")
        v = Val(self.fresh("cl"), x.shape, x.dt)
        self.unit(["%s = func.call %s(%s) : (%s) -> %s" % (v.name, name, x.name, x.ty, x.ty)], v, [x], "func_call", "func")
        self.flops += 2 * numel(x.shape)
        return v

    def global_weight(self, x):
        self.motifs.append("ml_program")
        g = "@g%d" % len(self.module)
        d = x.shape[-1]
        if self.chance(0.5):
            self.module.append("ml_program.global private %s(dense<0.25> : %s) : %s" % (g, ttype((d,), x.dt), ttype((d,), x.dt)))
        else:
            self.module.append("ml_program.global private %s(dense_resource<__elided__> : %s) : %s" % (g, ttype((d,), x.dt), ttype((d,), x.dt)))
            self.elided += 1
        w = Val(self.fresh("gl"), (d,), x.dt)
        self.unit(["%s = ml_program.global_load_const %s : %s" % (w.name, g, w.ty)], w, [], "ml_program", "ml_program")
        if self.chance(0.5):
            sg = "@s%d" % len(self.module)
            self.module.append("ml_program.global private %s(%s) : %s" % (sg, "0 : i32", "i32"))
        return self.ew_binary(x, w, "mul", "ml_program", spelling="generic")

    # --- the model -----------------------------------------------------------------------
    def build(self):
        family = self.pick(["cnn", "transformer", "mlp", "tensor"])
        self.family = family
        size = self.pick(["tiny", "small", "small", "medium", "large"])
        self.size = size
        dt = self.pick(["f32", "f32", "f32", "f16", "bf16"])
        if family == "cnn":
            hw = {"tiny": 4, "small": 8, "medium": 16, "large": 64}[size]
            c = {"tiny": 2, "small": 4, "medium": 8, "large": 16}[size]
            x = self.arg((1, hw, hw, c), dt)
            steps = self.rng.randint(1, 5)
            for _ in range(steps):
                if self.flops > self.max_flops:
                    break
                m = self.pick(["conv", "conv", "depthwise", "pool", "residual", "squeeze_excite", "tensor", "control"])
                if m == "conv":
                    self.motifs.append("conv")
                    x = self.conv(x, self.pick([c, 2 * c]), self.pick([1, 3]), self.pick([1, 1, 2]), self.chance(0.8))
                elif m == "depthwise":
                    self.motifs.append("depthwise")
                    x = self.depthwise(x)
                elif m == "pool":
                    self.motifs.append("pool")
                    x = self.pool(x)
                elif m == "residual":
                    x = self.residual(x)
                elif m == "squeeze_excite":
                    x = self.squeeze_excite(x)
                elif m == "tensor":
                    x = self.tensor_motif(x)
                else:
                    x = self.pick([self.loop, self.branch, self.call, self.global_weight])(x)
            if self.chance(0.5):  # classifier head
                self.motifs.append("head")
                x2 = self.collapse(x, [[0], [1, 2, 3]], "head")
                x = self.matmul(x2, 10, "head")
        else:
            s = {"tiny": 2, "small": 8, "medium": 32, "large": 256}[size]
            d = {"tiny": 4, "small": 16, "medium": 64, "large": 256}[size]
            if family == "transformer" and self.chance(0.4):
                x = self.gather(s, d, dt)
            else:
                x = self.arg((s, d), dt)
            steps = self.rng.randint(1, 4)
            for _ in range(steps):
                if self.flops > self.max_flops:
                    break
                if family == "transformer":
                    m = self.pick(["norm", "attention", "mlp", "quant", "tensor", "control"])
                elif family == "mlp":
                    m = self.pick(["matmul", "mlp", "norm", "quant", "control"])
                else:
                    m = self.pick(["tensor", "tensor", "control", "norm"])
                if m == "norm":
                    x = self.norm(x)
                elif m == "attention":
                    x = self.attention(x)
                elif m == "mlp":
                    x = self.mlp(x)
                elif m == "matmul":
                    self.motifs.append("matmul_bias")
                    x = self.matmul(x, self.pick([d, 2 * d]), "matmul_bias")
                elif m == "quant":
                    x = self.quant(x)
                elif m == "tensor":
                    x = self.tensor_motif(x)
                else:
                    x = self.pick([self.loop, self.branch, self.call, self.global_weight])(x)
        self.result = x
        return self

    def text(self, keep=None, extra_args=None):
        """The module, with only the units whose index is in |keep| (None: all); a dropped
        unit's value becomes an argument of the function."""
        units = self.units if keep is None else [u for i, u in enumerate(self.units) if i in keep]
        defined = {a.name for a, _ in self.args}
        args = list(self.args)
        for u in units:
            for x in u.uses:
                if x.name not in defined and not any(x is a for a, _ in args):
                    args.append((Val("%%in_%s" % x.name[1:], x.shape, x.dt), ""))
                    defined.add(x.name)
            defined.add(u.defines.name)
        rename = {}
        for a, _ in args:
            if a.name.startswith("%in_"):
                rename["%" + a.name[4:]] = a.name
        res = self.result
        if res.name not in defined:
            res = Val("%%in_%s" % res.name[1:], res.shape, res.dt)
            if not any(a.name == res.name for a, _ in args):
                args.append((res, ""))
        out = []
        out.extend(self.module_text())
        sig = ", ".join("%s: %s%s" % (a.name, "i1" if getattr(a, "name_scalar", False) else a.ty, (" " + at) if at else "")
                        for a, at in args)
        out.append("func.func @main(%s) -> %s {" % (sig, res.ty))
        for u in units:
            for line in u.lines:
                out.append("  " + sub_names(line, rename))
        out.append("  return %s : %s" % (rename.get(res.name, res.name), res.ty))
        out.append("}")
        return "\n".join(out) + "\n"

    def module_text(self):
        return list(self.module)

    def meta(self):
        return {"seed": self.seed, "family": self.family, "size": self.size, "motifs": sorted(set(self.motifs)),
                "dialects": sorted({u.dialect for u in self.units}), "elided": self.elided,
                "dtypes": sorted({a.dt for a, _ in self.args} | {u.defines.dt for u in self.units}),
                "units": len(self.units), "flops": self.flops}


def sub_names(line, rename):
    if not rename:
        return line
    import re
    return re.sub(r"%[A-Za-z_][A-Za-z0-9_]*", lambda m: rename.get(m.group(0), m.group(0)), line)


def nest(vals, shape):
    if len(shape) == 1:
        return "[" + ", ".join(str(v) for v in vals) + "]"
    step = len(vals) // shape[0]
    return "[" + ", ".join(nest(vals[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])) + "]"


def generate(seed):
    return Gen(seed).build()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("--out")
    ap.add_argument("--meta")
    a = ap.parse_args()
    g = generate(a.seed)
    text = g.text()
    if a.out:
        open(a.out, "w").write(text)
    else:
        print(text, end="")
    if a.meta:
        json.dump(g.meta(), open(a.meta, "w"))


if __name__ == "__main__":
    main()
