"""``floats check`` progress (issue 27, docs/cli.md): a step over the threshold shows its name, its count and
its time on one stderr line; quick steps and disabled progress print nothing."""

from __future__ import annotations

import io
import time
from pathlib import Path

from workbench.floats.progress import Steps

ROOT = Path(__file__).resolve().parents[2]


def test_a_slow_step_shows_its_count_and_ends_with_done() -> None:
    out = io.StringIO()
    steps = Steps(True, out, after=0.05, every=0.01)
    with steps.step("safety gate", total=3, unit="sizes") as s:
        for _ in range(3):
            time.sleep(0.05)
            s.advance()
    text = out.getvalue()
    assert "floats: safety gate 1/3 sizes" in text or "floats: safety gate 2/3 sizes" in text
    assert text.endswith("floats: safety gate 3/3 sizes (" + text.rsplit("(", 1)[1]) and text.endswith(" done\n")


def test_quick_steps_and_disabled_progress_print_nothing() -> None:
    out = io.StringIO()
    with Steps(True, out, after=5.0, every=0.01).step("parsing the kernel"):
        pass
    with Steps(False, out, after=0.0, every=0.01).step("capturing the spec") as s:
        time.sleep(0.03)
        s.advance()
    assert out.getvalue() == ""


def test_check_reports_its_steps_with_counts() -> None:
    from workbench.floats.check import check_files

    out = io.StringIO()
    corpus = ROOT / "data/floats/corpus/relu"
    check_files(corpus / "spec.py", corpus / "ternary.cu", exhaustive=False, random_cases=1 << 10, progress=False,
                steps=Steps(True, out, after=0.0, every=0.01))
    text = out.getvalue()
    for needle in ("floats: capturing the spec (torch.export)", "floats: parsing the kernel (libclang)",
                   "floats: safety gate 1,033/1,033 sizes", "floats: case split 2/2 functions evaluated"):
        assert needle in text, text
