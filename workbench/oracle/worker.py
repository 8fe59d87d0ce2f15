"""Worker: run a kernel's wide and narrowed text under Triton's interpreter at chosen program ids, memory
intercepted, and compare the two lane by lane.

Stage: oracle. Runs only as ``python -m workbench.oracle.worker`` with ``TRITON_INTERPRET=1`` (started by
:mod:`workbench.oracle.run`), so ``@triton.jit`` builds Triton's own ``InterpretedFunction`` and the rest of
the workbench never sees the interpreter's patches. Reads a JSON job on stdin; writes one JSON line per
kernel on stdout as soon as it is done (the parent shows progress from them).

How a program runs (triton 3.7.1, ``triton/runtime/interpreter.py``): the interpreter executes a kernel one
program at a time with numpy, using the same ``semantic.py`` typing and promotion rules as the compiler and
wrapping integer arithmetic; :func:`workbench.oracle.program.execute` runs one chosen program with every load,
store and device assert recorded (and loops recorded, sampled past a step budget). The module written for the
interpreter holds the kernel function and its helper jit functions only (the module's other statements and
the decorators never run), after the same Triton-language check as in the parent.

Scalars are passed as typed one-element tensors in the type each text declares (``i64`` -> int64, ``i32`` ->
int32): the interpreter would otherwise type every Python int by its value (int32 when it fits). A float
scalar argument (the CPU backend's constant operands) gets ``launch.DATA_SCALAR`` in its declared type.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import tempfile
import traceback

import numpy as np

from workbench.oracle.compare import Comparison, Differs, Disagreement, compare, compare_asserts, premise
from workbench.oracle.memory import ELEMENT, Access, bases, index_categories
from workbench.oracle.program import Layout, Tables, Uninterceptable, execute, layout_of, libdevice_namespace
from workbench.oracle.source import KernelText, NotTritonLanguage, read

HEADER = "import triton\nimport triton.language as tl\n"
# Inductor's helper modules, imported only when the kernel body names them (they import torch).
HELPERS = ("from torch._inductor.runtime import triton_helpers\n"
           "from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math\n")
KEEP = 24  # disagreements kept per kernel (all are counted)


def _jit(tmp: str, tag: str, text: KernelText):
    """Write the jit function (after its helper jit functions) alone to a module file (the interpreter re-reads
    the source) and import it; returns the function and the file's layout (loops, asserts)."""
    body = text.function + "".join(text.helpers)
    helpers = any(h in body for h in ("triton_helpers", "libdevice", "tl_math"))
    module = HEADER + (HELPERS if helpers else "") + "".join(f"\n\n@triton.jit\n{h}" for h in text.helpers)
    module += "\n\n@triton.jit\n" + text.function
    path = os.path.join(tmp, f"{tag}.py")
    with open(path, "w") as fh:
        fh.write(module)
    spec = importlib.util.spec_from_file_location(f"_oracle_{tag}", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    if helpers:
        shim = libdevice_namespace()  # libdevice's extern calls cannot run in the interpreter: tl.math's instead
        mod.libdevice = shim
        sys.modules["torch._inductor.runtime.triton_helpers"].libdevice = shim
    fn = getattr(mod, text.name)
    from triton.runtime.interpreter import InterpretedFunction

    if not isinstance(fn, InterpretedFunction):
        raise RuntimeError("triton.jit did not return an InterpretedFunction: TRITON_INTERPRET=1 is not in effect")
    sig = dict(text.signature)
    pointers = frozenset(p for p in text.params if sig.get(p, "").startswith("*"))
    return fn, layout_of(path, module, text.name, pointers)


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


def _scalar(value: int | float, type_text: str):
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


def _run(fn, layout: Layout, text: KernelText, run: dict, seed: str, salt: int = 0) -> list:
    """Execute the chosen programs of one launch (index tables drawn as draw ``salt``); what each did."""
    sig = dict(text.signature)
    pointers = [p for p in text.params if sig.get(p, "").startswith("*")]
    where = bases(pointers)
    args = {}
    for p in text.params:
        if p in text.constexprs:
            args[p] = run["constexprs"][p]
        elif p in where:
            args[p] = _pointer(where[p], sig[p])
        elif p in (run.get("data") or {}):  # a float scalar argument (launch.FLOAT_SCALARS): data, both kernels
            args[p] = _scalar(float(run["data"][p]), sig[p])
        else:
            args[p] = _scalar(int(run["scalars"][p]), sig[p])
    index = run.get("index") or {}
    tables = Tables({pointers.index(p): (int(b), bool(neg)) for p, (b, neg) in index.items()},
                    run.get("draw") == "outside", salt)
    marks = run.get("marks", []) if run.get("sampled") else None
    return [execute(fn, args, run["grid"], pid, layout, tables, marks, f"{seed}:{pid}") for pid in run["pids"]]


def _block(trace) -> tuple[int, ...]:
    """The program's tile: the broadcast shape of every access and assert (``[XBLOCK, R0_BLOCK]`` when a
    reduction's ``[XBLOCK, 1]`` loads come first)."""
    shapes = [a.address.shape for a in trace.accesses] + [e.triton.shape for e in trace.asserts]
    return tuple(np.broadcast_shapes(*shapes)) if shapes else ()


def _json_side(side: tuple) -> list:
    return [side[0], side[1], side[2]]


def _in_range(run: dict, pid: list[int], block: tuple[int, ...]) -> np.ndarray | None:
    """Lanes of this program whose index is below numel on every axis ([XBLOCK] or [YBLOCK, XBLOCK] layout,
    as Inductor's pointwise kernels lay out ``xindex``/``yindex``); None for any other layout."""
    scalars, blocks = run["scalars"], run["constexprs"]
    if len(block) == 1 and block == (blocks.get("XBLOCK"),):
        # xnumel is a scalar argument, or a constexpr (a one-row kernel's, passed as Inductor passes it)
        return pid[0] * block[0] + np.arange(block[0]) < scalars.get("xnumel", blocks.get("xnumel"))
    if len(block) == 2 and block == (blocks.get("YBLOCK"), blocks.get("XBLOCK")) and "ynumel" in scalars:
        yblock = pid[1] + pid[2] * run["grid"][1]
        y = yblock * block[0] + np.arange(block[0])[:, None] < scalars["ynumel"]
        x = pid[0] * block[1] + np.arange(block[1])[None, :] < scalars["xnumel"]
        return y & x
    return None


def _reduction_range(red: dict, pid: list[int], block: tuple[int, ...]):
    """Per access, the lanes of an ``[XBLOCK, R0_BLOCK]`` tile below numel: ``x < xnumel``, and
    ``r0_offset + r < r0_numel`` for an access that spans the r axis (an ``[XBLOCK, 1]`` access does not)."""
    xb, rb = red["XBLOCK"], red["R0_BLOCK"]
    if block != (xb, rb):
        return None
    x = pid[0] * xb + np.arange(xb)[:, None] < red["xnumel"]
    r = np.arange(rb)[None, :]

    def in_range(a: Access) -> np.ndarray:
        if a.address.ndim == 2 and a.address.shape[1] > 1:
            return x & (((a.tag[2] or 0) + r) < red["r0_numel"])
        return np.broadcast_to(x, block)
    return in_range


def _finding(pid, d) -> dict:
    return {"pid": pid, "lane": list(d.lane), "access": d.access, "what": d.what.value, "tag": list(d.tag),
            "wide": _json_side(d.wide), "narrowed": _json_side(d.narrowed)}


def kernel(job: dict, tmp: str) -> dict:
    """Run one kernel's job: every launch, wide then narrowed text, compared per program."""
    texts = {tag: read(job[tag], job["name"], f"{job['key']} ({tag} text)") for tag in ("wide", "narrowed")}
    fns = {tag: _jit(tmp, f"{job['tag']}_{tag}", t) for tag, t in texts.items()}
    runs_out = []
    for run in job["runs"]:
        seed = f"{job['key']}:{run['shape']}"
        red = run.get("reduction")
        total = Comparison()
        found: dict[str, list] = {"disagreements": [], "masked": []}
        steps = {"run": 0, "total": 0, "sampled_loops": 0}
        # index tables: one run per kind of entry, so that every entry meets every kind (memory.index_values)
        draws = max([index_categories(bool(neg), run.get("draw") == "outside")
                     for _b, neg in (run.get("index") or {}).values()] or [1])
        programs = []
        for salt in range(draws):
            traces = {tag: _run(*fns[tag], texts[tag], run, seed, salt) for tag in texts}
            programs += list(zip(run["pids"], traces["wide"], traces["narrowed"]))
        for pid, w, n in programs:
            block = _block(w) or _block(n)
            outside, errors = premise(w.asserts, block, rows=red is not None)
            in_range = _reduction_range(red, pid, block) if red else _in_range(run, pid, block)
            c = compare(w.accesses, n.accesses, block, in_range, outside)
            compare_asserts(w.asserts, n.asserts, block, outside, c)
            c.assert_errors.extend(errors)
            if w.loops != n.loops:
                c.disagreement_count += 1
                c.disagreements.append(Disagreement("loop steps", Differs.COUNT, (), tuple(w.loops), tuple(n.loops)))
            for _loop, in_loop, ran in w.loops:
                steps["total"] += in_loop
                steps["run"] += ran
                steps["sampled_loops"] += ran < in_loop
            for kind, items in (("disagreements", c.disagreements), ("masked", c.masked)):
                for d in items[: max(0, KEEP - len(found[kind]))]:
                    found[kind].append(_finding(pid, d))
            total.add(c, keep=0)
        runs_out.append({"shape": run["shape"], "lanes": total.lanes, "active_lanes": total.active_lanes,
                         "accesses": total.accesses, "disagreement_count": total.disagreement_count,
                         "inactive_differences": total.inactive_differences,
                         "masked_differences": total.masked_differences, "outside_premise": total.outside_premise,
                         "outside_differences": total.outside_differences,
                         "asserts": total.asserts, "assert_errors": total.assert_errors[:KEEP],
                         "steps_run": steps["run"], "steps_total": steps["total"], "programs": len(programs),
                         "draws": draws,
                         "sampled_loops": steps["sampled_loops"], **found})
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
