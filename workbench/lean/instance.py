"""The emitter's input: one certified kernel, as the Lean side needs it (stage: prove; pure data, no Lean).

``LeanInstance`` is a frozen description of a narrowing certificate: the kernel's name and canonical hash,
shape symbols with lower bounds, guards (polynomials ``>= 0``), size arguments with their symbolic
expressions, side conditions (polynomials ``>= 0`` the checker emitted), and the kernel's loads and store
as small term trees whose ops mirror the constructors of ``Narrowing.Expr`` in ``lean/Narrowing/Expr.lean``
(and the integer ops of ``workbench.kir``). Until the checker's certificate format exists this is built by
hand (``workbench.lean.hand_built``) or read from our own JSON (``schema: workbench.lean_instance/1``);
``workbench.lean.adapter`` maps certificates onto it.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from pathlib import Path

import sympy

from workbench.lean.errors import InstanceError

SCHEMA = "workbench.lean_instance/1"


class TermOp(enum.Enum):
    """Integer ops of index expressions; one per ``Narrowing.Expr`` constructor."""

    # Leaves. Grid leaves carry an axis or block number in ``value``: axes 0, 1, 2 of ``tl.program_id`` /
    # ``tl.num_programs``; blocks 0 = XBLOCK (x), 1 = YBLOCK (y) (``Narrowing.Lane``).
    PROGRAM_ID = "programId"
    NUM_PROGRAMS = "numPrograms"
    ARANGE = "arange"  # this lane's element of tl.arange(0, block)
    BLOCK = "block"  # the block-size constexpr (weak)
    LOOP_OFFSET = "loopOffset"  # a reduction step's r0_offset (int32; Narrowing.Lane.roff)
    SIZE = "size"
    WEAK = "weak"  # untyped Python literal / constexpr: adopts the other operand's type
    STRONG = "strong"  # typed constant, e.g. tl.full([1], c, tl.int64)
    # Arithmetic: wraps to the promoted type (two's complement).
    ADD = "add"
    SUB = "sub"
    MUL = "mul"
    # Truncating division and remainder with the dividend's sign (arith.divsi / arith.remsi).
    FLOORDIV = "floordiv"
    MOD = "mod"
    # tl_math.abs on a signed integer: the exact |x| wrapped to x's type (INT_MIN stays INT_MIN).
    ABS = "abs"
    # Comparisons: yield an i1 mask.
    LT = "lt"
    LE = "le"
    GT = "gt"
    GE = "ge"
    EQ = "eq"
    NE = "ne"
    # Masks.
    AND = "mand"
    OR = "mor"
    WHERE = "select"
    CAST = "cast"
    # An integer computed from an index value through floating point (``x.to(tl.float32)``, float math,
    # ``.to(ty)``): ``name`` is the float computation's text, an uninterpreted function of the value.
    FCONV = "fconv"
    # Indirect indexing. An integer loaded from an index tensor: ``value`` is the pointer's position, ``ty`` its
    # element type, args (offset, mask), ``other`` the ``other=`` constant (None: unspecified when masked off).
    LOAD = "load"
    # A tl.device_assert premise on a loaded index (``Narrowing.Expr.assume``): args (value, mask, lo, hi),
    # ``value`` the flags ``1`` (lower bound stated) | ``2`` (upper bound stated); an absent bound is ``weak 0``.
    ASSUME = "assume"


GRID_LEAVES = frozenset({TermOp.PROGRAM_ID, TermOp.NUM_PROGRAMS, TermOp.ARANGE, TermOp.BLOCK})
LEAVES = GRID_LEAVES | {TermOp.SIZE, TermOp.WEAK, TermOp.STRONG, TermOp.LOOP_OFFSET}
AXES = (0, 1, 2)  # tl.program_id / tl.num_programs axes
BLOCKS = {"XBLOCK": 0, "YBLOCK": 1, "R0_BLOCK": 2}  # block numbers of Narrowing.Lane.pos / Lane.block
BINARY = frozenset({TermOp.ADD, TermOp.SUB, TermOp.MUL, TermOp.FLOORDIV, TermOp.MOD, TermOp.AND, TermOp.OR})
COMPARISONS = frozenset({TermOp.LT, TermOp.LE, TermOp.GT, TermOp.GE, TermOp.EQ, TermOp.NE})
TYPES = ("i1", "i32", "i64")


@dataclass(frozen=True, slots=True)
class Term:
    """An index-expression node. ``value`` holds a constant or a size argument's index; ``ty`` a type."""

    op: TermOp
    args: tuple[Term, ...] = ()
    value: int | None = None
    ty: str | None = None
    other: int | None = None  # LOAD: the ``other=`` constant (None: none given)
    name: str | None = None  # FCONV: the float computation's text

    def __post_init__(self) -> None:
        arity = {TermOp.WHERE: 3, TermOp.CAST: 1, TermOp.ABS: 1, TermOp.FCONV: 1, TermOp.ASSUME: 4}.get(self.op, 0 if self.op in LEAVES else 2)
        if len(self.args) != arity:
            raise InstanceError(f"term {self.op.value} takes {arity} operands, got {len(self.args)}")
        if self.op in (TermOp.SIZE, TermOp.WEAK, TermOp.STRONG) and self.value is None:
            raise InstanceError(f"term {self.op.value} needs a value")
        if self.op in (TermOp.PROGRAM_ID, TermOp.NUM_PROGRAMS) and self.value not in AXES:
            raise InstanceError(f"term {self.op.value} needs an axis in {AXES}, got {self.value!r}")
        if self.op in (TermOp.ARANGE, TermOp.BLOCK) and self.value not in BLOCKS.values():
            raise InstanceError(f"term {self.op.value} needs a block number in {sorted(BLOCKS.values())} "
                                f"(0 = XBLOCK, 1 = YBLOCK, 2 = R0_BLOCK), got {self.value!r}")
        if self.op in (TermOp.SIZE, TermOp.STRONG, TermOp.CAST, TermOp.FCONV) and self.ty not in TYPES:
            raise InstanceError(f"term {self.op.value} needs a type in {TYPES}, got {self.ty!r}")
        if self.op is TermOp.LOAD and (not isinstance(self.value, int) or self.value < 0 or self.ty not in ("i32", "i64")):
            raise InstanceError(f"term load needs a pointer position and an index type i32/i64, got {self.value!r}, {self.ty!r}")
        if self.op is TermOp.ASSUME and self.value not in (1, 2, 3):
            raise InstanceError(f"term assume needs bound flags 1 (lower), 2 (upper) or 3 (both), got {self.value!r}")
        if self.other is not None and self.op is not TermOp.LOAD:
            raise InstanceError(f"term {self.op.value} takes no `other`")
        if (self.name is not None) != (self.op is TermOp.FCONV):
            raise InstanceError(f"term {self.op.value}: a name is given exactly to fconv terms (got {self.name!r})")

    # Builders keep hand-written kernels readable (`x0 = xindex % ks0`).
    def _bin(self, op: TermOp, other: Term | int) -> Term:
        return Term(op, (self, _lift(other)))

    def __add__(self, o: Term | int) -> Term:
        return self._bin(TermOp.ADD, o)

    def __sub__(self, o: Term | int) -> Term:
        return self._bin(TermOp.SUB, o)

    def __mul__(self, o: Term | int) -> Term:
        return self._bin(TermOp.MUL, o)

    def __floordiv__(self, o: Term | int) -> Term:
        return self._bin(TermOp.FLOORDIV, o)

    def __mod__(self, o: Term | int) -> Term:
        return self._bin(TermOp.MOD, o)

    def __and__(self, o: Term) -> Term:
        return self._bin(TermOp.AND, o)

    def __or__(self, o: Term) -> Term:
        return self._bin(TermOp.OR, o)

    def lt(self, o: Term | int) -> Term:
        return self._bin(TermOp.LT, o)

    def le(self, o: Term | int) -> Term:
        return self._bin(TermOp.LE, o)

    def gt(self, o: Term | int) -> Term:
        return self._bin(TermOp.GT, o)

    def ge(self, o: Term | int) -> Term:
        return self._bin(TermOp.GE, o)

    def to(self, ty: str) -> Term:
        return Term(TermOp.CAST, (self,), ty=ty)

    def to_json(self) -> dict:
        out: dict = {"op": self.op.value}
        if self.args:
            out["args"] = [a.to_json() for a in self.args]
        if self.value is not None:
            out["value"] = self.value
        if self.ty is not None:
            out["ty"] = self.ty
        if self.other is not None:
            out["other"] = self.other
        if self.name is not None:
            out["name"] = self.name
        return out

    @staticmethod
    def from_json(d: dict) -> Term:
        try:
            op = TermOp(d["op"])
        except (KeyError, ValueError, TypeError) as exc:
            raise InstanceError(f"unknown term op in {d!r}; expected one of {[o.value for o in TermOp]}") from exc
        value = d.get("value")
        if value is None and op in GRID_LEAVES:
            value = 0  # files written before 2-D grids: axis 0 / XBLOCK was the only one
        return Term(op, tuple(Term.from_json(a) for a in d.get("args", ())), value, d.get("ty"), d.get("other"),
                    d.get("name"))


