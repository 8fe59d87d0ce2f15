"""Capture: program -> the Triton kernels Inductor emits for it, with their symbolic shape facts.

``capture(program)`` compiles the program with ``torch.compile`` (dynamic shapes) and returns one
:class:`CapturedKernel` per emitted Triton kernel, over every graph when Dynamo breaks the program
(:func:`capture_run` also says where the graphs broke and which input dimensions were symbolic). Programs
may own ``nn.Module`` objects: their weights go to the capture device as fake tensors
(:mod:`workbench.capture.modules`). To capture code you did not write, use
:func:`workbench.capture.isolated.capture_isolated` (a child process: a crash cannot take the caller down,
and no Inductor state outlives one capture). Devices:

* ``"cuda"`` (default): the real GPU when torch sees one, else a *fake* CUDA device (codegen only: nothing is
  compiled or run; needs the pinned torch/triton);
* ``"fake-cuda"``: the fake device even when a GPU is present (for comparing the two);
* ``"cpu"``: Inductor's Triton CPU backend (``cpu_backend="triton"``), codegen only. Its lowering differs
  (e.g. ``cat`` becomes a ConcatKernel); use it to study that route, not as the GPU's kernel.

Facts come from Inductor's symbolic state (size-argument expressions, ShapeEnv ranges and guards); example
sizes are used to trace and never recorded as facts. Capture leaves no trace: caches go to a temporary
directory, every patch and config change is undone on exit (also on error).
"""

from __future__ import annotations

import contextlib
import logging
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from workbench.capture.record import (
    CapturedKernel,
    Numel,
    ShapeSymbol,
    SizeArg,
    load,
    load_dir,
    save,
    source_hash,
)
from workbench.errors import CaptureError, UsageError
from workbench.programs import Program, resolve

__all__ = [
    "Capture", "CapturedKernel", "GraphBreak", "capture", "capture_program", "capture_run", "load", "load_dir",
    "save", "default_out_dir",
]

DEVICES = ("cuda", "fake-cuda", "cpu")
_log = logging.getLogger(__name__)  # notes go to stderr (logging's last-resort handler prints the message)
_SYMBOL = re.compile(r"\b([su]\d+|ps\d+)\b")


def default_out_dir(program_name: str) -> Path:
    from workbench.paths import KERNELS

    return KERNELS / program_name


@dataclass(frozen=True, slots=True)
class GraphBreak:
    """Where Dynamo ended a graph early (``file:line in function``) and why."""

    reason: str
    where: str

    def text(self) -> str:
        return f"{self.where}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Capture:
    """Everything one capture found: the kernels of every graph, the graphs' count, where they broke,
    which input dimensions were symbolic, and how long it took (seconds, wall clock)."""

    program: str
    kernels: tuple[CapturedKernel, ...]
    graphs: int
    graph_breaks: tuple[GraphBreak, ...]
    dynamic_dims: tuple[str, ...]
    seconds: float
    notes: tuple[str, ...] = ()  # what capture did differently and the user should know (a CPU build)
    cached: bool = False  # read from the capture cache (workbench.capture.cache), not captured by this call


def capture(program: Program | str, device: str = "cuda", gpu: str = "L4", fullgraph: bool = False,
            backward: bool = False) -> list[CapturedKernel]:
    """Capture every Triton kernel Inductor emits for ``program`` (a :class:`Program`, name or ``.py`` path);
    ``backward=True``: a training step's forward and backward kernels (:func:`capture_run`)."""
    return list(capture_run(program, device=device, gpu=gpu, fullgraph=fullgraph, backward=backward).kernels)


