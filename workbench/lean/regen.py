"""Regenerate the shipped Lean instances and their goldens (developer command; stage: prove).

``scripts/lean-regen.sh`` (``python -m workbench.lean.regen``) is the only writer of the checkout's
``lean/Instances/``, ``lean/Instances.lean``, ``tests/lean/golden/{certificates,corpus,hand_built,reduction,zoo}``:
it runs ``workbench.check`` on every captured kernel of ``data/kernels`` (observable mode), emits each certified
kernel's instance from its certificate (as the golden test does) and stores both, and lists in
``lean/Instances.lean`` the kernels it could not emit (with the checker's verdict or the emitter's reason); then
the same for the zoo records kept as Lean test data (``tests/lean/data/reduction``, ``tests/lean/data/zoo``).
Every file it writes in ``lean/Instances`` is imported by ``lean/Instances.lean`` and every instance it
emits is written there: the script's output is the shipped set (it deletes what it wrote before first), and
a certificate is stored only for a kernel whose instance is. Run-time commands write to the workspace
instead. Review the diff before committing; nothing here runs Lean.
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
    from workbench.lean.emit import emit_instance, index_text, module_name, narrows_nothing
    from workbench.lean.hand_built import HAND_BUILT, REDUCTIONS

    certs, corpus = GOLDEN / "certificates", GOLDEN / "corpus"
    for folder in (certs, corpus, INSTANCES, GOLDEN / "hand_built"):
        folder.mkdir(parents=True, exist_ok=True)
    for old in [*certs.glob("*.json"), *corpus.glob("*.lean"), *INSTANCES.glob("*.lean")]:
        old.unlink()
    refused: list[str] = []
    modules: list[str] = []
    trivial: list[str] = []  # instances whose certificate narrows no size argument
    for e in corpus_instances():
        if e.certificate is None or not getattr(e.certificate, "certified", False):
            refused.append(f"{e.program}/{e.kernel}: {e.verdict} by workbench.check")
            continue
        text = e.certificate.dumps() + "\n"
        data = json.loads(text)
        try:
            inst = from_certificate(data, f"{e.program}__{e.kernel}.json",
                                    record=load_record(record_path(data["program"], data["kernel"])), verify_hash=False)
            lean = emit_instance(inst)
        except WorkbenchError as exc:
            refused.append(f"{e.program}/{e.kernel}: certified, no Lean counterpart: {str(exc).splitlines()[0][:200]}")
            continue
        (certs / f"{e.program}__{e.kernel}.json").write_text(text)
        name = module_name(inst)
        (corpus / f"{name}.lean").write_text(lean)
        (INSTANCES / f"{name}.lean").write_text(lean)
        modules.append(name)
        if narrows_nothing(inst):
            trivial.append(name)
    for name in sorted(HAND_BUILT):
        inst = HAND_BUILT[name]()
        (GOLDEN / "hand_built" / f"{module_name(inst)}.lean").write_text(emit_instance(inst))
    red, red_certs = GOLDEN / "reduction", GOLDEN / "reduction" / "certificates"
    zoo, zoo_certs = GOLDEN / "zoo", GOLDEN / "zoo" / "certificates"
    for folder in (red_certs, zoo_certs):
        folder.mkdir(parents=True, exist_ok=True)
    for old in [*red.glob("*.lean"), *red_certs.glob("*.json"), *zoo.glob("*.lean"), *zoo_certs.glob("*.json")]:
        old.unlink()
    for name in sorted(REDUCTIONS):
        inst = REDUCTIONS[name]()
        (red / f"{module_name(inst)}.lean").write_text(emit_instance(inst))
    fixtures = []
    for label, data_dir, out, out_certs in (("reduction test data", "reduction", red, red_certs),
                                             ("zoo test data", "zoo", zoo, zoo_certs)):
        got_refused, got_modules = _fixtures(REPO / "tests" / "lean" / "data" / data_dir, out, out_certs, label, trivial)
        modules += got_modules  # shipped too, so that `lake build` checks them
        refused += got_refused
        fixtures.append((label, out, len(got_modules), got_refused))
    if len(set(modules)) != len(modules):
        raise WorkbenchError(f"two instances share a module name: {sorted(m for m in modules if modules.count(m) > 1)}")
    (PROJECT / "Instances.lean").write_text(index_text(modules, refused, trivial))
    print(f"{len(modules)} instances written to {INSTANCES} ({len(trivial)} narrow nothing: {', '.join(sorted(trivial))}); "
          f"{len(refused)} kernels without an instance:")
    for line in refused:
        print(f"  {line}")
    for label, out, n, got_refused in fixtures:
        print(f"{label}: {n} instances (goldens in {out}); {len(got_refused)} without one")
    print(f"hand-built reduction goldens in {red}: {len(REDUCTIONS)}")
    print("Lean check: not run. Review `git diff`, then run scripts/lean-check.sh where Lean exists.")
    return 0


def _fixtures(data_dir, out, certs, label: str, trivial: list[str]) -> tuple[list[str], list[str]]:
    """Captured zoo kernels kept as Lean test data (``tests/lean/data/reduction``, ``tests/lean/data/zoo``): each
    certified one's certificate and instance become goldens under ``out`` and its instance is shipped in
    ``lean/Instances``; the others are listed. Returns (listed, shipped modules); appends to ``trivial`` the
    shipped modules that narrow nothing."""
    from workbench.capture.record import load as load_record
    from workbench.check.api import check_kernel
    from workbench.lean.adapter import from_certificate
    from workbench.lean.emit import emit_instance, module_name, narrows_nothing

    refused, modules = [], []
    for path in sorted(data_dir.glob("*.json")):
        rec = load_record(path)
        verdict = check_kernel(rec, "observable", smt=False, counterexample=False)
        if not verdict.certified:
            refused.append(f"{rec.program}/{rec.name} ({label}): {verdict.verdict} by workbench.check")
            continue
        text = verdict.certificate.dumps() + "\n"
        try:
            inst = from_certificate(json.loads(text), f"{rec.program}__{rec.name}.json", record=rec, verify_hash=False)
            lean = emit_instance(inst)
        except WorkbenchError as exc:
            refused.append(f"{rec.program}/{rec.name} ({label}): certified, no Lean counterpart: "
                           f"{str(exc).splitlines()[0][:200]}")
            continue
        (certs / f"{rec.program}__{rec.name}.json").write_text(text)
        (out / f"{module_name(inst)}.lean").write_text(lean)
        (INSTANCES / f"{module_name(inst)}.lean").write_text(lean)
        modules.append(module_name(inst))
        if narrows_nothing(inst):
            trivial.append(module_name(inst))
    return refused, modules


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
