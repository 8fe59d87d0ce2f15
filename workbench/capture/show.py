"""Readable text for a captured kernel: size arguments with types and expressions, numels, guards, ranges."""

from __future__ import annotations

from workbench.capture.record import CapturedKernel

INT32_MAX = 2**31 - 1


def _range(lower, upper) -> str:
    lo = "-oo" if lower is None else str(lower)
    hi = "oo" if upper is None else str(upper)
    return f"[{lo}, {hi}]"


def describe(kernel: CapturedKernel) -> str:
    """A multi-line summary; deterministic (used in golden-free CLI tests and the demo)."""
    out = [
        f"kernel   {kernel.name}   (program {kernel.program})",
        f"device   {kernel.device}; torch {kernel.torch_version}, triton {kernel.triton_version}",
        f"grid     {kernel.grid_type}; index dtype {kernel.index_dtype}",
        f"hash     {kernel.source_hash[:16]}",
        "",
        "size arguments (declared type, expression in shape symbols):",
    ]
    if not kernel.size_args:
        out.append("  (none: every size is folded into the numel or a constant)")
    w = max((len(a.name) for a in kernel.size_args), default=0)
    for a in kernel.size_args:
        out.append(f"  {a.name:<{w}} : {a.type:<4} = {a.expr}")
    out.append("element counts:")
    for n in kernel.numels:
        out.append(f"  {n.name} : {n.type or 'constant'} = {n.expr}")
    out.append("shape symbols (range from Inductor's ShapeEnv; input dimensions):")
    for s in kernel.symbols:
        out.append(f"  {s.name} in {_range(s.lower, s.upper)}   <- {', '.join(s.sources) or '(no input source)'}")
    out.append("guards on these symbols (Dynamo re-checks them on every call):")
    if not kernel.guards:
        out.append("  (none)")
    for g in kernel.guards:
        mark = "   <- int32 indexing guard" if g.endswith(f"<= {INT32_MAX}") else ""
        out.append(f"  {g}{mark}")
    return "\n".join(out)
