"""``floats check REFERENCE.py ANSWER.py`` on an elementwise KernelBench pair: read both files statically,
gate, then the bit-exact comparison (the CLI's route, and the coverage table's, which must not import the CLI).

Stage: floats (checks).
"""

from __future__ import annotations

from pathlib import Path

from workbench.floats.errors import FloatsUsageError
from workbench.floats.progress import Steps


def check_kernelbench(args, target, progress: bool):
    """``floats check REFERENCE.py ANSWER.py``: KernelBench's own files (``workbench.floats.kernelbench``)."""
    from dataclasses import replace

    from workbench.floats.check import check
    from workbench.floats.gate import GATE_SIZES, gate
    from workbench.floats.kernelbench import MAX_GATE_N, load

    ref, ans = Path(args.spec), Path(args.kernel)
    for p in (ref, ans):
        if not p.is_file():
            raise FloatsUsageError(f"{str(p)!r} does not exist; give REFERENCE.py (KernelBench problem) then ANSWER.py "
                                   "(ModelNew with load_inline)")
    if "ModelNew" in ref.read_text() and "ModelNew" not in ans.read_text():
        raise FloatsUsageError(f"arguments are swapped ({str(ref)!r} defines ModelNew); give REFERENCE.py (the "
                               "KernelBench problem with Model) first, then ANSWER.py")
    if "ModelNew" not in ans.read_text() or "load_inline" not in ans.read_text():
        raise FloatsUsageError(f"KERNEL {str(ans)!r} is not a .cu file, nor a KernelBench answer (ModelNew with "
                               "load_inline); give SPEC.py then KERNEL.cu, or REFERENCE.py then ANSWER.py")
    if getattr(args, "lean", None):
        raise FloatsUsageError("--lean is not emitted for KernelBench answers yet; drop --lean")
    steps = Steps(progress)
    with steps.step("reading the KernelBench files, capturing the reference Model"):
        problem, spec, kernel, answer, notes = load(ref, ans, args.spec_device)
    n = problem.numel
    sizes = GATE_SIZES
    if n is not None and n not in sizes and n <= MAX_GATE_N:
        sizes = GATE_SIZES + (n,)
        notes.append(f"get_inputs gives n = {n:,} elements ({' x '.join(map(str, problem.shapes[0]))}); the gate "
                     "enumerates it too")
    elif n is not None and n not in sizes:
        g, b = kernel.launch.sizes(n)
        notes.append(f"get_inputs gives n = {n:,} elements: more than {MAX_GATE_N:,}, so its {g * b:,} threads are "
                     f"not enumerated (grid {g:,} x block {b}); the gate's claim is for the sizes it lists"
                     + ("; n >= 2**31 overflows a 32-bit int element count" if n >= 1 << 31 else ""))
    with steps.step("safety gate", total=len(sizes), unit="sizes") as st:
        safety = gate(kernel, sizes, st.advance)
    v = check(spec, kernel, target, args.nan, workers=args.workers, progress=progress, safety=safety, steps=steps)
    return spec, kernel, replace(v, notes=tuple(notes) + v.notes)
