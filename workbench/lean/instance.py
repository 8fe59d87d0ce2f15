"""The emitter's input: one certified kernel, as the Lean side needs it (stage: prove; pure data, no Lean).

``LeanInstance`` is a frozen description of a narrowing certificate: the kernel's name and canonical hash,
shape symbols with lower bounds, guards (polynomials ``>= 0``), size arguments with their symbolic
expressions, side conditions (polynomials ``>= 0`` the checker emitted), and the kernel's loads and store
as small term trees whose ops mirror the constructors of ``Narrowing.Expr`` in ``lean/Narrowing/Expr.lean``
(and the integer ops of ``workbench.kir``). Until the checker's certificate format exists this is built by
hand (``workbench.lean.hand_built``) or read from our own JSON (``schema: workbench.lean_instance/1``);
``workbench.lean.adapter`` maps certificates onto it. The term and payload trees are ``workbench.lean.terms``
(re-exported here); this module adds the shape premises, the instance and its JSON form.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import sympy

from workbench.lean.errors import InstanceError
from workbench.lean.terms import (  # noqa: F401 - re-exported: the instance's term vocabulary lives in terms.py
    AXES,
    BINARY,
    BLOCKS,
    COMPARISONS,
    GRID_LEAVES,
    LEAVES,
    TYPES,
    Load,
    Payload,
    PayloadOp,
    Store,
    Term,
    TermOp,
    arange,
    assume,
    assumes_in,
    block,
    fconv,
    load_index,
    load_value,
    loop_offset,
    num_programs,
    pbin,
    pconst,
    program_id,
    pun,
    pwhere,
    size,
    strong,
    weak,
    where,
)

SCHEMA = "workbench.lean_instance/1"


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
        from workbench.jsonfile import loads

        data = loads(Path(path).read_text())  # with the readers' limits (workbench.jsonfile)
    except json.JSONDecodeError as exc:
        raise InstanceError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})") from exc
    return from_json(data, str(path))
