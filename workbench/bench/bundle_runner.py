"""Standalone runner of a packed timing plan (``workbench bench pack``): needs torch, triton and numpy, never
the workbench.

Stage: bench (remote run). This file is copied verbatim into every bundle as ``runner.py``; it imports only the
standard library, numpy, torch, triton and (optionally) ``pynvml``. It reads ``manifest.json`` beside it (the
plan, its SHA-256, the program's source, the kernel variants' module files, the argument bindings per shape
and the order schedule, all computed by the workbench at pack time), then for each plan process:

1. imports every variant module and checks each variant's output **bitwise** equal to eager at every shape;
2. for each round in the packed schedule and each variant in its order: warm-up passes over the sequence for
   ``warmup_s`` seconds, the measured sequence (CUDA events around every call and the whole pass), the small
   shapes; NVML telemetry sampled on a thread when ``pynvml`` imports;
3. after each block, no new compilation (Triton's JIT caches) and outputs still bitwise equal.

It writes one run record (schema ``workbench.bench.run/1``) that ``workbench bench report RUN.json`` reads
directly. ``--dry-run`` runs under Triton's interpreter on CPU at the plan's tiny shapes, one round, no timer:
correctness only, and the record says nothing was timed.

Usage: ``python runner.py --out RUN.json [--dry-run]``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import platform
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def load_manifest() -> dict:
    m = json.loads((HERE / "manifest.json").read_text())
    for rel, sha in m["files"].items():
        got = hashlib.sha256((HERE / rel).read_bytes()).hexdigest()
        if got != sha:
            sys.exit(f"runner: {rel} changed since packing (sha256 {got[:12]} != {sha[:12]}); re-pack the plan")
    return m


def import_file(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def make_inputs(torch, specs: list, seed: int, device: str, interpreted: bool) -> tuple:
    gen = torch.Generator().manual_seed(seed)
    out = []
    for shape, dtype_name in specs:
        dtype = getattr(torch, dtype_name)
        if dtype.is_floating_point:
            t = torch.randn(shape, generator=gen, dtype=torch.float32).to(dtype)
            if interpreted:  # the interpreter truncates fp32 -> bf16; integer values make both conversions agree
                t = torch.round(t.float() * 4).to(dtype)
        else:
            t = torch.randint(0, 7, shape, generator=gen, dtype=dtype)
        out.append(t.to(device))
    return tuple(out)


def scalar(value: int, ty: str, interpreted: bool):
    if not interpreted or ty == "i32":
        return int(value)
    import numpy as np
    import triton.language as tl
    from triton.runtime.interpreter import TensorHandle

    return tl.tensor(TensorHandle(np.array([value], dtype=np.int64), tl.int64), tl.int64)


def bitwise_equal(torch, a, b) -> bool:
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    return bool(torch.equal(a.contiguous().view(torch.uint8), b.contiguous().view(torch.uint8)))


class Telemetry:
    def __init__(self, interval_s: float):
        self.interval_s, self.samples, self.available, self.reason = interval_s, [], False, ""
        self._stop = threading.Event()
        self._thread = None
        try:
            import pynvml

            pynvml.nvmlInit()
            self.n, self.h = pynvml, pynvml.nvmlDeviceGetHandleByIndex(0)
            self.available = True
        except Exception as exc:
            self.reason = f"NVML unavailable: {type(exc).__name__}: {exc}"

    def _sample(self) -> dict:
        n, h = self.n, self.h
        s = {"t": time.time()}
        for key, fn in (("power_w", lambda: n.nvmlDeviceGetPowerUsage(h) / 1000.0),
                        ("power_limit_w", lambda: n.nvmlDeviceGetEnforcedPowerLimit(h) / 1000.0),
                        ("sm_clock_mhz", lambda: n.nvmlDeviceGetClockInfo(h, n.NVML_CLOCK_SM)),
                        ("mem_clock_mhz", lambda: n.nvmlDeviceGetClockInfo(h, n.NVML_CLOCK_MEM)),
                        ("temperature_c", lambda: n.nvmlDeviceGetTemperature(h, n.NVML_TEMPERATURE_GPU)),
                        ("throttle_reasons", lambda: int(n.nvmlDeviceGetCurrentClocksThrottleReasons(h)))):
            try:
                s[key] = fn()
            except Exception:
                s[key] = None
        tr = s.get("throttle_reasons")
        s["power_capped"] = None if tr is None else bool(tr & 0x4)  # NVML: bit 0x4 = SW power cap
        return s

    def start(self) -> None:
        if self.available:
            def loop() -> None:
                while not self._stop.is_set():
                    self.samples.append(self._sample())
                    self._stop.wait(self.interval_s)

            self._thread = threading.Thread(target=loop, daemon=True)
            self._thread.start()

    def stop(self) -> dict:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
        return {"available": self.available, "reason": self.reason, "interval_s": self.interval_s,
                "samples": self.samples}


def compile_count(fns: dict):
    total = 0
    for fn in fns.values():
        caches = getattr(fn, "device_caches", None)
        if caches is None:
            return None
        total += sum(len(c[0]) for c in caches.values())
    return total


def run_process(m: dict, process: int, dry: bool) -> dict:
    import torch

    stage = m["stages"]["dry_run" if dry else "gpu"]
    device = "cpu" if dry else "cuda"
    prog = import_file(HERE / m["program"]["file"], "bundle_program")
    fn_eager = getattr(prog, m["program"]["function"])
    fns = {v: getattr(import_file(HERE / spec["file"], f"bundle_variant_{v}"), spec["fn_name"])
           for v, spec in m["variants"].items()}
    calls, outs = {}, {}
    for i, key in enumerate(stage["shapes"]):
        b = stage["bindings"][key]
        ins = make_inputs(torch, b["inputs"], m["seed"] + i, device, dry)
        ref = fn_eager(*ins)
        calls[key] = (ins, ref, b)
        for v in fns:
            outs[(v, key)] = torch.empty_strided(ref.shape, ref.stride(), dtype=ref.dtype, device=device)

    def launcher(v: str, key: str):
        ins, ref, b = calls[key]
        spec = m["variants"][v]
        types = dict(spec["scalar_types"])
        kwargs = {}
        for p in spec["params"]:
            src = b["params"][p]
            kwargs[p] = (ins[src["input"]] if "input" in src else outs[(v, key)] if "output" in src
                         else scalar(src["value"], types.get(p, "i64"), dry))
        grid = (max(1, -(-b["xnumel"] // stage["xblock"])),)
        launch = fns[v][grid]
        return lambda: launch(**kwargs, XBLOCK=stage["xblock"])

    launchers = {(v, k): launcher(v, k) for v in fns for k in calls}
    sync = (lambda: None) if dry else torch.cuda.synchronize
    correctness = []
    for v in fns:
        for k, (_, ref, _) in calls.items():
            outs[(v, k)].fill_(float("nan"))
            launchers[(v, k)]()
            sync()
            correctness.append({"process": process, "variant": v, "shape": k,
                                "bitwise_equal": bitwise_equal(torch, outs[(v, k)], ref)})
    tele = Telemetry(m["telemetry_interval_s"]) if not dry else None
    if tele:
        tele.start()

    def event():
        if dry:
            return None
        e = torch.cuda.Event(enable_timing=True)
        e.record()
        return e

    ms = (lambda a, b: None) if dry else (lambda a, b: float(a.elapsed_time(b)))
    blocks = []
    rounds = m["schedule"][process][:1] if dry else m["schedule"][process]
    for r, order in enumerate(rounds):
        for pos, v in enumerate(order):
            for k in calls:
                outs[(v, k)].fill_(float("nan"))
            t_warm = time.perf_counter()
            while True:
                for k in stage["sequence"] or stage["small"]:
                    launchers[(v, k)]()
                sync()
                if dry or time.perf_counter() - t_warm >= stage["warmup_s"]:
                    break
            c0, t0, h0 = compile_count(fns), time.time(), time.perf_counter()
            start, seq = event(), {}
            for k in stage["sequence"]:
                ev = []
                for _ in range(stage["calls_sequence"]):
                    a = event()
                    launchers[(v, k)]()
                    ev.append((a, event()))
                seq[k] = ev
            end = event()
            host_ms = (time.perf_counter() - h0) * 1e3
            small = {}
            for k in stage["small"]:
                ev = []
                for _ in range(stage["calls_small"]):
                    a = event()
                    launchers[(v, k)]()
                    ev.append((a, event()))
                small[k] = ev
            sync()
            t1, c1 = time.time(), compile_count(fns)
            blocks.append({
                "process": process, "round": r, "order": list(order), "position": pos, "variant": v,
                "t_start": t0, "t_end": t1, "warmup_s": None, "warmup_passes": None,
                "sequence_ms": ms(start, end) if stage["sequence"] and not dry else None,
                "sequence_host_issue_ms": None if dry else host_ms,
                "sequence_calls_ms": {k: [ms(a, b) for a, b in e] for k, e in seq.items()},
                "small_calls_ms": {k: [ms(a, b) for a, b in e] for k, e in small.items()},
                "compiled_during_block": None if c0 is None else c1 != c0,
                "outputs_bitwise_equal": all(bitwise_equal(torch, outs[(v, k)], calls[k][1]) for k in calls),
            })
    telemetry = tele.stop() if tele else {"available": False, "reason": "dry run: no GPU, no telemetry",
                                          "interval_s": m["telemetry_interval_s"], "samples": []}
    import triton

    env = {"python": platform.python_version(), "platform": platform.platform(), "torch": torch.__version__,
           "triton": triton.__version__, "cuda_runtime": torch.version.cuda, "interpreter": dry, "process": process,
           "device": "cpu (Triton interpreter)" if dry else torch.cuda.get_device_name(0), "driver": None}
    return {"environment": env, "correctness": correctness, "blocks": blocks, "telemetry": dict(telemetry, process=process)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="run a packed workbench timing plan")
    ap.add_argument("--out", required=True, help="run record to write (JSON)")
    ap.add_argument("--dry-run", action="store_true", help="CPU, Triton interpreter, tiny shapes, nothing timed")
    args = ap.parse_args(argv)
    if args.dry_run:
        os.environ["TRITON_INTERPRET"] = "1"  # before triton compiles anything
    m = load_manifest()
    if not args.dry_run:
        import torch

        if not torch.cuda.is_available():
            sys.exit("runner: no CUDA device (torch.cuda.is_available() is False); use --dry-run on a CPU machine")
    started = time.time()
    n = 1 if args.dry_run else m["stages"]["gpu"]["processes"]
    parts = [run_process(m, p, args.dry_run) for p in range(n)]
    dry_note = ("DRY RUN under Triton's interpreter (TRITON_INTERPRET=1) on CPU at tiny shapes: correctness only. "
                "No timer ran; nothing in this record is a timing measurement and no speed claim can be made from it.")
    record = {
        "schema": "workbench.bench.run/1", "mode": "dry-run" if args.dry_run else "gpu",
        "timing_claims": not args.dry_run,
        "note": dry_note if args.dry_run else "GPU run of a packed plan (bundle runner): CUDA-event timings.",
        "plan": m["plan"], "plan_sha256": m["plan_sha256"], "plan_path": None,
        "started_at": started, "finished_at": time.time(),
        "environment": [p["environment"] for p in parts], "kernel": m["kernel"],
        "variants": {v: {"fn_name": s["fn_name"], "digest": s["digest"], "scalar_types": dict(s["scalar_types"]),
                         "description": s["description"]} for v, s in m["variants"].items()},
        "correctness": [c for p in parts for c in p["correctness"]],
        "blocks": [b for p in parts for b in p["blocks"]],
        "telemetry": [p["telemetry"] for p in parts],
        "bundle": {"sha256": m["bundle_sha256"], "runner": "bundle runner"},
    }
    Path(args.out).write_text(json.dumps(record, indent=1, allow_nan=False) + "\n")
    bad = [c for c in record["correctness"] if not c["bitwise_equal"]]
    print(f"runner: wrote {args.out}: {record['mode']}, {len(record['blocks'])} blocks, "
          f"{len(record['correctness']) - len(bad)}/{len(record['correctness'])} checks bitwise equal to eager")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