def capture_run(program: Program | str, device: str = "cuda", gpu: str = "L4", fullgraph: bool = False,
                backward: bool = False) -> Capture:
    """:func:`capture` with the whole story: graphs, graph breaks, dynamic dimensions, time.

    ``fullgraph=True`` refuses a program that graph-breaks (one clear error) instead of capturing each graph.
    ``backward=True`` captures a training step instead of inference: the program's output summed (or the
    file's ``loss(output)``) differentiated with respect to its floating inputs and parameters; the forward
    and the backward graph's kernels (``phase``). Autograd cannot run on the fake CUDA device of a CPU-only
    build (the C++ autograd layer aborts the process for lack of a CUDA device guard), so without a GPU the
    step is captured on the CPU backend (``device="cpu"``), with a note; ``device="fake-cuda"`` is refused."""
    from workbench.capture import failure, hooks
    from workbench.capture.modules import device_placer, fake_placer, modules_of, placed

    t0 = time.perf_counter()
    if isinstance(program, str):
        program = resolve(program)
    if device not in DEVICES:
        raise UsageError(f"unknown capture device {device!r}; use one of {', '.join(DEVICES)}")
    if gpu not in hooks.GPU_PROFILES:
        raise UsageError(f"unknown GPU profile {gpu!r}; use one of {', '.join(sorted(hooks.GPU_PROFILES))}")

    import torch

    real_cuda = device == "cuda" and torch.cuda.is_available()
    notes: list[str] = []
    if backward and device == "fake-cuda":
        raise UsageError("a training step (--backward) cannot be captured on the fake CUDA device: autograd on a "
                         "CPU-only torch aborts for lack of a CUDA device guard; use --device cpu (Inductor's "
                         "Triton CPU backend) or a real GPU (--device cuda)")
    if device == "cuda" and not real_cuda:
        device = "cpu" if backward else "fake-cuda"
        if backward:
            notes.append("no GPU here: the training step is captured on Inductor's Triton CPU backend (autograd "
                         "cannot run on the fake CUDA device of a CPU-only torch)")
            _log.warning("workbench: note: %s", notes[-1])
    if real_cuda:
        missing = hooks.check_hook_points()
        if missing:
            raise CaptureError(
                f"the capture hooks do not fit torch {torch.__version__}: missing {', '.join(missing)}. "
                f"They were written against torch {hooks.PINNED['torch']}; install it or report the change."
            )
    else:
        hooks.require_pinned_versions()

    stop = not real_cuda
    with contextlib.ExitStack() as stack:
        stack.enter_context(hooks.private_caches())
        stack.enter_context(hooks.private_code_state())
        if backward:  # lower the backward with the forward, when the step is first called
            import torch._functorch.config as functorch_config

            stack.enter_context(functorch_config.patch(force_non_lazy_backward_lowering=True))
        stack.enter_context(torch._inductor.config.patch(compile_threads=1))
        # Inductor's FX-graph cache and AOT autograd's cache always miss in capture's fresh cache folder, yet
        # computing their keys (hashing the graph, torch's and Triton's sources) costs about a second a model;
        # they store compiled artefacts and never change the code Inductor generates.
        import torch._functorch.config as functorch_cfg

        stack.enter_context(torch._inductor.config.patch(fx_graph_cache=False))
        stack.enter_context(functorch_cfg.patch(enable_autograd_cache=False))
        if device == "fake-cuda":
            stack.enter_context(hooks.fake_cuda(hooks.GPU_PROFILES[gpu]))
            # pad_mm decides whether to pad a matmul by timing it on real tensors: nothing to time here
            stack.enter_context(torch._inductor.config.patch(shape_padding=False))
            dev_label = f"fake-cuda:{gpu} (sm_{hooks.GPU_PROFILES[gpu].major}{hooks.GPU_PROFILES[gpu].minor})"
        elif device == "cpu":
            stack.enter_context(torch._inductor.config.patch(cpu_backend="triton"))
            stack.enter_context(hooks.stub_triton_driver(hooks.GPU_PROFILES[gpu]))
            dev_label = "cpu (Inductor Triton CPU backend)"
        else:
            dev_label = f"cuda:{torch.cuda.get_device_name(0)}"
        inputs, mode = _inputs(program, "cpu" if device == "cpu" else "cuda", fake=device == "fake-cuda")
        place = fake_placer(mode) if mode is not None else device_placer("cpu" if device == "cpu" else "cuda")
        args: tuple = inputs
        if program.build is not None:
            module = _build(program, notes, meta=device == "fake-cuda")
            owned = [module.train() if backward else module.eval()]
            args = (module, *inputs)
        else:
            owned = modules_of(program)
        stack.enter_context(placed(owned, place, grad=backward))
        rec = stack.enter_context(hooks.recording(stop_after_codegen=stop))
        fn = hooks.fresh_function(program.fn)
        if backward:
            for t in inputs:
                if t.is_floating_point():
                    t.requires_grad_(True)
            stack.enter_context(_importable(program.fn))
            fn = _training_step(fn, program.loss)
        dynamic_kw: dict = {"dynamic": True}
        if program.dynamic is not None or owned:
            # Mark input dims the way users do; parameters and buffers stay static (they are not marked).
            dynamic_kw = {"dynamic": None}
            stack.enter_context(
                torch._dynamo.config.patch(automatic_dynamic_shapes=False, assume_static_by_default=True)
            )
            for i, t in enumerate(inputs):
                if program.dynamic is not None:
                    for d in program.dynamic[i]:
                        torch._dynamo.mark_dynamic(t, d)
                else:  # every dim the program lets vary (a LayerNorm's width must stay static)
                    for d in range(t.dim()):
                        torch._dynamo.maybe_mark_dynamic(t, d)
        backend = hooks.training_backend(rec, stop) if backward else hooks.inductor_backend(stop)
        compiled = torch.compile(fn, backend=backend, fullgraph=fullgraph, **dynamic_kw)
        try:
            with contextlib.nullcontext() if backward else torch.no_grad():
                compiled(*args)
        except Exception as exc:
            reason = hooks.unsupported_reason(exc)
            if reason is not None:
                raise CaptureError(
                    f"program {program.name!r} cannot be captured as one graph: Dynamo says {reason!r}. "
                    "Remove the graph break (data-dependent control flow, .item(), print, unsupported calls) "
                    "or capture without fullgraph to get each graph's kernels."
                ) from exc
            if device == "fake-cuda" and hooks.data_dependent(exc):
                raise CaptureError(
                    f"program {program.name!r} branches on tensor values between graphs ({hooks.root_cause(exc)}); "
                    "the fake CUDA device holds no values, so the branch cannot be taken. Capture on a real GPU "
                    "(`--device cuda`) or make the control flow depend on shapes only."
                ) from exc
            raise failure.explain(exc, program.name, dev_label, rec.failed_node) from exc
        finally:
            torch._dynamo.eval_frame.remove_from_cache(fn) if hasattr(
                torch._dynamo.eval_frame, "remove_from_cache"
            ) else None

    versions = hooks.installed_versions()
    breaks = tuple(GraphBreak(b.reason, b.where) for b in rec.breaks)
    arg_names = _arg_names(program)
    dynamic_dims = sorted(
        {_describe_source(src, arg_names) for g in rec.graphs for sym, srcs in g.var_sources.items() for src in srcs
         if _SRC.fullmatch(src) and sym not in g.specialized},
        key=_natural,
    )
    kernels: list[CapturedKernel] = []
    for gi, graph in enumerate(rec.graphs):
        sources = hooks.kernel_sources(graph.wrapper)
        seen: set[str] = set()
        for facts in graph.kernels:
            if facts.name not in sources:
                continue  # a kernel defined but not used by the final wrapper (e.g. benchmarked alternative)
            if facts.name in seen:
                continue  # Inductor reuses a kernel whose source it already defined (repeated layers): once
            seen.add(facts.name)
            k = _record(program, facts, graph, sources[facts.name], dev_label, versions)
            kernels.append(replace(k, graph=gi, dynamic_dims=tuple(dynamic_dims),
                                   graph_breaks=tuple(b.text() for b in breaks), phase=graph.phase))
    if not kernels:
        raise CaptureError(
            f"program {program.name!r} emitted no Triton kernel on {dev_label} (Inductor lowered it to views, "
            "extern calls or fallbacks). Add pointwise work that must be materialized, e.g. `.contiguous()`."
        )
    return Capture(program.name, tuple(kernels), len(rec.graphs), breaks, tuple(dynamic_dims),
                   time.perf_counter() - t0, tuple(notes))


