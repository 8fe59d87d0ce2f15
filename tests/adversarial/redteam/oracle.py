"""Independent oracle for the red-team findings: run a kernel's own text under Triton's interpreter.

Shares no code with ``workbench.kir`` or ``workbench.check``: the kernel text is executed by
``TRITON_INTERPRET=1`` (Triton 3.7.1's own ``semantic.py`` typing and numpy arithmetic), once with the ``ks*``
size arguments passed as int64 scalars (W, as emitted) and once as int32 scalars (N, narrowed). Scalars are
passed as typed 0-d Triton tensors (plain Python ints would be typed by value, see /work/shared/NOTES.md).
Program ids are set directly (grid of one program, ``program_id``/``num_programs`` patched), and loads and
stores are intercepted: their element offsets (recovered from the 64-bit addresses) and masks are recorded
and nothing is dereferenced, so huge shapes need no memory. Loads return a fill value chosen per pointer.

Usage (a subprocess, so the interpreter flag is set before triton is imported):
    python oracle.py JOBS.json   -> prints one JSON line per job: {"id":..., "disagree": [...], "error": ...}
A job: {"id", "source" (module text), "name", "signature", "args" (name -> int), "pid" [x,y,z],
"nprog" [x,y,z], "blocks" {"XBLOCK": n}, "fill" {pointer: value}}.
"""
import importlib.util
import json
import os
import sys
import tempfile

os.environ["TRITON_INTERPRET"] = "1"

import numpy as np  # noqa: E402
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.runtime import interpreter as I  # noqa: E402

NP = {"i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "fp32": np.float32,
      "fp16": np.float16, "bf16": np.float32, "fp64": np.float64}
TL = {"i8": tl.int8, "i16": tl.int16, "i32": tl.int32, "i64": tl.int64}
TORCH = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16, "fp64": torch.float64,
         "i32": torch.int32, "i64": torch.int64, "i8": torch.int8, "i16": torch.int16, "i1": torch.bool}


