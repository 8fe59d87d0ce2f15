"""A Lean language-server session over ``leanclient`` (stage: prove; needs ``lake`` or an injected server).

``LeanSession`` starts ``lake serve`` in the Lake project (``lean/`` by default) through leanclient's
asyncio client (``leanclient.aio.AsyncLeanLSPClient``), which owns the process: Content-Length framing,
request ids, ``$/cancelRequest`` on timeout, process-group kill, a stderr tail. The session runs that
client's event loop on a private thread so that notebooks, widgets and the CLI call it synchronously, and
translates leanclient's exceptions into the workbench's (``workbench.lean.errors``):

* ``lake`` missing -> ``LeanNotInstalledError`` (with elan install instructions);
* the server process died -> ``LeanServerCrashedError`` (with its stderr tail);
* bad framing or JSON from the server -> ``LeanProtocolError`` (a ``LeanServerCrashedError``);
* a request past its deadline -> ``LeanRequestTimeoutError`` (leanclient has sent ``$/cancelRequest``);
* a path outside the project -> ``FileOutsideProjectError``.

``server_command`` replaces ``lake serve`` (tests inject a scripted fake server speaking the same protocol).
Positions are 0-based LSP lines and code-point columns, as leanclient takes them.
"""

from __future__ import annotations

import asyncio
import shutil
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from leanclient.aio import AsyncLeanLSPClient
from leanclient.aio.errors import (
    LeanClientError,
    LeanRequestCancelled,
    LeanRequestTimeout,
    LeanRpcError,
    LeanTransportError,
    LeanUnsupportedVersion,
    LeanWorkerCrashed,
)

from workbench.errors import UsageError
from workbench.lean.errors import (
    FileOutsideProjectError,
    LeanError,
    LeanNotInstalledError,
    LeanProtocolError,
    LeanRequestTimeoutError,
    LeanServerCrashedError,
)
from workbench.lean.paths import PROJECT
from workbench.lean.steps import TacticStep, tactic_steps, theorems

# leanclient's transport reports a protocol violation with these message prefixes (aio/transport.py).
_PROTOCOL_PREFIXES = ("Malformed", "Message without Content-Length")


@dataclass(frozen=True, slots=True)
class Goal:
    """One goal of ``$/lean/plainGoal``: the hypotheses above the turnstile and the target."""

    hypotheses: tuple[str, ...]
    target: str

    @staticmethod
    def parse(text: str) -> Goal:
        # Lean prints a goal as hypothesis lines, then `⊢ target` (possibly over several lines), optionally
        # preceded by a `case name` line which we keep as a hypothesis-like header.
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("⊢"):
                return Goal(tuple(lines[:i]), "\n".join([line[1:].strip(), *lines[i + 1:]]).strip())
        return Goal(tuple(lines), "")


@dataclass(frozen=True, slots=True)
class GoalState:
    """Goals at a position: ``goals`` (open goals), ``complete`` (no goals left) or ``no_goal`` (no proof state)."""

    status: str
    goals: tuple[Goal, ...] = ()
    rendered: str | None = None


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """An LSP diagnostic; lines 0-based; severity 1 error, 2 warning, 3 information, 4 hint."""

    line: int
    col: int
    end_line: int
    end_col: int
    severity: int
    message: str

    @property
    def kind(self) -> str:
        return {1: "error", 2: "warning", 3: "information", 4: "hint"}.get(self.severity, "unknown")


@dataclass(frozen=True, slots=True)
class StepGoals:
    """The goals before (at the tactic's start) and after (at its end) one tactic step."""

    step: TacticStep
    before: GoalState
    after: GoalState


