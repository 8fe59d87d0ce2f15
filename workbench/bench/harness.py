"""The timing harness: run a frozen plan's blocks and return raw samples with their metadata.

Stage: bench (run). For one plan, each process (a fresh Python process when the plan asks for more than one):

1. builds the plan's kernel variants (:mod:`workbench.rule.variants`) and compiles them as distinct functions;
2. checks every variant's output **bitwise** equal to eager at every shape, before any timing;
3. for each round of the pre-registered schedule (:func:`workbench.bench.plan.schedule`) and each variant in
   that round's order, runs one block: warm-up under sustained load for ``warmup_s`` (whole passes over the
   sequence), then the measured sequence (``calls_sequence`` calls per shape, CUDA events around every call
   and around the whole pass), then ``calls_small`` calls at each small shape; an optional L2 flush precedes
   every timed call (outside its events);
4. after each block, checks that no kernel compiled during it (Triton's JIT cache sizes unchanged) and that the
   block's last outputs are still bitwise equal to eager;
5. samples NVML telemetry (power, power limit, SM clock, throttle reasons) on a background thread when
   ``pynvml`` is importable; the record says so when it is not.

Statistics are not computed here (:mod:`workbench.bench.stats`); the harness returns raw samples only.
Binding parameters to inputs and the bitwise check are :mod:`workbench.bench.inputs`'s; telemetry and timers
:mod:`workbench.bench.instruments`'s (both re-exported here).

Dry run (``dry_run=True``): the same code path under Triton's interpreter (``TRITON_INTERPRET=1``) on CPU
tensors at the plan's tiny ``dry_run`` shapes, one warm-up pass, no timers: correctness only, and the record
says that no timing claim can be made from it. Floating inputs are rounded to small integers in the dry run,
because triton 3.7.1's interpreter truncates fp32 -> bf16 where CUDA rounds to nearest even (NOTES); with
integer-valued data every sum is exact in bf16 and the two conversions agree, so the bitwise check stays
strict.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workbench.bench import plan as plan_mod
from workbench.bench import records
from workbench.bench.inputs import (  # noqa: F401  (re-exported: callers use harness.bind and friends)
    BindingError,
    Call,
    bind,
    bitwise_equal,
    symbol_values,
)
from workbench.bench.instruments import Telemetry, _CudaTimer, _NoTimer, _s  # noqa: F401  (re-exported)
from workbench.bench.plan import Plan, Shape, shape_key
from workbench.errors import CaptureError, ToolMissingError, UsageError

# ------------------------------------------------------------------------------------------ one process
def _kernel(plan: Plan, program: Any, device: str) -> tuple[Any, str]:
    spec = plan.kernel_spec
    match spec["from"]:
        case "fixture":
            from workbench.bench import fixture

            return fixture.kernel(), "fixture (hand-written stand-in, not emitted by Inductor)"
        case "file":
            from workbench.capture.record import load

            return load(spec["path"]), f"file {spec['path']}"
        case "capture":
            try:
                from workbench.capture import capture
            except ImportError as exc:
                raise CaptureError(
                    f"plan {plan.name!r} asks for a live capture but workbench.capture cannot be imported ({exc}); "
                    "use a plan with \"kernel\": {\"from\": \"file\", \"path\": ...}"
                ) from None
            # "cuda" is the real GPU when torch sees one, else capture's fake CUDA device: the GPU lowering
            # either way, which is the kernel the dry run must check.
            kernels = [k for k in capture(program, device="cuda") if k.grid_type in ("Grid1D", "")]
            named = spec.get("name")
            if named:
                kernels = [k for k in kernels if k.name == named]
            if len(kernels) != 1:
                raise CaptureError(
                    f"program {program.name}: capture gave {len(kernels)} 1-D kernels "
                    f"({[k.name for k in kernels]}); name one in the plan's kernel.name"
                )
            return kernels[0], f"capture ({kernels[0].device})"
        case "imported":
            raise UsageError(
                f"plan {plan.name!r} describes a record imported with `bench import`; it was run elsewhere and "
                "cannot be run from here. Run data/plans/nested_cat_add-confirm.json instead"
            )
        case other:  # pragma: no cover  (plan.parse validates)
            raise UsageError(f"unknown kernel source {other!r}")


def compare_with_fake_capture(kernel: Any, program: Any) -> dict[str, Any]:
    """On a real GPU: capture the same program on the fake CUDA device (the CPU-only route) and compare the
    two ``@triton.jit`` texts byte for byte; the differences are listed (issue 6, item 7)."""
    import difflib

    import torch

    try:
        from workbench.capture import capture

        name = torch.cuda.get_device_name(0)
        profile = next((p for p in ("H200", "H100", "L4") if p in name), "L4")
        fakes = [k for k in capture(program, device="fake-cuda", gpu=profile) if k.name == kernel.name]
        if not fakes:
            return {"profile": profile, "equal": False, "differences": [f"no fake-cuda kernel named {kernel.name}"]}
        a, b = kernel.jit_source, fakes[0].jit_source
        diff = list(difflib.unified_diff(a.splitlines(), b.splitlines(), "gpu", "fake-cuda", lineterm="", n=0))
        return {"profile": profile, "equal": a == b, "differences": diff[:400],
                "signature_equal": dict(kernel.signature) == dict(fakes[0].signature)}
    except Exception as exc:  # recorded, never fatal: the timing run does not depend on it
        return {"error": f"{type(exc).__name__}: {exc}"}


def _inputs(program: Any, shape: Shape, device: str, seed: int, interpreted: bool) -> tuple[Any, ...]:
    import torch

    ins = program.make_inputs(dict(shape), device=device, seed=seed)
    if interpreted:  # integer-valued floats: interpreter truncation == round-to-nearest-even (module docstring)
        ins = tuple(torch.round(t.float() * 4).to(t.dtype) if t.dtype.is_floating_point else t for t in ins)
    return ins


def _poison(t: Any) -> None:
    t.fill_(float("nan") if t.dtype.is_floating_point else -1)


def _compile_count(fns: Mapping[str, Any]) -> int | None:
    total = 0
    for fn in fns.values():
        caches = getattr(fn, "device_caches", None)
        if caches is None:
            return None  # the interpreter compiles nothing
        total += sum(len(c[0]) for c in caches.values())
    return total


def run_process(plan: Plan, process: int, dry_run: bool, kernel: Any = None, program: Any = None,
                device: str | None = None, timer: Any = None) -> dict[str, Any]:
    """Run process ``process``'s rounds of ``plan`` here; returns its part of the record.

    ``device`` and ``timer`` exist for tests only: they run the timed (non-dry) code path on the CPU under the
    interpreter with a host timer, so the measurement loop is exercised without CUDA."""
    import torch

    from workbench.rule import variants as V

    if dry_run and not V.interpreting():
        raise UsageError("a dry run must run with TRITON_INTERPRET=1 set before triton compiles anything")
    if not dry_run and device is None and not torch.cuda.is_available():
        raise ToolMissingError(
            "no CUDA device: a real timing run needs one (torch.cuda.is_available() is False); "
            "run with --dry-run for the CPU correctness check"
        )
    device = device or ("cpu" if dry_run else "cuda")
    st = plan.stage(dry_run)
    if program is None:
        from workbench import programs

        program = programs.get(plan.program)
    origin = "injected"
    if kernel is None:
        kernel, origin = _kernel(plan, program, device)
    fake_cmp = None
    if not dry_run and origin.startswith("capture") and process == 0 and device == "cuda":
        fake_cmp = compare_with_fake_capture(kernel, program)
    built = V.build_all(kernel, plan.variants)
    fns = {n: V.load(v) for n, v in built.items()}
    timer = timer or (_NoTimer() if dry_run else _CudaTimer())

    shapes = list(dict.fromkeys(st.sequence + st.small))
    calls: dict[Shape, Call] = {}
    for i, sh in enumerate(shapes):
        ins = _inputs(program, sh, device, plan.seed + i, V.interpreting())
        ref = program.fn(*ins)
        tensors, sizes, xnumel = bind(kernel, program, ins, built[plan.variants[0]].params)
        calls[sh] = Call(sh, ins, ref, tensors, sizes, xnumel)
    outs = {(n, sh): torch.empty_strided(c.reference.shape, c.reference.stride(), dtype=c.reference.dtype,
                                         device=device) for n in built for sh, c in calls.items()}

    launchers = {(n, sh): V.prepare(built[n], fns[n], {**c.tensors, "out_ptr0": outs[(n, sh)]}, c.sizes, c.xnumel,
                                    st.xblock) for n in built for sh, c in calls.items()}

    def launch(n: str, sh: Shape) -> None:
        launchers[(n, sh)]()

    # correctness before timing (this also compiles every variant once)
    correctness = []
    for n in built:
        for sh, c in calls.items():
            _poison(outs[(n, sh)])  # so a launch that writes nothing cannot pass as equal
            launch(n, sh)
            timer.sync()
            correctness.append({"process": process, "variant": n, "shape": shape_key(sh),
                                "bitwise_equal": bitwise_equal(outs[(n, sh)], c.reference)})
    flush = None
    if plan.l2_flush and not dry_run:
        flush = torch.empty(plan.l2_flush_mib * 2**20, dtype=torch.uint8, device=device)

    tele = Telemetry(plan.telemetry_interval_s) if not dry_run else None
    if tele:
        tele.start()
    blocks = []
    for r, order in enumerate(plan_mod.schedule(plan, dry_run)[process]):
        for pos, n in enumerate(order):
            for sh in shapes:  # poison, so the after-block check sees this block's writes, not older ones
                _poison(outs[(n, sh)])
            # warm-up under sustained load: whole passes over the sequence until warmup_s has elapsed
            t_warm = time.perf_counter()
            passes = 0
            while True:
                for sh in st.sequence or st.small:
                    launch(n, sh)
                passes += 1
                timer.sync()
                if dry_run or time.perf_counter() - t_warm >= st.warmup_s:
                    break
            compiled0 = _compile_count(fns)
            t0 = time.time()
            seq_calls: dict[str, list] = {}
            h0 = time.perf_counter()
            start = timer.event()
            for sh in st.sequence:
                ev = []
                for _ in range(st.calls_sequence):
                    if flush is not None:
                        flush.zero_()
                    a = timer.event()
                    launch(n, sh)
                    ev.append((a, timer.event()))
                seq_calls[shape_key(sh)] = ev
            end = timer.event()
            host_ms = (time.perf_counter() - h0) * 1e3  # host time to issue the sequence (launch-bound check)
            small_calls: dict[str, list] = {}
            for sh in st.small:
                ev = []
                for _ in range(st.calls_small):
                    if flush is not None:
                        flush.zero_()
                    a = timer.event()
                    launch(n, sh)
                    ev.append((a, timer.event()))
                small_calls[shape_key(sh)] = ev
            timer.sync()
            t1 = time.time()
            compiled1 = _compile_count(fns)
            equal = all(bitwise_equal(outs[(n, sh)], calls[sh].reference) for sh in shapes)
            blocks.append({
                "process": process, "round": r, "order": list(order), "position": pos, "variant": n,
                "t_start": t0, "t_end": t1, "warmup_s": round(time.perf_counter() - t_warm - (t1 - t0), 6),
                "warmup_passes": passes,
                "sequence_ms": timer.ms(start, end) if st.sequence else None,
                "sequence_host_issue_ms": None if dry_run else host_ms,
                "sequence_calls_ms": {k: [timer.ms(a, b) for a, b in v] for k, v in seq_calls.items()},
                "small_calls_ms": {k: [timer.ms(a, b) for a, b in v] for k, v in small_calls.items()},
                "compiled_during_block": None if compiled0 is None else compiled1 != compiled0,
                "outputs_bitwise_equal": equal,
            })
    telemetry = tele.stop() if tele else {
        "available": False, "reason": "dry run: no GPU, no telemetry", "interval_s": plan.telemetry_interval_s,
        "samples": []}
    return {
        "process": process,
        "environment": environment(dry_run),
        "kernel": {"name": kernel.name, "program": getattr(kernel, "program", plan.program), "origin": origin,
                   "source_hash": getattr(kernel, "source_hash", None), "signature": dict(kernel.signature),
                   "jit_source": getattr(kernel, "jit_source", None) or kernel.source,
                   "fake_cuda_comparison": fake_cmp},
        "variants": {n: {"fn_name": v.fn_name, "digest": v.digest, "scalar_types": dict(v.scalar_types),
                         "description": V.VARIANTS[n]} for n, v in built.items()},
        "correctness": correctness,
        "blocks": blocks,
        "telemetry": telemetry,
    }


def environment(dry_run: bool) -> dict[str, Any]:
    import torch
    import triton

    env: dict[str, Any] = {
        "python": platform.python_version(), "platform": platform.platform(), "torch": torch.__version__,
        "triton": triton.__version__, "cuda_runtime": torch.version.cuda, "interpreter": dry_run,
    }
    if not dry_run and torch.cuda.is_available():
        props = torch.cuda.get_device_properties(0)
        env.update(device=props.name, capability=f"{props.major}.{props.minor}",
                   multiprocessors=props.multi_processor_count, memory_bytes=props.total_memory)
        try:
            import pynvml

            pynvml.nvmlInit()
            h = pynvml.nvmlDeviceGetHandleByIndex(0)
            env.update(driver=_s(pynvml.nvmlSystemGetDriverVersion()),
                       sm_clock_mhz=pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM),
                       max_sm_clock_mhz=pynvml.nvmlDeviceGetMaxClockInfo(h, pynvml.NVML_CLOCK_SM),
                       mem_clock_mhz=pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_MEM),
                       power_limit_w=pynvml.nvmlDeviceGetEnforcedPowerLimit(h) / 1000.0)
        except Exception as exc:
            env.update(driver=None, clocks=f"not recorded: NVML unavailable ({type(exc).__name__}: {exc})")
    else:
        env.update(device="cpu (Triton interpreter)", driver=None)
    return env


# --------------------------------------------------------------------------------------------- the run
def run(plan_path: str | Path, out_path: str | Path, dry_run: bool = False, kernel: Any = None,
        program: Any = None) -> dict[str, Any]:
    """Freeze and hash the plan, run every process, write the record atomically; returns the record."""
    plan, raw = plan_mod.load(plan_path)  # hashed before anything runs
    st = plan.stage(dry_run)
    started = time.time()
    if not dry_run:
        import torch

        if not torch.cuda.is_available():
            raise ToolMissingError(
                "no CUDA device: a real timing run needs one (torch.cuda.is_available() is False); "
                "run `workbench bench run PLAN.json --dry-run` for the CPU correctness check"
            )
    if st.processes == 1 or kernel is not None or program is not None:
        if dry_run:
            os.environ["TRITON_INTERPRET"] = "1"  # read by triton.jit at decoration time
        from workbench import progress

        parts = [run_process(plan, p, dry_run, kernel, program)
                 for p in progress.track(range(st.processes), desc="bench processes", unit="process")]
    else:
        parts = _subprocesses(plan_path, st.processes, dry_run)
    record = records.assemble(plan, raw, str(plan_path), parts, dry_run, started, time.time())
    records.write(record, out_path)
    return record


def _subprocesses(plan_path: str | Path, n: int, dry_run: bool) -> list[dict[str, Any]]:
    """One fresh Python process per plan process. On a GPU they run one after another (sharing the device would
    disturb the timings); in a dry run, which times nothing, they run side by side."""
    env = dict(os.environ)
    if dry_run:
        env["TRITON_INTERPRET"] = "1"
    parts = []
    with tempfile.TemporaryDirectory(prefix="wb-bench-") as tmp:
        def start(p: int) -> subprocess.Popen:
            cmd = [sys.executable, "-m", "workbench.bench", "worker", str(plan_path), "--process", str(p),
                   "--out", str(Path(tmp) / f"part{p}.json")] + (["--dry-run"] if dry_run else [])
            return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

        def finish(p: int, proc: subprocess.Popen) -> dict[str, Any]:
            out, err = proc.communicate()
            if proc.returncode != 0:
                tail = (err or out)[-2000:]
                raise UsageError(f"bench worker for process {p} failed (exit {proc.returncode}):\n{tail}")
            return json.loads((Path(tmp) / f"part{p}.json").read_text())

        from workbench import progress

        if dry_run:
            procs = [(p, start(p)) for p in range(n)]
            parts = [finish(p, proc) for p, proc in progress.track(procs, desc="bench processes", unit="process")]
        else:
            parts = [finish(p, start(p)) for p in progress.track(range(n), desc="bench processes", unit="process")]
    return parts
