"""One zoo model end to end (capture in a child process, check every kernel in both modes), and the fan-out.

Stage: zoo. :func:`run_model` is the unit of work: it never raises for a model's own failure; a capture
that crashes, times out or errors becomes a :class:`ModelResult` with ``error`` set, and a kernel whose
check raises a :class:`~workbench.errors.WorkbenchError` is recorded with that error (the other kernels
go on). The checker is reached only through its public API (``workbench.check.check_kernel``) and the IR's
(``workbench.kir.parse``).

:func:`run_zoo` fans models out over local processes (``jobs``) or an existing Dask cluster
(``scheduler``: ``dask.distributed.Client(address)``); a user's model file (``FILE.py``) is an entry like a
registered name (``file-<stem>``, captured in the same child process). It writes each finished model to
``DIR/models/<name>.json`` at once (atomically), and rewrites ``zoo.json``/``zoo.md`` after each one. A rerun
skips models whose result file exists, so an interrupted run loses nothing finished. Each model's captured
kernel records are kept under ``DIR/records/<name>/`` (the capture's own format), so :func:`recheck` can run a
newer checker over them without capturing again (capture is most of a zoo run's time). Training steps
(``backward=True``) are results of their own over the same models, kept under ``DIR/train/`` (:func:`training_dir`:
``models/`` and ``records/`` as above), so a model has an inference result and a training result side by side.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from multiprocessing import get_context
from pathlib import Path

from workbench.contract import Verdict
from workbench.errors import InputError, UsageError, WorkbenchError

SCHEMA = "workbench.zoo_model/1"
MODES = ("strict", "observable")
_REFUSED_CONSTRUCT = re.compile(r": (.+?) is not supported by the kernel IR")
_PLACE = re.compile(r"^\w+(?:, line \d+)?: ")  # "triton_poi_fused_0, line 12: " before a reason
_LINE = re.compile(r"\s*\(line \d+\)")


@dataclass(frozen=True, slots=True)
class KernelOutcome:
    """One kernel's verdicts. ``out_of_class``: why the checker does not model it ("" when in class)."""

    name: str
    graph: int
    index_dtype: str
    parsed: bool
    out_of_class: str
    strict: Verdict  # CERTIFIED | REFUSED | OUT_OF_CLASS | ERROR
    observable: Verdict
    counterexample: bool  # a refusal (observable mode) came with a concrete counterexample
    reason: str  # the observable verdict's reason (or the error), first 300 characters
    seconds: float
    kernel_class: str = ""  # workbench.check.classes.KernelClass value ("" in results recorded before classes)
    # size arguments the kernel declares int64 (something to narrow when > 0); None in results recorded before
    # this field (`zoo recheck` fills it in from the kept records)
    wide_size_args: int | None = None
    phase: str = "forward"  # "backward": a kernel of a training step's backward graph (zoo run --backward)


