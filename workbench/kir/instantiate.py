"""Instantiation at other widths: a kernel re-typed for a :class:`~workbench.kir.modes.Mode` (Triton's promotion
re-derived node by node), and the node map the checker pairs wide and narrowed subexpressions through.

Stage: kir.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from workbench.kir.build import IMPLICIT, Builder
from workbench.kir.modes import WIDE, Mode
from workbench.kir.nodes import Kernel, Node, node, walk
from workbench.kir.ops import Op
from workbench.kir.types import IntType, Type


@functools.lru_cache(maxsize=256)
def _instantiate_cached(kernel_id: int, mode: Mode, kernel: Kernel) -> Kernel:
    return _instantiate(kernel, mode)


def instantiate(kernel: Kernel, mode: Mode) -> Kernel:
    """The kernel re-typed for ``mode``: parameters take the mode's widths, every implicit conversion and
    weak literal is re-derived by Triton's promotion rules (so narrowing ``ks*`` to int32 turns
    ``ks1*x1`` into an int32 product, as in the real narrowed kernel); explicit casts keep their meaning
    (``.to(tl.int64)`` becomes the mode's int64)."""
    if mode == WIDE:
        return kernel
    return _instantiate_cached(id(kernel), mode, kernel)


def _instantiate(kernel: Kernel, mode: Mode) -> Kernel:
    params = tuple(replace(p, type=mode.param_type(p)) for p in kernel.params)
    memo = instantiation_map(kernel, mode)

    def get(n: Node) -> Node:
        return memo[id(n)]

    return replace(
        kernel,
        params=params,
        loads=tuple(get(x) for x in kernel.loads),
        stores=tuple(get(x) for x in kernel.stores),
        bindings=(),
        carries=tuple(replace(c, init=get(c.init), update=get(c.update)) for c in kernel.carries),
    )


def instantiation_map(kernel: Kernel, mode: Mode) -> dict[int, Node]:
    """Every node of ``kernel`` (by ``id``) mapped to its counterpart in ``instantiate(kernel, mode)``.
    Nodes are interned, so the counterparts *are* the instantiated kernel's nodes; an implicit cast maps to
    its re-typed operand, because the re-typed parent re-derives its own conversion. The checker pairs the
    wide and narrowed kernels' subexpressions through this map."""
    b = Builder(kernel.name, IntType(mode.int32), IntType(mode.int64))
    ptypes = {p.name: mode.param_type(p) for p in kernel.params}
    memo: dict[int, Node] = {}

    def get(n: Node) -> Node:
        return memo[id(n)]

    inits = {(c.name, c.loop): c.init for c in kernel.carries}
    # carries' inits first (in loop order): an ACC leaf takes its *instantiated* init's type below
    for n in walk(*(c.init for c in kernel.carries), *kernel.roots()):
        a = n.args
        match n.op:
            case Op.CONST:
                value, weak = n.attr
                if weak:  # a Python bool literal stays a bool (int1), an int is re-typed by its value
                    new = b.literal(bool(value) if n.type == IntType(1) else value)
                else:
                    new = b.full(value, mode.map_type(n.type))  # type: ignore[arg-type]
            case Op.FCONST:
                new = n
            case Op.UNDEF:
                new = _undef(mode.map_type(n.type))
            case Op.ARG:
                new = b.arg(n.attr, ptypes[n.attr])  # type: ignore[arg-type]
            case Op.CONSTEXPR:
                new = b.constexpr(n.attr)
            case Op.PROGRAM_ID:
                new = b.program_id(n.attr)
            case Op.NUM_PROGRAMS:
                new = b.num_programs(n.attr)
            case Op.ARANGE:
                new = b.arange(*n.attr)
            case Op.ADD | Op.SUB | Op.MUL | Op.FLOORDIV | Op.MOD | Op.LT | Op.LE | Op.GT | Op.GE | Op.EQ | Op.NE | Op.AND | Op.OR:
                new = b.binary(n.op, get(a[0]), get(a[1]))
            case Op.NEG:
                new = b.neg(get(a[0]))
            case Op.ABS:
                new = b.abs(get(a[0]))
            case Op.CAST:
                new = get(a[0]) if n.attr == IMPLICIT else b.cast(get(a[0]), mode.map_type(n.type))
            case Op.BROADCAST:
                new = b.broadcast(get(a[0]))
            case Op.WHERE:
                new = b.where(get(a[0]), get(a[1]), get(a[2]))
            case Op.LOAD:
                other = a[2]
                other_new = None if other.op is Op.UNDEF else get(other)
                new = b.load(n.attr, mode.map_type(n.type), get(a[0]), get(a[1]), other_new)  # type: ignore[arg-type]
            case Op.STORE:
                new = b.store(n.attr, mode.map_type(n.type), get(a[0]), get(a[1]), get(a[2]))  # type: ignore[arg-type]
            case Op.PAYLOAD | Op.REDUCE | Op.SCAN:
                new = node(n.op, mode.map_type(n.type), tuple(get(x) for x in a), n.attr)
            case Op.ROFFSET:
                new = node(Op.ROFFSET, IntType(mode.int32))
            case Op.ACC:
                # Triton types a loop-carried value by its init (the update must keep that type), so an
                # accumulator whose init mixes in a narrowed size argument is int64 in W and int32 in N:
                # its type is the instantiated init's, never the recorded one mapped by width.
                new = node(Op.ACC, get(inits[n.attr]).type, (), n.attr)
            case Op.ASSUME:
                new = node(Op.ASSUME, get(a[0]).type, tuple(get(x) for x in a), n.attr)
        memo[id(n)] = new
    return memo


def _undef(t: Type) -> Node:
    return node(Op.UNDEF, t)
