"""A KernelBench reference ``Model`` as a tensor spec: ATen graph -> named tensor ops with a meaning (stage: floats).

The scalar spec (``spec.py``) covers elementwise programs bit for bit. Most of KernelBench level 1 is not
elementwise: reductions over dims, softmax, norms, matmul/bmm, pooling, convolutions (transposed, grouped,
dilated, strided), scans, losses. ``capture(path)`` expresses such a forward as a ``TensorSpec``: the ATen
graph of ``torch.export`` (no decompositions), every node translated by the op table ``TENSOR_OPS`` into a
``TNode`` of one ``Family`` with its arguments (dims, keepdim, stride, padding, dilation, groups, eps,
reduction, ...) and its output shape; a node whose op has no entry is refused by name
(``SpecOpUnsupportedError`` with op and line). Each entry has an evaluator over binary64 (numpy), written from
the op's definition in the PyTorch documentation, not by calling the op: ``evaluate(spec, args)`` computes the
forward as real arithmetic rounded to binary64, the reference meaning a checker over the reals compares
against. (Bit-exact float32 meaning of non-elementwise ops is evaluation order, i.e. the ATen kernel's
reduction tree: that is issue 25 item 3's verdict, not this module's.)

How the file is read: ``get_inputs``/``get_init_inputs`` statically (``problem_inputs.read_inputs``); then
``Model(*init)`` is built on PyTorch's ``meta`` device (shapes only: no data, no arithmetic) and exported
with ``meta`` tensors of the read shapes. ``cross_check(path)`` is the one place that runs the reference
``Model`` on the CPU: on the small instance (``problem_inputs.shrunk``), in float64, against ``evaluate`` of
that instance's graph; it is how each evaluator is tested against PyTorch on every problem.

Limits: float32 problems (integer/bool inputs only as targets and masks); the model in inference mode
(``Model.train(False)``, as ``kernelbench.capture_reference`` runs it); one tensor output.
"""

from __future__ import annotations

import ast
import enum
import importlib.util
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from workbench.floats.errors import SpecLoadError, SpecOpUnsupportedError
from workbench.floats.problem_inputs import Input, InputKind, ProblemInputs, read_inputs, shrunk


class Family(enum.StrEnum):
    """What kind of computation an op is: which checker can give it a verdict."""

    ELEMENTWISE = "elementwise"  # out[i] = f(x[i], ...): the floats checker's scalar IR
    LAYOUT = "layout"  # moves or copies elements (transpose, flip, narrow, cat, unsqueeze): no arithmetic
    REDUCTION = "reduction"  # sum/mean/max/min/argmax/norm over dims: an order of evaluation
    SCAN = "scan"  # cumsum/cumprod: a prefix order
    SOFTMAX = "softmax"  # softmax/log_softmax: max, exp, sum, divide
    NORM = "norm"  # batch/instance/group/layer norm: mean and variance over dims, then affine
    MATMUL = "matmul"  # matmul/bmm/einsum: dot products
    CONV = "conv"  # convolution and transposed convolution: windowed dot products
    POOL = "pool"  # max/avg pooling: windowed reductions
    LOSS = "loss"  # reductions of elementwise losses (cross entropy, smooth l1, kl, triplet margin)
    ATTENTION = "attention"  # scaled dot-product attention: matmul, softmax, matmul


@dataclass(frozen=True, slots=True)
class TNode:
    name: str
    op: str  # ATen target, e.g. "aten.sum.dim_IntList"
    family: Family
    args: tuple  # node names (str prefixed with "%"), numbers, lists, None
    kwargs: tuple[tuple[str, object], ...]
    shape: tuple[int, ...] | None  # None for tuple-valued nodes (max.dim)
    line: int | None


@dataclass(frozen=True, slots=True)
class TensorSpec:
    name: str
    path: str
    inputs: tuple[Input, ...]
    params: tuple[tuple[str, tuple[int, ...]], ...]  # parameter/buffer placeholders and their shapes
    nodes: tuple[TNode, ...]
    output: str  # the returned node's name
    out_shape: tuple[int, ...]
    users: tuple[str, ...] = ()  # the graph's names of the user inputs, in order

    @property
    def ops(self) -> tuple[str, ...]:
        return tuple(n.op for n in self.nodes)

    @property
    def families(self) -> tuple[Family, ...]:
        """The families of the spec's computing nodes, sorted (layout is listed only when alone)."""
        fs = {n.family for n in self.nodes}
        if fs != {Family.LAYOUT}:
            fs.discard(Family.LAYOUT)
        return tuple(sorted(fs, key=lambda f: list(Family).index(f)))

    @property
    def elementwise(self) -> bool:
        return self.families == (Family.ELEMENTWISE,)


