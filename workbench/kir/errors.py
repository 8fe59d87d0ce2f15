"""Errors of the kernel IR stage, each carrying what a caller needs to act on it."""

from __future__ import annotations

from workbench.errors import InputError, UnsupportedError, WorkbenchError


class RefusedConstruct(UnsupportedError):
    """The kernel uses a construct the IR does not model; refused by name.

    ``construct`` is a short stable name (``"loop"``, ``"atomic"``, ``"indirect indexing"``, ...) that tests
    and the docs' table match on; ``line`` is the line in the kernel's ``def`` text (1 = the ``def`` line)."""

    def __init__(self, kernel: str, line: int | None, construct: str, detail: str = "", fix: str = ""):
        self.kernel, self.line, self.construct, self.detail = kernel, line, construct, detail
        where = f"{kernel}, line {line}" if line is not None else kernel
        msg = f"{where}: {construct} is not supported by the kernel IR"
        if detail:
            msg += f" ({detail})"
        msg += "; " + (fix or "the kernel stays 64-bit (nothing narrows a kernel the IR cannot read)")
        super().__init__(msg)


class KernelSourceError(InputError):
    """The text is not a readable Triton kernel (syntax error, no ``def``, signature mismatch)."""

    def __init__(self, kernel: str, line: int | None, problem: str, fix: str = "re-capture it with `workbench capture NAME`"):
        self.kernel, self.line, self.problem = kernel, line, problem
        where = f"{kernel}, line {line}" if line is not None else kernel
        super().__init__(f"{where}: {problem}; {fix}")


class EvaluationError(WorkbenchError):
    """Evaluating a kernel at a lane failed: bad sizes or lane, or undefined behaviour at that lane."""


class UndefinedBehaviour(EvaluationError):
    """An operation is undefined at this lane (division or remainder by zero, ``INT_MIN // -1``)."""

    def __init__(self, kernel: str, op: str, operands: tuple[int, ...], type_: str, lane: object):
        self.kernel, self.op, self.operands, self.type, self.lane = kernel, op, operands, type_, lane
        super().__init__(
            f"{kernel}: {op} of {operands} in {type_} is undefined (LLVM sdiv/srem) at {lane}; "
            "the checker must prove the divisor >= 1 on live lanes"
        )
