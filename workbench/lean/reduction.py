"""Reduction kernels as the Lean side sees them (stage: prove; pure data, no Lean).

``RKernelTerms`` mirrors ``Narrowing.RKernel`` of ``lean/Narrowing/Reduction.lean``: loads and stores,
each with the loop it sits in (``0`` outside every loop, ``1, 2, ...`` in source order), the loop-carried
accumulators (``RCarry``: ``init`` before the loop, ``update`` after one step, in terms of
``PayloadOp.ACC`` leaves), and the number of loops (``0``: a persistent ``triton_per_*`` kernel). Index
terms are ``workbench.lean.instance.Term`` (``TermOp.LOOP_OFFSET`` is ``r0_offset``, block 2 is
``R0_BLOCK``); values are ``Payload`` with ``acc``, ``reduce`` and ``scan``.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.lean.instance import Load, Payload, PayloadOp, Store

R_BLOCK = 2  # block number of R0_BLOCK in Narrowing.Lane (pos 2, block 2)


@dataclass(frozen=True, slots=True)
class RLoad:
    load: Load
    loop: int  # 0: outside every loop


@dataclass(frozen=True, slots=True)
class RStore:
    store: Store
    loop: int


@dataclass(frozen=True, slots=True)
class RCarry:
    """Accumulator of loop ``loop``: ``init`` before it, ``update`` after one step (``acc`` leaves: before)."""

    loop: int
    init: Payload
    update: Payload


@dataclass(frozen=True, slots=True)
class RKernelTerms:
    loops: int
    loads: tuple[RLoad, ...]
    stores: tuple[RStore, ...]
    carries: tuple[RCarry, ...]
    static_block: int | None = None  # R0_BLOCK fixed by the kernel (`R0_BLOCK: tl.constexpr = 64`)


def acc(i: int) -> Payload:
    """``Narrowing.RPayload.acc i``: carry ``i``'s value before the step."""
    return Payload(PayloadOp.ACC, index=i)


def reduce(f: str, a: Payload) -> Payload:
    """``Narrowing.RPayload.reduce f a``: ``a`` over every r position of the row, combined by ``f``."""
    return Payload(PayloadOp.REDUCE, (a,), name=f)


def scan(f: str, a: Payload) -> Payload:
    """``Narrowing.RPayload.scan f a``: at r position ``r``, ``a`` over the row's positions ``r' <= r``, combined
    by ``f`` (``tl.associative_scan`` with a pure combine helper)."""
    return Payload(PayloadOp.SCAN, (a,), name=f)


__all__ = ["R_BLOCK", "RCarry", "RKernelTerms", "RLoad", "RStore", "acc", "reduce", "scan"]
