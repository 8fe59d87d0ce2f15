"""Capture a PyTorch program as a scalar spec in the float IR (stage: floats).

``SPEC.py`` defines ``program(x, ...)`` over same-shaped float32 tensors, elementwise. ``capture_spec``
exports it with ``torch.export.export`` (the ATen graph as PyTorch runs it; no decompositions are applied,
because a decomposition can change float semantics: relu decomposed to ``where(x <= 0, 0, x)`` differs from
eager at -0.0) and translates each ATen node with a rule written from ATen's CPU float32 kernel:

- Scalars in the graph are Python doubles; ATen casts them to the tensor's dtype before the op
  (``scalar.to<float>()``), so a spec ``x * 0.01`` multiplies by ``0.01f``. The constant keeps that type.
- Arguments equal to their schema default are omitted from the exported graph (``leaky_relu(x)`` has no
  slope); the rule restores the default from the op's schema.
- Transcendentals (sigmoid, tanh, exp, gelu, softplus, ...) become OPAQUE nodes named ``aten.<op>``.

``tests/floats`` compares every rule with torch eager on special values and random bit patterns.
Limits: one tensor output, no broadcasting, no reductions, float32 inputs only.
"""

from __future__ import annotations

import importlib.util
import inspect
import re
from dataclasses import dataclass
from pathlib import Path

from workbench.floats.errors import SpecLoadError, SpecOpUnsupportedError
from workbench.floats.ir import Node, Op, Ty, arg, const


@dataclass(frozen=True, slots=True)
class Spec:
    name: str
    path: str
    arity: int
    expr: Node
    source: str
    ops: tuple[str, ...]  # ATen ops of the graph, in graph order

    @property
    def opaque(self) -> tuple[str, ...]:
        from workbench.floats.ir import opaque_names

        return opaque_names(self.expr)


def _f32(v) -> Node:
    return const(float(v), Ty.F32) if not isinstance(v, Node) else v


def _cast_scalar(v) -> Node:
    """ATen: a Python scalar operand is converted to the tensor dtype (float32, round to nearest)."""
    import numpy as np

    if isinstance(v, Node):
        return v
    return const(float(np.float32(float(v))), Ty.F32)


def _bin(op: Op):
    return lambda a, b: Node(op, Ty.F32, (_cast_scalar(a), _cast_scalar(b)))


def _clamp(x: Node, lo, hi) -> Node:
    # ATen clamp (CPU, float): min(max(x, lo), hi) with std::max/std::min, which return their first
    # argument when the comparison is false, so NaN and -0.0 pass through unchanged.
    r = x
    if lo is not None:
        lo_n = _cast_scalar(lo)
        r = Node(Op.SELECT, Ty.F32, (Node(Op.LT, Ty.BOOL, (r, lo_n)), lo_n, r))
    if hi is not None:
        hi_n = _cast_scalar(hi)
        r = Node(Op.SELECT, Ty.F32, (Node(Op.GT, Ty.BOOL, (r, hi_n)), hi_n, r))
    return r


def _opaque(name: str):
    return lambda x, *rest: Node(Op.OPAQUE, Ty.F32, (x,), name=name)


def _relu(x: Node) -> Node:
    # aten::relu = clamp_min(x, 0): x < 0 ? 0 : x  (NaN and -0.0 pass through; measured in NOTES)
    return _clamp(x, 0.0, None)


def _leaky(x: Node, slope=0.01) -> Node:
    # ATen leaky_relu CPU kernel: a > 0 ? a : a * negval, negval = slope.to<float>()
    zero = const(0.0, Ty.F32)
    return Node(Op.SELECT, Ty.F32, (Node(Op.GT, Ty.BOOL, (x, zero)), x, Node(Op.MUL, Ty.F32, (x, _cast_scalar(slope)))))


def _hardsigmoid(x: Node) -> Node:
    # ATen hardsigmoid CPU kernel: min(max(x + 3, 0), 6) / 6
    t = _clamp(Node(Op.ADD, Ty.F32, (x, _f32(3.0))), 0.0, 6.0)
    return Node(Op.DIV, Ty.F32, (t, _f32(6.0)))


def _hardswish(x: Node) -> Node:
    # ATen hardswish CPU kernel: x * min(max(x + 3, 0), 6) / 6
    t = _clamp(Node(Op.ADD, Ty.F32, (x, _f32(3.0))), 0.0, 6.0)
    return Node(Op.DIV, Ty.F32, (Node(Op.MUL, Ty.F32, (x, t)), _f32(6.0)))


def _pow(x: Node, e) -> Node:
    if isinstance(e, (int, float)) and float(e) == 2.0:
        return Node(Op.MUL, Ty.F32, (x, x))  # ATen pow_tensor_scalar: exponent 2 computes base * base
    if isinstance(e, (int, float)) and float(e) == 1.0:
        return x
    return Node(Op.OPAQUE, Ty.F32, (x,), name="aten.pow")


