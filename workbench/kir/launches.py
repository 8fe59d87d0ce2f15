"""A launch and its lanes: argument values from shape-symbol values, block sizes, the grid Inductor launches.

Stage: kir. :func:`launch` computes every size and element-count argument from its recorded expression (read
by :mod:`workbench.symexpr`, never evaluated as Python) and the grid (``Grid1D`` / ``Grid2DWithYZOverflow``,
y split across z above ``MAX_Y_GRID``); a :class:`Lane` names one position of one program. The evaluator
(:mod:`workbench.kir.evaluator`) computes a lane's accesses from them; the cross-checks pick lanes of them.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

from workbench.kir.errors import EvaluationError
from workbench.kir.nodes import Kernel
from workbench.kir.ops import Op


@dataclass(frozen=True, slots=True)
class Lane:
    """One lane of a launch: program ids (x, y, z), the grid (``num_programs``) and the position inside each
    block (``(("XBLOCK", i), ("YBLOCK", j))``)."""

    program_id: tuple[int, int, int]
    position: tuple[tuple[str, int], ...]
    num_programs: tuple[int, int, int] = (1, 1, 1)
    step: int = 0  # reduction kernels: the step's r0_offset (a multiple of R0_BLOCK; 0 when persistent)

    @classmethod
    def x(cls, pid: int, i: int, num_programs: int | None = None) -> "Lane":
        return cls((pid, 0, 0), (("XBLOCK", i),), (num_programs or pid + 1, 1, 1))

    def pos(self, block: str) -> int:
        for b, i in self.position:
            if b == block:
                return i
        raise EvaluationError(f"lane {self} has no position along {block}")


@dataclass(frozen=True, slots=True)
class Launch:
    """Concrete launch facts: scalar argument values (exact, before reduction into their types), block sizes
    and the grid Inductor would launch (``Grid1D`` / ``Grid2DWithYZOverflow``)."""

    args: tuple[tuple[str, int], ...]
    blocks: tuple[tuple[str, int], ...]
    grid: tuple[int, int, int]

    def arg(self, name: str) -> int:
        return dict(self.args)[name]

    def block(self, name: str) -> int:
        return dict(self.blocks)[name]


DEFAULT_BLOCKS = {"1d": {"XBLOCK": 1024}, "2d": {"XBLOCK": 32, "YBLOCK": 32}}
MAX_Y_GRID = 65535  # torch._inductor.runtime.runtime_utils.get_max_y_grid


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def launch(kernel: Kernel, sizes: Mapping[str, int], blocks: Mapping[str, int] | None = None) -> Launch:
    """Compute the launch for shape-symbol values ``sizes`` (``{'s27': 5, ...}``): every size/numel
    argument from its recorded expression, and the grid. Entries of ``sizes`` that name a parameter
    (``'ks0'``, ``'xnumel'``) set it directly."""
    args: dict[str, int] = {}
    for p in kernel.params:
        if p.kind in ("pointer", "constexpr"):
            continue
        if p.name in sizes:
            args[p.name] = int(sizes[p.name])
        elif (kernel.reduction is not None and kernel.reduction.static_numel is not None
              and p.name == "r0_numel"):
            args[p.name] = kernel.reduction.static_numel
        elif p.expr is not None:
            args[p.name] = _eval_expr(p.expr, tuple(sorted((k, int(v)) for k, v in sizes.items() if not k.startswith(("ks", "x", "y")))))
        else:
            raise EvaluationError(f"{kernel.name}: no value for parameter {p.name} (give it in sizes)")
    for b in kernel.bindings:  # ``xnumel = 192``: an element count written as a literal (Builder.assigned)
        if b.name in ("xnumel", "ynumel") and b.node.op is Op.CONST:
            args[b.name] = b.node.attr[0]
    bl = dict(DEFAULT_BLOCKS[kernel.grid]) if blocks is None else dict(blocks)
    red = kernel.reduction
    if red is not None:
        if red.static_block is not None:
            bl[red.block] = red.static_block  # fixed in the kernel's body
        else:
            bl.setdefault(red.block, 64)
        if red.static_numel is not None and "r0_numel" in args:
            args["r0_numel"] = red.static_numel  # the kernel ignores the argument; keep the launch truthful
    for b, _axis in kernel.blocks:
        if b not in bl or bl[b] < 1 or bl[b] & (bl[b] - 1):
            raise EvaluationError(f"{kernel.name}: block {b} needs a power-of-two size (got {bl.get(b)})")
    gx = _cdiv(args.get("xnumel", 1), bl.get("XBLOCK", 1))
    if kernel.grid == "2d":
        raw = _cdiv(args.get("ynumel", 1), bl.get("YBLOCK", 1))
        div = _cdiv(raw, MAX_Y_GRID)
        grid = (gx, 0 if div == 0 else _cdiv(raw, div), div)
    else:
        grid = (gx, 1, 1)
    return Launch(tuple(sorted(args.items())), tuple(sorted(bl.items())), grid)


@functools.lru_cache(maxsize=4096)
def _eval_expr(expr: str, sizes: tuple[tuple[str, int], ...]) -> int:
    import sympy

    e = _parse_size(expr)
    missing = sorted(str(s) for s in e.free_symbols if str(s) not in dict(sizes))
    if missing:
        raise EvaluationError(f"size expression {expr!r} needs values for {missing}")
    d = dict(sizes)
    v = e.subs({s: sympy.Integer(d[str(s)]) for s in e.free_symbols})
    if not v.is_integer:
        raise EvaluationError(f"size expression {expr!r} is not an integer at {dict(sizes)}: {v}")
    return int(v)


@functools.lru_cache(maxsize=1024)
def _parse_size(expr: str):
    """A size expression from a record, read by :mod:`workbench.symexpr` (never evaluated), with Inductor's
    shape symbols (``s27``, ``ps0``) as positive integers."""
    import re

    import sympy

    from workbench.symexpr import parse_any

    e = parse_any(expr, where="size expression")
    syms = {s: sympy.Symbol(str(s), integer=True, positive=True)
            for s in e.free_symbols if re.fullmatch(r"[a-z]+\d+", str(s))}
    return e.xreplace(syms) if syms else e
