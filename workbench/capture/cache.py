"""Model-level capture cache: a zoo model's capture, reused while everything it was computed from is unchanged.

Stage: capture (around :func:`workbench.capture.isolated.capture_isolated`). Capturing resnet18 costs about
9 s of Inductor's own work on the 2-core machine; checking its kernels about 6 s. When a zoo model is captured
again with the same inputs (``zoo run`` into a new folder, a benchmark, a rerun after a checker change), the
capture is a function of those inputs, so the earlier result is the answer. The cache stores the very JSON the
capture child wrote (the record format, validated again on read like a child's result) and never anything
the checker computed: every verdict is computed again from the records.

What the key covers (:func:`key`), so that a cached capture is one a fresh capture would give:

* the request: the program reference, the capture device, the GPU profile, inference or training step;
* the workbench's own source files, by content (the zoo's model definitions, the capture hooks, the record
  format);
* the interpreter (path and version) and, for torch, triton, sympy, numpy, torchvision and transformers, the
  installed version and every Python and extension file's path, size and modification time (an edit in
  place is a change; about 0.4 s the first time in a process);
* environment variables that can change what Inductor emits or what the child imports (names beginning
  with ``TORCH``, ``PYTORCH``, ``TRITON``, ``INDUCTOR``, ``CUDA``, ``NVIDIA``, ``HF_``, ``TRANSFORMERS``,
  ``PYTHON`` or ``WORKBENCH_``, and ``LD_LIBRARY_PATH``);
* which NVIDIA device files exist (``/dev/nvidia*``): a GPU that appears changes ``--device cuda``.

Only zoo models are cached (references in a namespace the workbench's zoo registers, ``zoo:NAME`` and
``zoo_train:NAME``): their code is the workbench's and the installed libraries'. A user's FILE.py can import
anything and read any file, so its capture is never cached. ``capture_isolated(..., fresh=True)`` and
``WORKBENCH_CAPTURE_FRESH=1`` bypass the cache too, and ``WORKBENCH_CAPTURE_CACHE=off`` turns it off;
``WORKBENCH_CAPTURE_CACHE=DIR`` moves it (default: ``$XDG_CACHE_HOME/workbench/captures``, else
``~/.cache/workbench/captures``). Entries are written whole (a temporary file renamed into place); an entry
that does not read back as a capture result is ignored and replaced.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

CACHE_ENV = "WORKBENCH_CAPTURE_CACHE"
FORMAT = "workbench.capture_cache/1"
PACKAGES = ("torch", "triton", "sympy", "numpy", "torchvision", "transformers")
ENV_PREFIXES = ("TORCH", "PYTORCH", "TRITON", "INDUCTOR", "CUDA", "NVIDIA", "HF_", "TRANSFORMERS", "PYTHON",
                "WORKBENCH_")
ENV_NAMES = ("LD_LIBRARY_PATH",)
CACHED_NAMESPACES = ("workbench.zoo.",)  # modules whose program namespaces are cached (zoo:NAME, zoo_train:NAME)
_log = logging.getLogger(__name__)


def directory() -> Path | None:
    """Where entries live, or ``None`` when the cache is off."""
    value = os.environ.get(CACHE_ENV, "").strip()
    if value.lower() in ("off", "0", "no", "false"):
        return None
    if value:
        return Path(value).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "workbench" / "captures"


def cacheable(ref: str) -> bool:
    """A zoo model (a namespace the workbench's zoo registers), never a file or another program."""
    from workbench.programs import namespace_module

    if ref.endswith(".py") or os.sep in ref:
        return False
    module = namespace_module(ref)
    return module is not None and module.startswith(CACHED_NAMESPACES)


def key(ref: str, device: str, gpu: str, backward: bool, env: dict[str, str]) -> str:
    """The hex digest naming a capture's inputs (module docstring), for ``ref`` captured in environment ``env``."""
    parts = {
        "format": FORMAT,
        "request": [ref, device, gpu, bool(backward)],
        "python": [sys.executable, sys.version],
        "workbench": _workbench_digest(),
        "packages": [_package_digest(p, _version(p)) for p in PACKAGES],
        "env": sorted((k, v) for k, v in env.items()
                      if k != CACHE_ENV and (k.startswith(ENV_PREFIXES) or k in ENV_NAMES)),
        "devices": sorted(p.name for p in Path("/dev").glob("nvidia*")),
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def get(digest: str) -> dict | None:
    """The capture result kept under ``digest`` (the child's JSON), or ``None``."""
    root = directory()
    if root is None:
        return None
    path = _entry(root, digest)
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != digest:
        return None
    return data.get("capture") if isinstance(data.get("capture"), dict) else None


def put(digest: str, capture: dict, ref: str) -> None:
    """Keep ``capture`` (the child's JSON) under ``digest``; a cache that cannot be written is skipped."""
    root = directory()
    if root is None:
        return
    path = _entry(root, digest)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w") as f:
                json.dump({"format": FORMAT, "key": digest, "ref": ref, "capture": capture}, f)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:  # a read-only or full disk costs the next run a capture, nothing else
        _log.warning("workbench: note: the capture cache %s cannot be written (%s); captures are not kept. "
                     "Set %s to a writable folder, or to off", root, exc.strerror or exc, CACHE_ENV)


def _entry(root: Path, digest: str) -> Path:
    return root / digest[:2] / f"{digest}.json"


def _workbench_digest() -> str:
    from workbench.paths import ROOT

    h = hashlib.sha256()
    base = ROOT / "workbench"
    for p in sorted(base.rglob("*.py")):
        try:
            data = p.read_bytes()
        except OSError:
            continue
        h.update(p.relative_to(base).as_posix().encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return h.hexdigest()


def _version(dist: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "absent"


@lru_cache(maxsize=None)
def _package_digest(package: str, version: str) -> str:
    """``version`` and the path, size and modification time of each of ``package``'s Python and extension
    files (once per process and version: about 0.4 s for all of :data:`PACKAGES`)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        return f"{package} {version} absent"
    h = hashlib.sha256(f"{package} {version}".encode())
    for root in sorted(spec.submodule_search_locations):
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for name in sorted(filenames):
                if not name.endswith((".py", ".so", ".pyd")):
                    continue
                path = os.path.join(dirpath, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                h.update(f"{os.path.relpath(path, root)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()
