"""Build the Lake project and audit the axioms of every theorem (stage: prove; needs ``lake``).

``check_project`` runs ``lake build`` in ``lean/`` (the library and every generated instance), then
``#print axioms`` for the generic theorem and for each instance's theorems through ``lake env lean``, and
writes the result to ``lean/.lake/workbench-check.json``. A theorem passes when it depends on no axiom
beyond Lean's standard three (``propext``, ``Classical.choice``, ``Quot.sound``); ``sorryAx`` or anything
else fails it. This is the only place where the workbench says Lean checked something, and it says so only
after Lean ran here.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path

from workbench.lean.errors import LeanError, LeanNotInstalledError
from workbench.lean.paths import CHECK_RECORD, PROJECT

STANDARD_AXIOMS = frozenset({"propext", "Classical.choice", "Quot.sound"})
GENERIC_THEOREMS = (
    "Narrowing.Kernel.narrowing_exact_of_safe",
    "Narrowing.Expr.eval_wide_eq_eval_narrow_of_agree",
    "Narrowing.Expr.divisorsPos_of_agree",
    "Narrowing.wrap32_eq_toInt_ofInt",
    "Narrowing.wrap64_eq_toInt_ofInt",
    # The interval rules every instance's kernel_safe applies (Narrowing/Interval.lean).
    "Narrowing.WrapOK.of_fits32",
    "Narrowing.Bounded.xindex",
    "Narrowing.Bounded.yindex",
    "Narrowing.Bounded.yindex2d",
    "Narrowing.Bounded.add",
    "Narrowing.Bounded.mul_point_left",
    "Narrowing.Bounded.mul_nonneg",
    "Narrowing.Bounded.floordiv",
    "Narrowing.Bounded.mod",
    "Narrowing.Bounded.cmp_const",
    "Narrowing.Quot.exact",
    "Narrowing.Quot.const",
    "Narrowing.Quot.literal",
    "Narrowing.Rem.divisor",
    "Narrowing.Expr.lt_of_cmp_ne_zero",
    "Narrowing.Loads.agree_of_mem",
    "Narrowing.shift_mul2",
    "Narrowing.shift_mul3",
    # Indirect indexing (Narrowing/Indirect.lean): the device_assert premise bounds an asserted index.
    "Narrowing.Bounded.assume",
    "Narrowing.Expr.agree_load_of_mask",
    # Integer abs, decided conditions (DEAD_BRANCH), hulls and case splits (Narrowing/Abs.lean, Uniform.lean).
    "Narrowing.Bounded.abs",
    "Narrowing.Bounded.abs_nonneg",
    "Narrowing.Bounded.abs_nonpos",
    "Narrowing.Bounded.select_true",
    "Narrowing.Bounded.select_false",
    "Narrowing.Bounded.select",
    "Narrowing.Expr.ge_of_cmp_lt_not_ne_zero",
    "Narrowing.Bounded.rblock",
    # Reduction kernels (Narrowing/Reduction.lean): the fold over steps.
    "Narrowing.RPayload.eval_wide_eq_eval_narrow_of_agree",
    "Narrowing.RKernel.loopTrace_wide_eq_narrow_of_safe",
    "Narrowing.RKernel.loopState_wide_eq_narrow_of_safe",
    "Narrowing.RKernel.narrowing_exact_of_safe",
)
_DEPENDS = re.compile(r"'([^']+)' depends on axioms: \[([^\]]*)\]", re.S)
_NONE = re.compile(r"'([^']+)' does not depend on any axioms")


class LeanBuildError(LeanError):
    """``lake build`` or the axiom audit failed; ``output`` holds the tail of Lean's messages."""

    def __init__(self, step: str, output: str) -> None:
        tail = "\n".join(output.strip().splitlines()[-40:])
        super().__init__(f"{step} failed in {PROJECT}:\n{tail}\nFix the Lean error above (file:line is in the message) and rerun `workbench lean check`.")
        self.output = output


@dataclass(frozen=True, slots=True)
class TheoremAudit:
    name: str
    axioms: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return set(self.axioms) <= STANDARD_AXIOMS


