"""The one place that touches private PyTorch Inductor / Dynamo / Triton internals.

Capture compiles a program with ``torch.compile`` and a backend that runs Inductor's ``compile_fx`` up to
code generation, records each Triton kernel Inductor defines together with the symbolic facts it was generated
under, and stops before anything is compiled by Triton or run (on a fake device). The hooks:

* ``TritonScheduling.define_kernel`` -> the kernel object (``args.sizevars``, ``numels``, ``index_dtype``,
  ``triton_meta``, ``inductor_meta``) and the name Inductor gave it;
* ``GraphLowering.compile_to_module`` -> the wrapper module's text (each kernel's final source) and the
  ShapeEnv (symbol ranges, sources, guards); on the fake device it stops here;
* ``OutputGraph.compile_subgraph`` -> each graph break's reason and the user frame where Dynamo broke;
* ``GraphLowering.run_node`` -> the FX node Inductor failed on (its op and the program line it came from);
* without a GPU, a *fake CUDA device* (:mod:`workbench.capture.fake_device`): FakeTensors on ``cuda:0``, a
  stub Triton driver whose target is a chosen GPU, and patched ``torch.cuda`` device queries, so Inductor
  produces its GPU lowering.

These internals move between releases, so the fake-device route is pinned to the versions in
:data:`PINNED` and refuses others with :class:`VersionMismatchError`. With a real GPU the hooks are used
with whatever versions are installed; :func:`check_hook_points` names each hook point that no longer fits.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import types
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from unittest import mock

# The fake CUDA device (device queries, C++ bindings without a CUDA build) is its own module; its names are
# re-exported here, capture's one entry to the private internals.
from workbench.capture.fake_device import GPU_PROFILES, GpuProfile, _StubDriver, fake_cuda, stub_triton_driver  # noqa: F401
from workbench.errors import VersionMismatchError

PINNED = {"torch": "2.13.0", "triton": "3.7.1"}


def installed_versions() -> dict[str, str]:
    import torch
    import triton

    return {"torch": torch.__version__.split("+")[0], "triton": triton.__version__}


def require_pinned_versions() -> None:
    found = installed_versions()
    bad = {k: v for k, v in found.items() if v != PINNED[k]}
    if bad:
        desc = ", ".join(f"{k} {v} (pinned {PINNED[k]})" for k, v in sorted(bad.items()))
        raise VersionMismatchError(
            f"the fake-CUDA capture hooks patch private Inductor internals written against torch "
            f"{PINNED['torch']} and triton {PINNED['triton']}; found {desc}. Install the pinned versions "
            "(`pip install -r requirements.txt`), or capture on a machine with a real GPU (`--device cuda`)."
        )


def check_hook_points() -> list[str]:
    """Names of hook points missing from the installed torch/triton (empty when every hook still fits)."""
    missing = []
    try:
        from torch._inductor.codegen.triton import TritonKernel, TritonScheduling
        from torch._inductor.graph import GraphLowering

        from torch._dynamo.output_graph import GraphCompileReason, OutputGraph

        for owner, attr in (
            (OutputGraph, "compile_subgraph"),
            (GraphCompileReason, "__dataclass_fields__"),
            (TritonScheduling, "define_kernel"),
            (GraphLowering, "compile_to_module"),
            (GraphLowering, "run_node"),
            (GraphLowering, "codegen"),
            (TritonKernel, "codegen_kernel"),
        ):
            if not hasattr(owner, attr):
                missing.append(f"{owner.__module__}.{owner.__name__}.{attr}")
    except ImportError as exc:
        missing.append(f"import failed: {exc}")
    try:
        from torch._inductor.fx_passes import joint_graph

        if not hasattr(joint_graph, "lazy_init"):
            missing.append("torch._inductor.fx_passes.joint_graph.lazy_init")
    except ImportError as exc:
        missing.append(f"import failed: {exc}")
    try:
        from torch._dynamo import pgo

        for attr in ("_CODE_STATE", "_INIT_CODE_STATE", "_LOGGED_DYNAMIC_ALLOWLIST"):
            if not hasattr(pgo, attr):
                missing.append(f"torch._dynamo.pgo.{attr}")
    except ImportError as exc:
        missing.append(f"import failed: {exc}")
    return missing


class _CodegenDone(Exception):
    """Raised inside compile_to_module on the fake device: code generation is done, stop before compiling."""


@dataclass
class KernelFacts:
    """Raw facts read from one Inductor kernel object (strings, so they outlive the compile)."""

    name: str
    sizevars: dict[str, str]  # ks name -> sympy expression text
    numels: dict[str, str]  # prefix ('x', 'y', 'r0_') -> expression text
    index_dtype: str
    signature: dict[str, str]
    grid_type: str


@dataclass
class GraphFacts:
    wrapper: str
    kernels: list[KernelFacts]
    var_ranges: dict[str, tuple[int | None, int | None]]
    var_sources: dict[str, list[str]]
    guards: list[str]
    replacements: dict[str, str]
    phase: str = "forward"  # a training step's backward graph is "backward"
    specialized: frozenset[str] = frozenset()  # symbols the ShapeEnv replaced by a constant (not dynamic)


def _bound(v: Any) -> int | None:
    """An integer bound, or None for +-oo (sympy's infinities are not integers)."""
    import sympy

    if isinstance(v, (int, sympy.Integer)) and not isinstance(v, bool):
        return int(v)
    return None


@dataclass(frozen=True, slots=True)
class BreakFacts:
    """Why Dynamo ended a graph early, and the innermost user frame where it happened."""

    reason: str
    where: str


class Recorder:
    """Collects facts from the hooks during one compile."""

    def __init__(self, stop_after_codegen: bool):
        self.stop_after_codegen = stop_after_codegen
        self.pending: list[KernelFacts] = []
        self.graphs: list[GraphFacts] = []
        self.breaks: list[BreakFacts] = []
        self.failed_node: tuple[str, str] | None = None  # (op, FX stack trace) of the node Inductor failed on
        self.phase = "forward"  # set by the training backend around each graph it compiles

    # GraphLowering.run_node(self, n: torch.fx.Node): lowers one node of the FX graph
    def wrap_run_node(self, orig):
        recorder = self

        def run_node(graph, n):
            try:
                return orig(graph, n)
            except BaseException:
                if recorder.failed_node is None and not isinstance(n.target, str):  # innermost failing node
                    recorder.failed_node = (str(getattr(n.target, "__name__", n.target)),
                                            str(n.meta.get("stack_trace") or ""))
                raise

        return run_node

    # OutputGraph.compile_subgraph(self, tx, reason: GraphCompileReason, stack_pops=0)
    def wrap_compile_subgraph(self, orig):
        recorder = self

        def compile_subgraph(output_graph, tx, reason, *args, **kwargs):
            if getattr(reason, "graph_break", False):
                stack = list(getattr(reason, "user_stack", []) or [])
                frame = stack[-1] if stack else None
                where = f"{os.path.basename(frame.filename)}:{frame.lineno} in {frame.name}" if frame else "?"
                text = str(getattr(reason, "reason", "")).strip().splitlines()
                recorder.breaks.append(BreakFacts(text[0] if text else "graph break", where))
            return orig(output_graph, tx, reason, *args, **kwargs)

        return compile_subgraph

    # TritonScheduling.define_kernel(self, src_code, node_schedule, kernel) -> kernel_name
    def wrap_define_kernel(self, orig):
        recorder = self

        def define_kernel(sched, src_code, node_schedule, kernel):
            name = orig(sched, src_code, node_schedule, kernel)
            meta = getattr(kernel, "triton_meta", None) or {}
            imeta = getattr(kernel, "inductor_meta", None) or {}
            recorder.pending.append(
                KernelFacts(
                    name=name,
                    sizevars={str(v): str(k) for k, v in kernel.args.sizevars.items()},
                    numels={str(k): str(v) for k, v in kernel.numels.items()},
                    index_dtype=str(kernel.index_dtype),
                    signature={str(k): str(v) for k, v in meta.get("signature", {}).items()},
                    grid_type=str(imeta.get("grid_type", "")),
                )
            )
            return name

        return define_kernel

    def wrap_compile_to_module(self, orig):
        recorder = self

        def compile_to_module(graph):
            if recorder.stop_after_codegen:
                code, _ = graph.codegen()
                wrapper = code.value
            else:
                mod = orig(graph)
                wrapper = open(mod.__file__).read()
            shape_env = graph.sizevars.shape_env
            recorder.graphs.append(
                GraphFacts(
                    wrapper=wrapper,
                    kernels=list(recorder.pending),
                    var_ranges={
                        str(s): (_bound(r.lower), _bound(r.upper)) for s, r in shape_env.var_to_range.items()
                    },
                    var_sources={
                        str(s): [src.name for src in srcs] if isinstance(getattr(srcs[0], "name", None), str)
                        else [src.name() for src in srcs]
                        for s, srcs in shape_env.var_to_sources.items()
                        if srcs
                    },
                    guards=[str(g.expr) for g in shape_env.guards],
                    replacements={
                        str(k): str(v) for k, v in graph.sizevars.inv_precomputed_replacements.items()
                    },
                    specialized=frozenset(
                        str(k) for k, v in shape_env.replacements.items() if getattr(v, "is_number", False)
                    ),
                    phase=recorder.phase,
                )
            )
            recorder.pending.clear()
            if recorder.stop_after_codegen:
                raise _CodegenDone()
            return mod

        return compile_to_module


def is_codegen_done(exc: BaseException) -> bool:
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, _CodegenDone):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


