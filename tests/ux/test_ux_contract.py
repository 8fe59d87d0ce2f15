"""Every registered sub-command follows the CLI contract (docs/cli.md): ``--help`` works, a bad flag and a
bad input each exit 2 with one line on stderr and no traceback. Commands are enumerated from
``build_parser()``, so a command added later is covered without editing this file. Every command with
``--json`` is run once with valid input and its document checked against the contract (``conftest.py``:
schema, verdict vocabulary at every level, exit code agreeing with the verdict)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from workbench.cli import build_parser, main

BAD_INPUT = "/nonexistent/workbench-input.json"
ROOT = Path(__file__).resolve().parents[2]


def _leaves(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()):
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield prefix, parser
        return
    for action in subs:
        for name, sub in sorted(action.choices.items()):
            yield from _leaves(sub, prefix + (name,))


COMMANDS = {" ".join(path): parser for path, parser in _leaves(build_parser())}


def _positionals(parser) -> list[argparse.Action]:
    return [a for a in parser._actions if not a.option_strings and a.dest != "help"]


def _argv(command: str, tmp_path, extra: list[str]) -> list[str]:
    """The command with every positional given the bad input and every required option an output folder
    in ``tmp_path`` (so the error can only come from the input)."""
    parser = COMMANDS[command]
    argv = command.split() + [BAD_INPUT for _ in _positionals(parser)] + extra
    for action in parser._actions:
        if action.option_strings and action.required:
            value = "0" if action.type in (int, float) else str(tmp_path / "out")
            argv += [action.option_strings[0], value]
    if "--workspace" in parser._option_string_actions:
        argv += ["--workspace", str(tmp_path / "ws")]
    return argv


def test_the_enumeration_sees_the_pipeline():
    assert {"capture", "show", "ir", "check", "rule show", "lean emit"} <= set(COMMANDS)


def _one_line_error(capsys, argv: list[str]) -> str:
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 2, f"{argv}: exit {code}, stderr {captured.err[-500:]!r}"
    assert "Traceback" not in captured.err
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, f"{argv}: stderr has {len(lines)} lines: {captured.err[-800:]!r}"
    return lines[0]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help(command, capsys):
    assert main([*command.split(), "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: workbench " + command)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_bad_flag_is_one_line(command, capsys, tmp_path):
    line = _one_line_error(capsys, _argv(command, tmp_path, ["--no-such-flag"]))
    assert "--no-such-flag" in line and "--help" in line


@pytest.mark.parametrize("command", sorted(c for c, p in COMMANDS.items() if _positionals(p)))
def test_bad_input_is_one_line(command, capsys, tmp_path):
    line = _one_line_error(capsys, _argv(command, tmp_path, []))
    assert "workbench-input" in line, f"the error does not name the value: {line!r}"


def _json_runs(tmp_path: Path) -> dict[str, list[str]]:
    """One cheap, valid invocation of every command that takes ``--json`` (the pipeline's own four run in
    ``test_ux_chain.py`` with ``--json``). A command added with ``--json`` fails
    ``test_every_json_command_is_run`` until it has a row here or in the chain."""
    from workbench.bench.importers import veritile_confirm
    from workbench.floats.corpus import CORPUS

    run = json.loads((ROOT / "data/runs/report1-l4-confirm.json").read_text())
    foreign = tmp_path / "foreign" / "narrow_confirm.json"
    foreign.parent.mkdir()
    foreign.write_text(json.dumps(veritile_confirm.export(run)))
    (foreign.parent / "SOURCES.tsv").write_text(
        "file\trepo\tpath\tcommit\tchars\nnarrow_confirm.json\tscasella/veritile-narrow-cat\tb/x.json\tabc\t1\n")
    add = [str(CORPUS / "add/spec.py"), str(CORPUS / "add/plus.cu")]
    return {
        "list": ["list"],
        "show": ["show", "tile", "--hashes"],
        "ir": ["ir", "tile"],
        "demo": ["demo"],
        "crosscheck": ["crosscheck", "tile", "--lanes", "8"],
        "oracle": ["oracle", "tile"],
        "floats check": ["floats", "check", *add],
        "floats flags": ["floats", "flags", *add],
        "bench import": ["bench", "import", str(foreign), "--out", str(tmp_path / "imported.json")],
        "bench report": ["bench", "report", str(ROOT / "data/runs/nested_cat_add-confirm.dry-run.json"),
                         "--out", str(tmp_path / "report")],
        "bench pack": ["bench", "pack", str(ROOT / "data/plans/nested_cat_add-confirm.json"),
                       "--out", str(tmp_path / "bundle.tar.gz")],
        "bench static": ["bench", "static", "tile", "--arch", "sm_89"],
        "rule texts": ["rule", "texts", "--kernels", str(_one_program(tmp_path, "tile")),
                       "--out", str(tmp_path / "texts.json")],
        # KernelBench level 1 beside the checkout (NEEDS_LEVEL1): problem 11 has no answers (spec only), and a
        # one-answer block corpus keeps both cheap
        "floats coverage": ["floats", "coverage", "--only", "11", "--out", str(tmp_path / "coverage"),
                            "--no-progress"],
        "floats block-table": ["floats", "block-table", "--corpus", str(_one_answer(tmp_path)), "--trials", "2",
                               "--out", str(tmp_path / "block"), "--no-progress"],
        # layernorm_mlp's inference kernels have no size argument: nothing to run, the summary still written
        "zoo oracle": ["zoo", "oracle", "--models", "layernorm_mlp", "--write", str(tmp_path / "zoo-oracle")],
    }


def _one_answer(tmp_path: Path) -> Path:
    """A block-level answer corpus holding one shipped answer (47: sum over a dimension, off by one)."""
    import shutil

    root = tmp_path / "one-answer"
    root.mkdir(exist_ok=True)
    shutil.copy(ROOT / "data" / "floats" / "kernelbench-block" / "47_sum__wrong_off_by_one.py", root)
    return root


def _one_program(tmp_path: Path, program: str) -> Path:
    """A kernels folder holding one shipped program's records (a cheap corpus for ``rule texts``)."""
    import shutil

    root = tmp_path / "one-program"
    if not (root / program).exists():
        shutil.copytree(ROOT / "data" / "kernels" / program, root / program)
    return root


