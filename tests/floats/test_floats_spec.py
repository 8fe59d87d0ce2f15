"""Spec capture: every corpus program's IR against torch eager (the brute-force oracle), defaults, errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from workbench.floats.check import SPECIAL_BITS
from workbench.floats.errors import SpecLoadError, SpecOpUnsupportedError
from workbench.floats.evaluate import evaluate
from workbench.floats.ir import Op, Ty, walk
from workbench.floats.spec import capture_spec, load_program

ROOT = Path(__file__).resolve().parents[2]
SPECS = sorted((ROOT / "data/floats/corpus").glob("*/spec.py"))


def test_corpus_has_at_least_fifteen_programs_each_with_a_kernel() -> None:
    assert len(SPECS) >= 15
    for s in SPECS:
        assert list(s.parent.glob("*.cu")), s


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.parent.name)
def test_spec_ir_matches_torch_eager_bit_for_bit(path: Path) -> None:
    spec = capture_spec(path, "cpu")  # torch eager here runs the CPU kernels
    if spec.opaque:
        assert all(name.startswith("aten.") for name in spec.opaque)
        return
    rng = np.random.default_rng(1)
    n = 1 << 16
    special = np.array(SPECIAL_BITS, dtype=np.uint32)
    cols = []
    for i in range(spec.arity):
        b = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
        if spec.arity == 1:
            b[: len(special)] = special
        else:  # every pair of special values, the rest random
            grid = np.meshgrid(*([special] * spec.arity), indexing="ij")[i].reshape(-1)[:n]
            b[: len(grid)] = grid
        cols.append(b.view(np.float32))
    dt = {Ty.F32: torch.float32, Ty.F16: torch.float16, Ty.BF16: torch.bfloat16}[spec.dtype]
    tensors = [torch.from_numpy(c.copy()).to(dt) for c in cols]  # DTYPE programs: the values in their dtype
    cols = [t.float().numpy() for t in tensors]
    out = load_program(path)(*tensors)
    for expr, got in zip(spec.outputs or (spec.expr,), out if isinstance(out, tuple) else (out,)):  # two outputs
        mine = np.broadcast_to(np.asarray(evaluate(expr, dict(enumerate(cols))), dtype=np.float32), cols[0].shape)
        eager = got.float().numpy()
        differ = (mine.view(np.uint32) != eager.view(np.uint32)) & ~(np.isnan(mine) & np.isnan(eager))
        assert not differ.any(), [hex(int(c.view(np.uint32)[np.flatnonzero(differ)[0]])) for c in cols]


def test_leaky_relu_default_slope_is_restored_as_a_float_constant() -> None:
    spec = capture_spec(ROOT / "data/floats/corpus/leaky_relu/spec.py", "cpu")
    assert spec.ops == ("aten.leaky_relu.default",)  # the slope is not in the graph
    consts = [n for n in walk(spec.expr) if n.op is Op.CONST and n.value not in (0.0,)]
    assert [(c.ty, float(np.float32(c.value))) for c in consts] == [(Ty.F32, float(np.float32(0.01)))]


def test_unsupported_spec_op_is_named_with_its_line(tmp_path: Path) -> None:
    p = tmp_path / "spec.py"
    p.write_text("import torch\n\n\ndef program(x):\n    return torch.floor(x)\n")
    with pytest.raises(SpecOpUnsupportedError, match=r"aten\.floor\.default at spec\.py:5 has no float32 rule; "
                       r"supported ATen ops: .*abs\.default, .*rsub\.Scalar.*where\.ScalarOther"):
        capture_spec(p)


def test_a_call_form_the_rule_does_not_take_names_the_op_and_its_parameters(tmp_path: Path, monkeypatch) -> None:
    from workbench.floats import aten

    narrow = aten.Rule(lambda dev, x: x, "test", "test")  # a rule without the slope parameter
    monkeypatch.setitem(aten.RULES, "aten.leaky_relu.default", narrow)
    p = tmp_path / "spec.py"
    p.write_text("import torch.nn.functional as F\n\n\ndef program(x):\n    return F.leaky_relu(x, 0.2)\n")
    with pytest.raises(SpecOpUnsupportedError, match=r"aten\.leaky_relu\.default at spec\.py:5 is called as "
                       r"aten\.leaky_relu\.default\(tensor, 0\.2\), a form .*\(its parameters: x\)"):
        capture_spec(p)


def test_spec_without_program_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "spec.py"
    p.write_text("import torch\n\ndef forward(x):\n    return x\n")
    with pytest.raises(SpecLoadError, match=r"defines no function `program`"):
        capture_spec(p)


def test_missing_spec_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SpecLoadError, match=r"does not exist"):
        capture_spec(tmp_path / "nope.py")


def test_spec_that_fails_to_import_is_reported(tmp_path: Path) -> None:
    p = tmp_path / "spec.py"
    p.write_text("import torch\nraise RuntimeError('boom')\n")
    with pytest.raises(SpecLoadError, match=r"failed to import: RuntimeError: boom"):
        capture_spec(p)
