"""Block level, the spec: a KernelBench reference ``Model`` as real expressions and as CPU runs (stage: floats).

``reference_model`` builds ``Model(*get_init_inputs())`` on the CPU from a reduced copy of REFERENCE.py
(imports, constants and ``class Model`` only, lines kept: the approach of ``kernelbench.capture_reference``,
whose spec IR is elementwise-only, so the module is built here again). ``real_outputs`` exports its
``forward`` with ``torch.export`` at the shapes being decided and evaluates the graph over numpy object
arrays of sympy expressions, one rule per ATen op in ``RULES`` (an op without a rule is refused by name).
Scalars in the graph are taken as float32 values (ATen computes a float32 tensor op with a Python scalar in
float32: the scalar is cast to the tensor's dtype). ``cpu_outputs`` runs the model itself on float32 CPU
tensors: for spec device cpu those bits are the spec.
"""

from __future__ import annotations

import ast
import importlib.util
import math
import operator
import tempfile
from pathlib import Path

import numpy as np
import sympy

from workbench.floats.block.domains import EXP, LOG, MAX, MIN, SQRT, extremum
from workbench.floats.errors import SpecLoadError, SpecOpUnsupportedError


def reference_model(problem, init_args: tuple | None = None):
    """``Model(*init_args)`` (default ``get_init_inputs()``) built on the CPU, in eval mode."""
    import torch  # noqa: F401  (the reference imports it)

    p = Path(problem.path)
    text = p.read_text()
    tree = ast.parse(text)
    lines = text.splitlines()
    for n in tree.body:  # keep imports, constants and class Model, on their lines
        keep = isinstance(n, (ast.Import, ast.ImportFrom)) or (isinstance(n, ast.ClassDef) and n.name == "Model") or \
            (isinstance(n, ast.Assign) and all(isinstance(t, ast.Name) for t in n.targets) and
             isinstance(n.value, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.Name)))
        if not keep:
            first = min([n.lineno] + [d.lineno for d in getattr(n, "decorator_list", [])])
            for k in range(first - 1, n.end_lineno):
                lines[k] = ""
    with tempfile.TemporaryDirectory(prefix="workbench-block-") as tmp:
        reduced = Path(tmp) / p.name
        reduced.write_text("\n".join(lines) + "\n")
        try:  # the reference's imports, constants and class Model: the spec is that module
            sp = importlib.util.spec_from_file_location("workbench_block_reference", reduced)
            module = importlib.util.module_from_spec(sp)
            sp.loader.exec_module(module)
            model = module.Model(*(problem.init_args if init_args is None else init_args))
        except Exception as exc:  # the user's Model failed to build: bad input, with its cause
            raise SpecLoadError(f"{p.name}: building Model(*get_init_inputs()) failed: {type(exc).__name__}: {exc}; "
                                "fix the reference file") from exc
    model.train(False)
    return model


def init_args_at(problem, shapes) -> tuple:
    """``get_init_inputs()`` for the Model decided at ``shapes``: an argument that is a tuple of input extents
    (LayerNorm's ``normalized_shape = (features, dim1, dim2)``) follows the inputs to their scaled extents,
    so the Model built is the same program on smaller tensors; numbers are kept (kernel sizes, dims, eps)."""
    ext: dict[int, int] = {}
    for s0, s1 in zip(problem.shapes, shapes):
        for a, b in zip(s0, s1):
            ext.setdefault(a, b)
    return tuple(tuple(ext[d] for d in v) if isinstance(v, tuple) and v and all(isinstance(d, int) and d != 1 and
                                                                                 d in ext for d in v) else v
                 for v in problem.init_args)


def cpu_outputs(model, inputs: list[np.ndarray]) -> np.ndarray:
    """The model run on this machine's CPU in float32 (one call, no grad): the spec for spec device cpu."""
    import torch

    with torch.no_grad():
        out = model(*(torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32)) for x in inputs))
    if isinstance(out, (tuple, list)):
        out = out[0]
    return out.detach().numpy().astype(np.float32)


