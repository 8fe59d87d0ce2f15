"""The ``workbench`` command line: one dispatcher, one sub-command module per stage.

Each stage package owns its sub-commands in ``workbench/<stage>/cli.py`` with a function
``register(subparsers)`` that adds parsers whose ``func`` attribute takes the parsed namespace and returns an
exit code. Errors derived from :class:`WorkbenchError` are printed as one clear message (exit 2); anything
else is a bug and keeps its traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from workbench.errors import WorkbenchError

# Stage modules that contribute sub-commands, in the order their commands are listed in ``--help``.
STAGE_CLIS = (
    "workbench.capture.cli",
    "workbench.kir.cli",
    "workbench.check.cli",
    "workbench.rule.cli",
    "workbench.lean.cli",
    "workbench.bench.cli",
    "workbench.floats.cli",
    "workbench.zoo.cli",
    "workbench.demo",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="workbench",
        description="Kernel Proof Workbench: capture, check, certify and time Inductor's Triton kernels.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in STAGE_CLIS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            # A stage that is not built yet contributes no commands; any other missing module is a bug.
            if exc.name == name:
                continue
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 1
    try:
        return int(args.func(args) or 0)
    except WorkbenchError as exc:
        print(f"workbench: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
