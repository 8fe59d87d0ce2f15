"""Kernel Proof Workbench: capture Inductor's Triton kernels, reason about their integer indexing,
certify int32 narrowing, emit Lean, time variants on GPUs, and compare float kernels with their PyTorch spec.

Submodules are imported lazily so that ``import workbench`` stays cheap (torch is imported only by the
stages that need it).
"""

from __future__ import annotations

__version__ = "0.1.0"

from workbench.errors import WorkbenchError  # noqa: F401  (re-exported)


def capture(*args, **kwargs):
    """Capture a program's Triton kernels; see :func:`workbench.capture.capture`."""
    from workbench.capture import capture as _capture

    return _capture(*args, **kwargs)
