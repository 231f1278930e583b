"""Which pointwise ops FakeTensor lays out as TensorIterator does, checked by execution.

declone infers the strides of a pointwise op's result from its operands' (lib/analysis/
StrideInference.cpp). For operands that are all exactly contiguous every op gives a contiguous
result. For the other layouts (transposed, channels-last, sliced, broadcast against them) the
result depends on how the op is computed: eager TensorIterator orders dimensions by the operands'
strides, but FakeTensor, whose strides a dump prints, runs some ops as decompositions (xlogy,
heaviside, the activation backwards) that lay the result out their own way. This script runs
each op on FakeTensors and on real tensors of such layouts and lists the ops for which both
agree with declone's rule (dense strides in the order every operand agrees on): those are
kTensorIteratorOps. Run it with the PyTorch a dump comes from:

    python tools/audit-layouts/audit_pointwise.py
"""

import itertools
import sys

import torch
from torch._subclasses.fake_tensor import FakeTensorMode

# name -> (callable on aten, number of tensor operands)
UNARY = ["neg", "abs", "exp", "exp2", "expm1", "log", "log1p", "log2", "log10", "sqrt", "rsqrt",
         "reciprocal", "sigmoid", "tanh", "relu", "gelu", "silu", "mish", "sin", "cos", "tan",
         "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "erf", "erfc",
         "erfinv", "sign", "sgn", "floor", "ceil", "round", "trunc", "frac", "logical_not",
         "bitwise_not", "clamp", "clamp_min", "clamp_max", "hardtanh", "hardsigmoid",
         "hardswish", "leaky_relu", "elu", "softplus", "square", "isnan", "isinf", "nan_to_num",
         "logit"]
BINARY = ["add", "sub", "mul", "div", "true_divide", "rsub", "maximum", "minimum", "pow", "atan2", "fmod",
          "remainder", "floor_divide", "eq", "ne", "lt", "le", "gt", "ge", "logical_and",
          "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "hypot",
          "copysign", "xlogy", "nextafter", "heaviside", "sigmoid_backward", "tanh_backward",
          "threshold_backward", "gelu_backward", "silu_backward", "hardtanh_backward",
          "leaky_relu_backward", "hardsigmoid_backward", "hardswish_backward", "mish_backward",
          "elu_backward", "softplus_backward", "logit_backward"]
TERNARY = ["where", "lerp", "addcmul", "addcdiv"]

EXTRA = {"clamp": (-0.5, 0.5), "clamp_min": (0.0,), "clamp_max": (0.0,), "hardtanh": (),
         "leaky_relu": (), "threshold_backward": (0.0,), "hardtanh_backward": (-1.0, 1.0),
         "leaky_relu_backward": (0.01, False), "elu_backward": (1.0, 1.0, 1.0, False),
         "softplus_backward": (1.0, 20.0), "lerp": (), "logit_backward": (None,)}


def call(name, tensors):
    op = getattr(torch.ops.aten, name)
    args = list(tensors)
    if name in ("where",):
        args[0] = args[0] > 0
    if name.startswith("bitwise") or name.startswith("logical"):
        args = [a > 0 for a in args]
    return op(*args, *EXTRA.get(name, ()))


def layouts(make):
    """Operand layouts that are not all contiguous and have no size-1 output dimension."""
    t = lambda: make((4, 5)).t()                                        # [5, 4] transposed
    c = lambda: make((5, 4))                                            # [5, 4] contiguous
    cl = lambda: make((2, 3, 4, 5)).contiguous(memory_format=torch.channels_last)
    sl = lambda: make((5, 8))[:, ::2]                                   # gaps
    b = lambda: make((4,))                                              # broadcast
    z = lambda: make(())                                                # 0-dim
    s3 = lambda: make((12,)).as_strided((2, 2, 2), (2, 1, 8))           # gaps, odd order
    p3 = lambda: make((3, 4, 5)).permute(2, 0, 1)                       # [5, 3, 4]
    yield "t", [t]
    yield "cl", [cl]
    yield "sl", [sl]
    yield "p3", [p3]
    yield "t,b", [t, b]
    yield "b,t", [b, t]
    yield "t,t", [t, t]
    yield "cl,cl", [cl, cl]
    yield "sl,c", [sl, c]
    yield "t,t,t", [t, t, t]
    yield "z,t", [z, t]
    yield "t,z", [t, z]
    yield "z,s3", [z, s3]
    yield "s3,z", [s3, z]
    yield "s3", [s3]
    yield "z,t,t", [z, t, t]
    yield "t,z,z", [t, z, z]
    yield "t,b,b", [t, b, b]


def expected(tensors):
    """declone's rule: the order every non-broadcast operand agrees on, dense."""
    shape = torch.broadcast_shapes(*(x.shape for x in tensors))
    rank = len(shape)
    strides = []
    for x in tensors:
        off = rank - x.dim()
        s = [0] * off + [0 if x.shape[i] == 1 else x.stride(i) for i in range(x.dim())]
        strides.append(s)
    dims = sorted(range(rank), key=lambda d: min((s[d] for s in strides if s[d]), default=0))
    for a, b in itertools.combinations(range(rank), 2):
        signs = {(s[a] < s[b]) for s in strides if s[a] and s[b]}
        if len(signs) > 1:
            return None
    out = [0] * rank
    nxt = 1
    for d in dims:
        out[d] = nxt
        nxt *= shape[d]
    return tuple(out)


def audit(name, arity):
    for label, makers in layouts(lambda shape: torch.randn(*shape)):
        makers = makers[:arity] if len(makers) >= arity else None
        if makers is None or len(makers) != arity:
            continue
        try:
            real = call(name, [m() for m in makers])
            with FakeTensorMode():
                fake = call(name, [m() for m in makers])
        except Exception:
            continue
        want = expected([m() for m in makers])
        if want is None:
            continue
        if tuple(real.stride()) != want or tuple(fake.stride()) != want:
            return f"{label}: eager {tuple(real.stride())}, fake {tuple(fake.stride())}, rule {want}"
    return None


def main():
    vetted, refused = [], []
    for names, arity in ((UNARY, 1), (BINARY, 2), (TERNARY, 3)):
        for name in names:
            if not hasattr(torch.ops.aten, name):
                continue
            why = audit(name, arity)
            (refused if why else vetted).append((name, why))
    print(f"torch {torch.__version__}: {len(vetted)} ops follow the rule, {len(refused)} do not")
    for name, why in refused:
        print(f"  not {name}: {why}")
    print("kTensorIteratorOps:", ", ".join(f'"{n}"' for n, _ in vetted))
    return 0


if __name__ == "__main__":
    sys.exit(main())
