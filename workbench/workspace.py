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
SUBDIRS = ("kernels", "certificates", "lean", "runs", "zoo", "floats", "figures", "asm")


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


LAKEFILE = """\
# The workspace's Lake project, written by the workbench (workbench.workspace.lean_project); do not edit.
# `Narrowing.lean` and `Narrowing/` link to the checkout's shipped library (read, never written): every
# build product lands in this folder's .lake, so a read-only checkout works. `Instances.lean` imports every
# file in Instances/ and is rewritten on each `workbench lean emit`.
name = "narrowing_workspace"
version = "0.1.0"
defaultTargets = ["Instances"]

[[lean_lib]]
name = "Narrowing"

[[lean_lib]]
name = "Instances"
"""


def lean_project(explicit: str | os.PathLike | None = None) -> Path:
    """``<workspace>/lean``, made a Lake project that uses the checkout's ``Narrowing`` library, so that
    ``workbench lean goals|check`` work on the instances ``lean emit`` writes there (docs/lean.md). Idempotent:
    the lakefile, toolchain, links and the ``Instances.lean`` index are brought up to date on every call."""
    import shutil

    shipped = ROOT / "lean"
    project = subdir("lean", explicit)
    (project / "Instances").mkdir(exist_ok=True)
    _write_if_changed(project / "lakefile.toml", LAKEFILE)
    _write_if_changed(project / "lean-toolchain", (shipped / "lean-toolchain").read_text())
    for name in ("Narrowing.lean", "Narrowing"):
        link, target = project / name, shipped / name
        if link.is_symlink() and link.resolve() == target.resolve():
            continue
        if link.is_symlink() or link.is_file():
            link.unlink()
        elif link.is_dir():
            shutil.rmtree(link)
        try:
            link.symlink_to(target, target_is_directory=target.is_dir())
        except OSError:  # no symlinks on this file system: a copy (refreshed on the next call)
            (shutil.copytree if target.is_dir() else shutil.copyfile)(target, link)
    modules = sorted(p.stem for p in (project / "Instances").glob("*.lean"))
    _write_if_changed(project / "Instances.lean", "".join(f"import Instances.{m}\n" for m in modules))
    return project


def _write_if_changed(path: Path, text: str) -> None:
    if not path.is_file() or path.read_text() != text:
        path.write_text(text)


def add_argument(parser) -> None:
    """Add ``--workspace DIR`` to an argparse parser (every command that writes uses this)."""
    parser.add_argument(
        "--workspace",
        metavar="DIR",
        default=None,
        help=f"where outputs go (default: ${ENV}, else ~/.local/share/kernel-proof-workbench)",
    )
