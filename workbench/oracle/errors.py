"""The oracle's two input-side exceptions (one place, so that every stage can raise them without import cycles).

Stage: oracle. Both derive from the workbench's one hierarchy (:mod:`workbench.errors`): a record, its text or
the checker table that cannot be read is an :class:`OracleInputError` (exit code 2); a kernel body the oracle
will not execute is :class:`NotTritonLanguage` (verdict ``out-of-class``).
"""

from __future__ import annotations

from workbench.errors import InputError, UnsupportedError


class OracleInputError(InputError):
    """A kernel record, its text or the checker table cannot be read by the oracle (the message says why)."""


class NotTritonLanguage(UnsupportedError):
    """The jit function contains Python the oracle will not execute (it runs kernel text only when the text
    is Triton language: see :func:`workbench.oracle.body.check_body`)."""
