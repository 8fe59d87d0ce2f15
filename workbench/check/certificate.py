"""Certificates: the search's choices for one kernel, bound to the kernel's IR hash and the premises used.

Stage: check. A :class:`Certificate` is frozen and JSON-serialisable (only strings, ints and tuples of
them). It is what the Lean emitter (``workbench.lean``) and the compiler rule (``workbench.rule``) consume:
the rule binds it to a live compilation by ``ir_hash`` and by the premises (size expressions, symbol lower
bounds, guards used, index dtype, grid type, and the ``tl.device_assert`` premises on the inputs: which
value, which bounds in the shape symbols, under which mask, :class:`AssertPremise`); the checker re-derives every interval from ``choices`` and
``multipliers`` (:func:`workbench.check.api.check_certificate`), so a certificate cannot assert a bound.

``side_conditions`` records the recomputed conditions with status and prover as of issuing; they are a
report, not an input: re-checking recomputes them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from workbench.check.errors import CertificateError

SCHEMA = "workbench.certificate/1"
KERNEL_TERM = "kernel:"  # an assert bound that is no expression in the shape symbols: its IR term, verbatim


@dataclass(frozen=True, slots=True)
class AssertPremise:
    """One ``tl.device_assert`` on a loaded index, read as a premise about the inputs (Triton compiles the
    assert away, so it is assumed, never checked): wherever ``mask`` holds, ``lower <= value < upper``.

    ``value`` and ``mask`` are IR terms in kernel names (``workbench.check.asserts.term``; ``mask`` is
    ``"true"`` for an unmasked assert); ``lower``/``upper`` are expressions in the shape symbols (sympy text,
    compared up to renaming) or ``kernel:<IR term>``, ``None`` when the assert states no such bound; ``name``
    and ``where`` are the asserted name and the mask's name as the kernel spells them (for reports)."""

    name: str
    value: str
    lower: str | None
    upper: str | None
    mask: str
    where: str
    line: int

    FIELDS = ("name", "value", "lower", "upper", "mask", "where", "line")

    def text(self) -> str:
        lo, hi = (b[len(KERNEL_TERM):] if b and b.startswith(KERNEL_TERM) else b for b in (self.lower, self.upper))
        bound = f"{lo} <= {self.name} < {hi}" if lo and hi else f"{lo} <= {self.name}" if lo else f"{self.name} < {hi}"
        return f"{bound}{f' where {self.where}' if self.where else ''} (device_assert at line {self.line})"

    def to_json(self) -> dict[str, Any]:
        return {f: getattr(self, f) for f in self.FIELDS}

    @classmethod
    def from_json(cls, d: Any, where: str) -> AssertPremise:
        """Validated: exactly the fields above, each of its type; at least one bound; each bound parses as an
        expression in the shape symbols (by the restricted parser, never evaluated) or is an IR term."""
        if not isinstance(d, dict) or set(d) != set(cls.FIELDS):
            got = sorted(d) if isinstance(d, dict) else type(d).__name__
            raise CertificateError(f"{where}: a device_assert premise has the fields {list(cls.FIELDS)}, got {got}", where)
        for f in ("name", "value", "mask", "where"):
            if not isinstance(d[f], str) or (f in ("value", "mask") and not d[f]):
                raise CertificateError(f"{where}: device_assert premise field {f!r} must be a (non-empty) string, "
                                       f"got {d[f]!r}", where)
        if not isinstance(d["line"], int) or isinstance(d["line"], bool) or d["line"] < 0:
            raise CertificateError(f"{where}: device_assert premise line must be a line number, got {d['line']!r}", where)
        if d["lower"] is None and d["upper"] is None:
            raise CertificateError(f"{where}: a device_assert premise states no bound; drop it or give lower/upper", where)
        for f in ("lower", "upper"):
            _check_bound(d[f], f"{where}: device_assert premise {f}")
        return cls(**{f: d[f] for f in cls.FIELDS})


def _check_bound(b: Any, where: str) -> None:
    if b is None or (isinstance(b, str) and b.startswith(KERNEL_TERM) and len(b) > len(KERNEL_TERM)):
        return
    if not isinstance(b, str):
        raise CertificateError(f"{where} must be an expression in the shape symbols, an IR term or null, got {b!r}", where)
    from workbench.errors import InputError
    from workbench.symexpr import parse_any

    try:
        parsed = parse_any(b, where=where)
    except InputError as exc:
        raise CertificateError(f"{where}: {b!r} is not an expression in the shape symbols ({exc})", where) from None
    import sympy

    if isinstance(parsed, (sympy.core.relational.Relational, sympy.logic.boolalg.BooleanFunction)) and \
            not isinstance(parsed, sympy.Symbol):
        raise CertificateError(f"{where}: {b!r} is a comparison, expected an expression", where)


def _list(x: Any) -> list:
    if not isinstance(x, list):
        raise CertificateError(f"premises.asserts must be a list, got {type(x).__name__}", "premises.asserts")
    return x