@contextlib.contextmanager
def private_caches() -> Iterator[str]:
    """Point Inductor's and Triton's on-disk caches at a fresh temporary directory, removed on exit, so
    capture neither reads a stale entry (which would skip code generation) nor writes into the user's cache."""
    tmp = tempfile.mkdtemp(prefix="workbench-capture-")
    keys = ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")
    old = {k: os.environ.get(k) for k in keys}
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(tmp, "inductor")
    os.environ["TRITON_CACHE_DIR"] = os.path.join(tmp, "triton")
    _forget_device_answers()
    try:
        yield tmp
    finally:
        _forget_device_answers()
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        shutil.rmtree(tmp, ignore_errors=True)


@contextlib.contextmanager
def private_code_state() -> Iterator[None]:
    """Dynamo's profile-guided dynamism (``torch/_dynamo/pgo.py``) remembers, per ``CodeId`` (file, first
    line, function name), which dimensions earlier compilations in the process saw change, and a later compile
    of a function with the same ``CodeId`` marks them ``DimDynamic.DYNAMIC``, which turns duck sizing off
    (``ShapeEnv.create_symbol``). :func:`fresh_function`'s copy keeps the ``CodeId``, so a capture after any
    compilation of the same program with other sizes got other symbols and another kernel (nested_cat_add:
    ``ks0 = s12 + s25 + s38 + s48 + s53 + s55`` instead of ``2*s12 + 2*s48 + 2*s85``; an order-dependent
    test failure). Capture reads Inductor's facts for the program alone: it runs with an empty code state
    (nothing loads from disk: :func:`private_caches` points the cache at a fresh folder) and puts the
    caller's state back afterwards."""
    from torch._dynamo import pgo

    saved = (pgo._CODE_STATE, pgo._INIT_CODE_STATE, pgo._LOGGED_DYNAMIC_ALLOWLIST)
    pgo._CODE_STATE, pgo._INIT_CODE_STATE = None, None
    try:
        yield
    finally:
        pgo._CODE_STATE, pgo._INIT_CODE_STATE, pgo._LOGGED_DYNAMIC_ALLOWLIST = saved