def _f32(v) -> sympy.Expr:
    if isinstance(v, bool):
        return sympy.Integer(int(v))
    if isinstance(v, int):
        return sympy.Integer(v)
    x = float(np.float32(v))
    return sympy.Integer(int(x)) if x == int(x) else sympy.Rational(x)


def _reduce(x: np.ndarray, dims, keepdim: bool, fn) -> np.ndarray:
    dims = [d % x.ndim for d in ([dims] if isinstance(dims, int) else list(dims) or range(x.ndim))]
    moved = np.moveaxis(x, dims, list(range(x.ndim - len(dims), x.ndim)))
    lead = moved.shape[:x.ndim - len(dims)]
    flat = moved.reshape(lead + (-1,))
    out = np.empty(lead, dtype=object)
    for idx in np.ndindex(*lead):
        out[idx] = fn(list(flat[idx]))
    if keepdim:
        for d in sorted(dims):
            out = np.expand_dims(out, d)
    return out


def _count(x: np.ndarray, dims) -> int:
    dims = [dims] if isinstance(dims, int) else list(dims) or list(range(x.ndim))
    return math.prod(x.shape[d] for d in dims)


def _sum(v):
    return sympy.Add(*v)


def _ew(fn):
    def rule(a, b=None, *rest, **kw):
        if b is None:
            return np.vectorize(fn, otypes=[object])(a)
        alpha = kw.get("alpha", rest[0] if rest else 1)
        bb = b if isinstance(b, np.ndarray) else _f32(b)
        aa = a if isinstance(a, np.ndarray) else _f32(a)
        if alpha != 1:
            bb = bb * _f32(alpha)
        return np.vectorize(fn, otypes=[object])(aa, bb)
    return rule


def _softmax(x, dim, *_):
    m = _reduce(x, dim, True, lambda v: extremum(MAX, v))
    e = np.vectorize(lambda a: EXP(a), otypes=[object])(x - m)
    return e / _reduce(e, dim, True, _sum)


def _log_softmax(x, dim, *_):
    m = _reduce(x, dim, True, lambda v: extremum(MAX, v))
    s = _reduce(np.vectorize(lambda a: EXP(a), otypes=[object])(x - m), dim, True, _sum)
    return (x - m) - np.vectorize(lambda a: LOG(a), otypes=[object])(s)


def _matmul(a, b):
    if a.ndim == 2 and b.ndim == 2:
        return _mm(a, b)
    if a.ndim == 2 and b.ndim == 1:
        return _mm(a, b.reshape(-1, 1)).reshape(-1)
    if a.ndim == 3 and b.ndim == 3:
        return np.stack([_mm(a[i], b[i]) for i in range(a.shape[0])])
    if a.ndim >= 3 and b.ndim == 2:  # torch.matmul: a batch of matrices times one matrix, batch dims kept
        return _mm(a.reshape(-1, a.shape[-1]), b).reshape(a.shape[:-1] + (b.shape[1],))
    raise SpecOpUnsupportedError(f"matmul of {a.ndim}-D by {b.ndim}-D tensors has no rule at the block level; "
                                 "use 2-D, batched 3-D, or N-D by 2-D operands", op="aten.matmul")


def _mm(a, b):
    out = np.empty((a.shape[0], b.shape[1]), dtype=object)
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            out[i, j] = sympy.Add(*(a[i, k] * b[k, j] for k in range(a.shape[1])))
    return out


def _layer_norm(x, shape, w=None, b=None, eps=1e-5, *_):
    dims = list(range(x.ndim - len(shape), x.ndim))
    n = _count(x, dims)
    mean = _reduce(x, dims, True, _sum) / n
    d = x - mean
    var = _reduce(d * d, dims, True, _sum) / n
    y = d * np.vectorize(lambda a: 1 / SQRT(a), otypes=[object])(var + _f32(eps))
    if w is not None:
        y = y * w
    if b is not None:
        y = y + b
    return y