class Recorder:
    def __init__(self):
        self.events, self.bases, self.fill, self.pid, self.nprog = [], {}, {}, (0, 0, 0), (1, 1, 1)
        self.tags, self.untagged = {}, 0

    def addptr(self, ptr, offset):
        out = ORIG_ADDPTR(ptr, offset)
        for name, base in self.bases.items():  # the pointer parameter itself: its data is exactly the base
            if ptr.data.size and np.all(ptr.data.astype(np.uint64) == np.uint64(base)):
                self.tags[id(out)] = (name, out)
        return out

    def where(self, ptrs):
        addrs = ptrs.data.astype(np.uint64)
        elem = ptrs.get_element_ty()
        size = max(1, elem.primitive_bitwidth // 8)
        tag = self.tags.get(id(ptrs))
        if tag is not None and tag[1] is ptrs:
            d = (addrs - np.uint64(self.bases[tag[0]])).view(np.int64)
            return tag[0], d // size, elem
        self.untagged += 1
        # the base is the one whose distance is smallest in absolute value (offsets may be negative)
        best = None
        for name, base in self.bases.items():
            d = (addrs - np.uint64(base)).view(np.int64)
            score = int(np.abs(d.astype(np.float64)).min())
            if best is None or score < best[0]:
                best = (score, name, d // size)
        return best[1], best[2], elem

    def load(self, ptrs, mask, other, *a):
        name, off, elem = self.where(ptrs)
        self.events.append(("load", name, off.ravel().tolist(), mask.data.ravel().astype(bool).tolist(), None))
        data = np.full(ptrs.data.shape, self.fill.get(name, 0), dtype=I._get_np_dtype(elem))
        if other is not None:
            data = np.where(mask.data, data, other.data)
        return I.TensorHandle(data, elem)

    def store(self, ptrs, value, mask, *a):
        name, off, _ = self.where(ptrs)
        v = np.broadcast_to(value.data, ptrs.data.shape).ravel()
        self.events.append(("store", name, off.ravel().tolist(), mask.data.ravel().astype(bool).tolist(),
                            [int(x) if np.issubdtype(v.dtype, np.integer) or v.dtype == np.bool_ else float(x)
                             for x in v]))


R = Recorder()
B = I.interpreter_builder
ORIG_ADDPTR = B.create_addptr
ORIG_SUB = B.create_sub
B.create_addptr = R.addptr
# LLVM's i1 ``sub`` is subtraction modulo 2 (xor); numpy refuses ``-`` on booleans, so the interpreter cannot
# run ``(a < b) - True`` at all. Everything else is the interpreter's own arithmetic.
B.create_sub = lambda lhs, rhs: (I.TensorHandle(np.bitwise_xor(lhs.data, rhs.data), lhs.dtype.scalar)
                                 if lhs.data.dtype == np.bool_ else ORIG_SUB(lhs, rhs))
B.create_masked_load = R.load
B.create_masked_store = R.store
B.create_get_program_id = lambda axis: I.TensorHandle(np.array([R.pid[axis]], dtype=np.int32), tl.int32)
B.create_get_num_programs = lambda axis: I.TensorHandle(np.array([R.nprog[axis]], dtype=np.int32), tl.int32)


def scalar(value, typ):
    t = TL[typ]
    return tl.tensor(I.TensorHandle(np.array(value, dtype=NP[typ]), t), t)


def kernel_of(source, name, tmp):
    path = os.path.join(tmp, f"k_{abs(hash(source))}.py")
    with open(path, "w") as fh:
        fh.write(source)
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, name)


def run(job, kern, narrow):
    R.events, R.bases, R.tags, R.untagged = [], {}, {}, 0
    R.fill = job.get("fill", {})
    R.pid, R.nprog = tuple(job["pid"]), tuple(job["nprog"])
    call = {}
    for arg, typ in job["signature"].items():
        if typ == "constexpr":
            call[arg] = job["blocks"][arg]
        elif typ.startswith("*"):
            t = torch.zeros(4, dtype=TORCH[typ[1:]])
            call[arg] = t
            R.bases[arg] = t.data_ptr()
        else:
            v = job["args"][arg]
            if narrow and arg.startswith("ks") and typ == "i64":
                typ = "i32"
            call[arg] = scalar(v, typ)
    kern[(1,)](**call)
    if R.untagged:
        raise RuntimeError(f"{R.untagged} accesses not attributed to a pointer parameter")
    return R.events


def compare(w, n):
    out = []
    for ew, en in zip(w, n):
        kind, ptr = ew[0], ew[1]
        for lane, (ow, on, mw, mn) in enumerate(zip(ew[2], en[2], ew[3], en[3])):
            if mw != mn:
                out.append(f"{kind} {ptr} lane {lane}: mask W={mw} N={mn}")
            elif mw and ow != on:
                out.append(f"{kind} {ptr} lane {lane}: offset W={ow} N={on}")
            elif mw and kind == "store" and ew[4][lane] != en[4][lane]:
                out.append(f"{kind} {ptr} lane {lane}: value W={ew[4][lane]} N={en[4][lane]}")
    if len(w) != len(n):
        out.append(f"{len(w)} vs {len(n)} memory events")
    return out


def main():
    jobs = json.load(open(sys.argv[1]))
    with tempfile.TemporaryDirectory() as tmp:
        sys.path.insert(0, tmp)
        saved = dict(vars(tl))
        for job in jobs:
            res = {"id": job["id"]}
            vars(tl).update(saved)  # a job's module-level statements (tl.int64 = tl.int32) must not leak
            try:
                kern = kernel_of(job["source"], job["name"], tmp)
                w = run(job, kern, narrow=False)
                n = run(job, kern, narrow=True)
                res["disagree"] = compare(w, n)
            except Exception as exc:  # noqa: BLE001 - reported, not hidden
                res["error"] = f"{type(exc).__name__}: {str(exc)[:300]}"
            print(json.dumps(res), flush=True)


if __name__ == "__main__":
    main()