def _lift(x: Term | int) -> Term:
    return x if isinstance(x, Term) else weak(x)


def program_id(axis: int = 0) -> Term:
    return Term(TermOp.PROGRAM_ID, value=axis)


def num_programs(axis: int) -> Term:
    return Term(TermOp.NUM_PROGRAMS, value=axis)


def loop_offset() -> Term:
    """The current reduction step's ``r0_offset`` (``Narrowing.Expr.loopOffset``)."""
    return Term(TermOp.LOOP_OFFSET)


def arange(b: int = 0) -> Term:
    """This lane's element of ``tl.arange(0, block b)`` (0 = XBLOCK, 1 = YBLOCK, 2 = R0_BLOCK)."""
    return Term(TermOp.ARANGE, value=b)


def block(b: int = 0) -> Term:
    """The block-size constexpr of block ``b`` (0 = XBLOCK, 1 = YBLOCK, 2 = R0_BLOCK)."""
    return Term(TermOp.BLOCK, value=b)


def size(index: int, ty: str = "i64") -> Term:
    return Term(TermOp.SIZE, value=index, ty=ty)


def weak(c: int) -> Term:
    return Term(TermOp.WEAK, value=c)


def strong(c: int, ty: str) -> Term:
    return Term(TermOp.STRONG, value=c, ty=ty)