@dataclass(frozen=True, slots=True)
class CertPremises:
    """The premises a certificate relies on (the compiler rule compares them with the live compilation)."""

    size_args: tuple[tuple[str, str, str], ...]  # (name, expression in shape symbols, declared type)
    numels: tuple[tuple[str, str, str], ...]  # (name, expression, declared type)
    lower_bounds: tuple[tuple[str, int], ...]  # shape symbol -> lower bound assumed
    guards_used: tuple[str, ...]  # the guards (verbatim) some multiplier uses
    guards: tuple[str, ...]  # every guard that was available
    index_dtype: str
    grid_type: str
    asserts: tuple[AssertPremise, ...] = ()  # the tl.device_assert premises on the inputs (source order)

    def to_json(self) -> dict[str, Any]:
        return {
            "size_args": [list(x) for x in self.size_args],
            "numels": [list(x) for x in self.numels],
            "lower_bounds": dict(self.lower_bounds),
            "guards_used": list(self.guards_used),
            "guards": list(self.guards),
            "index_dtype": self.index_dtype,
            "grid_type": self.grid_type,
            "asserts": [a.to_json() for a in self.asserts],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CertPremises:
        return cls(
            size_args=tuple(tuple(x) for x in d["size_args"]),
            numels=tuple(tuple(x) for x in d["numels"]),
            lower_bounds=tuple(sorted((k, int(v)) for k, v in d["lower_bounds"].items())),
            guards_used=tuple(d["guards_used"]),
            guards=tuple(d["guards"]),
            index_dtype=d["index_dtype"],
            grid_type=d["grid_type"],
            # Certificates issued before the field existed state no premise: a live kernel with an assert then
            # fails the rule's premise comparison (never the other way round).
            asserts=tuple(AssertPremise.from_json(a, f"premises.asserts[{i}]") for i, a in enumerate(_list(d.get("asserts", [])))),
        )


@dataclass(frozen=True, slots=True)
class Certificate:
    kernel: str
    program: str
    ir_hash: str  # kir.canonical_hash of the parsed kernel (facts included)
    mode: str  # "strict" | "observable" | "partial"
    premises: CertPremises
    narrowed: tuple[str, ...]  # size arguments declared int32 (N modes); partial: node keys of P's sites
    choices: tuple[tuple[str, str], ...]  # choice key -> option (quotient/remainder rule, and order, access)
    multipliers: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]  # side-condition key -> ((fact, lambda),)
    side_conditions: tuple[tuple[str, str, str, str, str], ...]  # (key, claim, reason, status, prover)
    verdict: str  # "certified" | "refused"
    reason: str
    widths: tuple[int, int] = (32, 64)
    schema: str = field(default=SCHEMA)

    @property
    def certified(self) -> bool:
        return self.verdict == "certified"

    def choice_map(self) -> dict[str, str]:
        return dict(self.choices)

    def multiplier_map(self) -> dict[str, tuple[tuple[str, Fraction], ...]]:
        return {k: tuple((f, Fraction(v)) for f, v in m) for k, m in self.multipliers}

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": self.schema,
            "kernel": self.kernel,
            "program": self.program,
            "ir_hash": self.ir_hash,
            "mode": self.mode,
            "premises": self.premises.to_json(),
            "narrowed": list(self.narrowed),
            "choices": dict(self.choices),
            "multipliers": {k: [list(x) for x in m] for k, m in self.multipliers},
            "side_conditions": [
                dict(zip(("key", "claim", "reason", "status", "prover"), sc)) for sc in self.side_conditions
            ],
            "verdict": self.verdict,
            "reason": self.reason,
            "widths": list(self.widths),
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, sort_keys=True)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Certificate:
        if not isinstance(d, dict) or d.get("schema") != SCHEMA:
            raise CertificateError(f"not a certificate (schema {d.get('schema') if isinstance(d, dict) else d!r}, "
                                   f"expected {SCHEMA!r})", "schema")
        try:
            return cls(
                kernel=d["kernel"],
                program=d["program"],
                ir_hash=d["ir_hash"],
                mode=d["mode"],
                premises=CertPremises.from_json(d["premises"]),
                narrowed=tuple(d["narrowed"]),
                choices=tuple(sorted(d["choices"].items())),
                multipliers=tuple(sorted((k, tuple(tuple(x) for x in m)) for k, m in d["multipliers"].items())),
                side_conditions=tuple(
                    (s["key"], s["claim"], s["reason"], s["status"], s["prover"]) for s in d["side_conditions"]
                ),
                verdict=d["verdict"],
                reason=d["reason"],
                widths=tuple(d.get("widths", (32, 64))),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise CertificateError(f"certificate is missing or has a malformed field ({exc})", str(exc)) from None

    @classmethod
    def loads(cls, text: str) -> Certificate:
        from workbench.jsonfile import DuplicateKey, loads_strict

        try:
            data = loads_strict(text)
        except DuplicateKey as exc:
            raise CertificateError(f"certificate has the key {exc.key!r} twice in one object; keep one",
                                   exc.key) from None
        return cls.from_json(data)
