"""The trusted step, tested across the corpus: for every stored certificate, at shapes Inductor compiles for
(guards hold, some symbol pushed to its limit) and at sampled lanes (block, row and tail boundaries), the
Lean premise ``Kernel.Safe`` holds and both widths observe the same loads and store (Python mirror); for
reductions ``RKernel.Safe`` on rows and loop steps; for indirect kernels on every lane whose index tensors
satisfy the device_assert premise (``Asserts L``), with contents both inside and outside the bounds. 2-D kernels
(``Grid2DWithYZOverflow``) are sampled the same way along each axis: ``x`` over ``program_id(0) * XBLOCK + i``
and ``y`` over ``(program_id(1) + program_id(2) * num_programs(1)) * YBLOCK + j``, at the boundaries of
``xnumel``/``ynumel``, of the launched grid and of every size argument, and at random positions. The zoo
kernels kept for the checker's newer constructs (``tests/lean/data/zoo``: dead branches, floors, a scan, T5's
integer abs and float-computed bucket under a device_assert) are sampled the same way."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

import workbench.check.certificate  # noqa: E402,F401 - an import error fails, never skips

from workbench import kir  # noqa: E402
from workbench.capture.record import load as load_record  # noqa: E402
from workbench.check.api import premises_for  # noqa: E402
from workbench.check.discharge import guards_hold  # noqa: E402
from workbench.lean.adapter import from_certificate, record_path  # noqa: E402
from workbench.lean.from_kir import kernel_terms  # noqa: E402
from workbench.lean.emit import term_roots  # noqa: E402
from workbench.lean.instance import assumes_in  # noqa: E402
from workbench.lean.model import NARROW, WIDE, Lane, asserts, evaluate, observe, safe  # noqa: E402

HERE = Path(__file__).parent
CERTS = sorted((HERE / "golden" / "certificates").glob("*.json"))
ZOO_CERTS = sorted((HERE / "golden" / "zoo" / "certificates").glob("*.json"))


def _record(cert: Path, data: dict):
    if cert.parent.parent.name == "zoo":
        return load_record(HERE / "data" / "zoo" / f"{data['kernel']}.json")
    return load_record(record_path(data["program"], data["kernel"]))


def _shapes(rec, premises):
    lows = {s: lo for s, lo in premises.lower if not s.startswith("_")}
    yield dict(lows)
    for n in sorted(lows):
        lo, hi = lows[n], 2**34
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if guards_hold(premises, {**lows, n: mid})[0]:
                lo = mid
            else:
                hi = mid - 1
        if lo > lows[n]:
            yield {**lows, n: lo}
            yield {**lows, n: max(lows[n], lo // 7)}


def _picks(numel, last, values, rng):
    """Element indices along one axis: numel and grid boundaries, size-argument boundaries, random ones."""
    picks = {0, numel - 1, numel, last, min(last, 2**31 - 1)} | {rng.randrange(last + 1) for _ in range(12)}
    for v in values:
        picks |= {v - 1, v, v + 1, numel - v}
    return sorted(p for p in picks if 0 <= p <= last)


def lanes_2d(ln, values, rng):
    """Model lanes of a 2-D launch. Every x pick against every y pick would be large, so each x pick meets the
    y boundaries (first, ynumel - 1, ynumel, last) and one random y, and each y pick the same along x."""
    args, blocks = dict(ln.args), dict(ln.blocks)
    xb, yb = blocks["XBLOCK"], blocks["YBLOCK"]
    gx, gy, gz = ln.grid
    xnumel, ynumel = args.get("xnumel", 1), args.get("ynumel", 1)
    xs = _picks(xnumel, gx * xb - 1, values, rng)
    ys = _picks(ynumel, gy * gz * yb - 1, values, rng)

    def edges(picks, numel):
        return {picks[0], picks[-1], rng.choice(picks)} | {p for p in picks if p in (numel - 1, numel)}

    pairs = {(x, y) for x in xs for y in edges(ys, ynumel)} | {(x, y) for y in ys for x in edges(xs, xnumel)}
    for x, y in sorted(pairs):
        yblk = y // yb  # = program_id(1) + program_id(2) * num_programs(1)
        yield Lane.xy((x // xb, yblk % gy, yblk // gy), ln.grid, (x % xb, y % yb), (xb, yb), values)


def _memories(lane, inst):
    """The lane with index tensors holding each candidate index (every cell the same value): the asserted
    bounds' ends and middle, and values outside them. Yields ``(lane, premise holds)``."""
    assumes = assumes_in(term_roots(inst))
    if not assumes:
        yield lane, True
        return
    cands = {0, -1, 2**40}
    for t in assumes:
        lo, hi = (evaluate(WIDE, lane, b) for b in t.args[2:])
        cands |= {lo, hi - 1, (lo + hi) // 2, hi, -hi, lo - 1}
    for c in sorted(cands):
        with_mem = dataclasses.replace(lane, mem=lambda p, a, c=c: c)
        yield with_mem, asserts(with_mem, inst)


def _pointwise(cert, k, rec, inst, terms, premises, rng):
    lanes = held = broken = 0
    for sizes in _shapes(rec, premises):
        ln = kir.launch(k, sizes)
        args = dict(ln.args)
        values = tuple(args[n] for n in terms.scalars)
        if k.grid == "2d":
            sampled = list(lanes_2d(ln, values, rng))
        else:
            xblock = dict(ln.blocks)["XBLOCK"]
            picks = _picks(args.get("xnumel", 1), ln.grid[0] * xblock - 1, values, rng)
            sampled = [Lane.x(x // xblock, x % xblock, xblock, values, ln.grid[0]) for x in picks]
        for lane in sampled:
            for mem_lane, premise in _memories(lane, inst):
                if not premise:  # the inputs break a device_assert premise: the theorem says nothing there
                    broken += 1
                    continue
                assert safe(mem_lane, inst), (cert.stem, sizes, mem_lane)
                assert observe(WIDE, mem_lane, inst) == observe(NARROW, mem_lane, inst), (cert.stem, sizes, mem_lane)
                held += 1
            lanes += 1
    assert lanes > 0 and held > 0
    if assumes_in(term_roots(inst)):
        assert broken > 0  # the candidates include indices outside the asserted bounds (the premise is not trivial)


def _reduction(cert, k, rec, inst, terms, premises, rng):
    """``RKernel.Safe`` and equal observations on the first, last and a random x lane of each shape, over a row
    of r positions (first, second, last) and the first and last loop steps."""
    from workbench.lean.rmodel import observe as robserve, safe as rsafe

    from workbench.lean.rmodel import asserts as rasserts

    rk, narrowed = terms.reduction, frozenset(terms.narrowed)
    checked = broken = 0
    premised = bool(assumes_in(term_roots(inst)))
    # Index tensors and float computations (every cell, every value the same): inside and outside the bounds.
    worlds = [(c, f) for c in (0, 1, 31, 32, -1, 2**40) for f in (0, 20, -100, 2**40)] if premised else [(0, 0)]
    for sizes in _shapes(rec, premises):
        ln = kir.launch(k, sizes)
        args = dict(ln.args)
        values = tuple(args.get(n, 0) for n in terms.scalars)
        xb, rb = dict(ln.blocks)["XBLOCK"], dict(ln.blocks)["R0_BLOCK"]
        numel = args.get("r0_numel", k.reduction.static_numel)
        steps = max(1, -(-numel // rb)) if k.reduction.loops else 1
        js, rs = sorted({0, steps - 1}), sorted({0, 1, rb - 1})
        x_last = ln.grid[0] * xb - 1
        for x in sorted({0, x_last, rng.randrange(x_last + 1)}):
            for c, f in worlds:
                lane = Lane((x // xb, 0, 0), (ln.grid[0], 1, 1), (x % xb, 0, 0), (xb, 1, rb), values,
                            mem=lambda p, a, c=c: c, fn=lambda name, v, f=f: f)
                if not rasserts(rk, lane, rs, js):  # the inputs break a device_assert premise: nothing is claimed
                    broken += 1
                    continue
                assert rsafe(rk, narrowed, lane, rs, js), (cert.stem, sizes, x, c, f)
                assert robserve(rk, WIDE, lane, rs, js) == robserve(rk, (NARROW, narrowed), lane, rs, js), \
                    (cert.stem, sizes, x, c, f)
                checked += 1
    assert checked > 0
    if premised:
        assert broken > 0  # some candidate inputs break the premise (it is not trivially true)


@pytest.mark.parametrize("cert", CERTS + ZOO_CERTS, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_lean_corpus_safe_on_sampled_lanes(cert):
    """Every stored certificate (corpus and zoo): pointwise kernels (1-D and 2-D, indirect ones with index
    tensors holding indices inside and outside the asserted bounds) and reductions (rows and steps,
    ``workbench.lean.rmodel``; with a device_assert, index tensors and float computations inside and outside
    the asserted bounds)."""
    data = json.loads(cert.read_text())
    rec = _record(cert, data)
    inst = from_certificate(data, cert.name, record=rec, verify_hash=False)
    k = kir.parse(rec)
    terms = kernel_terms(k)
    premises = premises_for(rec)
    rng = random.Random(cert.stem)
    check = _reduction if inst.reduction is not None else _pointwise
    check(cert, k, rec, inst, terms, premises, rng)


def test_lean_corpus_lanes_cover_2d_kernels():
    """The 2-D kernels are among the stored certificates, so the test above samples (x, y) lanes for them."""
    programs = set()
    for cert in CERTS:
        data = json.loads(cert.read_text())
        if kir.parse(load_record(record_path(data["program"], data["kernel"]))).grid == "2d":
            programs.add(data["program"])
    assert {"movedim", "permute_3d", "transpose_contig", "pixel_shuffle_like"} <= programs
