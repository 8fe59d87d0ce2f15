"""What a user names on the command line -> kernel records or certificates, and where outputs go.

Stage: none (shared by ``capture``, ``show``, ``ir``, ``check``, ``rule`` and ``lean emit``). A target is one of

* ``NAME``: a program captured before, looked up in the workspace first, then in the shipped corpus
  (``data/kernels/NAME``); ``check`` captures a registered program that is in neither (into the workspace);
  ``PROGRAM/KERNEL`` and a 12-digit kernel id (what ``show`` prints) name one kernel;
* ``DIR``: a folder of kernel records (what ``capture`` prints), or of certificates (what ``check`` prints);
* ``FILE.json``: a kernel record (``workbench.captured_kernel/1``), a certificate (``workbench.certificate/1``)
  or any command's ``--json`` output that contains certificates;
* ``FILE.py``: a user program (``program()`` + ``example_inputs()``), captured into the workspace, or the
  ``.py`` source that ``capture`` saved beside a record.

Writes go to the workspace only (:mod:`workbench.workspace`): records under ``kernels/<folder>/``, certificates
under ``certificates/<folder>/``. ``<folder>`` is the program name for a registered program and
``file-<stem>`` for a user file, so a user's ``tile.py`` never lands in the registered ``tile`` folder. The
repository's ``data/`` is read, never written. Limits: two user files with the same stem share a folder (the
later capture replaces the earlier one's records).
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from workbench.errors import CaptureError, InputError, UsageError, WorkbenchError

RECORD_SCHEMA = "workbench.captured_kernel/"
CERTIFICATE_SCHEMA = "workbench.certificate/"
USER_PREFIX = "file-"
ID = re.compile(r"[0-9a-f]{12}")  # the user-facing kernel id (workbench.capture.show.kernel_id)


@dataclass(frozen=True, slots=True)
class Located:
    """A kernel record and the file it was read from."""

    record: Any  # CapturedKernel (imported lazily: resolution must not import torch)
    path: Path


@dataclass(frozen=True, slots=True)
class LocatedCertificate:
    """A certificate, the file it came from (``None`` when computed in this process), and its kernel record."""

    certificate: Any  # workbench.check.certificate.Certificate
    path: Path | None
    record: Located


def kernel_roots(workspace: str | Path | None = None) -> tuple[Path, ...]:
    """Where records are looked up, in order: the workspace's ``kernels/``, then the shipped corpus."""
    from workbench import workspace as ws
    from workbench.paths import KERNELS

    return (ws.subdir("kernels", workspace), KERNELS)


def folder_for(program) -> str:
    """The workspace folder of a :class:`~workbench.programs.Program`'s records."""
    return program.name if program.origin == "registry" else f"{USER_PREFIX}{program.name}"


# -- records ---------------------------------------------------------------------------------------------------


def _schema(data: Any) -> str:
    return str(data.get("schema", "")) if isinstance(data, dict) else ""


def _read(path: Path) -> Any:
    from workbench.jsonfile import read_json

    return read_json(path, InputError, "JSON file",
                     "pass a kernel record (`workbench capture NAME` writes them), a certificate or a folder of them")


def _load_record(path: Path) -> Located:
    from workbench.capture.record import load

    return Located(load(path), path)


def _records_in(folder: Path) -> list[Located]:
    out = []
    for p in sorted(folder.glob("*.json")):
        if _schema(_read(p)).startswith(RECORD_SCHEMA):
            out.append(_load_record(p))
    return out


def _capture_here(target: str, device: str, gpu: str, backward: bool = False) -> list:
    """Capture a registered program or FILE.py in this process; the program's exceptions become one line."""
    from workbench.capture import capture
    from workbench.programs import resolve as resolve_program

    try:
        return list(capture(resolve_program(target), device=device, gpu=gpu, backward=backward))
    except WorkbenchError:
        raise
    except Exception as exc:  # noqa: BLE001 - the user's program raised: one line, exit 2, never a traceback
        first = (str(exc).strip().splitlines() or [""])[0][:200]
        raise CaptureError(f"capturing {target!r} failed: {type(exc).__name__}: {first}; check the program's "
                           "example_inputs() (real CPU tensors) and program(*tensors)") from None


