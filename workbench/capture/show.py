"""Readable text for a captured kernel: size arguments with types and expressions, numels, guards, ranges.

Stage: capture (presentation only). The kernel is named by its one user-facing id (:func:`kernel_id`); the
three hashes behind it are printed only on request (``hashes=True``), each with what it covers, because
they answer different questions (docs/cli.md, "Kernel identity").
"""

from __future__ import annotations

from workbench.capture.record import CapturedKernel

INT32_MAX = 2**31 - 1


def _range(lower, upper) -> str:
    lo = "-oo" if lower is None else str(lower)
    hi = "oo" if upper is None else str(upper)
    return f"[{lo}, {hi}]"


def kernel_id(kernel: CapturedKernel) -> str:
    """The one user-facing kernel id: the first 12 hex digits of the source hash."""
    return kernel.source_hash[:12]


def hashes(kernel: CapturedKernel) -> dict[str, str]:
    """The three hashes that name a kernel, keyed by what they cover (the IR ones are absent when the IR
    refuses the kernel: there is nothing for a certificate or the rule to bind)."""
    from workbench import kir
    from workbench.errors import WorkbenchError

    out = {"source": kernel.source_hash}
    try:
        k = kir.parse(kernel)
    except WorkbenchError:
        return out
    out["ir_body"] = kir.canonical_hash(k, facts=False)
    out["ir_with_facts"] = kir.canonical_hash(k)
    return out


HASH_MEANING = {
    "source": "SHA-256 of the @triton.jit text with the kernel's own name replaced (the kernel id is its first "
              "12 digits)",
    "ir_body": "canonical IR, temporaries renamed, no size facts: the rule binds a live kernel by this",
    "ir_with_facts": "canonical IR plus its size expressions: a certificate's ir_hash, checked before use",
}


def describe(kernel: CapturedKernel, show_hashes: bool = False) -> str:
    """A multi-line summary; deterministic (used in golden-free CLI tests and the demo)."""
    out = [
        f"kernel   {kernel.name}   (program {kernel.program}"
        + (f", {kernel.phase} graph of a training step)" if kernel.phase != "forward" else ")"),
        f"id       {kernel_id(kernel)}",
        f"device   {kernel.device}; torch {kernel.torch_version}, triton {kernel.triton_version}",
        f"grid     {kernel.grid_type}; index dtype {kernel.index_dtype}",
    ]
    if show_hashes:
        for name, value in hashes(kernel).items():
            out.append(f"hash     {name:<13} {value}  ({HASH_MEANING[name]})")
    out += [
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