def _forget_device_answers() -> None:
    """``torch.utils._triton.has_triton`` is ``functools.cache``d: asked first while the CPU interpreter route
    or the fake CUDA device is active, its answer for that device set would stick for the process (a fake-CUDA
    capture after a CPU-interpreter run failed with ``TritonMissing``). Every capture and interpreter context
    starts and ends with it forgotten."""
    from torch.utils import _triton

    _triton.has_triton.cache_clear()


def fresh_function(fn):
    """A copy of ``fn`` with its own code object, so Dynamo's per-code cache entries from capture never mix
    with compilations the user made of the same function (and die with the copy)."""
    code = fn.__code__.replace()
    new = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    new.__kwdefaults__ = fn.__kwdefaults__
    return new


@contextlib.contextmanager
def recording(stop_after_codegen: bool) -> Iterator[Recorder]:
    from torch._dynamo.output_graph import OutputGraph
    from torch._inductor.codegen.triton import TritonScheduling
    from torch._inductor.graph import GraphLowering

    rec = Recorder(stop_after_codegen)
    with mock.patch.object(
        TritonScheduling, "define_kernel", rec.wrap_define_kernel(TritonScheduling.define_kernel)
    ), mock.patch.object(
        GraphLowering, "compile_to_module", rec.wrap_compile_to_module(GraphLowering.compile_to_module)
    ), mock.patch.object(
        OutputGraph, "compile_subgraph", rec.wrap_compile_subgraph(OutputGraph.compile_subgraph)
    ), mock.patch.object(GraphLowering, "run_node", rec.wrap_run_node(GraphLowering.run_node)):
        yield rec


