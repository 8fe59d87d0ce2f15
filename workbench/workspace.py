"""Where a user's artefacts go: a workspace outside the checkout.

The repository's ``data/`` is the shipped corpus and is read-only at run time. Everything a command writes
(captured kernels, certificates, Lean instances, run records) goes under the workspace: ``--workspace DIR``
on the command line, else ``$WORKBENCH_HOME``, else ``$XDG_DATA_HOME/kernel-proof-workbench`` (default
``~/.local/share/kernel-proof-workbench``). Commands chain by paths inside it.
"""

from __future__ import annotations

import os
from pathlib import Path

from workbench.errors import UsageError
from workbench.paths import ROOT

ENV = "WORKBENCH_HOME"
SUBDIRS = ("kernels", "certificates", "lean", "runs", "zoo", "floats", "figures")


def workspace(explicit: str | os.PathLike | None = None) -> Path:
    """The workspace root (created on demand); refuses a path inside the checkout's ``data/`` or ``lean/``."""
    if explicit:
        root = Path(explicit)
    elif os.environ.get(ENV):
        root = Path(os.environ[ENV])
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
        root = base / "kernel-proof-workbench"
    root = root.expanduser().resolve()
    for shipped in (ROOT / "data", ROOT / "lean"):
        if root == shipped or shipped in root.parents:
            raise UsageError(
                f"workspace {str(root)!r} is inside the checkout's shipped {shipped.name}/ folder, which is "
                f"read-only at run time; pass --workspace DIR outside it or set {ENV}"
            )
    root.mkdir(parents=True, exist_ok=True)
    return root


def subdir(name: str, explicit: str | os.PathLike | None = None) -> Path:
    """One of the workspace's folders (``kernels``, ``certificates``, ...), created on demand."""
    if name not in SUBDIRS:
        raise ValueError(f"unknown workspace folder {name!r}")
    path = workspace(explicit) / name
    path.mkdir(parents=True, exist_ok=True)
    return path


def figures(explicit: str | os.PathLike | None = None) -> Path:
    """Where figures drawn at run time go (notebooks, ``workbench figures``): ``<workspace>/figures``. The
    checkout's ``figures/`` is written only by ``workbench figures --regenerate``."""
    return subdir("figures", explicit)


def add_argument(parser) -> None:
    """Add ``--workspace DIR`` to an argparse parser (every command that writes uses this)."""
    parser.add_argument(
        "--workspace",
        metavar="DIR",
        default=None,
        help=f"where outputs go (default: ${ENV}, else ~/.local/share/kernel-proof-workbench)",
    )