JSON_COMMANDS = sorted(c for c, p in COMMANDS.items() if "--json" in p._option_string_actions)
IN_THE_CHAIN = {"capture", "check", "rule show", "lean emit"}  # test_ux_chain.py runs these with --json
NEEDS = {"floats flags": "nvcc"}  # an optional tool: skipped visibly where it is missing
NEEDS_LEVEL1 = {"floats coverage", "floats block-table"}  # KernelBench level 1 at ../shared beside the checkout


def test_every_json_command_is_run(tmp_path):
    assert set(JSON_COMMANDS) == set(_json_runs(tmp_path)) | IN_THE_CHAIN, (
        "a command with --json has no contract run: add it to _json_runs or to the chain test")


@pytest.mark.parametrize("command", sorted(set(JSON_COMMANDS) - IN_THE_CHAIN))
def test_json_output_follows_the_contract(command, contract, capsys, tmp_path, monkeypatch):
    import shutil

    from workbench.contract import Verdict

    if command in NEEDS and not shutil.which(NEEDS[command]):
        pytest.skip(f"{command} needs {NEEDS[command]}, not on PATH here")
    from workbench.paths import KERNELBENCH_LEVEL1

    if command in NEEDS_LEVEL1 and not KERNELBENCH_LEVEL1.is_dir():
        pytest.skip(f"{command} needs KernelBench level 1 at {KERNELBENCH_LEVEL1}, not there")
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "ws"))
    argv = _json_runs(tmp_path)[command] + ["--json"]
    code = main(argv)
    doc = contract(command, code, capsys.readouterr().out)
    if command == "show":
        (k,) = doc["kernels"]
        assert k["id"] == k["hashes"]["source"][:12] and set(k["hashes"]) == {"source", "ir_body", "ir_with_facts"}
    if command == "demo":
        assert {c["verdict"] for c in doc["checks"]} <= {v.value for v in Verdict}
        assert any(b["verdict"] == "bound" for b in doc["bindings"])


def _groups(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            if prefix:
                yield " ".join(prefix)
            for name, sub in sorted(action.choices.items()):
                yield from _groups(sub, prefix + (name,))


@pytest.mark.parametrize("group", sorted(set(_groups(build_parser()))))
def test_a_group_without_its_subcommand_is_a_usage_error(group, capsys):
    line = _one_line_error(capsys, group.split())
    assert "required" in line and f"workbench {group} --help" in line


@pytest.mark.parametrize("stdout, code, message", [
    ('[{"verdict": "certified"}]', 0, "not an object"),
    ('{"verdict": "ok"}', 0, "schema"),
    ('{"schema": "workbench.x/1", "verdict": "maybe"}', 0, "top-level verdict"),
    ('{"schema": "workbench.x/1", "verdict": "ok", "items": [{"verdict": "fine"}]}', 0, "outside the vocabulary"),
    ('{"schema": "workbench.x/1", "verdict": "refused"}', 0, "exit 0"),
    ('{"schema": "workbench.x/1", "verdict": "ok"}', 1, "exit 1"),
    ('{"schema": "workbench.x/1", "verdict": "ok"}\nmore', 0, "Extra data"),
])
def test_the_contract_check_fails_on_broken_documents(stdout, code, message, contract):
    with pytest.raises((AssertionError, ValueError), match=message):
        contract("x", code, stdout)
