"""Every registered sub-command follows the CLI contract (docs/cli.md): ``--help`` works, a bad flag and a
bad input each exit 2 with one line on stderr and no traceback. Commands are enumerated from
``build_parser()``, so a command added later is covered without editing this file."""

from __future__ import annotations

import argparse

import pytest

from workbench.cli import build_parser, main

BAD_INPUT = "/nonexistent/workbench-input.json"


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


@pytest.mark.parametrize("argv, kind", [
    (["list", "--json"], "programs"),
    (["show", "tile", "--json", "--hashes"], "show"),
    (["demo", "--json"], "demo"),
])
def test_json_outputs_follow_the_contract(argv, kind, capsys, tmp_path, monkeypatch):
    import json

    from workbench.contract import Verdict

    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path))
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)  # nothing but the document on stdout
    assert doc["schema"] == f"workbench.{kind}/1" and Verdict(doc["verdict"]) is Verdict.OK
    if kind == "show":
        (k,) = doc["kernels"]
        assert k["id"] == k["hashes"]["source"][:12] and set(k["hashes"]) == {"source", "ir_body", "ir_with_facts"}
    if kind == "demo":
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