@contextlib.contextmanager
def _importable(fn):
    """Dynamo imports the module of a function it inlines (the step inlines the program and ``loss``); a user
    file's module is not in ``sys.modules`` after loading, so a stand-in with its globals is, while capture
    runs."""
    import sys
    import types

    name = getattr(fn, "__module__", None)
    if not name or name in sys.modules:
        yield
        return
    stand_in = types.ModuleType(name)
    stand_in.__dict__.update(fn.__globals__)
    sys.modules[name] = stand_in
    try:
        yield
    finally:
        sys.modules.pop(name, None)


def _training_step(fn, loss):
    """The function a training step compiles: the program, then the scalar it differentiates (``loss(output)``
    when the file defines one, else the sum of every floating output), so the backward graph starts from it."""
    import torch

    def step(*args):
        out = fn(*args)
        if loss is not None:
            return loss(out)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        total = None
        for o in outs:
            if isinstance(o, torch.Tensor) and o.is_floating_point():
                total = o.sum() if total is None else total + o.sum()
        if total is None:
            raise CaptureError("a training step needs a floating output to differentiate; define loss(output) "
                               "in the file")
        return total

    return step


def _build(program: Program, notes: list[str], meta: bool = True):
    """``program.build()`` on the meta device (weights never allocated); a model that computes with tensors
    while it is built (``torch.linspace(...).tolist()`` for its widths: regnet) cannot, since meta tensors hold
    no values, so it is built on the CPU instead, and a note says so (its weights then take memory until
    capture replaces them with fake tensors).

    ``meta=False`` (a capture that runs the model on a real device: ``--device cpu``, a training step, a
    GPU): built on the CPU directly. A meta-built module's buffers hold no values, and placing them on a real
    device gives uninitialised memory: BERT's ``position_ids`` buffer indexed its embedding out of bounds."""
    import torch

    from workbench.capture import failure

    if not meta:
        try:
            with torch.device("cpu"):
                return program.build()
        except Exception as exc:  # noqa: BLE001
            raise CaptureError(f"building the model of {program.name!r} on the CPU failed: "
                               f"{failure.explain_build(exc, program.name)} — this is the model's own code; "
                               "fix model() and capture again") from None
    try:
        with torch.device("meta"):
            return program.build()
    except Exception as meta_exc:  # noqa: BLE001 - the model's own code: retried on the CPU, then explained
        why = failure.explain_build(meta_exc, program.name)
    try:
        with torch.device("cpu"):
            module = program.build()
    except Exception as exc:  # noqa: BLE001
        raise CaptureError(f"building the model of {program.name!r} failed on the meta device ({why}) and on the "
                           f"CPU: {failure.explain_build(exc, program.name)} — this is the model's own code; "
                           "fix model() and capture again") from None
    n = sum(p.numel() for p in module.parameters()) if hasattr(module, "parameters") else 0
    note = (f"built the model of {program.name!r} on the CPU ({n:,} parameters in memory): on the meta device "
            f"it failed ({why}), since it computes with tensor values while it is built")
    notes.append(note)
    _log.warning("workbench: note: %s", note)
    return module


