"""Binding a kernel's parameters to a program's inputs, and the bitwise comparison with eager.

Stage: bench (run). Each shape symbol's value is read from the input dimension it stands for (its recorded
source, ``q1.size(1) (input 0)`` or Dynamo's ``L['q1'].size()[1]``); size arguments are computed from their
recorded expressions by the restricted expression parser (never evaluated as Python). Used by the harness
(:mod:`workbench.bench.harness`) and by bundles (:mod:`workbench.bench.pack`).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from workbench.bench.plan import Shape
from workbench.errors import UnsupportedError


# Symbol sources as capture records them ("q1.size(1) (input 0)"), or Dynamo's own ("L['q1'].size()[1]").
_SOURCE = re.compile(
    r"""^(?P<name>\w+)\.size\((?P<dim>\d+)\)(?: \(input (?P<idx>\d+)\))?$"""
    r"""|\[['"](?P<name2>\w+)['"]\]\.size\(\)\[(?P<dim2>\d+)\]"""
)


class BindingError(UnsupportedError):
    """The kernel's parameters cannot be bound to the program's inputs (unknown symbol source, pointer kind)."""


@dataclass(frozen=True, slots=True)
class Call:
    """Everything one launch at one shape needs: inputs, eager reference, pointer and scalar bindings."""

    shape: Shape
    inputs: tuple[Any, ...]
    reference: Any
    tensors: dict[str, Any]  # pointer parameter -> tensor, without the output
    sizes: dict[str, int]  # scalar parameter -> value
    xnumel: int


# ---------------------------------------------------------------------------------------------- binding
def symbol_values(kernel: Any, program: Any, inputs: Sequence[Any]) -> dict[str, int]:
    """Each shape symbol's value at these inputs, read from the input dimension it stands for (its Dynamo
    source, e.g. ``L['q1'].size()[1]``). Example sizes are never used."""
    params = list(inspect.signature(program.fn).parameters)
    out: dict[str, int] = {}
    for sym in kernel.symbols:
        for src in sym.sources:
            m = _SOURCE.search(src.strip())
            if not m:
                continue
            name, dim = (m["name"], m["dim"]) if m["name"] else (m["name2"], m["dim2"])
            if m["idx"] is not None:
                index = int(m["idx"])
            elif name in params:
                index = params.index(name)
            else:
                continue
            out[sym.name] = int(inputs[index].shape[int(dim)])
            break
        else:
            raise BindingError(
                f"kernel {kernel.name}: shape symbol {sym.name} has no source naming an input dimension of "
                f"{program.name}({', '.join(params)}); sources {list(sym.sources)}"
            )
    return out


def bind(kernel: Any, program: Any, inputs: Sequence[Any], variant_params: Sequence[str]) -> tuple[dict, dict, int]:
    """Pointer and scalar arguments of ``kernel`` at ``inputs``.

    Pointers: ``in_ptrK`` is the K-th tensor input and ``out_ptr0`` the output, the order in which Inductor
    numbers a pointwise kernel's buffers when each input is read once in argument order (true for the
    report's program). A wrong binding cannot pass silently: every output is compared with eager bitwise.
    """
    import sympy

    from workbench.symexpr import parse_expr  # parsed, never evaluated: the text comes from a record file

    values = symbol_values(kernel, program, inputs)
    subs = {sympy.Symbol(k): v for k, v in values.items()}
    reps = {sympy.Symbol(k): parse_expr(str(v), f"kernel {kernel.name} replacement {k}")
            for k, v in getattr(kernel, "replacements", {}).items()}

    def ev(expr: str, what: str) -> int:
        e = parse_expr(expr, f"kernel {kernel.name} {what}").subs(reps).subs(subs)
        if not e.is_Integer:
            raise BindingError(f"kernel {kernel.name}: {what} = {expr} does not evaluate to an integer ({e})")
        return int(e)

    sizes = {a.name: ev(a.expr, a.name) for a in kernel.size_args}
    numels = [n for n in kernel.numels if n.type not in (None, "constexpr")]
    for n in numels:
        sizes[n.name] = ev(n.expr, n.name)
    xnumel = sizes.get("xnumel") or (ev(kernel.numels[0].expr, kernel.numels[0].name) if kernel.numels else None)
    if xnumel is None:
        raise BindingError(f"kernel {kernel.name} has no numel; only 1-D pointwise kernels can be launched")
    tensors: dict[str, Any] = {}
    ins = [t for t in inputs if hasattr(t, "data_ptr")]
    for p in variant_params:
        if m := re.fullmatch(r"in_ptr(\d+)", p):
            if int(m[1]) >= len(ins):
                raise BindingError(f"kernel {kernel.name}: {p} but the program has {len(ins)} tensor inputs")
            tensors[p] = ins[int(m[1])]
        elif p.startswith(("out_ptr", "in_out_ptr")) and p != "out_ptr0":
            raise BindingError(f"kernel {kernel.name}: pointer {p} is not supported (one output, out_ptr0, only)")
    return tensors, sizes, int(xnumel)


def bitwise_equal(a: Any, b: Any) -> bool:
    """Same shape, dtype and bytes (so -0.0 != 0.0 and NaN payloads count), as the report's check."""
    import torch

    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    return bool(torch.equal(a.contiguous().view(torch.uint8), b.contiguous().view(torch.uint8)))
