"""GoalStepper: choose a theorem of a Lean file, step forward and back through its tactics, and see the
theorem's statement, the hypotheses and goals before and after each step, and the diagnostics on that step's
lines. The back/forward buttons are disabled at the first/last step. For a generated instance the stepper
also says how the checker's side-condition count relates to the instance's ``side_k`` theorems.

The state lives in ``GoalStepperModel`` (plain Python, tested without a browser); every computation is a
call into ``workbench.lean`` (the session for goals and diagnostics, ``steps`` for tactic positions).
Without Lean the stepper still lists theorems and tactic steps from the text, says that Lean is not
installed and how to install it, and never raises: failures of the server (not installed, crashed,
timed out) become the ``message`` shown above the goals.
"""

from __future__ import annotations

import html
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import ipywidgets as w

from workbench.errors import WorkbenchError
from workbench.lean.check import lean_status
from workbench.lean.errors import INSTALL_HINT, LeanError, LeanNotInstalledError
from workbench.lean.paths import PROJECT
from workbench.lean.session import Diagnostic, GoalState, LeanSession, StepGoals
from workbench.lean.steps import TacticStep, tactic_steps, theorems


NOT_INSTALLED = "Lean is not installed here, so no goals can be shown."


@dataclass(frozen=True, slots=True)
class StepView:
    """What the stepper shows for the current position."""

    theorem: str | None
    index: int
    count: int
    step: TacticStep | None
    before: GoalState | None
    after: GoalState | None
    diagnostics: tuple[Diagnostic, ...]
    message: str | None
    lean_status: str
    statement: str = ""
    at_start: bool = True
    at_end: bool = True


class GoalStepperModel:
    """Theorem choice, current step, and goals fetched lazily from a ``LeanSession``."""

    def __init__(self, path: Path | str, *, project: Path | str = PROJECT, session: LeanSession | None = None,
                 server_command: list[str] | None = None, timeout: float = 300.0) -> None:
        self.project = Path(project).resolve()
        self.session = session or LeanSession(self.project, server_command=server_command, timeout=timeout)
        self.path = self.session.relpath(path)
        self.text = (self.project / self.path).read_text(encoding="utf-8")
        self.theorems = theorems(self.text)
        self.theorem: str | None = None
        self.steps: tuple[TacticStep, ...] = ()
        self.index = 0
        self.message: str | None = None
        self._connected = False
        self._goals: dict[tuple[str, int], StepGoals] = {}
        self._diagnostics: tuple[Diagnostic, ...] | None = None
        self.lean_status = lean_status(self.project)["summary"]
        if server_command:
            self.lean_status += f" Goals come from the language server `{' '.join(server_command)}`."
        if self.theorems:
            self.select(self.theorems[0])
        command = self.session.server_command or ["lake"]
        if shutil.which(command[0]) is None and not Path(command[0]).exists():
            # Say so at once (not only when a step needs goals); connect() stays the one place that starts Lean.
            self.message = f"{NOT_INSTALLED} {INSTALL_HINT}."

    # -------------------------------------------------------------- navigation

    def select(self, theorem: str) -> None:
        if theorem not in self.theorems:
            raise WorkbenchError(f"no theorem {theorem!r} in {self.path}; theorems there: {list(self.theorems)}")
        self.theorem = theorem
        self.steps = tactic_steps(self.text, theorem)
        self.index = 0

    def forward(self) -> None:
        if self.index + 1 < len(self.steps):
            self.index += 1

    def back(self) -> None:
        if self.index > 0:
            self.index -= 1

    def goto(self, index: int) -> None:
        self.index = max(0, min(index, len(self.steps) - 1)) if self.steps else 0

    # -------------------------------------------------------------- Lean

    def connect(self) -> bool:
        """Start the session once; on failure record why (with install instructions) and return False."""
        if self._connected:
            return self.session.running
        self._connected = True
        try:
            self.session.start()
            self.session.open(self.path)
        except LeanNotInstalledError as exc:
            self.message = f"{NOT_INSTALLED} {exc.install_hint}."
            return False
        except LeanError as exc:
            self.message = f"Lean could not start: {exc}"
            return False
        return True

    def _fetch(self) -> tuple[GoalState | None, GoalState | None]:
        if not self.steps or self.theorem is None:
            return None, None
        key = (self.theorem, self.index)
        if key in self._goals:
            sg = self._goals[key]
            return sg.before, sg.after
        if not self.connect() or not self.session.running:
            return None, None
        step = self.steps[self.index]
        try:
            sg = StepGoals(step, self.session.goal(self.path, step.line, step.col),
                           self.session.goal(self.path, step.end_line, step.end_col))
            if self._diagnostics is None:
                self._diagnostics = self.session.diagnostics(self.path)
        except LeanError as exc:
            self.message = f"Lean failed at step {self.index + 1} of {self.theorem}: {exc}"
            return None, None
        self._goals[key] = sg
        return sg.before, sg.after

    def current(self) -> StepView:
        before, after = self._fetch()
        step = self.steps[self.index] if self.steps else None
        diags = ()
        if step is not None and self._diagnostics:
            diags = tuple(d for d in self._diagnostics if step.line <= d.line <= step.end_line)
        return StepView(self.theorem, self.index, len(self.steps), step, before, after, diags, self.message,
                        self.lean_status, self.statement(), self.index == 0,
                        not self.steps or self.index + 1 >= len(self.steps))

    def close(self) -> None:
        self.session.stop()

    def statement(self, theorem: str | None = None) -> str:
        """The theorem's binders and statement as written in the file (text before its ``:=``)."""
        from workbench.lean.structure import declarations

        decl = declarations(self.text).get(theorem or self.theorem or "", "")
        return " ".join(decl.split(":=", 1)[0].split())

    def side_condition_note(self) -> str | None:
        """How the checker's side conditions relate to this instance's ``side_k`` theorems (None if none)."""
        import re

        sides = [t for t in self.theorems if re.fullmatch(r"side_\d+", t)]
        if not sides:
            return None
        # the instance header's wording (issue 26: "discharged by the checker"; older instances: "proved")
        m = re.search(r"all (\d+) side conditions (?:discharged by the checker|proved)", self.text)
        checker = f"The checker discharged {m.group(1)} side conditions (exact / z3) over its own intervals" if m else \
            "The checker's side conditions are not recorded in this file"
        return (f"{checker}; this instance states {len(sides)} `side_k` theorems: the premises that the Lean "
                "interval lemmas need on each endpoint as `kernel_safe` re-derives every interval, one theorem per "
                "distinct claim (a claim needed at several nodes is stated once), all cited by `kernel_safe`. "
                "Conditions that are constants, or that follow from a lane's own facts, are closed inline by "
                "arithmetic. The two counts need not match: Lean's derivation is its own, and only the "
                "`side_k` theorems and `kernel_safe` are what Lean would check.")