def _instance_norm(x, w=None, b=None, running_mean=None, running_var=None, use_input_stats=True, momentum=0.1,
                   eps=1e-5, *_):
    """torch.nn.functional.instance_norm with input statistics: each (n, c) plane normalised over dims 2.. by
    its mean and biased variance (ATen's instance_norm is batch_norm over a (1, N*C, ...) view)."""
    if not use_input_stats:
        raise SpecOpUnsupportedError("instance_norm with running statistics (use_input_stats=False) has no rule at "
                                     "the block level; export the Model in training-free form with "
                                     "track_running_stats=False", op="aten.instance_norm")
    dims = list(range(2, x.ndim))
    n = _count(x, dims)
    mean = _reduce(x, dims, True, _sum) / n
    d = x - mean
    var = _reduce(d * d, dims, True, _sum) / n
    y = d * np.vectorize(lambda a: 1 / SQRT(a), otypes=[object])(var + _f32(eps))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    if w is not None:
        y = y * np.asarray(w, dtype=object).reshape(shape)
    if b is not None:
        y = y + np.asarray(b, dtype=object).reshape(shape)
    return y


def _smooth_l1_loss(x, t, reduction=1, beta=1.0):
    """ATen's smooth_l1_loss (aten/src/ATen/native/Loss.cpp, smooth_l1_kernel): with z = |x - t|,
    0.5 z**2 / beta where z < beta, else z - 0.5 beta; reduction 0 none, 1 mean, 2 sum."""
    if beta <= 0:
        raise SpecOpUnsupportedError(f"smooth_l1_loss with beta={beta} has no rule at the block level (beta = 0 is "
                                     "l1_loss); use beta > 0", op="aten.smooth_l1_loss")
    bt = _f32(beta)

    def one(a, c):
        z = sympy.Abs(a - c)
        if z.is_Number:  # a number decides the branch (sympy's Piecewise cannot order an unevaluated number)
            return sympy.Rational(1, 2) * z * z / bt if z < bt else z - sympy.Rational(1, 2) * bt
        return sympy.Piecewise((sympy.Rational(1, 2) * z * z / bt, sympy.Lt(z, bt, evaluate=False)),
                               (z - sympy.Rational(1, 2) * bt, True))
    e = np.vectorize(one, otypes=[object])(*np.broadcast_arrays(x, t))
    match reduction:
        case 0:
            return e
        case 1:
            return _reduce(e, [], False, _sum) / e.size
        case 2:
            return _reduce(e, [], False, _sum)
    raise SpecOpUnsupportedError(f"smooth_l1_loss reduction {reduction} is not 0 (none), 1 (mean) or 2 (sum)",
                                 op="aten.smooth_l1_loss")


def _pool_params(nd: int, kernel, stride, padding, dilation) -> list[tuple[int, int, int, int]]:
    """(kernel, stride, padding, dilation) per pooled dim; ATen's rule: an empty stride means stride = kernel."""
    def each(v, default):
        v = default if v is None or (isinstance(v, (list, tuple)) and not v) else v
        v = list(v) if isinstance(v, (list, tuple)) else [v]
        return v * nd if len(v) == 1 else v
    k = each(kernel, None)
    return list(zip(k, each(stride, k), each(padding, 0), each(dilation, 1)))


def pool_windows(size: int, k: int, s: int, p: int, d: int) -> list[list[int]]:
    """Per output position (floor mode, aten/src/ATen/native/Pool.h pooling_output_shape), the input indices
    of its window that lie inside the input: positions o*s - p + j*d for j < k."""
    n_out = (size + 2 * p - d * (k - 1) - 1) // s + 1
    if n_out <= 0:
        raise SpecOpUnsupportedError(f"pooling window {d * (k - 1) + 1} (kernel {k}, dilation {d}, padding {p}) is "
                                     f"longer than the padded extent {size + 2 * p}; decide at a larger shape",
                                     op="pool")
    return [[o * s - p + j * d for j in range(k) if 0 <= o * s - p + j * d < size] for o in range(n_out)]