@dataclass(frozen=True, slots=True)
class CheckReport:
    lean_version: str
    toolchain: str
    theorems: tuple[TheoremAudit, ...]

    @property
    def ok(self) -> bool:
        return all(t.ok for t in self.theorems)

    def lines(self) -> list[str]:
        out = [f"Lean checked here: {self.lean_version} (toolchain {self.toolchain})"]
        for t in self.theorems:
            verdict = "ok" if t.ok else "NOT OK (non-standard axiom)"
            out.append(f"  {t.name}: [{', '.join(t.axioms)}] {verdict}")
        out.append("all theorems use only the standard axioms" if self.ok else "some theorems use sorryAx or non-standard axioms")
        return out


def sources_digest(project: Path = PROJECT) -> str:
    """SHA-256 over the project's Lean sources and toolchain pin (so a record cannot vouch for edited files)."""
    h = hashlib.sha256()
    files = sorted([*project.glob("*.lean"), *project.glob("Narrowing/**/*.lean"), *project.glob("Instances/**/*.lean"),
                    project / "lean-toolchain", project / "lakefile.toml"])
    for f in files:
        if f.exists():
            h.update(str(f.relative_to(project)).encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def instance_theorems(project: Path = PROJECT) -> list[str]:
    """Fully qualified theorem names of every generated instance, sorted."""
    names = []
    for f in sorted((project / "Instances").glob("*.lean")):
        text = f.read_text(encoding="utf-8")
        ns = re.search(r"^namespace (\S+)", text, re.M)
        prefix = ns.group(1) + "." if ns else ""
        names += [prefix + m.group(1) for m in re.finditer(r"^theorem (\S+)", text, re.M)]
    return names


def parse_axioms(output: str) -> dict[str, tuple[str, ...]]:
    found = {m.group(1): tuple(a.strip() for a in m.group(2).replace("\n", " ").split(",") if a.strip())
             for m in _DEPENDS.finditer(output)}
    found.update({m.group(1): () for m in _NONE.finditer(output)})
    return found


def _run(cmd: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def check_project(project: Path = PROJECT, timeout: float = 3600.0) -> CheckReport:
    if shutil.which("lake") is None:
        raise LeanNotInstalledError("lake", "workbench lean check")
    build = _run(["lake", "build"], project, timeout)
    if build.returncode != 0:
        raise LeanBuildError("lake build", build.stdout + build.stderr)
    names = list(GENERIC_THEOREMS) + instance_theorems(project)
    audit = project / ".lake" / "workbench_axioms.lean"
    audit.parent.mkdir(exist_ok=True)
    audit.write_text("import Narrowing\nimport Instances\n\n" + "".join(f"#print axioms {n}\n" for n in names))
    res = _run(["lake", "env", "lean", str(audit)], project, timeout)
    if res.returncode != 0:
        raise LeanBuildError("#print axioms", res.stdout + res.stderr)
    found = parse_axioms(res.stdout)
    missing = [n for n in names if n not in found]
    if missing:
        raise LeanBuildError("#print axioms", f"no axiom report for {missing}\n{res.stdout}")
    version = _run(["lake", "env", "lean", "--version"], project, 120).stdout.strip()
    report = CheckReport(version, (project / "lean-toolchain").read_text().strip(),
                         tuple(TheoremAudit(n, found[n]) for n in names))
    record = project / ".lake" / CHECK_RECORD.name
    record.write_text(json.dumps({"lean_version": report.lean_version, "toolchain": report.toolchain, "ok": report.ok,
                                  "sources_sha256": sources_digest(project), "theorems": [asdict(t) for t in report.theorems]}, indent=1, sort_keys=True) + "\n")
    return report


def lean_status(project: Path = PROJECT) -> dict:
    """Whether Lean can run here and what it last checked; shown by the CLI, widget and notebook."""
    lake = shutil.which("lake")
    record = project / ".lake" / CHECK_RECORD.name
    checked = json.loads(record.read_text()) if record.exists() else None
    if lake is None:
        summary = "Lean is not installed in this environment: nothing here was checked by Lean."
    elif checked is None:
        summary = f"Lean is available ({lake}) but `workbench lean check` has not been run here."
    elif checked.get("sources_sha256") != sources_digest(project):
        summary = "Lean checked an earlier version of these files here; they changed since: run `workbench lean check` again."
        checked = None
    else:
        summary = (f"Lean checked this project here ({checked['lean_version']}): "
                   + ("all theorems use only the standard axioms." if checked["ok"] else "some theorems use sorryAx or non-standard axioms."))
    return {"lake": lake, "checked": checked, "summary": summary}
