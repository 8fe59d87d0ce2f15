"""Progress of ``floats check``'s steps, through the project's one progress facility (stage: floats).

docs/cli.md promises named phases and counts for anything over two seconds (``workbench/progress.py``: tqdm
on a terminal, an ipywidgets row in a notebook, nothing in pipes and tests). ``Steps.step(name, total,
unit)`` wraps one step of a check (capturing the spec, parsing the kernel, reading KernelBench files, the
safety gate, the case split): with a count it is a ``progress.counter`` advanced by ``Step.advance``,
without one a ``progress.phase``. ``Steps(False)`` (``--no-progress``, the API default ``QUIET``) shows
nothing; ``--progress`` forces the terminal form where stderr is not a terminal. The 2**32 sweep keeps its
own tqdm bar.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Iterator

from workbench import progress


@dataclass
class Step:
    name: str
    total: int | None
    done: int = 0
    bar: progress.Counter | None = None

    def advance(self, k: int = 1) -> None:
        self.done += k
        if self.bar is not None:
            self.bar.update(k)


class Steps:
    def __init__(self, enabled: bool):
        self.enabled = enabled

    @contextlib.contextmanager
    def step(self, name: str, total: int | None = None, unit: str = "step") -> Iterator[Step]:
        s = Step(name, total)
        if not self.enabled:
            yield s
        elif total is None:
            with progress.phase(f"floats: {name}"):
                yield s
        else:
            with progress.counter(total, f"floats: {name}", unit) as bar:
                s.bar = bar
                yield s


QUIET = Steps(False)

__all__ = ["QUIET", "Step", "Steps"]
