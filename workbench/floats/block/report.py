"""Block level, the text report of one ``BlockVerdict`` (stage: floats). Deterministic: no clocks."""

from __future__ import annotations

from workbench.floats.block.verdict import BlockVerdict


def render(v: BlockVerdict) -> str:
    r, f, s = v.reals, v.float32, v.safety
    lines = [f"reference {v.reference}",
             f"answer    {v.answer}: {v.kernel}",
             f"verdict   {v.verdict.value}" + (" (safety first)" if not s.safe or not s.complete else ""),
             f"reals     {r.status.value}: {r.text}",
             f"          decided by {r.decided_by}"]
    if r.witness is not None:
        lines.append(f"          witness {r.witness.describe()}")
        if r.witness.inputs:
            shown = ", ".join(f"{n} = {x:g}" for n, x in r.witness.inputs[:12])
            more = f", ... ({len(r.witness.inputs)} inputs)" if len(r.witness.inputs) > 12 else ""
            lines.append(f"          at {shown}{more}")
    lines += [f"float32   {f.status.value}: {f.text}",
              f"          semantics {f.semantics}",
              f"          decided by {f.decided_by}"]
    if f.witness is not None:
        lines.append(f"          witness {f.witness.describe()}; {f.witness.confirmed_by}")
    lines.append(f"safety    {s.summary()}")
    for h in s.hazards[1:8]:
        lines.append(f"          also {h.kind.value}: {h.text}")
    lines += [f"note      {n}" for n in v.notes]
    return "\n".join(lines)


__all__ = ["render"]
