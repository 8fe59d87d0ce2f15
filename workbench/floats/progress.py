"""Progress of ``floats check`` on a terminal: one stderr line for any step that runs longer than 2 s.

docs/cli.md promises progress for every step over 2 s. ``Steps.step(name, total, unit)`` is a context
manager around one step (capturing the spec, parsing the kernel, the safety gate, the case split); the step
advances its count with ``Step.advance``. A daemon thread redraws ``floats: <name> <done>/<total> <unit>
(<elapsed> s)`` every quarter second once the step has run ``after`` seconds, and the step's end prints its
final count and time on that line. Quick steps print nothing; a disabled ``Steps`` (not a terminal,
``--no-progress``, ``--json`` to a pipe) costs one attribute check. The 2**32 sweep keeps its tqdm bar.
"""

from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator, TextIO

AFTER_S = 2.0
EVERY_S = 0.25


@dataclass
class Step:
    name: str
    total: int | None
    unit: str
    start: float
    done: int = 0
    shown: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def advance(self, k: int = 1) -> None:
        with self.lock:
            self.done += k

    def line(self, now: float) -> str:
        count = f" {self.done:,}/{self.total:,} {self.unit}" if self.total is not None else ""
        return f"floats: {self.name}{count} ({now - self.start:.1f} s)"


class Steps:
    def __init__(self, enabled: bool, stream: TextIO | None = None, after: float = AFTER_S, every: float = EVERY_S):
        self.enabled, self.stream, self.after, self.every = enabled, stream or sys.stderr, after, every

    @contextmanager
    def step(self, name: str, total: int | None = None, unit: str = "") -> Iterator[Step]:
        s = Step(name, total, unit, time.monotonic())
        if not self.enabled:
            yield s
            return
        stop = threading.Event()

        def draw() -> None:
            while not stop.wait(self.every):
                now = time.monotonic()
                if now - s.start >= self.after:
                    with s.lock:
                        self.stream.write("\r" + s.line(now) + " ")
                        self.stream.flush()
                        s.shown = True

        t = threading.Thread(target=draw, daemon=True)
        t.start()
        try:
            yield s
        finally:
            stop.set()
            t.join()
            now = time.monotonic()
            if s.shown or now - s.start >= self.after:
                self.stream.write("\r" + s.line(now) + " done\n")
                self.stream.flush()


QUIET = Steps(False)

__all__ = ["QUIET", "Step", "Steps"]
