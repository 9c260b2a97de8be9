#!/usr/bin/env python3
"""gen_efficientnet.py VARIANT OUT.mlir: an EfficientNet graph (Tan & Le 2019, Table 1 and
the B0-B7 coefficients) in linalg on tensors, f32, batch 1, for the planner benchmark
(bench.py (2b)): the issue's hard planner case is EfficientNet-B7, which the corpus lacks.

Each MBConv block: a 1x1 expansion conv + bias + swish (when the expansion ratio is not
1), a KxK depthwise conv (stride S, 'same' padding through tensor.pad) + bias + swish,
squeeze-and-excitation (mean over H and W, FC + swish, FC + sigmoid, a broadcast
multiply), a 1x1 projection conv + bias, and the residual add when the shapes allow.
Weights are function arguments marked {metrale.param}: only activations reach the arena.
"""
import math
import sys

# Width, depth and resolution per variant (the paper's compound scaling).
VARIANTS = {
    "b0": (1.0, 1.0, 224), "b1": (1.0, 1.1, 240), "b2": (1.1, 1.2, 260),
    "b3": (1.2, 1.4, 300), "b4": (1.4, 1.8, 380), "b5": (1.6, 2.2, 456),
    "b6": (1.8, 2.6, 528), "b7": (2.0, 3.1, 600),
}
# B0's stages: expansion, channels, repeats, stride, kernel.
STAGES = [(1, 16, 1, 1, 3), (6, 24, 2, 2, 3), (6, 40, 2, 2, 5), (6, 80, 3, 2, 3),
          (6, 112, 3, 1, 5), (6, 192, 4, 2, 5), (6, 320, 1, 1, 3)]


