"""Pack a timing plan into a bundle that runs on any CUDA host without this repository.

Stage: bench (remote runs). ``workbench bench pack PLAN.json --out BUNDLE.tar.gz`` resolves everything the
workbench knows at pack time, so the remote host needs only Python, torch, triton and numpy:

* ``plan.json`` — the plan, verbatim (its SHA-256 travels in the manifest and the record);
* ``program.py`` — the program's eager function (its source and the module-level functions it calls);
* ``variants/<name>.py`` — each kernel variant's module (:mod:`workbench.rule.variants`), from the kernel the
  plan names (a live-capture plan uses the corpus record captured on capture's fake CUDA device);
* ``manifest.json`` — per stage (GPU, dry run): shapes, counts, and for every shape the input shapes and
  dtypes and every kernel parameter's binding (input index, the output, or a scalar value evaluated from
  the captured size expressions with :mod:`workbench.symexpr`), the order schedule of every process, and
  the SHA-256 of every file;
* ``runner.py`` (:mod:`workbench.bench.bundle_runner`, copied verbatim), ``requirements.txt`` (pinned),
  ``README.md`` (ssh and hosted-GPU instructions).

The tarball is deterministic: sorted members, fixed mtimes and owners, so packing the same plan twice gives
the same bytes. The record the runner writes is a ``workbench.bench.run/1`` record: ``bench report`` reads it.
"""

from __future__ import annotations

import ast
import gzip
import hashlib
import inspect
import io
import json
import tarfile
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from workbench.bench import plan as plan_mod
from workbench.errors import UsageError

REQUIREMENTS = "torch==2.13.0\ntriton==3.7.1\nnumpy>=1.26\n# optional, for power/clock telemetry:\nnvidia-ml-py>=12\n"

README = """\
# Packed timing plan: {name}

Plan SHA-256 `{sha}`; program `{program}`, kernel `{kernel}`; variants {variants}.
Needs Python 3.10+, a CUDA GPU, and `pip install -r requirements.txt` (pinned to the versions the
workbench was built against). Nothing from the workbench repository is needed.

    python runner.py --out run.json            # on the GPU host: times the plan ({processes} process(es))
    python runner.py --out dry.json --dry-run  # anywhere: CPU, Triton interpreter, correctness only

## Over ssh

    scp {bundle} gpu-host:
    ssh gpu-host 'mkdir -p b && tar xzf {bundle} -C b && cd b && python -m venv .venv && \\
        .venv/bin/pip install -r requirements.txt && .venv/bin/python runner.py --out run.json'
    scp gpu-host:b/run.json .
    workbench bench report run.json          # back on a machine with the workbench

## On a hosted GPU service

Any service that runs a container with a GPU and returns a file works: upload the unpacked folder, install
`requirements.txt` in the image, run `python runner.py --out /output/run.json`, download `run.json`.
(For example a Modal function with `gpu="L4"` whose image pip-installs `requirements.txt` and mounts this
folder; or a RunPod/Lambda instance used over ssh as above.) Keep the GPU otherwise idle while it runs.
"""


def _program_source(fn: Any) -> str:
    """The eager function's source plus every module-level function of its module it calls (transitively)."""
    module = inspect.getmodule(fn)
    seen: dict[str, str] = {}

    def add(f: Any) -> None:
        if f.__name__ in seen:
            return
        src = textwrap.dedent(inspect.getsource(f))
        seen[f.__name__] = src
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.Name) and node.id != f.__name__:
                g = getattr(module, node.id, None)
                if inspect.isfunction(g) and inspect.getmodule(g) is module:
                    add(g)

    add(fn)
    return "import torch\n\n\n" + "\n\n".join(reversed(list(seen.values())))


class _Shaped:
    """Stands in for an input tensor when binding: only its shape is read (pack time allocates nothing)."""

    def __init__(self, shape: tuple[int, ...]):
        self.shape = shape

    def data_ptr(self) -> int:  # marks a tensor input for :func:`workbench.bench.inputs.bind`
        return 0


def _bindings(kernel: Any, program: Any, shapes: tuple, variant: Any) -> dict[str, Any]:
    from workbench.bench.inputs import bind

    out = {}
    for sh in shapes:
        sizes = dict(sh)
        specs = [(list(s.concrete(sizes)), s.dtype) for s in program.inputs]
        ins = [_Shaped(tuple(s)) for s, _ in specs]
        tensors, scalars, xnumel = bind(kernel, program, ins, variant.params)
        params: dict[str, Any] = {}
        for p in variant.params:
            if p == "out_ptr0":
                params[p] = {"output": 0}
            elif p in tensors:
                params[p] = {"input": ins.index(tensors[p])}
            elif p in scalars:
                params[p] = {"value": int(scalars[p])}
            else:
                raise UsageError(f"kernel {kernel.name}: parameter {p!r} has no binding at shape {sizes}")
        out[plan_mod.shape_key(sh)] = {"inputs": specs, "params": params, "xnumel": xnumel}
    return out


