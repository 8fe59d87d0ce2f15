"""``floats check`` progress (issue 27, docs/cli.md): each step shows its name and, where it has one, its
count, through ``workbench.progress`` (terminal form forced here with WORKBENCH_PROGRESS=1); a disabled
``Steps`` prints nothing."""

from __future__ import annotations

from pathlib import Path

from workbench.floats.progress import Steps

ROOT = Path(__file__).resolve().parents[2]


def test_steps_show_names_and_counts(monkeypatch, capsys) -> None:
    monkeypatch.setenv("WORKBENCH_PROGRESS", "1")
    steps = Steps(True)
    with steps.step("safety gate", total=3, unit="sizes") as s:
        for _ in range(3):
            s.advance()
    with steps.step("capturing the spec"):
        pass
    err = capsys.readouterr().err
    assert "floats: safety gate" in err and "3/3" in err and "sizes" in err
    assert "floats: capturing the spec: done in" in err


def test_disabled_progress_prints_nothing(monkeypatch, capsys) -> None:
    monkeypatch.setenv("WORKBENCH_PROGRESS", "1")
    with Steps(False).step("safety gate", total=2, unit="sizes") as s:
        s.advance(2)
    assert capsys.readouterr().err == "" and s.done == 2


def test_check_reports_its_steps_with_counts(monkeypatch, capsys) -> None:
    from workbench.floats.check import check_files

    monkeypatch.setenv("WORKBENCH_PROGRESS", "1")
    corpus = ROOT / "data/floats/corpus/relu"
    check_files(corpus / "spec.py", corpus / "ternary.cu", exhaustive=False, random_cases=1 << 10, progress=False,
                steps=Steps(True))
    err = capsys.readouterr().err
    for needle in ("floats: capturing the spec (torch.export): done in", "floats: parsing the kernel (libclang)",
                   "floats: safety gate", "1033/1033", "floats: case split", "2/2"):
        assert needle in err, err