def where(c: Term, a: Term | int, b: Term | int) -> Term:
    return Term(TermOp.WHERE, (c, _lift(a), _lift(b)))


def load_index(ptr: int, ty: str, offset: Term, mask: Term, other: int | None = None) -> Term:
    """An integer loaded from index tensor ``ptr`` (element type ``ty``) at ``offset`` under ``mask``."""
    return Term(TermOp.LOAD, (offset, mask), value=ptr, ty=ty, other=other)


def fconv(name: str, ty: str, a: Term) -> Term:
    """An integer of type ``ty`` computed from ``a``'s value through the float computation ``name``."""
    return Term(TermOp.FCONV, (a,), ty=ty, name=name)


def assume(v: Term, mask: Term, lo: Term | None, hi: Term | None) -> Term:
    """``tl.device_assert(((lo <= v) & (v < hi)) | ~(mask))``: its value is ``v``; the bounds are a premise."""
    flags = (1 if lo is not None else 0) | (2 if hi is not None else 0)
    return Term(TermOp.ASSUME, (v, mask, lo if lo is not None else weak(0), hi if hi is not None else weak(0)),
                value=flags)


def assumes_in(roots) -> tuple[Term, ...]:
    """The distinct ``assume`` nodes under ``roots``, in first post-order occurrence (deterministic)."""
    out: list[Term] = []
    seen: set[Term] = set()

    def visit(t: Term) -> None:
        if t in seen:
            return
        seen.add(t)
        for a in t.args:
            visit(a)
        if t.op is TermOp.ASSUME:
            out.append(t)

    for r in roots:
        visit(r)
    return tuple(out)