def _add(a, b, alpha=1) -> Node:
    if alpha != 1:
        b = Node(Op.MUL, Ty.F32, (_cast_scalar(b), _cast_scalar(alpha)))
    return _bin(Op.ADD)(a, b)


def _sub(a, b, alpha=1) -> Node:
    if alpha != 1:
        b = Node(Op.MUL, Ty.F32, (_cast_scalar(b), _cast_scalar(alpha)))
    return _bin(Op.SUB)(a, b)


def _cmp(op: Op):
    return lambda a, b: Node(op, Ty.BOOL, (_cast_scalar(a), _cast_scalar(b)))


# ATen overload name -> rule taking the node's args (Nodes for tensors, Python scalars otherwise) with
# schema defaults restored by `_call`.
RULES = {
    "aten.relu.default": _relu,
    "aten.leaky_relu.default": _leaky,
    "aten.hardtanh.default": lambda x, lo=-1.0, hi=1.0: _clamp(x, lo, hi),
    "aten.relu6.default": lambda x: _clamp(x, 0.0, 6.0),
    "aten.clamp.default": lambda x, lo=None, hi=None: _clamp(x, lo, hi),
    "aten.clamp_min.default": lambda x, lo: _clamp(x, lo, None),
    "aten.clamp_max.default": lambda x, hi: _clamp(x, None, hi),
    "aten.hardsigmoid.default": _hardsigmoid,
    "aten.hardswish.default": _hardswish,
    "aten.abs.default": lambda x: Node(Op.ABS, Ty.F32, (x,)),
    "aten.neg.default": lambda x: Node(Op.NEG, Ty.F32, (x,)),
    "aten.sqrt.default": lambda x: Node(Op.SQRT, Ty.F32, (x,)),
    "aten.square.default": lambda x: Node(Op.MUL, Ty.F32, (x, x)),
    "aten.pow.Tensor_Scalar": _pow,
    "aten.mul.Tensor": _bin(Op.MUL),
    "aten.mul.Scalar": _bin(Op.MUL),
    "aten.div.Tensor": _bin(Op.DIV),
    "aten.div.Scalar": _bin(Op.DIV),
    "aten.add.Tensor": _add,
    "aten.add.Scalar": _add,
    "aten.sub.Tensor": _sub,
    "aten.sub.Scalar": _sub,
    "aten.maximum.default": lambda a, b: Node(Op.MAXIMUM, Ty.F32, (a, b)),
    "aten.minimum.default": lambda a, b: Node(Op.MINIMUM, Ty.F32, (a, b)),
    "aten.where.self": lambda c, a, b: Node(Op.SELECT, Ty.F32, (c, _cast_scalar(a), _cast_scalar(b))),
    "aten.gt.Scalar": _cmp(Op.GT), "aten.gt.Tensor": _cmp(Op.GT),
    "aten.lt.Scalar": _cmp(Op.LT), "aten.lt.Tensor": _cmp(Op.LT),
    "aten.ge.Scalar": _cmp(Op.GE), "aten.ge.Tensor": _cmp(Op.GE),
    "aten.le.Scalar": _cmp(Op.LE), "aten.le.Tensor": _cmp(Op.LE),
    "aten.eq.Scalar": _cmp(Op.EQ), "aten.eq.Tensor": _cmp(Op.EQ),
    "aten.ne.Scalar": _cmp(Op.NE), "aten.ne.Tensor": _cmp(Op.NE),
    "aten.isnan.default": lambda x: Node(Op.ISNAN, Ty.BOOL, (x,)),
    # Transcendentals: named, never evaluated (their bits depend on the library implementation).
    "aten.sigmoid.default": _opaque("aten.sigmoid"),
    "aten.tanh.default": _opaque("aten.tanh"),
    "aten.exp.default": _opaque("aten.exp"),
    "aten.log.default": _opaque("aten.log"),
    "aten.log1p.default": _opaque("aten.log1p"),
    "aten.erf.default": _opaque("aten.erf"),
    "aten.gelu.default": _opaque("aten.gelu"),
    "aten.softplus.default": _opaque("aten.softplus"),
    "aten.elu.default": _opaque("aten.elu"),
    "aten.silu.default": _opaque("aten.silu"),
    "aten.mish.default": _opaque("aten.mish"),
    "aten.selu.default": _opaque("aten.selu"),
}


def supported_ops() -> tuple[str, ...]:
    return tuple(sorted(RULES))


