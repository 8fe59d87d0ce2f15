"""The safety gate over the PTX's own address arithmetic (stage: floats/ptx).

A second view of what ``workbench.floats.gate`` decides from the CUDA source: here every address is what
nvcc's integer instructions computed (``mul.wide``, ``add.s64``, ``[%rd+16]``...), evaluated for every
thread of every launch in ``extract.SIZES``. Findings use the source gate's ``Finding``/``Safety`` types:

- out of bounds: a load or store touching an element outside ``[0, n)`` of its array (every array holds n
  elements, as in the source gate);
- misaligned: a byte offset that is not a multiple of the access size (4 for ``.f32``, 16 for ``.v4.f32``:
  PTX ISA §6.4 "Addresses as operands" requires natural alignment);
- overlap: two threads of one launch storing the same element;
- missing: an output element that no thread stores.

The claim is bounded by the enumeration: "safe for every n in 1..64, 127..129, 255..257, 1023..1025".
"""

from __future__ import annotations

import numpy as np

from workbench.floats.gate import Finding, Safety, findings_safety
from workbench.floats.ptx.extract import SIZES, Extraction

CHECKED = "every n in 1..64, 127..129, 255..257 and 1023..1025 (all threads of each launch, PTX addresses)"


def gate(x: Extraction) -> Safety:
    lanes = x.lanes
    found: dict[str, Finding] = {}
    failing: set[int] = set()

    def note(kind: str, i: int, arr: int, index: int, line: int, access: str, other: int | None = None):
        n = int(lanes.n[i])
        failing.add(n)
        f = Finding(kind, n, int(lanes.thread[i]), x.names[arr], index, line, other, access)
        if kind not in found or (n, f.thread) < (found[kind].n, found[kind].thread):
            found[kind] = f

    written: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (launch, element, thread) per store lane
    for a in x.accesses:
        m = a.mask
        for c in range(a.count):
            off = np.broadcast_to(a.offset, m.shape) + 4 * c
            idx = off // 4
            oob = m & ((off < 0) | (idx >= lanes.n))
            if oob.any():
                failing.update(int(v) for v in np.unique(lanes.n[oob]))
                i = int(np.flatnonzero(oob)[0])
                note("out of bounds", i, a.array, int(idx[i]), a.line, a.kind)
            if a.kind == "store":
                written.append((lanes.launch[m], idx[m], lanes.thread[m]))
        off0 = np.broadcast_to(a.offset, m.shape)
        mis = m & (off0 % (a.width * a.count) != 0)
        if mis.any():
            failing.update(int(v) for v in np.unique(lanes.n[mis]))
            i = int(np.flatnonzero(mis)[0])
            note("misaligned", i, a.array, int(off0[i] // 4), a.line, a.kind)
    if written and x.output >= 0:
        launch = np.concatenate([w[0] for w in written])
        elem = np.concatenate([w[1] for w in written])
        thread = np.concatenate([w[2] for w in written])
        order = np.lexsort((thread, elem, launch))
        launch, elem, thread = launch[order], elem[order], thread[order]
        dup = (launch[1:] == launch[:-1]) & (elem[1:] == elem[:-1]) & (thread[1:] != thread[:-1])
        hits = np.flatnonzero(dup)
        failing.update(x.launches[int(li)].n for li in np.unique(launch[hits + 1]))
        for j in hits[:1]:
            n = x.launches[int(launch[j + 1])].n
            found["overlap"] = Finding("overlap", n, int(thread[j + 1]), x.names[x.output], int(elem[j]), 0,
                                       int(thread[j]))
        for li, l in enumerate(x.launches):
            got = np.unique(elem[(launch == li) & (elem >= 0) & (elem < l.n)])
            if got.size < l.n:
                miss = int(np.setdiff1d(np.arange(l.n), got)[0])
                failing.add(l.n)
                found.setdefault("missing", Finding("missing", l.n, -1, x.names[x.output], miss, 0))
    findings = tuple(found[k] for k in ("out of bounds", "misaligned", "overlap", "missing") if k in found)
    assert set(failing) <= set(SIZES)
    return findings_safety(findings, tuple(sorted(failing)), CHECKED)
