"""The fake CUDA device: what a CPU-only torch lacks for Inductor to produce its GPU lowering.

Stage: capture (private PyTorch/Triton internals, pinned with :mod:`workbench.capture.hooks`). Two laws live
here, apart from the recording hooks:

* **device queries** — ``torch.cuda`` answers as the chosen GPU profile (:data:`GPU_PROFILES`) and a stub Triton
  driver (:class:`_StubDriver`) names that GPU as Triton's target; code generation stops before anything is
  compiled, so nothing reaches the stub beyond its target;
* **C++ bindings without a CUDA build** — ``Tensor.__getitem__``/``__setitem__``/``contiguous``/``~``/``copy_``
  on fake CUDA tensors take a CUDA device guard in C++ that a CPU-only build lacks: each is rewritten into the
  aten ops it means, which dispatch to the fake tensor. Pattern-matcher set-up and constant folding, which
  allocate real tensors, run on the CPU.

Every patch is a ``mock.patch`` or a saved slot, restored on exit (also on error).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from unittest import mock

from workbench.errors import CaptureError

@dataclass(frozen=True, slots=True)
class GpuProfile:
    """Device properties the fake CUDA device reports (they appear in ``triton_meta['device']``)."""

    name: str
    major: int
    minor: int
    multi_processor_count: int
    total_memory: int
    regs_per_multiprocessor: int = 65536
    max_threads_per_multi_processor: int = 2048
    max_threads_per_block: int = 1024
    warp_size: int = 32
    shared_memory_per_block_optin: int = 101376
    L2_cache_size: int = 48 * 2**20


GPU_PROFILES = {
    "L4": GpuProfile("NVIDIA L4", 8, 9, 58, 24 * 2**30, max_threads_per_multi_processor=1536),
    "H100": GpuProfile("NVIDIA H100 80GB HBM3", 9, 0, 132, 80 * 2**30, shared_memory_per_block_optin=232448),
    "H200": GpuProfile("NVIDIA H200", 9, 0, 132, 141 * 2**30, shared_memory_per_block_optin=232448),
}


class _StubDriver:
    """A Triton driver that only answers "which target": enough for code generation, never for launching."""

    def __init__(self, profile: GpuProfile):
        from triton.backends.compiler import GPUTarget

        self._target = GPUTarget("cuda", profile.major * 10 + profile.minor, 32)

    @classmethod
    def is_active(cls):
        return True

    def map_python_to_cpp_type(self, ty):
        return ty

    def get_current_target(self):
        return self._target

    def get_active_torch_device(self):
        import torch

        return torch.device("cuda", 0)

    def get_current_device(self):
        return 0

    def get_current_stream(self, device=None):
        return 0

    def get_benchmarker(self):
        raise CaptureError("the fake CUDA device cannot benchmark; capture stops before autotuning")


class _Props:
    def __init__(self, p: GpuProfile):
        for k in GpuProfile.__slots__:
            setattr(self, k, getattr(p, k))
        self.gcnArchName = f"sm_{p.major}{p.minor}"
        self.uuid = "workbench-fake-cuda"
        self.is_integrated = False
        self.is_multi_gpu_board = False


@contextlib.contextmanager
def fake_cuda(profile: GpuProfile) -> Iterator[None]:
    """Patch the device queries Inductor makes so a CPU-only torch generates its CUDA lowering.

    Every patch is a ``mock.patch`` (restored on exit, also on error); the Triton driver's active slot is put
    back as it was.
    """
    import torch
    import triton
    from torch._inductor.fx_passes import joint_graph

    props = _Props(profile)
    orig_lazy_init = joint_graph.lazy_init

    def lazy_init(input_device=None):
        # Pattern-matcher set-up traces its patterns with real tensors on the input device, which a
        # CPU-only build cannot allocate; the patterns are device-agnostic for matching, so trace on CPU.
        return orig_lazy_init(torch.device("cpu"))

    from torch._inductor.fx_passes.joint_graph import UniformValueConstantFolder

    orig_deduce = UniformValueConstantFolder._deduce_value

    def deduce_value(folder, node):
        # Constant folding evaluates small uniform constants (from triu, full, zeros) for real; a CPU-only
        # build cannot allocate them on CUDA, so evaluate them on the CPU (the folded value is a scalar).
        with _CudaFactoriesOnCpu():
            return orig_deduce(folder, node)

    drv = triton.runtime.driver
    prev_active = drv._active
    patches = [
        mock.patch("torch.cuda.is_available", lambda: True),
        mock.patch("torch.cuda.device_count", lambda: 1),
        mock.patch("torch.cuda.current_device", lambda: 0),
        mock.patch("torch.cuda._lazy_init", lambda: None),
        mock.patch("torch.cuda._exchange_device", lambda idx: 0),
        mock.patch("torch.cuda._maybe_exchange_device", lambda idx: 0),
        mock.patch("torch.cuda._get_device_properties", lambda *a, **k: props, create=True),
        mock.patch("torch.cuda.get_device_properties", lambda *a, **k: props),
        mock.patch("torch.cuda.get_device_capability", lambda *a, **k: (profile.major, profile.minor)),
        mock.patch("torch.cuda.get_device_name", lambda *a, **k: profile.name),
        mock.patch("torch.cuda.get_rng_state", lambda *a, **k: torch.zeros(16, dtype=torch.uint8)),
        mock.patch("torch.cuda.set_rng_state", lambda *a, **k: None),
        mock.patch.object(joint_graph, "lazy_init", lazy_init),
        mock.patch.object(UniformValueConstantFolder, "_deduce_value", deduce_value),
        mock.patch.object(torch.Tensor, "__getitem__", _fake_safe_getitem(torch.Tensor.__getitem__)),
        mock.patch.object(torch.Tensor, "__setitem__", _fake_safe_setitem(
            torch.Tensor.__setitem__, _fake_safe_getitem(torch.Tensor.__getitem__))),
        mock.patch.object(torch.Tensor, "contiguous", _fake_safe_contiguous(torch.Tensor.contiguous)),
        mock.patch.object(torch.Tensor, "__invert__", _fake_safe_invert(torch.Tensor.__invert__)),
        mock.patch.object(torch.Tensor, "copy_", _fake_safe_copy(torch.Tensor.copy_)),
    ]
    with contextlib.ExitStack() as stack:
        for p in patches:
            stack.enter_context(p)
        drv.set_active(_StubDriver(profile))
        try:
            yield
        finally:
            drv._active = prev_active


@contextlib.contextmanager
def stub_triton_driver(profile: GpuProfile) -> Iterator[None]:
    """Triton's active driver slot holds the stub driver while Inductor generates code for the CPU backend
    (``--device cpu``): a CPU-only Triton has no active driver ("0 active drivers") and Inductor asks it for a
    target while it writes the kernels; capture stops after code generation, so nothing reaches the stub.
    The slot is put back as it was."""
    import triton

    drv = triton.runtime.driver
    prev_active = drv._active
    drv.set_active(_StubDriver(profile))
    try:
        yield
    finally:
        drv._active = prev_active


def _to_cpu_device(v):
    import torch

    if isinstance(v, torch.device) and v.type == "cuda":
        return torch.device("cpu")
    if isinstance(v, str) and v.startswith("cuda"):
        return "cpu"
    return v


class _CudaFactoriesOnCpu:
    """A TorchFunctionMode that moves factory calls asking for CUDA to the CPU (constant folding only)."""

    def __new__(cls):
        from torch.overrides import TorchFunctionMode

        class Mode(TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                kwargs = dict(kwargs or {})
                if "device" in kwargs:
                    kwargs["device"] = _to_cpu_device(kwargs["device"])
                return func(*args, **kwargs)

        return Mode()


def _fake_safe_getitem(orig):
    """``Tensor.__getitem__`` for FakeTensors on the fake CUDA device.

    The C++ indexing entry point takes a CUDA device guard before dispatching, which a CPU-only build lacks.
    Basic indexing (ints, slices, None, Ellipsis) is rewritten into the aten view ops it means
    (select/slice/unsqueeze), which dispatch to the fake tensor without a guard; anything else (tensor
    indices) goes to ``aten.index.Tensor``.
    """
    import torch

    aten = torch.ops.aten

    def getitem(self, idx):
        # Only installed under the fake device, where every CUDA tensor is a fake (or a tracing wrapper).
        if self.device.type != "cuda":
            return orig(self, idx)
        items = idx if isinstance(idx, tuple) else (idx,)
        if any(isinstance(i, torch.Tensor) or isinstance(i, (list, bool)) for i in items):
            if all(isinstance(i, (torch.Tensor, type(None))) or i == slice(None) for i in items):
                return aten.index.Tensor(self, [i if isinstance(i, torch.Tensor) else None for i in items])
            return orig(self, idx)
        n_real = sum(1 for i in items if i is not None and i is not Ellipsis)
        if sum(1 for i in items if i is Ellipsis) > 1:
            raise IndexError("an index can only have a single ellipsis ('...')")
        out, dim = self, 0
        for i in items:
            if i is Ellipsis:
                dim += self.dim() - n_real
            elif i is None:
                out = aten.unsqueeze.default(out, dim)
                dim += 1
            elif isinstance(i, slice):
                if i != slice(None):
                    start = 0 if i.start is None else i.start
                    end = 2**63 - 1 if i.stop is None else i.stop
                    out = aten.slice.Tensor(out, dim, start, end, 1 if i.step is None else i.step)
                dim += 1
            else:  # an integer (or SymInt)
                out = aten.select.int(out, dim, i)
        return out

    return getitem


def _fake_safe_setitem(orig, getitem):
    """``t[idx] = value`` (``Tensor.__setitem__``) on the fake CUDA device: the aten ops it means, without the
    C++ binding's CUDA device guard. Basic indexing writes into the view the fake-safe ``__getitem__`` gives
    (``fill_`` for a number, ``copy_`` for a tensor, broadcast as eager does); tensor indices (masks, index
    tensors) go to ``aten.index_put_``, as the C++ entry point does. Swin's attention mask is built this way."""
    import torch

    aten = torch.ops.aten

    def setitem(self, idx, value):
        if self.device.type != "cuda":
            return orig(self, idx, value)
        items = idx if isinstance(idx, tuple) else (idx,)
        if any(isinstance(i, (torch.Tensor, list, bool)) for i in items):
            if all(isinstance(i, (torch.Tensor, type(None))) or i == slice(None) for i in items):
                v = value if isinstance(value, torch.Tensor) else torch.full((), value, dtype=self.dtype,
                                                                              device=self.device)
                indices = [i if isinstance(i, torch.Tensor) else None for i in items]
                aten.index_put_.default(self, indices, v.to(self.dtype))
                return None
            return orig(self, idx, value)
        view = getitem(self, idx)
        if isinstance(value, torch.Tensor):
            aten.copy_.default(view, value)
        else:
            aten.fill_.Scalar(view, value)
        return None

    return setitem


def _fake_safe_contiguous(orig):
    """``Tensor.contiguous`` without the C++ binding's CUDA device guard: the aten op it means."""
    import torch

    def contiguous(self, memory_format=torch.contiguous_format):
        if self.device.type != "cuda":
            return orig(self, memory_format=memory_format)
        if self.is_contiguous(memory_format=memory_format):
            return self
        return torch.ops.aten.clone.default(self, memory_format=memory_format)

    return contiguous


def _fake_safe_invert(orig):
    """``~t`` without the C++ binding's CUDA device guard (the softmax decomposition of attention uses it)."""
    import torch

    def invert(self):
        if self.device.type != "cuda":
            return orig(self)
        return torch.ops.aten.bitwise_not.default(self)

    return invert


def _fake_safe_copy(orig):
    """``t.copy_(src)`` without the C++ binding's CUDA device guard (in-place activations such as
    ``hardswish(inplace=True)`` decompose into an out-of-place op and ``copy_``)."""
    import torch

    def copy_(self, src, non_blocking=False):
        if self.device.type != "cuda":
            return orig(self, src, non_blocking)
        return torch.ops.aten.copy_.default(self, src, non_blocking)

    return copy_
