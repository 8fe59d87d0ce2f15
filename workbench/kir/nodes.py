"""Kernel IR nodes: frozen, slotted, hash-consed; and the ``Kernel`` artefact the parser returns.

Stage: kir. A ``Node`` is ``(op, type, args, attr)`` with tuple children. Nodes are *interned*: build them
with :func:`node` (never ``Node(...)`` directly) and two structurally equal nodes are the same object, so
equality and hashing are O(1) even on DAGs with heavy sharing. Transformations build new nodes.

Values are per lane: a node denotes the value of its Triton tensor at one lane (one program id and one
position of each ``tl.arange``). Block shapes only matter for broadcasting, which is the identity per lane.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from workbench.kir.ops import OPAQUE, Op
from workbench.kir.types import IntType, Type

Attr = Any  # None, int, str, or a tuple of those: hashable, immutable


@dataclass(frozen=True, slots=True, eq=False, weakref_slot=True)
class Node:
    op: Op
    type: Type
    args: tuple[Node, ...] = ()
    attr: Attr = None
    # True when the value depends on tensor data (a load) or is a float: opaque to the IR.
    payload: bool = field(default=False, compare=False)

    def __repr__(self) -> str:  # short and non-recursive; use ``render`` for the whole term
        a = f", {self.attr!r}" if self.attr is not None else ""
        return f"<{self.op.name} {self.type}{a} #{len(self.args)}>"


_INTERN: weakref.WeakValueDictionary[tuple, Node] = weakref.WeakValueDictionary()


def node(op: Op, type_: Type, args: tuple[Node, ...] = (), attr: Attr = None) -> Node:
    """The interned node ``(op, type, args, attr)``."""
    key = (op, type_, tuple(id(a) for a in args), attr)
    found = _INTERN.get(key)
    if found is not None:
        return found
    payload = op in OPAQUE or not isinstance(type_, IntType) or any(a.payload for a in args)
    if op in (Op.STORE, Op.ASSUME):
        # a store is an effect; an assumed value is integer data with asserted bounds, an index term
        payload = False
    n = Node(op, type_, tuple(args), attr, payload)
    _INTERN[key] = n
    return n


def walk(*roots: Node) -> Iterator[Node]:
    """Every node reachable from ``roots``, children before parents, each once (deterministic order)."""
    seen: set[int] = set()
    stack: list[tuple[Node, bool]] = [(r, False) for r in reversed(roots)]
    while stack:
        n, expanded = stack.pop()
        if id(n) in seen:
            continue
        if expanded:
            seen.add(id(n))
            yield n
            continue
        stack.append((n, True))
        for a in reversed(n.args):
            if id(a) not in seen:
                stack.append((a, False))


def is_integer_division(n: Node) -> bool:
    """An integer ``//`` or ``%`` (``arith.divsi``/``remsi``: undefined for a zero divisor wherever it executes),
    on indices (``Op.FLOORDIV``/``Op.MOD``) or on loaded data (a payload ``floordiv``/``mod`` of integer type)."""
    from workbench.kir.types import IntType

    if n.op in (Op.FLOORDIV, Op.MOD):
        return True
    return n.op is Op.PAYLOAD and n.attr in ("floordiv", "mod") and isinstance(n.type, IntType)


def dead_divisions(kernel: "Kernel") -> tuple[Node, ...]:
    """Integer divisions the kernel's text computes but no load, store or carry uses (a statement whose value
    is never read): they still execute, so the checker must see them, and the IR hash covers them."""
    live = {id(x) for x in walk(*kernel.roots())}
    return tuple(x for x in walk(*(b.node for b in kernel.bindings if isinstance(b.node, Node)))
                 if id(x) not in live and is_integer_division(x))


def type_sources(n: Node, is_size) -> list[str]:
    """The arguments (``ARG`` names accepted by ``is_size``) that ``n``'s *type* depends on: narrowing
    re-derives it from theirs by promotion. A load (its pointer's element type), a constant, an int1 result,
    an explicit cast and a float (Triton's float promotion ignores the integer's width) stop the chain."""
    from workbench.kir.types import FloatType, IntType

    deps: dict[int, frozenset[str]] = {}
    for m in walk(n):
        if m.op is Op.ARG:
            got = frozenset({m.attr}) if is_size(m.attr) else frozenset()
        elif (m.op in (Op.LOAD, Op.UNDEF, Op.CONST, Op.FCONST) or isinstance(m.type, FloatType)
              or (m.op is Op.CAST and m.attr is None) or m.type == IntType(1)):
            got = frozenset()
        else:
            got = frozenset().union(*(deps[id(a)] for a in m.args))
        deps[id(m)] = got
    return sorted(deps[id(n)])


@dataclass(frozen=True, slots=True)
class Param:
    """A kernel parameter. ``kind``: ``pointer``, ``size`` (``ks*``, a symbolic size), ``numel``
    (``xnumel``/``ynumel``), ``scalar`` (another scalar) or ``constexpr`` (``XBLOCK``). ``expr`` is the
    parameter's expression in shape symbols (sympy text) for sizes and numels, when captured."""

    name: str
    kind: str
    type: Type | None
    expr: str | None = None


@dataclass(frozen=True, slots=True)
class Binding:
    """One assignment of the source: ``name = ...`` at ``line`` (1 = the ``def`` line) bound to ``node``."""

    name: str
    line: int
    node: Node


@dataclass(frozen=True, slots=True)
class Carry:
    """A loop-carried name of reduction loop ``loop`` (1 = the first ``for`` of the kernel; an Inductor
    accumulator, or any other name assigned before the loop and re-assigned in its body):
    ``init`` is its value before the loop (assigned before it), ``update`` its value after one step, in terms
    of ``node(Op.ACC, type, (), (name, loop))`` (the value before the step). After the loop the name denotes
    the same ACC leaf: the accumulator's final value (``update`` applied once per step, ``init`` if the loop
    runs no step). ``line`` is the update's source line."""

    name: str
    loop: int
    init: Node
    update: Node
    line: int


@dataclass(frozen=True, slots=True)
class Reduction:
    """The reduction axis of a ``triton_red_*`` / ``triton_per_*`` kernel.

    ``numel``: the extent's parameter (``r0_numel``), or None when the kernel fixes it (``r0_numel = 64``
    in the body; then ``static_numel`` holds it and the parameter passed at launch is ignored). ``block``:
    the block constexpr (``R0_BLOCK``), a parameter unless ``static_block`` fixes it in the body.
    ``loops``: how many ``for r0_offset in tl.range(0, r0_numel, R0_BLOCK)`` loops (0 = persistent: one
    block covers the row, ``r0_index = tl.arange(0, R0_BLOCK)``)."""

    numel: str | None
    block: str
    loops: int
    static_numel: int | None = None
    static_block: int | None = None

    @property
    def persistent(self) -> bool:
        return self.loops == 0


@dataclass(frozen=True, slots=True)
class Kernel:
    """A parsed pointwise kernel: its parameters, loads and stores (in source order) and the bindings that
    tie the IR back to the source lines. ``grid`` is ``"1d"`` or ``"2d"`` (x/y program ids with the
    y-overflow into z of ``Grid2DWithYZOverflow``); ``blocks`` maps each block constexpr to its lane axis."""

    name: str
    params: tuple[Param, ...]
    loads: tuple[Node, ...]
    stores: tuple[Node, ...]
    grid: str
    blocks: tuple[tuple[str, str], ...]  # (constexpr name, axis 'x' | 'y')
    bindings: tuple[Binding, ...] = ()
    load_lines: tuple[int, ...] = ()
    store_lines: tuple[int, ...] = ()
    program: str = ""
    source: str = ""  # the ``def`` text parsed
    # Reductions (None / empty for pointwise kernels). ``load_loops``/``store_loops``: for each access, the
    # reduction loop it sits in (1, 2, ... in source order; 0 = outside every loop).
    reduction: Reduction | None = None
    carries: tuple[Carry, ...] = ()
    load_loops: tuple[int, ...] = ()
    store_loops: tuple[int, ...] = ()

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def store(self) -> Node:
        """The kernel's only store (pointwise kernels have one; raises if there are several)."""
        if len(self.stores) != 1:
            raise ValueError(f"{self.name} has {len(self.stores)} stores; use .stores")
        return self.stores[0]

    @property
    def size_params(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.kind == "size")

    def roots(self) -> tuple[Node, ...]:
        """The nodes every consumer must walk: loads, stores, then each carry's init and update (an
        accumulator's update is reachable from no access: the ACC leaf stands for it)."""
        return (*self.loads, *self.stores, *(x for c in self.carries for x in (c.init, c.update)))

    def nodes(self) -> Iterator[Node]:
        """Every node of the kernel (loads, stores, carries' inits and updates), children first."""
        return walk(*self.roots())

    def carry(self, acc: Node) -> Carry:
        """The carry an ``Op.ACC`` leaf stands for."""
        for c in self.carries:
            if (c.name, c.loop) == acc.attr:
                return c
        raise KeyError(acc.attr)