# ------------------------------------------------------------------ rendering


def _text_html(text: str) -> str:
    """Escaped text with its `backticked` spans as code (messages and notes are written for a terminal too)."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def _goal_html(label: str, state: GoalState | None, why: str = "") -> str:
    if state is None:
        body = f"<i>goals unavailable{f' ({html.escape(why)})' if why else ''}</i>"
    elif state.status == "no_goal":
        body = "<i>no proof state at this position</i>"
    elif state.status == "complete":
        body = "<b>no goals</b>"
    else:
        parts = []
        for g in state.goals:
            hyps = "".join(f"<div><code>{html.escape(h)}</code></div>" for h in g.hypotheses)
            parts.append(f"<div style='margin:4px 0;padding:4px;border-left:3px solid #888'>{hyps}"
                         f"<div><code>⊢ {html.escape(g.target)}</code></div></div>")
        body = "".join(parts)
    return f"<div class='wb-goals'><b>{html.escape(label)}:</b> {body}</div>"


def _is_banner(message: str | None) -> bool:
    return bool(message) and message.startswith(NOT_INSTALLED)


def banner_html(view: StepView) -> str:
    """Lean's status, and how to install it when it is missing: shown once above the steps, not per step."""
    if _is_banner(view.message):
        return (f"<div class='wb-banner' style='color:#a40'><b>{_text_html(NOT_INSTALLED)}</b> "
                f"{_text_html(view.message[len(NOT_INSTALLED):].strip())} "
                f"<span style='color:#555'>({_text_html(view.lean_status)})</span></div>")
    return f"<div class='wb-banner' style='color:#555'>{_text_html(view.lean_status)}</div>"


def render_html(view: StepView) -> str:
    """The HTML of one step (used by the widget; testable on its own). Lean's status and the install
    instructions are :func:`banner_html`'s, shown once; a step says only why its goals are missing."""
    head = ""
    if view.statement:
        head += f"<div><b>Statement</b><pre style='margin:2px 0;white-space:pre-wrap'>{html.escape(view.statement)}</pre></div>"
    why = "Lean is not installed, see above" if _is_banner(view.message) else ""
    if view.message and not why:
        head += f"<div style='color:#a40'><b>{_text_html(view.message)}</b></div>"
    if view.step is None:
        return head + "<div><i>no tactic steps (term-mode proof, or no theorem)</i></div>"
    step = (f"<div>Step {view.index + 1} of {view.count} (line {view.step.line + 1}): "
            f"<pre style='margin:2px 0'>{html.escape(view.step.text)}</pre></div>")
    diags = "".join(
        f"<li>{html.escape(d.kind)} at line {d.line + 1}: {html.escape(d.message)}</li>" for d in view.diagnostics)
    return (head + step + _goal_html("Before", view.before, why) + _goal_html("After", view.after, why)
            + (f"<div><b>Diagnostics</b><ul>{diags}</ul></div>" if diags else ""))


class GoalStepper(w.VBox):
    """The widget: a theorem dropdown, back/forward buttons, and the rendered step."""

    def __init__(self, path: Path | str, **model_kwargs) -> None:
        self.model = GoalStepperModel(path, **model_kwargs)
        self.choice = w.Dropdown(options=list(self.model.theorems), description="theorem")
        self.prev = w.Button(description="◀ back")
        self.next = w.Button(description="forward ▶")
        self.view = w.HTML()
        note = self.model.side_condition_note()
        self.note = w.HTML(f"<div style='color:#335'>{_text_html(note)}</div>" if note else "")
        self.banner = w.HTML()
        self.choice.observe(self._on_choice, names="value")
        self.prev.on_click(lambda _b: self._move(self.model.back))
        self.next.on_click(lambda _b: self._move(self.model.forward))
        super().__init__([w.HBox([self.choice, self.prev, self.next]), self.banner, self.note, self.view])
        self.refresh()

    def _on_choice(self, change) -> None:
        if change["new"]:
            self.model.select(change["new"])
            self.refresh()

    def _move(self, action) -> None:
        action()
        self.refresh()

    def refresh(self) -> None:
        view = self.model.current()
        self.prev.disabled = view.at_start
        self.next.disabled = view.at_end
        banner = banner_html(view)
        if self.banner.value != banner:  # one banner row, rewritten only when Lean's state changes
            self.banner.value = banner
        self.view.value = render_html(view)
