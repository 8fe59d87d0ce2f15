"""CUDA frontend entry point: a ``.cu`` file -> ``Kernel`` (stage: floats).

Parses with libclang (flags and stub from ``stub.py``), finds the one ``__global__`` kernel (or the one
named), records ``__device__`` helpers for inlining, binds parameters (``float*`` arrays, float scalars as
universally quantified inputs, exactly one integer element count) and runs the body through
``Statements``. Launches anywhere in the file are refused: the kernel is checked alone, with its launch
given as a ``// launch: grid = ..., block = ...`` comment.
"""

from __future__ import annotations

import re
from pathlib import Path

from workbench.floats.cuda.launch import parse_launch
from workbench.floats.cuda.model import TRUE, Access, Kernel, Ptr, State
from workbench.floats.cuda.expressions import ty_of
from workbench.floats.cuda.statements import Statements
from workbench.floats.cuda.stub import EMPTY_HEADERS, FLAGS, HALF_HEADERS, HALF_TYPE_HEADER, STUB, STUB_INCLUDE, STUB_NAME
from workbench.floats.errors import CudaParseError
from workbench.floats.ir import Node, Op, Ty, const, walk


def _translation_unit(p: Path, source: str):
    import clang.cindex as ci

    fname = str(p.resolve()) if p.exists() else "/workbench_floats/" + p.name
    headers = [(f"{STUB_INCLUDE}/{h}", "") for h in EMPTY_HEADERS]
    headers += [(f"{STUB_INCLUDE}/{h}", text) for h, text in HALF_HEADERS.items()]
    tu = ci.Index.create().parse(fname, args=list(FLAGS), unsaved_files=[(STUB_NAME, STUB), (fname, source), *headers])
    errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    if errors:
        d = errors[0]
        for t, header in HALF_TYPE_HEADER.items():
            if re.search(rf"unknown type name '{t}'|use of undeclared identifier '{t}'", d.spelling):
                raise CudaParseError(f"{p.name}:{d.location.line} uses `{t}` but does not include <{header}>, the "
                                     f"CUDA header that defines it; add `#include <{header}>`", line=d.location.line)
        raise CudaParseError(f"clang could not parse {p.name}:{d.location.line}: {d.spelling}; fix the CUDA source "
                             "(only the kernel is needed: CUDA runtime and math headers are stubbed, torch and other "
                             "headers are not)", line=d.location.line)
    return tu, fname


_TEMPLATE = re.compile(r"^[ \t]*template\s*<\s*(?:typename|class)\s+(\w+)\s*>[ \t]*(?=\n?[ \t]*__global__)", re.M)
_INSTANCE = re.compile(r"^[ \t]*template\s+__global__\s+void\s+(\w+)\s*<\s*([\w ]+?)\s*>\s*\([^;]*\);[ \t]*$", re.M)


def instantiate_templates(source: str, file: str) -> str:
    """A ``template <typename T> __global__`` kernel is checked as the instantiation the file names
    (``template __global__ void k<float>(...);``, the explicit instantiation a .cu file compiled on its own
    needs): the template header becomes ``typedef float T;`` on the same line and the instantiation line a
    comment, so clang sees the instantiated kernel and every line number stays."""
    heads = list(_TEMPLATE.finditer(source))
    if not heads:
        return source
    if len(heads) > 1:
        raise CudaParseError(f"{file} has {len(heads)} template kernels; check one per file")
    types = {m.group(2).strip() for m in _INSTANCE.finditer(source)}
    if len(types) != 1:
        raise CudaParseError(f"template kernel in {file} has {len(types)} explicit instantiations; add exactly one, "
                             "e.g. `template __global__ void kernel<float>(const float*, float*, int);`")
    (ty,) = types
    out = _INSTANCE.sub(lambda m: "// " + m.group(0).strip(), source)
    head = _TEMPLATE.search(out)
    return out[:head.start()] + f"typedef {ty} {head.group(1)};" + out[head.end():]


