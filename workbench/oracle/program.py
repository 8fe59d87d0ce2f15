"""One program under Triton's interpreter, everything it does recorded: loads, stores, asserts and loop steps.

Stage: oracle (worker only; imported under ``TRITON_INTERPRET=1``). :func:`execute` does for one program id
what Triton's ``GridExecutor`` does (``_patch_lang`` scope, ``set_grid_idx``, call the rewritten function) with
the interpreter builder's memory entry points shadowed for the duration:

* ``create_masked_load`` / ``create_masked_store`` (every ``tl.load``/``tl.store`` reaches them) append an
  :class:`~workbench.oracle.memory.Access` tagged with where it ran — the kernel frame's current line, the
  reduction loop that line lies in and that frame's ``r0_offset`` — found by walking up the Python stack to
  the kernel's own frame (its code object's file is the module the worker wrote). A load returns
  :func:`~workbench.oracle.memory.load_bits` of its addresses, or :func:`~workbench.oracle.memory.index_values`
  on lanes whose address lies in an index table (see :mod:`workbench.oracle.asserts`);
* ``create_assert`` (``tl.device_assert`` with the builder's ``debug`` option on, overflow sanitising off)
  records Triton's condition *and* the oracle's own evaluation of the assert's text over the kernel frame's
  values (:func:`workbench.oracle.asserts.evaluate`), never raising;
* block pointers, descriptors and atomics raise :class:`Uninterceptable`.

Loop steps: ``tl.range`` under the interpreter is ``range(start, end, step)`` evaluated inside the
interpreter's ``_new_range``; the worker shadows the name ``range`` in the interpreter module for the
program's duration, and a call coming from ``_new_range`` made by the kernel's frame is recorded (loop, steps
in the loop, steps run) and, in a launch the parent planned as sampled, answered with the sampled offsets
(:func:`~workbench.oracle.reduction.chosen_steps`; the same choice in both kernels).

Speed: reductions and scans with a custom combine function run on whole vectors
(:mod:`workbench.oracle.vectorized`). ``InterpretedFunction.__call__`` re-patches the whole language on every
call of a helper jit function (``triton_helpers.maximum`` once per element pair of a reduction): idempotent,
and about 1 ms each. While a program runs, repeated patches of the same language modules are answered with
the first scope (restored after the program), which made the softmax loops 2-3x faster here.

libdevice: its functions are extern calls the interpreter cannot run (they return ``None``); the worker binds
``libdevice`` (in the kernel module and in ``triton_helpers``) to a namespace of the same-named ``tl.math``
functions (:data:`~workbench.oracle.body.LIBDEVICE`) — the same operation, computed by numpy, identically in
both kernels.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import dataclasses
import inspect
import random
import sys
import types
import warnings
from dataclasses import dataclass, field
from typing import Iterator

import numpy as np

from workbench.oracle import vectorized
from workbench.oracle.asserts import Assert, AssertModelError, evaluate, names
from workbench.oracle.body import LIBDEVICE, LOOP
from workbench.oracle.memory import AMBIGUOUS, BASE_SHIFT, ELEMENT, Access, AssertEvent, Kind, index_values, load_bits
from workbench.oracle.reduction import chosen_steps

UNINTERCEPTED = ("create_tensor_pointer_load", "create_tensor_pointer_store", "create_atomic_cas",
                 "create_atomic_rmw", "create_descriptor_load", "create_descriptor_store",
                 "create_descriptor_gather", "create_descriptor_scatter")
ELEMENT_NAMES = {"int1": "i1", "int8": "i8", "uint8": "u8", "int16": "i16", "uint16": "u16", "int32": "i32",
                 "uint32": "u32", "int64": "i64", "uint64": "u64", "fp16": "fp16", "bf16": "bf16", "fp32": "fp32",
                 "fp64": "fp64"}


class Uninterceptable(Exception):
    """The kernel uses a memory operation (or element type) the oracle does not intercept."""


@dataclass(frozen=True, slots=True)
class Layout:
    """Where things are in the module file the worker wrote (absolute line numbers of that file)."""

    path: str
    loops: tuple[tuple[int, int], ...]  # (first, last) line of each reduction loop
    asserts: tuple[Assert, ...]

    def loop_of(self, line: int) -> int | None:
        return next((i for i, (a, b) in enumerate(self.loops) if a <= line <= b), None)

    def assert_at(self, line: int) -> Assert | None:
        return next((a for a in self.asserts if a.line <= line <= a.end_line), None)


@dataclass(slots=True)
class Trace:
    accesses: list[Access] = field(default_factory=list)
    asserts: list[AssertEvent] = field(default_factory=list)
    loops: list[tuple[int | None, int, int]] = field(default_factory=list)  # (loop, steps in it, steps run)


@dataclass(frozen=True, slots=True)
class Tables:
    """Index tables of one launch: pointer position (``address >> BASE_SHIFT`` - 1) -> (bound, negative)."""

    by_position: dict[int, tuple[int, bool]]
    outside: bool = False
    salt: int = 0  # which draw (see memory.index_values)


def _kernel_frame(path: str):
    f = sys._getframe(1)
    while f is not None and f.f_code.co_filename != path:
        f = f.f_back
    return f


def _tag(layout: Layout) -> tuple[int, int | None, int | None]:
    f = _kernel_frame(layout.path)
    if f is None:
        return (0, None, None)
    loop = layout.loop_of(f.f_lineno)
    offset = f.f_locals.get(LOOP[0]) if loop is not None else None
    return (f.f_lineno, loop, offset if isinstance(offset, int) else None)


def _element(ptrs) -> str:
    ty = ptrs.get_element_ty()
    name = ELEMENT_NAMES.get(getattr(ty, "name", ""))
    if name is None:
        raise Uninterceptable(f"load/store of element type {ty} is not modelled by the oracle")
    return name


def _exact(value):
    """A kernel value as exact integers (object arrays) or booleans, for the oracle's own evaluator."""
    import triton.language as tl

    if isinstance(value, tl.constexpr):
        value = value.value
    if isinstance(value, tl.tensor):
        data = np.asarray(value.handle.data)
        if data.dtype == bool:
            return data
        if data.dtype.kind in "iu":
            return data.astype(object)
        raise AssertModelError(f"a {data.dtype} operand")
    if isinstance(value, (bool, int, np.bool_)):
        return value
    raise AssertModelError(f"an operand of type {type(value).__name__}")


