"""Worker: run a kernel's wide and narrowed text under Triton's interpreter at chosen program ids, memory
intercepted, and compare the two lane by lane.

Stage: oracle. Runs only as ``python -m workbench.oracle.worker`` with ``TRITON_INTERPRET=1`` (started by
:mod:`workbench.oracle.run`), so ``@triton.jit`` builds Triton's own ``InterpretedFunction`` and the rest of
the workbench never sees the interpreter's patches. Reads a JSON job on stdin; writes one JSON line per
kernel on stdout as soon as it is done (the parent shows progress from them).

How a program runs (triton 3.7.1, ``triton/runtime/interpreter.py``): the interpreter executes a kernel one
program at a time with numpy, using the same ``semantic.py`` typing and promotion rules as the compiler and
wrapping integer arithmetic. ``GridExecutor`` would run the whole grid; we do what it does for one program
(``_patch_lang`` scope, ``set_grid_dim``, ``set_grid_idx``, call the rewritten function) for the chosen ids
only. Memory: every load and store reaches the interpreter's builder as ``create_masked_load`` /
``create_masked_store`` (``create_load``/``create_store`` forward to them); the worker shadows those two on
the builder instance with recorders (a load returns :func:`~workbench.oracle.memory.load_bits` of its
addresses where its mask holds and ``other`` elsewhere), and makes every other memory entry point (block
pointers, descriptors, atomics) raise, so a fake address is never dereferenced.

Scalars are passed as typed one-element tensors in the type each text declares (``i64`` -> int64, ``i32`` ->
int32): the interpreter would otherwise type every Python int by its value (int32 when it fits).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import sys
import tempfile
import traceback
import warnings
from typing import Iterator

import numpy as np

from workbench.oracle.compare import Comparison, compare
from workbench.oracle.memory import ELEMENT, Access, Kind, bases, load_bits
from workbench.oracle.source import KernelText, NotTritonLanguage, read

HEADER = "import triton\nimport triton.language as tl\n"
# Inductor's helper modules, imported only when the kernel body names them (they import torch).
HELPERS = ("from torch._inductor.runtime import triton_helpers\n"
           "from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math\n")
KEEP = 24  # disagreements kept per kernel (all are counted)
UNINTERCEPTED = ("create_tensor_pointer_load", "create_tensor_pointer_store", "create_atomic_cas",
                 "create_atomic_rmw", "create_descriptor_load", "create_descriptor_store",
                 "create_descriptor_gather", "create_descriptor_scatter")


class Uninterceptable(Exception):
    """The kernel uses a memory operation the oracle does not intercept."""


def _jit(tmp: str, tag: str, text: KernelText):
    """Write the jit function alone to a module file (the interpreter re-reads the source) and import it."""
    body = text.function
    header = HEADER + (HELPERS if any(h in body for h in ("triton_helpers", "libdevice", "tl_math")) else "")
    path = os.path.join(tmp, f"{tag}.py")
    with open(path, "w") as fh:
        fh.write(header + "\n\n@triton.jit\n" + body)
    spec = importlib.util.spec_from_file_location(f"_oracle_{tag}", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    fn = getattr(mod, text.name)
    from triton.runtime.interpreter import InterpretedFunction

    if not isinstance(fn, InterpretedFunction):
        raise RuntimeError("triton.jit did not return an InterpretedFunction: TRITON_INTERPRET=1 is not in effect")
    return fn


def _tl(type_text: str):
    import triton.language as tl

    if type_text.startswith("*"):
        return tl.pointer_type(_tl(type_text[1:]))
    table = {"i1": tl.int1, "i8": tl.int8, "u8": tl.uint8, "i16": tl.int16, "u16": tl.uint16, "i32": tl.int32,
             "u32": tl.uint32, "i64": tl.int64, "u64": tl.uint64, "fp16": tl.float16, "bf16": tl.bfloat16,
             "fp32": tl.float32, "fp64": tl.float64}
    if type_text not in table:
        raise Uninterceptable(f"declared type {type_text!r} is not modelled by the oracle")
    return table[type_text]


def _scalar(value: int, type_text: str):
    """A typed one-element tensor; an integer outside the declared type wraps (two's complement), as a
    32-bit launch of a value that does not fit would."""
    import triton.language as tl
    from triton.runtime.interpreter import TensorHandle

    ty = _tl(type_text)
    dtype = ELEMENT[type_text][0]
    if dtype.kind in "iub":
        bits = dtype.itemsize * 8
        value = value % (1 << bits)
        if dtype.kind == "i" and value >= 1 << (bits - 1):
            value -= 1 << bits
    return tl.tensor(TensorHandle(np.array([value], dtype=dtype), ty), ty)


def _pointer(base: int, type_text: str):
    import triton.language as tl
    from triton.runtime.interpreter import TensorHandle

    ty = _tl(type_text)
    return tl.tensor(TensorHandle(np.array([base], dtype=np.uint64), ty), ty)


def _element_name(ptrs) -> str:
    import triton.language as tl

    ty = ptrs.get_element_ty()
    names = {tl.int1: "i1", tl.int8: "i8", tl.uint8: "u8", tl.int16: "i16", tl.uint16: "u16", tl.int32: "i32",
             tl.uint32: "u32", tl.int64: "i64", tl.uint64: "u64", tl.float16: "fp16", tl.bfloat16: "bf16",
             tl.float32: "fp32", tl.float64: "fp64"}
    if ty not in names:
        raise Uninterceptable(f"load/store of element type {ty} is not modelled by the oracle")
    return names[ty]


@contextlib.contextmanager
def intercepted(trace: list[Access]) -> Iterator[None]:
    """Shadow the interpreter builder's memory entry points while the block runs; restore them after."""
    from triton.runtime import interpreter as I
    from workbench.oracle.memory import as_bits

    b = I.interpreter_builder

    def load(ptrs, mask, other, cache_modifier, eviction_policy, is_volatile):
        element = _element_name(ptrs)
        addr = np.asarray(ptrs.data, dtype=np.uint64)
        m = np.broadcast_to(np.asarray(mask.data, dtype=bool), addr.shape)
        trace.append(Access(Kind.LOAD, element, addr.copy(), m.copy(), None))
        values = load_bits(addr, element)
        if other is not None:
            values = np.where(m, values, np.broadcast_to(other.data, addr.shape)).astype(values.dtype)
        else:
            values = np.where(m, values, np.zeros_like(values))
        return I.TensorHandle(values, ptrs.get_element_ty())

    def store(ptrs, value, mask, cache_modifier, eviction_policy):
        element = _element_name(ptrs)
        addr = np.asarray(ptrs.data, dtype=np.uint64)
        m = np.broadcast_to(np.asarray(mask.data, dtype=bool), addr.shape)
        bits = as_bits(np.broadcast_to(value.data, addr.shape), element)
        trace.append(Access(Kind.STORE, element, addr.copy(), m.copy(), bits.copy()))

    def refuse(name):
        def _refused(*args, **kwargs):
            raise Uninterceptable(f"the kernel uses {name.removeprefix('create_')}, a memory operation the oracle "
                                  "does not intercept")
        return _refused

    b.create_masked_load = load
    b.create_masked_store = store
    for name in UNINTERCEPTED:
        setattr(b, name, refuse(name))
    try:
        yield
    finally:
        for name in ("create_masked_load", "create_masked_store", *UNINTERCEPTED):
            b.__dict__.pop(name, None)


def _run(fn, text: KernelText, run: dict) -> list[list[Access]]:
    """Execute the chosen programs of one launch; the access trace per program."""
    from triton.runtime import interpreter as I

    sig = dict(text.signature)
    pointers = [p for p in text.params if sig.get(p, "").startswith("*")]
    where = bases(pointers)
    args = {}
    for p in text.params:
        if p in text.constexprs:
            args[p] = run["constexprs"][p]
        elif p in where:
            args[p] = _pointer(where[p], sig[p])
        else:
            args[p] = _scalar(int(run["scalars"][p]), sig[p])
    rewritten = fn.rewrite()
    scope = I._patch_lang(fn.fn)
    traces: list[list[Access]] = []
    b = I.interpreter_builder
    try:
        b.set_grid_dim(*run["grid"])
        for pid in run["pids"]:
            trace: list[Access] = []
            b.set_grid_idx(*pid)
            with intercepted(trace), warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                rewritten(**args)
            traces.append(trace)
    finally:
        scope.restore()
    return traces


def _block(trace: list[Access]) -> tuple[int, ...]:
    return tuple(max((a.address.shape for a in trace), key=len, default=()))


def _json_side(side: tuple) -> list:
    return [side[0], side[1], side[2]]


def _in_range(run: dict, pid: list[int], block: tuple[int, ...]) -> np.ndarray | None:
    """Lanes of this program whose index is below numel on every axis ([XBLOCK] or [YBLOCK, XBLOCK] layout,
    as Inductor's pointwise kernels lay out ``xindex``/``yindex``); None for any other layout."""
    scalars, blocks = run["scalars"], run["constexprs"]
    if len(block) == 1 and block == (blocks.get("XBLOCK"),):
        return pid[0] * block[0] + np.arange(block[0]) < scalars["xnumel"]
    if len(block) == 2 and block == (blocks.get("YBLOCK"), blocks.get("XBLOCK")) and "ynumel" in scalars:
        yblock = pid[1] + pid[2] * run["grid"][1]
        y = yblock * block[0] + np.arange(block[0])[:, None] < scalars["ynumel"]
        x = pid[0] * block[1] + np.arange(block[1])[None, :] < scalars["xnumel"]
        return y & x
    return None


def kernel(job: dict, tmp: str) -> dict:
    """Run one kernel's job: every launch, wide then narrowed text, compared per program."""
    texts = {tag: read(job[tag], job["name"], f"{job['key']} ({tag} text)") for tag in ("wide", "narrowed")}
    fns = {tag: _jit(tmp, f"{job['tag']}_{tag}", t) for tag, t in texts.items()}
    runs_out = []
    for run in job["runs"]:
        traces = {tag: _run(fns[tag], texts[tag], run) for tag in texts}
        total = Comparison()
        found: dict[str, list] = {"disagreements": [], "masked": []}
        for pid, w, n in zip(run["pids"], traces["wide"], traces["narrowed"]):
            block = _block(w) or _block(n)
            c = compare(w, n, block, _in_range(run, pid, block))
            for kind, items in (("disagreements", c.disagreements), ("masked", c.masked)):
                for d in items[: max(0, KEEP - len(found[kind]))]:
                    found[kind].append({"pid": pid, "lane": list(d.lane), "access": d.access, "what": d.what.value,
                                        "wide": _json_side(d.wide), "narrowed": _json_side(d.narrowed)})
            total.add(c, keep=0)
        runs_out.append({"shape": run["shape"], "lanes": total.lanes, "active_lanes": total.active_lanes,
                         "accesses": total.accesses, "disagreement_count": total.disagreement_count,
                         "inactive_differences": total.inactive_differences,
                         "masked_differences": total.masked_differences, **found})
    return {"key": job["key"], "runs": runs_out}


def main() -> int:
    if os.environ.get("TRITON_INTERPRET") != "1":
        print("workbench.oracle.worker must run with TRITON_INTERPRET=1 (it is started by `workbench oracle`)",
              file=sys.stderr)
        return 2
    job = json.load(sys.stdin)
    with tempfile.TemporaryDirectory(prefix="workbench-oracle-") as tmp:
        for i, kj in enumerate(job["kernels"]):
            kj = dict(kj, tag=f"k{i}")
            try:
                out = kernel(kj, tmp)
            except (Uninterceptable, NotTritonLanguage) as exc:
                out = {"key": kj["key"], "out_of_class": str(exc)}
            except Exception as exc:  # reported per kernel: one broken kernel does not hide the others
                tb = traceback.format_exc(limit=3)
                out = {"key": kj["key"], "error": f"{type(exc).__name__}: {exc}"[:800], "traceback": tb[-1500:]}
            sys.stdout.write(json.dumps(out) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
