"""The ``workbench`` command line: one dispatcher, one sub-command module per stage.

Each stage package owns its sub-commands in ``workbench/<stage>/cli.py`` with a function
``register(subparsers)`` that adds parsers whose ``func`` attribute takes the parsed namespace and returns an
exit code. Errors derived from :class:`WorkbenchError` are printed as one clear message (exit 2); anything
else is a bug and keeps its traceback. A reader that closes the output early (``| head``) ends the command
quietly with :data:`CLOSED_PIPE`. Global options (``--workspace``) go before the command.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from workbench.errors import WorkbenchError
from workbench.workspace import ENV as ENV_HOME

# Stage modules that contribute sub-commands, in the order their commands are listed in ``--help``.
STAGE_CLIS = (
    "workbench.capture.cli",
    "workbench.kir.cli",
    "workbench.check.cli",
    "workbench.rule.cli",
    "workbench.lean.cli",
    "workbench.bench.cli",
    "workbench.floats.cli",
    "workbench.oracle.cli",
    "workbench.zoo.cli",
    "workbench.figures_cli",
    "workbench.demo",
)


class _Parser(argparse.ArgumentParser):
    """argparse with the contract's one-line usage error (exit 2) instead of the usage block; sub-command
    parsers inherit it (``add_subparsers`` uses the parent's class)."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}; see `{self.prog} --help`\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="workbench",
        description="Kernel Proof Workbench: capture, check, certify and time Inductor's Triton kernels.",
    )
    # Global options, before the command (``workbench --workspace DIR list``); a command's own option of the
    # same name after it wins where both are given.
    parser.add_argument("--workspace", metavar="DIR", dest="global_workspace", default=None,
                        help="where outputs go, for any command (default: $WORKBENCH_HOME, else "
                             "~/.local/share/kernel-proof-workbench)")
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
    _require_subcommands(parser, top=True)
    return parser


def _require_subcommands(parser: argparse.ArgumentParser, top: bool = False) -> None:
    """A command group named without its sub-command (``workbench rule``) is a usage error (exit 2, one
    line), whatever its module set as a default."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            action.required = action.required or not top
            for child in action.choices.values():
                _require_subcommands(child)


# Options whose value is itself a command-line flag (``--nvcc-flags --fmad=false``). argparse reads a value that
# starts with "-" as the next option and fails ("expected one argument"); users type the space form, so it is
# rewritten to the ``=`` form, which argparse accepts.
DASH_VALUED = ("--nvcc-flags",)


def attach_dash_values(argv: list[str]) -> list[str]:
    """``[..., "--nvcc-flags", "--fmad=false", ...]`` -> ``[..., "--nvcc-flags=--fmad=false", ...]``; a value
    that does not start with "-" (or the ``=`` form) is left to argparse."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        if argv[i] in DASH_VALUED and i + 1 < len(argv) and argv[i + 1].startswith("-") and argv[i + 1] != "--":
            out.append(f"{argv[i]}={argv[i + 1]}")
            i += 2
        else:
            out.append(argv[i])
            i += 1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = attach_dash_values(list(sys.argv[1:] if argv is None else argv))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error already printed as one line (2)
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    env = dict(os.environ)
    _apply_global_options(args)
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # here, not at interpreter exit, so a closed pipe is caught below
        return code
    except WorkbenchError as exc:
        print(f"workbench: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return _closed_pipe()
    finally:
        if os.environ.get(ENV_HOME) != env.get(ENV_HOME):  # main() called in-process (tests, notebooks)
            os.environ.pop(ENV_HOME, None) if ENV_HOME not in env else os.environ.update({ENV_HOME: env[ENV_HOME]})


# The exit code of a command whose reader closed its output (``workbench check --json ... | head -c 10``): what a
# shell reports for a process ended by SIGPIPE (128 + 13), as ``yes | head`` does. No traceback, no message.
CLOSED_PIPE = 141


def _closed_pipe() -> int:
    """Point stdout at /dev/null so the interpreter's final flush of the unwritten rest cannot raise again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a real file (a test's capture): nothing will flush it
        pass
    return CLOSED_PIPE


def _apply_global_options(args: argparse.Namespace) -> None:
    """``--workspace`` before the command: the command's own ``--workspace`` when it has one and was not given,
    and ``$WORKBENCH_HOME`` for everything the command (or a child process it starts) resolves later."""
    ws = getattr(args, "global_workspace", None)
    if ws is None:
        return
    if getattr(args, "workspace", None) is None:
        args.workspace = ws
    os.environ[ENV_HOME] = str(args.workspace)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
