"""An independent oracle for the narrowing checker: the kernel's own Triton text under Triton's interpreter.

Stage: oracle (a second opinion on ``check``). For every kernel the shipped checker table certifies, run the
kernel's source under ``TRITON_INTERPRET=1`` twice — size arguments int64 as captured, and the narrowed text
(the certified size arguments declared ``i32`` and passed as int32) — at boundary shapes that satisfy every
guard and at chosen program ids, with loads and stores intercepted (no tensors), and compare address, mask and
stored bits on every lane where an access is active. Loads return a hash of their address, so a stored value
witnesses the data flow that produced it.

Independence is the point: nothing here imports ``workbench.kir``, ``workbench.check`` or ``workbench.capture``
(a test inspects the import graph). Records and the checker table are read as plain JSON; symbolic text goes
through the shared restricted parser (:mod:`workbench.symexpr`) and is evaluated by this package's own exact
integer evaluator; Triton's typing and promotion rules come from Triton itself, not from a model of them.

Modules (data flow order): :mod:`.corpus` (what to check), :mod:`.symbolic` (exact evaluation),
:mod:`.source` and :mod:`.body` (kernel text, narrowed text, the Triton-language check), :mod:`.reduction`
(loops, block sizes, steps), :mod:`.asserts` (device asserts: index tables, the oracle's own evaluation),
:mod:`.shapes` (boundary shapes), :mod:`.launch` (grid, program ids), :mod:`.memory` (fake addresses, load
values, index draws), :mod:`.worker`, :mod:`.program` and :mod:`.vectorized` (the interpreter, in a
subprocess), :mod:`.compare` (lane by lane, step by step), :mod:`.run` (orchestration, verdicts),
:mod:`.report` (JSON, Markdown), :mod:`.cli` (``workbench oracle``).

Limits: a sample, not a proof — shapes, program ids and (in sampled loops) steps are chosen, not exhausted;
Triton's interpreter, not its compiler, is the reference (it shares the frontend's ``semantic.py`` typing, not
the LLVM lowering); 1-D and 2-D pointwise launches and Inductor's 1-D reduction grid only.
"""

from __future__ import annotations

__all__ = ["check", "targets"]


def targets(*args, **kwargs):
    """Kernels the checker table certifies; see :func:`workbench.oracle.corpus.targets`."""
    from workbench.oracle.corpus import targets as _targets

    return _targets(*args, **kwargs)


def check(*args, **kwargs):
    """Run the oracle; see :func:`workbench.oracle.run.check`."""
    from workbench.oracle.run import check as _check

    return _check(*args, **kwargs)
