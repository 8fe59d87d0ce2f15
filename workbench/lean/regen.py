"""Regenerate the shipped Lean instances and their goldens (developer command; stage: prove).

``scripts/lean-regen.sh`` (``python -m workbench.lean.regen``) is the only writer of the checkout's
``lean/Instances/``, ``lean/Instances.lean``, ``tests/lean/golden/{certificates,corpus,hand_built,reduction}``: it runs
``workbench.check`` on every captured kernel of ``data/kernels`` (observable mode), stores each certified
kernel's certificate, emits its instance from that stored certificate (as the golden test does), and lists
the kernels it could not emit in ``lean/Instances.lean``. Run-time commands write to the workspace instead.
Review the diff before committing; nothing here runs Lean.
"""

from __future__ import annotations

import json
import sys

from workbench.errors import WorkbenchError
from workbench.lean.paths import INSTANCES, PROJECT, REPO

GOLDEN = REPO / "tests" / "lean" / "golden"


def main(argv: list[str] | None = None) -> int:
    from workbench.capture.record import load as load_record
    from workbench.lean.adapter import corpus_instances, from_certificate, record_path
    from workbench.lean.emit import emit_instance, index_text, module_name
    from workbench.lean.hand_built import HAND_BUILT, REDUCTIONS

    certs, corpus = GOLDEN / "certificates", GOLDEN / "corpus"
    for folder in (certs, corpus, INSTANCES, GOLDEN / "hand_built"):
        folder.mkdir(parents=True, exist_ok=True)
    for old in [*certs.glob("*.json"), *corpus.glob("*.lean"), *INSTANCES.glob("*.lean")]:
        old.unlink()
    refused: list[str] = []
    modules: list[str] = []
    for e in corpus_instances():
        if e.certificate is None or not getattr(e.certificate, "certified", False):
            refused.append(f"{e.program}/{e.kernel}: {e.verdict} by workbench.check")
            continue
        path = certs / f"{e.program}__{e.kernel}.json"
        path.write_text(e.certificate.dumps() + "\n")
        data = json.loads(path.read_text())
        try:
            inst = from_certificate(data, path.name, record=load_record(record_path(data["program"], data["kernel"])),
                                    verify_hash=False)
            text = emit_instance(inst)
        except WorkbenchError as exc:
            refused.append(f"{e.program}/{e.kernel}: certified, no Lean counterpart: {str(exc).splitlines()[0][:200]}")
            continue
        name = module_name(inst)
        (corpus / f"{name}.lean").write_text(text)
        (INSTANCES / f"{name}.lean").write_text(text)
        modules.append(name)
    for name in sorted(HAND_BUILT):
        inst = HAND_BUILT[name]()
        (GOLDEN / "hand_built" / f"{module_name(inst)}.lean").write_text(emit_instance(inst))
    red, red_certs = GOLDEN / "reduction", GOLDEN / "reduction" / "certificates"
    red_certs.mkdir(parents=True, exist_ok=True)
    for old in [*red.glob("*.lean"), *red_certs.glob("*.json")]:
        old.unlink()
    for name in sorted(REDUCTIONS):
        inst = REDUCTIONS[name]()
        (red / f"{module_name(inst)}.lean").write_text(emit_instance(inst))
    red_refused, red_modules = _reduction_fixtures(red, red_certs)
    modules += red_modules  # certified reductions are shipped too, so that `lake build` checks them
    (PROJECT / "Instances.lean").write_text(index_text(modules, refused))
    print(f"{len(modules)} instances written to {INSTANCES}; {len(refused)} kernels without an instance:")
    for line in refused:
        print(f"  {line}")
    emitted = len(list(red.glob("*.lean")))
    print(f"reduction goldens in {red}: {emitted} ({len(REDUCTIONS)} hand-built); {len(red_refused)} test kernels without one:")
    for line in red_refused:
        print(f"  {line}")
    print("Lean check: not run. Review `git diff`, then run scripts/lean-check.sh where Lean exists.")
    return 0


def _reduction_fixtures(out, certs) -> tuple[list[str], list[str]]:
    """Captured reduction kernels kept as test data (``tests/lean/data/reduction``, from the zoo): each
    certified one's certificate and instance become goldens and its instance is shipped in
    ``lean/Instances``; the others are listed. Returns (listed, shipped modules)."""
    from workbench.capture.record import load as load_record
    from workbench.check.api import check_kernel
    from workbench.lean.adapter import from_certificate
    from workbench.lean.emit import emit_instance, module_name

    refused, modules = [], []
    for path in sorted((REPO / "tests" / "lean" / "data" / "reduction").glob("*.json")):
        rec = load_record(path)
        verdict = check_kernel(rec, "observable", smt=False, counterexample=False)
        if not verdict.certified:
            refused.append(f"{rec.program}/{rec.name} (reduction test data): {verdict.verdict} by workbench.check")
            continue
        cert = certs / f"{rec.program}__{rec.name}.json"
        cert.write_text(verdict.certificate.dumps() + "\n")
        try:
            inst = from_certificate(json.loads(cert.read_text()), cert.name, record=rec, verify_hash=False)
            text = emit_instance(inst)
        except WorkbenchError as exc:
            refused.append(f"{rec.program}/{rec.name} (reduction test data): certified, no Lean counterpart: {str(exc)[:200]}")
            continue
        (out / f"{module_name(inst)}.lean").write_text(text)
        (INSTANCES / f"{module_name(inst)}.lean").write_text(text)
        modules.append(module_name(inst))
    return refused, modules


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