# -- evaluators (binary64, from each op's documented definition) -----------------------------------------

def _dims(x: np.ndarray, dim) -> tuple[int, ...]:
    if dim is None or dim == []:
        return tuple(range(x.ndim))
    ds = dim if isinstance(dim, (list, tuple)) else [dim]
    return tuple(sorted(d % x.ndim for d in ds))


def _reduce(fn):
    def ev(x, dim=None, keepdim=False, dtype=None):
        return fn(x, axis=_dims(x, dim), keepdims=bool(keepdim))
    return ev


def _mean_default(x, dtype=None):
    return np.mean(x)


def _sum_default(x, dtype=None):
    return np.sum(x)


def _minmax_dim(fn, arg):
    def ev(x, dim, keepdim=False):
        d = dim % x.ndim
        return fn(x, axis=d, keepdims=bool(keepdim)), arg(x, axis=d, keepdims=bool(keepdim))
    return ev


def _arg(fn):
    def ev(x, dim=None, keepdim=False):
        if dim is None:
            return fn(x.reshape(-1))
        return fn(x, axis=dim % x.ndim, keepdims=bool(keepdim))
    return ev


def _vector_norm(x, ord=2, dim=None, keepdim=False, dtype=None):
    ax = _dims(x, dim)
    a = np.abs(x)
    if ord == math.inf:
        return np.max(a, axis=ax, keepdims=keepdim)
    if ord == 1:
        return np.sum(a, axis=ax, keepdims=keepdim)
    return np.sum(a ** ord, axis=ax, keepdims=keepdim) ** (1.0 / ord)


def _softmax(x, dim, half_to_float=False):
    e = np.exp(x - np.max(x, axis=dim, keepdims=True))
    return e / np.sum(e, axis=dim, keepdims=True)


def _log_softmax(x, dim, half_to_float=False):
    m = x - np.max(x, axis=dim, keepdims=True)
    return m - np.log(np.sum(np.exp(m), axis=dim, keepdims=True))


def _cum(fn):
    def ev(x, dim, dtype=None):
        return fn(x, axis=dim % x.ndim)
    return ev


def _matmul(a, b):
    return np.matmul(a, b)


def _einsum(equation, tensors, path=None):
    return np.einsum(equation, *tensors)


def _tuple(v, n: int) -> tuple[int, ...]:
    if isinstance(v, (list, tuple)):
        return tuple(v) if len(v) == n else tuple(v) * n if len(v) == 1 else tuple(v)
    return (v,) * n


