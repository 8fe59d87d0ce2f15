"""Static checks of the Lake project that need no Lean: pins, headers, no `sorry`, IR correspondence,
and generated instances up to date with the emitter."""

from __future__ import annotations

import re
from pathlib import Path

from workbench.lean.emit import index_text
from workbench.lean.instance import PayloadOp, TermOp
from workbench.lean.paths import PROJECT


def _lean_files():
    return sorted([*PROJECT.glob("*.lean"), *PROJECT.glob("Narrowing/*.lean"), *PROJECT.glob("Instances/*.lean")])


def test_lean_toolchain_pin_is_at_least_4_24():
    pin = (PROJECT / "lean-toolchain").read_text().strip()
    m = re.fullmatch(r"leanprover/lean4:v(\d+)\.(\d+)\.(\d+)", pin)
    assert m, pin
    assert (int(m.group(1)), int(m.group(2))) >= (4, 24)  # leanclient.aio's floor (MIN_LEAN_VERSION)


def test_lean_lakefile_builds_both_libraries_without_mathlib():
    text = (PROJECT / "lakefile.toml").read_text()
    assert 'name = "Narrowing"' in text and 'name = "Instances"' in text
    assert "mathlib" not in text.lower().replace("no mathlib", "")
    for f in _lean_files():
        assert "import Mathlib" not in f.read_text(), f


def test_lean_sources_have_headers_and_no_sorry():
    for f in _lean_files():
        text = f.read_text()
        assert "/-!\n# " in text, f"{f}: Mathlib-style header `/-! # Title` missing"
        if f.parent.name in ("Narrowing", "Instances"):
            assert "## Main" in text, f"{f}: header lacks a `## Main results`/`## Main definitions` section"
        code = re.sub(r"/-.*?-/", "", text, flags=re.S)
        code = re.sub(r"--.*", "", code)
        assert not re.search(r"\bsorry\b|\badmit\b|\bnative_decide\b", code), f"{f} uses sorry/admit/native_decide"


def test_lean_expr_constructors_match_term_ops():
    text = (PROJECT / "Narrowing" / "Expr.lean").read_text()
    block = text[text.index("inductive Expr where"):text.index("deriving Repr", text.index("inductive Expr where"))]
    ctors = set(re.findall(r"^\s*\| (\w+)", block, re.M))
    expected = {op.value for op in TermOp if op.value not in {"lt", "le", "gt", "ge", "eq", "ne"}} | {"cmp"}
    assert ctors == expected
    cmps = re.findall(r"^\s*\| (\w+)$", text[text.index("inductive Cmp where"):text.index("deriving", text.index("inductive Cmp where"))], re.M)
    assert set(cmps) == {"lt", "le", "gt", "ge", "eq", "ne"}
    kernel = (PROJECT / "Narrowing" / "Kernel.lean").read_text()
    pblock = kernel[kernel.index("inductive Payload where"):kernel.index("/-- `tl.store")]
    # Pointwise payloads have every payload op but the reduction ones (accumulators, row reductions, scans) ...
    assert set(re.findall(r"^\s*\| (\w+)", pblock, re.M)) == {op.value for op in PayloadOp} - {"acc", "reduce", "scan"}
    # ... and reduction kernels' payloads (Narrowing/Reduction.lean) have them all.
    red = (PROJECT / "Narrowing" / "Reduction.lean").read_text()
    rblock = red[red.index("inductive RPayload where"):red.index("/-- The value of a payload")]
    assert set(re.findall(r"^\s*\| (\w+)", rblock, re.M)) == {op.value for op in PayloadOp}


def _emitted_now() -> dict[str, tuple]:
    """``module -> (instance, text)`` that the current emitter writes for every stored certificate (the corpus's,
    and those of the zoo records kept as Lean test data), as scripts/lean-regen.sh does."""
    import json

    from workbench.capture.record import load as load_record
    from workbench.lean.adapter import from_certificate, record_path
    from workbench.lean.emit import emit_instance, module_name

    tests = Path(__file__).parent
    out = {}
    certs = [(c, None) for c in sorted((tests / "golden" / "certificates").glob("*.json"))]
    certs += [(c, tests / "data" / sub) for sub in ("reduction", "zoo")
              for c in sorted((tests / "golden" / sub / "certificates").glob("*.json"))]
    for cert, data_dir in certs:
        data = json.loads(cert.read_text())
        path = record_path(data["program"], data["kernel"]) if data_dir is None else data_dir / f"{data['kernel']}.json"
        inst = from_certificate(data, cert.name, record=load_record(path), verify_hash=False)
        out[module_name(inst)] = (inst, emit_instance(inst))
    return out


def test_lean_generated_instances_are_current():
    """The committed lean/Instances is what the current emitter writes from the stored certificates, file for
    file and byte for byte, and the committed index imports exactly those files and lists exactly the
    instances that narrow nothing: an emitter change without scripts/lean-regen.sh fails here (this compares
    the committed files with a fresh emission, not the script's two outputs with each other)."""
    from workbench.lean.emit import narrows_nothing

    now = _emitted_now()
    have = {p.stem: p.read_text() for p in (PROJECT / "Instances").glob("*.lean")}
    assert sorted(have) == sorted(now), "lean/Instances is not the set of stored certificates: run scripts/lean-regen.sh"
    stale = sorted(m for m, (_, text) in now.items() if have[m] != text)
    assert not stale, f"lean/Instances differs from the emitter's output for {stale}: run scripts/lean-regen.sh"
    index = (PROJECT / "Instances.lean").read_text()
    listed = re.findall(r"^\* (.+)$", index.split("Kernels without an instance")[-1], re.M) \
        if "Kernels without an instance" in index else []
    trivial = sorted(m for m, (inst, _) in now.items() if narrows_nothing(inst))
    assert index == index_text(sorted(now), listed, trivial), "lean/Instances.lean is stale: run scripts/lean-regen.sh"