def load_program(path: str | Path):
    p = Path(path)
    if not p.is_file():
        raise SpecLoadError(f"spec file {str(p)!r} does not exist; pass a SPEC.py that defines program(x, ...)")
    modname = "workbench_floats_spec_" + re.sub(r"\W", "_", str(p.resolve()))
    sp = importlib.util.spec_from_file_location(modname, p)
    module = importlib.util.module_from_spec(sp)
    try:
        sp.loader.exec_module(module)
    except Exception as exc:  # the user's file failed to import: report it as bad input, with its cause
        raise SpecLoadError(f"spec file {str(p)!r} failed to import: {type(exc).__name__}: {exc}; "
                            "fix the file so that `python SPEC.py` runs") from exc
    fn = getattr(module, "program", None)
    if not callable(fn):
        raise SpecLoadError(f"spec file {str(p)!r} defines no function `program`; add "
                            "`def program(x): return torch.relu(x)` (one tensor argument per kernel input)")
    return fn


def _line_of(node, path: Path) -> int | None:
    """The SPEC.py line of a graph node: from its stack trace when export kept one, else the first line
    that names the op (``torch.floor(x)`` for ``aten.floor.default``)."""
    trace = node.meta.get("stack_trace") or ""
    for m in re.finditer(r'File "([^"]+)", line (\d+)', trace):
        if Path(m.group(1)).resolve() == path.resolve():
            return int(m.group(2))
    base = str(node.target).split(".")[1] if "." in str(node.target) else str(node.target)
    for i, text in enumerate(path.read_text().splitlines(), start=1):
        if re.search(rf"\b{re.escape(base)}\b", text) and not text.lstrip().startswith(("#", "import", "from")):
            return i
    return None


def capture_spec(path: str | Path) -> Spec:
    """SPEC.py -> Spec (torch.export of ``program`` on float32 vectors, ATen graph -> IR)."""
    import torch

    p = Path(path)
    fn = load_program(p)
    nargs = len(inspect.signature(fn).parameters)
    if nargs < 1:
        raise SpecLoadError(f"`program` in {str(p)!r} takes no arguments; it must take the input tensors")

    class Program(torch.nn.Module):
        def forward(self, *xs):
            return fn(*xs)

    examples = tuple(torch.linspace(-3, 3, 16, dtype=torch.float32) + i for i in range(nargs))
    try:
        ep = torch.export.export(Program(), examples)
    except Exception as exc:  # torch.export's own errors are many types; keep the cause chained
        raise SpecLoadError(f"torch.export could not capture `program` in {str(p)!r}: {type(exc).__name__}: "
                            f"{str(exc).splitlines()[0] if str(exc) else ''}; keep the program to elementwise "
                            "tensor ops without Python control flow on values") from exc
    env: dict[str, object] = {}
    ops: list[str] = []
    placeholder = 0
    out: Node | None = None
    for node in ep.graph.nodes:
        if node.op == "placeholder":
            env[node.name] = arg(placeholder)
            placeholder += 1
        elif node.op == "call_function":
            target = str(node.target)
            ops.append(target)
            rule = RULES.get(target)
            if rule is None:
                line = _line_of(node, p)
                where = f"{p.name}:{line}" if line else p.name
                raise SpecOpUnsupportedError(
                    f"spec op {target} at {where} has no float32 rule; supported: relu, leaky_relu, hardtanh, "
                    "clamp, abs, neg, add/sub/mul/div, minimum/maximum, where, comparisons, pow(x, 2) and named "
                    "transcendentals (see workbench.floats.spec.supported_ops()); rewrite the program with these",
                    op=target, line=line)
            a = [env[x.name] if hasattr(x, "name") and x.name in env else x for x in node.args]
            kw = {k: (env[v.name] if hasattr(v, "name") and v.name in env else v) for k, v in node.kwargs.items()}
            kw = {_KW.get(k, k): v for k, v in kw.items()}
            try:
                env[node.name] = rule(*a, **kw)
            except TypeError as exc:
                raise SpecOpUnsupportedError(f"spec op {target} in {p.name} was called with arguments "
                                             f"{node.args!r} {node.kwargs!r} the rule does not take: {exc}",
                                             op=target) from exc
        elif node.op == "output":
            outs = node.args[0]
            if len(outs) != 1 or not isinstance(env.get(getattr(outs[0], "name", None)), Node):
                raise SpecLoadError(f"`program` in {str(p)!r} must return exactly one tensor computed from its "
                                    f"inputs (got {len(outs)} outputs)")
            out = env[outs[0].name]
    if out is None or out.ty is not Ty.F32:
        raise SpecLoadError(f"`program` in {str(p)!r} must return a float32 tensor")
    return Spec(name=p.parent.name if p.name == "spec.py" else p.stem, path=str(p), arity=nargs, expr=out,
                source=p.read_text(), ops=tuple(ops))


# Keyword names of the schemas that differ from the rule parameter names.
_KW = {"min": "lo", "max": "hi", "negative_slope": "slope", "min_val": "lo", "max_val": "hi", "other": "b",
       "exponent": "e"}