def _conv(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    """out[n, o, y] = b[o] + sum_{c in o's group, k} w[o, c, k] * xpad[n, c, y * stride + k * dilation]."""
    nd = x.ndim - 2
    s, d = _tuple(stride, nd), _tuple(dilation, nd)
    if isinstance(padding, str):
        raise SpecOpUnsupportedError(f"conv padding={padding!r} is not evaluated; use integer padding", op="conv")
    p = _tuple(padding, nd)
    xp = np.pad(x, [(0, 0), (0, 0)] + [(q, q) for q in p])
    N, C = x.shape[:2]
    O, Cg = w.shape[:2]
    ks = w.shape[2:]
    outs = tuple((xp.shape[2 + i] - d[i] * (ks[i] - 1) - 1) // s[i] + 1 for i in range(nd))
    out = np.zeros((N, O) + outs)
    og = O // groups
    for g in range(groups):
        xs = xp[:, g * Cg:(g + 1) * Cg]
        ws = w[g * og:(g + 1) * og]
        for k in np.ndindex(*ks):
            sl = tuple(slice(k[i] * d[i], k[i] * d[i] + s[i] * (outs[i] - 1) + 1, s[i]) for i in range(nd))
            win = xs[(slice(None), slice(None)) + sl]
            out[:, g * og:(g + 1) * og] += np.einsum("nc...,oc->no...", win, ws[(slice(None), slice(None)) + k])
    if b is not None:
        out += b.reshape((1, O) + (1,) * nd)
    return out


def _conv_transpose(x, w, b=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The adjoint of ``_conv``: x[n, c, y] adds w[c, o, k] * x to out[n, o, y * stride + k * dilation - padding]."""
    nd = x.ndim - 2
    s, d, p, op = (_tuple(v, nd) for v in (stride, dilation, padding, output_padding))
    N, C = x.shape[:2]
    Cg, og = C // groups, w.shape[1]
    ks = w.shape[2:]
    ins = x.shape[2:]
    full = tuple((ins[i] - 1) * s[i] + d[i] * (ks[i] - 1) + 1 + op[i] for i in range(nd))
    out = np.zeros((N, og * groups) + full)
    for g in range(groups):
        xs = x[:, g * Cg:(g + 1) * Cg]
        ws = w[g * Cg:(g + 1) * Cg]
        for k in np.ndindex(*ks):
            sl = tuple(slice(k[i] * d[i], k[i] * d[i] + s[i] * (ins[i] - 1) + 1, s[i]) for i in range(nd))
            out[(slice(None), slice(g * og, (g + 1) * og)) + sl] += np.einsum("nc...,co->no...", xs,
                                                                             ws[(slice(None), slice(None)) + k])
    crop = tuple(slice(p[i], full[i] - p[i]) for i in range(nd))
    out = out[(slice(None), slice(None)) + crop]
    if b is not None:
        out = out + b.reshape((1, -1) + (1,) * nd)
    return out


def _conv_by_rank(transposed: bool):
    def ev(x, w, b=None, stride=1, padding=0, *rest):
        if transposed:  # conv_transposeNd(input, weight, bias, stride, padding, output_padding, groups, dilation)
            return _conv_transpose(x, w, b, stride, padding, *rest)
        return _conv(x, w, b, stride, padding, *rest)  # convNd(input, weight, bias, stride, padding, dilation, groups)
    return ev


def _windows(x, ks, s, p, d, ceil_mode, fill):
    """Every pooling window of x's trailing len(ks) dims: array (..., out..., k...) and the valid mask."""
    nd = len(ks)
    L = x.shape[-nd:]
    outs = []
    for i in range(nd):
        span = L[i] + 2 * p[i] - d[i] * (ks[i] - 1) - 1
        o = (-(-span // s[i]) if ceil_mode else span // s[i]) + 1
        if ceil_mode and (o - 1) * s[i] >= L[i] + p[i]:  # the last window must start inside the input or left pad
            o -= 1
        outs.append(o)
    hi = [max(0, (outs[i] - 1) * s[i] + d[i] * (ks[i] - 1) + 1 - L[i] - p[i]) for i in range(nd)]
    lead = [(0, 0)] * (x.ndim - nd)
    xp = np.pad(x, lead + [(p[i], hi[i]) for i in range(nd)], constant_values=fill)
    inside = np.pad(np.ones(L), [(p[i], hi[i]) for i in range(nd)])  # input elements
    padded = np.zeros(xp.shape[-nd:])  # input and padding; the ceil_mode overhang is not counted
    padded[tuple(slice(0, L[i] + 2 * p[i]) for i in range(nd))] = 1
    cols, valid, counted = [], [], []
    for k in np.ndindex(*ks):
        sl = tuple(slice(k[i] * d[i], k[i] * d[i] + s[i] * (outs[i] - 1) + 1, s[i]) for i in range(nd))
        cols.append(xp[(Ellipsis,) + sl])
        valid.append(inside[sl])
        counted.append(padded[sl])
    return np.stack(cols, -1), np.stack(valid, -1), np.stack(counted, -1)


def _max_pool(nd: int):
    def ev(x, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
        ks = _tuple(kernel_size, nd)
        s = _tuple(stride, nd) if stride not in ((), [], None) else ks
        cols, _, _ = _windows(x, ks, s, _tuple(padding, nd), _tuple(dilation, nd), ceil_mode, -np.inf)
        return np.max(cols, axis=-1)
    return ev


def _avg_pool(nd: int):
    def ev(x, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None):
        ks = _tuple(kernel_size, nd)
        s = _tuple(stride, nd) if stride not in ((), [], None) else ks
        cols, valid, counted = _windows(x, ks, s, _tuple(padding, nd), (1,) * nd, ceil_mode, 0.0)
        total = np.sum(cols, axis=-1)
        if divisor_override:
            return total / divisor_override
        n = np.sum(counted if count_include_pad else valid, axis=-1)
        return total / n
    return ev


def _batch_norm(x, w, b, rm, rv, training, momentum, eps, cudnn_enabled=False):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    if training:
        ax = (0,) + tuple(range(2, x.ndim))
        mean, var = np.mean(x, axis=ax, keepdims=True), np.var(x, axis=ax, keepdims=True)
    else:
        mean, var = rm.reshape(shape), rv.reshape(shape)
    y = (x - mean) / np.sqrt(var + eps)
    return y * (w.reshape(shape) if w is not None else 1) + (b.reshape(shape) if b is not None else 0)


def _instance_norm(x, w, b, rm, rv, use_input_stats, momentum, eps, cudnn_enabled=False):
    ax = tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    mean, var = np.mean(x, axis=ax, keepdims=True), np.var(x, axis=ax, keepdims=True)
    if not use_input_stats:
        mean, var = rm.reshape(shape), rv.reshape(shape)
    y = (x - mean) / np.sqrt(var + eps)
    return y * (w.reshape(shape) if w is not None else 1) + (b.reshape(shape) if b is not None else 0)


def _group_norm(x, num_groups, w=None, b=None, eps=1e-5, cudnn_enabled=True):
    N, C = x.shape[:2]
    g = x.reshape((N, num_groups, -1))
    y = ((g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + eps)).reshape(x.shape)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return y * (w.reshape(shape) if w is not None else 1) + (b.reshape(shape) if b is not None else 0)


def _layer_norm(x, normalized_shape, w=None, b=None, eps=1e-5, cudnn_enable=True):
    ax = tuple(range(x.ndim - len(normalized_shape), x.ndim))
    y = (x - x.mean(ax, keepdims=True)) / np.sqrt(x.var(ax, keepdims=True) + eps)
    return y * (w if w is not None else 1) + (b if b is not None else 0)


_REDUCTIONS = {0: lambda v: v, 1: np.mean, 2: np.sum}  # ATen's Reduction enum: None, Mean, Sum


def _cross_entropy(x, target, weight=None, reduction=1, ignore_index=-100, label_smoothing=0.0):
    if weight is not None or label_smoothing:
        raise SpecOpUnsupportedError("cross_entropy with class weights or label smoothing is not evaluated",
                                     op="aten.cross_entropy_loss.default")
    lsm = _log_softmax(x, 1)
    t = target.astype(np.int64)
    picked = -np.take_along_axis(lsm, t.reshape((t.shape[0], 1) + t.shape[1:]), axis=1).squeeze(1)
    keep = t != ignore_index
    if reduction == 1:
        return np.sum(picked * keep) / np.sum(keep)
    return _REDUCTIONS[reduction](picked * keep)


def _smooth_l1(x, y, reduction=1, beta=1.0):
    d = np.abs(x - y)
    v = np.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta) if beta else d
    return _REDUCTIONS[reduction](v)


def _kl_div(x, target, reduction=1, log_target=False):
    v = np.exp(target) * (target - x) if log_target else \
        np.where(target > 0, target * (np.log(np.where(target > 0, target, 1.0)) - x), 0.0)
    return _REDUCTIONS[reduction](v)


def _triplet(a, p, n, margin=1.0, pnorm=2.0, eps=1e-6, swap=False, reduction=1):
    def dist(u, v):
        return np.sum(np.abs(u - v + eps) ** pnorm, axis=-1) ** (1.0 / pnorm)
    dp, dn = dist(a, p), dist(a, n)
    if swap:
        dn = np.minimum(dn, dist(p, n))
    return _REDUCTIONS[reduction](np.maximum(dp - dn + margin, 0.0))


def _sdpa(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False):
    if attn_mask is not None or dropout_p or is_causal:
        raise SpecOpUnsupportedError("scaled_dot_product_attention with a mask, dropout or is_causal is not "
                                     "evaluated", op="aten.scaled_dot_product_attention.default")
    sc = scale if scale is not None else 1.0 / math.sqrt(q.shape[-1])
    return np.matmul(_softmax(np.matmul(q, np.swapaxes(k, -1, -2)) * sc, -1), v)


def _erf(x):
    from scipy.special import erf

    return erf(x)


def _gelu(x, approximate="none"):
    if approximate == "tanh":
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1 + _erf(x / math.sqrt(2)))


def _elu(x, alpha=1.0, scale=1.0, input_scale=1.0):
    return np.where(x > 0, scale * x, scale * alpha * (np.exp(x * input_scale) - 1))


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _softplus(x, beta=1.0, threshold=20.0):
    return np.where(x * beta > threshold, x, np.log1p(np.exp(np.minimum(x * beta, threshold))) / beta)


def _clamp(x, min=None, max=None):
    if min is not None:
        x = np.maximum(x, min)
    if max is not None:
        x = np.minimum(x, max)
    return x


def _narrow(x, dim, start, length):
    sl = [slice(None)] * x.ndim
    sl[dim % x.ndim] = slice(start, start + length)
    return x[tuple(sl)]


def _select(x, dim, index):
    return np.take(x, index, axis=dim % x.ndim)


def _tri(fn):
    def ev(x, diagonal=0):
        return fn(x, diagonal)
    return ev


@dataclass(frozen=True, slots=True)
class TensorOp:
    family: Family
    evaluate: Callable
    doc: str  # the definition the evaluator implements (PyTorch documentation)


E, L = Family.ELEMENTWISE, Family.LAYOUT
TENSOR_OPS: dict[str, TensorOp] = {
    # elementwise (bit-exact float32 rules for these live in aten.py; here: their real meaning)
    "aten.relu.default": TensorOp(E, lambda x: np.maximum(x, 0.0), "max(x, 0)"),
    "aten.leaky_relu.default": TensorOp(E, lambda x, s=0.01: np.where(x > 0, x, x * s), "x > 0 ? x : slope * x"),
    "aten.sigmoid.default": TensorOp(E, lambda x: 1 / (1 + np.exp(-x)), "1 / (1 + exp(-x))"),
    "aten.tanh.default": TensorOp(E, np.tanh, "tanh x"),
    "aten.gelu.default": TensorOp(E, _gelu, "x * Phi(x), or the tanh approximation"),
    "aten.selu.default": TensorOp(E, lambda x: _elu(x, _SELU_ALPHA, _SELU_SCALE), "scale * elu(x, alpha)"),
    "aten.elu.default": TensorOp(E, _elu, "x > 0 ? scale * x : scale * alpha * (exp(input_scale * x) - 1)"),
    "aten.hardsigmoid.default": TensorOp(E, lambda x: np.clip(x / 6 + 0.5, 0, 1), "relu6(x + 3) / 6"),
    "aten.hardtanh.default": TensorOp(E, lambda x, lo=-1.0, hi=1.0: np.clip(x, lo, hi), "clamp(x, min, max)"),
    "aten.softplus.default": TensorOp(E, _softplus, "log(1 + exp(beta x)) / beta, x above threshold"),
    "aten.abs.default": TensorOp(E, np.abs, "|x|"),
    "aten.sqrt.default": TensorOp(E, np.sqrt, "sqrt x"),
    "aten.log.default": TensorOp(E, np.log, "log x"),
    "aten.add.Tensor": TensorOp(E, lambda a, b, alpha=1: a + alpha * b, "a + alpha * b (broadcast)"),
    "aten.sub.Tensor": TensorOp(E, lambda a, b, alpha=1: a - alpha * b, "a - alpha * b (broadcast)"),
    "aten.rsub.Scalar": TensorOp(E, lambda a, b, alpha=1: b - alpha * a, "b - alpha * a"),
    "aten.mul.Tensor": TensorOp(E, lambda a, b: a * b, "a * b (broadcast)"),
    "aten.div.Tensor": TensorOp(E, lambda a, b: a / b, "a / b (broadcast)"),
    "aten.pow.Tensor_Scalar": TensorOp(E, lambda x, e: x ** e, "x ** e"),
    "aten.clamp.default": TensorOp(E, _clamp, "min(max(x, lo), hi)"),
    "aten.triu.default": TensorOp(E, _tri(np.triu), "x[i, j] for j - i >= diagonal, else 0"),
    "aten.tril.default": TensorOp(E, _tri(np.tril), "x[i, j] for j - i <= diagonal, else 0"),
    "aten.zeros_like.default": TensorOp(E, lambda x, **kw: np.zeros_like(x), "0"),
    # layout
    "aten.unsqueeze.default": TensorOp(L, np.expand_dims, "a new dim of size 1"),
    "aten.numpy_T.default": TensorOp(L, lambda x: x.T, "dims reversed"),
    "aten.flip.default": TensorOp(L, lambda x, dims: np.flip(x, tuple(dims)), "reversed along dims"),
    "aten.narrow.default": TensorOp(L, _narrow, "x[..., start:start + length, ...]"),
    "aten.select.int": TensorOp(L, _select, "x[..., index, ...]"),
    "aten.cat.default": TensorOp(L, lambda xs, dim=0: np.concatenate(xs, axis=dim), "concatenation along dim"),
    "aten.broadcast_tensors.default": TensorOp(L, lambda xs: tuple(np.broadcast_arrays(*xs)), "broadcast"),
    # reductions
    "aten.sum.dim_IntList": TensorOp(Family.REDUCTION, _reduce(np.sum), "sum over dims"),
    "aten.sum.default": TensorOp(Family.REDUCTION, _sum_default, "sum of all elements"),
    "aten.mean.dim": TensorOp(Family.REDUCTION, _reduce(np.mean), "sum over dims / their size"),
    "aten.mean.default": TensorOp(Family.REDUCTION, _mean_default, "sum of all elements / numel"),
    "aten.max.dim": TensorOp(Family.REDUCTION, _minmax_dim(np.max, np.argmax), "(max, first argmax) over dim"),
    "aten.min.dim": TensorOp(Family.REDUCTION, _minmax_dim(np.min, np.argmin), "(min, first argmin) over dim"),
    "aten.argmax.default": TensorOp(Family.REDUCTION, _arg(np.argmax), "first index of the max over dim"),
    "aten.argmin.default": TensorOp(Family.REDUCTION, _arg(np.argmin), "first index of the min over dim"),
    "aten.linalg_vector_norm.default": TensorOp(Family.REDUCTION, _vector_norm, "(sum |x|**ord) ** (1/ord)"),
    # scans
    "aten.cumsum.default": TensorOp(Family.SCAN, _cum(np.cumsum), "prefix sums along dim"),
    "aten.cumprod.default": TensorOp(Family.SCAN, _cum(np.cumprod), "prefix products along dim"),
    # softmax
    "aten.softmax.int": TensorOp(Family.SOFTMAX, _softmax, "exp(x - max) / sum exp(x - max) over dim"),
    "aten._softmax.default": TensorOp(Family.SOFTMAX, _softmax, "exp(x - max) / sum exp(x - max) over dim"),
    "aten.log_softmax.int": TensorOp(Family.SOFTMAX, _log_softmax, "x - max - log sum exp(x - max) over dim"),
    "aten._log_softmax.default": TensorOp(Family.SOFTMAX, _log_softmax, "x - max - log sum exp(x - max)"),
    # norms
    "aten.batch_norm.default": TensorOp(Family.NORM, _batch_norm, "(x - mean) / sqrt(var + eps) * w + b per channel"),
    "aten.instance_norm.default": TensorOp(Family.NORM, _instance_norm, "per (n, c) over spatial dims, biased var"),
    "aten.group_norm.default": TensorOp(Family.NORM, _group_norm, "per (n, group) over its channels and space"),
    "aten.layer_norm.default": TensorOp(Family.NORM, _layer_norm, "over the trailing normalized_shape dims"),
    # matmul
    "aten.matmul.default": TensorOp(Family.MATMUL, _matmul, "sum_k a[..., i, k] * b[..., k, j] (broadcast)"),
    "aten.mm.default": TensorOp(Family.MATMUL, _matmul, "sum_k a[i, k] * b[k, j]"),
    "aten.bmm.default": TensorOp(Family.MATMUL, _matmul, "sum_k a[b, i, k] * b[b, k, j]"),
    "aten.einsum.default": TensorOp(Family.MATMUL, _einsum, "Einstein summation"),
    # convolutions
    **{f"aten.conv{d}d.default": TensorOp(Family.CONV, _conv_by_rank(False), "windowed dot products, groups, "
                                          "stride, padding, dilation") for d in (1, 2, 3)},
    **{f"aten.conv_transpose{d}d.{ov}": TensorOp(Family.CONV, _conv_by_rank(True), "the adjoint of conv: "
                                                 "scatter-add of x * w") for d in (1, 2, 3) for ov in ("default", "input")},
    # pooling
    **{f"aten.max_pool{d}d.default": TensorOp(Family.POOL, _max_pool(d), "max over each window (-inf padding)")
       for d in (1, 2, 3)},
    **{f"aten.avg_pool{d}d.default": TensorOp(Family.POOL, _avg_pool(d), "window sum / window size (padding "
                                              "counted)") for d in (1, 2, 3)},
    # losses
    "aten.cross_entropy_loss.default": TensorOp(Family.LOSS, _cross_entropy, "mean of -log_softmax(x)[target]"),
    "aten.smooth_l1_loss.default": TensorOp(Family.LOSS, _smooth_l1, "|d| < beta ? d**2 / (2 beta) : |d| - beta / 2"),
    "aten.kl_div.default": TensorOp(Family.LOSS, _kl_div, "target * (log target - x)"),
    "aten.triplet_margin_loss.default": TensorOp(Family.LOSS, _triplet, "max(|a - p + eps| - |a - n + eps| + "
                                                 "margin, 0)"),
    "aten.mse_loss.default": TensorOp(Family.LOSS, lambda x, y, reduction=1: _REDUCTIONS[reduction]((x - y) ** 2),
                                      "(x - y) ** 2"),
    # attention
    "aten.scaled_dot_product_attention.default": TensorOp(Family.ATTENTION, _sdpa, "softmax(q k^T / sqrt(E)) v"),
    # tuple projection (max.dim's values and indices)
    "<built-in function getitem>": TensorOp(L, lambda t, i: t[i], "element i of a tuple result"),
}


# -- capture ---------------------------------------------------------------------------------------------

def _load_model_class(path: Path):
    """The reference module reduced to its imports, constants and ``class Model`` (lines kept): the same
    reduction as ``kernelbench.capture_reference``, so ``get_inputs``' ``.cuda()`` and the rest never run."""
    import tempfile

    text = path.read_text()
    tree = ast.parse(text)
    lines = text.splitlines()
    for n in tree.body:
        keep = isinstance(n, (ast.Import, ast.ImportFrom)) or (isinstance(n, ast.ClassDef) and n.name == "Model") or \
            (isinstance(n, ast.Assign) and all(isinstance(t, ast.Name) for t in n.targets) and
             isinstance(n.value, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.Name, ast.Tuple)))
        if not keep:
            first = min([n.lineno] + [d.lineno for d in getattr(n, "decorator_list", [])])
            for k in range(first - 1, n.end_lineno):
                lines[k] = ""
    with tempfile.TemporaryDirectory(prefix="workbench-tensorspec-") as tmp:
        reduced = Path(tmp) / path.name
        reduced.write_text("\n".join(lines) + "\n")
        name = "workbench_tensorspec_" + re.sub(r"\W", "_", path.stem)
        sp = importlib.util.spec_from_file_location(name, reduced)
        module = importlib.util.module_from_spec(sp)
        try:
            sp.loader.exec_module(module)
        except Exception as exc:  # the reference module failed to import: bad input with its cause
            raise SpecLoadError(f"{path.name}: importing imports, constants and class Model failed: "
                                f"{type(exc).__name__}: {exc}; fix the reference file") from exc
    return module.Model


def _example(i: Input, device: str, rng: np.random.Generator | None):
    import torch

    if i.kind is InputKind.NUMBER:
        return i.value
    dtype = {InputKind.FLOAT: torch.float32, InputKind.INT: torch.int64, InputKind.BOOL: torch.bool}[i.kind]
    if rng is None:
        return torch.empty(i.shape, dtype=dtype, device=device)
    if i.kind is InputKind.FLOAT:
        a = rng.standard_normal(i.shape) if i.normal else rng.uniform(i.low, i.high, i.shape)
        for s in i.structure:
            if s == "symmetric":
                a = (a + np.swapaxes(a, -1, -2)) / 2
            elif s in ("triu", "tril"):
                a = getattr(np, s)(a)
            elif s.startswith("softmax"):
                a = _softmax(a, int(s[len("softmax(dim="):-1]))
        return torch.from_numpy(np.ascontiguousarray(a)).to(dtype)
    return torch.from_numpy(rng.integers(int(i.low), int(i.high), i.shape)).to(dtype)


def _line(node, path: Path) -> int | None:
    trace = node.meta.get("stack_trace") or ""
    for m in re.finditer(r'File "([^"]+)", line (\d+)', trace):
        if Path(m.group(1)).name == path.name:
            return int(m.group(2))
    return None


def capture(path: str | Path, problem: ProblemInputs | None = None, device: str = "meta",
            seed: int | None = None):
    """REFERENCE.py -> TensorSpec. ``device="meta"`` (default): shapes only, nothing computed. With
    ``device="cpu"`` and a ``seed``, the model and inputs are real (``cross_check``); returns (spec, module,
    inputs, exported program) then."""
    import torch

    p = Path(path)
    problem = problem or read_inputs(p)
    Model = _load_model_class(p)
    rng = np.random.default_rng(seed) if seed is not None else None
    if seed is not None:
        torch.manual_seed(seed)
    try:
        with torch.device(device):
            model = Model(*problem.init_args)
    except Exception as exc:  # the reference Model's constructor failed: bad input with its cause
        raise SpecLoadError(f"{p.name}: Model(*get_init_inputs()) failed: {type(exc).__name__}: {exc}; fix the "
                            "reference file") from exc
    model.train(False)
    examples = tuple(_example(i, device, rng) for i in problem.inputs)
    try:
        ep = torch.export.export(model, examples)
    except Exception as exc:  # torch.export's errors are many types; keep the cause chained
        first = str(exc).splitlines()[0] if str(exc) else ""
        raise SpecLoadError(f"torch.export could not capture {p.name}'s Model.forward: {type(exc).__name__}: "
                            f"{first[:200]}; keep forward free of Python control flow on values") from exc
    spec = _translate(ep, p, problem)
    return (spec, model, examples, ep) if seed is not None else spec


def _ref(a):
    if hasattr(a, "name") and hasattr(a, "op"):
        return "%" + a.name
    if isinstance(a, (list, tuple)):
        return type(a)(_ref(x) for x in a)
    if hasattr(a, "__module__") and type(a).__module__.startswith("torch"):
        return str(a)  # dtypes, devices, memory formats: kept as their names
    return a


def _translate(ep, path: Path, problem: ProblemInputs) -> TensorSpec:
    params: list[tuple[str, tuple[int, ...]]] = []
    user = {s.arg.name for s in ep.graph_signature.input_specs if s.kind.name == "USER_INPUT"}
    nodes: list[TNode] = []
    output = ""
    for node in ep.graph.nodes:
        if node.op == "placeholder" and node.name not in user:
            params.append((node.name, tuple(node.meta["val"].shape)))
        elif node.op == "call_function":
            target = str(node.target)
            rule = TENSOR_OPS.get(target)
            line = _line(node, path)
            if rule is None:
                where = f"{path.name}:{line}" if line else path.name
                raise SpecOpUnsupportedError(
                    f"op {target} at {where} has no tensor-spec entry; the table covers "
                    f"{len(TENSOR_OPS)} ATen ops of {len(Family)} families (workbench/floats/tensorspec.py "
                    "TENSOR_OPS); add an entry with its definition", op=target, line=line)
            val = node.meta.get("val")
            shape = tuple(int(d) for d in val.shape) if hasattr(val, "shape") else None
            nodes.append(TNode(node.name, target, rule.family, _ref(tuple(node.args)),
                               tuple(sorted((k, _ref(v)) for k, v in node.kwargs.items())), shape, line))
        elif node.op == "output":
            outs = node.args[0]
            if len(outs) != 1:
                raise SpecLoadError(f"{path.name}'s Model.forward returns {len(outs)} tensors; the tensor spec takes one")
            output = outs[0].name
    out_shape = next((n.shape for n in nodes if n.name == output), None)
    if out_shape is None:  # forward returns an input unchanged
        raise SpecLoadError(f"{path.name}'s Model.forward computes nothing; there is no spec to check")
    users = tuple(s.arg.name for s in ep.graph_signature.input_specs if s.kind.name == "USER_INPUT")
    return TensorSpec(path.stem, str(path), problem.inputs, tuple(params), tuple(nodes), output, out_shape, users)


# -- evaluation ------------------------------------------------------------------------------------------

def evaluate(spec: TensorSpec, args: list, params: dict[str, np.ndarray]) -> np.ndarray:
    """The forward over binary64: ``args`` are the user inputs in order (arrays or numbers), ``params`` the
    parameter/buffer placeholders by name."""
    env: dict[str, object] = dict(params)
    env.update(zip(spec.users, args))

    def val(a):
        if isinstance(a, str) and a.startswith("%"):
            return env[a[1:]]
        if isinstance(a, list):
            return [val(x) for x in a]
        if isinstance(a, tuple):
            return tuple(val(x) for x in a)
        return a

    for n in spec.nodes:
        kw = {k: val(v) for k, v in n.kwargs if k not in ("dtype", "layout", "device", "pin_memory", "memory_format")}
        env[n.name] = TENSOR_OPS[n.op].evaluate(*val(n.args), **kw)
    return np.asarray(env[spec.output])


@dataclass(frozen=True, slots=True)
class CrossCheck:
    """``evaluate`` against the reference Model run by PyTorch in float64 on the CPU, on the small instance."""

    shapes: tuple[tuple[int, ...], ...]  # the small instance's input shapes
    max_error: float  # max |evaluate - torch| / (1 + max |torch|)
    agrees: bool


CROSS_CHECK_LIMITS = (12, 32, 64)  # size constants the model does not read are set to at most this
CROSS_CHECK_ELEMENTS = 1 << 22  # a small instance with more input elements is not run
CROSS_CHECK_TOLERANCE = 1e-9


def cross_check(path: str | Path, seed: int = 0) -> CrossCheck | None:
    """Run the reference Model (float64, CPU) and ``evaluate`` on the small instance; None when even the small
    instance is larger than ``CROSS_CHECK_ELEMENTS`` (model constants such as normalized shapes keep it big)."""
    import torch

    full = read_inputs(path)
    for limit in CROSS_CHECK_LIMITS:  # the smallest instance on which the model's windows fit
        problem = shrunk(full, limit)
        if problem.elements > CROSS_CHECK_ELEMENTS:
            return None
        try:
            spec, model, examples, ep = capture(path, problem, device="cpu", seed=seed)
            break
        except SpecLoadError:
            if limit == CROSS_CHECK_LIMITS[-1]:
                raise
    state = {**dict(model.named_parameters()), **dict(model.named_buffers())}
    params: dict[str, np.ndarray] = {}
    for s in ep.graph_signature.input_specs:
        if s.kind.name in ("PARAMETER", "BUFFER"):
            params[s.arg.name] = state[s.target].detach().double().numpy()
    args = [x.double().numpy() if hasattr(x, "dtype") and x.dtype == torch.float32 else
            (x.numpy() if hasattr(x, "numpy") else x) for x in examples]
    got = evaluate(spec, args, params)
    with torch.no_grad():
        want = model.double()(*[torch.from_numpy(a) if isinstance(a, np.ndarray) else a for a in args])
    want = want.double().numpy() if want.dtype.is_floating_point else want.numpy()
    if got.shape != want.shape:
        return CrossCheck(tuple(i.shape for i in problem.inputs), math.inf, False)
    scale = 1.0 + float(np.max(np.abs(want))) if want.size else 1.0
    err = float(np.max(np.abs(got.astype(np.float64) - want))) / scale if want.size else 0.0
    return CrossCheck(tuple(i.shape for i in problem.inputs), err, err <= CROSS_CHECK_TOLERANCE)


__all__ = ["CrossCheck", "Family", "TENSOR_OPS", "TNode", "TensorOp", "TensorSpec", "capture", "cross_check"]