def inductor_backend(stop_after_codegen: bool):
    """A Dynamo backend: Inductor's compile_fx, returning the eager graph when we stopped after codegen."""
    from torch._inductor.compile_fx import compile_fx

    def backend(gm, example_inputs):
        try:
            return compile_fx(gm, example_inputs)
        except BaseException as exc:
            if stop_after_codegen and is_codegen_done(exc):
                return _eager_under_input_mode(gm)
            raise

    return backend


def training_backend(rec: Recorder, stop_after_codegen: bool):
    """A Dynamo backend for a training step: Inductor's ``compile_fx`` with its own inner compile wrapped, so
    the forward and the backward graph AOTAutograd partitions the joint graph into are each generated (and,
    without a GPU, each stopped right after code generation and run eagerly instead). The caller sets
    ``torch._functorch.config.force_non_lazy_backward_lowering`` so the backward is lowered together with the
    forward, when the step is first called: nothing needs to run ``.backward()``."""
    from functorch.compile import make_boxed_func
    from torch._inductor.compile_fx import compile_fx, compile_fx_inner

    def inner(gm, example_inputs, **kwargs):
        rec.phase = "backward" if kwargs.get("is_backward") else "forward"
        try:
            return compile_fx_inner(gm, example_inputs, **kwargs)
        except BaseException as exc:
            if stop_after_codegen and is_codegen_done(exc):
                return make_boxed_func(_eager_under_input_mode(gm))
            raise
        finally:
            rec.phase = "forward"

    def backend(gm, example_inputs):
        return compile_fx(gm, example_inputs, inner_compile=inner)

    return backend


def _eager_under_input_mode(gm):
    """The graph run eagerly, under the fake mode its inputs live in (if any): on the fake device a factory
    call inside the graph (``torch.arange(device='cuda')``) must build a fake tensor, not a real one."""

    def run(*args):
        from torch._guards import detect_fake_mode

        mode = detect_fake_mode(args)
        if mode is None:
            return gm.forward(*args)
        with mode:
            return gm.forward(*args)

    return run


_KERNEL_DEF = re.compile(r"^(\w+) = async_compile\.triton\('(\w+)', '''\n(.*?)''', device_str='(\w+)'\)", re.S | re.M)


def kernel_sources(wrapper: str) -> dict[str, str]:
    """Each Triton kernel's module text as the wrapper hands it to ``async_compile.triton``."""
    return {m.group(2): m.group(3) for m in _KERNEL_DEF.finditer(wrapper)}


def unsupported_reason(exc: BaseException) -> str | None:
    """A one-line reason when Dynamo refused to trace the program in one graph."""
    import torch._dynamo.exc as dexc

    while exc is not None:
        if isinstance(exc, (dexc.Unsupported, dexc.UserError)):
            return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        exc = exc.__cause__
    return None


def data_dependent(exc: BaseException) -> bool:
    """Whether a fake tensor was asked for a value (``bool(t)``, ``t.item()`` outside a graph)."""
    from torch._subclasses.fake_tensor import DataDependentOutputException

    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, DataDependentOutputException):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def root_cause(exc: BaseException) -> str:
    """``Type: first line`` of the innermost exception in the chain (Inductor and Dynamo wrap errors twice)."""
    seen = set()
    while (exc.__cause__ or exc.__context__) is not None and id(exc) not in seen:
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"