def capture_program(name_or_path: str, device: str = "cuda", out: str | Path | None = None, gpu: str = "L4",
                    backward: bool = False):
    """Capture and save under ``out`` (default ``data/kernels/<program>/``); returns (kernels, paths)."""
    program = resolve(name_or_path)
    kernels = capture(program, device=device, gpu=gpu, backward=backward)
    out_dir = Path(out) if out is not None else default_out_dir(program.name)
    paths = [save(k, out_dir) for k in kernels]
    return kernels, paths


def _inputs(program: Program, device: str, fake: bool):
    """The example inputs on the capture device, and the fake mode they live in (None on a real device)."""
    import torch

    examples = program.example_inputs("cpu")
    if not fake:
        return tuple(t.to(device) for t in examples), None
    from torch._subclasses.fake_tensor import FakeTensorMode

    mode = FakeTensorMode()
    with mode:
        return tuple(
            torch.empty_strided(tuple(t.shape), tuple(t.stride()), dtype=t.dtype, device="cuda") for t in examples
        ), mode


def _symbols_in(text: str) -> set[str]:
    return set(_SYMBOL.findall(text))


def _record(program, facts, graph, source, dev_label, versions) -> CapturedKernel:
    sig = facts.signature
    size_args = tuple(
        SizeArg(name=name, expr=_in_shape_symbols(expr, graph.replacements), type=sig.get(name, "?"))
        for name, expr in sorted(facts.sizevars.items(), key=lambda kv: _natural(kv[0]))
    )
    numels = tuple(
        Numel(name=f"{prefix}numel", expr=_in_shape_symbols(expr, graph.replacements), type=sig.get(f"{prefix}numel"))
        for prefix, expr in sorted(facts.numels.items())
        # a reduction prefix of a pointwise kernel has numel 1 and is not an argument: not a fact of interest
        if f"{prefix}numel" in sig or expr != "1"
    )
    exprs = [a.expr for a in size_args] + [n.expr for n in numels]
    syms: set[str] = set()
    for e in exprs:
        syms |= _symbols_in(e)
    # precomputed sizes (ps0 = ...) stand for expressions in shape symbols: include those symbols too
    for ps in [s for s in syms if s.startswith("ps")]:
        syms |= _symbols_in(graph.replacements.get(ps, ""))
    arg_names = _arg_names(program)
    symbols = tuple(
        ShapeSymbol(
            name=s,
            lower=graph.var_ranges.get(s, (None, None))[0],
            upper=graph.var_ranges.get(s, (None, None))[1],
            sources=tuple(_describe_source(src, arg_names) for src in graph.var_sources.get(s, [])),
        )
        for s in sorted(syms, key=_natural)
        if not s.startswith("ps")
    )
    sym_names = {s.name for s in symbols}
    guards = tuple(g for g in graph.guards if _symbols_in(g) & sym_names)
    return CapturedKernel(
        program=program.name,
        name=facts.name,
        source=source,
        signature=sig,
        grid_type=facts.grid_type,
        index_dtype=facts.index_dtype,
        size_args=size_args,
        numels=numels,
        symbols=symbols,
        guards=guards,
        replacements={k: v for k, v in sorted(graph.replacements.items()) if k in syms},
        device=dev_label,
        torch_version=versions["torch"],
        triton_version=versions["triton"],
        source_hash=source_hash(source, facts.name),
    )


