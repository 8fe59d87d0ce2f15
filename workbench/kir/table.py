"""The corpus table of ``docs/kir.md``: every captured kernel, parsed or refused (with the named reason).

Stage: kir. Deterministic (sorted by program and kernel) so the docs can be checked against it in tests.
Regenerate with ``python -m workbench.kir.table``.
"""

from __future__ import annotations

from collections.abc import Sequence

from workbench.kir.errors import KernelSourceError, RefusedConstruct
from workbench.kir.nodes import walk
from workbench.kir.ops import Op
from workbench.kir.parser import parse

BEGIN = "<!-- kir-corpus-table: begin (python -m workbench.kir.table) -->"
END = "<!-- kir-corpus-table: end -->"


def corpus_table(records: Sequence) -> str:
    rows = ["| program | kernel | grid | loads | size args | divisions | result |", "|---|---|---|---|---|---|---|"]
    parsed = refused = 0
    for ck in sorted(records, key=lambda c: (c.program, c.name)):
        try:
            k = parse(ck)
        except (RefusedConstruct, KernelSourceError) as exc:
            refused += 1
            reason = getattr(exc, "construct", None) or getattr(exc, "problem", str(exc))
            rows.append(f"| {ck.program} | `{ck.name}` | {ck.grid_type} | | | | refused: {reason} (line {exc.line}) |")
            continue
        parsed += 1
        divs = sum(1 for n in walk(*k.roots()) if n.op in (Op.FLOORDIV, Op.MOD))
        rows.append(
            f"| {ck.program} | `{ck.name}` | {k.grid} | {len(k.loads)} | {len(k.size_params)} | {divs} | parsed |"
        )
    rows.append("")
    rows.append(f"{parsed} parsed, {refused} refused, {parsed + refused} kernels.")
    return "\n".join(rows)


def main() -> None:
    from workbench.capture import load
    from workbench.paths import KERNELS

    print(BEGIN)
    print(corpus_table([load(p) for p in sorted(KERNELS.glob("*/*.json"))]))
    print(END)


if __name__ == "__main__":
    main()