class PayloadOp(enum.Enum):
    """Payload (tensor value) ops, kept symbolic: one per ``Narrowing.RPayload`` constructor (reduction
    kernels, ``lean/Narrowing/Reduction.lean``); ``Narrowing.Payload`` (pointwise) has all but ``acc``,
    ``reduce`` and ``scan``."""

    LOAD = "load"
    INT = "int"  # an index value used as data; the term is in ``cond``
    CONST = "const"
    ACC = "acc"  # a loop-carried accumulator's value before the step (``index``: its carry); reductions only
    REDUCE = "reduce"  # ``name`` of ``args[0]`` over every r position of the row; reductions only
    SCAN = "scan"  # ``name`` of ``args[0]`` over the row's r positions up to this one; reductions only
    UN = "un"
    BIN = "bin"
    WHERE = "select"


@dataclass(frozen=True, slots=True)
class Payload:
    """A symbolic payload: ``load`` (index into the kernel's loads), constants, named operations, where."""

    op: PayloadOp
    args: tuple[Payload, ...] = ()
    name: str = ""  # function or constant name
    index: int | None = None  # load index
    cond: Term | None = None  # where-condition

    def to_json(self) -> dict:
        out: dict = {"op": self.op.value}
        if self.args:
            out["args"] = [a.to_json() for a in self.args]
        if self.name:
            out["name"] = self.name
        if self.index is not None:
            out["index"] = self.index
        if self.cond is not None:
            out["cond"] = self.cond.to_json()
        return out

    @staticmethod
    def from_json(d: dict) -> Payload:
        try:
            op = PayloadOp(d["op"])
        except (KeyError, ValueError, TypeError) as exc:
            raise InstanceError(f"unknown payload op in {d!r}") from exc
        cond = Term.from_json(d["cond"]) if "cond" in d else None
        return Payload(op, tuple(Payload.from_json(a) for a in d.get("args", ())), d.get("name", ""), d.get("index"), cond)


def load_value(i: int) -> Payload:
    return Payload(PayloadOp.LOAD, index=i)


def pconst(name: str) -> Payload:
    return Payload(PayloadOp.CONST, name=name)


def pbin(f: str, a: Payload, b: Payload) -> Payload:
    return Payload(PayloadOp.BIN, (a, b), name=f)


def pun(f: str, a: Payload) -> Payload:
    return Payload(PayloadOp.UN, (a,), name=f)


def pwhere(c: Term, a: Payload, b: Payload) -> Payload:
    return Payload(PayloadOp.WHERE, (a, b), cond=c)


@dataclass(frozen=True, slots=True)
class Load:
    ptr: int
    offset: Term
    mask: Term
    other: str = "0.0"


@dataclass(frozen=True, slots=True)
class Store:
    ptr: int
    offset: Term
    mask: Term
    value: Payload


@dataclass(frozen=True, slots=True)
class Symbol:
    """A shape symbol and the lower bound Inductor's shape environment gives it."""

    name: str
    lower: int


@dataclass(frozen=True, slots=True)
class SizeArg:
    """A kernel size argument: its position in ``Lane.sizes``, declared type, and value over the symbols."""

    name: str
    index: int
    expr: sympy.Expr
    wide_type: str = "i64"
    narrowed: bool = True


@dataclass(frozen=True, slots=True)
class SideCondition:
    """``claim >= 0`` over the shape symbols, given lower bounds and guards (the checker's output)."""

    claim: sympy.Expr
    reason: str
    origin: str


