"""Drawing figures never writes into the checkout (issue 27): every figure function the notebooks call, with
its default destination, writes into ``<workspace>/figures`` and leaves the checkout's ``figures/`` byte- and
mtime-unchanged. Only ``workbench figures --regenerate`` writes there, and what it would write equals what
is shipped (the shipped figures are up to date with ``data/``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.paths import DATA, FIGURES


def _snapshot(folder: Path) -> dict[str, tuple[int, bytes]]:
    return {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "ws"))
    return tmp_path / "ws"


def test_figure_functions_default_to_the_workspace(workspace):
    from workbench import figures
    from workbench.bench import report
    from workbench.bench.static import Row
    from workbench.zoo import figures as zoo_figures

    before = _snapshot(FIGURES)
    assert before, "the checkout ships figures/"
    written = []
    for record in sorted((DATA / "runs").glob("*.json")):  # notebook 01
        r = report.report(record)
        written += [r.markdown, *r.figures]
    rows = [Row.from_json(r) for r in json.loads((DATA / "static" / "static.json").read_text())["rows"]]
    written.append(figures.static_change(rows))
    zoo = json.loads((DATA / "zoo" / "zoo.json").read_text())  # notebook 05
    written += [zoo_figures.verdict_mix(zoo), zoo_figures.out_of_class_histogram(zoo)]
    assert _snapshot(FIGURES) == before, "a figure function wrote into the checkout's figures/"
    assert all(p.is_relative_to(workspace / "figures") for p in written), written
    assert {p.name for p in written} == set(before), "the workspace gets every shipped figure"


def test_the_cli_draws_into_the_workspace_and_the_shipped_figures_are_current(workspace, capsys):
    from workbench.cli import main

    before = _snapshot(FIGURES)
    assert main(["figures", "--workspace", str(workspace)]) == 0
    assert "wrote 11 files into" in capsys.readouterr().err
    assert _snapshot(FIGURES) == before
    drawn = {p.name: p.read_bytes() for p in (workspace / "figures").iterdir()}
    stale = sorted(name for name, (_, data) in before.items() if drawn.get(name) != data)
    assert not stale, f"figures/ differs from what `workbench figures --regenerate` draws: {stale}"