def _in_shape_symbols(expr: str, replacements: Mapping[str, str]) -> str:
    """Expand Inductor's precomputed sizes (``ps0``) into shape symbols, so facts name only input dims."""
    if not any(p in _symbols_in(expr) for p in replacements):
        return expr
    import sympy

    # parse_any, not parse_expr: symexpr's parse_expr refuses a bare symbol (sympy's Symbol is also a Boolean)
    from workbench.symexpr import parse_any

    e = parse_any(expr, "Inductor size expression")
    subs = {sympy.Symbol(k): parse_any(v, f"Inductor precomputed size {k}") for k, v in replacements.items()}
    for _ in range(4):  # replacements may refer to other precomputed sizes
        e2 = e.xreplace(subs)
        if e2 == e:
            break
        e = e2
    return str(e)


def _natural(name: str):
    m = re.match(r"([a-z_]*)(\d*)", name)
    return (m.group(1), int(m.group(2)) if m.group(2) else -1, name)


def _arg_names(program: Program) -> list[str]:
    import inspect

    try:
        return list(inspect.signature(program.fn).parameters)
    except (TypeError, ValueError):
        return []


_SRC = re.compile(r"L\['(\w+)'\](?:\[(\d+)\])?\.size\(\)\[(\d+)\]")


def _describe_source(src: str, arg_names: list[str]) -> str:
    """``L['q1'].size()[1]`` -> ``q1.size(1) (input 0)``; ``L['inputs'][0].size()[1]`` (a ``*inputs``
    parameter) -> ``inputs[0].size(1) (input 0)``."""
    m = _SRC.fullmatch(src)
    if not m:
        return src
    name, item, dim = m.group(1), m.group(2), int(m.group(3))
    if item is not None:
        return f"{name}[{item}].size({dim}) (input {item})"
    params = [a for a in arg_names if a != "module"]
    idx = f" (input {params.index(name)})" if name in params else ""
    return f"{name}.size({dim}){idx}"


def facts_summary(kernel: CapturedKernel) -> Mapping[str, object]:
    return {
        "size_args": {a.name: (a.type, a.expr) for a in kernel.size_args},
        "numels": {n.name: (n.type, n.expr) for n in kernel.numels},
        "guards": list(kernel.guards),
        "symbols": {s.name: (s.lower, s.upper, s.sources) for s in kernel.symbols},
    }
