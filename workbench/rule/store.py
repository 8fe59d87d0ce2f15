"""The certificate store the rule binds against: every captured kernel record under ``data/kernels/``
checked in one mode (observable by default; strict; or partial, variant P) — the checker is deterministic
and fast, so certificates are recomputed once per process from the records and the current checker rather
than trusted from a file — indexed by the IR hash of the kernel body for a cached lookup. A partial
certificate's ``narrow`` names P's sites (``n<i>`` node keys), not size arguments."""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from pathlib import Path

from workbench.rule.binding import CertifiedKernel

MODES = ("strict", "observable", "partial")  # the checker's modes the rule can apply


def certified_from(record, mode: str = "observable") -> CertifiedKernel | None:
    from workbench import kir
    from workbench.check.api import check_kernel

    v = check_kernel(record, mode, counterexample=False)
    if not v.certified:
        return None
    cert = v.certificate
    return CertifiedKernel(
        record=record,
        ir_hash=kir.canonical_hash(kir.parse(record), facts=False),
        narrow=tuple(cert.narrowed),
        mode=mode,
        guards_used=tuple(cert.premises.guards_used),
        asserts=tuple(cert.premises.asserts),
    )


@lru_cache(maxsize=8)
def _load(root: str, mode: str) -> tuple[CertifiedKernel, ...]:
    from workbench.capture.record import load

    out = []
    for path in sorted(Path(root).glob("*/*.json")):
        c = certified_from(load(path), mode)
        if c is not None:
            out.append(c)
    return tuple(out)


def load(path: str | Path | None = None, mode: str = "observable") -> list[CertifiedKernel]:
    from workbench.errors import UsageError
    from workbench.paths import KERNELS

    if mode not in MODES:
        raise UsageError(f"unknown mode {mode!r}; use strict, observable or partial")
    return list(_load(str(Path(path) if path is not None else KERNELS), mode))


def index(store) -> dict[str, list[CertifiedKernel]]:
    by_hash: dict[str, list[CertifiedKernel]] = defaultdict(list)
    for c in store:
        by_hash[c.ir_hash].append(c)
    return dict(by_hash)
