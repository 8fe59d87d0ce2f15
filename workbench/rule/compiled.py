"""What the rule compiles: the one function that turns a bound certificate into module text, for every mode.

Stage: rule. Input: a kernel record (the live one at compile time, or a stored record for ``rule show``,
the oracle and the timing variants) and what its certificate narrows. Output: the module text Triton
compiles, validated against the certificate, or :class:`CompileRefused`.

* **N modes** (strict, observable): the certified size arguments declared ``i32`` in the module's
  ``triton_meta`` signature; nothing else changes. Validated: the new text differs from the emitted one only in
  those declared types (re-typing them back gives the emitted text byte for byte), and kir parses it under the
  new signature (Triton's promotion re-derived; a body that does not type-check is refused). Known gap, stated
  in docs/rule.md: kir's N model (``kir.instantiate``) drops explicit casts that are no-ops at the emitted widths
  (``(x0).to(tl.int64)`` with ``x0`` already int64), so the compiled N1 computes some values in int64 that the
  model computes in int32; the compiled kernel is then *wider* than the model at those nodes, which can only
  keep more bits, and the checker requires the model's values to be exact or low-bits-equal where they matter.
  The IR equality that P's validation gives is not claimed for N1.
* **partial**: P's text from :mod:`workbench.rule.partial` (exactly the certificate's sites, by IR node),
  validated by IR equality with the certified P (translation validation).

``compiled_module(record, mode, narrow)`` is what ``narrowing()`` hands Inductor, what ``rule show`` reports,
what ``workbench oracle --rule`` executes and what the timing variants compile.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from workbench.errors import UnsupportedError

__all__ = ["CompileRefused", "compiled_module", "compiled_record"]

N_MODES = ("strict", "observable")


class CompileRefused(UnsupportedError):
    """The text the rule would compile cannot be shown to be the certified kernel; the rule compiles the
    emitted kernel instead."""


def compiled_module(record: Any, mode: str, narrow: tuple[str, ...], module: str | None = None) -> str:
    """The module text the rule compiles for ``record`` under a ``mode`` certificate narrowing ``narrow``.
    ``module`` is the text Inductor is about to define (its kernel name may still be Inductor's placeholder;
    default ``record.source``); the validation runs on ``record``'s version of the same edit."""
    module = record.source if module is None else module
    if mode == "partial":
        from workbench.rule.partial import PartialError, rewrite_module

        try:
            return rewrite_module(module, record, tuple(narrow))
        except PartialError as exc:
            raise CompileRefused(str(exc)) from None
    if mode not in N_MODES:
        raise CompileRefused(f"unknown mode {mode!r}")
    types = {a: "i32" for a in narrow}
    _validate_narrowed(record, types)
    from workbench.capture.integration import retype_signature

    return retype_signature(module, types)


def compiled_record(record: Any, mode: str, narrow: tuple[str, ...]) -> Any:
    """``record`` as the rule compiles it (its module text and declared signature), validated."""
    text = compiled_module(record, mode, narrow)
    sig = dict(record.signature)
    if mode in N_MODES:
        sig.update({a: "i32" for a in narrow})
    return replace(record, source=text, signature=sig)


def _validate_narrowed(record: Any, types: dict[str, str]) -> None:
    from workbench import kir
    from workbench.capture.integration import retype_signature
    from workbench.errors import WorkbenchError

    sig = dict(record.signature)
    bad = [a for a in types if sig.get(a) != "i64"]
    if bad:
        raise CompileRefused(f"kernel {record.name}: {bad} are not declared i64 in the emitted signature")
    try:
        text = retype_signature(record.source, types)
        back = retype_signature(text, {a: sig[a] for a in types})
    except WorkbenchError as exc:
        raise CompileRefused(f"kernel {record.name}: cannot retype the signature ({exc})") from None
    if back != record.source:
        raise CompileRefused(f"kernel {record.name}: retyping {sorted(types)} changed more than their declared types")
    try:
        kir.parse(replace(record, source=text, signature={**sig, **types}), check_versions=False)
    except WorkbenchError as exc:
        raise CompileRefused(f"kernel {record.name}: the narrowed text does not type-check in the IR ({exc})") from None


TEXTS_SCHEMA = "workbench.rule-texts/1"


def rule_texts(records, modes: tuple[str, ...] = ("strict", "observable", "partial"), step=None) -> dict:
    """The ``workbench.rule-texts/1`` document: for every record and mode the checker certifies, the module text
    the rule compiles (validated) — what ``workbench oracle --texts`` runs. Refused texts are listed apart with
    the reason (the rule would compile the emitted kernel there)."""
    from workbench.check.api import check_kernel

    texts, refused = [], []
    for rec in records:
        for mode in modes:
            v = check_kernel(rec, mode, counterexample=False)
            if step is not None:
                step(1)
            if not v.certified:
                continue
            narrow = tuple(v.certificate.narrowed)
            try:
                text = compiled_module(rec, mode, narrow)
            except CompileRefused as exc:
                refused.append({"program": rec.program, "kernel": rec.name, "mode": mode, "reason": str(exc)})
                continue
            texts.append({"program": rec.program, "kernel": rec.name, "mode": mode, "narrowed": list(narrow),
                          "text": text})
    return {"schema": TEXTS_SCHEMA, "texts": texts, "refused": refused}
