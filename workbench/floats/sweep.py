"""Exhaustive comparison of unary scalar functions over all 2**32 float32 bit patterns (stage: floats).

The input space is cut into tasks of 2**24 patterns, each evaluated in cache-sized chunks of 2**18
(``np.arange`` of uint32 viewed as float32), in ``workers`` processes (spawned: the workers import numpy and
the IR only, never torch). The parent shows a tqdm bar counting inputs and mismatches. For each candidate it
returns the exact mismatch count and the smallest mismatching bit pattern in each float class.

Comparison (``same``): "any" NaN policy treats every NaN as equal to every NaN and compares all other
results bit for bit (so +0.0 != -0.0); "payload" compares all 32 bits.
"""

from __future__ import annotations

import multiprocessing as mp
from dataclasses import dataclass

import numpy as np

from workbench.floats.evaluate import HOST, Program, Semantics
from workbench.floats.ir import Node

TOTAL = 1 << 32
TASK = 1 << 24
CHUNK = 1 << 18
BASE_CLASSES = ("nan", "zero", "inf", "subnormal", "normal")
CLASSES = tuple(sign + k for sign in "+-" for k in BASE_CLASSES)  # witnesses: smallest per class and sign


def classify(bits: int) -> str:
    e = (bits >> 23) & 0xFF
    m = bits & 0x7FFFFF
    if e == 0xFF:
        return "nan" if m else "inf"
    if e == 0:
        return "subnormal" if m else "zero"
    return "normal"


def signed_class(bits: int) -> str:
    return ("-" if bits >> 31 else "+") + classify(bits)


def same(a, b, nan: str):
    ab, bb = a.view(np.uint32), b.view(np.uint32)
    eq = ab == bb
    if nan == "payload":
        return eq
    return eq | (np.isnan(a) & np.isnan(b))


@dataclass(frozen=True, slots=True)
class SweepResult:
    mismatches: int
    witnesses: tuple[tuple[str, int], ...]  # (class, smallest mismatching bits), in CLASSES order
    inputs: int


_JOB: dict = {}


def _init(spec: Node, fns: tuple[Node, ...], sem: Semantics, nan: str) -> None:
    # Compiled once per worker: a chunk then costs one pass of numpy calls over a flat step list.
    if sem == HOST:  # same semantics on both sides: share equal subtrees between spec and kernels
        progs = [(Program((spec, *fns), structural=True), HOST)]
    else:
        progs = [(Program((spec,)), HOST), (Program(fns, structural=True), sem)]
    _JOB.update(fns=fns, nan=nan, progs=progs, base=np.arange(CHUNK, dtype=np.uint32))


def _run(start: int) -> tuple[list[int], list[dict[str, int]]]:
    fns, nan, progs, base = _JOB["fns"], _JOB["nan"], _JOB["progs"], _JOB["base"]
    counts = [0] * len(fns)
    mins: list[dict[str, int]] = [{} for _ in fns]
    bits = np.empty(CHUNK, dtype=np.uint32)
    eq = np.empty(CHUNK, dtype=np.bool_)
    for lo in range(start, start + TASK, CHUNK):
        np.add(base, np.uint32(lo), out=bits)
        x = bits.view(np.float32)
        vals = [v for prog, sem in progs for v in prog.run({0: x}, sem)]
        want = np.asarray(vals[0], dtype=np.float32)
        for i, f in enumerate(fns):
            got = np.asarray(vals[i + 1], dtype=np.float32)
            if vals[i + 1] is vals[0] or _same_bits(got, want, eq):
                continue
            bad = ~same(got, want, nan)
            c = int(np.count_nonzero(bad))
            if not c:
                continue
            counts[i] += c
            # A chunk (2**18 < 2**23 patterns) lies inside one exponent field, so it is all normal numbers
            # unless its exponent is 0 (zero/subnormal) or 255 (inf/NaN); chunks ascend within a task, so the
            # first mismatch found for a class in this task is that task's smallest.
            e = (lo >> 23) & 0xFF
            sign = "-" if lo >> 31 else "+"  # a chunk never straddles the sign bit either
            if e not in (0, 0xFF):
                if sign + "normal" not in mins[i]:
                    mins[i][sign + "normal"] = int(bits[int(np.argmax(bad))])
                continue
            badbits = bits[bad]
            for k in BASE_CLASSES:
                if sign + k in mins[i]:
                    continue
                e_ = (badbits >> np.uint32(23)) & np.uint32(0xFF)
                m_ = badbits & np.uint32(0x7FFFFF)
                mask = {"nan": (e_ == 0xFF) & (m_ != 0), "inf": (e_ == 0xFF) & (m_ == 0),
                        "zero": (e_ == 0) & (m_ == 0), "subnormal": (e_ == 0) & (m_ != 0),
                        "normal": (e_ != 0) & (e_ != 0xFF)}[k]
                if mask.any():
                    mins[i][sign + k] = int(badbits[mask].min())
    return counts, mins


def _same_bits(a: np.ndarray, b: np.ndarray, buf: np.ndarray) -> bool:
    """All bits equal? Uniform chunks often leave both sides as broadcast views of one value (stride 0):
    compare that value once instead of the whole chunk."""
    ua, ub = a.view(np.uint32), b.view(np.uint32)
    if ua.strides == (0,) and ub.strides == (0,):
        return bool(ua[0] == ub[0])
    np.equal(ua, ub, out=buf)
    return bool(buf.all())


def sweep_unary(spec: Node, fns: tuple[Node, ...], sem: Semantics, nan: str = "any", workers: int = 2,
                progress: bool = True, desc: str = "sweep") -> list[SweepResult]:
    """Compare ``spec`` with each of ``fns`` (unary, ARG 0) on every float32 input."""
    from workbench import progress as progress_mod

    starts = list(range(0, TOTAL, TASK))
    counts = [0] * len(fns)
    mins: list[dict[str, int]] = [{} for _ in fns]
    bar = progress_mod.Counter(TOTAL, desc, "in", scale=True, enabled=progress)

    def absorb(res):
        c, m = res
        for i in range(len(fns)):
            counts[i] += c[i]
            for k, v in m[i].items():
                mins[i][k] = min(v, mins[i].get(k, v))
        bar.update(TASK)
        bar.note(f"mismatches={sum(counts):,}")

    if workers <= 1:
        _init(spec, fns, sem, nan)
        for s in starts:
            absorb(_run(s))
    else:
        ctx = mp.get_context("spawn")
        with ctx.Pool(workers, initializer=_init, initargs=(spec, fns, sem, nan)) as pool:
            for res in pool.imap_unordered(_run, starts):
                absorb(res)
    bar.close()
    return [SweepResult(counts[i], tuple((k, mins[i][k]) for k in CLASSES if k in mins[i]), TOTAL)
            for i in range(len(fns))]
