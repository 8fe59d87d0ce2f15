"""The corpus verdict table: every kernel of ``data/floats/corpus`` against its spec (stage: floats).

Layout: ``data/floats/corpus/<program>/spec.py`` defines ``program(x, ...)``; each ``*.cu`` next to it is
one model-written candidate. ``check_all`` checks every kernel for two device targets (nvcc's default
``fma=on ftz=off`` and ``fma=off ftz=off``) with the any-NaN policy, runs one exhaustive sweep per spec
over all distinct unary element functions (a function shared by several kernels or targets is swept once),
and writes ``verdicts.json`` and ``verdicts.md``. Output is deterministic: sorted programs and kernels, no
timings or dates.
"""

from __future__ import annotations

import json
from pathlib import Path

from workbench import contract
from workbench.floats.check import Target, Verdict, check
from workbench.floats.cuda import parse_kernel
from workbench.floats.errors import FloatsUsageError
from workbench.floats.gate import GATE_SIZES, gate
from workbench.paths import ROOT

CORPUS = ROOT / "data/floats/corpus"
TARGETS = (Target(fma=True, ftz=False), Target(fma=False, ftz=False))


def corpus_entries(root: Path = CORPUS) -> list[tuple[Path, list[Path]]]:
    root = Path(root)
    if not root.is_dir():
        raise FloatsUsageError(f"corpus folder {str(root)!r} does not exist; pass --corpus DIR (a folder of "
                               "<program>/spec.py with *.cu beside it)")
    out = []
    for d in sorted(p for p in root.iterdir() if p.is_dir()):
        if (d / "spec.py").is_file():
            out.append((d / "spec.py", sorted(d.glob("*.cu"))))
    return out


def committed_verdict(program: str, kernel: str, target: str = "fma=on ftz=off") -> dict:
    """A row of the committed table ``data/floats/verdicts.json`` (made with the 2**32 sweeps): what a notebook
    shows instead of re-running a sweep. ``kernel`` is the file's stem, ``target`` a ``Target.label``."""
    doc = json.loads((ROOT / "data/floats/verdicts.json").read_text())
    for v in doc["verdicts"]:
        if v["spec"] == program and v["cuda_function"].split(" ")[0] == kernel and v["target"] == target:
            return v
    raise FloatsUsageError(f"no row {program}/{kernel} [{target}] in data/floats/verdicts.json; regenerate it with "
                           "`workbench floats check --all --out data/floats`")


def check_all(root: Path = CORPUS, targets=TARGETS, workers: int = 2, progress: bool = True,
              exhaustive: bool = True, count_mismatches: bool = True, spec_device: str = "cuda",
              programs: frozenset[str] | None = None) -> list[Verdict]:
    """Every kernel x target (of the named ``programs`` only, when given). ``count_mismatches=False`` sweeps
    only the functions the case split did not refute (every "equivalent" is still exhaustive; refuted kernels
    keep their witness, without a count)."""
    from workbench.floats.spec import capture_spec

    verdicts: list[Verdict] = []
    for spec_path, kernels in corpus_entries(root):
        if programs is not None and spec_path.parent.name not in programs:
            continue
        spec = capture_spec(spec_path, spec_device)
        parsed = [(kp, parse_kernel(kp)) for kp in kernels]
        sweeps: dict = {}
        # float32 unary specs: one shared 2**32 pass per semantics (half/bfloat16 sweeps take 2**16 inputs and
        # two-output specs sweep each output inside ``check``)
        if exhaustive and spec.arity == 1 and not spec.opaque and not spec.dtype.is_half and not spec.outputs:
            _sweep_group(spec, [k for _, k in parsed], targets, sweeps, workers, progress, count_mismatches)
        for kp, kernel in parsed:
            safety = gate(kernel)
            for t in targets:
                v = check(spec, kernel, t, "any", workers=workers, progress=progress, exhaustive=exhaustive,
                          safety=safety, sweeps=sweeps, count_mismatches=count_mismatches)
                verdicts.append(_label(v, spec_path, kp))
    return verdicts


def _sweep_group(spec, kernels, targets, sweeps: dict, workers: int, progress: bool,
                 count_mismatches: bool = True) -> None:
    """One exhaustive pass per (spec, semantics) over every distinct unary element function (only those
    without a case-split counterexample when ``count_mismatches`` is False)."""
    from workbench.floats.check import RANDOM_CASES, _search
    from workbench.floats.gate import element_functions
    from workbench.floats.ir import contract_fma, opaque_names
    from workbench.floats.sweep import sweep_unary

    groups: dict = {}
    for kernel in kernels:
        shape = element_functions(kernel)
        if not shape.elementwise or len(kernel.inputs) != 1:
            continue
        for t in targets:
            for f in shape.functions:
                f = contract_fma(f) if t.fma else f
                if opaque_names(f):
                    continue
                if not count_mismatches and _search(spec, (f,), t.semantics("any"), "any", RANDOM_CASES)[0]:
                    continue
                groups.setdefault(t.semantics("any"), {})[f] = None
    for sem, fns in groups.items():
        fns = tuple(fns)
        if not fns:
            continue
        label = f"{spec.name}: {len(fns)} function{'s' if len(fns) > 1 else ''} ftz={'on' if sem.ftz else 'off'}"
        for f, r in zip(fns, sweep_unary(spec.expr, fns, sem, "any", workers=workers, progress=progress, desc=label)):
            sweeps[(spec.expr, f, sem, "any")] = r