def test_lean_instances_that_narrow_nothing_are_labelled():
    """8 of the 75 shipped instances have `sizeArgs := []`: each says so in its header and in the index."""
    index = (PROJECT / "Instances.lean").read_text()
    empty = sorted(p.stem for p in (PROJECT / "Instances").glob("*.lean") if "sizeArgs := []" in p.read_text())
    assert len(empty) == 8, empty
    for m in empty:
        assert "**Nothing to narrow:" in (PROJECT / "Instances" / f"{m}.lean").read_text(), m
        assert f"* {m}\n" in index.split("Instances that narrow nothing")[1].split("Kernels without")[0], m
    labelled = [p.stem for p in (PROJECT / "Instances").glob("*.lean") if "Nothing to narrow" in p.read_text()]
    assert sorted(labelled) == empty


def test_lean_library_names_state_conclusions():
    text = "".join(f.read_text() for f in PROJECT.glob("Narrowing/*.lean"))
    names = re.findall(r"^theorem (\S+)", text, re.M)
    assert "Kernel.narrowing_exact_of_safe" in names
    # Interval rules are named after the node or the rule they state (`Bounded.floordiv`, `Quot.exact`); facts
    # about `iabs` after what they conclude (`iabs_nonneg`, `iabs_le`: Mathlib's `natAbs_nonneg` style).
    rules = ("Bounded.", "WrapOK.", "Quot.", "Rem.", "shift_mul", "iabs_")
    for n in names:
        # `T.of_h` concludes `T` from `h` (Mathlib's convention: `StepLaneOK.of_row`, `AllOf.of_mem`).
        assert "_of_" in n or "_eq_" in n or ".of_" in n or n.endswith(("fits32", "wrap_eq")) or n.startswith(rules), n


def test_lean_audited_theorems_are_declared():
    """`workbench lean check` audits the axioms of these theorems by name: each is declared in the library."""
    from workbench.lean.check import GENERIC_THEOREMS

    text = "".join(f.read_text() for f in PROJECT.glob("Narrowing/*.lean"))
    names = set(re.findall(r"^theorem (\S+)", text, re.M))
    for full in GENERIC_THEOREMS:
        assert full.removeprefix("Narrowing.") in names, full


# ------------------------------------------------------------------ instances import only what they use

_DECL = re.compile(r"^(?:@\[[^\]]*\]\s*)?(?:protected |private |noncomputable )*"
                   r"(?:theorem|def|structure|abbrev|inductive|lemma) ([^\s(:{\[]+)", re.M)


def _library_declarations() -> dict[str, str]:
    """``name -> module`` for every declaration in ``lean/Narrowing/*.lean`` (names relative to ``Narrowing``)."""
    out = {}
    for p in sorted((PROJECT / "Narrowing").glob("*.lean")):
        for name in _DECL.findall(p.read_text()):
            out[name] = f"Narrowing.{p.stem}"
    return out


def _closure(modules: list[str]) -> set[str]:
    seen: set[str] = set()
    todo = list(modules)
    while todo:
        m = todo.pop()
        if m in seen or not m.startswith("Narrowing"):
            continue
        seen.add(m)
        path = PROJECT / (m.replace(".", "/") + ".lean")
        todo += re.findall(r"^import (\S+)", path.read_text(), re.M)
    return seen


def test_lean_instances_import_only_library_files_and_every_file_they_use():
    """Each instance imports library files, never the root `Narrowing` (so never `BitVecBridge`), and every
    library name its text uses is declared in a file it imports (directly or through that file's imports)."""
    decls = _library_declarations()
    token = re.compile(r"(?<![\w.])[A-Za-z_][\w']*(?:\.[A-Za-z_][\w']*)*")
    for p in sorted((PROJECT / "Instances").glob("*.lean")):
        text = p.read_text()
        imports = re.findall(r"^import (\S+)", text, re.M)
        assert imports and "Narrowing" not in imports and all(i.startswith("Narrowing.") for i in imports), p.name
        assert "Narrowing.BitVecBridge" not in _closure(imports), p.name
        have = _closure(imports)
        body = text.split("\n-/\n", 1)[1]
        missing = sorted({f"{t} ({decls[t]})" for t in token.findall(body) if t in decls and decls[t] not in have})
        assert not missing, f"{p.name} uses {missing} without importing them"


def test_lean_import_table_names_exist_where_it_says():
    """`emit.LIBRARY_USES`: every literal name its patterns match is declared in the module it names."""
    from workbench.lean.emit import ALWAYS_IMPORTED, LIBRARY_USES

    decls = _library_declarations()
    for module, pattern in LIBRARY_USES:
        named = [n for n, m in decls.items() if re.search(pattern, n)]
        assert named and all(decls[n] == module for n in named), (module, named)
    for module in ALWAYS_IMPORTED:
        assert (PROJECT / (module.replace(".", "/") + ".lean")).is_file()
    # Every declaration of a file an instance may import is matched by that file's pattern (no name missed).
    for module, pattern in LIBRARY_USES:
        own = [n for n, m in decls.items() if m == module and not n.startswith(("Lane.", "Accs"))]
        unmatched = [n for n in own if not re.search(pattern, n)]
        assert len(unmatched) < len(own), (module, unmatched)


def test_lean_pointwise_instances_do_not_import_the_reduction_files():
    for p in sorted((PROJECT / "Instances").glob("*.lean")):
        text = p.read_text()
        if "def kernel : Kernel where" in text:
            assert "import Narrowing.Reduction" not in text, p.name
