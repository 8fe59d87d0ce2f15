"""The output contract as one assertion, shared by the contract and chain tests (docs/cli.md)."""

from __future__ import annotations

import json
import re

import pytest

from workbench.contract import ACCEPTED, Verdict

SCHEMA = re.compile(r"workbench\.[a-z0-9_.-]+/\d+")
VOCABULARY = {v.value for v in Verdict}
# commands that only report: exit 0 whatever the verdict (docs/cli.md, "Exit codes")
REPORTS = {"rule show", "floats flags"}


def _verdicts(node, where="$"):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "verdict" and isinstance(v, str):
                yield where, v
            yield from _verdicts(v, f"{where}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _verdicts(v, f"{where}[{i}]")


def check_document(command: str, code: int, stdout: str) -> dict:
    """stdout is one JSON object with a schema and a top-level verdict from the vocabulary, every nested
    ``verdict`` is from the vocabulary too, and the exit code agrees with the verdict."""
    doc = json.loads(stdout)  # nothing but the document on stdout
    assert isinstance(doc, dict), f"{command}: --json printed a {type(doc).__name__}, not an object"
    assert SCHEMA.fullmatch(str(doc.get("schema"))), f"{command}: schema {doc.get('schema')!r}"
    assert doc.get("verdict") in VOCABULARY, f"{command}: top-level verdict {doc.get('verdict')!r}"
    bad = [(w, v) for w, v in _verdicts(doc) if v not in VOCABULARY]
    assert not bad, f"{command}: verdicts outside the vocabulary: {bad[:5]}"
    accepted = Verdict(doc["verdict"]) in ACCEPTED
    want = 0 if accepted or command in REPORTS else 1
    assert code == want, f"{command}: exit {code} with verdict {doc['verdict']!r} (expected {want})"
    return doc


@pytest.fixture()
def contract():
    return check_document
