"""Whole-kernel runs: single-kernel programs under Triton's interpreter on small real tensors, compared with
eager PyTorch bit for bit (the value-level companion of :mod:`workbench.kir.crosscheck`'s address check).

Stage: kir. The interpreter runs in the cross-check's worker subprocess (``workbench.kir.interp``, whole mode).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from workbench.errors import WorkbenchError
from workbench.kir.crossbase import _run_worker
from workbench.kir.evaluator import launch
from workbench.kir.parser import parse


@dataclass(slots=True)
class WholeRun:
    program: str
    kernel: str
    status: str  # "equal" | "DIFFERENT" | "skipped: <reason>"
    elements: int = 0
    differing: int = 0


_TORCH_DTYPE = {"bf16": "bfloat16", "fp16": "float16", "fp32": "float32", "fp64": "float64"}


def whole_kernel_runs(records: Sequence, seed: int = 0, round_bf16: bool = True) -> list[WholeRun]:
    """Run each single-kernel program's kernel under the interpreter on small real tensors (the program's
    example sizes) and compare the output with eager PyTorch bit for bit. The interpreter's fp32 -> bf16
    conversion is made round-to-nearest-even, as the GPU does (the interpreter of triton 3.7.1 truncates).
    Kernel pointer ``in_ptrN`` is taken to be the program's input ``N`` (Inductor's order for these
    programs); a program whose kernel does not fit that pattern is skipped with the reason.
    ``round_bf16=False`` keeps the interpreter's truncation (a control: bf16 sums then differ from eager)."""
    import re

    import torch

    from workbench.programs import resolve

    runs: list[WholeRun] = []
    jobs: list[tuple[WholeRun, dict, "torch.Tensor"]] = []
    per_program: dict[str, int] = {}
    for ck in records:
        per_program[ck.program] = per_program.get(ck.program, 0) + 1
    for ck in records:
        run = WholeRun(ck.program, ck.name, "")
        runs.append(run)
        if per_program[ck.program] != 1:
            run.status = "skipped: program has several kernels (intermediate buffers)"
            continue
        try:
            k = parse(ck)
            prog = resolve(ck.program)
        except WorkbenchError as exc:
            run.status = f"skipped: {exc}"
            continue
        if k.reduction is not None:  # not launched whole here: kir.redcross compares it per (x, r) lane and step
            run.status = "skipped: reduction kernel (cross-checked per lane and step by kir.redcross)"
            continue
        gen = torch.Generator().manual_seed(seed)
        inputs = []
        for spec in prog.inputs:
            shape = spec.concrete(prog.example)
            dt = getattr(torch, spec.dtype)
            inputs.append((torch.randn(shape, generator=gen) * 4).to(dt) if dt.is_floating_point else torch.randint(0, 9, shape, generator=gen).to(dt))
        with torch.no_grad():
            eager = prog.fn(*inputs)
        if not isinstance(eager, torch.Tensor):
            run.status = "skipped: program returns several tensors"
            continue
        sizes: dict[str, int] = {}
        for s in ck.symbols:
            for src in s.sources:
                m = re.search(r"\.size\((\d+)\) \(input (\d+)\)", src)
                if m:
                    sizes[s.name] = int(inputs[int(m.group(2))].shape[int(m.group(1))])
                    break
        if len(sizes) != len(ck.symbols):
            run.status = "skipped: a shape symbol is not an input size"
            continue
        ptrs = [p for p in k.params if p.kind == "pointer"]
        ins = [p for p in ptrs if p.name.startswith("in_ptr")]
        outs = [p for p in ptrs if p.name.startswith("out_ptr")]
        if len(ins) != len(inputs) or len(outs) != 1:
            run.status = f"skipped: {len(ins)} input pointers for {len(inputs)} inputs"
            continue
        buffers = {}
        for p in ins:
            t = inputs[int(p.name[len("in_ptr"):])].contiguous()
            if _TORCH_DTYPE.get(str(p.type.element)) != str(t.dtype).removeprefix("torch."):  # type: ignore[union-attr]
                run.status = f"skipped: {p.name} is {p.type} but input is {t.dtype}"
                break
            buffers[p.name] = [str(t.dtype).removeprefix("torch."), t.view(torch.uint8).numpy().tobytes().hex(), t.numel()]
        if run.status:
            continue
        out_dtype = _TORCH_DTYPE[str(outs[0].type.element)]  # type: ignore[union-attr]
        buffers[outs[0].name] = [out_dtype, (b"\0" * (eager.numel() * eager.element_size())).hex(), eager.numel()]
        ln = launch(k, sizes)
        scalars = {p.name: [ln.arg(p.name), p.type.bits] for p in k.params if p.kind in ("size", "numel", "scalar")}  # type: ignore[union-attr]
        job = {"name": ck.name, "jit_source": ck.jit_source, "order": [p.name for p in k.params],
               "buffers": buffers, "scalars": scalars, "constexprs": dict(ln.blocks), "grid": list(ln.grid),
               "outputs": [outs[0].name]}
        jobs.append((run, job, eager))
    if not jobs:
        return runs
    results = _run_worker({"mode": "whole", "round_bf16": round_bf16, "kernels": [j for _, j, _ in jobs]})
    for (run, job, eager), res in zip(jobs, results):
        raw = bytearray(bytes.fromhex(res[job["outputs"][0]]))
        flat = torch.frombuffer(raw, dtype=eager.dtype)
        run.elements = eager.numel()
        candidates = [eager.contiguous().reshape(-1)]
        if not eager.is_contiguous():
            candidates.append(torch.as_strided(flat, eager.shape, eager.stride()).contiguous().reshape(-1))
        best = None
        for i, want in enumerate(candidates):
            got = flat if i == 0 else torch.as_strided(flat, eager.shape, eager.stride()).contiguous().reshape(-1)
            ref = want if i == 0 else eager.contiguous().reshape(-1)
            diff = int((got.view(torch.int16 if eager.element_size() == 2 else torch.int32) !=
                        ref.view(torch.int16 if eager.element_size() == 2 else torch.int32)).sum())
            best = diff if best is None else min(best, diff)
        run.differing = best or 0
        run.status = "equal" if run.differing == 0 else "DIFFERENT"
    return runs
