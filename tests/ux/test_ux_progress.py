"""workbench.progress: the form follows where it runs (widget in a notebook, tqdm in a terminal, nothing in
pipes), counts are right, and a failure is marked without printing a line of its own."""

from __future__ import annotations

import pytest

from workbench import progress


@pytest.fixture
def notebook(monkeypatch):
    """Pretend to be in a kernel; collect what would be displayed."""
    shown = []
    monkeypatch.setattr(progress, "_in_notebook", lambda: True)
    monkeypatch.delenv(progress.ENV, raising=False)
    import IPython.display

    monkeypatch.setattr(IPython.display, "display", lambda w: shown.append(w))
    return shown


def test_quiet_in_pipes(monkeypatch, capsys):
    monkeypatch.delenv(progress.ENV, raising=False)
    assert progress.backend() is progress.Backend.QUIET  # pytest's stderr is not a tty
    assert list(progress.track([1, 2, 3], desc="x")) == [1, 2, 3]
    with progress.phase("y"):
        pass
    assert capsys.readouterr().err == ""


def test_terminal_bar_counts(monkeypatch, capsys):
    monkeypatch.setenv(progress.ENV, "1")
    assert list(progress.track(range(4), desc="check", unit="kernel")) == [0, 1, 2, 3]
    err = capsys.readouterr().err
    assert "check" in err and "4/4" in err
    with progress.phase("capture p"):
        pass
    err = capsys.readouterr().err
    assert "capture p ..." in err and "capture p: done in" in err
    monkeypatch.setenv(progress.ENV, "0")
    assert progress.backend() is progress.Backend.QUIET


def test_widget_bar_in_a_notebook(notebook):
    assert progress.backend() is progress.Backend.WIDGET
    seen = []
    for i in progress.track(["a", "b", "c"], desc="capture", unit="program"):
        (row,) = notebook
        seen.append(row.children[0].value)  # the bar's value while item i is being worked on
    bar, counts = row.children
    assert seen == [0, 1, 2] and bar.value == 3 and bar.max == 3
    assert counts.value.startswith("3/3 program") and bar.bar_style == "success"
    assert "workbench-progress" in row._dom_classes


def test_widget_marks_failure_and_phase(notebook):
    with pytest.raises(RuntimeError):
        for i in progress.track(range(5), desc="crosscheck"):
            if i == 2:
                raise RuntimeError("boom")
    bar, counts = notebook[0].children
    assert bar.bar_style == "danger" and counts.value.startswith("2/5") and counts.value.endswith("failed")
    with progress.phase("rule store"):
        assert notebook[1].children[0].bar_style == "info"
    assert notebook[1].children[0].bar_style == "success" and notebook[1].children[0].value == 1
