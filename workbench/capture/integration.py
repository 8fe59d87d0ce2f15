"""Changing what Inductor compiles: the hook the narrowing rule uses, and running Inductor's own output on
the CPU under Triton's interpreter. Like :mod:`workbench.capture.hooks`, this touches private internals
(pinned torch 2.13.0 / triton 3.7.1).

* :func:`kernel_definition_hook` wraps ``TritonScheduling.define_kernel``: for each kernel Inductor is about
  to define, a callback sees the *live* facts (kernel source, size-argument expressions, numels, index dtype,
  and the ShapeEnv's ranges and guards at that moment) and may return new types for size arguments; the
  kernel's ``triton_meta`` signature, in the source text and on the kernel object, is rewritten before the
  kernel is defined. Leaving the context restores Inductor exactly.
* :func:`cpu_interpreter` makes ``torch.compile`` run end to end on CPU tensors: Inductor's Triton CPU
  backend (with pointwise ``cat``, the GPU's lowering of it), a stub driver, ``TRITON_INTERPRET=1``,
  fp32 -> bf16 casts rounded to nearest even as on the GPU (triton 3.7.1's interpreter truncates), and every
  integer scalar passed in its declared type (the interpreter alone types a Python int by its value, so an
  ``i64`` size argument would run as int32).
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from unittest import mock

from workbench.capture import hooks
from workbench.capture.record import CapturedKernel, Numel, ShapeSymbol, SizeArg, source_hash
from workbench.errors import CaptureError

_SIG = re.compile(r"triton_meta=\{'signature': \{([^{}]*)\}")


@dataclass(frozen=True, slots=True)
class LiveKernel:
    """A kernel Inductor is about to define, as a :class:`CapturedKernel` built from live state."""

    record: CapturedKernel
    kernel: object  # Inductor's kernel object (private; only this module reads it)


@dataclass(frozen=True, slots=True)
class Recompile:
    """A decision that replaces the module text Inductor is about to define: ``text(module)`` returns the text
    to compile (it may raise to refuse), ``retype`` the signature types that text declares (mirrored on the
    kernel object's ``triton_meta``), ``label`` what the hook records as the decision."""

    text: Callable[[str], str]
    retype: Mapping[str, str]
    label: Mapping[str, str]


def retype_signature(source: str, new_types: Mapping[str, str]) -> str:
    """Rewrite argument types inside the ``triton_meta`` signature of a kernel module's text."""
    m = _SIG.search(source)
    if m is None:
        raise CaptureError("kernel source has no `triton_meta={'signature': {...}}`; cannot retype its arguments")
    body = m.group(1)
    for name, ty in new_types.items():
        body, n = re.subn(rf"'{re.escape(name)}': '[^']*'", f"'{name}': '{ty}'", body)
        if n != 1:
            raise CaptureError(f"argument {name!r} is not in the kernel's signature {{{m.group(1)}}}")
    return source[: m.start(1)] + body + source[m.end(1) :]


def _live_record(src_code: str, kernel, program: str, device: str) -> CapturedKernel:
    from torch._inductor.virtualized import V

    graph = V.graph
    shape_env = graph.sizevars.shape_env
    name = "KERNEL_NAME_PLACEHOLDER"
    text = src_code.replace(str(_placeholder("KERNEL_NAME")), name).replace(
        str(_placeholder("DESCRIPTIVE_NAME")), name
    )
    meta = getattr(kernel, "triton_meta", None) or {}
    imeta = getattr(kernel, "inductor_meta", None) or {}
    sig = {str(k): str(v) for k, v in meta.get("signature", {}).items()}
    repl = {str(k): str(v) for k, v in graph.sizevars.inv_precomputed_replacements.items()}
    from workbench.capture import _in_shape_symbols, _natural, _symbols_in

    size_args = tuple(
        SizeArg(str(v), _in_shape_symbols(str(k), repl), sig.get(str(v), "?"))
        for k, v in sorted(kernel.args.sizevars.items(), key=lambda kv: _natural(str(kv[1])))
    )
    numels = tuple(
        Numel(f"{p}numel", _in_shape_symbols(str(e), repl), sig.get(f"{p}numel"))
        for p, e in sorted(kernel.numels.items())
        if f"{p}numel" in sig or str(e) != "1"
    )
    syms = set()
    for e in [a.expr for a in size_args] + [n.expr for n in numels]:
        syms |= _symbols_in(e)
    ranges = {str(s): r for s, r in shape_env.var_to_range.items()}
    symbols = tuple(
        ShapeSymbol(s, hooks._bound(ranges[s].lower) if s in ranges else None,
                    hooks._bound(ranges[s].upper) if s in ranges else None, ())
        for s in sorted(syms, key=_natural)
    )
    guards = tuple(str(g.expr) for g in shape_env.guards if _symbols_in(str(g.expr)) & syms)
    return CapturedKernel(
        program=program, name=name, source=text, signature=sig, grid_type=str(imeta.get("grid_type", "")),
        index_dtype=str(kernel.index_dtype), size_args=size_args, numels=numels, symbols=symbols,
        guards=guards, replacements={}, device=device, **_versions(),
        source_hash=source_hash(text, name) if f"def {name}(" in text else "",
    )


def _versions() -> dict[str, str]:
    v = hooks.installed_versions()
    return {"torch_version": v["torch"], "triton_version": v["triton"]}


def _placeholder(which: str):
    from torch._inductor.utils import Placeholder

    return getattr(Placeholder, which)


@contextlib.contextmanager
def kernel_definition_hook(
    decide: Callable[[LiveKernel], Mapping[str, str] | Callable[[str], str] | Recompile | None], program: str = "<live>",
    device: str = "live", on_defined: Callable[[str], None] | None = None,
) -> Iterator[list[tuple[str, Mapping[str, str] | None]]]:
    """While active, ``decide(live)`` is asked for every Triton kernel Inductor defines; a non-empty mapping
    ``{arg: type}`` retypes those arguments; a callable rewrites the kernel's module text (variant P: the
    body, signature untouched; recorded as the decision ``{"body": "rewritten"}``). ``on_defined(name)`` is told the name
    Inductor then gave the kernel; a :class:`Recompile` gives the whole text to compile and the types it
    declares (the rule's validated texts). Yields the list of (kernel name, decision) made."""
    from torch._inductor.codegen.triton import TritonScheduling

    orig = TritonScheduling.define_kernel
    decisions: list[tuple[str, Mapping[str, str] | None]] = []

    def define_kernel(sched, src_code, node_schedule, kernel):
        live = LiveKernel(_live_record(src_code, kernel, program, device), kernel)
        new_types = decide(live)
        if isinstance(new_types, Recompile):
            src_code, retype, new_types = new_types.text(src_code), new_types.retype, new_types.label
            if retype and getattr(kernel, "triton_meta", None):
                kernel.triton_meta["signature"].update(retype)
        elif callable(new_types):
            src_code, new_types = new_types(src_code), {"body": "rewritten"}
        elif new_types:
            src_code = retype_signature(src_code, new_types)
            if getattr(kernel, "triton_meta", None):
                kernel.triton_meta["signature"].update(new_types)
        name = orig(sched, src_code, node_schedule, kernel)
        decisions.append((name, dict(new_types) if new_types else None))
        if on_defined is not None:
            on_defined(name)
        return name

    with mock.patch.object(TritonScheduling, "define_kernel", define_kernel):
        yield decisions


_SCALAR_TYPES = {"i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "u32": "uint32", "u64": "uint64"}


def _typed_scalars(orig):
    """Inductor's interpreter launch with every integer scalar passed in its *declared* type. Triton's
    interpreter types a plain Python int by its value (``_implicit_cvt``: int32 whenever it fits, NOTES.md), so
    an ``i64`` size argument would run as int32 and the wide kernel would already run narrowed (red team red6:
    ``(ks0*x0).to(tl.int64)`` wrapped in int32 on 4192256 of 4194304 elements, without any rule). A scalar
    declared ``i64`` is handed over as a one-element int64 tensor (as the oracle's worker does), which
    ``_implicit_cvt`` passes through unchanged."""

    def interpret_args_grid(self, args, cfg):
        import numpy as np
        import triton.language as tl
        from triton.runtime.interpreter import TensorHandle

        new_args, grid = orig(self, args, cfg)
        sig = dict(self.triton_meta.get("signature", {}))
        names = [n for n in sig if n not in cfg.kwargs]  # the positional order _interpret_args_grid uses
        typed = []
        for i, a in enumerate(new_args):
            ty = _SCALAR_TYPES.get(sig.get(names[i], "")) if i < len(names) else None
            if ty is not None and isinstance(a, int) and not isinstance(a, bool):
                dt = getattr(tl, ty)
                a = tl.tensor(TensorHandle(np.array([a], dtype=getattr(np, ty)), dt), dt)
            typed.append(a)
        return tuple(typed), grid

    return interpret_args_grid


def _rne_bf16_cast(orig_cast):
    """The interpreter's cast with fp32 -> bf16 rounded to nearest even (CUDA's ``__float2bfloat16_rn``)."""
    import numpy as np
    import torch
    import triton.language as tl
    from triton.runtime.interpreter import TensorHandle

    def cast_impl(builder, src, dst_type):
        if src.dtype.scalar == tl.float32 and dst_type.scalar == tl.bfloat16:
            t = torch.from_numpy(np.ascontiguousarray(src.data, dtype=np.float32)).to(torch.bfloat16)
            return TensorHandle(t.view(torch.int16).numpy().view(np.uint16), dst_type.scalar)
        return orig_cast(builder, src, dst_type)

    return cast_impl


@contextlib.contextmanager
def cpu_interpreter(gpu: str = "L4") -> Iterator[None]:
    """Run ``torch.compile``d programs on CPU tensors through Inductor's Triton output and Triton's
    interpreter. Everything is restored on exit (caches are private and removed)."""
    import torch
    import triton
    from triton.runtime.interpreter import InterpreterBuilder

    hooks.require_pinned_versions()
    drv = triton.runtime.driver
    prev_active = drv._active
    prev_env = os.environ.get("TRITON_INTERPRET")
    with contextlib.ExitStack() as stack:
        stack.enter_context(hooks.private_caches())
        stack.enter_context(
            torch._inductor.config.patch(cpu_backend="triton", force_pointwise_cat=True, compile_threads=1)
        )
        stack.enter_context(
            mock.patch.object(InterpreterBuilder, "cast_impl", _rne_bf16_cast(InterpreterBuilder.cast_impl))
        )
        from torch._inductor.runtime.triton_heuristics import CachingAutotuner

        stack.enter_context(mock.patch.object(
            CachingAutotuner, "_interpret_args_grid", _typed_scalars(CachingAutotuner._interpret_args_grid)))
        os.environ["TRITON_INTERPRET"] = "1"  # read when Inductor's kernels are decorated with triton.jit
        drv.set_active(hooks._StubDriver(hooks.GPU_PROFILES[gpu]))
        try:
            yield
        finally:
            drv._active = prev_active
            if prev_env is None:
                os.environ.pop("TRITON_INTERPRET", None)
            else:
                os.environ["TRITON_INTERPRET"] = prev_env
