"""Typed errors of the Lean stage (emitter, language-server session, ``lake`` checks).

Each derives from a class in :mod:`workbench.errors` and carries what a caller needs to act: the install
instructions, the server's stderr tail, the request that timed out, the offending path.
"""

from __future__ import annotations

from workbench.errors import InputError, ToolMissingError, UsageError, WorkbenchError

# Shown wherever Lean is missing (CLI, session, widget, notebook). The toolchain itself is read from
# lean/lean-toolchain by elan when `lake` first runs in that folder.
INSTALL_HINT = (
    "install elan (the Lean toolchain manager): "
    "`curl https://elan.lean-lang.org/elan-init.sh -sSf | sh -s -- -y --default-toolchain none`, "
    "open a new shell (or `source ~/.elan/env`), then run `lake build` in lean/ "
    "(elan downloads the toolchain pinned in lean/lean-toolchain)"
)


class LeanError(WorkbenchError):
    """Base class of the Lean stage's errors."""


class LeanNotInstalledError(LeanError, ToolMissingError):
    """``lake`` (or the given server command) is not on PATH."""

    def __init__(self, command: str, place: str = "") -> None:
        where = f" ({place})" if place else ""
        super().__init__(f"Lean is not installed here: `{command}` was not found on PATH{where}; {INSTALL_HINT}")
        self.command = command
        self.install_hint = INSTALL_HINT


class LeanServerCrashedError(LeanError):
    """The language server died or broke the protocol; ``stderr_tail`` holds its last words."""

    def __init__(self, message: str, stderr_tail: str = "") -> None:
        tail = stderr_tail.strip()
        shown = "\n".join(tail.splitlines()[-20:]) if tail else "(no stderr output)"
        super().__init__(
            f"{message}; server stderr tail:\n{shown}\n"
            "Restart the session (LeanSession.start) after fixing the cause; `lake build` in lean/ shows build errors."
        )
        self.stderr_tail = stderr_tail


class LeanProtocolError(LeanServerCrashedError):
    """The server sent a message that is not valid LSP (bad framing or JSON); the connection is closed."""


class LeanRequestTimeoutError(LeanError):
    """A request exceeded its deadline; a ``$/cancelRequest`` was sent and the session is still usable."""

    def __init__(self, method: str, path: str, timeout: float) -> None:
        super().__init__(
            f"Lean request {method} on {path} timed out after {timeout:g} s and was cancelled; "
            "elaboration may still be running: retry with a larger timeout (LeanSession(timeout=...))"
        )
        self.method = method
        self.path = path
        self.timeout = timeout


class FileOutsideProjectError(LeanError, UsageError):
    """A file given to the session is not inside the Lake project it serves."""

    def __init__(self, path: str, project: str) -> None:
        super().__init__(
            f"{path} is outside the Lean project {project}; the server only elaborates files of its own "
            "project: move the file under that folder or start the session on the project that contains it"
        )
        self.path = path
        self.project = project


class InstanceError(LeanError, InputError):
    """An instance (or certificate) cannot be emitted as Lean: the field, the kernel and the fix are named."""
