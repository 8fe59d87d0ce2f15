"""``make lean-check``: build the library, then each instance on its own, and write a per-file table
(stage: prove; needs ``lake``).

The build is not all or nothing: every library file is built as its own target in import order
(``lake build Narrowing.Int``, ...), then every instance (``lake build Instances.X``), each in a fresh
``lake`` call, so one failing file costs only the rows that import it. An instance imports only the library
files it uses (``workbench.lean.emit.imports_for``), so a broken ``Narrowing/Reduction.lean`` fails the
reduction instances and leaves the pointwise ones to build. For each built instance ``#print axioms`` of its
``kernel_safe`` and ``narrowing_exact`` (``lake env lean`` on a two-line file) lists the axioms; a theorem
that uses anything beyond ``propext``, ``Classical.choice``, ``Quot.sound`` (``sorryAx``, say) fails its row.

The table (markdown, one row per file: built / failed with the first error line / not built because an
import failed; seconds; axioms) is printed and written to ``lean/.lake/lean-check.md`` (``.lake`` is ignored
by git). Exit status: 0 every row built with the standard axioms, 1 otherwise, 2 no ``lake`` here (one line
says so; nothing was checked). This module and ``workbench.lean.check`` are the only places that say Lean
checked something, and only after Lean ran here.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from workbench.lean.check import STANDARD_AXIOMS, parse_axioms
from workbench.lean.paths import PROJECT

_IMPORT = re.compile(r"^import (\S+)", re.M)
_ERROR = re.compile(r"error[:\]]", re.I)


@dataclass(frozen=True, slots=True)
class Row:
    """One file's outcome: ``status`` is ``built``, ``failed`` or ``skipped`` (an import failed)."""

    module: str
    status: str
    seconds: float
    detail: str = ""  # the first error line, or the failed import
    axioms: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.status == "built" and set(self.axioms) <= STANDARD_AXIOMS


def library_modules(project: Path = PROJECT) -> list[str]:
    """``Narrowing.*`` modules in an import order (each after the library files it imports), then the root."""
    files = {f"Narrowing.{p.stem}": p for p in sorted((project / "Narrowing").glob("*.lean"))}
    deps = {m: [d for d in _IMPORT.findall(p.read_text(encoding="utf-8")) if d in files] for m, p in files.items()}
    order: list[str] = []

    def visit(m: str) -> None:
        if m in order:
            return
        for d in deps[m]:
            visit(d)
        order.append(m)

    for m in sorted(files):
        visit(m)
    return order


def instance_modules(project: Path = PROJECT) -> list[str]:
    return [f"Instances.{p.stem}" for p in sorted((project / "Instances").glob("*.lean"))]


def imports_of(module: str, project: Path = PROJECT) -> list[str]:
    path = project / (module.replace(".", "/") + ".lean")
    return _IMPORT.findall(path.read_text(encoding="utf-8")) if path.exists() else []


def first_error(output: str) -> str:
    """The first line of Lean's or Lake's output that reports an error (file:line: message), shortened."""
    for line in output.splitlines():
        if _ERROR.search(line):
            return line.strip()[:240]
    tail = [line for line in output.splitlines() if line.strip()]
    return (tail[-1].strip()[:240] if tail else "no output")


def _run(cmd: list[str], cwd: Path, timeout: float) -> tuple[int, str, float]:
    start = time.monotonic()
    try:
        res = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
        code, out = res.returncode, res.stdout + res.stderr
    except subprocess.TimeoutExpired as exc:
        code, out = 124, f"error: timed out after {timeout:.0f} s: {' '.join(cmd)}\n{exc.stdout or ''}"
    return code, out, time.monotonic() - start


def build_rows(project: Path = PROJECT, timeout: float = 1800.0) -> list[Row]:
    """Build every library file, the root, then every instance, each separately; audit the instances' axioms."""
    rows: list[Row] = []
    failed: set[str] = set()
    for module in [*library_modules(project), "Narrowing", *instance_modules(project)]:
        deps = [d for d in imports_of(module, project) if d.startswith(("Narrowing", "Instances"))]
        broken = [d for d in deps if d in failed]
        if broken:
            failed.add(module)
            rows.append(Row(module, "skipped", 0.0, f"imports {', '.join(broken)}, which failed"))
            continue
        code, out, secs = _run(["lake", "build", module], project, timeout)
        if code != 0:
            failed.add(module)
            rows.append(Row(module, "failed", secs, first_error(out)))
            continue
        axioms: tuple[str, ...] = ()
        if module.startswith("Instances."):
            axioms, problem = _axioms(module, project, timeout)
            if problem:
                rows.append(Row(module, "failed", secs, problem))
                continue
        rows.append(Row(module, "built", secs, "", axioms))
    return rows


def _axioms(module: str, project: Path, timeout: float) -> tuple[tuple[str, ...], str]:
    """The union of the axioms of the instance's ``kernel_safe`` and ``narrowing_exact`` (or a problem)."""
    audit = project / ".lake" / "lean-check-axioms.lean"
    audit.parent.mkdir(exist_ok=True)
    names = [f"{module}.kernel_safe", f"{module}.narrowing_exact"]
    audit.write_text(f"import {module}\n" + "".join(f"#print axioms {n}\n" for n in names))
    code, out, _ = _run(["lake", "env", "lean", str(audit)], project, timeout)
    found = parse_axioms(out)
    if code != 0 or any(n not in found for n in names):
        return (), "#print axioms: " + first_error(out)
    return tuple(sorted({a for n in names for a in found[n]})), ""


def table(rows: list[Row], lean_version: str) -> str:
    built = sum(r.status == "built" for r in rows)
    ok = sum(r.ok for r in rows)
    out = [f"# make lean-check: {lean_version}", "",
           f"{built} of {len(rows)} files built; {ok} built using only the standard axioms "
           f"({', '.join(sorted(STANDARD_AXIOMS))}).", "",
           "| file | result | seconds | axioms / first error |", "|---|---|---|---|"]
    for r in rows:
        result = r.status if r.ok or r.status != "built" else "built, NON-STANDARD AXIOM"
        detail = r.detail or (", ".join(r.axioms) if r.axioms else ("none" if r.module.startswith("Instances.") else ""))
        cell = detail.replace("|", "\\|")
        out.append(f"| `{r.module}` | {result} | {r.seconds:.1f} | {cell} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    project = Path(args[0]) if args else PROJECT
    if not (project / "lakefile.toml").is_file():
        print(f"lean-check: {project} is not a Lake project (no lakefile.toml); give the folder that holds "
              "lean-toolchain and lakefile.toml, or no argument for the checkout's lean/", file=sys.stderr)
        return 2
    if shutil.which("lake") is None:
        print("lean-check: Lean is not installed here (no `lake` on PATH), so nothing was checked by Lean; install "
              "elan (docs/lean.md, 'Installing Lean') and rerun `make lean-check`", file=sys.stderr)
        return 2
    version = _run(["lake", "env", "lean", "--version"], project, 600)[1].strip().splitlines()
    rows = build_rows(project)
    text = table(rows, version[0] if version else "Lean (version unknown)")
    out = project / ".lake" / "lean-check.md"
    out.parent.mkdir(exist_ok=True)
    out.write_text(text)
    print(text + f"\n(written to {out})")
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