class LeanSession:
    """A running language server on one Lake project; use as a context manager or call start/stop."""

    def __init__(
        self,
        project: Path | str = PROJECT,
        *,
        server_command: list[str] | None = None,
        timeout: float = 120.0,
    ) -> None:
        self.project = Path(project).resolve()
        self.server_command = server_command
        self.timeout = timeout
        self._client: AsyncLeanLSPClient | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._dead: LeanError | None = None

    # ------------------------------------------------------------------ lifecycle

    @property
    def running(self) -> bool:
        return self._client is not None and self._dead is None and self._client.alive

    def start(self) -> LeanSession:
        if self.running:
            return self
        command = self.server_command
        if command is None:
            if shutil.which("lake") is None:
                raise LeanNotInstalledError("lake", f"starting `lake serve` in {self.project}")
        elif shutil.which(command[0]) is None and not Path(command[0]).exists():
            raise LeanNotInstalledError(command[0], "the language-server command given to LeanSession")
        if not (self.project / "lakefile.toml").exists() and not (self.project / "lakefile.lean").exists():
            raise UsageError(f"{self.project} is not a Lake project (no lakefile.toml or lakefile.lean); pass the lean/ folder")
        self._dead = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="lean-session", daemon=True)
        self._thread.start()
        self._client = AsyncLeanLSPClient(str(self.project), request_timeout=self.timeout, server_command=command)
        try:
            self._call(self._client.start(), "initialize", str(self.project), self.timeout)
        except FileNotFoundError as exc:
            self.stop()
            raise LeanNotInstalledError((command or ["lake"])[0], "starting the language server") from exc
        except LeanError:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """Shut the server down (process group killed by leanclient) and end the loop thread."""
        client, loop, thread = self._client, self._loop, self._thread
        self._client = self._loop = self._thread = None
        if client is not None and loop is not None:
            try:
                asyncio.run_coroutine_threadsafe(client.close(), loop).result(timeout=15)
            except Exception:  # noqa: BLE001 - stopping must not raise; the process group is killed regardless
                pass
        if loop is not None:
            loop.call_soon_threadsafe(loop.stop)
        if thread is not None:
            thread.join(timeout=5)
        if loop is not None and not loop.is_running():
            loop.close()

    def __enter__(self) -> LeanSession:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # ------------------------------------------------------------------ plumbing

    def _stderr_tail(self) -> str:
        # leanclient keeps the tail on its transport; read the latest after giving the reader a moment.
        transport = getattr(self._client, "_transport", None)
        return transport.stderr_tail() if transport is not None else ""

    def _call(self, coro, method: str, path: str, timeout: float | None = None):
        if self._client is None or self._loop is None:
            coro.close()
            raise LeanServerCrashedError("the Lean session is not running; call start() first")
        if self._dead is not None:
            coro.close()
            raise self._dead
        fut = asyncio.run_coroutine_threadsafe(coro, self._loop)
        limit = (timeout or self.timeout) + 10
        try:
            return fut.result(timeout=limit)
        except LeanRequestTimeout:
            raise LeanRequestTimeoutError(method, path, timeout or self.timeout) from None
        except TimeoutError:
            fut.cancel()  # cancelling the task makes leanclient send $/cancelRequest
            raise LeanRequestTimeoutError(method, path, timeout or self.timeout) from None
        except LeanTransportError as exc:
            time.sleep(0.2)
            tail = self._stderr_tail() or exc.stderr_tail
            message = str(exc)
            cls = LeanProtocolError if message.startswith(_PROTOCOL_PREFIXES) else LeanServerCrashedError
            self._dead = cls(f"Lean server failed during {method} on {path}: {message}", tail)
            raise self._dead from None
        except LeanWorkerCrashed as exc:
            raise LeanServerCrashedError(f"the Lean worker for {path} crashed during {method}: {exc}", self._stderr_tail()) from None
        except LeanRequestCancelled as exc:
            raise LeanRequestTimeoutError(method, path, timeout or self.timeout) from exc
        except LeanUnsupportedVersion as exc:
            raise LeanError(f"{exc} (project {self.project})") from None
        except LeanRpcError as exc:
            raise LeanError(f"Lean server answered {method} on {path} with error {exc.code}: {exc.rpc_message}") from None
        except LeanClientError as exc:
            raise LeanError(f"Lean client error during {method} on {path}: {exc}") from None

    def relpath(self, path: Path | str) -> str:
        """The project-relative path of a file inside the project; anything else is refused by name."""
        p = Path(path)
        full = (p if p.is_absolute() else Path.cwd() / p).resolve()
        if not full.is_relative_to(self.project):
            cand = (self.project / p).resolve()
            if not p.is_absolute() and cand.is_relative_to(self.project) and cand.exists():
                full = cand
            else:
                raise FileOutsideProjectError(str(path), str(self.project))
        if not full.exists():
            raise UsageError(f"{full} does not exist; give a .lean file of the project {self.project}")
        return str(full.relative_to(self.project))

    # ------------------------------------------------------------------ queries

    def open(self, path: Path | str) -> str:
        """Open (and elaborate) a file; returns its project-relative path."""
        rel = self.relpath(path)
        self._call(self._client.open(rel), "textDocument/waitForDiagnostics (elaborating after didOpen)", rel)
        return rel

    def update(self, path: Path | str, text: str) -> str:
        """Replace the open document's text (``textDocument/didChange``, full text) and wait for elaboration;
        the file on disk is not touched."""
        rel = self.open(path)
        self._call(self._client.update(rel, text, wait=True), "textDocument/didChange", rel)
        return rel

    def text(self, path: Path | str) -> str:
        return (self.project / self.relpath(path)).read_text(encoding="utf-8")

    def diagnostics(self, path: Path | str) -> tuple[Diagnostic, ...]:
        rel = self.open(path)
        report = self._call(self._client.diagnostics(rel), "textDocument/publishDiagnostics", rel)
        out = []
        for d in report.items:
            r = d.get("range") or {}
            s, e = r.get("start", {}), r.get("end", {})
            out.append(Diagnostic(s.get("line", 0), s.get("character", 0), e.get("line", 0), e.get("character", 0),
                                  int(d.get("severity", 1)), str(d.get("message", ""))))
        return tuple(sorted(out, key=lambda d: (d.line, d.col, d.severity, d.message)))

    def goal(self, path: Path | str, line: int, col: int) -> GoalState:
        rel = self.open(path)
        res = self._call(self._client.goal(rel, line, col), "$/lean/plainGoal", rel)
        return GoalState(res.status, tuple(Goal.parse(g) for g in res.goals), res.rendered)

    def term_goal(self, path: Path | str, line: int, col: int) -> str | None:
        rel = self.open(path)
        res = self._call(self._client.term_goal(rel, line, col), "$/lean/plainTermGoal", rel)
        return None if not res else str(res.get("goal", ""))

    def theorems(self, path: Path | str) -> tuple[str, ...]:
        return theorems(self.text(path))

    def steps(self, path: Path | str, theorem: str) -> tuple[TacticStep, ...]:
        try:
            return tactic_steps(self.text(path), theorem)
        except KeyError:
            raise UsageError(f"no theorem {theorem!r} in {path}; theorems there: {list(self.theorems(path))}") from None

    def step_goals(self, path: Path | str, theorem: str) -> tuple[StepGoals, ...]:
        """Goals before and after every tactic step of ``theorem``."""
        return tuple(
            StepGoals(s, self.goal(path, s.line, s.col), self.goal(path, s.end_line, s.end_col))
            for s in self.steps(path, theorem)
        )
