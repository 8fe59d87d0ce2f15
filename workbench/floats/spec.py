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

Half precision: ``DTYPE = torch.float16`` (or ``torch.bfloat16``) in SPEC.py makes every tensor input and
the output that dtype. ATen computes a pointwise op on half/bfloat16 tensors in float32 and rounds once:
CUDA kernels run the functor on ``opmath_t`` (``ATen/OpMathType.h``: ``opmath_type<Half>`` and
``opmath_type<BFloat16>`` are ``float``; e.g. ``cuda/BinaryMulKernel.cu``:
``opmath_symmetric_gpu_kernel_with_scalars<scalar_t>(iter, MulFunctor<opmath_t>())``; a Python scalar
operand is read as ``opmath_t``), and the CPU kernels convert ``Vectorized<Half>`` to float, apply the float
functor and convert back (``cpu/BinaryOpsKernel.cpp``, ``cpu/Activation.cpp``: ``convert_to_float`` /
``convert_from_float``). So each ATen node becomes its float32 rule over inputs widened exactly, rounded once
to the dtype (``tests/floats/test_floats_conformance.py`` checks this against torch eager on the CPU over all
2**16 inputs of every unary op).

Limits: one dtype per program, one or two tensor outputs, no broadcasting, no reductions.
"""

from __future__ import annotations

import importlib.util
import inspect
import re
from dataclasses import dataclass, replace
from pathlib import Path

from workbench.floats.aten import DEFAULT_DEVICE, RULES, SCALAR, SpecDevice, supported_ops
from workbench.floats.errors import FloatsUsageError, SpecLoadError, SpecOpUnsupportedError
import numpy as np

from workbench.floats.ir import Node, Op, Ty, arg, const

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
    dtype: Ty = Ty.F32  # of every tensor input and output (F32, F16 or BF16)
    outputs: tuple[Node, ...] = ()  # every output on ``device`` when the program returns a tuple
    outputs_by_device: tuple[tuple[SpecDevice, tuple[Node, ...]], ...] = ()

    @property
    def opaque(self) -> tuple[str, ...]:
        from workbench.floats.ir import opaque_names

        return opaque_names(self.expr)

    def on(self, device: SpecDevice | str) -> "Spec":
        """The same program as PyTorch computes it on ``device``."""
        dev = parse_device(device)
        outs = dict(self.outputs_by_device).get(dev, ())
        return replace(self, device=dev, expr=dict(self.exprs)[dev], outputs=outs)

    def in_types(self) -> tuple[Ty, ...]:
        """The IR type of each argument: scalars are float32, tensors the program's dtype."""
        return tuple(Ty.F32 if i in self.scalars else self.dtype for i in range(self.arity))

    def output(self, k: int) -> "Spec":
        """The program restricted to its k-th output (a one-output program is its own output 0)."""
        if not self.outputs:
            if k:
                raise IndexError(k)
            return self
        exprs = tuple((d, outs[k]) for d, outs in self.outputs_by_device)
        return replace(self, expr=self.outputs[k], exprs=exprs, outputs=(), outputs_by_device=(),
                       name=f"{self.name}[{k}]")


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


def capture_program(fn, name: str, path: Path | None = None, dtype=None) -> Spec:
    """A Python function over tensors -> Spec; ``path`` (its file) only serves error messages. ``dtype``
    (torch.float32/float16/bfloat16) overrides the function module's ``DTYPE``."""
    import torch

    where_file = str(path) if path is not None else name
    params = list(inspect.signature(fn).parameters.values())
    if not params:
        raise SpecLoadError(f"`program` in {where_file!r} takes no arguments; it must take the input tensors")
    scalars = tuple(i for i, prm in enumerate(params) if prm.annotation in (float, "float"))
    dtype = _dtype(dtype if dtype is not None else getattr(fn, "__globals__", {}).get("DTYPE", torch.float32),
                   where_file)
    tdtype = {Ty.F32: torch.float32, Ty.F16: torch.float16, Ty.BF16: torch.bfloat16}[dtype]

    class Program(torch.nn.Module):
        def forward(self, *xs):
            return fn(*xs)

    examples = tuple(torch.tensor(1.5 + i, dtype=torch.float32) if i in scalars else
                     (torch.linspace(-3, 3, 16, dtype=torch.float32) + i).to(tdtype) for i in range(len(params)))
    try:
        ep = torch.export.export(Program(), examples)
    except Exception as exc:  # torch.export's own errors are many types; keep the cause chained
        raise SpecLoadError(f"torch.export could not capture `program` in {where_file!r}: {type(exc).__name__}: "
                            f"{str(exc).splitlines()[0] if str(exc) else ''}; keep the program to elementwise "
                            "tensor ops without Python control flow on values") from exc
    by_dev = tuple((dev, _translate(ep, dev, scalars, path, where_file, dtype)) for dev in SpecDevice)
    exprs = tuple((dev, outs[0]) for dev, outs in by_dev)
    multi = len(by_dev[0][1]) > 1
    ops = tuple(str(n.target) for n in ep.graph.nodes if n.op == "call_function")
    source = path.read_text() if path is not None else ""
    return Spec(name=name, path=where_file, arity=len(params), expr=exprs[0][1], source=source, ops=ops,
                device=exprs[0][0], exprs=exprs, scalars=scalars, dtype=dtype,
                outputs=by_dev[0][1] if multi else (), outputs_by_device=by_dev if multi else ())