def _label(v: Verdict, spec_path: Path, kernel_path: Path) -> Verdict:
    from dataclasses import replace

    return replace(v, spec=spec_path.parent.name, kernel=f"{kernel_path.stem} ({v.kernel})")


def _short(v: Verdict) -> str:
    match v.status:
        case "equivalent" if not v.exhaustive:
            return "equivalent (the spec's expression node for node: every input)"
        case "equivalent":
            return f"equivalent (all {'2**16' if v.cases == 1 << 16 else '2**32'})"
        case "not equivalent":
            from workbench.floats.typed import show_bits

            w = v.witnesses[0]
            count = (f", {v.mismatches:,} input{'s' if v.mismatches != 1 else ''}" if v.mismatches is not None
                     else "")
            ins = ",".join(show_bits(b, w.ty(i)) for i, b in enumerate(w.inputs))
            return f"counterexample {ins} -> {show_bits(w.kernel, w.out_ty)} vs {show_bits(w.spec, w.out_ty)}{count}"
        case "no counterexample":
            return f"no counterexample in {v.cases:,} cases"
        case "undecided":
            return v.summary
        case "not elementwise":
            return v.summary
    raise AssertionError(v.status)


def write_table(verdicts: list[Verdict], out_dir: Path) -> tuple[Path, Path]:
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    labels = sorted({v.target.label for v in verdicts}, key=lambda s: (s != "fma=on ftz=off", s))
    rows: dict[tuple[str, str], dict[str, Verdict]] = {}
    for v in verdicts:
        rows.setdefault((v.spec, v.kernel), {})[v.target.label] = v
    doc = {
        "about": "workbench floats check --all: each corpus kernel against its PyTorch spec (NaN policy: any)",
        "spec_device": sorted({v.spec_device for v in verdicts}),
        "exhaustive": any(v.exhaustive for v in verdicts),
        "targets": labels,
        "gate_sizes": f"n = 1..1024 and {list(GATE_SIZES[1024:])}",
        "verdicts": [v.as_dict() for v in verdicts],
    }
    jp = out_dir / "verdicts.json"
    jp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    head = "| program | kernel | verdict | " + " | ".join(labels) + " | safety gate |"
    lines = [
        "# Float verdicts: corpus kernels against their PyTorch specs (float32, float16, bfloat16)",
        "",
        "Generated by `workbench floats check --all --out data/floats` (do not edit). Spec device: "
        f"{', '.join(sorted({v.spec_device for v in verdicts}))} (each ATen op as PyTorch's kernels on that device "
        "compute it). NaN policy: any NaN equals any NaN; every",
        "other output is compared bit for bit. \"equivalent\" means identical on all 2**32 inputs (2**16 for half and",
        "bfloat16 kernels, DTYPE in the spec; two-output kernels: both outputs); n-ary kernels are \"equivalent\"",
        "only when their element function is the spec's expression node for node (same semantics), else at most",
        "\"no counterexample in N cases\". Counterexamples: input bits -> kernel vs spec output bits.",
        f"Safety gate: every thread of the launch enumerated for n = 1..1024 and {list(GATE_SIZES[1024:])}.",
        *([] if any(v.exhaustive for v in verdicts) else [
            "", "**Sampled table** (`--no-sweep`): no 2**32 sweep ran, so no row says \"equivalent\" and unary rows say",
            "\"no counterexample in N cases\" (special values, 2**20 random bit patterns, 2**20 random normals);",
            "`workbench floats check --all --out data/floats` regenerates it with the sweeps."]),
        "",
        head,
        "|" + "---|" * (4 + len(labels)),
    ]
    counts: dict[str, int] = {}
    for (spec, kernel), by in sorted(rows.items()):
        first = by[labels[0]]
        cells = [_short(by[lab]).replace("|", "\\|") if lab in by else "" for lab in labels]
        gate_cell = ("safe" if first.safety.safe and first.safety.complete and not first.safety.unmodelled
                     else first.safety.summary().replace("|", "\\|"))
        overall = contract.overall(by[lab].verdict for lab in labels if lab in by).value
        lines.append(f"| {spec} | {kernel} | {overall} | " + " | ".join(cells) + f" | {gate_cell} |")
        for lab in labels:
            if lab in by:
                counts[by[lab].status] = counts.get(by[lab].status, 0) + 1
    lines += ["", "Totals over all rows and targets: " + ", ".join(f"{k}: {counts[k]}" for k in sorted(counts)), ""]
    mp = out_dir / "verdicts.md"
    mp.write_text("\n".join(lines))
    return jp, mp