def _pool(x, nd: int, params, combine):
    """A pool over the last ``nd`` dims: ``combine(values, n_in_window_with_padding)`` per output element."""
    wins = [pool_windows(x.shape[x.ndim - nd + i], *params[i]) for i in range(nd)]
    lead = x.shape[:x.ndim - nd]
    out = np.empty(lead + tuple(len(w) for w in wins), dtype=object)
    for li in np.ndindex(*lead):
        for oi in np.ndindex(*(len(w) for w in wins)):
            idx = [wins[i][oi[i]] for i in range(nd)]
            vals = [x[li + tuple(idx[i][c[i]] for i in range(nd))] for c in np.ndindex(*(len(ix) for ix in idx))]
            out[li + oi] = combine(vals)
    return out


def _max_pool(nd: int):
    def rule(x, kernel, stride=(), padding=0, dilation=1, ceil_mode=False):
        if ceil_mode:
            raise SpecOpUnsupportedError(f"max_pool{nd}d with ceil_mode=True has no rule at the block level; use "
                                         "ceil_mode=False", op=f"aten.max_pool{nd}d")
        # padding is -inf in ATen's max pool: the max runs over the window's positions inside the input
        return _pool(x, nd, _pool_params(nd, kernel, stride, padding, dilation), lambda v: extremum(MAX, v))
    return rule


def _avg_pool(nd: int):
    def rule(x, kernel, stride=(), padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None):
        if ceil_mode or divisor_override is not None:
            raise SpecOpUnsupportedError(f"avg_pool{nd}d with ceil_mode=True or a divisor_override has no rule at the "
                                         "block level", op=f"aten.avg_pool{nd}d")
        params = _pool_params(nd, kernel, stride, padding, 1)
        if count_include_pad:  # zero padding counts: the divisor is the whole kernel (AvgPoolKernel.cpp)
            div = math.prod(k for k, _, _, _ in params)
            return _pool(x, nd, params, lambda v: sympy.Add(*v) / div)
        return _pool(x, nd, params, lambda v: sympy.Add(*v) / len(v))
    return rule


def _vector_norm(x, ord, dim, keepdim):
    if ord != 2:
        raise SpecOpUnsupportedError(f"linalg_vector_norm of order {ord} has no rule at the block level; use ord=2",
                                     op="aten.linalg_vector_norm")
    squares = x * x
    return np.vectorize(lambda a: SQRT(a), otypes=[object])(_reduce(squares, [] if dim is None else dim, keepdim,
                                                                    _sum))


def _clamp(x, lo, hi):
    def one(a):
        if lo is not None:
            a = extremum(MAX, (a, _f32(lo)))
        if hi is not None:
            a = extremum(MIN, (a, _f32(hi)))
        return a
    return np.vectorize(one, otypes=[object])(x)


def _max_dim(x, dim, keepdim=False):
    return (_reduce(x, dim, keepdim, lambda v: extremum(MAX, v)), None)


def _min_dim(x, dim, keepdim=False):
    return (_reduce(x, dim, keepdim, lambda v: extremum(MIN, v)), None)


