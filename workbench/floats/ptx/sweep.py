"""Exhaustive comparison of a spec with PTX element functions over all 2**32 float32 inputs
(stage: floats/ptx).

The same cut as the source level's ``workbench.floats.sweep`` (tasks of 2**24 patterns, chunks of 2**18,
``workers`` spawned processes that import numpy and the IRs only), the same comparison (``sweep.same``) and
the same witnesses (the smallest mismatching pattern of each signed float class). The spec is evaluated
with the source level's host semantics (``workbench.floats.evaluate``), each PTX function with
``ptx.evaluate``.
"""

from __future__ import annotations

import multiprocessing as mp

import numpy as np

from workbench.floats.evaluate import HOST, Program
from workbench.floats.ir import Node
from workbench.floats.ptx.evaluate import evaluate_many
from workbench.floats.ptx.execute import Expr
from workbench.floats.sweep import CLASSES, CHUNK, TASK, TOTAL, SweepResult, _same_bits, same

_JOB: dict = {}


def _init(spec: Node, fns: tuple[Expr, ...], nan: str) -> None:
    # the spec compiled once per worker (``evaluate.Program``, as the source level's sweep does): a chunk then
    # pays no tree walk or structural hashing of the spec's frozen nodes
    _JOB.update(spec=Program((spec,)), fns=fns, nan=nan, base=np.arange(CHUNK, dtype=np.uint32))


def _classes(bits: np.ndarray) -> np.ndarray:
    """Index into ``CLASSES`` ("+nan", ..., "-normal") of each pattern."""
    e = (bits >> np.uint32(23)) & np.uint32(0xFF)
    m = bits & np.uint32(0x7FFFFF)
    base = np.where(e == 0xFF, np.where(m != 0, 0, 2), np.where(e == 0, np.where(m != 0, 3, 1), 4))
    return base + 5 * (bits >> np.uint32(31)).astype(np.int64)


def _run(start: int):
    spec, fns, nan, base = _JOB["spec"], _JOB["fns"], _JOB["nan"], _JOB["base"]
    counts = [0] * len(fns)
    mins = [dict() for _ in fns]
    eq = np.empty(CHUNK, dtype=np.bool_)
    for lo in range(start, start + TASK, CHUNK):
        bits = base + np.uint32(lo)
        want = np.asarray(spec.run({0: bits.view(np.float32)}, HOST)[0], np.float32)
        want = np.broadcast_to(want, bits.shape)
        for i, got_bits in enumerate(evaluate_many(fns, [bits])):
            got = np.broadcast_to(np.asarray(got_bits), bits.shape).view(np.float32)
            # the source level's fast path first: all bits equal (a broadcast value compared once); the
            # NaN-aware comparison only for chunks that differ somewhere
            if _same_bits(got, want, eq):
                continue
            got = np.ascontiguousarray(got)
            bad = ~same(got, np.ascontiguousarray(want), nan)
            c = int(np.count_nonzero(bad))
            if not c:
                continue
            counts[i] += c
            bb = bits[bad]
            cls = _classes(bb)
            for k in np.unique(cls):
                name = CLASSES[int(k)]
                v = int(bb[cls == k].min())
                mins[i][name] = min(v, mins[i].get(name, v))
    return counts, mins


def sweep_ptx(spec: Node, fns: tuple[Expr, ...], nan: str = "any", workers: int = 2, progress: bool = True,
              desc: str = "ptx sweep") -> list[SweepResult]:
    from tqdm import tqdm

    counts = [0] * len(fns)
    mins: list[dict] = [dict() for _ in fns]
    bar = tqdm(total=TOTAL, unit="in", unit_scale=True, desc=desc, disable=not progress, mininterval=0.5)

    def absorb(res):
        c, m = res
        for i in range(len(fns)):
            counts[i] += c[i]
            for k, v in m[i].items():
                mins[i][k] = min(v, mins[i].get(k, v))
        bar.update(TASK)

    starts = list(range(0, TOTAL, TASK))
    if workers <= 1:
        _init(spec, fns, nan)
        for s in starts:
            absorb(_run(s))
    else:
        with mp.get_context("spawn").Pool(workers, initializer=_init, initargs=(spec, fns, nan)) as pool:
            for res in pool.imap_unordered(_run, starts):
                absorb(res)
    bar.close()
    return [SweepResult(counts[i], tuple((k, mins[i][k]) for k in CLASSES if k in mins[i]), TOTAL)
            for i in range(len(fns))]