def _dtype(value, where_file: str) -> Ty:
    import torch

    table = {torch.float32: Ty.F32, torch.float16: Ty.F16, torch.bfloat16: Ty.BF16, "float32": Ty.F32,
             "float16": Ty.F16, "bfloat16": Ty.BF16}
    try:
        return table[value]
    except (KeyError, TypeError):
        raise SpecLoadError(f"DTYPE = {value!r} in {where_file!r} is not supported; use torch.float32, "
                            "torch.float16 or torch.bfloat16") from None


def _half_rule(target: str, dev: SpecDevice, dtype: Ty, a: list, kw: dict) -> Node | None:
    """Where ATen's half/bfloat16 kernels are not "the float32 rule, rounded once" (each cpu case measured by
    the conformance test on the CPU; edits ``a``/``kw`` in place or returns the node):
    - a Python-number operand of add/sub (cpu and cuda) and mul (cuda) is narrowed to the dtype first (below).
    - cpu float16 pow(x, -0.5) is std::pow (differs from rsqrt at -0 and -inf).
    - cpu add/sub with alpha: the reduced-float CPU kernel reads alpha as ``scalar_t`` (rounded to the dtype)
      before the float computation (cpu/BinaryOpsKernel.cpp ``add_clamp``/ufunc add for reduced floats);
      cuda reads it as ``opmath_t`` (float; ufunc/add.h through ``opmath_gpu_kernel_with_scalars``).
    - nan_to_num: the default posinf/neginf are the dtype's largest finite values (UnaryOps.cpp
      ``std::numeric_limits<scalar_t>::max()``), not float32's.
    - cpu pow(x, 3) and pow(x, -2) on bfloat16: ``base * base`` is computed in ``scalar_t`` (rounded to
      bfloat16) before the last operation (cpu/PowKernel.cpp, the integer-exponent fast path)."""
    from workbench.floats.halfprec import round_to

    op = target.split(".")[1]
    # A Python-number operand is a CPU scalar tensor promoted to the dtype by TensorIterator; kernels that read
    # it with ``iter.scalar_value`` see it narrowed: cpu add/sub (measured), cuda add/sub/mul (cuda/Loops.cuh
    # ``opmath_(symmetric_)gpu_kernel_with_scalars``). cpu mul/div and cuda div read
    # ``iter.original_scalar_value<opmath_t>`` (float; cpu/BinaryOpsKernel.cpp mul_kernel/div_true_kernel,
    # cuda/BinaryDivTrueKernel.cu).
    narrowing = ("add", "sub", "rsub") + (("mul",) if dev is SpecDevice.CUDA else ())
    if op in narrowing:
        for i in (0, 1):
            if len(a) > i and not isinstance(a[i], Node) and isinstance(a[i], (int, float)) and not isinstance(a[i], bool):
                a[i] = float(round_to(np.float32(float(a[i])), dtype)[()])
    if op == "pow" and dev is SpecDevice.CPU and dtype is Ty.F16 and kw.get("e", a[1] if len(a) > 1 else None) == -0.5:
        # cpu float16 pow(x, -0.5) is std::pow, not rsqrt: the two differ only at -0 (+inf) and -inf (+0)
        # (measured on all 2**16 inputs); elsewhere it equals 1/sqrt(x) in float rounded once
        x = a[0]
        r = Node(Op.DIV, Ty.F32, (const(1.0, Ty.F32), Node(Op.SQRT, Ty.F32, (x,))))
        r = Node(Op.SELECT, Ty.F32, (Node(Op.EQ, Ty.BOOL, (x, const(0.0, Ty.F32))), const(float("inf"), Ty.F32), r))
        return Node(Op.SELECT, Ty.F32, (Node(Op.EQ, Ty.BOOL, (x, const(float("-inf"), Ty.F32))), const(0.0, Ty.F32), r))
    if "alpha" in kw and dev is SpecDevice.CPU and op in ("add", "sub", "rsub"):
        kw["alpha"] = float(round_to(np.float32(float(kw["alpha"])), dtype)[()])
    if target == "aten.nan_to_num.default":
        big = float(np.finfo(np.float16).max) if dtype is Ty.F16 else float(round_to(np.float32(F32_MAX_BF16), dtype)[()])
        for pos, name, bound in ((2, "posinf", big), (3, "neginf", -big)):
            if len(a) > pos:
                a[pos] = bound if a[pos] is None else a[pos]
            elif kw.get(name) is None:
                kw[name] = bound
    if target == "aten.pow.Tensor_Scalar" and dev is SpecDevice.CPU and dtype is Ty.BF16:
        e = kw.get("e", a[1] if len(a) > 1 else None)
        if e in (3, 3.0, -2, -2.0):
            x = a[0]
            sq = Node(Op.CAST, Ty.F32, (Node(Op.CAST, dtype, (Node(Op.MUL, Ty.F32, (x, x)),)),))
            return Node(Op.MUL, Ty.F32, (sq, x)) if e > 0 else Node(Op.DIV, Ty.F32, (const(1.0, Ty.F32), sq))
    return None