RULES = {
    "aten.sum.dim_IntList": lambda x, dims, keepdim=False, *_, **__: _reduce(x, dims, keepdim, _sum),
    "aten.sum.default": lambda x, *_, **__: _reduce(x, [], False, _sum),
    "aten.mean.dim": lambda x, dims, keepdim=False, *_, **__: _reduce(x, dims, keepdim, _sum) / _count(x, dims),
    "aten.amax.default": lambda x, dims=(), keepdim=False: _reduce(x, dims, keepdim, lambda v: extremum(MAX, v)),
    "aten.amin.default": lambda x, dims=(), keepdim=False: _reduce(x, dims, keepdim, lambda v: extremum(MIN, v)),
    "aten.max.dim": _max_dim,
    "aten.min.dim": _min_dim,
    "aten.softmax.int": _softmax,
    "aten._softmax.default": _softmax,
    "aten.log_softmax.int": _log_softmax,
    "aten._log_softmax.default": _log_softmax,
    "aten.matmul.default": _matmul,
    "aten.mm.default": _mm,
    "aten.mv.default": lambda a, v: _mm(a, v.reshape(-1, 1)).reshape(-1),
    "aten.bmm.default": lambda a, b: np.stack([_mm(a[i], b[i]) for i in range(a.shape[0])]),
    "aten.add.Tensor": _ew(operator.add),
    "aten.sub.Tensor": _ew(operator.sub),
    "aten.mul.Tensor": _ew(operator.mul),
    "aten.div.Tensor": _ew(operator.truediv),
    "aten.pow.Tensor_Scalar": lambda x, e: np.vectorize(lambda a: a ** _f32(e), otypes=[object])(x),
    "aten.sqrt.default": lambda x: np.vectorize(lambda a: SQRT(a), otypes=[object])(x),
    "aten.rsqrt.default": lambda x: np.vectorize(lambda a: 1 / SQRT(a), otypes=[object])(x),
    "aten.exp.default": lambda x: np.vectorize(lambda a: EXP(a), otypes=[object])(x),
    "aten.log.default": lambda x: np.vectorize(lambda a: LOG(a), otypes=[object])(x),
    "aten.neg.default": lambda x: -x,
    "aten.layer_norm.default": _layer_norm,
    "aten.mean.default": lambda x, *_, **__: _reduce(x, [], False, _sum) / x.size,
    "aten.abs.default": lambda x: np.vectorize(lambda a: sympy.Abs(a), otypes=[object])(x),
    "aten.linalg_vector_norm.default": lambda x, ord=2, dim=None, keepdim=False, **__: _vector_norm(x, ord, dim,
                                                                                                   keepdim),
    "aten.cumsum.default": lambda x, dim, **__: np.cumsum(x, axis=dim),
    "aten.cumprod.default": lambda x, dim, **__: np.cumprod(x, axis=dim),
    "aten.flip.default": lambda x, dims: np.flip(x, axis=tuple(dims)),
    "aten.unsqueeze.default": lambda x, dim: np.expand_dims(x, dim),
    "aten.numpy_T.default": lambda x: x.T,
    "aten.t.default": lambda x: x.T,
    "aten.transpose.int": lambda x, a, b: np.swapaxes(x, a, b),
    "aten.permute.default": lambda x, dims: np.transpose(x, dims),
    "aten.view.default": lambda x, shape: x.reshape(shape),
    "aten.reshape.default": lambda x, shape: x.reshape(shape),
    "aten.narrow.default": lambda x, dim, start, length: np.take(x, range(start, start + length), axis=dim),
    "aten.select.int": lambda x, dim, index: np.take(x, index, axis=dim),
    "aten.zeros_like.default": lambda x, **__: np.full(x.shape, sympy.Integer(0), dtype=object),
    "aten.cat.default": lambda xs, dim=0: np.concatenate(xs, axis=dim),
    "aten.rsub.Scalar": lambda x, v, alpha=1: _f32(v) - x * _f32(alpha),
    "aten.clamp.default": lambda x, lo=None, hi=None: _clamp(x, lo, hi),
    "aten.clamp_min.default": lambda x, lo: _clamp(x, lo, None),
    "aten.maximum.default": lambda a, b: np.vectorize(lambda x, y: extremum(MAX, (x, y)), otypes=[object])(a, b),
    "aten.minimum.default": lambda a, b: np.vectorize(lambda x, y: extremum(MIN, (x, y)), otypes=[object])(a, b),
    "aten.relu.default": lambda x: _clamp(x, 0, None),
    "aten.instance_norm.default": _instance_norm,
    "aten.smooth_l1_loss.default": _smooth_l1_loss,
    # broadcast_tensors: each operand viewed at the common shape (numpy's broadcasting rule is torch's)
    "aten.broadcast_tensors.default": lambda xs: list(np.broadcast_arrays(*xs)),
    "aten.expand.default": lambda x, shape, **__: np.broadcast_to(
        x, tuple(x.shape[i - (len(shape) - x.ndim)] if d == -1 else d for i, d in enumerate(shape))),
    "aten.max_pool1d.default": _max_pool(1),
    "aten.max_pool2d.default": _max_pool(2),
    "aten.max_pool3d.default": _max_pool(3),
    "aten.avg_pool1d.default": _avg_pool(1),
    "aten.avg_pool2d.default": _avg_pool(2),
    "aten.avg_pool3d.default": _avg_pool(3),
    "aten.contiguous.default": lambda x, *_: x,
    "aten.clone.default": lambda x, *_, **__: x,
}


