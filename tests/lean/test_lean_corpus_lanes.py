"""The trusted step, tested across the corpus: for every stored certificate, at shapes Inductor compiles for
(guards hold, some symbol pushed to its limit) and at sampled lanes (block, row and tail boundaries), the
Lean premise ``Kernel.Safe`` holds and both widths observe the same loads and store (Python mirror)."""

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
        xblock = dict(ln.blocks)["XBLOCK"]
        numel = args.get("xnumel", 1)
        last = ln.grid[0] * xblock - 1
        picks = {0, numel - 1, numel, last, min(last, 2**31 - 1)} | {rng.randrange(last + 1) for _ in range(12)}
        for v in values:
            picks |= {v - 1, v, v + 1, numel - v}
        for x in sorted(p for p in picks if 0 <= p <= last):
            lane = Lane(x // xblock, x % xblock, xblock, values)
            assert safe(lane, inst), (cert.stem, sizes, x)
            assert observe(WIDE, lane, inst) == observe(NARROW, lane, inst), (cert.stem, sizes, x)
            lanes += 1
    assert lanes > 0
