"""Model-level capture cache: a zoo model's capture, reused while everything it was computed from is unchanged.

Stage: capture (around :func:`workbench.capture.isolated.capture_isolated`). Capturing resnet18 costs about
9 s of Inductor's own work on the 2-core machine; checking its kernels about 6 s. When a zoo model is captured
again with the same inputs (``zoo run`` into a new folder, a benchmark, a rerun after a checker change), the
capture is a function of those inputs, so the earlier result is the answer. The cache stores the very JSON the
capture child wrote (the record format, validated again on read like a child's result) and never anything
the checker computed: every verdict is computed again from the records.

What the key covers (:func:`key`), so that a cached capture is one a fresh capture would give:

* the request: the program reference, the capture device, the GPU profile, inference or training step;
* the host's CPU count and architecture (the CPU backend's kernels carry the core count);
* :func:`inputs_digest`, the code a capture runs: the workbench's own source files by content (the zoo's model
  definitions, the capture hooks, the record format); the interpreter (path and version); every installed
  distribution's name and version; for each library of :data:`PACKAGES`, every Python and extension file's
  path, size and modification time (an edit in place is a change); each folder the child imports from (the
  checkout's top level, absolute ``PYTHONPATH`` entries, the standard library, the site folders): its
  top-level entries and the content of its start-up code (``sitecustomize``, ``usercustomize``, ``.pth``;
  the checkout's top-level ``.py`` files). About 0.3-0.5 s; computed before and after each capture (an edit
  while the child runs is not kept), and the capture server keys itself on it, so the code that captures is
  the code the key describes;
* environment variables that can change what Inductor emits or what the child imports (:data:`ENV_PREFIXES`,
  :data:`ENV_NAMES`; not :data:`ENV_IGNORED`, the cache folders capture replaces with its own).

Not covered, so documented: an in-place edit inside a library outside :data:`PACKAGES` (its version and its
top-level entry count), and folders a ``.pth`` file adds (its text counts).

Only zoo models are cached (references in a namespace the workbench's zoo registers, ``zoo:NAME`` and
``zoo_train:NAME``): their code is the workbench's and the installed libraries'. A user's FILE.py can import
anything and read any file, so its capture is never cached. Nor is anything on a machine where a GPU's device
files exist (:data:`GPU_DEVICE_FILES`): there the capture depends on the GPU, which the key does not describe.

A capture is kept, and a hit used, only when it fits its request (:func:`fits`: the reference's program,
inference kernels for inference, captured on the fake CUDA device of the requested profile or on the CPU
backend). A hit must also name the same reference and key, hold a SHA-256 of its capture that matches (a
checksum against damage, not a seal), and every kernel record must pass
:func:`workbench.capture.record.validate` (source hash included); anything else is a miss, captured again and
replaced. ``capture_isolated(..., fresh=True)``, ``use_cache=False`` and ``WORKBENCH_CAPTURE_FRESH=1`` bypass
the cache; ``WORKBENCH_CAPTURE_CACHE=off`` turns it off and ``WORKBENCH_CAPTURE_CACHE=DIR`` moves it (default:
``$XDG_CACHE_HOME/workbench/captures``, else ``~/.cache/workbench/captures``). Entries are written whole (a
temporary file renamed into place).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import platform
import sys
import tempfile
from pathlib import Path

CACHE_ENV = "WORKBENCH_CAPTURE_CACHE"
FORMAT = "workbench.capture_cache/1"
PACKAGES = ("torch", "torchgen", "functorch", "triton", "sympy", "numpy", "torchvision", "transformers",
            "huggingface_hub", "safetensors", "tokenizers", "networkx", "jinja2", "mpmath", "filelock")
ENV_PREFIXES = ("TORCH", "PYTORCH", "TRITON", "INDUCTOR", "CUDA", "NVIDIA", "HF_", "TRANSFORMERS", "PYTHON",
                "SYMPY", "WORKBENCH_")
ENV_NAMES = ("LD_LIBRARY_PATH", "LD_PRELOAD")
ENV_IGNORED = ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR", "WORKBENCH_CAPTURE_CACHE")  # capture replaces them
CACHED_NAMESPACES = ("workbench.zoo.",)  # modules whose program namespaces are cached (zoo:NAME, zoo_train:NAME)
_log = logging.getLogger(__name__)


def directory() -> Path | None:
    """Where entries live, or ``None`` when the cache is off."""
    value = os.environ.get(CACHE_ENV, "").strip()
    if value.lower() in ("off", "0", "no", "false"):
        return None
    try:
        if value:
            return Path(value).expanduser()
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    except RuntimeError:  # no home folder to expand or to default to: no cache
        return None
    return Path(base) / "workbench" / "captures"


def cacheable(ref: str) -> bool:
    """A zoo model (a namespace the workbench's zoo registers), never a file or another program."""
    from workbench.programs import namespace_module

    if ref.endswith(".py") or os.sep in ref or gpu_machine():
        return False
    module = namespace_module(ref)
    return module is not None and module.startswith(CACHED_NAMESPACES)


GPU_DEVICE_FILES = ("nvidia*", "dxg", "kfd")  # NVIDIA's, WSL2's CUDA, ROCm's


def gpu_machine() -> bool:
    """Whether a GPU may be present (its device files exist): the capture would depend on it."""
    return any(any(Path("/dev").glob(pattern)) for pattern in GPU_DEVICE_FILES)


def fits(capture, ref: str, device: str, gpu: str, backward: bool) -> bool:
    """Whether a capture read back is one a capture child writes for this request on a machine without a GPU:
    the reference's program, every kernel of it, inference kernels for an inference request, and each kernel
    captured on the fake CUDA device of profile ``gpu`` or on the CPU backend (never a real GPU: that capture
    depends on the GPU, which the key does not describe). :func:`put` keeps only such captures."""
    name = ref.split(":", 1)[1]
    if capture.program != name or not capture.kernels:
        return False
    # without a GPU: --device cuda captures inference on the fake device and a training step on the CPU backend
    on_cpu = device == "cpu" or (device == "cuda" and backward)
    label = "cpu " if on_cpu else f"fake-cuda:{gpu} "
    for k in capture.kernels:
        if k.program != name or (not backward and getattr(k, "phase", "forward") != "forward"):
            return False
        if not k.device.startswith(label):
            return False
    return True


def key(ref: str, device: str, gpu: str, backward: bool, env: dict[str, str], inputs: str | None = None) -> str:
    """The hex digest naming a capture's inputs (module docstring), for ``ref`` captured in environment ``env``
    (``inputs``: :func:`inputs_digest`, when the caller computed it already)."""
    parts = {
        "format": FORMAT,
        "request": [ref, device, gpu, bool(backward)],
        "inputs": inputs if inputs is not None else inputs_digest(),
        "host": [os.cpu_count(), platform.machine()],  # the CPU backend's kernels read the core count
        "env": sorted((k, v) for k, v in env.items()
                      if k not in ENV_IGNORED and (k.startswith(ENV_PREFIXES) or k in ENV_NAMES)),
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def inputs_digest() -> str:
    """A digest of the code a capture runs besides the request: the workbench's sources by content, the
    interpreter, the installed distributions and :data:`PACKAGES`' files, and what the child's import path
    holds at its top level (module docstring). The capture server keys itself on it too."""
    parts = [sys.executable, sys.version, _workbench_digest(), _distributions(), _path_tops(),
             *(_package_digest(p, _version(p)) for p in PACKAGES)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def get(digest: str, ref: str) -> dict | None:
    """The capture result kept under ``digest`` for ``ref`` (the child's JSON), or ``None`` (also for an entry
    that does not read back whole: another reference or key, a capture whose SHA-256 differs, not JSON)."""
    root = directory()
    if root is None:
        return None
    try:
        data = json.loads(_entry(root, digest).read_text())
        capture = data["capture"]
        ok = (data["format"] == FORMAT and data["key"] == digest and data["ref"] == ref
              and data["sha256"] == _sha(capture))
    except Exception:  # noqa: BLE001 - whatever is wrong with an entry, it is a miss (and is replaced)
        return None
    return capture if ok and isinstance(capture, dict) else None


def _sha(capture) -> str:
    return hashlib.sha256(json.dumps(capture, sort_keys=True).encode()).hexdigest()


def put(digest: str, capture: dict, ref: str) -> None:
    """Keep ``capture`` (the child's JSON, which the caller checked with :func:`fits`) under ``digest``; a cache
    that cannot be written is skipped."""
    root = directory()
    if root is None:
        return
    path = _entry(root, digest)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".part")
        try:
            with os.fdopen(fd, "w") as f:
                json.dump({"format": FORMAT, "key": digest, "ref": ref, "sha256": _sha(capture),
                           "capture": capture}, f)
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


def _distributions() -> str:
    from importlib import metadata

    got = set()
    for d in metadata.distributions():
        try:
            got.add(f"{d.metadata['Name']}=={d.version}")
        except Exception:  # noqa: BLE001 - a broken distribution's metadata: named as such
            got.add(f"unreadable {getattr(d, '_path', '?')}")
    return "|".join(sorted(got))


def _child_path() -> list[str]:
    """The folders a capture child imports from, besides its own temporary folder and the checkout (whose
    ``workbench`` package is hashed by content): ``PYTHONPATH``, the standard library, the site folders."""
    import site
    import sysconfig

    # a relative entry names a folder inside the child's own temporary working folder: nothing there
    folders = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if os.path.isabs(p)]
    folders += [sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")]
    folders += [*site.getsitepackages(), site.getusersitepackages()]
    return list(dict.fromkeys(os.path.abspath(f) for f in folders))


def _path_tops() -> str:
    """Each folder of the child's path: top-level entries (name, size, mtime), with start-up code's content."""
    from workbench.paths import ROOT

    h = hashlib.sha256()
    root = os.path.abspath(ROOT)
    # The checkout is first on the child's path: its ``workbench`` package is hashed by content; what else sits
    # at its top level is named, and its Python and start-up files hashed by content (a ``numpy.py`` or a
    # ``sitecustomize.py`` there would run in every capture).
    h.update(b"checkout\0")
    for name in sorted(os.listdir(root)):
        h.update(f"{name}\n".encode())
        if name.endswith((".py", ".pth")) and os.path.isfile(os.path.join(root, name)):
            h.update(_content(os.path.join(root, name)))
    for folder in _child_path():
        if folder == root:
            continue
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        h.update(f"{folder}\0".encode())
        for name in names:
            path = os.path.join(folder, name)
            h.update(_stat_line(path, name))
            if name.endswith(".pth") or name in ("sitecustomize.py", "usercustomize.py"):
                h.update(_content(path))
    return h.hexdigest()


def _stat_line(path: str, label: str) -> bytes:
    """``label``, size and modification time of ``path`` (nothing for a file that vanished meanwhile)."""
    try:
        st = os.stat(path)
    except OSError:
        return b""
    return f"{label}\0{st.st_size}\0{st.st_mtime_ns}\n".encode()


def _content(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError:
        return b""


def _package_digest(package: str, version: str) -> str:
    """``version`` and the path, size and modification time of each of ``package``'s Python and extension
    files (computed each time: about 0.4 s for all of :data:`PACKAGES`)."""
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
                h.update(_stat_line(path, os.path.relpath(path, root)))
    return h.hexdigest()