@dataclass(frozen=True, slots=True)
class LeanInstance:
    """Everything the emitter needs about one certified kernel."""

    kernel: str
    program: str
    hash: str
    symbols: tuple[Symbol, ...]
    guards: tuple[sympy.Expr, ...]  # each means guard >= 0
    size_args: tuple[SizeArg, ...]
    side_conditions: tuple[SideCondition, ...]
    loads: tuple[Load, ...]
    store: Store
    mode: str = "observable"
    source: str = "hand-built"  # where the instance came from (hand-built, certificate path, ...)
    notes: tuple[str, ...] = field(default=())
    # The certificate's quotient/remainder rule per division node (``exact``, ``const``, ``numerator``,
    # ``divisor``), where every lane class of that node chose the same one; the Lean derivation tries it first.
    rules: tuple[tuple[Term, str], ...] = field(default=())
    # The certificate's case splits (``agree:`` choices, check/trusted/uniform.py): per access offset term, the
    # uniform comparisons it is split on, outermost first; the Lean derivation proves its agreement by cases.
    splits: tuple[tuple[Term, tuple[Term, ...]], ...] = field(default=())
    # A reduction kernel (``workbench.lean.reduction.RKernelTerms``): its loads, stores and accumulators
    # replace ``loads``/``store`` (then ``()`` and a placeholder); emitted as a ``Narrowing.RKernel``.
    reduction: object | None = None

    def symbol_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.symbols)

    def to_json(self) -> dict:
        if self.reduction is not None:
            raise InstanceError(f"{self.kernel}: reduction instances have no {SCHEMA} form; emit them from the "
                                "certificate or the captured kernel instead")
        return {
            "schema": SCHEMA,
            "kernel": self.kernel,
            "program": self.program,
            "hash": self.hash,
            "mode": self.mode,
            "source": self.source,
            "notes": list(self.notes),
            "symbols": [{"name": s.name, "lower": s.lower} for s in self.symbols],
            "guards": [str(g) for g in self.guards],
            "size_args": [
                {"name": a.name, "index": a.index, "expr": str(a.expr), "wide_type": a.wide_type, "narrowed": a.narrowed}
                for a in self.size_args
            ],
            "side_conditions": [{"claim": str(c.claim), "reason": c.reason, "origin": c.origin} for c in self.side_conditions],
            "loads": [
                {"ptr": ld.ptr, "offset": ld.offset.to_json(), "mask": ld.mask.to_json(), "other": ld.other}
                for ld in self.loads
            ],
            "rules": [{"term": t.to_json(), "rule": r} for t, r in self.rules],
            "splits": [{"term": t.to_json(), "on": [u.to_json() for u in us]} for t, us in self.splits],
            "store": {
                "ptr": self.store.ptr,
                "offset": self.store.offset.to_json(),
                "mask": self.store.mask.to_json(),
                "value": self.store.value.to_json(),
            },
        }


def parse_poly(text: str, symbols: tuple[str, ...], where: str) -> sympy.Expr:
    """Parse a polynomial over the given symbols; anything else is refused by name."""
    from workbench.errors import InputError
    from workbench.symexpr import parse_any

    local = {n: sympy.Symbol(n, integer=True) for n in symbols}
    try:
        # Parsed by the restricted grammar, never evaluated; symbols then get the integer assumption.
        expr = parse_any(str(text), where)
    except InputError as exc:
        raise InstanceError(f"{where}: cannot parse {text!r} as a polynomial: {exc}") from exc
    expr = expr.subs({sympy.Symbol(n): s for n, s in local.items()})
    if isinstance(expr, sympy.core.relational.Relational):
        expr = relation_to_nonneg(expr, where)
    free = {str(s) for s in expr.free_symbols}
    if not free <= set(symbols):
        raise InstanceError(f"{where}: {text!r} uses {sorted(free - set(symbols))}, not among the symbols {list(symbols)}")
    if not expr.is_polynomial(*local.values()):
        raise InstanceError(f"{where}: {text!r} is not a polynomial in {list(symbols)}")
    return sympy.expand(expr)


