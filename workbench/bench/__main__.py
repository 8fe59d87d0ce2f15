"""``python -m workbench.bench run PLAN.json --out RUN.json``: the harness without the full workbench CLI."""

from __future__ import annotations

import argparse
import sys

from workbench.bench.cli import add_commands
from workbench.errors import WorkbenchError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m workbench.bench")
    add_commands(parser.add_subparsers(dest="bench_command", metavar="COMMAND", required=True))
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except WorkbenchError as exc:
        print(f"workbench bench: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
