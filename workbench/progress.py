"""Progress for anything that can take over two seconds: named phases, and bars with counts.

Stage: none (used by capture, crosscheck, rule, check --all, bench). Where it shows:

* in a notebook (an IPython kernel with ipywidgets): one ipywidgets row per phase or bar — a label, an
  ``IntProgress`` and the counts — never tqdm's stderr box, which JupyterLab paints pink like an error;
* in a terminal (stderr is a tty): tqdm on stderr;
* elsewhere (pipes, files, tests): nothing, so machine-readable stdout and one-line errors stay clean.
  ``WORKBENCH_PROGRESS=1`` forces the terminal form, ``WORKBENCH_PROGRESS=0`` silences every form.

A bar or phase that ends by an exception is left as it was (the widget turns red); it never prints a line of
its own, so an input error is still the one line the CLI prints.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterable, Iterator
from enum import StrEnum
from typing import TypeVar

T = TypeVar("T")
ENV = "WORKBENCH_PROGRESS"


class Backend(StrEnum):
    WIDGET = "widget"
    TERMINAL = "terminal"
    QUIET = "quiet"


def backend() -> Backend:
    """Which form progress takes here (see the module docstring)."""
    forced = os.environ.get(ENV, "")
    if forced == "0":
        return Backend.QUIET
    if _in_notebook():
        return Backend.WIDGET
    if forced == "1" or sys.stderr.isatty():
        return Backend.TERMINAL
    return Backend.QUIET


def _in_notebook() -> bool:
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    try:
        ip = shell.get_ipython()
        import ipywidgets  # noqa: F401
    except Exception:  # IPython without a kernel, or no ipywidgets: not a notebook we can draw in
        return False
    return ip is not None and type(ip).__name__ == "ZMQInteractiveShell"


class _WidgetBar:
    """One row: ``label [#####.....] n/total unit, elapsed``."""

    def __init__(self, desc: str, total: int | None, unit: str):
        import ipywidgets as w
        from IPython.display import display

        self.total, self.unit, self.start = total, unit, time.monotonic()
        self.bar = w.IntProgress(value=0, min=0, max=max(total or 1, 1), description=desc,
                                 style={"description_width": "initial"}, bar_style="info")
        self.counts = w.Label(value=self._text(0))
        self.box = w.HBox([self.bar, self.counts])
        self.box.add_class("workbench-progress")
        display(self.box)

    def _text(self, n: int) -> str:
        total = "?" if self.total is None else str(self.total)
        return f"{n}/{total} {self.unit} · {time.monotonic() - self.start:.1f} s"

    def update(self, n: int) -> None:
        self.bar.value = min(n, self.bar.max)
        self.counts.value = self._text(n)

    def close(self, n: int, ok: bool) -> None:
        if ok and self.total is None:
            self.bar.value = self.bar.max
        self.counts.value = self._text(n) + ("" if ok else " · failed")
        self.bar.bar_style = "success" if ok else "danger"


def track(items: Iterable[T], desc: str, unit: str = "item", total: int | None = None) -> Iterator[T]:
    """Iterate ``items`` showing a bar with counts (``total`` defaults to ``len(items)`` when it has one)."""
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    match backend():
        case Backend.QUIET:
            yield from items
        case Backend.TERMINAL:
            from tqdm import tqdm

            yield from tqdm(items, desc=desc, unit=unit, total=total, file=sys.stderr)
        case Backend.WIDGET:
            row = _WidgetBar(desc, total, unit)
            n, ok = 0, False
            try:
                for item in items:
                    yield item
                    n += 1
                    row.update(n)
                ok = True
            finally:
                row.close(n, ok)


@contextlib.contextmanager
def phase(desc: str) -> Iterator[None]:
    """A step with no count (one compilation, one subprocess): shown while it runs, then its duration."""
    match backend():
        case Backend.QUIET:
            yield
        case Backend.TERMINAL:
            start = time.monotonic()
            print(f"{desc} ...", file=sys.stderr, flush=True)
            yield
            print(f"{desc}: done in {time.monotonic() - start:.1f} s", file=sys.stderr, flush=True)
        case Backend.WIDGET:
            row = _WidgetBar(desc, None, "step")
            ok = False
            try:
                yield
                ok = True
            finally:
                row.close(1 if ok else 0, ok)


class Counter:
    """A bar advanced by hand (``update(n)``, ``note(text)``), for work that reports as it finishes (worker
    processes, callbacks). Same three forms as :func:`track`; in the quiet form every call does nothing."""

    def __init__(self, total: int | None, desc: str, unit: str, scale: bool = False, enabled: bool = True):
        self.n, self.total, self._tqdm, self._row, self._note = 0, total, None, None, ""
        match backend() if enabled else Backend.QUIET:
            case Backend.QUIET:
                pass
            case Backend.TERMINAL:
                from tqdm import tqdm

                self._tqdm = tqdm(total=total, desc=desc, unit=unit, unit_scale=scale, file=sys.stderr,
                                  mininterval=0.5)
            case Backend.WIDGET:
                self._row = _WidgetBar(desc, total, unit)

    def update(self, n: int = 1) -> None:
        self.n += n
        if self._tqdm is not None:
            self._tqdm.update(n)
        elif self._row is not None:
            self._row.update(self.n)

    def note(self, text: str) -> None:
        """A short status beside the counts (e.g. ``certified=12 failed=1``)."""
        self._note = text
        if self._tqdm is not None:
            self._tqdm.set_postfix_str(text, refresh=False)
        elif self._row is not None:
            self._row.counts.value = self._row._text(self.n) + f" · {text}"

    def close(self, ok: bool = True) -> None:
        if self._tqdm is not None:
            self._tqdm.close()
        elif self._row is not None:
            self._row.close(self.n, ok)


@contextlib.contextmanager
def counter(total: int | None, desc: str, unit: str = "item", scale: bool = False) -> Iterator[Counter]:
    """``with counter(n, "oracle", "kernel") as bar: ... bar.update()``; the widget turns red on an exception."""
    c = Counter(total, desc, unit, scale)
    ok = False
    try:
        yield c
        ok = True
    finally:
        c.close(ok)
