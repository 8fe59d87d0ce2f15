"""``--nvcc-flags --fmad=false`` (the space form users type) parses like ``--nvcc-flags=--fmad=false``
(issue 27): argparse alone rejects a value that starts with "-"."""

from __future__ import annotations

import pytest

from workbench.cli import attach_dash_values, build_parser


@pytest.mark.parametrize("argv", [
    ["floats", "check", "spec.py", "k.cu", "--level", "ptx", "--nvcc-flags", "--fmad=false"],
    ["floats", "check", "spec.py", "k.cu", "--level", "ptx", "--nvcc-flags=--fmad=false"],
    ["floats", "check", "spec.py", "k.cu", "--nvcc-flags", "--fmad=false", "--level", "ptx"],
])
def test_space_and_equals_forms_parse_alike(argv):
    args = build_parser().parse_args(attach_dash_values(argv))
    assert args.nvcc_flags == "--fmad=false" and args.level == "ptx"


def test_quoted_several_flags_and_plain_values_are_left_alone():
    argv = ["floats", "check", "s.py", "k.cu", "--nvcc-flags", "--fmad=false --ftz=true"]
    assert attach_dash_values(argv)[-1] == "--nvcc-flags=--fmad=false --ftz=true"
    assert build_parser().parse_args(attach_dash_values(argv)).nvcc_flags == "--fmad=false --ftz=true"
    assert attach_dash_values(["list", "--nvcc-flags"]) == ["list", "--nvcc-flags"]  # argparse names the gap


def test_the_space_form_reaches_the_command(capsys):
    """Through ``main``: the space form is no longer a usage error from the option parser (what happens next
    is the floats stage's: here a missing spec file, one line, exit 2)."""
    from workbench.cli import main

    code = main(["floats", "check", "/nonexistent/spec.py", "/nonexistent/k.cu", "--level", "ptx",
                 "--nvcc-flags", "--fmad=false"])
    err = capsys.readouterr().err
    assert code == 2 and "expected one argument" not in err and err.count("\n") == 1, err