def _own(a: Assert, frame, shape) -> np.ndarray:
    env = {}
    for n in names(a.condition):
        if n not in frame.f_locals:
            raise AssertModelError(f"the name {n!r} is not a local of the kernel")
        env[n] = _exact(frame.f_locals[n])
    return np.broadcast_to(np.asarray(evaluate(a.condition, env), dtype=bool), shape).copy()


@contextlib.contextmanager
def intercepted(trace: Trace, layout: Layout, tables: Tables) -> Iterator[None]:
    from triton.runtime import interpreter as I
    from workbench.oracle.memory import as_bits

    b = I.interpreter_builder

    def load(ptrs, mask, other, cache_modifier, eviction_policy, is_volatile):
        element = _element(ptrs)
        addr = np.asarray(ptrs.data, dtype=np.uint64)
        m = np.broadcast_to(np.asarray(mask.data, dtype=bool), addr.shape)
        trace.accesses.append(Access(Kind.LOAD, element, addr.copy(), m.copy(), None, _tag(layout)))
        values = load_bits(addr, element)
        if tables.by_position and ELEMENT[element][0].kind in "iu":
            for pos, (bound, negative) in tables.by_position.items():
                # the table's lanes: addresses within the table's own range above its base (a wild offset from
                # another pointer that lands below that pointer's base is not a read of this table)
                delta = addr - np.uint64((pos + 1) << BASE_SHIFT)
                hit = delta < np.uint64(AMBIGUOUS)
                if hit.any():
                    offset = (delta // np.uint64(ELEMENT[element][1])).astype(np.int64)
                    drawn = index_values(addr, offset, element, bound, negative, tables.outside, tables.salt)
                    values = np.where(hit, drawn, values)
        fill = np.broadcast_to(other.data, addr.shape) if other is not None else np.zeros_like(values)
        values = np.where(m, values, fill).astype(ELEMENT[element][0])
        return I.TensorHandle(values, ptrs.get_element_ty())

    def store(ptrs, value, mask, cache_modifier, eviction_policy):
        element = _element(ptrs)
        addr = np.asarray(ptrs.data, dtype=np.uint64)
        m = np.broadcast_to(np.asarray(mask.data, dtype=bool), addr.shape)
        bits = as_bits(np.broadcast_to(value.data, addr.shape), element)
        trace.accesses.append(Access(Kind.STORE, element, addr.copy(), m.copy(), bits.copy(), _tag(layout)))

    def device_assert(condition, message):
        triton = np.asarray(condition.data, dtype=bool)
        frame = _kernel_frame(layout.path)
        a = layout.assert_at(frame.f_lineno) if frame is not None else None
        tag = _tag(layout)
        if a is None:
            trace.asserts.append(AssertEvent(tag, str(message), triton, None, "the assert is not the kernel's own "
                                             "tl.device_assert statement (a helper's?)"))
            return
        try:
            trace.asserts.append(AssertEvent(tag, a.text, triton, _own(a, frame, triton.shape),
                                             premise=bool(a.pointers)))
        except AssertModelError as exc:
            trace.asserts.append(AssertEvent(tag, a.text, triton, None, str(exc), premise=bool(a.pointers)))

    def refuse(name):
        def _refused(*args, **kwargs):
            raise Uninterceptable(f"the kernel uses {name.removeprefix('create_')}, a memory operation the oracle "
                                  "does not intercept")
        return _refused

    options = b.options
    b.options = dataclasses.replace(options, debug=True, sanitize_overflow=False)
    b.create_masked_load = load
    b.create_masked_store = store
    b.create_assert = device_assert
    for name in UNINTERCEPTED:
        setattr(b, name, refuse(name))
    try:
        yield
    finally:
        b.options = options
        for name in ("create_masked_load", "create_masked_store", "create_assert", *UNINTERCEPTED):
            b.__dict__.pop(name, None)


@contextlib.contextmanager
def stepped(trace: Trace, layout: Layout, marks: list[int] | None, seed: str) -> Iterator[None]:
    """Record (and, given ``marks``, sample) the kernel's ``tl.range`` loops; see the module docstring."""
    from triton.runtime import interpreter as I

    def loop_range(*args):
        caller = sys._getframe(1)
        kernel = caller.f_back
        if caller.f_code.co_name != "_new_range" or kernel is None or kernel.f_code.co_filename != layout.path:
            return builtins.range(*args)
        real = builtins.range(*args)
        loop = layout.loop_of(kernel.f_lineno)
        steps = chosen_steps(len(real), real.step, marks or [], random.Random(f"{seed}:{loop}"), marks is not None)
        trace.loops.append((loop, len(real), len(steps)))
        return [real[i] for i in steps]

    I.range = loop_range
    try:
        yield
    finally:
        del I.range


@contextlib.contextmanager
def patched_once() -> Iterator[None]:
    """Answer repeated ``_patch_lang`` calls for the same language modules with the first scope (see above)."""
    import triton.language as tl
    from triton.runtime import interpreter as I

    original = I._patch_lang
    scopes: dict[tuple[int, ...], object] = {}
    keys: dict[int, tuple[int, ...]] = {}  # id(globals) -> the language modules they hold

    def once(fn):
        g = fn.__globals__
        key = keys.get(id(g))
        if key is None:
            key = keys[id(g)] = tuple(sorted(id(v) for v in g.values() if inspect.ismodule(v) and v in (tl, tl.core)))
        if key not in scopes:
            scopes[key] = original(fn)
        return scopes[key]

    I._patch_lang = once
    try:
        yield
    finally:
        I._patch_lang = original
        for scope in reversed(list(scopes.values())):
            scope.restore()  # type: ignore[attr-defined]


def libdevice_namespace() -> types.SimpleNamespace:
    import triton.language as tl

    def bind(name):
        def call(*args, **kwargs):
            return getattr(tl.math, name)(*args, **kwargs)  # looked up at call time: the patched builtin
        call.__name__ = name
        return call
    def tanh(x):  # LIBDEVICE_COMPOSED["tanh"]: 1 - 2 / (exp(2x) + 1)
        return 1.0 - 2.0 / (tl.math.exp(x * 2.0) + 1.0)

    def signbit(x):  # LIBDEVICE_COMPOSED["signbit"]: __nv_signbitf is the IEEE sign bit, as an int
        width = {tl.float64: tl.int64, tl.float16: tl.int16, tl.bfloat16: tl.int16}.get(x.dtype, tl.int32)
        return (x.to(width, bitcast=True) < 0).to(tl.int32)

    return types.SimpleNamespace(tanh=tanh, signbit=signbit, **{k: bind(v) for k, v in LIBDEVICE.items()})


def execute(fn, args: dict, grid: list[int], pid: list[int], layout: Layout, tables: Tables,
            marks: list[int] | None, seed: str) -> Trace:
    """Run program ``pid`` of ``fn`` (an ``InterpretedFunction``) and return what it did; ``marks`` (r indices)
    make long loops sampled, ``None`` runs every step."""
    from triton.runtime import interpreter as I

    trace = Trace()
    b = I.interpreter_builder
    with patched_once(), vectorized.installed():
        rewritten = fn.rewrite()
        I._patch_lang(fn.fn)
        b.set_grid_dim(*grid)
        b.set_grid_idx(*pid)
        with intercepted(trace, layout, tables), stepped(trace, layout, marks, seed), warnings.catch_warnings(), \
                np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            rewritten(**args)
    return trace


def layout_of(path: str, text: str, name: str, pointers: frozenset[str]) -> Layout:
    """The written module's kernel: its loops' and asserts' lines (the file is parsed, never executed here)."""
    from workbench.oracle.asserts import find
    from workbench.oracle.reduction import loop_lines

    tree = ast.parse(text)
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    return Layout(path, loop_lines(fn), find(fn, pointers))
