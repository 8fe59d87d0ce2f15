"""Why a capture failed, said in the user's terms: whose code raised, where, and what to do.

Stage: capture. A ``torch.compile`` run fails for one of a few reasons, and each has its own owner:

* **Inductor** failed — its ``InductorError``/``LoweringException``, or an exception while it lowered an FX
  node (checked first: program code does not run while Inductor lowers): the message names Inductor, the op
  it was lowering and the program line that op came from (the FX node's stack trace), e.g. shufflenet with
  dynamic spatial dims: ``ValueRangeError`` inside ``value_ranges.pow_by_natural`` while lowering a
  ``reshape``;
* **the program's own code** raised (``raise ValueError`` in ``program()``, a shape mismatch in a model's
  ``forward``): the deepest frame of the innermost exception is in program code. The message names that
  frame first — ``your program raised ValueError at raises.py:4 in program: bad shape`` — and says it is
  the user's code;
* otherwise the failure is inside torch while it ran program code on the capture device: a gap in the
  capture hooks (the fake device lacks what eager has), named with the program line that reached it.

*Program code* is every frame outside torch, the workbench and Python's standard library (a torchvision or
transformers model's own files count: they are the model's code).
"""

from __future__ import annotations

import functools
import os
import re
import sysconfig
import traceback
from pathlib import Path

from workbench.errors import CaptureError

_STACK_ENTRY = re.compile(r'File "([^"]+)", line (\d+), in (\S+)\n\s*(.*)')


@functools.lru_cache(maxsize=1)
def _library_roots() -> tuple[str, ...]:
    import torch

    import workbench

    roots = [Path(torch.__file__).parent, Path(workbench.__file__).parent]
    for mod in ("triton", "sympy", "functorch", "numpy"):
        try:
            roots.append(Path(__import__(mod).__file__).parent)
        except (ImportError, AttributeError, TypeError):
            continue
    paths = sysconfig.get_paths()
    site = os.path.realpath(paths["purelib"]) + os.sep
    for key in ("stdlib", "platstdlib"):
        # a virtual environment's platstdlib holds its site-packages: only a folder above none of it counts
        if not site.startswith(os.path.realpath(paths[key]) + os.sep):
            roots.append(Path(paths[key]))
    roots.append(Path(os.__file__).parent)
    return tuple(dict.fromkeys(os.path.realpath(r) + os.sep for r in roots))


def is_program_file(filename: str) -> bool:
    """A frame of program code (see the module docstring): a real file outside torch, the workbench and the
    standard library."""
    if not filename or filename.startswith("<"):
        return False
    real = os.path.realpath(filename)
    return not any(real.startswith(r) for r in _library_roots())


def _chain(exc: BaseException) -> list[BaseException]:
    out, seen = [], set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        out.append(exc)
        exc = exc.__cause__ or exc.__context__
    return out


def _first_line(exc: BaseException) -> str:
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    return lines[0][:300] if lines else ""


def _where(frame: traceback.FrameSummary) -> str:
    code = (frame.line or "").strip()
    return f"{Path(frame.filename).name}:{frame.lineno} in {frame.name}" + (f" (`{code[:80]}`)" if code else "")


def program_frames(exc: BaseException) -> list[traceback.FrameSummary]:
    """Program frames of the innermost exception's traceback, outermost first."""
    root = _chain(exc)[-1]
    return [f for f in traceback.extract_tb(root.__traceback__) if is_program_file(f.filename)]


def _raised_in_program(exc: BaseException) -> traceback.FrameSummary | None:
    """The frame that raised, when it is program code (the user's ``raise``)."""
    frames = traceback.extract_tb(_chain(exc)[-1].__traceback__)
    return frames[-1] if frames and is_program_file(frames[-1].filename) else None


def _fx_source(stack_trace: str) -> str:
    """``file:line in fn (`code`)`` of the innermost program frame of an FX node's stack trace."""
    entries = [m for m in _STACK_ENTRY.finditer(stack_trace) if is_program_file(m.group(1))]
    if not entries:
        return ""
    m = entries[-1]
    return f"{Path(m.group(1)).name}:{m.group(2)} in {m.group(3)} (`{m.group(4).strip()[:80]}`)"


def _is_inductor(exc: BaseException) -> bool:
    names = {f"{type(e).__module__}.{type(e).__name__}" for e in _chain(exc)}
    return bool(names & {"torch._inductor.exc.InductorError", "torch._inductor.exc.LoweringException",
                         "torch._dynamo.exc.BackendCompilerFailed"})


def explain(exc: BaseException, name: str, dev_label: str, failed_node: tuple[str, str] | None = None
            ) -> CaptureError:
    """The :class:`CaptureError` for a failed compile of program ``name`` (see the module docstring)."""
    root = _chain(exc)[-1]
    cause = f"{type(root).__name__}: {_first_line(root)}"
    if failed_node is not None or _is_inductor(exc):
        op, stack = failed_node or ("", "")
        src = _fx_source(stack)
        where = (f" while lowering {op}" if op else "") + (f" from {src}" if src else "")
        return CaptureError(
            f"Inductor failed on program {name!r}{where}: {cause} (Inductor's own error, torch's code, not the "
            "capture's); mark fewer dims dynamic (dynamic_dims()) or report it to PyTorch with this op and line")
    raised = _raised_in_program(exc)
    if raised is not None:
        return CaptureError(
            f"your program raised {type(root).__name__} at {_where(raised)}: {_first_line(root)} — this is the "
            f"program's own code (it must run eagerly on its example_inputs()); fix it and capture {name!r} again")
    frames = program_frames(exc)
    at = f" at {_where(frames[-1])}" if frames else ""
    return CaptureError(
        f"compiling program {name!r} on {dev_label} failed{at}: {cause}. If the program runs eagerly, this is a "
        "capture-hook gap: capture on a real GPU (`--device cuda`) or report the program.")


def explain_build(exc: BaseException, name: str) -> str:
    """``Type: message at file:line`` for a model whose ``model()`` failed, the program frame first."""
    root = _chain(exc)[-1]
    frames = program_frames(exc)
    at = f" at {_where(frames[-1])}" if frames else ""
    return f"{type(root).__name__}: {_first_line(root)}{at}"
