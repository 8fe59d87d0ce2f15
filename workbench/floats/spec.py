"""Capture a PyTorch program as a scalar spec in the float IR (stage: floats).

``SPEC.py`` defines ``program(x, ...)`` over same-shaped float32 tensors, elementwise; a parameter annotated
``: float`` is a scalar (one float32 value for the whole launch, like a kernel's ``float alpha``).
``capture_spec`` exports it with ``torch.export.export`` (the ATen graph as PyTorch runs it; no
decompositions are applied, because a decomposition can change float semantics: relu decomposed to
``where(x <= 0, 0, x)`` differs from eager at -0.0) and translates each ATen node with the rule of the op
table (``workbench.floats.aten``) for each device PyTorch can run it on. ``Spec.expr`` is the program on
the chosen ``device`` (default cuda); ``Spec.on(device)`` switches without capturing again.

- Scalars in the graph are Python doubles; ATen casts them to the tensor's dtype before the op.
- Arguments equal to their schema default are omitted from the exported graph (``leaky_relu(x)`` has no
  slope); the rule restores the default from its signature.
- Transcendentals (sigmoid, tanh, exp, gelu, softplus, ...) become OPAQUE nodes named ``aten.<op>``.

Limits: one tensor output, no broadcasting, no reductions, float32 inputs only.
"""

from __future__ import annotations

import importlib.util
import inspect
import re
from dataclasses import dataclass, replace
from pathlib import Path

from workbench.floats.aten import DEFAULT_DEVICE, RULES, SCALAR, SpecDevice, supported_ops
from workbench.floats.errors import FloatsUsageError, SpecLoadError, SpecOpUnsupportedError
from workbench.floats.ir import Node, Op, Ty, arg

@dataclass(frozen=True, slots=True)
class Spec:
    name: str
    path: str
    arity: int
    expr: Node  # the program as PyTorch computes it on ``device``
    source: str
    ops: tuple[str, ...]  # ATen ops of the graph, in graph order
    device: SpecDevice = DEFAULT_DEVICE
    exprs: tuple[tuple[SpecDevice, Node], ...] = ()  # the program on every device (``on`` picks one)
    scalars: tuple[int, ...] = ()  # argument numbers that are scalars, not tensors

    @property
    def opaque(self) -> tuple[str, ...]:
        from workbench.floats.ir import opaque_names

        return opaque_names(self.expr)

    def on(self, device: SpecDevice | str) -> "Spec":
        """The same program as PyTorch computes it on ``device``."""
        dev = parse_device(device)
        return replace(self, device=dev, expr=dict(self.exprs)[dev])


def parse_device(value: SpecDevice | str) -> SpecDevice:
    try:
        return SpecDevice(value)
    except ValueError:
        raise FloatsUsageError(f"spec device {value!r} is not one of {[d.value for d in SpecDevice]}; use "
                               "--spec-device cuda (PyTorch's CUDA kernels, the default) or --spec-device cpu") from None


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


def capture_spec(path: str | Path, device: SpecDevice | str = DEFAULT_DEVICE) -> Spec:
    """SPEC.py -> Spec (torch.export of ``program`` on float32 vectors, ATen graph -> IR on every device)."""
    p = Path(path)
    fn = load_program(p)
    spec = capture_program(fn, name=p.parent.name if p.name == "spec.py" else p.stem, path=p)
    return spec.on(device)


def capture_program(fn, name: str, path: Path | None = None) -> Spec:
    """A Python function over float32 tensors -> Spec; ``path`` (its file) only serves error messages."""
    import torch

    where_file = str(path) if path is not None else name
    params = list(inspect.signature(fn).parameters.values())
    if not params:
        raise SpecLoadError(f"`program` in {where_file!r} takes no arguments; it must take the input tensors")
    scalars = tuple(i for i, prm in enumerate(params) if prm.annotation in (float, "float"))

    class Program(torch.nn.Module):
        def forward(self, *xs):
            return fn(*xs)

    examples = tuple(torch.tensor(1.5 + i, dtype=torch.float32) if i in scalars else
                     torch.linspace(-3, 3, 16, dtype=torch.float32) + i for i in range(len(params)))
    try:
        ep = torch.export.export(Program(), examples)
    except Exception as exc:  # torch.export's own errors are many types; keep the cause chained
        raise SpecLoadError(f"torch.export could not capture `program` in {where_file!r}: {type(exc).__name__}: "
                            f"{str(exc).splitlines()[0] if str(exc) else ''}; keep the program to elementwise "
                            "tensor ops without Python control flow on values") from exc
    exprs = tuple((dev, _translate(ep, dev, scalars, path, where_file)) for dev in SpecDevice)
    ops = tuple(str(n.target) for n in ep.graph.nodes if n.op == "call_function")
    source = path.read_text() if path is not None else ""
    return Spec(name=name, path=where_file, arity=len(params), expr=exprs[0][1], source=source, ops=ops,
                device=exprs[0][0], exprs=exprs, scalars=scalars)


def _translate(ep, dev: SpecDevice, scalars: tuple[int, ...], path: Path | None, where_file: str) -> Node:
    env: dict[str, object] = {}
    placeholder = 0
    out: Node | None = None
    for node in ep.graph.nodes:
        if node.op == "placeholder":
            env[node.name] = Node(Op.ARG, Ty.F32, value=placeholder, name=SCALAR) if placeholder in scalars \
                else arg(placeholder)
            placeholder += 1
        elif node.op == "call_function":
            target = str(node.target)
            rule = RULES.get(target)
            line = _line_of(node, path) if path is not None else None
            where = f"{Path(where_file).name}:{line}" if line else Path(where_file).name
            if rule is None:
                raise SpecOpUnsupportedError(
                    f"spec op {target} at {where} has no float32 rule; supported ATen ops: "
                    f"{', '.join(o.removeprefix('aten.') for o in supported_ops())}; rewrite the program with these",
                    op=target, line=line)
            a = [env[x.name] if hasattr(x, "name") and x.name in env else x for x in node.args]
            kw = {k: (env[v.name] if hasattr(v, "name") and v.name in env else v) for k, v in node.kwargs.items()}
            kw = {_KW.get(k, k): v for k, v in kw.items()}
            try:
                env[node.name] = rule.build(dev, *a, **kw)
            except TypeError:
                shown = ", ".join([repr(x) if not isinstance(x, Node) else "tensor" for x in a] +
                                  [f"{k}={v!r}" for k, v in node.kwargs.items()])
                raise SpecOpUnsupportedError(
                    f"spec op {target} at {where} is called as {target}({shown}), a form the float32 rule does "
                    f"not model (its parameters: {_params(rule)}); rewrite the call with those arguments",
                    op=target, line=line) from None
        elif node.op == "output":
            outs = node.args[0]
            if len(outs) != 1 or not isinstance(env.get(getattr(outs[0], "name", None)), Node):
                raise SpecLoadError(f"`program` in {where_file!r} must return exactly one tensor computed from its "
                                    f"inputs (got {len(outs)} outputs)")
            out = env[outs[0].name]
    if out is None or out.ty is not Ty.F32:
        raise SpecLoadError(f"`program` in {where_file!r} must return a float32 tensor")
    return out


def _params(rule) -> str:
    try:
        ps = list(inspect.signature(rule.build).parameters)[1:]
    except (TypeError, ValueError):
        return "?"
    return ", ".join(ps)


# Keyword names of the schemas that differ from the rule parameter names.
_KW = {"min": "lo", "max": "hi", "negative_slope": "slope", "min_val": "lo", "max_val": "hi", "other": "b",
       "exponent": "e"}
