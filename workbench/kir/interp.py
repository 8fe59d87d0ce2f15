"""Worker: run captured kernels under Triton's interpreter with memory intercepted (cross-check oracle).

Stage: kir. Runs only in a subprocess started by :mod:`workbench.kir.crosscheck` with ``TRITON_INTERPRET=1``
set before ``triton`` is imported (so the rest of the workbench never sees the interpreter's patches).
Reads a JSON job on stdin, writes JSON results on stdout.

Offsets mode: each requested program is executed once by the interpreter (``triton.runtime.interpreter``,
the same ``semantic.py`` type rules as the compiler, numpy arithmetic with wraparound, ``np.fmod``-based
``//``/``%``); ``create_masked_load``/``create_masked_store`` are replaced by recorders, so no memory is
read or written even at sizes near 2**31 elements. Pointer bases are fake; element offsets are recovered
as ``(address - base) / element_size`` in 64-bit two's complement. Scalars are passed as typed tensors (the
interpreter would otherwise treat every Python int as int32).

Whole mode: the kernel runs on real CPU tensors (small sizes) with the fp32 -> bf16 conversion made
round-to-nearest-even (triton 3.7.1's interpreter truncates; see docs/kir.md and shared NOTES).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import tempfile
import warnings

MODULE_HEADER = (
    "import triton\nimport triton.language as tl\n"
)
HELPERS = "from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math\nfrom torch._inductor.runtime import triton_helpers\n"


def _module(tmp: str, name: str, jit_source: str, helpers: list | None = None):
    """The kernel (and the module's other ``@triton.jit`` helpers, a scan's combine function) as a module."""
    helper_text = "".join("\n@triton.jit\n" + text for text in (helpers or []))
    text = helper_text + jit_source
    header = MODULE_HEADER + (HELPERS if any(h in text for h in ("libdevice", "tl_math", "triton_helpers")) else "")
    path = os.path.join(tmp, f"{name}.py")
    with open(path, "w") as fh:
        fh.write(header + helper_text + "\n@triton.jit\n" + jit_source)
    spec = importlib.util.spec_from_file_location(f"_kir_interp_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return getattr(mod, name)


def _tl_type(text: str):
    import triton.language as tl

    if text.startswith("*"):
        return tl.pointer_type(_tl_type(text[1:]))
    return {"i1": tl.int1, "i8": tl.int8, "i16": tl.int16, "i32": tl.int32, "i64": tl.int64, "bf16": tl.bfloat16,
            "fp16": tl.float16, "fp32": tl.float32, "fp64": tl.float64}[text]


def _scalar(value: int, bits: int):
    import numpy as np
    import triton.language as tl
    from triton.runtime.interpreter import TensorHandle

    ty = {32: tl.int32, 64: tl.int64}[bits]
    half = 1 << (bits - 1)
    v = ((value + half) % (1 << bits)) - half
    return tl.tensor(TensorHandle(np.array([v], dtype={32: np.int32, 64: np.int64}[bits]), ty), ty)


def _pointer(base: int, type_text: str):
    import numpy as np
    import triton.language as tl
    from triton.runtime.interpreter import TensorHandle

    ty = _tl_type(type_text)
    return tl.tensor(TensorHandle(np.array([base], dtype=np.uint64), ty), ty)


def _float_math_as_identity(globs: dict) -> None:
    """Offsets mode only: libdevice calls are extern functions the interpreter cannot run (``extern_elementwise
    not supported in interpreter mode``, they come back as None). Their values are float payload, which the
    IR never lets reach an offset or a mask, so each is replaced by its first operand in this worker's copy
    of the kernel module (addresses and masks are unchanged; no value is compared in this mode)."""
    import types

    lib = globs.get("libdevice")
    if not isinstance(lib, types.ModuleType):
        return
    shim = types.ModuleType("libdevice_offsets_shim")
    for name in dir(lib):
        if not name.startswith("_"):
            setattr(shim, name, lambda x, *rest, **kw: x)
    globs["libdevice"] = shim
    # Inductor's helpers (``triton_helpers.exp`` in the online-softmax combines) call libdevice from their own
    # module's globals; this worker process runs offsets only, so that module's name is shimmed as well.
    helpers = globs.get("triton_helpers")
    if isinstance(helpers, types.ModuleType) and isinstance(getattr(helpers, "libdevice", None), types.ModuleType):
        helpers.libdevice = shim


def run_offsets(job: dict) -> list:
    out: list = []
    with tempfile.TemporaryDirectory() as tmp:
        for kj in job["kernels"]:
            try:
                out.append(_offsets_one(tmp, kj))
            except Exception as exc:  # reported per kernel; the parent counts it as a failure
                import traceback

                out.append({"error": f"{type(exc).__name__}: {exc}"[:500] + " | " + traceback.format_exc()[-1500:]})
    return out


def _offsets_one(tmp: str, kj: dict) -> list:
    import numpy as np
    from triton.runtime import interpreter as I

    if True:
        if True:
            fn = _module(tmp, kj["name"], kj["jit_source"], kj.get("helpers"))
            _float_math_as_identity(fn.fn.__globals__)
            rewritten = fn.rewrite()
            bases = {p: (i + 1) << 44 for i, (p, _t) in enumerate(kj["pointers"])}
            elem = {p: max(1, _tl_type(t).element_ty.primitive_bitwidth // 8) for p, t in kj["pointers"]}
            by_base = {b: p for p, b in bases.items()}
            kresults = []
            for case in kj["cases"]:
                args = {}
                for p, t in kj["pointers"]:
                    args[p] = _pointer(bases[p], t)
                for name, (value, bits) in case["scalars"].items():
                    args[name] = _scalar(value, bits)
                for name, value in case["constexprs"].items():
                    args[name] = value
                records: list = []

                data = case.get("data", {})

                def load(ptrs, mask, other, cache_modifier, eviction_policy, is_volatile, _r=records, _d=data):
                    _r.append(("load", ptrs.data.copy(), mask.data.copy()))
                    dt = I._get_np_dtype(ptrs.get_element_ty())
                    values = np.zeros(ptrs.data.shape, dtype=dt)
                    addr = ptrs.data.astype(np.uint64)
                    for p, (lo, span) in _d.items():  # index tensors' contents: lo + (offset * 7 + 3) mod span
                        delta = np.ascontiguousarray(addr - np.uint64(bases[p])).view(np.int64)  # wraps: signed
                        off = delta // elem[p]
                        hit = np.abs(delta) < (1 << 43)  # bases are 2**44 apart
                        values = np.where(hit, (lo + np.mod(off * 7 + 3, span)).astype(dt), values)
                    if other is not None:
                        values = np.where(np.asarray(mask.data, dtype=bool), values, other.data)
                    return I.TensorHandle(values.astype(dt), ptrs.get_element_ty())

                def store(ptrs, value, mask, cache_modifier, eviction_policy, _r=records):
                    _r.append(("store", ptrs.data.copy(), mask.data.copy()))

                b = I.interpreter_builder
                b.create_masked_load = load
                b.create_masked_store = store
                scope = I._patch_lang(fn.fn)
                pids = []
                try:
                    b.set_grid_dim(*case["grid"])
                    for pid, positions in case["pids"]:
                        records.clear()
                        b.set_grid_idx(*pid)
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            with np.errstate(all="ignore"):
                                rewritten(**args)
                        accesses = []
                        for kind, ptrs, mask in records:
                            ptrs = np.asarray(ptrs)
                            mask = np.broadcast_to(np.asarray(mask, dtype=bool), ptrs.shape)
                            flat_p, flat_m = [], []
                            for pos in positions:
                                idx = tuple(pos) if ptrs.ndim == len(pos) else tuple(pos[-ptrs.ndim:]) if ptrs.ndim else ()
                                # a broadcast dimension ([XBLOCK, 1] in an [XBLOCK, R0_BLOCK] tile) has one entry
                                idx = tuple(0 if ptrs.shape[d] == 1 else i for d, i in enumerate(idx))
                                addr = int(ptrs[idx]) if ptrs.ndim else int(ptrs.reshape(-1)[0])
                                base = min(by_base, key=lambda x: abs(((addr - x + (1 << 63)) % (1 << 64)) - (1 << 63)))
                                delta = ((addr - base + (1 << 63)) % (1 << 64)) - (1 << 63)
                                pname = by_base[base]
                                flat_p.append([pname, delta // elem[pname], delta % elem[pname]])
                                flat_m.append(bool(mask[idx]) if mask.ndim else bool(mask.reshape(-1)[0]))
                            accesses.append([kind, flat_p, flat_m])
                        pids.append(accesses)
                finally:
                    scope.restore()
                    del b.create_masked_load
                    del b.create_masked_store
                kresults.append(pids)
            return kresults


def run_whole(job: dict) -> list:
    """Run kernels on real CPU tensors; returns each output buffer's bytes as hex."""
    import numpy as np
    import torch
    from triton.runtime import interpreter as I

    original = I.InterpreterBuilder.cast_impl

    def cast_rne(self, src, dst_type):
        import triton.language as tl

        if src.dtype.scalar == tl.float32 and dst_type.scalar == tl.bfloat16:
            t = torch.from_numpy(np.ascontiguousarray(src.data)).to(torch.bfloat16)
            return I.TensorHandle(t.view(torch.int16).numpy().view(np.uint16), dst_type.scalar)
        return original(self, src, dst_type)

    if job.get("round_bf16", True):
        I.InterpreterBuilder.cast_impl = cast_rne
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for kj in job["kernels"]:
            fn = _module(tmp, kj["name"], kj["jit_source"], kj.get("helpers"))
            tensors = {}
            for name, (dtype, data_hex, n) in kj["buffers"].items():
                raw = bytes.fromhex(data_hex)
                tensors[name] = torch.frombuffer(bytearray(raw), dtype=getattr(torch, dtype))[:n].clone() if n else torch.empty(0, dtype=getattr(torch, dtype))
            args = []
            for p in kj["order"]:
                if p in tensors:
                    args.append(tensors[p])
                elif p in kj["scalars"]:
                    value, bits = kj["scalars"][p]
                    args.append(_scalar(value, bits))
                else:
                    args.append(kj["constexprs"][p])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fn[tuple(kj["grid"])](*args)
            results.append({o: tensors[o].view(torch.uint8).numpy().tobytes().hex() for o in kj["outputs"]})
    return results


def main() -> int:
    if os.environ.get("TRITON_INTERPRET") != "1":
        print("workbench.kir.interp must run with TRITON_INTERPRET=1", file=sys.stderr)
        return 2
    job = json.load(sys.stdin)
    result = run_offsets(job) if job["mode"] == "offsets" else run_whole(job)
    json.dump(result, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