def parse_kernel(path: str | Path, source: str | None = None, name: str | None = None, *,
                 embedded: bool = False) -> Kernel:
    """Parse one ``__global__`` kernel from a .cu file into a :class:`Kernel`. ``embedded``: ``source`` is CUDA
    text taken from another file (a KernelBench answer's cuda_sources string, lines kept), named by ``path``."""
    p = Path(path)
    if source is None:
        if not p.is_file():
            raise CudaParseError(f"kernel file {str(p)!r} does not exist; pass a .cu file with one __global__ kernel")
        source = p.read_text()
    if p.suffix == ".py" and not embedded:
        raise CudaParseError(f"{p.name} is a Python file, not a CUDA kernel; give SPEC.py first, then KERNEL.cu")
    tu, fname = _translation_unit(p, instantiate_templates(source, p.name))
    fe = Statements(str(p), source)
    for cur in tu.cursor.walk_preorder():
        if cur.location.file is not None and cur.location.file.name != fname:
            continue
        if cur.kind.name == "CUDA_KERNEL_CALL_EXPR" or (cur.kind.name == "CALL_EXPR" and cur.spelling == "cudaConfigureCall"):
            fe.refuse("kernel launch", cur, "check the kernel alone; give its launch as a `// launch: grid = ..., "
                      "block = ...` comment")
    kernels = []
    for cur in tu.cursor.get_children():
        if cur.location.file is None or cur.location.file.name != fname or cur.kind.name != "FUNCTION_DECL":
            continue
        attrs = {ch.kind.name for ch in cur.get_children()}
        if "CUDAGLOBAL_ATTR" in attrs and cur.is_definition():
            kernels.append(cur)
        elif "CUDADEVICE_ATTR" in attrs and cur.is_definition():
            fe.device_fns[cur.spelling] = cur
    if name is not None:
        kernels = [k for k in kernels if k.spelling == name]
    if not kernels:
        raise CudaParseError(f"{p.name} defines no __global__ kernel{f' named {name!r}' if name else ''}; "
                             "add `__global__ void kernel(const float* x, float* out, int n)`")
    if len(kernels) > 1:
        raise CudaParseError(f"{p.name} defines {len(kernels)} __global__ kernels "
                             f"({', '.join(k.spelling for k in kernels)}); name the one to check")
    return _kernel(fe, kernels[0], p, source)


def _kernel(fe: Statements, fn, p: Path, source: str) -> Kernel:
    st = State(TRUE, {}, [])
    arrays, ints, params, scalars = [], [], [], []
    for prm in fn.get_children():
        if prm.kind.name != "PARM_DECL":
            continue
        ty = ty_of(prm.type.get_canonical().spelling)
        params.append(prm.spelling)
        if ty == "ptr":
            m = re.match(r"^(const\s+)?(float|__half|__nv_bfloat16)\s*(const\s*)?\*", prm.type.get_canonical().spelling)
            if not m:
                fe.refuse(f"parameter `{prm.spelling}` of type `{prm.type.get_canonical().spelling}`", prm,
                          "use float*, __half* or __nv_bfloat16* arrays")
            elem = {"float": Ty.F32, "__half": Ty.F16, "__nv_bfloat16": Ty.BF16}[m.group(2)]
            st.env[prm.spelling] = Ptr(prm.spelling, const(0, Ty.I64), 1, bool(m.group(1)), elem)
            arrays.append(prm.spelling)
        elif ty is Ty.F32:
            # a scalar argument: one value for every thread, any float32 (universally quantified input)
            st.env[prm.spelling] = Node(Op.PARAM, Ty.F32, name=prm.spelling)
            scalars.append(prm.spelling)
        elif isinstance(ty, Ty) and ty.is_int:
            st.env[prm.spelling] = Node(Op.PARAM, ty, name="n")
            ints.append(prm.spelling)
        else:
            fe.refuse(f"parameter `{prm.spelling}` of type `{prm.type.get_canonical().spelling}`", prm,
                      "use float* arrays, float scalars and one integer element count")
    if len(ints) != 1:
        fe.refuse(f"{len(ints)} integer parameters", fn, "pass exactly one integer: the element count n")
    body = [ch for ch in fn.get_children() if ch.kind.name == "COMPOUND_STMT"]
    finals = fe.stmts(body[0], [st])
    accesses: list[Access] = []
    seen = set()
    for s in finals:
        for a in s.accesses:
            key = (a.kind, a.array, a.index, a.guard, a.line, a.value)
            if key not in seen:
                seen.add(key)
                accesses.append(a)
    written = sorted({a.array for a in accesses if a.kind == "store"}, key=arrays.index)
    if len(written) not in (1, 2):
        raise CudaParseError(f"kernel {fn.spelling} in {p.name} writes {len(written)} arrays ({', '.join(written)}); "
                             "an elementwise kernel writes one output array, or two matched in order with a program "
                             "returning a tuple of two", line=fn.location.line)
    out = written[0]
    for o in written:
        if any(a.kind == "load" and a.array == o for a in accesses):
            fe.refuse(f"read of the output array `{o}`", fn, "read only the input arrays")
    used = {a.array for a in accesses} | {n for s in accesses if s.value is not None for n in _params_of(s.value)}
    inputs = tuple(x for x in params if x not in written and (x in arrays or x in scalars) and x in used)
    return Kernel(name=fn.spelling, path=str(p), source=source, line=fn.location.line, inputs=inputs, output=out,
                  count=ints[0], accesses=tuple(accesses), launch=parse_launch(source), params=tuple(params),
                  scalars=tuple(s for s in scalars if s in inputs), outputs=tuple(written) if len(written) > 1 else ())


def _params_of(value: Node) -> set[str]:
    return {n.name for n in walk(value) if n.op is Op.PARAM and n.ty is Ty.F32}
