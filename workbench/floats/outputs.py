"""Kernels with two output arrays: one verdict from the verdicts of each output (stage: floats).

``check.check`` decides each output array on its own (the kernel restricted to that array's stores, against
that element of the program's tuple) and ``combine`` makes the one verdict: the worst semantic status wins,
every part's result stays in the summary, witnesses are numbered across the parts' element functions.
"""

from __future__ import annotations

from dataclasses import replace


def combine(parts: list, outputs: tuple[str, ...], name: str):
    """One verdict for a kernel with several output arrays: the worst part decides (not equivalent >
    undecided > no counterexample > equivalent), every part's result is in the summary, witnesses are
    numbered across the parts' element functions."""
    order = ("not elementwise", "not equivalent", "undecided", "no counterexample", "equivalent")
    worst = min(parts, key=lambda v: order.index(v.status))
    witnesses, functions, offset = [], [], 0
    for v in parts:
        witnesses += [replace(w, function=w.function + offset) for w in v.witnesses]
        functions += list(v.functions)
        offset += len(v.functions)
    counts = [v.mismatches for v in parts]
    summary = "; ".join(f"{o}: {v.summary}" for o, v in zip(outputs, parts))
    return replace(worst, spec=name, summary=f"{worst.status} ({len(parts)} outputs) -- {summary}",
                   witnesses=tuple(w for w in witnesses if worst.status == "not equivalent"),
                   mismatches=sum(counts) if all(c is not None for c in counts) else None,
                   cases=min(v.cases for v in parts), exhaustive=all(v.exhaustive for v in parts),
                   opaque=tuple(dict.fromkeys(x for v in parts for x in v.opaque)), functions=tuple(functions),
                   spec_text=" , ".join(v.spec_text for v in parts),
                   notes=tuple(n for v in parts for n in v.notes) + (f"outputs {', '.join(outputs)} match the program's "
                                                                     "tuple in order",))