def parse_size(text: str, symbols: tuple[str, ...], where: str) -> sympy.Expr:
    """A size argument's expression: a polynomial, or integer multiples of ``floor(P / c)`` of polynomials
    (``(s27 + 1)//2``), as Inductor records ``ceil``-style halves; anything else is refused by name."""
    from workbench.errors import InputError
    from workbench.symexpr import parse_any

    local = {n: sympy.Symbol(n, integer=True) for n in symbols}
    try:
        # parse_any, not parse_expr: symexpr.parse_expr refuses a lone symbol (a sympy Symbol is a Boolean).
        expr = parse_any(str(text), where)
    except InputError as exc:
        raise InstanceError(f"{where}: cannot parse {text!r}: {exc}") from exc
    if isinstance(expr, (sympy.core.relational.Relational, sympy.logic.boolalg.BooleanFunction)):
        raise InstanceError(f"{where}: {text!r} is a comparison, expected an expression")
    expr = expr.subs({sympy.Symbol(n): s for n, s in local.items()})
    free = {str(s) for s in expr.free_symbols}
    if not free <= set(symbols):
        raise InstanceError(f"{where}: {text!r} uses {sorted(free - set(symbols))}, not among the symbols {list(symbols)}")
    floors = list(expr.atoms(sympy.floor))
    flat = expr.subs({f: sympy.Dummy() for f in floors})
    if not flat.is_polynomial(*flat.free_symbols) or not all(f.args[0].is_polynomial(*local.values()) for f in floors):
        raise InstanceError(f"{where}: {text!r} is neither a polynomial nor built from floor(polynomial / c)")
    return sympy.expand(expr)


def relation_to_nonneg(rel: sympy.Basic, where: str) -> sympy.Expr:
    """``a <= b`` and ``b >= a`` become ``b - a`` (meaning ``>= 0``); strict ones subtract 1 (integers)."""
    if isinstance(rel, (sympy.LessThan,)):
        return sympy.expand(rel.rhs - rel.lhs)
    if isinstance(rel, (sympy.GreaterThan,)):
        return sympy.expand(rel.lhs - rel.rhs)
    if isinstance(rel, sympy.StrictLessThan):
        return sympy.expand(rel.rhs - rel.lhs - 1)
    if isinstance(rel, sympy.StrictGreaterThan):
        return sympy.expand(rel.lhs - rel.rhs - 1)
    raise InstanceError(f"{where}: {rel} is not an inequality (use <=, <, >= or >)")


def from_json(data: dict, where: str = "instance") -> LeanInstance:
    """Read ``schema: workbench.lean_instance/1`` JSON (the inverse of :meth:`LeanInstance.to_json`)."""
    if data.get("schema") != SCHEMA:
        raise InstanceError(f"{where}: schema is {data.get('schema')!r}, expected {SCHEMA!r}")
    try:
        symbols = tuple(Symbol(s["name"], int(s["lower"])) for s in data["symbols"])
        names = tuple(s.name for s in symbols)
        guards = tuple(parse_poly(g, names, f"{where}: guard {i}") for i, g in enumerate(data["guards"]))
        size_args = tuple(
            SizeArg(a["name"], int(a["index"]), parse_size(a["expr"], names, f"{where}: size argument {a['name']}"),
                    a.get("wide_type", "i64"), bool(a.get("narrowed", True)))
            for a in data["size_args"]
        )
        sides = tuple(
            SideCondition(parse_poly(c["claim"], names, f"{where}: side condition {i}"), c["reason"], c["origin"])
            for i, c in enumerate(data["side_conditions"])
        )
        loads = tuple(
            Load(int(ld["ptr"]), Term.from_json(ld["offset"]), Term.from_json(ld["mask"]), ld.get("other", "0.0"))
            for ld in data["loads"]
        )
        st = data["store"]
        store = Store(int(st["ptr"]), Term.from_json(st["offset"]), Term.from_json(st["mask"]), Payload.from_json(st["value"]))
        return LeanInstance(
            kernel=data["kernel"], program=data["program"], hash=data["hash"], symbols=symbols, guards=guards,
            size_args=size_args, side_conditions=sides, loads=loads, store=store, mode=data.get("mode", "observable"),
            source=data.get("source", where), notes=tuple(data.get("notes", ())),
            rules=tuple((Term.from_json(r["term"]), str(r["rule"])) for r in data.get("rules", ())),
            splits=tuple((Term.from_json(x["term"]), tuple(Term.from_json(u) for u in x["on"]))
                         for x in data.get("splits", ())),
        )
    except KeyError as exc:
        raise InstanceError(f"{where}: missing field {exc.args[0]!r} (see workbench/lean/instance.py for the schema)") from exc


def load_instance(path: Path) -> LeanInstance:
    try:
        data = json.loads(Path(path).read_text())
    except json.JSONDecodeError as exc:
        raise InstanceError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})") from exc
    return from_json(data, str(path))
