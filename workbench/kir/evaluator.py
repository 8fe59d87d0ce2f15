"""Evaluator: a kernel's memory accesses at one lane, in the declared, narrowed or a small-model width.

Stage: kir. Given a parsed :class:`~workbench.kir.nodes.Kernel`, concrete sizes (values of the shape symbols,
from which the size arguments follow through their recorded expressions, or the arguments directly), a
:class:`Lane` (program ids and the position inside each block) and a :class:`Mode` (the widths that stand for
Triton's int32 and int64, and the width of the size arguments), :func:`evaluate` returns every load's
``(pointer, offset, mask)`` and every store's ``(pointer, offset, mask, value term)``.

Integers are exact Python ints reduced into their type after every operation (two's complement); ``//`` and
``%`` truncate toward zero (LLVM ``sdiv``/``srem``, which Triton emits for signed ``//``/``%``); division by
zero and ``INT_MIN // -1`` raise :class:`~workbench.kir.errors.UndefinedBehaviour`. Scalar arguments are
reduced into their parameter's width, as a C cast would (whether they *fit* is the checker's question).
Tensor data stays symbolic: a value term is a nested tuple (see :data:`Term`). Launches and lanes (argument
values, blocks, grid) are :mod:`workbench.kir.launches`'s, re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Union

from workbench.kir.errors import EvaluationError, UndefinedBehaviour
from workbench.kir.instantiate import instantiate
from workbench.kir.launches import (  # noqa: F401  (re-exported: kir and the cross-checks import them here)
    DEFAULT_BLOCKS,
    MAX_Y_GRID,
    Lane,
    Launch,
    _eval_expr,
    _parse_size,
    launch,
)
from workbench.kir.modes import WIDE, Mode
from workbench.kir.nodes import Kernel, Node, walk
from workbench.kir.ops import ROW, Op
from workbench.kir.types import IntType, Type

# A value term: ('load', pointer, offset) | ('undef', type) | ('const', text, type) | ('int', value, type)
# | (payload op name, type, *argument terms) | ('where', condition term, then term, else term).
Term = Union[tuple, int]
# The integer tensors' contents for indirect indexing: (pointer name, element offset) -> value.
Data = Callable[[str, int], int]




@dataclass(frozen=True, slots=True)
class Access:
    """A load or store at one lane: byte-free element ``offset`` from ``pointer``, and whether ``mask`` holds.
    Stores carry the stored ``value`` term; ``line`` is the source line (1 = ``def``)."""

    kind: str
    pointer: str
    offset: int | None  # None: masked off, computed from a masked-off (unspecified) index
    mask: bool
    line: int
    value: Term | None = None


@dataclass(frozen=True, slots=True)
class LaneResult:
    lane: Lane
    mode: Mode
    loads: tuple[Access, ...]
    stores: tuple[Access, ...]
    # Reduction kernels: each carry's update term at this lane and step ((name, loop), term), and the operand
    # terms of each REDUCE node at this lane (walk order): what the induction over steps and the row-wise
    # reduction need to agree on.
    carries: tuple[tuple[tuple[str, int], Term], ...] = ()
    reductions: tuple[tuple[Term, ...], ...] = ()
    # Reduction kernels: each carry's init term at this lane ((name, loop), term): with the updates, the base
    # and the step of the induction.
    inits: tuple[tuple[tuple[str, int], Term], ...] = ()
    # Kernels with device_assert premises: for each ASSUME node (walk order), whether the premise holds at
    # this lane (its mask is false, or ``lo <= value < hi``; None where the value is not concrete: a
    # masked-off load under a true mask, or data left symbolic), the bounds' values, and whether its mask
    # holds (the premise claims anything here).
    premises: tuple[tuple[bool | None, int | None, int | None, bool | None], ...] = ()

    @property
    def store(self) -> Access:
        if len(self.stores) != 1:
            raise EvaluationError(f"{len(self.stores)} stores at this lane; use .stores")
        return self.stores[0]


# -- evaluation ----------------------------------------------------------------------------------------------


def evaluate(
    kernel: Kernel,
    sizes: Mapping[str, int] | Launch,
    lane: Lane,
    mode: Mode = WIDE,
    *,
    blocks: Mapping[str, int] | None = None,
    data: Data | None = None,
    assumed: Mapping[int, int] | None = None,
) -> LaneResult:
    """Every load's and store's ``(pointer, offset, mask)`` (and the stored value term) at ``lane``.

    ``sizes`` maps shape symbols (and optionally parameter names) to values, or is a :class:`Launch` from
    :func:`launch`. ``lane.num_programs`` supplies ``tl.num_programs``; positions must lie inside the blocks.
    ``data(pointer, offset)`` gives the integer tensors' contents: with it, integer loads and the integer
    payload computed from them are concrete (needed for indirect indexing: an address through a loaded
    index); without it, data stays symbolic and an address through data raises :class:`EvaluationError`.
    ``assumed`` gives the value of the i-th ``ASSUME`` node (walk order) where its value is not concrete (an
    asserted index computed from float data).
    """
    ln = sizes if isinstance(sizes, Launch) else launch(kernel, sizes, blocks)
    k = instantiate(kernel, mode)
    env = _Env(k, ln, lane, mode, data, assumed)
    env.run()
    llines = _lines(kernel.load_lines, len(k.loads))
    slines = _lines(kernel.store_lines, len(k.stores))
    loads = tuple(env.access("load", n, line) for n, line in zip(k.loads, llines))
    stores = tuple(env.access("store", n, line) for n, line in zip(k.stores, slines))
    premises = tuple(env.premise(n) for n in _order(k) if n.op is Op.ASSUME)
    if k.reduction is None:
        return LaneResult(lane, mode, loads, stores, premises=premises)
    carries = tuple(((c.name, c.loop), env.term(c.update)) for c in k.carries)
    inits = tuple(((c.name, c.loop), env.term(c.init)) for c in k.carries)
    reductions = tuple(tuple(env.term(a) for a in n.args) for n in _order(k) if n.op in ROW)
    return LaneResult(lane, mode, loads, stores, carries, reductions, inits, premises)


_ORDERS: dict[int, tuple[Kernel, tuple[Node, ...]]] = {}


def _order(k: Kernel) -> tuple[Node, ...]:
    hit = _ORDERS.get(id(k))
    if hit is None or hit[0] is not k:
        if len(_ORDERS) > 512:
            _ORDERS.clear()
        hit = (k, tuple(walk(*k.roots())))
        _ORDERS[id(k)] = hit
    return hit[1]


def _lines(lines: tuple[int, ...], n: int) -> tuple[int, ...]:
    return lines if len(lines) == n else (0,) * n


class _Env:
    def __init__(self, k: Kernel, ln: Launch, lane: Lane, mode: Mode, data: Data | None = None,
                 assumed: Mapping[int, int] | None = None):
        self.k, self.ln, self.lane, self.mode, self.data = k, ln, lane, mode, data
        self.assumed = assumed
        self.assume_index = ({id(n): i for i, n in enumerate(x for x in _order(k) if x.op is Op.ASSUME)}
                             if assumed else {})
        self.values: dict[int, Any] = {}
        self.args = {}
        blocks = dict(ln.blocks)
        for b, _axis in k.blocks:
            i = lane.pos(b)
            if not 0 <= i < blocks[b]:
                raise EvaluationError(f"{k.name}: lane position {i} outside {b}={blocks[b]}")
        self.blocks = blocks
        for p in k.params:
            if p.kind in ("pointer", "constexpr"):
                continue
            v = dict(ln.args).get(p.name)
            if v is None:
                raise EvaluationError(f"{k.name}: no value for {p.name}")
            self.args[p.name] = p.type.wrap(v) if isinstance(p.type, IntType) else v

    def run(self) -> None:
        values, node = self.values, self.node
        for x in _order(self.k):
            values[id(x)] = node(x)

    def access(self, kind: str, n: Node, line: int) -> Access:
        offset = self.values[id(n.args[0])]
        mask = self.values[id(n.args[2] if kind == "store" else n.args[1])]
        if not isinstance(offset, int):
            if mask:
                raise EvaluationError(f"{self.k.name}: the {kind} offset at line {line} goes through loaded "
                                      "data; pass data= (the index tensors' contents) to evaluate it")
            offset = None  # masked off, and computed from data that was masked off: no address
        value = self.values[id(n.args[1])] if kind == "store" else None
        if kind == "store" and isinstance(value, int):
            value = ("int", value, str(n.args[1].type))
        return Access(kind, n.attr, offset, bool(mask), line, value)

    def premise(self, n: Node) -> tuple[bool | None, int | None, int | None, bool | None]:
        """An ASSUME node's premise at this lane: (holds, lo, hi, active) (see :attr:`LaneResult.premises`)."""
        has_lo, has_hi = n.attr
        _, mask, *rest = (self.values[id(x)] for x in n.args)
        value = self.values[id(n)]  # the assumed value itself (see the ASSUME rule)
        lo = rest.pop(0) if has_lo else None
        hi = rest.pop(0) if has_hi else None
        if not isinstance(mask, int) or not isinstance(lo, (int, type(None))) or not isinstance(hi, (int, type(None))):
            return None, lo, hi, None
        if not mask:
            return True, lo, hi, False  # claimed only where the mask holds
        if not isinstance(value, int):
            return None, lo, hi, True
        return (lo is None or lo <= value) and (hi is None or value < hi), lo, hi, True

    def ub(self, op: str, x: int, y: int, t: Type) -> UndefinedBehaviour:
        return UndefinedBehaviour(self.k.name, op, (x, y), str(t), self.lane)

    def term(self, x: Node) -> Term:
        v = self.values[id(x)]
        return ("int", v, str(x.type)) if isinstance(v, int) else v

    def node(self, n: Node) -> Any:
        v = self.values
        a = [v[id(x)] for x in n.args]
        t = n.type
        if n.payload and n.op is Op.PAYLOAD and self.data is not None and all(isinstance(x, int) for x in a):
            got = _int_payload(n, a)
            if got is not None:
                return got
        if n.payload and n.op not in (Op.LOAD, Op.WHERE):
            # opaque: the term records the operation and its inputs
            match n.op:
                case Op.FCONST:
                    return ("const", n.attr[0], str(t))
                case Op.UNDEF:
                    return ("undef", str(t))
                case Op.ACC:
                    return ("acc", str(t), *n.attr)
                case Op.REDUCE:  # over every r lane of this row: the term names the operands at this lane
                    return (f"reduce {n.attr[0]}#{n.attr[1]}", str(t), *(self.term(x) for x in n.args))
                case Op.SCAN:  # over r lanes 0..this one: the term names the combine and the operands here
                    return (f"scan {n.attr[0]}#{n.attr[2]}", str(t), *(self.term(x) for x in n.args))
                case Op.PAYLOAD if isinstance(n.attr, tuple):
                    return (f"{n.attr[0]}#{n.attr[1]}", str(t), *(self.term(x) for x in n.args))
                case Op.PAYLOAD if n.attr == "to" and not isinstance(t, IntType):
                    # an integer converted to float: the result is a function of the value only, not of the
                    # width it was held in (``ks0.to(tl.float32)`` is int64 in W, int32 in N)
                    return ("to", str(t), *(("int", self.values[id(x)]) if isinstance(self.values[id(x)], int)
                                           else self.term(x) for x in n.args))
                case _:
                    return (n.attr if n.op is Op.PAYLOAD else n.op.name.lower(), str(t), *(self.term(x) for x in n.args))
        if n.op in _INDEX_OPS and not all(isinstance(x, int) for x in a):
            # an index term through a masked-off (unspecified) loaded index: unspecified as well
            return ("undef", str(t))
        match n.op:
            case Op.CONST:
                return n.attr[0]
            case Op.ARG:
                return self.args[n.attr]
            case Op.CONSTEXPR:
                return t.wrap(self.blocks[n.attr])  # type: ignore[union-attr]
            case Op.PROGRAM_ID:
                return t.wrap(self.lane.program_id[n.attr])  # type: ignore[union-attr]
            case Op.NUM_PROGRAMS:
                return t.wrap(self.lane.num_programs[n.attr])  # type: ignore[union-attr]
            case Op.ARANGE:
                return t.wrap(n.attr[0] + self.lane.pos(n.attr[1]))  # type: ignore[union-attr]
            case Op.ROFFSET:
                return t.wrap(self.lane.step)  # type: ignore[union-attr]
            case Op.ADD:
                return t.wrap(a[0] + a[1])  # type: ignore[union-attr]
            case Op.SUB:
                return t.wrap(a[0] - a[1])  # type: ignore[union-attr]
            case Op.MUL:
                return t.wrap(a[0] * a[1])  # type: ignore[union-attr]
            case Op.NEG:
                return t.wrap(-a[0])  # type: ignore[union-attr]
            case Op.ABS:
                return t.wrap(abs(a[0]))  # type: ignore[union-attr]  (llvm.abs: INT_MIN stays INT_MIN)
            case Op.FLOORDIV:
                return self._div(n, a[0], a[1], t)[0]
            case Op.MOD:
                return self._div(n, a[0], a[1], t)[1]
            case Op.LT:
                return int(a[0] < a[1])
            case Op.LE:
                return int(a[0] <= a[1])
            case Op.GT:
                return int(a[0] > a[1])
            case Op.GE:
                return int(a[0] >= a[1])
            case Op.EQ:
                return int(a[0] == a[1])
            case Op.NE:
                return int(a[0] != a[1])
            case Op.AND:
                return t.wrap(a[0] & a[1])  # type: ignore[union-attr]  (Python & is two's complement on ints)
            case Op.OR:
                return t.wrap(a[0] | a[1])  # type: ignore[union-attr]
            case Op.CAST:
                # semantic.cast: int1 target is ``x != 0``; otherwise truncate/sign-extend (values are kept
                # signed, so extension is the identity and truncation is ``wrap``; int1 sources are 0/1).
                return int(a[0] != 0) if t.bits == 1 else t.wrap(a[0])  # type: ignore[union-attr]
            case Op.BROADCAST:
                return a[0]
            case Op.WHERE:
                c = a[0]
                if isinstance(c, int):
                    return a[1] if c else a[2]
                return ("where", str(t), c, self.term(n.args[1]), self.term(n.args[2]))
            case Op.LOAD:
                offset, mask = a[0], a[1]
                if mask:
                    if self.data is not None and isinstance(t, IntType) and isinstance(offset, int):
                        return t.wrap(self.data(n.attr, offset))
                    return ("load", n.attr, offset)
                other = v[id(n.args[2])]
                return other if isinstance(other, int) else self.term(n.args[2])
            case Op.ASSUME:
                # tl.device_assert is compiled away: the value, unchecked (a premise, not a check). A value
                # left symbolic (computed from float data: a reduction's result cast to an index) can be given
                # by ``assumed`` (the small model enumerates what the premise admits).
                if not isinstance(a[0], int) and self.assumed and self.assume_index.get(id(n)) in self.assumed:
                    return t.wrap(self.assumed[self.assume_index[id(n)]])  # type: ignore[union-attr]
                return a[0]
            case Op.STORE:
                return None
            case Op.FCONST | Op.UNDEF | Op.PAYLOAD | Op.ACC | Op.REDUCE | Op.SCAN:
                raise AssertionError(f"{n.op} is payload")  # handled above
        raise AssertionError(f"no rule for {n.op}")

    def _div(self, n: Node, x: int, y: int, t: Type) -> tuple[int, int]:
        # arith.divsi / arith.remsi: truncate toward zero; y == 0 and INT_MIN / -1 are undefined.
        assert isinstance(t, IntType)
        if y == 0 or (x == t.min and y == -1):
            raise self.ub("//" if n.op is Op.FLOORDIV else "%", x, y, t)
        q = abs(x) // abs(y)
        if (x < 0) != (y < 0):
            q = -q
        return t.wrap(q), x - q * y