def round_filters(c, width):
    """The reference implementation's rounding: to a multiple of 8, not below 90 %."""
    c *= width
    new = max(8, int(c + 4) // 8 * 8)
    if new < 0.9 * c:
        new += 8
    return int(new)


class Gen:
    def __init__(self):
        self.body, self.args, self.n = [], [], 0

    def val(self, prefix="v"):
        self.n += 1
        return "%%%s%d" % (prefix, self.n)

    def weight(self, shape):
        name = "%%w%d" % len(self.args)
        self.args.append("%s: %s {metrale.param}" % (name, ty(shape)))
        return name

    def emit(self, line):
        self.body.append("  " + line)

    def empty(self, shape):
        v = self.val("e")
        self.emit("%s = tensor.empty() : %s" % (v, ty(shape)))
        return v

    def zeros(self, shape):
        v = self.val("z")
        self.emit("%s = linalg.fill ins(%%zero : f32) outs(%s : %s) -> %s"
                  % (v, self.empty(shape), ty(shape), ty(shape)))
        return v

    def pad(self, x, shape, lo, hi):
        out = [shape[0], shape[1] + lo + hi, shape[2] + lo + hi, shape[3]]
        v = self.val("p")
        self.emit("%s = tensor.pad %s low[0, %d, %d, 0] high[0, %d, %d, 0] {\n"
                  "  ^bb0(%%i0: index, %%i1: index, %%i2: index, %%i3: index):\n"
                  "    tensor.yield %%zero : f32\n  } : %s to %s"
                  % (v, x, lo, lo, hi, hi, ty(shape), ty(out)))
        return v, out

    def same_pad(self, x, shape, k, s):
        """TensorFlow's 'same' padding: output ceil(H / S)."""
        h = shape[1]
        oh = -(-h // s)
        total = max((oh - 1) * s + k - h, 0)
        if total == 0:
            return x, shape, oh
        x, shape = self.pad(x, shape, total // 2, total - total // 2)
        return x, shape, oh

    def conv(self, x, shape, cout, k, s):
        x, pshape, oh = self.same_pad(x, shape, k, s)
        out = [1, oh, oh, cout]
        v = self.val("c")
        self.emit("%s = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, "
                  "strides = dense<%d> : tensor<2xi64>} ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                  % (v, s, x, self.weight([k, k, shape[3], cout]), ty(pshape),
                     ty([k, k, shape[3], cout]), self.zeros(out), ty(out), ty(out)))
        return self.bias(v, out), out

    def depthwise(self, x, shape, k, s):
        x, pshape, oh = self.same_pad(x, shape, k, s)
        c = shape[3]
        out = [1, oh, oh, c]
        v = self.val("d")
        self.emit("%s = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : "
                  "tensor<2xi64>, strides = dense<%d> : tensor<2xi64>} ins(%s, %s : %s, %s) "
                  "outs(%s : %s) -> %s"
                  % (v, s, x, self.weight([k, k, c]), ty(pshape), ty([k, k, c]),
                     self.zeros(out), ty(out), ty(out)))
        return self.bias(v, out), out

    def bias(self, x, shape):
        c = shape[-1]
        b = self.val("b")
        dims = ", ".join(str(d) for d in range(len(shape) - 1))
        self.emit("%s = linalg.broadcast ins(%s : %s) outs(%s : %s) dimensions = [%s]"
                  % (b, self.weight([c]), ty([c]), self.empty(shape), ty(shape), dims))
        v = self.val("a")
        self.emit("%s = arith.addf %s, %s : %s" % (v, x, b, ty(shape)))
        return v

    def sigmoid(self, x, shape):
        v = self.val("s")
        n = len(shape)
        ident = "affine_map<(%s) -> (%s)>" % (", ".join("d%d" % i for i in range(n)),
                                            ", ".join("d%d" % i for i in range(n)))
        self.emit("%s = linalg.generic {indexing_maps = [%s, %s], iterator_types = [%s]} "
                  "ins(%s : %s) outs(%s : %s) {\n"
                  "  ^bb0(%%in: f32, %%o: f32):\n"
                  "    %%n = arith.negf %%in : f32\n    %%e = math.exp %%n : f32\n"
                  "    %%p = arith.addf %%e, %%one : f32\n    %%r = arith.divf %%one, %%p : f32\n"
                  "    linalg.yield %%r : f32\n  } -> %s"
                  % (v, ident, ident, ", ".join(['"parallel"'] * n), x, ty(shape),
                     self.empty(shape), ty(shape), ty(shape)))
        return v

    def swish(self, x, shape):
        s = self.sigmoid(x, shape)
        v = self.val("m")
        self.emit("%s = arith.mulf %s, %s : %s" % (v, x, s, ty(shape)))
        return v

    def fc(self, x, cin, cout):
        v = self.val("f")
        self.emit("%s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                  % (v, x, self.weight([cin, cout]), ty([1, cin]), ty([cin, cout]),
                     self.zeros([1, cout]), ty([1, cout]), ty([1, cout])))
        return self.bias(v, [1, cout])

    def mean_hw(self, x, shape):
        c = shape[3]
        r = self.val("r")
        self.emit("%s = linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [1, 2]\n"
                  "    (%%in: f32, %%acc: f32) {\n      %%t = arith.addf %%in, %%acc : f32\n"
                  "      linalg.yield %%t : f32\n    }"
                  % (r, x, ty(shape), self.zeros([1, c]), ty([1, c])))
        v = self.val("g")
        self.emit("%s = arith.mulf %s, %s : %s" % (v, r, self.splat(1.0 / (shape[1] * shape[2]),
                                                                 [1, c]), ty([1, c])))
        return v

    def splat(self, value, shape):
        v = self.val("k")
        self.emit("%s = arith.constant dense<%r> : %s" % (v, value, ty(shape)))
        return v

    def se(self, x, shape, cse):
        c = shape[3]
        s = self.mean_hw(x, shape)
        s = self.swish(self.fc(s, c, cse), [1, cse])
        s = self.sigmoid(self.fc(s, cse, c), [1, c])
        b = self.val("b")
        self.emit("%s = linalg.broadcast ins(%s : %s) outs(%s : %s) dimensions = [1, 2]"
                  % (b, self.collapse(s, c), ty([1, c]), self.empty(shape), ty(shape)))
        v = self.val("x")
        self.emit("%s = arith.mulf %s, %s : %s" % (v, x, b, ty(shape)))
        return v

    def collapse(self, x, c):
        return x  # [1, C] broadcast along H, W: dimensions [1, 2] of [1, H, W, C]


def ty(shape):
    return "tensor<%sxf32>" % "x".join(str(d) for d in shape)


def generate(variant):
    width, depth, res = VARIANTS[variant]
    g = Gen()
    shape = [1, res, res, 3]
    x = "%input"
    x, shape = g.conv(x, shape, round_filters(32, width), 3, 2)
    x = g.swish(x, shape)
    for expand, cout, repeats, stride, k in STAGES:
        cout = round_filters(cout, width)
        for r in range(int(math.ceil(depth * repeats))):
            s = stride if r == 0 else 1
            cin = shape[3]
            h, hs = x, shape
            if expand != 1:
                h, hs = g.conv(h, hs, cin * expand, 1, 1)
                h = g.swish(h, hs)
            h, hs = g.depthwise(h, hs, k, s)
            h = g.swish(h, hs)
            h = g.se(h, hs, max(1, cin // 4))
            h, hs = g.conv(h, hs, cout, 1, 1)
            if s == 1 and cin == cout:
                v = g.val("res")
                g.emit("%s = arith.addf %s, %s : %s" % (v, h, x, ty(hs)))
                h = v
            x, shape = h, hs
    x, shape = g.conv(x, shape, round_filters(1280, width), 1, 1)
    x = g.swish(x, shape)
    x = g.mean_hw(x, shape)
    logits = g.fc(x, shape[3], 1000)
    args = ["%%input: %s" % ty([1, res, res, 3])] + g.args
    return ("func.func @efficientnet_%s(%s) -> %s {\n"
            "  %%zero = arith.constant 0.0 : f32\n  %%one = arith.constant 1.0 : f32\n"
            "%s\n  return %s : %s\n}\n"
            % (variant, ", ".join(args), ty([1, 1000]), "\n".join(g.body), logits,
               ty([1, 1000])))


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in VARIANTS:
        sys.exit("usage: gen_efficientnet.py b0|...|b7 OUT.mlir")
    with open(sys.argv[2], "w") as f:
        f.write(generate(sys.argv[1]))