def symbols(shapes: tuple[tuple[int, ...], ...]) -> list[np.ndarray]:
    """Input k's element i (flat, row-major) is the real variable ``x{k}_{i}``."""
    out = []
    for k, s in enumerate(shapes):
        a = np.empty(math.prod(s), dtype=object)
        for i in range(a.size):
            a[i] = sympy.Symbol(f"x{k}_{i}", real=True)
        out.append(a.reshape(s))
    return out


def real_outputs(model, shapes: tuple[tuple[int, ...], ...], where: str) -> tuple[np.ndarray, tuple[str, ...]]:
    """The spec's output elements as sympy expressions of ``symbols(shapes)``, and the ATen ops it used."""
    import torch

    try:
        ep = torch.export.export(model, tuple(torch.zeros(s) for s in shapes))
    except Exception as exc:
        raise SpecLoadError(f"{where}: torch.export of Model.forward at shapes {list(shapes)} failed: "
                            f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}; the block level "
                            "needs an exportable forward") from exc
    params = {**dict(ep.named_parameters()), **dict(ep.named_buffers())}
    sig = ep.graph_signature
    inputs = symbols(shapes)
    env: dict = {}
    k = 0
    ops = []
    for node in ep.graph.nodes:
        if node.op == "placeholder":
            target = sig.inputs_to_parameters.get(node.name) or sig.inputs_to_buffers.get(node.name)
            if target is not None:
                t = params[target].detach().numpy().astype(np.float32)
                env[node.name] = np.vectorize(_f32, otypes=[object])(t)
            else:
                env[node.name] = inputs[k]
                k += 1
        elif node.op == "call_function":
            name = str(node.target)
            args = [_arg(a, env) for a in node.args]
            kwargs = {kk: _arg(v, env) for kk, v in node.kwargs.items()}
            if name == "<built-in function getitem>":
                env[node.name] = args[0][args[1]]
                continue
            rule = RULES.get(name)
            if rule is None:
                raise SpecOpUnsupportedError(f"{where}: ATen op {name} has no rule at the block level (known: "
                                             f"{', '.join(sorted(RULES))})", op=name)
            ops.append(name)
            env[node.name] = rule(*args, **kwargs)
        elif node.op == "output":
            out = node.args[0]
            out = out[0] if isinstance(out, (tuple, list)) else out
            return np.asarray(env[out.name], dtype=object), tuple(dict.fromkeys(ops))
    raise SpecLoadError(f"{where}: the exported graph has no output")


def _arg(a, env):
    import torch.fx

    if isinstance(a, torch.fx.Node):
        return env[a.name]
    if isinstance(a, (list, tuple)):
        return type(a)(_arg(x, env) for x in a)
    return a


__all__ = ["RULES", "cpu_outputs", "init_args_at", "pool_windows", "real_outputs", "reference_model", "symbols"]
