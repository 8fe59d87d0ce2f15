"""The rules added for the red-team findings (tests/adversarial/redteam/README.md), each on its own: they must
fail on an implementation that drops the rule."""

from dataclasses import replace

import pytest

from workbench.capture import load
from workbench.capture.record import jit_function_text
from workbench.check.certificate import Certificate
from workbench.check.discharge import contradiction, smt_check
from workbench.check.errors import CertificateError
from workbench.check.poly import Poly
from workbench.check.premises import premises_of
from workbench.errors import InputError
from workbench.jsonfile import read_json
from workbench.kir import IntType
from workbench.paths import KERNELS

TILE = KERNELS / "tile" / "triton_poi_fused_repeat_0.json"


def test_z3_mod_has_sympy_semantics():
    """sympy's Mod takes the divisor's sign (= Python's %); z3's % never is negative."""
    z3 = pytest.importorskip("z3")
    from workbench.check.discharge import sympy_mod

    for a in range(-7, 8):
        for b in (-5, -3, -1, 1, 2, 5):
            got = z3.simplify(sympy_mod(z3.IntVal(a), z3.IntVal(b))).as_long()
            assert got == a % b, (a, b, got)


def test_mod_atom_of_a_possibly_negative_divisor_has_no_lower_bound():
    rec = load(TILE)
    p = premises_of(replace(rec, guards=tuple(rec.guards) + ("Mod(s27, 1 - s77) <= 1000",)))
    (atom,) = [a for a in p.atoms if a.kind == "mod"]
    assert atom.name not in p.lower_map
    assert not [f for f in p.facts if f.name.startswith(f"def:{atom.name}:")]


def test_contradictory_premises_are_named():
    rec = load(TILE)
    assert contradiction(premises_of(rec)) == ""
    bad = premises_of(replace(rec, guards=tuple(rec.guards) + ("s77 <= 1",)))
    assert "s77 <= 1" in contradiction(bad)


def test_z3_answers_unknown_for_an_atom_it_cannot_model():
    rec = load(TILE)
    p = premises_of(replace(rec, guards=tuple(rec.guards) + ("ceiling(s27/2) <= 100",)))
    (a,) = [x for x in p.atoms if x.kind == "opaque"]
    r = smt_check(Poly.const(100) - Poly.sym(a.name), p)
    assert r.status == "unknown" and "ceiling" in r.detail


def test_nested_powers_are_an_input_error_by_degree():
    rec = load(TILE)
    with pytest.raises(InputError, match="degree 4096"):  # symexpr refuses it before premises see it
        premises_of(replace(rec, guards=tuple(rec.guards) + ("((s27 + s77)**64)**64 >= 0",)))
    premises_of(replace(rec, guards=tuple(rec.guards) + ("(s27 + s77)**8 >= 0",)))  # small degree: fine


def test_int1_range_is_unsigned():
    assert (IntType(1).min, IntType(1).max) == (0, 1)


def test_function_text_cut_at_python_line_breaks():
    src = "import triton\n# a\x0cb\u2028c\n@triton.jit\ndef k(x):\n    y = x\n    return y\n"
    assert jit_function_text(src, "k") == "def k(x):\n    y = x\n    return y\n"


def test_duplicate_json_keys_are_input_errors(tmp_path):
    f = tmp_path / "r.json"
    f.write_text('{"a": 1, "b": {"c": 1, "c": 2}}')
    with pytest.raises(InputError, match="'c' appears twice"):
        read_json(f, InputError, "record", "fix it")
    with pytest.raises(CertificateError, match="'kernel' twice"):
        Certificate.loads('{"kernel": "a", "kernel": "b"}')


def test_program_file_is_read_before_it_runs(tmp_path):
    """A .py without program()/example_inputs(), or with a @triton.jit kernel, is refused from its syntax
    tree: its module-level code never runs."""
    from workbench.programs import load_file

    marker = tmp_path / "RAN"
    for body in ("def example_inputs():\n    return ()\n",
                 "import triton\n@triton.jit\ndef k(x):\n    pass\ndef program(x):\n    return x\n"
                 "def example_inputs():\n    return ()\n"):
        f = tmp_path / "p.py"
        f.write_text(f"open({str(marker)!r}, 'w').close()\n" + body)
        with pytest.raises(InputError):
            load_file(f)
        assert not marker.exists()


def test_check_runs_a_program_file_in_a_child_process(tmp_path):
    """`workbench check FILE.py` captures a user program in a child process: its module code does not run in
    the checker's process (the file records the pid it ran in)."""
    import os

    pytest.importorskip("torch")
    from workbench.check.cli import records_for

    pidfile = tmp_path / "pid"
    prog = tmp_path / "user_add.py"
    prog.write_text(f"import os, torch\nopen({str(pidfile)!r}, 'w').write(str(os.getpid()))\n"
                    "def program(a, b):\n    return a[:, :2] + b\n"
                    "def example_inputs():\n    return (torch.randn(4, 3), torch.randn(4, 2))\n")
    kernels = records_for(str(prog))
    assert kernels and int(pidfile.read_text()) != os.getpid()


# -- issue 13 small-model red team (tests/adversarial/redteam: red-store-*, red-static-numel-loop-wraps) --------

SUM_LAST = KERNELS / "sum_last" / "triton_red_fused_sum_0.json"
UPDATE = "        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)"


def _edit(rec, old, new):
    body = jit_function_text(rec.source, rec.name)
    assert old in body
    return replace(rec, source=rec.source.replace(body, body.replace(old, new, 1)))


@pytest.mark.parametrize("offset, value, mask, needs", [
    ("tl.broadcast_to(r0_1, [XBLOCK, R0_BLOCK])", "(x0).to(tl.float32)", "r0_mask", "x"),
    ("tl.broadcast_to(x0, [XBLOCK, R0_BLOCK])", "(r0_1).to(tl.float32)", "xmask", "r"),
])
def test_a_stores_value_decides_the_range_masks_it_needs(offset, value, mask, needs):
    """The range atoms a reduction's store must carry follow its value too: a store naming no x (r) lane in
    its address is performed on tail x (r) lanes with their values (without the rule: no x atom needed for
    the first, no r atom for the second)."""
    from workbench import kir
    from workbench.check.premises import premises_of
    from workbench.check.trusted.analysis import Analysis

    rec = _edit(load(SUM_LAST), UPDATE, UPDATE + f"\n        tl.store(out_ptr0 + {offset}, {value}, {mask})")
    k = kir.parse(rec)
    a = Analysis(k, premises_of(rec), "observable", lambda kind, key, opts, works: opts[0])
    (st,) = [s for s, loop in zip(k.stores, k.store_loops) if loop == 1]  # the store written in the loop
    got = a.tail_atoms(st)
    want = list(a.range_atoms) if needs == "x" else list(a.r_atoms)
    assert all(any(g is w for g in got) for w in want), got


def test_a_weight_row_load_needs_no_x_mask():
    """The exemption the rule narrows still holds for loads: layer norm's weight row ``tl.load(in_ptr1 +
    (r0_1), None)`` reads on a tail x lane what it reads on an active one (certified)."""
    from workbench.check.api import check_kernel

    rec = load(KERNELS.parent.parent / "tests" / "kir" / "data" / "reduction" /
               "triton_per_fused_add_addmm_native_layer_norm_view_11.json")
    assert "tl.load(in_ptr1 + (r0_1), None" in rec.source
    assert check_kernel(rec, "strict", counterexample=False).verdict == "certified"