@dataclass(frozen=True, slots=True)
class ModelResult:
    name: str
    source: str
    error: str  # "" when captured; else why capture failed
    kernels: tuple[KernelOutcome, ...]
    graphs: int
    graph_breaks: tuple[str, ...]
    dynamic_dims: tuple[str, ...]
    capture_seconds: float
    check_seconds: float
    capture_cached: bool = False  # the records came from the capture cache (capture_seconds: reading them)

    def to_json(self) -> dict:
        d = asdict(self)
        if not self.capture_cached:  # results written before the cache read the same
            del d["capture_cached"]
        d["schema"] = SCHEMA
        return d

    @classmethod
    def from_json(cls, d: dict, where: str) -> ModelResult:
        if not isinstance(d, dict) or d.get("schema") != SCHEMA:
            raise InputError(f"{where}: not a zoo model result (expected schema {SCHEMA!r}); delete it and rerun")
        try:
            return cls(
                name=str(d["name"]), source=str(d["source"]), error=str(d["error"]),
                kernels=tuple(KernelOutcome(**dict(k, strict=Verdict(k["strict"]), observable=Verdict(k["observable"])))
                              for k in d["kernels"]),
                graphs=int(d["graphs"]), graph_breaks=tuple(map(str, d["graph_breaks"])),
                dynamic_dims=tuple(map(str, d["dynamic_dims"])),
                capture_seconds=float(d["capture_seconds"]), check_seconds=float(d["check_seconds"]),
                capture_cached=bool(d.get("capture_cached", False)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{where}: malformed zoo model result ({exc}); delete it and rerun") from None


def out_of_class_reason(verdict_reason: str, index_dtype: str) -> str:
    """A short, stable category for an out-of-class verdict (the construct the IR refused by name)."""
    if "index dtype" in verdict_reason or index_dtype not in ("tl.int32", "int32"):
        return "int64 indexing"
    m = _REFUSED_CONSTRUCT.search(verdict_reason)
    if m:
        return m.group(1)
    # otherwise the reason's first clause, without the kernel's name and line (one category across kernels)
    text = _LINE.sub("", _PLACE.sub("", verdict_reason, count=1))
    return text.split(";")[0].strip()[:60] or "unspecified"


def check_one(record, smt: bool = True) -> KernelOutcome:
    """Both modes' verdicts for one captured kernel, through the checker's public API."""
    from workbench import check, kir

    t0 = time.perf_counter()
    try:
        kir.parse(record)
        parsed = True
    except WorkbenchError:
        parsed = False
    verdicts: dict[str, Verdict] = {}
    reason, ooc, cex = "", "", False
    for mode in MODES:
        try:
            v = check.check_kernel(record, mode, smt=smt)
        except WorkbenchError as exc:  # the checker refused the input itself: record it, go on
            verdicts[mode] = Verdict.ERROR
            reason = f"{type(exc).__name__}: {exc}"
            continue
        except Exception as exc:  # noqa: BLE001 - a checker bug on a real kernel: recorded, never fatal
            verdicts[mode] = Verdict.ERROR
            reason = f"internal checker error: {type(exc).__name__}: {exc}"
            continue
        try:
            got = Verdict(str(getattr(v.verdict, "value", v.verdict)))
        except ValueError:
            got = None
        match got:
            case Verdict.CERTIFIED | Verdict.REFUSED:
                pass
            case Verdict.OUT_OF_CLASS:
                ooc = out_of_class_reason(v.reason, record.index_dtype)
            case _:  # the checker's vocabulary grew: say so rather than guess what it means
                got, v = Verdict.ERROR, None
                reason = f"unexpected checker verdict for {record.name}"
        verdicts[mode] = got
        if mode == "observable" and v is not None:
            reason = v.reason
            cex = got is Verdict.REFUSED and v.counterexample is not None
    from workbench.check.classes import record_class

    return KernelOutcome(record.name, record.graph, record.index_dtype, parsed, ooc, verdicts["strict"],
                         verdicts["observable"], cex, reason[:300], time.perf_counter() - t0,
                         record_class(record).value, sum(a.type == "i64" for a in record.size_args),
                         getattr(record, "phase", "forward"))


USER_PREFIX = "file-"  # a user's model file FILE.py runs as model "file-FILE" (as `capture` names its folder)
USER_SOURCE = "user file"


def model_key(entry: str) -> str:
    """The name a zoo entry's results go by: a registered model's name, or ``file-<stem>`` for a FILE.py."""
    return f"{USER_PREFIX}{Path(entry).stem}" if entry.endswith(".py") else entry


def entries(models: Iterable[str]) -> list[str]:
    """Zoo entries as the workers take them: registered names checked against the registry, user model files
    (``FILE.py``: the ``model()`` or ``program()`` form of docs/capture.md) as absolute paths (workers may run
    elsewhere on a shared filesystem). Two files with one stem would share a result: an error."""
    from workbench.zoo import registry

    out: list[str] = []
    for m in dict.fromkeys(models):
        if m.endswith(".py"):
            path = Path(m).expanduser()
            if not path.is_file():
                raise UsageError(f"--models: model file {m!r} does not exist; give a FILE.py that defines model() "
                                 "(or program()) and example_inputs() (docs/capture.md)")
            out.append(str(path.resolve()))
        else:
            registry.get(m)  # unknown names fail before any work starts
            out.append(m)
    keys = [model_key(e) for e in out]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise UsageError(f"--models: {', '.join(dup)} named twice (two files with one stem share a result); "
                         "rename one file")
    return out


def run_model(name: str, device: str = "cuda", gpu: str = "L4", smt: bool = True, timeout: float = 1800.0,
              records: str | None = None, backward: bool = False, capture_cache: bool = True) -> dict:
    """Capture zoo entry ``name`` (a registered model, or a user's model FILE.py by absolute path) in a child
    process and check its kernels; a JSON-ready result under :func:`model_key`, never a raise for the model's
    own failure (it is recorded). With ``records`` (a directory), the captured kernel records are saved under
    ``records/<key>/`` first."""
    from workbench.capture.isolated import capture_isolated
    from workbench.zoo import registry

    if name.endswith(".py"):
        ref, source = name, USER_SOURCE
    else:  # a training step may keep fewer dims dynamic (registry.ZooModel.training_dynamic)
        ref = f"{registry.TRAINING_NAMESPACE if backward else 'zoo'}:{name}"
        source = registry.get(name).source.value
    key = model_key(name)
    t0 = time.perf_counter()
    try:
        cap = capture_isolated(ref, device=device, gpu=gpu, timeout=timeout, backward=backward,
                               use_cache=capture_cache)
    except WorkbenchError as exc:
        return ModelResult(key, source, f"{type(exc).__name__}: {exc}"[:2000], (), 0, (), (),
                           time.perf_counter() - t0, 0.0).to_json()
    t1 = time.perf_counter()
    if records is not None:
        _keep_records(Path(records) / key, cap.kernels)
    outcomes = tuple(check_one(k, smt=smt) for k in cap.kernels)  # check_one records every failure
    return ModelResult(key, source, "", outcomes, cap.graphs,
                       tuple(b.text() for b in cap.graph_breaks), cap.dynamic_dims, t1 - t0,
                       time.perf_counter() - t1, capture_cached=cap.cached).to_json()


def _keep_records(directory: Path, kernels) -> None:
    """Replace ``directory``'s records with ``kernels`` (a model's records are one capture, never mixed)."""
    from workbench.capture.record import save

    if directory.is_dir():
        for old in directory.iterdir():
            if old.suffix in (".json", ".py"):
                old.unlink()
    for k in kernels:
        save(k, directory)


def records_path(out: Path, name: str) -> Path:
    return out / "records" / name


TRAINING = "train"


def training_dir(out: Path) -> Path:
    """Where a zoo directory keeps its training steps' results and records (``zoo run --backward``)."""
    return out / TRAINING


def recheck(out: Path, names: Iterable[str], smt: bool = True,
            on_done: Callable[[ModelResult], None] | None = None) -> dict[str, ModelResult]:
    """Re-run the checker over each model's kept records and rewrite its result (capture facts kept).

    A model without kept records (finished by an older run, or whose capture failed) keeps its result as it
    is; the caller says so. Kernels are matched to the old result by name: the records are the capture."""
    from workbench.capture.record import load_dir

    results = load_results(out)
    for name in names:
        old = results.get(name)
        rdir = records_path(out, name)
        if old is None or old.error or not rdir.is_dir():
            if on_done is not None and old is not None:
                on_done(old)
            continue
        kernels = load_dir(rdir)
        if len(kernels) != len(old.kernels):
            raise InputError(f"{rdir}: {len(kernels)} kernel records but the model's result lists "
                             f"{len(old.kernels)}; delete {result_path(out, name)} and run `workbench zoo run` again")
        t0 = time.perf_counter()
        outcomes = tuple(check_one(k, smt=smt) for k in kernels)
        order = {k.name: i for i, k in enumerate(old.kernels)}
        outcomes = tuple(sorted(outcomes, key=lambda o: order.get(o.name, len(order))))
        new = ModelResult(old.name, old.source, "", outcomes, old.graphs, old.graph_breaks, old.dynamic_dims,
                          old.capture_seconds, time.perf_counter() - t0, old.capture_cached)
        _save(out, new.to_json())
        results[name] = new
        if on_done is not None:
            on_done(new)
    return results


# -- the fan-out --------------------------------------------------------------------------------------------


def result_path(out: Path, name: str) -> Path:
    return out / "models" / f"{name}.json"


def load_results(out: Path) -> dict[str, ModelResult]:
    from workbench.jsonfile import read_json

    got = {}
    for p in sorted((out / "models").glob("*.json")):
        r = ModelResult.from_json(read_json(p, InputError, "zoo model result", "delete it and rerun"), str(p))
        got[r.name] = r
    return got


def _save(out: Path, result: dict) -> None:
    path = result_path(out, result["name"])
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "w") as fh:
        json.dump(result, fh, indent=1, sort_keys=True)
        fh.write("\n")
    os.replace(tmp, path)


def run_zoo(
    models: Iterable[str],
    out: Path,
    jobs: int = 1,
    scheduler: str | None = None,
    device: str = "cuda",
    smt: bool = True,
    on_done: Callable[[ModelResult, dict[str, ModelResult]], None] | None = None,
    task: Callable[..., dict] = run_model,
    backward: bool = False,
    capture_cache: bool = True,
) -> dict[str, ModelResult]:
    """Run every model (registered names, user model files: :func:`entries`) not finished under ``out``
    (``backward``: training steps, under :func:`training_dir` of ``out``); returns all results there (old and
    new) by :func:`model_key`."""
    names = entries(models)
    if jobs < 1:
        raise UsageError(f"--jobs {jobs}: give at least 1 worker process")
    if backward:  # training steps are results of their own, beside the inference ones
        out = training_dir(out)
    out.mkdir(parents=True, exist_ok=True)
    results = {n: r for n, r in load_results(out).items()}
    todo = [n for n in names if model_key(n) not in results]

    def finished(d: dict) -> None:
        _save(out, d)
        r = ModelResult.from_json(d, f"result of {d.get('name')!r}")
        results[r.name] = r
        if on_done is not None:
            on_done(r, results)

    if not todo:
        return results
    extra = {"backward": True} if backward else {}  # training steps (a task without the option is inference)
    if not capture_cache:  # every model captured anew (a task without the option has no cache)
        extra["capture_cache"] = False
    if scheduler:
        _run_dask(scheduler, todo, device, smt, finished, task, str(out / "records"), extra)
    elif jobs == 1:
        from workbench.capture import forkserver

        try:
            for n in todo:
                finished(task(n, device, "L4", smt, records=str(out / "records"), **extra))
        finally:  # this process's capture server has served the run (a worker process's ends with it)
            forkserver.shutdown()
    else:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
            futures = [pool.submit(task, n, device, "L4", smt, records=str(out / "records"), **extra)
                       for n in todo]
            for f in as_completed(futures):
                finished(f.result())
    return results


def _run_dask(address: str, todo: list[str], device: str, smt: bool, finished, task, records: str,
              extra: dict | None = None) -> None:
    try:
        from dask.distributed import Client, as_completed as dask_completed
    except ImportError:
        from workbench.errors import ToolMissingError

        raise ToolMissingError("--scheduler needs dask.distributed; install the zoo extra (`pip install -e .[zoo]`)") from None
    try:
        client = Client(address, timeout=10)
    except (OSError, TimeoutError) as exc:
        raise UsageError(f"--scheduler {address!r}: cannot reach a Dask scheduler there ({exc}); "
                         "start one (`dask scheduler`) or drop --scheduler to run on local processes") from None
    try:
        futures = client.map(task, todo, device=device, gpu="L4", smt=smt, records=records, pure=False,
                             **(extra or {}))
        for f in dask_completed(futures):
            finished(f.result())
    finally:
        client.close()
