"""Flags as an experiment: one kernel's verdict under nvcc's common flag sets (stage: floats/ptx).

``flags_table`` checks the kernel at the PTX level under each of ``nvcc.FLAG_SETS`` (default,
``--fmad=false``, ``--ftz=true``, ``-use_fast_math``) and returns one row per set: status, contract verdict,
exact mismatch count (unary kernels: all 2**32 inputs) and the first witness. Functions that two flag sets
compile identically are swept once. ``run_corpus`` writes the committed table ``data/floats/flags.json`` and
``flags.md`` for every corpus kernel (a developer command: deterministic, sorted, no timings or dates).
"""

from __future__ import annotations

import json
from pathlib import Path

from workbench.floats.errors import FloatsUnsupportedError
from workbench.floats.ptx.nvcc import FLAG_SETS, nvcc_version
from workbench.floats.ptx.parse import PtxUnsupportedError


def row(label: str, v) -> dict:
    w = v.witnesses[0] if v.witnesses else None
    return {"flags": label, "argv": list(v.flags.argv), "status": v.status, "verdict": v.verdict.value,
            "mismatches": v.mismatches, "exhaustive": v.exhaustive, "cases": v.cases, "safe": v.safety.safe,
            "complete": v.safety.complete,
            "witness": ({"inputs": [f"0x{b:08X}" for b in w.inputs], "kernel": f"0x{w.kernel:08X}",
                         "spec": f"0x{w.spec:08X}", "text": w.describe()} if w else None),
            "undecided": list(v.undecided), "summary": v.summary}


def flags_table(spec_path, kernel_path, arch: str, nan: str = "any", *, workers: int = 2, progress: bool = False,
                spec=None, sweeps: dict | None = None, exhaustive: bool = True,
                count_mismatches: bool = True, spec_device: str = "cuda") -> list[dict]:
    from workbench.floats.ptx.check import check_ptx
    from workbench.floats.spec import capture_spec

    spec = spec or capture_spec(spec_path, spec_device)
    sweeps = {} if sweeps is None else sweeps
    rows = []
    for label, flags in FLAG_SETS:
        try:
            v = check_ptx(spec, kernel_path, flags, arch, nan, workers=workers, progress=progress, sweeps=sweeps,
                          exhaustive=exhaustive, count_mismatches=count_mismatches)
        except (PtxUnsupportedError, FloatsUnsupportedError) as e:  # refused by name: a row, not a crash
            rows.append({"flags": label, "argv": list(flags.argv), "status": "refused", "verdict": "refused",
                         "mismatches": None, "exhaustive": False, "cases": 0, "safe": True, "witness": None,
                         "undecided": [], "summary": f"refused: {e}"})
            continue
        rows.append(row(label, v))
    return rows


def cell(r: dict) -> str:
    match r["status"]:
        case "equivalent":
            text = "equivalent (all 2**32)" if r["exhaustive"] else "equivalent"
        case "not equivalent":
            w = r["witness"]
            count = (f", {r['mismatches']:,} of 2**32 inputs" if r["mismatches"] is not None
                     else f" (case split: first of {r['cases']:,} cases)")
            text = f"differs at {', '.join(w['inputs'])}: {w['kernel']} vs {w['spec']}{count}"
        case "undecided":
            text = "undecided: " + ", ".join(u.split(" (")[0] for u in r["undecided"])
        case "refused":
            text = r["summary"]
        case _:
            text = r["status"]
    if not r["safe"]:
        return text + " (unsafe)"
    return text if r.get("complete", True) else text + " (output not fully written)"


def render_rows(spec: str, kernel: str, arch: str, rows: list[dict], spec_device: str = "cuda") -> str:
    lines = [f"spec     {spec}   (PyTorch on {spec_device})", f"kernel   {kernel}   (PTX for {arch})", ""]
    width = max(len(r["flags"]) for r in rows)
    for r in rows:
        lines.append(f"{r['flags']:<{width}}  {cell(r)}")
    return "\n".join(lines)


def run_corpus(corpus: Path, out: Path, arch: str, workers: int = 2, progress: bool = False,
               count_mismatches: bool = False, exhaustive: bool = True, spec_device: str = "cuda") -> tuple[Path, Path]:
    """The committed table. By default a unary function the case split already refuted is not swept (its row
    has a witness but no count: 2**32 evaluations per function per flag set cost minutes each on 2 cores);
    every "equivalent" is exhaustive. ``count_mismatches=True`` sweeps everything."""
    from workbench.floats.corpus import corpus_entries
    from workbench.floats.spec import capture_spec

    entries = []
    for spec_path, kernels in corpus_entries(corpus):
        spec = capture_spec(spec_path, spec_device)
        sweeps: dict = {}
        for kp in kernels:
            rows = flags_table(spec_path, kp, arch, workers=workers, progress=progress, spec=spec, sweeps=sweeps,
                               count_mismatches=count_mismatches, exhaustive=exhaustive)
            entries.append({"program": spec_path.parent.name, "kernel": kp.stem, "path": _shown(kp), "rows": rows})
    doc = {"schema": "workbench.floats-flags/1", "arch": arch, "counted": count_mismatches, "exhaustive": exhaustive,
           "nvcc": nvcc_version(), "nan": "any",
           "spec_device": spec_device,
           "flag_sets": [label for label, _ in FLAG_SETS], "kernels": entries}
    out.mkdir(parents=True, exist_ok=True)
    jp, mp = out / "flags.json", out / "flags.md"
    jp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    mp.write_text(render_markdown(doc))
    return jp, mp


def render_markdown(doc: dict) -> str:
    sets = doc["flag_sets"]
    dev = doc.get("spec_device", "cuda")
    lines = [f"# Corpus kernels under nvcc's flag sets (PTX level, {doc['arch']}, nvcc {doc['nvcc']})", "",
             "Generated by `workbench floats flags --all`; do not edit. Each cell: the PTX-level verdict against "
             f"the PyTorch spec on {dev} (any-NaN policy), with the exact mismatch count over all 2**32 inputs for "
             "unary "
             "kernels and the smallest witness. See docs/floats_ptx.md.", "",
             ("Exhaustive: every unary \"equivalent\" checked all 2**32 inputs." if doc["exhaustive"] else
              "Case split only (generated with --quick): \"no counterexample\" is NOT a proof; regenerate "
              "without --quick for exhaustive unary verdicts."), "",
             "| program | kernel | " + " | ".join(f"`{s}`" for s in sets) + " |",
             "|---|---|" + "---|" * len(sets)]
    for e in doc["kernels"]:
        cells = [cell(r) for r in e["rows"]]
        lines.append(f"| {e['program']} | {e['kernel']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _shown(path: Path) -> str:
    """A corpus path as the table shows it: relative to the repository when inside it (the same bytes from any
    working directory and for the default absolute corpus path), else as given."""
    from workbench.paths import ROOT

    try:
        return Path(path).resolve().relative_to(ROOT.resolve()).as_posix()
    except ValueError:
        return Path(path).as_posix()