_CHILD = """
import json, sys
from workbench.errors import WorkbenchError
from workbench.resolve import _capture_here
try:
    kernels = _capture_here(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "backward")
except WorkbenchError as exc:
    print(str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__, file=sys.stderr)
    sys.exit(2)
print("@@workbench-records@@" + json.dumps([k.to_json() for k in kernels]))
"""


def _capture_in_child(target: str, device: str, gpu: str, backward: bool = False) -> list:
    """Capture a user's FILE.py in a child Python process: the program's code (module level, program(),
    example_inputs()) never runs in this process; the records come back as JSON and are validated like files.
    The file is first read as a syntax tree (``programs.load_file``) so a kernel source or a non-program is
    refused before anything in it runs."""
    import os
    import subprocess
    import sys

    import workbench
    from workbench.capture.record import CapturedKernel, validate
    from workbench.jsonfile import loads_strict

    root = str(Path(workbench.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    r = subprocess.run([sys.executable, "-c", _CHILD, target, device, gpu, "backward" if backward else "forward"],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        lines = [ln for ln in r.stderr.strip().splitlines() if ln.strip()]
        raise CaptureError(lines[-1] if lines else f"capturing {target!r} failed (exit {r.returncode})")
    for ln in r.stderr.splitlines():  # what capture did differently (a CPU build): the user should see it
        if ln.startswith("workbench: note: "):
            print(ln, file=sys.stderr)
    out = [ln for ln in r.stdout.split("\n") if ln.startswith("@@workbench-records@@")]
    if not out:
        raise CaptureError(f"capturing {target!r} returned no records")
    kernels = [CapturedKernel.from_json(d, where=f"{target} (captured)")
               for d in loads_strict(out[-1][len("@@workbench-records@@"):])]
    for k in kernels:
        validate(k, where=f"{target} (captured)")
    return kernels


def capture_into_workspace(target: str, workspace=None, device: str = "cuda", gpu: str = "L4", progress=None,
                           backward: bool = False):
    """Capture a registered program or FILE.py into ``<workspace>/kernels/<folder>/`` (replacing what an
    earlier capture of the same folder left); returns ``(folder path, [Located])``. A user's FILE.py is
    captured in a child process (its code never runs in this one)."""
    from workbench.capture import save

    if target.endswith(".py"):
        out = kernel_roots(workspace)[0] / f"{USER_PREFIX}{Path(target).stem}"
        kernels = _capture_in_child(target, device, gpu, backward)
    else:
        from workbench.programs import resolve as resolve_program

        out = kernel_roots(workspace)[0] / folder_for(resolve_program(target))
        kernels = _capture_here(target, device, gpu, backward)
    shutil.rmtree(out, ignore_errors=True)  # a kernel that is no longer emitted must not linger
    return out, [Located(k, save(k, out)) for k in kernels]


def records(target: str, workspace=None, *, capture: bool = False, device: str = "cuda") -> list[Located]:
    """The kernel records ``target`` names (see the module docstring). With ``capture``, a registered program
    or FILE.py that has no records yet is captured into the workspace."""
    path = Path(target)
    if path.is_dir():
        found = _records_in(path)
        if not found:
            certs = [c.record for c in _certificates_in(path, workspace)]
            if certs:
                return certs
            raise InputError(f"folder {str(path)!r} holds no kernel record (*.json); "
                             f"capture into it with `workbench capture PROGRAM`")
        return found
    if path.suffix == ".json":
        data = _read(path)
        schema = _schema(data)
        if schema.startswith(RECORD_SCHEMA):
            return [_load_record(path)]
        certs = list(_certificates_from(data, path, workspace))
        if certs:
            return [c.record for c in certs]
        raise InputError(f"{str(path)!r} is neither a kernel record nor a certificate (schema {schema!r}); "
                         "pass what `workbench capture` or `workbench check` wrote")
    if path.suffix == ".py":
        beside = path.with_suffix(".json")
        if beside.is_file() and _schema(_read(beside)).startswith(RECORD_SCHEMA):
            return [_load_record(beside)]  # the source `capture` saved beside its record
        if not path.is_file():
            raise InputError(f"program file {str(path)!r} does not exist; pass a path to a .py file")
        if not capture:
            raise UsageError(f"{str(path)!r} has not been captured; run `workbench capture {path}` and pass the "
                             "folder it prints")
        return capture_into_workspace(str(path), workspace, device=device)[1]
    for root in kernel_roots(workspace):
        if re.fullmatch(r"[\w.-]+/[\w.-]+", target) and (root / f"{target}.json").is_file():
            return [_load_record(root / f"{target}.json")]  # PROGRAM/KERNEL
    if ID.fullmatch(target):
        found = [loc for root in kernel_roots(workspace) for p in sorted(root.glob("*/*.json"))
                 if _schema(_read(p)).startswith(RECORD_SCHEMA)
                 and (loc := _load_record(p)).record.source_hash.startswith(target)]
        if found:
            return found[:1] if len({loc.record.source_hash for loc in found}) == 1 else found
    if "/" in target or target.startswith("."):
        raise InputError(f"{target!r} is not a folder, a .json or a .py file; check the path")
    for root in kernel_roots(workspace):
        if (root / target).is_dir():
            found = _records_in(root / target)
            if found:
                return found
    if capture:
        return capture_into_workspace(target, workspace, device=device)[1]
    from workbench.programs import names

    hint = f"run `workbench capture {target}` first" if target in names() else "`workbench list` shows the programs"
    raise UsageError(f"no captured program {target!r} in the workspace or the shipped corpus; {hint}")


# -- certificates ----------------------------------------------------------------------------------------------


def _walk_certificates(data: Any) -> Iterator[dict]:
    """Every certificate object inside ``data`` (a certificate, a ``check --json`` document, a list of them)."""
    if isinstance(data, dict):
        if _schema(data).startswith(CERTIFICATE_SCHEMA):
            yield data
            return
        for v in data.values():
            yield from _walk_certificates(v)
    elif isinstance(data, list):
        for v in data:
            yield from _walk_certificates(v)


def record_for(cert, cert_path: Path | None = None, workspace=None) -> Located:
    """The record a certificate was issued for: beside it (``kernels/<folder>/`` mirroring
    ``certificates/<folder>/``), else any record of the same program and kernel whose IR hash matches."""
    from workbench import kir
    from workbench.errors import WorkbenchError

    candidates: list[Path] = []
    if cert_path is not None and len(cert_path.parents) > 2:
        stem = cert_path.name.removesuffix(f".{cert.mode}.json")  # the record's file stem (save_certificate)
        candidates.append(cert_path.parents[2] / "kernels" / cert_path.parent.name / f"{stem}.json")
    for root in kernel_roots(workspace):  # a training step's backward records are <name>__backward.json
        candidates += sorted(root.glob(f"*/{cert.kernel}.json")) + sorted(root.glob(f"*/{cert.kernel}__*.json"))
    fallback = None
    for p in candidates:
        if not p.is_file():
            continue
        loc = _load_record(p)
        if loc.record.program != cert.program or loc.record.name != cert.kernel:
            continue
        try:
            if kir.canonical_hash(kir.parse(loc.record)) == cert.ir_hash:
                return loc
        except WorkbenchError:
            pass
        fallback = fallback or loc
    if fallback is not None:
        return fallback  # stale: the consumer names the hash mismatch
    raise InputError(f"no kernel record for certificate {cert.program}/{cert.kernel} in the workspace or the "
                     f"shipped corpus; capture {cert.program} again (`workbench capture`)")


def _certificates_from(data: Any, path: Path | None, workspace) -> Iterator[LocatedCertificate]:
    from workbench.check.certificate import Certificate
    from workbench.check.errors import CertificateError

    for d in _walk_certificates(data):
        try:
            cert = Certificate.from_json(d)
        except CertificateError as exc:
            raise InputError(f"{path}: {exc}; run `workbench check` again") from None
        yield LocatedCertificate(cert, path, record_for(cert, path, workspace))


def _certificates_in(folder: Path, workspace) -> list[LocatedCertificate]:
    out: list[LocatedCertificate] = []
    for p in sorted(folder.glob("*.json")):
        out += _certificates_from(_read(p), p, workspace)
    return out


def certificates(target: str, workspace=None, mode: str = "observable") -> list[LocatedCertificate]:
    """Certificates ``target`` names: certificate files and folders as they are; kernel records, program
    names and files are checked (``mode``) and their certificates returned, certified or not."""
    path = Path(target)
    if path.is_dir() and not _records_in(path):
        found = _certificates_in(path, workspace)
        if found:
            return found
    if path.suffix == ".json" and path.is_file():
        data = _read(path)
        if not _schema(data).startswith(RECORD_SCHEMA):
            found = list(_certificates_from(data, path, workspace))
            if not found:
                raise InputError(f"{str(path)!r} holds no certificate (schema {_schema(data)!r}); "
                                 "pass a kernel record or what `workbench check` wrote")
            return found
    from workbench.check.api import check_kernel

    out = []
    for loc in records(target, workspace, capture=True):
        v = check_kernel(loc.record, mode, counterexample=False)
        out.append(LocatedCertificate(v.certificate, None, loc))
    return out


def save_certificate(cert, located: Located, workspace=None) -> Path:
    """Write ``cert`` to ``<workspace>/certificates/<folder>/<kernel>.<mode>.json``; the record it was issued
    for is copied into ``kernels/<folder>/`` when it does not already live in a kernel root, so the
    certificate always finds its record."""
    from workbench import workspace as ws
    from workbench.capture.record import save

    folder = located.path.parent.name
    kroot = kernel_roots(workspace)
    if located.path.resolve().parent.parent not in {r.resolve() for r in kroot}:
        save(located.record, kroot[0] / folder)
    out = ws.subdir("certificates", workspace) / folder
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{located.path.stem}.{cert.mode}.json"  # the record's stem: a backward kernel's is <name>__backward
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(cert.to_json(), indent=1, sort_keys=True) + "\n")
    tmp.replace(path)
    return path


# A record file's text (SHA-256) -> its CertifiedKernel or None: the checker is deterministic, so a record
# whose text did not change needs no second check within a process (notebooks call the store repeatedly).
_CERTIFIED: dict[str, Any] = {}


def certificate_store(workspace=None, mode: str = "observable") -> list:
    """The rule's certificate store: certified kernels from the workspace's records and certificates, then
    the shipped corpus. The rule recomputes each certificate from its record with the current checker (a
    certificate file is a report of what was issued, never trusted as input); one bar counts the records."""
    import hashlib

    from workbench import progress
    from workbench import workspace as ws
    from workbench.rule import store

    paths = [p for root in kernel_roots(workspace) for p in sorted(root.glob("*/*.json"))]
    seen: set[str] = set()
    out = []
    for p in progress.track(paths, desc="certificate store", unit="record"):
        key = hashlib.sha256(p.read_bytes()).hexdigest() + ":" + mode
        if key not in _CERTIFIED:
            _CERTIFIED[key] = store.certified_from(_load_record(p).record, mode)
        c = _CERTIFIED[key]
        if c is not None and c.record.source_hash + c.record.program not in seen:
            seen.add(c.record.source_hash + c.record.program)
            out.append(c)
    for p in sorted(ws.subdir("certificates", workspace).glob("*/*.json")):
        for lc in _certificates_from(_read(p), p, workspace):
            key = lc.record.record.source_hash + lc.record.record.program
            if key in seen or lc.certificate.mode != mode:
                continue
            c = store.certified_from(lc.record.record, lc.certificate.mode)
            if c is not None:
                seen.add(key)
                out.append(c)
    return out