def _kernel(plan: plan_mod.Plan) -> tuple[Any, str]:
    from workbench.capture.record import load
    from workbench.paths import KERNELS

    spec = plan.kernel_spec
    match spec["from"]:
        case "file":
            return load(spec["path"]), f"file {spec['path']}"
        case "fixture":
            from workbench.bench import fixture

            return fixture.kernel(), "fixture (hand-written stand-in, not emitted by Inductor)"
        case "capture":
            recs = sorted((KERNELS / plan.program).glob("*.json"))
            if spec.get("name"):
                recs = [r for r in recs if r.stem == spec["name"]]
            if len(recs) != 1:
                raise UsageError(f"plan {plan.name!r}: {len(recs)} corpus records for {plan.program}; name the "
                                 "kernel in the plan's kernel.name or use {\"from\": \"file\", \"path\": ...}")
            k = load(recs[0])
            return k, f"corpus record {recs[0].name} ({k.device}), packed: the remote host compiles this text"
        case "imported":
            raise UsageError(f"plan {plan.name!r} describes an imported record; it cannot be packed and run")
        case other:  # pragma: no cover  (plan.parse validates)
            raise UsageError(f"unknown kernel source {other!r}")


PHASES = ("plan and program", "kernel variants", "bindings", "manifest")


def build(plan_path: str | Path, step: Callable[[str], None] = lambda _phase: None) -> dict[str, bytes]:
    """The bundle's files (relative path -> bytes); ``step(phase)`` is called as each of :data:`PHASES` ends."""
    from workbench import programs
    from workbench.bench import bundle_runner
    from workbench.rule import variants as V

    plan, raw = plan_mod.load(plan_path)
    program = programs.get(plan.program)
    step(PHASES[0])
    kernel, origin = _kernel(plan)
    built = V.build_all(kernel, plan.variants)
    step(PHASES[1])
    files: dict[str, bytes] = {
        "plan.json": (json.dumps(raw, indent=1) + "\n").encode(),
        "program.py": _program_source(program.fn).encode(),
        "runner.py": Path(bundle_runner.__file__).read_bytes(),
        "requirements.txt": REQUIREMENTS.encode(),
    }
    for n, v in built.items():
        files[f"variants/{n}.py"] = v.source.encode()
    first = built[plan.variants[0]]
    stages = {}
    for name, st in (("gpu", plan.gpu), ("dry_run", plan.dry_run)):
        if st is None:
            continue
        shapes = tuple(dict.fromkeys(st.sequence + st.small))
        stages[name] = {"sequence": [plan_mod.shape_key(s) for s in st.sequence],
                        "small": [plan_mod.shape_key(s) for s in st.small], "shapes": [plan_mod.shape_key(s) for s in shapes],
                        "calls_sequence": st.calls_sequence, "calls_small": st.calls_small, "processes": st.processes,
                        "warmup_s": st.warmup_s, "xblock": st.xblock,
                        "bindings": _bindings(kernel, program, shapes, first)}
    step(PHASES[2])
    digests = {p: hashlib.sha256(b).hexdigest() for p, b in sorted(files.items())}
    manifest = {
        "schema": "workbench.bench.bundle/1",
        "plan": raw, "plan_sha256": plan.sha256, "seed": plan.seed,
        "telemetry_interval_s": plan.telemetry_interval_s,
        "program": {"name": program.name, "file": "program.py", "function": program.fn.__name__},
        "kernel": {"name": kernel.name, "program": plan.program, "origin": origin,
                   "source_hash": getattr(kernel, "source_hash", None), "signature": dict(kernel.signature),
                   "jit_source": getattr(kernel, "jit_source", None) or kernel.source, "fake_cuda_comparison": None},
        "variants": {n: {"file": f"variants/{n}.py", "fn_name": v.fn_name, "params": list(v.params),
                         "scalar_types": [list(t) for t in v.scalar_types], "digest": v.digest,
                         "description": V.VARIANTS[n]} for n, v in built.items()},
        "stages": stages,
        "schedule": [[list(o) for o in proc] for proc in plan_mod.schedule(plan, False)],
        "files": digests,
        "bundle_sha256": hashlib.sha256(json.dumps(digests, sort_keys=True).encode()).hexdigest(),
    }
    if any(v.host_args for v in built.values()):
        raise UsageError("variant D computes host arguments at launch; the bundle runner does not support it yet")
    files["manifest.json"] = (json.dumps(manifest, indent=1) + "\n").encode()
    files["README.md"] = README.format(name=plan.name, sha=plan.sha256, program=plan.program, kernel=kernel.name,
                                       variants=", ".join(plan.variants), processes=plan.gpu.processes,
                                       bundle=f"{plan.name}.tar.gz").encode()
    step(PHASES[3])
    return files


def write(files: dict[str, bytes], out: str | Path, root: str = "bundle") -> Path:
    """A deterministic ``.tar.gz``: sorted members under ``root/``, mtime 0, uid/gid 0, mode 0644."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for rel in sorted(files):
            info = tarfile.TarInfo(f"{root}/{rel}")
            info.size, info.mtime, info.mode, info.uid, info.gid = len(files[rel]), 0, 0o644, 0, 0
            tar.addfile(info, io.BytesIO(files[rel]))
    with open(out, "wb") as fh, gzip.GzipFile(fileobj=fh, mode="wb", mtime=0, filename="") as gz:
        gz.write(buf.getvalue())
    return out


def pack(plan_path: str | Path, out: str | Path) -> Path:
    return write(build(plan_path), out)