F32_MAX_BF16 = 3.3895313892515355e38  # bfloat16 0x7F7F, the largest finite value


def _widen(v, dtype: Ty):
    """A half/bfloat16 tensor operand enters ATen's float32 (opmath) computation exactly."""
    if isinstance(v, Node) and v.ty is dtype and dtype.is_half:
        return Node(Op.CAST, Ty.F32, (v,))
    return v


def _translate(ep, dev: SpecDevice, scalars: tuple[int, ...], path: Path | None, where_file: str,
               dtype: Ty = Ty.F32) -> tuple[Node, ...]:
    env: dict[str, object] = {}
    placeholder = 0
    outs: tuple[Node, ...] = ()
    for node in ep.graph.nodes:
        if node.op == "placeholder":
            env[node.name] = Node(Op.ARG, Ty.F32, value=placeholder, name=SCALAR) if placeholder in scalars \
                else arg(placeholder, dtype)
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
            a = [_widen(env[x.name], dtype) if hasattr(x, "name") and x.name in env else x for x in node.args]
            kw = {k: (_widen(env[v.name], dtype) if hasattr(v, "name") and v.name in env else v)
                  for k, v in node.kwargs.items()}
            kw = {_KW.get(k, k): v for k, v in kw.items()}
            try:
                special = _half_rule(target, dev, dtype, a, kw) if dtype.is_half else None
                r = special if special is not None else rule.build(dev, *a, **kw)
                # a float result is stored in a tensor of the program's dtype: one rounding (halfprec)
                env[node.name] = Node(Op.CAST, dtype, (r,)) if dtype.is_half and r.ty is Ty.F32 else r
            except TypeError:
                shown = ", ".join([repr(x) if not isinstance(x, Node) else "tensor" for x in a] +
                                  [f"{k}={v!r}" for k, v in node.kwargs.items()])
                raise SpecOpUnsupportedError(
                    f"spec op {target} at {where} is called as {target}({shown}), a form the float32 rule does "
                    f"not model (its parameters: {_params(rule)}); rewrite the call with those arguments",
                    op=target, line=line) from None
        elif node.op == "output":
            got = node.args[0]
            if len(got) not in (1, 2) or not all(isinstance(env.get(getattr(o, "name", None)), Node) for o in got):
                raise SpecLoadError(f"`program` in {where_file!r} must return one tensor or a tuple of two, computed "
                                    f"from its inputs (got {len(got)} outputs)")
            outs = tuple(env[o.name] for o in got)
    if not outs or any(o.ty is not dtype for o in outs):
        raise SpecLoadError(f"`program` in {where_file!r} must return {dtype.value} tensors (its DTYPE)")
    return outs


def _params(rule) -> str:
    try:
        ps = list(inspect.signature(rule.build).parameters)[1:]
    except (TypeError, ValueError):
        return "?"
    return ", ".join(ps)


# Keyword names of the schemas that differ from the rule parameter names.
_KW = {"min": "lo", "max": "hi", "negative_slope": "slope", "min_val": "lo", "max_val": "hi", "other": "b",
       "exponent": "e"}
