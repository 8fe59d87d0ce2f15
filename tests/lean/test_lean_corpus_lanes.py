"""The trusted step, tested across the corpus: for every stored certificate, at shapes Inductor compiles for
(guards hold, some symbol pushed to its limit) and at sampled lanes (block, row and tail boundaries), the
Lean premise ``Kernel.Safe`` holds and both widths observe the same loads and store (Python mirror). 2-D kernels
(``Grid2DWithYZOverflow``) are sampled the same way along each axis: ``x`` over ``program_id(0) * XBLOCK + i``
and ``y`` over ``(program_id(1) + program_id(2) * num_programs(1)) * YBLOCK + j``, at the boundaries of
``xnumel``/``ynumel``, of the launched grid and of every size argument, and at random positions."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

pytest.importorskip("workbench.check.certificate")

from workbench import kir  # noqa: E402
from workbench.capture.record import load as load_record  # noqa: E402
from workbench.check.api import premises_for  # noqa: E402
from workbench.check.discharge import guards_hold  # noqa: E402
from workbench.lean.adapter import from_certificate, record_path  # noqa: E402
from workbench.lean.from_kir import kernel_terms  # noqa: E402
from workbench.lean.model import NARROW, WIDE, Lane, observe, safe  # noqa: E402

CERTS = sorted((Path(__file__).parent / "golden" / "certificates").glob("*.json"))


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


@pytest.mark.parametrize("cert", CERTS, ids=lambda p: p.stem)
def test_lean_corpus_safe_on_sampled_lanes(cert):
    data = json.loads(cert.read_text())
    rec = load_record(record_path(data["program"], data["kernel"]))
    inst = from_certificate(data, cert.name, record=rec, verify_hash=False)
    k = kir.parse(rec)
    terms = kernel_terms(k)
    premises = premises_for(rec)
    rng = random.Random(cert.stem)
    lanes = 0
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
            assert safe(lane, inst), (cert.stem, sizes, lane)
            assert observe(WIDE, lane, inst) == observe(NARROW, lane, inst), (cert.stem, sizes, lane)
            lanes += 1
    assert lanes > 0


def test_lean_corpus_lanes_cover_2d_kernels():
    """The 2-D kernels are among the stored certificates, so the test above samples (x, y) lanes for them."""
    programs = set()
    for cert in CERTS:
        data = json.loads(cert.read_text())
        if kir.parse(load_record(record_path(data["program"], data["kernel"]))).grid == "2d":
            programs.add(data["program"])
    assert {"movedim", "permute_3d", "transpose_contig", "pixel_shuffle_like"} <= programs