# Index operations: their operands are integers, except below an asserted index whose load was masked off.
_INDEX_OPS = frozenset({Op.ADD, Op.SUB, Op.MUL, Op.NEG, Op.ABS, Op.FLOORDIV, Op.MOD, Op.LT, Op.LE, Op.GT, Op.GE, Op.EQ,
                        Op.NE, Op.AND, Op.OR, Op.CAST})

_INT_PAYLOAD = {
    "add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y,
    "lt": lambda x, y: int(x < y), "le": lambda x, y: int(x <= y), "gt": lambda x, y: int(x > y),
    "ge": lambda x, y: int(x >= y), "eq": lambda x, y: int(x == y), "ne": lambda x, y: int(x != y),
    "and": lambda x, y: x & y, "or": lambda x, y: x | y,
}


def _int_payload(n: Node, a: list) -> int | None:
    """Integer payload on concrete data (``tmp0 + ks1``, ``tmp0 < 0``, ``.to(tl.int64)``), with the same
    two's complement laws as the index ops; ``None`` for anything else (floats, library calls)."""
    t = n.type
    if not isinstance(t, IntType) or not all(isinstance(x.type, IntType) for x in n.args):
        return None
    if n.attr == "to" and len(a) == 1:
        return int(a[0] != 0) if t.bits == 1 else t.wrap(a[0])
    if n.attr == "neg" and len(a) == 1:
        return t.wrap(-a[0])
    if n.attr == "invert" and len(a) == 1:
        return t.wrap(~a[0])
    if n.attr in ("floordiv", "mod") and len(a) == 2:
        if a[1] == 0 or (a[1] == -1 and a[0] == -(2 ** (t.bits - 1))):
            return None  # undefined in LLVM (sdiv/srem): no value
        return t.wrap(truncdiv(a[0], a[1]) if n.attr == "floordiv" else truncmod(a[0], a[1]))
    f = _INT_PAYLOAD.get(n.attr)
    if f is None or len(a) != 2:
        return None
    return t.wrap(f(a[0], a[1]))


def truncdiv(x: int, y: int) -> int:
    """C-style integer division (toward zero), as ``arith.divsi``."""
    q = abs(x) // abs(y)
    return -q if (x < 0) != (y < 0) else q


def truncmod(x: int, y: int) -> int:
    """C-style remainder (sign of the dividend), as ``arith.remsi``."""
    return x - truncdiv(x, y) * y
